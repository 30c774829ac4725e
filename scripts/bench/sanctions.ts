/**
 * Sanctions matching speed (issue 13 §5): one company against the whole real list (the OFSI consolidated list in
 * ../shared, about 18,800 names), p50 and p99 per match, and the time to build the index. Without ../shared it
 * says so and measures nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSanctionsIndex, matchCompany } from "../../src/services/sanctions/match";
import { parseOfsiConList } from "../../src/sources/sanctions/parse";

export function benchSanctionsMatch(root: string, matches = 20_000) {
  const file = join(root, "..", "shared", "data", "uk-sanctions", "ofsi-conlist_2025-04-10.xlsx");
  if (!existsSync(file)) return { skipped: "the real list (../shared) is not beside the repo" };
  let t = performance.now();
  const list = parseOfsiConList(new Uint8Array(readFileSync(file)));
  const parseMs = performance.now() - t;
  t = performance.now();
  const index = buildSanctionsIndex(list.designations);
  const indexMs = performance.now() - t;
  // Queries: every listed entity name as a UK company, then made-up names that match nothing.
  const names = list.designations.filter((d) => d.kind === "entity").flatMap((d) => d.names.map((n) => n.name));
  const times: number[] = [];
  let definite = 0;
  for (let i = 0; i < matches; i++) {
    const name = i % 2 ? names[i % names.length] : `Brightwater Analytics ${i} Ltd`;
    const s = performance.now();
    definite += matchCompany(index, { name, number: i % 3 ? null : String(10_000_000 + i), postcode: "W6 7BA" }).definite.length;
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => +times[Math.floor(p * (times.length - 1))].toFixed(4);
  return { designations: list.designations.length, names: names.length, parseMs: Math.round(parseMs), indexMs: Math.round(indexMs), matches, definite, p50Ms: q(0.5), p99Ms: q(0.99) };
}
