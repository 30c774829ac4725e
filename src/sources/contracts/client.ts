/**
 * Find a Tender (FTS) and Contracts Finder (CF) OCDS clients (issue 14 §1): the award releases published or
 * updated in a window of time, page by page, following each package's `links.next` cursor. No key.
 *
 * - FTS: `GET {FIND_A_TENDER_URL}/api/1.0/ocdsReleasePackages?updatedFrom=…&updatedTo=…&stages=award&limit=100`
 * - CF:  `GET {CONTRACTS_FINDER_URL}/Published/Notices/OCDS/Search?publishedFrom=…&publishedTo=…&stages=award&limit=100`
 *
 * A 429 (or a 503 that says `Retry-After`) is honoured: the client waits the seconds it asks for and asks the
 * same page again, as long as all its waits together stay within `maxWaitSeconds` (default 60); a longer or
 * further wait throws an `UpstreamError` of kind `rate_limited`, so the run fails and the next one reads the same
 * window again. A refusal is never read as "no new awards". Releases come back cut down to what the parser reads
 * (`slimRelease`), so a day of them fits in a Worker's memory.
 */
import { UpstreamError } from "../../shared/errors";
import { answeredBadly, retryAfterOf, unreachable } from "../upstream";
import { parseOcdsJson, slimRelease } from "./parse";

export interface ContractsClientConfig {
  /** e.g. `https://www.find-tender.service.gov.uk` */
  ftsUrl: string;
  /** e.g. `https://www.contractsfinder.service.gov.uk` */
  cfUrl: string;
  fetchImpl?: typeof fetch;
  /** Waits between a refusal and the retry (tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
  /** All the Retry-After waits of one call together stay within this (default 60 s). */
  maxWaitSeconds?: number;
  /** A runaway guard on `links.next` (default 50 pages of 100). */
  maxPages?: number;
}

export const CONTRACTS_PAGE_SIZE = 100;
export const CONTRACTS_MAX_WAIT_SECONDS = 60;
const MAX_PAGES = 50;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What one paged read gave: the award releases, how many pages, and how long Retry-After made it wait. */
export interface ReleasePages {
  releases: Record<string, unknown>[];
  pages: number;
  /** Seconds waited on Retry-After. */
  waited: number;
  /** The newest `publishedDate` of the pages, if any. */
  publishedDate: string | null;
}

/** `2026-10-08T04:00:00.000Z` → `2026-10-08T04:00:00` (the APIs' form). */
export const apiTimestamp = (iso: string) => new Date(iso).toISOString().slice(0, 19);

/**
 * The next page's address: `links.next` resolved against the page's own, and always asked of the configured
 * host (a cursor link naming another host is re-based, never followed there).
 */
function nextUrl(base: string, current: string, next: unknown): string | null {
  if (typeof next !== "string" || !next.trim()) return null;
  const u = new URL(next.trim(), current);
  const b = new URL(base);
  return u.origin === b.origin ? u.href : `${b.origin}${u.pathname}${u.search}`;
}

/**
 * Follows `links.next` from `url`, honouring Retry-After within the wait budget. `slim` cuts each release down to
 * what its reader needs, or drops it (null): the award releases' slimRelease by default; tender notices pass theirs.
 */
