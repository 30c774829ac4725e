/**
 * The registers' entries, names, changes and published state.
 *
 * Read side: every query sees only the published edition of each source/scope
 * (register_state.published_run), so a run in progress is invisible until it publishes.
 * Write side (end of this file): what the ingest pipeline (src/jobs/ingest/pipeline.ts) writes as it
 * completes a run: new entry versions, removals and changes, then the one publishing transaction.
 */

import type { ChangeRow, Entry, RegisterEditionInfo } from "../services/registers/types";

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



const VISIBLE = `FROM register_entries e JOIN register_state s ON s.source = e.source AND s.scope = e.scope
  WHERE e.source = ?1 AND e.valid_from_run <= s.published_run AND (e.valid_to_run IS NULL OR e.valid_to_run > s.published_run)`;
const COLUMNS = `e.source, e.key, e.entity, e.part, e.scope, e.name, e.norm_name, e.company_number, e.status, e.rating, e.town, e.alt_names, e.data, e.first_seen, e.removed_on, e.last_listed, s.edition_date`;

const toEntry = (r: EntryRow): Entry => ({
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
  data: JSON.parse(r.data) as Record<string, unknown>,
  firstSeen: r.first_seen,
  removedOn: r.removed_on,
  lastListed: r.removed_on ? r.last_listed : r.edition_date,
});


export async function editionInfo(db: D1Database, source: string, scopes?: string[]): Promise<RegisterEditionInfo> {
  // A register published in parts (sponsors: workers and students) answers for the parts asked about.
  const only = scopes?.length ? ` AND s.scope IN (${scopes.map((_, i) => `?${i + 2}`).join(", ")})` : "";
  const r = await db
    .prepare(
      `SELECT MAX(s.edition_date) AS edition_date, MIN(s.history_since) AS history_since, MAX(r.finished_at) AS fetched_at
         FROM register_state s LEFT JOIN register_runs r ON r.id = s.published_run WHERE s.source = ?1${only}`,
    )
    .bind(source, ...(scopes ?? []))
    .first<{ edition_date: string | null; history_since: string | null; fetched_at: string | null }>();
  return { editionDate: r?.edition_date ?? null, historySince: r?.history_since ?? null, fetchedAt: r?.fetched_at ?? null };
}

/** Entries whose company number is one of `numbers`. */
export async function entriesByCompanyNumber(db: D1Database, source: string, numbers: string[], limit = 200): Promise<Entry[]> {
  if (!numbers.length) return [];
  const rows = await db
    .prepare(`SELECT ${COLUMNS} ${VISIBLE} AND e.company_number IN (${numbers.map((_, i) => `?${i + 2}`).join(", ")}) LIMIT ${limit}`)
    .bind(source, ...numbers)
    .all<EntryRow>();
  return rows.results.map(toEntry);
}

/** Entries with one of these keys. */
export async function entriesByKeys(db: D1Database, source: string, keys: string[]): Promise<Entry[]> {
  const out: Entry[] = [];
  for (let i = 0; i < keys.length; i += 90) {
    const part = keys.slice(i, i + 90);
    const rows = await db
      .prepare(`SELECT ${COLUMNS} ${VISIBLE} AND e.key IN (${part.map((_, j) => `?${j + 2}`).join(", ")})`)
      .bind(source, ...part)
      .all<EntryRow>();
    out.push(...rows.results.map(toEntry));
  }
  return out;
}

/** Entries whose `data` field equals a value (e.g. SRA number, charity number, MLR number). */
export async function entriesByDataField(db: D1Database, source: string, field: string, value: string | number, limit = 500): Promise<Entry[]> {
  const rows = await db
    .prepare(`SELECT ${COLUMNS} ${VISIBLE} AND json_extract(e.data, ?2) = ?3 LIMIT ${limit}`)
    .bind(source, `$.${field}`, value)
    .all<EntryRow>();
  return rows.results.map(toEntry);
}

