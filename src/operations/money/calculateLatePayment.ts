import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { IsoDate, IsoDateFromLatePaymentAct, strictPounds } from "../../platform/schemas";
import { type BankRateTable, REPO_BANK_RATE } from "../../services/money/bankRate";
import { calculateLatePayment as calculate } from "../../services/money/latePayment";

const Input = z.object({
  amount: strictPounds(100_000_000)
    .openapi({ example: 2400 })
    .describe("Invoice amount in pounds (the debt, usually including VAT), up to 2 decimal places, digits only."),
  due: IsoDate.openapi({ example: "2026-01-15" }).describe("Date payment was due (the agreed date; without one, 30 days after the invoice)."),
  paid: IsoDateFromLatePaymentAct.optional()
    .openapi({ example: "2026-02-05" })
    .describe("Date paid. Omit while still unpaid: interest is worked out to today (UTC)."),
});

const Output = z
  .object({
    query: z.object({ amount: z.number(), due: z.string(), paid: z.string().optional() }).describe("The request, as read (SPEC §2.1)."),
    amount: z.number().describe("The debt: the invoice amount asked about."),
    due: z.string(),
    paid: z.string().describe("The payment date used (today when none was sent)."),
    stillUnpaid: z.boolean(),
    daysLate: z.number().int(),
    interestFrom: z.string().nullable().describe("First day interest runs: the day after the due date."),
    referenceDate: z.string().nullable().describe("30 June or 31 December before interest started."),
    referenceRate: z.number().nullable().describe("Bank of England Bank Rate (%) on the reference date."),
    rateApplied: z.number().nullable().describe("8% plus the reference rate; fixed for the whole debt."),
    dailyInterest: z.number(),
    interest: z.number().describe("Statutory interest on the debt."),
    compensation: z.union([z.literal(0), z.literal(40), z.literal(70), z.literal(100)]).describe("Fixed compensation per invoice."),
    claimTotal: z.number().describe("What may be claimed on top of the debt: interest plus compensation. Not the amount owed."),
    debtPlusClaim: z.number().describe("The debt plus the claim: `amount` + `claimTotal`."),
    rateSource: z
      .string()
      .nullable()
      .describe("Where the reference rate was read: the Bank of England series as read daily, or the table kept with the service."),
    basis: z.string(),
    currency: z.literal("GBP"),
    rateTable: z
      .object({ source: z.string(), knownThrough: z.string() })
      .describe("The Bank Rate source that knows the latest date, and that date: a reference date after it answers 422."),
    notice: z.string(),
  })
  .openapi("LatePayment");

const NOTICE =
  "Statutory interest applies between businesses (including public bodies) where the contract gives no substantial remedy of its own. Reasonable recovery costs above the fixed sum may also be claimed. Not legal advice.";

export const calculateLatePayment = defineOperation({
  operationId: "calculateLatePayment",
  method: "get",
  path: "/api/v1/late-payment",
  family: "money",
  title: "Late payment interest",
  summary: "Statutory interest and fixed compensation on a late business invoice.",
  description:
    "Works out what a supplier may claim under the Late Payment of Commercial Debts (Interest) Act 1998: simple interest at 8% over the Bank of England reference rate (the Bank Rate on 31 December for interest starting January to June, on 30 June for July to December, fixed for the whole debt), for each day from the day after the due date to the payment date, plus fixed compensation of £40 (under £1,000), £70 (£1,000 to £9,999.99) or £100 (£10,000 or more). Paid on or before the due date gives zero. `claimTotal` is interest plus compensation (what may be claimed on top of the debt); `debtPlusClaim` adds the debt. The Bank Rate comes from the Bank of England's series (IUDBEDR), read daily, with the table kept in the service as the fallback; only a reference date neither knows answers 422 `date_out_of_range`.",
  input: Input,
  output: Output,
  price: 1,
  auth: "key",
  errors: ["date_out_of_range"],
  readOnly: true,
  example: { amount: 999.99, due: "2026-01-15", paid: "2026-02-05" },
  exampleReply: () => ({
    query: { amount: 999.99, due: "2026-01-15", paid: "2026-02-05" },
    ...calculate({ amount: 999.99, due: "2026-01-15", paid: "2026-02-05" }),
    stillUnpaid: false,
    rateTable: { source: REPO_BANK_RATE.source, knownThrough: REPO_BANK_RATE.knownThrough },
    notice: NOTICE,
  }),
  async handler(input, ctx) {
    const paid = input.paid ?? ctx.now.toISOString().slice(0, 10);
    const stored = await ctx.services.bankRates.stored();
    const tables: BankRateTable[] = stored ? [stored, REPO_BANK_RATE] : [REPO_BANK_RATE];
    const r = calculate({ amount: input.amount, due: input.due, paid }, tables);
    const latest = tables.reduce((a, b) => (b.knownThrough > a.knownThrough ? b : a));
    return {
      query: { amount: input.amount, due: input.due, ...(input.paid ? { paid: input.paid } : {}) },
      ...r,
      stillUnpaid: input.paid === undefined,
      rateTable: { source: latest.source, knownThrough: latest.knownThrough },
      notice: NOTICE,
    };
  },
});
