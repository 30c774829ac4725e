/**
 * The enrichment family's records (SPEC §2.2): the BusinessProfile an enrichment answers, and the evidence it
 * rests on. Pure types: the operations build them (operations/enrichment/common/), the services read them.
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
  /** What is known of its employees (absent when nothing was read). */
  employees?: Employees;
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
