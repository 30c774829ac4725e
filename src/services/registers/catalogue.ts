/**
 * The one list of the registers this service loads (pure data, no I/O): a register is one entry here. The source
 * ids, the cron's daily jobs, the CLI's accepted sources and sample files (`npm start`, `npm run reset`), what every
 * answer says of its register (name, short label, attribution, licence, what it does not cover), its own number
 * for an organisation, what counts as a change on it (rules.ts reads `changes`), what a change feed record names
 * (`changeIdentifier`), the upstreams the status page asks, whether licences-and-registers and the public record's
 * timeline ask it (`organisation`), and the shape of its rows' `data` (at the end of this file: an interface, its line in
 * RegisterDataOf and its keys in REGISTER_DATA_KEYS) all come from here. How each register is fetched, parsed and chunked is
 * its adapter's (src/jobs/ingest/adapters/<source>.ts, one per source: a missing one is a compile error in
 * adapters/index.ts); its check and change feed are operations (src/operations/registers/). Every list derived
 * from here is checked by test/services/registers/catalogue.test.ts.
 */
import type { BulkCompanyData } from "../companies/records";
import type { ContractAward } from "../contracts/types";
import type { GenderPayGapReport } from "../paygap/types";
import type { PaymentReport } from "../payments/types";
import type { SanctionsDesignation } from "../sanctions/types";
import { currentRouteNames } from "./sponsorRoutes";

/**
 * Kinds of change (SPEC §6.3): every register has added, removed, returned and status; the sponsors
 * register also re-rated, moved and routes; CQC also deregistered and re-rated; HMRC also premises; the
 * companies register also renamed and moved (a new registered-office postcode).
 */
export type ChangeKind = "added" | "removed" | "returned" | "status" | "re-rated" | "moved" | "deregistered" | "routes" | "premises" | "renamed";

/**
 * What counts as a change on a register (SPEC §3.2, §4.5, §4.8, §6.3), read by the diff
 * (src/services/registers/diff.ts) and by the change feeds (which kinds a feed can filter on).
 *
 * Changes are per entity (see RegisterRecord.entity): an organisation is added, removed or returned
 * once, whatever its rows do; rows that a register rewrites (a route renamed, a town re-cased, a
 * premises' trading name) are compared through the entity's facets below.
 */
export interface ChangeRules {
  /** Every kind the register's feed can report, in the order the feed documents them. */
  kinds: readonly ChangeKind[];
  /** Kinds the feed accepts as a filter although they cannot occur on this register, with the reason. */
  neverOccurs?: Partial<Record<ChangeKind, string>>;
  /** The kind reported when an entity leaves the register. */
  gone: "removed" | "deregistered";
  /** Statuses (canonical: lower case, no spaces) that mean "listed, but off the register" (CQC Deregistered, a charity Removed). */
  offStatuses: readonly string[];
  /** Ratings: one per entity (CQC), or per part, compared only on parts listed in both editions (sponsors' routes). */
  rating: "entity" | "byPart" | null;
  /**
   * The entity's parts as a set (sponsors: routes gained or lost) or a multiset (HMRC: premises per
   * district). `successors` gives a part's current names (a route renamed or split): parts are the
   * same when their current names meet.
   */
  parts: { kind: "routes" | "premises"; as: "set" | "multiset"; successors?: (part: string) => string[] } | null;
  /** Towns rewritten are `moved` (sponsors). */
  towns: boolean;
}

/** An entry of register S's published edition, as far as its register number needs it (services/registers/types.ts Entry). */
export interface NumberedEntry<S extends RegisterDataSource> {
  key: string;
  data: RegisterDataOf[S];
}

/** The register's own number of an organisation, and what it is called (`MLR number`, `CQC provider id`). */
export interface RegisterNumber {
  type: string;
  value: string;
}

/** An upstream the status page (/api/status) asks: its name there, and the Worker variable holding its base URL (src/env.ts). */
export interface StatusUpstream {
  name: string;
  urlVar: string;
}

/** A sample file `npm start` loads (scripts/start.mjs, through src/cli/ingest.ts SAMPLE_FILES): our own, in the upstream's format. */
export interface SampleFile {
  /** From the repository's root, under test/fixtures/. */
  file: string;
  /** The edition date, where the file does not carry one (else read from the file or its name). */
  date?: string;
}

