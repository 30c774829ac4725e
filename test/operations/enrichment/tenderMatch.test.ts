import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetTenders } from "../../../src/db/tenders";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { loadTenderFile } from "../../../src/jobs/tenders";
import { tenderMatch } from "../../../src/operations/enrichment/tenderMatch";
import { type CallMeta, execute } from "../../../src/platform/gateway";
import { balanceOf, call, createTestKey, json, unverifiedReplies } from "../../helpers";
import { ingestPortsFor, tendersPortsFor } from "../../../src/platform/jobPorts";

/**
 * Issue 18 §2 tender-match (SPEC §4.8 names it; the shape is ours) on our tender package
 * (test/fixtures/contracts/tender-release-package.json) and the Companies House fixture companies, judged at
 * 2026-11-20 10:00 UTC: HEDGEROW ANALYTICS (16240003, SIC 62020, Norwich), MEADOW CARE HOMES (03712548, 87100),
 * HARTWELL JOINERY (14725836, 16230 and 43320, Leeds), BAYSIDE HOSPITALITY (07654321, 55100). SIC descriptions come
 * from the sample companies register where it has them (87100), else from our mapping's own words (62020).
 */

const NOW = Date.parse("2026-11-20T10:00:00Z");
type Tender = {
  ocid: string;
  score: number;
  reasons: string[];
  daysLeft: number | null;
  deadline: string | null;
  status: string;
  noticeUrl: string;
  value: unknown;
};
type Body = Record<string, any> & { tenders: Tender[] };

const meta = (apiKey: string, now: number): CallMeta => ({
  requestId: "req_tender_match",
  headers: new Headers(),
  ip: "192.0.2.18",
  apiKey,
  waitUntil: () => {},
  now,
});

/** Calls the operation at a fixed time (the deadlines are judged against it). */
async function match(query: Record<string, unknown>, now = NOW) {
  const { key, keyId } = await createTestKey();
  const out = await execute(env, tenderMatch as never, query, meta(key, now));
  // Replies of execute() are not seen by test/setup.ts's scan: keep them for it (the caller is unverified).
  unverifiedReplies.push({ path: "/api/v1/tender-match", text: JSON.stringify(out.body) });
  return { status: out.status, body: out.body as Body, keyId };
}
const get = async (q: string) => {
  const { key, keyId } = await createTestKey();
  const r = await call(`/api/v1/tender-match?${q}`, { key });
  return { r, body: await json(r), keyId };
};

beforeAll(async () => {
  await resetTenders(env.DB);
  await storeOf("contracts").reset(ingestPortsFor(env), "contracts");
  const companies = new Uint8Array(await (await fetch("http://files.test/companies-house/bulk/BasicCompanyData-2026-11-01.csv")).arrayBuffer());
  expect(
    (
      await ingestEdition(ingestPortsFor(env), {
        source: "companies",
        bytes: companies,
        fileName: "BasicCompanyData-2026-11-01.csv",
        url: null,
        editionDate: null,
      })
    ).outcome,
  ).toBe("loaded");
  const tenders = new Uint8Array(await (await fetch("http://files.test/contracts/tender-release-package.json")).arrayBuffer());
  expect(
    (await loadTenderFile(tendersPortsFor(env), tenders, { fileName: "tender-release-package.json", now: new Date("2026-11-19T05:00:00Z") })).outcome,
  ).toBe("loaded");
});
afterEach(() => vi.restoreAllMocks());

