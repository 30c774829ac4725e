import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { strictInt, strictPounds } from "../../platform/schemas";
import { type BankRateTable, REPO_BANK_RATE } from "../../services/money/bankRate";
import { willTheyPay } from "../../services/payments/willTheyPay";
import { NOT_A_VERDICT_ON_SMALL, PaymentReportSchema, paymentReportsOf, toReport } from "../../app/money/paymentReports";
import { MatchFields, MoneyCompanyQuery, matchFieldsOf, possibleMatchCaveat } from "../../app/money/registerLookup";

/** The estimate's sentence led by the possible-match caveat, when there is one. */
const caveated = <T extends { sentence: string }>(e: T, caveat: string): T => (caveat ? { ...e, sentence: `${caveat}${e.sentence}` } : e);

const PRICE = 1;

const Terms = strictInt(1, 365).openapi({ example: 30 }).describe("Your payment terms, in days (1–365), written with digits.");

export const estimateCustomerPayment = defineOperation({
  operationId: "estimateCustomerPayment",
  method: "get",
  path: "/api/v1/will-they-pay",
  family: "money",
  title: "Will they pay?",
  summary:
    "How a large customer typically pays, against your terms and invoice: likely days to payment, the chance of being paid late, and what you could claim.",
  description: [
    "Reads the customer's latest payment practices report and compares it with your terms and invoice:",
    "- `likelyDaysToPay`: its reported average time to pay;",
    "- `lateChance`: the estimated share of its invoices paid later than your terms, from the shares it reports within 30 days, in 31–60 days and over 60 days, assuming invoices are spread evenly within each band (the arithmetic is shown); for terms over 60 days only an upper bound can be read;",
    "- `claimIfPaidAtAverage`: the statutory interest (8% over the Bank of England reference rate) and fixed compensation (£40, £70 or £100) you could claim under the Late Payment of Commercial Debts (Interest) Act 1998 if paid at its average, as `late-payment` works them out;",
    "- `sentence`: all of it in plain words.",
    "",
    `It is an estimate from self-reported figures for the customer's invoices as a whole, not a prediction for your invoice. ${NOT_A_VERDICT_ON_SMALL} Without a report the answer says so (\`estimate: null\`). A company number that is no company, or a name that matches nothing, answers 404 with \`query\`. Price: ${PRICE} credit.`,
  ].join("\n"),
  input: z.object({
    company: MoneyCompanyQuery,
    invoice: strictPounds(100_000_000).openapi({ example: 12000 }).describe("The invoice amount in pounds, up to 2 decimal places, digits only."),
    terms: Terms,
  }),
  output: z
    .object({
      query: z.object({ company: z.string(), invoice: z.number(), terms: z.number() }),
      ...MatchFields,
      report: PaymentReportSchema.nullable().describe("The latest report the estimate is read from."),
      estimate: z
        .object({
          likelyDaysToPay: z.number().nullable(),
          daysLateAtAverage: z.number().nullable().describe("The average less your terms (0 when it pays within them)."),
          lateChance: z.object({
            pct: z.number().nullable().describe("% of its invoices paid later than your terms."),
            kind: z.enum(["estimate", "at-most", "unknown"]),
            arithmetic: z.string(),
          }),
          pctNotPaidWithinOwnTerms: z.number().nullable().describe("The customer's own reported share of invoices not paid within its agreed terms."),
          claimIfPaidAtAverage: z
            .object({
              daysLate: z.number(),
              interest: z.number(),
              compensation: z.number(),
              claimTotal: z.number(),
              rateApplied: z.number().nullable(),
              referenceRate: z.number().nullable(),
              basis: z.string(),
            })
            .nullable(),
          sentence: z.string(),
        })
        .nullable(),
      notice: z.string(),
    })
    .openapi("CustomerPaymentEstimate"),
  price: PRICE,
  auth: "key",
  errors: ["not_found"],
  readOnly: true,
  example: { company: "01234567", invoice: 12000, terms: 30 },
  async handler({ company, invoice, terms }, ctx) {
    const r = await paymentReportsOf(ctx.services, company);
    const latest = r.reports[0] ?? null;
    const stored = await ctx.services.bankRates.stored();
    const rates: BankRateTable[] = stored ? [stored, REPO_BANK_RATE] : [REPO_BANK_RATE];
    return {
      query: { company, invoice, terms },
      ...matchFieldsOf(r),
      report: latest ? toReport(latest) : null,
      estimate: latest ? caveated(willTheyPay(latest, { invoice, terms, today: ctx.now.toISOString().slice(0, 10) }, rates), possibleMatchCaveat(r)) : null,
      notice: latest
        ? "An estimate from the customer's self-reported figures for all its invoices, not a prediction for yours. Not legal or credit advice."
        : `No payment practices report found for this company, so there is nothing to estimate from. ${NOT_A_VERDICT_ON_SMALL}`,
    };
  },
});
