import { z } from "@hono/zod-openapi";
import type { Services } from "../../platform/services";
import { COMPANY_NUMBER_PATTERN, INPUT_LIMITS } from "../../platform/schemas";
import { type Deadlines, deadlinesOf } from "../../services/companies/deadlines";
import { type CompanyProfile, registerCompany } from "../../services/companies/profile";
import { OGL } from "../../services/registers/catalogue";
import { NotFoundError } from "../../shared/errors";
import { RegisteredCompany } from "../registers/schemas";

/** What the Companies House family shares: the company asked for, its SPEC §2.1 `company` object, and provenance. */

export const CompanyNumberQuery = z
  .string()
  .trim()
  .min(1, "is required")
  .max(INPUT_LIMITS.company.max, `must be at most ${INPUT_LIMITS.company.max} characters`)
  .regex(COMPANY_NUMBER_PATTERN, "must be a Companies House company number, e.g. 00445790 or SC123456")
  .openapi({ example: "01234567" })
  .describe(
    "A Companies House company number: 8 characters, digits zero-padded (00445790) or a two-letter prefix (SC123456, NI…, OC…); unpadded numbers are padded.",
  );

export const CompaniesHouseProvenance = z
  .object({
    source: z.string(),
    fetchedAt: z.string().describe("When this answer was put together (Companies House replies are cached for a few hours; see the description)."),
    attribution: z.string(),
    licence: z.string(),
  })
  .openapi("CompaniesHouseProvenance");

export const companyFields = { query: z.object({ company: z.string() }), company: RegisteredCompany, provenance: CompaniesHouseProvenance };

export const companiesHouseProvenance = (now: Date): z.infer<typeof CompaniesHouseProvenance> => ({
  source: "Companies House public data API",
  fetchedAt: now.toISOString(),
  attribution: "Source: Companies House.",
  licence: OGL,
});

/** The company's profile, or 404 (with `query`) when the register has no such company. An unreadable register is 503. */
export async function profileOf(services: Pick<Services, "companiesHouse">, company: string): Promise<CompanyProfile> {
  const profile = await services.companiesHouse.getProfile(company);
  if (!profile) throw new NotFoundError("No company with that number on the companies register.", company);
  return profile;
}

/** A company's deadlines as of `today` (its officers' and PSCs' identity-statement dates included): the operation and the calendar feed alike. */
export async function readDeadlines(services: Pick<Services, "companiesHouse">, profile: CompanyProfile, today: string): Promise<Deadlines> {
  const ch = services.companiesHouse;
  const [officers, pscs] = await Promise.all([ch.getOfficers(profile.number), ch.getPscs(profile.number)]);
  return deadlinesOf(profile, officers, pscs, today);
}

export { registerCompany };
