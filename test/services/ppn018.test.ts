import { describe, expect, it } from "vitest";
import { type ReportFigures, paymentPerformanceTest, testReport, THRESHOLDS } from "../../src/services/payments/ppn018";

/** Issue 14 §2 ppn-018 and §3 its boundaries: 95.0% with 45 days; 94.9%; 90% (no plan); one report only. */

const report = (periodEnd: string, within30: number | null, in31to60: number | null, avg: number | null): ReportFigures => ({
  reportId: Number(periodEnd.replace(/-/g, "")),
  url: null,
  periodStart: `${Number(periodEnd.slice(0, 4)) - (periodEnd.slice(5, 7) <= "06" ? 1 : 0)}-${periodEnd.slice(5, 7) <= "06" ? "07" : "01"}-01`,
  periodEnd,
  filedOn: null,
  avgDaysToPay: avg,
  pctWithin30: within30,
  pct31to60: in31to60,
});
const [PPN018, PPN015] = THRESHOLDS;

describe("PPN 018 payment test, per report", () => {
  it("exactly 95.0% within 60 days with an average of exactly 45 days passes (floating sums done in hundredths)", () => {
    const t = testReport(report("2026-06-30", 41.7, 53.3, 45), PPN018);
    expect(t).toMatchObject({ verdict: "pass", paidWithin60Pct: 95 });
    expect(t.arithmetic).toBe("41.7% + 53.3% = 95.0% of invoices paid within 60 days (at least 95% needed: met); average 45 days (at most 45 needed: met).");
  });
  it("94.9% passes only with an action plan; 46 days fails PPN 018 but passes PPN 015 (55 days)", () => {
    expect(testReport(report("2026-06-30", 60, 34.9, 45), PPN018).verdict).toBe("pass-with-action-plan");
    expect(testReport(report("2026-06-30", 60, 35, 46), PPN018).verdict).toBe("fail");
    expect(testReport(report("2026-06-30", 60, 35, 46), PPN015).verdict).toBe("pass");
  });
  it("exactly 90% is the action-plan floor; 89.99% fails", () => {
    expect(testReport(report("2026-06-30", 50, 40, 30), PPN018).verdict).toBe("pass-with-action-plan");
    expect(testReport(report("2026-06-30", 50, 39.99, 30), PPN018).verdict).toBe("fail");
  });
  it("a report without the figures cannot be tested", () => {
    expect(testReport(report("2026-06-30", null, 30, 30), PPN018)).toMatchObject({ verdict: "cannot-tell", paidWithin60Pct: null });
  });
});

describe("PPN 018 payment test, overall", () => {
  it("passes when either of the two most recent periods meets both criteria; older reports are not read", () => {
    const r = paymentPerformanceTest([report("2025-06-30", 99, 1, 10), report("2025-12-31", 50, 30, 60), report("2026-06-30", 60, 35, 44)]);
    expect(r.reports.map((x) => x.periodEnd)).toEqual(["2026-06-30", "2025-12-31"]);
    const ppn018 = r.results.find((x) => x.instrument === "PPN 018")!;
    expect(ppn018.reports.map((x) => x.verdict)).toEqual(["pass", "fail"]);
    expect(ppn018.overall).toBe("pass");
  });
  it("90% with the average met, in both periods: passes only with an action plan (never a plain pass without a plan)", () => {
    const r = paymentPerformanceTest([report("2026-06-30", 50, 40, 40), report("2025-12-31", 45, 46, 40)]);
    expect(r.results[0]).toMatchObject({ instrument: "PPN 018", overall: "pass-with-action-plan" });
    expect(r.results[0].explanation).toContain("only with an action plan");
  });
  it("both periods fail: fail", () => {
    expect(paymentPerformanceTest([report("2026-06-30", 40, 40, 50), report("2025-12-31", 40, 40, 50)]).results[0].overall).toBe("fail");
  });
  it("one report only, even a perfect one, never passes: not enough reports", () => {
    const r = paymentPerformanceTest([report("2026-06-30", 99, 1, 10)]);
    for (const x of r.results) {
      expect(x.overall).toBe("not-enough-reports");
      expect(x.reports[0].verdict).toBe("pass");
    }
    expect(r.results[0].explanation).toContain("cannot show a pass");
  });
  it("no report: not enough reports", () => {
    expect(paymentPerformanceTest([]).results.map((x) => x.overall)).toEqual(["not-enough-reports", "not-enough-reports", "not-enough-reports"]);
  });
});
