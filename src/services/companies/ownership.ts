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

/**
 * Why a branch of the chain ends (issue 28 §3). `individuals` and `legal-person` are ultimate controllers reached;
 * every other reason is a place the chain stops without reaching one.
 */
export type ChainEndReason =
  | "individuals"
  | "legal-person"
  | "overseas-entity"
  | "cycle"
  | "protected-person"
  | "no-psc-registered"
  | "psc-not-identified"
  | "unidentified"
  | "not-on-register"
  | "depth-limit";

/** Ends that name who ultimately controls (individuals, counted; a legal person such as a government body). */
export const CONTROLLER_REACHED: ReadonlySet<ChainEndReason> = new Set(["individuals", "legal-person"]);

export interface ChainEnd {
  depth: number;
  /** The company at which the branch stops. */
  company: { name: string; number: string };
  reason: ChainEndReason;
  /** The corporate controller or legal person the branch stops at, by name; null for individuals, protected persons and statements. */
  controller: string | null;
  /** Where an overseas entity is registered, as the register gives it. */
  registeredIn: string | null;
  /** How many persons the end stands for: individuals or protected persons; 1 for a controller; 0 when none is registered. */
  count: number;
  /** True when the end is an ultimate controller (individuals, a legal person); false when the chain stops short of one. */
  controllerReached: boolean;
}

export interface Ownership {
  levels: OwnershipLevel[];
  /** Every place the chain ends, and why, in the order met. */
  ends: ChainEnd[];
  /** True only when every branch ends at an ultimate controller (individuals or a legal person). */
  ultimateControllerReached: boolean;
  /** Where the chain ends and why, in plain words, from `ends` alone. */
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

/** Statements that say a registrable person exists but is not (fully) known. */
const NOT_IDENTIFIED =
  /^(psc-exists-but-not-identified|psc-details-not-confirmed|steps-to-find-psc-not-yet-completed|psc-contacted-but-no-response|psc-has-failed-to-confirm-changed-details|restrictions-notice-issued-to-psc|awaiting-confirmation-from-psc)(-partnership)?$/;

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
          next:
            p.category === "legal-person"
              ? ("legal-person" as const)
              : uk
                ? ("followed" as const)
                : id?.registrationNumber || id?.countryRegistered
                  ? ("foreign" as const)
                  : ("unidentified" as const),
        };
      }),
    individuals: {
      count: people.length,
      byNatureOfControl: byNature,
      ...(canSeeNames ? { names: people.map((p) => ({ name: p.name ?? "(name not given)", naturesOfControl: p.naturesOfControl })) } : {}),
    },
    protectedPersons: active.filter((p) => p.category === "super-secure").length,
    statements: (r.statements?.items ?? []).filter((s) => !s.ceasedOn && s.statement).map((s) => s.statement!),
    notes: [],
  };
}

