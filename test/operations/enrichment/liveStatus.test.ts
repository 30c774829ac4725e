import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { enrich } from "../../../src/app/enrichment/enrich";
import type { OpContext } from "../../../src/platform/registry";
import { type Services, buildServices } from "../../../src/platform/services";
import { UpstreamError } from "../../../src/shared/errors";
import { call, createTestKey, json } from "../../helpers";
import { loadEnrichRegister } from "./register";

/**
 * SPEC §2.2 (enrich), §2.3 (score, batch) and §4.1 (assess), issue 28 §2: the live Companies House profile over the
 * monthly bulk file. BAYSIDE HOSPITALITY LIMITED (07654321) is plain "Active" in the sample Basic Company Data file of
 * 2026-11-01 (test/fixtures/enrich/) while its live profile (test/fixtures/hosts/ch.test/company/07654321) says
 * `active-proposal-to-strike-off`; NORTHGATE FABRICATIONS LIMITED (12300001) is in liquidation, with winding-up notices
 * in The Gazette (test/fixtures/hosts/gazette.test). The enrichment core is called with a fixed `today` where dates
 * matter, and with Companies House or The Gazette stood in for where they must fail.
 */

const FILE_DATE = "2026-11-01";

const failingCh = (real: Services["companiesHouse"]): Services["companiesHouse"] => {
  const down = async () => {
    throw new UpstreamError("companies-house", "refused", "Companies House answered 502.");
  };
  return Object.assign(Object.create(real) as Services["companiesHouse"], { getProfile: down, getOfficers: down, getFilingHistory: down });
};
const failingGazette: Services["gazette"] = {
  insolvencyNotices: async () => {
    throw new UpstreamError("gazette", "refused", "The Gazette answered 502.");
  },
};

const ctxAt = (today: string, over: { ch?: typeof failingCh; gazette?: Services["gazette"]; kept?: Promise<unknown>[] } = {}): OpContext => {
  const base = buildServices(env as never);
  return {
    services: { ...base, ...(over.ch ? { companiesHouse: over.ch(base.companiesHouse) } : {}), ...(over.gazette ? { gazette: over.gazette } : {}) },
    requestId: "req_live_status",
    origin: "http://api.test",
    caller: null,
    ip: "192.0.2.63",
    now: new Date(`${today}T09:00:00.000Z`),
    signal: new AbortController().signal,
    charge: async () => ({ charged: 0, remaining: 0 }),
    refund: () => {},
    waitUntil: (p: Promise<unknown>) => void over.kept?.push(p),
  };
};

beforeAll(loadEnrichRegister);
afterEach(() => vi.restoreAllMocks());

describe("SPEC §2.2 enrich, issue 28 §2: the live profile cannot be read", () => {
  it("the status is the bulk file's, as of its date, said in registerSource and sources; nothing absent is claimed; not cached", async () => {
    const kept: Promise<unknown>[] = [];
    const e = await enrich(ctxAt("2026-11-25", { ch: failingCh, kept }), "bayside.test", undefined);
    await Promise.all(kept);
    const p = e.profile;
    expect(p).toMatchObject({ found: true, companyNumber: "07654321", status: "active" });
    expect(p.registerSource).toMatchObject({ statusFrom: "bulk-file", statusAsOf: FILE_DATE, bulkFileDate: FILE_DATE });
    expect(p.registerSource!.fromBulkFile).toEqual(expect.arrayContaining(["status", "statusDetail"]));
    expect(p.registerSource!.note).toContain(`the status active and every other register fact are as of the Basic Company Data file of ${FILE_DATE}`);
    expect(p.sources).toContain(`companies register: 07654321 (the Basic Company Data file of ${FILE_DATE}; the live profile could not be read)`);
    expect(JSON.stringify(p)).not.toMatch(/\bno (proposal|insolvency)\b/i);
    // The next call, with Companies House back, reads it afresh: the live profile's proposal to strike off.
    const again = await enrich(ctxAt("2026-11-25", { kept }), "bayside.test", undefined);
    expect(again.cached).toBe(false);
    expect(again.profile).toMatchObject({ statusDetail: "active-proposal-to-strike-off", registerSource: { statusFrom: "companies-house" } });
  });

  it("The Gazette cannot be read: registerSource says not-read (none reported, none ruled out), and the answer is not cached", async () => {
    const kept: Promise<unknown>[] = [];
    const e = await enrich(ctxAt("2026-11-25", { gazette: failingGazette, kept }), "HTTPS://bayside.test/", undefined);
    await Promise.all(kept);
    expect(e.profile.registerSource).toMatchObject({ statusFrom: "companies-house", insolvencyNotices: "not-read" });
    expect(e.profile.registerSource!.note).toContain("none is reported, and none is ruled out");
    expect(e.profile.signals.some((s) => s.code === "gazette-notice")).toBe(false);
    expect((await enrich(ctxAt("2026-11-25", { kept }), "HTTPS://bayside.test/", undefined)).cached).toBe(false);
  });
});

