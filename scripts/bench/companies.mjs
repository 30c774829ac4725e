// The companies register at full scale (issue 12 §4), part of `npm run bench`, runnable alone:
//   node --expose-gc scripts/bench/companies.mjs
// 1. builds a Basic Company Data file of BENCH_COMPANY_ROWS rows (default 5,700,000, the live register's
//    size) from real rows (../shared's sample, else our fixture), kept under .bench/companies/ for re-runs;
// 2. parses it as the ingest does (streamed): rows/s, and the live heap (after GC) while a chunk's rows
//    are parsed and turned into staging statements, sampled every 250,000 rows;
// 3. loads it into a fresh local D1 through `npm run ingest` (the whole pipeline): rows/s, staging and
//    applying apart;
// 4. (last) the companies database's size on disk, in use and free (read from the SQLite file's header);
// 5. company-search latency, p50 and p99 at 1 and 10 connections, for a one-word and a three-word name,
//    against wrangler dev serving that database.
// Everything is local (wrangler dev on 127.0.0.1, its own state under .bench/companies/).
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { ROOT, importTs, localEnv, migrateLocal, withDev } from "../lib.mjs";
import { ingest } from "../ingest.mjs";
import { createLocalKey } from "../key.mjs";

const gc = globalThis.gc ?? (() => {});
const mb = (n) => +(n / 1048576).toFixed(1);

function sampleCsv() {
  const real = join(ROOT, "..", "shared", "data", "ch-bulk-basic-company-data", "BasicCompanyData-sample.csv");
  if (existsSync(real)) return { csv: readFileSync(real, "utf8"), from: "real rows (shared sample)" };
  return { csv: readFileSync(join(ROOT, "test/fixtures/companies-house/bulk/BasicCompanyData-2026-10-01.csv"), "utf8"), from: "repo fixture rows" };
}

function load(url, headers, connections, seconds) {
  return new Promise((resolve, reject) => autocannon({ url, connections, duration: seconds, headers }, (err, r) => (err ? reject(err) : resolve(r))));
}
const fig = (r) => ({ p50: r.latency.p50, p99: r.latency.p99, rps: Math.round(r.requests.average), non2xx: r.non2xx, errors: r.errors });

