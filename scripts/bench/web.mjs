// The web tools (issue 16 §6), part of `npm run bench`: wall times of the accessibility audit through the API against
// axe-core run by hand in the same chromium, and of the other web tools, on fixture sites served by local Node HTTP
// servers (test/fixtures/hosts/<site>, one port each, reached as http://localhost:<port>/: the test host let through by
// SAFE_FETCH_TEST_HOSTS=localhost; absolute links to the fixture's own host are rewritten to that origin).
//
// 1. Raw axe-core by hand: puppeteer-core launches Debian's chromium (--no-sandbox --disable-gpu), a new browser
//    context and page (viewport 1280×800, as the Worker's), goto the a11y.test page (load), inject axe-core's
//    axe.min.js, axe.run(document, AXE_RUN_OPTIONS), close: (a) launching the browser each time, (b) one browser
//    reused (a new context and page each time).
// 2. GET /api/v1/accessibility-audit?url=http://localhost:<port>/ with an enterprise key, sequentially, with
//    BROWSER_KEEP_ALIVE_MS=0 (a browser per audit) and =60000 (a session kept and reconnected to: whether the local
//    binding reuses it is read from the chromium processes under the server around each call; browsers left over that
//    a later call did not reuse are stopped by the bench, by process id, so they do not pile up). The raw runs are
//    interleaved with the API's (raw, API, raw, API, …; the launch-each-time kind in the first server, the reused kind
//    in the second), so both see the same load on the machine. audit/raw is reported for the like-for-like pairs.
//    Where the time goes: page.renderMs of each reply, and the moments the Worker's requests reach the fixture server
//    (the document fetched by the operation, then the page's stylesheet and images through the browser's
//    interception), against the steps of the raw runs.
// 3. website-legal, brand-kit and ai-visibility on their fixture sites (legal.test, brand.test, aiv.test), in both
//    servers, when their operations are registered (in /openapi.json); Companies House is a local stand-in serving
//    test/fixtures/hosts/ch.test, and the DNS-over-HTTPS resolver a stand-in that knows no name (a test host is never
//    resolved, and nothing else may be reached).
//
// The Worker is served from a copy of src/ (.bench/web-worker: another change to src/ during the run does not restart
// it) through wrangler's API in a child process of this script in its own process group, without the inspector
// (as scripts/bench/watch.mjs does); it is stopped by that group, and any chromium it launched by process id.
// BENCH_AUDIT_RUNS (default 10) timed runs of each kind, after one untimed warm-up.
// Runnable alone: node scripts/bench/web.mjs  (prints the JSON summary)
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, importTs, listenLocalhost, serveWorker, snapshotWorker, spawnServer, stopGroup, waitFor } from "../lib.mjs";
import { axeSource, linkChromium } from "../browser-prep.mjs";
import { benchState } from "./state.mjs";

const SELF = fileURLToPath(import.meta.url);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const RUNS = Number(process.env.BENCH_AUDIT_RUNS ?? 10);
const GOAL = 1.2;
const WORKER_DIR = join(ROOT, ".bench", "web-worker");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (x, d = 0) => (x === null || x === undefined || Number.isNaN(x) ? null : +x.toFixed(d));
const median = (xs) => {
  const s = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** Nearest rank. */
const pct = (xs, p) => {
  const s = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] : null;
};
const stats = (xs) => ({ median: round(median(xs)), p90: round(pct(xs, 90)), min: round(Math.min(...xs)), max: round(Math.max(...xs)) });
const medians = (rows, keys) => Object.fromEntries(keys.map((k) => [k, round(median(rows.map((r) => r[k])))]));
const load = () => loadavg().map((x) => round(x, 1));

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// ---- local servers: the fixture sites, and Companies House + DNS stand-ins -----------------------------------------

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".js": "text/javascript",
};
const TEXTUAL = /^(text\/|application\/(json|xml|manifest)|image\/svg)/;

/**
 * A fixture site: test/fixtures/hosts/<host> at http://localhost:<port>/ ("/" and folders answer with index.html, an
 * extensionless file is a page). Absolute links to the fixture's own host point at this origin. No caching: every
 * render fetches every resource. Each request is logged with its time.
 */
