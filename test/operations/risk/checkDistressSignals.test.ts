import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { parseCompanyProfile } from "../../../src/sources/companies-house/parse";
import { distressSignals } from "../../../src/services/risk/distress";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * Issue 13 §3 distress-signals: GET /api/v1/distress-signals?company= (up to 50 numbers). Fixtures:
 * test/fixtures/hosts/ch.test/company/12300001 (in compulsory liquidation: insolvency case, charges),
 * 12300002 (proposed for strike-off, filings overdue), 06527449 (on the sanctions fixture by company number),
 * 05550123 (a petition dismissed, then a winding-up order), and the Gazette feeds under
 * test/fixtures/hosts/gazette.test/insolvency/notice/data.json/.
 */

const distress = async (company: string, opts: { credits?: number } = {}) => {
  const { key, keyId } = await createTestKey(opts);
  const r = await call(`/api/v1/distress-signals?company=${encodeURIComponent(company)}`, { key });
  return { r, body: await json(r), keyId };
};
type Signal = { kind: string; severity: string; date: string | null; source: string; summary: string; evidence: Record<string, unknown> };
type Result = { query: string; found: boolean; level?: string; signals?: Signal[]; sanctions?: Record<string, unknown>; gazette?: Record<string, unknown> };

const loadSanctions = async () => {
  await storeOf("sanctions").reset(ingestPortsFor(env), "sanctions");
  const bytes = new Uint8Array(await (await fetch("http://files.test/sanctions/UK-Sanctions-List.csv")).arrayBuffer());
  await ingestEdition(ingestPortsFor(env), { source: "sanctions", bytes, fileName: "UK-Sanctions-List.csv", url: null, editionDate: null });
};

beforeAll(loadSanctions);
afterEach(() => vi.restoreAllMocks());

