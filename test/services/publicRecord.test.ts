import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import type { CompanyProfile } from "../../src/services/companies/profile";
import { PUBLIC_RECORD_KINDS, type PublicRecordInput, publicRecordTimeline, registerChangeWords } from "../../src/services/companies/publicRecord";
import type { ChangeRow } from "../../src/services/registers/types";
import { matchNotices } from "../../src/services/risk/gazette";
import {
  parseChargeList,
  parseCompanyProfile,
  parseFilingHistory,
  parseInsolvency,
  parseOfficerList,
  parsePscList,
} from "../../src/sources/companies-house/parse";
import { parseNoticeFeed } from "../../src/sources/gazette/parse";

/**
 * public-record (issue: "a dated timeline of the company's public record"): the timeline built from what was read.
 * Fixtures: test/fixtures/hosts/ch.test/company/04455667 (ANCHORAGE MARINE SERVICES LIMITED: renamed 2011, a CVA
 * 2016–2019, two charges, one satisfied, officers and PSCs coming and going) and its Gazette feed in
 * test/fixtures/hosts/gazette.test (a petition to wind up, its dismissal, and a petition against another company of
 * the same name). Real Companies House replies from ../shared where present.
 */

const N = "04455667";
const ch = async (path: string) => (await fetch(`https://ch.test/company/${path}`)).text();
const real = async (file: string) => (await fetch(`http://shared.test/data/companies-house-api/fixtures/${file}`)).text();

/** The people the fixture names (officers, PSCs, practitioners, a person entitled to a charge, the notices' solicitor). */
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
  "Nancarrow",
  "Piran",
  "Treloar",
  "Jowan",
  "Kitto",
  "Tamsin",
];

const companyChanges: ChangeRow[] = [
  {
    id: 9,
    date: "2026-11-01",
    kind: "status",
    key: N,
    name: "ANCHORAGE MARINE SERVICES LIMITED",
    before: { status: "Active - Proposal to Strike off" },
    after: { status: "Active" },
  },
  {
    id: 8,
    date: "2026-10-01",
    kind: "status",
    key: N,
    name: "ANCHORAGE MARINE SERVICES LIMITED",
    before: { status: "Active" },
    after: { status: "Active - Proposal to Strike off" },
  },
  {
    id: 5,
    date: "2025-01-01",
    kind: "moved",
    key: N,
    name: "ANCHORAGE MARINE SERVICES LIMITED",
    before: { postcode: "PL1 3DE" },
    after: { postcode: "PL1 3DF" },
  },
  // Companies House dates these itself (the AD01 of 2024-03-05, the rename of 2011-08-01): dropped.
  {
    id: 4,
    date: "2024-04-01",
    kind: "moved",
    key: N,
    name: "ANCHORAGE MARINE SERVICES LIMITED",
    before: { postcode: "PL4 0DW" },
    after: { postcode: "PL1 3DE" },
  },
  {
    id: 2,
    date: "2011-09-01",
    kind: "renamed",
    key: N,
    name: "ANCHORAGE MARINE SERVICES LIMITED",
    before: { name: "ANCHORAGE MARINE LIMITED" },
    after: { name: "ANCHORAGE MARINE SERVICES LIMITED" },
  },
];
const sponsorChange: ChangeRow = {
  id: 41,
  date: "2026-06-29",
  kind: "re-rated",
  key: "sponsors|anchorage marine services",
  name: "Anchorage Marine Services Ltd",
  before: { rating: "A rating", ratings: { "Skilled Worker": "A rating" } },
  after: { rating: "B rating", ratings: { "Skilled Worker": "B rating" } },
};

async function fixtureInput(): Promise<PublicRecordInput> {
  const profile = parseCompanyProfile(await ch(N))!;
  const feed = parseNoticeFeed(
    await (
      await fetch(`https://gazette.test/insolvency/notice/data.json?text=${encodeURIComponent('"ANCHORAGE MARINE SERVICES LIMITED"')}&results-page=1`)
    ).text(),
  )!;
  // The dismissal states no number; its linked data gives it (the client reads it: test/operations/risk/getPublicRecord.test.ts).
  for (const n of feed.notices) if (n.id === "5301002") n.companyNumber = N;
  return {
    profile,
    filings: parseFilingHistory(await ch(`${N}/filing-history`)),
    officers: parseOfficerList(await ch(`${N}/officers`)),
    pscs: parsePscList(await ch(`${N}/persons-with-significant-control`)),
    charges: parseChargeList(await ch(`${N}/charges`)),
    insolvency: parseInsolvency(await ch(`${N}/insolvency`)),
    notices: matchNotices(feed.notices, {
      number: N,
      name: profile.name,
      previousNames: profile.previousNames.map((p) => p.name),
      postcode: profile.registeredOffice.postcode,
    }),
    registerChanges: [{ register: "sponsors", changes: [sponsorChange] }],
    companyChanges,
  };
}

