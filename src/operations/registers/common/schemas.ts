import { z } from "@hono/zod-openapi";
import type { RegisterEditionInfo } from "../../../services/registers/types";
import { INPUT_LIMITS } from "../../../platform/schemas";
import type { RegisterSource } from "../../../services/registers/types";
import { REGISTER_CATALOGUE as REGISTERS } from "../../../services/registers/catalogue";

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

export const Match = z.object({
  score: z.number().describe("1 exact; 0.95 same name apart from legal form; below 0.9 a possible match."),
  matchedName: z.string(),
  reasons: z.array(z.string()),
});

/** Fields every register check reply has (SPEC §2.1, §2.5, §2.6): the echo, the company, how it matched, history, provenance. */
export const CheckReplyFields = {
  query: z.string(),
  company: RegisteredCompany.optional(),
  companyLookup: z
    .object({
      state: z.enum(["read", "unavailable", "not-needed"]).describe("read: `company` comes from Companies House; unavailable: Companies House could not be read (the summary says so, and `company` carries only the register's own name and number); not-needed: no company number to look up."),
      licence: z.string().nullable().describe("The licence of the Companies House data in `company` (SPEC §1 rule 3)."),
    })
    .describe("Where the `company` object came from."),
  matchedBy: z.string(),
  history: z.array(HistoryItem),
  registerDate: z.string().nullable().describe("Date of the register edition answered from."),
  historySince: z.string().nullable().describe("The service records changes from this date (its first edition of the register)."),
  provenance: Provenance,
};

export const provenanceOf = (source: RegisterSource, edition: RegisterEditionInfo): z.infer<typeof Provenance> => ({
  source: REGISTERS[source].title,
  obtainedFrom: REGISTERS[source].obtainedFrom,
  registerDate: edition.editionDate,
  fetchedAt: edition.fetchedAt,
  attribution: REGISTERS[source].attribution,
  licence: REGISTERS[source].licence,
});

/** A text field of an entry's stored data (data is JSON from the register file: anything else reads as null). */
export const textOf = (v: unknown): string | null => (typeof v === "string" ? v : null);
