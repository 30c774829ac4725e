import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { balanceOf, call, createTestKey, json } from "../helpers";

/**
 * A user report: the first Companies House lookup of a freshly started Worker answered 503
 * upstream_unavailable without reaching Companies House; later lookups worked.
 *
 * What "fresh" means here: each test file gets its own D1 and Durable Object storage, but the pool may
 * reuse the isolate (and so module instances) across files. The Companies House path keeps no module
 * state (the client, its D1 cache and its D1 request budget are built per call), so the state a
 * Companies House lookup starts from is its tables, and in this file they start empty: the first test
 * below is the first upstream call this Worker makes (no cached profile, no budget window yet).
 * Nothing else in this file calls Companies House before it.
 */

const realFetch = globalThis.fetch;
afterEach(() => vi.restoreAllMocks());

/** Records every Companies House request the Worker makes; `fail` replaces the answer while it is set. */
function watchCompaniesHouse(fail?: () => Promise<Response>) {
  const seen: { url: string; authorization: string | null }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith("https://ch.test/")) {
      seen.push({ url, authorization: new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get("authorization") });
      if (fail) return fail();
    }
    return realFetch(input, init);
  });
  return seen;
}

const budgetRows = () =>
  env.DB.prepare("SELECT source, used FROM upstream_budget")
    .all()
    .then((r) => r.results);
const cached = (number: string) => env.DB.prepare("SELECT status FROM http_cache WHERE key = ?").bind(`ch:profile:${number}`).first("status");

describe("the first Companies House call of a fresh Worker", () => {
  it("reaches Companies House and answers from the profile (aml-register by company number)", async () => {
    expect(await budgetRows()).toEqual([]); // the precondition: nothing has called Companies House yet
    expect(await cached("01234567")).toBeNull();
    const seen = watchCompaniesHouse();
    const { key, keyId } = await createTestKey();

    const r = await call("/api/v1/aml-register?company=01234567", { key });
    const body = await json(r);

    // The AML register is empty here, so the answer is "not on this register" under the names Companies House gave.
    expect(r.status, JSON.stringify(body)).toBe(404);
    expect(body).toMatchObject({ code: "not_found", query: "01234567" });
    expect(body.message).toContain("HARBOURSIDE LEGAL LIMITED (01234567)");
    expect(seen).toEqual([{ url: "https://ch.test/company/01234567", authorization: `Basic ${btoa("test-ch-key:")}` }]);
    expect(await budgetRows()).toEqual([{ source: "companies-house", used: 1 }]);
    expect(await cached("01234567")).toBe(200);
    expect(r.headers.get("x-credits-refunded")).toBe("1");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("a first call that cannot reach Companies House is 503 upstream_unavailable with the credit given back, logs the cause, caches nothing; the next call works", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const seen = watchCompaniesHouse(async () => {
      throw new TypeError("Network connection lost.");
    });
    const { key, keyId } = await createTestKey();

    const r = await call("/api/v1/aml-register?company=03712548", { key });
    const body = await json(r);
    expect(r.status, JSON.stringify(body)).toBe(503);
    expect(body).toMatchObject({ code: "upstream_unavailable", query: "03712548" });
    expect(r.headers.get("x-credits-refunded")).toBe("1");
    expect(await balanceOf(keyId)).toBe(100);
    // A connection-level failure is tried once more before the reply says Companies House could not be read.
    expect(seen.map((s) => s.url)).toEqual(["https://ch.test/company/03712548", "https://ch.test/company/03712548"]);
    expect(await cached("03712548")).toBeNull();
    // The reply says only that Companies House could not be read; the log line says why.
    const logged = errors.mock.calls.map(([line]) => String(line)).filter((l) => l.includes('"upstream":"companies-house"'));
    expect(logged.map((l) => JSON.parse(l))).toEqual([
      {
        requestId: expect.any(String),
        upstream: "companies-house",
        kind: "unreachable",
        error: "Companies House could not be read to find the names of company 03712548; retry shortly.",
        cause: "Companies House could not be reached: TypeError: Network connection lost.",
      },
    ]);

    vi.restoreAllMocks();
    const again = await call("/api/v1/aml-register?company=03712548", { key });
    expect(again.status).toBe(404);
    expect((await json(again)).message).toContain("MEADOW CARE HOMES LIMITED (03712548)");
    expect(await cached("03712548")).toBe(200);
  });

  it("a first connection that is lost before any answer (a stale or refused connection) is tried again at once and the lookup answers", async () => {
    let failures = 1;
    const seen = watchCompaniesHouse(async () => {
      if (failures-- > 0) throw new TypeError("Network connection lost.");
      return realFetch("https://ch.test/company/05550123");
    });
    const { key, keyId } = await createTestKey();
    const r = await call("/api/v1/aml-register?company=05550123", { key });
    expect(r.status).toBe(404);
    expect((await json(r)).message).toMatch(/\(05550123\) is not on this register/);
    expect(seen).toHaveLength(2);
    expect(await cached("05550123")).toBe(200);
    expect(await balanceOf(keyId)).toBe(100);
  });
});
