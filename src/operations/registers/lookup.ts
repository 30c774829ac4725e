import { z } from "@hono/zod-openapi";
import { type ChangeRow, type Entry, type RegisterEditionInfo, editionInfo, entriesByCompanyNumber, entriesByDataField, entriesByKeys, historyOf, keysByNames } from "../../db/registers";
import { d1HttpCache } from "../../db/httpCache";
import { d1RequestBudget } from "../../db/upstreamBudget";
import type { Env } from "../../env";
import { ApiError } from "../../platform/errors";
import { INPUT_LIMITS } from "../../platform/schemas";
import { looksLikeCompanyNumber, normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { ftsQueryFor, matchNames } from "../../services/matching/match";
import { normaliseName, normaliseNameCore } from "../../services/matching/names";
import type { RegisterSource } from "../../services/registers/types";
import { type CompanyProfile, createCompaniesHouseClient, registerCompany } from "../../sources/companies-house/client";

/**
 * What every register check shares (issue: register checks §2–§3): reading `company` as a company
 * number, the register's own number or a name; matching it explainably; the registered company
 * (SPEC §2.1) when one is known; history and provenance.
 */

export const OGL = "Contains public sector information licensed under the Open Government Licence v3.0.";

/**
 * The one table of what each register is, the attribution it requires (checks and feeds alike), and
 * whether its entries carry company numbers (else a company number is matched through the company's names).
 */
/** SPEC §1 rule 7: said wherever a lookup finds nothing, so a 404 never reads as "this person's business is not registered". */
const INDIVIDUALS_NOT_COVERED = "Individuals registered under their own names (sole traders) are not covered by this service.";

export const REGISTERS: Record<RegisterSource, { name: string; attribution: string; licence: string | null; companyNumbers: boolean; notFound: string }> = {
  aml: {
    name: "HMRC Money Laundering Regulations supervised business register",
    attribution: "Source: HM Revenue & Customs, supervised business register.",
    licence: OGL,
    companyNumbers: false,
    // SPEC §4.5: never "unsupervised".
    notFound: `Not being on HMRC's register does not mean the business is unsupervised: another body, such as the FCA or a professional body (for law firms and accountants usually their own), may supervise it. ${INDIVIDUALS_NOT_COVERED}`,
  },
  sra: {
    name: "Solicitors Regulation Authority register of organisations",
    attribution: "Source: Solicitors Regulation Authority (SRA) register data, supplied under the SRA's firm data terms. The SRA does not endorse this service.",
    licence: null,
    companyNumbers: true,
    notFound: "The SRA's register lists firms; a firm not on it may be regulated by another legal regulator. Individual solicitors are not covered by this service.",
  },
  sponsors: {
    name: "Home Office register of licensed sponsors (workers; students)",
    attribution: "Source: Home Office, register of licensed sponsors.",
    licence: OGL,
    companyNumbers: false,
    notFound: INDIVIDUALS_NOT_COVERED,
  },
  cqc: {
    name: "Care Quality Commission register (API and HSCA active locations)",
    attribution: "Contains CQC data © Care Quality Commission, licensed under the Open Government Licence v3.0. CQC does not endorse this service.",
    licence: "Open Government Licence v3.0",
    companyNumbers: true,
    notFound: `Providers registered as individuals, and locations named only after a person, are not covered by this service.`,
  },
  charity: {
    name: "Charity Commission for England and Wales register of charities",
    attribution: "Source: Charity Commission for England and Wales.",
    licence: OGL,
    companyNumbers: true,
    notFound: "The Charity Commission registers charities in England and Wales; Scottish and Northern Irish charities, and exempt or excepted charities, are not on it.",
  },
};

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
  source: REGISTERS[source].name,
  registerDate: edition.editionDate,
  fetchedAt: edition.fetchedAt,
  attribution: REGISTERS[source].attribution,
  licence: REGISTERS[source].licence,
});

