/**
 * The registers' entries, names, changes and published state.
 *
 * Read side: every query sees only the published edition of each source/scope
 * (register_state.published_run), so a run in progress is invisible until it publishes.
 * Write side (end of this file): what the ingest pipeline (src/jobs/ingest/pipeline.ts) writes as it
 * completes a run: new entry versions, removals and changes, then the one publishing transaction.
 */

import type { ChangeRow, DataField, Entry, RegisterData, RegisterEditionInfo, RegisterSource } from "../services/registers/types";

export interface EntryRow {
  source: string;
  key: string;
  entity: string;
  part: string | null;
  scope: string;
  name: string;
  norm_name: string;
  company_number: string | null;
  status: string;
  rating: string | null;
  town: string | null;
  alt_names: string;
  data: string;
  first_seen: string;
  removed_on: string | null;
  last_listed: string | null;
  edition_date: string | null;
}

/**
 * Which edition of each register a read sees (issue 33 §1): the published one (null), or the one the register stood at
 * on a date — per part (scope), the newest edition loaded with an edition date on or before it, from the editions kept
 * since the register's history began (`history_since`: the first real edition; sample data before it is gone).
 */
export type RegisterView = { asOf: string } | null;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The state each source and scope is read at, as a table (source, scope, published_run, edition_date, history_since):
 * register_state for the published view; for a date, the run of that edition (the last run of the newest edition on or
 * before it, loaded or found unchanged). The date is written into the SQL only after it has been checked to be
 * YYYY-MM-DD (so it cannot carry SQL), which keeps every statement's bound parameters as they are.
 */
export function stateAt(view: RegisterView): string {
  if (!view) return "register_state";
  if (!ISO_DATE.test(view.asOf)) throw new Error(`A register view's date must be YYYY-MM-DD, not ${JSON.stringify(view.asOf)}.`);
  const kept = (r: string) =>
    `${r}.source = st.source AND ${r}.scope = st.scope AND ${r}.outcome IN ('loaded', 'unchanged') AND ${r}.id <= st.published_run AND ${r}.edition_date >= st.history_since`;
  return `(SELECT st.source AS source, st.scope AS scope, MAX(r.id) AS published_run, r.edition_date AS edition_date, st.history_since AS history_since
      FROM register_state st JOIN register_runs r ON ${kept("r")}
      WHERE r.edition_date = (SELECT MAX(r2.edition_date) FROM register_runs r2 WHERE ${kept("r2")} AND r2.edition_date <= '${view.asOf}')
      GROUP BY st.source, st.scope, r.edition_date)`;
}

/** The entries a view sees: each entry's version current at its scope's run. */
const visibleIn = (view: RegisterView) => `FROM register_entries e JOIN ${stateAt(view)} s ON s.source = e.source AND s.scope = e.scope
  WHERE e.source = ?1 AND e.valid_from_run <= s.published_run AND (e.valid_to_run IS NULL OR e.valid_to_run > s.published_run)`;
const VISIBLE = visibleIn(null);
const COLUMNS = `e.source, e.key, e.entity, e.part, e.scope, e.name, e.norm_name, e.company_number, e.status, e.rating, e.town, e.alt_names, e.data, e.first_seen, e.removed_on, e.last_listed, s.edition_date`;

/**
 * An entry's stored `data` as its register's shape (services/registers/catalogue.ts, its rows). The one place the stored JSON is
 * taken to have that shape: every version of the register's parser wrote it (a field some version did not write
 * is optional in the shape), and the queries below read one register's entries only (`source`).
 */
const storedData = <S extends RegisterSource>(json: string): RegisterData<S> => JSON.parse(json) as RegisterData<S>;

const toEntry = <S extends RegisterSource>(r: EntryRow): Entry<S> => ({
  key: r.key,
  entity: r.entity,
  part: r.part,
  scope: r.scope,
  name: r.name,
  companyNumber: r.company_number,
  status: r.status,
  rating: r.rating,
  town: r.town,
  altNames: JSON.parse(r.alt_names) as string[],
  data: storedData<S>(r.data),
  firstSeen: r.first_seen,
  removedOn: r.removed_on,
  lastListed: r.removed_on ? r.last_listed : r.edition_date,
});

