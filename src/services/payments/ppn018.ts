/**
 * The payment performance test of the UK procurement policy notes (shared/formats/ppn-018-and-carbon-reduction.md),
 * applied to a company's published payment practices reports. Pure.
 *
 * The test (PPN 018, procurements advertised on or after 1 October 2025): in at least one of the two most recent
 * six-month reporting periods, at least 95% of invoices paid within 60 days AND an average of at most 45 days.
 * With 90% to under 95% (and the average met) it passes only with an action plan; below 90% it fails. The earlier
 * instruments (PPN 015 and PPN 10/23) set the average at 55 days. "% paid within 60 days" is the report's
 * "% paid within 30 days" plus "% paid between 31 and 60 days"; the average is its "average time to pay".
 *
 * This is read from the published reports only: the buyer may accept other evidence (unpublished figures for a
 * recent period, an exemption), so no verdict here is the buyer's decision. One report, or none, never passes:
 * the test needs the two most recent periods, so the answer is then unclear.
 */

/** The figures of one report the test reads (a PaymentReport has them). */
export interface ReportFigures {
  reportId: number | null;
  url: string | null;
  periodStart: string;
  periodEnd: string;
  filedOn: string | null;
  avgDaysToPay: number | null;
  pctWithin30: number | null;
  pct31to60: number | null;
}

export interface Threshold {
  instrument: "PPN 018" | "PPN 015" | "PPN 10/23";
  appliesTo: string;
  /** % of invoices paid within 60 days to pass outright. */
  passPct: number;
  /** From this % up to passPct, a pass only with an action plan. */
  actionPlanPct: number;
  /** The most average days to pay allowed. */
  maxAvgDays: number;
}

export const THRESHOLDS: readonly Threshold[] = [
  {
    instrument: "PPN 018",
    appliesTo: "procurements advertised on or after 1 October 2025 (Procurement Act 2023)",
    passPct: 95,
    actionPlanPct: 90,
    maxAvgDays: 45,
  },
  {
    instrument: "PPN 015",
    appliesTo: "procurements advertised from 24 February to 30 September 2025 (Procurement Act 2023)",
    passPct: 95,
    actionPlanPct: 90,
    maxAvgDays: 55,
  },
  {
    instrument: "PPN 10/23",
    appliesTo: "procurements under the Public Contracts Regulations 2015 from 1 April 2024",
    passPct: 95,
    actionPlanPct: 90,
    maxAvgDays: 55,
  },
];

export type ReportVerdict = "pass" | "pass-with-action-plan" | "fail" | "cannot-tell";
export type OverallVerdict = ReportVerdict | "not-enough-reports";

export interface ReportTest {
  verdict: ReportVerdict;
  /** % paid within 60 days (30-day share + 31–60-day share), to two decimals; null when either is missing. */
  paidWithin60Pct: number | null;
  avgDaysToPay: number | null;
  /** The sums and comparisons, in words. */
  arithmetic: string;
}

export interface InstrumentResult {
  instrument: Threshold["instrument"];
  appliesTo: string;
  thresholds: { passPct: number; actionPlanPct: number; maxAvgDays: number };
  /** Per report, newest first (the same order as `reports`). */
  reports: ReportTest[];
  overall: OverallVerdict;
  explanation: string;
}

/** Hundredths as integers, so 41.7 + 53.3 is exactly 95.00 and 94.99 is below 95. */
const hundredths = (x: number) => Math.round(x * 100);
const fmt = (h: number) => (h / 100).toFixed(h % 100 === 0 ? 1 : 2).replace(/(\.\d)0$/, "$1");

