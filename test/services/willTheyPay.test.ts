import { describe, expect, it } from "vitest";
import { lateChanceOf, willTheyPay } from "../../src/services/payments/willTheyPay";
import type { PaymentReport } from "../../src/services/payments/types";

const report = (o: Partial<PaymentReport>): PaymentReport =>
  ({
    reportId: 1,
    url: null,
    policyRegime: null,
    periodStart: "2026-01-01",
    periodEnd: "2026-06-30",
    filedOn: "2026-07-20",
    financialPeriodStart: null,
    avgDaysToPay: 48,
    pctWithin30: 40,
    pct31to60: 45,
    pctOver60: 15,
    pctNotPaidWithinTerms: 22,
    pctNotPaidDueToDispute: null,
    shortestStandardTermsDays: 30,
    longestStandardTermsDays: 60,
    maxContractualTermsDays: 60,
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
    ...o,
  }) as PaymentReport;

describe("will-they-pay, from the distribution of the latest report", () => {
  it("terms inside a band: the part of the band after the terms, assumed even, plus the later bands", () => {
    expect(lateChanceOf(report({}), 30)).toMatchObject({ pct: 60, kind: "estimate" });
    expect(lateChanceOf(report({}), 15)).toMatchObject({ pct: 80, kind: "estimate" }); // 40 × 15/30 + 45 + 15
    expect(lateChanceOf(report({}), 45)).toMatchObject({ pct: 37.5, kind: "estimate" }); // 45 × 15/30 + 15
    expect(lateChanceOf(report({}), 90)).toMatchObject({ pct: 15, kind: "at-most" });
    expect(lateChanceOf(report({ pct31to60: null }), 30)).toMatchObject({ pct: null, kind: "unknown" });
  });

  it("paid at its average of 48 days on 30-day terms: 18 days late, with statutory interest and £70 compensation on £5,000", () => {
    const e = willTheyPay(report({}), { invoice: 5000, terms: 30, today: "2026-11-24" });
    expect(e.likelyDaysToPay).toBe(48);
    expect(e.claimIfPaidAtAverage).toMatchObject({ daysLate: 18, compensation: 70 });
    expect(e.claimIfPaidAtAverage!.interest).toBeGreaterThan(0);
    // 8% + the reference rate, simple interest for 18 days
    expect(e.claimIfPaidAtAverage!.interest).toBeCloseTo((5000 * (e.claimIfPaidAtAverage!.rateApplied! / 100) * 18) / 365, 2);
    expect(e.sentence).toContain("estimate from self-reported figures");
  });

  it("an average within the terms: no claim", () => {
    const e = willTheyPay(report({ avgDaysToPay: 25 }), { invoice: 100, terms: 30, today: "2026-11-24" });
    expect(e).toMatchObject({ daysLateAtAverage: 0, claimIfPaidAtAverage: null });
  });
});
