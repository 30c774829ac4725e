/**
 * The background jobs `npm run job -- <name>` runs now against the local state (scripts/job.mjs; issue 31): their
 * names, what each does, and the configuration each reads its upstreams from, so that a run that cannot reach an
 * upstream names the variable (and scripts/job.mjs says where it is set: wrangler.toml's [vars], .dev.vars or --var).
 * Pure data: the script lists it without starting a runtime, and src/cli/jobs.ts runs it.
 */

export type JobName = "watch" | "watch-now" | "registers" | "bank-rate" | "tenders" | "daily";

export interface JobInfo {
  name: JobName;
  /** Its arguments, as the usage shows them ("" for none). */
  args: string;
  /** What it does, in a sentence or two. */
  what: string;
  /** Which Cron Trigger runs it in production. */
  cron: string;
}

export const JOBS: readonly JobInfo[] = [
  {
    name: "watch",
    args: "",
    cron: "*/5 * * * * (the watch list's tick)",
    what: "The watch list's five-minute tick, now: reads the watched companies that are due (a new watch's company at once, the others once a day after their minute of the day), records their events, then delivers the webhook events that are due. What the tick sends to the watch queue is handled here, in this run.",
  },
  {
    name: "watch-now",
    args: "[company number…]",
    cron: "none (the tick's daily read, forced)",
    what: "Reads every watched company now (or only those named), whatever its minute of the day and even if it was read today, records an event for each change since its last reading, then delivers the webhook events that are due. A company's first reading is its baseline (no events).",
  },
  {
    name: "registers",
    args: "[source…]",
    cron: "0 4 * * * (one ingest message per register)",
    what: "The daily register reads: each register's current edition fetched from its upstream, diffed and published (every register, or only those named), the queue's further chunks handled in this run. A failed read is recorded in the run log and the published edition stays.",
  },
  {
    name: "bank-rate",
    args: "",
    cron: "0 4 * * *",
    what: "Reads the Bank of England's Bank Rate series (late-payment interest) into the database; on failure the rates held stay.",
  },
  {
    name: "tenders",
    args: "",
    cron: "0 4 * * *",
    what: "Reads the open tender notices published or updated since the last complete read (Find a Tender and Contracts Finder), for tender-match.",
  },
  {
    name: "daily",
    args: "",
    cron: "0 4 * * *",
    what: "Everything the 04:00 Cron Trigger starts: registers, then bank-rate, then tenders.",
  },
];

export const JOB_NAMES: readonly JobName[] = JOBS.map((j) => j.name);

/** A configuration variable a job reads an upstream from: a base URL (shown), or a key (said to be set or not, never shown). */
export interface UpstreamVar {
  name: string;
  secret?: boolean;
}

const url = (name: string): UpstreamVar => ({ name });
const key = (name: string): UpstreamVar => ({ name, secret: true });

/** The variables each register's daily read uses (src/jobs/ingest/adapters/<source>.ts). */
export const REGISTER_UPSTREAMS: Record<string, readonly UpstreamVar[]> = {
  sponsors: [url("GOVUK_CONTENT_URL")],
  aml: [url("GOVUK_CONTENT_URL")],
  sra: [url("SRA_URL"), key("SRA_API_KEY")],
  cqc: [url("CQC_URL"), key("CQC_API_KEY"), url("CQC_RATINGS_URL")],
  charity: [url("CHARITY_EXTRACT_URL")],
  companies: [url("COMPANIES_HOUSE_BULK_URL")],
  sanctions: [url("SANCTIONS_LIST_URL")],
  "payment-practices": [url("PAYMENT_PRACTICES_URL")],
  "gender-pay-gap": [url("GENDER_PAY_GAP_URL")],
  contracts: [url("FIND_A_TENDER_URL"), url("CONTRACTS_FINDER_URL")],
};

export const BANK_RATE_UPSTREAMS: readonly UpstreamVar[] = [url("BOE_IADB_URL")];
export const TENDERS_UPSTREAMS: readonly UpstreamVar[] = [url("FIND_A_TENDER_URL"), url("CONTRACTS_FINDER_URL")];

/** A watch reading's sections (services/watch/reading.ts SECTIONS) and where each is read from (src/platform/watchReader.ts). */
export const WATCH_SECTION_UPSTREAMS: Record<string, readonly UpstreamVar[]> = {
  register: [url("COMPANIES_HOUSE_URL"), key("COMPANIES_HOUSE_API_KEY")],
  distress: [url("COMPANIES_HOUSE_URL"), key("COMPANIES_HOUSE_API_KEY"), url("GAZETTE_URL")],
  // The registers below are this service's own tables, matched through the company's names from Companies House.
  sanctions: [url("COMPANIES_HOUSE_URL"), key("COMPANIES_HOUSE_API_KEY")],
  payments: [url("COMPANIES_HOUSE_URL"), key("COMPANIES_HOUSE_API_KEY")],
  contracts: [url("COMPANIES_HOUSE_URL"), key("COMPANIES_HOUSE_API_KEY")],
  sponsors: [url("COMPANIES_HOUSE_URL"), key("COMPANIES_HOUSE_API_KEY")],
};

/** A webhook is posted through the safe fetcher, which resolves its host through this resolver first. */
export const WEBHOOK_UPSTREAMS: readonly UpstreamVar[] = [url("DNS_RESOLVER_URL")];