export async function editionInfo(db: D1Database, source: string, scopes?: string[], view: RegisterView = null): Promise<RegisterEditionInfo> {
  // A register published in parts (sponsors: workers and students) answers for the parts asked about.
  const only = scopes?.length ? ` AND s.scope IN (${scopes.map((_, i) => `?${i + 2}`).join(", ")})` : "";
  const r = await db
    .prepare(
      `SELECT MAX(s.edition_date) AS edition_date, MIN(s.history_since) AS history_since, MAX(r.finished_at) AS fetched_at
         FROM ${stateAt(view)} s LEFT JOIN register_runs r ON r.id = s.published_run WHERE s.source = ?1${only}`,
    )
    .bind(source, ...(scopes ?? []))
    .first<{ edition_date: string | null; history_since: string | null; fetched_at: string | null }>();
  return { editionDate: r?.edition_date ?? null, historySince: r?.history_since ?? null, fetchedAt: r?.fetched_at ?? null };
}

/** Entries whose company number is one of `numbers`. */
export async function entriesByCompanyNumber<S extends RegisterSource>(
  db: D1Database,
  source: S,
  numbers: string[],
  limit = 200,
  view: RegisterView = null,
): Promise<Entry<S>[]> {
  if (!numbers.length) return [];
  const rows = await db
    .prepare(`SELECT ${COLUMNS} ${visibleIn(view)} AND e.company_number IN (${numbers.map((_, i) => `?${i + 2}`).join(", ")}) LIMIT ${limit}`)
    .bind(source, ...numbers)
    .all<EntryRow>();
  return rows.results.map((r) => toEntry<S>(r));
}

/** Entries with one of these keys. */
export async function entriesByKeys<S extends RegisterSource>(db: D1Database, source: S, keys: string[], view: RegisterView = null): Promise<Entry<S>[]> {
  const out: Entry<S>[] = [];
  for (let i = 0; i < keys.length; i += 90) {
    const part = keys.slice(i, i + 90);
    const rows = await db
      .prepare(`SELECT ${COLUMNS} ${visibleIn(view)} AND e.key IN (${part.map((_, j) => `?${j + 2}`).join(", ")})`)
      .bind(source, ...part)
      .all<EntryRow>();
    out.push(...rows.results.map((r) => toEntry<S>(r)));
  }
  return out;
}

/** Entries whose `data` field equals a value (e.g. SRA number, charity number, MLR number). */
export async function entriesByDataField<S extends RegisterSource>(
  db: D1Database,
  source: S,
  field: DataField<S>,
  value: string | number,
  limit = 500,
  view: RegisterView = null,
): Promise<Entry<S>[]> {
  const rows = await db
    .prepare(`SELECT ${COLUMNS} ${visibleIn(view)} AND json_extract(e.data, ?2) = ?3 LIMIT ${limit}`)
    .bind(source, `$.${field}`, value)
    .all<EntryRow>();
  return rows.results.map((r) => toEntry<S>(r));
}

/** The published run and edition of a source (its greatest over scopes), or null before its first publication. */
export async function publishedRunOf(db: D1Database, source: string): Promise<{ run: number; editionDate: string | null; finishedAt: string | null } | null> {
  const r = await db
    .prepare(
      `SELECT MAX(s.published_run) AS run, MAX(s.edition_date) AS edition_date, MAX(r.finished_at) AS finished_at
         FROM register_state s LEFT JOIN register_runs r ON r.id = s.published_run WHERE s.source = ?1`,
    )
    .bind(source)
    .first<{ run: number | null; edition_date: string | null; finished_at: string | null }>();
  return r?.run ? { run: r.run, editionDate: r.edition_date, finishedAt: r.finished_at } : null;
}

/** The `data` of every entry listed in a source's published edition, by key, a page (of `limit`) after `afterKey`. */
export async function listedEntryData<S extends RegisterSource>(
  db: D1Database,
  source: S,
  afterKey: string,
  limit = 2000,
): Promise<{ key: string; data: RegisterData<S> }[]> {
  const rows = await db
    .prepare(`SELECT e.key, e.data ${VISIBLE} AND e.removed_on IS NULL AND e.key > ?2 ORDER BY e.key LIMIT ${limit}`)
    .bind(source, afterKey)
    .all<{ key: string; data: string }>();
  return rows.results.map((r) => ({ key: r.key, data: storedData<S>(r.data) }));
}