interface RegisterCatalogueBase {
  /** The register's name, as replies name their source (provenance). */
  title: string;
  /**
   * The register's short name, in summaries: after "the" (licences-and-registers: "on the CQC register (Registered)"),
   * or first (the public record: "CQC register: … listed"), and as the enrichment names the register it read.
   */
  label: string;
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
  /** What counts as a change on it (rules.ts CHANGE_RULES is this, by source). */
  changes: ChangeRules;
  /**
   * The register's own identifier of the organisation a change is about, as a change feed record names it (SPEC §4.5:
   * a feed record must be something a caller can act on), from the change's entity. The fields are declared by the
   * feeds' reply schema (src/app/registers/changesFeed.ts ChangeOut).
   */
  changeIdentifier: (entity: string) => Record<string, string | number | null>;
  /**
   * The upstreams the status page asks for this register, in its order; none for a register read as a file from a
   * URL variable (a GOV.UK attachment, the bulk file, the sanctions list, the gender pay gap and payment practices CSVs).
   */
  upstreams: readonly StatusUpstream[];
  /** The sample files `npm start` loads, in order (at least one: the test checks each is on disk). */
  samples: readonly SampleFile[];
}

/**
 * An organisation register (HMRC, SRA, sponsors, CQC, Charity Commission): asked by licences-and-registers, in this
 * catalogue's order, and its changes shown in the public record's timeline (`register-<id>`). `registerNumber` is the
 * register's own number of an entry (licences-and-registers' `registerNumber`); null where it has none.
 */
export type RegisterCatalogueEntry<S extends RegisterDataSource> = RegisterCatalogueBase &
  ({ organisation: true; registerNumber: (e: NumberedEntry<S>) => RegisterNumber | null } | { organisation: false; registerNumber?: never });

export const OGL = "Contains public sector information licensed under the Open Government Licence v3.0.";

/** SPEC §1 rule 7: said wherever a lookup finds nothing, so a 404 never reads as "this person's business is not registered". */
const INDIVIDUALS_NOT_COVERED = "Individuals registered under their own names (sole traders) are not covered by this service.";

/** A register number from a field of the entry's data, or null when it is empty. */
const numbered = (type: string, v: string | number | null): RegisterNumber | null => (v === null || v === "" ? null : { type, value: String(v) });

/** The change rules most registers share: the four kinds, `removed` when an entity leaves, no ratings, parts or towns. */
const PLAIN_CHANGES = {
  kinds: ["added", "removed", "returned", "status"],
  gone: "removed",
  offStatuses: [],
  rating: null,
  parts: null,
  towns: false,
} as const satisfies ChangeRules;

