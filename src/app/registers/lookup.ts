import type { z } from "@hono/zod-openapi";
import type { ChangeRow, DataField, Entry } from "../../services/registers/types";
import type { Services } from "../../platform/services";
import { NotFoundError, UpstreamError } from "../../shared/errors";
import { type CompanyProfile, registerCompany } from "../../services/companies/profile";
import { looksLikeCompanyNumber, normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { ftsQueryFor, matchNames } from "../../services/matching/match";
import { normaliseName, normaliseNameCore } from "../../services/matching/names";
import type { RegisterSource } from "../../services/registers/types";
import { OGL, REGISTER_CATALOGUE as REGISTERS } from "../../services/registers/catalogue";
import { type CompanyForMatch, type MatchCertainty, type MatchRoute, matchCertainty, overallCertainty } from "../../services/matching/certainty";
import { mergedRecordFacts, recordFactsOf } from "../../services/registers/places";
import { type RegisteredCompany, matchCertaintyOut, provenanceOf } from "./schemas";

/**
 * What every register check shares (issue: register checks §2–§3): reading `company` as a company
 * number, the register's own number or a name; matching it explainably; the registered company
 * (SPEC §2.1) when one is known; history and provenance.
 */

/** What a lookup reads: the published registers and Companies House, from `ctx.services`. */
export type LookupServices = Pick<Services, "registers" | "companiesHouse">;

/** The shared part of a check's reply, from a lookup and the history of `entities` (default: those of the entries found). */
export async function checkReply(
  services: LookupServices,
  source: RegisterSource,
  found: LookupResult,
  entities: string[] = found.found.map((f) => f.entry.entity),
) {
  // Dates of the parts of the register the entries come from (sponsors: workers and students are kept apart).
  const scopes = [...new Set(found.found.map((f) => f.entry.scope))];
  const [history, edition] = await Promise.all([services.registers.historyOf(source, entities), services.registers.editionInfo(source, scopes)]);
  const entry = found.found.find((f) => f.entry.companyNumber === found.companyUnavailable)?.entry;
  return {
    query: found.query,
    ...(found.company ? { company: found.company } : {}),
    // Companies House could not be read: the register's own name and number, and a status that says so.
    ...(!found.company && found.companyUnavailable && entry
      ? {
          company: {
            name: entry.name,
            number: found.companyUnavailable,
            status: "unknown",
            statusDetail: "Companies House could not be read just now; name and number are the register's own.",
          },
        }
      : {}),
    companyLookup: found.company
      ? { state: "read" as const, licence: OGL }
      : found.companyUnavailable
        ? { state: "unavailable" as const, licence: null }
        : { state: "not-needed" as const, licence: null },
    matchedBy: found.matchedBy,
    possibleMatch: found.possibleMatch,
    matchCertainty: matchCertaintyOut(found.certainty),
    history: history.map(toHistory),
    registerDate: edition.editionDate,
    historySince: edition.historySince,
    provenance: provenanceOf(source, edition),
  };
}

export const toHistory = (c: ChangeRow) => ({ date: c.date, kind: c.kind, name: c.name, before: c.before, after: c.after });

/** An entry of register S found, how it was reached, and how sure that makes it (the one match rule: services/matching/certainty.ts). */
export interface Found<S extends RegisterSource = RegisterSource> {
  entry: Entry<S>;
  match: { score: number; matchedName: string; reasons: string[] };
  route: MatchRoute;
  certainty: MatchCertainty;
}

type Hit<S extends RegisterSource> = Omit<Found<S>, "certainty">;

/** What a lookup on register S found. */
export interface LookupResult<S extends RegisterSource = RegisterSource> {
  query: string;
  matchedBy: string;
  matchedOn: string[];
  /** Definite matches first (then as the lookup ranked them). */
  found: Found<S>[];
  company: z.infer<typeof RegisteredCompany> | null;
  profile: CompanyProfile | null;
  /** The company number the register gives, when Companies House could not be read for it. */
  companyUnavailable?: string;
  /** No entry found is a definite match (issue 28 §1): a register's positive answer must not be given. */
  possibleMatch: boolean;
  /** The surest entry's certainty (the first definite one, else the best possible one). */
  certainty: MatchCertainty;
}

/** A lookup's result before the match rule is applied: the entries and how they were reached. */
type Reached<S extends RegisterSource> = Omit<LookupResult<S>, "found" | "possibleMatch" | "certainty"> & { found: Hit<S>[] };

/** The company as the match rule needs it. */
export const companyForMatch = (p: CompanyProfile): CompanyForMatch => ({
  number: p.number,
  name: p.name,
  previousNames: p.previousNames.map((n) => ({ name: n.name, until: n.until })),
  office: { town: p.registeredOffice.locality, postcode: p.registeredOffice.postcode },
});

/**
 * Applies the one match rule to what a lookup reached: each entry's certainty (its entity's places taken together),
 * definite entries first. `asked` is the company the query named (by its number), null for a name or a register number.
 */
function decide<S extends RegisterSource>(source: S, r: Reached<S>, asked: CompanyProfile | null): LookupResult<S> {
  const byEntity = new Map<string, Hit<S>[]>();
  for (const h of r.found) byEntity.set(h.entry.entity, [...(byEntity.get(h.entry.entity) ?? []), h]);
  const company = asked ? companyForMatch(asked) : null;
  const label = (REGISTERS[source] as { numberLabel?: string }).numberLabel ?? null;
  const found: Found<S>[] = r.found.map((h) => ({
    ...h,
    certainty: matchCertainty(
      h.route,
      { ...mergedRecordFacts(byEntity.get(h.entry.entity)!.map((x) => x.entry)), name: h.entry.name, companyNumber: recordFactsOf(h.entry).companyNumber },
      company,
      label,
    ),
  }));
  // Stable: definite first, the lookup's own order kept within each.
  const ordered = [...found.filter((f) => f.certainty.definite), ...found.filter((f) => !f.certainty.definite)];
  const o = overallCertainty(ordered.map((f) => f.certainty));
  return { ...r, found: ordered, possibleMatch: o.possibleMatch, certainty: o.best! };
}

export interface LookupOptions<S extends RegisterSource = RegisterSource> {
  /** The register's own number: the field of the register's data it is in, and how a query looks when it is one. */
  ownNumber?: { field: DataField<S> | DataField<S>[]; label: string; pattern: RegExp; asNumber?: boolean; first?: boolean };
}

/** The lowest name score a name query answers with (a "possible match" below 0.95). */
const NAME_MIN_SCORE = 0.7;

async function byNames<S extends RegisterSource>(
  services: LookupServices,
  source: S,
  names: string[],
  minScore: number,
  exactOnly: boolean,
): Promise<Hit<S>[]> {
  const norms = [...new Set(names.flatMap((n) => [normaliseName(n), normaliseNameCore(n)]).filter(Boolean))];
  // Exact (or same-but-legal-form) names first; token candidates only when there are none.
  let keys = await services.registers.keysByNames(source, norms, null);
  if (!keys.length && !exactOnly) keys = await services.registers.keysByNames(source, [], ftsQueryFor(names[0]), 100);
  if (!keys.length) return [];
  const entries = await services.registers.entriesByKeys(source, keys);
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const best = new Map<string, Hit<S>>();
  // Names in order (the current name before former ones): a tie keeps the earlier name.
  for (const n of names) {
    for (const m of matchNames(
      n,
      entries.map((e) => ({ id: e.key, name: e.name, altNames: e.altNames })),
      { minScore: exactOnly ? 0.95 : minScore, limit: 200 },
    )) {
      const prev = best.get(m.id);
      if (!prev || prev.match.score < m.score)
        best.set(m.id, {
          entry: byKey.get(m.id)!,
          match: { score: m.score, matchedName: m.matchedName, reasons: m.reasons },
          route: { by: "name", matchedName: m.matchedName, primary: m.primary, via: n },
        });
    }
  }
  return [...best.values()].sort((a, b) => b.match.score - a.match.score || a.entry.name.localeCompare(b.entry.name));
}

/** Finds a register's entries for `company`, and says how. Throws NotFoundError (404 with `query`) when nothing matches. */
export async function lookup<S extends RegisterSource>(
  services: LookupServices,
  source: S,
  query: string,
  opts: LookupOptions<S> = {},
): Promise<LookupResult<S>> {
  const q = query.trim();
  const exact = (entries: Entry<S>[], how: string, by: "register-number" | "company-number"): Hit<S>[] =>
    entries.map((entry) => ({
      entry,
      match: { score: 1, matchedName: entry.name, reasons: [how] },
      route: { by, matchedName: entry.name, primary: true, via: null },
    }));
  const own = opts.ownNumber;
  const ownValue = own && own.pattern.test(q) ? (own.asNumber ? Number(q.replace(/\D/g, "")) : q.replace(/\s/g, "").toUpperCase()) : null;
  /** The entries under the register's own number, when the query is one. */
  const byOwnNumber = async (): Promise<LookupResult<S> | null> => {
    if (!own || ownValue === null) return null;
    const fields = typeof own.field === "string" ? [own.field] : own.field;
    const hits = (await Promise.all(fields.map((f) => services.registers.entriesByDataField(source, f, ownValue)))).flat();
    if (!hits.length) return null;
    return decide(
      source,
      await withCompany(services, {
        query: q,
        matchedBy: own.label,
        matchedOn: [String(ownValue)],
        found: exact(hits, own.label, "register-number"),
        company: null,
        profile: null,
      }),
      null,
    );
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
      const hits = await services.registers.entriesByCompanyNumber(source, [number]);
      if (hits.length) {
        const r = await withCompany(services, {
          query: q,
          matchedBy: "company number on the register's own record",
          matchedOn: [number],
          found: exact(hits, "company number", "company-number"),
          company: null,
          profile: null,
        });
        return decide(source, r, r.profile);
      }
    }
    let profile: CompanyProfile | null = null;
    let chError: UpstreamError | null = null;
    try {
      profile = await services.companiesHouse.getProfile(number);
    } catch (e) {
      if (!(e instanceof UpstreamError)) throw e;
      chError = e;
    }
    if (profile) {
      const names = [profile.name, ...profile.previousNames.map((p) => p.name)];
      const found = await byNames(services, source, names, 0.95, true);
      if (found.length)
        return decide(
          source,
          {
            query: q,
            matchedBy: "registered and former company names from Companies House",
            matchedOn: [...new Set(found.map((f) => f.match.matchedName))],
            found,
            company: registerCompany(profile),
            profile,
          },
          profile,
        );
    }
    const hit = await byOwnNumber();
    if (hit) return hit;
    // The register could not be matched against the company's names because Companies House was unreachable: say so.
    if (chError)
      throw new UpstreamError(chError.source, chError.kind, `Companies House could not be read to find the names of company ${number}; retry shortly.`, {
        retryAfter: chError.retryAfter,
        status: chError.status,
        cause: chError,
        query: q,
      });
    if (!profile)
      throw new NotFoundError(
        `No company ${number} on the companies register, and nothing on this register under that number. ${REGISTERS[source].notFound}`,
        q,
      );
    throw new NotFoundError(`${profile.name} (${number}) is not on this register under its registered or former names. ${REGISTERS[source].notFound}`, q);
  }

  const hit = await byOwnNumber();
  if (hit) return hit;

  const found = await byNames(services, source, [q], NAME_MIN_SCORE, false);
  // The name asked for is echoed once, under `query` (SPEC §7), not repeated in the message: it may be a person's.
  if (!found.length) throw new NotFoundError(`Nothing on this register matches the name asked for (\`query\`). ${REGISTERS[source].notFound}`, q);
  const reached = await withCompany(services, {
    query: q,
    matchedBy: "name",
    matchedOn: [...new Set(found.map((f) => f.match.matchedName))],
    found,
    company: null,
    profile: null,
  });
  const r = decide(source, reached, null);
  return r.possibleMatch ? { ...r, matchedBy: "name (possible match)" } : r;
}

