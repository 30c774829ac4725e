// npm run bench: measures, in one run,
//  1. a bare route against a keyed, charged operation (late-payment): p50, p99, requests/s at 50 connections,
//     with the local state in memory and on disk (see the note at the platform section), in rounds: the keyed/bare
//     ratio of p50 and of p99 per round, their spread (min–max) and medians; goal p50 ratio ≤ 1.2 (scripts/bench/keyed.mjs);
//  2. register ingest: parse + diff of a 120,000-row sponsors edition built from real rows: rows/s and peak memory;
//  3. register lookup latency on that register (sponsor-licence), p50 and p99;
//  4. the Charity Commission extract: every table streamed and read in buckets, records/s and peak heap
//     (BENCH_CHARITIES main charities, default 100,000; the real register has about 380,000);
//  5. iXBRL: parse time of a 2 MB accounts document (scripts/bench/ixbrl.ts);
//     then sanctions matching: one company against the whole real list, p50 and p99 (scripts/bench/sanctions.ts);
//     then the SIC industry classifier: model build time and memory, classification time, accuracy on the labelled sites (scripts/bench/classifier.ts);
//     then contract awards: a day of 1,500 FTS releases in pages of 100, read, parsed and loaded into D1 (scripts/bench/contracts.ts);
//     then the payment practices export at full size: 110,000 reports (~100 MB), scanned and read, whole and streamed, rows/s and peak heap (scripts/bench/payment-practices.ts);
//     then the gender pay gap parse: a full-size reporting year from the real rows, rows/s and peak heap (scripts/bench/gender-pay-gap.ts);
//  6. upstream calls per Companies House operation, cold and warm cache (scripts/bench/upstream-calls.mjs),
//     and distress-signals for 50 companies with a simulated 100 ms upstream (scripts/bench/distress.mjs);
//  7. the companies register at full size: a BENCH_COMPANY_ROWS-row Basic Company Data file (default
//     5,700,000) parsed, loaded into D1, its database size, and company-search latency (scripts/bench/companies.mjs).
//     BENCH_COMPANY_ROWS=0 skips it (it takes a quarter of an hour on two cores).
//  8. the watch list: BENCH_WATCHES watched companies (default 5,000; 10,000 takes about 14 minutes) read for two
//     days through the tick and the watch queue: upstream calls per company against the Companies House budget, the
//     largest watch list it reads, the time to read and record a day with 10% changed, and webhook deliveries per
//     second (scripts/bench/watch.mjs).
//  9. the web tools: the accessibility audit through the API against axe-core run by hand in the same chromium
//     (launching the browser each time, and one browser reused), median and p90 of BENCH_AUDIT_RUNS runs (default 10),
//     the ratio audit/raw (goal ≤ 1.2×) and where the time goes; website-legal, brand-kit and ai-visibility on their
//     fixture sites when registered (scripts/bench/web.mjs).
// 10. the document readers: a 100-page text PDF end to end and 1 MB of text through each reader (goals 2 s and
//     300 ms), peak heap and resident memory (scripts/bench/documents.ts; alone: node --expose-gc scripts/bench/documents.mjs).
// 11. enrichment: enrich p50 cold and warm and upstream requests per enrichment, a batch of 25 (wall time, peak
//     requests in flight), against stand-ins with a simulated 80 ms upstream (scripts/bench/enrichment.ts).
// 12. hostile inputs (issue 29 §1): each case once against a live server: status, seconds against the time limit, credits, workerd's peak memory growth (goal < 128 MB), slowest /api/status meanwhile (goal < 1 s) (scripts/bench/hostile.mjs).
// 13. startup (issue 30 §1), each Worker (wrangler.toml and every wrangler.<name>.toml): busy CPU of its global scope in
//     workerd from `wrangler check startup`'s profile, min and median of 3 (goal ≤ 100 ms), its deploy bundle raw and
//     gzip, and the bundle imported in a fresh Node: CPU and heap after GC (goals ≤ 100 ms, ≤ 15 MB) (scripts/bench/startup.mjs).
// 14. the first `npm start` on a fresh clone of HEAD, step by step: migrations, sample registers, ready to serve, the first
//     /api/status and the first keyed answer (goal ≤ 60 s, busy or not) (scripts/bench/first-start.mjs).
// 15. the logo image (issue 32): its cached reply against the bare route `/` (p50, p95, the ratio of the p50s; goal ≤ 1.2×),
//     the first lookup of a fixture site (median of BENCH_LOGO_SITES, default 10) and the bytes served per size as PNG and
//     WebP, for a generated logo and for the monogram (scripts/bench/logos.mjs; alone: node scripts/bench/logos.mjs).
// Everything runs locally (wrangler dev on 127.0.0.1 with its own state under .bench/).
// BENCH_SECONDS (default 10) sets each load test's duration.
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { ROOT, importTs, localEnv, migrateLocal, withDev } from "../lib.mjs";
import { ingest } from "../ingest.mjs";
import { benchCompanies } from "./companies.mjs";
import { benchUpstreamCalls } from "./upstream-calls.mjs";
import { benchDistress } from "./distress.mjs";
import { benchWatch } from "./watch.mjs";
import { benchWeb } from "./web.mjs";
import { benchLogos, logoTable } from "./logos.mjs";
import { benchDocumentReaders } from "./documents.mjs";
import { benchEnrichmentCore } from "./enrichment.mjs";
import { benchMoneyLookup } from "./money-lookup.mjs";
import { benchD1Load, nextEdition } from "./d1-load.mjs";
import { benchStartupAll } from "./startup.mjs";
import { benchFirstStart } from "./first-start.mjs";
import { keyedRounds } from "./keyed.mjs";
import { createLocalKey } from "../key.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 8799);
const STATE = join(ROOT, ".bench", "state");
const ROWS = 120_000;

