import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The one description of every table, in both databases: the main database (binding DB, migrations/) and the
 * companies register's (binding COMPANIES_DB, migrations/companies/).
 *
 * The migrations are the source of truth: wrangler applies them, and nothing here creates or alters a table.
 * Each table lists its columns as migrated: name, type, NOT NULL, default and primary key.
 * test/db/schema.test.ts compares every table here with `PRAGMA table_info` of the test databases, to which
 * test/setup.ts applies the migrations: a migration that adds a table or column not described here, or a
 * description that drifts, fails it.
 * Indexes, UNIQUE and CHECK constraints and WITHOUT ROWID live in the migrations alone (nothing here would check
 * them). The FTS5 tables (register_names_fts, companies_fts) are not described: drizzle has no virtual tables,
 * and every statement on them is raw SQL.
 *
 * Defaults matter: drizzle's INSERT names every column of the table and writes a column left out as its
 * default here, or NULL when there is none. So each default is the migration's, and the test checks it.
 *
 * When drizzle, when raw SQL (src/db/):
 * - Drizzle (`orm(db)` below) for the plain statements on one table, or a join by key: select, insert, update,
 *   delete by key, upserts (`onConflictDoNothing`, `onConflictDoUpdate` with `excluded(column)`), atomic
 *   increments (`sql\`${t.used} + 1\``), RETURNING, and a batch of such statements. Each is still one SQL
 *   statement of the same shape (check with `.toSQL()`; test/db/statements.test.ts records what each sends), and
 *   its columns and results are typed by the tables here.
 * - Raw prepared statements where the SQL is set-based or special: rows staged through json_each (one bound JSON
 *   array instead of D1's limit of 100 bound parameters; a multi-row drizzle insert binds every column of every
 *   row), FTS5 MATCH, window functions, INSERT … SELECT diffs between versions and the batches that publish a
 *   run, versioned reads (valid_from_run / valid_to_run against the published run), PRAGMAs, and statements
 *   written for a particular query plan. They stay in their file under src/db/, with the SQL in full.
 */

/** The drizzle handle of a D1 database (one per database object: it holds nothing but the binding). */
const handles = new WeakMap<D1Database, DrizzleD1Database>();
export function orm(db: D1Database): DrizzleD1Database {
  let h = handles.get(db);
  if (!h) handles.set(db, (h = drizzle(db)));
  return h;
}

/** `excluded.<column>` in an upsert's DO UPDATE SET: the value the INSERT tried to write. */
export const excluded = (column: AnyColumn): SQL => sql.raw(`excluded."${column.name}"`);

const createdAt = () => integer("created_at").notNull().default(sql`(unixepoch())`);

// ---------------------------------------------------------------------------------------------------------------
// The main database (binding DB).

// migrations/0001_platform.sql: organisations, accounts, API keys, sign-up challenges, idempotent replies.

export const orgs = sqliteTable("orgs", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan").notNull().default("team"),
  pooled: integer("pooled").notNull().default(1),
  createdAt: createdAt(),
});

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  email: text("email"),
  mobile: text("mobile"),
  emailVerifiedAt: integer("email_verified_at"),
  mobileVerifiedAt: integer("mobile_verified_at"),
  plan: text("plan").notNull().default("free"),
  orgId: text("org_id"),
  createdAt: createdAt(),
});

export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull(),
  keyHash: text("key_hash").notNull(),
  prefix: text("prefix").notNull(),
  label: text("label"),
  active: integer("active").notNull().default(1),
  createdAt: createdAt(),
  disabledAt: integer("disabled_at"),
  creditsOverride: integer("credits_override"),
  creditsOverridePeriod: text("credits_override_period"),
});

export const signupChallenges = sqliteTable("signup_challenges", {
  id: text("id").primaryKey(),
  email: text("email").notNull(),
  mobile: text("mobile").notNull(),
  emailCodeHash: text("email_code_hash").notNull(),
  mobileCodeHash: text("mobile_code_hash").notNull(),
  attempts: integer("attempts").notNull().default(0),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
  createdAt: createdAt(),
});

export const idempotentReplies = sqliteTable(
  "idempotent_replies",
  {
    keyId: text("key_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status").notNull().default(0),
    body: text("body"),
    headers: text("headers"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.idempotencyKey] })],
);

// migrations/0002_registers.sql (with 0004, 0005, 0008): versioned register entries, their names, changes and runs.

