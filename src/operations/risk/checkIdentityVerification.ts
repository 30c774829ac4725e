import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { INPUT_LIMITS } from "../../platform/schemas";
import { identityVerificationOf } from "../../services/companies/identity";
import { registerCompany } from "../../services/companies/profile";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { mapLimited } from "../../shared/concurrency";
import { CompaniesHouseProvenance, companiesHouseProvenance } from "../companies/common/company";
import { RegisteredCompany } from "../registers/common/schemas";

const MAX = INPUT_LIMITS.companies.max;
/** Companies read at a time (SPEC §8: four at a time). */
const AT_A_TIME = 4;

/** `company`: up to 50 company numbers, comma-separated; each normalised (unpadded and prefixed ones too), repeats once. */
const CompanyNumbers = z
  .string()
  .trim()
  .min(1, "is required")
  .max(600, "must be at most 600 characters")
  .transform((raw, ctx) => {
    const parts = raw.split(",").map((p) => p.trim()).filter(Boolean);
    const bad = parts.filter((p) => !normaliseCompanyNumber(p));
    if (bad.length) {
      ctx.addIssue({ code: "custom", message: `must be company numbers separated by commas; not a company number: ${bad.slice(0, 3).join(", ")}` });
      return z.NEVER;
    }
    if (!parts.length) {
      ctx.addIssue({ code: "custom", message: "is required" });
      return z.NEVER;
    }
    if (parts.length > MAX) {
      ctx.addIssue({ code: "custom", message: `must be at most ${MAX} company numbers` });
      return z.NEVER;
    }
    const seen = new Set<string>();
    return parts.map((asked) => ({ asked, number: normaliseCompanyNumber(asked)! })).filter((p) => !seen.has(p.number) && seen.add(p.number));
  })
  .openapi({ type: "string", example: "01234567,SC612345" })
  .describe(`Up to ${MAX} Companies House company numbers, comma-separated (unpadded numbers are padded; a number given twice is read once).`);

const Counts = z
  .object({
    total: z.number().int(),
    verified: z.number().int(),
    statementDue: z.number().int().describe("Not verified; a verification statement is due on a date still to come."),
    overdue: z.number().int().describe("Not verified; the statement date has passed."),
    notApplicable: z.number().int().describe("No verification requirement or date on record (corporate officers and PSCs; individuals with no date set yet)."),
  })
  .openapi("IdentityCounts");

const Result = z
  .object({
    query: z.string().describe("The number as asked."),
    found: z.boolean(),
    company: RegisteredCompany.optional(),
    directors: Counts.optional(),
    pscs: Counts.optional().describe("Persons with significant control."),
    earliestDueOn: z.string().nullable().optional().describe("The earliest verification statement date not yet met (overdue ones included)."),
    note: z.string().optional(),
  })
  .openapi("IdentityVerificationResult");

export const checkIdentityVerification = defineOperation({
  operationId: "checkIdentityVerification",
  method: "get",
  path: "/api/v1/idv-check",
  family: "risk",
  title: "Identity verification of directors and PSCs",
  summary: "For up to 50 companies: their directors and persons with significant control counted by identity-verification state, never named.",
  description: [
    "Identity verification at Companies House (Economic Crime and Corporate Transparency Act 2023): for each company asked about, its active directors (and LLP members) and persons with significant control are **counted** by state, never named (SPEC §1 rule 7): `verified` (Companies House records the identity as verified), `statementDue` (not verified, a verification statement due on a date still to come), `overdue` (that date has passed) and `notApplicable` (no requirement or date on record: corporate officers and PSCs, which have their own route, and individuals Companies House has set no date for yet). Secretaries are not counted. `earliestDueOn` is the earliest statement date not yet met.",
    "",
    `Up to ${MAX} numbers a call, comma-separated, read four at a time. A number that is no company is answered in place with \`found: false\`. If the register cannot be read for any of them the whole call answers 503 and gives its credits back (SPEC §7). Price: 1 credit per distinct company number asked. Companies House answers are cached for up to 24 hours (officers and PSCs 6 hours).`,
  ].join("\n"),
  input: z.object({ company: CompanyNumbers }),
  output: z
    .object({
      query: z.object({ company: z.string() }),
      results: z.array(Result).describe("In the order asked."),
      provenance: CompaniesHouseProvenance,
    })
    .openapi("IdentityVerificationCheck"),
  price: { rule: "1 credit per company number asked (at most 50 a call)", credits: (input) => input.company.length },
  auth: "key",
  errors: ["upstream_unavailable"],
  readOnly: true,
  example: { company: "01234567,SC612345" },
  async handler({ company }, ctx) {
    const ch = ctx.services.companiesHouse;
    const today = ctx.now.toISOString().slice(0, 10);
    const results = await mapLimited(company, AT_A_TIME, async ({ asked, number }) => {
      const profile = await ch.getProfile(number);
      if (!profile) return { query: asked, found: false, note: "No company with that number on the companies register." };
      const [officers, pscs] = await Promise.all([ch.getOfficers(number), ch.getPscs(number)]);
      return { query: asked, found: true, company: registerCompany(profile), ...identityVerificationOf(officers, pscs, today) };
    });
    return {
      query: { company: company.map((c) => c.asked).join(",") },
      results,
      provenance: companiesHouseProvenance(ctx.now),
    };
  },
});
