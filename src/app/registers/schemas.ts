import { z } from "@hono/zod-openapi";
import type { RegisterEditionInfo } from "../../services/registers/types";
import { INPUT_LIMITS } from "../../platform/schemas";
import type { RegisterSource } from "../../services/registers/types";
import { REGISTER_CATALOGUE as REGISTERS } from "../../services/registers/catalogue";
import { MATCH_BASES, type MatchCertainty } from "../../services/matching/certainty";

/** The reply fields and input every register check shares (SPEC §2.1, §2.5, §2.6), and the provenance of every register answer. */

export const CompanyQuery = z
  .string()
  .trim()
  .min(1, "is required")
  .max(INPUT_LIMITS.company.max, `must be at most ${INPUT_LIMITS.company.max} characters`)
  .openapi({ example: "Riverine Solicitors" })
  .describe("A company number (e.g. 01234567, SC123456), the register's own number, or a business name.");

export const RegisteredCompany = z
  .object({
    name: z.string(),
    number: z.string(),
    status: z.string(),
    statusDetail: z.string().optional(),
    filingsOverdue: z.boolean().optional(),
    registeredOffice: z.string().optional(),
  })
  .openapi("RegisteredCompany");

export const HistoryItem = z
  .object({
    date: z.string(),
    kind: z.string(),
    name: z.string(),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
  })
  .openapi("RegisterChange");

export const Provenance = z
  .object({
    source: z.string(),
    obtainedFrom: z.string().describe("How the service obtains the register: a published file or an API, and how often."),
    registerDate: z.string().nullable().describe("Date of the register edition answered from."),
    fetchedAt: z.string().nullable().describe("When that edition was loaded."),
    attribution: z.string(),
    licence: z.string().nullable(),
  })
  .openapi("Provenance");

/** The one match rule, said once and put in every register check's description (issue 28 §1). */
export const MATCH_RULE_DOC =
  "**How sure a match is (every register check).** A positive answer (`licensed`, `supervisedByHmrc`, `authorised`, `registered`) is given only for a *definite* match: the register's own number, the company number on the register's own record, or the register's name for the organisation equal, after normalisation (case, punctuation, Ltd/Limited; a legal form only one side states), to the company's current registered name — or, for a name query, to the name asked — with nothing on the record contradicting it (another company number; a town or postcode that shares nothing with the registered office). A match through a former company name, an alternative (trading or other) name on the register, or a similar name, or one the record contradicts, is a *possible match*: the positive field is false, `possibleMatch` is true, `matchCertainty` says which name matched, its kind, the date the company stopped using a former name (where Companies House gives it) and what would confirm it, and the summary says \"Possible match only\", never the positive sentence.";

export const MatchBasis = z
  .enum(MATCH_BASES)
  .describe(
    "How the entry was reached: register-number, company-number, registered-name (the company's current name), name-asked (the name queried) are definite unless contradicted; former-name, alternative-name, similar-name are possible matches.",
  );

export const Match = z.object({
  score: z.number().describe("1 exact; 0.95 same name apart from legal form; below 0.9 a possible match."),
  matchedName: z.string(),
  reasons: z.array(z.string()),
  basis: MatchBasis,
  definite: z.boolean().describe("This entry is the queried organisation for certain (see the match rule in the description)."),
});

export const MatchCertaintySchema = z
  .object({
    definite: z.boolean(),
    basis: MatchBasis,
    matchedName: z.string().describe("The register's name that matched."),
    matchedCompanyName: z.string().nullable().describe("The company's name (current or former) or the name asked that it matched; null for a match by number."),
    nameKind: z
      .enum(["current", "asked", "former", "alternative", "similar"])
      .nullable()
      .describe("The kind of name that matched; null for a match by number."),
    formerNameUntil: z.string().nullable().describe("For a former name: the date the company stopped using it, as Companies House gives it."),
    contradictions: z
      .array(z.string())
      .describe("What on the register's record disagrees with the company (another company number, another town or postcode)."),
    toConfirm: z.string().nullable().describe("What would confirm a possible match; null for a definite one."),
  })
  .openapi("MatchCertainty");

