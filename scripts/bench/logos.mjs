// The logo image (issue 32), part of `npm run bench`: GET /api/v1/company-logo/image against fixture sites generated
// here and served by a local Node HTTP server, reached by the Worker through its TEST-ONLY fixture origin
// (SAFE_FETCH_TEST_HOSTS names the sites, SAFE_FETCH_TEST_ORIGIN points them at this server, the host in x-fixture-host).
//
// 1. The cached reply against the bare route: one URL made once, then asked BENCH_LOGO_CALLS times (default 200), one
//    call at a time, keyless and with a publishable key, interleaved with the bare route `/` (what keyed.mjs calls
//    bare: keyless, no database) and /api/status (keyless, reads the sources' state), so all four see the same load on
//    the machine. p50 and p95 of each, each image reply's x-cache (hit or stored expected), and cached/bare p50
//    (goal ≤ 1.2×, reported whatever it is).
// 2. The first lookup of a site (homepage + logo fetch + make + store), on BENCH_LOGO_SITES different sites (default 10),
//    one at a time, after one untimed lookup of another site (the readers Worker loads its image engine on the first
//    image it makes; that first lookup is reported apart). Median, p90, min–max, and where the time goes, from the
//    moments the homepage and logo requests reach the fixture server.
// 3. Bytes served per logo at each size (16 … 512) as PNG and WebP, for one generated logo (480×160 RGBA: an
//    anti-aliased disc with a gradient and a ring, and a wordmark of rounded blocks) and for the monogram (a site
//    without a logo), with the time each took to make.
// Uncached lookups go with a publishable key (600 a minute; the keyless 30 a minute per IP is fewer than this bench
// makes), with the Referer of a page on the key's origin, as an <img> on that page sends.
//
// The Worker is served from a copy of src/ (.bench/logos-worker: a change to src/ during the run does not restart it)
// through wrangler's API in a child process of this script in its own process group (as scripts/bench/web.mjs does),
// with a fresh state of its own (.bench/logos-state, removed afterwards); it is stopped by that group.
// Runnable alone: node scripts/bench/logos.mjs  (prints the table, then the JSON summary)
import { rmSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, freePort, serveWorker, snapshotWorker, spawnServer, stopGroup, waitFor } from "../lib.mjs";
import { freshBenchState } from "./state.mjs";
import { hsl, png } from "../fixtures/png.mjs";

const SELF = fileURLToPath(import.meta.url);
const CALLS = Number(process.env.BENCH_LOGO_CALLS ?? 200);
const SITE_COUNT = Number(process.env.BENCH_LOGO_SITES ?? 10);
const GOAL = 1.2;
const SIZES = [16, 32, 64, 128, 256, 512];
const WORKER_DIR = join(ROOT, ".bench", "logos-worker");
const STATE = join(ROOT, ".bench", "logos-state");
const IMAGE = "/api/v1/company-logo/image";
/** The page the publishable key is for: its origin is the key's, and uncached lookups carry it as their Referer. */
const PAGE = "http://localhost:3000/suppliers";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (x, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? null : +x.toFixed(d));
/** Nearest rank. */
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] : null;
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length ? (s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2) : null;
};
const count = (xs) => xs.reduce((o, x) => ((o[x] = (o[x] ?? 0) + 1), o), {});

// ---- the fixture sites: generated homepages and PNG logos ------------------------------------------------------------

/**
 * A logo as a real one is drawn (anti-aliased edges, a gradient: not a flat block that compresses to nothing): 480×160,
 * a disc with a ring cut out, shaded from `hue`, and a wordmark of seven rounded blocks in a dark grey, on transparency.
 */
