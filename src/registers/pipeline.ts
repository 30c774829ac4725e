import type { Env } from "../env";
import { normaliseName, normaliseNameCore, splitTradingName } from "../services/matching/names";
import { EditionDiff } from "../services/registers/diff";
import type { RegisterChange, RegisterRecord, RegisterSource } from "../services/registers/types";

/**
 * One ingest pipeline for every register (issue: register checks §1).
 * beginRun → stageRecords (resumable, chunk by chunk) → completeRun (diff against the published
 * edition, write new entry versions and changes, publish with one UPDATE) — or failRun, which
 * keeps the previous edition and records no change.
 */

export type RunMode = "snapshot" | "partial";
export type RunOutcome = "running" | "loaded" | "unchanged" | "failed" | "refused";

export interface RunMeta {
  source: RegisterSource;
  scope: string;
  editionDate: string | null;
  fileName?: string | null;
  url?: string | null;
  mode?: RunMode;
  /** A change window read by this run (CQC), and whether the run read it to its end. */
  window?: ChangeWindow & { complete: boolean };
  /** Our own sample data (npm start), never mixed with a real edition: see completeRun. */
  sample?: boolean;
  now?: Date;
}

/** A window of upstream changes, ISO timestamps. */
export interface ChangeWindow {
  start: string;
  end: string;
}

export interface RunResult {
  runId: number;
  source: RegisterSource;
  scope: string;
  outcome: RunOutcome;
  editionDate: string | null;
  rowsRead: number;
  changes: number;
  reason: string | null;
  byKind: Record<string, number>;
  /** What the parse left out, as counts (e.g. personOnlyRows: rows naming only a person, not loaded). */
  notes?: Record<string, number> | null;
}

/** Records per staging row (one JSON array each). */
const STAGE_BATCH = 500;
/** A snapshot with fewer rows than this share of the last loaded one looks truncated and is refused. */
export const TRUNCATION_RATIO = 0.5;
/** A run still "running" after this long is considered dead and no longer blocks a new run. */
const STALE_RUN_MS = 2 * 3600_000;
/** D1 allows 100 bound parameters per statement. */
const MAX_PARAMS = 100;

const today = (d: Date) => d.toISOString().slice(0, 10);

/** FNV-1a over the record's JSON: a cheap fingerprint to notice any change in an entry. */
function fingerprint(r: RegisterRecord): string {
  const s = JSON.stringify([r.entity, r.part, r.name, r.companyNumber, r.altNames, r.status, r.rating, r.town, r.data]);
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36) + s.length.toString(36);
}

export class RunRefused extends Error {
  name = "RunRefused";
}

