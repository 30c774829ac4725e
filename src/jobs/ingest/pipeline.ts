import { publishedStateOf } from "../../db/registers";
import { type RunMode, type RunOutcome, endRun, insertRun, rowsReadOf, runOf, runningRunOf, setRowsRead } from "../../db/runs";
import type { RegisterRecord, RegisterSource } from "../../services/registers/types";
import { ADAPTERS } from "./adapters";
import type { ChangeWindow } from "./message";
import type { IngestDbs, RegisterStore } from "./store";
import { entriesStore } from "./stores/entries";

/**
 * One ingest pipeline for every register (issue: register checks §1).
 * beginRun → stageRecords (resumable, chunk by chunk) → completeRun (the rules every register shares,
 * then the register's store diffs against the published edition, writes new versions and changes, and
 * publishes) — or failRun, which keeps the previous edition and records no change. The run log is
 * src/db/runs.ts; each store (./store.ts) owns its register's tables.
 */

/** The store a register's edition is written to: its adapter's own, else the entries store most registers share. */
export const storeOf = (source: RegisterSource): RegisterStore => ADAPTERS[source].store ?? entriesStore;

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
  /** The SHA-256 of the file (hex), named by the receipts of answers that rest on this edition. */
  sha256?: string | null;
  now?: Date;
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

const today = (d: Date) => d.toISOString().slice(0, 10);

export class RunRefused extends Error {
  name = "RunRefused";
}

export async function beginRun(dbs: IngestDbs, meta: RunMeta): Promise<number> {
  const now = meta.now ?? new Date();
  const busy = await runningRunOf(dbs.db, meta.source, meta.scope);
  if (busy && now.getTime() - Date.parse(busy.started_at) < STALE_RUN_MS)
    throw new RunRefused(`run ${busy.id} for ${meta.source}${meta.scope ? `/${meta.scope}` : ""} is still in progress`);
  if (busy) await failRun(dbs, busy.id, "abandoned: no progress for two hours");
  return insertRun(dbs.db, {
    source: meta.source,
    scope: meta.scope,
    editionDate: meta.editionDate,
    fileName: meta.fileName ?? null,
    url: meta.url ?? null,
    mode: meta.mode ?? "snapshot",
    startedAt: now.toISOString(),
    window: meta.window,
    sample: !!meta.sample,
    sha256: meta.sha256 ?? null,
  });
}

/**
 * Stages parsed records of a run: `records` start at record index `from` (earlier chunks staged the
 * ones before), and staging stops after `limit`. Returns how many records the run has staged so far
 * and whether the file ended.
 */
export async function stageRecords(
  dbs: IngestDbs,
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
  let pending: { seq: number; records: RegisterRecord[] }[] = [];
  const flushBatch = () => {
    if (!batch.length) return;
    pending.push({ seq: skip + taken - batch.length, records: batch }); // the batch's first record: unique and ordered across chunks
    batch = [];
  };
  const store = storeOf((await runOf(dbs.db, runId))?.source as RegisterSource);
  // One write in flight while the next batches are parsed (the parse and the database work overlap);
  // writes are applied in order, so "the first row of a key counts" still holds.
  let inFlight: Promise<void> = Promise.resolve();
  const flushWrites = async () => {
    const writing = pending;
    pending = [];
    await inFlight;
    inFlight = writing.length ? store.stage(dbs, runId, writing) : Promise.resolve();
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
  await inFlight;
  const staged = skip + taken;
  // Every chunk parses the file from its start, so the chunk that reaches the end has counted all of it.
  const notes = done && opts.notes && Object.values(opts.notes).some((n) => n > 0) ? opts.notes : null;
  await setRowsRead(dbs.db, runId, staged, notes);
  opts.onProgress?.(staged);
  return { staged, done };
}

/** Marks a run failed or refused, removing anything it wrote; the published edition stays as it was. */
export async function failRun(dbs: IngestDbs, runId: number, reason: string, outcome: "failed" | "refused" = "failed"): Promise<void> {
  const run = await runOf(dbs.db, runId);
  if (run) await storeOf(run.source as RegisterSource).discard(dbs, runId);
  const source = await endRun(dbs.db, runId, outcome, reason, new Date().toISOString());
  console.log(JSON.stringify({ ingest: source, runId, outcome, reason }));
}

/**
 * Diffs the staged edition against the published one, writes the new entry versions and the changes,
 * and publishes. Refuses an empty or truncated snapshot. The same edition twice changes nothing.
 */
export async function completeRun(dbs: IngestDbs, runId: number, opts: { now?: Date } = {}): Promise<RunResult> {
  const row = await runOf(dbs.db, runId);
  if (!row) throw new Error(`no run ${runId}`);
  const run = { ...row, source: row.source as RegisterSource }; // the run log holds the sources beginRun wrote
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
    await failRun(dbs, runId, reason, "refused");
    return result("refused", 0, reason);
  };
  const register = `${run.source}${run.scope ? `/${run.scope}` : ""}`;
  try {
    const now = opts.now ?? new Date();
    const editionDate = run.edition_date ?? today(now);
    const staged = run.rows_read;
    if (!staged) return await refuse("the file held no rows");
    const state = await publishedStateOf(dbs.db, run.source, run.scope);
    const isSample = run.sample === 1;
    if (isSample && state && !state.sample)
      return await refuse(
        `sample data is never loaded over real data: ${register} already holds real editions (empty it first with npm run reset -- ${run.source})`,
      );
    // The first real edition after our sample data replaces the sample lineage: it is the baseline, never diffed against fictions.
    const replacesSample = !isSample && state?.sample === 1;
    // The first edition of a register (or of its real data) is the baseline: history begins there, so it records no changes.
    const baseline = !state || replacesSample;
    if (run.mode === "snapshot" && state && !baseline) {
      const last = await rowsReadOf(dbs.db, state.published_run);
      if (last !== null && staged < last * TRUNCATION_RATIO) return await refuse(`looks truncated: ${staged} rows against ${last} in the last loaded edition`);
    }
    if (state?.edition_date && !baseline && editionDate < state.edition_date)
      return await refuse(
        `edition ${editionDate} is older than the published edition ${state.edition_date}; editions are diffed in date order. To load history, empty the register (npm run reset -- ${run.source}) and load its editions oldest first.`,
      );

    const note = replacesSample
      ? `baseline: the first real edition of ${register} replaced the sample data; history starts ${editionDate}; no changes recorded`
      : baseline
        ? `baseline: the first edition of ${register} loaded here; history starts ${editionDate}; no changes recorded`
        : null;
    const applied = await storeOf(run.source).apply(dbs, {
      runId,
      source: run.source,
      scope: run.scope,
      mode: run.mode,
      editionDate,
      baseline,
      replacesSample,
      sample: isSample,
      lastListed: state?.edition_date ?? null,
      note,
      now,
    });
    return applied.outcome === "unchanged" ? result("unchanged", 0, null) : result("loaded", applied.changes, note, applied.byKind);
  } catch (e) {
    console.error(JSON.stringify({ completeRun: runId, error: String((e as Error)?.stack ?? e) }));
    const reason = `could not be applied: ${(e as Error).message}`;
    await failRun(dbs, runId, reason);
    return result("failed", 0, reason);
  }
}
