import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { loadEnrichRegister } from "./register";

/** Issue 18 §2 batch (SPEC §4.1, §2.3): one atomic charge, results in input order, misses and unreadable items refunded. */

const batch = async (body: unknown, opts: { credits?: number } = {}) => {
  const { key, keyId } = await createTestKey(opts.credits !== undefined ? { credits: opts.credits } : {});
  const r = await call("/api/v1/batch", { key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { r, body: await json(r), keyId };
};

/** Answers with `reply` every request whose URL contains `part` (or matches it); the rest go to the fixture hosts. */
function failing(part: string | RegExp, reply: () => Response) {
  const real = globalThis.fetch;
  const hit = (url: string) => (typeof part === "string" ? url.includes(part) : part.test(url));
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
    hit(String(input instanceof Request ? input.url : input)) ? reply() : real(input, init),
  );
}

beforeAll(loadEnrichRegister);
afterEach(() => vi.restoreAllMocks());

describe("SPEC §4.1 batch", () => {
  it("results in input order, each as enrich answers it; misses refunded: creditsRefunded, x-credits-refunded and creditsUsed add up", async () => {
    const items = ["bayside.test", "down.test", "acme-widgets.test", "Northgate Bakery", "bayside.test"];
    const { r, body, keyId } = await batch({ items });
    expect(r.status).toBe(200);
    expect(body.results.map((x: { index: number; q: string; found: boolean }) => [x.index, x.q, x.found])).toEqual([
      [0, "bayside.test", true],
      [1, "down.test", false],
      [2, "acme-widgets.test", true],
      [3, "Northgate Bakery", false],
      [4, "bayside.test", true],
    ]);
    expect(body.results[0].profile.companyNumber).toBe("07654321");
    expect(body.results[4].profile).toEqual(body.results[0].profile);
    expect(body.results[3].profile.alternatives).toHaveLength(2);
    expect(body.creditsCharged).toBe(10);
    expect(body.creditsRefunded).toBe(4);
    expect(body.creditsUsed).toBe(6);
    expect(body.results.map((x: { creditsRefunded: number }) => x.creditsRefunded)).toEqual([0, 2, 0, 2, 0]);
    expect(r.headers.get("x-credits-refunded")).toBe("4");
    expect(await balanceOf(keyId)).toBe(94);
  });

  it("an item that cannot be read (Companies House failing for a company the bulk file does not list): found false with its error, refunded; the rest answered", async () => {
    // Companies not read before in this file (Companies House's answers and enrichments are cached).
    failing(/\/company\/(?:08112233|04455667)\b/, () => new Response("upstream connect error", { status: 502 }));
    const { r, body, keyId } = await batch({ items: ["acme-widgets.test", "castlebrooklegal.test", "04455667"] });
    expect(r.status).toBe(200);
    expect(body.results[0]).toMatchObject({ found: true, error: null, creditsRefunded: 0 });
    // Issue 28 §2: a company the bulk file lists is answered from it when its live profile cannot be read, as of the file's date.
    expect(body.results[1]).toMatchObject({
      found: true,
      error: null,
      creditsRefunded: 0,
      profile: { companyNumber: "08112233", registerSource: { statusFrom: "bulk-file", statusAsOf: "2026-11-01" } },
    });
    expect(body.results[2]).toMatchObject({ found: false, profile: null, error: { code: "upstream_unavailable" }, creditsRefunded: 2 });
    expect(body.creditsUsed).toBe(4);
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(await balanceOf(keyId)).toBe(96);
  });

  it("every item unreadable because an upstream of ours is down: 503, all credits back", async () => {
    failing("ch.test/company/", () => new Response("upstream connect error", { status: 502 }));
    // Company numbers the bulk file does not list: only Companies House could answer them.
    const { r, body, keyId } = await batch({ items: ["09182736", "14725836"] });
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("one atomic charge: a balance short of the whole batch is 429 and nothing is read or charged", async () => {
    const { r, body, keyId } = await batch({ items: ["bayside.test", "acme-widgets.test", "sunny-days.test"] }, { credits: 5 });
    expect(r.status).toBe(429);
    expect(body.code).toBe("quota_exhausted");
    expect(await balanceOf(keyId, { credits: 5 })).toBe(5);
  });

  it("400 naming items: missing, empty, more than 25, an empty or too long entry; nothing charged", async () => {
    for (const bad of [
      {},
      { items: [] },
      { items: Array.from({ length: 26 }, (_, i) => `firm${i}.test`) },
      { items: ["bayside.test", ""] },
      { items: ["x".repeat(201)] },
      { items: "bayside.test" },
    ]) {
      const { r, body, keyId } = await batch(bad);
      expect(r.status, JSON.stringify(bad).slice(0, 60)).toBe(400);
      expect(body.message).toContain("items");
      expect(await balanceOf(keyId)).toBe(100);
    }
  });
});