/** Adds the registered company when the register's entry carries a company number; tolerates Companies House being down. */
async function withCompany<S extends RegisterSource>(services: LookupServices, r: Reached<S>): Promise<Reached<S>> {
  const number = r.found.find((f) => f.entry.companyNumber)?.entry.companyNumber;
  if (!number || r.company) return r;
  try {
    const profile = await services.companiesHouse.getProfile(number);
    if (profile) return { ...r, profile, company: registerCompany(profile) };
  } catch (e) {
    if (!(e instanceof UpstreamError)) throw e;
    // The register answer stands on its own; the reply says Companies House could not be read (companyLookup), the log why.
    console.error(JSON.stringify({ upstream: e.source, kind: e.kind, status: e.status, company: number, error: e.message }));
    return { ...r, companyUnavailable: number };
  }
  return r;
}

/** The company or name asked, as a summary names it: `BAYSIDE HOSPITALITY LIMITED (07654321)` or `"Riverside Trust"`. */
export const queriedAs = (found: Pick<LookupResult, "company">, asked: string): string =>
  found.company && looksLikeCompanyNumber(asked) ? `${found.company.name} (${found.company.number})` : `"${asked.trim()}"`;

/**
 * SPEC §2.1: what every summary adds about the registered company — the warnings Companies House gives
 * (a proposal to strike off, filings overdue), or that Companies House could not be read.
 */
export function companyNotes(found: Pick<LookupResult, "companyUnavailable" | "company">): string {
  if (found.companyUnavailable)
    return ` Companies House could not be read just now, so the company's status and filings (company ${found.companyUnavailable}) are not shown; retry shortly.`;
  const c = found.company;
  if (!c) return "";
  const notes: string[] = [];
  if (c.statusDetail && /strike.?off/i.test(c.statusDetail))
    notes.push(`Companies House shows a proposal to strike ${c.name} off the register (${c.statusDetail})`);
  else if (c.status && c.status !== "active")
    notes.push(`Companies House gives ${c.name} the status ${c.status}${c.statusDetail ? ` (${c.statusDetail})` : ""}`);
  if (c.filingsOverdue) notes.push(`${c.name} has filings overdue at Companies House`);
  return notes.map((n) => ` ${n}.`).join("");
}
