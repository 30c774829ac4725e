/**
 * Finds and opens the monthly Basic Company Data file: `BasicCompanyDataAsOneFile-YYYY-MM-01.zip` under
 * COMPANIES_HOUSE_BULK_URL, compiled to the end of the previous month and published within about five
 * working days, so early in a month the newest file may still be last month's. The zip (about 0.5 GB) is
 * read as it arrives, never held: each `open()` downloads it again, so a chunk of the queue can resume.
 */
import { answeredBadly, unreachable } from "../upstream";
import { unzipMember } from "../zip";

export interface BulkEdition {
  url: string;
  fileName: string;
  editionDate: string;
  /** A fresh stream of the unzipped CSV. */
  open(): AsyncGenerator<Uint8Array>;
}

const SOURCE = "companies-house-bulk";

export const bulkFileName = (editionDate: string) => `BasicCompanyDataAsOneFile-${editionDate}.zip`;

/** The first of `now`'s month and of the month before, newest first (YYYY-MM-01). */
export function candidateEditions(now: Date): string[] {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  return [new Date(Date.UTC(y, m, 1)), new Date(Date.UTC(y, m - 1, 1))].map((d) => d.toISOString().slice(0, 10));
}

/** Bytes that start a zip archive (a local file header). */
export const isZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

/** The CSV inside a Basic Company Data zip, as it is inflated. */
export const csvOfZip = (body: ReadableStream<Uint8Array>) => unzipMember(body, (name) => /\.csv$/i.test(name), "companies: Basic Company Data zip");

async function get(url: string, fetchImpl: typeof fetch, method: "GET" | "HEAD" = "GET"): Promise<Response> {
  try {
    return await fetchImpl(url, { method });
  } catch (e) {
    throw unreachable(SOURCE, `companies: ${url} could not be fetched (${(e as Error).message})`, e);
  }
}

/**
 * The newest monthly edition newer than `after` (the published edition's date), or null when there is
 * none yet. A 404 for this month's file means it is not published yet; any other failure is an upstream error.
 */
export async function findBulkEdition(cfg: { baseUrl: string; fetchImpl?: typeof fetch }, now: Date, after: string | null): Promise<BulkEdition | null> {
  const fetchImpl = cfg.fetchImpl ?? fetch;
  const base = cfg.baseUrl.replace(/\/+$/, "");
  for (const date of candidateEditions(now)) {
    if (after && date <= after) return null;
    const fileName = bulkFileName(date);
    const url = `${base}/${fileName}`;
    const res = await get(url, fetchImpl, "HEAD");
    await res.body?.cancel();
    if (res.status === 404) continue;
    if (!res.ok) throw answeredBadly(SOURCE, res.status, `companies: ${fileName} answered HTTP ${res.status}`);
    return {
      url,
      fileName,
      editionDate: date,
      async *open() {
        const r = await get(url, fetchImpl);
        if (!r.ok || !r.body) {
          await r.body?.cancel();
          throw answeredBadly(SOURCE, r.status, `companies: ${fileName} answered HTTP ${r.status}`);
        }
        yield* csvOfZip(r.body);
      },
    };
  }
  return null;
}
