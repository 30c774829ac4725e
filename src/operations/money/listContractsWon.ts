import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { IsoDate, strictInt } from "../../platform/schemas";
import { type CompanyProfile, registerCompany } from "../../services/companies/profile";
import { looksLikeCompanyNumber, normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { normaliseName } from "../../services/matching/names";
import { NotFoundError } from "../../shared/errors";
import { Provenance, RegisteredCompany, provenanceOf } from "../../app/registers/schemas";
import { awardKeysByNameAndPostcode } from "../../app/money/contractAwards";
import { MoneyCompanyQuery } from "../../app/money/registerLookup";

const PRICE = 1;
const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

const encodeCursor = (offset: number) => btoa(`o:${offset}`).replace(/=+$/, "");
function decodeCursor(c: string): number | null {
  try {
    const m = /^o:(\d{1,9})$/.exec(atob(c));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

const Award = z
  .object({
    buyer: z.object({ name: z.string().nullable(), id: z.string().nullable() }),
    title: z.string().nullable(),
    value: z
      .object({ amount: z.number(), currency: z.string() })
      .nullable()
      .describe("The award's value as published (for an award shared with other suppliers, the whole award's)."),
    awardDate: z.string().nullable(),
    contractPeriod: z.object({ start: z.string().nullable(), end: z.string().nullable() }).nullable(),
    cpv: z.object({ id: z.string(), description: z.string().nullable() }).nullable().describe("Common Procurement Vocabulary classification."),
    noticeUrl: z.string(),
    source: z.enum(["CF", "FTS"]).describe("CF: Contracts Finder; FTS: Find a Tender."),
    status: z.string(),
    supplierCount: z.number().int().describe("Suppliers named on the award (frameworks and dynamic purchasing systems name many)."),
    supplierAsNamed: z.string().describe("The supplier's name as the notice gives it."),
    matchedBy: z.enum(["company number", "name and postcode"]),
    ocid: z.string(),
    awardId: z.string(),
  })
  .openapi("ContractAward");

const Total = z.object({
  group: z.string().nullable().describe("The year (YYYY) or the buyer; null when the award gives none."),
  currency: z.string().nullable(),
  awards: z.number().int(),
  valued: z.number().int().describe("Awards with a stated value."),
  soleValue: z.number().describe("Sum of the values of awards the company won alone."),
  shared: z.number().int().describe("Awards shared with other suppliers."),
  sharedValue: z.number().describe("Sum of the whole values of shared awards (not the company's share, which is not published)."),
});

export const listContractsWon = defineOperation({
  operationId: "listContractsWon",
  method: "get",
  path: "/api/v1/contracts-won",
  family: "money",
  title: "Contracts won",
  summary: "The public contracts awarded to a company (Contracts Finder and Find a Tender), newest first, with totals by year and by buyer.",
  description: [
    "Public contract awards published on Contracts Finder and Find a Tender (OCDS), newest award first: the buyer, title, value and currency, award date, contract period, CPV classification, a link to the notice and its source. An award is the company's when the notice gives the supplier its Companies House number (`GB-COH`, also inside `additionalIdentifiers` beside a `GB-PPON`), or else the supplier's exact name (normalised) and the registered office's postcode; `matchedBy` says which, for each award. Totals by year and by buyer count every award, summing the values of awards won alone apart from awards shared with other suppliers (frameworks, dynamic purchasing systems), whose whole value is published but not each supplier's share.",
    "",
    `\`company\` is a company number, or a company's exact registered name. \`since\` (YYYY-MM-DD) keeps awards dated on or after it. Pages of up to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}); pass \`nextCursor\` as \`cursor\` while \`more\` is true. A company number that is no company, or a name that is no registered company's, answers 404 with \`query\`. Price: ${PRICE} credit a page.`,
  ].join("\n"),
  input: z.object({
    company: MoneyCompanyQuery,
    since: IsoDate.optional().describe("Only awards dated on or after this day (YYYY-MM-DD)."),
    limit: strictInt(1, MAX_LIMIT).default(DEFAULT_LIMIT).describe(`Awards per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
    cursor: z
      .string()
      .max(40)
      .refine((c) => decodeCursor(c) !== null, "is not a cursor this endpoint gave out")
      .optional()
      .describe("`nextCursor` from the previous page."),
  }),
  output: z
    .object({
      query: z.object({ company: z.string(), since: z.string().optional(), limit: z.number().int(), cursor: z.string().optional() }),
      company: RegisteredCompany,
      matchedBy: z.string().describe("How awards were tied to the company: by company number, and by exact name and postcode."),
      awards: z.array(Award).describe("Newest award first (undated last)."),
      more: z.boolean(),
      nextCursor: z.string().nullable(),
      totals: z.object({
        byYear: z.array(Total).describe("Newest year first."),
        byBuyer: z.array(Total).describe("Largest total value first (at most 200 buyers)."),
      }),
      registerDate: z.string().nullable(),
      provenance: Provenance,
      note: z.string(),
    })
    .openapi("ContractsWon"),
  price: PRICE,
  auth: "key",
  errors: ["not_found"],
  readOnly: true,
  example: { company: "01234567" },
  async handler({ company, since, limit, cursor }, ctx) {
    const s = ctx.services;
    let profile: CompanyProfile | null = null;
    if (looksLikeCompanyNumber(company)) {
      profile = await s.companiesHouse.getProfile(normaliseCompanyNumber(company)!);
      if (!profile) throw new NotFoundError("No company with that number on the companies register.", company);
    } else {
      // A name: the registered company of exactly that name (Companies House's search), else ask by number.
      const want = normaliseName(company);
      const hit = (await s.companiesHouse.searchCompanies(company, 10)).items.find((i) => i.name && normaliseName(i.name) === want);
      if (hit) profile = await s.companiesHouse.getProfile(hit.number);
      if (!profile) throw new NotFoundError("No registered company has exactly that name; ask by company number.", company);
    }
    const number = profile.number;
    // Name and postcode: suppliers the notices give no company number, under the company's exact name at its registered office's postcode.
    const keys = await awardKeysByNameAndPostcode(s, profile);
    const q = { numbers: [number], keys, since: since ?? null };
    const offset = (cursor && decodeCursor(cursor)) || 0;
    const [page, byYear, byBuyer, edition] = await Promise.all([
      s.contracts.contractAwardsOf(q, limit + 1, offset),
      s.contracts.contractTotals(q, "year"),
      s.contracts.contractTotals(q, "buyer"),
      s.registers.editionInfo("contracts"),
    ]);
    const more = page.length > limit;
    const byName = new Set(keys);
    const awards = page.slice(0, limit).map(({ key, award: a }) => ({
      buyer: a.buyer,
      title: a.title,
      value: a.value,
      awardDate: a.awardDate,
      contractPeriod: a.contractPeriod,
      cpv: a.cpv,
      noticeUrl: a.noticeUrl,
      source: a.source,
      status: a.status,
      supplierCount: a.supplierCount ?? 1,
      supplierAsNamed: a.supplier.name,
      matchedBy: byName.has(key) && a.supplier.companyNumber !== number ? ("name and postcode" as const) : ("company number" as const),
      ocid: a.ocid,
      awardId: a.awardId,
    }));
    const total = byYear.reduce((n, r) => n + r.awards, 0);
    return {
      query: { company, ...(since ? { since } : {}), limit, ...(cursor ? { cursor } : {}) },
      company: registerCompany(profile),
      matchedBy: keys.length ? `company number ${number}, and exact name at postcode ${profile.registeredOffice.postcode}` : `company number ${number}`,
      awards,
      more,
      nextCursor: more ? encodeCursor(offset + limit) : null,
      totals: { byYear, byBuyer },
      registerDate: edition.editionDate,
      provenance: provenanceOf("contracts", edition),
      note: total
        ? `${total} award${total === 1 ? "" : "s"}${since ? ` since ${since}` : ""}.`
        : `No public contract award found for this company${since ? ` since ${since}` : ""}. Awards are tied by Companies House number, or by exact name and postcode; a supplier recorded under another name or without either cannot be tied to it.`,
    };
  },
});
