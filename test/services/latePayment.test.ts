import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import { InputError, toApiError } from "../../src/platform/errors";
import { BANK_RATE_CHANGES, BANK_RATE_FROM, BANK_RATE_KNOWN_THROUGH } from "../../src/services/money/bankRate";
import { bankRateOn, calculateLatePayment, referenceDateFor } from "../../src/services/money/latePayment";

/** Runs fn and returns the InputError it throws (fails the test if it does not throw one). */
function apiErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error("expected an InputError");
}

describe("dates of any year the date pattern allows", () => {
  it("a due date in the years 0-99 is that year (Date.UTC would read 0080 as 1980), not refused as no date", () => {
    // A real date, read as such: refused only because no Bank Rate is known for it (date_out_of_range), not as "not a date".
    expect(apiErrorOf(() => calculateLatePayment({ amount: 1000, due: "0080-02-29", paid: "2000-01-01" })).code).toBe("date_out_of_range");
    expect(apiErrorOf(() => calculateLatePayment({ amount: 1000, due: "0081-02-29", paid: "2000-01-01" })).field).toBe("due");
  });
});

describe("SPEC §4.8 late-payment worked examples", () => {
  it("SPEC §4.8 £1,000 at 8.5% for 50 days: 11.64 + £70 (exactly £1,000 is the middle tier)", () => {
    const r = calculateLatePayment({ amount: 1000, due: "2015-03-01", paid: "2015-04-20" });
    expect(r).toMatchObject({
      daysLate: 50,
      interestFrom: "2015-03-02",
      referenceDate: "2014-12-31",
      referenceRate: 0.5,
      rateApplied: 8.5,
      dailyInterest: 0.23,
      interest: 11.64,
      compensation: 70,
      claimTotal: 81.64,
      currency: "GBP",
    });
  });

  it("SPEC §4.8 £5,000 at 12.25% (ref 30 Jun 2025) for 101 days: 169.49 from the unrounded daily figure", () => {
    const r = calculateLatePayment({ amount: 5000, due: "2025-09-01", paid: "2025-12-11" });
    expect(r).toMatchObject({
      daysLate: 101,
      referenceDate: "2025-06-30",
      referenceRate: 4.25,
      rateApplied: 12.25,
      dailyInterest: 1.68,
      interest: 169.49,
      compensation: 70,
      claimTotal: 239.49,
    });
  });

  it("SPEC §4.8 £999.99 due 2026-01-15 paid 2026-10-08: 11.75%, 266 days, 85.63 + £40", () => {
    const r = calculateLatePayment({ amount: 999.99, due: "2026-01-15", paid: "2026-10-08" });
    expect(r).toMatchObject({
      amount: 999.99,
      due: "2026-01-15",
      paid: "2026-10-08",
      daysLate: 266,
      interestFrom: "2026-01-16",
      referenceDate: "2025-12-31",
      referenceRate: 3.75,
      rateApplied: 11.75,
      dailyInterest: 0.32,
      interest: 85.63,
      compensation: 40,
      claimTotal: 125.63,
    });
    expect(r.basis).toContain("Late Payment of Commercial Debts (Interest) Act 1998");
    expect(r.basis).toContain("31 December 2025");
    expect(r.basis).toContain("÷ 365");
    expect(r.basis).toContain("per invoice");
  });

  it("SPEC §4.8 £12,000 due 2025-09-01 paid 2026-10-08: 12.25%, 402 days, 1,619.01 + £100", () => {
    const r = calculateLatePayment({ amount: 12000, due: "2025-09-01", paid: "2026-10-08" });
    expect(r).toMatchObject({ daysLate: 402, rateApplied: 12.25, interest: 1619.01, compensation: 100, claimTotal: 1719.01 });
  });

  it("SPEC §4.8 rounds half a penny up, exactly (£365 at 8.5% for 3 days = 0.255)", () => {
    expect(calculateLatePayment({ amount: 365, due: "2015-03-01", paid: "2015-03-04" }).interest).toBe(0.26);
  });
});

