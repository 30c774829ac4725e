import { z } from "@hono/zod-openapi";
import { citeCompaniesHouse } from "../../app/registers/evidence";
import { defineOperation } from "../../platform/registry";
import { registerCompany } from "../../services/companies/profile";
import { INSOLVENCY_CASE_RULE, distressSignals, overallSeverity } from "../../services/risk/distress";
import { matchCompany } from "../../services/sanctions/match";
import { mapLimited } from "../../shared/concurrency";
import { CompaniesHouseProvenance, companiesHouseProvenance } from "../../app/companies/company";
import { RegisteredCompany } from "../../app/registers/schemas";
import { AT_A_TIME, CompanyNumbers, MAX } from "../../app/risk/companyNumbers";
import { SanctionsCheck, sanctionsCheckOf } from "../../app/risk/sanctions";

const PRICE_PER_COMPANY = 2;

const Severity = z.enum(["high", "medium", "low", "info"]);

const Signal = z
  .object({
    kind: z
      .enum([
        "status",
        "strike-off-proposed",
        "accounts-overdue",
        "confirmation-statement-overdue",
        "insolvency-case",
        "gazette-notice",
        "charges-outstanding",
        "charges-recent",
        "sanctions-match",
      ])
      .describe(
        "status: liquidation, administration, receivership, voluntary arrangement, insolvency proceedings, dissolved, converted or closed, removed. strike-off-proposed: the registrar's proposal to strike off (first Gazette notice). accounts-overdue / confirmation-statement-overdue: with the days overdue. insolvency-case: a case on the Companies House insolvency record. gazette-notice: a corporate insolvency notice (category 24) by code and meaning. charges-outstanding / charges-recent: charges not yet satisfied, and charges created in the last 12 months. sanctions-match: a definite match on the UK sanctions list.",
      ),
    severity: Severity.describe(
      "high: in or near insolvency (an open insolvency case, or one that failed or wound the company up in the last 12 months), struck off or proposed for it, filings over 90 days overdue, sanctioned. medium: filings up to 90 days overdue, an open moratorium, an insolvency case that ended in the last 12 months with nothing after it, or that failed or wound the company up within 6 years. low: a solvent members' winding-up in progress, a charge created in the last 12 months, an insolvency case that ended within 6 years with nothing after it or failed longer ago, an open case the record never closed whose last date is over 6 years old on an active company. info: context only (charges outstanding, a petition that was dismissed, a solvent winding-up that concluded, an insolvency case that ended over 6 years ago with nothing after it). Insolvency cases are graded by the rule in the operation's description.",
    ),
    date: z
      .string()
      .nullable()
      .describe(
        "YYYY-MM-DD: the due date for overdue filings, the newest date of an insolvency case (its end when it ended), a notice's publication date, the newest charge; null when the source gives none.",
      ),
    source: z.enum([
      "companies-house-profile",
      "companies-house-filing-history",
      "companies-house-insolvency",
      "companies-house-charges",
      "the-gazette",
      "uk-sanctions-list",
    ]),
    summary: z.string(),
    evidence: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]))
      .describe(
        "What the source says: status and status detail, days overdue, case type and dates (insolvency practitioners are counted, never named) with the case's procedure, state (open or ended), outcome (in-progress, no-end-recorded, wound-up, solvent-wound-up, failed, ended), endedOn, yearsSinceEnd and followedBy, Gazette notice id, code, page and how it was matched, charge counts and codes, sanctions list id, regimes and reasons.",
      ),
  })
  .openapi("DistressSignal");

const Result = z
  .object({
    query: z.string().describe("The number as asked."),
    found: z.boolean(),
    company: RegisteredCompany.optional(),
    level: z
      .enum(["high", "medium", "low", "none"])
      .optional()
      .describe("The gravest severity among the signals (info signals do not count); none when there is no signal of concern."),
    signals: z.array(Signal).optional().describe("Gravest first, then newest."),
    sanctions: SanctionsCheck.optional(),
    gazette: z
      .object({
        noticesRead: z.number().int().describe("Corporate insolvency notices the Gazette returned for the company's name."),
        matched: z
          .number()
          .int()
          .describe("Of those, the notices tied to this company: by its company number, or by the identical name and the registered office's postcode."),
        truncated: z.boolean().describe("True when the Gazette had more notices for the name than were read (the newest 300)."),
      })
      .optional(),
    note: z.string().optional(),
  })
  .openapi("DistressSignalsResult");