/** The newest run a view sees of a source: names written by a run still in progress (or after the view's date) are not candidates. */
const runSeen = (view: RegisterView) => `SELECT COALESCE(MAX(published_run), 0) FROM ${stateAt(view)} WHERE source = ?1`;

/** Keys of entries one of whose names normalises to one of `norms` (exact), or matches an FTS query. */
export async function keysByNames(
  db: D1Database,
  source: string,
  norms: string[],
  fts: string | null,
  limit = 200,
  view: RegisterView = null,
): Promise<string[]> {
  const keys = new Set<string>();
  if (norms.length) {
    const rows = await db
      .prepare(
        `SELECT DISTINCT key FROM register_names WHERE source = ?1 AND valid_from_run <= (${runSeen(view)})
            AND norm IN (${norms.map((_, i) => `?${i + 2}`).join(", ")}) LIMIT ${limit}`,
      )
      .bind(source, ...norms)
      .all<{ key: string }>();
    for (const r of rows.results) keys.add(r.key);
  }
  if (fts && keys.size < limit) {
    const rows = await db
      .prepare(
        `SELECT DISTINCT key FROM register_names_fts WHERE register_names_fts MATCH ?1 AND source = ?2 AND valid_from_run <= (${runSeen(view).replace("?1", "?2")}) LIMIT ${limit}`,
      )
      .bind(`norm : (${fts})`, source)
      .all<{ key: string }>();
    for (const r of rows.results) keys.add(r.key);
  }
  return [...keys];
}

/** Count and group of entries by a data field, over every visible entry with these keys. */
export async function countByMlr(
  db: D1Database,
  mlrNumbers: string[],
  view: RegisterView = null,
): Promise<Map<string, { premises: number; districts: string[] }>> {
  const out = new Map<string, { premises: number; districts: string[] }>();
  if (!mlrNumbers.length) return out;
  const rows = await db
    .prepare(
      `SELECT json_extract(e.data, '$.mlrNumber') AS mlr, COUNT(*) AS n, group_concat(DISTINCT json_extract(e.data, '$.postcodeDistrict')) AS districts
         ${visibleIn(view)} AND e.removed_on IS NULL AND json_extract(e.data, '$.mlrNumber') IN (${mlrNumbers.map((_, i) => `?${i + 2}`).join(", ")})
         GROUP BY mlr`,
    )
    .bind("aml", ...mlrNumbers)
    .all<{ mlr: string; n: number; districts: string | null }>();
  for (const r of rows.results) out.set(r.mlr, { premises: r.n, districts: (r.districts ?? "").split(",").filter(Boolean).sort() });
  return out;
}

const toChange = (r: { id: number; change_date: string; kind: string; key: string; name: string; before: string | null; after: string | null }): ChangeRow => ({
  id: r.id,
  date: r.change_date,
  kind: r.kind,
  key: r.key,
  name: r.name,
  before: r.before ? (JSON.parse(r.before) as Record<string, unknown>) : null,
  after: r.after ? (JSON.parse(r.after) as Record<string, unknown>) : null,
});

/** The changes a view sees: those of runs up to its scope's run. */
const changesIn = (view: RegisterView) => `FROM register_changes c JOIN ${stateAt(view)} s ON s.source = c.source AND s.scope = c.scope
  WHERE c.source = ?1 AND c.run_id <= s.published_run`;
const PUBLISHED_CHANGE = changesIn(null);

/** Published changes of these entities, oldest first. */
export async function historyOf(db: D1Database, source: string, entities: string[], limit = 50, view: RegisterView = null): Promise<ChangeRow[]> {
  const keys = [...new Set(entities)];
  if (!keys.length) return [];
  const part = keys.slice(0, 90);
  const rows = await db
    .prepare(
      `SELECT c.id, c.change_date, c.kind, c.key, c.name, c.before, c.after ${changesIn(view)}
         AND c.key IN (${part.map((_, i) => `?${i + 2}`).join(", ")}) ORDER BY c.id DESC LIMIT ${limit}`,
    )
    .bind(source, ...part)
    .all<Parameters<typeof toChange>[0]>();
  return rows.results.map(toChange).reverse();
}

