/**
 * The Gazette's notice feed (shared/formats/gazette.md), read for one company's corporate insolvency notices:
 * a search of category 24 by the company's name (newest first, up to MAX_PAGES pages of PAGE_SIZE), then, for
 * the few notices whose title is the company's name but which state no number, the notice's linked data
 * (`/notice/{id}/data.json?view=linked-data`), which carries the company number when the Gazette has it.
 * Which notices are the company's is decided in services/risk/gazette.ts (matchNotices).
 *
 * Answers are cached (searches 6 hours, a notice's linked data 30 days: a published notice does not change) and
 * counted against the Gazette's request budget. Anything but a readable feed throws UpstreamError: a failed read
 * is never "no notices".
 */
import { type CompanyForNotices, type GazetteNotice, type MatchedNotice, candidatesForLinkedData, matchNotices } from "../../services/risk/gazette";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import type { Clock, HttpCache, RequestBudget } from "../../shared/ports";
import { UpstreamError } from "../../shared/errors";
import { createUpstream } from "../upstream";
import { parseNoticeFeed } from "./parse";

export const GAZETTE_SOURCE = "gazette";
const PAGE_SIZE = 100;
const MAX_PAGES = 3;
const LINKED_DATA_LOOKUPS = 5;
const TTL = { search: 6 * 3600, notice: 30 * 86400 };

export interface GazetteConfig {
  baseUrl: string;
  cache?: HttpCache;
  budget?: RequestBudget;
  fetchImpl?: typeof fetch;
  now?: Clock;
  timeoutMs?: number;
}

export interface GazetteInsolvencyNotices {
  /** The company's notices, as matched. */
  matched: MatchedNotice[];
  /** Notices read from the feed for the name searched. */
  read: number;
  /** True when the feed had more notices than were read (MAX_PAGES × PAGE_SIZE). */
  truncated: boolean;
}

export interface Gazette {
  /** The company's corporate insolvency notices (category 24). Throws UpstreamError when the Gazette cannot be read. */
  insolvencyNotices(company: CompanyForNotices): Promise<GazetteInsolvencyNotices>;
}

/** The company number in a notice's linked data (JSON-LD): the first member named …companyNumber, at any depth. */
export function linkedDataCompanyNumber(body: string): string | null {
  let j: unknown;
  try {
    j = JSON.parse(body);
  } catch {
    return null;
  }
  const stack: unknown[] = [j];
  for (let seen = 0; stack.length && seen < 5000; seen++) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (/companyNumber$/i.test(k)) {
          for (const v of Array.isArray(x) ? x : [x]) {
            const raw = v && typeof v === "object" ? ((v as Record<string, unknown>)["@value"] ?? (v as Record<string, unknown>)["value"]) : v;
            const n = typeof raw === "string" || typeof raw === "number" ? normaliseCompanyNumber(String(raw)) : null;
            if (n) return n;
          }
        } else stack.push(x);
      }
    }
  }
  return null;
}

export function createGazetteClient(cfg: GazetteConfig): Gazette {
  const upstream = createUpstream({
    source: GAZETTE_SOURCE,
    label: "The Gazette",
    baseUrl: cfg.baseUrl,
    headers: { Accept: "application/json" },
    cache: cfg.cache,
    budget: cfg.budget,
    clock: cfg.now,
    fetchImpl: cfg.fetchImpl,
    timeoutMs: cfg.timeoutMs ?? 8000,
  });
  const malformed = (what: string) => new UpstreamError(GAZETTE_SOURCE, "malformed", `The Gazette returned an unreadable ${what}`);

  async function searchPage(name: string, page: number) {
    const q = new URLSearchParams({
      categorycode: "24",
      text: `"${name}"`,
      "results-page-size": String(PAGE_SIZE),
      "results-page": String(page),
      "sort-by": "latest-date",
    });
    const r = await upstream.cachedGet(`/insolvency/notice/data.json?${q}`, {
      cacheKey: `gazette:search:${name.toLowerCase()}:${page}`,
      ttlSeconds: (s) => (s === 200 ? TTL.search : 0),
      check: (_s, body) => {
        if (!parseNoticeFeed(body)) throw malformed("notice feed");
      },
    });
    return parseNoticeFeed(r.body)!;
  }

  async function linkedNumber(notice: GazetteNotice): Promise<string | null> {
    const r = await upstream.cachedGet(`/notice/${encodeURIComponent(notice.id)}/data.json?view=linked-data`, {
      cacheKey: `gazette:notice:${notice.id}`,
      ttlSeconds: (s) => (s === 200 || s === 404 ? TTL.notice : 0),
      answers: [404],
    });
    return r.status === 200 ? linkedDataCompanyNumber(r.body) : null;
  }

  return {
    async insolvencyNotices(company) {
      const notices: GazetteNotice[] = [];
      let truncated = false;
      for (let page = 1; page <= MAX_PAGES; page++) {
        const feed = await searchPage(company.name.trim(), page);
        notices.push(...feed.notices);
        const total = feed.total ?? notices.length;
        if (!feed.nextPage || notices.length >= total || !feed.notices.length) break;
        if (page === MAX_PAGES) truncated = true;
      }
      // Same name, no number stated: the notice's linked data may give the number (a few, newest first).
      for (const n of candidatesForLinkedData(notices, company, LINKED_DATA_LOOKUPS)) {
        const number = await linkedNumber(n);
        if (number) n.companyNumber = number;
      }
      return { matched: matchNotices(notices, company), read: notices.length, truncated };
    },
  };
}
