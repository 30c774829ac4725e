/**
 * Companies House public data API: the company profile (GET /company/{number}), which carries the
 * registered name, status and former names used by the register endpoints (SPEC §2.1, §2.5, §2.6).
 * Fetch only: the cache and the shared request budget come in through interfaces (D1 versions in src/db).
 */
import { ApiError } from "../../shared/errors";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";

export interface HttpCache {
  get(key: string): Promise<{ status: number; body: string; fetchedAt: number } | null>;
  put(key: string, v: { status: number; body: string; fetchedAt: number }, ttlSeconds: number): Promise<void>;
}

export interface RequestBudget {
  take(source: string, now: number): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
}

export interface CompaniesHouseConfig {
  baseUrl: string;
  apiKey?: string;
  cache: HttpCache;
  budget: RequestBudget;
  fetchImpl?: typeof fetch;
  /** Epoch milliseconds. */
  now?: () => number;
  timeoutMs?: number;
}

export interface CompanyProfile {
  number: string;
  name: string;
  /** company_status verbatim; "" when the register gives none. */
  status: string;
  statusDetail: string | null;
  type: string | null;
  incorporatedOn: string | null;
  ceasedOn: string | null;
  jurisdiction: string | null;
  registeredOffice: {
    line1: string | null;
    line2: string | null;
    locality: string | null;
    region: string | null;
    postcode: string | null;
    country: string | null;
    /** One-line address. */
    text: string;
  };
  previousNames: { name: string; from: string | null; until: string | null }[];
  sicCodes: string[];
  accountsOverdue: boolean;
  confirmationStatementOverdue: boolean;
  /** True when the profile has an accounts or confirmation_statement block, i.e. the overdue flags mean something. */
  hasFilingDeadlines: boolean;
}

/** The budget name shared by every Companies House call (600 requests / 5 minutes per key). */
export const CH_BUDGET_SOURCE = "companies-house";
const TTL_FOUND = 24 * 3600;
const TTL_NOT_FOUND = 3600;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
const unavailable = (message: string, retryAfter?: number) =>
  new ApiError("upstream_unavailable", message, retryAfter === undefined ? {} : { retryAfter });

/** Error codes of either body shape: `{"errors":[{"error":...}]}` or flat `{"error":...}`. */
function errorCodes(body: string): string[] {
  let j: Json | null;
  try {
    j = obj(JSON.parse(body));
  } catch {
    return [];
  }
  if (!j) return [];
  const list = Array.isArray(j.errors) ? j.errors : [j];
  return list.map((e) => str(obj(e)?.error)).filter((e): e is string => e !== null);
}

/** premises + address_line_1 the way Companies House joins them: a house number takes a space, a building name a comma. */
function firstLine(premises: string | null, line1: string | null): string | null {
  if (!premises) return line1;
  if (!line1) return premises;
  const houseNumber = /^\d+[A-Z]?(\s*[-–]\s*\d+[A-Z]?)?$/i.test(premises);
  return `${premises.replace(/,$/, "")}${houseNumber ? " " : ", "}${line1}`;
}

/** Parses a company profile body; null when it is not a profile (no name or number). */
export function parseCompanyProfile(body: string): CompanyProfile | null {
  let d: Json | null;
  try {
    d = obj(JSON.parse(body));
  } catch {
    return null;
  }
  const name = str(d?.company_name);
  const number = str(d?.company_number);
  if (!d || !name || !number) return null;

  const a = obj(d.registered_office_address) ?? {};
  const poBox = str(a.po_box);
  const office = {
    line1: firstLine(str(a.premises), str(a.address_line_1)),
    line2: str(a.address_line_2),
    locality: str(a.locality),
    region: str(a.region),
    postcode: str(a.postal_code),
    country: str(a.country),
  };
  const text = [
    poBox && (/^p\.?\s*o\.?\s*box/i.test(poBox) ? poBox : `PO Box ${poBox}`),
    office.line1, office.line2, office.locality, office.region, office.postcode, office.country,
  ].filter(Boolean).join(", ");

  const accounts = obj(d.accounts);
  const confirmation = obj(d.confirmation_statement);
  return {
    number: number.toUpperCase(),
    name,
    status: str(d.company_status) ?? "",
    statusDetail: str(d.company_status_detail),
    type: str(d.type),
    incorporatedOn: str(d.date_of_creation),
    ceasedOn: str(d.date_of_cessation),
    jurisdiction: str(d.jurisdiction),
    registeredOffice: { ...office, text: text.replace(/\s+/g, " ") },
    previousNames: (Array.isArray(d.previous_company_names) ? d.previous_company_names : []).flatMap((p) => {
      const o = obj(p);
      const n = str(o?.name);
      return n ? [{ name: n, from: str(o?.effective_from), until: str(o?.ceased_on) }] : [];
    }),
    sicCodes: (Array.isArray(d.sic_codes) ? d.sic_codes : []).map(str).filter((s): s is string => s !== null),
    // next_accounts.overdue is current; the flat accounts.overdue is deprecated but still sent.
    accountsOverdue: obj(accounts?.next_accounts)?.overdue === true || accounts?.overdue === true,
    confirmationStatementOverdue: confirmation?.overdue === true,
    hasFilingDeadlines: accounts !== null || confirmation !== null,
  };
}

