import type { AnyOperation } from "../platform/registry";
import { getAccount } from "./account/getAccount";
import { revokeKey } from "./account/revokeKey";
import { signup } from "./account/signup";
import { verifySignup } from "./account/verifySignup";
import { latePayment } from "./money/latePayment";
import { amlRegister } from "./registers/amlRegister";
import { amlRegisterChanges } from "./registers/amlRegisterChanges";
import { charityCheck } from "./registers/charityCheck";
import { charityCheckChanges } from "./registers/charityCheckChanges";
import { cqcCheck } from "./registers/cqcCheck";
import { cqcCheckChanges } from "./registers/cqcCheckChanges";
import { sponsorLicence } from "./registers/sponsorLicence";
import { sponsorLicenceChanges } from "./registers/sponsorLicenceChanges";
import { sraCheck } from "./registers/sraCheck";
import { sraCheckChanges } from "./registers/sraCheckChanges";
import { companyLogo } from "./web/companyLogo";

/** Every operation of the service, once. Routes, OpenAPI, Markdown, the catalog and MCP tools come from this list. */
export const operations: readonly AnyOperation[] = [
  amlRegister,
  amlRegisterChanges,
  sraCheck,
  sraCheckChanges,
  sponsorLicence,
  sponsorLicenceChanges,
  cqcCheck,
  cqcCheckChanges,
  charityCheck,
  charityCheckChanges,
  latePayment,
  revokeKey,
  companyLogo,
  signup,
  verifySignup,
  getAccount,
] as unknown as AnyOperation[];