export async function beginRun(env: Env, meta: RunMeta): Promise<number> {
  const now = meta.now ?? new Date();
  const busy = await env.DB.prepare(`SELECT id, started_at FROM register_runs WHERE source = ? AND scope = ? AND outcome = 'running' ORDER BY id DESC LIMIT 1`)
    .bind(meta.source, meta.scope)
    .first<{ id: number; started_at: string }>();
  if (busy && now.getTime() - Date.parse(busy.started_at) < STALE_RUN_MS)
    throw new RunRefused(`run ${busy.id} for ${meta.source}${meta.scope ? `/${meta.scope}` : ""} is still in progress`);
  if (busy) await failRun(env, busy.id, "abandoned: no progress for two hours");
  const row = await env.DB.prepare(
    `INSERT INTO register_runs (source, scope, edition_date, file_name, url, mode, started_at, window_start, window_end, window_complete, sample)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(
      meta.source,
      meta.scope,
      meta.editionDate,
      meta.fileName ?? null,
      meta.url ?? null,
      meta.mode ?? "snapshot",
      now.toISOString(),
      meta.window?.start ?? null,
      meta.window?.end ?? null,
      meta.window ? Number(meta.window.complete) : null,
      meta.sample ? 1 : 0,
    )
    .first<{ id: number }>();
  return row!.id;
}

/**
 * Stages parsed records of a run: `records` start at record index `from` (earlier chunks staged the
 * ones before), and staging stops after `limit`. Returns how many records the run has staged so far
 * and whether the file ended.
 */
export async function stageRecords(
  env: Env,
  runId: number,
  records: AsyncIterable<RegisterRecord>,
  opts: {
    from?: number;
    limit?: number;
    onProgress?: (rows: number) => void;
    /** Counts the parser keeps of what it left out (filled as records are read); stored when the file ends. */
    notes?: Record<string, number>;
  } = {},
): Promise<{ staged: number; done: boolean }> {
  const skip = opts.from ?? 0;
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  let taken = 0;
  let batch: RegisterRecord[] = [];
  let pending: D1PreparedStatement[] = [];
  const flushBatch = () => {
    if (!batch.length) return;
    const seq = skip + taken - batch.length; // index of the batch's first record: unique and ordered across chunks
    pending.push(env.DB.prepare(`INSERT OR REPLACE INTO register_staging (run_id, seq, record) VALUES (?, ?, ?)`).bind(runId, seq, JSON.stringify(batch)));
    batch = [];
  };
  const flushWrites = async () => {
    if (pending.length) await env.DB.batch(pending);
    pending = [];
  };
  let done = true;
  for await (const r of records) {
    if (taken >= limit) {
      done = false;
      break;
    }
    batch.push(r);
    taken++;
    if (batch.length === STAGE_BATCH) {
      flushBatch();
      if (pending.length >= 20) {
        await flushWrites();
        opts.onProgress?.(skip + taken);
      }
    }
  }
  flushBatch();
  await flushWrites();
  const staged = skip + taken;
  // Every chunk parses the file from its start, so the chunk that reaches the end has counted all of it.
  const notes = done && opts.notes && Object.values(opts.notes).some((n) => n > 0) ? JSON.stringify(opts.notes) : null;
  await env.DB.prepare(`UPDATE register_runs SET rows_read = ?, notes = COALESCE(?, notes) WHERE id = ?`).bind(staged, notes, runId).run();
  opts.onProgress?.(staged);
  return { staged, done };
}

/** Marks a run failed or refused, removing anything it wrote; the published edition stays as it was. */
export async function failRun(env: Env, runId: number, reason: string, outcome: "failed" | "refused" = "failed"): Promise<void> {
  const run = await env.DB.prepare(`SELECT source FROM register_runs WHERE id = ?`).bind(runId).first<{ source: string }>();
  await env.DB.batch([
    env.DB.prepare(`DELETE FROM register_entries WHERE valid_from_run = ?`).bind(runId),
    env.DB.prepare(`UPDATE register_entries SET valid_to_run = NULL WHERE valid_to_run = ?`).bind(runId),
    env.DB.prepare(`DELETE FROM register_names_fts WHERE valid_from_run = ?`).bind(runId),
    env.DB.prepare(`DELETE FROM register_names WHERE valid_from_run = ?`).bind(runId),
    env.DB.prepare(`DELETE FROM register_changes WHERE run_id = ?`).bind(runId),
    env.DB.prepare(`DELETE FROM register_staging WHERE run_id = ?`).bind(runId),
    env.DB.prepare(`UPDATE register_runs SET outcome = ?, reason = ?, finished_at = ? WHERE id = ?`).bind(outcome, reason.slice(0, 500), new Date().toISOString(), runId),
  ]);
  console.log(JSON.stringify({ ingest: run?.source, runId, outcome, reason }));
}

interface PrevRow {
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

/** The staged records of a run, page by page, so a large edition is never held whole. */
async function* stagedRecords(env: Env, runId: number): AsyncGenerator<RegisterRecord> {
  for (let after = -1; ; ) {
    const rows = await env.DB.prepare(`SELECT seq, record FROM register_staging WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT 20`).bind(runId, after).all<{ seq: number; record: string }>();
    if (!rows.results.length) return;
    for (const r of rows.results) yield* JSON.parse(r.record) as RegisterRecord[];
    after = rows.results[rows.results.length - 1].seq;
  }
}

async function loadOpen(env: Env, source: string, scope: string): Promise<PrevRow[]> {
  const out: PrevRow[] = [];
  for (let after = ""; ; ) {
    const rows = await env.DB.prepare(
      `SELECT key, entity, part, name, status, rating, town, removed_on, fp, first_seen, valid_from_run FROM register_entries
        WHERE source = ? AND scope = ? AND valid_to_run IS NULL AND key > ? ORDER BY key LIMIT 5000`,
    )
      .bind(source, scope, after)
      .all<PrevRow>();
    out.push(...rows.results);
    if (rows.results.length < 5000) return out;
    after = rows.results[rows.results.length - 1].key;
  }
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs statements in batches (each batch is one D1 transaction). */
async function runBatches(env: Env, stmts: D1PreparedStatement[], per = 50): Promise<void> {
  for (let i = 0; i < stmts.length; i += per) await env.DB.batch(stmts.slice(i, i + per));
}

/** Multi-row INSERTs chunked to D1's 100-parameter limit. */
function insertRows(env: Env, table: string, columns: string[], rows: unknown[][]): D1PreparedStatement[] {
  const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const stmts: D1PreparedStatement[] = [];
  const one = `(${columns.map(() => "?").join(", ")})`;
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    stmts.push(env.DB.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${chunk.map(() => one).join(", ")}`).bind(...chunk.flat()));
  }
  return stmts;
}

