import { z } from "@hono/zod-openapi";
import type { Services } from "../../platform/services";
import { type CompanyProfile, registerCompany } from "../../services/companies/profile";
import { looksLikeCompanyNumber, normaliseCompanyNumber } from "../../services/matching/companyNumber";
import type { Entry, RegisterEditionInfo, RegisterSource } from "../../services/registers/types";
import { NotFoundError } from "../../shared/errors";
import { type LookupResult, lookup } from "../registers/lookup";
import { MatchCertaintySchema, Provenance, RegisteredCompany, matchCertaintyOut, provenanceOf } from "../registers/schemas";

/**
 * What the payments and public-money operations share (issue 14 §2): `company` read as a company number or a
 * name, found on one of the loaded registers (payment practices, gender pay gap, contracts) the way the register
 * checks find a company (app/registers/lookup.ts: the company number on the register's record, then the company's
 * registered and former names, then a name), with how it matched, the `company` object, and provenance.
 *
 * A company that exists but is not on the register is not a 404: it answers with nothing found and says what the
 * register does not cover (absence from these registers says nothing good or bad). A company number that is no
 * company, or a name that matches nothing, is 404 with `query`.
 */

export const MoneyCompanyQuery = z
  .string()
  .trim()
  .min(1, "is required")
  .max(200, "must be at most 200 characters")
  .openapi({ example: "01234567" })
  .describe("A Companies House company number (e.g. 01234567, SC123456) or a company name.");

export const MatchFields = {
  company: RegisteredCompany.nullable().describe(
    "The registered company (SPEC §2.1); null only when the register's entry carries no company number and the name was asked.",
  ),
  matchedBy: z
    .string()
    .describe(
      "How the company was found on the register: by the company number on the register's own record, by its registered or former names from Companies House, or by name (a possible match is said so).",
    ),
  possibleMatch: z
    .boolean()
    .describe(
      "true when the company was matched only through a former, alternative or similar name (the register checks' match rule): the figures may be another business's; `matchCertainty` says what would confirm it.",
    ),
  matchCertainty: MatchCertaintySchema.nullable().describe("How sure the match is; null when nothing was found on the register."),
  registerDate: z.string().nullable().describe("Date of the register edition answered from (the newest file loaded)."),
  provenance: Provenance,
};

/** What was found of a company on register S. */
export interface RegisterFind<S extends RegisterSource = RegisterSource> {
  query: string;
  found: Entry<S>[];
  /** The entries found by a definite match (issue 28 §1): what a statement about the company may rest on. */
  sure: Entry<S>[];
  possibleMatch: boolean;
  certainty: LookupResult["certainty"] | null;
  matchedBy: string;
  company: z.infer<typeof RegisteredCompany> | null;
  profile: CompanyProfile | null;
  edition: RegisterEditionInfo;
  provenance: z.infer<typeof Provenance>;
}

export async function findOnRegister<S extends RegisterSource>(
  services: Pick<Services, "registers" | "companiesHouse">,
  source: S,
  query: string,
): Promise<RegisterFind<S>> {
  const edition = await services.registers.editionInfo(source);
  const base = { query, edition, provenance: provenanceOf(source, edition) };
  let r: LookupResult<S>;
  try {
    r = await lookup(services, source, query);
  } catch (e) {
    if (!(e instanceof NotFoundError) || !looksLikeCompanyNumber(query)) throw e;
    // A real company that is simply not on the register: an answer, not a 404.
    const number = normaliseCompanyNumber(query)!;
    const profile = await services.companiesHouse.getProfile(number);
    if (!profile) throw e;
    return {
      ...base,
      found: [],
      sure: [],
      possibleMatch: false,
      certainty: null,
      matchedBy: "not found on the register by company number, registered or former names",
      company: registerCompany(profile),
      profile,
    };
  }
  // Companies House could not be read for the number on the register's entry: the register's own name and number, said so.
  const entry = r.companyUnavailable ? r.found.find((f) => f.entry.companyNumber === r.companyUnavailable)?.entry : undefined;
  const company =
    r.company ??
    (entry
      ? {
          name: entry.name,
          number: r.companyUnavailable!,
          status: "unknown",
          statusDetail: "Companies House could not be read just now; name and number are the register's own.",
        }
      : null);
  return {
    ...base,
    found: r.found.map((f) => f.entry),
    sure: r.found.filter((f) => f.certainty.definite).map((f) => f.entry),
    possibleMatch: r.possibleMatch,
    certainty: r.certainty,
    matchedBy: r.matchedBy,
    company,
    profile: r.profile,
  };
}

/** The MatchFields of a reply, from what was found. */
export const matchFieldsOf = (f: RegisterFind) => ({
  company: f.company,
  matchedBy: f.matchedBy,
  possibleMatch: f.possibleMatch,
  matchCertainty: f.certainty ? matchCertaintyOut(f.certainty) : null,
  registerDate: f.edition.editionDate,
  provenance: f.provenance,
});

/** The sentence a possible match puts before any statement made from the register (issue 28 §1); "" for a definite one. */
export const possibleMatchCaveat = (f: RegisterFind): string =>
  f.possibleMatch && f.certainty
    ? `Possible match only: these figures are of ${f.certainty.matchedName}, matched by ${f.certainty.basis.replace("-", " ")}. ${f.certainty.toConfirm ?? ""} `.replace(
        /\s+$/,
        " ",
      )
    : "";
