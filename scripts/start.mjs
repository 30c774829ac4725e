// npm start: applies the D1 migrations locally, loads the sample data on first run (through the same
// ingest path as `npm run ingest`, marked as samples), creates a local key on first run, then serves
// the API with wrangler dev (local D1, Durable Objects and Queues) at http://localhost:${PORT:-8787}.
// `npm start -- --empty` (or SAMPLE_DATA=none) starts with no sample data: load real editions with
// `npm run ingest`. The first real edition of a register replaces its sample data either way.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pipeFiltered } from "./devlog.mjs";
import { ingest, sampleFiles } from "./ingest.mjs";
import { describeSicLoad, loadSicFiles } from "./sic.mjs";
import { createLocalKey } from "./key.mjs";
import { ROOT, devConfigArgs, openLocal, wranglerEnv } from "./lib.mjs";

const port = process.env.PORT ?? "8787";
const empty = process.argv.includes("--empty") || /^(none|no|0|false|off)$/i.test(process.env.SAMPLE_DATA ?? "");
const marker = join(ROOT, ".wrangler", "state", "sample-data-loaded");
const keyFile = join(ROOT, ".wrangler", "state", "local-key.txt");

/**
 * Our own sample files, in the upstreams' real formats (the same files the tests use): each register's `samples` in
 * src/services/registers/catalogue.ts, then the open tender notices (tender-match: our own FTS and CF tender releases,
 * into the tenders table, not a register).
 */
const samples = async () => [
  ...(await sampleFiles()).map((s) => [s.source, s.file, s.date]),
  ["tenders", "test/fixtures/contracts/tender-release-package.json"],
];

/** Seconds since `t`, for the step lines. */
const took = (t) => `${((Date.now() - t) / 1000).toFixed(1)} s`;
const began = Date.now();

// One local runtime for every step before serving: the migrations of both databases, the sample registers and the key
// (each used to start its own, and the migrations one per statement: minutes on a busy machine).
let t = Date.now();
console.log("Opening the local databases and applying the D1 migrations…");
const local = await openLocal();
const applied = Object.values(local.migrated).flat().length;
console.log(`  ${applied ? `${applied} migrations applied` : "migrations up to date"} (${took(t)})`);
try {
  mkdirSync(join(ROOT, ".wrangler", "state"), { recursive: true });
  if (!existsSync(marker)) {
    if (empty) console.log("Starting with empty registers (--empty): load real editions with npm run ingest.");
    else {
      t = Date.now();
      console.log("First run: loading the sample registers (our own files in each upstream's format, marked as samples)…");
      for (const [source, file, date] of await samples()) {
        const r = await ingest(source, join(ROOT, file), { date: date ?? null, quiet: true, sample: true, local });
        console.log(
          `  ${source}${r.scope ? `/${r.scope}` : ""}: ${r.outcome}, ${r.rowsRead} rows, ${r.changes} changes${r.outcome === "refused" ? ` (${r.reason})` : ""}`,
        );
      }
      // The industry classifier's SIC 2007 lists: our sample of the condensed list and the ONS index (npm run ingest -- sic loads the real ones).
      console.log(`  ${describeSicLoad(await loadSicFiles([join(ROOT, "test/fixtures/sic-2007")], { sample: true, local }))}`);
      console.log(`  sample registers loaded (${took(t)})`);
    }
    // Asked once: a later plain npm start never adds sample data to an install that started empty.
    writeFileSync(marker, `${new Date().toISOString()} ${empty ? "empty" : "sample data"}\n`);
  }
  if (!existsSync(keyFile)) {
    t = Date.now();
    console.log("Creating a local key (free plan, email and mobile verified)…");
    const { key } = await createLocalKey(local.env.DB, { verified: true });
    writeFileSync(keyFile, `${key}\n`);
    console.log(`\n  Your local API key: ${key}\n  (also saved in .wrangler/state/local-key.txt; more with: npm run key -- create) (${took(t)})\n`);
  }
} finally {
  await local.dispose();
}
console.log(`Ready to serve after ${took(began)}.`);

console.log(`Serving the API at http://localhost:${port} (sign-up codes are printed in this log)…`);
// TRUST_CLIENT_IP_HEADER emptied: locally any caller can send cf-connecting-ip, so it is not believed (keyless callers share one allowance).
const dev = spawn(
  process.execPath,
  [
    join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    ...devConfigArgs(),
    "--port",
    port,
    "--var",
    "ENVIRONMENT:development",
    "--var",
    "BROWSER_KEEP_ALIVE_MS:0",
    "--var",
    "TRUST_CLIENT_IP_HEADER:",
  ],
  {
    cwd: ROOT,
    // Keep colours when this terminal has them: wrangler's output goes through the log filter below.
    env: wranglerEnv({ CI: "", ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) }),
    stdio: ["inherit", "pipe", "pipe"],
  },
);
// An unreachable upstream (offline, or a wrong base URL) is one plain line, not workerd's red block with a stack.
pipeFiltered(dev.stdout, (s) => process.stdout.write(s));
pipeFiltered(dev.stderr, (s) => process.stderr.write(s));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => dev.kill(sig));
dev.on("exit", (code) => process.exit(code ?? 0));
