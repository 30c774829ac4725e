/**
 * Companies House public data API: the company profile (GET /company/{number}), which carries the
 * registered name, status and former names used by the register endpoints (SPEC §2.1, §2.5, §2.6).
 * The cache, the shared request budget and the clock come in through ports (src/shared/ports.ts);
 * the GET, its time limit, retry and 429 handling are the shared upstream plumbing (../upstream.ts).
 */
import { InputError, UpstreamError } from "../../shared/errors";
import type { Clock, HttpCache, RequestBudget } from "../../shared/ports";
import type { CompanyProfile } from "../../services/companies/profile";
import type { ChargeList, CompanySearchResults, FilingHistory, Insolvency, OfficerList, PscList, PscStatementList } from "../../services/companies/records";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { createUpstream, mapLimited, notConfigured } from "../upstream";
import {
  errorCodes,
  parseChargeList,
  parseCompanyProfile,
  parseFilingHistory,
  parseInsolvency,
  parseOfficerList,
  parsePscList,
  parsePscStatements,
  parseSearchResults,
} from "./parse";

export interface CompaniesHouseConfig {
  baseUrl: string;
  apiKey?: string;
  cache: HttpCache;
  budget: RequestBudget;
  fetchImpl?: typeof fetch;
  now?: Clock;
  timeoutMs?: number;
}

export interface CompaniesHouse {
  /** The company's profile, or null when Companies House has no such company. Throws UpstreamError when it cannot be read. */
  getProfile(number: string): Promise<CompanyProfile | null>;
  /** Every officer (all pages, up to MAX_LIST_ITEMS), or null when the company has no officer list. */
  getOfficers(number: string): Promise<OfficerList | null>;
  /** Every person with significant control (all pages, up to MAX_LIST_ITEMS), or null when there is no register. */
  getPscs(number: string): Promise<PscList | null>;
  /** PSC statements (e.g. no registrable person), or null when there are none. */
  getPscStatements(number: string): Promise<PscStatementList | null>;
  /** Registered charges, or null when the company has none (Companies House answers 404). */
  getCharges(number: string): Promise<ChargeList | null>;
  /** The newest filings first (one page of up to `limit`, default 100), optionally of one category (e.g. accounts). */
  getFilingHistory(number: string, opts?: { category?: string; limit?: number }): Promise<FilingHistory | null>;
  /** Insolvency cases, or null when the company has no insolvency history (404). */
  getInsolvency(number: string): Promise<Insolvency | null>;
  /** Companies House's own name search (company level only), best first. */
  searchCompanies(q: string, limit?: number): Promise<CompanySearchResults>;
}

/**
 * How long each resource is kept (seconds). A profile changes with each filing; officers, PSCs and filings
 * change more often than charges and insolvency, which move slowly. "Absent" (a 404 on a sub-resource: no
 * charges, no insolvency) is kept as long as a missing company. Search is kept briefly.
 */
// Profile, charges and insolvency: 12 hours. The watch list reads each watched company once a day; a cached answer
// as old as that interval could hide a day's change until the next read.
export const CH_TTL = {
  profile: 12 * 3600,
  officers: 6 * 3600,
  pscs: 6 * 3600,
  pscStatements: 6 * 3600,
  charges: 12 * 3600,
  filingHistory: 6 * 3600,
  insolvency: 12 * 3600,
  search: 3600,
  absent: 3600,
} as const;

/** Lists longer than this (officers, PSCs) are read to here: the API pages by 100 at most. */
export const MAX_LIST_ITEMS = 500;
/** Reads at a time when one call needs several (the pages of a long list). */
export const CH_CONCURRENCY = 4;
const PAGE = 100;

/** The budget name shared by every Companies House call (600 requests / 5 minutes per key). */
export const CH_BUDGET_SOURCE = "companies-house";

export const malformed = (message: string) => new UpstreamError(CH_BUDGET_SOURCE, "malformed", message);

/**
 * The GET every Companies House API is read with (the public data API and the Document API): the key as HTTP
 * Basic user, and the one request budget and cache they share.
 */
export function companiesHouseUpstream(cfg: CompaniesHouseConfig, label: string, timeoutMs = cfg.timeoutMs) {
  return createUpstream({
    source: CH_BUDGET_SOURCE,
    label,
    baseUrl: cfg.baseUrl,
    headers: { Authorization: `Basic ${btoa(`${cfg.apiKey ?? ""}:`)}`, Accept: "application/json" },
    cache: cfg.cache,
    budget: cfg.budget,
    clock: cfg.now,
    fetchImpl: cfg.fetchImpl,
    timeoutMs,
  });
}

/** 200 → profile, 404 company-profile-not-found → null; anything else throws (and so is never cached). */
function interpret(status: number, body: string): CompanyProfile | null {
  if (status === 404) {
    const codes = errorCodes(body);
    if (codes.length === 0 || codes.includes("company-profile-not-found")) return null;
    throw new UpstreamError(CH_BUDGET_SOURCE, "not_found", `Companies House answered 404 ${codes.join(", ")}`, { status });
  }
  const profile = parseCompanyProfile(body);
  if (!profile) throw malformed("Companies House returned an unreadable company profile");
  return profile;
}