export async function benchCompanies({
  rows = Number(process.env.BENCH_COMPANY_ROWS ?? 5_700_000),
  seconds = Number(process.env.BENCH_SECONDS ?? 10),
  port = 8798,
} = {}) {
  const out = { rows };
  const dir = join(ROOT, ".bench", "companies");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "BasicCompanyData-2026-11-01.csv");
  const marker = join(dir, "file.json");
  const synth = await importTs("scripts/bench/companies-synthetic.ts");
  const { csv, from } = sampleCsv();
  if (!existsSync(marker) || JSON.parse(readFileSync(marker, "utf8")).rows !== rows || !existsSync(file)) {
    const t = performance.now();
    const bytes = await synth.writeSyntheticBasicCompanyData(file, csv, rows);
    writeFileSync(marker, JSON.stringify({ rows, bytes }));
    out.file = { builtFrom: from, bytes, mb: mb(bytes), seconds: +((performance.now() - t) / 1000).toFixed(1) };
  } else out.file = { builtFrom: from, reused: true, mb: mb(statSync(file).size) };
  console.log("companies file:", out.file);

  // ---- 2. parse, with the live heap of a chunk's work
  const bulk = await importTs("src/sources/companies-house/bulk.ts");
  const db = await importTs("src/db/companies.ts");
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  let n = 0;
  let batch = [];
  const t0 = performance.now();
  for await (const r of bulk.parseBasicCompanyData(createReadStream(file, { highWaterMark: 1 << 20 }))) {
    batch.push(db.companyRowOf(r)); // what staging holds: one flush of 10,000 rows turned into JSON
    if (batch.length === 10_000) {
      JSON.stringify(batch);
      batch = [];
    }
    if (++n % 250_000 === 0) {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
  }
  const parseSeconds = (performance.now() - t0) / 1000;
  out.parse = {
    rows: n,
    seconds: +parseSeconds.toFixed(1),
    rowsPerSecond: Math.round(n / parseSeconds),
    heapBaselineMB: mb(base),
    peakLiveHeapMB: mb(peak),
    chunkHeapMB: mb(peak - base),
    note: "Node; live heap after GC, sampled every 250,000 rows; includes turning each 10,000 rows into staging JSON",
  };
  console.log("companies parse:", out.parse);

  // ---- 3. D1 load through the whole pipeline
  const state = join(dir, "state");
  rmSync(state, { recursive: true, force: true });
  migrateLocal(state);
  const t1 = performance.now();
  let stagedAt = null;
  const w = process.stdout.write.bind(process.stdout);
  const progress = [];
  process.stdout.write = (s) => {
    const m = /companies: (\d+) rows read/.exec(String(s));
    if (m) {
      stagedAt = performance.now();
      progress.push([+((stagedAt - t1) / 1000).toFixed(1), Number(m[1])]);
      return true;
    }
    return w(s);
  };
  let loaded;
  try {
    loaded = await ingest("companies", file, { persistTo: state, quiet: false });
  } finally {
    process.stdout.write = w;
  }
  const total = (performance.now() - t1) / 1000;
  const staging = stagedAt ? (stagedAt - t1) / 1000 : null;
  out.d1Load = {
    outcome: loaded.outcome,
    rows: loaded.rowsRead,
    seconds: +total.toFixed(1),
    rowsPerSecond: Math.round(loaded.rowsRead / total),
    stagingSeconds: staging && +staging.toFixed(1),
    applySeconds: staging && +(total - staging).toFixed(1),
    note: "npm run ingest -- companies <file> into a fresh local D1 (bundling and proxy start-up included)",
  };
  console.log("companies D1 load:", out.d1Load);

  // ---- 4. size on disk
  const files = [];
  const walk = (d) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.sqlite$/.test(f)) files.push({ file: p, bytes: statSync(p).size });
    }
  };
  walk(join(state, "v3", "d1"));
  files.sort((a, b) => b.bytes - a.bytes);
  const proxy = await localEnv(state);
  let key;
  let three;
  try {
    const c = proxy.env.COMPANIES_DB;
    // a key for the search benchmark
    ({ key } = await createLocalKey(proxy.env.DB, { plan: "enterprise" }));
    // a real three-word name from the file, and a one-word query of middling frequency
    three = (await c.prepare(`SELECT name FROM companies WHERE length(name) - length(replace(name, ' ', '')) = 3 LIMIT 1 OFFSET 1000`).first())?.name;
  } finally {
    await proxy.dispose();
  }

  // ---- 5. search latency
  const one = synth.benchWords(40)[20];
  await withDev(port, { persistTo: state }, async (base) => {
    const url = (q) => `${base}/api/v1/company-search?q=${encodeURIComponent(q)}&limit=10`;
    const headers = { "x-api-key": key };
    const first = await (await fetch(url(one), { headers })).json();
    out.search = { oneWord: { q: one, results: first.results?.length ?? 0 }, threeWords: { q: three } };
    for (const [label, q] of [
      ["oneWord", one],
      ["threeWords", three],
    ]) {
      out.search[label].oneConnection = fig(await load(url(q), headers, 1, seconds));
      out.search[label].tenConnections = fig(await load(url(q), headers, 10, seconds));
    }
    console.log("company-search latency:", JSON.stringify(out.search, null, 1));
  });
  // Read last, once every connection to the file is closed and its write-ahead log checkpointed (the header is current then).
  // The file's own header (SQLite format: page size at 16, page count at 28, free pages at 36): D1 allows no
  // PRAGMA and has no dbstat, and the freed staging pages stay in the file for the next edition's staging.
  const head = Buffer.alloc(100);
  const fd = openSync(files[0].file, "r");
  readSync(fd, head, 0, 100, 0);
  closeSync(fd);
  const pageSize = head.readUInt16BE(16) === 1 ? 65536 : head.readUInt16BE(16);
  const pages = head.readUInt32BE(28);
  const free = head.readUInt32BE(36);
  const companiesBytes = pages * pageSize;
  const inUse = (pages - free) * pageSize;
  out.size = {
    companiesDatabaseMB: mb(companiesBytes),
    inUseMB: mb(inUse),
    freeMB: mb(free * pageSize),
    note: "free: the staging table's pages, freed when the edition was published and kept by SQLite for the next edition's staging",
    bytesPerCompany: Math.round(inUse / loaded.rowsRead),
    filesMB: files.map((f) => mb(f.bytes)),
    shareOfD1Limit: `${((companiesBytes / (10 * 1024 ** 3)) * 100).toFixed(1)}% of one D1 database's 10 GB (${((inUse / (10 * 1024 ** 3)) * 100).toFixed(1)}% in use)`,
  };
  console.log("companies database size:", out.size);
  return out;
}

if (process.argv[1] && import.meta.url.endsWith("companies.mjs") && process.argv[1].endsWith("companies.mjs")) {
  const r = await benchCompanies();
  mkdirSync(join(ROOT, ".bench"), { recursive: true });
  writeFileSync(join(ROOT, ".bench", "companies-report.json"), JSON.stringify(r, null, 2));
  console.log("report written to .bench/companies-report.json");
  process.exit(0);
}