/** A text field of an entry's stored data (data is JSON from the register file: anything else reads as null). */
export const textOf = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** The shared part of a check's reply, from a lookup and the history of `entities` (default: those of the entries found). */
export async function checkReply(env: Env, source: RegisterSource, found: LookupResult, entities: string[] = found.found.map((f) => f.entry.entity)) {
  // Dates of the parts of the register the entries come from (sponsors: workers and students are kept apart).
  const scopes = [...new Set(found.found.map((f) => f.entry.scope))];
  const [history, edition] = await Promise.all([historyOf(env.DB, source, entities), editionInfo(env.DB, source, scopes)]);
  const entry = found.found.find((f) => f.entry.companyNumber === found.companyUnavailable)?.entry;
  return {
    query: found.query,
    ...(found.company ? { company: found.company } : {}),
    // Companies House could not be read: the register's own name and number, and a status that says so.
    ...(!found.company && found.companyUnavailable && entry
      ? { company: { name: entry.name, number: found.companyUnavailable, status: "unknown", statusDetail: "Companies House could not be read just now; name and number are the register's own." } }
      : {}),
    companyLookup: found.company
      ? { state: "read" as const, licence: OGL }
      : found.companyUnavailable
        ? { state: "unavailable" as const, licence: null }
        : { state: "not-needed" as const, licence: null },
    matchedBy: found.matchedBy,
    history: history.map(toHistory),
    registerDate: edition.editionDate,
    historySince: edition.historySince,
    provenance: provenanceOf(source, edition),
  };
}

export const toHistory = (c: ChangeRow) => ({ date: c.date, kind: c.kind, name: c.name, before: c.before, after: c.after });

export interface Found {
  entry: Entry;
  match: { score: number; matchedName: string; reasons: string[] };
}

export interface LookupResult {
  query: string;
  matchedBy: string;
  matchedOn: string[];
  found: Found[];
  company: z.infer<typeof RegisteredCompany> | null;
  profile: CompanyProfile | null;
  /** The company number the register gives, when Companies House could not be read for it. */
  companyUnavailable?: string;
}

export function companiesHouse(env: Env) {
  return createCompaniesHouseClient({
    baseUrl: env.COMPANIES_HOUSE_URL,
    apiKey: env.COMPANIES_HOUSE_API_KEY,
    cache: d1HttpCache(env.DB),
    budget: d1RequestBudget(env.DB),
  });
}

export interface LookupOptions {
  /** The register's own number: data field, and how a query looks when it is one. */
  ownNumber?: { field: string | string[]; label: string; pattern: RegExp; asNumber?: boolean; first?: boolean };
}

/** The lowest name score a name query answers with (a "possible match" below 0.95). */
const NAME_MIN_SCORE = 0.7;

async function byNames(env: Env, source: RegisterSource, names: string[], minScore: number, exactOnly: boolean): Promise<Found[]> {
  const norms = [...new Set(names.flatMap((n) => [normaliseName(n), normaliseNameCore(n)]).filter(Boolean))];
  // Exact (or same-but-legal-form) names first; token candidates only when there are none.
  let keys = await keysByNames(env.DB, source, norms, null);
  if (!keys.length && !exactOnly) keys = await keysByNames(env.DB, source, [], ftsQueryFor(names[0]), 100);
  if (!keys.length) return [];
  const entries = await entriesByKeys(env.DB, source, keys);
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const best = new Map<string, Found>();
  for (const n of names) {
    for (const m of matchNames(n, entries.map((e) => ({ id: e.key, name: e.name, altNames: e.altNames })), { minScore: exactOnly ? 0.95 : minScore, limit: 200 })) {
      const prev = best.get(m.id);
      if (!prev || prev.match.score < m.score) best.set(m.id, { entry: byKey.get(m.id)!, match: { score: m.score, matchedName: m.matchedName, reasons: m.reasons } });
    }
  }
  return [...best.values()].sort((a, b) => b.match.score - a.match.score || a.entry.name.localeCompare(b.entry.name));
}

