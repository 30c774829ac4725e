/**
 * What background work needs from the runtime, as ports (issue 31, one wiring): the jobs take these, never `env`.
 * The Worker's composition root (src/platform/jobPorts.ts `jobPortsFor`) builds them from `env` for the cron, the queue
 * consumers and `npm run job`, beside the request services (src/platform/services.ts) the watch list's reader shares;
 * tests build them there too, or hand in their own queue, clock and ledger. The Node CLI (`npm run ingest`, `npm run
 * reset`: local databases, no queue) builds its ingest ports in src/cli/ingest.ts.
 */
import type { Env } from "../env";
import type { WatchPorts } from "../services/watch/feed";
import type { IngestJob } from "./ingest/message";

/** The upstreams the register reads use: base URLs and pages (wrangler.toml's vars) and keys (secrets). */
export type IngestUpstreams = Readonly<
  Pick<
    Env,
    | "GOVUK_CONTENT_URL"
    | "HMRC_MLR_PAGE"
    | "SPONSORS_WORKERS_PAGE"
    | "SPONSORS_STUDENTS_PAGE"
    | "SRA_URL"
    | "SRA_API_KEY"
    | "CQC_URL"
    | "CQC_API_KEY"
    | "CQC_RATINGS_URL"
    | "CHARITY_EXTRACT_URL"
    | "COMPANIES_HOUSE_BULK_URL"
    | "SANCTIONS_LIST_URL"
    | "GENDER_PAY_GAP_URL"
    | "FIND_A_TENDER_URL"
    | "CONTRACTS_FINDER_URL"
    | "PAYMENT_PRACTICES_URL"
  >
>;

/** The register reads (src/jobs/ingest): where editions are written, the queue their further chunks go on, the upstreams. */
export interface IngestPorts {
  /** The main database: the run log, the registers' entries and changes, change windows. */
  db: D1Database;
  /** The companies register's own database (Basic Company Data). */
  companiesDb: D1Database;
  /** Sends a message to the ingest queue: the rest of a file bigger than one invocation, a register read the cron starts. */
  enqueue(jobs: IngestJob[]): Promise<void>;
  upstreams: IngestUpstreams;
}

/** The Bank Rate read (src/jobs/bankRate.ts). */
export interface BankRatePorts {
  db: D1Database;
  /** The Bank of England's statistical database (BOE_IADB_URL). */
  iadbUrl: string;
}

/** The tender notices' read (src/jobs/tenders.ts). */
export interface TendersPorts {
  db: D1Database;
  /** Find a Tender's and Contracts Finder's base URLs. */
  findATenderUrl: string;
  contractsFinderUrl: string;
}

/** Every job's ports: what the cron, the queue consumers and `npm run job` run with. */
export interface JobPorts {
  ingest: IngestPorts;
  bankRate: BankRatePorts;
  tenders: TendersPorts;
  /** The watch list (src/jobs/watch): its database, the company reader, the ledger, the watch queue, the webhook poster. */
  watch: WatchPorts;
}
