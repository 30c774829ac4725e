import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { d1HttpCache } from "../../src/db/httpCache";
import { d1RequestBudget } from "../../src/db/upstreamBudget";
import { type ApiError, InputError, UpstreamError, toApiError } from "../../src/platform/errors";
import { registerCompany } from "../../src/services/companies/profile";
import type { RequestBudget } from "../../src/shared/ports";
import { type CompaniesHouseConfig, createCompaniesHouseClient } from "../../src/sources/companies-house/client";

const fixture = (name: string) => fetch(`http://files.test/companies-house/${name}`).then((r) => r.text());

/** A fetch stand-in that records each call and answers from `answer`. */
function fakeFetch(answer: (url: string, init?: RequestInit) => Response | Promise<Response>) {
  const calls: { url: string; authorization: string | null }[] = [];
  const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), authorization: new Headers(init?.headers).get("Authorization") });
    return answer(String(input), init);
  }) as typeof fetch;
  return { f, calls };
}

/** A budget that always allows and counts takes. */
function countingBudget() {
  const taken: string[] = [];
  const budget: RequestBudget = { take: async (source) => (taken.push(source), { ok: true }) };
  return { budget, taken };
}

function client(fetchImpl: typeof fetch, extra: Partial<CompaniesHouseConfig> = {}) {
  return createCompaniesHouseClient({
    baseUrl: "https://ch.test/",
    apiKey: "my-key",
    cache: d1HttpCache(env.DB),
    budget: countingBudget().budget,
    fetchImpl,
    ...extra,
  });
}

/** What the client threw (an upstream or input error, never an HTTP reply), as the one mapper turns it into the caller's error. */
async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof UpstreamError || e instanceof InputError) return toApiError(e);
    throw e;
  }
  throw new Error("expected an UpstreamError or InputError");
}

const cacheRow = (key: string) =>
  env.DB.prepare("SELECT status, fetched_at, expires_at FROM http_cache WHERE key = ?")
    .bind(key)
    .first<{ status: number; fetched_at: number; expires_at: number }>();

