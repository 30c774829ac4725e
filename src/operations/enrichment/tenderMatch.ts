/**
 * tender-match (issue 18 §2; SPEC §4.8 names it, its shape is ours): the open public tenders that fit a company,
 * ranked by the CPV codes mapped from its SIC codes and by keywords of its profile, each with its reasons, value,
 * deadline and link. Notices come from Find a Tender and Contracts Finder (the contracts source's tender stage,
 * read daily into the tenders table); the ranking is services/contracts/tenderMatch.ts. Closed tenders are never
 * offered.
 */
import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { strictInt } from "../../platform/schemas";
import { cpvForSicCodes } from "../../services/contracts/cpvForSic";
import { NO_DEADLINE_DAYS, REGIONS, keywordsFrom, ownKeywords, rankTenders, regionOfPostcode, ukDay } from "../../services/contracts/tenderMatch";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { OGL, REGISTER_CATALOGUE } from "../../services/registers/catalogue";
import { ApiError } from "../../platform/errors";
import { INPUT_LIMITS } from "../../platform/schemas";
import { profileOf } from "../../app/companies/company";
import { Provenance } from "../../app/registers/schemas";
import { enrich } from "../../app/enrichment/enrich";
import { nameable } from "../../app/enrichment/schemas";

const PRICE = 2;
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;
const KEYWORDS_MAX = 200;
/** Open notices read from the table for ranking: those with most CPV prefixes and keywords found first. */
const CANDIDATES = 500;
/** Keywords searched at most (the caller's first, then the SIC descriptions'). */
const MAX_KEYWORDS = 30;

const SOURCE = "Find a Tender and Contracts Finder tender notices (Cabinet Office)";
const OBTAINED_FROM = "API: the Find a Tender and Contracts Finder OCDS APIs (tender-stage releases), read daily";

const Tender = z
  .object({
    title: z.string().nullable(),
    buyer: z.string().nullable(),
    score: z.number().int().describe("0 to 100: CPV fit (up to 75), keywords (up to 40), region (5); see the description."),
    reasons: z
      .array(z.string())
      .describe("Why it fits, in words: the CPV code and the SIC code it matches, the keywords the title or description uses, the region."),
    value: z
      .object({ amount: z.number().nullable(), min: z.number().nullable(), max: z.number().nullable(), currency: z.string() })
      .nullable()
      .describe("The estimated value as published (`min`/`max` where the notice gives a range); null when it states none."),
    deadline: z.string().nullable().describe("When bids close, as published (a timestamp, or a date); null when the notice gives none."),
    daysLeft: z.number().int().nullable().describe("Days from today (UK) to the deadline's day: 0 closes today."),
    status: z.string().describe("`active` (open for bids) or `planned` (announced, not yet open)."),
    noticeUrl: z.string(),
    source: z.enum(["FTS", "CF"]).describe("FTS: Find a Tender; CF: Contracts Finder."),
    published: z.string().nullable().describe("When the notice was first published."),
    suitableForSme: z.boolean().nullable().describe("The buyer marks the tender suitable for small and medium-sized enterprises; null when not stated."),
    suitableForVcse: z.boolean().nullable().describe("Suitable for voluntary, community and social enterprises; null when not stated."),
    cpv: z.array(z.object({ id: z.string(), description: z.string().nullable() })).describe("The notice's CPV codes (main classification first), at most 8."),
    regions: z.array(z.string()).describe("Delivery regions or places as published."),
    description: z.string().nullable().describe("The notice's description, line breaks folded, at most 300 characters."),
    ocid: z.string(),
    noticeId: z.string(),
  })
  .openapi("TenderMatchItem");

const clip = (t: string | null, n: number) => (t && t.length > n ? `${t.slice(0, n - 1).trimEnd()}…` : t);