/** Keyed by source id (the run log, the queue messages, `npm run ingest -- <source>`), in the cron's order. */
export const REGISTER_CATALOGUE = {
  aml: {
    title: "HMRC Money Laundering Regulations supervised business register",
    label: "HMRC money-laundering supervision register",
    obtainedFrom: "file: HMRC's supervised business register spreadsheet (ODS) on GOV.UK, read daily",
    attribution: "Source: HM Revenue & Customs, supervised business register.",
    licence: OGL,
    companyNumbers: false,
    numberLabel: "MLR number",
    // SPEC §4.5: never "unsupervised".
    notFound: `Not being on HMRC's register does not mean the business is unsupervised: another body, such as the FCA or a professional body (for law firms and accountants usually their own), may supervise it. ${INDIVIDUALS_NOT_COVERED}`,
    organisation: true,
    registerNumber: (e) => numbered("MLR number", e.data.mlrNumber),
    changes: { ...PLAIN_CHANGES, kinds: ["added", "removed", "returned", "status", "premises"], parts: { kind: "premises", as: "multiset" } },
    changeIdentifier: (entity) => ({ mlrNumber: entity.startsWith("NONUM:") ? null : entity }),
    upstreams: [],
    samples: [
      { file: "test/fixtures/hmrc-mlr/supervised-business-register-2026-09.ods", date: "2026-10-07" },
      { file: "test/fixtures/hmrc-mlr/supervised-business-register-2026-10.ods", date: "2026-11-02" },
    ],
  },
  sra: {
    title: "Solicitors Regulation Authority register of organisations",
    label: "SRA register",
    obtainedFrom: "API: the SRA data share API (every organisation), read daily",
    attribution:
      "Source: Solicitors Regulation Authority (SRA) register data, supplied under the SRA's firm data terms. The SRA does not endorse this service.",
    licence: null,
    companyNumbers: true,
    numberLabel: "SRA number",
    notFound:
      "The SRA's register lists firms; a firm not on it may be regulated by another legal regulator. Individual solicitors are not covered by this service.",
    organisation: true,
    registerNumber: (e) => numbered("SRA number", e.data.sraNumber),
    changes: PLAIN_CHANGES,
    changeIdentifier: (entity) => ({ sraNumber: Number(entity) }),
    upstreams: [{ name: "sra", urlVar: "SRA_URL" }],
    samples: [{ file: "test/fixtures/sra/GetAll.json", date: "2026-10-08" }],
  },
  sponsors: {
    title: "Home Office register of licensed sponsors (workers; students)",
    label: "Home Office register of licensed sponsors",
    obtainedFrom: "file: the Home Office's two CSV registers on GOV.UK, read daily",
    attribution: "Source: Home Office, register of licensed sponsors.",
    licence: OGL,
    companyNumbers: false,
    notFound: INDIVIDUALS_NOT_COVERED,
    organisation: true,
    // The register has no number of its own.
    registerNumber: () => null,
    changes: {
      kinds: ["added", "removed", "returned", "status", "re-rated", "routes", "moved"],
      gone: "removed",
      offStatuses: [],
      rating: "byPart",
      parts: { kind: "routes", as: "set", successors: currentRouteNames },
      towns: true,
    },
    // No sponsor number: a record says which register (workers or students) it is on.
    changeIdentifier: (entity) => ({ register: entity.split("|")[0] }),
    upstreams: [],
    samples: [
      { file: "test/fixtures/sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv" },
      { file: "test/fixtures/sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-29.csv" },
      { file: "test/fixtures/sponsors/2026-01-02_-_Student_and_Child_Student.csv" },
    ],
  },
  cqc: {
    title: "Care Quality Commission register (API and HSCA active locations)",
    label: "CQC register",
    obtainedFrom: "API and file: the CQC public API's changes, and its HSCA active locations spreadsheet",
    attribution: "Contains CQC data © Care Quality Commission, licensed under the Open Government Licence v3.0. CQC does not endorse this service.",
    licence: "Open Government Licence v3.0",
    companyNumbers: true,
    numberLabel: "CQC provider or location id",
    notFound: `Providers registered as individuals, and locations named only after a person, are not covered by this service.`,
    organisation: true,
    registerNumber: (e) => (e.data.kind === "provider" ? numbered("CQC provider id", e.data.providerId) : numbered("CQC location id", e.data.locationId)),
    changes: {
      kinds: ["added", "removed", "returned", "status", "deregistered", "re-rated"],
      neverOccurs: {
        removed: "a provider or location that leaves the CQC register is reported as `deregistered`, so `removed` matches nothing on this feed",
      },
      gone: "deregistered",
      offStatuses: ["deregistered"],
      rating: "entity",
      parts: null,
      towns: false,
    },
    changeIdentifier: (entity): Record<string, string> =>
      entity.startsWith("provider:") ? { providerId: entity.slice("provider:".length) } : { locationId: entity },
    upstreams: [{ name: "cqc", urlVar: "CQC_URL" }],
    // The HSCA snapshot, joined to CQC's ratings file beside it (01_October_2026_Latest_ratings.ods): the five key questions and the date of each rating.
    samples: [{ file: "test/fixtures/cqc/hsca-active-locations.ods", date: "2026-10-02" }],
  },
  charity: {
    title: "Charity Commission for England and Wales register of charities",
    label: "Charity Commission register",
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
    organisation: true,
    registerNumber: (e) => numbered("charity number", e.data.charityNumber),
    changes: { ...PLAIN_CHANGES, offStatuses: ["removed"] },
    changeIdentifier: (entity) => ({ charityNumber: entity.startsWith("org:") ? null : entity }),
    upstreams: [{ name: "charity-commission", urlVar: "CHARITY_EXTRACT_URL" }],
    // The main table; the other tables are read from beside it.
    samples: [{ file: "test/fixtures/charity-commission/publicextract.charity.txt" }],
  },
  companies: {
    title: "Companies House Basic Company Data (every live company, monthly)",
    label: "companies register",
    obtainedFrom: "file: Companies House's monthly Basic Company Data zip",
    attribution: "Source: Companies House.",
    licence: OGL,
    companyNumbers: true,
    notFound: "The monthly Basic Company Data file lists live companies only: a company dissolved before the file was compiled is not in it.",
    organisation: false,
    // Diffed in SQL by its own store (src/db/companies.ts), with the same kinds the rules name here:
    // `moved` is a new registered-office postcode, `renamed` a change of name.
    changes: { ...PLAIN_CHANGES, kinds: ["added", "removed", "returned", "status", "renamed", "moved"] },
    changeIdentifier: (entity) => ({ companyNumber: entity }),
    upstreams: [],
    samples: [
      { file: "test/fixtures/companies-house/bulk/BasicCompanyData-2026-10-01.csv" },
      { file: "test/fixtures/companies-house/bulk/BasicCompanyData-2026-11-01.csv" },
    ],
  },
  sanctions: {
    title: "UK Sanctions List (FCDO)",
    label: "UK sanctions list",
    obtainedFrom: "file: the FCDO UK Sanctions List (CSV), read daily",
    attribution: "Source: Foreign, Commonwealth & Development Office, UK Sanctions List.",
    licence: OGL,
    companyNumbers: true,
    // SPEC §1 rule 6: only a definite match is reported, and its absence is never a clearance.
    notFound: "No definite match on the UK sanctions list; this is not a clearance.",
    organisation: false,
    // A designation added or removed (delisted); a delisted entry listed again is returned.
    changes: PLAIN_CHANGES,
    changeIdentifier: (entity) => ({ uniqueId: entity }),
    upstreams: [],
    samples: [{ file: "test/fixtures/sanctions/UK-Sanctions-List.csv" }],
  },
  // One scope per reporting year ("2021" for 2021 to 2022), one entry per employer and year.
  "gender-pay-gap": {
    title: "Gender pay gap reports (Government Equalities Office)",
    label: "gender pay gap reports",
    obtainedFrom: "file: the gender pay gap service's CSV for each reporting year, read daily",
    attribution: "Source: Government Equalities Office, gender pay gap service (gender-pay-gap.service.gov.uk).",
    licence: OGL,
    companyNumbers: true,
    notFound:
      "Only employers with 250 or more employees on the snapshot date must report their gender pay gap; many public bodies that report have no company number.",
    organisation: false,
    // Per reporting year (scope): a report added or withdrawn; `status` when it becomes (or stops being) late,
    // e.g. resubmitted after the deadline. Revised figures alone are a new version of the entry, not a change.
    changes: PLAIN_CHANGES,
    changeIdentifier: (entity) => ({ employerId: entity }),
    upstreams: [],
    // One file per reporting year (named by year, as downloaded from <GENDER_PAY_GAP_URL>/<year>), dated by its newest submission.
    samples: [{ file: "test/fixtures/gender-pay-gap/2025" }, { file: "test/fixtures/gender-pay-gap/2026" }],
  },
  // Issue 14 §1: read as changes (awards published or updated since the last run), one entry per award and supplier.
  contracts: {
    title: "Public contract awards (Contracts Finder and Find a Tender)",
    label: "public contract awards",
    obtainedFrom: "API: the Find a Tender and Contracts Finder OCDS APIs (award releases), read daily",
    attribution: "Contains public sector information from Contracts Finder and Find a Tender, Cabinet Office",
    licence: OGL,
    companyNumbers: true,
    notFound: "Awards are matched by Companies House number, or by exact name and postcode; suppliers recorded without either cannot be tied to a company.",
    organisation: false,
    // Read as changes only (a partial edition), so an award is never removed nor returned; a cancelled award is a
    // `status` change. One entity per award, its suppliers its entries.
    changes: {
      ...PLAIN_CHANGES,
      neverOccurs: {
        removed:
          "awards are read as changes (those published or updated since the last run), so an award never leaves this register; a cancelled award is a `status` change",
        returned: "an award never leaves this register, so none returns",
      },
    },
    changeIdentifier: (entity) => ({ award: entity }),
    upstreams: [
      { name: "find-a-tender", urlVar: "FIND_A_TENDER_URL" },
      { name: "contracts-finder", urlVar: "CONTRACTS_FINDER_URL" },
    ],
    // One OCDS release package (our own FTS and CF releases), dated by its publishedDate.
    samples: [{ file: "test/fixtures/contracts/award-release-package.json" }],
  },
  // Issue 14 §1: the whole export daily, one entry per report (company and reporting period).
  "payment-practices": {
    title: "Payment practices and performance reports (Department for Business and Trade)",
    label: "payment practices reports",
    obtainedFrom: "file: the Check payment practices export (CSV of every report), read daily",
    attribution: "Source: Department for Business and Trade, Check payment practices service (check-payment-practices.service.gov.uk).",
    licence: OGL,
    companyNumbers: true,
    notFound:
      "Only large companies and LLPs must report their payment practices (each half of their financial year); most businesses are out of scope, so having no report is not evidence of good or bad payment.",
    organisation: false,
    // Each report (company and period) is its own entity, so a new report is `added` (the watch list's
    // `payment_report`); a report withdrawn from the export is `removed`. A resubmission of the same period is a new
    // version of the entry, not a change.
    changes: { ...PLAIN_CHANGES, neverOccurs: { status: "every report in the export is published, so a report's status never changes" } },
    changeIdentifier: (entity) => ({ companyNumber: entity.split(":")[0] }),
    upstreams: [],
    // The whole export (CSV), dated by its latest filing date.
    samples: [{ file: "test/fixtures/payment-practices/export.csv" }],
  },
} as const satisfies { [S in RegisterDataSource]: RegisterCatalogueEntry<S> };