function logoPng(hue) {
  const cover = (d) => Math.max(0, Math.min(1, 0.5 - d)); // a signed distance (pixels) to the share of the pixel covered
  const roundBox = (px, py, cx, cy, hw, hh, r) => {
    const qx = Math.abs(px - cx) - (hw - r);
    const qy = Math.abs(py - cy) - (hh - r);
    return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
  };
  const blocks = [34, 22, 30, 26, 38, 20, 30].reduce((out, w, i) => {
    const x = (out.at(-1)?.right ?? 170) + 10;
    out.push({ cx: x + w / 2, hw: w / 2, hh: i % 3 === 1 ? 32 : 24, right: x + w });
    return out;
  }, []);
  return png(480, 160, (x0, y0) => {
    const x = x0 + 0.5;
    const y = y0 + 0.5;
    const r = Math.hypot(x - 80, y - 80);
    const disc = cover(r - 66) * (1 - cover(r - 34) * cover(44 - r)); // the disc, less a ring between radii 34 and 44
    if (disc > 0) {
      const [cr, cg, cb] = hsl(hue + (y / 160) * 30, 0.75, 0.35 + (x / 160) * 0.25);
      return [cr, cg, cb, Math.round(255 * disc)];
    }
    const word = Math.max(...blocks.map((b) => cover(roundBox(x, y, b.cx, 80, b.hw, b.hh, 6))));
    return word > 0 ? [38, 41, 48, Math.round(255 * word)] : [0, 0, 0, 0];
  });
}

const page = (name, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body>${body}<main><h1>${name}</h1><p>A fixture site.</p></main></body></html>`;
const withLogo = (name) => page(name, `<header><a href="/"><img class="logo" src="/logo.png" alt="${name}"></a></header>`);

/**
 * The fixture sites, each host → { home, logo }: `ready.test` and `warm.test` (the untimed first images), `site01.test` … (the first
 * lookups), `cached.test` (the cached reply), `sizes.test` (bytes per size) and `nologo.test` (no logo: the monogram).
 */
function fixtureSites() {
  const sites = new Map();
  const add = (host, name, hue) => sites.set(host, { home: hue === null ? page(name, "") : withLogo(name), logo: hue === null ? null : logoPng(hue) });
  add("ready.test", "Ready Ltd", null);
  add("warm.test", "Warm Ltd", 200);
  for (let i = 1; i <= SITE_COUNT; i++) add(`site${String(i).padStart(2, "0")}.test`, `Site ${i} Ltd`, (i * 37) % 360);
  add("cached.test", "Cached Ltd", 140);
  add("sizes.test", "Sizes Ltd", 15);
  add("nologo.test", "No Logo Ltd", null);
  return sites;
}

/** The server of the fixture sites on 127.0.0.1 (a free port): each request is logged (host, path, when it arrived). */
async function fixtureServer(sites, log) {
  const server = createServer((req, res) => {
    const host = String(req.headers["x-fixture-host"] ?? "").toLowerCase();
    const path = new URL(req.url, "http://fixture").pathname;
    log.push({ host, path, at: performance.now() });
    const site = sites.get(host);
    const [type, body] = !site
      ? []
      : path === "/"
        ? ["text/html; charset=utf-8", Buffer.from(site.home)]
        : path === "/logo.png"
          ? ["image/png", site.logo]
          : [];
    if (!body) return res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
    res.writeHead(200, { "content-type": type, "content-length": body.length, "cache-control": "no-store" }).end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      }),
  };
}

// ---- the Worker: a copy of src/, served through wrangler's API in a process group of its own -----------------------

/** Runs `body(base)` against the Worker copy with `vars`; stops the server's process group afterwards. */
async function withWorker(persistTo, vars, logFile, body) {
  const port = await freePort();
  const { child, exited, tail, close } = spawnServer(SELF, WORKER_DIR, { config: join(WORKER_DIR, "wrangler.toml"), port, persistTo, vars }, logFile);
  try {
    await waitFor(`http://127.0.0.1:${port}/`, 180_000);
    return await body(`http://127.0.0.1:${port}`);
  } catch (e) {
    console.error(tail().slice(-3000));
    throw e;
  } finally {
    await stopGroup(child, exited);
    close();
  }
}

