import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { kCurrentWorker } from "miniflare";
import { configDefaults, defineConfig } from "vitest/config";
import { zipSync } from "fflate";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { fixturePersonNames } from "./test/privacy/personNames";
// @ts-expect-error a plain .mjs script without types
import { axeSource, linkChromium } from "./scripts/browser-prep.mjs";

/**
 * Tests run inside the Workers runtime (miniflare). Outbound fetch never reaches the network:
 * - http://files.test/<path> serves test/fixtures/<path> (fixtures written for this repo);
 * - http://shared.test/<path> serves ../shared/<path> when present (tests check env.SHARED_PRESENT and skip otherwise);
 * - http://chbulk.test/BasicCompanyDataAsOneFile-YYYY-MM-01.zip serves, for any month, a zip of the sample
 *   Basic Company Data edition test/fixtures/companies-house/bulk/BasicCompanyData-2026-11-01.csv;
 * - other hosts ending in `.test` are served from test/fixtures/hosts/<host>/<path> (a folder from its index.json);
 * - everything else gets 599, so no test can reach the network.
 * Individual tests may also stub fetch with vi.spyOn(globalThis, "fetch").
 */
const SHARED = resolve(import.meta.dirname, "../shared");

/** Serves a file from disk to the test isolate, or 404. */
async function serve(file: string): Promise<Response> {
  try {
    return new Response(await readFile(file));
  } catch {
    return new Response("not found", { status: 404 });
  }
}

/**
 * The browser-safety canary: a listener on 127.0.0.1 that hostile fixture pages point at (as a loopback address, the
 * way an attacker would). Nothing may ever reach it: test/sources/browser.test.ts reads its log through
 * http://canary.test/log. Every TCP connection is logged too, request or not: a browser's preconnect opens a socket and
 * sends nothing (issue 29 §3). Unref'd: it ends with the test run's process.
 */