/** A page of the change feed: published changes on or after `since`, oldest first, after cursor `afterId`. */
export async function changesSince(
  db: D1Database,
  source: string,
  opts: { since: string; kinds: string[] | null; afterId: number; limit: number; filter?: { field: "rating"; value: string } },
): Promise<{ changes: ChangeRow[]; more: boolean }> {
  const params: unknown[] = [source, opts.since, opts.afterId];
  let sql = `SELECT c.id, c.change_date, c.kind, c.key, c.name, c.before, c.after ${PUBLISHED_CHANGE} AND c.change_date >= ?2 AND c.id > ?3`;
  if (opts.kinds?.length) {
    sql += ` AND c.kind IN (${opts.kinds.map((_, i) => `?${i + 4}`).join(", ")})`;
    params.push(...opts.kinds);
  }
  if (opts.filter) {
    sql += ` AND (json_extract(c.after, '$.rating') = ?${params.length + 1} COLLATE NOCASE OR json_extract(c.before, '$.rating') = ?${params.length + 1} COLLATE NOCASE)`;
    params.push(opts.filter.value);
  }
  sql += ` ORDER BY c.id LIMIT ${opts.limit + 1}`;
  const rows = await db
    .prepare(sql)
    .bind(...params)
    .all<Parameters<typeof toChange>[0]>();
  const changes = rows.results.map(toChange);
  return { changes: changes.slice(0, opts.limit), more: changes.length > opts.limit };
}

/**
 * The published registers' reads with the database bound: what operations get as `ctx.services.registers`. Written
 * out rather than mapped from the functions above, so that each read keeps its type parameter (the entries of
 * register S have S's `data`), which a mapped type would erase.
 */
export interface RegisterReads {
  /** The view these reads see: null for the published editions, or the date the registers are read as they stood on. */
  view: RegisterView;
  editionInfo(source: string, scopes?: string[]): Promise<RegisterEditionInfo>;
  /** Each part's edition the view sees, with the file it was loaded from (the published view: the newest). */
  editionsSeen(source: string, scopes?: string[]): Promise<EditionSeen[]>;
  entriesByCompanyNumber<S extends RegisterSource>(source: S, numbers: string[], limit?: number): Promise<Entry<S>[]>;
  entriesByKeys<S extends RegisterSource>(source: S, keys: string[]): Promise<Entry<S>[]>;
  entriesByDataField<S extends RegisterSource>(source: S, field: DataField<S>, value: string | number, limit?: number): Promise<Entry<S>[]>;
  keysByNames(source: string, norms: string[], fts: string | null, limit?: number): Promise<string[]>;
  historyOf(source: string, entities: string[], limit?: number): Promise<ChangeRow[]>;
  changesSince(source: string, opts: Parameters<typeof changesSince>[2]): ReturnType<typeof changesSince>;
  countByMlr(mlrNumbers: string[]): ReturnType<typeof countByMlr>;
}

/** The register reads on a database (or on the database a function gives at each call), in a view (default: published). */
export function registerReads(db: D1Database | (() => D1Database), view: RegisterView = null): RegisterReads {
  const get = typeof db === "function" ? db : () => db;
  return {
    view,
    editionInfo: (source, scopes) => editionInfo(get(), source, scopes, view),
    editionsSeen: (source, scopes) => editionsSeen(get(), source, scopes, view),
    entriesByCompanyNumber: (source, numbers, limit) => entriesByCompanyNumber(get(), source, numbers, limit, view),
    entriesByKeys: (source, keys) => entriesByKeys(get(), source, keys, view),
    entriesByDataField: (source, field, value, limit) => entriesByDataField(get(), source, field, value, limit, view),
    keysByNames: (source, norms, fts, limit) => keysByNames(get(), source, norms, fts, limit, view),
    historyOf: (source, entities, limit) => historyOf(get(), source, entities, limit, view),
    changesSince: (source, opts) => changesSince(get(), source, opts),
    countByMlr: (mlrNumbers) => countByMlr(get(), mlrNumbers, view),
  };
}

