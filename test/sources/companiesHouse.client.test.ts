import { describe, expect, it } from "vitest";
import { toApiError } from "../../src/platform/errors";
import type { UpstreamError } from "../../src/shared/errors";
import { memoryHttpCache, memoryRequestBudget } from "../../src/shared/ports";
import { CH_CONCURRENCY, MAX_LIST_ITEMS, createCompaniesHouseClient } from "../../src/sources/companies-house/client";

/** Issue 12 §1: the one Companies House client every operation reads the register through. */

const officer = (i: number) => ({
  name: `SURNAME${i}, Forename`,
  officer_role: "director",
  appointed_on: "2020-01-01",
  links: { officer: { appointments: `/officers/x${i}/appointments` } },
});

/** A stand-in Companies House: routes by path, counts requests and how many were in flight at once. */
function fakeCh(route: (url: URL) => Response | Promise<Response>) {
  const seen: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchImpl = (async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    seen.push(`${url.pathname}${url.search}`);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await new Promise((r) => setTimeout(r, 5));
      return await route(url);
    } finally {
      inFlight--;
    }
  }) as typeof fetch;
  return { fetchImpl, seen, maxInFlight: () => maxInFlight };
}

const client = (fetchImpl: typeof fetch, extra: Partial<Parameters<typeof createCompaniesHouseClient>[0]> = {}) =>
  createCompaniesHouseClient({
    baseUrl: "https://ch.test",
    apiKey: "k",
    cache: memoryHttpCache(),
    budget: memoryRequestBudget({ "companies-house": { limit: 600, windowSeconds: 300 } }),
    fetchImpl,
    ...extra,
  });

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: UpstreamError) => e,
  );

describe("issue 12 §1 the Companies House client", () => {
  it("reads a long officer list page by page, at most four pages at a time, up to its cap; numbers are normalised", async () => {
    const total = 1200;
    const ch = fakeCh((url) => {
      const start = Number(url.searchParams.get("start_index"));
      const per = Number(url.searchParams.get("items_per_page"));
      const items = Array.from({ length: Math.min(per, total - start) }, (_, i) => officer(start + i));
      return Response.json({ kind: "officer-list", total_results: total, active_count: total, items_per_page: per, start_index: start, items });
    });
    const list = await client(ch.fetchImpl).getOfficers("445790");
    expect(list!.items).toHaveLength(MAX_LIST_ITEMS);
    expect(ch.seen[0]).toBe("/company/00445790/officers?items_per_page=100&start_index=0");
    expect(ch.seen).toHaveLength(MAX_LIST_ITEMS / 100);
    expect(ch.maxInFlight()).toBeLessThanOrEqual(CH_CONCURRENCY);
    expect(ch.maxInFlight()).toBeGreaterThan(1);
    const sc = fakeCh(() => Response.json({ items: [], total_results: 0 }));
    await client(sc.fetchImpl).getPscs("sc123456");
    expect(sc.seen[0]).toMatch(/^\/company\/SC123456\/persons-with-significant-control\?/);
  });

  it("a sub-resource Companies House does not have (404: no charges, no insolvency) is null, and is cached", async () => {
    const ch = fakeCh(() => Response.json({ errors: [{ error: "not-found", type: "ch:service" }] }, { status: 404 }));
    const c = client(ch.fetchImpl);
    expect(await c.getCharges("01234567")).toBeNull();
    expect(await c.getInsolvency("01234567")).toBeNull();
    expect(await c.getCharges("01234567")).toBeNull();
    expect(ch.seen).toHaveLength(2);
  });

  it("SPEC §7 an upstream 429 in the middle of a call is a rate-limited upstream error (503 to the caller), never 'none'", async () => {
    let n = 0;
    const ch = fakeCh((url) => {
      n++;
      if (n === 3) return new Response("", { status: 429 });
      const start = Number(url.searchParams.get("start_index"));
      return Response.json({ total_results: 300, items_per_page: 100, start_index: start, items: Array.from({ length: 100 }, (_, i) => officer(start + i)) });
    });
    const e = await failure(client(ch.fetchImpl).getOfficers("01234567"));
    expect(e).toMatchObject({ name: "UpstreamError", kind: "rate_limited" });
    expect(toApiError(e).code).toBe("upstream_unavailable");
  });

  it("when Companies House says no requests are left (X-Ratelimit-Remain: 0), calls stop until its reset without spending requests", async () => {
    const now = 1_800_000_000_000;
    const ch = fakeCh(() =>
      Response.json({ items: [], total_results: 0 }, { headers: { "X-Ratelimit-Remain": "0", "X-Ratelimit-Reset": String(now / 1000 + 90) } }),
    );
    const c = client(ch.fetchImpl, { now: () => now });
    await c.getPscStatements("01234567");
    const e = await failure(c.getCharges("01234567"));
    expect(e).toMatchObject({ kind: "rate_limited", retryAfter: 90 });
    expect(ch.seen).toHaveLength(1);
  });

  it("one budget is shared by concurrent calls: with 3 requests left, 6 calls at once make exactly 3 requests", async () => {
    const ch = fakeCh(() => Response.json({ total_count: 0, items: [] }));
    const budget = memoryRequestBudget({ "companies-house": { limit: 3, windowSeconds: 300 } });
    const numbers = ["00000001", "00000002", "00000003", "00000004", "00000005", "00000006"];
    const results = await Promise.all(
      numbers.map((n) =>
        client(ch.fetchImpl, { budget })
          .getCharges(n)
          .then(
            () => "ok",
            (e: UpstreamError) => e.kind,
          ),
      ),
    );
    expect(results.filter((r) => r === "ok")).toHaveLength(3);
    expect(results.filter((r) => r === "rate_limited")).toHaveLength(3);
    expect(ch.seen).toHaveLength(3);
  });

  it("search asks Companies House's own index, company level only, and a bad number is refused before any request", async () => {
    const ch = fakeCh(() =>
      Response.json({
        kind: "search#companies",
        total_results: 1,
        items_per_page: 20,
        start_index: 0,
        items: [
          {
            kind: "searchresults#company",
            title: "YOU LIMITED",
            company_number: "04475590",
            company_status: "active",
            company_type: "ltd",
            address_snippet: "1 High Street, Leeds, LS1 1AA",
            address: { locality: "Leeds", postal_code: "LS1 1AA" },
          },
        ],
      }),
    );
    const r = await client(ch.fetchImpl).searchCompanies(" you  ", 20);
    expect(ch.seen[0]).toBe("/search/companies?q=you&items_per_page=20");
    expect(r.items[0]).toMatchObject({ number: "04475590", name: "YOU LIMITED", postcode: "LS1 1AA" });
    const bad = await failure(client(ch.fetchImpl).getOfficers("not a number"));
    expect(toApiError(bad)).toMatchObject({ code: "bad_request" });
    expect(ch.seen).toHaveLength(1);
  });
});