export const checkDistressSignals = defineOperation({
  operationId: "checkDistressSignals",
  method: "get",
  path: "/api/v1/distress-signals",
  family: "risk",
  title: "Distress signals",
  summary:
    "For up to 50 companies: insolvency, strike-off, overdue filings, Gazette insolvency notices, charges and a definite sanctions match, each dated, sourced and graded.",
  description: [
    "Is a supplier or customer in trouble? For each company asked about, the signals the public record gives, each with its date, its source and a severity (documented on `severity`):",
    "- its status on the companies register (liquidation, administration, receivership, voluntary arrangement, insolvency proceedings, dissolved), and a proposal to strike it off, dated by the first Gazette notice in its filing history;",
    "- accounts or confirmation statement overdue, and by how many days;",
    "- the insolvency cases Companies House records (type and dates; practitioners counted, never named), each graded by the rule below;",
    "- corporate insolvency notices in The Gazette (category 24), by code and meaning, newest first: a notice is the company's when it carries the company's number (in the notice or its linked data), or the company's exact name and its registered office's postcode. A petition to wind up that a later notice dismissed is shown as dismissed, graded info;",
    "- charges outstanding, and charges created in the last 12 months;",
    "- a **definite** match on the UK sanctions list (SPEC §1 rule 6): the same company number, or an identical name with a corroborating fact and no contradiction. Anything weaker is not reported, and no match is never a clearance: `sanctions.note` says so with the list's date.",
    "",
    ...INSOLVENCY_CASE_RULE,
    "",
    `Up to ${MAX} numbers a call, comma-separated, read four at a time. A number that is no company is answered in place with \`found: false\`. If Companies House or The Gazette cannot be read for any of them the whole call answers 503 and gives its credits back (SPEC §7). Price: ${PRICE_PER_COMPANY} credits per distinct company number asked. Companies House answers are cached for up to 12 hours, Gazette searches for 6 hours.`,
  ].join("\n"),
  input: z.object({ company: CompanyNumbers }),
  output: z
    .object({
      query: z.object({ company: z.string() }),
      results: z.array(Result).describe("In the order asked."),
      provenance: CompaniesHouseProvenance,
    })
    .openapi("DistressSignals"),
  price: {
    rule: `${PRICE_PER_COMPANY} credits per company number asked (at most ${MAX} a call)`,
    credits: (input) => PRICE_PER_COMPANY * input.company.length,
  },
  auth: "key",
  errors: ["upstream_unavailable"],
  readOnly: true,
  receipt: true,
  example: { company: "01234567,06527449" },
  async handler({ company }, ctx) {
    const { companiesHouse: ch, gazette } = ctx.services;
    const today = ctx.now.toISOString().slice(0, 10);
    const list = await ctx.services.sanctions.current();
    // The receipt's evidence: Companies House and The Gazette as read now, and the sanctions list's edition.
    citeCompaniesHouse(ctx, "company profile, insolvency, charges and filing history");
    ctx.cite?.({ source: "The Gazette (insolvency notices)", kind: "upstream-read", fetchedAt: ctx.now.toISOString() });
    if (list) ctx.cite?.({ source: "UK sanctions list", kind: "register-edition", editionDate: list.listDate });
    const results = await mapLimited(company, AT_A_TIME, async ({ asked, number }) => {
      const profile = await ch.getProfile(number);
      if (!profile) return { query: asked, found: false, note: "No company with that number on the companies register." };
      const forMatching = { number, name: profile.name, previousNames: profile.previousNames.map((p) => p.name), postcode: profile.registeredOffice.postcode };
      const [insolvency, charges, notices, gazetteFilings] = await Promise.all([
        ch.getInsolvency(number),
        ch.getCharges(number),
        gazette.insolvencyNotices(forMatching),
        profile.statusDetail === "active-proposal-to-strike-off" ? ch.getFilingHistory(number, { category: "gazette", limit: 25 }) : Promise.resolve(null),
      ]);
      const definite = list ? matchCompany(list.index, { ...forMatching, country: profile.registeredOffice.country }).definite : [];
      const signals = distressSignals({ profile, insolvency, charges, gazetteFilings, notices: notices.matched, sanctions: definite, today });
      return {
        query: asked,
        found: true,
        company: registerCompany(profile),
        level: overallSeverity(signals),
        signals,
        sanctions: sanctionsCheckOf(list ? { listDate: list.listDate, definite } : null),
        gazette: { noticesRead: notices.read, matched: notices.matched.length, truncated: notices.truncated },
      };
    });
    return {
      query: { company: company.map((c) => c.asked).join(",") },
      results,
      provenance: companiesHouseProvenance(ctx.now),
    };
  },
});