/** One GET, its body read whole: wall time (ms), status, the reply's type, x-cache, x-logo-source and bytes. */
async function timed(url, headers = {}) {
  const t = performance.now();
  const r = await fetch(url, { headers });
  const body = new Uint8Array(await r.arrayBuffer());
  const ms = performance.now() - t;
  return {
    ms,
    start: t,
    status: r.status,
    type: r.headers.get("content-type"),
    cache: r.headers.get("x-cache"),
    source: r.headers.get("x-logo-source"),
    bytes: body.length,
    text: r.status === 200 ? "" : new TextDecoder().decode(body).slice(0, 300),
  };
}
const must = (r, what) => {
  if (r.status !== 200) throw new Error(`${what} answered ${r.status}: ${r.text}`);
  return r;
};

// ---- the bench -------------------------------------------------------------------------------------------------------

export async function benchLogos() {
  const started = Date.now();
  const sites = fixtureSites();
  const log = [];
  const fixtures = await fixtureServer(sites, log);
  snapshotWorker(WORKER_DIR);
  const key = await freshBenchState(STATE);
  const out = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, loadAverageAtStart: loadavg().map((x) => round(x)) },
    server: "wrangler's API (unstable_startWorker, no inspector) serving a copy of the Worker and the readers Worker, local state",
  };
  const vars = { ENVIRONMENT: "development", SAFE_FETCH_TEST_HOSTS: [...sites.keys()].join(","), SAFE_FETCH_TEST_ORIGIN: fixtures.origin };
  try {
    await withWorker(STATE, vars, join(ROOT, ".bench", "logos-dev.log"), async (base) => {
      // A publishable key for the page's origin, made with the bench's secret key.
      const made = await fetch(`${base}/api/v1/account/publishable-keys`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ origins: [new URL(PAGE).origin], label: "bench" }),
      });
      if (made.status !== 201) throw new Error(`creating a publishable key answered ${made.status}: ${(await made.text()).slice(0, 300)}`);
      const pk = (await made.json()).key;
      const fromPage = { referer: PAGE };
      const image = (host, { size = 64, format = "png", withKey = true } = {}) =>
        `${base}${IMAGE}?domain=${host}&size=${size}&format=${format}${withKey ? `&key=${pk}` : ""}`;

      // The API Worker finds the readers Worker (which makes the images) through the dev registry some seconds after both
      // answer: until then an image answers 503. A site without a logo (the monogram) is asked until one is made.
      let ready;
      const readyBy = Date.now() + 90_000;
      while ((ready = await timed(image("ready.test"), fromPage)).status === 503 && Date.now() < readyBy) await sleep(1000);
      must(ready, "the first image (ready.test)");
      // 2 first (a fresh server: nothing cached yet). The untimed first logo made loads the readers Worker's image engine.
      const warm = must(await timed(image("warm.test"), fromPage), "the first lookup (warm.test)");
      const firsts = [];
      for (let i = 1; i <= SITE_COUNT; i++) {
        const host = `site${String(i).padStart(2, "0")}.test`;
        const r = must(await timed(image(host), fromPage), `the first lookup of ${host}`);
        const at = (path) => log.find((l) => l.host === host && l.path === path)?.at;
        const home = at("/");
        const logo = at("/logo.png");
        firsts.push({
          host,
          ms: r.ms,
          cache: r.cache,
          source: r.source,
          // Gateway, key and limit, up to the homepage request; the homepage read and its logo found; the logo fetched, made, replied.
          toHomepageMs: home === undefined ? null : home - r.start,
          homepageToLogoMs: home === undefined || logo === undefined ? null : logo - home,
          logoToReplyMs: logo === undefined ? null : r.start + r.ms - logo,
          fixtureRequests: log.filter((l) => l.host === host).length,
        });
        await sleep(200); // the stores (waitUntil) done before the next
      }
      const firstMs = firsts.map((f) => f.ms);
      const med = (k) => round(median(firsts.map((f) => f[k]).filter((x) => x !== null)));
      out.firstLookup = {
        what: `GET ${IMAGE}?domain=siteNN.test&size=64&key=pk_… on ${SITE_COUNT} sites never asked before, one at a time: homepage + logo fetch + make (PNG 64) + reply; the stores (D1, cache) run after the reply (waitUntil)`,
        sites: SITE_COUNT,
        medianMs: round(median(firstMs)),
        p90Ms: round(pct(firstMs, 90)),
        minMs: round(Math.min(...firstMs)),
        maxMs: round(Math.max(...firstMs)),
        medianSplitMs: { toHomepageRequest: med("toHomepageMs"), homepageToLogoRequest: med("homepageToLogoMs"), logoRequestToReply: med("logoToReplyMs") },
        xCache: count(firsts.map((f) => f.cache)),
        source: count(firsts.map((f) => f.source)),
        fixtureRequestsPerLookup: count(firsts.map((f) => f.fixtureRequests)),
        firstImagesMs: {
          monogram: round(ready.ms),
          logo: round(warm.ms),
          note: "untimed in the median: the server's first image (ready.test, a monogram, once the readers Worker is reachable), then its first logo (warm.test)",
        },
        eachMs: firstMs.map((x) => round(x)),
      };

      // 1. The cached reply against the bare route, interleaved.
      const cachedKeyless = image("cached.test", { withKey: false });
      const cachedKeyed = image("cached.test");
      const madeOnce = must(await timed(cachedKeyed, fromPage), "the cached URL's first call");
      await sleep(1000); // its stores (D1 and the cache, in waitUntil) done
      const fixtureBefore = log.length;
      const kinds = [
        ["bare /", `${base}/`, {}],
        ["/api/status", `${base}/api/status`, {}],
        ["image, keyless", cachedKeyless, {}],
        ["image, publishable key", cachedKeyed, fromPage],
      ];
      for (let i = 0; i < 20; i++) for (const [, url, headers] of kinds) await timed(url, headers); // warm-up
      const rows = Object.fromEntries(kinds.map(([k]) => [k, []]));
      for (let i = 0; i < CALLS; i++) for (const [k, url, headers] of kinds) rows[k].push(await timed(url, headers));
      const figures = (k) => {
        const ok = rows[k].filter((r) => r.status === 200);
        const ms = ok.map((r) => r.ms);
        return {
          calls: rows[k].length,
          statuses: count(rows[k].map((r) => r.status)),
          p50: round(pct(ms, 50), 2),
          p95: round(pct(ms, 95), 2),
          ...(k.startsWith("image") ? { xCache: count(rows[k].map((r) => r.cache)), bytes: rows[k][0].bytes } : {}),
        };
      };
      const latency = Object.fromEntries(kinds.map(([k]) => [k, figures(k)]));
      const ratio = (a, b) => round(latency[a].p50 / latency[b].p50, 2);
      out.cachedReply = {
        what: `the same URL (cached.test, size 64, PNG) ${CALLS} times after its first call (x-cache ${madeOnce.cache}), one call at a time, interleaved with the bare route / (keyed.mjs's bare: keyless, no database) and /api/status; wall time of each call with its body read, ms`,
        latency,
        p50Ratio: {
          goal: `≤ ${GOAL}× the bare route's p50`,
          keylessOverBare: ratio("image, keyless", "bare /"),
          keyedOverBare: ratio("image, publishable key", "bare /"),
          keylessOverStatus: ratio("image, keyless", "/api/status"),
        },
        fixtureRequestsDuringTheCalls: log.length - fixtureBefore,
      };
      out.cachedReply.withinGoal = out.cachedReply.p50Ratio.keylessOverBare <= GOAL;

      // 3. Bytes per logo, each size and format: a logo and the monogram (each variant made once, so each is a miss).
      const bytes = [];
      for (const [what, host] of [
        ["logo", "sizes.test"],
        ["monogram", "nologo.test"],
      ])
        for (const format of ["png", "webp"])
          for (const size of SIZES) {
            const r = must(await timed(image(host, { size, format }), fromPage), `${host} at ${size} ${format}`);
            bytes.push({ what, format, size, bytes: r.bytes, type: r.type, source: r.source, cache: r.cache, ms: r.ms });
          }
      const cell = (what, format, size) => bytes.find((b) => b.what === what && b.format === format && b.size === size);
      out.bytesPerLogo = {
        what: "bytes of the reply body per size and format (each made on its call), and ms of that call",
        source: { logo: `sizes.test/logo.png: 480×160 RGBA, ${sites.get("sizes.test").logo.length} bytes`, monogram: "nologo.test: a homepage without a logo" },
        sizes: SIZES.map((size) => ({
          size,
          logoPng: cell("logo", "png", size).bytes,
          logoWebp: cell("logo", "webp", size).bytes,
          monogramPng: cell("monogram", "png", size).bytes,
          monogramWebp: cell("monogram", "webp", size).bytes,
          ms: Object.fromEntries(
            ["logo", "monogram"].flatMap((w) => ["png", "webp"].map((f) => [`${w}${f === "png" ? "Png" : "Webp"}`, round(cell(w, f, size).ms)])),
          ),
        })),
        types: count(bytes.map((b) => `${b.what} ${b.format}: ${b.type}, x-logo-source ${b.source}, x-cache ${b.cache}`)),
      };
    });
  } finally {
    await fixtures.close();
    rmSync(STATE, { recursive: true, force: true });
  }
  out.machine.loadAverageAtEnd = loadavg().map((x) => round(x));
  out.seconds = Math.round((Date.now() - started) / 1000);
  return out;
}

