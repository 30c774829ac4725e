import type { Env } from "../env";
import { isApiError } from "../shared/errors";
import type { RegisterSource } from "../services/registers/types";
import { CHARITY_BUCKET_RECORDS } from "../sources/charity-commission/parse";
import { RegisterFormatError } from "../sources/format-error";
import type { IngestJob } from "./jobs";
import { type RunResult, RunRefused, beginRun, completeRun, failRun, stageRecords } from "./pipeline";
import { type EditionFile, fetchEditions, parseEdition } from "./sources";

/** Rows one queue invocation stages before handing the rest of the file to the next message. */
export const CHUNK_ROWS = 50_000;

/**
 * The charity extract is read one bucket of charities per invocation: each bucket streams every table
 * again (see parseCharityExtract), which is what fits a queue invocation's CPU time.
 */
const chunkRowsOf = (source: RegisterSource) => (source === "charity" ? CHARITY_BUCKET_RECORDS : CHUNK_ROWS);

export interface IngestOptions {
  chunkRows?: number;
  now?: Date;
  onProgress?: (message: string) => void;
}

const describe = (e: unknown) =>
  e instanceof RegisterFormatError ? `malformed file: ${e.message}` : isApiError(e) ? e.message : `error: ${(e as Error)?.message ?? String(e)}`;

/** A malformed file is refused; anything else (upstream down, time-out) failed. */
const outcomeOf = (e: unknown): "failed" | "refused" => (e instanceof RegisterFormatError ? "refused" : "failed");

async function recordFailure(env: Env, source: RegisterSource, scope: string, e: unknown, meta: Partial<EditionFile> = {}): Promise<RunResult> {
  const runId = await beginRun(env, { source, scope, editionDate: meta.editionDate ?? null, fileName: meta.fileName, url: meta.url });
  const reason = describe(e);
  await failRun(env, runId, reason, outcomeOf(e));
  return { runId, source, scope, outcome: outcomeOf(e), editionDate: meta.editionDate ?? null, rowsRead: 0, changes: 0, reason, byKind: {} };
}

/**
 * Loads one edition file end to end, in resumable chunks: each chunk parses the file again and skips
 * what earlier chunks staged, exactly as the queue does across invocations. Used by the CLI
 * (`npm run ingest`), the sample data, tests and the queue consumer.
 */
export async function ingestEdition(env: Env, file: EditionFile, opts: IngestOptions = {}): Promise<RunResult> {
  const chunk = opts.chunkRows ?? Number.POSITIVE_INFINITY;
  let parsed;
  try {
    parsed = parseEdition(file);
  } catch (e) {
    return recordFailure(env, file.source, "", e, file);
  }
  const runId = await beginRun(env, {
    source: file.source,
    scope: parsed.scope,
    editionDate: parsed.editionDate,
    fileName: file.fileName,
    url: file.url,
    mode: parsed.mode,
    sample: file.sample,
    now: opts.now,
  });
  try {
    let offset = 0;
    for (;;) {
      const notes = {};
      const r = await stageRecords(env, runId, parsed.records(offset, notes), {
        from: offset,
        limit: chunk,
        notes,
        onProgress: (n) => opts.onProgress?.(`${file.source}${parsed.scope ? `/${parsed.scope}` : ""}: ${n} rows read`),
      });
      offset = r.staged;
      if (r.done) break;
    }
  } catch (e) {
    await failRun(env, runId, describe(e), outcomeOf(e));
    return { runId, source: file.source, scope: parsed.scope, outcome: outcomeOf(e), editionDate: parsed.editionDate, rowsRead: 0, changes: 0, reason: describe(e), byKind: {} };
  }
  return completeRun(env, runId, { now: opts.now });
}

/** The longest CQC change window read in one go: after a longer outage the older changes are not asked for. */
const CQC_MAX_CATCH_UP_MS = 31 * 86_400_000;

/**
 * Where the next CQC change window starts: the end of the last window read completely, so a day whose
 * run failed (upstream down) is read again the next day instead of lost. A window read over several
 * messages is complete when its last part has loaded; until then its start is where the next one starts.
 */