describe("public-record: the timeline", () => {
  it("every source, newest first, one event per fact, each with its source and evidence", async () => {
    const t = publicRecordTimeline(await fixtureInput());
    expect(t.events.map((e) => [e.date, e.kind, e.source, e.summary])).toEqual([
      [
        "2026-11-01",
        "status-changed",
        "register-companies",
        "Status changed from Active - Proposal to Strike off to Active (Companies House's monthly Basic Company Data).",
      ],
      [
        "2026-10-01",
        "status-changed",
        "register-companies",
        "Status changed from Active to Active - Proposal to Strike off (Companies House's monthly Basic Company Data).",
      ],
      [
        "2026-06-29",
        "register-change",
        "register-sponsors",
        "Home Office register of licensed sponsors: Anchorage Marine Services Ltd rating changed from A rating to B rating.",
      ],
      [
        "2026-06-02",
        "confirmation-statement-filed",
        "companies-house-filing-history",
        "Confirmation statement made up to 2026-05-20 filed (CS01), no updates.",
      ],
      ["2026-04-14", "gazette-notice", "the-gazette", "Gazette notice 2461: Dismissal of winding-up petition."],
      ["2026-03-17", "gazette-notice", "the-gazette", "Gazette notice 2450: Petition to wind up. Dismissed: notice 5301002 of 2026-04-14."],
      ["2026-02-11", "accounts-filed", "companies-house-filing-history", "Accounts (total exemption full) made up to 2025-05-31 filed (AA)."],
      ["2025-09-15", "charge-satisfied", "companies-house-charges", "Charge number 1 satisfied."],
      [
        "2025-06-01",
        "confirmation-statement-filed",
        "companies-house-filing-history",
        "Confirmation statement made up to 2025-05-20 filed (CS01), with updates.",
      ],
      [
        "2025-01-01",
        "registered-office-changed",
        "register-companies",
        "Registered office postcode changed from PL1 3DE to PL1 3DF (Companies House's monthly Basic Company Data).",
      ],
      ["2024-10-31", "officers-appointed", "companies-house-officers", "2 directors appointed."],
      ["2024-10-31", "officers-terminated", "companies-house-officers", "1 director ceased to act (resigned or terminated)."],
      ["2024-03-05", "registered-office-changed", "companies-house-filing-history", "Registered office address changed (AD01)."],
      [
        "2023-07-14",
        "charge-created",
        "companies-house-charges",
        "Charge 044556670002 created (A registered charge): fixed charge, floating charge over all the property or undertaking, negative pledge. Outstanding.",
      ],
      ["2021-04-12", "pscs-notified", "companies-house-pscs", "2 persons with significant control notified: 1 corporate entity, 1 individual."],
      ["2021-04-12", "pscs-ceased", "companies-house-pscs", "1 individual with significant control ceased."],
      ["2019-03-11", "insolvency-case-event", "companies-house-insolvency", "Company voluntary arrangement (case 1): 1 insolvency practitioner ceased to act."],
      [
        "2019-03-11",
        "insolvency-case-event",
        "companies-house-insolvency",
        "Company voluntary arrangement (case 1): voluntary arrangement completed or terminated.",
      ],
      ["2016-04-06", "pscs-notified", "companies-house-pscs", "1 individual with significant control notified."],
      ["2016-03-10", "insolvency-case-event", "companies-house-insolvency", "Company voluntary arrangement (case 1): 2 insolvency practitioners appointed."],
      [
        "2016-03-10",
        "insolvency-case-event",
        "companies-house-insolvency",
        "Company voluntary arrangement (case 1): meeting to approve the voluntary arrangement.",
      ],
      ["2012-03-01", "officers-appointed", "companies-house-officers", "1 secretary appointed."],
      ["2012-03-01", "officers-terminated", "companies-house-officers", "1 corporate secretary ceased to act (resigned or terminated)."],
      ["2011-08-01", "renamed", "companies-house-profile", "Renamed from ANCHORAGE MARINE LIMITED to ANCHORAGE MARINE SERVICES LIMITED."],
      ["2009-02-02", "charge-created", "companies-house-charges", "Charge number 1 created (Debenture): floating charge."],
      ["2003-05-20", "officers-appointed", "companies-house-officers", "2 officers appointed: 1 corporate secretary, 1 director."],
      ["2003-05-20", "incorporated", "companies-house-profile", "Incorporated as ANCHORAGE MARINE LIMITED."],
    ]);
    const dates = t.events.map((e) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());
    // Officer, PSC and mortgage filings are folded into the lists; NEWINC and both change-of-name filings are evidence.
    expect(t.filingsFolded).toEqual({ officers: 2, pscs: 1, charges: 2, sameAsProfile: 3 });
    expect(t.undated).toBe(0);
    expect(t.counts).toMatchObject({ "officers-appointed": 3, "gazette-notice": 2, "charge-created": 2, "charge-satisfied": 1, incorporated: 1, renamed: 1 });
    expect(Object.values(t.counts).reduce((a, b) => a + b, 0)).toBe(t.events.length);
    for (const e of t.events) expect(PUBLIC_RECORD_KINDS).toContain(e.kind);
  });

  it("evidence: the filing, the charge code, the notice id and page with how it matched, the case, the register's change", async () => {
    const t = publicRecordTimeline(await fixtureInput());
    const one = (kind: string, date: string) => t.events.find((e) => e.kind === kind && e.date === date)!;
    expect(one("incorporated", "2003-05-20").evidence).toEqual({
      transactionId: "MjAwMzA1MjBuZXdpbmNhZGlxemtjeA",
      formType: "NEWINC",
      description: "incorporation-company",
    });
    expect(one("renamed", "2011-08-01").evidence).toMatchObject({ formType: "CERTNM" });
    expect(one("charge-created", "2023-07-14").evidence).toEqual({ chargeCode: "044556670002", chargeNumber: 2, chargeId: "An2cH4rG6eC8oD0eX2yZ4wQ6sR8" });
    expect(one("gazette-notice", "2026-03-17").evidence).toEqual({
      noticeId: "5290417",
      noticeCode: "2450",
      url: "https://www.thegazette.co.uk/notice/5290417",
      matchedBy: "company number",
      dismissedBy: "5301002",
    });
    expect(one("insolvency-case-event", "2016-03-10").evidence).toMatchObject({ caseNumber: "1", caseType: "corporate-voluntary-arrangement" });
    expect(one("register-change", "2026-06-29").evidence).toEqual({ register: "sponsors", changeKind: "re-rated", changeId: 41 });
    expect(one("accounts-filed", "2026-02-11").evidence).toEqual({
      transactionId: "MzQ5ODc2NTQzMmFkaXF6a2N4",
      formType: "AA",
      description: "accounts-with-accounts-type-total-exemption-full",
    });
  });

  it("SPEC §1 rule 7 officers and PSCs grouped per date and counted by role, never named; practitioners counted; persons entitled left out", async () => {
    const t = publicRecordTimeline(await fixtureInput());
    expect(t.events.filter((e) => e.kind === "officers-appointed").map((e) => [e.date, e.counted])).toEqual([
      ["2024-10-31", { total: 2, by: { director: 2 } }],
      ["2012-03-01", { total: 1, by: { secretary: 1 } }],
      ["2003-05-20", { total: 2, by: { "corporate-secretary": 1, director: 1 } }],
    ]);
    expect(t.events.find((e) => e.kind === "pscs-notified")!.counted).toEqual({ total: 2, by: { corporate: 1, individual: 1 } });
    const text = JSON.stringify(t).toLowerCase();
    for (const name of [...PEOPLE, "KERNOW COMPANY SECRETARIES", "Tamar Estuary", "National Westminster", "HARBOUR FUELS"])
      expect(text, name).not.toContain(name.toLowerCase());
  });

  it("the Gazette: only the company's own notices; a petition dismissed by a later notice says so", async () => {
    const t = publicRecordTimeline(await fixtureInput());
    const notices = t.events.filter((e) => e.kind === "gazette-notice");
    expect(notices.map((e) => e.evidence.noticeId)).toEqual(["5301002", "5290417"]);
    expect(JSON.stringify(t)).not.toContain("5288800"); // same name, company 09988776
    // Without the dismissal, the petition stands.
    const input = await fixtureInput();
    const petitionOnly = publicRecordTimeline({ ...input, notices: input.notices.filter((m) => m.notice.code === "2450") });
    expect(petitionOnly.events.find((e) => e.kind === "gazette-notice")).toMatchObject({
      summary: "Gazette notice 2450: Petition to wind up.",
      evidence: { noticeId: "5290417" },
    });
    expect(petitionOnly.events.find((e) => e.kind === "gazette-notice")!.evidence.dismissedBy).toBeUndefined();
  });

  it("undated records are counted and left out; a dissolved company's GAZ2 is the evidence of its dissolution; strike-off action and other filings", () => {
    const profile: CompanyProfile = {
      ...emptyProfile,
      status: "dissolved",
      incorporatedOn: "2010-07-09",
      ceasedOn: "2019-01-03",
    };
    const filing = (date: string | null, category: string, type: string, description: string, values: Record<string, string> = {}) => ({
      transactionId: `T-${type}-${date}`,
      date,
      actionDate: null,
      category,
      subcategory: null,
      type,
      description,
      descriptionValues: values,
      paperFiled: null,
      pages: null,
      documentMetadataUrl: null,
    });
    const t = publicRecordTimeline({
      profile,
      filings: {
        totalCount: 6,
        status: null,
        items: [
          filing("2019-01-03", "gazette", "GAZ2", "gazette-dissolved-compulsory"),
          filing("2018-10-16", "gazette", "GAZ1", "gazette-notice-compulsory"),
          filing("2016-06-13", "insolvency", "600", "liquidation-voluntary-appointment-of-liquidator"),
          filing("2014-09-17", "capital", "SH01", "capital-allotment-shares", { date: "2014-09-01" }),
          filing("2012-02-08", "mortgage", "MG01", "legacy", { description: "Debenture in favour of a person" }),
          filing(null, "resolution", "RES01", "resolution"),
        ],
      },
      officers: {
        totalResults: 1,
        activeCount: 1,
        resignedCount: 0,
        inactiveCount: 0,
        itemsPerPage: 35,
        startIndex: 0,
        items: [{ ...emptyOfficer, role: "director", appointedOn: null }],
      },
      pscs: null,
      charges: null,
      insolvency: null,
      notices: [],
      registerChanges: [],
      companyChanges: [],
    });
    expect(t.events.map((e) => [e.date, e.kind, e.summary, e.evidence.formType ?? null])).toEqual([
      ["2019-01-03", "dissolved", "Dissolved.", "GAZ2"],
      ["2018-10-16", "strike-off-action", "First Gazette notice for compulsory strike-off (GAZ1).", "GAZ1"],
      ["2016-06-13", "insolvency-filing", "Insolvency filing: liquidation voluntary appointment of liquidator (600).", "600"],
      ["2014-09-17", "other-filing", "Capital allotment shares (SH01).", "SH01"],
      ["2010-07-09", "incorporated", "Incorporated as ACME TEST LIMITED.", null],
    ]);
    expect(t.undated).toBe(2); // the resolution with no date, the director with no appointment date
    expect(t.filingsFolded).toEqual({ officers: 0, pscs: 0, charges: 1, sameAsProfile: 1 });
  });

  it("a register change in plain words, for every kind the registers record", () => {
    const w = (kind: string, before: Record<string, unknown> | null, after: Record<string, unknown> | null) => registerChangeWords({ kind, before, after });
    expect(w("added", null, { status: "Approved", rating: null })).toBe("listed (Approved)");
    expect(w("removed", { status: "Approved" }, null)).toBe("no longer listed");
    expect(w("status", { status: "Registered" }, { status: "Deregistered" })).toBe("status changed from Registered to Deregistered");
    expect(w("moved", { town: "Leeds" }, { town: "York" })).toBe("town changed from Leeds to York");
    expect(w("routes", { routes: ["Skilled Worker"] }, { routes: ["Skilled Worker", "Seasonal Worker"] })).toBe("routes changed; added Seasonal Worker");
    expect(w("premises", { premises: 2 }, { premises: 3 })).toBe("premises changed from 2 to 3");
    expect(w("renamed", { name: "A LTD" }, { name: "B LTD" })).toBe("name changed from A LTD to B LTD");
  });
});

