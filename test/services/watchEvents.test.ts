import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CompanyProfile } from "../../src/services/companies/profile";
import type { ChargeList, Insolvency, OfficerList, PscList } from "../../src/services/companies/records";
import type { ContractAward } from "../../src/services/contracts/types";
import type { PaymentReport } from "../../src/services/payments/types";
import type { Entry } from "../../src/services/registers/types";
import type { MatchedNotice } from "../../src/services/risk/gazette";
import type { SanctionsMatch } from "../../src/services/sanctions/match";
import { EVENT_KIND_NAMES, EVENT_KINDS_DOC, type EventKind, type WatchEvent, diffReadings, eventKey } from "../../src/services/watch/events";
import { MAX_CONTRACTS, type Reading, type ReadingInput, readingOf } from "../../src/services/watch/reading";
import {
  parseChargeList,
  parseCompanyProfile,
  parseFilingHistory,
  parseInsolvency,
  parseOfficerList,
  parsePscList,
} from "../../src/sources/companies-house/parse";

/**
 * Watch events (issue 15 §2; SPEC §2.7, §3.1, §6.1): readings built from the Companies House fixtures in
 * test/fixtures/hosts/ch.test/company (12300001 NORTHGATE FABRICATIONS LIMITED: in liquidation, an insolvency case,
 * two charges; 12300002 KESTREL COURIERS LTD: proposed for strike-off, filings overdue; 01234567 HARBOURSIDE LEGAL
 * LIMITED: officers and PSCs with identity verification), and hand-made sanctions, payments, contracts and sponsors.
 */

const ch = async (path: string) => (await fetch(`https://ch.test/company/${path}`)).text();
const profileOf = async (n: string) => parseCompanyProfile(await ch(n))!;

/** People the fixtures name (officers, PSCs, an insolvency practitioner, a person entitled to a charge). */
const PEOPLE = ["Harper", "Okonjo", "Peel", "Jane Elizabeth", "Quayle", "Miranda", "Pellingham", "Edmund"];

/** Every kind some test produced: the last test checks each kind of the closed list was produced. */
const produced = new Set<EventKind>();
const allEvents: WatchEvent[] = [];
const allReadings: Reading[] = [];

function diff(prev: Reading | null, next: Reading, name: string) {
  allReadings.push(next);
  const d = diffReadings(prev, next, name);
  for (const e of d.events) {
    produced.add(e.kind);
    allEvents.push(e);
  }
  return d;
}
const kinds = (events: WatchEvent[]) => events.map((e) => e.kind);

const at = (day: string) => `${day}T06:00:00.000Z`;
const base = (company: string, day: string, x: Partial<ReadingInput> = {}): ReadingInput => ({
  company,
  readAt: at(day),
  profile: null,
  officers: null,
  pscs: null,
  insolvency: null,
  charges: null,
  gazetteFilings: null,
  notices: [],
  sanctions: { listDate: "2026-06-01", definite: [] },
  payments: [],
  contracts: [],
  sponsors: [],
  ...x,
});

function report(reportId: number, periodEnd: string, avgDaysToPay: number | null, pctNotPaidWithinTerms: number | null): PaymentReport {
  return {
    reportId,
    url: null,
    policyRegime: null,
    periodStart: `${periodEnd.slice(0, 4)}-01-01`,
    periodEnd,
    filedOn: periodEnd,
    financialPeriodStart: null,
    avgDaysToPay,
    pctWithin30: null,
    pct31to60: null,
    pctOver60: null,
    pctNotPaidWithinTerms,
    pctNotPaidDueToDispute: null,
    shortestStandardTermsDays: null,
    longestStandardTermsDays: null,
    maxContractualTermsDays: null,
    standardTermsText: null,
    termsChanged: null,
    suppliersNotified: null,
    paymentCodes: null,
    eInvoicing: null,
    supplyChainFinance: null,
    chargesPolicy: null,
    chargesMade: null,
    qualifyingContracts: null,
    paymentsMade: null,
    constructionContracts: null,
    constructionRetention: null,
    clamped: [],
    inconsistent: [],
  };
}

function award(n: number, awardDate: string, status = "active"): ContractAward {
  return {
    source: "FTS",
    ocid: `ocds-h6vhtk-${String(n).padStart(6, "0")}`,
    releaseId: `${n}-2026`,
    awardId: `${n}-1`,
    noticeUrl: `https://fts.test/Notice/${n}-2026`,
    buyer: { name: "Hull City Council", id: null },
    title: `Steel fabrication lot ${n}`,
    description: null,
    value: { amount: 125000 + n, currency: "GBP" },
    awardDate,
    datePublished: awardDate,
    contractPeriod: null,
    cpv: null,
    supplier: { name: "NORTHGATE FABRICATIONS LIMITED", companyNumber: "12300001", ppon: null, postcode: "HU1 3AA", scale: "sme", identifiers: [] },
    supplierCount: 1,
    status,
    updatedAt: awardDate,
  };
}