/** A part of a register as a view sees it: its edition, the run and file it was loaded from, and when. */
export interface EditionSeen {
  scope: string;
  editionDate: string | null;
  /** The first edition kept of this part (history is kept from here). */
  historySince: string;
  fileName: string | null;
  url: string | null;
  /** The SHA-256 of the file loaded (hex), where the run recorded it. */
  sha256: string | null;
  loadedAt: string | null;
}

export async function editionsSeen(db: D1Database, source: string, scopes?: string[], view: RegisterView = null): Promise<EditionSeen[]> {
  const only = scopes?.length ? ` AND s.scope IN (${scopes.map((_, i) => `?${i + 2}`).join(", ")})` : "";
  const rows = await db
    .prepare(
      `SELECT s.scope, s.edition_date, s.history_since, r.file_name, r.url, r.sha256, r.finished_at
         FROM ${stateAt(view)} s LEFT JOIN register_runs r ON r.id = s.published_run WHERE s.source = ?1${only} ORDER BY s.scope`,
    )
    .bind(source, ...(scopes ?? []))
    .all<{
      scope: string;
      edition_date: string | null;
      history_since: string;
      file_name: string | null;
      url: string | null;
      sha256: string | null;
      finished_at: string | null;
    }>();
  return rows.results.map((r) => ({
    scope: r.scope,
    editionDate: r.edition_date,
    historySince: r.history_since,
    fileName: r.file_name,
    url: r.url,
    sha256: r.sha256,
    loadedAt: r.finished_at,
  }));
}

/** The first date a register can be read as of: the latest of its parts' first kept editions (null before any). */
export async function firstDateKept(db: D1Database, source: string): Promise<string | null> {
  const r = await db.prepare(`SELECT MAX(history_since) AS since FROM register_state WHERE source = ?1`).bind(source).first<{ since: string | null }>();
  return r?.since ?? null;
}

/**
 * Empties one register (every edition, change and run of `source`), e.g. to load its history oldest
 * first, or to replace sample data by hand. Returns the number of entries removed.
 */
export async function resetRegister(db: D1Database, source: string): Promise<number> {
  const n = await db.prepare(`SELECT COUNT(*) AS n FROM register_entries WHERE source = ?`).bind(source).first<{ n: number }>();
  await db.batch([
    db.prepare(`DELETE FROM register_names_fts WHERE source = ?`).bind(source),
    db.prepare(`DELETE FROM register_names WHERE source = ?`).bind(source),
    db.prepare(`DELETE FROM register_changes WHERE source = ?`).bind(source),
    db.prepare(`DELETE FROM register_entries WHERE source = ?`).bind(source),
    db.prepare(`DELETE FROM register_state WHERE source = ?`).bind(source),
    db.prepare(`DELETE FROM register_staging WHERE run_id IN (SELECT id FROM register_runs WHERE source = ?)`).bind(source),
    db.prepare(`DELETE FROM register_runs WHERE source = ?`).bind(source),
  ]);
  return n?.n ?? 0;
}

// ---- Write side: the ingest pipeline's statements.
//
// Rows go many to a statement, as ONE bound parameter holding a JSON array of rows
// (INSERT … SELECT … FROM json_each(?)), not as bound parameters (D1 takes 100 a statement: five rows of
// register_entries). Every statement and batch is a round trip (locally, through wrangler's proxy, each
// prepare and bind too), so a large edition is written in a few large statements and batches.

/** UTF-8 bytes of one JSON parameter at most (D1 takes 2 MB a value and a row; this keeps well under). */
export const JSON_PARAM_BYTES = 512 * 1024;
/** A batch (one D1 transaction) holds at most this many statements, and their JSON parameters this many bytes. */
const BATCH_STATEMENTS = 50;
const BATCH_BYTES = 4 * 1024 * 1024;

