/**
 * The companies register (migrations/companies/): every statement on the COMPANIES_DB database.
 *
 * Write side: what the ingest pipeline's companies store (src/jobs/ingest/stores/companies.ts) runs.
 * Rows go in as ONE bound JSON array per statement (`INSERT … SELECT … FROM json_each(?)`), because D1
 * allows 100 bound parameters per statement and a company has 19 columns; the edition is then diffed and
 * written inside SQLite, slice by slice of company numbers, so 5.7 million rows never cross into the
 * Worker twice. Read side: a company by number, name-search candidates, SIC descriptions, a company's recorded changes.
 */
import { normaliseNameCore } from "../services/matching/names";
import { fingerprint } from "../services/registers/fingerprint";
import type { CompanyRow } from "../services/companies/records";
import type { ChangeRow, RegisterRecord } from "../services/registers/types";

export type { CompanyRow };

/** Columns of a company version and of a staged row, in order (after run ids). */
const COLUMNS = [
  "number",
  "name",
  "norm_core",
  "status",
  "category",
  "incorporated_on",
  "sic",
  "locality",
  "postcode",
  "country_of_origin",
  "accounts_due",
  "accounts_made_up_to",
  "accounts_category",
  "confirmation_due",
  "confirmation_made_up_to",
  "previous_names",
  "extra",
  "fp",
] as const;
const COLUMN_LIST = COLUMNS.join(", ");
const FROM_JSON = COLUMNS.map((_, i) => `j.value->>${i}`).join(", ");

/** Rough JSON size per statement: D1 takes bound values of up to about 2 MB. */
const JSON_BYTES_PER_STATEMENT = 600_000;

/** A parsed record as its row of columns (COLUMNS order). */
export function companyRowOf(r: RegisterRecord<"companies">): (string | null)[] {
  const d = r.data;
  return [
    r.key,
    r.name,
    normaliseNameCore(r.name),
    r.status,
    d.category,
    d.incorporatedOn,
    d.sic.map((s) => s.code).join(" "),
    r.town,
    d.postcode,
    d.countryOfOrigin,
    d.accountsDue,
    d.accountsMadeUpTo,
    d.accountsCategory,
    d.confirmationDue,
    d.confirmationMadeUpTo,
    d.previousNames.length ? JSON.stringify(d.previousNames) : null,
    Object.keys(d.extra).length ? JSON.stringify(d.extra) : null,
    fingerprint(r),
  ];
}

/** A record of the companies register: this store is handed its own register's records only. */
function companyRecord(r: RegisterRecord): RegisterRecord<"companies"> {
  if (r.source !== "companies") throw new Error(`the companies register was handed a record of ${r.source}`);
  return r;
}

/** Splits rows into JSON arrays of about JSON_BYTES_PER_STATEMENT each. */
function jsonChunks(rows: unknown[][]): string[] {
  const out: string[] = [];
  let part: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    const s = JSON.stringify(row);
    if (bytes + s.length > JSON_BYTES_PER_STATEMENT && part.length) {
      out.push(`[${part.join(",")}]`);
      part = [];
      bytes = 0;
    }
    part.push(s);
    bytes += s.length + 1;
  }
  if (part.length) out.push(`[${part.join(",")}]`);
  return out;
}

/**
 * Stages parsed records of a run (the first row of a number in an edition counts: INSERT OR IGNORE), and
 * the SIC descriptions they carry, in one transaction.
 */
export async function stageCompanies(db: D1Database, runId: number, records: RegisterRecord[]): Promise<void> {
  if (!records.length) return;
  const companies = records.map(companyRecord);
  const sic = new Map<string, string>();
  for (const r of companies) for (const s of r.data.sic) if (s.description && !sic.has(s.code)) sic.set(s.code, s.description);
  const stmts = jsonChunks(companies.map(companyRowOf)).map((json) =>
    db.prepare(`INSERT OR IGNORE INTO company_staging (run_id, ${COLUMN_LIST}) SELECT ?1, ${FROM_JSON} FROM json_each(?2) AS j`).bind(runId, json),
  );
  if (sic.size)
    stmts.push(
      db.prepare(`INSERT OR IGNORE INTO sic_codes (code, description) SELECT j.value->>0, j.value->>1 FROM json_each(?1) AS j`).bind(JSON.stringify([...sic])),
    );
  await db.batch(stmts);
}