function sponsor(route: string, rating: string | null, removedOn: string | null = null, town = "Hull"): Entry<"sponsors"> {
  const key = `sponsors|workers|northgate fabrications|${route.toLowerCase()}`;
  return {
    key,
    entity: "sponsors|workers|northgate fabrications",
    part: route,
    scope: "workers",
    name: "Northgate Fabrications Ltd",
    companyNumber: null,
    status: "listed",
    rating,
    town,
    altNames: [],
    data: {
      name: "Northgate Fabrications Ltd",
      town,
      register: "workers",
      route,
      currentRoute: route,
      county: null,
      typeAndRating: `Worker (${rating})`,
      rating,
    },
    firstSeen: "2024-01-01",
    removedOn,
    lastListed: removedOn ? null : "2026-07-01",
  };
}

const sanction = (id: string): SanctionsMatch => ({
  id,
  ukslRef: id,
  ofsiGroupId: null,
  regimes: ["Russia"],
  kind: "entity",
  matchedName: "NORTHGATE FABRICATIONS LIMITED",
  nameType: "primary",
  reasons: ["same company number"],
});

const notice = (id: string, code: string, publishedOn: string): MatchedNotice => ({
  notice: {
    id,
    code,
    title: "NORTHGATE FABRICATIONS LIMITED (In Liquidation)",
    publishedOn,
    url: `https://gazette.test/notice/${id}`,
    companyNumber: "12300001",
    text: "Liquidator: Miranda Clementine Quayle, 1 Dock Street, Hull HU1 3AA.",
  },
  matchedBy: "company number",
});

describe("baseline and duplicates", () => {
  it("the first reading of a watch is its baseline: no events, the reading kept", async () => {
    const next = readingOf(
      base("12300001", "2026-07-21", {
        profile: await profileOf("12300001"),
        insolvency: parseInsolvency(await ch("12300001/insolvency")),
        charges: parseChargeList(await ch("12300001/charges")),
      }),
    );
    const d = diff(null, next, "NORTHGATE FABRICATIONS LIMITED");
    expect(d.events).toEqual([]);
    expect(d.kept).toEqual(next);
  });

  it("reading twice in a day gives no events, and eventKey is stable for a repeated event", async () => {
    const profile = await profileOf("12300001");
    const input = base("12300001", "2026-07-21", { profile, payments: [report(77, "2026-06-30", 41, 12)] });
    const first = diff(readingOf(base("12300001", "2026-07-20", { profile })), readingOf(input), "NORTHGATE FABRICATIONS LIMITED");
    expect(kinds(first.events)).toEqual(["payment_report"]);
    const again = diff(first.kept, readingOf({ ...input, readAt: "2026-07-21T18:00:00.000Z" }), "NORTHGATE FABRICATIONS LIMITED");
    expect(again.events).toEqual([]);
    // Storage's guard: the same event on the same day has the same key; another day or another `after` another key.
    const e = first.events[0];
    const k = eventKey("12300001", "2026-07-21", e);
    expect(k).toBe(eventKey("12300001", "2026-07-21T23:59:00Z", { kind: e.kind, after: { pctLate: 12, avgDays: 41, reportId: 77 } }));
    expect(k).not.toBe(eventKey("12300001", "2026-07-22", e));
    expect(k).not.toBe(eventKey("12300001", "2026-07-21", { ...e, after: { ...e.after, reportId: 78 } }));
    expect(k).not.toBe(eventKey("12300002", "2026-07-21", e));
  });
});

