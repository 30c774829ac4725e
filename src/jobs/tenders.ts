/**
 * Tender notices in (issue 18 §2 tender-match): the daily read of Find a Tender's and Contracts Finder's tender-stage
 * releases, and the loading of an OCDS file (the CLI, npm start's sample, tests), into the tenders table
 * (migrations/0010_tenders.sql). Like the Bank Rate read, it runs from the cron beside the register ingest, not as a
 * register: notices are not an edition of organisations to diff, but processes updated in place.
 *
 * The daily read is a changes read, like the contract awards': it reads the window from where the last complete one
 * ended (at most CATCH_UP_DAYS back; the first read takes the last day) up to now, a day at a time, at most
 * MAX_DAYS_PER_RUN days per run (the next run goes on from there). Both publishers are read for each day; a day is
 * complete only when both were, and a failure (an upstream down, a 429 longer than the run may wait) ends the run,
 * so that day is read again next time: a refusal is never read as "no new tenders". Retry-After waits share one
 * budget of CONTRACTS_MAX_WAIT_SECONDS per day.
 *
 * Each release applies in date order (sources/contracts/tenders.ts): a newer notice of a stored process updates it,
 * an older one changes nothing; a later award or cancellation closes it, and a closure of a process never stored
 * creates nothing. Awards the contracts register loads also close a notice when it is read (db/tenders.ts). Our
 * sample notices are never loaded over real ones, and the first real read removes them.
 */
import {
  type TenderRead,
  deleteSampleTenders,
  lastTenderWindowEnd,
  pruneTenders,
  recordTenderRead,
  storedTenders,
  tenderKinds,
  writeTenders,
} from "../db/tenders";
import type { TenderNotice } from "../services/contracts/tenderMatch";
import { UpstreamError } from "../shared/errors";
import { CONTRACTS_MAX_WAIT_SECONDS, type ContractsClientConfig } from "../sources/contracts/client";
import { type TendersParse, closeNotice, fetchCfTenders, fetchFtsTenders, mergeNotice, parseTenders } from "../sources/contracts/tenders";
import { RegisterFormatError } from "../sources/format-error";
import { timedFetch } from "./ingest/adapter";
import type { TendersPorts } from "./ports";

const DAY = 86_400_000;
/** The longest window read after an outage: older notices are not asked for (load them with the CLI). */
export const CATCH_UP_DAYS = 31;
/** Days read per run; a longer window goes on in the next run. */
export const MAX_DAYS_PER_RUN = 7;

export interface TendersResult {
  outcome: "loaded" | "failed" | "refused";
  /** Days (windows) read completely by this run, and the notices written (new or updated) and closed. */
  days: number;
  releases: number;
  written: number;
  closed: number;
  reason: string | null;
  /** Up to where notices have been read (the end of the last complete window). */
  readThrough: string | null;
  notes?: Record<string, number>;
}

/** What applying one parse wrote. */
interface Applied {
  written: number;
  closed: number;
}

/**
 * Applies a parse to the table: each notice merged over the stored one when it is newer, each closure applied to a
 * stored notice. Returns the counts. `sample` marks our own sample notices.
 */
async function applyTenders(db: D1Database, parsed: TendersParse, opts: { sample: boolean; now: Date }): Promise<Applied> {
  const stored = await storedTenders(db, [...parsed.notices.map((n) => n.ocid), ...parsed.closures.map((c) => c.ocid)]);
  const at = (d: string | null) => (d ? Date.parse(d) : -Infinity);
  const out: TenderNotice[] = [];
  let closed = 0;
  for (const n of parsed.notices) {
    const prev = stored.get(n.ocid)?.notice;
    if (prev && at(prev.releaseDate) > at(n.releaseDate)) continue; // the stored one is newer
    out.push(prev ? mergeNotice(prev, n) : n);
    if (n.closedBy) closed++;
  }
  for (const c of parsed.closures) {
    const prev = stored.get(c.ocid)?.notice;
    if (!prev || at(prev.releaseDate) > at(c.releaseDate)) continue; // never creates a notice
    const next = closeNotice(prev, c);
    if (next !== prev) {
      out.push(next);
      closed++;
    }
  }
  await writeTenders(db, out, opts);
  return { written: out.length, closed };
}

const describe = (e: unknown) =>
  e instanceof RegisterFormatError ? `malformed file: ${e.message}` : e instanceof UpstreamError ? e.message : `error: ${(e as Error)?.message ?? String(e)}`;

/**
 * Loads one OCDS file of tender notices (`npm run ingest -- tenders <file>`, npm start's sample with `sample`).
 * Sample notices are refused over real ones; real ones replace the samples.
 */