describe("SPEC §4.8 reference date and half-year boundaries", () => {
  it.each([
    ["2025-06-30", "2025-06-30", 12.25], // interest starts 1 Jul
    ["2025-06-29", "2024-12-31", 12.75], // interest starts 30 Jun
    ["2025-12-30", "2025-06-30", 12.25], // interest starts 31 Dec
    ["2025-12-31", "2025-12-31", 11.75], // interest starts 1 Jan 2026
  ])("SPEC §4.8 due %s → reference %s, %s%%", (due, ref, rate) => {
    const r = calculateLatePayment({ amount: 100, due, paid: "2026-02-01" });
    expect(r.referenceDate).toBe(ref);
    expect(r.rateApplied).toBe(rate);
  });

  it("SPEC §4.8 referenceDateFor picks 31 Dec before for Jan-Jun starts and 30 Jun for Jul-Dec", () => {
    expect(referenceDateFor("2026-01-01")).toBe("2025-12-31");
    expect(referenceDateFor("2026-06-30")).toBe("2025-12-31");
    expect(referenceDateFor("2026-07-01")).toBe("2026-06-30");
    expect(referenceDateFor("2026-12-31")).toBe("2026-06-30");
  });

  it("SPEC §4.8 the rate stays fixed for the whole debt, across later Bank Rate changes", () => {
    const r = calculateLatePayment({ amount: 10000, due: "2023-07-31", paid: "2025-07-31" });
    expect(r).toMatchObject({ referenceDate: "2023-06-30", rateApplied: 13, daysLate: 731 });
    expect(r.interest).toBe(2603.56); // 10,000 × 13% × 731 / 365
  });
});

describe("SPEC §4.8 compensation tiers and on-time payment", () => {
  it.each([
    [999.99, 40],
    [1000, 70],
    [9999.99, 70],
    [10000, 100],
    [0.01, 40],
    [100_000_000, 100],
  ])("SPEC §4.8 amount %s → fixed sum £%s", (amount, fixed) => {
    expect(calculateLatePayment({ amount, due: "2025-01-10", paid: "2025-01-11" }).compensation).toBe(fixed);
  });

  it.each([["2025-05-01"], ["2025-04-01"]])("SPEC §4.8 paid %s for due 2025-05-01 → zeros and an explanation", (paid) => {
    const r = calculateLatePayment({ amount: 5000, due: "2025-05-01", paid });
    expect(r).toMatchObject({
      daysLate: 0,
      interestFrom: null,
      referenceDate: null,
      referenceRate: null,
      rateApplied: null,
      dailyInterest: 0,
      interest: 0,
      compensation: 0,
      claimTotal: 0,
      currency: "GBP",
    });
    expect(r.basis).toMatch(/no statutory interest or compensation is due because payment was on time/);
  });

  it("SPEC §4.8 one day late earns one day's interest and the full fixed sum", () => {
    const r = calculateLatePayment({ amount: 2400, due: "2026-01-15", paid: "2026-01-16" });
    expect(r).toMatchObject({ daysLate: 1, interest: 0.77, dailyInterest: 0.77, compensation: 70, claimTotal: 70.77 });
  });
});

