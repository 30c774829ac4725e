/**
 * The register ingest's run log (register_runs: one row per run of one source/scope, with its outcome)
 * and its staging area (register_staging: the records a run has parsed, kept until it completes).
 */

import { JSON_PARAM_BYTES, utf8Length } from "./registers";

export type RunMode = "snapshot" | "partial";
export type RunOutcome = "running" | "loaded" | "unchanged" | "failed" | "refused";

export interface RunRow {
  source: string;
  scope: string;
  edition_date: string | null;
  mode: RunMode;
  rows_read: number;
  sample: number;
  notes: string | null;
}

/** The newest run of a source/scope still marked running, if any. */
export async function runningRunOf(db: D1Database, source: string, scope: string): Promise<{ id: number; started_at: string } | null> {
  return db
    .prepare(`SELECT id, started_at FROM register_runs WHERE source = ? AND scope = ? AND outcome = 'running' ORDER BY id DESC LIMIT 1`)
    .bind(source, scope)
    .first<{ id: number; started_at: string }>();
}

export interface NewRun {
  source: string;
  scope: string;
  editionDate: string | null;
  fileName: string | null;
  url: string | null;
  mode: RunMode;
  startedAt: string;
  /** A change window read by the run (CQC), and whether the run reads it to its end. */
  window?: { start: string; end: string; complete: boolean };
  sample: boolean;
  /** The SHA-256 of the file (hex), where the run loads one. */
  sha256?: string | null;
}