export async function loadTenderFile(
  ports: Pick<TendersPorts, "db">,
  bytes: Uint8Array,
  opts: { fileName?: string | null; url?: string | null; sample?: boolean; now?: Date } = {},
): Promise<TendersResult & { editionDate: string | null }> {
  const now = opts.now ?? new Date();
  const sample = !!opts.sample;
  const log = (outcome: TenderRead["outcome"], reason: string | null, extra: Partial<TenderRead> = {}) =>
    recordTenderRead(ports.db, {
      startedAt: now.toISOString(),
      finishedAt: new Date().toISOString(),
      window: null,
      fileName: opts.fileName ?? null,
      url: opts.url ?? null,
      outcome,
      releases: 0,
      written: 0,
      closed: 0,
      sample,
      reason,
      notes: null,
      ...extra,
    });
  const result = (outcome: TendersResult["outcome"], reason: string | null, a: Partial<TendersResult> = {}, editionDate: string | null = null) => ({
    outcome,
    days: 0,
    releases: 0,
    written: 0,
    closed: 0,
    reason,
    readThrough: null,
    editionDate,
    ...a,
  });
  let parsed: TendersParse;
  try {
    parsed = parseTenders(bytes);
  } catch (e) {
    const reason = describe(e);
    await log(e instanceof RegisterFormatError ? "refused" : "failed", reason);
    return result(e instanceof RegisterFormatError ? "refused" : "failed", reason);
  }
  const kinds = await tenderKinds(ports.db);
  if (sample && kinds.real) {
    const reason = "sample data is never loaded over real data: the tenders table already holds real notices";
    await log("refused", reason);
    return result("refused", reason, {}, parsed.editionDate);
  }
  if (!sample && kinds.sample) await deleteSampleTenders(ports.db);
  const releases = parsed.notices.length + parsed.closures.length;
  const applied = await applyTenders(ports.db, parsed, { sample, now });
  await log("loaded", null, { releases, written: applied.written, closed: applied.closed, notes: parsed.notes });
  return result("loaded", null, { releases, ...applied, notes: parsed.notes }, parsed.editionDate);
}

/** The daily read (from the cron): the days since the last complete window, both publishers, see the header. */
export async function refreshTenders(
  ports: TendersPorts,
  now = new Date(),
  opts: { fetchImpl?: typeof fetch; sleep?: (ms: number) => Promise<void> } = {},
): Promise<TendersResult> {
  const cfg: ContractsClientConfig = {
    ftsUrl: ports.findATenderUrl,
    cfUrl: ports.contractsFinderUrl,
    fetchImpl: opts.fetchImpl ?? timedFetch,
    sleep: opts.sleep,
  };
  const floor = now.getTime() - CATCH_UP_DAYS * DAY;
  const last = await lastTenderWindowEnd(ports.db);
  let start = Math.max(last ? Date.parse(last) : now.getTime() - DAY, floor);
  const end = now.getTime();
  const total: TendersResult = { outcome: "loaded", days: 0, releases: 0, written: 0, closed: 0, reason: null, readThrough: last };
  // Our sample notices go once a day's notices were read (a read that fails leaves them: issue 31, npm run job offline).
  let samples = (await tenderKinds(ports.db)).sample;
  while (start < end && total.days < MAX_DAYS_PER_RUN) {
    // A day at a time; the last slice takes the remainder when it is less than a day and a bit.
    const stop = end - start < DAY * 1.5 ? end : start + DAY;
    const window = { start: new Date(start).toISOString(), end: new Date(stop).toISOString() };
    const startedAt = new Date().toISOString();
    try {
      const fts = await fetchFtsTenders(cfg, window.start, window.end);
      const cf = await fetchCfTenders({ ...cfg, maxWaitSeconds: CONTRACTS_MAX_WAIT_SECONDS - fts.waited }, window.start, window.end);
      const parsed = parseTenders(JSON.stringify({ publishedDate: window.end, releases: [...fts.releases, ...cf.releases] }));
      const releases = fts.releases.length + cf.releases.length;
      if (samples) {
        await deleteSampleTenders(ports.db);
        samples = false;
      }
      const applied = await applyTenders(ports.db, parsed, { sample: false, now });
      await recordTenderRead(ports.db, {
        startedAt,
        finishedAt: new Date().toISOString(),
        window,
        fileName: null,
        url: null,
        outcome: "loaded",
        releases,
        ...applied,
        sample: false,
        reason: null,
        notes: parsed.notes,
      });
      total.days++;
      total.releases += releases;
      total.written += applied.written;
      total.closed += applied.closed;
      total.readThrough = window.end;
    } catch (e) {
      const reason = describe(e);
      const none = { fileName: null, url: null, releases: 0, written: 0, closed: 0, sample: false, notes: null };
      await recordTenderRead(ports.db, { ...none, startedAt, finishedAt: new Date().toISOString(), window, outcome: "failed", reason });
      return { ...total, outcome: "failed", reason };
    }
    start = stop;
  }
  await pruneTenders(ports.db, now);
  return total;
}
