/**
 * The SIC 2007 lists of the industry classifier (issue 18, enrichment: industry-classifier), in COMPANIES_DB
 * (migrations/companies/0002_sic_index.sql): the Companies House condensed list and the ONS alphabetical index with
 * CH's own row. A load (npm run ingest -- sic, src/cli/sic.ts) replaces them whole in one transaction; the Worker
 * reads them whole and builds the classifier's model (services/enrich/sicClassifier.ts) once per isolate and load.
 */
import type { SicCodeRow, SicIndexRow } from "../services/enrich/sic";
import { type SicModel, buildSicModel } from "../services/enrich/sicClassifier";

export interface SicLists {
  /** The condensed list: one description per code. */
  list: SicCodeRow[];
  /** The ONS alphabetical index. */
  index: SicIndexRow[];
  /** Companies House's own index rows (ch_created_activity_sic_codes.csv). */
  ch: SicIndexRow[];
}

export interface SicIndexState {
  loadedAt: string;
  listRows: number;
  /** Index rows, CH's own included. */
  indexRows: number;
  /** The files' names, as loaded. */
  files: string[];
  /** Our sample files (npm start), not the published lists. */
  sample: boolean;
}

/** Rows per INSERT: one bound JSON array each (D1 allows 100 bound parameters a statement, and ~100 KB of SQL). */
const ROWS_PER_STATEMENT = 2000;
/** Rows per read. */
const READ_PAGE = 5000;

export async function sicIndexState(db: D1Database): Promise<SicIndexState | null> {
  const r = await db
    .prepare(`SELECT loaded_at, list_rows, index_rows, files, sample FROM sic_index_state WHERE id = 1`)
    .first<{ loaded_at: string; list_rows: number; index_rows: number; files: string; sample: number }>();
  if (!r) return null;
  return { loadedAt: r.loaded_at, listRows: r.list_rows, indexRows: r.index_rows, files: JSON.parse(r.files) as string[], sample: r.sample === 1 };
}

/**
 * Replaces the lists with these, in one transaction. Refused (nothing changes) when they are our sample and the
 * published lists are loaded: sample data never replaces real data. Throws when the condensed list or the index is empty.
 */
export async function replaceSicIndex(
  db: D1Database,
  lists: SicLists,
  { files, sample = false, loadedAt = new Date().toISOString() }: { files: string[]; sample?: boolean; loadedAt?: string },
): Promise<{ outcome: "loaded" | "refused"; reason: string | null; state: SicIndexState | null }> {
  if (!lists.list.length || !lists.index.length) throw new Error("SIC lists: the condensed list and the index must both have rows");
  const before = await sicIndexState(db);
  if (sample && before && !before.sample)
    return { outcome: "refused", reason: "the published SIC lists are loaded: the sample is not loaded over them", state: before };
  const rows: [number, string, string, string][] = [];
  for (const r of lists.list) rows.push([rows.length + 1, r.code, r.description, "list"]);
  for (const r of lists.index) rows.push([rows.length + 1, r.code, r.phrase, "index"]);
  for (const r of lists.ch) rows.push([rows.length + 1, r.code, r.phrase, "ch"]);
  const stmts = [db.prepare(`DELETE FROM sic_index`)];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    stmts.push(
      db
        .prepare(`INSERT INTO sic_index (id, code, text, kind) SELECT j.value->>0, j.value->>1, j.value->>2, j.value->>3 FROM json_each(?1) AS j`)
        .bind(JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT))),
    );
  }
  const state: SicIndexState = { loadedAt, listRows: lists.list.length, indexRows: lists.index.length + lists.ch.length, files, sample };
  stmts.push(
    db
      .prepare(
        `INSERT INTO sic_index_state (id, loaded_at, list_rows, index_rows, files, sample) VALUES (1, ?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(id) DO UPDATE SET loaded_at = excluded.loaded_at, list_rows = excluded.list_rows, index_rows = excluded.index_rows,
           files = excluded.files, sample = excluded.sample`,
      )
      .bind(state.loadedAt, state.listRows, state.indexRows, JSON.stringify(files), sample ? 1 : 0),
  );
  await db.batch(stmts);
  return { outcome: "loaded", reason: null, state };
}

/** Every row loaded, in the files' order (read in pages); empty lists before the first load. */
export async function sicLists(db: D1Database): Promise<SicLists> {
  const out: SicLists = { list: [], index: [], ch: [] };
  for (let after = 0; ; ) {
    const page = await db
      .prepare(`SELECT id, code, text, kind FROM sic_index WHERE id > ?1 ORDER BY id LIMIT ?2`)
      .bind(after, READ_PAGE)
      .all<{ id: number; code: string; text: string; kind: "list" | "index" | "ch" }>();
    for (const r of page.results) {
      if (r.kind === "list") out.list.push({ code: r.code, description: r.text });
      else out[r.kind].push({ code: r.code, phrase: r.text });
    }
    if (page.results.length < READ_PAGE) break;
    after = page.results[page.results.length - 1].id;
  }
  return out;
}

/** The condensed list's descriptions of these codes (at most 90; codes it does not have are absent). */
export async function sicListDescriptions(db: D1Database, codes: string[]): Promise<Map<string, string>> {
  const uniq = [...new Set(codes.map((c) => c.trim()).filter(Boolean))].slice(0, 90);
  if (!uniq.length) return new Map();
  const rows = await db
    .prepare(`SELECT code, text FROM sic_index WHERE kind = 'list' AND code IN (${uniq.map((_, i) => `?${i + 1}`).join(", ")})`)
    .bind(...uniq)
    .all<{ code: string; text: string }>();
  return new Map(rows.results.map((r) => [r.code, r.text]));
}

export interface LoadedSicModel {
  model: SicModel;
  state: SicIndexState;
}

/** The model of the lists loaded, per isolate: rebuilt only when a new load is seen (one small query a call to check). */
let cached: { key: string; model: Promise<LoadedSicModel> } | null = null;

/**
 * The classifier's model of the lists loaded, or null when none are (the classifier then says so). The first call
 * after a load reads the lists (about 16,700 rows) and builds the model; later calls cost one query.
 */
export async function sicModel(db: D1Database): Promise<LoadedSicModel | null> {
  const state = await sicIndexState(db);
  if (!state) return null;
  const key = `${state.loadedAt}|${state.listRows}|${state.indexRows}|${state.sample}`;
  if (cached?.key !== key) cached = { key, model: sicLists(db).then((l) => ({ model: buildSicModel(l.list, [...l.index, ...l.ch]), state })) };
  const mine = cached;
  try {
    return await mine.model;
  } catch (e) {
    if (cached === mine) cached = null; // a failed read is not kept
    throw e;
  }
}

/** Empties the SIC lists (npm run reset -- sic): the classifier then says none are loaded. */
export async function resetSicIndex(db: D1Database): Promise<number> {
  const [r] = await db.batch([db.prepare(`DELETE FROM sic_index`), db.prepare(`DELETE FROM sic_index_state`)]);
  return r.meta.changes ?? 0;
}