type Catalogue = typeof REGISTER_CATALOGUE;

/** The organisation registers' source ids (`organisation: true`). */
export type OrganisationRegister = { [K in keyof Catalogue]: Catalogue[K]["organisation"] extends true ? K : never }[keyof Catalogue];

/** The organisation registers, in the catalogue's order: licences-and-registers asks them, the public record shows their changes. */
export const ORGANISATION_REGISTERS = (Object.keys(REGISTER_CATALOGUE) as (keyof Catalogue)[]).filter(
  (s): s is OrganisationRegister => REGISTER_CATALOGUE[s].organisation,
);

/** The organisation registers' catalogue entries as their numbers need them: each `registerNumber` typed for its own register's entries. */
const ORGANISATIONS: { [S in OrganisationRegister]: { registerNumber: (e: NumberedEntry<S>) => RegisterNumber | null } } = REGISTER_CATALOGUE;

/** The register's own number of an entry of organisation register S (licences-and-registers' `registerNumber`); null where it has none. */
export const registerNumberOf = <S extends OrganisationRegister>(source: S, e: NumberedEntry<S>): RegisterNumber | null =>
  ORGANISATIONS[source].registerNumber(e);

// ---- Each register's rows -----------------------------------------------------------------------------------

/**
 * The shape of each register's rows. What each register's entries carry in `data` (RegisterRecord.data, Entry.data in ./types.ts): one shape per
 * register, as its parser in src/sources/<source>/ writes it and D1 stores it (as JSON, in register_entries.data;
 * the companies register in its own columns). Pure types, plus the list of each shape's keys
 * (REGISTER_DATA_KEYS, checked against the shape when compiled, and against the parsers' output by
 * test/services/registers/rowShapes.test.ts).
 *
 * Stored rows were written by every earlier version of a parser, and are read back as these shapes
 * (src/db/registers.ts): a field some version did not write is optional here, and stays so.
 */