export interface CompanyState {
  published_run: number;
  edition_date: string | null;
  sample: number;
}

export async function companyState(db: D1Database): Promise<CompanyState | null> {
  return db.prepare(`SELECT published_run, edition_date, sample FROM company_state WHERE id = 1`).first<CompanyState>();
}

/**
 * Upper bounds of slices of about `size` staged numbers each, in order; the last slice is open-ended
 * (null), so every number, staged or only published, falls in exactly one slice.
 */
export async function stagedSlices(db: D1Database, runId: number, size: number): Promise<{ after: string; upTo: string | null }[]> {
  const bounds: string[] = [];
  for (let after = ""; ; ) {
    const row = await db
      .prepare(`SELECT number FROM company_staging WHERE run_id = ?1 AND number > ?2 ORDER BY number LIMIT 1 OFFSET ?3`)
      .bind(runId, after, size - 1)
      .first<{ number: string }>();
    if (!row) break;
    bounds.push(row.number);
    after = row.number;
  }
  const out: { after: string; upTo: string | null }[] = [];
  let after = "";
  for (const b of bounds) {
    out.push({ after, upTo: b });
    after = b;
  }
  out.push({ after, upTo: null });
  return out;
}

/** The staged rows of a slice (s) and the open published version of the same company (c), if any. */
const SLICE_S = `s.run_id = ?1 AND s.number > ?3 AND (?4 IS NULL OR s.number <= ?4)`;
const SLICE_C = `c.valid_to_run IS NULL AND c.valid_from_run < ?1 AND c.number > ?3 AND (?4 IS NULL OR c.number <= ?4)`;
const OPEN_C = `c.number = s.number AND c.valid_to_run IS NULL AND c.valid_from_run < ?1`;
const SNAPSHOT = (t: string) => `json_object('name', ${t}.name, 'status', ${t}.status, 'locality', ${t}.locality, 'postcode', ${t}.postcode)`;

/**
 * Diffs and writes one slice of a run: records the slice's changes (unless `baseline`), writes new
 * versions of the companies that are new or changed, closes the versions they replace and those of
 * companies no longer in the file, and indexes the new versions' names. Returns the slice's changes by kind.
 */