/** SPEC §2.1 `company` object (plus the one-line registered office used by SPEC §2.6). */
export function registerCompany(p: CompanyProfile): {
  name: string; number: string; status: string; statusDetail?: string; filingsOverdue?: boolean; registeredOffice: string;
} {
  return {
    name: p.name,
    number: p.number,
    status: p.status,
    ...(p.statusDetail ? { statusDetail: p.statusDetail } : {}),
    ...(p.hasFilingDeadlines ? { filingsOverdue: p.accountsOverdue || p.confirmationStatementOverdue } : {}),
    registeredOffice: p.registeredOffice.text,
  };
}

export function createCompaniesHouseClient(cfg: CompaniesHouseConfig): { getProfile(number: string): Promise<CompanyProfile | null> } {
  const fetchImpl = cfg.fetchImpl ?? fetch;
  const now = cfg.now ?? Date.now;
  const timeoutMs = cfg.timeoutMs ?? 5000;
  const base = cfg.baseUrl.replace(/\/+$/, "");

  /** 200 → profile, 404 company-profile-not-found → null; anything else throws and is not cached. */
  function interpret(status: number, body: string): CompanyProfile | null {
    if (status === 404) {
      const codes = errorCodes(body);
      if (codes.length === 0 || codes.includes("company-profile-not-found")) return null;
      throw unavailable(`Companies House answered 404 ${codes.join(", ")}`);
    }
    const profile = parseCompanyProfile(body);
    if (!profile) throw unavailable("Companies House returned an unreadable company profile");
    return profile;
  }

  const client: { getProfile(number: string): Promise<CompanyProfile | null> } = {
    async getProfile(raw) {
      const number = normaliseCompanyNumber(raw);
      if (!number) throw new ApiError("bad_request", "company must be a Companies House company number, e.g. 00445790 or SC123456", { field: "company" });
      if (!cfg.apiKey) throw new ApiError("upstream_unavailable", "Companies House API key not configured");

      const key = `ch:profile:${number}`;
      const cached = await cfg.cache.get(key);
      // The client enforces its own TTLs too, so any HttpCache (and an injected clock) behaves the same.
      if (cached && now() - cached.fetchedAt < (cached.status === 200 ? TTL_FOUND : TTL_NOT_FOUND) * 1000) {
        return interpret(cached.status, cached.body);
      }

      const allowed = await cfg.budget.take(CH_BUDGET_SOURCE, now());
      if (!allowed.ok) throw unavailable("Companies House request budget used up for this window", allowed.retryAfterSeconds);

      const ctrl = new AbortController();
      const timer = setTimeout(() => ctrl.abort(), timeoutMs);
      let status: number;
      let body: string;
      let resetAt: number;
      try {
        const get = () =>
          fetchImpl(`${base}/company/${encodeURIComponent(number)}`, {
            headers: { Authorization: `Basic ${btoa(`${cfg.apiKey}:`)}`, Accept: "application/json" },
            signal: ctrl.signal,
          });
        // A GET that fails before any answer (a connection the upstream had closed, a refused first connection:
        // workerd says "Network connection lost.") is tried once more at once, within the same time limit.
        const res = await get().catch((e: unknown) => {
          if (ctrl.signal.aborted) throw e;
          return get();
        });
        status = res.status;
        resetAt = Number(res.headers.get("X-Ratelimit-Reset"));
        body = await res.text(); // inside the timer: a stalled body also times out
      } catch (e) {
        throw unavailable(ctrl.signal.aborted ? `Companies House did not answer within ${timeoutMs} ms` : `Companies House could not be reached: ${String(e)}`);
      } finally {
        clearTimeout(timer);
      }

      if (status === 429) {
        // 429 lasts to the end of CH's window; X-Ratelimit-Reset (epoch s) says when, when sent.
        const wait = resetAt > 0 ? Math.max(1, Math.ceil(resetAt - now() / 1000)) : undefined;
        throw unavailable("Companies House rate limit reached", wait);
      }
      if (status !== 200 && status !== 404) throw unavailable(`Companies House answered HTTP ${status}`);
      const result = interpret(status, body); // throws (and so caches nothing) on an unreadable answer
      await cfg.cache.put(key, { status, body, fetchedAt: now() }, status === 200 ? TTL_FOUND : TTL_NOT_FOUND);
      return result;
    },
  };

  return {
    // A caller may answer with a message of its own (the register checks do): the log keeps what went wrong upstream.
    getProfile: (raw) =>
      client.getProfile(raw).catch((e: unknown) => {
        if (e instanceof ApiError && e.code === "upstream_unavailable") console.error(JSON.stringify({ upstream: CH_BUDGET_SOURCE, company: raw, error: e.message }));
        throw e;
      }),
  };
}
