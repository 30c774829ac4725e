import { beforeAll, describe, expect, it } from "vitest";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { loadEnrichRegister } from "./register";

/** Issue 18 §2 assess (SPEC §4.1) and score, end to end on the fixture businesses. */

const post = async (body: unknown) => {
  const { key, keyId } = await createTestKey();
  const r = await call("/api/v1/assess", { key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { r, body: await json(r), keyId };
};

beforeAll(loadEnrichRegister);

describe("SPEC §4.1 assess", () => {
  it("grounded in the verified profile: every reason cites a profile fact; 25 credits; an editable opener composed from facts", async () => {
    const { r, body, keyId } = await post({ target: "castlebrooklegal.test", offer: "Case management software for small law firms" });
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(75);
    expect(body.profile.companyNumber).toBe("08112233");
    expect(body.fitScore).toBeGreaterThanOrEqual(35);
    expect(body.fitReasons.length).toBeGreaterThan(0);
    for (const reason of body.fitReasons) expect(reason.fact.field).toBeTruthy();
    expect(body.draftBy).toBe("facts");
    expect(body.editable).toBe(true);
    expect(body.openerDraft).toMatch(/^Hello,/);
    expect(JSON.stringify(body)).not.toMatch(/\b(likely to buy|interested in|ready to buy|will respond)\b/i);
  });

  it("422 target_unidentified, not charged: a site that confirms no company, a name shared by two, a site that is down", async () => {
    for (const target of ["sunny-days.test", "Northgate Bakery", "down.test", "brightbakes.test"]) {
      const { r, body, keyId } = await post({ target, offer: "Bookkeeping for small businesses" });
      expect(r.status, target).toBe(422);
      expect(body.code).toBe("target_unidentified");
      expect(body.query).toEqual({ target, offer: "Bookkeeping for small businesses" });
      expect(await balanceOf(keyId)).toBe(100);
    }
  });

  it("400 naming target or offer when missing; nothing charged", async () => {
    for (const [bad, field] of [
      [{ offer: "x" }, "target"],
      [{ target: "bayside.test" }, "offer"],
      [{ target: "bayside.test", offer: "o".repeat(1001) }, "offer"],
    ] as const) {
      const { r, body, keyId } = await post(bad);
      expect(r.status).toBe(400);
      expect(body.message).toContain(field);
      expect(await balanceOf(keyId)).toBe(100);
    }
  });
});

describe("issue 18 §2 score", () => {
  it("a score, categories with findings and an action plan; the registry from the confirmed company; the price charged", async () => {
    const { key, keyId } = await createTestKey();
    const r = await call("/api/v1/score?q=bayside.test", { key });
    expect(r.status).toBe(200);
    const body = await json(r);
    expect(body.business).toMatchObject({ found: true, companyNumber: "07654321" });
    expect(body.categories.map((c: { key: string }) => c.key)).toEqual(["registry", "legal", "accessibility", "aiVisibility", "trust"]);
    expect(body.categories[0].status).toBe("scored");
    expect(typeof body.score).toBe("number");
    expect(body.formula).toContain("Weights");
    expect(Array.isArray(body.actionPlan)).toBe(true);
    expect(body.notice).toMatch(/minority/);
    expect(await balanceOf(keyId)).toBe(90);
  });

  it("a business that cannot be identified at all costs nothing", async () => {
    const { key, keyId } = await createTestKey();
    const r = await call("/api/v1/score?q=down.test", { key });
    expect(r.status).toBe(200);
    const body = await json(r);
    expect(body.business.found).toBe(false);
    expect(body.score).toBeNull();
    expect(await balanceOf(keyId)).toBe(100);
  });
});
