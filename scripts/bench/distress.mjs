// distress-signals for 50 companies with a simulated 100 ms upstream (issue 13 §5), part of `npm run bench`:
// a local stand-in for Companies House and The Gazette (127.0.0.1) answers every request after 100 ms, from the
// test fixtures: any 8-digit number is a company in liquidation (the profile, insolvency and charges of fixture
// 12300001 under its own number and name), and the Gazette's search answers with that fixture's notices under
// the name searched (one notice of the same name states no number, so its linked data is read). Wall time and
// upstream requests of one call for 50 companies, cold cache then warm.
// Runnable alone: node scripts/bench/distress.mjs
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, withDev } from "../lib.mjs";
import { benchState } from "./state.mjs";

const DELAY_MS = 100;
const fixture = (p) => readFileSync(join(ROOT, "test/fixtures/hosts", p), "utf8");

function stubUpstreams(counter) {
  const company = fixture("ch.test/company/12300001/index.json");
  const insolvency = fixture("ch.test/company/12300001/insolvency");
  const charges = fixture("ch.test/company/12300001/charges");
  const feed = fixture("gazette.test/insolvency/notice/data.json/northgate-fabrications-limited-1.json");
  return createServer((req, res) => {
    counter.n++;
    const u = new URL(req.url, "http://x");
    setTimeout(() => {
      const send = (status, body) => res.writeHead(status, { "content-type": "application/json" }).end(body);
      const m = /^\/company\/(\d{8})(\/insolvency|\/charges)?$/.exec(u.pathname);
      const name = (n) => `BENCH ${n} FABRICATIONS LIMITED`;
      if (m && !m[2]) return send(200, company.replaceAll("12300001", m[1]).replace("NORTHGATE FABRICATIONS LIMITED", name(m[1])));
      if (m?.[2] === "/insolvency") return send(200, insolvency);
      if (m?.[2] === "/charges") return send(200, charges.replaceAll("12300001", m[1]));
      if (u.pathname === "/insolvency/notice/data.json") {
        const asked = (u.searchParams.get("text") ?? "").replace(/"/g, "");
        const n = /BENCH (\d{8})/.exec(asked)?.[1] ?? "00000000";
        return send(200, feed.replaceAll("NORTHGATE FABRICATIONS LIMITED", asked).replaceAll("12300001", n));
      }
      send(404, '{"errors":[{"error":"not-found"}]}');
    }, DELAY_MS);
  });
}

export async function benchDistress({ port = 8797, companies = 50 } = {}) {
  const counter = { n: 0 };
  const server = stubUpstreams(counter);
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const upstream = `http://127.0.0.1:${server.address().port}`;
  const { state, key } = await benchState("distress");
  const numbers = Array.from({ length: companies }, (_, i) => String(40_000_001 + i));
  const out = { companies, simulatedUpstreamMs: DELAY_MS };
  try {
    await withDev(
      port,
      { persistTo: state, vars: { COMPANIES_HOUSE_URL: upstream, GAZETTE_URL: upstream, COMPANIES_HOUSE_API_KEY: "bench" } },
      async (base) => {
        for (const run of ["cold", "warm"]) {
          const before = counter.n;
          const t0 = performance.now();
          const r = await fetch(`${base}/api/v1/distress-signals?company=${numbers.join(",")}`, { headers: { "x-api-key": key } });
          const body = await r.json();
          out[run] = {
            status: r.status,
            wallMs: Math.round(performance.now() - t0),
            upstreamRequests: counter.n - before,
            signals: body.results?.reduce((a, x) => a + (x.signals?.length ?? 0), 0) ?? null,
          };
        }
      },
    );
  } finally {
    server.close();
  }
  return out;
}

if (process.argv[1]?.endsWith("distress.mjs")) {
  console.log(await benchDistress());
  process.exit(0);
}
