import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { identityVerificationOf } from "../../../src/services/companies/identity";
import { parseOfficerList, parsePscList } from "../../../src/sources/companies-house/parse";
import { balanceOf, call, createTestKey, json } from "../../helpers";

/**
 * Issue 13 §3 idv-check: GET /api/v1/idv-check?company= (up to 50 numbers). Fixtures: test/fixtures/hosts/ch.test/
 * company/01234567 (officers and PSCs with identity-verification details), SC612345 (no officers or PSCs on record).
 */

const idv = async (company: string) => {
  const { key, keyId } = await createTestKey();
  const r = await call(`/api/v1/idv-check?company=${encodeURIComponent(company)}`, { key });
  return { r, body: await json(r), keyId };
};
const fixture = async (path: string) => (await fetch(`https://ch.test/company/${path}`)).text();

afterEach(() => vi.restoreAllMocks());

describe("issue 13 §3 identity verification, counted", () => {
  it("counts by state on our fixtures at a fixed date: verified, statement due, overdue, not applicable; secretaries and former officers left out", async () => {
    const officers = parseOfficerList(await fixture("01234567/officers"));
    const pscs = parsePscList(await fixture("01234567/persons-with-significant-control"));
    // The second director's statement is due 2027-02-28: due before that day, overdue after it.
    expect(identityVerificationOf(officers, pscs, "2026-12-01")).toEqual({
      directors: { total: 2, verified: 1, statementDue: 1, overdue: 0, notApplicable: 0 },
      pscs: { total: 3, verified: 1, statementDue: 0, overdue: 0, notApplicable: 2 },
      earliestDueOn: "2027-02-28",
    });
    expect(identityVerificationOf(officers, pscs, "2027-03-01").directors).toEqual({ total: 2, verified: 1, statementDue: 0, overdue: 1, notApplicable: 0 });
  });

  it.skipIf(!env.SHARED_PRESENT)("on a real officers reply (../shared): the verified director counts, the secretary does not", async () => {
    const real = await (await fetch("http://shared.test/data/companies-house-api/fixtures/kevbite__officers_00445790_tesco_idv.json")).text();
    expect(identityVerificationOf(parseOfficerList(real), null, "2026-11-24")).toEqual({
      directors: { total: 1, verified: 1, statementDue: 0, overdue: 0, notApplicable: 0 },
      pscs: { total: 0, verified: 0, statementDue: 0, overdue: 0, notApplicable: 0 },
      earliestDueOn: null,
    });
  });

  it("answers each number in the order asked, a number that is no company in place; 1 credit per number; never a name", async () => {
    const { r, body, keyId } = await idv("1234567, sc612345,07000001");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(97);
    expect(body.results.map((x: { query: string; found: boolean }) => [x.query, x.found])).toEqual([
      ["1234567", true],
      ["sc612345", true],
      ["07000001", false],
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const due = "2027-02-28" < today ? { statementDue: 0, overdue: 1 } : { statementDue: 1, overdue: 0 };
    expect(body.results[0]).toMatchObject({
      company: { name: "HARBOURSIDE LEGAL LIMITED", number: "01234567" },
      directors: { total: 2, verified: 1, notApplicable: 0, ...due },
      pscs: { total: 3, verified: 1, statementDue: 0, overdue: 0, notApplicable: 2 },
      earliestDueOn: "2027-02-28",
    });
    expect(body.results[1]).toMatchObject({ company: { number: "SC612345" }, directors: { total: 0 }, pscs: { total: 0 }, earliestDueOn: null });
    expect(body.results[2]).toEqual({ query: "07000001", found: false, note: "No company with that number on the companies register." });
    const text = JSON.stringify(body);
    for (const name of ["HARPER", "OKONJO", "PEEL", "Jane Elizabeth"]) expect(text).not.toContain(name);
  });

  it("a number given twice is read and charged once", async () => {
    const { body, keyId } = await idv("01234567,1234567");
    expect(body.results).toHaveLength(1);
    expect(await balanceOf(keyId)).toBe(99);
  });

  it("reads four companies at a time", async () => {
    const real = globalThis.fetch;
    let inFlight = 0;
    let most = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      try {
        return await real(input, init);
      } finally {
        inFlight--;
      }
    });
    const numbers = Array.from({ length: 10 }, (_, i) => String(7_100_000 + i).padStart(8, "0"));
    const { r, body } = await idv(numbers.join(","));
    expect(r.status).toBe(200);
    expect(body.results.every((x: { found: boolean }) => !x.found)).toBe(true);
    expect(most).toBe(4);
  });

  it("SPEC §7 one company's register that cannot be read makes the whole call 503, credits back", async () => {
    await env.DB.prepare(`DELETE FROM http_cache`).run(); // earlier tests cached the officers
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      String(input instanceof Request ? input.url : input).includes("/company/01234567/officers") ? new Response("{}", { status: 429 }) : real(input, init),
    );
    const { r, body, keyId } = await idv("SC612345,01234567");
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 bad input is 400 naming company, never charged: a word, 51 numbers, nothing", async () => {
    for (const q of ["acme", "01234567,acme", Array.from({ length: 51 }, (_, i) => String(1_000_000 + i)).join(","), ""]) {
      const { r, body, keyId } = await idv(q);
      expect(r.status, q.slice(0, 30)).toBe(400);
      expect(body).toMatchObject({ code: "bad_request", requestId: expect.any(String) });
      expect(body.message).toMatch(/company/);
      expect(await balanceOf(keyId)).toBe(100);
    }
  });
});
