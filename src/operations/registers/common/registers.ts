import type { RegisterSource } from "../../../services/registers/types";

export const OGL = "Contains public sector information licensed under the Open Government Licence v3.0.";

/**
 * The one table of what each register is, the attribution it requires (checks and feeds alike), and
 * whether its entries carry company numbers (else a company number is matched through the company's names).
 */
/** SPEC §1 rule 7: said wherever a lookup finds nothing, so a 404 never reads as "this person's business is not registered". */
const INDIVIDUALS_NOT_COVERED = "Individuals registered under their own names (sole traders) are not covered by this service.";

export const REGISTERS: Record<RegisterSource, { name: string; attribution: string; licence: string | null; companyNumbers: boolean; notFound: string }> = {
  aml: {
    name: "HMRC Money Laundering Regulations supervised business register",
    attribution: "Source: HM Revenue & Customs, supervised business register.",
    licence: OGL,
    companyNumbers: false,
    // SPEC §4.5: never "unsupervised".
    notFound: `Not being on HMRC's register does not mean the business is unsupervised: another body, such as the FCA or a professional body (for law firms and accountants usually their own), may supervise it. ${INDIVIDUALS_NOT_COVERED}`,
  },
  sra: {
    name: "Solicitors Regulation Authority register of organisations",
    attribution: "Source: Solicitors Regulation Authority (SRA) register data, supplied under the SRA's firm data terms. The SRA does not endorse this service.",
    licence: null,
    companyNumbers: true,
    notFound: "The SRA's register lists firms; a firm not on it may be regulated by another legal regulator. Individual solicitors are not covered by this service.",
  },
  sponsors: {
    name: "Home Office register of licensed sponsors (workers; students)",
    attribution: "Source: Home Office, register of licensed sponsors.",
    licence: OGL,
    companyNumbers: false,
    notFound: INDIVIDUALS_NOT_COVERED,
  },
  cqc: {
    name: "Care Quality Commission register (API and HSCA active locations)",
    attribution: "Contains CQC data © Care Quality Commission, licensed under the Open Government Licence v3.0. CQC does not endorse this service.",
    licence: "Open Government Licence v3.0",
    companyNumbers: true,
    notFound: `Providers registered as individuals, and locations named only after a person, are not covered by this service.`,
  },
  charity: {
    name: "Charity Commission for England and Wales register of charities",
    attribution: "Source: Charity Commission for England and Wales.",
    licence: OGL,
    companyNumbers: true,
    notFound: "The Charity Commission registers charities in England and Wales; Scottish and Northern Irish charities, and exempt or excepted charities, are not on it.",
  },
};