describe("the register (Companies House)", () => {
  it("12300001: status to liquidation, a new insolvency case, a new charge and a charge satisfied", async () => {
    const profile = await profileOf("12300001");
    const charges = parseChargeList(await ch("12300001/charges"))!;
    const insolvency = parseInsolvency(await ch("12300001/insolvency"))!;
    // The day before: active, no insolvency case, only the first charge, still outstanding.
    const before: ChargeList = {
      ...charges,
      items: charges.items.filter((c) => c.chargeCode === "123000010001").map((c) => ({ ...c, status: "outstanding", satisfiedOn: null })),
    };
    const prev = readingOf(
      base("12300001", "2026-07-01", { profile: { ...profile, status: "active" }, charges: before, insolvency: { status: null, cases: [] } as Insolvency }),
    );
    const next = readingOf(base("12300001", "2026-07-21", { profile, charges, insolvency }));
    const { events } = diff(prev, next, "NORTHGATE FABRICATIONS LIMITED");
    expect(kinds(events)).toEqual(["status", "insolvency_case", "charge_created", "charge_satisfied"]);
    const [status, kase, created, satisfied] = events;
    expect(status).toMatchObject({ before: { status: "active", statusDetail: null }, after: { status: "liquidation", statusDetail: null } });
    expect(status.summary).toBe("NORTHGATE FABRICATIONS LIMITED's status on the companies register changed from active to liquidation.");
    expect(kase.after).toEqual({ caseNumber: "1", caseType: "compulsory-liquidation" });
    expect(kase.before).toEqual({ caseNumber: null, caseType: null });
    expect(kase.summary).toBe("Companies House records insolvency case 1 for NORTHGATE FABRICATIONS LIMITED: compulsory liquidation.");
    expect(created.after).toEqual({ chargeCode: "123000010002", createdOn: "2019-11-04", status: "outstanding" });
    expect(satisfied).toMatchObject({
      before: { chargeCode: "123000010001", status: "outstanding" },
      after: { chargeCode: "123000010001", status: "fully-satisfied" },
    });
  });

  it("12300002: proposed for strike-off (one event, not also a status change), accounts and confirmation statement overdue", async () => {
    const profile = await profileOf("12300002");
    const gazetteFilings = parseFilingHistory(await ch("12300002/filing-history"));
    const calm: CompanyProfile = { ...profile, statusDetail: null, accountsOverdue: false, confirmationStatementOverdue: false };
    const prev = readingOf(base("12300002", "2026-10-13", { profile: calm }));
    const next = readingOf(base("12300002", "2026-10-15", { profile, gazetteFilings }));
    const { events } = diff(prev, next, "KESTREL COURIERS LTD");
    expect(kinds(events)).toEqual(["strike_off_proposed", "accounts_overdue", "confirmation_overdue"]);
    expect(events[0]).toEqual({
      kind: "strike_off_proposed",
      summary: "KESTREL COURIERS LTD has been proposed for strike-off from the companies register (first Gazette notice 2026-10-14).",
      before: { proposed: false, firstNoticeOn: null },
      after: { proposed: true, firstNoticeOn: "2026-10-14" },
    });
    expect(events[1]).toMatchObject({
      before: { overdue: false, dueOn: "2025-12-31" },
      after: { overdue: true, dueOn: "2025-12-31" },
      summary: "KESTREL COURIERS LTD's accounts are overdue (due on 2025-12-31).",
    });
    expect(events[2]).toMatchObject({ before: { overdue: false, dueOn: "2026-06-14" }, after: { overdue: true, dueOn: "2026-06-14" } });
    // And back: the proposal withdrawn and the filings made.
    const back = diff(next, readingOf(base("12300002", "2026-11-20", { profile: calm })), "KESTREL COURIERS LTD");
    expect(kinds(back.events)).toEqual(["strike_off_proposed", "accounts_overdue", "confirmation_overdue"]);
    expect(back.events[0].summary).toBe("KESTREL COURIERS LTD is no longer proposed for strike-off from the companies register.");
    expect(back.events[1].summary).toBe("KESTREL COURIERS LTD's accounts are no longer overdue (next due on 2025-12-31).");
  });

  it("01234567: directors and PSCs counted, identity verification counted, never named", async () => {
    const profile = await profileOf("01234567");
    const officers = parseOfficerList(await ch("01234567/officers"))!;
    const pscs = parsePscList(await ch("01234567/persons-with-significant-control"))!;
    // The day before: one director (Harper) and two PSCs (the trust and Harper).
    const fewerOfficers: OfficerList = { ...officers, items: officers.items.filter((o) => !/OKONJO/.test(o.name ?? "")) };
    const fewerPscs: PscList = { ...pscs, items: pscs.items.filter((p) => !/Okonjo/.test(p.name ?? "")) };
    const prev = readingOf(base("01234567", "2026-12-01", { profile, officers: fewerOfficers, pscs: fewerPscs }));
    const next = readingOf(base("01234567", "2026-12-02", { profile, officers, pscs }));
    expect(next.register).toMatchObject({
      ok: true,
      directors: 2,
      pscs: 3,
      idv: { directors: { verified: 1, statementDue: 1, overdue: 0, notApplicable: 0 }, pscs: { verified: 1, statementDue: 0, overdue: 0, notApplicable: 2 } },
    });
    const { events, kept } = diff(prev, next, "HARBOURSIDE LEGAL LIMITED");
    // The new director is not verified yet and not overdue: the counts change, identity verification is no news.
    expect(kinds(events)).toEqual(["director_count", "psc_count"]);
    expect(events[0]).toEqual({
      kind: "director_count",
      summary: "HARBOURSIDE LEGAL LIMITED now has 2 active directors (was 1).",
      before: { count: 1 },
      after: { count: 2 },
    });
    expect(events[1]).toMatchObject({ before: { count: 2 }, after: { count: 3 } });
    // Months later the second director's verification statement date (2027-02-28) has passed.
    const later = diff(kept, readingOf(base("01234567", "2027-03-01", { profile, officers, pscs })), "HARBOURSIDE LEGAL LIMITED");
    expect(kinds(later.events)).toEqual(["id_verification"]);
    expect(later.events[0].before).toEqual({
      directors: { verified: 1, statementDue: 1, overdue: 0, notApplicable: 0 },
      pscs: { verified: 1, statementDue: 0, overdue: 0, notApplicable: 2 },
    });
    expect(later.events[0].after).toMatchObject({ directors: { verified: 1, statementDue: 0, overdue: 1 } });
    expect(later.events[0].summary).toBe(
      "Identity verification at HARBOURSIDE LEGAL LIMITED changed, directors: 1 verified and 1 overdue (was 1 and 0); persons with significant control: 1 verified and 0 overdue (unchanged).",
    );
  });

  it("the officers list not read for a day: the last counts kept, no event; back the next day, compared with them", async () => {
    const profile = await profileOf("01234567");
    const officers = parseOfficerList(await ch("01234567/officers"))!;
    const pscs = parsePscList(await ch("01234567/persons-with-significant-control"))!;
    const day1 = diff(null, readingOf(base("01234567", "2026-12-01", { profile, officers, pscs })), "HARBOURSIDE LEGAL LIMITED").kept;
    const down = diff(
      day1,
      readingOf(base("01234567", "2026-12-02", { profile, officers: new Error("Companies House answered 502"), pscs })),
      "HARBOURSIDE LEGAL LIMITED",
    );
    expect(down.events).toEqual([]);
    expect(down.kept.register).toMatchObject({ ok: true, directors: 2, idv: { directors: { verified: 1 } } });
    const fewer: OfficerList = { ...officers, items: officers.items.filter((o) => !/OKONJO/.test(o.name ?? "")) };
    const back = diff(down.kept, readingOf(base("01234567", "2026-12-03", { profile, officers: fewer, pscs })), "HARBOURSIDE LEGAL LIMITED");
    expect(back.events.map((e) => [e.kind, e.before, e.after])).toEqual([["director_count", { count: 2 }, { count: 1 }]]);
  });

  it("the register down for a day: the section kept whole, no event; no such company is no change either", async () => {
    const profile = await profileOf("12300001");
    const day1 = readingOf(base("12300001", "2026-07-01", { profile: { ...profile, status: "active" } }));
    const down = diff(
      day1,
      readingOf(base("12300001", "2026-07-02", { profile: new Error("Companies House answered 503") })),
      "NORTHGATE FABRICATIONS LIMITED",
    );
    expect(down.events).toEqual([]);
    expect(down.kept.register).toEqual(day1.register);
    expect(down.kept.distress).toEqual(day1.distress);
    const missing = diff(down.kept, readingOf(base("12300001", "2026-07-03", { profile: null })), "NORTHGATE FABRICATIONS LIMITED");
    expect(missing.events).toEqual([]);
    const back = diff(missing.kept, readingOf(base("12300001", "2026-07-04", { profile })), "NORTHGATE FABRICATIONS LIMITED");
    expect(kinds(back.events)).toEqual(["status"]);
  });
});

