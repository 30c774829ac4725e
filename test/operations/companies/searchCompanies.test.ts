import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * Issue 12 §2 company-search: GET /api/v1/company-search?q=&limit= (SPEC §4.2), from the local name index
 * (the sample Basic Company Data edition test/fixtures/companies-house/bulk/BasicCompanyData-2026-11-01.csv)
 * or, with none loaded, from Companies House's search (test/fixtures/hosts/ch.test/search/companies).
 */

const loadIndex = async () => {
  const bytes = new Uint8Array(await (await fetch("http://files.test/companies-house/bulk/BasicCompanyData-2026-11-01.csv")).arrayBuffer());
  const r = await ingestEdition(ingestPortsFor(env), { source: "companies", bytes, fileName: "BasicCompanyData-2026-11-01.csv", url: null, editionDate: null });
  expect(r.outcome).toBe("loaded");
};

const search = async (query: string) => {
  const { key, keyId } = await createTestKey();
  const r = await call(`/api/v1/company-search?${query}`, { key });
  return { r, body: await json(r), keyId };
};
const RESULT_KEYS = [
  "confidence",
  "incorporatedOn",
  "locality",
  "matchedName",
  "matchedOn",
  "name",
  "number",
  "postcode",
  "reasons",
  "sicCodes",
  "status",
  "type",
];

beforeEach(async () => {
  await storeOf("companies").reset(ingestPortsFor(env), "companies");
  await loadIndex();
});
afterEach(() => vi.restoreAllMocks());

describe("SPEC §4.2 company-search from the local index", () => {
  it("SPEC §4.2 ranked matches with confidence and reasons; name, number, status, type, incorporation date, SIC codes with descriptions, locality and postcode; 1 credit", async () => {
    const { r, body, keyId } = await search("q=Harbourside%20Legal");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(99);
    expect(body.query).toEqual({ q: "Harbourside Legal", limit: 10 });
    expect(body.answeredFrom).toEqual({
      index: "local",
      editionDate: "2026-11-01",
      sample: false,
      note: "The Basic Company Data file (live companies) loaded here.",
    });
    expect(body.results[0]).toEqual({
      name: "HARBOURSIDE LEGAL LIMITED",
      number: "01234567",
      status: "active",
      type: "ltd",
      incorporatedOn: "1978-02-14",
      sicCodes: [{ code: "69102", description: "Solicitors" }],
      locality: "BRISTOL",
      postcode: "BS1 5TY",
      confidence: 0.95,
      matchedOn: "name",
      matchedName: "HARBOURSIDE LEGAL LIMITED",
      reasons: ["same name apart from legal form (Ltd/Limited)"],
    });
    expect(body.provenance).toMatchObject({
      source: expect.stringContaining("Basic Company Data"),
      licence: expect.stringContaining("Open Government Licence"),
    });
  });

  it("SPEC §4.2 best first: the exact name scores 1, names sharing fewer words less; below 0.3 nothing; company level only", async () => {
    const exact = await search("q=SMITH%20HOLDINGS%20LIMITED");
    expect(exact.body.results[0]).toMatchObject({ number: "02345679", confidence: 1, reasons: ["exact name"] });
    expect(exact.body.results.slice(1).every((x: { confidence: number }) => x.confidence < 0.95 && x.confidence >= 0.3)).toBe(true);
    const smith = await search("q=smith&limit=5");
    expect(smith.body.results.map((x: { number: string; confidence: number }) => [x.number, x.confidence])).toEqual([
      ["02345679", 0.792],
      ["02345678", 0.587],
    ]);
    expect(smith.body.results[1].reasons).toEqual(["shared words: smith", "extra: sons, builders"]);
    for (const x of smith.body.results) expect(Object.keys(x).sort()).toEqual(RESULT_KEYS);
  });

  it("SPEC §2.1 status words of the file become Companies House's codes, with the strike-off proposal as statusDetail", async () => {
    const { body } = await search("q=Harbour%20Lights%20Kitchen");
    expect(body.results[0]).toMatchObject({ number: "11223344", status: "active", statusDetail: "active-proposal-to-strike-off" });
    const ni = await search("q=original%20pie");
    expect(ni.body.results[0]).toMatchObject({
      number: "NI612345",
      name: 'THE "ORIGINAL" PIE COMPANY LIMITED',
      status: "administration",
      incorporatedOn: null,
    });
    const trust = await search("q=Riverside%20Community%20Trust");
    expect(trust.body.results[0]).toMatchObject({ number: "04712345", type: "private-limited-guarant-nsc", confidence: 1 });
  });

  it("SPEC §4.2 a q that is a company number goes straight to that company: unpadded, and with SC / NI / OC prefixes", async () => {
    for (const [q, number] of [
      ["1234567", "01234567"],
      ["sc612345", "SC612345"],
      ["NI 612345", "NI612345"],
      ["OC301234", "OC301234"],
    ]) {
      const { r, body } = await search(`q=${encodeURIComponent(q)}`);
      expect(r.status).toBe(200);
      expect(body.results).toHaveLength(1);
      expect(body.results[0]).toMatchObject({ number, confidence: 1, matchedOn: "company number", reasons: ["company number"] });
      expect(body.answeredFrom.index).toBe("local");
    }
  });

  it("SPEC §4.2 a number not in the file of live companies is read from its Companies House profile; no company at all is 404 with query", async () => {
    const gone = await search("q=05550123"); // removed from the November file, still on the register
    expect(gone.r.status).toBe(200);
    expect(gone.body.answeredFrom.index).toBe("companies-house-profile");
    expect(gone.body.results[0]).toMatchObject({
      number: "05550123",
      name: "GREYSTONE ENGINEERING LIMITED",
      matchedOn: "company number",
      sicCodes: [{ code: "25620", description: "Machining" }],
    });
    const none = await search("q=07000001");
    expect(none.r.status).toBe(404);
    expect(none.body).toMatchObject({ code: "not_found", query: { q: "07000001", limit: 10 } });
  });

  it("SPEC §4.2 a query of no words matches nothing, and says so with an empty list", async () => {
    const { r, body } = await search("q=Ltd");
    expect(r.status).toBe(200);
    expect(body.results).toEqual([]);
  });

  it("SPEC §7 bad input is 400 naming the field, never charged", async () => {
    for (const q of ["", "q=", `q=${"a".repeat(201)}`, "q=acme&limit=0", "q=acme&limit=51", "q=acme&limit=1e1", "q=acme&limit=%2010"]) {
      const { r, body, keyId } = await search(q);
      expect(r.status).toBe(400);
      expect(body.code).toBe("bad_request");
      expect(body.requestId).toEqual(expect.any(String));
      expect(body.message).toMatch(q.includes("limit") ? /limit/ : /\bq\b/);
      expect(await balanceOf(keyId)).toBe(100);
    }
  });
});

