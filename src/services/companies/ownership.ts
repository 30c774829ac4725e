import { normaliseCompanyNumber } from "../matching/companyNumber";
import type { CompanyProfile } from "./profile";
import type { Psc, PscList, PscStatementList } from "./records";

/**
 * Who controls a company (SPEC §4.8 ownership), followed up the chain while the controller is a UK company.
 * Pure: the register is read through `load`, given by the caller. Individuals are counted by nature of control
 * at every level; their names are given only when `canSeeNames` (SPEC §1 rule 7).
 */

/** How far up the chain is followed. */
export const MAX_OWNERSHIP_DEPTH = 5;

export interface CompanyRecords {
  profile: CompanyProfile | null;
  pscs: PscList | null;
  statements: PscStatementList | null;
}

export interface CorporateController {
  name: string | null;
  kind: "corporate" | "legal-person";
  naturesOfControl: string[];
  registrationNumber: string | null;
  registeredIn: string | null;
  /** The UK company number it was followed to, when it is a UK company. */
  ukCompanyNumber: string | null;
  /** followed: read at the next level; foreign, legal-person, unidentified, cycle, depth-limit: why not. */
  next: "followed" | "foreign" | "legal-person" | "unidentified" | "cycle" | "depth-limit";
}

export interface OwnershipLevel {
  depth: number;
  company: { name: string; number: string; status: string };
  corporateControllers: CorporateController[];
  individuals: { count: number; byNatureOfControl: Record<string, number>; names?: { name: string; naturesOfControl: string[] }[] };
  /** Super-secure persons with significant control (their details are withheld by the register). */
  protectedPersons: number;
  /** Active PSC statements (codes), e.g. no-individual-or-entity-with-signficant-control (the register's spelling). */
  statements: string[];
  /** Plain sentences: why the chain ends here, where it does. */
  notes: string[];
}

export interface Ownership {
  levels: OwnershipLevel[];
  /** Where the ultimate controller was reached, in plain words. */
  conclusion: string;
  maxDepth: number;
}

const UK_PLACES = /\b(england|wales|scotland|northern ireland|united kingdom|great britain|uk|companies house|register of companies|registrar of companies)\b/i;

/** A corporate PSC is a UK company when the register it is on is the UK's (the number alone cannot tell: Delaware numbers look alike). */
export function ukCompanyNumberOf(p: Psc): string | null {
  const id = p.identification;
  if (!id?.registrationNumber) return null;
  const where = [id.countryRegistered, id.placeRegistered, id.legalAuthority].filter(Boolean).join(" ");
  if (!UK_PLACES.test(where) && !/companies act/i.test(where)) return null;
  return normaliseCompanyNumber(id.registrationNumber);
}

const STATEMENT_WORDS: Record<string, string> = {
  "no-individual-or-entity-with-signficant-control": "the company says it has no registrable person or relevant legal entity",
  "no-individual-or-entity-with-signficant-control-partnership": "the partnership says it has no registrable person or relevant legal entity",
  "steps-to-find-psc-not-yet-completed": "the company has not yet completed its steps to find its persons with significant control",
  "psc-exists-but-not-identified": "the company knows it has a registrable person but has not identified them",
  "psc-details-not-confirmed": "the company has identified a registrable person but not confirmed their details",
};

function level(depth: number, r: CompanyRecords & { profile: CompanyProfile }, canSeeNames: boolean): OwnershipLevel {
  const active = (r.pscs?.items ?? []).filter((p) => !p.ceased && !p.ceasedOn);
  const people = active.filter((p) => p.category === "individual");
  const byNature: Record<string, number> = {};
  for (const p of people) for (const n of p.naturesOfControl) byNature[n] = (byNature[n] ?? 0) + 1;
  return {
    depth,
    company: { name: r.profile.name, number: r.profile.number, status: r.profile.status },
    corporateControllers: active
      .filter((p) => p.category === "corporate" || p.category === "legal-person")
      .map((p) => {
        const uk = p.category === "corporate" ? ukCompanyNumberOf(p) : null;
        const id = p.identification;
        return {
          name: p.name,
          kind: p.category === "corporate" ? ("corporate" as const) : ("legal-person" as const),
          naturesOfControl: p.naturesOfControl,
          registrationNumber: id?.registrationNumber ?? null,
          registeredIn: id?.countryRegistered ?? id?.placeRegistered ?? null,
          ukCompanyNumber: uk,
          next: p.category === "legal-person" ? ("legal-person" as const) : uk ? ("followed" as const) : id?.registrationNumber || id?.countryRegistered ? ("foreign" as const) : ("unidentified" as const),
        };
      }),
    individuals: { count: people.length, byNatureOfControl: byNature, ...(canSeeNames ? { names: people.map((p) => ({ name: p.name ?? "(name not given)", naturesOfControl: p.naturesOfControl })) } : {}) },
    protectedPersons: active.filter((p) => p.category === "super-secure").length,
    statements: (r.statements?.items ?? []).filter((s) => !s.ceasedOn && s.statement).map((s) => s.statement!),
    notes: [],
  };
}

