import type { RegisterSource } from "../services/registers/types";

/**
 * Read side of the registers. Every query sees only the published edition of each source/scope
 * (register_state.published_run), so a run in progress is invisible until it publishes.
 */

export interface EntryRow {
  source: RegisterSource;
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

export interface Entry {
  key: string;
  /** The organisation the entry belongs to (register number, or sponsors' register and name); changes are kept per entity. */
  entity: string;
  part: string | null;
  scope: string;
  name: string;
  companyNumber: string | null;
  status: string;
  rating: string | null;
  town: string | null;
  altNames: string[];
  data: Record<string, unknown>;
  firstSeen: string;
  removedOn: string | null;
  /** Last edition the entry was listed in: the current edition while listed. */
  lastListed: string | null;
}

export interface ChangeRow {
  id: number;
  date: string;
  kind: string;
  key: string;
  name: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
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

export interface RegisterEditionInfo {
  /** Newest published edition date across the source's scopes. */
  editionDate: string | null;
  /** First edition this installation loaded (history is kept from here). */
  historySince: string | null;
  fetchedAt: string | null;
}

export async function editionInfo(db: D1Database, source: RegisterSource, scopes?: string[]): Promise<RegisterEditionInfo> {
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
export async function entriesByCompanyNumber(db: D1Database, source: RegisterSource, numbers: string[], limit = 200): Promise<Entry[]> {
  if (!numbers.length) return [];
  const rows = await db
    .prepare(`SELECT ${COLUMNS} ${VISIBLE} AND e.company_number IN (${numbers.map((_, i) => `?${i + 2}`).join(", ")}) LIMIT ${limit}`)
    .bind(source, ...numbers)
    .all<EntryRow>();
  return rows.results.map(toEntry);
}

/** Entries with one of these keys. */
export async function entriesByKeys(db: D1Database, source: RegisterSource, keys: string[]): Promise<Entry[]> {
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
export async function entriesByDataField(db: D1Database, source: RegisterSource, field: string, value: string | number, limit = 500): Promise<Entry[]> {
  const rows = await db
    .prepare(`SELECT ${COLUMNS} ${VISIBLE} AND json_extract(e.data, ?2) = ?3 LIMIT ${limit}`)
    .bind(source, `$.${field}`, value)
    .all<EntryRow>();
  return rows.results.map(toEntry);
}

/** The newest published run of a source: names written by a run still in progress are not candidates. */
const PUBLISHED_RUN = `SELECT COALESCE(MAX(published_run), 0) FROM register_state WHERE source = ?1`;

/** Keys of entries one of whose names normalises to one of `norms` (exact), or matches an FTS query. */
export async function keysByNames(db: D1Database, source: RegisterSource, norms: string[], fts: string | null, limit = 200): Promise<string[]> {
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
export async function historyOf(db: D1Database, source: RegisterSource, entities: string[], limit = 50): Promise<ChangeRow[]> {
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
  source: RegisterSource,
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
export async function resetRegister(db: D1Database, source: RegisterSource): Promise<number> {
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
