// Lookup p50 of the payments operations on full-size registers (issue 14 §4), part of `npm run bench`: a
// synthetic payment practices export of 110,000 reports (scripts/bench/payment-practices.ts, the real header) is
// loaded into a fresh local D1 through `npm run ingest`'s path, a local stand-in answers Companies House profiles,
// then payment-practices and ppn-018 for one company are asked for BENCH_SECONDS on one connection (the first
// call warms the Companies House cache; the figures are the service's own time on D1).
// Runnable alone: node scripts/bench/money-lookup.mjs
import { createServer } from "node:http";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { ROOT, importTs, withDev } from "../lib.mjs";
import { benchState } from "./state.mjs";
import { ingest } from "../ingest.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** Companies House stand-in: any number is a company named as the synthetic export names it. */
function companiesHouse() {
  const template = JSON.parse(readFileSync(join(ROOT, "test/fixtures/hosts/ch.test/company/01234567/index.json"), "utf8"));
  return createServer((req, res) => {
    const m = /^\/company\/(\d{8})$/.exec(new URL(req.url, "http://x").pathname);
    if (!m) return res.writeHead(404, { "content-type": "application/json" }).end('{"errors":[{"error":"not-found"}]}');
    const c = Number(m[1]) - 1_000_000;
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ ...template, company_number: m[1], company_name: `SYNTHETIC TRADING ${c} LIMITED`, previous_company_names: [] }));
  });
}

const fig = (r) => ({ p50: r.latency.p50, p99: r.latency.p99, rps: Math.round(r.requests.average), non2xx: r.non2xx, errors: r.errors });

export async function benchMoneyLookup({ port = 8798, reports = 110_000 } = {}) {
  const { state, key } = await benchState("money");

  const pp = await importTs("scripts/bench/payment-practices.ts");
  // The real 52-column header (../shared), else our fixture's (the same columns).
  const real = join(ROOT, "..", "shared", "data", "payment-practices", "export-csv-header.txt");
  const headerLine = existsSync(real)
    ? readFileSync(real, "utf8").trim().split(/\r?\n/).pop()
    : readFileSync(join(ROOT, "test/fixtures/payment-practices/export.csv"), "utf8")
        .replace(/^\uFEFF/, "")
        .split(/\r?\n/)[0];
  const header = headerLine.split(",").map((h) => h.replace(/^"|"$/g, "").trim());
  const file = join(state, "export.csv");
  writeFileSync(file, pp.buildPaymentPracticesExport(header, reports));
  const t0 = performance.now();
  const loaded = await ingest("payment-practices", file, { persistTo: state, quiet: true, date: "2026-11-24" });
  const out = { reports, load: { outcome: loaded.outcome, rowsRead: loaded.rowsRead, seconds: Math.round((performance.now() - t0) / 100) / 10 } };

  const ch = companiesHouse();
  await new Promise((r) => ch.listen(0, "127.0.0.1", r));
  try {
    await withDev(
      port,
      { persistTo: state, vars: { COMPANIES_HOUSE_URL: `http://127.0.0.1:${ch.address().port}`, COMPANIES_HOUSE_API_KEY: "bench" } },
      async (base) => {
        for (const [name, path] of [
          ["payment-practices", "/api/v1/payment-practices?company=01004321"],
          ["ppn-018", "/api/v1/ppn-018?company=01004321"],
        ]) {
          await fetch(`${base}${path}`, { headers: { "x-api-key": key } }).then((r) => r.arrayBuffer()); // warm the profile cache
          const r = await autocannon({ url: `${base}${path}`, headers: { "x-api-key": key }, connections: 1, duration: SECONDS });
          out[name] = fig(r);
        }
      },
    );
  } finally {
    ch.close();
  }
  return out;
}

if (process.argv[1]?.endsWith("money-lookup.mjs")) {
  console.log(await benchMoneyLookup());
  process.exit(0);
}