describe("distress: Gazette notices", () => {
  it("a new insolvency notice is an event by its code and meaning; the notice's text (naming the liquidator) is never kept", async () => {
    const profile = await profileOf("12300001");
    const prev = readingOf(base("12300001", "2026-07-01", { profile, notices: [notice("4800001", "2450", "2026-05-20")] }));
    const next = readingOf(
      base("12300001", "2026-07-11", { profile, notices: [notice("4800001", "2450", "2026-05-20"), notice("4800002", "2452", "2026-07-10")] }),
    );
    const { events } = diff(prev, next, "NORTHGATE FABRICATIONS LIMITED");
    expect(events).toEqual([
      {
        kind: "insolvency_notice",
        summary: "The Gazette published an insolvency notice about NORTHGATE FABRICATIONS LIMITED on 2026-07-10: Winding-up order (notice 4800002).",
        before: { noticeId: null, code: null, meaning: null, publishedOn: null },
        after: { noticeId: "4800002", code: "2452", meaning: "Winding-up order", publishedOn: "2026-07-10" },
      },
    ]);
    // The Gazette down: the notices kept, no event; back with nothing new: none.
    const down = diff(
      next,
      readingOf(base("12300001", "2026-07-12", { profile, notices: new Error("The Gazette answered 500") })),
      "NORTHGATE FABRICATIONS LIMITED",
    );
    expect(down.events).toEqual([]);
    expect(down.kept.distress.ok && down.kept.distress.notices?.length).toBe(2);
    expect(diff(down.kept, next, "NORTHGATE FABRICATIONS LIMITED").events).toEqual([]);
  });
});