// ---- HMRC money laundering supervision (src/sources/hmrc-mlr/parse.ts): one entry per premises.

export interface AmlData {
  /** Upper case, no spaces; null for the rare row without one (its entity is then `NONUM:<name>`). */
  mlrNumber: string | null;
  businessName: string;
  tradingName: string | null;
  /** The premises' postcode district (outward code), upper case; "" when the row gives no postcode. */
  postcodeDistrict: string;
  status: string;
  sectors: string[];
  /** Money service business activities, where it is one. */
  msbActivities: string[];
  registeredSince: string | null;
  agentSince: string | null;
}

// ---- SRA register of organisations (src/sources/sra/parse.ts): one entry per firm.

export interface SraHeadOffice {
  name: string | null;
  town: string | null;
  county: string | null;
  country: string | null;
  website: string | null;
  postcode: string | null;
}

export interface SraData {
  sraNumber: number;
  name: string;
  companyNumber: string | null;
  authorised: boolean;
  /** Lower case words: authorised, authorised with conditions, ceased, revoked, intervened, or the SRA's code lower-cased. */
  status: string;
  /** The SRA's own AuthorisationStatus code. */
  statusCode: string | null;
  authorisedSince: string | null;
  statusDate: string | null;
  /** sole practice, recognised body or licensed body. */
  kind: string | null;
  constitution: string | null;
  /** How many offices the firm has. */
  offices: number;
  headOffice: SraHeadOffice | null;
  workAreas: string[];
  tradingNames: string[];
  previousNames: string[];
  regulator: string | null;
  reservedActivities: string[];
}

