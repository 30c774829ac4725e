/**
 * Sanctions matching speed (issue 13 §5): one company against the whole real list, p50 and p99 per match, and the
 * time to parse the list and build the index. The real list is the historic OFSI consolidated list in ../shared
 * (about 18,800 names, an XLSX), rewritten by the test support as the UK Sanctions List CSV the service reads
 * (test/support/ofsiConList.ts; the service itself reads no XLSX since issue 30 §2), so parseMs is the production
 * CSV parser on a full-size list. Without ../shared it says so and measures nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSanctionsIndex, matchCompany } from "../../src/services/sanctions/match";
import { parseUkSanctionsListCsv } from "../../src/sources/sanctions/parse";
import { OFSI_CONLIST_2025_04_10, conListAsUkslCsv } from "../../test/support/ofsiConList";

export function benchSanctionsMatch(root: string, matches = 20_000) {
  const file = join(root, "..", "shared", ...OFSI_CONLIST_2025_04_10.split("/"));
  if (!existsSync(file)) return { skipped: "the real list (../shared) is not beside the repo" };
  const csv = new TextEncoder().encode(conListAsUkslCsv(new Uint8Array(readFileSync(file))));
  let t = performance.now();
  const list = parseUkSanctionsListCsv(csv);
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
  return {
    designations: list.designations.length,
    csvBytes: csv.length,
    names: names.length,
    parseMs: Math.round(parseMs),
    indexMs: Math.round(indexMs),
    matches,
    definite,
    p50Ms: q(0.5),
    p99Ms: q(0.99),
  };
}
