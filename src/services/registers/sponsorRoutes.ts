/**
 * Routes of the register of licensed sponsors under their current names (SPEC §4.8, §6.3).
 *
 * The Home Office renames routes from time to time, and the register file then lists the same
 * licence under the new name from one edition to the next. A rename alone is no change of the
 * sponsor, so routes are compared under their current names. Once a route was split: `Creative &
 * Sporting` became `Creative Worker` for creative sponsors and `International Sportsperson` for
 * sporting ones (the 2021-11-02 edition lists cricket clubs that held `Creative & Sporting` under
 * `International Sportsperson`), so an old name may have several successors, and a route is kept when
 * the later edition lists any of them.
 *
 * Route names are an open vocabulary: a name not in this table is kept exactly as the register gives
 * it. Each rename says when the new name first appeared and where that was seen. Add a row when a new
 * edition shows a rename (old name gone, the same sponsors listed under the new one).
 */
export interface RouteRename {
  /** The route name as earlier editions list it. */
  from: string;
  /** The name(s) later editions list it under: one for a rename, several for a split. */
  to: readonly string[];
  /** The first edition (or the date in force) of the new name. */
  since: string;
  /** Where the rename is documented or was observed. */
  source: string;
}

const OBSERVED_2021 =
  "Observed in the Home Office workers register: the 2021-09-30 edition lists the old name, the 2021-11-02 edition lists the same sponsors under the new one (route changes of October 2021).";

export const ROUTE_RENAMES: readonly RouteRename[] = [
  {
    from: "Tier 2 General",
    to: ["Skilled Worker"],
    since: "2020-12-01",
    source:
      "The points-based immigration system replaced Tier 2 (General) with the Skilled Worker route from 1 December 2020; the 2021-09-30 workers edition still lists a few sponsors under the old name beside the new one.",
  },
  { from: "Voluntary Workers", to: ["Charity Worker"], since: "2021-11-02", source: OBSERVED_2021 },
  {
    from: "Creative & Sporting",
    to: ["Creative Worker", "International Sportsperson"],
    since: "2021-11-02",
    source: `${OBSERVED_2021} Split: creative sponsors are listed under Creative Worker, sporting ones (e.g. cricket clubs) under International Sportsperson.`,
  },
  { from: "T2 Minister of Religion", to: ["Religious Workers"], since: "2021-11-02", source: OBSERVED_2021 },
  { from: "T2 Sportsperson", to: ["International Sportsperson"], since: "2021-11-02", source: OBSERVED_2021 },
  { from: "International Agreements", to: ["International Agreement"], since: "2021-11-02", source: OBSERVED_2021 },
  {
    from: "Students",
    to: ["Student"],
    since: "2026-01-02",
    source: "The students edition of 2026-01-02 lists one sponsor's route as `Students`, every other as `Student`: a spelling of the same route.",
  },
];

const key = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
const RENAMED = new Map(ROUTE_RENAMES.map((r) => [key(r.from), r.to]));
const tidy = (s: string) => s.trim().replace(/\s+/g, " ");

/** Every current name of a route: renames followed to the end (several after a split); an unknown name as given. */
export function currentRouteNames(route: string): string[] {
  const out = new Set<string>();
  const walk = (name: string, depth: number) => {
    const next = depth < ROUTE_RENAMES.length ? RENAMED.get(key(name)) : undefined;
    if (!next) out.add(tidy(name));
    else for (const n of next) walk(n, depth + 1);
  };
  walk(route, 0);
  return [...out];
}

/** The route's current name when there is one; a route split into several keeps the name it is listed under. */
export function currentRouteName(route: string): string {
  const names = currentRouteNames(route);
  return names.length === 1 ? names[0] : tidy(route);
}