describe("the sanctions list (definite matches only)", () => {
  it("a new definite match is an event; no list loaded is no reading; a match that goes away is never reported (no clearance)", async () => {
    const profile = await profileOf("12300001");
    const day1 = readingOf(base("12300001", "2026-07-01", { profile }));
    const noList = diff(day1, readingOf(base("12300001", "2026-07-02", { profile, sanctions: null })), "NORTHGATE FABRICATIONS LIMITED");
    expect(noList.events).toEqual([]);
    expect(noList.kept.sanctions).toEqual(day1.sanctions);
    const matched = diff(
      noList.kept,
      readingOf(base("12300001", "2026-07-03", { profile, sanctions: { listDate: "2026-07-02", definite: [sanction("RUS9999")] } })),
      "NORTHGATE FABRICATIONS LIMITED",
    );
    expect(matched.events).toEqual([
      {
        kind: "sanctions_match",
        summary: "NORTHGATE FABRICATIONS LIMITED is a definite match on the UK sanctions list: RUS9999 (list of 2026-07-02).",
        before: { listIds: [], listDate: "2026-06-01" },
        after: { listIds: ["RUS9999"], listDate: "2026-07-02" },
      },
    ]);
    const delisted = diff(
      matched.kept,
      readingOf(base("12300001", "2026-07-04", { profile, sanctions: { listDate: "2026-07-03", definite: [] } })),
      "NORTHGATE FABRICATIONS LIMITED",
    );
    expect(delisted.events).toEqual([]);
  });
});

describe("payment practices reports", () => {
  it("before/after hold exactly reportId, avgDays and pctLate; null-valued before the first report", () => {
    const first = diff(
      readingOf(base("15550001", "2026-07-01")),
      readingOf(base("15550001", "2026-07-02", { payments: [report(70, "2025-12-31", 45, 20)] })),
      "ACME LTD",
    );
    expect(first.events).toEqual([
      {
        kind: "payment_report",
        summary:
          "ACME LTD filed a payment practices report for the period ending 2025-12-31: 45 days on average, 20% of invoices not paid within agreed terms.",
        before: { reportId: null, avgDays: null, pctLate: null },
        after: { reportId: 70, avgDays: 45, pctLate: 20 },
      },
    ]);
    const second = diff(
      first.kept,
      readingOf(base("15550001", "2026-07-20", { payments: [report(70, "2025-12-31", 45, 20), report(77, "2026-06-30", 41, 12)] })),
      "ACME LTD",
    );
    expect(second.events).toEqual([
      {
        kind: "payment_report",
        summary:
          "ACME LTD filed a payment practices report for the period ending 2026-06-30: 41 days on average (was 45), 12% of invoices not paid within agreed terms (was 20%).",
        before: { reportId: 70, avgDays: 45, pctLate: 20 },
        after: { reportId: 77, avgDays: 41, pctLate: 12 },
      },
    ]);
    // The newest report withdrawn: the older one is the latest again, which is no new report.
    expect(diff(second.kept, readingOf(base("15550001", "2026-07-21", { payments: [report(70, "2025-12-31", 45, 20)] })), "ACME LTD").events).toEqual([]);
  });

  it("the register down on the day a report is filed: no event that day, the event the day it is read again", () => {
    const day1 = readingOf(base("15550001", "2026-07-01", { payments: [report(70, "2025-12-31", 45, 20)] }));
    const down = diff(day1, readingOf(base("15550001", "2026-07-02", { payments: new Error("the payment practices export could not be read") })), "ACME LTD");
    expect(down.events).toEqual([]);
    expect(down.kept.payments).toEqual(day1.payments);
    const down2 = diff(down.kept, readingOf(base("15550001", "2026-07-03", { payments: undefined })), "ACME LTD");
    expect(down2.events).toEqual([]);
    expect(down2.kept.payments).toEqual(day1.payments);
    const back = diff(
      down2.kept,
      readingOf(base("15550001", "2026-07-04", { payments: [report(70, "2025-12-31", 45, 20), report(77, "2026-06-30", 41, 12)] })),
      "ACME LTD",
    );
    expect(back.events.map((e) => [e.kind, e.before, e.after])).toEqual([
      ["payment_report", { reportId: 70, avgDays: 45, pctLate: 20 }, { reportId: 77, avgDays: 41, pctLate: 12 }],
    ]);
  });

  it("a source never read before is its own baseline when it first is", () => {
    const day1 = readingOf(base("15550001", "2026-07-01", { payments: new Error("down") }));
    const baseline = diff(null, day1, "ACME LTD");
    expect(baseline.kept.payments.ok).toBe(false);
    expect(diff(baseline.kept, readingOf(base("15550001", "2026-07-02", { payments: [report(70, "2025-12-31", 45, 20)] })), "ACME LTD").events).toEqual([]);
  });
});

