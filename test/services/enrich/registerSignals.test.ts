import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { registerFactsOfProfile, sizeSignalOf } from "../../../src/services/enrich/profile";
import { RECENT_NOTICE_DAYS, cqcSignals, gazetteSignal, paymentSignal, recentInsolvencyNotices } from "../../../src/services/enrich/registerSignals";
import type { RegisterFacts } from "../../../src/services/enrich/types";
import type { GenderPayGapReport } from "../../../src/services/paygap/types";
import type { PaymentReport } from "../../../src/services/payments/types";
import { type GazetteNotice, gazetteSignals } from "../../../src/services/risk/gazette";
import { parseGenderPayGap } from "../../../src/sources/gender-pay-gap/parse";
import { parsePaymentPractices } from "../../../src/sources/payment-practices/parse";

/**
 * Issue 18 §2 enrich: the signals of the registers this service keeps (a new report of slow payment, CQC ratings) and
 * the size signal's employees (the accounts' average, a gender pay gap headcount band). Pure.
 */

const report = (over: Partial<PaymentReport>): PaymentReport =>
  ({
    reportId: 1,
    url: null,
    policyRegime: null,
    periodStart: "2026-01-01",
    periodEnd: "2026-06-30",
    filedOn: "2026-07-28",
    financialPeriodStart: null,
    avgDaysToPay: 45,
    pctWithin30: 41.7,
    pct31to60: 53.3,
    pctOver60: 5,
    pctNotPaidWithinTerms: 18,
    pctNotPaidDueToDispute: null,
    ...over,
  }) as PaymentReport;