const NON_ASCII = /[^\x00-\x7f]/;
/** UTF-8 length of a string. */
export function utf8Length(s: string): number {
  if (!NON_ASCII.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Items (rows, or keys) as JSON arrays of at most JSON_PARAM_BYTES each (an item larger than that goes alone). */
function jsonArrays(items: unknown[]): { json: string; bytes: number }[] {
  const out: { json: string; bytes: number }[] = [];
  let part: string[] = [];
  let bytes = 2;
  for (const item of items) {
    const json = JSON.stringify(item);
    const size = utf8Length(json) + 1;
    if (part.length && bytes + size > JSON_PARAM_BYTES) {
      out.push({ json: `[${part.join(",")}]`, bytes });
      part = [];
      bytes = 2;
    }
    part.push(json);
    bytes += size;
  }
  if (part.length) out.push({ json: `[${part.join(",")}]`, bytes });
  return out;
}

/**
 * The write side's statements, prepared once per database binding: a run writes the same few shapes
 * over and over (a D1 prepared statement holds only its SQL; bind makes a new one).
 */
const preparedBy = new WeakMap<D1Database, Map<string, D1PreparedStatement>>();
function prepared(db: D1Database, sql: string): D1PreparedStatement {
  let statements = preparedBy.get(db);
  if (!statements) preparedBy.set(db, (statements = new Map()));
  let stmt = statements.get(sql);
  if (!stmt) statements.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}

/** A statement of the write side, with the bytes it carries (for the batch size). */
interface Write {
  stmt: D1PreparedStatement;
  bytes: number;
}

/** Runs statements in order, in batches (each batch is one D1 transaction) of bounded count and bytes. */
async function runBatches(db: D1Database, writes: Write[]): Promise<void> {
  let batch: D1PreparedStatement[] = [];
  let bytes = 0;
  for (const w of writes) {
    if (batch.length && (batch.length >= BATCH_STATEMENTS || bytes + w.bytes > BATCH_BYTES)) {
      await db.batch(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(w.stmt);
    bytes += w.bytes;
  }
  if (batch.length) await db.batch(batch);
}

/**
 * INSERTs of `rows` (values of `columns`, in order) as JSON arrays: `INSERT … SELECT … FROM json_each(?1)`,
 * in the arrays' order. `fixed`: columns with one value for every row, bound once (?2, ?3…). A JSON
 * string comes back as TEXT, a number as INTEGER or REAL, null as NULL, as when bound one by one.
 */
function insertRows(db: D1Database, table: string, fixed: Record<string, unknown>, columns: string[], rows: unknown[][]): Write[] {
  if (!rows.length) return [];
  const names = Object.keys(fixed);
  const values = Object.values(fixed);
  const select = [...names.map((_, i) => `?${i + 2}`), ...columns.map((_, i) => `j.value ->> ${i}`)];
  const stmt = prepared(db, `INSERT INTO ${table} (${[...names, ...columns].join(", ")}) SELECT ${select.join(", ")} FROM json_each(?1) AS j ORDER BY j.key`);
  return jsonArrays(rows).map((a) => ({ stmt: stmt.bind(a.json, ...values), bytes: a.bytes }));
}

/** `key` is one of a JSON array of keys bound as `param`. */
const keyIn = (param: string) => `key IN (SELECT value FROM json_each(${param}))`;
/** Closes the open versions (older than run ?2) of the keys in JSON array ?1 of source ?3. */
const CLOSE_VERSIONS = `UPDATE register_entries SET valid_to_run = ?2 WHERE source = ?3 AND valid_to_run IS NULL AND valid_from_run < ?2 AND ${keyIn("?1")}`;

const ENTRY_COLUMNS = [
  "source",
  "key",
  "entity",
  "part",
  "valid_from_run",
  "scope",
  "name",
  "norm_name",
  "norm_core",
  "company_number",
  "status",
  "rating",
  "town",
  "alt_names",
  "data",
  "fp",
  "first_seen",
  "removed_on",
  "last_listed",
];
/** The columns of a new entry version that differ from row to row (the rest are the run's, or null). */
const VERSION_COLUMNS = [
  "key",
  "entity",
  "part",
  "name",
  "norm_name",
  "norm_core",
  "company_number",
  "status",
  "rating",
  "town",
  "alt_names",
  "data",
  "fp",
  "first_seen",
];
const NAME_COLUMNS = ["norm", "key"];

/** A run being completed: which register it loads. */
export interface RunTarget {
  runId: number;
  source: string;
  scope: string;
}

export interface PublishedState {
  published_run: number;
  edition_date: string | null;
  history_since: string;
  sample: number;
}

export async function publishedStateOf(db: D1Database, source: string, scope: string): Promise<PublishedState | null> {
  return db
    .prepare(`SELECT published_run, edition_date, history_since, sample FROM register_state WHERE source = ? AND scope = ?`)
    .bind(source, scope)
    .first<PublishedState>();
}

/** The current version of an entry, as the diff and the fingerprint compare it. */
export interface OpenEntry {
  key: string;
  entity: string;
  part: string | null;
  name: string;
  status: string;
  rating: string | null;
  town: string | null;
  removed_on: string | null;
  fp: string;
  first_seen: string;
  valid_from_run: number;
}

/** The open (current) version of every entry of a source/scope, read in pages of 5,000. */
export async function openEntries(db: D1Database, source: string, scope: string): Promise<OpenEntry[]> {
  const out: OpenEntry[] = [];
  for (let after = ""; ; ) {
    const rows = await db
      .prepare(
        `SELECT key, entity, part, name, status, rating, town, removed_on, fp, first_seen, valid_from_run FROM register_entries
        WHERE source = ? AND scope = ? AND valid_to_run IS NULL AND key > ? ORDER BY key LIMIT 5000`,
      )
      .bind(source, scope, after)
      .all<OpenEntry>();
    out.push(...rows.results);
    if (rows.results.length < 5000) return out;
    after = rows.results[rows.results.length - 1].key;
  }
}

/** A new version of an entry, written by a run (listed, so never removed). */
export interface EntryVersion {
  key: string;
  entity: string;
  part: string | null;
  name: string;
  normName: string;
  normCore: string;
  companyNumber: string | null;
  status: string;
  rating: string | null;
  town: string | null;
  altNames: string[];
  /** The record's data (a register's shape, services/registers/catalogue.ts, its rows), stored as JSON as it is. */
  data: object;
  fp: string;
  firstSeen: string;
}

/**
 * Writes new entry versions of a run and their index names, closing the versions they replace
 * (`closeKeys`). Invisible to readers until the run is published, which also indexes the names for FTS.
 */
export async function writeEntryVersions(
  db: D1Database,
  run: RunTarget,
  write: { closeKeys: string[]; versions: EntryVersion[]; names: { norm: string; key: string }[] },
): Promise<void> {
  const { runId, source, scope } = run;
  const writes: Write[] = [];
  if (write.closeKeys.length) {
    const close = prepared(db, CLOSE_VERSIONS);
    for (const a of jsonArrays(write.closeKeys)) writes.push({ stmt: close.bind(a.json, runId, source), bytes: a.bytes });
  }
  const rows = write.versions.map((v) => [
    v.key,
    v.entity,
    v.part,
    v.name,
    v.normName,
    v.normCore,
    v.companyNumber,
    v.status,
    v.rating,
    v.town,
    JSON.stringify(v.altNames),
    JSON.stringify(v.data),
    v.fp,
    v.firstSeen,
  ]);
  const names = write.names.map((n) => [n.norm, n.key]);
  const fixed = { source, valid_from_run: runId };
  writes.push(...insertRows(db, "register_entries", { ...fixed, scope }, VERSION_COLUMNS, rows));
  // The FTS table gets the run's names from register_names in one statement as the run is published (publishRun).
  writes.push(...insertRows(db, "register_names", fixed, NAME_COLUMNS, names));
  await runBatches(db, writes);
}

/**
 * An edition that changed nothing, read: the register is current as of its date. Ends the run
 * "unchanged" and drops its staging, in one transaction.
 */
export async function publishUnchanged(db: D1Database, run: RunTarget, editionDate: string, finishedAt: string): Promise<void> {
  await db.batch([
    db
      .prepare(`UPDATE register_state SET edition_date = ? WHERE source = ? AND scope = ? AND (edition_date IS NULL OR edition_date < ?)`)
      .bind(editionDate, run.source, run.scope, editionDate),
    db.prepare(`DELETE FROM register_staging WHERE run_id = ?`).bind(run.runId),
    db.prepare(`UPDATE register_runs SET outcome = 'unchanged', finished_at = ?, changes = 0 WHERE id = ?`).bind(finishedAt, run.runId),
  ]);
}

/** A change of one entity, as the diff reports it (src/services/registers/types.ts RegisterChange). */
export interface ChangeToWrite {
  key: string;
  kind: string;
  name: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * Writes a run's removals and changes. A removed entry gets a new version that keeps its last reading,
 * marked removed on `editionDate` and last listed on `lastListed` (copied in SQL); then the old
 * version is closed.
 */
export async function writeRemovalsAndChanges(
  db: D1Database,
  run: RunTarget,
  write: { editionDate: string; lastListed: string | null; removedKeys: string[]; changes: ChangeToWrite[] },
): Promise<void> {
  const { runId, source, scope } = run;
  const writes: Write[] = [];
  if (write.removedKeys.length) {
    const copied = ENTRY_COLUMNS.map((c) => (c === "valid_from_run" ? "?2" : c === "removed_on" ? "?4" : c === "last_listed" ? "?5" : c)).join(", ");
    const copy = prepared(
      db,
      `INSERT INTO register_entries (${ENTRY_COLUMNS.join(", ")}) SELECT ${copied} FROM register_entries
        WHERE source = ?3 AND valid_to_run IS NULL AND valid_from_run < ?2 AND ${keyIn("?1")}`,
    );
    const close = prepared(db, CLOSE_VERSIONS);
    for (const a of jsonArrays(write.removedKeys))
      writes.push(
        { stmt: copy.bind(a.json, runId, source, write.editionDate, write.lastListed), bytes: a.bytes },
        { stmt: close.bind(a.json, runId, source), bytes: a.bytes },
      );
  }
  writes.push(
    ...insertRows(
      db,
      "register_changes",
      { source, scope, run_id: runId, change_date: write.editionDate },
      ["key", "kind", "name", "before", "after"],
      write.changes.map((c) => [c.key, c.kind, c.name, c.before ? JSON.stringify(c.before) : null, c.after ? JSON.stringify(c.after) : null]),
    ),
  );
  await runBatches(db, writes);
}

/**
 * Publishes a run: readers switch to it in one transaction, which also indexes the run's names for FTS
 * (register_names_fts, from register_names in one statement), ends the run "loaded" and drops its staging.
 * `replacesSample`: the first real edition after our sample data, whose lineage (entries, names, changes
 * of the source/scope's other runs) goes in the same transaction, and history starts again at this edition.
 */
export async function publishRun(
  db: D1Database,
  run: RunTarget,
  publish: { editionDate: string; sample: boolean; replacesSample: boolean; changes: number; note: string | null; finishedAt: string },
): Promise<void> {
  const { runId, source, scope } = run;
  const dropSample = publish.replacesSample
    ? [
        db.prepare(`DELETE FROM register_entries WHERE source = ? AND scope = ? AND valid_from_run <> ?`).bind(source, scope, runId),
        ...["register_names", "register_names_fts"].map((t) =>
          db
            .prepare(`DELETE FROM ${t} WHERE source = ? AND valid_from_run IN (SELECT id FROM register_runs WHERE source = ? AND scope = ? AND id <> ?)`)
            .bind(source, source, scope, runId),
        ),
        db.prepare(`DELETE FROM register_changes WHERE source = ? AND scope = ? AND run_id <> ?`).bind(source, scope, runId),
      ]
    : [];
  await db.batch([
    ...dropSample,
    db
      .prepare(
        `INSERT INTO register_names_fts (norm, source, key, valid_from_run) SELECT norm, source, key, valid_from_run FROM register_names WHERE valid_from_run = ? ORDER BY rowid`,
      )
      .bind(runId),
    db
      .prepare(
        `INSERT INTO register_state (source, scope, published_run, edition_date, history_since, sample) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(source, scope) DO UPDATE SET published_run = excluded.published_run, edition_date = excluded.edition_date,
           history_since = CASE WHEN ? THEN excluded.history_since ELSE register_state.history_since END, sample = excluded.sample`,
      )
      .bind(source, scope, runId, publish.editionDate, publish.editionDate, publish.sample ? 1 : 0, publish.replacesSample ? 1 : 0),
    db
      .prepare(`UPDATE register_runs SET outcome = 'loaded', finished_at = ?, changes = ?, edition_date = ?, reason = ? WHERE id = ?`)
      .bind(publish.finishedAt, publish.changes, publish.editionDate, publish.note, runId),
    db.prepare(`DELETE FROM register_staging WHERE run_id = ?`).bind(runId),
  ]);
}