describe("contracts won", () => {
  it("a new award is an event; cancelled awards are left out; the newest 200 are kept", () => {
    const many = Array.from({ length: 250 }, (_, i) => award(i + 1, `2025-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`));
    const day1 = readingOf(base("12300001", "2026-07-01", { contracts: [...many, award(999, "2026-06-01", "cancelled")] }));
    expect(day1.contracts).toMatchObject({ ok: true, total: 250, truncated: true });
    expect(day1.contracts.ok && day1.contracts.awards.length).toBe(MAX_CONTRACTS);
    const oldest = day1.contracts.ok ? day1.contracts.awards.at(-1)!.awardDate! : "";
    // One new award, and one older than every award kept (it was cut, not won): one event.
    const next = readingOf(base("12300001", "2026-07-02", { contracts: [...many, award(1000, "2026-06-20"), award(1001, "2024-01-01")] }));
    expect(oldest > "2024-01-01").toBe(true);
    const { events } = diff(day1, next, "NORTHGATE FABRICATIONS LIMITED");
    expect(events).toEqual([
      {
        kind: "contract_won",
        summary: "NORTHGATE FABRICATIONS LIMITED won a public contract from Hull City Council: Steel fabrication lot 1000 (£126,000), awarded 2026-06-20.",
        before: { ocid: null, awardId: null, title: null, buyer: null, value: null, awardDate: null },
        after: {
          ocid: "ocds-h6vhtk-001000",
          awardId: "1000-1",
          title: "Steel fabrication lot 1000",
          buyer: "Hull City Council",
          value: { amount: 126000, currency: "GBP" },
          awardDate: "2026-06-20",
        },
      },
    ]);
  });
});

/** An entry of one of the registers watched besides the sponsors' (issue 33 §3). */
function entryOf(key: string, status: string, rating: string | null = null, removedOn: string | null = null): Entry {
  return {
    key,
    entity: key,
    part: null,
    scope: "",
    name: "Northgate Fabrications Ltd",
    companyNumber: "12300001",
    status,
    rating,
    town: "Hull",
    altNames: [],
    data: {},
    firstSeen: "2024-01-01",
    removedOn,
    lastListed: removedOn ? null : "2026-07-01",
  } as unknown as Entry;
}

describe("issue 33 §3 the registers besides the sponsors': HMRC's AML register, the SRA's, CQC's and the Charity Commission's", () => {
  it("listed, status and rating changes, and leaving, each naming the register and its edition; a register loaded for the first time lists nothing new", () => {
    const read = (day: string, parts: { register: "aml" | "sra" | "cqc" | "charity"; edition: string; entries: Entry[] }[]) =>
      readingOf(base("12300001", day, { registers: parts }));
    const day1 = read("2026-07-01", [{ register: "sra", edition: "2026-06-30", entries: [entryOf("sra|1", "authorised")] }]);
    // The CQC register read for the first time, with an entry: no event (it was not read the day before).
    const day2 = read("2026-07-02", [
      { register: "sra", edition: "2026-07-01", entries: [entryOf("sra|1", "revoked")] },
      { register: "cqc", edition: "2026-07-01", entries: [entryOf("cqc|9", "Registered", "Good")] },
    ]);
    const a = diff(day1, day2, "NORTHGATE FABRICATIONS LIMITED");
    expect(kinds(a.events)).toEqual(["register_status"]);
    expect(a.events[0]).toEqual({
      kind: "register_status",
      summary: "NORTHGATE FABRICATIONS LIMITED's status on the SRA register (edition of 2026-07-01) changed from authorised to revoked.",
      before: { register: "sra", key: "sra|1", status: "authorised", rating: null, listed: true, edition: "2026-06-30" },
      after: { register: "sra", key: "sra|1", status: "revoked", rating: null, listed: true, edition: "2026-07-01" },
    });
    const day3 = read("2026-07-03", [
      { register: "sra", edition: "2026-07-02", entries: [entryOf("sra|1", "revoked", null, "2026-07-02")] },
      { register: "cqc", edition: "2026-07-02", entries: [entryOf("cqc|9", "Registered", "Requires improvement")] },
      { register: "aml", edition: "2026-07-02", entries: [] },
    ]);
    const b = diff(a.kept, day3, "NORTHGATE FABRICATIONS LIMITED");
    expect(kinds(b.events)).toEqual(["register_left", "register_rerated"]);
    expect(b.events[0].summary).toBe("NORTHGATE FABRICATIONS LIMITED is no longer listed on the SRA register (edition of 2026-07-02).");
    expect(b.events[1].summary).toBe(
      "NORTHGATE FABRICATIONS LIMITED's rating on the CQC register (edition of 2026-07-02) changed from Good to Requires improvement.",
    );
    // Now on HMRC's register (read both days): listed. Off CQC's file altogether: left.
    const day4 = read("2026-07-04", [
      { register: "sra", edition: "2026-07-02", entries: [entryOf("sra|1", "revoked", null, "2026-07-02")] },
      { register: "cqc", edition: "2026-07-03", entries: [] },
      { register: "aml", edition: "2026-07-03", entries: [entryOf("aml|X1", "Approved")] },
    ]);
    const c = diff(b.kept, day4, "NORTHGATE FABRICATIONS LIMITED");
    expect(kinds(c.events)).toEqual(["register_listed", "register_left"]);
    expect(c.events[0]).toMatchObject({
      summary: "NORTHGATE FABRICATIONS LIMITED is listed on the HMRC money-laundering supervision register (edition of 2026-07-03), status Approved.",
      before: { register: "aml", key: null, listed: false },
      after: { register: "aml", key: "aml|X1", listed: true, edition: "2026-07-03" },
    });
    expect(c.events[1]).toMatchObject({ before: { register: "cqc", listed: true }, after: { register: "cqc", listed: false } });
    // The registers not read for a day: nothing.
    expect(diff(c.kept, readingOf(base("12300001", "2026-07-05", { registers: new Error("D1 answered 503") })), "X").events).toEqual([]);
  });
});

