import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { paymentTrend } from "../../services/payments/trend";
import { NOT_A_VERDICT_ON_SMALL, PaymentReportSchema, paymentReportsOf, toReport } from "../../app/money/paymentReports";
import { MatchFields, MoneyCompanyQuery, matchFieldsOf } from "../../app/money/registerLookup";

const PRICE = 1;

const TrendStep = z.object({
  from: z.object({ periodEnd: z.string(), reportId: z.number().int().nullable() }),
  to: z.object({ periodEnd: z.string(), reportId: z.number().int().nullable() }),
  avgDaysChange: z.number().nullable().describe("Change in average days to pay (negative: pays faster)."),
  pctOver60Change: z.number().nullable().describe("Change in the share paid later than 60 days, points."),
  pctNotPaidWithinTermsChange: z.number().nullable().describe("Change in the share not paid within terms, points."),
  direction: z.enum(["improving", "worsening", "steady", "unknown"]),
});

export const getPaymentPractices = defineOperation({
  operationId: "getPaymentPractices",
  method: "get",
  path: "/api/v1/payment-practices",
  family: "money",
  title: "Payment practices",
  summary: "How a large company pays its suppliers: every payment practices report it has published, newest first, with the trend between them.",
  description: [
    "The company's reports under the Reporting on Payment Practices and Performance Regulations 2017 (as amended in 2024), newest first: the period, average days to pay, the shares of invoices paid within 30 days, in 31–60 days and later than 60 days, the share not paid within agreed terms, standard and maximum terms, and the filing date; one report per period (a resubmission replaces the earlier one). Figures are as the company reported them; a figure that is not plausible (an average of millions of days, a share over 100%) is left out and named in `clamped`. `trend` compares each report with the one before: improving or worsening when the average moves by 3 days or more.",
    "",
    `\`company\` is a company number or a name; the company is found on the register by the number on its reports, else by its registered and former names. ${NOT_A_VERDICT_ON_SMALL} A company number that is no company, or a name that matches nothing, answers 404 with \`query\`. Price: ${PRICE} credit. Source: the Department for Business and Trade's export of every report, loaded daily.`,
  ].join("\n"),
  input: z.object({ company: MoneyCompanyQuery }),
  output: z
    .object({
      query: z.object({ company: z.string() }),
      ...MatchFields,
      reports: z.array(PaymentReportSchema).describe("Newest first."),
      trend: z.object({
        steps: z.array(TrendStep).describe("Newest first."),
        overall: z.enum(["improving", "worsening", "steady", "unknown"]),
        summary: z.string(),
      }),
      note: z.string(),
    })
    .openapi("PaymentPractices"),
  price: PRICE,
  auth: "key",
  errors: ["not_found"],
  readOnly: true,
  example: { company: "01234567" },
  async handler({ company }, ctx) {
    const r = await paymentReportsOf(ctx.services, company);
    const trend = paymentTrend(r.reports);
    const notes = [
      r.reports.length
        ? `${r.reports.length} report${r.reports.length === 1 ? "" : "s"}, the newest for the period ending ${r.reports[0].periodEnd}.`
        : `No payment practices report found for this company. ${NOT_A_VERDICT_ON_SMALL}`,
      r.otherCompanies.length ? `The name also matches ${r.otherCompanies.slice(0, 5).join(", ")}: ask by company number for those.` : "",
      r.reports.some((x) => x.clamped?.length) ? "Some reported figures were not plausible and are left out (see `clamped`)." : "",
    ];
    return {
      query: { company },
      ...matchFieldsOf(r),
      reports: r.reports.map(toReport),
      trend,
      note: notes.filter(Boolean).join(" "),
    };
  },
});