// ---- Home Office register of licensed sponsors (src/sources/sponsors/parse.ts): one entry per sponsor, route and town.

/** The sponsors register's two parts, each published as a file of its own. */
export type SponsorsRegister = "workers" | "students";

interface SponsorsDataBase {
  name: string;
  town: string | null;
  register: SponsorsRegister;
  /** The route as the file names it. */
  route: string;
  /** The route under its current name (services/registers/sponsorRoutes.ts); not written by the first parser. */
  currentRoute?: string;
  county: string | null;
  rating: string | null;
}

export interface SponsorsWorkersData extends SponsorsDataBase {
  register: "workers";
  /** Type & Rating, e.g. "Worker (A rating)". */
  typeAndRating: string | null;
}

export interface SponsorsStudentsData extends SponsorsDataBase {
  register: "students";
  county: null;
  sponsorType: string | null;
  /** The file's Status (a student sponsor's rating). */
  status: string | null;
  immigrationCompliance: string | null;
  additionalLocations: string[];
}

export type SponsorsData = SponsorsWorkersData | SponsorsStudentsData;

// ---- CQC (src/sources/cqc/parse.ts): a location, or a provider (its entry's key `provider:<id>`).

export interface CqcKeyQuestions {
  safe: string | null;
  effective: string | null;
  caring: string | null;
  responsive: string | null;
  wellLed: string | null;
}

export interface CqcAddress {
  line1: string | null;
  line2: string | null;
  town: string | null;
  county: string | null;
  postcode: string | null;
}

export interface CqcLocationData {
  kind: "location";
  locationId: string;
  providerId: string | null;
  /** Null for a provider registered as an individual (SPEC §1 rule 7), or one not known. */
  providerName: string | null;
  name: string;
  type: string | null;
  registrationStatus: string;
  registrationDate: string | null;
  deregistrationDate: string | null;
  careHome: boolean | null;
  numberOfBeds: number | null;
  address: CqcAddress;
  localAuthority: string | null;
  region: string | null;
  inspectionDirectorate: string | null;
  overallRating: string | null;
  ratingDate: string | null;
  keyQuestions: CqcKeyQuestions;
  lastInspectionDate: string | null;
  lastReportDate: string | null;
  inheritedRating: boolean | null;
}

export interface CqcProviderData {
  kind: "provider";
  providerId: string;
  name: string;
  companyNumber: string | null;
  charityNumber: string | null;
  ownershipType: string | null;
  type: string | null;
  registrationStatus: string;
  registrationDate: string | null;
  deregistrationDate: string | null;
  locationIds: string[];
  overallRating: string | null;
  keyQuestions: CqcKeyQuestions;
  /** Written from the HSCA file (joined to the ratings file) only, and not by its first parser. */
  ratingDate?: string | null;
  lastReportDate?: string | null;
  address: CqcAddress;
  lastInspectionDate: string | null;
}