/** Records a new run, outcome "running"; returns its id. */
export async function insertRun(db: D1Database, run: NewRun): Promise<number> {
  const row = await db
    .prepare(
      `INSERT INTO register_runs (source, scope, edition_date, file_name, url, mode, started_at, window_start, window_end, window_complete, sample, sha256)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .bind(
      run.source,
      run.scope,
      run.editionDate,
      run.fileName,
      run.url,
      run.mode,
      run.startedAt,
      run.window?.start ?? null,
      run.window?.end ?? null,
      run.window ? Number(run.window.complete) : null,
      run.sample ? 1 : 0,
      run.sha256 ?? null,
    )
    .first<{ id: number }>();
  return row!.id;
}

export async function runOf(db: D1Database, runId: number): Promise<RunRow | null> {
  return db.prepare(`SELECT * FROM register_runs WHERE id = ?`).bind(runId).first<RunRow>();
}

/** A run that is still in progress (a chunked run being resumed), or null. */
export async function runInProgress(db: D1Database, runId: number): Promise<{ scope: string; edition_date: string | null } | null> {
  return db
    .prepare(`SELECT scope, edition_date FROM register_runs WHERE id = ? AND outcome = 'running'`)
    .bind(runId)
    .first<{ scope: string; edition_date: string | null }>();
}

export async function rowsReadOf(db: D1Database, runId: number): Promise<number | null> {
  const row = await db.prepare(`SELECT rows_read FROM register_runs WHERE id = ?`).bind(runId).first<{ rows_read: number }>();
  return row ? row.rows_read : null;
}

/** A staging row stored deflated: this prefix, then the deflated JSON in base64 (which never holds ":"). */
const DEFLATED = "z:";

/**
 * A staging row's JSON, deflated (raw DEFLATE, then base64): a register's records repeat their field names
 * and values, so a row takes about an eighth of its JSON, to send, store and read back. A row that would
 * not get smaller stays JSON.
 */
async function deflateRow(json: string): Promise<string> {
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const stored = DEFLATED + btoa(binary);
  return stored.length < json.length ? stored : json;
}

/** A staging row's JSON, as `deflateRow` stored it. */
async function inflateRow(stored: string): Promise<string> {
  if (!stored.startsWith(DEFLATED)) return stored;
  const binary = atob(stored.slice(DEFLATED.length));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).text();
}

/**
 * Stages batches of a run's records in one transaction. Consecutive records go in one staging row (a JSON
 * array, deflated: deflateRow) up to JSON_PARAM_BYTES of JSON (a record larger than that alone), so a large
 * edition takes few rows, statements and bytes. A row's `seq` is the index of its first record in the
 * edition: unique and ordered across chunks, and the same when a chunk is staged again (INSERT OR REPLACE).
 */
export async function stageBatches(db: D1Database, runId: number, batches: { seq: number; records: unknown[] }[]): Promise<void> {
  if (!batches.length) return;
  const rows: { seq: number; record: string }[] = [];
  let seq = -1;
  let next = -1;
  let part: string[] = [];
  let bytes = 2;
  const end = () => {
    if (part.length) rows.push({ seq, record: `[${part.join(",")}]` });
    part = [];
    bytes = 2;
  };
  for (const b of batches)
    b.records.forEach((r, i) => {
      const json = JSON.stringify(r);
      const size = utf8Length(json) + 1;
      if (b.seq + i !== next || bytes + size > JSON_PARAM_BYTES) end();
      if (!part.length) seq = b.seq + i;
      part.push(json);
      bytes += size;
      next = b.seq + i + 1;
    });
  end();
  const stored = await Promise.all(rows.map((r) => deflateRow(r.record)));
  const insert = db.prepare(`INSERT OR REPLACE INTO register_staging (run_id, seq, record) VALUES (?, ?, ?)`);
  await db.batch(rows.map((r, i) => insert.bind(runId, r.seq, stored[i])));
}

/** How many records the run has staged, and (once, when the file has ended) what the parse left out. */
export async function setRowsRead(db: D1Database, runId: number, rows: number, notes: Record<string, number> | null): Promise<void> {
  await db
    .prepare(`UPDATE register_runs SET rows_read = ?, notes = COALESCE(?, notes) WHERE id = ?`)
    .bind(rows, notes ? JSON.stringify(notes) : null, runId)
    .run();
}

/**
 * The staged records of a run (as `stageBatches` wrote them), page by page, so a large edition is never held
 * whole: a page of 8 rows is at most about 4 MB of JSON. Rows staged as plain JSON are read as they are.
 */
export async function* stagedRecords<R>(db: D1Database, runId: number): AsyncGenerator<R> {
  const page = db.prepare(`SELECT seq, record FROM register_staging WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT 8`);
  for (let after = -1; ; ) {
    const rows = await page.bind(runId, after).all<{ seq: number; record: string }>();
    if (!rows.results.length) return;
    const texts = await Promise.all(rows.results.map((r) => inflateRow(r.record)));
    for (const text of texts) yield* JSON.parse(text) as R[];
    after = rows.results[rows.results.length - 1].seq;
  }
}

/**
 * Removes everything a run wrote to the register tables of the main database (entry versions, names,
 * changes, staging) in one transaction. The run log is ended separately (endRun).
 */
export async function discardEntries(db: D1Database, runId: number): Promise<void> {
  await db.batch([
    db.prepare(`DELETE FROM register_entries WHERE valid_from_run = ?`).bind(runId),
    db.prepare(`UPDATE register_entries SET valid_to_run = NULL WHERE valid_to_run = ?`).bind(runId),
    db.prepare(`DELETE FROM register_names_fts WHERE valid_from_run = ?`).bind(runId),
    db.prepare(`DELETE FROM register_names WHERE valid_from_run = ?`).bind(runId),
    db.prepare(`DELETE FROM register_changes WHERE run_id = ?`).bind(runId),
    db.prepare(`DELETE FROM register_staging WHERE run_id = ?`).bind(runId),
  ]);
}

/** Ends a run as failed or refused, the reason kept to 500 characters. Returns the run's source, if the run exists. */
export async function endRun(db: D1Database, runId: number, outcome: "failed" | "refused", reason: string, finishedAt: string): Promise<string | undefined> {
  const run = await db
    .prepare(`UPDATE register_runs SET outcome = ?, reason = ?, finished_at = ? WHERE id = ? RETURNING source`)
    .bind(outcome, reason.slice(0, 500), finishedAt, runId)
    .first<{ source: string }>();
  return run?.source;
}

/**
 * Change windows of a source's good runs (CQC): the end of the last window read completely, and the
 * start of the earliest window after it that is still being read over several messages.
 */
export async function windowBounds(db: D1Database, source: string): Promise<{ completeEnd: string | null; pendingStart: string | null }> {
  const row = await db
    .prepare(
      `SELECT
       (SELECT window_end FROM register_runs WHERE source = ?1 AND outcome IN ('loaded', 'unchanged') AND window_complete = 1 ORDER BY id DESC LIMIT 1) AS complete_end,
       (SELECT MIN(window_start) FROM register_runs r WHERE source = ?1 AND outcome IN ('loaded', 'unchanged') AND window_complete = 0
          AND id > COALESCE((SELECT MAX(id) FROM register_runs WHERE source = ?1 AND outcome IN ('loaded', 'unchanged') AND window_complete = 1), 0)) AS pending_start`,
    )
    .bind(source)
    .first<{ complete_end: string | null; pending_start: string | null }>();
  return { completeEnd: row?.complete_end ?? null, pendingStart: row?.pending_start ?? null };
}

export interface LastRunRow {
  source: string;
  outcome: RunOutcome;
  reason: string | null;
  finished_at: string | null;
  /** The newest edition the source has loaded. */
  edition: string | null;
}

/** Each source's last finished run, with the newest edition it has loaded (the status page). */
export async function lastRuns(db: D1Database): Promise<LastRunRow[]> {
  const rows = await db
    .prepare(
      `SELECT r.source, r.outcome, r.reason, r.finished_at,
            (SELECT MAX(edition_date) FROM register_runs s WHERE s.source = r.source AND s.outcome = 'loaded') AS edition
       FROM register_runs r
      WHERE r.id = (SELECT MAX(id) FROM register_runs x WHERE x.source = r.source AND x.outcome != 'running')`,
    )
    .all<LastRunRow>();
  return rows.results;
}