export const registerRuns = sqliteTable("register_runs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  source: text("source").notNull(),
  scope: text("scope").notNull().default(""),
  editionDate: text("edition_date"),
  fileName: text("file_name"),
  url: text("url"),
  mode: text("mode").notNull().default("snapshot"),
  startedAt: text("started_at").notNull(),
  finishedAt: text("finished_at"),
  rowsRead: integer("rows_read").notNull().default(0),
  outcome: text("outcome").notNull().default("running"),
  reason: text("reason"),
  changes: integer("changes").notNull().default(0),
  windowStart: text("window_start"),
  windowEnd: text("window_end"),
  windowComplete: integer("window_complete"),
  sample: integer("sample").notNull().default(0),
  notes: text("notes"),
  /** The SHA-256 of the file loaded (hex; migrations/0012_receipts.sql), where the run had one. */
  sha256: text("sha256"),
});

export const registerState = sqliteTable(
  "register_state",
  {
    source: text("source").notNull(),
    scope: text("scope").notNull().default(""),
    publishedRun: integer("published_run").notNull(),
    editionDate: text("edition_date"),
    historySince: text("history_since").notNull(),
    sample: integer("sample").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.source, t.scope] })],
);

export const registerEntries = sqliteTable(
  "register_entries",
  {
    source: text("source").notNull(),
    key: text("key").notNull(),
    validFromRun: integer("valid_from_run").notNull(),
    validToRun: integer("valid_to_run"),
    scope: text("scope").notNull().default(""),
    name: text("name").notNull(),
    normName: text("norm_name").notNull(),
    normCore: text("norm_core").notNull(),
    companyNumber: text("company_number"),
    status: text("status").notNull(),
    rating: text("rating"),
    town: text("town"),
    altNames: text("alt_names").notNull().default("[]"),
    data: text("data").notNull(),
    fp: text("fp").notNull(),
    firstSeen: text("first_seen").notNull(),
    removedOn: text("removed_on"),
    lastListed: text("last_listed"),
    entity: text("entity").notNull().default(""),
    part: text("part"),
  },
  (t) => [primaryKey({ columns: [t.source, t.key, t.validFromRun] })],
);

/** Every name of every entry version, normalised (its FTS5 twin, register_names_fts, is raw SQL only). */
export const registerNames = sqliteTable("register_names", {
  source: text("source").notNull(),
  norm: text("norm").notNull(),
  key: text("key").notNull(),
  validFromRun: integer("valid_from_run").notNull(),
});

export const registerChanges = sqliteTable("register_changes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  source: text("source").notNull(),
  scope: text("scope").notNull().default(""),
  runId: integer("run_id").notNull(),
  changeDate: text("change_date").notNull(),
  key: text("key").notNull(),
  kind: text("kind").notNull(),
  name: text("name").notNull(),
  before: text("before"),
  after: text("after"),
});

