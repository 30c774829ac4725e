// node scripts/stand-in.mjs <fixture host> [--port N]
// A local stand-in for an upstream, for trying the service offline (docs/operating.md "Upstreams are configuration"): serves
// test/fixtures/hosts/<fixture host>/ over http://localhost:<port>, as the tests serve that host (a path that is a
// folder answers its index.json; anything missing answers 404, which Companies House means as "none"), and takes
// any POST as a webhook receiver: it prints the delivery (its webhook-id and event) and answers 204.
// Example (Companies House and a webhook receiver, for the watch list):
//   node scripts/stand-in.mjs ch.test --port 9001
//   .dev.vars: COMPANIES_HOUSE_URL=http://localhost:9001  COMPANIES_HOUSE_API_KEY=local  SAFE_FETCH_TEST_HOSTS=localhost
// Stops on Ctrl-C.
import { readFile, stat } from "node:fs/promises";
import { basename, join, normalize, sep } from "node:path";
import { ROOT, listenLocalhost } from "./lib.mjs";

/** The fixture file answering `pathname` under `dir` (a folder's index.json), or null; never outside `dir`. */
async function fixtureOf(dir, pathname) {
  const file = normalize(join(dir, decodeURIComponent(pathname)));
  if (file !== dir && !file.startsWith(dir + sep)) return null;
  const st = await stat(file).catch(() => null);
  if (!st) return null;
  return st.isDirectory() ? join(file, "index.json") : file;
}

/** Starts the stand-in; returns its origin and `close`. `port` 0 picks a free one. */
export async function startStandIn(host, { port = 0, log = console.log } = {}) {
  const dir = join(ROOT, "test", "fixtures", "hosts", host);
  if (!(await stat(dir).catch(() => null))?.isDirectory()) throw new Error(`no fixture host ${host} (test/fixtures/hosts/${host})`);
  return listenLocalhost(
    async (req, res) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (req.method === "POST") {
        let body = "";
        for await (const chunk of req) body += chunk;
        let event = body;
        try {
          const e = JSON.parse(body);
          event = `${e.kind} ${e.company}: ${e.summary}`;
        } catch {}
        log(`webhook POST ${url.pathname} webhook-id ${req.headers["webhook-id"] ?? "(none)"}: ${event}`);
        res.writeHead(204).end();
        return;
      }
      const file = await fixtureOf(dir, url.pathname);
      const bytes = file ? await readFile(file).catch(() => null) : null;
      log(`${req.method} ${url.pathname}${url.search} ${bytes ? 200 : 404}`);
      if (!bytes) res.writeHead(404, { "content-type": "application/json" }).end('{"errors":[{"error":"not-found"}]}');
      else res.writeHead(200, { "content-type": file.endsWith(".json") || !/\.\w+$/.test(file) ? "application/json" : "application/octet-stream" }).end(bytes);
    },
    { port },
  );
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  const args = process.argv.slice(2);
  const i = args.indexOf("--port");
  const port = i >= 0 ? Number(args[i + 1]) : 0;
  const host = args.find((a, j) => !a.startsWith("--") && j !== i + 1);
  if (!host || !Number.isInteger(port) || port < 0) {
    console.error("usage: node scripts/stand-in.mjs <fixture host under test/fixtures/hosts, e.g. ch.test> [--port N]");
    process.exit(2);
  }
  const s = await startStandIn(host, { port });
  console.log(`Serving test/fixtures/hosts/${host} at ${s.origin} (any POST is taken as a webhook delivery). Ctrl-C stops it.`);
  for (const sig of ["SIGINT", "SIGTERM"]) process.once(sig, () => s.close().then(() => process.exit(0)));
}