describe("SPEC §2.2 enrich, issue 28 §2: the live profile's status and risks", () => {
  it("07654321 by number: the live status detail, a proposal-to-strike-off risk, and where the status comes from", async () => {
    const { key } = await createTestKey();
    const r = await call("/api/v1/enrich?q=07654321", { key });
    expect(r.status).toBe(200);
    const p = (await json(r)).profile;
    expect(p).toMatchObject({
      companyNumber: "07654321",
      status: "active",
      statusDetail: "active-proposal-to-strike-off",
      registerSource: { statusFrom: "companies-house", fromBulkFile: [] },
    });
    expect(p.signals).toContainEqual(expect.objectContaining({ code: "proposal-to-strike-off", kind: "risk", source: "companies register" }));
  });

  it("a liquidation and recent winding-up notices in The Gazette are risk signals (12300001, in The Gazette by its number)", async () => {
    const e = await enrich(ctxAt("2026-11-25"), "12300001", undefined, { cache: false });
    const risks = e.profile.signals.filter((s) => s.kind === "risk");
    expect(risks.map((s) => s.code)).toEqual(expect.arrayContaining(["not-active", "gazette-notice"]));
    expect(risks.find((s) => s.code === "not-active")!.label).toBe("Register status: liquidation");
    // The notices of 2026 are the company's (its number); the 2025 one states another company's number.
    expect(risks.find((s) => s.code === "gazette-notice")!.label).toBe(
      "3 corporate insolvency notices in The Gazette in the last 12 months: Appointment of liquidators (court winding up) (notice 2454, 2026-07-24); Winding-up order (notice 2452, 2026-07-08); Petition to wind up (notice 2450, 2026-05-20)",
    );
    expect(e.profile.registerSource).toMatchObject({ insolvencyNotices: "read" });
    expect(e.profile.sources).toContain("The Gazette (corporate insolvency notices)");
    // A year later they are no longer recent.
    const later = await enrich(ctxAt("2027-08-01"), "12300001", undefined, { cache: false });
    expect(later.profile.signals.some((s) => s.code === "gazette-notice")).toBe(false);
  });
});

describe("SPEC §2.3 score, issue 28 §2–3: score?q=07654321", () => {
  it("the proposal to strike off costs its points with a required finding; no part claims its absence; the grade needs enough weight", async () => {
    const { key } = await createTestKey();
    const r = await call("/api/v1/score?q=07654321", { key });
    expect(r.status).toBe(200);
    const body = await json(r);
    expect(body.business).toMatchObject({
      companyNumber: "07654321",
      statusDetail: "active-proposal-to-strike-off",
      registerSource: { statusFrom: "companies-house" },
    });
    const registry = body.categories.find((c: { key: string }) => c.key === "registry");
    expect(registry.parts.find((p: { key: string }) => p.key === "noStrikeOff")).toMatchObject({ judged: true, points: 0, max: 20 });
    expect(registry.findings[0]).toMatchObject({
      id: "proposal-to-strike-off",
      required: true,
      evidence: { quote: "status detail: active-proposal-to-strike-off" },
    });
    expect(body.actionPlan[0].findings).toContain("proposal-to-strike-off");
    // Its website is not found from its number: the register alone is 25% of the weight, too little for a grade.
    expect(body.coverage).toMatchObject({ categoriesScored: 1, weightScored: 25, weightForGrade: 50 });
    expect(body.grade).toBeNull();
    expect(body.headline).toMatch(new RegExp(`^No grade: ${body.score}/100 on 1 of 5 categories \\(registry; 25% of the weight\\) only`));
  });
});

describe("SPEC §4.1 assess, issue 28 §2: the proposal to strike off is a watch-out", () => {
  it("bayside.test: a watch-out citing the live status detail, and the score capped", async () => {
    const { key } = await createTestKey();
    const r = await call("/api/v1/assess", {
      key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ target: "bayside.test", offer: "Linen hire for hotels" }),
    });
    expect(r.status).toBe(200);
    const body = await json(r);
    const w = body.watchOuts.find((x: { text: string }) => /strike the company off/.test(x.text));
    expect(w).toMatchObject({ fact: { field: "register.statusDetail", value: "active-proposal-to-strike-off", source: "companies register" } });
    expect(body.fitScore).toBeLessThanOrEqual(30);
  });
});

describe("SPEC §4.1 batch, issue 28 §2 and §4", () => {
  it("query echoes the items as read; each item's profile has the live status", async () => {
    const { key } = await createTestKey();
    const items = ["bayside.test", "  07654321 ", "bayside.test"];
    const r = await call("/api/v1/batch", {
      key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ items, location: "Brighton" }),
    });
    expect(r.status).toBe(200);
    const body = await json(r);
    expect(body.query).toEqual({ items: ["bayside.test", "07654321", "bayside.test"], location: "Brighton" });
    expect(body.results.map((x: { q: string }) => x.q)).toEqual(body.query.items);
    for (const x of body.results) expect(x.profile).toMatchObject({ statusDetail: "active-proposal-to-strike-off" });
  });
});