export const registerStaging = sqliteTable(
  "register_staging",
  {
    runId: integer("run_id").notNull(),
    seq: integer("seq").notNull(),
    record: text("record").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

// migrations/0003_upstream_cache.sql: the upstream HTTP cache and the fixed-window counters.

export const httpCache = sqliteTable("http_cache", {
  key: text("key").primaryKey(),
  status: integer("status").notNull(),
  body: text("body").notNull(),
  /** Epoch milliseconds. */
  fetchedAt: integer("fetched_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

export const upstreamBudget = sqliteTable(
  "upstream_budget",
  {
    /** The bucket's name: an upstream, or a per-IP limit. */
    source: text("source").notNull(),
    /** Epoch seconds, a multiple of the window's length. */
    windowStart: integer("window_start").notNull(),
    used: integer("used").notNull(),
  },
  (t) => [primaryKey({ columns: [t.source, t.windowStart] })],
);

// migrations/0006_bank_rate.sql.

export const bankRateChanges = sqliteTable("bank_rate_changes", {
  date: text("date").primaryKey(),
  rate: real("rate").notNull(),
});

/** One row (CHECK id = 1). */
export const bankRateMeta = sqliteTable("bank_rate_meta", {
  id: integer("id").primaryKey(),
  knownThrough: text("known_through").notNull(),
  fetchedAt: text("fetched_at").notNull(),
  source: text("source").notNull(),
});

// migrations/0007_calendar_feeds.sql.

export const calendarFeeds = sqliteTable("calendar_feeds", {
  token: text("token").primaryKey(),
  keyId: text("key_id").notNull(),
  companyNumber: text("company_number").notNull(),
  createdAt: integer("created_at").notNull(),
  revokedAt: integer("revoked_at"),
});

// migrations/0009_watch.sql: the watch list, its events and webhooks.

export const watches = sqliteTable("watches", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  accountId: text("account_id").notNull(),
  company: text("company").notNull(),
  label: text("label"),
  state: text("state", { enum: ["watched", "paused"] })
    .notNull()
    .default("watched"),
  addedAt: text("added_at").notNull(),
  paidPeriod: text("paid_period"),
  pausedAt: text("paused_at"),
  pausedReason: text("paused_reason"),
  baselineAt: text("baseline_at"),
  lastReadAt: text("last_read_at"),
});

export const watchCompanies = sqliteTable("watch_companies", {
  company: text("company").primaryKey(),
  name: text("name"),
  reading: text("reading"),
  unread: text("unread"),
  readDay: text("read_day"),
  readAt: text("read_at"),
  slot: integer("slot").notNull(),
});

export const watchEvents = sqliteTable("watch_events", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  accountId: text("account_id").notNull(),
  company: text("company").notNull(),
  seenAt: text("seen_at").notNull(),
  kind: text("kind").notNull(),
  summary: text("summary").notNull(),
  before: text("before").notNull(),
  after: text("after").notNull(),
  eventKey: text("event_key").notNull(),
  delivered: integer("delivered").notNull().default(0),
  delivery: text("delivery").notNull().default("none"),
  attempts: integer("attempts").notNull().default(0),
  /** Epoch milliseconds, as the two below. */
  nextAttemptAt: integer("next_attempt_at"),
  firstAttemptAt: integer("first_attempt_at"),
  claimedUntil: integer("claimed_until"),
  lastError: text("last_error"),
});

export const watchWebhooks = sqliteTable("watch_webhooks", {
  accountId: text("account_id").primaryKey(),
  url: text("url").notNull(),
  secret: text("secret").notNull(),
  previousSecret: text("previous_secret"),
  /** Unix seconds. */
  rotatedAt: integer("rotated_at").notNull(),
  setAt: text("set_at").notNull(),
  disabledAt: text("disabled_at"),
  disabledReason: text("disabled_reason"),
});

// migrations/0010_tenders.sql.

export const tenders = sqliteTable("tenders", {
  ocid: text("ocid").primaryKey(),
  source: text("source").notNull(),
  releaseDate: text("release_date"),
  status: text("status").notNull(),
  closesAt: text("closes_at"),
  publishedDay: text("published_day"),
  cpv: text("cpv").notNull().default(" "),
  words: text("words").notNull().default(" "),
  data: text("data").notNull(),
  sample: integer("sample").notNull().default(0),
  loadedAt: text("loaded_at").notNull(),
});

export const tenderReads = sqliteTable("tender_reads", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  startedAt: text("started_at").notNull(),
  finishedAt: text("finished_at"),
  windowStart: text("window_start"),
  windowEnd: text("window_end"),
  fileName: text("file_name"),
  url: text("url"),
  outcome: text("outcome").notNull(),
  releases: integer("releases").notNull().default(0),
  written: integer("written").notNull().default(0),
  closed: integer("closed").notNull().default(0),
  sample: integer("sample").notNull().default(0),
  reason: text("reason"),
  notes: text("notes"),
});

// migrations/0011_logos.sql: publishable keys and logos as images (issue 32). Times are epoch milliseconds.

export const publishableKeys = sqliteTable("publishable_keys", {
  key: text("key").primaryKey(),
  accountId: text("account_id").notNull(),
  /** A JSON array of origins. */
  origins: text("origins").notNull(),
  label: text("label"),
  createdAt: integer("created_at").notNull(),
  revokedAt: integer("revoked_at"),
});

export const logoFiles = sqliteTable(
  "logo_files",
  {
    domain: text("domain").notNull(),
    theme: text("theme").notNull(),
    url: text("url").notNull(),
    source: text("source").notNull(),
    mime: text("mime").notNull(),
    sha256: text("sha256").notNull(),
    /** Base64; null when the file is over 1 MiB. */
    bytes: text("bytes"),
    fetchedAt: integer("fetched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.domain, t.theme] })],
);

export const logoImages = sqliteTable("logo_images", {
  variant: text("variant").primaryKey(),
  domain: text("domain").notNull(),
  source: text("source").notNull(),
  mime: text("mime").notNull(),
  etag: text("etag").notNull(),
  /** Base64. */
  bytes: text("bytes").notNull(),
  madeAt: integer("made_at").notNull(),
});

export const logoCompanies = sqliteTable("logo_companies", {
  companyNumber: text("company_number").primaryKey(),
  domain: text("domain"),
  name: text("name").notNull(),
  resolvedAt: integer("resolved_at").notNull(),
});

// migrations/0012_receipts.sql: signed receipts of checks (issue 33 §2). Times are epoch milliseconds.

export const receipts = sqliteTable("receipts", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull(),
  createdAt: integer("created_at").notNull(),
  operation: text("operation").notNull(),
  kid: text("kid").notNull(),
  jws: text("jws").notNull(),
  contentType: text("content_type").notNull(),
  /** The reply's body, as sent. */
  body: text("body").notNull(),
});

/** Every table of the main database (binding DB), by name: test/db/schema.test.ts checks it against migrations/. */
export const mainTables = {
  orgs,
  accounts,
  apiKeys,
  signupChallenges,
  idempotentReplies,
  registerRuns,
  registerState,
  registerEntries,
  registerNames,
  registerChanges,
  registerStaging,
  httpCache,
  upstreamBudget,
  bankRateChanges,
  bankRateMeta,
  calendarFeeds,
  watches,
  watchCompanies,
  watchEvents,
  watchWebhooks,
  tenders,
  tenderReads,
  publishableKeys,
  logoFiles,
  logoImages,
  logoCompanies,
  receipts,
};

// ---------------------------------------------------------------------------------------------------------------
// The companies register's database (binding COMPANIES_DB, migrations/companies/).

// migrations/companies/0001_companies.sql: versioned companies, SIC descriptions, the published run, changes, staging.

export const companies = sqliteTable("companies", {
  id: integer("id").primaryKey(),
  number: text("number").notNull(),
  validFromRun: integer("valid_from_run").notNull(),
  validToRun: integer("valid_to_run"),
  name: text("name").notNull(),
  normCore: text("norm_core").notNull(),
  status: text("status").notNull(),
  category: text("category").notNull(),
  incorporatedOn: text("incorporated_on"),
  sic: text("sic").notNull().default(""),
  locality: text("locality"),
  postcode: text("postcode"),
  countryOfOrigin: text("country_of_origin"),
  accountsDue: text("accounts_due"),
  accountsMadeUpTo: text("accounts_made_up_to"),
  accountsCategory: text("accounts_category"),
  confirmationDue: text("confirmation_due"),
  confirmationMadeUpTo: text("confirmation_made_up_to"),
  previousNames: text("previous_names"),
  extra: text("extra"),
  fp: text("fp").notNull(),
});

/** WITHOUT ROWID. */
export const sicCodes = sqliteTable("sic_codes", {
  code: text("code").primaryKey(),
  description: text("description").notNull(),
});

/** One row (CHECK id = 1). */
export const companyState = sqliteTable("company_state", {
  id: integer("id").primaryKey(),
  publishedRun: integer("published_run").notNull(),
  editionDate: text("edition_date"),
  sample: integer("sample").notNull().default(0),
});

export const companyChanges = sqliteTable("company_changes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  runId: integer("run_id").notNull(),
  changeDate: text("change_date").notNull(),
  number: text("number").notNull(),
  kind: text("kind").notNull(),
  name: text("name").notNull(),
  before: text("before"),
  after: text("after"),
});

/** WITHOUT ROWID. */
export const companyStaging = sqliteTable(
  "company_staging",
  {
    runId: integer("run_id").notNull(),
    number: text("number").notNull(),
    name: text("name").notNull(),
    normCore: text("norm_core").notNull(),
    status: text("status").notNull(),
    category: text("category").notNull(),
    incorporatedOn: text("incorporated_on"),
    sic: text("sic").notNull(),
    locality: text("locality"),
    postcode: text("postcode"),
    countryOfOrigin: text("country_of_origin"),
    accountsDue: text("accounts_due"),
    accountsMadeUpTo: text("accounts_made_up_to"),
    accountsCategory: text("accounts_category"),
    confirmationDue: text("confirmation_due"),
    confirmationMadeUpTo: text("confirmation_made_up_to"),
    previousNames: text("previous_names"),
    extra: text("extra"),
    fp: text("fp").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.number] })],
);

// migrations/companies/0002_sic_index.sql: SIC 2007 lists for the industry classifier.

export const sicIndex = sqliteTable("sic_index", {
  id: integer("id").primaryKey(),
  code: text("code").notNull(),
  text: text("text").notNull(),
  kind: text("kind", { enum: ["list", "index", "ch"] }).notNull(),
});

/** One row (CHECK id = 1). */
export const sicIndexState = sqliteTable("sic_index_state", {
  id: integer("id").primaryKey(),
  loadedAt: text("loaded_at").notNull(),
  listRows: integer("list_rows").notNull(),
  indexRows: integer("index_rows").notNull(),
  files: text("files").notNull(),
  sample: integer("sample").notNull().default(0),
});

/** Every table of the companies register's database (binding COMPANIES_DB), by name: checked against migrations/companies/. */
export const companiesTables = { companies, sicCodes, companyState, companyChanges, companyStaging, sicIndex, sicIndexState };
