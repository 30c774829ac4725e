import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { companyChangesOf } from "../../../src/db/companies";
import { getPublicRecord } from "../../../src/operations/risk/getPublicRecord";
import { balanceOf, call, createTestKey } from "../../helpers";
import { enc, ingest } from "../registers/registerData";

/**
 * public-record: GET /api/v1/public-record?company=, 3 credits. Fixtures, in the upstreams' real formats:
 * - test/fixtures/hosts/ch.test/company/04455667 (ANCHORAGE MARINE SERVICES LIMITED): profile (renamed 2011), the
 *   newest page of its filing history (12 of 112 filings: CS01, AA, AD01, NEWINC, change of name, and officer, PSC
 *   and mortgage filings), officers, PSCs, two charges (one satisfied), a company voluntary arrangement;
 * - test/fixtures/hosts/gazette.test: its notice feed (a petition to wind up, its dismissal, which states no number
 *   but whose linked data does, and a petition against another company of the same name);
 * - the sponsors register loaded here twice (the company re-rated A → B), and company_changes rows of the companies
 *   register written here (one of a run not yet published).
 */

const N = "04455667";
const NAME = "ANCHORAGE MARINE SERVICES LIMITED";
/** Everyone the fixtures name: officers, PSCs, practitioners, a person entitled to a charge, the notices' solicitor. */
const PEOPLE = [
  "Tregarthen",
  "Imogen",
  "Holloway",
  "Benedict",
  "Pascoe",
  "Rhodri",
  "Morwenna",
  "Rosewarne",
  "Lowenna",
  "Piran",
  "Nancarrow",
  "Treloar",
  "Jowan",
  "Kitto",
  "Tamsin",
];

const publicRecord = async (company: string, opts: { verified?: boolean } = {}) => {
  const { key, keyId } = await createTestKey({ verified: opts.verified });
  const r = await call(`/api/v1/public-record?company=${encodeURIComponent(company)}`, { key });
  const text = await r.text();
  return { r, text, body: JSON.parse(text) as Record<string, any>, keyId };
};

/** Answers with `reply` every request whose URL contains `part`; the rest go to the fixture hosts. */
function failing(part: string, reply: () => Response) {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
    String(input instanceof Request ? input.url : input).includes(part) ? reply() : real(input, init),
  );
}

const snapshot = (o: Record<string, string | null>) => JSON.stringify(o);

beforeAll(async () => {
  const header = "Organisation Name,Town/City,County,Type & Rating,Route\n";
  const others =
    "Harbour Lights Kitchen Ltd,Bristol,,Worker (A rating),Skilled Worker\nGreystone Engineering Limited,Sheffield,,Worker (A rating),Skilled Worker\n";
  await ingest("sponsors", enc(`${header}${others}Anchorage Marine Services Ltd,Plymouth,,Worker (A rating),Skilled Worker\n`), "2026-06-26");
  await ingest("sponsors", enc(`${header}${others}Anchorage Marine Services Ltd,Plymouth,,Worker (B rating),Skilled Worker\n`), "2026-06-29");
  // The companies register: run 7 published; run 8 (a status change to Liquidation) still being written.
  const row = (run: number, date: string, kind: string, before: string | null, after: string | null) =>
    env.COMPANIES_DB.prepare(`INSERT INTO company_changes (run_id, change_date, number, kind, name, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)`).bind(
      run,
      date,
      N,
      kind,
      NAME,
      before,
      after,
    );
  const snap = (status: string, postcode = "PL1 3DE") => snapshot({ name: NAME, status, locality: "PLYMOUTH", postcode });
  await env.COMPANIES_DB.batch([
    env.COMPANIES_DB.prepare(`INSERT INTO company_state (id, published_run, edition_date, sample) VALUES (1, 7, '2026-11-01', 0)`),
    row(5, "2024-04-01", "moved", snap("Active", "PL4 0DW"), snap("Active")),
    row(6, "2026-10-01", "status", snap("Active"), snap("Active - Proposal to Strike off")),
    row(7, "2026-11-01", "status", snap("Active - Proposal to Strike off"), snap("Active")),
    row(8, "2026-12-01", "status", snap("Active"), snap("Liquidation")),
  ]);
});

afterEach(() => vi.restoreAllMocks());