function load(url, headers = {}, connections = 50) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: SECONDS, headers }, (err, r) => (err ? reject(err) : resolve(r)));
  });
}
const fig = (r) => ({ p50: r.latency.p50, p99: r.latency.p99, rps: Math.round(r.requests.average), non2xx: r.non2xx, errors: r.errors });

/** Real rows when the shared samples sit beside the repo, else our own fixture in the same format. */
function sampleCsv() {
  const real = join(ROOT, "..", "shared", "data", "home-office-sponsors", "workers_2026-06-26_head.csv");
  if (existsSync(real)) return { csv: readFileSync(real, "utf8"), from: "real rows (shared sample, 2026-06-26 head)" };
  return {
    csv: readFileSync(join(ROOT, "test/fixtures/sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv"), "utf8"),
    from: "repo fixture rows",
  };
}

const report = { date: new Date().toISOString(), node: process.version, seconds: SECONDS };

const bench = await importTs("scripts/bench/bench.ts");

// ---- 4. charity extract, streamed and bucketed (pure, in Node; first, so the heap holds nothing else) ----
const CHARITIES = Number(process.env.BENCH_CHARITIES ?? 100_000);
global.gc?.();
report.charityExtract = {
  note: "synthetic extract in the real layout, every table streamed (never held); the heap is live memory sampled after GC every 5,000 records",
  ...(await bench.benchCharityExtract(CHARITIES, { measureMemory: true })),
};
console.log("charity extract parse:", report.charityExtract);

// ---- 2. parse + diff (pure, in Node) ----
const { csv: sample, from } = sampleCsv();
const editionA = bench.buildLargeSponsorsCsv(sample, ROWS);
const editionB = nextEdition(editionA, 50);
const previous = await bench.publishedState(editionA);
global.gc?.();
const timing = await bench.benchParseDiff(previous, editionB);
global.gc?.();
const memory = await bench.benchParseDiff(previous, editionB, { measureMemory: true });
report.ingestParseDiff = {
  builtFrom: from,
  rows: timing.rows,
  ms: timing.ms,
  rowsPerSecond: timing.rowsPerSecond,
  changes: timing.byKind,
  memory: {
    note: "live heap (GC before each sample); the baseline already holds both 120k-row files as strings and the published state of edition A",
    baselineHeapMB: memory.baselineHeapMB,
    peakHeapMB: memory.peakHeapMB,
    peakRssMB: memory.peakRssMB,
  },
};
console.log("ingest parse+diff:", report.ingestParseDiff);