/** The newest published run of a source: names written by a run still in progress are not candidates. */
const PUBLISHED_RUN = `SELECT COALESCE(MAX(published_run), 0) FROM register_state WHERE source = ?1`;

/** Keys of entries one of whose names normalises to one of `norms` (exact), or matches an FTS query. */
export async function keysByNames(db: D1Database, source: string, norms: string[], fts: string | null, limit = 200): Promise<string[]> {
  const keys = new Set<string>();
  if (norms.length) {
    const rows = await db
      .prepare(
        `SELECT DISTINCT key FROM register_names WHERE source = ?1 AND valid_from_run <= (${PUBLISHED_RUN})
            AND norm IN (${norms.map((_, i) => `?${i + 2}`).join(", ")}) LIMIT ${limit}`,
      )
      .bind(source, ...norms)
      .all<{ key: string }>();
    for (const r of rows.results) keys.add(r.key);
  }
  if (fts && keys.size < limit) {
    const rows = await db
      .prepare(`SELECT DISTINCT key FROM register_names_fts WHERE register_names_fts MATCH ?1 AND source = ?2 AND valid_from_run <= (${PUBLISHED_RUN.replace("?1", "?2")}) LIMIT ${limit}`)
      .bind(`norm : (${fts})`, source)
      .all<{ key: string }>();
    for (const r of rows.results) keys.add(r.key);
  }
  return [...keys];
}