async function siteServer(host, log) {
  const dir = join(ROOT, "test/fixtures/hosts", host);
  let origin = "";
  const own = new RegExp(`https?://(www\\.)?${host.replace(/\./g, "\\.")}(?=[/"'\\s)<]|$)`, "g");
  const s = await listenLocalhost((req, res) => {
    const u = new URL(req.url, "http://x");
    log.push({ at: Date.now(), site: host, path: u.pathname, ua: String(req.headers["user-agent"] ?? "") });
    let file = join(dir, decodeURIComponent(u.pathname));
    if (!file.startsWith(dir)) return res.writeHead(404).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, existsSync(join(file, "index.html")) ? "index.html" : "index.json");
    if (!existsSync(file))
      return res
        .writeHead(404, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
        .end("<!doctype html><title>Not found</title><p>Not found.</p>");
    const type = TYPES[extname(file).toLowerCase()] ?? "text/html; charset=utf-8";
    let body = readFileSync(file);
    if (TEXTUAL.test(type)) body = Buffer.from(body.toString("utf8").replace(own, origin));
    res.writeHead(200, { "content-type": type, "content-length": body.length, "cache-control": "no-store" }).end(req.method === "HEAD" ? undefined : body);
  });
  origin = `http://localhost:${s.port}`;
  return { ...s, host, origin, url: `${origin}/` };
}

/** Companies House (test/fixtures/hosts/ch.test, a folder answers with its index.json) and a DNS-over-HTTPS resolver that knows no name. */
async function upstreamServer(counter) {
  const dir = join(ROOT, "test/fixtures/hosts/ch.test");
  const server = createServer((req, res) => {
    const u = new URL(req.url, "http://x");
    counter[u.pathname === "/dns-query" ? "dns" : "companiesHouse"]++;
    if (u.pathname === "/dns-query") return res.writeHead(200, { "content-type": "application/dns-json" }).end(JSON.stringify({ Status: 3, Answer: [] }));
    let file = join(dir, decodeURIComponent(u.pathname));
    if (file.startsWith(dir) && existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.json");
    if (!file.startsWith(dir) || !existsSync(file))
      return res.writeHead(404, { "content-type": "application/json" }).end('{"errors":[{"error":"company-profile-not-found"}]}');
    res.writeHead(200, { "content-type": "application/json" }).end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

// ---- the Worker: a copy of src/, served through wrangler's API in a process group of its own -----------------------

/** /proc/<pid>/stat: parent, process group and start time (to tell a reused process id). */
function procStat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), pgid: Number(f[2]), start: f[19] };
  } catch {
    return null;
  }
}
/** Every live descendant of `root` (chromium is launched detached, in a group of its own, but stays a child). */
function descendants(root) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const st = procStat(Number(name));
    if (!st) continue;
    if (!children.has(st.ppid)) children.set(st.ppid, []);
    children.get(st.ppid).push({ pid: Number(name), ...st });
  }
  const out = [];
  const walk = (pid) => {
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      walk(c.pid);
    }
  };
  walk(root);
  return out;
}
const cmdline = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};
/** The browsers (chromium's main processes) alive under the server. */
const browsersUnder = (root) => descendants(root).filter((p) => /--remote-debugging-port/.test(cmdline(p.pid)) && !/--type=/.test(cmdline(p.pid)));