describe("the register of licensed sponsors", () => {
  it("added, re-rated, removed (off the register, or gone from it), and added again", () => {
    const day1 = readingOf(base("12300001", "2026-07-01", { sponsors: [sponsor("Skilled Worker", "A rating")] }));
    const day2 = readingOf(
      base("12300001", "2026-07-02", {
        sponsors: [sponsor("Skilled Worker", "B rating"), sponsor("Global Business Mobility: Senior or Specialist Worker", "A rating")],
      }),
    );
    const a = diff(day1, day2, "NORTHGATE FABRICATIONS LIMITED");
    expect(kinds(a.events)).toEqual(["sponsor_added", "sponsor_rerated"]);
    expect(a.events[0]).toEqual({
      kind: "sponsor_added",
      summary:
        "NORTHGATE FABRICATIONS LIMITED is listed on the register of licensed sponsors (Global Business Mobility: Senior or Specialist Worker, workers register, A rating).",
      before: { register: null, route: null, rating: null, town: null, listed: false },
      after: { register: "workers", route: "Global Business Mobility: Senior or Specialist Worker", rating: "A rating", town: "Hull", listed: true },
    });
    expect(a.events[1].summary).toBe(
      "NORTHGATE FABRICATIONS LIMITED's sponsor rating (Skilled Worker, workers register) changed from A rating to B rating, which means an action plan.",
    );
    expect(a.events[1].before).toMatchObject({ rating: "A rating" });
    expect(a.events[1].after).toMatchObject({ rating: "B rating" });
    // The Home Office file not read for a day: nothing.
    const down = diff(a.kept, readingOf(base("12300001", "2026-07-03", { sponsors: new Error("gov.uk answered 503") })), "NORTHGATE FABRICATIONS LIMITED");
    expect(down.events).toEqual([]);
    // Skilled Worker removed from the register (kept with removedOn); the other route gone from what was matched.
    const day4 = readingOf(base("12300001", "2026-07-04", { sponsors: [sponsor("Skilled Worker", "B rating", "2026-07-04")] }));
    const b = diff(down.kept, day4, "NORTHGATE FABRICATIONS LIMITED");
    expect(kinds(b.events)).toEqual(["sponsor_removed", "sponsor_removed"]);
    expect(b.events[0]).toMatchObject({ before: { route: "Skilled Worker", listed: true }, after: { route: "Skilled Worker", listed: false } });
    expect(b.events[0].summary).toBe("NORTHGATE FABRICATIONS LIMITED is no longer on the register of licensed sponsors (Skilled Worker, workers register).");
    expect(b.events[1]).toMatchObject({ after: { route: "Global Business Mobility: Senior or Specialist Worker", listed: false } });
    // Back on the register.
    const c = diff(b.kept, readingOf(base("12300001", "2026-08-01", { sponsors: [sponsor("Skilled Worker", "A rating")] })), "NORTHGATE FABRICATIONS LIMITED");
    expect(c.events.map((e) => [e.kind, e.before.listed, e.after.listed])).toEqual([["sponsor_added", false, true]]);
  });
});