export function createCompaniesHouseClient(cfg: CompaniesHouseConfig): CompaniesHouse {
  const upstream = companiesHouseUpstream(cfg, "Companies House");
  const ttlOf = (found: number) => (status: number) => (status === 200 ? found : CH_TTL.absent);
  const ttlSeconds = ttlOf(CH_TTL.profile);
  const numberOf = (raw: string) => {
    const number = normaliseCompanyNumber(raw);
    if (!number) throw new InputError("bad_request", "company must be a Companies House company number, e.g. 00445790 or SC123456", { field: "company" });
    if (!cfg.apiKey) throw notConfigured(CH_BUDGET_SOURCE, "Companies House API key");
    return number;
  };

  /**
   * GET a sub-resource of a company: 404 means it is absent (no charges, no insolvency history), any other failure
   * throws. A body that is not the resource is malformed, and is never cached.
   */
  async function subResource<T>(path: string, key: string, ttl: number, parse: (body: string) => T | null): Promise<T | null> {
    const r = await upstream.cachedGet(path, {
      cacheKey: key,
      ttlSeconds: ttlOf(ttl),
      answers: [404],
      check: (status, body) => {
        if (status === 200 && parse(body) === null) throw malformed(`Companies House returned an unreadable ${key.split(":")[1]} reply`);
      },
    });
    return r.status === 404 ? null : parse(r.body);
  }

  /** A paged list: the first page, then the rest (at most CH_CONCURRENCY at a time), up to MAX_LIST_ITEMS. */
  async function allPages<T extends { items: unknown[]; totalResults: number | null }>(
    path: string,
    key: string,
    ttl: number,
    parse: (body: string) => T | null,
  ): Promise<T | null> {
    const first = await subResource(`${path}?items_per_page=${PAGE}&start_index=0`, `${key}:0`, ttl, parse);
    if (!first) return null;
    const total = Math.min(first.totalResults ?? first.items.length, MAX_LIST_ITEMS);
    const starts: number[] = [];
    for (let at = PAGE; at < total; at += PAGE) starts.push(at);
    const rest = await mapLimited(starts, CH_CONCURRENCY, (at) => subResource(`${path}?items_per_page=${PAGE}&start_index=${at}`, `${key}:${at}`, ttl, parse));
    return { ...first, items: [...first.items, ...rest.flatMap((p) => p?.items ?? [])] };
  }

  return {
    async getProfile(raw: string): Promise<CompanyProfile | null> {
      const number = numberOf(raw);
      const r = await upstream.cachedGet(`/company/${encodeURIComponent(number)}`, {
        cacheKey: `ch:profile:${number}`,
        ttlSeconds,
        answers: [404],
        check: (status, body) => void interpret(status, body),
      });
      return interpret(r.status, r.body);
    },
    getOfficers: async (raw) => {
      const n = numberOf(raw);
      return allPages(`/company/${n}/officers`, `ch:officers:${n}`, CH_TTL.officers, parseOfficerList);
    },
    getPscs: async (raw) => {
      const n = numberOf(raw);
      return allPages(`/company/${n}/persons-with-significant-control`, `ch:pscs:${n}`, CH_TTL.pscs, parsePscList);
    },
    getPscStatements: async (raw) => {
      const n = numberOf(raw);
      return subResource(`/company/${n}/persons-with-significant-control-statements`, `ch:psc-statements:${n}`, CH_TTL.pscStatements, parsePscStatements);
    },
    getCharges: async (raw) => {
      const n = numberOf(raw);
      return subResource(`/company/${n}/charges?items_per_page=${PAGE}`, `ch:charges:${n}`, CH_TTL.charges, parseChargeList);
    },
    getFilingHistory: async (raw, opts = {}) => {
      const n = numberOf(raw);
      const q = new URLSearchParams({ items_per_page: String(Math.min(opts.limit ?? PAGE, PAGE)), ...(opts.category ? { category: opts.category } : {}) });
      return subResource(`/company/${n}/filing-history?${q}`, `ch:filing-history:${n}:${q}`, CH_TTL.filingHistory, parseFilingHistory);
    },
    getInsolvency: async (raw) => {
      const n = numberOf(raw);
      return subResource(`/company/${n}/insolvency`, `ch:insolvency:${n}`, CH_TTL.insolvency, parseInsolvency);
    },
    async searchCompanies(q, limit = 20) {
      if (!cfg.apiKey) throw notConfigured(CH_BUDGET_SOURCE, "Companies House API key");
      const query = new URLSearchParams({ q: q.trim(), items_per_page: String(Math.max(1, Math.min(limit, 100))) });
      const r = await subResource(`/search/companies?${query}`, `ch:search:${query}`, CH_TTL.search, parseSearchResults);
      if (!r) throw malformed("Companies House search answered 404");
      return r;
    },
  };
}