// ---- state for the server: migrations, a key, the 120k register ----
// BENCH_REUSE=1 keeps an earlier run's loaded register (the D1 load takes a couple of minutes).
const reuse = process.env.BENCH_REUSE === "1" && existsSync(join(ROOT, ".bench", "report.json"));
if (!reuse) rmSync(join(ROOT, ".bench", "state"), { recursive: true, force: true });
/** Migrations and a bench key (enterprise plan) in a wrangler state folder; returns the key. */
async function prepareState(dir) {
  mkdirSync(dir, { recursive: true });
  migrateLocal(dir);
  const proxy = await localEnv(dir);
  const { key } = await createLocalKey(proxy.env.DB, { plan: "enterprise" });
  await proxy.dispose();
  return key;
}
const key = await prepareState(STATE);
const fileA = join(ROOT, ".bench", "SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-11-20.csv");
writeFileSync(fileA, editionA);
let loaded;
if (reuse) {
  const prior = JSON.parse(readFileSync(join(ROOT, ".bench", "report.json"), "utf8"));
  report.ingestIntoD1 = prior.ingestIntoD1;
  loaded = { rowsRead: prior.ingestIntoD1.rows };
} else {
  const t = performance.now();
  loaded = await ingest("sponsors", fileA, { persistTo: STATE, quiet: true });
  report.ingestIntoD1 = {
    rows: loaded.rowsRead,
    outcome: loaded.outcome,
    seconds: +((performance.now() - t) / 1000).toFixed(1),
    rowsPerSecond: Math.round(loaded.rowsRead / ((performance.now() - t) / 1000)),
  };
}
console.log("ingest into local D1 (whole pipeline):", report.ingestIntoD1);

// ---- 1 and 3: HTTP under load ----
/** Runs `body` against wrangler dev serving the state in `dir`. */
const withDevAt = (dir, body) => withDev(PORT, { persistTo: dir }, body);