describe("issue 13 §3 distress signals", () => {
  it("a company in compulsory liquidation: status, the insolvency case (practitioner counted, never named), Gazette notices by number and by linked data, charges outstanding", async () => {
    const { r, body, keyId } = await distress("12300001");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(98); // 2 credits a company
    const [x] = body.results as Result[];
    expect(x).toMatchObject({ found: true, level: "high", company: { number: "12300001", status: "liquidation" } });
    const kinds = x.signals!.map((s) => `${s.kind}:${s.severity}:${s.date}`);
    expect(kinds).toEqual([
      "gazette-notice:high:2026-07-24",
      "gazette-notice:high:2026-07-08",
      "insolvency-case:high:2026-07-02",
      "gazette-notice:high:2026-05-20",
      "status:high:null",
      "charges-outstanding:info:2019-11-04",
    ]);
    const byCode = Object.fromEntries(x.signals!.filter((s) => s.kind === "gazette-notice").map((s) => [s.evidence.code, s.evidence]));
    expect(byCode["2450"]).toMatchObject({ noticeId: "5260430", matchedBy: "company number", url: "https://www.thegazette.co.uk/notice/5260430" });
    expect(byCode["2452"]).toMatchObject({ noticeId: "5287711", matchedBy: "company number" }); // from its linked data
    expect(byCode["2441"]).toBeUndefined(); // same name, another company's number
    expect(x.gazette).toEqual({ noticesRead: 4, matched: 3, truncated: false });
    const insolvency = x.signals!.find((s) => s.kind === "insolvency-case")!;
    expect(insolvency).toMatchObject({
      source: "companies-house-insolvency",
      evidence: { caseType: "compulsory-liquidation", practitioners: 1, dates: ["wound-up-on 2026-07-02", "petitioned-on 2026-05-11"] },
    });
    const text = JSON.stringify(body);
    expect(text).not.toContain("Miranda"); // the liquidator (the firm in the registered office's c/o line is not a person)
    expect(text).not.toContain("Pellingham"); // a person entitled to a charge
  });

  it("a strike-off proposal dated by its first Gazette notice; accounts and confirmation statement overdue by days; a petition cleared by its dismissal; a near-miss name and an old notice at another postcode left out", async () => {
    const { body } = await distress("12300002");
    const [x] = body.results as Result[];
    const today = new Date().toISOString().slice(0, 10);
    const days = (d: string) => Math.round((Date.parse(today) - Date.parse(d)) / 86_400_000);
    const byKind = (k: string) => x.signals!.filter((s) => s.kind === k);
    expect(byKind("strike-off-proposed")).toEqual([
      expect.objectContaining({
        severity: "high",
        date: "2026-10-14",
        source: "companies-house-filing-history",
        evidence: expect.objectContaining({ form: "GAZ1", description: "gazette-notice-compulsory" }),
      }),
    ]);
    expect(byKind("accounts-overdue")[0]).toMatchObject({
      date: "2025-12-31",
      evidence: { daysOverdue: days("2025-12-31") },
      severity: days("2025-12-31") > 90 ? "high" : "medium",
    });
    expect(byKind("confirmation-statement-overdue")[0]).toMatchObject({ date: "2026-06-14", evidence: { daysOverdue: days("2026-06-14") } });
    expect(byKind("accounts-overdue")[0].summary).toBe(`Accounts overdue by ${days("2025-12-31")} days (due 2025-12-31).`);
    const gazette = byKind("gazette-notice");
    expect(gazette.map((s) => [s.evidence.noticeId, s.evidence.code, s.severity, s.evidence.matchedBy])).toEqual([
      ["5270005", "2461", "info", "name and registered-office postcode"],
      ["5241020", "2450", "info", "name and registered-office postcode"],
    ]);
    expect(gazette[1].evidence.clearedByNoticeId).toBe("5270005");
    expect(gazette[1].summary).toContain("dismissed by notice 5270005");
    expect(x.gazette).toEqual({ noticesRead: 4, matched: 2, truncated: false });
  });

  it("a definite sanctions match by company number; no definite match is said to be no clearance, with the list's date", async () => {
    const { body } = await distress("06527449,05550123");
    const [bnk, greystone] = body.results as Result[];
    expect(bnk.level).toBe("high");
    expect(bnk.signals!.find((s) => s.kind === "sanctions-match")).toMatchObject({
      source: "uk-sanctions-list",
      evidence: { listId: "BEL0107", regimes: ["Belarus"] },
    });
    expect(bnk.sanctions).toMatchObject({
      checked: true,
      listDate: "2026-02-13",
      definiteMatches: [
        { listId: "BEL0107", nameType: "primary", reasons: expect.arrayContaining(["same UK company number 06527449", "same postcode W6 7BA"]) },
      ],
    });
    expect(greystone.sanctions).toEqual({
      checked: true,
      listDate: "2026-02-13",
      definiteMatches: [],
      note: "No definite match on the UK sanctions list (list of 2026-02-13); this is not a clearance.",
    });
    // Greystone: the petition and its dismissal carry its number; the winding-up order of the same name states
    // neither number nor postcode, and its linked data has none: it is not tied to the company, so not reported.
    const codes = greystone.signals!.filter((s) => s.kind === "gazette-notice").map((s) => `${s.evidence.code}:${s.severity}`);
    expect(codes).toEqual(["2461:info", "2450:info"]);
    expect(greystone.gazette).toEqual({ noticesRead: 3, matched: 2, truncated: false });
  });

  it("before any sanctions list is loaded, the reply says it was not checked (never a clearance)", async () => {
    await storeOf("sanctions").reset(ingestPortsFor(env), "sanctions");
    try {
      const { body } = await distress("05550123");
      expect(body.results[0].sanctions).toMatchObject({
        checked: false,
        definiteMatches: [],
        note: expect.stringContaining("not checked; this is not a clearance"),
      });
    } finally {
      await loadSanctions();
    }
  });

  it("SPEC §4.8 issue 28 §3: a voluntary arrangement that ended on 2019-03-11, the company active and nothing after it, is context (info), not high; the reply never calls it completed", async () => {
    const { body } = await distress("04455667");
    const [x] = body.results as Result[];
    const today = new Date().toISOString().slice(0, 10);
    const cva = x.signals!.find((s) => s.kind === "insolvency-case")!;
    const years = Number(today.slice(0, 4)) - 2019 - (today.slice(5) < "03-11" ? 1 : 0);
    expect(cva).toMatchObject({
      date: "2019-03-11",
      evidence: {
        caseType: "corporate-voluntary-arrangement",
        procedure: "arrangement",
        state: "ended",
        outcome: "ended",
        endedOn: "2019-03-11",
        yearsSinceEnd: years,
        followedBy: null,
        practitioners: 2,
      },
    });
    expect(cva.severity).toBe(today > "2025-03-11" ? "info" : "low"); // more than six years after the end: info
    expect(cva.summary).toContain("Companies House records completion and termination of an arrangement alike");
    expect(cva.summary).not.toMatch(/\bcompleted\b/);
    // Nothing else of concern: a petition that was dismissed, a charge outstanding.
    expect(x.signals!.every((s) => s.severity === "info" || s.severity === "low")).toBe(true);
    expect(x.level).not.toBe("high");
    expect(JSON.stringify(body)).not.toContain("Rosewarne"); // practitioners counted, never named
  });

  it("a number that is no company is answered in place; an active company with nothing of concern has level none", async () => {
    const { body, keyId } = await distress("07000001,01234567");
    expect(body.results[0]).toEqual({ query: "07000001", found: false, note: "No company with that number on the companies register." });
    expect(body.results[1]).toMatchObject({ found: true, level: expect.stringMatching(/none|low/) });
    expect(await balanceOf(keyId)).toBe(96);
  });

  it("reads four companies at a time", async () => {
    const real = globalThis.fetch;
    let inFlight = 0;
    let most = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const profile = /ch\.test\/company\/\d{8}$/.test(url);
      if (profile) {
        inFlight++;
        most = Math.max(most, inFlight);
      }
      await new Promise((r) => setTimeout(r, 20));
      try {
        return await real(input, init);
      } finally {
        if (profile) inFlight--;
      }
    });
    const numbers = Array.from({ length: 10 }, (_, i) => String(7_200_000 + i).padStart(8, "0"));
    const { r } = await distress(numbers.join(","));
    expect(r.status).toBe(200);
    expect(most).toBe(4);
  });

  it("SPEC §7 fifty numbers with one unreadable: 503, every credit given back", async () => {
    await env.DB.prepare(`DELETE FROM http_cache`).run();
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      String(input instanceof Request ? input.url : input).endsWith("/company/12300002/insolvency") ? new Response("{}", { status: 502 }) : real(input, init),
    );
    const numbers = [...Array.from({ length: 49 }, (_, i) => String(7_300_000 + i).padStart(8, "0")), "12300002"];
    const { r, body, keyId } = await distress(numbers.join(","), { credits: 200 });
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(r.headers.get("x-credits-refunded")).toBe("100");
    expect(await balanceOf(keyId)).toBe(200);
  });

  it("SPEC §7 a Gazette that cannot be read is 503 with the credits back, never 'no notices'", async () => {
    const { env: _ } = { env };
    await env.DB.prepare(`DELETE FROM http_cache`).run();
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      String(input instanceof Request ? input.url : input).includes("gazette.test/insolvency")
        ? new Response("<html>busy</html>", { status: 200 })
        : real(input, init),
    );
    const { r, keyId } = await distress("05550123");
    expect(r.status).toBe(503);
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 bad input is 400 naming company, never charged", async () => {
    for (const q of ["acme", Array.from({ length: 51 }, (_, i) => String(1_000_000 + i)).join(","), ""]) {
      const { r, body, keyId } = await distress(q);
      expect(r.status, q.slice(0, 30)).toBe(400);
      expect(body).toMatchObject({ code: "bad_request", requestId: expect.any(String) });
      expect(body.message).toContain("company");
      expect(await balanceOf(keyId)).toBe(100);
    }
  });
});