describe("issue 18 §2 GET /api/v1/tender-match", () => {
  it("ranks the open tenders that fit by CPV from the SIC code and by keywords, with reasons, value, deadline and link; closed ones never; 2 credits", async () => {
    const { status, body, keyId } = await match({ company: "16240003", keywords: "data analytics" });
    expect(status).toBe(200);
    expect(await balanceOf(keyId)).toBe(98);
    expect(body.business).toEqual({
      name: "HEDGEROW ANALYTICS LIMITED",
      companyNumber: "16240003",
      sicCodes: [{ code: "62020", description: null }],
      region: "East of England",
    });
    expect(body.cpvSearched.map((c: { prefix: string }) => c.prefix)).toEqual(["722", "726", "72"]);
    expect(body.cpvSearched[0]).toEqual({
      prefix: "722",
      description: "Software programming and consultancy services",
      fromSic: "62020",
      reason: "SIC class 6202: IT consultancy: software and computer support and consultancy",
    });
    // The caller's words first; without a register description, the mapping's own words for the SIC code.
    expect(body.keywordsSearched).toEqual(["data analytics", "consultancy", "software", "computer"]);
    expect(body.tenders.map((t) => [t.ocid, t.score])).toEqual([
      ["ocds-h6vhtk-05b1c4", 72], // 722 group (50) + main (5) + also 72 (5) + 'software' in the title (12)
      ["ocds-h6vhtk-05b1a0", 62], // 72 division (40) + main (5) + 'data analytics' in the title (12) + East of England (5)
    ]);
    const [desk, analytics] = body.tenders;
    expect(desk).toMatchObject({
      deadline: "2027-02-15T17:00:00Z",
      daysLeft: 87,
      status: "active",
      value: { amount: 250000, currency: "GBP" },
      noticeUrl: "https://www.find-tender.service.gov.uk/Notice/035001-2026",
      source: "FTS",
      buyer: "Northfield Borough Council",
      suitableForSme: true,
    });
    expect(desk.reasons).toEqual([
      "CPV 72253000 Helpdesk and support services (within CPV 72200000 Software programming and consultancy services) matches SIC 62020 (the notice's main classification)",
      "also CPV 72000000 IT services: consulting, software development, Internet and support (from SIC 62020)",
      "title mentions 'software'",
    ]);
    expect(analytics.reasons).toContain("title mentions 'data analytics'");
    expect(analytics.reasons).toContain("to be delivered in East of England, the region of the registered office (NR postcode area)");
    // The dashboard tender (deadline passed) and the cloud migration (awarded) fit as well, and are never offered.
    expect(body.tenders.map((t) => t.ocid)).not.toContain("ocds-b5fd17-2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e");
    expect(body.tenders.map((t) => t.ocid)).not.toContain("ocds-h6vhtk-05b1e2");
    expect(body.openTendersKnown).toBe(6);
    expect(body.notice).toMatch(/^2 open tenders fit the CPV codes of its SIC code and its keywords, among 6 open notices loaded/);
    expect(body.provenance).toMatchObject({
      licence: expect.stringMatching(/Open Government Licence/),
      attribution: expect.stringMatching(/Contracts Finder and Find a Tender/),
    });
    expect(body.asOf).toEqual(expect.any(String));
    expect(tenderMatch.output.safeParse(body).success).toBe(true);
  });

  it("the SIC description from the companies register; a tender closing at 16:00 today is offered at 10:00 (0 days left) and not after 16:00", async () => {
    const morning = await match({ company: "03712548" });
    expect(morning.body.business.sicCodes).toEqual([{ code: "87100", description: "Residential nursing care facilities" }]);
    expect(morning.body.keywordsSearched).toEqual(["residential", "nursing", "care", "facilities"]);
    expect(morning.body.tenders.map((t) => [t.ocid, t.daysLeft])).toEqual([["ocds-b5fd17-3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f", 0]]);
    expect(morning.body.tenders[0].reasons[0]).toBe(
      "CPV 85311000 Social work services with accommodation matches SIC 87100 Residential nursing care facilities (the notice's main classification)",
    );
    const evening = await match({ company: "03712548" }, Date.parse("2026-11-20T16:00:01Z"));
    expect(evening.body.tenders).toEqual([]);
    expect(evening.body.openTendersKnown).toBe(5);
  });

  it("keywords: a company no CPV of ours fits finds a tender by the words given; without them, none, and the notice says what that means", async () => {
    const none = await match({ company: "07654321" });
    expect(none.body.tenders).toEqual([]);
    expect(none.body.notice).toMatch(/^No open tender among the 6 open notices loaded .* fits .*This is not a statement that none exists/);
    const found = await match({ company: "07654321", keywords: "grounds maintenance, tree works" });
    expect(found.body.query).toEqual({ company: "07654321", keywords: "grounds maintenance, tree works", limit: 10 });
    expect(found.body.tenders.map((t) => [t.ocid, t.status, t.score, t.reasons])).toEqual([
      ["ocds-h6vhtk-05b1f3", "planned", 24, ["title mentions 'grounds maintenance', 'tree works'"]],
    ]);
  });

  it("a deadline given as a date alone, and the region: joinery for a Leeds joiner", async () => {
    const { body } = await match({ company: "14725836", limit: 1 });
    expect(body.business.sicCodes.map((c: { code: string }) => c.code)).toEqual(["16230", "43320"]);
    expect(body.tenders).toHaveLength(1);
    expect(body.tenders[0]).toMatchObject({ ocid: "ocds-h6vhtk-05b201", deadline: "2027-03-31", daysLeft: 131 });
    expect(body.tenders[0].reasons).toContain("to be delivered in Yorkshire and the Humber, the region of the registered office (LS postcode area)");
  });

  it("a domain: identified as enrich identifies it (its site states the number), and the site's words about what it does join the keywords", async () => {
    const { r, body } = await get("company=castlebrooklegal.test");
    expect(r.status).toBe(200);
    expect(body.business.companyNumber).toBe("08112233");
    expect(body.keywordsSearched).toEqual(expect.arrayContaining(["conveyancing", "probate"]));
  });

  it("a name or domain the register and its website cannot tie to one company: 422 target_unidentified naming company, never charged", async () => {
    for (const q of ["company=acme", "company=00000000"]) {
      const { r, body, keyId } = await get(q);
      expect(r.status, q).toBe(422);
      expect(body.code, q).toBe("target_unidentified");
      expect(body.field, q).toBe("company");
      expect(await balanceOf(keyId)).toBe(100);
    }
  });

  it("SPEC §7 no company, keywords too long, a bad limit: 400 naming the field, never charged", async () => {
    for (const [q, field] of [
      ["company=", "company"],
      [`company=16240003&keywords=${"x".repeat(201)}`, "keywords"],
      ["company=16240003&limit=0", "limit"],
      ["company=16240003&limit=51", "limit"],
    ]) {
      const { r, body, keyId } = await get(q);
      expect(r.status, q).toBe(400);
      expect(body.field, q).toBe(field);
      expect(await balanceOf(keyId)).toBe(100);
    }
  });

  it("SPEC §7 a company number that is no company: 404 with query, credits back", async () => {
    const { r, body, keyId } = await get("company=07000001");
    expect(r.status).toBe(404);
    expect(body).toMatchObject({ code: "not_found", query: "07000001" });
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 Companies House cannot be read: 503 upstream_unavailable, credits given back, never 'no tenders'", async () => {
    await env.DB.prepare(`DELETE FROM http_cache`).run(); // earlier tests cached the profile
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      /\/company\/16240003$/.test(String(input instanceof Request ? input.url : input)) ? new Response("{}", { status: 429 }) : real(input, init),
    );
    const { r, body, keyId } = await get("company=16240003");
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("no notices loaded at all: 200 with no tenders and a notice that this is not 'none exist' (the example, as the contract test runs it)", async () => {
    await resetTenders(env.DB);
    const { r, body } = await get("company=16240003&keywords=data%20analytics");
    expect(r.status).toBe(200);
    expect(body).toMatchObject({ tenders: [], openTendersKnown: 0, asOf: null, readThrough: null });
    expect(body.notice).toMatch(/not a statement that none exists/);
  });
});
