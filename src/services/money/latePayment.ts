/**
 * Statutory interest and fixed compensation on a late business invoice (SPEC §4.8): Late Payment
 * of Commercial Debts (Interest) Act 1998, rate per SI 2002/1675 art.4. Pure; no I/O.
 */
import { InputError } from "../../shared/errors";
import { type BankRateTable, REPO_BANK_RATE, bankRateOn, rateFrom } from "./bankRate";

export { bankRateOn };

export interface LatePaymentInput {
  amount: number;
  due: string;
  paid: string;
}
export interface LatePaymentResult {
  amount: number;
  due: string;
  paid: string;
  daysLate: number;
  interestFrom: string | null;
  referenceDate: string | null;
  referenceRate: number | null;
  rateApplied: number | null;
  dailyInterest: number;
  interest: number;
  compensation: 0 | 40 | 70 | 100;
  /** What may be claimed on top of the debt: interest plus the fixed compensation (not the amount owed). */
  claimTotal: number;
  /** The debt itself plus the claim. */
  debtPlusClaim: number;
  /** Where the reference rate came from (null when no interest runs). */
  rateSource: string | null;
  basis: string;
  currency: "GBP";
}

const ACT = "the Late Payment of Commercial Debts (Interest) Act 1998";
const ACT_IN_FORCE = "1998-11-01";
const MAX_AMOUNT = 100_000_000;
const DAY_MS = 86_400_000;
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const bad = (field: "amount" | "due" | "paid", message: string) => new InputError("bad_request", message, { field });

/** Days since 1970-01-01 for a real calendar date YYYY-MM-DD, or null (rejects 2026-02-30). */
function dayNumber(s: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Date.UTC maps years 0-99 to 1900-1999: the year is set on its own, as written.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  const t = date.getTime();
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return t / DAY_MS;
}

const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const longDate = (iso: string) => `${Number(iso.slice(8))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;

/** Reference date for interest that starts on `interestStart`: 31 Dec before for Jan-Jun starts, 30 Jun for Jul-Dec. */
export function referenceDateFor(interestStart: string): string {
  const year = Number(interestStart.slice(0, 4));
  return interestStart.slice(5) <= "06-30" ? `${year - 1}-12-31` : `${year}-06-30`;
}

/** Exact half-up division of non-negative BigInts (avoids float error on .5 pennies and big products). */
const divHalfUp = (num: bigint, den: bigint) => (2n * num + den) / (2n * den);

/**
 * `rates`: the Bank Rate tables to read the reference rate from, first match wins (the daily read of the
 * Bank's series, then the repo's table). A reference date no table knows is 422 date_out_of_range.
 */
export function calculateLatePayment(input: LatePaymentInput, rates: readonly BankRateTable[] = [REPO_BANK_RATE]): LatePaymentResult {
  const { amount, due, paid } = input;
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount <= 0 || amount > MAX_AMOUNT) {
    throw bad("amount", `amount must be a number greater than 0 and at most ${MAX_AMOUNT} (pounds).`);
  }
  // A value with at most 2dp is exactly the double nearest its own 2dp rendering.
  if (Number(amount.toFixed(2)) !== amount) throw bad("amount", "amount must have at most 2 decimal places (pounds and pence).");
  const pennies = Math.round(amount * 100);
  const dueDay = dayNumber(due);
  if (dueDay === null) throw bad("due", "due must be a real calendar date in the form YYYY-MM-DD.");
  const paidDay = dayNumber(paid);
  if (paidDay === null) throw bad("paid", "paid must be a real calendar date in the form YYYY-MM-DD.");
  if (paid < ACT_IN_FORCE) throw bad("paid", `paid must not be before ${ACT_IN_FORCE}, when ${ACT} came into force.`);

  const compensation = pennies < 100_000 ? 40 : pennies < 1_000_000 ? 70 : 100;
  const daysLate = paidDay - dueDay;
  if (daysLate <= 0) {
    return {
      amount,
      due,
      paid,
      daysLate: 0,
      interestFrom: null,
      referenceDate: null,
      referenceRate: null,
      rateApplied: null,
      dailyInterest: 0,
      interest: 0,
      compensation: 0,
      claimTotal: 0,
      debtPlusClaim: amount,
      rateSource: null,
      currency: "GBP",
      basis: `Under ${ACT}, no statutory interest or compensation is due because payment was on time (on or before the due date).`,
    };
  }

  const interestFrom = isoOf(dueDay + 1);
  const referenceDate = referenceDateFor(interestFrom);
  const known = rateFrom(rates, referenceDate);
  if (!known) {
    const spans = rates.filter((t) => t.changes.length).map((t) => `${t.changes[0][0]} to ${t.knownThrough} (${t.source})`);
    throw new InputError(
      "date_out_of_range",
      `due ${due}: interest starting ${interestFrom} uses the Bank Rate on ${referenceDate}, which no source the service holds knows yet: ${spans.join("; ")}.`,
      { field: "due" },
    );
  }
  const referenceRate = known.rate;
  const basisPoints = BigInt(Math.round((8 + referenceRate) * 100)); // rates are whole basis points
  const rateApplied = Number(basisPoints) / 100;
  // pennies × (bp / 10,000) × days / 365, rounded once at the end.
  const interestP = divHalfUp(BigInt(pennies) * basisPoints * BigInt(daysLate), 3_650_000n);
  const dailyP = divHalfUp(BigInt(pennies) * basisPoints, 3_650_000n);
  const interest = Number(interestP) / 100;
  return {
    amount,
    due,
    paid,
    daysLate,
    interestFrom,
    referenceDate,
    referenceRate,
    rateApplied,
    dailyInterest: Number(dailyP) / 100,
    interest,
    compensation,
    claimTotal: (Number(interestP) + compensation * 100) / 100,
    debtPlusClaim: (pennies + Number(interestP) + compensation * 100) / 100,
    rateSource: known.source,
    currency: "GBP",
    basis:
      `Statutory interest under ${ACT} at ${rateApplied}% a year (8% plus the Bank of England Bank Rate of ${referenceRate}% in force on ${longDate(referenceDate)}, fixed for the life of the debt), ` +
      `simple interest on actual days ÷ 365, counted from the day after the due date (${interestFrom}) to the payment date inclusive (${daysLate} days). ` +
      `The fixed compensation of £${compensation} is per invoice.`,
  };
}