export async function applyCompanySlice(
  db: D1Database,
  runId: number,
  slice: { after: string; upTo: string | null },
  opts: { editionDate: string; baseline: boolean },
): Promise<Record<string, number>> {
  const p = [runId, opts.editionDate, slice.after, slice.upTo] as const;
  const changes = opts.baseline
    ? []
    : [
        // Added: never listed before; returned: listed in an earlier edition, not in the last one (restored).
        `INSERT INTO company_changes (run_id, change_date, number, kind, name, before, after)
           SELECT ?1, ?2, s.number, CASE WHEN EXISTS (SELECT 1 FROM company_changes h WHERE h.number = s.number AND h.kind = 'removed' AND h.run_id < ?1) THEN 'returned' ELSE 'added' END,
                  s.name, NULL, ${SNAPSHOT("s")} FROM company_staging s
            WHERE ${SLICE_S} AND NOT EXISTS (SELECT 1 FROM companies c WHERE ${OPEN_C})`,
        `INSERT INTO company_changes (run_id, change_date, number, kind, name, before, after)
           SELECT ?1, ?2, s.number, 'renamed', s.name, ${SNAPSHOT("c")}, ${SNAPSHOT("s")} FROM company_staging s JOIN companies c ON ${OPEN_C}
            WHERE ${SLICE_S} AND c.fp <> s.fp AND c.name <> s.name`,
        `INSERT INTO company_changes (run_id, change_date, number, kind, name, before, after)
           SELECT ?1, ?2, s.number, 'status', s.name, ${SNAPSHOT("c")}, ${SNAPSHOT("s")} FROM company_staging s JOIN companies c ON ${OPEN_C}
            WHERE ${SLICE_S} AND c.fp <> s.fp AND lower(c.status) <> lower(s.status)`,
        `INSERT INTO company_changes (run_id, change_date, number, kind, name, before, after)
           SELECT ?1, ?2, s.number, 'moved', s.name, ${SNAPSHOT("c")}, ${SNAPSHOT("s")} FROM company_staging s JOIN companies c ON ${OPEN_C}
            WHERE ${SLICE_S} AND c.fp <> s.fp AND replace(coalesce(c.postcode, ''), ' ', '') <> replace(coalesce(s.postcode, ''), ' ', '')`,
        `INSERT INTO company_changes (run_id, change_date, number, kind, name, before, after)
           SELECT ?1, ?2, c.number, 'removed', c.name, ${SNAPSHOT("c")}, NULL FROM companies c
            WHERE ${SLICE_C} AND NOT EXISTS (SELECT 1 FROM company_staging s WHERE s.run_id = ?1 AND s.number = c.number)`,
      ];
  const writes = [
    // New versions: companies not open, or open with another fingerprint. (A baseline compares with nothing.)
    `INSERT INTO companies (valid_from_run, ${COLUMN_LIST})
       SELECT ?1, ${COLUMNS.map((c) => `s.${c}`).join(", ")} FROM company_staging s
        WHERE ${SLICE_S} AND (?5 OR NOT EXISTS (SELECT 1 FROM companies c WHERE ${OPEN_C} AND c.fp = s.fp))
        ORDER BY s.number`,
    // Close what they replace, and the companies this edition no longer lists.
    `UPDATE companies AS c SET valid_to_run = ?1
      WHERE ${SLICE_C} AND NOT ?5 AND NOT EXISTS (SELECT 1 FROM company_staging s WHERE s.run_id = ?1 AND s.number = c.number AND s.fp = c.fp)`,
    `INSERT INTO companies_fts (rowid, norm_core)
       SELECT c.id, c.norm_core FROM companies c WHERE c.valid_from_run = ?1 AND c.number > ?3 AND (?4 IS NULL OR c.number <= ?4)`,
  ];
  const values = [...p, opts.baseline ? 1 : 0];
  // Each statement gets the values up to the highest ?N it names (D1 refuses more values than parameters).
  const bindUsed = (sql: string) => db.prepare(sql).bind(...values.slice(0, Math.max(...[...sql.matchAll(/\?(\d)/g)].map((m) => Number(m[1])))));
  await db.batch([...changes, ...writes].map(bindUsed));
  if (opts.baseline) return {};
  const rows = await db
    .prepare(`SELECT kind, COUNT(*) AS n FROM company_changes WHERE run_id = ?1 AND number > ?2 AND (?3 IS NULL OR number <= ?3) GROUP BY kind`)
    .bind(runId, slice.after, slice.upTo)
    .all<{ kind: string; n: number }>();
  return Object.fromEntries(rows.results.map((r) => [r.kind, r.n]));
}

/** How many versions a run wrote (a run that wrote none and recorded no change changed nothing). */
export async function versionsWritten(db: D1Database, runId: number): Promise<{ written: number; closed: number }> {
  const r = await db
    .prepare(`SELECT (SELECT COUNT(*) FROM companies WHERE valid_from_run = ?1) AS written, (SELECT COUNT(*) FROM companies WHERE valid_to_run = ?1) AS closed`)
    .bind(runId)
    .first<{ written: number; closed: number }>();
  return { written: r?.written ?? 0, closed: r?.closed ?? 0 };
}

/**
 * Publishes a run: readers switch to it in one transaction, which drops the staging. `replacesSample`:
 * the first real edition after our sample data, whose versions and changes go in the same transaction.
 */
export async function publishCompanies(db: D1Database, runId: number, opts: { editionDate: string; sample: boolean; replacesSample: boolean }): Promise<void> {
  const dropSample = opts.replacesSample
    ? [
        db
          .prepare(`INSERT INTO companies_fts (companies_fts, rowid, norm_core) SELECT 'delete', id, norm_core FROM companies WHERE valid_from_run <> ?1`)
          .bind(runId),
        db.prepare(`DELETE FROM companies WHERE valid_from_run <> ?1`).bind(runId),
        db.prepare(`DELETE FROM company_changes WHERE run_id <> ?1`).bind(runId),
      ]
    : [];
  await db.batch([
    ...dropSample,
    db
      .prepare(
        `INSERT INTO company_state (id, published_run, edition_date, sample) VALUES (1, ?1, ?2, ?3)
         ON CONFLICT(id) DO UPDATE SET published_run = excluded.published_run, edition_date = excluded.edition_date, sample = excluded.sample`,
      )
      .bind(runId, opts.editionDate, opts.sample ? 1 : 0),
    // One run stages at a time (the run log refuses a second), so the whole table is this run's.
    db.prepare(`DELETE FROM company_staging`),
  ]);
}