describe("Companies House company profile (SPEC §2.1)", () => {
  it("SPEC §2.1 parses a profile with former names, status detail and overdue accounts", async () => {
    const body = await fixture("profile_SC612345.json");
    const { f, calls } = fakeFetch(() => new Response(body, { status: 200 }));
    const p = await client(f).getProfile(" sc 612345 ");
    expect(calls.map((c) => c.url)).toEqual(["https://ch.test/company/SC612345"]);
    expect(p).toEqual({
      number: "SC612345",
      name: "HARBOURSIDE ROPEWORKS LTD",
      status: "active",
      statusDetail: "active-proposal-to-strike-off",
      type: "ltd",
      incorporatedOn: "2018-11-02",
      ceasedOn: null,
      jurisdiction: "scotland",
      registeredOffice: {
        line1: "12 Commercial Street",
        line2: "Leith",
        locality: "Edinburgh",
        region: null,
        postcode: "EH6 6JA",
        country: "Scotland",
        text: "12 Commercial Street, Leith, Edinburgh, EH6 6JA, Scotland",
      },
      previousNames: [
        { name: "LEITH NETS & TWINE LTD", from: "2019-07-01", until: "2021-03-15" },
        { name: "HARBOURSIDE 2018 LTD", from: "2018-11-02", until: "2019-07-01" },
      ],
      sicCodes: ["13940", "46190"],
      accountsOverdue: true,
      confirmationStatementOverdue: false,
      filingDates: {
        accountsDueOn: "2024-06-30",
        accountsMadeUpTo: "2023-09-30",
        confirmationStatementDueOn: "2024-11-16",
        confirmationStatementMadeUpTo: "2024-11-02",
      },
      hasFilingDeadlines: true,
      lastAccountsType: "micro-entity",
    });
    expect(registerCompany(p!)).toEqual({
      name: "HARBOURSIDE ROPEWORKS LTD",
      number: "SC612345",
      status: "active",
      statusDetail: "active-proposal-to-strike-off",
      filingsOverdue: true,
      registeredOffice: "12 Commercial Street, Leith, Edinburgh, EH6 6JA, Scotland",
    });
  });

  it("SPEC §2.1 omits statusDetail and filingsOverdue when the register has neither; unknown members are ignored", async () => {
    const body = await fixture("profile_OE001234.json");
    const p = await client(fakeFetch(() => new Response(body)).f).getProfile("oe1234");
    expect(p!.previousNames).toEqual([]);
    expect(p!.sicCodes).toEqual([]);
    expect(p!.registeredOffice.line1).toBe("Maison Atlantique, Boulevard Royal");
    expect(registerCompany(p!)).toEqual({
      name: "ATLANTIC QUAY HOLDINGS S.A.",
      number: "OE001234",
      status: "registered",
      registeredOffice: "Maison Atlantique, Boulevard Royal, Luxembourg, L-2449, Luxembourg",
    });
  });

  it.skipIf(!env.SHARED_PRESENT)("SPEC §2.1 parses a real Companies House profile response", async () => {
    const body = await fetch("http://shared.test/data/companies-house-api/fixtures/herrbert74__company_candour.json").then((r) => r.text());
    const p = await client(fakeFetch(() => new Response(body)).f).getProfile("8957400");
    expect(p!.previousNames).toEqual([{ name: "LONDON & KENT ESTATES LIMITED", from: "2014-03-25", until: "2020-04-20" }]);
    expect(registerCompany(p!)).toEqual({
      name: "CANDOUR GROUP LIMITED",
      number: "08957400",
      status: "active",
      filingsOverdue: false,
      registeredOffice: "71 New Dover Road, Canterbury, CT1 3DZ, England",
    });
  });

  it("sends HTTP Basic auth with the key as user name and an empty password", async () => {
    const body = await fixture("profile_SC612345.json");
    const { f, calls } = fakeFetch(() => new Response(body));
    await client(f).getProfile("SC612346");
    expect(calls[0].authorization).toBe("Basic bXkta2V5Og=="); // base64("my-key:")
  });

  it("refuses without a key, and rejects an invalid number as bad_request on field company", async () => {
    const { f, calls } = fakeFetch(() => new Response("{}"));
    const noKey = await apiError(client(f, { apiKey: undefined }).getProfile("00445790"));
    expect([noKey.code, noKey.message]).toEqual(["upstream_unavailable", "Companies House API key not configured"]);
    const bad = await apiError(client(f).getProfile("not a number"));
    expect([bad.code, bad.options.field]).toEqual(["bad_request", "company"]);
    expect(calls).toHaveLength(0);
  });

  it("404 company-profile-not-found → null, negatively cached for 1 h (both error body shapes)", async () => {
    let t = 1_000_000;
    for (const [number, file] of [
      ["00000404", "not_found.json"],
      ["00000405", "not_found_flat.json"],
    ]) {
      const body = await fixture(file);
      const { f, calls } = fakeFetch(() => new Response(body, { status: 404 }));
      const { budget, taken } = countingBudget();
      const c = client(f, { budget, now: () => t });
      expect(await c.getProfile(number)).toBeNull();
      expect((await cacheRow(`ch:profile:${number}`))?.status).toBe(404);
      t += 3599_000;
      expect(await c.getProfile(number)).toBeNull();
      expect([calls.length, taken.length]).toEqual([1, 1]); // cached answers spend no budget
      t += 2_000; // past the hour
      expect(await c.getProfile(number)).toBeNull();
      expect([calls.length, taken.length]).toEqual([2, 2]);
    }
  });

  it("a cached 200 is served for 12 h (less than the watch list's day between reads) without calling fetch or spending budget", async () => {
    const body = await fixture("profile_SC612345.json");
    const { f, calls } = fakeFetch(() => new Response(body));
    const { budget, taken } = countingBudget();
    let t = 5_000_000;
    const c = client(f, { budget, now: () => t });
    const first = await c.getProfile("SC700001");
    const row = await cacheRow("ch:profile:SC700001");
    expect(row?.status).toBe(200);
    expect(row?.fetched_at).toBe(5_000_000);
    expect(Math.abs(row!.expires_at - (Date.now() + 43_200_000))).toBeLessThan(60_000);
    t += 43_199_000;
    expect(await c.getProfile("SC700001")).toEqual(first);
    expect([calls.length, taken]).toEqual([1, ["companies-house"]]);
    t += 2_000;
    await c.getProfile("SC700001");
    expect(calls.length).toBe(2);
  });

  it("upstream 5xx, 429, time-out and network errors → upstream_unavailable and nothing cached", async () => {
    const cases: [string, (url: string, init?: RequestInit) => Response | Promise<Response>][] = [
      ["00000500", () => new Response("<html>bad gateway</html>", { status: 502 })],
      ["00000429", () => new Response('{"errors":[{"error":"rate-limit-exceeded"}]}', { status: 429 })],
      ["00000408", (_u, init) => new Promise<Response>((_, reject) => init!.signal!.addEventListener("abort", () => reject(new Error("aborted"))))],
      ["00000599", () => Promise.reject(new TypeError("Network connection lost."))],
      ["00000406", () => new Response('{"errors":[{"error":"not-found"}]}', { status: 404 })], // a 404 that is not a missing company
      ["00000200", () => new Response("<html>maintenance</html>", { status: 200 })],
    ];
    for (const [number, answer] of cases) {
      const { budget, taken } = countingBudget();
      const e = await apiError(client(fakeFetch(answer).f, { budget, timeoutMs: 50 }).getProfile(number));
      expect([number, e.code]).toEqual([number, "upstream_unavailable"]);
      expect(taken).toHaveLength(1);
      expect(await cacheRow(`ch:profile:${number}`)).toBeNull();
    }
  });

  it("429 with X-Ratelimit-Reset gives retryAfter to the reset", async () => {
    const f = fakeFetch(() => new Response("", { status: 429, headers: { "X-Ratelimit-Reset": "1000120" } })).f;
    const e = await apiError(client(f, { now: () => 1_000_000_000 }).getProfile("00000430"));
    expect([e.code, e.options.retryAfter]).toEqual(["upstream_unavailable", 120]);
  });

  it("takes budget before the request; a refused budget → upstream_unavailable with retryAfter, no fetch", async () => {
    const { f, calls } = fakeFetch(() => new Response("{}"));
    const budget: RequestBudget = { take: async () => ({ ok: false, retryAfterSeconds: 42 }) };
    const e = await apiError(client(f, { budget }).getProfile("00000601"));
    expect([e.code, e.options.retryAfter, calls.length]).toEqual(["upstream_unavailable", 42, 0]);
    expect(e.message).toMatch(/budget/);
  });
});

