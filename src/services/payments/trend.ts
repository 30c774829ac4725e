/**
 * The trend between a company's payment practices reports (issue 14 §2 payment-practices). Pure.
 * Each step compares a report with the one before it (by period): average days to pay, the share paid later than
 * 60 days and the share not paid within terms. "improving" or "worsening" needs a change of at least 3 days in
 * the average, or (when the average is missing) 3 points in the share not paid within terms; anything smaller
 * is "steady".
 */
import type { PaymentReport } from "./types";

export type Direction = "improving" | "worsening" | "steady" | "unknown";

export interface TrendStep {
  from: { periodEnd: string; reportId: number | null };
  to: { periodEnd: string; reportId: number | null };
  avgDaysChange: number | null;
  pctOver60Change: number | null;
  pctNotPaidWithinTermsChange: number | null;
  direction: Direction;
}

export interface Trend {
  /** Newest step first. */
  steps: TrendStep[];
  /** The direction from the oldest report read to the newest. */
  overall: Direction;
  summary: string;
}

const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round((b - a) * 10) / 10);

function directionOf(avg: number | null, late: number | null): Direction {
  if (avg !== null) return avg <= -3 ? "improving" : avg >= 3 ? "worsening" : "steady";
  if (late !== null) return late <= -3 ? "improving" : late >= 3 ? "worsening" : "steady";
  return "unknown";
}

const step = (older: PaymentReport, newer: PaymentReport): TrendStep => {
  const avgDaysChange = diff(older.avgDaysToPay, newer.avgDaysToPay);
  const pctNotPaidWithinTermsChange = diff(older.pctNotPaidWithinTerms, newer.pctNotPaidWithinTerms);
  return {
    from: { periodEnd: older.periodEnd, reportId: older.reportId },
    to: { periodEnd: newer.periodEnd, reportId: newer.reportId },
    avgDaysChange,
    pctOver60Change: diff(older.pctOver60, newer.pctOver60),
    pctNotPaidWithinTermsChange,
    direction: directionOf(avgDaysChange, pctNotPaidWithinTermsChange),
  };
};

/** `reports` newest first (by period end). */
export function paymentTrend(reports: readonly PaymentReport[]): Trend {
  const steps: TrendStep[] = [];
  for (let i = 0; i + 1 < reports.length; i++) steps.push(step(reports[i + 1], reports[i]));
  if (!steps.length) return { steps, overall: "unknown", summary: reports.length ? "Only one report: no trend yet." : "No reports." };
  const whole = step(reports[reports.length - 1], reports[0]);
  const avg = whole.avgDaysChange;
  const summary =
    avg !== null
      ? `Average days to pay ${avg === 0 ? "unchanged" : avg < 0 ? `down ${-avg}` : `up ${avg}`} from ${reports[reports.length - 1].avgDaysToPay} to ${reports[0].avgDaysToPay} days between the periods ending ${whole.from.periodEnd} and ${whole.to.periodEnd} (${whole.direction}).`
      : `The reports do not all give an average time to pay; ${whole.direction === "unknown" ? "no trend can be read" : `the share not paid within terms suggests ${whole.direction}`}.`;
  return { steps, overall: whole.direction, summary };
}
