/**
 * The people named in this repo's fixtures (runs in Node, from vitest.config.ts, before the tests): officers and
 * individual PSCs, insolvency practitioners, people entitled to charges, and the individuals on the sanctions
 * fixtures, and the people named in the document readers' fixtures (their people.txt). test/setup.ts checks that none of them appears in any reply a test received without a verified
 * account (SPEC §1 rule 7: people are counted, never named; issue 13 §4).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";

const ORGANISATION =
  /\b(ltd|limited|plc|llp|lp|bank|banking|building society|finance|financial|capital|trust|trustees?|holdings|group|company|corporation|inc|sarl|gmbh|ag|nv|bv|partners|council|fund|securities|investments?|nominees?)\b/i;

const readJson = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
};
const items = (j: unknown): Record<string, unknown>[] =>
  j && typeof j === "object" && Array.isArray((j as { items?: unknown }).items) ? (j as { items: Record<string, unknown>[] }).items : [];

/** Ways a name is written: "HARPER, Jane Elizabeth" → that, "Jane Elizabeth Harper", "Jane Harper". */
export function variantsOf(name: string): string[] {
  const clean = name
    .replace(/\b(mr|mrs|ms|miss|dr|sir|dame|lord|lady)\.?\s+/gi, "")
    .replace(/\s+/g, " ")
    .trim();
  const out = new Set([clean]);
  const m = /^([^,]+),\s*(.+)$/.exec(clean);
  const [surname, forenames] = m ? [m[1], m[2]] : [clean.split(" ").pop()!, clean.split(" ").slice(0, -1).join(" ")];
  if (forenames) {
    out.add(`${forenames} ${surname}`);
    out.add(`${forenames.split(" ")[0]} ${surname}`);
  }
  return [...out].filter((v) => v.split(" ").length >= 2 && v.length >= 6);
}

export function fixturePersonNames(root: string): string[] {
  const names = new Set<string>();
  const companies = join(root, "test/fixtures/hosts/ch.test/company");
  for (const number of readdirSync(companies)) {
    const dir = join(companies, number);
    if (!statSync(dir).isDirectory()) continue;
    for (const o of items(readJson(join(dir, "officers"))))
      if (typeof o.name === "string" && !/^corporate/.test(String(o.officer_role ?? ""))) names.add(o.name);
    for (const p of items(readJson(join(dir, "persons-with-significant-control"))))
      if (typeof p.name === "string" && /^individual/.test(String(p.kind ?? ""))) names.add(p.name);
    const insolvency = readJson(join(dir, "insolvency")) as { cases?: { practitioners?: { name?: string }[] }[] } | null;
    for (const c of insolvency?.cases ?? []) for (const p of c.practitioners ?? []) if (p.name) names.add(p.name);
    for (const c of items(readJson(join(dir, "charges"))))
      for (const p of (c.persons_entitled as { name?: string }[] | undefined) ?? []) if (p.name && !ORGANISATION.test(p.name)) names.add(p.name);
  }
  // Individuals on the sanctions fixture (UK Sanctions List CSV: Name 6 is the family name, Name 1–5 the others).
  const csv = readFileSync(join(root, "test/fixtures/sanctions/UK-Sanctions-List.csv"), "utf8").split(/\r?\n/);
  for (const line of csv.slice(2)) {
    const cells = line.split(",");
    if (!cells.includes("Individual")) continue;
    const [family, ...given] = [cells[4], cells[5], cells[6], cells[7], cells[8], cells[9]];
    const first = given.filter(Boolean).join(" ");
    if (family && first) names.add(`${family}, ${first}`);
  }
  // Responsible persons on the gender pay gap fixtures ("Name (Job title)"), never stored (SPEC §1 rule 7).
  const gpg = join(root, "test/fixtures/gender-pay-gap");
  for (const f of readdirSync(gpg)) {
    const rows = Papa.parse<Record<string, string>>(readFileSync(join(gpg, f), "utf8").replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: true }).data;
    for (const r of rows) {
      const person = r.ResponsiblePerson?.replace(/\s*\(.*$/s, "").trim();
      if (person) names.add(person);
    }
  }
  // People named in the document readers' fixtures (signers, managers, trustees): a `people.txt` beside them, one
  // name a line, lists them (test/fixtures/documents/<reader>/people.txt, test/fixtures/hosts/docs.test/people.txt).
  for (const dir of [join(root, "test/fixtures/documents"), join(root, "test/fixtures/hosts")]) {
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const path = join(d, f);
        if (statSync(path).isDirectory()) walk(path);
        else if (f === "people.txt")
          for (const line of readFileSync(path, "utf8").split(/\r?\n/)) if (line.trim() && !line.startsWith("#")) names.add(line.trim());
      }
    };
    try {
      walk(dir);
    } catch {
      // no such folder
    }
  }
  return [...names].flatMap(variantsOf);
}