describe("the kinds", () => {
  it("EVENT_KINDS_DOC names every kind with its before/after shape", () => {
    for (const k of EVENT_KIND_NAMES) expect(EVENT_KINDS_DOC).toContain(`\`${k}\``);
    expect(EVENT_KINDS_DOC).toContain("reportId");
  });
});

describe("all the tests above (run last)", () => {
  it("produced every kind of the closed list, and named no person the fixtures name in any reading or event", () => {
    // Every kind of the closed list was produced by some test above.
    expect([...produced].sort()).toEqual([...EVENT_KIND_NAMES].sort());
    // SPEC §1 rule 7: no person the fixtures name in any reading or event.
    const text = JSON.stringify([allEvents, allReadings]).toLowerCase();
    const fixtureNames = JSON.parse(env.PERSON_NAMES || "[]") as string[];
    expect(fixtureNames.length).toBeGreaterThan(10);
    const names = [...PEOPLE, ...fixtureNames];
    expect(names.filter((n) => text.includes(n.toLowerCase()))).toEqual([]);
    expect(allEvents.length).toBeGreaterThan(20);
  });
});

describe.skipIf(!env.SHARED_PRESENT)("real Companies House replies (../shared/data/companies-house-api)", () => {
  const real = async (file: string) => (await fetch(`http://shared.test/data/companies-house-api/fixtures/${file}`)).text();

  it("a reading made of real replies: every part read, people counted and never named; a change the next day is an event that names no one", async () => {
    const [profileJson, officersJson, pscsJson, chargesJson, insolvencyJson] = await Promise.all(
      [
        "herrbert74__company_candour.json",
        "kevbite__officers_00445790_tesco_idv.json",
        "herrbert74__persons_yorkshire_air_ambulance.json",
        "herrbert74__charges_pfb_hire.json",
        "herrbert74__insolvency_london_airways.json",
      ].map(real),
    );
    const profile = parseCompanyProfile(profileJson)!;
    const officers = parseOfficerList(officersJson)!;
    const pscs = parsePscList(pscsJson)!;
    const charges = parseChargeList(chargesJson)!;
    const insolvency = parseInsolvency(insolvencyJson)!;
    const input = (day: string, x: Partial<ReadingInput> = {}) => base(profile.number, day, { profile, officers, pscs, charges, insolvency, ...x });
    const day1 = readingOf(input("2026-11-24"));
    expect(day1.register).toMatchObject({ ok: true, status: "active" });
    expect(day1.distress).toMatchObject({ ok: true, strikeOff: { proposed: false }, cases: [{ caseNumber: "1", caseType: "compulsory-liquidation" }] });
    if (!day1.register.ok || !day1.distress.ok) throw new Error("not read");
    const activeDirectors = officers.items.filter((o) => !o.resignedOn && /director|member/.test(o.role ?? "") && !/secretary/.test(o.role ?? "")).length;
    expect(day1.register.directors).toBe(activeDirectors);
    expect(day1.register.pscs).toBe(pscs.items.filter((p) => !p.ceasedOn).length);
    expect(day1.register.idv.directors).not.toBeNull();
    expect(day1.distress.charges).toHaveLength(charges.items.length);

    // The next day: a director resigned and a charge was satisfied (the same real records, one field changed each).
    const director = officers.items.find((o) => !o.resignedOn && /director/.test(o.role ?? ""))!;
    const officers2 = { ...officers, items: officers.items.map((o) => (o === director ? { ...o, resignedOn: "2026-11-24" } : o)) };
    const charge = charges.items.find((c) => c.status === "outstanding" && c.chargeCode)!;
    const charges2 = { ...charges, items: charges.items.map((c) => (c === charge ? { ...c, status: "fully-satisfied" } : c)) };
    const { events } = diff(day1, readingOf(input("2026-11-25", { officers: officers2, charges: charges2 })), profile.name);
    expect(kinds(events)).toEqual(expect.arrayContaining(["director_count", "charge_satisfied"]));
    const text = JSON.stringify([day1, events]).toLowerCase();
    const names = [...officers.items, ...pscs.items].map((p) => p.name).filter((n): n is string => !!n);
    expect(names.length).toBeGreaterThan(0);
    // Surnames as Companies House writes them (SURNAME, Forenames): neither the surname nor the full name appears.
    for (const n of names) for (const part of [n, n.split(",")[0]]) expect(text, n).not.toContain(part.trim().toLowerCase());
  });
});
