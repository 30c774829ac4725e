import { runInProgress } from "../../db/runs";
import { UpstreamError } from "../../shared/errors";
import type { RegisterSource } from "../../services/registers/types";
import { RegisterFormatError } from "../../sources/format-error";
import type { EditionFile } from "./adapter";
import { ADAPTERS } from "./adapters";
import type { IngestJob } from "./message";
import type { IngestPorts } from "../ports";
import type { IngestDbs } from "./store";
import { sha256HexOfBytes } from "../../shared/bytes";
import { type RunResult, RunRefused, beginRun, completeRun, failRun, stageRecords } from "./pipeline";

export interface IngestOptions {
  chunkRows?: number;
  now?: Date;
  onProgress?: (message: string) => void;
}

/** The run log's reason: a malformed file, an upstream that could not be read (its own message), or anything else. */
const describe = (e: unknown) =>
  e instanceof RegisterFormatError ? `malformed file: ${e.message}` : e instanceof UpstreamError ? e.message : `error: ${(e as Error)?.message ?? String(e)}`;

/** A malformed file is refused; anything else (upstream down, time-out) failed. */
const outcomeOf = (e: unknown): "failed" | "refused" => (e instanceof RegisterFormatError ? "refused" : "failed");

/** Parses one edition file with its register's adapter. */
const parseEdition = (file: EditionFile) => ADAPTERS[file.source].parse(file);

async function recordFailure(dbs: IngestDbs, source: RegisterSource, scope: string, e: unknown, meta: Partial<EditionFile> = {}): Promise<RunResult> {
  const runId = await beginRun(dbs, { source, scope, editionDate: meta.editionDate ?? null, fileName: meta.fileName, url: meta.url });
  const reason = describe(e);
  await failRun(dbs, runId, reason, outcomeOf(e));
  return { runId, source, scope, outcome: outcomeOf(e), editionDate: meta.editionDate ?? null, rowsRead: 0, changes: 0, reason, byKind: {} };
}

/**
 * Loads one edition file end to end, in resumable chunks: each chunk parses the file again and skips
 * what earlier chunks staged, exactly as the queue does across invocations. Used by the CLI
 * (`npm run ingest`), the sample data, tests and the queue consumer.
 */
export async function ingestEdition(dbs: IngestDbs, file: EditionFile, opts: IngestOptions = {}): Promise<RunResult> {
  const chunk = opts.chunkRows ?? Number.POSITIVE_INFINITY;
  let parsed: ReturnType<typeof parseEdition>;
  try {
    parsed = parseEdition(file);
  } catch (e) {
    return recordFailure(dbs, file.source, "", e, file);
  }
  const runId = await beginRun(dbs, {
    source: file.source,
    scope: parsed.scope,
    editionDate: parsed.editionDate,
    fileName: file.fileName,
    url: file.url,
    mode: parsed.mode,
    sample: file.sample,
    sha256: file.bytes ? await sha256HexOfBytes(file.bytes) : null,
    now: opts.now,
  });
  try {
    let offset = 0;
    for (;;) {
      const notes = {};
      const r = await stageRecords(dbs, runId, parsed.records(offset, notes), {
        from: offset,
        limit: chunk,
        notes,
        onProgress: (n) => opts.onProgress?.(`${file.source}${parsed.scope ? `/${parsed.scope}` : ""}: ${n} rows read`),
      });
      offset = r.staged;
      if (r.done) break;
    }
  } catch (e) {
    await failRun(dbs, runId, describe(e), outcomeOf(e));
    return {
      runId,
      source: file.source,
      scope: parsed.scope,
      outcome: outcomeOf(e),
      editionDate: parsed.editionDate,
      rowsRead: 0,
      changes: 0,
      reason: describe(e),
      byKind: {},
    };
  }
  return completeRun(dbs, runId, { now: opts.now });
}

/**
 * The queue consumer's work for one message: fetch the source's current edition(s) and stage the first
 * chunk; if a file is bigger than one invocation, enqueue the rest; complete the run when it ends.
 * A failure records the run as failed and keeps the published edition.
 */
export async function handleIngestJob(ports: IngestPorts, job: IngestJob, opts: IngestOptions = {}): Promise<RunResult[]> {
  const adapter = ADAPTERS[job.source];
  const chunk = opts.chunkRows ?? adapter.chunkRows;
  let files: EditionFile[];
  try {
    files = await adapter.fetch(ports, job, opts.now ?? new Date());
  } catch (e) {
    if (job.runId) {
      await failRun(ports, job.runId, describe(e));
      return [];
    }
    return [await recordFailure(ports, job.source, "", e)];
  }
  const results: RunResult[] = [];
  for (const file of files) {
    let parsed: ReturnType<typeof parseEdition>;
    try {
      parsed = parseEdition(file);
    } catch (e) {
      results.push(await recordFailure(ports, job.source, "", e, file));
      continue;
    }
    let runId = job.runId;
    if (runId) {
      const run = await runInProgress(ports.db, runId);
      if (!run || run.scope !== parsed.scope) continue; // resuming another file of this source
      if (!file.datedOnFetch && run.edition_date !== parsed.editionDate) {
        // Upstream published a new edition between two chunks: the staged part belongs to the old one.
        const reason = `the upstream edition changed while the run was in progress (${run.edition_date ?? "undated"} → ${parsed.editionDate ?? "undated"}); the next daily run loads the new one`;
        await failRun(ports, runId, reason);
        results.push({
          runId,
          source: job.source,
          scope: parsed.scope,
          outcome: "failed",
          editionDate: run.edition_date,
          rowsRead: 0,
          changes: 0,
          reason,
          byKind: {},
        });
        continue;
      }
    } else {
      try {
        const w = file.window;
        runId = await beginRun(ports, {
          source: job.source,
          scope: parsed.scope,
          editionDate: parsed.editionDate,
          fileName: file.fileName,
          url: file.url,
          mode: parsed.mode,
          window: w && { start: w.start, end: w.end, complete: w.read >= w.total },
          sha256: file.bytes ? await sha256HexOfBytes(file.bytes) : null,
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
      const r = await stageRecords(ports, runId, parsed.records(from, notes), { from, limit: chunk, notes });
      if (!r.done) {
        await ports.enqueue([{ source: job.source, runId, offset: r.staged }]);
        continue;
      }
      results.push(await completeRun(ports, runId, { now: opts.now }));
      // CQC: a window with more changes than one message reads goes on in the next message.
      const w = file.window;
      if (w && w.read < w.total) await ports.enqueue([{ source: job.source, window: { start: w.start, end: w.end }, from: w.read }]);
    } catch (e) {
      await failRun(ports, runId, describe(e), outcomeOf(e));
      results.push({
        runId,
        source: job.source,
        scope: parsed.scope,
        outcome: outcomeOf(e),
        editionDate: parsed.editionDate,
        rowsRead: 0,
        changes: 0,
        reason: describe(e),
        byKind: {},
      });
    }
  }
  for (const r of results) console.log(JSON.stringify({ ingest: r }));
  return results;
}
