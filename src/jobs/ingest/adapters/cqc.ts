import { windowBounds } from "../../../db/runs";
import { fetchCqcChanges, fetchCqcLocation, fetchCqcProvider, fetchCqcRatingsFile } from "../../../sources/cqc/client";
import { parseCqcJson, parseHscaActiveLocations } from "../../../sources/cqc/parse";
import { type CqcRatings, readCqcRatings } from "../../../sources/cqc/ratings";
import { RegisterFormatError } from "../../../sources/format-error";
import { notConfigured } from "../../../sources/upstream";
import type { RegisterRecord } from "../../../services/registers/types";
import { CHUNK_ROWS, type EditionFile, type ParseNotes, type RegisterAdapter, fileDateOf, fileOf, skipRecords, timedFetch } from "../adapter";

/**
 * At most this many CQC detail calls per queue message (the Worker's subrequest budget). A window with
 * more changes is read over several messages (see `EditionFile.window`).
 */
export const CQC_MAX_DETAILS = 400;

/** The longest CQC change window read in one go: after a longer outage the older changes are not asked for. */
const CQC_MAX_CATCH_UP_MS = 31 * 86_400_000;

/**
 * Where the next CQC change window starts: the end of the last window read completely, so a day whose
 * run failed (upstream down) is read again the next day instead of lost. A window read over several
 * messages is complete when its last part has loaded; until then its start is where the next one starts.
 */
export async function cqcWindowStart(db: D1Database, now: Date): Promise<string> {
  const floor = new Date(now.getTime() - CQC_MAX_CATCH_UP_MS).toISOString();
  const atLeastFloor = (t: string) => (t > floor ? t : floor);
  const w = await windowBounds(db, "cqc");
  const candidates = [w.completeEnd, w.pendingStart].filter((t): t is string => !!t).sort();
  return atLeastFloor(candidates[0] ?? new Date(now.getTime() - 86_400_000).toISOString());
}

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b;
const text = (b: Uint8Array) => new TextDecoder().decode(b.subarray(0, 4096));

/** The ratings file is about 30 MB: the time limit covers its body too. */
const RATINGS_TIMEOUT_MS = 10 * 60_000;
const ratingsFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(RATINGS_TIMEOUT_MS) });

/** The ratings joined to an HSCA edition, as of its date: the file given, or downloaded (once per parse); null without one. */
async function ratingsOf(f: EditionFile, editionDate: string | null): Promise<CqcRatings | null> {
  if (!f.ratings) return null;
  const bytes = typeof f.ratings === "function" ? await f.ratings() : f.ratings;
  return readCqcRatings(bytes, { editionDate });
}

/** The HSCA snapshot's records, joined to its ratings file (read before the first record, so its failure is the run's). */
async function* hscaRecords(bytes: Uint8Array, ratings: () => Promise<CqcRatings | null>, notes?: ParseNotes): AsyncGenerator<RegisterRecord> {
  yield* parseHscaActiveLocations(bytes, { ratings: await ratings(), notes });
}

/**
 * The Care Quality Commission register. The daily job reads the change API: the providers and
 * locations changed in a window of time (a partial edition), the window starting where the last
 * complete one ended; their detail objects carry the overall rating with its five key questions and
 * its date, and the last inspection date. The CLI also takes the HSCA Active Locations spreadsheet, a
 * full snapshot, which gives a location's overall rating only: it is joined to CQC's ratings file
 * (src/sources/cqc/ratings.ts) by location id and provider id, the file beside it or else the current
 * one from CQC_RATINGS_URL, as of the edition's date. A ratings file that cannot be read fails the run,
 * and the published edition stays as it was.
 */
export const cqc: RegisterAdapter = {
  chunkRows: CHUNK_ROWS,
  async fetch(ports, job, now) {
    const cfg = { baseUrl: ports.upstreams.CQC_URL, apiKey: ports.upstreams.CQC_API_KEY, fetchImpl: timedFetch };
    // A message that continues a window reads on from where the previous one stopped.
    const start = job.window?.start ?? (await cqcWindowStart(ports.db, now));
    const end = job.window?.end ?? now.toISOString();
    const from = job.window ? (job.from ?? 0) : 0;
    const changed = [
      ...(await fetchCqcChanges(cfg, "provider", start, end)).map((id) => ({ kind: "provider" as const, id })),
      ...(await fetchCqcChanges(cfg, "location", start, end)).map((id) => ({ kind: "location" as const, id })),
    ];
    const ids = [...new Map(changed.map((c) => [`${c.kind}:${c.id}`, c])).values()];
    const part = ids.slice(from, from + CQC_MAX_DETAILS);
    const providers: unknown[] = [];
    const locations: unknown[] = [];
    for (const c of part) {
      if (c.kind === "provider") providers.push(await fetchCqcProvider(cfg, c.id));
      else locations.push(await fetchCqcLocation(cfg, c.id));
    }
    const read = from + part.length;
    const bytes = new TextEncoder().encode(JSON.stringify({ providers, locations }));
    return [
      {
        source: "cqc",
        bytes,
        fileName: null,
        url: `${ports.upstreams.CQC_URL}/changes?${new URLSearchParams({ startTimestamp: start, endTimestamp: end })}`,
        editionDate: end.slice(0, 10),
        mode: "partial",
        datedOnFetch: true,
        window: { start, end, read, total: ids.length },
      },
    ];
  },
  parse(f) {
    const bytes = fileOf(f);
    const fileDate = fileDateOf(f);
    // The HSCA Active Locations spreadsheet is a full snapshot; JSON is API detail, full or partial.
    if (isZip(bytes)) {
      let ratings: Promise<CqcRatings | null> | undefined;
      const read = () => (ratings ??= ratingsOf(f, fileDate));
      return { scope: "", editionDate: fileDate, mode: "snapshot", records: (from = 0, notes) => skipRecords(hscaRecords(bytes, read, notes), from) };
    }
    if (!/^\s*[[{]/.test(text(bytes))) throw new RegisterFormatError("cqc: expected the HSCA Active Locations .ods or API JSON");
    return { scope: "", editionDate: fileDate, mode: f.mode ?? "partial", records: (from = 0) => skipRecords(parseCqcJson(bytes), from) };
  },
  complete(upstreams, f) {
    if (f.ratings || !f.bytes || !isZip(f.bytes)) return f;
    const url = upstreams.CQC_RATINGS_URL;
    return {
      ...f,
      ratings: async () => {
        if (!url) throw notConfigured("cqc-ratings", "CQC_RATINGS_URL (where CQC's ratings file is found)");
        return (await fetchCqcRatingsFile({ url, fetchImpl: ratingsFetch })).bytes;
      },
    };
  },
};
