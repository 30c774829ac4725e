/**
 * How a customer is likely to pay a supplier's invoice, estimated from the customer's own latest payment practices
 * report (self-reported, six-monthly). Pure.
 *
 * - Likely days to payment: the customer's reported average time to pay.
 * - The chance of being paid later than the supplier's terms: read from the report's distribution of invoices
 *   (within 30 days, 31–60 days, over 60 days), assuming invoices are spread evenly within each band. Over 60 days
 *   the report gives no shape, so for terms beyond 60 days only a bound is given (at most the over-60 share).
 * - What the supplier could claim if paid at the customer's average: statutory interest and fixed compensation
 *   under the Late Payment of Commercial Debts (Interest) Act 1998, from the late-payment service, for an invoice
 *   falling due today and paid `average − terms` days late.
 */
import { type BankRateTable, REPO_BANK_RATE } from "../money/bankRate";
import { calculateLatePayment } from "../money/latePayment";
import type { PaymentReport } from "./types";
import { addDays } from "../../shared/dates";

export interface WillTheyPayInput {
  /** Invoice amount, pounds. */
  invoice: number;
  /** The supplier's payment terms, days. */
  terms: number;
  /** Today, YYYY-MM-DD (the date the estimate's invoice falls due). */
  today: string;
}

export interface LateChance {
  /** Estimated % of invoices paid later than the terms; null when the report lacks the distribution. */
  pct: number | null;
  /** "estimate" within the bands, or "at-most" when the terms are beyond 60 days. */
  kind: "estimate" | "at-most" | "unknown";
  arithmetic: string;
}

export interface WillTheyPayEstimate {
  likelyDaysToPay: number | null;
  daysLateAtAverage: number | null;
  lateChance: LateChance;
  /** The customer's own share of invoices not paid within its agreed terms (its terms, not the supplier's). */
  pctNotPaidWithinOwnTerms: number | null;
  claimIfPaidAtAverage: {
    daysLate: number;
    interest: number;
    compensation: number;
    claimTotal: number;
    rateApplied: number | null;
    referenceRate: number | null;
    basis: string;
  } | null;
  sentence: string;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export function lateChanceOf(r: Pick<PaymentReport, "pctWithin30" | "pct31to60" | "pctOver60">, terms: number): LateChance {
  const { pctWithin30: a, pct31to60: b, pctOver60: c } = r;
  if (a === null || b === null || c === null)
    return { pct: null, kind: "unknown", arithmetic: "The report does not give the share of invoices in each band (within 30, 31–60, over 60 days)." };
  if (terms <= 30) {
    const part = (a * (30 - terms)) / 30;
    return {
      pct: round1(part + b + c),
      kind: "estimate",
      arithmetic: `${a}% paid within 30 days, of which the part after day ${terms} is ${a}% × (30 − ${terms}) / 30 = ${round1(part)}%; plus ${b}% in 31–60 days and ${c}% over 60 days: ${round1(part + b + c)}%.`,
    };
  }
  if (terms <= 60) {
    const part = (b * (60 - terms)) / 30;
    return {
      pct: round1(part + c),
      kind: "estimate",
      arithmetic: `${b}% paid in 31–60 days, of which the part after day ${terms} is ${b}% × (60 − ${terms}) / 30 = ${round1(part)}%; plus ${c}% over 60 days: ${round1(part + c)}%.`,
    };
  }
  return {
    pct: c,
    kind: "at-most",
    arithmetic: `Terms beyond 60 days: the report gives no shape past 60 days, so at most the ${c}% paid after 60 days are later than ${terms} days.`,
  };
}

export function willTheyPay(report: PaymentReport, input: WillTheyPayInput, rates?: readonly BankRateTable[]): WillTheyPayEstimate {
  const avg = report.avgDaysToPay;
  const lateChance = lateChanceOf(report, input.terms);
  const daysLate = avg === null ? null : Math.max(0, Math.round(avg - input.terms));
  let claim: WillTheyPayEstimate["claimIfPaidAtAverage"] = null;
  if (daysLate !== null && daysLate > 0) {
    const tables = rates ?? [REPO_BANK_RATE];
    const at = (due: string) => calculateLatePayment({ amount: input.invoice, due, paid: addDays(due, daysLate) }, tables);
    let c: ReturnType<typeof calculateLatePayment>;
    let note = "";
    try {
      c = at(input.today);
    } catch {
      // The Bank Rate for the reference date of an invoice due today is not known yet: the latest rate held is used.
      const latest = tables
        .map((t) => t.knownThrough)
        .sort()
        .at(-1)!;
      c = at(latest);
      note = ` The Bank Rate of ${c.referenceDate} is used: the latest reference rate the service holds.`;
    }
    claim = {
      daysLate,
      interest: c.interest,
      compensation: c.compensation,
      claimTotal: c.claimTotal,
      rateApplied: c.rateApplied,
      referenceRate: c.referenceRate,
      basis: c.basis + note,
    };
  }
  const pounds = (n: number) => `£${n.toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const parts: string[] = [];
  if (avg === null) parts.push("The customer's latest report gives no average time to pay.");
  else
    parts.push(
      `On its latest report (period ending ${report.periodEnd}) the customer took ${avg} days on average to pay, against your ${input.terms}-day terms.`,
    );
  if (lateChance.pct !== null)
    parts.push(
      lateChance.kind === "at-most"
        ? `At most ${lateChance.pct}% of its invoices were paid later than ${input.terms} days.`
        : `About ${lateChance.pct}% of its invoices were paid later than ${input.terms} days.`,
    );
  if (claim)
    parts.push(
      `Paid at its average, a ${pounds(input.invoice)} invoice would be ${claim.daysLate} days late: you could claim ${pounds(claim.interest)} interest and ${pounds(claim.compensation)} compensation.`,
    );
  else if (daysLate === 0) parts.push("At its average it pays within your terms.");
  parts.push("An estimate from self-reported figures, not a prediction for this invoice.");
  return {
    likelyDaysToPay: avg,
    daysLateAtAverage: daysLate,
    lateChance,
    pctNotPaidWithinOwnTerms: report.pctNotPaidWithinTerms,
    claimIfPaidAtAverage: claim,
    sentence: parts.join(" "),
  };
}