describe("issue 18 §2 signal: a new report of slow payment", () => {
  it("a report filed in the last six months that misses PPN 018 is a risk, its figures and the rule in the label", () => {
    const s = paymentSignal(
      [report({ avgDaysToPay: 52, pctWithin30: 38.5, pct31to60: 50.5, pctOver60: 11, pctNotPaidWithinTerms: 31, filedOn: "2026-07-21" })],
      "2026-08-15",
    );
    expect(s).toEqual({
      code: "slow-payment-report",
      label:
        "New payment practices report (period ending 2026-06-30, filed 2026-07-21): average 52 days to pay; 89% of invoices paid within 60 days; 31% not paid within agreed terms, short of the public sector's prompt payment test (PPN 018: 95% within 60 days and an average of at most 45 days)",
      kind: "risk",
      source: "payment practices reports (Department for Business and Trade)",
    });
  });

  it("exactly at the test's lines (95.0% within 60 days, an average of 45) is no risk: an info signal with the figures", () => {
    const s = paymentSignal([report({})], "2026-11-25");
    expect(s).toMatchObject({ code: "payment-practices-report", kind: "info" });
    expect(s!.label).toBe(
      "New payment practices report (period ending 2026-06-30, filed 2026-07-28): average 45 days to pay; 95% of invoices paid within 60 days; 18% not paid within agreed terms",
    );
  });

  it("a slow report that is no longer new is info, not a risk; one older than eighteen months gives nothing", () => {
    const slow = report({ avgDaysToPay: 60, pctWithin30: 20, pct31to60: 40, filedOn: "2026-01-20", periodEnd: "2025-12-31" });
    expect(paymentSignal([slow], "2026-11-25")).toMatchObject({
      code: "payment-practices-report",
      kind: "info",
      label: expect.stringMatching(/^Payment practices report \(period ending 2025-12-31/),
    });
    expect(paymentSignal([slow], "2027-08-01")).toBeNull();
  });

  it("the newest report decides (by period, then filing date); a report filed after today is not read", () => {
    const old = report({ reportId: 1, periodEnd: "2025-12-31", filedOn: "2026-01-20", avgDaysToPay: 70, pctWithin30: 10, pct31to60: 20 });
    const newer = report({ reportId: 2 });
    expect(paymentSignal([old, newer], "2026-11-25")!.code).toBe("payment-practices-report");
    expect(paymentSignal([old, newer], "2026-03-01")!.code).toBe("slow-payment-report");
  });

  it("a report without the figures the test needs is never called slow; none at all gives nothing", () => {
    const s = paymentSignal([report({ avgDaysToPay: null, pctWithin30: null, pct31to60: null, pctNotPaidWithinTerms: null })], "2026-08-01");
    expect(s).toMatchObject({ code: "payment-practices-report", kind: "info" });
    expect(s!.label).toMatch(/it gives no payment figures$/);
    expect(paymentSignal([], "2026-08-01")).toBeNull();
  });
});

describe("issue 18 §2 signal: CQC rated", () => {
  it("the provider's rating and the registered locations' ratings; a deregistered or removed location is left out", () => {
    const s = cqcSignals([
      { kind: "provider", status: "Registered", rating: "Good", removed: false },
      { kind: "location", status: "Registered", rating: "Good", removed: false },
      { kind: "location", status: "Registered", rating: "Good", removed: false },
      { kind: "location", status: "Registered", rating: null, removed: false },
      { kind: "location", status: "Deregistered", rating: "Inadequate", removed: false },
      { kind: "location", status: "Registered", rating: "Inadequate", removed: true },
    ]);
    expect(s).toEqual([
      {
        code: "cqc-registered",
        label: "Registered with the Care Quality Commission: provider rated Good; 3 registered locations (2 Good, 1 no overall rating)",
        kind: "info",
        source: "CQC register of care providers",
      },
    ]);
  });

  it("Inadequate or Requires improvement (provider or a location) adds a risk signal saying which", () => {
    const s = cqcSignals([
      { kind: "provider", status: "Registered", rating: "Requires improvement", removed: false },
      { kind: "location", status: "Registered", rating: "Inadequate", removed: false },
      { kind: "location", status: "Registered", rating: "Good", removed: false },
    ]);
    expect(s.map((x) => [x.code, x.kind])).toEqual([
      ["cqc-registered", "info"],
      ["cqc-rating-concern", "risk"],
    ]);
    expect(s[1].label).toBe("CQC ratings: the provider is rated Requires improvement; 1 location is rated Inadequate");
  });

  it("nothing registered now: no signal", () => {
    expect(cqcSignals([{ kind: "location", status: "Deregistered", rating: "Good", removed: false }])).toEqual([]);
    expect(cqcSignals([])).toEqual([]);
  });
});

const facts = (over: Partial<RegisterFacts>): RegisterFacts => ({
  ...registerFactsOfProfile({
    number: "01234567",
    name: "HARBOURSIDE LEGAL LIMITED",
    status: "active",
    statusDetail: null,
    type: "ltd",
    incorporatedOn: "2001-01-01",
    ceasedOn: null,
    jurisdiction: null,
    registeredOffice: { line1: null, line2: null, locality: null, region: null, postcode: null, country: null, text: "" },
    previousNames: [],
    sicCodes: ["69102"],
    accountsOverdue: false,
    confirmationStatementOverdue: false,
    filingDates: { accountsDueOn: null, accountsMadeUpTo: null, confirmationStatementDueOn: null, confirmationStatementMadeUpTo: null },
    hasFilingDeadlines: false,
  }),
  ...over,
});

describe("issue 18 §2 sizeSignal: accounts type, employees and officers", () => {
  it("every source with where it comes from; figures that disagree are both given; the accounts type sets the band", () => {
    const r = facts({
      lastAccountsType: "small",
      activeOfficers: 3,
      employees: { average: 23, periodEnd: "2025-03-31", band: "250 to 499", bandYear: "2025", note: null },
    });
    expect(sizeSignalOf(r)).toBe(
      "small: small accounts; average 23 employees (accounts to 2025-03-31); 250 to 499 employees (gender pay gap report 2025 to 2026); 3 active officers",
    );
  });

  it("no accounts type: the band from the accounts' average (Companies Act thresholds), else from the headcount band", () => {
    expect(sizeSignalOf(facts({ employees: { average: 1, periodEnd: null, band: null, bandYear: null, note: null } }))).toBe(
      "micro: average 1 employee (accounts)",
    );
    expect(sizeSignalOf(facts({ employees: { average: 180, periodEnd: "2025-12-31", band: null, bandYear: null, note: null } }))).toMatch(
      /^medium: average 180 employees/,
    );
    expect(sizeSignalOf(facts({ employees: { average: null, periodEnd: null, band: "5000 to 19,999", bandYear: "2024", note: null } }))).toBe(
      "large: 5000 to 19,999 employees (gender pay gap report 2024 to 2025)",
    );
    expect(sizeSignalOf(facts({ activeOfficers: 2 }))).toBe("size not stated in the accounts type: 2 active officers");
    expect(sizeSignalOf(facts({}))).toBeUndefined();
  });

  it("accounts that could not be read just now are said so, never guessed", () => {
    const s = sizeSignalOf(
      facts({
        lastAccountsType: "micro-entity",
        employees: {
          average: null,
          periodEnd: null,
          band: null,
          bandYear: null,
          note: "employees in the filed accounts not read (Companies House could not be read just now)",
        },
      }),
    );
    expect(s).toBe("micro: micro-entity accounts; employees in the filed accounts not read (Companies House could not be read just now)");
  });

  it.skipIf(!SHARED_PRESENT)(
    "real-data: every headcount band of the real 2021 to 2022 gender pay gap sample (../shared) reads, 'Less than 250' setting no band",
    async () => {
      const bytes = new Uint8Array(await (await fetch("http://shared.test/data/gender-pay-gap/gpg-2021-22-sample.csv")).arrayBuffer());
      const bands: string[] = [];
      for await (const rec of parseGenderPayGap(bytes, { fileName: "gpg-2021-22-sample.csv" }).records) {
        const g = rec.data as unknown as GenderPayGapReport;
        if (g.sizeBand) bands.push(g.sizeBand);
      }
      expect(new Set(bands)).toEqual(new Set(["1000 to 4999", "250 to 499", "Less than 250", "5000 to 19,999", "500 to 999"]));
      for (const band of bands) {
        const s = sizeSignalOf(facts({ employees: { average: null, periodEnd: null, band, bandYear: "2021", note: null } }))!;
        expect(s.endsWith(`${band} employees (gender pay gap report 2021 to 2022)`)).toBe(true);
        expect(s.split(":")[0]).toBe(band === "Less than 250" ? "size not stated in the accounts type" : "large");
      }
    },
  );
});

describe("SPEC §2.2 signals, issue 28 §3: payment figures that are not plausible are said to be, and why", () => {
  /** The reports as the register keeps them: parsed from the fixture export by the real parser (clamped and inconsistent marked there). */
  const parsed = async (id: string): Promise<PaymentReport> => {
    const bytes = new Uint8Array(await (await fetch("http://files.test/payment-practices/export.csv")).arrayBuffer());
    for await (const r of parsePaymentPractices(() => bytes)) {
      const d = r.data as unknown as PaymentReport;
      if (String(d.reportId) === id) return d;
    }
    throw new Error(`report ${id} not in the fixture`);
  };

  it("BAYSIDE's report 1150 (shares summing to 150%, an average of 4,323,394 days, 112% late): not 'gives no payment figures', but which figures and why", async () => {
    const r = await parsed("1150");
    // The parser's own marks, which the signal reads.
    expect(r.inconsistent).toEqual([expect.stringMatching(/^pctWithin30 \+ pct31to60 \+ pctOver60 = 150\b/)]);
    expect(r.clamped.some((c) => c.startsWith("avgDaysToPay"))).toBe(true);
    const s = paymentSignal([r], "2026-11-25")!;
    expect(s.label).not.toMatch(/gives no payment figures/);
    expect(s.label).toContain("its payment figures are not plausible, so none is given or tested");
    expect(s.label).toContain("add up to 150%, not about 100%");
    expect(s.label).toContain("average days to pay: 4323394 is not a plausible number of days");
    expect(s.label).toContain("% not paid within agreed terms: 112 is not a percentage from 0 to 100");
    // Nothing implausible is quoted as a figure, nor tested.
    expect(s.label).not.toMatch(/of invoices paid within 60 days/);
    expect(s).toMatchObject({ code: "payment-practices-report", kind: "info" });
  });

  it("shares that do not add up are never tested: no 'slow' verdict on them; plausible figures are still quoted, the others named", () => {
    // 20 + 30 + 100 = 150: tested as they stand, 50% within 60 days would "fail"; they cannot be relied on.
    const r = report({
      avgDaysToPay: 30,
      pctWithin30: 20,
      pct31to60: 30,
      pctOver60: 100,
      pctNotPaidWithinTerms: 10,
      inconsistent: ["pctWithin30 + pct31to60 + pctOver60 = 150, not about 100"],
      clamped: [],
    });
    const s = paymentSignal([r], "2026-08-15")!;
    expect(s.code).toBe("payment-practices-report");
    expect(s.label).toBe(
      "New payment practices report (period ending 2026-06-30, filed 2026-07-28): average 30 days to pay; 10% not paid within agreed terms; figures not plausible, so not used: the shares of invoices paid within 30 days, in 31–60 days and later than 60 days add up to 150%, not about 100%",
    );
    // The same report with shares that add up is tested.
    expect(paymentSignal([{ ...r, pctOver60: 50, inconsistent: [] }], "2026-08-15")!.code).toBe("slow-payment-report");
  });

  it("a report that truly gives no figure (blank, none set aside) still says so", () => {
    const s = paymentSignal(
      [report({ avgDaysToPay: null, pctWithin30: null, pct31to60: null, pctNotPaidWithinTerms: null, clamped: [], inconsistent: [] })],
      "2026-08-01",
    );
    expect(s!.label).toMatch(/: it gives no payment figures$/);
  });
});

describe("SPEC §2.2 signals, issue 28 §2: a recent Gazette insolvency notice is a risk", () => {
  const n = (id: string, code: string, publishedOn: string): GazetteNotice => ({
    id,
    code,
    title: "ACME LIMITED",
    publishedOn,
    url: `https://www.thegazette.co.uk/notice/${id}`,
    companyNumber: "01234567",
    text: "",
  });
  const TODAY = "2026-11-25";

  it("notices of concern in the last 12 months, newest first; procedural ones, a dismissed petition, older ones and future-dated ones left out", () => {
    const signals = gazetteSignals([
      n("1", "2450", "2026-03-09"), // petition…
      n("2", "2461", "2026-04-20"), // …dismissed: info
      n("3", "2452", "2026-10-20"), // winding-up order
      n("4", "2407", "2026-10-01"), // notice of dividend: info
      n("5", "2441", "2025-11-01"), // older than a year
      n("6", "2432", "2026-06-01"), // members' voluntary liquidation: low, kept
      n("7", "2410", "2026-12-01"), // after today
    ]);
    const recent = recentInsolvencyNotices(signals, TODAY);
    expect(recent.map((x) => [x.noticeId, x.severity])).toEqual([
      ["3", "high"],
      ["6", "low"],
    ]);
    expect(RECENT_NOTICE_DAYS).toBe(365);
    const s = gazetteSignal({ read: true, recent, note: null })!;
    expect(s).toMatchObject({ code: "gazette-notice", kind: "risk", source: "The Gazette (corporate insolvency notices)" });
    expect(s.label).toBe(
      "2 corporate insolvency notices in The Gazette in the last 12 months: Winding-up order (notice 2452, 2026-10-20); Appointment of liquidators (members' voluntary) (notice 2432, 2026-06-01)",
    );
  });

  it("no signal when none is recent, or when The Gazette was not read (and none is claimed absent then)", () => {
    expect(gazetteSignal({ read: true, recent: [], note: null })).toBeNull();
    expect(gazetteSignal({ read: false, recent: [], note: "The Gazette could not be read just now" })).toBeNull();
    expect(gazetteSignal(undefined)).toBeNull();
  });
});
