// Upstream calls per Companies House operation, cold cache and warm (issue 12 §4), part of `npm run bench`:
// a local stand-in for Companies House and its Document API (127.0.0.1, serving the test fixtures of
// test/fixtures/hosts/ch.test and chdoc.test) counts the requests each call makes; wrangler dev points at it.
// Runnable alone: node scripts/bench/upstream-calls.mjs
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT, withDev } from "../lib.mjs";
import { benchState } from "./state.mjs";

/** Serves a fixture host's folder like the test runner does (a folder answers with its index.json). */
function fixtureServer(counter) {
  return createServer((req, res) => {
    const u = new URL(req.url, "http://x");
    const host = u.pathname.startsWith("/document/") ? "chdoc.test" : "ch.test";
    counter.n++;
    let file = join(ROOT, "test/fixtures/hosts", host, decodeURIComponent(u.pathname));
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.json");
    if (!existsSync(file)) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"errors":[{"error":"company-profile-not-found"}]}');
      return;
    }
    res
      .writeHead(200, { "content-type": file.endsWith(".xhtml") || u.pathname.endsWith("/content") ? "application/xhtml+xml" : "application/json" })
      .end(readFileSync(file));
  });
}

export async function benchUpstreamCalls({ port = 8796 } = {}) {
  const counter = { n: 0 };
  const server = fixtureServer(counter);
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const upstream = `http://127.0.0.1:${server.address().port}`;
  const { state, key } = await benchState("upstream-calls");
  const out = {};
  try {
    await withDev(
      port,
      { persistTo: state, vars: { COMPANIES_HOUSE_URL: upstream, COMPANIES_HOUSE_DOCUMENT_URL: upstream, COMPANIES_HOUSE_API_KEY: "bench" } },
      async (base) => {
        const calls = [
          ["company-search by number (no local index)", "/api/v1/company-search?q=01234567"],
          ["company-search by name (no local index)", "/api/v1/company-search?q=Harbourside%20Legal"],
          ["charges", "/api/v1/charges?company=01234567"],
          ["deadlines", "/api/v1/deadlines?company=01234567"],
          ["ownership", "/api/v1/ownership?company=04712345"],
          ["accounts", "/api/v1/accounts?company=01234567"],
        ];
        for (const [name, path] of calls) {
          const row = {};
          for (const run of ["cold", "warm"]) {
            const before = counter.n;
            const r = await fetch(`${base}${path}`, { headers: { "x-api-key": key } });
            await r.arrayBuffer();
            row[run] = counter.n - before;
            row.status = r.status;
          }
          out[name] = row;
        }
      },
    );
  } finally {
    server.close();
  }
  return out;
}

if (process.argv[1]?.endsWith("upstream-calls.mjs")) {
  console.log(await benchUpstreamCalls());
  process.exit(0);
}