export function testReport(r: ReportFigures, t: Threshold): ReportTest {
  if (r.pctWithin30 === null || r.pct31to60 === null || r.avgDaysToPay === null) {
    const missing = [
      r.pctWithin30 === null && "% paid within 30 days",
      r.pct31to60 === null && "% paid in 31–60 days",
      r.avgDaysToPay === null && "average days to pay",
    ].filter(Boolean);
    return {
      verdict: "cannot-tell",
      paidWithin60Pct: null,
      avgDaysToPay: r.avgDaysToPay,
      arithmetic: `The report does not give ${missing.join(" or ")}, so the test cannot be applied to it.`,
    };
  }
  const within = hundredths(r.pctWithin30) + hundredths(r.pct31to60);
  const avgOk = r.avgDaysToPay <= t.maxAvgDays;
  const sum = `${fmt(hundredths(r.pctWithin30))}% + ${fmt(hundredths(r.pct31to60))}% = ${fmt(within)}% of invoices paid within 60 days`;
  const avg = `average ${r.avgDaysToPay} days (at most ${t.maxAvgDays} needed: ${avgOk ? "met" : "not met"})`;
  let verdict: ReportVerdict;
  let share: string;
  if (within >= t.passPct * 100) {
    share = `at least ${t.passPct}% needed: met`;
    verdict = avgOk ? "pass" : "fail";
  } else if (within >= t.actionPlanPct * 100) {
    share = `${t.actionPlanPct}% to under ${t.passPct}%: only with an action plan`;
    verdict = avgOk ? "pass-with-action-plan" : "fail";
  } else {
    share = `below ${t.actionPlanPct}%: not met`;
    verdict = "fail";
  }
  return { verdict, paidWithin60Pct: within / 100, avgDaysToPay: r.avgDaysToPay, arithmetic: `${sum} (${share}); ${avg}.` };
}

/** The better of two periods wins; a period that cannot be read might still pass, so it ranks above a fail. */
const RANK: Record<ReportVerdict, number> = { pass: 0, "pass-with-action-plan": 1, "cannot-tell": 2, fail: 3 };

/** The two most recent reports (by period end) tested under each instrument, with the overall verdict. */
export function paymentPerformanceTest<R extends ReportFigures>(reports: readonly R[]): { reports: R[]; results: InstrumentResult[] } {
  const latest = [...reports].sort((a, b) => b.periodEnd.localeCompare(a.periodEnd) || (b.filedOn ?? "").localeCompare(a.filedOn ?? "")).slice(0, 2);
  const results = THRESHOLDS.map((t): InstrumentResult => {
    const tests = latest.map((r) => testReport(r, t));
    const base = {
      instrument: t.instrument,
      appliesTo: t.appliesTo,
      thresholds: { passPct: t.passPct, actionPlanPct: t.actionPlanPct, maxAvgDays: t.maxAvgDays },
      reports: tests,
    };
    if (latest.length < 2) {
      const one = tests[0];
      return {
        ...base,
        overall: "not-enough-reports",
        explanation: latest.length
          ? `Only one published report (period ending ${latest[0].periodEnd}${one ? `: ${one.verdict.replace(/-/g, " ")} on its own` : ""}). The test looks at the two most recent six-month periods, so the published reports cannot show a pass; the buyer may accept other evidence.`
          : "No published payment practices report. The published reports cannot show a pass; the buyer may accept other evidence, such as unpublished figures.",
      };
    }
    const best = tests.reduce((b, x) => (RANK[x.verdict] < RANK[b.verdict] ? x : b), tests[0]);
    const which = (v: ReportVerdict) =>
      latest
        .filter((_, i) => tests[i].verdict === v)
        .map((r) => `the period ending ${r.periodEnd}`)
        .join(" and ");
    const overall: OverallVerdict = best.verdict;
    const explanation =
      overall === "pass"
        ? `Passes: both criteria are met in ${which("pass")}, and one of the two most recent periods is enough.`
        : overall === "pass-with-action-plan"
          ? `Passes only with an action plan: in ${which("pass-with-action-plan")} between ${t.actionPlanPct}% and ${t.passPct}% of invoices were paid within 60 days with the average met; neither period meets ${t.passPct}%.`
          : overall === "fail"
            ? `Fails: neither of the two most recent periods meets both criteria.`
            : `Cannot tell: a report lacks the figures the test needs, and the other does not pass.`;
    return { ...base, overall, explanation };
  });
  return { reports: latest, results };
}

/** Said on every answer. */
export const PPN_NOTICE =
  "Read from the company's published payment practices reports only. The buyer applies the test and may accept other evidence (for example unpublished figures for a recent period, or an exemption); this is not the buyer's decision.";
