import { afterEach, describe, expect, it, vi } from "vitest";
import { getAccounts } from "../../../src/operations/companies/getAccounts";
import { balanceOf, call, createTestKey, json } from "../../helpers";

/**
 * GET /api/v1/accounts?company= (SPEC §4.8: "latest accounts from the tagged filing; accounts filed as a PDF cannot be
 * read and are not charged", 2 credits). Fixtures, in the upstreams' real formats:
 * - test/fixtures/hosts/ch.test/company/<n>/filing-history: the filing history as Companies House answers
 *   ?category=accounts (01234567: a change of accounting reference date, newer, then two sets of accounts);
 * - test/fixtures/hosts/chdoc.test/document/<id>/index.json: Document API metadata; …/content: the iXBRL.
 *   01234567's document is test/fixtures/companies-house/ixbrl/harbourside-2025.xhtml (the reader's fixture, checked
 *   figure by figure in test/sources/companiesHouse.ixbrl.test.ts); SC612345's is a micro-entity filing with
 *   un-prefixed ix elements; 00123456's accounts were paper-filed (PDF only); 15550001 has filed none yet.
 */

const accounts = async (company: string) => {
  const { key, keyId } = await createTestKey();
  const r = await call(`/api/v1/accounts?company=${encodeURIComponent(company)}`, { key });
  return { r, body: await json(r), keyId };
};

/** Answers `status` for every request whose URL contains `part`; the rest go to the fixture hosts. */
function failing(part: string, reply: () => Response) {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    return url.includes(part) ? reply() : real(input, init);
  });
}

afterEach(() => vi.restoreAllMocks());

