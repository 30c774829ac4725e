import { z } from "@hono/zod-openapi";
import { citeCompaniesHouse } from "../../app/registers/evidence";
import { defineOperation } from "../../platform/registry";
import { identityVerificationOf } from "../../services/companies/identity";
import { registerCompany } from "../../services/companies/profile";
import { mapLimited } from "../../shared/concurrency";
import { CompaniesHouseProvenance, companiesHouseProvenance } from "../../app/companies/company";
import { RegisteredCompany } from "../../app/registers/schemas";
import { AT_A_TIME, CompanyNumbers, MAX } from "../../app/risk/companyNumbers";

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
    `Up to ${MAX} numbers a call, comma-separated, read four at a time. A number that is no company is answered in place with \`found: false\`. If the register cannot be read for any of them the whole call answers 503 and gives its credits back (SPEC §7). Price: 1 credit per distinct company number asked. Companies House answers are cached for up to 12 hours (officers and PSCs 6 hours).`,
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
  receipt: true,
  example: { company: "01234567,SC612345" },
  async handler({ company }, ctx) {
    const ch = ctx.services.companiesHouse;
    // The receipt's evidence: Companies House's profiles, officers and persons with significant control, read now.
    citeCompaniesHouse(ctx, "company profiles, officers and persons with significant control");
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