const ENTRY_COLUMNS = [
  "source", "key", "entity", "part", "valid_from_run", "scope", "name", "norm_name", "norm_core", "company_number",
  "status", "rating", "town", "alt_names", "data", "fp", "first_seen", "removed_on", "last_listed",
];

/** Every name an entry answers to, normalised, for the FTS index. */
function namesOf(r: { name: string; altNames: string[] }): string[] {
  const names = new Set<string>();
  for (const raw of [r.name, ...r.altNames]) {
    const split = splitTradingName(raw);
    for (const n of [raw, split.name, ...split.tradingAs]) {
      // Both the full normalised name and its core (without Ltd/Limited/PLC…), for exact lookups.
      for (const norm of [normaliseName(n), normaliseNameCore(n)]) if (norm) names.add(norm);
    }
  }
  return [...names];
}

/**
 * Diffs the staged edition against the published one, writes the new entry versions and the changes,
 * and publishes. Refuses an empty or truncated snapshot. The same edition twice changes nothing.
 */
export async function completeRun(env: Env, runId: number, opts: { now?: Date } = {}): Promise<RunResult> {
  const run = await env.DB.prepare(`SELECT * FROM register_runs WHERE id = ?`).bind(runId).first<{
    source: RegisterSource;
    scope: string;
    edition_date: string | null;
    mode: RunMode;
    rows_read: number;
    sample: number;
    notes: string | null;
  }>();
  if (!run) throw new Error(`no run ${runId}`);
  const result = (outcome: RunOutcome, changes: number, reason: string | null, byKind: Record<string, number> = {}): RunResult => ({
    runId,
    source: run.source,
    scope: run.scope,
    outcome,
    editionDate: run.edition_date,
    rowsRead: run.rows_read,
    changes,
    reason,
    byKind,
    notes: run.notes ? (JSON.parse(run.notes) as Record<string, number>) : null,
  });
  const refuse = async (reason: string) => {
    await failRun(env, runId, reason, "refused");
    return result("refused", 0, reason);
  };
  const register = `${run.source}${run.scope ? `/${run.scope}` : ""}`;
  try {
    const now = opts.now ?? new Date();
    const editionDate = run.edition_date ?? today(now);
    const staged = run.rows_read;
    if (!staged) return await refuse("the file held no rows");
    const state = await env.DB.prepare(`SELECT published_run, edition_date, history_since, sample FROM register_state WHERE source = ? AND scope = ?`)
      .bind(run.source, run.scope)
      .first<{ published_run: number; edition_date: string | null; history_since: string; sample: number }>();
    const isSample = run.sample === 1;
    if (isSample && state && !state.sample)
      return await refuse(`sample data is never loaded over real data: ${register} already holds real editions (empty it first with npm run reset -- ${run.source})`);
    // The first real edition after our sample data replaces the sample lineage: it is the baseline, never diffed against fictions.
    const replacesSample = !isSample && state?.sample === 1;
    // The first edition of a register (or of its real data) is the baseline: history begins there, so it records no changes.
    const baseline = !state || replacesSample;
    if (run.mode === "snapshot" && state && !baseline) {
      const last = await env.DB.prepare(`SELECT rows_read FROM register_runs WHERE id = ?`).bind(state.published_run).first<{ rows_read: number }>();
      if (last && staged < last.rows_read * TRUNCATION_RATIO)
        return await refuse(`looks truncated: ${staged} rows against ${last.rows_read} in the last loaded edition`);
    }
    if (state?.edition_date && !baseline && editionDate < state.edition_date)
      return await refuse(
        `edition ${editionDate} is older than the published edition ${state.edition_date}; editions are diffed in date order. To load history, empty the register (npm run reset -- ${run.source}) and load its editions oldest first.`,
      );

    const open = replacesSample ? [] : await loadOpen(env, run.source, run.scope);
    const prevByKey = new Map(open.map((p) => [p.key, p]));

    // One pass over the staged edition: the diff keeps only keys and the previous state, and the new
    // versions of changed entries are written as we go (invisible to readers until the run is published).
    const diff = new EditionDiff(
      open.map((p) => ({ key: p.key, entity: p.entity, part: p.part, name: p.name, status: p.status, rating: p.rating, town: p.town, removed: p.removed_on !== null })),
      { source: run.source },
    );
    let rows: unknown[][] = [];
    let names: unknown[][] = [];
    let closeKeys: string[] = [];
    let written = 0;
    const flush = async () => {
      const stmts: D1PreparedStatement[] = [];
      for (const keys of chunks(closeKeys, MAX_PARAMS - 3))
        stmts.push(
          env.DB.prepare(
            `UPDATE register_entries SET valid_to_run = ? WHERE source = ? AND valid_to_run IS NULL AND valid_from_run < ? AND key IN (${keys.map(() => "?").join(", ")})`,
          ).bind(runId, run.source, runId, ...keys),
        );
      stmts.push(...insertRows(env, "register_entries", ENTRY_COLUMNS, rows));
      stmts.push(...insertRows(env, "register_names_fts", ["norm", "source", "key", "valid_from_run"], names));
      stmts.push(...insertRows(env, "register_names", ["norm", "source", "key", "valid_from_run"], names));
      await runBatches(env, stmts);
      written += rows.length;
      rows = [];
      names = [];
      closeKeys = [];
    };
    for await (const r of stagedRecords(env, runId)) {
      if (diff.has(r.key)) continue; // a key repeated in one edition: the first row counts
      diff.add(r);
      const prev = prevByKey.get(r.key);
      const fp = fingerprint(r);
      if (prev && prev.removed_on === null && prev.fp === fp) continue;
      if (prev) closeKeys.push(r.key);
      rows.push([
        run.source, r.key, r.entity, r.part, runId, run.scope, r.name, normaliseName(r.name), normaliseNameCore(r.name), r.companyNumber,
        r.status, r.rating, r.town, JSON.stringify(r.altNames), JSON.stringify(r.data), fp, prev?.first_seen ?? editionDate, null, null,
      ]);
      for (const n of namesOf(r)) names.push([n, run.source, r.key, runId]);
      if (rows.length >= 1000) await flush();
    }
    await flush();

    const editionDiff = diff.finish({ partial: run.mode === "partial" });
    const changes: RegisterChange[] = baseline ? [] : editionDiff.changes;
    const note = replacesSample
      ? `baseline: the first real edition of ${register} replaced the sample data; history starts ${editionDate}; no changes recorded`
      : baseline
        ? `baseline: the first edition of ${register} loaded here; history starts ${editionDate}; no changes recorded`
        : null;
    const removedKeys = run.mode === "snapshot" ? open.filter((p) => p.removed_on === null && !diff.has(p.key)).map((p) => p.key) : [];

    if (!baseline && !changes.length && !written && !removedKeys.length) {
      // Nothing changed, but this edition was read: the register is current as of its date.
      await env.DB.batch([
        env.DB.prepare(`UPDATE register_state SET edition_date = ? WHERE source = ? AND scope = ? AND (edition_date IS NULL OR edition_date < ?)`).bind(
          editionDate,
          run.source,
          run.scope,
          editionDate,
        ),
        env.DB.prepare(`DELETE FROM register_staging WHERE run_id = ?`).bind(runId),
        env.DB.prepare(`UPDATE register_runs SET outcome = 'unchanged', finished_at = ?, changes = 0 WHERE id = ?`).bind(now.toISOString(), runId),
      ]);
      return result("unchanged", 0, null);
    }

    const stmts: D1PreparedStatement[] = [];
    // Removed entries get a new version that keeps their last reading, marked removed (copied in SQL),
    // then the old version is closed.
    const copied = ENTRY_COLUMNS.map((c) => (c === "valid_from_run" || c === "removed_on" || c === "last_listed" ? "?" : c)).join(", ");
    for (const keys of chunks(removedKeys, MAX_PARAMS - 5)) {
      stmts.push(
        env.DB.prepare(
          `INSERT INTO register_entries (${ENTRY_COLUMNS.join(", ")}) SELECT ${copied} FROM register_entries
            WHERE source = ? AND valid_to_run IS NULL AND valid_from_run < ? AND key IN (${keys.map(() => "?").join(", ")})`,
        ).bind(runId, editionDate, state?.edition_date ?? null, run.source, runId, ...keys),
        env.DB.prepare(
          `UPDATE register_entries SET valid_to_run = ? WHERE source = ? AND valid_to_run IS NULL AND valid_from_run < ? AND key IN (${keys.map(() => "?").join(", ")})`,
        ).bind(runId, run.source, runId, ...keys),
      );
    }
    stmts.push(
      ...insertRows(
        env,
        "register_changes",
        ["source", "scope", "run_id", "change_date", "key", "kind", "name", "before", "after"],
        changes.map((c) => [run.source, run.scope, runId, editionDate, c.key, c.kind, c.name, c.before ? JSON.stringify(c.before) : null, c.after ? JSON.stringify(c.after) : null]),
      ),
    );
    await runBatches(env, stmts);

    // Publish: readers switch to this run in one statement (with the sample lineage it replaces, if any, gone in the same transaction).
    const dropSample = replacesSample
      ? [
          env.DB.prepare(`DELETE FROM register_entries WHERE source = ? AND scope = ? AND valid_from_run <> ?`).bind(run.source, run.scope, runId),
          ...["register_names", "register_names_fts"].map((t) =>
            env.DB.prepare(`DELETE FROM ${t} WHERE source = ? AND valid_from_run IN (SELECT id FROM register_runs WHERE source = ? AND scope = ? AND id <> ?)`).bind(
              run.source,
              run.source,
              run.scope,
              runId,
            ),
          ),
          env.DB.prepare(`DELETE FROM register_changes WHERE source = ? AND scope = ? AND run_id <> ?`).bind(run.source, run.scope, runId),
        ]
      : [];
    await env.DB.batch([
      ...dropSample,
      env.DB.prepare(
        `INSERT INTO register_state (source, scope, published_run, edition_date, history_since, sample) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(source, scope) DO UPDATE SET published_run = excluded.published_run, edition_date = excluded.edition_date,
           history_since = CASE WHEN ? THEN excluded.history_since ELSE register_state.history_since END, sample = excluded.sample`,
      ).bind(run.source, run.scope, runId, editionDate, editionDate, isSample ? 1 : 0, replacesSample ? 1 : 0),
      env.DB.prepare(`UPDATE register_runs SET outcome = 'loaded', finished_at = ?, changes = ?, edition_date = ?, reason = ? WHERE id = ?`).bind(
        now.toISOString(),
        changes.length,
        editionDate,
        note,
        runId,
      ),
      env.DB.prepare(`DELETE FROM register_staging WHERE run_id = ?`).bind(runId),
    ]);
    const byKind: Record<string, number> = {};
    for (const c of changes) byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
    return result("loaded", changes.length, note, byKind);
  } catch (e) {
    console.error(JSON.stringify({ completeRun: runId, error: String((e as Error)?.stack ?? e) }));
    const reason = `could not be applied: ${(e as Error).message}`;
    await failRun(env, runId, reason);
    return result("failed", 0, reason);
  }
}