describe("SPEC §4.8 accounts", () => {
  it("SPEC §4.8 the latest tagged accounts read end to end: figures with the prior year, evidence, the filing, both accounts types, the company object and provenance; 2 credits", async () => {
    const { r, body, keyId } = await accounts("01234567");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(98);
    expect(r.headers.get("x-credits-remaining")).toBe("98");
    expect(r.headers.get("x-credits-refunded")).toBeNull();
    expect(body.query).toEqual({ company: "01234567" });
    expect(body.company).toMatchObject({ name: "HARBOURSIDE LEGAL LIMITED", number: "01234567", status: "active" });
    expect(body.provenance).toMatchObject({ source: "Companies House public data API", licence: expect.stringContaining("Open Government Licence") });
    expect(body.readable).toBe(true);
    expect(body.message).toBe(
      "The latest accounts (made up to 2025-03-31, filed 2025-12-18) were read from their iXBRL: 18 of 20 figures tagged for the period, with the previous period's comparatives.",
    );
    // The newer AA01 (a change of accounting reference date, category accounts too) is not accounts.
    expect(body.filing).toEqual({
      transactionId: "MzQ4NzY1NDMyMWFkaXF6a2N4",
      filedOn: "2025-12-18",
      madeUpTo: "2025-03-31",
      description: "accounts-with-accounts-type-small",
      formats: ["application/pdf", "application/xhtml+xml"],
    });
    expect(body.accountsType).toEqual({
      register: "small",
      document: "FullAccounts",
      accountingStandard: "SmallEntities",
      auditStatus: "AuditExempt-NoAccountantsReport",
      dormant: false,
    });
    expect(body).toMatchObject({ periodStart: "2024-04-01", periodEnd: "2025-03-31", balanceSheetDate: "2025-03-31", currency: "GBP" });
    expect(body.current.figures).toMatchObject({
      turnover: 1_482_500,
      operatingProfit: 48_000,
      profitAfterTax: 36_000,
      creditorsWithinOneYear: 139_000,
      netAssets: 318_000,
      shareCapital: 100,
      averageEmployees: 23,
    });
    expect(body.prior).toMatchObject({ startDate: "2023-04-01", endDate: "2024-03-31" });
    expect(body.prior.figures).toMatchObject({ operatingProfit: -12_000, grossProfit: null, creditorsAfterOneYear: 0, equity: 314_000 });
    expect(body.current.evidence.creditorsWithinOneYear).toEqual({
      concept: "core:Creditors",
      contextRef: "ctx6",
      text: "139",
      sign: null,
      scale: 3,
      unit: "iso4217:GBP",
      dimensions: { MaturitiesOrExpirationPeriodsDimension: "WithinOneYear" },
    });
    expect(body.prior.evidence.profitAfterTax).toMatchObject({ concept: "core:ProfitLoss", contextRef: "ctx2", text: "15", sign: "-" });
    expect(body.current.netAssetsFrom).toEqual({ rule: 1, concept: "NetAssetsLiabilities", deducted: [], notTagged: [] });
    expect(body.document).toEqual({
      format: "ixbrl",
      companyNumber: "01234567",
      companyName: "HARBOURSIDE LEGAL LIMITED",
      taxonomies: ["http://xbrl.frc.org.uk/cd/2023-01-01/business", "http://xbrl.frc.org.uk/fr/2023-01-01/core"],
      facts: 55,
    });
    expect(body.warnings).toEqual([
      'core:Debtors, current period: facts disagree, 187000 (context ctx4, shown "187") and 178000 (context ctx4, shown "178"); the first is used',
    ]);
    // The document the Document API serves here is the reader's own fixture.
    const served = await (await fetch("https://chdoc.test/document/HbsLgl2025AcctsXhtml01/content")).text();
    expect(served).toBe(await (await fetch("http://files.test/companies-house/ixbrl/harbourside-2025.xhtml")).text());
  });

  it("SPEC §4.8 accounts filed only as a PDF: 200, readable false with a sentence, no figures, not charged (x-credits-refunded: 2); an unpadded number is padded", async () => {
    const { r, body, keyId } = await accounts("123456");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(r.headers.get("x-credits-remaining")).toBe("100");
    // Not charged, so no signed receipt (issue 33 §2: receipts are of charged replies).
    expect(r.headers.get("x-receipt")).toBeNull();
    expect(await balanceOf(keyId)).toBe(100);
    expect(body.query).toEqual({ company: "123456" });
    expect(body.company).toMatchObject({ name: "QUAYSIDE PRINT WORKS LIMITED", number: "00123456" });
    expect(body).toMatchObject({
      readable: false,
      message:
        "The latest accounts (made up to 2024-06-30, filed 2025-03-21) were filed as a PDF only, with no tagged (iXBRL) version, so their figures cannot be read; nothing was charged.",
      filing: { transactionId: "MzQ1NjAwMTIzNGFkaXF6a2N4", filedOn: "2025-03-21", madeUpTo: "2024-06-30", formats: ["application/pdf"] },
      accountsType: { register: "total-exemption-full", document: null },
      current: null,
      prior: null,
      document: null,
      warnings: [],
    });
  });

  it("SPEC §4.8 a company that has filed no accounts yet: 200, readable false, filing null, not charged", async () => {
    const { r, body, keyId } = await accounts("15550001");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(await balanceOf(keyId)).toBe(100);
    expect(body).toMatchObject({ readable: false, filing: null, current: null, accountsType: { register: null } });
    expect(body.message).toBe("Companies House has no accounts filed for this company yet; nothing was charged.");
    expect(body.company).toMatchObject({ name: "HARBOURSIDE NEW VENTURES LTD", number: "15550001" });
  });

  it("SPEC §4.8 an SC number (typed in lower case) reads a micro-entity filing whose ix elements are un-prefixed", async () => {
    const { r, body, keyId } = await accounts("sc612345");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(98);
    expect(body.company).toMatchObject({ name: "HARBOURSIDE ROPEWORKS LTD", number: "SC612345", statusDetail: "active-proposal-to-strike-off" });
    expect(body).toMatchObject({
      readable: true,
      periodStart: "2021-10-01",
      periodEnd: "2022-09-30",
      accountsType: { register: "micro-entity", document: null, accountingStandard: "Micro-entities", dormant: false },
      filing: { madeUpTo: "2022-09-30", filedOn: "2023-06-27" },
      document: { companyNumber: "SC612345", taxonomies: ["http://xbrl.frc.org.uk/cd/2022-01-01/business", "http://xbrl.frc.org.uk/fr/2022-01-01/core"] },
      warnings: [],
    });
    const nonNull = (f: Record<string, number | null>) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== null));
    expect(nonNull(body.current.figures)).toEqual({
      currentAssets: 12480,
      creditorsWithinOneYear: 8120,
      netCurrentAssets: 4360,
      netAssets: 4360,
      equity: 4360,
      averageEmployees: 2,
    });
    expect(nonNull(body.prior.figures)).toEqual({
      currentAssets: 9310,
      creditorsWithinOneYear: 7905,
      netCurrentAssets: 1405,
      netAssets: 1405,
      equity: 1405,
      averageEmployees: 2,
    });
    expect(body.current.evidence.netAssets).toMatchObject({ concept: "core:NetAssetsLiabilities", contextRef: "i1", text: "4,360" });
  });

  it("SPEC §4.8 accounts that tag total equity and TALCL but no net assets line (an IRIS-shaped micro-entity filing, ns5: prefixes): net assets are the total equity, and the reply names Equity as their source", async () => {
    // SC612345's Document API serves the IRIS-shaped fixture instead of its own document: the company and period
    // the fixture names are its own, and the reply says they are not the register's.
    const iris = await (await fetch("http://files.test/companies-house/ixbrl/ashgrove-micro-iris-2024.xhtml")).text();
    failing("/document/RpwSc2022MicroXhtml3/content", () => new Response(iris, { headers: { "content-type": "application/xhtml+xml" } }));
    const { r, body } = await accounts("SC612345");
    expect(r.status).toBe(200);
    expect(body).toMatchObject({ readable: true, currency: "GBP", accountsType: { accountingStandard: "Micro-entities" } });
    expect(body.current.figures).toMatchObject({
      netAssets: -2_030,
      equity: -2_030,
      totalAssetsLessCurrentLiabilities: 8_920,
      creditorsAfterOneYear: 9_800,
      provisions: 1_150,
      shareCapital: 100,
      reserves: -2_130,
    });
    expect(body.current.netAssetsFrom).toEqual({ rule: 2, concept: "Equity", deducted: [], notTagged: [] });
    expect(body.current.evidence.netAssets).toMatchObject({ concept: "ns5:Equity", contextRef: "cfwd_31_03_2024", text: "2,030", sign: "-", dimensions: {} });
    expect(body.prior.figures.netAssets).toBe(3_730);
    expect(body.prior.netAssetsFrom).toMatchObject({ rule: 2, concept: "Equity" });
    expect(body.message).toBe(
      "The latest accounts (made up to 2022-09-30, filed 2023-06-27) were read from their iXBRL: 11 of 20 figures tagged for the period, with the previous period's comparatives; net assets are their total equity (Equity), as they tag no net assets line.",
    );
    expect(body.warnings).toEqual([
      "The document's period ends 2024-03-31; the register says the accounts are made up to 2022-09-30.",
      "The document names company 11482930, not SC612345.",
    ]);
    // The reply, with its new fields, is what the OpenAPI schema describes.
    const parsed = getAccounts.output.safeParse(body);
    expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
  });

  it("SPEC §4.8 the same accounts with total equity untagged too: net assets worked out from TALCL (rule 3), the lines taken away and the line not tagged said in netAssetsFrom and the message", async () => {
    const iris = await (await fetch("http://files.test/companies-house/ixbrl/ashgrove-micro-iris-2024.xhtml")).text();
    // The balance sheet's total equity shown as plain text instead of tagged (its components stay tagged).
    const untagged = iris.replace(/<ix:nonFraction contextRef="cfwd_31_03_20\d\d"[^>]*name="ns5:Equity"[^>]*>([^<]*)<\/ix:nonFraction>/g, "$1");
    expect(untagged).not.toBe(iris);
    failing("/document/RpwSc2022MicroXhtml3/content", () => new Response(untagged, { headers: { "content-type": "application/xhtml+xml" } }));
    const { r, body } = await accounts("SC612345");
    expect(r.status).toBe(200);
    expect(body.current.figures).toMatchObject({ netAssets: -2_030, equity: null, shareCapital: 100, reserves: -2_130 });
    expect(body.current.netAssetsFrom).toEqual({
      rule: 3,
      concept: "TotalAssetsLessCurrentLiabilities",
      deducted: ["creditorsAfterOneYear", "provisions"],
      notTagged: ["accrualsDeferredIncome"],
    });
    expect(body.current.evidence.netAssets).toBeUndefined();
    expect(body.prior.figures.netAssets).toBe(3_730);
    expect(body.message).toBe(
      "The latest accounts (made up to 2022-09-30, filed 2023-06-27) were read from their iXBRL: 10 of 20 figures tagged for the period, with the previous period's comparatives; net assets are worked out as total assets less current liabilities less creditors due after more than one year and provisions, as they tag neither a net assets line nor total equity; accruals and deferred income not tagged, counted as nil.",
    );
  });

  it("SPEC §7 the Document API answering 429 is 503 upstream_unavailable with the credits back, never 'not found' or 'no accounts'", async () => {
    failing("chdoc.test", () => new Response("", { status: 429, headers: { "X-Ratelimit-Remaining": "0" } }));
    const { r, body, keyId } = await accounts("01234567");
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 Companies House failing on the filing history is 503 with the credits back", async () => {
    // A company whose filing history no earlier test has read (the history is cached for hours once read).
    failing("/filing-history", () => new Response("upstream connect error", { status: 502 }));
    const { r, body, keyId } = await accounts("03712548");
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 a tagged document with no facts at all is 422 unreadable_input with query, and costs nothing", async () => {
    failing(
      "/document/RpwSc2022MicroXhtml3/content",
      () => new Response("<html><body><p>Micro-entity accounts</p></body></html>", { headers: { "content-type": "application/xhtml+xml" } }),
    );
    const { r, body, keyId } = await accounts("SC612345");
    expect(r.status).toBe(422);
    expect(body).toMatchObject({ code: "unreadable_input", query: "SC612345" });
    expect(body.message).toContain("The latest accounts (made up to 2022-09-30, filed 2023-06-27) could not be read");
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 an unknown company is 404 with query and costs nothing; a value that is not a company number is 400", async () => {
    const missing = await accounts("99999999");
    expect(missing.r.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "not_found", query: "99999999" });
    expect(await balanceOf(missing.keyId)).toBe(100);
    const bad = await accounts("not a company");
    expect(bad.r.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "bad_request", field: "company" });
  });

  it("SPEC §5 a key is required", async () => {
    const r = await call("/api/v1/accounts?company=01234567");
    expect(r.status).toBe(401);
    expect((await json(r)).code).toBe("missing_key");
  });
});
