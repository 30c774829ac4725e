/**
 * The one list of the registers this service loads (pure data, no I/O). The source ids, the cron's
 * daily jobs, the CLI's accepted sources and files, and what every answer says of its register (name,
 * attribution, licence, what it does not cover) all come from here; how each register is
 * fetched, parsed and chunked is its adapter's (src/jobs/ingest/adapters/<source>.ts). Adding a
 * register is one entry here plus one adapter.
 */
export interface RegisterCatalogueEntry {
  /** The register's name, as replies name their source (provenance). */
  title: string;
  /** How the service obtains it: a published file or an API (provenance). */
  obtainedFrom: string;
  /** The attribution the publisher requires, in every answer from the register (checks and feeds alike). */
  attribution: string;
  /** The licence of the data, when it has an open one. */
  licence: string | null;
  /** Whether its entries carry company numbers (else a company number is matched through the company's names). */
  companyNumbers: boolean;
  /** The register's own number for an organisation, as a possible match's `toConfirm` names it; absent where it has none. */
  numberLabel?: string;
  /** Said wherever a lookup finds nothing: what the register does not cover (SPEC §1 rule 7: never "this person's business is not registered"). */
  notFound: string;
  /**
   * A register published as several files read together (the charity extract: one table per file,
   * `charity` first). The CLI reads each one it finds beside the file it is given, named
   * `publicextract.<table>.txt` or `.zip` as downloaded.
   */
  tables?: readonly string[];
}

export const OGL = "Contains public sector information licensed under the Open Government Licence v3.0.";

/** SPEC §1 rule 7: said wherever a lookup finds nothing, so a 404 never reads as "this person's business is not registered". */
const INDIVIDUALS_NOT_COVERED = "Individuals registered under their own names (sole traders) are not covered by this service.";

/** Keyed by source id (the run log, the queue messages, `npm run ingest -- <source>`), in the cron's order. */
export const REGISTER_CATALOGUE = {
  aml: {
    title: "HMRC Money Laundering Regulations supervised business register",
    obtainedFrom: "file: HMRC's supervised business register spreadsheet (ODS) on GOV.UK, read daily",
    attribution: "Source: HM Revenue & Customs, supervised business register.",
    licence: OGL,
    companyNumbers: false,
    numberLabel: "MLR number",
    // SPEC §4.5: never "unsupervised".
    notFound: `Not being on HMRC's register does not mean the business is unsupervised: another body, such as the FCA or a professional body (for law firms and accountants usually their own), may supervise it. ${INDIVIDUALS_NOT_COVERED}`,
  },
  sra: {
    title: "Solicitors Regulation Authority register of organisations",
    obtainedFrom: "API: the SRA data share API (every organisation), read daily",
    attribution:
      "Source: Solicitors Regulation Authority (SRA) register data, supplied under the SRA's firm data terms. The SRA does not endorse this service.",
    licence: null,
    companyNumbers: true,
    numberLabel: "SRA number",
    notFound:
      "The SRA's register lists firms; a firm not on it may be regulated by another legal regulator. Individual solicitors are not covered by this service.",
  },
  sponsors: {
    title: "Home Office register of licensed sponsors (workers; students)",
    obtainedFrom: "file: the Home Office's two CSV registers on GOV.UK, read daily",
    attribution: "Source: Home Office, register of licensed sponsors.",
    licence: OGL,
    companyNumbers: false,
    notFound: INDIVIDUALS_NOT_COVERED,
  },
  cqc: {
    title: "Care Quality Commission register (API and HSCA active locations)",
    obtainedFrom: "API and file: the CQC public API's changes, and its HSCA active locations spreadsheet",
    attribution: "Contains CQC data © Care Quality Commission, licensed under the Open Government Licence v3.0. CQC does not endorse this service.",
    licence: "Open Government Licence v3.0",
    companyNumbers: true,
    numberLabel: "CQC provider or location id",
    notFound: `Providers registered as individuals, and locations named only after a person, are not covered by this service.`,
  },
  charity: {
    title: "Charity Commission for England and Wales register of charities",
    obtainedFrom: "file: the Charity Commission's register extract (zipped text tables), read daily",
    attribution: "Source: Charity Commission for England and Wales.",
    licence: OGL,
    companyNumbers: true,
    numberLabel: "charity number",
    notFound:
      "The Charity Commission registers charities in England and Wales; Scottish and Northern Irish charities, and exempt or excepted charities, are not on it.",
    tables: [
      "charity",
      "charity_annual_return_history",
      "charity_area_of_operation",
      "charity_classification",
      "charity_event_history",
      "charity_governing_document",
      "charity_other_names",
      "charity_other_regulators",
      "charity_trustee",
    ],
  },
  companies: {
    title: "Companies House Basic Company Data (every live company, monthly)",
    obtainedFrom: "file: Companies House's monthly Basic Company Data zip",
    attribution: "Source: Companies House.",
    licence: OGL,
    companyNumbers: true,
    notFound: "The monthly Basic Company Data file lists live companies only: a company dissolved before the file was compiled is not in it.",
  },
  sanctions: {
    title: "UK Sanctions List (FCDO)",
    obtainedFrom: "file: the FCDO UK Sanctions List (CSV), read daily",
    attribution: "Source: Foreign, Commonwealth & Development Office, UK Sanctions List.",
    licence: OGL,
    companyNumbers: true,
    // SPEC §1 rule 6: only a definite match is reported, and its absence is never a clearance.
    notFound: "No definite match on the UK sanctions list; this is not a clearance.",
  },
  // One scope per reporting year ("2021" for 2021 to 2022), one entry per employer and year.
  "gender-pay-gap": {
    title: "Gender pay gap reports (Government Equalities Office)",
    obtainedFrom: "file: the gender pay gap service's CSV for each reporting year, read daily",
    attribution: "Source: Government Equalities Office, gender pay gap service (gender-pay-gap.service.gov.uk).",
    licence: OGL,
    companyNumbers: true,
    notFound:
      "Only employers with 250 or more employees on the snapshot date must report their gender pay gap; many public bodies that report have no company number.",
  },
  // Issue 14 §1: read as changes (awards published or updated since the last run), one entry per award and supplier.
  contracts: {
    title: "Public contract awards (Contracts Finder and Find a Tender)",
    obtainedFrom: "API: the Find a Tender and Contracts Finder OCDS APIs (award releases), read daily",
    attribution: "Contains public sector information from Contracts Finder and Find a Tender, Cabinet Office",
    licence: OGL,
    companyNumbers: true,
    notFound: "Awards are matched by Companies House number, or by exact name and postcode; suppliers recorded without either cannot be tied to a company.",
  },
  // Issue 14 §1: the whole export daily, one entry per report (company and reporting period).
  "payment-practices": {
    title: "Payment practices and performance reports (Department for Business and Trade)",
    obtainedFrom: "file: the Check payment practices export (CSV of every report), read daily",
    attribution: "Source: Department for Business and Trade, Check payment practices service (check-payment-practices.service.gov.uk).",
    licence: OGL,
    companyNumbers: true,
    notFound:
      "Only large companies and LLPs must report their payment practices (each half of their financial year); most businesses are out of scope, so having no report is not evidence of good or bad payment.",
  },
} as const satisfies Record<string, RegisterCatalogueEntry>;
