import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * Issue 14 §2 payment-practices, ppn-018 and will-they-pay on test/fixtures/payment-practices/operations-export.csv:
 * HARBOURSIDE LEGAL LIMITED (01234567, three periods, the number unpadded on one), OAKHILL PROPERTY GROUP LIMITED
 * (09876543: 94.9% then 89%), QUAYSIDE PRINT WORKS LIMITED (00123456: one report, an absurd average).
 */

const get = async (path: string) => {
  const { key, keyId } = await createTestKey();
  const r = await call(path, { key });
  return { r, body: await json(r), keyId };
};

beforeAll(async () => {
  await storeOf("payment-practices").reset(ingestPortsFor(env), "payment-practices");
  const bytes = new Uint8Array(await (await fetch("http://files.test/payment-practices/operations-export.csv")).arrayBuffer());
  const r = await ingestEdition(ingestPortsFor(env), { source: "payment-practices", bytes, fileName: "operations-export.csv", url: null, editionDate: null });
  expect(r.outcome).toBe("loaded");
});

describe("issue 14 §2 payment-practices", () => {
  it("every report newest first, one per period, with the trend and the company object; 1 credit", async () => {
    const { r, body, keyId } = await get("/api/v1/payment-practices?company=1234567");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(99);
    expect(body.company).toMatchObject({ name: "HARBOURSIDE LEGAL LIMITED", number: "01234567" });
    expect(body.matchedBy).toMatch(/company number/);
    expect(body.reports.map((x: { periodEnd: string }) => x.periodEnd)).toEqual(["2026-06-30", "2025-12-31", "2025-06-30"]);
    expect(body.reports[0]).toMatchObject({
      reportId: 5003,
      periodStart: "2026-01-01",
      filedOn: "2026-07-28",
      avgDaysToPay: 45,
      pctWithin30: 41.7,
      pct31to60: 53.3,
      pctOver60: 5,
      pctNotPaidWithinTerms: 18,
      standardTermsDays: { shortest: 30, longest: 60 },
      maxContractualTermsDays: 60,
      url: "https://check-payment-practices.service.gov.uk/report/5003",
    });
    expect(body.trend).toMatchObject({
      overall: "improving",
      steps: [
        { avgDaysChange: -4, direction: "improving" },
        { avgDaysChange: -3, direction: "improving" },
      ],
    });
    expect(body.provenance.source).toMatch(/Payment practices/i);
  });

  it("an absurd figure is left out and named", async () => {
    const { body } = await get("/api/v1/payment-practices?company=00123456");
    expect(body.reports[0].avgDaysToPay).toBeNull();
    expect(body.reports[0].clamped.join(" ")).toContain("4323394");
    expect(body.note).toContain("not plausible");
  });

  it("a real company without reports is an answer, not a 404; a number that is no company is 404 with query, free", async () => {
    const { r, body } = await get("/api/v1/payment-practices?company=05550123");
    expect(r.status).toBe(200);
    expect(body).toMatchObject({ reports: [], company: { number: "05550123" } });
    expect(body.note).toContain("not shown to pay well or badly");
    const gone = await get("/api/v1/payment-practices?company=07000001");
    expect(gone.r.status).toBe(404);
    expect(gone.body.query).toBe("07000001");
    expect(await balanceOf(gone.keyId)).toBe(100);
  });
});

describe("issue 14 §2 payment-practices when Companies House cannot be read", () => {
  afterEach(() => vi.restoreAllMocks());
  it("asked by name, the reports still answer, with the register's own name and number and a company status that says so", async () => {
    await env.DB.prepare(`DELETE FROM http_cache`).run();
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      String(input instanceof Request ? input.url : input).includes("ch.test/") ? new Response("busy", { status: 503 }) : real(input, init),
    );
    const { r, body } = await get(`/api/v1/payment-practices?company=${encodeURIComponent("Oakhill Property Group Limited")}`);
    expect(r.status).toBe(200);
    expect(body.company).toMatchObject({ name: "OAKHILL PROPERTY GROUP LIMITED", number: "09876543", status: "unknown" });
    expect(body.company.statusDetail).toContain("could not be read");
    expect(body.reports).toHaveLength(2);
  });
});

describe("issue 14 §2 ppn-018", () => {
  it("exactly 95.0% and 45 days in the latest period: PPN 018 passes, arithmetic shown; earlier thresholds shown too", async () => {
    const { r, body, keyId } = await get("/api/v1/ppn-018?company=01234567");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(99);
    expect(body.reports.map((x: { periodEnd: string }) => x.periodEnd)).toEqual(["2026-06-30", "2025-12-31"]);
    expect(body.ppn018).toMatchObject({ instrument: "PPN 018", thresholds: { passPct: 95, actionPlanPct: 90, maxAvgDays: 45 }, overall: "pass" });
    expect(body.ppn018.reports[0]).toMatchObject({ verdict: "pass", paidWithin60Pct: 95, avgDaysToPay: 45 });
    expect(body.ppn018.reports[0].arithmetic).toContain("41.7% + 53.3% = 95.0%");
    expect(body.ppn018.reports[1]).toMatchObject({ verdict: "fail", paidWithin60Pct: 92 }); // 92% but 49 days
    expect(body.earlierThresholds.map((x: { instrument: string; overall: string }) => `${x.instrument}:${x.overall}`)).toEqual([
      "PPN 015:pass",
      "PPN 10/23:pass",
    ]);
    expect(body.notice).toContain("may accept other evidence");
  });

  it("94.9% then 89%: passes only with an action plan", async () => {
    const { body } = await get("/api/v1/ppn-018?company=09876543");
    expect(body.ppn018.reports.map((x: { verdict: string }) => x.verdict)).toEqual(["pass-with-action-plan", "fail"]);
    expect(body.ppn018.overall).toBe("pass-with-action-plan");
  });

  it("one report only: never a pass", async () => {
    const { body } = await get("/api/v1/ppn-018?company=00123456");
    expect(body.ppn018.overall).toBe("not-enough-reports");
  });
});

describe("issue 14 §2 will-they-pay", () => {
  it("likely days, the chance of a late payment against the supplier's terms, the claim at the customer's average, a sentence; 1 credit", async () => {
    const { r, body, keyId } = await get("/api/v1/will-they-pay?company=09876543&invoice=5000&terms=30");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(99);
    expect(body.report).toMatchObject({ reportId: 5101 });
    expect(body.estimate).toMatchObject({ likelyDaysToPay: 40, daysLateAtAverage: 10, lateChance: { pct: 50, kind: "estimate" } });
    expect(body.estimate.claimIfPaidAtAverage).toMatchObject({ daysLate: 10, compensation: 70 });
    expect(body.estimate.sentence).toContain("estimate from self-reported figures");
    expect(body.query).toEqual({ company: "09876543", invoice: 5000, terms: 30 });
  });

  it("bad terms or invoice are 400 naming the field, free", async () => {
    for (const [q, field] of [
      ["company=09876543&invoice=5000&terms=0", "terms"],
      ["company=09876543&invoice=5000&terms=thirty", "terms"],
      ["company=09876543&invoice=-5&terms=30", "invoice"],
      ["company=09876543&terms=30", "invoice"],
    ]) {
      const { r, body, keyId } = await get(`/api/v1/will-they-pay?${q}`);
      expect(r.status, q).toBe(400);
      expect(body.field, q).toBe(field);
      expect(await balanceOf(keyId)).toBe(100);
    }
  });
});
