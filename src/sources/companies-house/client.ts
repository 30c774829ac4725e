/**
 * Companies House public data API: the company profile (GET /company/{number}), which carries the
 * registered name, status and former names used by the register endpoints (SPEC §2.1, §2.5, §2.6).
 * The cache, the shared request budget and the clock come in through ports (src/shared/ports.ts);
 * the GET, its time limit, retry and 429 handling are the shared upstream plumbing (../upstream.ts).
 */
import { InputError, UpstreamError } from "../../shared/errors";
import type { Clock, HttpCache, RequestBudget } from "../../shared/ports";
import type { CompanyProfile } from "../../services/companies/profile";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { createUpstream, notConfigured } from "../upstream";
import { errorCodes, parseCompanyProfile } from "./parse";

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
}

/** The budget name shared by every Companies House call (600 requests / 5 minutes per key). */
export const CH_BUDGET_SOURCE = "companies-house";
const TTL_FOUND = 24 * 3600;
const TTL_NOT_FOUND = 3600;

const malformed = (message: string) => new UpstreamError(CH_BUDGET_SOURCE, "malformed", message);

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
  const upstream = createUpstream({
    source: CH_BUDGET_SOURCE,
    label: "Companies House",
    baseUrl: cfg.baseUrl,
    headers: { Authorization: `Basic ${btoa(`${cfg.apiKey ?? ""}:`)}`, Accept: "application/json" },
    cache: cfg.cache,
    budget: cfg.budget,
    clock: cfg.now,
    fetchImpl: cfg.fetchImpl,
    timeoutMs: cfg.timeoutMs,
  });
  const ttlSeconds = (status: number) => (status === 200 ? TTL_FOUND : TTL_NOT_FOUND);

  return {
    async getProfile(raw) {
      const number = normaliseCompanyNumber(raw);
      if (!number) throw new InputError("bad_request", "company must be a Companies House company number, e.g. 00445790 or SC123456", { field: "company" });
      if (!cfg.apiKey) throw notConfigured(CH_BUDGET_SOURCE, "Companies House API key");
      const r = await upstream.cachedGet(`/company/${encodeURIComponent(number)}`, {
        cacheKey: `ch:profile:${number}`,
        ttlSeconds,
        answers: [404],
        check: (status, body) => void interpret(status, body),
      });
      return interpret(r.status, r.body);
    },
  };
}
