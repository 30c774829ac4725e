/**
 * A payment practices report (Reporting on Payment Practices and Performance Regulations 2017, as
 * amended in 2024), one per company per reporting period, as the register keeps it (the `data` of a
 * `payment-practices` register entry). Parsed by src/sources/payment-practices/parse.ts; pure types.
 *
 * Every figure is as the company reported it, or null: blank in the export, or absurd and left out
 * (then named in `clamped`). Nothing is ever filled in or corrected.
 */
export interface PaymentReport {
  /** The service's report number (also in its URL). */
  reportId: number | null;
  /** The report's page on check-payment-practices.service.gov.uk, as the export gives it. */
  url: string | null;
  /** `Policy Regime` as given (the 2017 regime or the 2024-amended one; opaque text). */
  policyRegime: string | null;
  /** The reporting period (about six months), ISO dates. */
  periodStart: string;
  periodEnd: string;
  /** The day the report was filed, ISO. */
  filedOn: string | null;
  /** The start of the financial year the period belongs to, ISO (null when "None" or blank). */
  financialPeriodStart: string | null;

  /** Average time to pay an invoice, days (0–365). */
  avgDaysToPay: number | null;
  /** Share of invoices (by number) paid within 30 days, in 31–60 days, later than 60 days (0–100). */
  pctWithin30: number | null;
  pct31to60: number | null;
  pctOver60: number | null;
  /** Share of invoices not paid within the agreed terms (0–100). */
  pctNotPaidWithinTerms: number | null;
  /** Share of invoices not paid within the agreed terms because of a dispute (0–100; reports from 2025). */
  pctNotPaidDueToDispute: number | null;
  /** Share of the value of payments paid within 30 days, 31–60 days, later than 60 days, and later than agreed terms (0–100); only when the export has these columns (the 2024-amended regime). */
  valuePctWithin30?: number | null;
  valuePct31to60?: number | null;
  valuePctOver60?: number | null;
  valuePctNotPaidWithinTerms?: number | null;

  /** Standard payment terms: the shortest (or only) and the longest standard period, and the maximum contractual period, days (0–365). */
  shortestStandardTermsDays: number | null;
  longestStandardTermsDays: number | null;
  maxContractualTermsDays: number | null;
  /** The company's description of its standard payment terms, cut to 1,000 characters. */
  standardTermsText: string | null;
  termsChanged: boolean | null;
  suppliersNotified: boolean | null;

  /** Participates in a payment code (e.g. the Prompt Payment Code). */
  paymentCodes: boolean | null;
  eInvoicing: boolean | null;
  supplyChainFinance: boolean | null;
  /** Its policy covers charging suppliers to remain on its supplier list; such charges were made in the period. */
  chargesPolicy: boolean | null;
  chargesMade: boolean | null;

  /** The company had qualifying contracts in the period; made payments in it; had qualifying construction contracts; those have retention clauses. */
  qualifyingContracts: boolean | null;
  paymentsMade: boolean | null;
  constructionContracts: boolean | null;
  constructionRetention: boolean | null;

  /** Every field whose reported value was absurd or unreadable and is null here, with the value, e.g. "avgDaysToPay: 4323394 is not a plausible number of days". */
  clamped: string[];
  /** Reported values kept as given that do not add up, e.g. "pctWithin30 + pct31to60 + pctOver60 = 150, not about 100". */
  inconsistent: string[];
}