/** The figures as a short table. */
export function logoTable(r) {
  const pad = (x, n) => String(x ?? "–").padStart(n);
  const lines = [
    `logo image (cpus ${r.machine.cpus}, load ${r.machine.loadAverageAtStart.join(" ")} → ${r.machine.loadAverageAtEnd.join(" ")}; ${r.seconds} s)`,
  ];
  lines.push(`  cached reply against the bare route, ${r.cachedReply.latency["bare /"].calls} calls each, one at a time, interleaved (ms):`);
  lines.push(`    ${"route".padEnd(26)}${pad("p50", 8)}${pad("p95", 8)}   x-cache`);
  for (const [k, f] of Object.entries(r.cachedReply.latency))
    lines.push(
      `    ${k.padEnd(26)}${pad(f.p50, 8)}${pad(f.p95, 8)}   ${f.xCache ? JSON.stringify(f.xCache) : ""}${Object.keys(f.statuses).join() !== "200" ? ` statuses ${JSON.stringify(f.statuses)}` : ""}`,
    );
  const q = r.cachedReply.p50Ratio;
  lines.push(
    `    p50 cached image / bare /: keyless ${q.keylessOverBare}×, with the key ${q.keyedOverBare}× (goal ≤ ${GOAL}×: ${r.cachedReply.withinGoal ? "met" : "NOT met"}); keyless / /api/status ${q.keylessOverStatus}×; fixture requests meanwhile ${r.cachedReply.fixtureRequestsDuringTheCalls}`,
  );
  const f = r.firstLookup;
  lines.push(
    `  first lookup, ${f.sites} sites: median ${f.medianMs} ms, p90 ${f.p90Ms}, ${f.minMs}–${f.maxMs} (to the homepage request ${f.medianSplitMs.toHomepageRequest}, homepage → logo request ${f.medianSplitMs.homepageToLogoRequest}, logo request → reply ${f.medianSplitMs.logoRequestToReply}); the server's first monogram ${f.firstImagesMs.monogram} ms, first logo ${f.firstImagesMs.logo} ms`,
  );
  lines.push(`  bytes per logo (${r.bytesPerLogo.source.logo}; monogram: ${r.bytesPerLogo.source.monogram}):`);
  lines.push(`    ${"size".padEnd(6)}${pad("logo png", 10)}${pad("logo webp", 11)}${pad("mono png", 10)}${pad("mono webp", 11)}`);
  for (const s of r.bytesPerLogo.sizes)
    lines.push(`    ${String(s.size).padEnd(6)}${pad(s.logoPng, 10)}${pad(s.logoWebp, 11)}${pad(s.monogramPng, 10)}${pad(s.monogramWebp, 11)}`);
  return lines.join("\n");
}

if (process.argv[1] === SELF && process.argv[2] === "--serve") {
  await serveWorker(JSON.parse(process.argv[3]));
} else if (process.argv[1] === SELF) {
  const r = await benchLogos();
  console.log(logoTable(r));
  console.log(JSON.stringify(r, null, 2));
  process.exit(0);
}