/** Follows the chain breadth first from `start`, reading each company once (a company seen before is a cycle). */
export async function traceOwnership(start: CompanyProfile, load: (number: string) => Promise<CompanyRecords>, opts: { canSeeNames: boolean; first: CompanyRecords; maxDepth?: number }): Promise<Ownership> {
  const maxDepth = opts.maxDepth ?? MAX_OWNERSHIP_DEPTH;
  const levels: OwnershipLevel[] = [];
  const seen = new Set<string>([start.number]);
  let frontier: { depth: number; records: CompanyRecords & { profile: CompanyProfile } }[] = [{ depth: 0, records: { ...opts.first, profile: start } }];
  const endings: string[] = [];
  while (frontier.length) {
    const next: typeof frontier = [];
    for (const { depth, records } of frontier) {
      const l = level(depth, records, opts.canSeeNames);
      levels.push(l);
      const who = `${l.company.name} (${l.company.number})`;
      for (const c of l.corporateControllers) {
        if (c.next === "followed" && seen.has(c.ukCompanyNumber!)) c.next = "cycle";
        else if (c.next === "followed" && depth + 1 > maxDepth) c.next = "depth-limit";
        const name = c.name ?? "a corporate controller";
        if (c.next === "foreign") l.notes.push(`${name} controls ${who} and is registered outside the UK${c.registeredIn ? ` (${c.registeredIn})` : ""}: the chain ends here, beyond the UK register.`);
        if (c.next === "legal-person") l.notes.push(`${name}, a legal person (such as a government body), controls ${who}: the chain ends here.`);
        if (c.next === "unidentified") l.notes.push(`${name} controls ${who}, but the register gives no registration details to follow.`);
        if (c.next === "cycle") l.notes.push(`${name} (${c.ukCompanyNumber}) controls ${who} and is already in the chain: the ownership is circular.`);
        if (c.next === "depth-limit") l.notes.push(`${name} (${c.ukCompanyNumber}) controls ${who}; the chain is not followed past ${maxDepth} levels.`);
        if (c.next !== "followed") continue;
        seen.add(c.ukCompanyNumber!);
        const r = await load(c.ukCompanyNumber!);
        if (!r.profile) {
          c.next = "unidentified";
          l.notes.push(`${name} is named as UK company ${c.ukCompanyNumber}, which the companies register does not have.`);
          continue;
        }
        next.push({ depth: depth + 1, records: { ...r, profile: r.profile } });
      }
      if (l.protectedPersons) l.notes.push(`${who} has ${l.protectedPersons} protected (super-secure) person${l.protectedPersons === 1 ? "" : "s"} with significant control, whose details the register withholds.`);
      for (const s of l.statements) if (STATEMENT_WORDS[s]) l.notes.push(`For ${who}, ${STATEMENT_WORDS[s]}.`);
      if (!l.corporateControllers.some((c) => c.next === "followed")) {
        const individuals = l.individuals.count ? `${l.individuals.count} individual${l.individuals.count === 1 ? "" : "s"}` : "";
        endings.push(`level ${depth}, ${who}${individuals ? `, controlled by ${individuals}` : ""}${l.notes.length ? ` (${l.notes.map((n) => n.replace(/\.$/, "")).join("; ")})` : ""}`);
      }
    }
    frontier = next;
  }
  const conclusion = endings.length === 1 ? `The ultimate controller was reached at ${endings[0]}.` : `The chain ends in ${endings.length} places: ${endings.join("; ")}.`;
  return { levels, conclusion, maxDepth };
}
