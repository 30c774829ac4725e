import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { kCurrentWorker } from "miniflare";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import http from "node:http";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { configDefaults, defineConfig, type Plugin } from "vitest/config";
// @ts-expect-error a plain .mjs script without types
import { axeSource, linkChromium } from "./scripts/browser-prep.mjs";
import { fixturePersonNames } from "./test/privacy/personNames";
import { type Canary, fixtureHosts, startCanary } from "./test/support/fixtureHosts";
import { testLanes } from "./test/support/lanes";
import { PREBUNDLED } from "./test/support/prebundled";
import { SHARED_DIR, SHARED_PRESENT } from "./test/support/shared";

/**
 * Two lanes (docs/testing.md), two vitest projects:
 * - `node`: test files whose imports reach no `cloudflare:` module run in plain Node (test/support/nodeSetup.ts);
 * - `workers`: the rest run inside the Workers runtime (miniflare), one runtime per test file (test/setup.ts).
 * test/support/lanes.ts computes which is which from the imports, every run; `npx vitest run --project node` runs one.
 *
 * Outbound fetch never reaches the network, in either lane: test/support/fixtureHosts.ts answers it from the fixture
 * hosts (http://files.test/<path> is test/fixtures/<path>, http://shared.test/<path> the shared data folder when
 * present, other `.test` hosts test/fixtures/hosts/<host>/<path>; everything else gets 599). SHARED_DIR points the
 * shared data folder elsewhere (default ../shared).
 */

/**
 * Lost connections (docs/testing.md): "Network connection lost." from a fixture fetch, a different test each time. The
 * Workers lane's outboundService is a Node function that miniflare serves to workerd over HTTP on a loopback port.
 * workerd keeps those connections and reuses them; Node's default keepAliveTimeout closed one left idle for 5 s. A fetch
 * sent as that happens goes out on a closed connection and is lost: rarely when workerd is idle, every time after the
 * test's isolate has been busy for over 5 s without I/O (a big parse on a loaded machine), since workerd has not yet
 * seen the close when it reuses the connection (test/support/lostConnection.test.ts). miniflare fixed it by turning
 * that timeout off (workers-sdk issue 14848, pull request 14850, first in @cloudflare/vitest-pool-workers 0.19.1; this
 * project has 0.15.1, with miniflare 4.20260426). Until it moves to that version, the same is done here to the HTTP
 * servers miniflare creates in this process: an idle connection stays open until workerd closes it.
 */
const createServer = http.createServer;
http.createServer = ((...args: Parameters<typeof http.createServer>) => {
  const server = createServer(...args);
  if (/[\\/]miniflare[\\/]dist[\\/]/.test(new Error().stack ?? "")) server.keepAliveTimeout = 0;
  return server;
}) as typeof http.createServer;

/** The Node lane imports no `cloudflare:` module: one that does fails to load, saying which lane it belongs in. */
const noRuntimeInNode = (): Plugin => ({
  name: "node-lane-has-no-workers-runtime",
  enforce: "pre",
  resolveId(id, importer) {
    if (id.startsWith("cloudflare:"))
      throw new Error(
        `${importer ?? "a test"} imports ${id}: the Node lane has no Workers runtime (test/support/lanes.ts puts such a file in the Workers lane)`,
      );
  },
});

let canary: Promise<Canary> | undefined;

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

type PoolOptions = Exclude<Parameters<typeof cloudflareTest>[0], (...args: never[]) => unknown>;

/** The Workers lane's runtime: made once, on the lane's first test file (a Node-lane run never needs it). */
async function workersPoolOptions(): Promise<PoolOptions> {
  const browserPresent = linkChromium();
  const migrations = await readD1Migrations("./migrations");
  const companiesMigrations = await readD1Migrations("./migrations/companies");
  return {
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
        SHARED_PRESENT: SHARED_PRESENT ? "1" : "",
        BROWSER_PRESENT: browserPresent ? "1" : "",
        // Every render closes its browser: a session kept alive would outlive the test file.
        BROWSER_KEEP_ALIVE_MS: "0",
        // People named in the fixtures: test/setup.ts checks no reply to an unverified caller names them.
        PERSON_NAMES: JSON.stringify(fixturePersonNames(import.meta.dirname)),
        // Web tools' and document readers' fixture sites: a11y/hostile (accessibility audit, browser safety), legal* (website-legal), aiv* (ai-visibility), brand* (brand-kit).
        SAFE_FETCH_TEST_HOSTS: [
          "fixtures.test,logo.test,redirect.test,ch.test,govuk.test,assets.test,sra.test,cqc.test,charity.test,hooks.test,shared.test",
          "a11y.test,a11y2.test,hostile.test,hostile2.test",
          "logos.test,svglogo.test,badlogos.test,nologo.test",
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
      outboundService: fixtureHosts({ root: import.meta.dirname, shared: SHARED_DIR, canary: () => (canary ??= startCanary()) }),
    },
  };
}
let workersOptions: Promise<PoolOptions> | undefined;

export default defineConfig(async () => {
  axeSource();
  const lanes = testLanes(import.meta.dirname);
  const common = {
    // Copies of the tree other tools make (wrangler's snapshots, bench and browser runs, act, builds) are not this tree's tests.
    exclude: [...configDefaults.exclude, ".wrangler/**", ".bench/**", ".browser-test/**", ".act/**", "dist/**"],
    testTimeout: 20_000,
  };
  return {
    test: {
      projects: [
        {
          plugins: [noRuntimeInNode()],
          test: {
            ...common,
            name: "node",
            include: lanes.node,
            environment: "node",
            // Plain computation: one file per core.
            maxWorkers: availableParallelism(),
            setupFiles: ["./test/support/nodeSetup.ts"],
          },
        },
        {
          plugins: [cloudflareTest(() => (workersOptions ??= workersPoolOptions()))],
          test: {
            ...common,
            name: "workers",
            include: lanes.workers,
            // A test that renders pages in the real browser (the web tools, the Business Score's site checks) takes 5 s on
            // a quiet 2-core machine and passed 20 s once under a load of 8, its first render loading the browser client
            // in the readers Worker (src/readers.ts loads it on first use). A hang still fails, after a minute.
            testTimeout: 60_000,
            // One runtime per file, started and stopped by this process: two at a time keep a 2-core machine busy while
            // one of them starts (vitest's default, one fewer than the cores, would run them one by one there).
            maxWorkers: Math.max(2, availableParallelism() - 1),
            setupFiles: ["./test/setup.ts"],
            deps: {
              optimizer: {
                ssr: {
                  enabled: true,
                  include: [...PREBUNDLED],
                },
              },
            },
          },
        },
      ],
    },
  };
});