/** Count and group of entries by a data field, over every visible entry with these keys. */
export async function countByMlr(db: D1Database, mlrNumbers: string[]): Promise<Map<string, { premises: number; districts: string[] }>> {
  const out = new Map<string, { premises: number; districts: string[] }>();
  if (!mlrNumbers.length) return out;
  const rows = await db
    .prepare(
      `SELECT json_extract(e.data, '$.mlrNumber') AS mlr, COUNT(*) AS n, group_concat(DISTINCT json_extract(e.data, '$.postcodeDistrict')) AS districts
         ${VISIBLE} AND e.removed_on IS NULL AND json_extract(e.data, '$.mlrNumber') IN (${mlrNumbers.map((_, i) => `?${i + 2}`).join(", ")})
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

const PUBLISHED_CHANGE = `FROM register_changes c JOIN register_state s ON s.source = c.source AND s.scope = c.scope
  WHERE c.source = ?1 AND c.run_id <= s.published_run`;

/** Published changes of these entities, oldest first. */
export async function historyOf(db: D1Database, source: string, entities: string[], limit = 50): Promise<ChangeRow[]> {
  const keys = [...new Set(entities)];
  if (!keys.length) return [];
  const part = keys.slice(0, 90);
  const rows = await db
    .prepare(
      `SELECT c.id, c.change_date, c.kind, c.key, c.name, c.before, c.after ${PUBLISHED_CHANGE}
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

/** D1 allows 100 bound parameters per statement. */
const MAX_PARAMS = 100;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs statements in batches (each batch is one D1 transaction). */
async function runBatches(db: D1Database, stmts: D1PreparedStatement[], per = 50): Promise<void> {
  for (let i = 0; i < stmts.length; i += per) await db.batch(stmts.slice(i, i + per));
}

/** Multi-row INSERTs chunked to D1's 100-parameter limit. */
function insertRows(db: D1Database, table: string, columns: string[], rows: unknown[][]): D1PreparedStatement[] {
  const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const stmts: D1PreparedStatement[] = [];
  const one = `(${columns.map(() => "?").join(", ")})`;
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    stmts.push(db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${chunk.map(() => one).join(", ")}`).bind(...chunk.flat()));
  }
  return stmts;
}

const ENTRY_COLUMNS = [
  "source", "key", "entity", "part", "valid_from_run", "scope", "name", "norm_name", "norm_core", "company_number",
  "status", "rating", "town", "alt_names", "data", "fp", "first_seen", "removed_on", "last_listed",
];

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
  data: Record<string, unknown>;
  fp: string;
  firstSeen: string;
}

/**
 * Writes new entry versions of a run and their index names, closing the versions they replace
 * (`closeKeys`). Invisible to readers until the run is published.
 */
export async function writeEntryVersions(
  db: D1Database,
  run: RunTarget,
  write: { closeKeys: string[]; versions: EntryVersion[]; names: { norm: string; key: string }[] },
): Promise<void> {
  const { runId, source, scope } = run;
  const stmts: D1PreparedStatement[] = [];
  for (const keys of chunks(write.closeKeys, MAX_PARAMS - 3))
    stmts.push(
      db
        .prepare(`UPDATE register_entries SET valid_to_run = ? WHERE source = ? AND valid_to_run IS NULL AND valid_from_run < ? AND key IN (${keys.map(() => "?").join(", ")})`)
        .bind(runId, source, runId, ...keys),
    );
  const rows = write.versions.map((v) => [
    source, v.key, v.entity, v.part, runId, scope, v.name, v.normName, v.normCore, v.companyNumber,
    v.status, v.rating, v.town, JSON.stringify(v.altNames), JSON.stringify(v.data), v.fp, v.firstSeen, null, null,
  ]);
  const names = write.names.map((n) => [n.norm, source, n.key, runId]);
  stmts.push(...insertRows(db, "register_entries", ENTRY_COLUMNS, rows));
  stmts.push(...insertRows(db, "register_names_fts", ["norm", "source", "key", "valid_from_run"], names));
  stmts.push(...insertRows(db, "register_names", ["norm", "source", "key", "valid_from_run"], names));
  await runBatches(db, stmts);
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
  const stmts: D1PreparedStatement[] = [];
  const copied = ENTRY_COLUMNS.map((c) => (c === "valid_from_run" || c === "removed_on" || c === "last_listed" ? "?" : c)).join(", ");
  for (const keys of chunks(write.removedKeys, MAX_PARAMS - 5)) {
    stmts.push(
      db
        .prepare(
          `INSERT INTO register_entries (${ENTRY_COLUMNS.join(", ")}) SELECT ${copied} FROM register_entries
            WHERE source = ? AND valid_to_run IS NULL AND valid_from_run < ? AND key IN (${keys.map(() => "?").join(", ")})`,
        )
        .bind(runId, write.editionDate, write.lastListed, source, runId, ...keys),
      db
        .prepare(`UPDATE register_entries SET valid_to_run = ? WHERE source = ? AND valid_to_run IS NULL AND valid_from_run < ? AND key IN (${keys.map(() => "?").join(", ")})`)
        .bind(runId, source, runId, ...keys),
    );
  }
  stmts.push(
    ...insertRows(
      db,
      "register_changes",
      ["source", "scope", "run_id", "change_date", "key", "kind", "name", "before", "after"],
      write.changes.map((c) => [source, scope, runId, write.editionDate, c.key, c.kind, c.name, c.before ? JSON.stringify(c.before) : null, c.after ? JSON.stringify(c.after) : null]),
    ),
  );
  await runBatches(db, stmts);
}

/**
 * Publishes a run: readers switch to it in one transaction, which also ends the run "loaded" and drops
 * its staging. `replacesSample`: the first real edition after our sample data, whose lineage (entries,
 * names, changes of the source/scope's other runs) goes in the same transaction, and history starts
 * again at this edition.
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
          db.prepare(`DELETE FROM ${t} WHERE source = ? AND valid_from_run IN (SELECT id FROM register_runs WHERE source = ? AND scope = ? AND id <> ?)`).bind(source, source, scope, runId),
        ),
        db.prepare(`DELETE FROM register_changes WHERE source = ? AND scope = ? AND run_id <> ?`).bind(source, scope, runId),
      ]
    : [];
  await db.batch([
    ...dropSample,
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