/**
 * Deletes versions no reader can see any more: those closed by a run at or before the published one (readers
 * see only the published run; the change history keeps what they said). Without this every monthly edition
 * would add the hundreds of thousands of versions it replaces to the database for good. In batches of
 * `batch`; returns how many were deleted.
 */
export async function pruneClosedVersions(db: D1Database, publishedRun: number, batch = 50_000): Promise<number> {
  let total = 0;
  for (;;) {
    const pick = `SELECT id FROM companies WHERE valid_to_run IS NOT NULL AND valid_to_run <= ?1 LIMIT ?2`;
    const [fts, del] = await db.batch([
      db
        .prepare(`INSERT INTO companies_fts (companies_fts, rowid, norm_core) SELECT 'delete', id, norm_core FROM companies WHERE id IN (${pick})`)
        .bind(publishedRun, batch),
      db.prepare(`DELETE FROM companies WHERE id IN (${pick})`).bind(publishedRun, batch),
    ]);
    void fts;
    const n = del.meta.changes ?? 0;
    total += n;
    if (n < batch) return total;
  }
}

/** An edition that changed nothing: the register is current as of its date; the staging goes. */
export async function publishCompaniesUnchanged(db: D1Database, editionDate: string): Promise<void> {
  await db.batch([
    db.prepare(`UPDATE company_state SET edition_date = ?1 WHERE id = 1 AND (edition_date IS NULL OR edition_date < ?1)`).bind(editionDate),
    db.prepare(`DELETE FROM company_staging`),
  ]);
}

/** Removes everything a run wrote (versions and their index entries, closings, changes, staging). */
export async function discardCompanyRun(db: D1Database, runId: number): Promise<void> {
  await db.batch([
    db
      .prepare(`INSERT INTO companies_fts (companies_fts, rowid, norm_core) SELECT 'delete', id, norm_core FROM companies WHERE valid_from_run = ?1`)
      .bind(runId),
    db.prepare(`DELETE FROM companies WHERE valid_from_run = ?1`).bind(runId),
    db.prepare(`UPDATE companies SET valid_to_run = NULL WHERE valid_to_run = ?1`).bind(runId),
    db.prepare(`DELETE FROM company_changes WHERE run_id = ?1`).bind(runId),
    db.prepare(`DELETE FROM company_staging WHERE run_id = ?1`).bind(runId),
  ]);
}

/** Empties the register (npm run reset -- companies). Returns the number of versions removed. */
export async function resetCompanies(db: D1Database): Promise<number> {
  const n = await db.prepare(`SELECT COUNT(*) AS n FROM companies`).first<{ n: number }>();
  await db.batch([
    db.prepare(`INSERT INTO companies_fts (companies_fts) VALUES ('delete-all')`),
    db.prepare(`DELETE FROM companies`),
    db.prepare(`DELETE FROM company_changes`),
    db.prepare(`DELETE FROM company_staging`),
    db.prepare(`DELETE FROM company_state`),
  ]);
  return n?.n ?? 0;
}

// ---- Read side

interface RawRow {
  number: string;
  name: string;
  status: string;
  category: string;
  incorporated_on: string | null;
  sic: string;
  locality: string | null;
  postcode: string | null;
  country_of_origin: string | null;
  accounts_due: string | null;
  accounts_made_up_to: string | null;
  accounts_category: string | null;
  confirmation_due: string | null;
  confirmation_made_up_to: string | null;
  previous_names: string | null;
  extra: string | null;
}