describe("public-record: a dated timeline of the company's public record", () => {
  it("the companies register's recorded changes of a company, newest first, those of a run not yet published left out", async () => {
    const rows = await companyChangesOf(env.COMPANIES_DB, N, 10);
    expect(rows.map((r) => [r.date, r.kind, r.after?.status])).toEqual([
      ["2026-11-01", "status", "Active"],
      ["2026-10-01", "status", "Active - Proposal to Strike off"],
      ["2024-04-01", "moved", "Active"],
    ]);
    expect(rows[0]).toMatchObject({ key: N, name: NAME, before: { status: "Active - Proposal to Strike off", postcode: "PL1 3DE" } });
    expect(await companyChangesOf(env.COMPANIES_DB, N, 1)).toHaveLength(1);
    expect(await companyChangesOf(env.COMPANIES_DB, "01234567")).toEqual([]);
  });

  it("end to end: every source, newest first, each event with its source and evidence; 3 credits; an unpadded number is padded", async () => {
    const { r, body, keyId } = await publicRecord("4455667");
    expect(r.status).toBe(200);
    expect(getPublicRecord.price).toBe(3);
    expect(await balanceOf(keyId)).toBe(97);
    expect(r.headers.get("x-credits-remaining")).toBe("97");
    getPublicRecord.output.parse(body);
    expect(body.query).toEqual({ company: "4455667" });
    expect(body.company).toEqual({
      name: NAME,
      number: N,
      status: "active",
      filingsOverdue: false,
      registeredOffice: "Unit 4, Millbay Docks, Plymouth, PL1 3DE, England",
    });
    const dates = body.events.map((e: { date: string }) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(body.events.slice(0, 7).map((e: { date: string; kind: string; source: string }) => [e.date, e.kind, e.source])).toEqual([
      ["2026-11-01", "status-changed", "register-companies"],
      ["2026-10-01", "status-changed", "register-companies"],
      ["2026-06-29", "register-change", "register-sponsors"],
      ["2026-06-02", "confirmation-statement-filed", "companies-house-filing-history"],
      ["2026-04-14", "gazette-notice", "the-gazette"],
      ["2026-03-17", "gazette-notice", "the-gazette"],
      ["2026-02-11", "accounts-filed", "companies-house-filing-history"],
    ]);
    expect(body.events.at(-1)).toEqual({
      date: "2003-05-20",
      kind: "incorporated",
      summary: "Incorporated as ANCHORAGE MARINE LIMITED.",
      source: "companies-house-profile",
      evidence: { transactionId: "MjAwMzA1MjBuZXdpbmNhZGlxemtjeA", formType: "NEWINC", description: "incorporation-company" },
    });
    expect(body.counts).toMatchObject({
      "gazette-notice": 2,
      "officers-appointed": 3,
      "officers-terminated": 2,
      "charge-created": 2,
      "charge-satisfied": 1,
      "status-changed": 2,
      "register-change": 1,
    });
    expect(body.summary).toBe(`${NAME}: ${body.events.length} events on the public record, 2003-05-20 to 2026-11-01 (the newest 12 filings).`);
    expect(body.provenance.companiesHouse).toMatchObject({
      source: "Companies House public data API",
      licence: expect.stringContaining("Open Government Licence"),
    });
    expect(body.provenance.gazette).toMatchObject({
      source: expect.stringContaining("The Gazette"),
      licence: expect.stringContaining("Open Government Licence"),
    });
    expect(body.provenance.registers.map((p: { source: string; registerDate: string | null }) => [p.source.split(" (")[0], p.registerDate])).toEqual([
      ["Home Office register of licensed sponsors", "2026-06-29"],
      ["Companies House Basic Company Data", "2026-11-01"],
    ]);
  });

  it("SPEC §1 rule 7 officers' and PSCs' appointments and terminations grouped by date and counted by role, never named, for any caller", async () => {
    for (const verified of [false, true]) {
      const { body, text } = await publicRecord(N, { verified });
      const of = (kind: string) =>
        body.events
          .filter((e: { kind: string }) => e.kind === kind)
          .map((e: { date: string; summary: string; counted: unknown }) => [e.date, e.summary, e.counted]);
      expect(of("officers-appointed")).toEqual([
        ["2024-10-31", "2 directors appointed.", { total: 2, by: { director: 2 } }],
        ["2012-03-01", "1 secretary appointed.", { total: 1, by: { secretary: 1 } }],
        ["2003-05-20", "2 officers appointed: 1 corporate secretary, 1 director.", { total: 2, by: { "corporate-secretary": 1, director: 1 } }],
      ]);
      expect(of("officers-terminated")).toEqual([
        ["2024-10-31", "1 director ceased to act (resigned or terminated).", { total: 1, by: { director: 1 } }],
        ["2012-03-01", "1 corporate secretary ceased to act (resigned or terminated).", { total: 1, by: { "corporate-secretary": 1 } }],
      ]);
      expect(of("pscs-notified")).toEqual([
        ["2021-04-12", "2 persons with significant control notified: 1 corporate entity, 1 individual.", { total: 2, by: { corporate: 1, individual: 1 } }],
        ["2016-04-06", "1 individual with significant control notified.", { total: 1, by: { individual: 1 } }],
      ]);
      expect(of("pscs-ceased")).toEqual([["2021-04-12", "1 individual with significant control ceased.", { total: 1, by: { individual: 1 } }]]);
      // The AP01, TM01 and PSC07 filings (which name them) are not repeated; nor the MR01 and MR04.
      expect(body.coverage.filingsFolded).toEqual({ officers: 2, pscs: 1, charges: 2, sameAsProfile: 3 });
      const lower = text.toLowerCase();
      for (const name of [...PEOPLE, "KERNOW COMPANY SECRETARIES", "Tamar Estuary", "HARBOUR FUELS"]) expect(lower, name).not.toContain(name.toLowerCase());
      // Practitioners counted.
      expect(body.events.find((e: { date: string; kind: string; counted?: unknown }) => e.date === "2016-03-10" && e.counted)).toMatchObject({
        kind: "insolvency-case-event",
        summary: "Company voluntary arrangement (case 1): 2 insolvency practitioners appointed.",
        counted: { total: 2, by: { practitioner: 2 } },
      });
    }
  });

  it("charges created and satisfied, from the charges list, with their codes; persons entitled left out", async () => {
    const { body, text } = await publicRecord(N);
    const charges = body.events.filter((e: { kind: string }) => e.kind.startsWith("charge-"));
    expect(charges.map((e: { date: string; kind: string; summary: string; evidence: unknown }) => [e.date, e.kind, e.summary, e.evidence])).toEqual([
      ["2025-09-15", "charge-satisfied", "Charge number 1 satisfied.", { chargeNumber: 1, chargeId: "Zx1Cv2Bn3Mq4Wr5Et6Yu7Io8Pa9" }],
      [
        "2023-07-14",
        "charge-created",
        "Charge 044556670002 created (A registered charge): fixed charge, floating charge over all the property or undertaking, negative pledge. Outstanding.",
        { chargeCode: "044556670002", chargeNumber: 2, chargeId: "An2cH4rG6eC8oD0eX2yZ4wQ6sR8" },
      ],
      ["2009-02-02", "charge-created", "Charge number 1 created (Debenture): floating charge.", { chargeNumber: 1, chargeId: "Zx1Cv2Bn3Mq4Wr5Et6Yu7Io8Pa9" }],
    ]);
    expect(body.coverage.charges).toEqual({ read: 2, total: 2 });
    expect(text).not.toContain("National Westminster"); // no lender is named, organisation or not
  });

  it("the Gazette: the petition and its dismissal (matched through the notice's linked data), said dismissed; a same-name company's notice left out", async () => {
    const { body, text } = await publicRecord(N);
    const notices = body.events.filter((e: { kind: string }) => e.kind === "gazette-notice");
    expect(notices).toEqual([
      {
        date: "2026-04-14",
        kind: "gazette-notice",
        summary: "Gazette notice 2461: Dismissal of winding-up petition.",
        source: "the-gazette",
        evidence: { noticeId: "5301002", noticeCode: "2461", url: "https://www.thegazette.co.uk/notice/5301002", matchedBy: "company number" },
      },
      {
        date: "2026-03-17",
        kind: "gazette-notice",
        summary: "Gazette notice 2450: Petition to wind up. Dismissed: notice 5301002 of 2026-04-14.",
        source: "the-gazette",
        evidence: {
          noticeId: "5290417",
          noticeCode: "2450",
          url: "https://www.thegazette.co.uk/notice/5290417",
          matchedBy: "company number",
          dismissedBy: "5301002",
        },
      },
    ]);
    expect(text).not.toContain("5288800");
    expect(text).not.toContain("09988776");
    expect(body.coverage.gazette).toEqual({ noticesRead: 3, matched: 2, truncated: false });
  });

  it("our registers' recorded changes (sponsors: re-rated), and the companies register's (published runs only; what Companies House already dates dropped)", async () => {
    const { body } = await publicRecord(N);
    const fromRegisters = body.events.filter((e: { source: string }) => e.source.startsWith("register-"));
    expect(
      fromRegisters.map((e: { date: string; kind: string; summary: string; evidence: { register: string; changeKind: string } }) => [
        e.date,
        e.kind,
        e.summary,
        e.evidence.register,
        e.evidence.changeKind,
      ]),
    ).toEqual([
      [
        "2026-11-01",
        "status-changed",
        "Status changed from Active - Proposal to Strike off to Active (Companies House's monthly Basic Company Data).",
        "companies",
        "status",
      ],
      [
        "2026-10-01",
        "status-changed",
        "Status changed from Active to Active - Proposal to Strike off (Companies House's monthly Basic Company Data).",
        "companies",
        "status",
      ],
      [
        "2026-06-29",
        "register-change",
        "Home Office register of licensed sponsors: Anchorage Marine Services Ltd rating changed from A rating to B rating.",
        "sponsors",
        "re-rated",
      ],
    ]);
    // The move of 2024-04-01 is the AD01 of 2024-03-05; run 8's Liquidation is not published.
    expect(JSON.stringify(body.events)).not.toContain("Liquidation");
    expect(body.coverage.registers).toEqual([
      { register: "aml", found: false, possibleMatch: false, matchedBy: null, changes: 0, historySince: null, truncated: false },
      { register: "sra", found: false, possibleMatch: false, matchedBy: null, changes: 0, historySince: null, truncated: false },
      {
        register: "sponsors",
        found: true,
        possibleMatch: false,
        matchedBy: "registered and former company names from Companies House",
        changes: 1,
        historySince: "2026-06-26",
        truncated: false,
      },
      { register: "cqc", found: false, possibleMatch: false, matchedBy: null, changes: 0, historySince: null, truncated: false },
      { register: "charity", found: false, possibleMatch: false, matchedBy: null, changes: 0, historySince: null, truncated: false },
    ]);
    expect(body.coverage.companiesRegister).toEqual({ editionDate: "2026-11-01", changes: 3, truncated: false });
  });

  it("coverage is honest about truncation: the newest 12 of 112 filings", async () => {
    const { body } = await publicRecord(N);
    expect(body.coverage).toMatchObject({
      filingHistory: { read: 12, total: 112, truncated: true },
      officers: { read: 5, total: 5, truncated: false },
      pscs: { read: 3, total: 3, truncated: false },
      insolvencyCases: 1,
      undated: 0,
    });
    expect(body.coverage.notes).toEqual(["The timeline covers the newest 12 of the company's 112 filings; older filings are not in it."]);
  });

  it("a company with no charges, insolvency or notices: those parts are empty, not errors (01234567)", async () => {
    const { r, body } = await publicRecord("01234567");
    expect(r.status).toBe(200);
    expect(body.company).toMatchObject({ name: "HARBOURSIDE LEGAL LIMITED", number: "01234567" });
    expect(body.coverage).toMatchObject({
      insolvencyCases: 0,
      gazette: { noticesRead: 0, matched: 0, truncated: false },
      filingHistory: { read: 3, total: 3, truncated: false },
    });
    expect(body.events.at(-1)).toMatchObject({ date: "1978-02-14", kind: "incorporated", summary: "Incorporated as HARBOURSIDE & CO SOLICITORS LIMITED." });
  });

  it("SPEC §7 an unknown company is 404 with query, nothing charged", async () => {
    const { r, body, keyId } = await publicRecord("07000001");
    expect(r.status).toBe(404);
    expect(body).toMatchObject({ code: "not_found", query: "07000001" });
    expect(r.headers.get("x-credits-refunded")).toBe("3");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 bad input is 400, nothing charged", async () => {
    const { r, body, keyId } = await publicRecord("not a number");
    expect(r.status).toBe(400);
    expect(body.code).toBe("bad_request");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 Companies House failing part-way is 503 with the credits back, never a shorter timeline", async () => {
    await env.DB.prepare(`DELETE FROM http_cache`).run(); // earlier tests cached the officers
    failing(`/company/${N}/officers`, () => new Response("upstream connect error", { status: 502 }));
    const { r, body, keyId } = await publicRecord(N);
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(r.headers.get("x-credits-refunded")).toBe("3");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 The Gazette failing is 503 with the credits back", async () => {
    await env.DB.prepare(`DELETE FROM http_cache`).run();
    failing("gazette.test/insolvency", () => new Response("upstream trouble", { status: 502 }));
    const { r, body, keyId } = await publicRecord(N);
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(r.headers.get("x-credits-refunded")).toBe("3");
    expect(await balanceOf(keyId)).toBe(100);
  });
});