const NAME_KINDS = {
  "registered-name": "current",
  "name-asked": "asked",
  "former-name": "former",
  "alternative-name": "alternative",
  "similar-name": "similar",
} as const;

/** The certainty as replies give it. */
export const matchCertaintyOut = (c: MatchCertainty): z.infer<typeof MatchCertaintySchema> => ({
  definite: c.definite,
  basis: c.basis,
  matchedName: c.matchedName,
  matchedCompanyName: c.matchedCompanyName,
  nameKind: (NAME_KINDS as Partial<Record<string, z.infer<typeof MatchCertaintySchema>["nameKind"]>>)[c.basis] ?? null,
  formerNameUntil: c.formerNameUntil,
  contradictions: c.contradictions,
  toConfirm: c.toConfirm,
});

/** An entry's `match` as replies give it: the name comparison, and the rule's verdict on it. */
export const matchOut = (f: { match: { score: number; matchedName: string; reasons: string[] }; certainty: MatchCertainty }): z.infer<typeof Match> => ({
  ...f.match,
  basis: f.certainty.basis,
  definite: f.certainty.definite,
});

/** The `asOf` part of a register check's reply (issue 33 §1; src/app/registers/asOf.ts). */
export const AsOfReply = z
  .object({
    date: z.string().describe("The date asked for."),
    editions: z
      .array(
        z.object({
          part: z.string().nullable().describe("The part of the register (the sponsors' `workers` or `students`), or null for a register of one part."),
          editionDate: z.string().nullable().describe("The date of the edition answered from: the newest published on or before `date`."),
          file: z.string().nullable().describe("The file that edition was loaded from, as the publisher named it."),
          url: z.string().nullable().describe("Where it was fetched from (null for a file loaded by hand)."),
          loadedAt: z.string().nullable().describe("When the service loaded it."),
        }),
      )
      .describe("The editions the answer rests on."),
    entries: z
      .array(
        z.object({
          name: z.string(),
          firstListed: z.string().describe("The first edition kept that lists it."),
          leftOn: z
            .string()
            .nullable()
            .describe("The first edition kept without it (on or before `date`, or after it: from the newest edition), or null while it is listed."),
        }),
      )
      .describe("For each organisation found: when it first appeared in the editions kept and, where it has left the register, when."),
    companyNameOnDate: z
      .string()
      .nullable()
      .optional()
      .describe("The company's name on `date`, from Companies House's record of its former names (when `company` was read)."),
    note: z.string().describe("What describes the date and what describes today."),
  })
  .describe("Present when the request gave `asOf`: the register as it stood on that date.")
  .openapi("RegisterAsOf");

/** Fields every register check reply has (SPEC §2.1, §2.5, §2.6): the echo, the company, how it matched, history, provenance. */
export const CheckReplyFields = {
  query: z.string(),
  company: RegisteredCompany.optional(),
  companyLookup: z
    .object({
      state: z
        .enum(["read", "unavailable", "not-needed"])
        .describe(
          "read: `company` comes from Companies House; unavailable: Companies House could not be read (the summary says so, and `company` carries only the register's own name and number); not-needed: no company number to look up.",
        ),
      licence: z.string().nullable().describe("The licence of the Companies House data in `company` (SPEC §1 rule 3)."),
    })
    .describe("Where the `company` object came from."),
  matchedBy: z.string(),
  possibleMatch: z.boolean().describe("true when no organisation found is the queried one for certain (see the match rule): the positive field is then false."),
  matchCertainty: MatchCertaintySchema.describe("How sure the surest match is, and what would confirm a possible one."),
  history: z.array(HistoryItem),
  registerDate: z.string().nullable().describe("Date of the register edition answered from."),
  historySince: z.string().nullable().describe("The service records changes from this date (its first edition of the register)."),
  provenance: Provenance,
  asOf: AsOfReply.optional(),
};

export const provenanceOf = (source: RegisterSource, edition: RegisterEditionInfo): z.infer<typeof Provenance> => ({
  source: REGISTERS[source].title,
  obtainedFrom: REGISTERS[source].obtainedFrom,
  registerDate: edition.editionDate,
  fetchedAt: edition.fetchedAt,
  attribution: REGISTERS[source].attribution,
  licence: REGISTERS[source].licence,
});
