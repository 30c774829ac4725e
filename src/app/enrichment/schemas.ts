/**
 * The enrichment family's reply schemas (SPEC §2.2): BusinessProfile and EnrichResponse, shared by enrich, batch,
 * the demo, score and assess. Every field says where it comes from.
 */
import { z } from "@hono/zod-openapi";
import { INPUT_LIMITS } from "../../platform/schemas";
import { ACCURACY_FORMULA } from "../../services/enrich/identity";

/**
 * A name, domain or number names something: a letter or a digit, and no control characters. One pattern, so the
 * description says the rule validation applies (issue 29 §4).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const NAMEABLE = /^[^\u0000-\u001f\u007f]*[\p{L}\p{N}][^\u0000-\u001f\u007f]*$/u;
export const nameable = <T extends z.ZodString>(s: T) => s.regex(NAMEABLE, "must contain a letter or a digit, and no control characters");

export const Q = nameable(z.string().trim().min(1, "is required").max(INPUT_LIMITS.q.max, `must be at most ${INPUT_LIMITS.q.max} characters`)).describe(
  "A company name, a domain (`acme-widgets.co.uk`, or a URL of the site), or a company number.",
);

export const Location = z
  .string()
  .trim()
  .max(INPUT_LIMITS.location.max, `must be at most ${INPUT_LIMITS.location.max} characters`)
  .optional()
  .describe("Town or city (or a postcode or postcode area) of the registered office, to tell apart companies sharing a name.");

export const Signal = z
  .object({
    code: z
      .string()
      .describe(
        "Stable code: recently-incorporated, hiring, accounts-overdue, confirmation-statement-overdue, proposal-to-strike-off, not-active (a status other than active: liquidation, administration, receivership, voluntary arrangement, dissolved, …), gazette-notice (a corporate insolvency notice of concern in The Gazette in the last 12 months; dismissed petitions and procedural notices left out), dormant, won-public-contracts, licensed-sponsor, cqc-registered (with the provider's and locations' ratings), cqc-rating-concern (a provider or location rated Inadequate or Requires improvement), slow-payment-report (a payment practices report filed in the last six months that misses PPN 018's 95% within 60 days and average of at most 45 days), payment-practices-report (the newest report's figures otherwise). A payment figure that is not plausible (set aside when the report was loaded, or shares of invoices that do not add up to about 100%) is never quoted or tested: the label names it and says why. Register signals taken from the monthly bulk file say so, with the file's date, in the label and source.",
      ),
    label: z.string().describe("The signal in words, with its figures and dates."),
    kind: z.enum(["opportunity", "risk", "info"]),
    source: z.string().describe("Where it comes from (the companies register, the website page, the register or the contract notices)."),
  })
  .openapi("Signal");

export const Accuracy = z
  .object({
    score: z.number().int().describe("0–100: the sum of the breakdown's points."),
    confidence: z.enum(["high", "medium", "low"]),
    breakdown: z
      .array(
        z.object({
          label: z.string(),
          points: z.number(),
          max: z.number(),
          evidence: z.string().nullable().describe("The evidence quoted (a line of the site, a number), or null when this piece was not found."),
        }),
      )
      .describe("Points per piece of identity evidence."),
  })
  .describe(`How surely the profile is the business asked about. ${ACCURACY_FORMULA}`)
  .openapi("Accuracy");

export const Alternative = z
  .object({
    name: z.string().describe("The registered name."),
    companyNumber: z.string(),
    status: z.string().nullable(),
    locality: z.string().nullable().describe("The registered office's post town."),
    postcode: z.string().nullable(),
    incorporationDate: z.string().nullable(),
    needsConfirm: z.literal(true).describe("Always true: this entry is offered for you to confirm, never picked for you."),
    reason: z.string().describe("Why it is offered."),
  })
  .openapi("Alternative");

export const StatusSource = z
  .object({
    statusFrom: z
      .enum(["companies-house", "bulk-file"])
      .describe(
        "`companies-house`: the status, the status detail and every field not in `fromBulkFile` come from the company's live profile, read `statusAsOf`. `bulk-file`: the live profile could not be read, so they are the monthly Basic Company Data file's, as of its date; nothing that file cannot show (a proposal to strike off since then, an insolvency) is claimed absent.",
      ),
    statusAsOf: z
      .string()
      .nullable()
      .describe("YYYY-MM-DD: the day of the call for the live profile (its answers are kept for up to 12 hours), or the bulk file's date."),
    bulkFileDate: z.string().nullable().describe("The Basic Company Data file's date when any field comes from it; null otherwise."),
    fromBulkFile: z
      .array(z.string())
      .describe("Register facts taken from the bulk file (where the live profile gives none, or all of them when it could not be read), as of `bulkFileDate`."),
    insolvencyNotices: z
      .enum(["read", "not-read", "not-asked"])
      .describe(
        "The Gazette's corporate insolvency notices: `read` (a notice of concern in the last 12 months is a `gazette-notice` risk signal), `not-read` (The Gazette could not be read: none is reported and none is ruled out).",
      ),
    note: z.string().describe("The above in words."),
  })
  .describe(
    "Where the status and the register's other facts come from (issue 28 §2): Companies House's live profile, the monthly bulk file only for its gaps, each named with the file's date.",
  )
  .openapi("StatusSource");

export const BusinessProfile = z
  .object({
    found: z
      .boolean()
      .describe("True when a business was identified: its website read, or its register entry confirmed (or named by its number). A miss costs nothing."),
    name: z.string().optional().describe("The registered name of the confirmed company, else the site's own name."),
    website: z.string().optional().describe("The business's homepage as reached, always with its scheme."),
    companyNumber: z
      .string()
      .optional()
      .describe(
        "Absent when the business's own website does not confirm the company (its number stated and the name agreeing, or its full name or postcode with the register's entry); `registryNote` then says why. Given back for a query that is itself a company number.",
      ),
    status: z
      .string()
      .optional()
      .describe(
        "Companies House company_status of the confirmed company, from its live profile; from the monthly Basic Company Data file, as of the file's date, only when the live profile could not be read (`registerSource` says which).",
      ),
    statusDetail: z
      .string()
      .optional()
      .describe(
        "Companies House company_status_detail, where it gives one (e.g. `active-proposal-to-strike-off`): a proposal to strike off is also a `proposal-to-strike-off` risk signal.",
      ),
    registerSource: StatusSource.optional(),
    sicCodes: z.array(z.string()).optional().describe("Registered SIC 2007 codes."),
    incorporationDate: z.string().optional(),
    sizeSignal: z
      .string()
      .optional()
      .describe(
        "A size band (micro, small, medium, large; from the last accounts type, else the employees stated) and the facts it rests on, each with its source: the accounts type, the average employees of the latest tagged accounts (and the date they run to), the headcount band of the newest gender pay gap report, and the active officers counted (never named). Figures that disagree are both given; nothing is estimated. E.g. `small: small accounts; average 23 employees (accounts to 2025-03-31); 3 active officers`.",
      ),
    whatTheyDo: z.string().optional().describe("The site's own description (its meta description), else the registered activities."),
    services: z
      .array(z.string())
      .optional()
      .describe("What the business offers: items listed under a services or products heading on its homepage, else its registered activities."),
    sector: z.string().optional().describe("The SIC 2007 section of its first registered code, in words."),
    signals: z.array(Signal),
    accuracy: Accuracy,
    confidence: z.enum(["high", "medium", "low"]).describe("The accuracy's confidence."),
    sources: z.array(z.string()).describe("What was read: the website, the register entry, other registers."),
    attribution: z.string().describe("The Open Government Licence notice (SPEC §1 rule 3)."),
    alternatives: z
      .array(Alternative)
      .optional()
      .describe("Register entries for you to confirm: companies sharing the name, or entries the site could not confirm."),
    registryNote: z.string().optional().describe("Why no company number is given."),
    websiteNote: z
      .string()
      .optional()
      .describe(
        "For a company asked for by its number: why no website is given (none of the domains its name suggests confirmed it, or they could not be looked for just now).",
      ),
  })
  .openapi("BusinessProfile");

export const EnrichResponse = z
  .object({
    query: z.object({ q: z.string(), location: z.string().optional() }),
    ms: z.number().int().describe("Time taken, milliseconds."),
    profile: BusinessProfile,
  })
  .openapi("EnrichResponse");
