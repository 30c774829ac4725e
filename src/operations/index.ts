import type { AnyOperation } from "../platform/registry";
import { getAccount } from "./account/getAccount";
import { revokeApiKey } from "./account/revokeApiKey";
import { startSignup } from "./account/startSignup";
import { verifySignup } from "./account/verifySignup";
import { getAccounts } from "./companies/getAccounts";
import { getDeadlines } from "./companies/getDeadlines";
import { getOwnership } from "./companies/getOwnership";
import { listCharges } from "./companies/listCharges";
import { revokeDeadlinesFeed } from "./companies/revokeDeadlinesFeed";
import { searchCompanies } from "./companies/searchCompanies";
import { calculateLatePayment } from "./money/calculateLatePayment";
import { checkPpn018 } from "./money/checkPpn018";
import { estimateCustomerPayment } from "./money/estimateCustomerPayment";
import { getGenderPayGap } from "./money/getGenderPayGap";
import { getPaymentPractices } from "./money/getPaymentPractices";
import { listContractsWon } from "./money/listContractsWon";
import { tenderMatch } from "./enrichment/tenderMatch";
import { checkDistressSignals } from "./risk/checkDistressSignals";
import { checkIdentityVerification } from "./risk/checkIdentityVerification";
import { getPublicRecord } from "./risk/getPublicRecord";
import { getLicencesAndRegisters } from "./risk/getLicencesAndRegisters";
import { checkAmlRegister } from "./registers/checkAmlRegister";
import { checkCharity } from "./registers/checkCharity";
import { checkCqcProvider } from "./registers/checkCqcProvider";
import { checkSponsorLicence } from "./registers/checkSponsorLicence";
import { checkSraRegister } from "./registers/checkSraRegister";
import { listAmlRegisterChanges } from "./registers/listAmlRegisterChanges";
import { listCharityChanges } from "./registers/listCharityChanges";
import { listCqcChanges } from "./registers/listCqcChanges";
import { listSponsorLicenceChanges } from "./registers/listSponsorLicenceChanges";
import { listSraChanges } from "./registers/listSraChanges";
import { getWatchWebhook } from "./watch/getWatchWebhook";
import { listWatchEvents } from "./watch/listWatchEvents";
import { listWatches } from "./watch/listWatches";
import { removeWatchWebhook } from "./watch/removeWatchWebhook";
import { setWatchWebhook } from "./watch/setWatchWebhook";
import { testWatchWebhook } from "./watch/testWatchWebhook";
import { unwatchCompany } from "./watch/unwatchCompany";
import { watchCompany } from "./watch/watchCompany";
import { auditAccessibility } from "./web/auditAccessibility";
import { companyLogo } from "./web/companyLogo";
import { checkWebsiteLegal } from "./web/checkWebsiteLegal";
import { checkAiVisibility } from "./web/checkAiVisibility";
import { getBrandKit } from "./web/getBrandKit";

import { scoreModernSlaveryStatementByUrl } from "./documents/scoreModernSlaveryStatementByUrl";
import { scoreModernSlaveryStatement } from "./documents/scoreModernSlaveryStatement";
import { structureOfstedReportByUrl } from "./documents/structureOfstedReportByUrl";
import { structureOfstedReport } from "./documents/structureOfstedReport";
import { structureCqcReportByUrl } from "./documents/structureCqcReportByUrl";
import { structureCqcReport } from "./documents/structureCqcReport";
import { structureCharityReportByUrl } from "./documents/structureCharityReportByUrl";
import { structureCharityReport } from "./documents/structureCharityReport";
import { checkCarbonReductionPlan } from "./documents/checkCarbonReductionPlan";
import { assessFit } from "./enrichment/assessFit";
import { businessScore } from "./enrichment/businessScore";
import { classifyIndustry } from "./enrichment/classifyIndustry";
import { enrichBatch } from "./enrichment/enrichBatch";
import { enrichCompany } from "./enrichment/enrichCompany";
import { enrichDemo } from "./enrichment/enrichDemo";
/**
 * Every operation of the service, once. Routes, OpenAPI, Markdown, the catalog, MCP tools and the contract
 * test come from this list. Each lives in `<family>/<operationId>.ts`; shared pieces of a family in `<family>/common/`.
 */
export const operations: readonly AnyOperation[] = [
  checkAmlRegister,
  listAmlRegisterChanges,
  checkSraRegister,
  listSraChanges,
  checkSponsorLicence,
  listSponsorLicenceChanges,
  checkCqcProvider,
  listCqcChanges,
  checkCharity,
  listCharityChanges,
  searchCompanies,
  getOwnership,
  listCharges,
  getAccounts,
  getDeadlines,
  revokeDeadlinesFeed,
  checkIdentityVerification,
  getPublicRecord,
  getLicencesAndRegisters,
  checkDistressSignals,
  calculateLatePayment,
  getPaymentPractices,
  checkPpn018,
  estimateCustomerPayment,
  getGenderPayGap,
  listContractsWon,
  tenderMatch,
  watchCompany,
  listWatches,
  unwatchCompany,
  listWatchEvents,
  setWatchWebhook,
  getWatchWebhook,
  removeWatchWebhook,
  testWatchWebhook,
  revokeApiKey,
  auditAccessibility,
  companyLogo,
  checkWebsiteLegal,
  checkAiVisibility,
  getBrandKit,
  scoreModernSlaveryStatementByUrl,
  scoreModernSlaveryStatement,
  structureOfstedReportByUrl,
  structureOfstedReport,
  structureCqcReportByUrl,
  structureCqcReport,
  structureCharityReportByUrl,
  structureCharityReport,
  checkCarbonReductionPlan,
  enrichCompany,
  enrichBatch,
  enrichDemo,
  businessScore,
  assessFit,
  classifyIndustry,
  startSignup,
  verifySignup,
  getAccount,
] as unknown as AnyOperation[];