export type CqcData = CqcLocationData | CqcProviderData;

// ---- Charity Commission register (src/sources/charity-commission/parse.ts): one entry per main charity.

export interface CharityFinance {
  periodStart: string | null;
  periodEnd: string | null;
  income: number | null;
  spend: number | null;
}

export interface CharityData {
  /** The registered charity number; "" when the extract gives none (the entry's key is then `org:<organisationNumber>`). */
  charityNumber: string;
  organisationNumber: string;
  name: string;
  type: string | null;
  registrationStatus: string;
  registeredOn: string | null;
  removedOn: string | null;
  removalReason: string | null;
  reportingStatus: string | null;
  flags: { insolvent: boolean | null; inAdministration: boolean | null; interimManager: true | null };
  isCio: boolean | null;
  latestAccounts: CharityFinance | null;
  /** Null when the extract's annual return table was not read (likewise the other fields of auxiliary tables). */
  financialHistory: CharityFinance[] | null;
  classification: { what: string[]; how: string[]; who: string[] } | null;
  areasOfOperation: string[] | null;
  trusteeCount: number | null;
  objects: string | null;
  otherRegulators: string[] | null;
  website: string | null;
  linkedCharities: number;
  extractDate: string | null;
}

// ---- The registers whose data is a domain type of its own.

/** Companies House Basic Company Data (src/sources/companies-house/bulk.ts). */
export type CompaniesData = BulkCompanyData;
/** The UK sanctions list (src/sources/sanctions/parse.ts): one entry per designation. */
export type SanctionsData = SanctionsDesignation;
/** Gender pay gap reports (src/sources/gender-pay-gap/parse.ts): one entry per employer and reporting year. */
export type GenderPayGapData = GenderPayGapReport;
/** Public contract awards (src/sources/contracts/parse.ts): one entry per award and supplier. */
export type ContractsData = ContractAward;
/** Payment practices reports (src/sources/payment-practices/parse.ts): one entry per report. */
export type PaymentPracticesData = PaymentReport;

/**
 * Each register's `data`, by source id. Its keys are the register catalogue's (./catalogue.ts checks it: a register
 * added there without its shape here does not compile).
 */
export interface RegisterDataOf {
  aml: AmlData;
  sra: SraData;
  sponsors: SponsorsData;
  cqc: CqcData;
  charity: CharityData;
  companies: CompaniesData;
  sanctions: SanctionsData;
  "gender-pay-gap": GenderPayGapData;
  contracts: ContractsData;
  "payment-practices": PaymentPracticesData;
}

/** A register's source id, as far as its data shape goes (./types.ts RegisterSource is the same set, from the catalogue). */
export type RegisterDataSource = keyof RegisterDataOf;

/** Every key of a shape: of any of its members, for a union (CQC's locations and providers, sponsors' two registers). */
export type DataKey<T> = T extends unknown ? keyof T : never;

/** The keys of `T` a list leaves out. */
type Missing<T, K extends readonly unknown[]> = Exclude<DataKey<T>, K[number]>;

/**
 * A shape's keys, as a list that must name every key of `T` and nothing else: a key missing from the list is a
 * compile error (`missing` names it), and so is one `T` does not declare. The list cannot drift from the type.
 */
const keyList =
  <T>() =>
  <const K extends readonly DataKey<T>[]>(keys: K & ([Missing<T, K>] extends [never] ? unknown : { missing: Missing<T, K> })): readonly DataKey<T>[] =>
    keys;

