// The hostile host of the live-server harness (after ../shared/probes/fixtures.mjs): local HTTP servers on free ports,
// reached by the Worker as http://localhost:<port>/ (localhost is the test host let through by SAFE_FETCH_TEST_HOSTS).
//
// The main server answers:
//   /f/<file>      a fixture file (scripts/hostile/index.mjs), with its content type and length
//   /hang          never answers (the connection is held open)
//   /slow          200, then a few bytes every 500 ms, never ending
//   /endless       200, an endless body as fast as the reader takes it
//   /gzip-bomb     the gzip bomb with Content-Encoding: gzip (the fetcher inflates it)
//   /dns-query     a DNS-over-HTTPS stand-in that knows no name (nothing but the test host may be reached)
//   anything else  404 (Companies House and the other upstreams point here: nothing leaves the machine)
// A site (a case's `site`) is a server of its own on its own port (robots.txt and sitemaps are per origin): each path
// answers a string, or a fixture file when the string names one; robots.txt allows everything unless given.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { listenLocalhost } from "../lib.mjs";

const typeOf = (name) =>
  name.endsWith(".txt")
    ? "text/plain; charset=utf-8"
    : name.endsWith(".xml")
      ? "application/xml"
      : name.endsWith(".gz")
        ? "application/gzip"
        : "text/html; charset=utf-8";

/**
 * Starts the hostile host: `fixtures` is { dir, index } (index: [{ file, type }]); `sites` maps a name to its paths.
 * Returns { origin, siteOrigin(name), requests (counted by path), total(), close() }.
 */
export async function serveHostile({ dir, index }, sites = {}) {
  const types = new Map(index.map((f) => [f.file, f.type]));
  const cache = new Map();
  const bytesOf = (file) => {
    if (!cache.has(file)) cache.set(file, readFileSync(join(dir, file)));
    return cache.get(file);
  };
  const requests = {};
  let total = 0;
  const count = (what) => {
    total++;
    requests[what] = (requests[what] ?? 0) + 1;
  };
  const sendFile = (res, file, extra = {}) => {
    const body = bytesOf(file);
    res.writeHead(200, { "content-type": types.get(file), "content-length": body.length, "cache-control": "no-store", ...extra }).end(body);
  };

  const main = await listenLocalhost((req, res) => {
    const u = new URL(req.url, "http://x");
    const p = u.pathname;
    count(p);
    if (p.startsWith("/f/")) {
      const file = decodeURIComponent(p.slice(3));
      return types.has(file) ? sendFile(res, file) : res.writeHead(404).end("no such fixture");
    }
    if (p === "/hang") return; // held open until the reader gives up (closed with the server)
    if (p === "/slow") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.write("<html><body><p>");
      const t = setInterval(() => res.write("slavery statement. "), 500);
      res.on("close", () => clearInterval(t));
      return;
    }
    if (p === "/endless") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      const s = "<p>Modern slavery statement for the year. We train staff.</p>".repeat(2000);
      let open = true;
      const pump = () => {
        while (open && res.write(s));
      };
      res.on("drain", pump);
      res.on("close", () => (open = false));
      return pump();
    }
    if (p === "/gzip-bomb") return sendFile(res, "gzip-bomb-256mib.gz", { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip" });
    if (p === "/dns-query") return res.writeHead(200, { "content-type": "application/dns-json" }).end(JSON.stringify({ Status: 3, Answer: [] }));
    res.writeHead(404, { "content-type": "application/json" }).end('{"errors":[{"error":"not-found"}]}');
  });

  const siteServers = {};
  for (const [name, paths] of Object.entries(sites)) {
    siteServers[name] = await listenLocalhost((req, res) => {
      const p = new URL(req.url, "http://x").pathname;
      count(`site ${name} ${p}`);
      const given = paths[p] ?? (p === "/robots.txt" ? "User-agent: *\nAllow: /\n" : undefined);
      if (given === undefined) return res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      if (types.has(given)) return sendFile(res, given);
      const body = Buffer.from(given, "utf8");
      res.writeHead(200, { "content-type": typeOf(p === "/" ? ".html" : p), "content-length": body.length }).end(body);
    });
  }

  return {
    origin: main.origin,
    siteOrigin: (name) => siteServers[name].origin,
    requests,
    /** Requests answered or held so far, all servers together. */
    total: () => total,
    close: () => Promise.all([main.close(), ...Object.values(siteServers).map((s) => s.close())]),
  };
}