describe("D1 request budget", () => {
  it("with a limit of 5, 8 concurrent takes give exactly 5 ok; the rest wait to the window end", async () => {
    const b = d1RequestBudget(env.DB, { burst: { limit: 5, windowSeconds: 300 } });
    const now = 1_800_000_060_000; // 60 s into a 300 s window
    const results = await Promise.all(Array.from({ length: 8 }, () => b.take("burst", now)));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok)).toEqual(Array(3).fill({ ok: false, retryAfterSeconds: 240 }));
  });

  it("rolls over to a new window and drops the old one", async () => {
    const b = d1RequestBudget(env.DB, { roll: { limit: 2, windowSeconds: 300 } });
    const t0 = 1_800_000_000_000;
    expect((await b.take("roll", t0)).ok).toBe(true);
    expect((await b.take("roll", t0 + 1000)).ok).toBe(true);
    expect(await b.take("roll", t0 + 299_500)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(await b.take("roll", t0 + 300_000)).toEqual({ ok: true });
    const rows = await env.DB.prepare("SELECT window_start, used FROM upstream_budget WHERE source = 'roll'").all();
    expect(rows.results).toEqual([{ window_start: 1_800_000_300, used: 1 }]);
  });

  it("defaults to 600 requests per 5 minutes for companies-house and refuses unknown sources", async () => {
    const b = d1RequestBudget(env.DB);
    const now = 1_900_000_000_000;
    const results = await Promise.all(Array.from({ length: 601 }, () => b.take("companies-house", now)));
    expect(results.filter((r) => r.ok)).toHaveLength(600);
    await expect(b.take("companies-hose", now)).rejects.toThrow(/no request budget/);
  });
});