describe.skipIf(!SHARED_PRESENT)("public-record on real Companies House replies (../shared)", () => {
  it("a real filing history and charges (PFB Hire, 07310390), officers (YOU LIMITED), PSCs (Yorkshire Air Ambulance), insolvency (London Airways): dated, folded, never a name", async () => {
    const filings = parseFilingHistory(await real("herrbert74__filing_pfb_hire.json"))!;
    const charges = parseChargeList(await real("herrbert74__charges_pfb_hire.json"))!;
    const officers = parseOfficerList(await real("herrbert74__officers_you_limited.json"))!;
    const pscs = parsePscList(await real("herrbert74__persons_yorkshire_air_ambulance.json"))!;
    const insolvency = parseInsolvency(await real("herrbert74__insolvency_london_airways.json"))!;
    const t = publicRecordTimeline({
      profile: { ...emptyProfile, name: "PFB HIRE LIMITED", number: "07310390", status: "dissolved", incorporatedOn: "2010-07-09", ceasedOn: "2019-01-03" },
      filings,
      officers,
      pscs,
      charges,
      insolvency,
      notices: [],
      registerChanges: [],
      companyChanges: [],
    });
    expect(filings.items).toHaveLength(47);
    // 47 filings: 10 officer filings and 11 mortgage filings folded, NEWINC and GAZ2 the evidence of the profile's events.
    expect(t.filingsFolded).toEqual({ officers: 10, pscs: 0, charges: 11, sameAsProfile: 2 });
    expect(t.events[0]).toMatchObject({ date: "2019-01-03", kind: "dissolved", evidence: { formType: "GAZ2", description: "gazette-dissolved-liquidation" } });
    expect(t.events.find((e) => e.kind === "incorporated")).toMatchObject({ date: "2010-07-09", evidence: { formType: "NEWINC" } });
    expect(t.counts).toMatchObject({
      "annual-return-filed": 8,
      "accounts-filed": 5,
      "insolvency-filing": 6,
      "registered-office-changed": 3,
      "charge-created": 9,
      "charge-satisfied": 1,
    });
    expect(t.events.filter((e) => e.kind === "insolvency-case-event").map((e) => [e.date, e.summary])).toEqual([
      ["1995-01-18", "Compulsory liquidation (case 1): winding up commenced."],
      ["1994-12-12", "Compulsory liquidation (case 1): petition presented."],
    ]);
    // YOU LIMITED's officers: the four appointed on 2002-07-02 counted by role; the secretary with no date left out.
    expect(t.events.find((e) => e.kind === "officers-appointed" && e.date === "2002-07-02")).toMatchObject({
      summary: "4 officers appointed: 2 directors, 1 corporate nominee secretary, 1 nominee director.",
      counted: { total: 4, by: { "corporate-nominee-secretary": 1, director: 2, "nominee-director": 1 } },
    });
    expect(t.events.find((e) => e.kind === "pscs-notified")).toMatchObject({ date: "2016-04-06", counted: { total: 5, by: { corporate: 1, individual: 4 } } });
    expect(t.undated).toBe(1);
    const dates = t.events.map((e) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const text = JSON.stringify(t).toLowerCase();
    const people = [
      ...officers.items.map((o) => o.name!).filter((n) => n.includes(",")),
      ...pscs.items.filter((p) => p.category === "individual").map((p) => p.name!),
      ...insolvency.cases.flatMap((c) => c.practitioners.map((p) => p.name!)),
    ];
    expect(people.length).toBeGreaterThan(8);
    // Every part of every name, as a word ("mary" may be in "summary").
    for (const p of people)
      for (const part of p
        .replace(/^(mr|mrs|ms|dr)\s+/i, "")
        .split(/[, ]+/)
        .filter((x) => x.length > 3))
        expect(text, p).not.toMatch(new RegExp(`\\b${part.toLowerCase()}\\b`));
    for (const lender of charges.items.flatMap((c) => c.personsEntitled)) expect(text).not.toContain(lender.toLowerCase());
  });
});

const emptyProfile: CompanyProfile = {
  number: "07000099",
  name: "ACME TEST LIMITED",
  status: "active",
  statusDetail: null,
  type: "ltd",
  incorporatedOn: null,
  ceasedOn: null,
  jurisdiction: null,
  registeredOffice: { line1: null, line2: null, locality: null, region: null, postcode: null, country: null, text: "" },
  previousNames: [],
  sicCodes: [],
  accountsOverdue: false,
  confirmationStatementOverdue: false,
  filingDates: { accountsDueOn: null, accountsMadeUpTo: null, confirmationStatementDueOn: null, confirmationStatementMadeUpTo: null },
  hasFilingDeadlines: false,
};

const emptyOfficer = {
  name: "SOMEONE, Anonymous",
  role: null,
  appointedOn: null,
  resignedOn: null,
  isCorporate: false,
  identification: null,
  nationality: null,
  countryOfResidence: null,
  occupation: null,
  dateOfBirth: null,
  identityVerification: null,
  appointmentsLink: null,
};
