/**
 * The enrichment family's records (SPEC §2.2): the BusinessProfile an enrichment answers, and the evidence it
 * rests on. Pure types: the operations build them (app/enrichment/), the services read them.
 */

export type SignalKind = "opportunity" | "risk" | "info";

/** SPEC §2.2 Signal, with the evidence it rests on. */
export interface Signal {
  /** Stable code, e.g. `recently-incorporated`, `hiring`, `accounts-overdue`, `proposal-to-strike-off`. */
  code: string;
  /** In words, e.g. "Incorporated 14 months ago (2025-09-03)". */
  label: string;
  kind: SignalKind;
  /** Where it comes from: "companies register", "website: https://…/careers", "contracts (Find a Tender)", … */
  source: string;
}

export type Confidence = "high" | "medium" | "low";

/** One piece of identity evidence and the points it earned (SPEC §2.2 Accuracy.breakdown). */
export interface AccuracyItem {
  label: string;
  points: number;
  max: number;
  /** The evidence quoted (a line of the site, the register's name), or null when the piece was not found. */
  evidence: string | null;
}

export interface Accuracy {
  score: number;
  confidence: Confidence;
  breakdown: AccuracyItem[];
}

/** A register entry offered for the caller to confirm (SPEC §2.2 `alternatives`): never picked for them. */
export interface Alternative {
  name: string;
  companyNumber: string;
  status: string | null;
  locality: string | null;
  postcode: string | null;
  incorporationDate: string | null;
  needsConfirm: true;
  /** Why it is offered ("same name", "same name, in Bristol"). */
  reason: string;
}

/** What the register says of the confirmed company (present only when the site confirmed it). */
export interface RegisterFacts {
  number: string;
  name: string;
  status: string;
  statusDetail: string | null;
  type: string | null;
  incorporationDate: string | null;
  sicCodes: string[];
  /** SIC code → description, where known. */
  sicDescriptions: Record<string, string>;
  registeredOffice: { text: string; postcode: string | null; locality: string | null };
  accountsOverdue: boolean;
  confirmationStatementOverdue: boolean;
  /** Companies House accounts type of the last accounts (micro-entity, small, full, group, dormant, …), when known. */
  lastAccountsType: string | null;
  /** Active officers, counted (never named); null when not read. */
  activeOfficers: number | null;
  /** Why the officers were not counted, when Companies House could not be read for them (such an answer is not cached). */
  activeOfficersNote?: string;
  /** What is known of its employees (absent when nothing was read). */
  employees?: Employees;
  /** Where these facts come from: Companies House's live profile, or the monthly bulk file (with its date). */
  record: FactsOrigin;
  /** The Gazette's corporate insolvency notices for the company; absent when they were not asked for. */
  insolvencyNotices?: InsolvencyNotices;
}

/**
 * Where a company's register facts come from (issue 28 §2). The live profile (Companies House's API, read now) gives
 * the status, the status detail and every other field it has; the monthly Basic Company Data file is for search and
 * for gaps, and every field taken from it is named in `fromBulkFile`, as of `bulkFileDate`. When the live profile
 * cannot be read, every field comes from the file (`source: "bulk-file"`) and `liveNote` says why.
 */
export interface FactsOrigin {
  source: "live" | "bulk-file";
  /** The day the facts are as of: the day the live profile was read, or the file's date (null when unknown). */
  asOf: string | null;
  /** The Basic Company Data file's date when any field comes from it, else null. */
  bulkFileDate: string | null;
  /** Fields (RegisterFacts names) taken from the file: gaps of the live profile, or all of them. */
  fromBulkFile: string[];
  /** Why the live profile was not read (source "bulk-file"); null otherwise. */
  liveNote: string | null;
}

/** A corporate insolvency notice in The Gazette that is the company's (matched by number, or name and postcode). */
export interface InsolvencyNotice {
  noticeId: string;
  /** The Gazette's notice code (category 24), e.g. "2450". */
  code: string;
  meaning: string;
  severity: "high" | "medium" | "low";
  /** Publication date, YYYY-MM-DD. */
  date: string;
  url: string | null;
}

/** The Gazette's corporate insolvency notices as read for the company. */
export interface InsolvencyNotices {
  /** The Gazette was read: `recent` is then all it gave of concern. */
  read: boolean;
  /** Notices of concern published in the last RECENT_NOTICE_DAYS (services/enrich/registerSignals.ts), newest first. */
  recent: InsolvencyNotice[];
  /** Why The Gazette was not read; null when it was. */
  note: string | null;
}

/** SPEC §2.2 BusinessProfile `registerSource`: where the status and the other register facts come from, in fields and words. */
export interface StatusSource {
  /** `companies-house`: the live profile, read `statusAsOf`; `bulk-file`: the Basic Company Data file of `statusAsOf` (the live profile could not be read). */
  statusFrom: "companies-house" | "bulk-file";
  statusAsOf: string | null;
  bulkFileDate: string | null;
  /** Profile facts taken from the bulk file, as of `bulkFileDate`. */
  fromBulkFile: string[];
  /** The Gazette's insolvency notices: read (`read`), not read (`not-read`: none is reported or ruled out), or not asked. */
  insolvencyNotices: "read" | "not-read" | "not-asked";
  /** The above in words. */
  note: string;
}

/** A company's employees as its filings state them: never estimated. */
export interface Employees {
  /** The average number of employees its latest tagged (iXBRL) accounts state, and the period they end; null when not tagged or not read. */
  average: number | null;
  periodEnd: string | null;
  /** The headcount band of its newest gender pay gap report ("250 to 499") and that report's first year; null when it has none. */
  band: string | null;
  bandYear: string | null;
  /** Why the accounts' figure is missing, when they could not be read just now. */
  note: string | null;
}

/** What the business's own website says (the homepage and the legal pages it links to). */
export interface SiteFacts {
  /** The homepage as reached (after redirects), with its scheme. */
  url: string;
  title: string;
  /** The page's meta or og: description. */
  description: string | null;
  /** The site's own name (og:site_name, or the title's brand part). */
  siteName: string | null;
  /** Headings of the homepage (h1–h3), in order. */
  headings: string[];
  /** Short list items under a heading about services, products or what the business does. */
  offerings: string[];
  /** Visible text of the pages read (homepage first). */
  text: string;
  /** A careers or jobs page is linked. */
  careersUrl: string | null;
  pagesRead: { url: string; kind: string }[];
}

/** SPEC §2.2 BusinessProfile. */
export interface BusinessProfile {
  found: boolean;
  name?: string;
  website?: string;
  companyNumber?: string;
  status?: string;
  statusDetail?: string;
  /** Where the status and the register's other facts come from (present with `companyNumber`). */
  registerSource?: StatusSource;
  sicCodes?: string[];
  incorporationDate?: string;
  sizeSignal?: string;
  whatTheyDo?: string;
  services?: string[];
  sector?: string;
  signals: Signal[];
  accuracy: Accuracy;
  confidence: Confidence;
  sources: string[];
  attribution: string;
  alternatives?: Alternative[];
  registryNote?: string;
  /** Why no website is given for a company named by its number (none confirmed it, or none could be looked for). */
  websiteNote?: string;
}