describe("distress signals, pure", () => {
  it("a dissolved company is dated by its dissolution; a members' voluntary liquidation that ended with the company is info (issue 28 §3); a charge created within 12 months is low", async () => {
    const profile = parseCompanyProfile(await (await fetch("https://ch.test/company/12300001")).text())!;
    const signals = distressSignals({
      profile: { ...profile, status: "dissolved", ceasedOn: "2026-10-01" },
      insolvency: {
        status: null,
        cases: [
          { number: "2", type: "members-voluntary-liquidation", dates: [{ type: "declaration-solvent-on", date: "2026-01-05" }], practitioners: [], notes: [] },
        ],
      },
      charges: {
        totalCount: 1,
        satisfiedCount: 0,
        partSatisfiedCount: 0,
        unfilteredCount: 1,
        items: [
          {
            id: "x",
            chargeCode: "123000010003",
            chargeNumber: 3,
            classification: null,
            status: "outstanding",
            createdOn: "2026-02-01",
            deliveredOn: null,
            satisfiedOn: null,
            personsEntitled: [],
            containsFixedCharge: null,
            containsFloatingCharge: null,
            floatingChargeCoversAll: null,
            containsNegativePledge: null,
            particularsDescription: null,
          },
        ],
      },
      notices: [],
      sanctions: [],
      today: "2026-11-24",
    });
    expect(signals.map((s) => `${s.kind}:${s.severity}:${s.date}`)).toEqual([
      "status:high:2026-10-01",
      "charges-recent:low:2026-02-01",
      "insolvency-case:info:2026-10-01",
      "charges-outstanding:info:2026-02-01",
    ]);
    expect(signals.find((s) => s.kind === "insolvency-case")!.evidence).toMatchObject({
      procedure: "solvent-liquidation",
      state: "ended",
      outcome: "solvent-wound-up",
      endedOn: "2026-10-01",
    });
  });
});