export const tenderMatch = defineOperation({
  operationId: "tenderMatch",
  method: "get",
  path: "/api/v1/tender-match",
  family: "enrichment",
  title: "Tender match",
  summary:
    "Open public tenders (Find a Tender and Contracts Finder) that fit a company, ranked by CPV codes from its SIC codes and by keywords, with reasons, value, deadline and link.",
  description: [
    "Open public tenders that fit a company (SPEC §4.8 tender-match; the enrichment family's `business` with `companyNumber`, SPEC §2.1). The company's SIC codes (from Companies House) are mapped to CPV codes, the vocabulary buyers classify tenders with, by our own mapping (not an official concordance: each CPV searched is listed in `cpvSearched` with its reason); keywords come from its SIC descriptions and from `keywords`.",
    "",
    `**Ranking** (0 to 100, each part given in \`reasons\`): a CPV code of the notice under a CPV searched scores by how specific the match is (division 40, group 50, class 55, finer 60; +5 when it is the notice's main classification, +5 for each further CPV matched, at most +10); each keyword the title uses 12, one only the description uses 6 (at most 40; whole words, singular and plural alike); 5 when the notice is to be delivered in the region of the registered office. A notice is offered only when its CPV matches, or its title uses a keyword, or its description uses two. Ties: the sooner deadline first, then the larger value.`,
    "",
    `**Closed tenders are never offered**: a notice cancelled, withdrawn, unsuccessful or complete, one with an award published, one whose deadline has passed (to the minute where the notice gives a time), or one without a deadline published more than ${NO_DEADLINE_DAYS} days ago.`,
    "",
    "**Where notices come from, and how fresh**: the tender-stage releases of Find a Tender and Contracts Finder (OCDS), read once a day (what was published or updated since the last read); `asOf` says when notices were last read and `readThrough` up to when. A later release of the same notice updates it; an award or a cancellation closes it. Contracts Finder carries lower-value and older procurements, Find a Tender those under the Procurement Act 2023.",
    "",
    `**No tenders** means none of the open notices loaded (\`openTendersKnown\`) fits this company's SIC codes or keywords; it does not mean no suitable tender exists. A company without SIC codes is matched on \`keywords\` only. \`company\` is a company number; \`keywords\` adds your own words (comma-separated, at most ${KEYWORDS_MAX} characters); \`limit\` 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}). An unknown company is 404 with \`query\`; Companies House unreadable is 503 with the credits back. Price: ${PRICE} credits a call.`,
  ].join("\n"),
  input: z.object({
    company: nameable(z.string().trim().min(1, "is required").max(INPUT_LIMITS.q.max, `must be at most ${INPUT_LIMITS.q.max} characters`))
      .describe(
        "A company number (e.g. 00445790 or SC123456), or the business's domain or name: then it is identified as enrich identifies it, and its website's own words about what it does join the keywords.",
      )
      .openapi({ example: "16240003" }),
    keywords: z
      .string()
      .trim()
      .max(KEYWORDS_MAX, `must be at most ${KEYWORDS_MAX} characters`)
      .optional()
      .describe(`Your own words for what the company does, comma-separated (e.g. \`web design, accessibility\`); at most ${KEYWORDS_MAX} characters.`),
    limit: strictInt(1, MAX_LIMIT).default(DEFAULT_LIMIT).describe(`Tenders to return, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
  }),
  output: z
    .object({
      query: z.object({ company: z.string(), keywords: z.string().optional(), limit: z.number().int() }),
      business: z.object({
        name: z.string(),
        companyNumber: z.string(),
        sicCodes: z.array(z.object({ code: z.string(), description: z.string().nullable() })),
        region: z.string().nullable().describe("The region of the registered office's postcode area, where known (used for the region points)."),
      }),
      cpvSearched: z
        .array(
          z.object({
            prefix: z.string().describe("CPV code prefix: a notice's CPV code starting with it matches."),
            description: z.string(),
            fromSic: z.string(),
            reason: z.string(),
          }),
        )
        .describe("CPV codes searched, from the SIC codes by our own mapping (not an official concordance)."),
      keywordsSearched: z
        .array(z.string())
        .describe(
          "Your keywords first, then the website's words about what the business does (when `company` was a domain or name), then words of the SIC descriptions.",
        ),
      tenders: z.array(Tender).describe("Best first; never a closed tender."),
      openTendersKnown: z.number().int().describe("Open notices loaded, whatever they are for: the pool searched."),
      asOf: z.string().nullable().describe("When notices were last read (the daily read, or a file loaded); null before any."),
      readThrough: z.string().nullable().describe("Notices published or updated up to this instant have been read by the daily read; null before its first."),
      notice: z.string(),
      provenance: Provenance,
    })
    .openapi("TenderMatch"),
  price: PRICE,
  auth: "key",
  errors: ["not_found", "target_unidentified", "upstream_unavailable"],
  readOnly: true,
  example: { company: "16240003", keywords: "data analytics" },
  async handler({ company, keywords, limit }, ctx) {
    const s = ctx.services;
    // A domain or name: identified as enrich identifies it (its website decides); its own words join the keywords.
    let number = normaliseCompanyNumber(company);
    let profileWords: string[] = [];
    if (!number) {
      const e = await enrich(ctx, company, undefined);
      if (!e.profile.companyNumber || e.profile.confidence === "low")
        throw new ApiError(
          "target_unidentified",
          `The company could not be identified confidently: ${e.profile.registryNote ?? "no registered company is confirmed for it"} Give its company number.`,
          {
            field: "company",
            query: { company, ...(keywords ? { keywords } : {}), limit },
          },
        );
      number = e.profile.companyNumber;
      profileWords = keywordsFrom([...(e.profile.services ?? []), e.profile.whatTheyDo ?? null]);
    }
    const profile = await profileOf(s, number);
    const descriptions = profile.sicCodes.length ? await s.companiesRegister.sicDescriptions(profile.sicCodes) : new Map<string, string>();
    const sicCodes = profile.sicCodes.map((code) => ({ code, description: descriptions.get(code) ?? null }));
    const targets = cpvForSicCodes(profile.sicCodes);
    // Keywords: the caller's, then the SIC descriptions' (or, without them, the mapping's own words for the SIC code).
    const words = [
      ...ownKeywords(keywords),
      ...profileWords,
      ...keywordsFrom(sicCodes.map((c) => c.description ?? targets.find((t) => t.fromSic === c.code)?.reason.replace(/^SIC \w+ \d+: /, "") ?? null)),
    ];
    const searched = [...new Set(words)].slice(0, MAX_KEYWORDS);
    const now = ctx.now.toISOString();
    const today = ukDay(now)!;
    const [candidates, openTendersKnown, edition] = await Promise.all([
      s.contracts.openTenderCandidates({ cpvPrefixes: targets.map((t) => t.prefix), keywords: searched, today, now, limit: CANDIDATES }),
      s.contracts.openTenderCount(today, now),
      s.contracts.tenderEdition(),
    ]);
    const cpv = targets.map((t) => ({ prefix: t.prefix, description: t.description, fromSic: t.fromSic, sicDescription: descriptions.get(t.fromSic) ?? null }));
    const postcode = profile.registeredOffice.postcode;
    const ranked = rankTenders({ cpv, keywords: searched, postcode, today, now, tenders: candidates, limit });
    const region = regionOfPostcode(postcode);
    const tenders = ranked.map((m) => ({
      title: m.tender.title,
      buyer: m.tender.buyer,
      score: m.score,
      reasons: m.reasons,
      value: m.tender.value,
      deadline: m.tender.deadline,
      daysLeft: m.daysLeft,
      status: m.tender.status,
      noticeUrl: m.tender.noticeUrl,
      source: m.tender.source,
      published: m.tender.published,
      suitableForSme: m.tender.suitability.sme,
      suitableForVcse: m.tender.suitability.vcse,
      cpv: m.tender.cpv.slice(0, 8),
      regions: m.tender.regions,
      description: clip(m.tender.description, 300),
      ocid: m.tender.ocid,
      noticeId: m.tender.noticeId,
    }));
    const basis = [targets.length ? `the CPV codes of its SIC code${profile.sicCodes.length === 1 ? "" : "s"}` : null, searched.length ? "its keywords" : null]
      .filter(Boolean)
      .join(" and ");
    const pool = `${openTendersKnown} open notice${openTendersKnown === 1 ? "" : "s"} loaded${edition.lastReadAt ? ` (last read ${edition.lastReadAt.slice(0, 10)})` : ""}`;
    const notice = !basis
      ? `Nothing to match on: the company has no SIC code we can map and no keywords were given. Pass \`keywords\`. Among ${pool}.`
      : tenders.length
        ? `${tenders.length} open tender${tenders.length === 1 ? "" : "s"} fit ${basis}, among ${pool}. Closed tenders are never offered.${edition.sample ? " These are sample notices (our own), not real ones." : ""}`
        : `No open tender among the ${pool} fits ${basis}. This is not a statement that none exists: notices are read daily from Find a Tender and Contracts Finder, and a tender classified or worded otherwise is not found.`;
    return {
      query: { company, ...(keywords ? { keywords } : {}), limit },
      business: { name: profile.name, companyNumber: profile.number, sicCodes, region: region ? REGIONS[region] : null },
      cpvSearched: targets.map((t) => ({ prefix: t.prefix, description: t.description, fromSic: t.fromSic, reason: t.reason })),
      keywordsSearched: searched,
      tenders,
      openTendersKnown,
      asOf: edition.lastReadAt,
      readThrough: edition.readThrough,
      notice,
      provenance: {
        source: SOURCE,
        obtainedFrom: OBTAINED_FROM,
        registerDate: edition.readThrough ? edition.readThrough.slice(0, 10) : null,
        fetchedAt: edition.lastReadAt,
        attribution: REGISTER_CATALOGUE.contracts.attribution,
        licence: OGL,
      },
    };
  },
});
