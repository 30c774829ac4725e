import { normaliseName, normaliseNameCore, splitTradingName } from "../matching/names";

/** Every name an entry answers to, normalised, for the name index (exact lookups and FTS). */
export function indexNamesOf(r: { name: string; altNames: string[] }): string[] {
  const names = new Set<string>();
  for (const raw of [r.name, ...r.altNames]) {
    const split = splitTradingName(raw);
    for (const n of [raw, split.name, ...split.tradingAs]) {
      // Both the full normalised name and its core (without Ltd/Limited/PLC…), for exact lookups.
      for (const norm of [normaliseName(n), normaliseNameCore(n)]) if (norm) names.add(norm);
    }
  }
  return [...names];
}
