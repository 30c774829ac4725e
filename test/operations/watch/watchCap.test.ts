import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PLANS } from "../../../src/platform/plans";
import { balanceOf, call, createTestKey } from "../../helpers";

/**
 * Issue 29 §3: the watch cap holds under concurrency. It was checked, then inserted: 40 concurrent adds on a free key
 * (cap 25) made 40 watches. The insert itself now decides it, so exactly the cap is created, the rest are refused with
 * 409 watch_limit_reached and charged nothing.
 */

const FIXTURE = "test/fixtures/hosts/ch.test/company/00123456/index.json";
const realFetch = globalThis.fetch;

/** Companies House answers any 9xxxxxxx number with a copy of a fixture profile (as the probe's stand-in does). */
function syntheticCompanies() {
  let base: Record<string, unknown> | null = null;
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const m = /^\/company\/(9\d{7})$/.exec(url.pathname);
    if (url.hostname !== "ch.test" || !m) return realFetch(input, init);
    base ??= (await (await realFetch(`http://files.test/${FIXTURE.replace("test/fixtures/", "")}`)).json()) as Record<string, unknown>;
    return Response.json({ ...base, company_number: m[1], company_name: `SYNTHETIC ${m[1]} LIMITED` });
  });
}

afterEach(() => vi.restoreAllMocks());

describe("issue 29 §3: the watch cap is atomic", () => {
  it("40 concurrent adds of distinct companies on a free key (cap 25): exactly 25 created, 15 refused 409 watch_limit_reached, only the 25 charged", async () => {
    syntheticCompanies();
    const cap = PLANS.free.maxWatches;
    expect(cap).toBe(25);
    const a = await createTestKey({ credits: 100 });
    const companies = Array.from({ length: 40 }, (_, i) => String(91_000_000 + i));
    const replies = await Promise.all(
      companies.map((company) =>
        call("/api/v1/watch", { method: "POST", key: a.key, headers: { "content-type": "application/json" }, body: JSON.stringify({ company }) }).then(
          async (r) => ({
            status: r.status,
            body: (await r.json()) as { code?: string; created?: boolean; charged?: number },
            charged: r.headers.get("x-credits-charged"),
          }),
        ),
      ),
    );
    const created = replies.filter((r) => r.status === 201 && r.body.created);
    const refused = replies.filter((r) => r.status === 409 && r.body.code === "watch_limit_reached");
    expect({ created: created.length, refused: refused.length }).toEqual({ created: cap, refused: 40 - cap });
    const stored = await env.DB.prepare(`SELECT COUNT(*) AS n FROM watches WHERE account_id = ?`).bind(a.accountId).first<{ n: number }>();
    expect(stored?.n).toBe(cap);
    // Only the watches added were charged: 2 credits each.
    expect(await balanceOf(a.keyId, { credits: 100 })).toBe(100 - 2 * cap);
    // A refused company was not left to be read by the daily tick.
    const orphans = await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM watch_companies c WHERE c.company LIKE '91%' AND NOT EXISTS (SELECT 1 FROM watches w WHERE w.company = c.company)`,
    ).first<{ n: number }>();
    expect(orphans?.n).toBe(0);
  });

  it("30 concurrent adds of one company: one watch, charged once", async () => {
    syntheticCompanies();
    const a = await createTestKey({ credits: 100 });
    const replies = await Promise.all(
      Array.from({ length: 30 }, () =>
        call("/api/v1/watch", {
          method: "POST",
          key: a.key,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ company: "92000001" }),
        }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { created?: boolean },
        })),
      ),
    );
    expect(replies.filter((r) => r.body.created)).toHaveLength(1);
    expect(replies.every((r) => r.status === 201 || r.status === 200)).toBe(true);
    expect(await balanceOf(a.keyId, { credits: 100 })).toBe(98);
  });
});