export async function fetchReleasePages(
  cfg: ContractsClientConfig,
  source: "fts" | "cf",
  url: string,
  slim: (release: unknown) => Record<string, unknown> | null = slimRelease,
): Promise<ReleasePages> {
  const fetchImpl = cfg.fetchImpl ?? fetch;
  const sleep = cfg.sleep ?? realSleep;
  const budget = cfg.maxWaitSeconds ?? CONTRACTS_MAX_WAIT_SECONDS;
  const maxPages = cfg.maxPages ?? MAX_PAGES;
  const label = source === "fts" ? "Find a Tender" : "Contracts Finder";
  const base = source === "fts" ? cfg.ftsUrl : cfg.cfUrl;
  const out: ReleasePages = { releases: [], pages: 0, waited: 0, publishedDate: null };
  const seen = new Set<string>();
  for (let at: string | null = url; at; ) {
    if (seen.has(at)) break; // a cursor that points back
    if (out.pages >= maxPages)
      throw new UpstreamError("contracts", "malformed", `${label}: more than ${maxPages} pages in one window; the run stops here and the window is read again`);
    seen.add(at);
    const page = await getPage(at);
    out.pages++;
    const pkg = page as Record<string, unknown>;
    if (!Array.isArray(pkg.releases)) throw new UpstreamError("contracts", "malformed", `${label}: GET ${at} answered no releases`);
    for (const r of pkg.releases) {
      const cut = slim(r);
      if (cut) out.releases.push(cut);
    }
    if (typeof pkg.publishedDate === "string" && (!out.publishedDate || pkg.publishedDate > out.publishedDate)) out.publishedDate = pkg.publishedDate;
    const links = pkg.links as Record<string, unknown> | undefined;
    // An empty page ends the read whatever its links say (a cursor API may always offer a next page).
    at = pkg.releases.length ? nextUrl(base, at, links?.next) : null;
  }
  return out;

  async function getPage(at: string): Promise<unknown> {
    for (;;) {
      let res: Response;
      try {
        res = await fetchImpl(at, { headers: { accept: "application/json" } });
      } catch (e) {
        throw unreachable("contracts", `${label}: GET ${at} failed: ${String(e)}`, e);
      }
      if (res.status === 429 || res.status === 503) {
        const after = retryAfterOf(res.headers, Date.now());
        await res.body?.cancel();
        if (after !== undefined && out.waited + after <= budget) {
          out.waited += after;
          await sleep(after * 1000);
          continue;
        }
        if (res.status === 503 && after === undefined) throw answeredBadly("contracts", 503, `${label}: GET ${at} answered HTTP 503`);
        throw new UpstreamError(
          "contracts",
          "rate_limited",
          `${label} answered ${res.status}${after !== undefined ? ` asking to wait ${after} s` : ""}, beyond the ${budget} s this run may wait (waited ${out.waited} s); the window is read again on the next run`,
          { status: res.status, retryAfter: after },
        );
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw answeredBadly("contracts", res.status, `${label}: GET ${at} answered HTTP ${res.status}`);
      }
      const text = await res.text();
      try {
        return parseOcdsJson(text);
      } catch {
        throw new UpstreamError("contracts", "malformed", `${label}: GET ${at} did not answer JSON`);
      }
    }
  }
}

/** FTS award releases updated in [from, to] (ISO timestamps). */
export function fetchFtsAwards(cfg: ContractsClientConfig, from: string, to: string): Promise<ReleasePages> {
  const q = new URLSearchParams({ updatedFrom: apiTimestamp(from), updatedTo: apiTimestamp(to), stages: "award", limit: String(CONTRACTS_PAGE_SIZE) });
  return fetchReleasePages(cfg, "fts", `${cfg.ftsUrl.replace(/\/+$/, "")}/api/1.0/ocdsReleasePackages?${q}`);
}

/** Contracts Finder award releases published in [from, to] (ISO timestamps). */
export function fetchCfAwards(cfg: ContractsClientConfig, from: string, to: string): Promise<ReleasePages> {
  const q = new URLSearchParams({ publishedFrom: apiTimestamp(from), publishedTo: apiTimestamp(to), stages: "award", limit: String(CONTRACTS_PAGE_SIZE) });
  return fetchReleasePages(cfg, "cf", `${cfg.cfUrl.replace(/\/+$/, "")}/Published/Notices/OCDS/Search?${q}`);
}

/**
 * Any OCDS search address given to the CLI (`npm run ingest -- contracts <url>`), followed through its cursors on
 * its own host: Contracts Finder when its path is the CF search, else Find a Tender.
 */
export async function fetchOcdsUrl(
  url: string,
  opts: Pick<ContractsClientConfig, "fetchImpl" | "sleep" | "maxWaitSeconds" | "maxPages"> = {},
): Promise<ReleasePages> {
  const origin = new URL(url).origin;
  const source = /\/Published\//i.test(new URL(url).pathname) ? "cf" : "fts";
  return fetchReleasePages({ ...opts, ftsUrl: origin, cfUrl: origin }, source, url);
}