describe("SPEC §4.2 company-search without a local index: Companies House's search", () => {
  beforeEach(() => storeOf("companies").reset(ingestPortsFor(env), "companies"));

  it("SPEC §4.2 the reply says Companies House answered; its results are ranked by the same scorer; no SIC codes in its results", async () => {
    const { r, body } = await search("q=Harbourside%20Legal&limit=5");
    expect(r.status).toBe(200);
    expect(body.answeredFrom).toMatchObject({ index: "companies-house-search", editionDate: null });
    expect(body.results.map((x: { number: string; name: string; confidence: number }) => [x.number, x.name, x.confidence])).toEqual([
      ["01234567", "HARBOURSIDE LEGAL LIMITED", 0.95],
      ["05000001", "HARBOURSIDE LEGAL SERVICES LIMITED", 0.8], // "legal" is a common word: one significant word shared caps the score at 0.8
    ]);
    expect(body.results[0]).toMatchObject({
      status: "active",
      type: "ltd",
      incorporatedOn: "1978-02-14",
      sicCodes: null,
      locality: "Bristol",
      postcode: "BS1 5TY",
    });
    expect(body.provenance.source).toBe("Companies House public data API");
  });

  it("SPEC §7 Companies House answering 429 is 503 with the credit back, never an empty list", async () => {
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      String(input instanceof Request ? input.url : input).includes("/search/companies")
        ? new Response("{}", { status: 429, headers: { "retry-after": "30" } })
        : realFetch(input, init),
    );
    const { r, body, keyId } = await search("q=Riverbank%20Foods");
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(r.headers.get("x-credits-refunded")).toBe("1");
    expect(await balanceOf(keyId)).toBe(100);
  });
});
