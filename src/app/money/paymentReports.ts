import { z } from "@hono/zod-openapi";
import type { Services } from "../../platform/services";
import type { PaymentReport } from "../../services/payments/types";
import { type RegisterFind, findOnRegister } from "./registerLookup";

/** A payment practices report as the replies give it (SPEC names: camelCase; every figure as reported, or null). */
export const PaymentReportSchema = z
  .object({
    reportId: z.number().int().nullable(),
    url: z.string().nullable().describe("The report on check-payment-practices.service.gov.uk."),
    periodStart: z.string(),
    periodEnd: z.string(),
    filedOn: z.string().nullable(),
    avgDaysToPay: z.number().nullable().describe("Average time to pay an invoice, days."),
    pctWithin30: z.number().nullable().describe("% of invoices (by number) paid within 30 days."),
    pct31to60: z.number().nullable().describe("% paid between 31 and 60 days."),
    pctOver60: z.number().nullable().describe("% paid later than 60 days."),
    pctNotPaidWithinTerms: z.number().nullable().describe("% not paid within the agreed terms."),
    pctNotPaidDueToDispute: z.number().nullable().describe("% not paid within terms because of a dispute (reports from 2025)."),
    standardTermsDays: z
      .object({ shortest: z.number().nullable(), longest: z.number().nullable() })
      .describe("Standard payment period, days: the shortest (or only) and the longest."),
    maxContractualTermsDays: z.number().nullable(),
    paymentCodes: z.boolean().nullable().describe("Signed up to a payment code (e.g. the Prompt Payment Code)."),
    eInvoicing: z.boolean().nullable(),
    supplyChainFinance: z.boolean().nullable(),
    clamped: z
      .array(z.string())
      .describe("Figures the company reported that are not plausible (e.g. an average of 4,323,394 days), left out (null) and named here."),
    inconsistent: z.array(z.string()).describe("Figures kept as reported that do not add up (e.g. shares summing to 150%)."),
  })
  .openapi("PaymentReport");

export const toReport = (r: PaymentReport): z.infer<typeof PaymentReportSchema> => ({
  reportId: r.reportId,
  url: r.url,
  periodStart: r.periodStart,
  periodEnd: r.periodEnd,
  filedOn: r.filedOn,
  avgDaysToPay: r.avgDaysToPay,
  pctWithin30: r.pctWithin30,
  pct31to60: r.pct31to60,
  pctOver60: r.pctOver60,
  pctNotPaidWithinTerms: r.pctNotPaidWithinTerms,
  pctNotPaidDueToDispute: r.pctNotPaidDueToDispute,
  standardTermsDays: { shortest: r.shortestStandardTermsDays, longest: r.longestStandardTermsDays },
  maxContractualTermsDays: r.maxContractualTermsDays,
  paymentCodes: r.paymentCodes,
  eInvoicing: r.eInvoicing,
  supplyChainFinance: r.supplyChainFinance,
  clamped: r.clamped ?? [],
  inconsistent: r.inconsistent ?? [],
});

export interface CompanyReports extends RegisterFind<"payment-practices"> {
  /** Newest first (by period end, then filing date). */
  reports: PaymentReport[];
  /** Other companies a name query also matched (ask by number for them). */
  otherCompanies: string[];
}

/** The company's reports on the payment practices register, newest first; one company only (the best match). */
export async function paymentReportsOf(services: Pick<Services, "registers" | "companiesHouse">, query: string): Promise<CompanyReports> {
  const f = await findOnRegister(services, "payment-practices", query);
  const number = f.company?.number ?? f.found[0]?.companyNumber ?? null;
  const mine = f.found.filter((e) => e.companyNumber === number && !e.removedOn);
  const others = [...new Set(f.found.filter((e) => e.companyNumber !== number).map((e) => `${e.name} (${e.companyNumber ?? "no number"})`))];
  const reports = mine.map((e) => e.data).sort((a, b) => b.periodEnd.localeCompare(a.periodEnd) || (b.filedOn ?? "").localeCompare(a.filedOn ?? ""));
  return { ...f, reports, otherCompanies: others };
}

export const NOT_A_VERDICT_ON_SMALL =
  "Only large companies and LLPs must publish payment practices reports; a company without reports is not shown to pay well or badly.";