/** Follows the chain breadth first from `start`, reading each company once (a company seen before is a cycle). */
export async function traceOwnership(
  start: CompanyProfile,
  load: (number: string) => Promise<CompanyRecords>,
  opts: { canSeeNames: boolean; first: CompanyRecords; maxDepth?: number },
): Promise<Ownership> {
  const maxDepth = opts.maxDepth ?? MAX_OWNERSHIP_DEPTH;
  const levels: OwnershipLevel[] = [];
  const ends: ChainEnd[] = [];
  const seen = new Set<string>([start.number]);
  let frontier: { depth: number; records: CompanyRecords & { profile: CompanyProfile } }[] = [{ depth: 0, records: { ...opts.first, profile: start } }];
  while (frontier.length) {
    const next: typeof frontier = [];
    for (const { depth, records } of frontier) {
      const l = level(depth, records, opts.canSeeNames);
      levels.push(l);
      const who = `${l.company.name} (${l.company.number})`;
      const end = (reason: ChainEndReason, controller: string | null, count = 1, registeredIn: string | null = null) =>
        ends.push({
          depth,
          company: { name: l.company.name, number: l.company.number },
          reason,
          controller,
          registeredIn,
          count,
          controllerReached: CONTROLLER_REACHED.has(reason),
        });
      if (l.individuals.count) end("individuals", null, l.individuals.count);
      for (const c of l.corporateControllers) {
        if (c.next === "followed" && seen.has(c.ukCompanyNumber!)) c.next = "cycle";
        else if (c.next === "followed" && depth + 1 > maxDepth) c.next = "depth-limit";
        const name = c.name ?? "a corporate controller";
        if (c.next === "foreign") {
          l.notes.push(
            `${name} controls ${who} and is registered outside the UK${c.registeredIn ? ` (${c.registeredIn})` : ""}: the chain ends here, beyond the UK register.`,
          );
          end("overseas-entity", name, 1, c.registeredIn);
        }
        if (c.next === "legal-person") {
          l.notes.push(`${name}, a legal person (such as a government body), controls ${who}: the chain ends here.`);
          end("legal-person", name);
        }
        if (c.next === "unidentified") {
          l.notes.push(`${name} controls ${who}, but the register gives no registration details to follow.`);
          end("unidentified", name);
        }
        if (c.next === "cycle") {
          l.notes.push(`${name} (${c.ukCompanyNumber}) controls ${who} and is already in the chain: the ownership is circular.`);
          end("cycle", `${name} (${c.ukCompanyNumber})`);
        }
        if (c.next === "depth-limit") {
          l.notes.push(`${name} (${c.ukCompanyNumber}) controls ${who}; the chain is not followed past ${maxDepth} levels.`);
          end("depth-limit", `${name} (${c.ukCompanyNumber})`);
        }
        if (c.next !== "followed") continue;
        seen.add(c.ukCompanyNumber!);
        const r = await load(c.ukCompanyNumber!);
        if (!r.profile) {
          c.next = "unidentified";
          l.notes.push(`${name} is named as UK company ${c.ukCompanyNumber}, which the companies register does not have.`);
          end("not-on-register", `${name} (${c.ukCompanyNumber})`);
          continue;
        }
        next.push({ depth: depth + 1, records: { ...r, profile: r.profile } });
      }
      if (l.protectedPersons) {
        l.notes.push(
          `${who} has ${l.protectedPersons} protected (super-secure) person${l.protectedPersons === 1 ? "" : "s"} with significant control, whose details the register withholds.`,
        );
        end("protected-person", null, l.protectedPersons);
      }
      for (const s of l.statements) if (STATEMENT_WORDS[s]) l.notes.push(`For ${who}, ${STATEMENT_WORDS[s]}.`);
      const registered = l.individuals.count + l.corporateControllers.length + l.protectedPersons;
      if (!registered) end("no-psc-registered", null, 0);
      else if (l.statements.some((s) => NOT_IDENTIFIED.test(s))) end("psc-not-identified", null);
    }
    frontier = next;
  }
  const ultimateControllerReached = ends.length > 0 && ends.every((e) => e.controllerReached);
  return { levels, ends, ultimateControllerReached, conclusion: conclusionOf(ends, levels, maxDepth), maxDepth };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const atOf = (e: Pick<ChainEnd, "company" | "depth">) => `${e.company.name} (${e.company.number}), level ${e.depth}`;

/** Why a branch ends short of an ultimate controller, in words (the company it ends at is said once, before). */
function shortWords(e: ChainEnd, statements: string[], maxDepth: number): string {
  const said = statements.map((s) => STATEMENT_WORDS[s]).filter(Boolean);
  switch (e.reason) {
    case "overseas-entity":
      return `its controller ${e.controller} is an overseas entity${e.registeredIn ? ` (registered in ${e.registeredIn})` : ""}, beyond the UK register, which does not give its own controllers`;
    case "cycle":
      return `its controller ${e.controller} is already in the chain (a cycle)`;
    case "protected-person":
      return `${plural(e.count, "protected (super-secure) person", "protected (super-secure) persons")} with significant control, whose details the register withholds`;
    case "no-psc-registered":
      return `no person with significant control is registered${said.length ? ` (${said.join("; ")})` : ""}`;
    case "psc-not-identified":
      return said.join("; ") || "the company says a registrable person is not yet identified";
    case "unidentified":
      return `its controller ${e.controller} gives no registration details to follow`;
    case "not-on-register":
      return `its controller ${e.controller} is named as a UK company the companies register does not have`;
    case "depth-limit":
      return `its controller ${e.controller} is not followed past ${maxDepth} levels`;
    default:
      return e.reason;
  }
}

/** An ultimate controller reached, in words. */
function reachedWords(e: ChainEnd): string {
  return e.reason === "individuals"
    ? `${plural(e.count, "individual", "individuals")} with significant control of ${atOf(e)}`
    : `${e.controller}, a legal person (such as a government body), controlling ${atOf(e)}`;
}

/**
 * The conclusion, from the ends alone (issue 28 §3): each company where the chain ends short of an ultimate
 * controller, with why, and the ultimate controllers only where they were reached. Never names a controller that
 * was not reached.
 */
export function conclusionOf(ends: ChainEnd[], levels: Pick<OwnershipLevel, "depth" | "company" | "statements">[], maxDepth = MAX_OWNERSHIP_DEPTH): string {
  const statementsOf = (e: ChainEnd) => levels.find((l) => l.depth === e.depth && l.company.number === e.company.number)?.statements ?? [];
  const reached = ends.filter((e) => e.controllerReached);
  const groups = new Map<string, ChainEnd[]>();
  for (const e of ends.filter((x) => !x.controllerReached)) {
    const k = `${e.depth} ${e.company.number}`;
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  const stops = [...groups.values()].map(
    (g) => `The chain ends at ${atOf(g[0])}, without reaching an ultimate controller: ${g.map((e) => shortWords(e, statementsOf(e), maxDepth)).join("; ")}.`,
  );
  if (!stops.length) return `The ultimate controllers were reached: ${reached.map(reachedWords).join("; ")}.`;
  return [
    reached.length ? null : "No ultimate controller was reached.",
    ...stops,
    reached.length ? `Ultimate controllers reached: ${reached.map(reachedWords).join("; ")}.` : null,
  ]
    .filter(Boolean)
    .join(" ");
}
