/**
 * CQC syndication API client: ids changed in a time window, and location/provider detail objects
 * (raw JSON; parse them with ./parse). Every call carries the free developer-portal key in
 * `Ocp-Apim-Subscription-Key`. Also the download of CQC's ratings file (no key), read by ./ratings.
 */
import { UpstreamError } from "../../shared/errors";
import { answeredBadly, createUpstream, notConfigured, unreachable } from "../upstream";
import { cqcFileDate, isRatingsFileName } from "./ratings";

export interface CqcClientConfig {
  /** e.g. `https://api.service.cqc.org.uk/public/v1` */
  baseUrl: string;
  apiKey?: string;
  fetchImpl?: typeof fetch;
}

/** A runaway guard for `nextPageUri` loops. */
const MAX_PAGES = 500;

const fail = (what: string): never => {
  throw new UpstreamError("cqc", "malformed", `cqc: ${what}`);
};

/** GET one absolute URL of the API (pages come as absolute or relative URIs) through the shared upstream plumbing. */
async function getJson(cfg: CqcClientConfig, url: string): Promise<unknown> {
  if (!cfg.apiKey) throw notConfigured("cqc", "CQC API key");
  const upstream = createUpstream({
    source: "cqc",
    label: `cqc: GET ${url}`,
    baseUrl: "",
    headers: { "Ocp-Apim-Subscription-Key": cfg.apiKey, accept: "application/json" },
    fetchImpl: cfg.fetchImpl,
    // The daily job reads many pages; its own fetch (timedFetch) bounds a hung upstream.
    timeoutMs: 120_000,
  });
  const { body } = await upstream.cachedGet(url);
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return fail(`GET ${url} did not answer JSON`);
  }
}

const base = (cfg: CqcClientConfig) => cfg.baseUrl.replace(/\/+$/, "");

/**
 * `nextPageUri` is given relative to the API (e.g. `/changes/location?page=2&…`); it may also come
 * absolute, or with the base path (`/public/v1/…`) already in it.
 */
function resolvePage(cfg: CqcClientConfig, uri: string): string {
  if (/^https?:\/\//i.test(uri)) return uri;
  const root = new URL(base(cfg));
  if (uri.startsWith(root.pathname + "/")) return root.origin + uri;
  return base(cfg) + (uri.startsWith("/") ? uri : "/" + uri);
}

/**
 * Ids of the locations or providers changed between two ISO timestamps, following `nextPageUri`.
 * The changes response is documented only as ids plus the list paging fields (`total`, `page`,
 * `totalPages`, `nextPageUri`…); the ids are read from `changes`, or from `locations`/`providers`,
 * each item an id string or an object carrying `locationId`/`providerId`/`id`.
 */
export async function fetchCqcChanges(cfg: CqcClientConfig, kind: "location" | "provider", startTimestamp: string, endTimestamp: string): Promise<string[]> {
  const q = new URLSearchParams({ startTimestamp, endTimestamp });
  let url: string | null = `${base(cfg)}/changes/${kind}?${q}`;
  const ids: string[] = [];
  const seen = new Set<string>();
  for (let page = 0; url && page < MAX_PAGES && !seen.has(url); page++) {
    seen.add(url);
    const body = await getJson(cfg, url);
    if (typeof body !== "object" || body === null) fail(`changes/${kind} answered an unexpected shape`);
    const b = body as Record<string, unknown>;
    const list = b.changes ?? b[`${kind}s`];
    if (!Array.isArray(list)) fail(`changes/${kind} answered no id list`);
    for (const item of list as unknown[]) {
      const id =
        typeof item === "string"
          ? item
          : typeof item === "object" && item !== null
            ? ((item as Record<string, unknown>)[`${kind}Id`] ?? (item as Record<string, unknown>).id)
            : null;
      if (typeof id === "string" && id) ids.push(id);
    }
    const next = b.nextPageUri;
    const last = typeof b.page === "number" && typeof b.totalPages === "number" && b.page >= b.totalPages;
    url = !last && typeof next === "string" && next.trim() ? resolvePage(cfg, next.trim()) : null;
  }
  return ids;
}

export const fetchCqcLocation = (cfg: CqcClientConfig, id: string): Promise<unknown> => getJson(cfg, `${base(cfg)}/locations/${encodeURIComponent(id)}`);

export const fetchCqcProvider = (cfg: CqcClientConfig, id: string): Promise<unknown> => getJson(cfg, `${base(cfg)}/providers/${encodeURIComponent(id)}`);

/** The ratings file's download: its bytes, the address it came from and its file name. */
export interface CqcRatingsDownload {
  bytes: Uint8Array;
  url: string;
  fileName: string;
}

const RATINGS = "cqc-ratings";
const isZip = (b: Uint8Array) => b.length > 4 && b[0] === 0x50 && b[1] === 0x4b;

async function download(url: string, fetchImpl: typeof fetch): Promise<{ bytes: Uint8Array; url: string }> {
  let res: Response;
  try {
    res = await fetchImpl(url);
  } catch (e) {
    throw unreachable(RATINGS, `cqc ratings: ${url} could not be fetched (${(e as Error).message})`, e);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw answeredBadly(RATINGS, res.status, `cqc ratings: ${url} answered HTTP ${res.status}`);
  }
  return { bytes: new Uint8Array(await res.arrayBuffer()), url: res.url || url };
}

/**
 * CQC's current ratings file (`…_Latest_ratings.ods`) from `url`: CQC's "Using CQC data" page, whose link to
 * the file is followed (of several, the one whose name carries the latest date), or the file's own address.
 * Not found, not answered, or not a spreadsheet: an UpstreamError, so the edition it was for is not loaded.
 */
export async function fetchCqcRatingsFile(cfg: { url: string; fetchImpl?: typeof fetch }): Promise<CqcRatingsDownload> {
  const fetchImpl = cfg.fetchImpl ?? fetch;
  const first = await download(cfg.url, fetchImpl);
  const fileName = (u: string) => {
    const last = new URL(u).pathname.split("/").pop() ?? "";
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  };
  if (isZip(first.bytes)) return { ...first, fileName: fileName(first.url) };
  const html = new TextDecoder().decode(first.bytes);
  const links = [...html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)]
    .map((m) => {
      try {
        return new URL(m[1].replace(/&amp;/g, "&"), first.url).href;
      } catch {
        return null;
      }
    })
    .filter((u): u is string => u !== null && isRatingsFileName(fileName(u)));
  if (!links.length)
    throw new UpstreamError(RATINGS, "malformed", `cqc ratings: ${cfg.url} is neither the ratings file nor a page linking to one (…_Latest_ratings.ods)`);
  const newest = links.reduce((a, b) => ((cqcFileDate(fileName(b)) ?? "") > (cqcFileDate(fileName(a)) ?? "") ? b : a));
  const file = await download(newest, fetchImpl);
  if (!isZip(file.bytes)) throw new UpstreamError(RATINGS, "malformed", `cqc ratings: ${newest} did not answer a spreadsheet`);
  return { ...file, fileName: fileName(file.url) };
}
