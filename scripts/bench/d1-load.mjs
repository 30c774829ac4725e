// The register ingest's D1 load, measured on its own: node --expose-gc scripts/bench/d1-load.mjs
// Builds a sponsors edition of D1_LOAD_ROWS rows (default 60,000) from real rows (the shared sample
// beside the repo, else our fixture), loads it into a fresh local D1 (.bench/d1-load/) through the same
// pipeline as `npm run ingest` (staging + completing the run), then loads a next edition with about 1%
// of its rows changed (re-rated, removed, added). Prints rows/s of each load as JSON: of the whole call
// (as `npm run ingest` runs it) and of the pipeline alone (less the start-up every call pays: bundling the
// CLI and starting the local runtime, measured once on its own). benchD1Load({ rows, dir }) returns the
// same figures (for npm run bench).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ROOT, importTs, localEnv, migrateLocal } from "../lib.mjs";
import { ingest } from "../ingest.mjs";

/** Real rows when the shared samples sit beside the repo, else our own fixture in the same format. */
function sampleCsv() {
  const real = join(ROOT, "..", "shared", "data", "home-office-sponsors", "workers_2026-06-26_head.csv");
  if (existsSync(real)) return { csv: readFileSync(real, "utf8"), from: "real rows (shared sample, 2026-06-26 head)" };
  return {
    csv: readFileSync(join(ROOT, "test/fixtures/sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv"), "utf8"),
    from: "repo fixture rows",
  };
}

/** Edition B: edition A with about 1% of its rows changed: re-rated (0.2%), removed (0.1%), and some added. */
export function nextEdition(a, added) {
  const lines = a.split(/\r?\n/);
  const out = [lines[0]];
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i];
    if (!l) continue;
    if (i % 997 === 0) continue; // removed
    if (i % 499 === 0) out.push(l.replace("(A rating)", "(B rating)"));
    else out.push(l);
  }
  for (let i = 0; i < added; i++) out.push(`New Sponsor Bench ${i} Ltd,London,,Worker (A rating),Skilled Worker`);
  return out.join("\n");
}

const seconds = (t) => (performance.now() - t) / 1000;

/** Loads edition A into a fresh local D1 under `dir`, then edition B; returns rows/s of each. */
export async function benchD1Load({ rows = 60_000, dir = join(ROOT, ".bench", "d1-load") } = {}) {
  const bench = await importTs("scripts/bench/bench.ts");
  const { csv, from } = sampleCsv();
  const editionA = bench.buildLargeSponsorsCsv(csv, rows);
  const editionB = nextEdition(editionA, Math.max(1, Math.round(rows / 200)));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  migrateLocal(dir);
  const fileA = join(dir, "SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-11-20.csv");
  const fileB = join(dir, "SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-11-21.csv");
  writeFileSync(fileA, editionA);
  writeFileSync(fileB, editionB);
  // What every ingest call pays before and after its pipeline: bundling the CLI, starting and stopping the runtime.
  let t = performance.now();
  await importTs("src/cli/ingest.ts");
  const proxy = await localEnv(dir);
  await proxy.env.DB.prepare("SELECT 1").first();
  await proxy.dispose();
  const startup = seconds(t);
  const load = async (file) => {
    global.gc?.();
    t = performance.now();
    const r = await ingest("sponsors", file, { persistTo: dir, quiet: true });
    const s = seconds(t);
    if (r.outcome !== "loaded") throw new Error(`${basename(file)}: ${r.outcome}${r.reason ? ` (${r.reason})` : ""}`);
    return {
      file: basename(file),
      rows: r.rowsRead,
      outcome: r.outcome,
      changes: r.changes,
      byKind: r.byKind,
      seconds: +s.toFixed(1),
      rowsPerSecond: Math.round(r.rowsRead / s),
      pipelineRowsPerSecond: Math.round(r.rowsRead / Math.max(0.001, s - startup)),
    };
  };
  const baseline = await load(fileA);
  const next = await load(fileB);
  const rowsTotal = baseline.rows + next.rows;
  const secondsTotal = baseline.seconds + next.seconds;
  return {
    note: "whole pipeline (parse, staging, diff, write, publish) into a fresh local D1 through getPlatformProxy, as npm run ingest does",
    builtFrom: from,
    startupSeconds: +startup.toFixed(1),
    baseline,
    nextEdition: next,
    total: { rows: rowsTotal, seconds: +secondsTotal.toFixed(1), rowsPerSecond: Math.round(rowsTotal / secondsTotal) },
  };
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  const rows = Number(process.env.D1_LOAD_ROWS ?? 60_000);
  const report = await benchD1Load({ rows });
  console.log(JSON.stringify(report, null, 2));
  process.exit(0);
}