const canaryHits: string[] = [];
function canaryServer(name: string) {
  const server = createHttpServer((req, res) => {
    canaryHits.push(`${req.method} ${req.url}`);
    res.end("canary");
  });
  server.on("connection", (socket) => canaryHits.push(`CONNECT ${name} from ${socket.remotePort}`));
  server.on("upgrade", (req, socket) => {
    canaryHits.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  return server;
}
const canary = canaryServer("canary");
await new Promise<void>((r) => canary.listen(0, "127.0.0.1", () => r()));
canary.unref();
const CANARY = `127.0.0.1:${(canary.address() as AddressInfo).port}`;
/**
 * The same canary on port 80 of a loopback address of this run's own (test/sources/browserNoNetwork.test.ts): Chromium
 * preconnects to a navigation's target on the scheme's default port. Only where this process may bind port 80 (as
 * root); elsewhere it is "" and the tests that need it skip.
 */
const canary80 = canaryServer("canary80");
const CANARY80 = await new Promise<string>((r) => {
  const host = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  canary80.once("error", () => r(""));
  canary80.listen(80, host, () => r(host));
});
canary80.unref();

/** hostile.test: pages that try to reach private addresses, and documents that never end, are huge, or never load. */
async function hostile(u: URL): Promise<Response> {
  const path = u.pathname;
  const page = (html: string) =>
    new Response(html.replaceAll("{{CANARY80}}", CANARY80 || CANARY).replaceAll("{{CANARY}}", CANARY), {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  if (path === "/redirect/1") return new Response(null, { status: 302, headers: { location: "/redirect/2" } });
  if (path === "/redirect/2") return new Response(null, { status: 302, headers: { location: `http://${CANARY}/redirected` } });
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
    return page(await readFile(join(import.meta.dirname, "test/fixtures/hosts/hostile.test", path === "/" ? "index.html" : path), "utf8"));
  } catch {
    return new Response("not found", { status: 404 });
  }
}

/**
 * The tests' copy of wrangler.toml, in a folder of its own (.wrangler/test-config/), with its paths made absolute:
 * wrangler reads a `.dev.vars` (or `.env`) beside the config it is given, and a developer's .dev.vars (upstreams
 * pointed at local stand-ins, as the README suggests) must not change what the tests see. Their upstreams are the
 * `.test` hosts below, whatever .dev.vars says.
 */
async function testWranglerConfig(): Promise<string> {
  const dir = join(import.meta.dirname, ".wrangler", "test-config");
  const absolute = (key: string) => (text: string) =>
    text.replace(
      new RegExp(`^(\\s*${key}\\s*=\\s*)"([^"]*)"`, "gm"),
      (_, lead: string, p: string) => `${lead}${JSON.stringify(resolve(import.meta.dirname, p))}`,
    );
  let text = await readFile(join(import.meta.dirname, "wrangler.toml"), "utf8");
  for (const key of ["main", "directory", "migrations_dir"]) text = absolute(key)(text);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "wrangler.toml"), text);
  return join(dir, "wrangler.toml");
}
// Nor a .env: wrangler falls back to one when there is no .dev.vars.
process.env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV = "false";

export default defineConfig(async () => {
  axeSource();
  const browserPresent = linkChromium();
  const migrations = await readD1Migrations("./migrations");
  const companiesMigrations = await readD1Migrations("./migrations/companies");
  const sharedPresent = await stat(SHARED).then(
    () => true,
    () => false,
  );
  return {
    plugins: [
      cloudflareTest({
        // The API Worker with the readers Worker's entrypoint beside it (test/worker.ts): READERS is bound to it below.
        main: "./test/worker.ts",
        wrangler: { configPath: await testWranglerConfig() },
        miniflare: {
          // The readers Worker (src/readers.ts) is this same test Worker's `Readers` entrypoint: PDF reads and renders
          // cross a real RPC boundary. Browser Rendering is the readers Worker's binding; the test Worker has it too.
          serviceBindings: { READERS: { name: kCurrentWorker, entrypoint: "Readers" } },
          browserRendering: { binding: "BROWSER" },
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_COMPANIES_MIGRATIONS: companiesMigrations,
            SHARED_PRESENT: sharedPresent ? "1" : "",
            BROWSER_PRESENT: browserPresent ? "1" : "",
            // Every render closes its browser: a session kept alive would outlive the test file.
            BROWSER_KEEP_ALIVE_MS: "0",
            // People named in the fixtures: test/setup.ts checks no reply to an unverified caller names them.
            PERSON_NAMES: JSON.stringify(fixturePersonNames(import.meta.dirname)),
            // Web tools' and document readers' fixture sites: a11y/hostile (accessibility audit, browser safety), legal* (website-legal), aiv* (ai-visibility), brand* (brand-kit).
            SAFE_FETCH_TEST_HOSTS: [
              "fixtures.test,logo.test,redirect.test,ch.test,govuk.test,assets.test,sra.test,cqc.test,charity.test,hooks.test,shared.test",
              "a11y.test,a11y2.test,hostile.test,hostile2.test",
              "legal.test,legal2.test,legal3.test,legal4.test,legal5.test",
              "aiv.test,aiv2.test,aiv3.test,aiv4.test,aiv5.test",
              "brand.test,brand2.test,brand3.test,brand4.test",
              // Document readers and the carbon reduction plan check: files.test (test/fixtures), docs.test and supplier*.test (fixture sites), pdf.test (PDFs made in the test).
              "files.test,docs.test,pdf.test,supplier.test,supplier2.test,www.cqc.test",
              // Enrichment's fixture businesses (and the domains their names suggest, ENRICH_DOMAIN_SUFFIXES below); down.test has no site.
              "bayside.test,meadowcare.test,brightbakes.test,acme-widgets.test,sunny-days.test,down.test,pixelharbour.test",
              "castlebrooklegal.test,castle-brook-legal.test,northgatebakery.test,northgate-bakery.test,harboursidelegal.test,harbourside-legal.test",
            ].join(","),
            ENRICH_DOMAIN_SUFFIXES: "test",
            ENVIRONMENT: "test",
            // Upstreams point at fixture hosts (test/fixtures/hosts/<host>/...); keys are dummies.
            COMPANIES_HOUSE_URL: "https://ch.test",
            COMPANIES_HOUSE_API_KEY: "test-ch-key",
            COMPANIES_HOUSE_DOCUMENT_URL: "https://chdoc.test",
            COMPANIES_HOUSE_BULK_URL: "https://chbulk.test",
            GAZETTE_URL: "https://gazette.test",
            GOVUK_CONTENT_URL: "https://govuk.test/api/content",
            SRA_URL: "https://sra.test/datashare/api/V1",
            SRA_API_KEY: "test-sra-key",
            CQC_URL: "https://cqc.test/public/v1",
            CQC_API_KEY: "test-cqc-key",
            CHARITY_EXTRACT_URL: "https://charity.test/data/txt",
            FIND_A_TENDER_URL: "https://fts.test",
            CONTRACTS_FINDER_URL: "https://cf.test",
            SANCTIONS_LIST_URL: "http://files.test/sanctions/UK-Sanctions-List.csv",
            PAYMENT_PRACTICES_URL: "http://files.test/payment-practices/export.csv",
            GENDER_PAY_GAP_URL: "http://files.test/gender-pay-gap",
            DNS_RESOLVER_URL: "https://dns.test/dns-query",
            BOE_IADB_URL: "https://boe.test/boeapps/database/_iadb-fromshowcolumns.asp",
          },
          outboundService: async (req: Request) => {
            const u = new URL(req.url);
            const path = decodeURIComponent(u.pathname);
            if (u.hostname === "files.test") return serve(join(import.meta.dirname, "test/fixtures", path));
            if (u.hostname === "canary.test") return Response.json({ canary: CANARY, canary80: CANARY80, hits: canaryHits });
            if (u.hostname === "hostile.test") return hostile(u);
            if (u.hostname === "shared.test") return serve(join(SHARED, path));
            if (u.hostname === "chbulk.test") {
              const m = /^\/(BasicCompanyDataAsOneFile-\d{4}-\d{2}-01)\.zip$/.exec(path);
              if (!m) return new Response("not found", { status: 404 });
              const csv = await readFile(join(import.meta.dirname, "test/fixtures/companies-house/bulk/BasicCompanyData-2026-11-01.csv"));
              return new Response(req.method === "HEAD" ? null : zipSync({ [`${m[1]}.csv`]: csv }));
            }
            if (u.hostname === "gazette.test" && u.pathname.endsWith("/notice/data.json")) {
              // The notice feed searched by name: test/fixtures/hosts/gazette.test/<path>/<name, lower case, non-letters as ->-<page>.json
              const text = (u.searchParams.get("text") ?? "")
                .replace(/"/g, "")
                .toLowerCase()
                .replace(/[^a-z0-9]+/g, "-")
                .replace(/^-|-$/g, "");
              const file = join(import.meta.dirname, "test/fixtures/hosts/gazette.test", path, `${text}-${u.searchParams.get("results-page") ?? "1"}.json`);
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
              if (path === "/slow") return new Promise<Response>((r) => setTimeout(() => r(new Response(null, { status: 204 })), 20_000));
              return new Response("not found", { status: 404 });
            }
            if ((u.hostname === "fts.test" || u.hostname === "cf.test") && u.searchParams.has("cursor")) {
              // OCDS release packages after the first page: test/fixtures/hosts/<host>/<path>/cursor-<cursor>.json
              // (the first page, asked without a cursor, is the folder's index.json).
              return serve(join(import.meta.dirname, "test/fixtures/hosts", u.hostname, path, `cursor-${u.searchParams.get("cursor")}.json`));
            }
            if (u.hostname.endsWith(".test")) {
              const file = join(import.meta.dirname, "test/fixtures/hosts", u.hostname, u.pathname === "/" ? "index.html" : u.pathname);
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
          },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/setup.ts"],
      // Copies of the tree other tools make (wrangler's snapshots, bench and browser runs, act, builds) are not this tree's tests.
      exclude: [...configDefaults.exclude, ".wrangler/**", ".bench/**", ".browser-test/**", ".act/**", "dist/**"],
      testTimeout: 20_000,
    },
  };
});
