import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { PPN_NOTICE, paymentPerformanceTest } from "../../services/payments/ppn018";
import { NOT_A_VERDICT_ON_SMALL, PaymentReportSchema, paymentReportsOf, toReport } from "../../app/money/paymentReports";
import { MatchFields, MoneyCompanyQuery, matchFieldsOf } from "../../app/money/registerLookup";

const PRICE = 1;
const Verdict = z.enum(["pass", "pass-with-action-plan", "fail", "cannot-tell"]);

const InstrumentResult = z
  .object({
    instrument: z.enum(["PPN 018", "PPN 015", "PPN 10/23"]),
    appliesTo: z.string(),
    thresholds: z.object({
      passPct: z.number().describe("% of invoices paid within 60 days to pass."),
      actionPlanPct: z.number().describe("From this % up to `passPct`, a pass only with an action plan."),
      maxAvgDays: z.number().describe("The most average days to pay allowed."),
    }),
    reports: z
      .array(
        z.object({
          verdict: Verdict,
          paidWithin60Pct: z.number().nullable(),
          avgDaysToPay: z.number().nullable(),
          arithmetic: z.string().describe("The sum and the comparisons, in words."),
        }),
      )
      .describe("One per report in `reports`, in the same order."),
    overall: z
      .enum(["pass", "pass-with-action-plan", "fail", "cannot-tell", "not-enough-reports"])
      .describe("The better of the two most recent periods; `not-enough-reports` with fewer than two reports (never a pass)."),
    explanation: z.string(),
  })
  .openapi("PaymentTestResult");

export const checkPpn018 = defineOperation({
  operationId: "checkPpn018",
  method: "get",
  path: "/api/v1/ppn-018",
  family: "money",
  title: "PPN 018 payment test",
  summary:
    "The company's last two payment practices reports tested against the government's supplier payment test (PPN 018), with the earlier PPN 015 and PPN 10/23 thresholds.",
  description: [
    `The payment test central government buyers apply to suppliers bidding for contracts worth over £5 million a year (PPN 018, for procurements advertised on or after 1 October 2025): in at least one of the two most recent six-month reporting periods, at least 95% of invoices paid within 60 days **and** an average of at most 45 days. From 90% to under 95% (the average met) the supplier passes only with an action plan; below 90% it fails. The earlier thresholds are shown too: PPN 015 and PPN 10/23 allowed an average of up to 55 days.`,
    "",
    `"% paid within 60 days" is the report's share paid within 30 days plus its share paid in 31–60 days, shown as a sum for each report; the verdict is given per report and overall. With one report, or none, the answer is \`not-enough-reports\`: never a pass. ${PPN_NOTICE}`,
    "",
    `\`company\` is a company number or a name. ${NOT_A_VERDICT_ON_SMALL} A company number that is no company, or a name that matches nothing, answers 404 with \`query\`. Price: ${PRICE} credit.`,
  ].join("\n"),
  input: z.object({ company: MoneyCompanyQuery }),
  output: z
    .object({
      query: z.object({ company: z.string() }),
      ...MatchFields,
      reports: z.array(PaymentReportSchema).describe("The two most recent reports (by period end), newest first."),
      ppn018: InstrumentResult.describe("The current test (PPN 018)."),
      earlierThresholds: z.array(InstrumentResult).describe("The same reports under PPN 015 and PPN 10/23 (55 days)."),
      notice: z.string(),
    })
    .openapi("Ppn018Check"),
  price: PRICE,
  auth: "key",
  errors: ["not_found"],
  readOnly: true,
  example: { company: "01234567" },
  async handler({ company }, ctx) {
    const r = await paymentReportsOf(ctx.services, company);
    const t = paymentPerformanceTest(r.reports);
    const ppn018 = t.results.find((x) => x.instrument === "PPN 018")!;
    const earlier = t.results.filter((x) => x !== ppn018);
    return {
      query: { company },
      ...matchFieldsOf(r),
      reports: t.reports.map(toReport),
      ppn018,
      earlierThresholds: earlier,
      notice: PPN_NOTICE,
    };
  },
});