describe("SPEC §4.8 errors", () => {
  it.each([["2026-07-15"], ["2026-06-30"]])("SPEC §4.8 due %s needs the 30 Jun 2026 Bank Rate → date_out_of_range naming due", (due) => {
    const e = apiErrorOf(() => calculateLatePayment({ amount: 100, due, paid: "2026-12-01" }));
    expect(e.code).toBe("date_out_of_range");
    expect(toApiError(e).status).toBe(422);
    expect(e.message).toContain("due");
    expect(e.message).toContain(BANK_RATE_KNOWN_THROUGH);
  });

  it("SPEC §4.8 due 2026-06-29 still uses the known 31 Dec 2025 rate", () => {
    expect(calculateLatePayment({ amount: 100, due: "2026-06-29", paid: "2026-12-01" }).rateApplied).toBe(11.75);
  });

  it("SPEC §4.8 a reference date before the table → date_out_of_range naming due", () => {
    const e = apiErrorOf(() => calculateLatePayment({ amount: 100, due: "1997-06-29", paid: "1998-11-01" }));
    expect(e.code).toBe("date_out_of_range");
    expect(e.message).toContain("due");
  });

  it.each([[0], [-1], [1.234], [NaN], [Infinity], [100_000_000.01]])("SPEC §4.8 amount %s → bad_request naming amount", (amount) => {
    const e = apiErrorOf(() => calculateLatePayment({ amount, due: "2025-01-10", paid: "2025-02-10" }));
    expect(e.code).toBe("bad_request");
    expect(e.field).toBe("amount");
    expect(e.message).toContain("amount");
  });

  it.each([
    ["due", "2026-02-30", "2026-03-10"],
    ["due", "2026-1-5", "2026-03-10"],
    ["due", "", "2026-03-10"],
    ["due", "2025-13-01", "2026-03-10"],
    ["paid", "2026-01-05", "2026-02-29"],
    ["paid", "2026-01-05", "05/03/2026"],
    ["paid", "1998-01-01", "1998-10-31"],
  ] as const)("SPEC §4.8 bad %s (due %s, paid %s) → bad_request naming the field", (field, due, paid) => {
    const e = apiErrorOf(() => calculateLatePayment({ amount: 100, due, paid }));
    expect(e.code).toBe("bad_request");
    expect(e.field).toBe(field);
    expect(e.message).toContain(field);
  });

  it("SPEC §4.8 accepts a leap day and the Act's commencement date", () => {
    expect(calculateLatePayment({ amount: 100, due: "2024-02-29", paid: "2024-03-01" }).daysLate).toBe(1);
    expect(calculateLatePayment({ amount: 100, due: "1998-10-01", paid: "1998-11-01" }).rateApplied).toBe(15.5);
  });
});

describe("SPEC §4.8 Bank Rate table", () => {
  it("SPEC §4.8 is sorted with no duplicate dates and only real changes", () => {
    for (let i = 1; i < BANK_RATE_CHANGES.length; i++) {
      expect(BANK_RATE_CHANGES[i][0] > BANK_RATE_CHANGES[i - 1][0]).toBe(true);
      expect(BANK_RATE_CHANGES[i][1]).not.toBe(BANK_RATE_CHANGES[i - 1][1]);
    }
    expect(BANK_RATE_FROM <= "1998-01-01").toBe(true);
    expect(BANK_RATE_CHANGES.at(-1)).toEqual(["2025-12-18", 3.75]);
  });

  it("SPEC §4.8 reads the rate in force on a date, a change taking effect on its own day", () => {
    expect(bankRateOn("2022-12-31")).toBe(3.5);
    expect(bankRateOn("2023-12-31")).toBe(5.25);
    expect(bankRateOn("2024-12-31")).toBe(4.75);
    expect(bankRateOn("2025-08-06")).toBe(4.25);
    expect(bankRateOn("2025-08-07")).toBe(4);
    expect(bankRateOn("2025-12-18")).toBe(3.75);
    expect(bankRateOn(BANK_RATE_KNOWN_THROUGH)).toBe(3.75);
  });

  it("SPEC §4.8 past the table or before it → date_out_of_range", () => {
    expect(apiErrorOf(() => bankRateOn("2026-02-06")).code).toBe("date_out_of_range");
    expect(apiErrorOf(() => bankRateOn("1997-05-05")).code).toBe("date_out_of_range");
  });

  it.skipIf(!SHARED_PRESENT)("SPEC §4.8 agrees with the shared half-yearly reference-rate table", async () => {
    const csv = await (await fetch("http://shared.test/data/boe-bank-rate/late-payment-reference-rates.csv")).text();
    const rows = csv
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(","));
    expect(rows.length).toBeGreaterThan(50);
    for (const [start, end, ref, bank, statutory] of rows) {
      expect(referenceDateFor(start)).toBe(ref);
      expect(referenceDateFor(end)).toBe(ref);
      expect(bankRateOn(ref)).toBe(Number(bank));
      const due = new Date(Date.parse(start) - 86_400_000).toISOString().slice(0, 10);
      expect(calculateLatePayment({ amount: 1000, due, paid: start }).rateApplied).toBe(Number(statutory));
    }
  });
});
