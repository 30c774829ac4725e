/**
 * The fixture hosts: what a test's outbound fetch reaches, in both lanes (docs/testing.md). The Workers lane's
 * `outboundService` (vitest.config.ts) and the Node lane's fetch (test/support/nodeSetup.ts) answer with this one
 * function, so no test can reach the network:
 * - http://files.test/<path> serves test/fixtures/<path> (fixtures written for this repo);
 * - http://shared.test/<path> serves ../shared/<path> (or SHARED_DIR) when present (tests check SHARED_PRESENT and
 *   skip otherwise);
 * - http://chbulk.test/BasicCompanyDataAsOneFile-YYYY-MM-01.zip serves, for any month, a zip of the sample
 *   Basic Company Data edition test/fixtures/companies-house/bulk/BasicCompanyData-2026-11-01.csv;
 * - gazette.test's notice search, hooks.test's webhook receivers, fts.test's and cf.test's cursor pages, hostile.test's
 *   hostile pages and canary.test's log are made here (below);
 * - other hosts ending in `.test` are served from test/fixtures/hosts/<host>/<path> (a folder from its index.json);
 * - everything else gets 599.
 * Individual tests may also stub fetch with vi.spyOn(globalThis, "fetch").
 *
 * Node only (it reads the disk and listens on loopback addresses).
 */
import { zipSync } from "fflate";
import { readFile, stat } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** The browser-safety canaries' addresses and what reached them. */
export interface Canary {
  /** host:port of the listener on 127.0.0.1. */
  canary: string;
  /** A loopback address of this run's own with the canary on port 80, or "" where port 80 cannot be bound. */
  canary80: string;
  /** Every request and connection that reached either (nothing ever should). */
  hits: string[];
}

/**
 * Starts the browser-safety canary: a listener on 127.0.0.1 that hostile fixture pages point at (as a loopback address,
 * the way an attacker would). Nothing may ever reach it: test/sources/browser.test.ts reads its log through
 * http://canary.test/log. Every TCP connection is logged too, request or not: a browser's preconnect opens a socket and
 * sends nothing (issue 29 §3). The same canary listens on port 80 of a loopback address of this run's own
 * (test/sources/browserNoNetwork.test.ts): Chromium preconnects to a navigation's target on the scheme's default port;
 * only where this process may bind port 80 (as root), elsewhere `canary80` is "" and the tests that need it skip.
 * Both are unref'd: they end with the test run's process.
 */
export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const canaryServer = (name: string) => {
    const server = createHttpServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.end("canary");
    });
    server.on("connection", (socket) => hits.push(`CONNECT ${name} from ${socket.remotePort}`));
    server.on("upgrade", (req, socket) => {
      hits.push(`UPGRADE ${req.url}`);
      socket.destroy();
    });
    return server;
  };
  const canary = canaryServer("canary");
  await new Promise<void>((r) => canary.listen(0, "127.0.0.1", () => r()));
  canary.unref();
  const canary80 = canaryServer("canary80");
  const at80 = await new Promise<string>((r) => {
    const host = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    canary80.once("error", () => r(""));
    canary80.listen(80, host, () => r(host));
  });
  canary80.unref();
  return { canary: `127.0.0.1:${(canary.address() as AddressInfo).port}`, canary80: at80, hits };
}

/** Serves a file from disk, or 404. */
async function serve(file: string): Promise<Response> {
  try {
    return new Response(await readFile(file));
  } catch {
    return new Response("not found", { status: 404 });
  }
}