const toCompany = (r: RawRow): CompanyRow => ({
  number: r.number,
  name: r.name,
  status: r.status,
  category: r.category,
  incorporatedOn: r.incorporated_on,
  sicCodes: r.sic ? r.sic.split(" ") : [],
  locality: r.locality,
  postcode: r.postcode,
  countryOfOrigin: r.country_of_origin,
  accountsDue: r.accounts_due,
  accountsMadeUpTo: r.accounts_made_up_to,
  accountsCategory: r.accounts_category,
  confirmationDue: r.confirmation_due,
  confirmationMadeUpTo: r.confirmation_made_up_to,
  previousNames: r.previous_names ? (JSON.parse(r.previous_names) as { name: string; until: string | null }[]) : [],
  extra: r.extra ? (JSON.parse(r.extra) as Record<string, string | number>) : {},
});

const READ_COLUMNS = `c.number, c.name, c.status, c.category, c.incorporated_on, c.sic, c.locality, c.postcode, c.country_of_origin,
  c.accounts_due, c.accounts_made_up_to, c.accounts_category, c.confirmation_due, c.confirmation_made_up_to, c.previous_names, c.extra`;
const VISIBLE = `c.valid_from_run <= st.published_run AND (c.valid_to_run IS NULL OR c.valid_to_run > st.published_run)`;

/** The published edition: its date and whether it is our sample data; null when the register was never loaded. */
export async function companiesEdition(db: D1Database): Promise<{ editionDate: string | null; sample: boolean; loadedAt: string | null } | null> {
  const s = await companyState(db);
  return s ? { editionDate: s.edition_date, sample: s.sample === 1, loadedAt: null } : null;
}

/** The company with this number in the published edition, or null. */
export async function companyByNumber(db: D1Database, number: string): Promise<CompanyRow | null> {
  const r = await db
    .prepare(`SELECT ${READ_COLUMNS} FROM companies c, company_state st WHERE st.id = 1 AND c.number = ?1 AND ${VISIBLE} LIMIT 1`)
    .bind(number)
    .first<RawRow>();
  return r ? toCompany(r) : null;
}

/**
 * Candidates for a name search: the published companies whose indexed name words match an FTS5
 * expression, best BM25 rank first (short names holding the words rank first), at most `limit`.
 */
export async function companiesMatching(db: D1Database, fts: string, limit: number): Promise<CompanyRow[]> {
  const rows = await db
    .prepare(
      `SELECT ${READ_COLUMNS} FROM (SELECT rowid, rank FROM companies_fts WHERE companies_fts MATCH ?1 ORDER BY rank LIMIT ?2) f
         JOIN companies c ON c.id = f.rowid, company_state st WHERE st.id = 1 AND ${VISIBLE} ORDER BY f.rank`,
    )
    .bind(fts, limit)
    .all<RawRow>();
  return rows.results.map(toCompany);
}

/** Descriptions of SIC codes, as the bulk file gives them (codes it never described are absent). */
export async function sicDescriptions(db: D1Database, codes: string[]): Promise<Map<string, string>> {
  const uniq = [...new Set(codes)].slice(0, 90);
  if (!uniq.length) return new Map();
  const rows = await db
    .prepare(`SELECT code, description FROM sic_codes WHERE code IN (${uniq.map((_, i) => `?${i + 1}`).join(", ")})`)
    .bind(...uniq)
    .all<{ code: string; description: string }>();
  return new Map(rows.results.map((r) => [r.code, r.description]));
}

/**
 * What the published editions recorded of one company (added, removed, renamed, status, moved), newest first, at
 * most `limit`; `key` is the company number. Changes of a run not yet published are not read.
 */
export async function companyChangesOf(db: D1Database, number: string, limit = 100): Promise<ChangeRow[]> {
  const rows = await db
    .prepare(
      `SELECT c.id, c.change_date, c.kind, c.number, c.name, c.before, c.after FROM company_changes c, company_state st
        WHERE st.id = 1 AND c.number = ?1 AND c.run_id <= st.published_run ORDER BY c.id DESC LIMIT ?2`,
    )
    .bind(number, Math.max(1, Math.min(limit, 500)))
    .all<{ id: number; change_date: string; kind: string; number: string; name: string; before: string | null; after: string | null }>();
  return rows.results.map((r) => ({
    id: r.id,
    date: r.change_date,
    kind: r.kind,
    key: r.number,
    name: r.name,
    before: r.before ? (JSON.parse(r.before) as Record<string, unknown>) : null,
    after: r.after ? (JSON.parse(r.after) as Record<string, unknown>) : null,
  }));
}
