import { windowBounds } from "../../../db/runs";
import { CONTRACTS_MAX_WAIT_SECONDS, fetchCfAwards, fetchFtsAwards } from "../../../sources/contracts/client";
import { contractRecord, parseContracts } from "../../../sources/contracts/parse";
import { type RegisterAdapter, fileOf, timedFetch } from "../adapter";

/** One message reads at most a day of awards; a longer window (after an outage) goes on in further messages. */
export const CONTRACTS_SLICE_MS = 86_400_000;

/** The longest window read after an outage: older awards are not asked for (load them with the CLI). */
const CONTRACTS_MAX_CATCH_UP_MS = 31 * 86_400_000;

/**
 * Where the next window of awards starts: the end of the last window read completely, so a day whose run failed
 * (an upstream down, or a 429 longer than the run may wait) is read again the next day instead of lost. While a
 * long window is being read over several messages, its start is where the next one starts (as CQC's).
 */
export async function contractsWindowStart(db: D1Database, now: Date): Promise<string> {
  const floor = new Date(now.getTime() - CONTRACTS_MAX_CATCH_UP_MS).toISOString();
  const w = await windowBounds(db, "contracts");
  const candidates = [w.completeEnd, w.pendingStart].filter((t): t is string => !!t).sort();
  const start = candidates[0] ?? new Date(now.getTime() - 86_400_000).toISOString();
  return start > floor ? start : floor;
}

/** A window cut into days: the last slice takes the remainder (a window of a day and a few seconds is one slice). */
export function sliceOf(start: string, end: string, index: number): { from: string; to: string; total: number } {
  const a = Date.parse(start);
  const b = Date.parse(end);
  const total = Math.max(1, Math.round((b - a) / CONTRACTS_SLICE_MS));
  const i = Math.min(index, total - 1);
  const from = new Date(a + i * CONTRACTS_SLICE_MS).toISOString();
  const to = i === total - 1 ? new Date(b).toISOString() : new Date(a + (i + 1) * CONTRACTS_SLICE_MS).toISOString();
  return { from, to, total };
}

/**
 * Public contract awards (issue 14 §1): Find a Tender and Contracts Finder OCDS award releases. A **changes**
 * source, like CQC's: the daily job reads only the releases published or updated in a window of time (a partial
 * edition: nothing absent from it is removed), the window starting where the last complete one ended and kept in
 * the queue message and the run log; a window longer than a day is read a day per message. Both publishers are
 * read for the same window into one file, so the window is complete only when both were read. A 429 or 503 with
 * Retry-After is waited for while the message's waits stay within CONTRACTS_MAX_WAIT_SECONDS (60 s, both publishers
 * together); beyond that the run fails, the window stays incomplete, and the next run reads it again. The CLI takes a
 * release package, a record package, a release, or a JSON array of releases (or packages), or a search URL.
 */
export const contracts: RegisterAdapter = {
  chunkRows: 50_000,
  async fetch(ports, job, now) {
    const cfg = { ftsUrl: ports.upstreams.FIND_A_TENDER_URL, cfUrl: ports.upstreams.CONTRACTS_FINDER_URL, fetchImpl: timedFetch };
    // A message that continues a window reads its next day.
    const start = job.window?.start ?? (await contractsWindowStart(ports.db, now));
    const end = job.window?.end ?? now.toISOString();
    const slice = sliceOf(start, end, job.window ? (job.from ?? 0) : 0);
    const fts = await fetchFtsAwards(cfg, slice.from, slice.to);
    // One budget of Retry-After waits for the message: what FTS used is not left for CF.
    const cf = await fetchCfAwards({ ...cfg, maxWaitSeconds: CONTRACTS_MAX_WAIT_SECONDS - fts.waited }, slice.from, slice.to);
    const bytes = new TextEncoder().encode(JSON.stringify({ publishedDate: slice.to, releases: [...fts.releases, ...cf.releases] }));
    const read = Math.min(slice.total, (job.window ? (job.from ?? 0) : 0) + 1);
    return [
      {
        source: "contracts",
        bytes,
        fileName: null,
        url: `${ports.upstreams.FIND_A_TENDER_URL}/api/1.0/ocdsReleasePackages?${new URLSearchParams({ updatedFrom: slice.from, updatedTo: slice.to, stages: "award" })}`,
        editionDate: slice.to.slice(0, 10),
        mode: "partial",
        datedOnFetch: true,
        window: { start, end, read, total: slice.total },
      },
    ];
  },
  parse(f) {
    const parsed = parseContracts(fileOf(f)); // checks the JSON now
    return {
      scope: "",
      editionDate: f.editionDate ?? parsed.editionDate,
      // Awards are only ever read as changes: an award missing from a file is not withdrawn.
      mode: "partial",
      async *records(from = 0, notes) {
        if (notes) Object.assign(notes, parsed.notes);
        for (const a of parsed.awards.slice(from)) yield contractRecord(a);
      },
    };
  },
  async dateOf(f) {
    return f.bytes ? parseContracts(f.bytes).editionDate : null;
  },
};