export async function cqcWindowStart(env: Env, now: Date): Promise<string> {
  const floor = new Date(now.getTime() - CQC_MAX_CATCH_UP_MS).toISOString();
  const atLeastFloor = (t: string) => (t > floor ? t : floor);
  const row = await env.DB.prepare(
    `SELECT
       (SELECT window_end FROM register_runs WHERE source = 'cqc' AND outcome IN ('loaded', 'unchanged') AND window_complete = 1 ORDER BY id DESC LIMIT 1) AS complete_end,
       (SELECT MIN(window_start) FROM register_runs r WHERE source = 'cqc' AND outcome IN ('loaded', 'unchanged') AND window_complete = 0
          AND id > COALESCE((SELECT MAX(id) FROM register_runs WHERE source = 'cqc' AND outcome IN ('loaded', 'unchanged') AND window_complete = 1), 0)) AS pending_start`,
  ).first<{ complete_end: string | null; pending_start: string | null }>();
  const candidates = [row?.complete_end, row?.pending_start].filter((t): t is string => !!t).sort();
  return atLeastFloor(candidates[0] ?? new Date(now.getTime() - 86_400_000).toISOString());
}

/**
 * The queue consumer's work for one message: fetch the source's current edition(s) and stage the first
 * chunk; if a file is bigger than one invocation, enqueue the rest; complete the run when it ends.
 * A failure records the run as failed and keeps the published edition.
 */
export async function handleIngestJob(env: Env, job: IngestJob, opts: IngestOptions = {}): Promise<RunResult[]> {
  const chunk = opts.chunkRows ?? chunkRowsOf(job.source);
  let files: EditionFile[];
  try {
    const now = opts.now ?? new Date();
    const cqc =
      job.source !== "cqc" ? {}
      : job.window ? { since: job.window.start, until: job.window.end, from: job.from }
      : { since: await cqcWindowStart(env, now) };
    files = await fetchEditions(env, job.source, { now, ...cqc });
  } catch (e) {
    if (job.runId) {
      await failRun(env, job.runId, describe(e));
      return [];
    }
    return [await recordFailure(env, job.source, "", e)];
  }
  const results: RunResult[] = [];
  for (const file of files) {
    let parsed;
    try {
      parsed = parseEdition(file);
    } catch (e) {
      results.push(await recordFailure(env, job.source, "", e, file));
      continue;
    }
    let runId = job.runId;
    if (runId) {
      const run = await env.DB.prepare(`SELECT scope, edition_date FROM register_runs WHERE id = ? AND outcome = 'running'`)
        .bind(runId)
        .first<{ scope: string; edition_date: string | null }>();
      if (!run || run.scope !== parsed.scope) continue; // resuming another file of this source
      if (!file.datedOnFetch && run.edition_date !== parsed.editionDate) {
        // Upstream published a new edition between two chunks: the staged part belongs to the old one.
        const reason = `the upstream edition changed while the run was in progress (${run.edition_date ?? "undated"} → ${parsed.editionDate ?? "undated"}); the next daily run loads the new one`;
        await failRun(env, runId, reason);
        results.push({ runId, source: job.source, scope: parsed.scope, outcome: "failed", editionDate: run.edition_date, rowsRead: 0, changes: 0, reason, byKind: {} });
        continue;
      }
    } else {
      try {
        const w = file.window;
        runId = await beginRun(env, {
          source: job.source,
          scope: parsed.scope,
          editionDate: parsed.editionDate,
          fileName: file.fileName,
          url: file.url,
          mode: parsed.mode,
          window: w && { start: w.start, end: w.end, complete: w.read >= w.total },
          now: opts.now,
        });
      } catch (e) {
        if (e instanceof RunRefused) continue;
        throw e;
      }
    }
    try {
      const from = job.offset ?? 0;
      const notes = {};
      const r = await stageRecords(env, runId, parsed.records(from, notes), { from, limit: chunk, notes });
      if (!r.done) {
        await env.INGEST.send({ source: job.source, runId, offset: r.staged });
        continue;
      }
      results.push(await completeRun(env, runId, { now: opts.now }));
      // CQC: a window with more changes than one message reads goes on in the next message.
      const w = file.window;
      if (w && w.read < w.total) await env.INGEST.send({ source: job.source, window: { start: w.start, end: w.end }, from: w.read });
    } catch (e) {
      await failRun(env, runId, describe(e), outcomeOf(e));
      results.push({ runId, source: job.source, scope: parsed.scope, outcome: outcomeOf(e), editionDate: parsed.editionDate, rowsRead: 0, changes: 0, reason: describe(e), byKind: {} });
    }
  }
  for (const r of results) console.log(JSON.stringify({ ingest: r }));
  return results;
}
