// npm run ingest -- sic <folder | files or URLs…> [--sample]
// Loads the SIC 2007 lists of the industry classifier (issue 18) into the local database that `npm start` serves:
// the Companies House condensed list (SIC07_CH_condensed_list_en.csv), the ONS alphabetical index as CH publishes it
// (ons_economic_activities_alphabetic_index.csv) and, optionally, CH's own row (ch_created_activity_sic_codes.csv).
// Give the folder holding them, or the files (or their addresses) in any order. The lists loaded are replaced whole;
// --sample marks our own sample files (npm start loads test/fixtures/sic-2007), which are never loaded over real lists.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { importTs, localEnv, migrateLocal } from "./lib.mjs";

const NAMES = ["SIC07_CH_condensed_list_en.csv", "ons_economic_activities_alphabetic_index.csv", "ch_created_activity_sic_codes.csv"];

/** The files' names and texts: a folder's three files (CH's optional), or each file or address given. */
async function readTargets(targets) {
  const files = [];
  for (const target of targets) {
    if (/^https?:\/\//.test(target)) {
      const r = await fetch(target);
      if (!r.ok) throw new Error(`${target} answered ${r.status}`);
      files.push({ name: basename(new URL(target).pathname), text: await r.text() });
    } else if (existsSync(target) && statSync(target).isDirectory()) {
      for (const name of NAMES) if (existsSync(join(target, name))) files.push({ name, text: readFileSync(join(target, name), "utf8") });
    } else if (existsSync(target)) files.push({ name: basename(target), text: readFileSync(target, "utf8") });
    else throw new Error(`no file ${target}`);
  }
  return files;
}

/** Loads the SIC lists; `local`: databases a script already opened (openLocal), kept open after. */
export async function loadSicFiles(targets, { persistTo, sample = false, local = null } = {}) {
  const cli = await importTs("src/cli/sic.ts");
  const files = await readTargets(targets);
  const proxy = local ?? (await localEnv(persistTo));
  try {
    return await cli.loadSic(proxy.env, files, { sample });
  } finally {
    if (!local) await proxy.dispose();
  }
}

/** One line for the console. */
export const describeSicLoad = (r) =>
  `sic: ${r.outcome}, ${r.listRows} codes, ${r.indexRows} index phrases${r.chRows ? ` + ${r.chRows} of CH's own` : ""}${r.blankLines ? ` (${r.blankLines} blank lines skipped)` : ""}${r.reason ? `; ${r.reason}` : ""}`;

export async function main(args) {
  const sample = args.includes("--sample");
  const targets = args.filter((a) => a !== "--sample");
  if (!targets.length) {
    console.error(
      "usage: npm run ingest -- sic <folder | SIC07_CH_condensed_list_en.csv ons_economic_activities_alphabetic_index.csv [ch_created_activity_sic_codes.csv]> [--sample]",
    );
    process.exitCode = 2;
    return;
  }
  migrateLocal();
  try {
    const started = Date.now();
    const r = await loadSicFiles(targets, { sample });
    console.log(`${describeSicLoad(r)} [${((Date.now() - started) / 1000).toFixed(1)} s]`);
    if (r.outcome !== "loaded") process.exitCode = 1;
  } catch (e) {
    console.error(`sic load failed: ${e.message}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) await main(process.argv.slice(2));