/**
 * Bare route, then the keyed, charged late-payment call, at 50 connections, in BENCH_ROUNDS rounds
 * (default 3; two cores shared by the load generator and the server make single runs noisy). Reports
 * each round (p50, p99, the ratios keyed/bare), the spread of the ratios (min–max) and the medians
 * (scripts/bench/keyed.mjs; runnable alone there, with --stress for issue 30 §7).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const platform = (base, k) => keyedRounds(base, k, { rounds: ROUNDS, seconds: SECONDS });

// The platform comparison runs twice. Local wrangler keeps each Durable Object in a SQLite file on disk,
// and each ledger commit is synced to it on the server's one thread; deployed, Durable Object storage
// does not work that way. So the comparison runs with the local state in memory (a tmpfs) as well as
// on disk, and both figures are reported.
const RAM = existsSync("/dev/shm") ? join("/dev/shm", `ukbi-bench-${process.pid}`) : null;
if (RAM) {
  try {
    const ramKey = await prepareState(RAM);
    report.platformStateInMemory = await withDevAt(RAM, (base) => platform(base, ramKey));
    console.log("platform (local state in memory):", report.platformStateInMemory);
  } finally {
    rmSync(RAM, { recursive: true, force: true });
  }
}
await withDevAt(STATE, async (base) => {
  report.platformStateOnDisk = await platform(base, key);
  console.log("platform (local state on disk):", report.platformStateOnDisk);
  const name = encodeURIComponent(editionA.split(/\r?\n/)[60].split(",")[0].replace(/^"|"$/g, "").trim());
  const url = `${base}/api/v1/sponsor-licence?company=${name}`;
  const single = fig(await load(url, { "x-api-key": key }, 1));
  const loaded10 = fig(await load(url, { "x-api-key": key }, 10));
  report.lookup = { query: decodeURIComponent(name), register: `${loaded.rowsRead} rows`, oneConnection: single, tenConnections: loaded10 };
  console.log("sponsor-licence lookup:", report.lookup);
});
// ---- the register load on its own: a baseline and a next edition (scripts/bench/d1-load.mjs)
report.d1Load = await benchD1Load({ rows: ROWS });
console.log("register D1 load (sponsors):", report.d1Load);

// ---- 5. iXBRL parse time
const ixbrl = await importTs("scripts/bench/ixbrl.ts");
report.ixbrl = ixbrl.benchIxbrl();
console.log("iXBRL parse (2 MB):", report.ixbrl);

// ---- sanctions matching against the whole real list
report.sanctionsMatch = (await importTs("scripts/bench/sanctions.ts")).benchSanctionsMatch(ROOT);
console.log("sanctions match (one company against the real list):", report.sanctionsMatch);

// ---- the industry classifier: SIC 2007 model build time, memory and accuracy on the labelled fixture sites (scripts/bench/classifier.ts)
report.sicClassifier = (await importTs("scripts/bench/classifier.ts")).benchClassifier(ROOT);
console.log("SIC industry classifier:", JSON.stringify(report.sicClassifier, null, 2));

// ---- contract awards: a synthetic day of 1,500 FTS releases (pages of 100) from the real shapes, read, parsed, loaded into a fresh local D1
const contractsState = join(ROOT, ".bench", "contracts", "state");
rmSync(contractsState, { recursive: true, force: true });
mkdirSync(contractsState, { recursive: true });
migrateLocal(contractsState);
report.contracts = await (await importTs("scripts/bench/contracts.ts")).benchContracts(ROOT, {
  load: (file) => ingest("contracts", file, { persistTo: contractsState, quiet: true }),
});
console.log("contract awards (a day of FTS releases):", report.contracts);

// ---- the payment practices export at full size (110,000 reports, ~100 MB), scanned and read, whole and streamed
global.gc?.();
report.paymentPractices = await (await importTs("scripts/bench/payment-practices.ts")).benchPaymentPractices(ROOT);
console.log("payment practices export parse:", report.paymentPractices);

// ---- gender pay gap: a full-size reporting year (about 10,500 employers) built from the real rows, parsed
global.gc?.();
report.genderPayGap = await (await importTs("scripts/bench/gender-pay-gap.ts")).benchGenderPayGap(ROOT);
console.log("gender pay gap parse (a full-size year):", report.genderPayGap);

// ---- 6. upstream calls per Companies House operation
report.upstreamCalls = await benchUpstreamCalls();
console.log("upstream calls per operation:", report.upstreamCalls);

// ---- distress-signals for 50 companies, simulated 100 ms upstream, cold and warm
report.distressSignals = await benchDistress();
console.log("distress-signals, 50 companies:", report.distressSignals);

// ---- 8. the watch list: BENCH_WATCHES companies read for two days, events recorded and delivered
report.watch = await benchWatch();
console.log("watch list:", report.watch);

// ---- 9. the web tools: accessibility audit against raw axe-core, and the other web tools, on fixture sites
report.web = await benchWeb();
console.log("web tools:", JSON.stringify(report.web, null, 2));

// ---- 15. the logo image: cached reply against the bare route, first lookup, bytes per size (scripts/bench/logos.mjs)
report.logos = await benchLogos();
console.log(logoTable(report.logos));

// ---- 10. the document readers: a 100-page PDF and 1 MB of text through each reader, time and peak memory
report.documents = await benchDocumentReaders();
console.log("document readers:", JSON.stringify(report.documents, null, 2));

report.enrichment = await benchEnrichmentCore();
console.log("enrichment:", JSON.stringify(report.enrichment, null, 2));

// ---- payment practices at full size in D1: load time, and lookup p50 of payment-practices and ppn-018
report.moneyLookup = await benchMoneyLookup();
console.log("payment practices (110,000 reports) load and lookups:", report.moneyLookup);

// ---- 13. startup: each Worker's global scope, bundle and import (scripts/bench/startup.mjs) ----
report.startup = await benchStartupAll();
console.log("startup:", JSON.stringify(report.startup, null, 2));

// ---- 14. the first npm start on a fresh clone (scripts/bench/first-start.mjs) ----
report.firstStart = await benchFirstStart();
console.log("first npm start:", JSON.stringify(report.firstStart, null, 2));

report.hostile = await (await import("./hostile.mjs")).benchHostile();
// ---- 7. the companies register at full size
if (Number(process.env.BENCH_COMPANY_ROWS ?? 5_700_000) > 0) report.companies = await benchCompanies();

writeFileSync(join(ROOT, ".bench", "report.json"), JSON.stringify(report, null, 2));
console.log(`\nreport written to .bench/report.json`);
process.exit(0);
