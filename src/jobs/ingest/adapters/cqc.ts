import { windowBounds } from "../../../db/runs";
import type { Env } from "../../../env";
import { fetchCqcChanges, fetchCqcLocation, fetchCqcProvider } from "../../../sources/cqc/client";
import { parseCqcJson, parseHscaActiveLocations } from "../../../sources/cqc/parse";
import { RegisterFormatError } from "../../../sources/format-error";
import { CHUNK_ROWS, type RegisterAdapter, fileDateOf, fileOf, skipRecords, timedFetch } from "../adapter";

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
export async function cqcWindowStart(env: Env, now: Date): Promise<string> {
  const floor = new Date(now.getTime() - CQC_MAX_CATCH_UP_MS).toISOString();
  const atLeastFloor = (t: string) => (t > floor ? t : floor);
  const w = await windowBounds(env.DB, "cqc");
  const candidates = [w.completeEnd, w.pendingStart].filter((t): t is string => !!t).sort();
  return atLeastFloor(candidates[0] ?? new Date(now.getTime() - 86_400_000).toISOString());
}

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b;
const text = (b: Uint8Array) => new TextDecoder().decode(b.subarray(0, 4096));

/**
 * The Care Quality Commission register. The daily job reads the change API: the providers and
 * locations changed in a window of time (a partial edition), the window starting where the last
 * complete one ended. The CLI also takes the HSCA Active Locations spreadsheet, a full snapshot.
 */
export const cqc: RegisterAdapter = {
  chunkRows: CHUNK_ROWS,
  async fetch(env, job, now) {
    const cfg = { baseUrl: env.CQC_URL, apiKey: env.CQC_API_KEY, fetchImpl: timedFetch };
    // A message that continues a window reads on from where the previous one stopped.
    const start = job.window?.start ?? (await cqcWindowStart(env, now));
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
        url: `${env.CQC_URL}/changes?${new URLSearchParams({ startTimestamp: start, endTimestamp: end })}`,
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
    if (isZip(bytes)) return { scope: "", editionDate: fileDate, mode: "snapshot", records: (from = 0) => skipRecords(parseHscaActiveLocations(bytes), from) };
    if (!/^\s*[[{]/.test(text(bytes))) throw new RegisterFormatError("cqc: expected the HSCA Active Locations .ods or API JSON");
    return { scope: "", editionDate: fileDate, mode: f.mode ?? "partial", records: (from = 0) => skipRecords(parseCqcJson(bytes), from) };
  },
};