/** The keys each register's `data` may have (every member's, for a union), by source id. */
export const REGISTER_DATA_KEYS: { [S in RegisterDataSource]: readonly DataKey<RegisterDataOf[S]>[] } = {
  aml: keyList<AmlData>()([
    "mlrNumber",
    "businessName",
    "tradingName",
    "postcodeDistrict",
    "status",
    "sectors",
    "msbActivities",
    "registeredSince",
    "agentSince",
  ]),
  sra: keyList<SraData>()([
    "sraNumber",
    "name",
    "companyNumber",
    "authorised",
    "status",
    "statusCode",
    "authorisedSince",
    "statusDate",
    "kind",
    "constitution",
    "offices",
    "headOffice",
    "workAreas",
    "tradingNames",
    "previousNames",
    "regulator",
    "reservedActivities",
  ]),
  sponsors: keyList<SponsorsData>()([
    "name",
    "town",
    "register",
    "route",
    "currentRoute",
    "county",
    "rating",
    "typeAndRating",
    "sponsorType",
    "status",
    "immigrationCompliance",
    "additionalLocations",
  ]),
  cqc: keyList<CqcData>()([
    "kind",
    "locationId",
    "providerId",
    "providerName",
    "name",
    "type",
    "registrationStatus",
    "registrationDate",
    "deregistrationDate",
    "careHome",
    "numberOfBeds",
    "address",
    "localAuthority",
    "region",
    "inspectionDirectorate",
    "overallRating",
    "ratingDate",
    "keyQuestions",
    "lastInspectionDate",
    "lastReportDate",
    "inheritedRating",
    "companyNumber",
    "charityNumber",
    "ownershipType",
    "locationIds",
  ]),
  charity: keyList<CharityData>()([
    "charityNumber",
    "organisationNumber",
    "name",
    "type",
    "registrationStatus",
    "registeredOn",
    "removedOn",
    "removalReason",
    "reportingStatus",
    "flags",
    "isCio",
    "latestAccounts",
    "financialHistory",
    "classification",
    "areasOfOperation",
    "trusteeCount",
    "objects",
    "otherRegulators",
    "website",
    "linkedCharities",
    "extractDate",
  ]),
  companies: keyList<CompaniesData>()([
    "category",
    "incorporatedOn",
    "sic",
    "postcode",
    "countryOfOrigin",
    "accountsDue",
    "accountsMadeUpTo",
    "accountsCategory",
    "confirmationDue",
    "confirmationMadeUpTo",
    "previousNames",
    "extra",
  ]),
  sanctions: keyList<SanctionsData>()([
    "id",
    "ukslRef",
    "ofsiGroupId",
    "kind",
    "names",
    "regimes",
    "designatedOn",
    "lastUpdated",
    "registrationNumbers",
    "ukCompanyNumbers",
    "countries",
    "postcodes",
    "sanctions",
  ]),
  "gender-pay-gap": keyList<GenderPayGapData>()([
    "employerId",
    "year",
    "employerName",
    "currentName",
    "companyNumber",
    "postcode",
    "address",
    "sicCodes",
    "diffMeanHourlyPct",
    "diffMedianHourlyPct",
    "diffMeanBonusPct",
    "diffMedianBonusPct",
    "maleBonusPct",
    "femaleBonusPct",
    "quartiles",
    "sizeBand",
    "link",
    "submittedLate",
    "dueDate",
    "submittedOn",
  ]),
  contracts: keyList<ContractsData>()([
    "source",
    "ocid",
    "releaseId",
    "awardId",
    "noticeUrl",
    "buyer",
    "title",
    "description",
    "value",
    "awardDate",
    "datePublished",
    "contractPeriod",
    "cpv",
    "supplier",
    "supplierCount",
    "status",
    "updatedAt",
  ]),
  "payment-practices": keyList<PaymentPracticesData>()([
    "reportId",
    "url",
    "policyRegime",
    "periodStart",
    "periodEnd",
    "filedOn",
    "financialPeriodStart",
    "avgDaysToPay",
    "pctWithin30",
    "pct31to60",
    "pctOver60",
    "pctNotPaidWithinTerms",
    "pctNotPaidDueToDispute",
    "valuePctWithin30",
    "valuePct31to60",
    "valuePctOver60",
    "valuePctNotPaidWithinTerms",
    "shortestStandardTermsDays",
    "longestStandardTermsDays",
    "maxContractualTermsDays",
    "standardTermsText",
    "termsChanged",
    "suppliersNotified",
    "paymentCodes",
    "eInvoicing",
    "supplyChainFinance",
    "chargesPolicy",
    "chargesMade",
    "qualifyingContracts",
    "paymentsMade",
    "constructionContracts",
    "constructionRetention",
    "clamped",
    "inconsistent",
  ]),
};
