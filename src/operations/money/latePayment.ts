import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { IsoDate } from "../../platform/schemas";
import { BANK_RATE_KNOWN_THROUGH, BANK_RATE_SOURCE } from "../../services/money/bankRate";
import { calculateLatePayment } from "../../services/money/latePayment";


const Input = z.object({
  amount: z.coerce
    .number({ error: "must be a number of pounds, e.g. 1250.00" })
    .positive("must be more than 0")
    .max(100_000_000, "must be at most 100,000,000")
    .refine((n) => Number(n.toFixed(2)) === n, "must have at most 2 decimal places (pence)")
    .openapi({ example: 2400 }).describe("Invoice amount in pounds (the debt, usually including VAT), up to 2 decimal places."),
  due: IsoDate.openapi({ example: "2026-01-15" }).describe("Date payment was due (the agreed date; without one, 30 days after the invoice)."),
  paid: IsoDate.optional().openapi({ example: "2026-02-05" }).describe("Date paid. Omit while still unpaid: interest is worked out to today (UTC)."),
});

const Output = z
  .object({
    amount: z.number(),
    due: z.string(),
    paid: z.string().describe("The payment date used (today when none was sent)."),
    stillUnpaid: z.boolean(),
    daysLate: z.number().int(),
    interestFrom: z.string().nullable().describe("First day interest runs: the day after the due date."),
    referenceDate: z.string().nullable().describe("30 June or 31 December before interest started."),
    referenceRate: z.number().nullable().describe("Bank of England Bank Rate (%) on the reference date."),
    rateApplied: z.number().nullable().describe("8% plus the reference rate; fixed for the whole debt."),
    dailyInterest: z.number(),
    interest: z.number(),
    compensation: z.union([z.literal(0), z.literal(40), z.literal(70), z.literal(100)]),
    total: z.number(),
    basis: z.string(),
    currency: z.literal("GBP"),
    rateTable: z.object({ source: z.string(), knownThrough: z.string() }),
    notice: z.string(),
  })
  .openapi("LatePayment");

const NOTICE =
  "Statutory interest applies between businesses (including public bodies) where the contract gives no substantial remedy of its own. Reasonable recovery costs above the fixed sum may also be claimed. Not legal advice.";

export const latePayment = defineOperation({
  operationId: "calculateLatePayment",
  method: "get",
  path: "/api/v1/late-payment",
  family: "money",
  title: "Late payment interest",
  summary: "Statutory interest and fixed compensation on a late business invoice.",
  description:
    "Works out what a supplier may claim under the Late Payment of Commercial Debts (Interest) Act 1998: simple interest at 8% over the Bank of England reference rate (the Bank Rate on 31 December for interest starting January to June, on 30 June for July to December, fixed for the whole debt), for each day from the day after the due date to the payment date, plus fixed compensation of £40 (under £1,000), £70 (£1,000 to £9,999.99) or £100 (£10,000 or more). Paid on or before the due date gives zero. A reference date past the service's Bank Rate table answers 422 `date_out_of_range`.",
  input: Input,
  output: Output,
  price: 1,
  auth: "key",
  errors: ["date_out_of_range"],
  readOnly: true,
  example: { amount: 999.99, due: "2026-01-15", paid: "2026-02-05" },
  async handler(input, ctx) {
    const paid = input.paid ?? ctx.now.toISOString().slice(0, 10);
    const r = calculateLatePayment({ amount: input.amount, due: input.due, paid });
    return { ...r, stillUnpaid: input.paid === undefined, rateTable: { source: BANK_RATE_SOURCE, knownThrough: BANK_RATE_KNOWN_THROUGH }, notice: NOTICE };
  },
});

latePayment.exampleReply = {
  ...calculateLatePayment({ amount: 999.99, due: "2026-01-15", paid: "2026-02-05" }),
  stillUnpaid: false,
  rateTable: { source: BANK_RATE_SOURCE, knownThrough: BANK_RATE_KNOWN_THROUGH },
  notice: NOTICE,
};
