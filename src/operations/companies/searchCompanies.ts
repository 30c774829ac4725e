import { z } from "@hono/zod-openapi";
import { type OpContext, defineOperation } from "../../platform/registry";
import { INPUT_LIMITS, strictInt } from "../../platform/schemas";
import { statusFromBulk, typeFromBulk } from "../../services/companies/bulkVocabulary";
import type { CompanyProfile } from "../../services/companies/profile";
import type { CompanyRow, CompanySearchItem } from "../../services/companies/records";
import { type CompanyCandidate, companyFtsQuery, rankCompanies } from "../../services/companies/search";
import { looksLikeCompanyNumber, normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { OGL } from "../../services/registers/catalogue";
import { NotFoundError } from "../../shared/errors";
import { CompaniesHouseProvenance, companiesHouseProvenance } from "../../app/companies/company";

/** Name-index candidates read for ranking (best BM25 first): enough for the best 50 by our own scorer. */
const CANDIDATES = 200;
/** Companies House search results asked for when the local index is not loaded (one request, whatever the number). */
const CH_SEARCH_ITEMS = 50;

const Sic = z.object({
  code: z.string(),
  description: z.string().nullable().describe("As the Basic Company Data file describes the code; null where this service has no description."),
});

const Result = z
  .object({
    name: z.string(),
    number: z.string(),
    status: z.string().describe("Companies House company_status code: active, liquidation, administration, receivership, voluntary-arrangement, …"),
    statusDetail: z.string().optional().describe("e.g. active-proposal-to-strike-off"),
    type: z.string().nullable().describe("Companies House company_type code: ltd, plc, llp, private-limited-guarant-nsc, …"),
    incorporatedOn: z.string().nullable(),
    sicCodes: z.array(Sic).nullable().describe("Null when answered from Companies House's search, whose results carry no SIC codes."),
    locality: z.string().nullable().describe("Registered office post town."),
    postcode: z.string().nullable().describe("Registered office postcode."),
    confidence: z
      .number()
      .describe("0 to 1: 1 for the exact name or the company number, 0.95 for the same name apart from its legal form (Ltd/Limited), less for shared words."),
    matchedOn: z.enum(["name", "former name", "company number"]),
    matchedName: z.string(),
    reasons: z.array(z.string()),
  })
  .openapi("CompanySearchResult");

const Output = z
  .object({
    query: z.object({ q: z.string(), limit: z.number().int() }),
    answeredFrom: z
      .object({
        index: z.enum(["local", "companies-house-search", "companies-house-profile"]),
        editionDate: z.string().nullable().describe("The Basic Company Data edition the local index holds (null for Companies House's live answers)."),
        sample: z.boolean().describe("True when the local index holds this installation's sample data, not a real edition."),
        note: z.string(),
      })
      .describe("Which index answered (SPEC §4.2: the register's own file when it is loaded here, Companies House's search otherwise)."),
    results: z.array(Result).describe("Best first. Company level only: never an officer or any person."),
    provenance: CompaniesHouseProvenance,
  })
  .openapi("CompanySearch");

type Out = z.infer<typeof Output>;
type ResultOut = z.infer<typeof Result>;

const fields = (row: CompanyRow, sic: Map<string, string>): Omit<ResultOut, "confidence" | "matchedOn" | "matchedName" | "reasons"> => {
  const { status, statusDetail } = statusFromBulk(row.status);
  return {
    name: row.name,
    number: row.number,
    status,
    ...(statusDetail ? { statusDetail } : {}),
    type: typeFromBulk(row.category),
    incorporatedOn: row.incorporatedOn,
    sicCodes: row.sicCodes.map((code) => ({ code, description: sic.get(code) ?? null })),
    locality: row.locality,
    postcode: row.postcode,
  };
};

const profileFields = (p: CompanyProfile, sic: Map<string, string>): Omit<ResultOut, "confidence" | "matchedOn" | "matchedName" | "reasons"> => ({
  name: p.name,
  number: p.number,
  status: p.status,
  ...(p.statusDetail ? { statusDetail: p.statusDetail } : {}),
  type: p.type,
  incorporatedOn: p.incorporatedOn,
  sicCodes: p.sicCodes.map((code) => ({ code, description: sic.get(code) ?? null })),
  locality: p.registeredOffice.locality,
  postcode: p.registeredOffice.postcode,
});

const itemFields = (i: CompanySearchItem): Omit<ResultOut, "confidence" | "matchedOn" | "matchedName" | "reasons"> => ({
  // Companies House's search index keeps the register's double spaces ("YOU  LIMITED").
  name: (i.name ?? "").replace(/\s{2,}/g, " ").trim(),
  number: i.number,
  status: i.status ?? "unknown",
  type: i.type,
  incorporatedOn: i.incorporatedOn,
  sicCodes: null,
  locality: i.locality,
  postcode: i.postcode,
});

const localProvenance = (ctx: OpContext) => ({
  source: "Companies House Basic Company Data (the monthly file of every live company)",
  fetchedAt: ctx.now.toISOString(),
  attribution: "Source: Companies House.",
  licence: OGL,
});

async function byNumber(number: string, q: string, limit: number, ctx: OpContext): Promise<Out> {
  const reg = ctx.services.companiesRegister;
  const edition = await reg.companiesEdition();
  const row = edition ? await reg.companyByNumber(number) : null;
  const matched = { confidence: 1, matchedOn: "company number" as const, matchedName: number, reasons: ["company number"] };
  if (row) {
    const sic = await reg.sicDescriptions(row.sicCodes);
    return {
      query: { q, limit },
      answeredFrom: {
        index: "local",
        editionDate: edition!.editionDate,
        sample: edition!.sample,
        note: "The company with that number in the Basic Company Data file loaded here.",
      },
      results: [{ ...fields(row, sic), ...matched }],
      provenance: localProvenance(ctx),
    };
  }
  // Not in the file of live companies (or no file loaded): the register itself knows dissolved companies too.
  const profile = await ctx.services.companiesHouse.getProfile(number);
  if (!profile) throw new NotFoundError("No company with that number on the companies register.", { q, limit });
  const sic = edition ? await reg.sicDescriptions(profile.sicCodes) : new Map<string, string>();
  return {
    query: { q, limit },
    answeredFrom: {
      index: "companies-house-profile",
      editionDate: null,
      sample: false,
      note: "The company's profile from Companies House (it is not in the monthly file of live companies loaded here, or no file is loaded).",
    },
    results: [{ ...profileFields(profile, sic), ...matched }],
    provenance: companiesHouseProvenance(ctx.now),
  };
}

export const searchCompanies = defineOperation({
  operationId: "searchCompanies",
  method: "get",
  path: "/api/v1/company-search",
  family: "companies",
  title: "Company search",
  summary: "Ranked matches from the national companies register for a company name or number, each with a 0–1 confidence and the reasons.",
  description: [
    "Searches the companies register (SPEC §4.2) and ranks what it finds the way the register checks explain a match: each result has a 0 to 1 `confidence` and plain `reasons` (exact name 1, the same name apart from its legal form 0.95, otherwise how many of the query's words the name shares, common words such as Ltd, Services or Holdings counting little). Results below 0.3 are not shown.",
    "",
    "**Where the answer comes from** (`answeredFrom`): the Basic Company Data file (Companies House's monthly file of every live company) loaded into this service's own name index when one is loaded; otherwise Companies House's live search, whose results carry no SIC codes (`sicCodes` is null). A `q` that is a company number (unpadded, or with a prefix such as SC, NI or OC) goes straight to that company: from the file when it lists it, else from the company's Companies House profile (dissolved companies too); a number that is no company answers 404.",
    "",
    "Each result: name, number, status and status detail (Companies House's codes), type (company_type code), incorporation date, SIC codes with the descriptions the file gives them, and the registered office's post town and postcode. The local index matches current names; former names are matched where Companies House's search or the company's profile gives them. Company level only: never an officer or any other person.",
  ].join("\n"),
  input: z.object({
    q: z
      .string()
      .trim()
      .min(1, "is required")
      .max(INPUT_LIMITS.q.max, `must be at most ${INPUT_LIMITS.q.max} characters`)
      .describe("A company name (or part of one), or a company number.")
      .openapi({ example: "Harbourside Legal" }),
    limit: strictInt(1, INPUT_LIMITS.limit.max).default(10).describe("Results to return, 1 to 50 (default 10)."),
  }),
  output: Output,
  price: 1,
  auth: "key",
  errors: ["not_found", "upstream_unavailable"],
  readOnly: true,
  example: { q: "Harbourside Legal", limit: 5 },
  async handler({ q, limit }, ctx): Promise<Out> {
    if (looksLikeCompanyNumber(q)) return byNumber(normaliseCompanyNumber(q)!, q, limit, ctx);
    const reg = ctx.services.companiesRegister;
    const edition = await reg.companiesEdition();
    if (edition) {
      const fts = companyFtsQuery(q);
      const rows = fts ? await reg.companiesMatching(fts, CANDIDATES) : [];
      const ranked = rankCompanies(
        q,
        rows.map((row) => ({ number: row.number, name: row.name, previousNames: row.previousNames.map((p) => p.name), row })),
        limit,
      );
      const sic = await reg.sicDescriptions(ranked.flatMap((r) => r.candidate.row.sicCodes));
      return {
        query: { q, limit },
        answeredFrom: {
          index: "local",
          editionDate: edition.editionDate,
          sample: edition.sample,
          note: edition.sample
            ? "This installation's sample companies (not a real edition): load the real file with npm run ingest -- companies <file>."
            : "The Basic Company Data file (live companies) loaded here.",
        },
        results: ranked.map((r) => ({
          ...fields(r.candidate.row, sic),
          confidence: r.confidence,
          matchedOn: r.matchedOn,
          matchedName: r.matchedName,
          reasons: r.reasons,
        })),
        provenance: localProvenance(ctx),
      };
    }
    const found = await ctx.services.companiesHouse.searchCompanies(q, CH_SEARCH_ITEMS);
    const candidates: (CompanyCandidate & { item: CompanySearchItem })[] = found.items.map((i) => ({
      number: i.number,
      name: (i.name ?? "").replace(/\s{2,}/g, " ").trim(),
      previousNames: [],
      item: i,
    }));
    const ranked = rankCompanies(q, candidates, limit);
    return {
      query: { q, limit },
      answeredFrom: {
        index: "companies-house-search",
        editionDate: null,
        sample: false,
        note: "Companies House's live search: no Basic Company Data file is loaded here.",
      },
      results: ranked.map((r) => ({
        ...itemFields(r.candidate.item),
        confidence: r.confidence,
        matchedOn: r.matchedOn,
        matchedName: r.matchedName,
        reasons: r.reasons,
      })),
      provenance: companiesHouseProvenance(ctx.now),
    };
  },
});