/** Runs `body(base)` against the Worker copy with `vars`; stops the server's process group, then any chromium of it left, by process id. */
async function withWorker(persistTo, vars, logFile, body) {
  const port = await freePort();
  const { child, exited, tail, close } = spawnServer(SELF, WORKER_DIR, { config: join(WORKER_DIR, "wrangler.toml"), port, persistTo, vars }, logFile);
  const seen = new Map(); // every process seen under the server: pid → start time
  const note = () => {
    for (const p of descendants(child.pid)) seen.set(p.pid, p);
  };
  try {
    await waitFor(`http://127.0.0.1:${port}/`, 180_000);
    return await body(`http://127.0.0.1:${port}`, { browsers: () => (note(), browsersUnder(child.pid)) });
  } catch (e) {
    console.error(tail().slice(-3000));
    throw e;
  } finally {
    note();
    await stopGroup(child, exited);
    // Chromium is started in a process group of its own: whatever of it outlived the server is stopped by id.
    await sleep(500);
    for (const p of seen.values()) {
      const now = procStat(p.pid);
      if (!now || now.start !== p.start) continue;
      try {
        process.kill(now.pgid === p.pid ? -p.pid : p.pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
    close();
  }
}

// ---- raw axe-core by hand ------------------------------------------------------------------------------------------

async function rawBench() {
  const { default: puppeteer } = await import("puppeteer-core");
  const require = createRequire(join(ROOT, "package.json"));
  const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  const { AXE_RUN_OPTIONS } = await importTs("src/services/web/accessibility/axeOptions.ts");
  const launch = () => puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  /** One audit in `browser`: a new context and page, load, axe injected and run, context closed. Times each step. */
  async function audit(browser, url, t) {
    let at = performance.now();
    const lap = (k) => {
      const n = performance.now();
      t[k] = n - at;
      at = n;
    };
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    lap("pageMs");
    await page.goto(url, { waitUntil: "load" });
    lap("loadMs");
    await page.evaluate(`${AXE};0`);
    lap("injectMs");
    const r = await page.evaluate(
      `axe.run(document, ${JSON.stringify(AXE_RUN_OPTIONS)}).then((r) => ({ violations: r.violations.length, incomplete: r.incomplete.length, passes: r.passes.length, version: r.testEngine.version }))`,
    );
    lap("axeMs");
    await context.close();
    lap("closeMs");
    return r;
  }
  let kept = null;
  return {
    axeRunOptions: AXE_RUN_OPTIONS,
    version: async () => {
      const b = await launch();
      try {
        return await b.version();
      } finally {
        await b.close();
      }
    },
    /** (a) launch, audit, close the browser. */
    async launchEachTime(url) {
      const t0 = performance.now();
      const t = {};
      const browser = await launch();
      t.launchMs = performance.now() - t0;
      try {
        t.result = await audit(browser, url, t);
      } finally {
        const c = performance.now();
        await browser.close();
        t.closeMs = (t.closeMs ?? 0) + (performance.now() - c);
      }
      t.ms = performance.now() - t0;
      return t;
    },
    /** (b) one browser kept for every run (launched at the first, untimed: that is the warm-up). */
    async reused(url) {
      kept ??= await launch();
      const t0 = performance.now();
      const t = { launchMs: 0 };
      t.result = await audit(kept, url, t);
      t.ms = performance.now() - t0;
      return t;
    },
    close: async () => kept?.close().catch(() => {}),
  };
}

// ---- through the API -------------------------------------------------------------------------------------------------

/**
 * The Worker's browsers around each call: how many it launched (a chromium main process that was not there before the
 * call) and how many of those alive before are still alive after. With `reap`, browsers left from before a call that
 * launched a new one (so they were not reused) are stopped, by process id, before the next call: locally every one
 * would otherwise stay open until the server stops (see `sessions` in the summary).
 */
function browserTracker(browsers, reap) {
  let before = browsers();
  const calls = [];
  let stopped = 0;
  return {
    calls,
    stopped: () => stopped,
    async after() {
      const now = browsers();
      const was = new Set(before.map((p) => `${p.pid}:${p.start}`));
      const launched = now.filter((p) => !was.has(`${p.pid}:${p.start}`));
      const left = now.filter((p) => was.has(`${p.pid}:${p.start}`));
      calls.push({ launched: launched.length, aliveAfter: now.length, aliveFromBefore: left.length });
      if (reap && launched.length && left.length) {
        // Left from before and not reused (this call launched its own): stopped, so they do not pile up.
        for (const p of left) {
          const st = procStat(p.pid);
          if (!st || st.start !== p.start) continue;
          try {
            process.kill(st.pgid === p.pid ? -p.pid : p.pid, "SIGTERM");
            stopped++;
          } catch {
            // gone meanwhile
          }
        }
      }
      // A second for a closed (or stopped) browser to exit before the next run, after every call alike.
      await sleep(1000);
      before = browsers();
    },
  };
}

/** One GET with the key; the fixture requests it caused, as times after the call was sent. */
async function timedGet(base, path, key, log) {
  const mark = log.length;
  const t0 = Date.now();
  const p0 = performance.now();
  const r = await fetch(`${base}${path}`, { headers: { "x-api-key": key } });
  const text = await r.text();
  const ms = performance.now() - p0;
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  const reqs = log.slice(mark).map((x) => ({ ...x, at: x.at - t0 }));
  return { ms, status: r.status, body, text, reqs };
}

const TOOLS = [
  { operationId: "checkWebsiteLegal", path: "/api/v1/website-legal", site: "legal.test" },
  { operationId: "getBrandKit", path: "/api/v1/brand-kit", site: "brand.test" },
  { operationId: "checkAiVisibility", path: "/api/v1/ai-visibility", site: "aiv.test" },
];

/** The figures of one kind of audit run (API), with where the time goes. */
function auditFigures(rows, firstCall) {
  const ok = rows.filter((r) => r.status === 200);
  const per = ok.map((r) => {
    const doc = r.reqs.find((x) => x.path === "/");
    const subs = r.reqs.filter((x) => x.path !== "/");
    const firstSub = subs.length ? Math.min(...subs.map((x) => x.at)) : null;
    const lastSub = subs.length ? Math.max(...subs.map((x) => x.at)) : null;
    const renderMs = r.body.page.renderMs;
    return {
      ms: r.ms,
      renderMs,
      outsideRenderMs: r.ms - renderMs,
      documentRequestedAtMs: doc?.at ?? null,
      firstSubresourceAtMs: firstSub,
      lastSubresourceAtMs: lastSub,
      // From the document's fetch to the page's first subresource reaching the fixture server: the document read,
      // the browser launched or connected, a context and page opened and set up, navigation started, the HTML parsed.
      documentToFirstSubresourceMs: doc && firstSub !== null ? firstSub - doc.at : null,
      subresourcesSpanMs: firstSub !== null ? lastSub - firstSub : null,
      // After the last subresource: the rest of the load, axe-core injected and run, storage and cookies read, the
      // context closed and the browser closed or disconnected, the reply built.
      afterLastSubresourceMs: lastSub !== null ? r.ms - lastSub : null,
      requests: r.body.page.requests,
      failedRules: r.body.summary.failedRules,
    };
  });
  const statuses = {};
  for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return {
    runs: rows.length,
    statuses,
    ...(ok.length ? { wallMs: stats(per.map((p) => p.ms)), renderMs: stats(per.map((p) => p.renderMs)) } : {}),
    firstCallMs: round(firstCall.ms),
    firstCallRenderMs: firstCall.body?.page?.renderMs ?? null,
    whereTheTimeGoesMedians: medians(per, [
      "ms",
      "renderMs",
      "outsideRenderMs",
      "documentRequestedAtMs",
      "documentToFirstSubresourceMs",
      "subresourcesSpanMs",
      "afterLastSubresourceMs",
    ]),
    pageRequests: median(per.map((p) => p.requests)),
    failedRules: median(per.map((p) => p.failedRules)),
    eachRunMs: per.map((p) => round(p.ms)),
    eachRenderMs: per.map((p) => p.renderMs),
    ...(ok.length < rows.length
      ? {
          errors: rows
            .filter((r) => r.status !== 200)
            .slice(0, 3)
            .map((r) => `${r.status}: ${r.text.slice(0, 300)}`),
        }
      : {}),
  };
}

const rawFigures = (rows) => ({
  runs: rows.length,
  wallMs: stats(rows.map((r) => r.ms)),
  stepMedians: medians(rows, ["launchMs", "pageMs", "loadMs", "injectMs", "axeMs", "closeMs"]),
  axe: rows[0]?.result,
  eachRunMs: rows.map((r) => round(r.ms)),
});

async function toolFigures(call, site, tool, registered) {
  if (!registered.has(tool.path)) return { skipped: `${tool.operationId} is not registered (${tool.path} is not in /openapi.json)` };
  const path = `${tool.path}?url=${encodeURIComponent(site.url)}`;
  const first = await call(path);
  if (first.status === 404 && /no endpoint/i.test(first.text)) return { skipped: `${tool.path} answered 404 (route not found)` };
  const rows = [];
  for (let i = 0; i < RUNS; i++) rows.push(await call(path));
  const statuses = {};
  for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const ok = rows.filter((r) => r.status === 200);
  return {
    site: site.host,
    runs: rows.length,
    statuses,
    ...(ok.length ? { wallMs: stats(ok.map((r) => r.ms)) } : {}),
    firstCallMs: round(first.ms),
    firstCallStatus: first.status,
    fixtureRequestsPerCall: median(rows.map((r) => r.reqs.length)),
    eachRunMs: rows.map((r) => round(r.ms)),
    ...(ok.length < rows.length || first.status !== 200
      ? {
          errors: [first, ...rows]
            .filter((r) => r.status !== 200)
            .slice(0, 2)
            .map((r) => `${r.status}: ${r.text.slice(0, 300)}`),
        }
      : {}),
  };
}

// ---- the bench -------------------------------------------------------------------------------------------------------

export async function benchWeb() {
  const started = Date.now();
  if (!existsSync(CHROMIUM)) return { skipped: `no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)` };
  axeSource();
  linkChromium();
  const log = [];
  const upstreamCounter = { companiesHouse: 0, dns: 0 };
  const sites = {};
  for (const host of ["a11y.test", ...TOOLS.map((t) => t.site)]) sites[host] = await siteServer(host, log);
  const upstream = await upstreamServer(upstreamCounter);
  const raw = await rawBench();
  snapshotWorker(WORKER_DIR);
  const out = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, loadAverageAtStart: load() },
    runs: RUNS,
    fixture: "test/fixtures/hosts/a11y.test: the page, its stylesheet and two images, at http://localhost:<port>/",
  };
  try {
    out.chromium = await raw.version();
    const { state, key } = await benchState("web");
    const baseVars = {
      SAFE_FETCH_TEST_HOSTS: "localhost",
      ENVIRONMENT: "development",
      COMPANIES_HOUSE_URL: upstream.url,
      COMPANIES_HOUSE_API_KEY: "bench",
      DNS_RESOLVER_URL: `${upstream.url}/dns-query`,
    };
    const audit = `/api/v1/accessibility-audit?url=${encodeURIComponent(sites["a11y.test"].url)}`;
    const api = {};
    const rawRows = {};
    const tools = {};
    const sessionsSeen = {};
    for (const [mode, keepAlive, rawKind] of [
      ["browserPerAudit", "0", "launchEachTime"],
      ["sessionKept", "60000", "reused"],
    ]) {
      await withWorker(state, { ...baseVars, BROWSER_KEEP_ALIVE_MS: keepAlive }, join(ROOT, ".bench", `web-dev-${mode}.log`), async (base, { browsers }) => {
        const registered = new Set(Object.keys((await (await fetch(`${base}/openapi.json`)).json()).paths ?? {}));
        const tracker = browserTracker(browsers, keepAlive !== "0");
        const call = async (path) => {
          const r = await timedGet(base, path, key, log);
          await tracker.after();
          return r;
        };
        // The platform alone: a keyed, charged call that reads nothing (late-payment).
        const plain = [];
        await timedGet(base, "/api/v1/late-payment?amount=2400&due=2026-01-15&paid=2026-02-05", key, log);
        for (let i = 0; i < RUNS; i++) plain.push((await timedGet(base, "/api/v1/late-payment?amount=2400&due=2026-01-15&paid=2026-02-05", key, log)).ms);
        const withAudit = registered.has("/api/v1/accessibility-audit");
        // Warm-up (untimed in the figures): the Worker's first call, the first browser; the raw kind's first too.
        const first = withAudit ? await call(audit) : null;
        if (first && first.status !== 200) throw new Error(`the audit answered ${first.status}: ${first.text.slice(0, 500)}`);
        await raw[rawKind](sites["a11y.test"].url);
        const rows = [];
        const rawOnes = [];
        const auditCalls = tracker.calls.length;
        for (let i = 0; i < RUNS; i++) {
          rawOnes.push(await raw[rawKind](sites["a11y.test"].url));
          if (withAudit) rows.push(await call(audit));
        }
        rawRows[rawKind] = rawOnes;
        // A browser closed by its call may have exited before it is looked for: launches are counted where sessions are kept.
        const launches = (calls) => (keepAlive === "0" ? "a browser per call, closed by the call" : calls.filter((c) => c.launched > 0).length);
        const sessions = (calls) => ({
          calls: calls.length,
          callsThatLaunchedABrowser: launches(calls),
          // Browsers of earlier calls still open when the call ended (a second after the one before it ended).
          earlierBrowsersStillOpenAfterEachCall: calls.map((c) => c.aliveFromBefore),
          browsersAliveRightAfterEachCall: calls.map((c) => c.aliveAfter),
        });
        api[mode] = {
          BROWSER_KEEP_ALIVE_MS: Number(keepAlive),
          ...(withAudit
            ? { ...auditFigures(rows, first), sessions: sessions(tracker.calls.slice(auditCalls)) }
            : { skipped: "auditAccessibility is not registered (not in /openapi.json)" }),
          platformAloneMs: { ...stats(plain), note: "GET /api/v1/late-payment with the key: gateway, key and credits, no fetch" },
        };
        for (const tool of TOOLS) {
          const from = tracker.calls.length;
          const figures = await toolFigures(call, sites[tool.site], tool, registered);
          const calls = tracker.calls.slice(from);
          (tools[tool.operationId] ??= {})[mode] = figures.skipped
            ? figures
            : { ...figures, callsThatLaunchedABrowser: keepAlive === "0" ? launches(calls) : `${launches(calls)} of ${calls.length}` };
        }
        sessionsSeen[mode] = { browsersStoppedByTheBench: tracker.stopped(), browsersAliveAtTheEnd: browsers().length };
      });
    }
    out.raw = {
      note: "puppeteer-core launching the same chromium (--no-sandbox --disable-gpu); a new browser context and page (1280×800) per run; goto (load); axe.min.js injected; axe.run(document, AXE_RUN_OPTIONS); context closed",
      launchEachTime: rawRows.launchEachTime ? rawFigures(rawRows.launchEachTime) : null,
      reused: rawRows.reused ? rawFigures(rawRows.reused) : null,
    };
    out.audit = api;
    const ratio = (a, r, k) => (a?.wallMs && r?.wallMs ? round(a.wallMs[k] / r.wallMs[k], 2) : null);
    out.auditOverRaw = {
      goal: `at most ${GOAL}×`,
      launchEachTime: { median: ratio(api.browserPerAudit, out.raw.launchEachTime, "median"), p90: ratio(api.browserPerAudit, out.raw.launchEachTime, "p90") },
      reused: { median: ratio(api.sessionKept, out.raw.reused, "median"), p90: ratio(api.sessionKept, out.raw.reused, "p90") },
    };
    out.auditOverRaw.withinGoal = {
      launchEachTime: out.auditOverRaw.launchEachTime.median !== null ? out.auditOverRaw.launchEachTime.median <= GOAL : null,
      reused: out.auditOverRaw.reused.median !== null ? out.auditOverRaw.reused.median <= GOAL : null,
    };
    out.tools = tools;
    const kept = api.sessionKept?.sessions;
    const miniflare = JSON.parse(readFileSync(join(ROOT, "node_modules/miniflare/package.json"), "utf8")).version;
    out.sessionReuse = {
      ...sessionsSeen,
      reusedLocally: kept ? kept.callsThatLaunchedABrowser < kept.calls : null,
      // Every render of a sessionKept call connects to a session or launches one; sessions are never listed free
      // locally when every call launched (callsThatLaunchedABrowser = calls) and earlier browsers stayed open.
      note:
        kept && kept.callsThatLaunchedABrowser === kept.calls
          ? `With BROWSER_KEEP_ALIVE_MS=60000 every call launched a browser: the local binding (miniflare ${miniflare}) never lists a session as free again after the Worker disconnects (its BrowserSession marks the session connected on connect and nothing clears that when the WebSocket closes), so puppeteer.sessions() offers nothing to connect to, and each browser left for reuse stays open until the server stops (the bench stopped those left over once the next call had launched its own). The sessionKept audit figures are therefore of a launch per audit without the browser's close; deployed, Browser Rendering frees a session on disconnect.`
          : kept
            ? "Sessions were reused where a call launched no browser (callsThatLaunchedABrowser < calls)."
            : "No audit ran with sessions kept.",
    };
    out.upstreamRequests = upstreamCounter;
    out.machine.loadAverageAtEnd = load();
    out.seconds = Math.round((Date.now() - started) / 1000);
    return out;
  } finally {
    await raw.close();
    for (const s of Object.values(sites)) await s.close();
    await upstream.close();
  }
}

if (process.argv[1] === SELF && process.argv[2] === "--serve") {
  await serveWorker(JSON.parse(process.argv[3]));
} else if (process.argv[1] === SELF) {
  console.log(JSON.stringify(await benchWeb(), null, 2));
  process.exit(0);
}