/** Finds a register's entries for `company`, and says how. Throws 404 with `query` when nothing matches. */
export async function lookup(env: Env, source: RegisterSource, query: string, opts: LookupOptions = {}): Promise<LookupResult> {
  const q = query.trim();
  const exact = (entries: Entry[], how: string): Found[] => entries.map((entry) => ({ entry, match: { score: 1, matchedName: entry.name, reasons: [how] } }));
  const own = opts.ownNumber;
  const ownValue = own && own.pattern.test(q) ? (own.asNumber ? Number(q.replace(/\D/g, "")) : q.replace(/\s/g, "").toUpperCase()) : null;
  /** The entries under the register's own number, when the query is one. */
  const byOwnNumber = async (): Promise<LookupResult | null> => {
    if (!own || ownValue === null) return null;
    const hits = (await Promise.all([own.field].flat().map((f) => entriesByDataField(env.DB, source, f, ownValue)))).flat();
    return hits.length ? withCompany(env, { query: q, matchedBy: own.label, matchedOn: [String(ownValue)], found: exact(hits, own.label), company: null, profile: null }) : null;
  };

  if (own?.first) {
    const hit = await byOwnNumber();
    if (hit) return hit;
  }

  if (looksLikeCompanyNumber(q)) {
    const number = normaliseCompanyNumber(q)!;
    // A value that is both a company number and the register's own number (HMRC's 8-digit MLR numbers):
    // both are tried, the register's own number first, and the reply says which matched.
    if (own && !own.first && ownValue !== null) {
      const hit = await byOwnNumber();
      const full = q.replace(/\s/g, "").toUpperCase() === number; // written as a whole company number, e.g. 12137104
      if (hit) return full ? { ...hit, matchedBy: `${own.label} (the value is also the form of a company number; it matched the register's own number)` } : hit;
    }
    if (REGISTERS[source].companyNumbers) {
      const hits = await entriesByCompanyNumber(env.DB, source, [number]);
      if (hits.length)
        return withCompany(env, { query: q, matchedBy: "company number on the register's own record", matchedOn: [number], found: exact(hits, "company number"), company: null, profile: null });
    }
    let profile: CompanyProfile | null = null;
    let chError: ApiError | null = null;
    try {
      profile = await companiesHouse(env).getProfile(number);
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== "upstream_unavailable") throw e;
      chError = e;
    }
    if (profile) {
      const names = [profile.name, ...profile.previousNames.map((p) => p.name)];
      const found = await byNames(env, source, names, 0.95, true);
      if (found.length)
        return {
          query: q,
          matchedBy: "registered and former company names from Companies House",
          matchedOn: [...new Set(found.map((f) => f.match.matchedName))],
          found,
          company: registerCompany(profile),
          profile,
        };
    }
    const hit = await byOwnNumber();
    if (hit) return hit;
    // The register could not be matched against the company's names because Companies House was unreachable: say so.
    if (chError) throw new ApiError("upstream_unavailable", `Companies House could not be read to find the names of company ${number}; retry shortly.`, { query: q });
    if (!profile) throw new ApiError("not_found", `No company ${number} on the companies register, and nothing on this register under that number. ${REGISTERS[source].notFound}`, { query: q });
    throw new ApiError("not_found", `${profile.name} (${number}) is not on this register under its registered or former names. ${REGISTERS[source].notFound}`, { query: q });
  }

  const hit = await byOwnNumber();
  if (hit) return hit;

  const found = await byNames(env, source, [q], NAME_MIN_SCORE, false);
  // The name asked for is echoed once, under `query` (SPEC §7), not repeated in the message: it may be a person's.
  if (!found.length) throw new ApiError("not_found", `Nothing on this register matches the name asked for (\`query\`). ${REGISTERS[source].notFound}`, { query: q });
  return withCompany(env, { query: q, matchedBy: found[0].match.score >= 0.95 ? "name" : "name (possible match)", matchedOn: [...new Set(found.map((f) => f.match.matchedName))], found, company: null, profile: null });
}

/** Adds the registered company when the register's entry carries a company number; tolerates Companies House being down. */
async function withCompany(env: Env, r: LookupResult): Promise<LookupResult> {
  const number = r.found.find((f) => f.entry.companyNumber)?.entry.companyNumber;
  if (!number || r.company) return r;
  try {
    const profile = await companiesHouse(env).getProfile(number);
    if (profile) return { ...r, profile, company: registerCompany(profile) };
  } catch {
    // The register answer stands on its own; the reply says Companies House could not be read (companyLookup).
    return { ...r, companyUnavailable: number };
  }
  return r;
}

/**
 * SPEC §2.1: what every summary adds about the registered company — the warnings Companies House gives
 * (a proposal to strike off, filings overdue), or that Companies House could not be read.
 */
export function companyNotes(found: LookupResult): string {
  if (found.companyUnavailable)
    return ` Companies House could not be read just now, so the company's status and filings (company ${found.companyUnavailable}) are not shown; retry shortly.`;
  const c = found.company;
  if (!c) return "";
  const notes: string[] = [];
  if (c.statusDetail && /strike.?off/i.test(c.statusDetail)) notes.push(`Companies House shows a proposal to strike ${c.name} off the register (${c.statusDetail})`);
  else if (c.status && c.status !== "active") notes.push(`Companies House gives ${c.name} the status ${c.status}${c.statusDetail ? ` (${c.statusDetail})` : ""}`);
  if (c.filingsOverdue) notes.push(`${c.name} has filings overdue at Companies House`);
  return notes.map((n) => ` ${n}.`).join("");
}