/** hostile.test: pages that try to reach private addresses, and documents that never end, are huge, or never load. */
async function hostile(root: string, u: URL, { canary, canary80 }: Canary): Promise<Response> {
  const path = u.pathname;
  const page = (html: string) =>
    new Response(html.replaceAll("{{CANARY80}}", canary80 || canary).replaceAll("{{CANARY}}", canary), {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  if (path === "/redirect/1") return new Response(null, { status: 302, headers: { location: "/redirect/2" } });
  if (path === "/redirect/2") return new Response(null, { status: 302, headers: { location: `http://${canary}/redirected` } });
  if (path === "/endless" || path === "/endless.png") {
    // Endless as far as any cap of ours goes (64 KiB every 5 ms, up to 128 MiB), so the test run can still drain it.
    let n = 0;
    const stream = new ReadableStream({
      pull: async (c) => {
        await new Promise((r) => setTimeout(r, 5));
        if (n > 2048) return c.close();
        c.enqueue(new TextEncoder().encode(n++ === 0 && path === "/endless" ? "<!doctype html><html><body><p>" : "x".repeat(65536)));
      },
    });
    return new Response(stream, { headers: { "content-type": path === "/endless" ? "text/html" : "image/png" } });
  }
  if (path === "/huge") return page(`<!doctype html><html lang="en"><title>Huge</title><body><p>${"big ".repeat(3_000_000)}</p></body></html>`);
  // Never, as far as any time limit of ours goes: answered after a minute, so the test run can end.
  if (path === "/never" || path === "/never.png") return new Promise<Response>((r) => setTimeout(() => r(new Response(null, { status: 204 })), 60_000).unref());
  try {
    return page(await readFile(join(root, "test/fixtures/hosts/hostile.test", path === "/" ? "index.html" : path), "utf8"));
  } catch {
    return new Response("not found", { status: 404 });
  }
}

/**
 * The fixture hosts as one fetch handler. `root` is the repository, `shared` the shared data folder; `canary` gives the
 * canaries' addresses (started on first need).
 */
export function fixtureHosts(opts: { root: string; shared: string; canary: () => Promise<Canary> }): (req: Request) => Promise<Response> {
  const { root, shared } = opts;
  return async (req: Request) => {
    const u = new URL(req.url);
    const path = decodeURIComponent(u.pathname);
    if (u.hostname === "files.test") return serve(join(root, "test/fixtures", path));
    if (u.hostname === "canary.test") {
      const c = await opts.canary();
      return Response.json({ canary: c.canary, canary80: c.canary80, hits: c.hits });
    }
    if (u.hostname === "hostile.test") return hostile(root, u, await opts.canary());
    if (u.hostname === "shared.test") return serve(join(shared, path));
    if (u.hostname === "chbulk.test") {
      const m = /^\/(BasicCompanyDataAsOneFile-\d{4}-\d{2}-01)\.zip$/.exec(path);
      if (!m) return new Response("not found", { status: 404 });
      const csv = await readFile(join(root, "test/fixtures/companies-house/bulk/BasicCompanyData-2026-11-01.csv"));
      return new Response(req.method === "HEAD" ? null : zipSync({ [`${m[1]}.csv`]: csv }));
    }
    if (u.hostname === "gazette.test" && u.pathname.endsWith("/notice/data.json")) {
      // The notice feed searched by name: test/fixtures/hosts/gazette.test/<path>/<name, lower case, non-letters as ->-<page>.json
      const text = (u.searchParams.get("text") ?? "")
        .replace(/"/g, "")
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "");
      const file = join(root, "test/fixtures/hosts/gazette.test", path, `${text}-${u.searchParams.get("results-page") ?? "1"}.json`);
      if (text === "unreadable-gazette-ltd") return new Response("upstream trouble", { status: 502 });
      return readFile(file).then(
        (b) => new Response(b, { headers: { "content-type": "application/json" } }),
        () =>
          new Response(JSON.stringify({ title: "Search results", "f:total": "0", "f:page-number": "1", link: [] }), {
            headers: { "content-type": "application/json" },
          }),
      );
    }
    if (u.hostname === "hooks.test") {
      // Webhook receivers: /ok answers 204, /status/<n> answers n (a 3xx with Location http://127.0.0.1/), /slow never answers in time.
      if (path === "/ok") return new Response(null, { status: 204 });
      const m = /^\/status\/(\d{3})$/.exec(path);
      if (m) return new Response(null, { status: Number(m[1]), headers: Number(m[1]) < 400 ? { location: "http://127.0.0.1/" } : {} });
      if (path === "/slow") return new Promise<Response>((r) => setTimeout(() => r(new Response(null, { status: 204 })), 20_000).unref());
      return new Response("not found", { status: 404 });
    }
    if ((u.hostname === "fts.test" || u.hostname === "cf.test") && u.searchParams.has("cursor")) {
      // OCDS release packages after the first page: test/fixtures/hosts/<host>/<path>/cursor-<cursor>.json
      // (the first page, asked without a cursor, is the folder's index.json).
      return serve(join(root, "test/fixtures/hosts", u.hostname, path, `cursor-${u.searchParams.get("cursor")}.json`));
    }
    if (u.hostname.endsWith(".test")) {
      const file = join(root, "test/fixtures/hosts", u.hostname, u.pathname === "/" ? "index.html" : u.pathname);
      // A path that is a folder is served from its index.json (a Companies House company and its sub-resources:
      // company/<n>/index.json is the profile, company/<n>/charges the charges).
      const isDir = await stat(file).then(
        (st) => st.isDirectory(),
        () => false,
      );
      try {
        return new Response(await readFile(isDir ? join(file, "index.json") : file));
      } catch {
        return new Response("not found", { status: 404 });
      }
    }
    return new Response(`blocked outbound fetch in tests: ${u.href}`, { status: 599 });
  };
}
