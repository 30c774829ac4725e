// npm run test:browser (also run by npm test): the pages for people, in a real browser (Debian's chromium,
// driven by puppeteer-core), against the app served locally by wrangler dev on a free port with its own
// database. Checks: the landing page and its links; the API reference lists every operation of
// /openapi.json and "try it" answers 200 with a key; the sign-up page issues a working key from the codes in
// the server log; the status page; axe-core finds no violation on any page; no request leaves the local
// origin; no Content-Security-Policy violation; a table of 60 company logos (the logo image, from fixture sites served
// by this script) renders in <img> tags, and a second load from an empty browser cache is served from the API's cache.
// Screenshots go to .browser-test/screens/.
// Stops exactly what it started (the server's process group, the browser it launched, its own fixture server).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { hsl, png } from "./fixtures/png.mjs";
import { ingest } from "./ingest.mjs";
import { ROOT, devConfigArgs, freePort, migrateLocal, waitFor, wranglerEnv } from "./lib.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const OUT = join(ROOT, ".browser-test");
const SCREENS = join(OUT, "screens");
const STATE = join(OUT, "state");
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const failures = [];
const passed = [];
async function check(name, fn) {
  try {
    await fn();
    passed.push(name);
    console.log(`  ✓ ${name}`);
  } catch (e) {
    failures.push(`${name}: ${e?.message ?? e}`);
    console.log(
      `  ✗ ${name}\n      ${String(e?.message ?? e)
        .split("\n")
        .join("\n      ")}`,
    );
  }
}
const assert = (ok, message) => {
  if (!ok) throw new Error(message);
};

if (!existsSync(CHROMIUM)) {
  // CI sets REQUIRE_BROWSER=1 (and installs Debian's chromium), so there a missing browser fails the run.
  const why = `no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.REQUIRE_BROWSER) {
    console.error(`Browser tests: ${why}.`);
    process.exit(1);
  }
  console.log(`Browser tests skipped: ${why}.`);
  process.exit(0);
}

// ---- fixture sites for the logo image: site01.test … site60.test, served by one local server ----------------------
// The Worker reaches them through its TEST-ONLY fixture origin (SAFE_FETCH_TEST_ORIGIN): a fetch for one of the
// SAFE_FETCH_TEST_HOSTS goes to this server, the host in the x-fixture-host header. Each site's logo is a real PNG of a
// colour of its own, so a logo in the wrong row of the table shows as the wrong colour.

// 120×60 with a 10-pixel transparent margin: made into a 64×64 square, the logo is fitted (64×32, centred), so the
// centre pixel is the site's colour and the corners are transparent. Hues 6° apart: every site's colour is its own.
const LOGO_MARGIN = 10;
const SITES = Array.from({ length: 60 }, (_, i) => {
  const n = String(i + 1).padStart(2, "0");
  const rgb = hsl(i * 6, 0.7, 0.45);
  const logo = png(120, 60, (x, y) => (x < LOGO_MARGIN || y < LOGO_MARGIN || x >= 120 - LOGO_MARGIN || y >= 60 - LOGO_MARGIN ? [0, 0, 0, 0] : [...rgb, 255]));
  const home = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site ${n} Ltd</title></head><body><header><a href="/"><img class="logo" src="/logo.png" alt="Site ${n} Ltd"></a></header><main><h1>Site ${n} Ltd</h1><p>Fixture site ${n}.</p></main></body></html>`;
  return { n, host: `site${n}.test`, name: `Site ${n} Ltd`, rgb, logo, home };
});
// A site whose logo is an SVG with a script, an event handler and an external image: served by the logo image with
// format=svg as the site published it, opened directly in the browser, none of that may run or load.
const SVG_SITE = "vector.test";
const SVG_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100" onload="document.title='onload ran'"><script>document.title = "script ran"; fetch("/svg-script-ran");</script><rect width="200" height="100" fill="#c0392b"/><image href="/svg-image-loaded.png" width="10" height="10"/></svg>`;
const SVG_HOME = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vector Ltd</title></head><body><header><a href="/"><img class="logo" src="/logo.svg" alt="Vector Ltd"></a></header></body></html>`;
const SITE_BY_HOST = new Map(SITES.map((s) => [s.host, s]));
/** Requests the fixture server received, by "host path". */
const fixtureHits = new Map();
const fixtures = createServer((req, res) => {
  const host = String(req.headers["x-fixture-host"] ?? "").toLowerCase();
  const path = new URL(req.url, "http://fixture").pathname;
  fixtureHits.set(`${host} ${path}`, (fixtureHits.get(`${host} ${path}`) ?? 0) + 1);
  const site = SITE_BY_HOST.get(host);
  if (host === SVG_SITE && (path === "/" || path === "/logo.svg")) {
    const [type, text] = path === "/" ? ["text/html; charset=utf-8", SVG_HOME] : ["image/svg+xml", SVG_LOGO];
    return res.writeHead(200, { "content-type": type }).end(text);
  }
  const [type, body] = !site ? [] : path === "/" ? ["text/html; charset=utf-8", Buffer.from(site.home)] : path === "/logo.png" ? ["image/png", site.logo] : [];
  if (!body) return res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
  res.writeHead(200, { "content-type": type, "content-length": body.length }).end(req.method === "HEAD" ? undefined : body);
});
await new Promise((resolve, reject) => fixtures.once("error", reject).listen(0, "127.0.0.1", resolve));
const fixtureOrigin = `http://127.0.0.1:${fixtures.address().port}`;

rmSync(OUT, { recursive: true, force: true });
mkdirSync(SCREENS, { recursive: true });
console.log("Browser tests: preparing a database of their own…");
migrateLocal(STATE);
await ingest("sponsors", join(ROOT, "test/fixtures/sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv"), {
  persistTo: STATE,
  quiet: true,
  sample: true,
});

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const log = [];
const server = spawn(
  process.execPath,
  [
    join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    ...devConfigArgs(),
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--persist-to",
    STATE,
    "--var",
    "ENVIRONMENT:development",
    "--var",
    "BROWSER_KEEP_ALIVE_MS:0",
    // TEST-ONLY: the logo image's fixture sites, reached at this script's fixture server.
    "--var",
    `SAFE_FETCH_TEST_HOSTS:${[...SITES.map((s) => s.host), SVG_SITE].join(",")}`,
    "--var",
    `SAFE_FETCH_TEST_ORIGIN:${fixtureOrigin}`,
  ],
  { cwd: ROOT, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"], detached: true },
);
for (const s of [server.stdout, server.stderr]) s.on("data", (d) => log.push(...String(d).split("\n")));
let browser;
const stop = async () => {
  await browser?.close().catch(() => {});
  try {
    process.kill(-server.pid, "SIGTERM"); // the server's own process group: wrangler and the workerd it started
  } catch {
    // already gone
  }
  await new Promise((r) => {
    fixtures.close(r);
    fixtures.closeAllConnections();
  });
};
process.on("SIGINT", () => stop().then(() => process.exit(130)));

try {
  await waitFor(`${base}/api/status`, 120_000);
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
  });
  const outside = [];
  const cspViolations = [];
  /** A new page (in `context`: the browser's default one unless given), watched for requests elsewhere and CSP reports. */
  const open = async (context = browser) => {
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on("request", (r) => {
      const u = r.url();
      if (!u.startsWith(base) && !u.startsWith("data:") && !u.startsWith("blob:") && !u.startsWith("about:")) outside.push(u);
    });
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(`${page.url()}: ${m.text()}`);
    });
    return page;
  };
  const axe = async (page, name) => {
    await page.evaluate(AXE); // through the DevTools protocol: the page's CSP does not apply to it
    const violations = await page.evaluate(async () => {
      const r = await globalThis.axe.run(document, { resultTypes: ["violations"] });
      return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0]?.target?.join(" ")} — ${v.help}`);
    });
    assert(violations.length === 0, `axe found ${violations.length} violation(s) on ${name}:\n${violations.join("\n")}`);
  };
  const shot = (page, name) => page.screenshot({ path: join(SCREENS, `${name}.png`), fullPage: false });

  console.log(`Browser tests against ${base} with ${CHROMIUM}:`);
  const page = await open();

  await check("landing page: renders for a browser, and every link on it works", async () => {
    const res = await page.goto(`${base}/`, { waitUntil: "networkidle0" });
    assert(res.status() === 200 && /text\/html/.test(res.headers()["content-type"]), `/ answered ${res.status()} ${res.headers()["content-type"]}`);
    const h1 = await page.$eval("h1", (e) => e.textContent);
    assert(/API/.test(h1), `unexpected heading ${h1}`);
    await shot(page, "landing");
    const links = await page.$$eval("a[href]", (as) => [...new Set(as.map((a) => a.getAttribute("href")))]);
    assert(links.length >= 8, `only ${links.length} links`);
    for (const href of links) {
      const u = new URL(href, base);
      assert(u.origin === base, `link leaves the site: ${href}`);
      const r = await fetch(u, { headers: { accept: "text/html" } });
      assert(r.status < 400, `link ${href} answered ${r.status}`);
    }
    await axe(page, "the landing page");
  });

  await check("API clients keep the JSON at /", async () => {
    const r = await fetch(`${base}/`, { headers: { accept: "application/json" } });
    assert(r.status === 200 && (await r.json()).mcp === "/mcp", "no JSON at / for an API client");
  });

  let apiKey = null;
  await check("sign-up page: a wrong code is said plainly; the right codes from the server log issue a key that answers late-payment", async () => {
    await page.goto(`${base}/signup`, { waitUntil: "networkidle0" });
    await axe(page, "the sign-up page");
    await shot(page, "signup-1-contact");
    const email = `browser-${Date.now()}@example.co.uk`;
    const mobile = `077009${String(Date.now()).slice(-5)}`;
    await page.type("#email", email);
    await page.type("#mobile", mobile);
    await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), page.click("button[type=submit]")]);
    assert((await page.$eval("h1", (e) => e.textContent)) === "Enter the two codes", "no codes form");
    await axe(page, "the codes form");
    await shot(page, "signup-2-codes");
    const codeFor = (to, re) => {
      const line = log.filter((l) => l.includes(`"to":"${to}"`)).at(-1);
      const m = line && re.exec(line);
      assert(m, `no code for ${to} in the server log`);
      return m[1];
    };
    const emailCode = codeFor(email, /email code is (\d{6})/);
    const mobileCode = codeFor(`+44${mobile.slice(1)}`, /code: (\d{6})/);
    // A wrong email code first: the page says which code is wrong, at the top and beside the field.
    const wrong = String((Number(emailCode) + 1) % 1_000_000).padStart(6, "0");
    await page.type("#emailCode", wrong);
    await page.type("#mobileCode", mobileCode);
    await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), page.click("button[type=submit]")]);
    const alert = await page.$eval("[role=alert]", (e) => e.textContent);
    assert(/email code does not match/.test(alert), `error summary says: ${alert}`);
    assert((await page.$eval("#emailCode", (e) => e.getAttribute("aria-invalid"))) === "true", "the wrong field is not marked");
    await axe(page, "the codes form with an error");
    await shot(page, "signup-2b-wrong-code");
    await page.type("#emailCode", emailCode);
    await page.$eval("#mobileCode", (e) => (e.value = ""));
    await page.type("#mobileCode", mobileCode);
    await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), page.click("button[type=submit]")]);
    apiKey = (await page.$eval("#api-key", (e) => e.textContent)).trim();
    assert(/^ukbi_/.test(apiKey), `no key on the page: ${apiKey}`);
    assert(await page.$eval("#copy-key", (e) => !e.hidden), "the copy button is not shown");
    await axe(page, "the key page");
    await shot(page, "signup-3-key");
    const r = await fetch(`${base}/api/v1/late-payment?amount=2400&due=2026-01-15&paid=2026-02-05`, { headers: { "x-api-key": apiKey } });
    assert(r.status === 200, `late-payment with the new key answered ${r.status}`);
  });

  await check("API reference: lists every operation of /openapi.json, and try it with the key answers 200", async () => {
    const doc = await (await fetch(`${base}/openapi.json`)).json();
    const summaries = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.summary));
    await page.goto(`${base}/docs`, { waitUntil: "networkidle0" });
    await page.waitForSelector(".show-api-client-button", { timeout: 20_000 });
    await shot(page, "docs");
    const text = await page.evaluate(() => document.body.innerText);
    const missing = summaries.filter((s) => !text.includes(s));
    assert(missing.length === 0, `not listed: ${missing.join("; ")}`);
    await axe(page, "the API reference");
    assert(apiKey, "no key from the sign-up check");
    await page.goto(`${base}/docs#tag/money/GET/api/v1/late-payment`, { waitUntil: "networkidle0" });
    const auth = await page.waitForSelector("input[id^=scalar-refs]", { timeout: 20_000 });
    // The key field starts empty, with a hint in place of the renderer's demo token (the page's script swaps it).
    await page
      .waitForFunction(() => document.querySelector("input[id^=scalar-refs]")?.getAttribute("placeholder")?.startsWith("Your key"), { timeout: 5_000 })
      .catch(() => {});
    const field = await auth.evaluate((i) => ({ value: i.value, placeholder: i.getAttribute("placeholder") }));
    assert(field.value === "" && /^Your key \(ukbi_…\)/.test(field.placeholder ?? ""), `the key field starts as ${JSON.stringify(field)}`);
    await auth.type(apiKey);
    const open = await page.waitForSelector("xpath/.//button[contains(., 'Test Request') and contains(., 'late-payment')]");
    await open.click();
    // The client's own Send button, in its dialog (a sidebar entry may start with "Send" too: "Send a test event").
    const send = await page.waitForSelector("xpath/.//*[@role='dialog']//button[starts-with(normalize-space(.), 'Send')]", { timeout: 20_000 });
    const [reply] = await Promise.all([page.waitForResponse((r) => r.url().includes("/api/v1/late-payment"), { timeout: 20_000 }), send.click()]);
    await new Promise((r) => setTimeout(r, 500));
    await shot(page, "docs-try-it");
    assert(reply.status() === 200, `try it answered ${reply.status()}: ${(await reply.text()).slice(0, 300)}`);
  });

  await check("status page: the sources and registers of /api/status, with edition dates", async () => {
    await page.goto(`${base}/status`, { waitUntil: "networkidle0" });
    const text = await page.evaluate(() => document.body.innerText);
    assert(/sponsors/.test(text) && /edition 2026-06-26/.test(text), "the sponsors register and its edition are not shown");
    await axe(page, "the status page");
    await shot(page, "status");
  });

  await check("logo image: an SVG logo served as published (format=svg), opened directly, runs no script and loads nothing", async () => {
    const url = `${base}/api/v1/company-logo/image?domain=${SVG_SITE}&format=svg`;
    // A context of its own, not watched for CSP reports: the reply's own policy is meant to block the SVG's image.
    const context = await browser.createBrowserContext();
    try {
      const svgPage = await context.newPage();
      const dialogs = [];
      const requests = [];
      const answered = [];
      const failed = [];
      svgPage.on("request", (r) => requests.push(r.url()));
      svgPage.on("response", (r) => answered.push(r.url()));
      svgPage.on("requestfailed", (r) => failed.push(`${r.url()} ${r.failure()?.errorText ?? ""}`));
      svgPage.on("dialog", (d) => {
        dialogs.push(d.message());
        d.dismiss().catch(() => {});
      });
      const res = await svgPage.goto(url, { waitUntil: "networkidle0" });
      const headers = res.headers();
      assert(res.status() === 200 && headers["content-type"] === "image/svg+xml", `${url} answered ${res.status()} ${headers["content-type"]}`);
      assert(
        /sandbox/.test(headers["content-security-policy"] ?? "") && headers["x-content-type-options"] === "nosniff",
        `headers: ${JSON.stringify(headers)}`,
      );
      const title = await svgPage.evaluate(() => document.title).catch(() => "");
      assert(!/ran/.test(title), `the SVG's script ran: the title is ${title}`);
      assert(dialogs.length === 0, `dialogs: ${dialogs.join(", ")}`);
      // Its script never ran (its fetch was never even asked for); its <image> was stopped by the reply's policy before
      // it left the browser (no response, a failure), and nothing it names reached the fixture site.
      assert(!requests.some((u) => /svg-script-ran/.test(u)), `the SVG's script asked for: ${requests.join(", ")}`);
      const loaded = [...answered, ...fixtureHits.keys()].filter((k) => /svg-(script-ran|image-loaded)/.test(k));
      assert(loaded.length === 0, `the SVG loaded: ${loaded.join(", ")}`);
      assert(answered.length === 1 && answered[0] === url, `the page had answers from: ${answered.join(", ")}`);
      const stopped = requests.filter((u) => u !== url);
      assert(
        stopped.every((u) => failed.some((f) => f.startsWith(u))),
        `requests the policy did not stop: ${stopped.join(", ")} (failures: ${failed.join(", ")})`,
      );
      await svgPage.screenshot({ path: join(SCREENS, "logo-svg-direct.png") });
    } finally {
      await context.close();
    }
  });

  await check("logo image: a table of 60 company logos renders in <img> tags; a second load asks no fixture site and meets no limit", async () => {
    assert(apiKey, "no key from the sign-up check");
    // A publishable key for the page's origin: here the API's own (the table is shown on a page at ${base}/).
    const made = await fetch(`${base}/api/v1/account/publishable-keys`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ origins: [base], label: "browser test" }),
    });
    const pk = made.status === 201 ? (await made.json()).key : null;
    assert(/^pk_/.test(pk ?? ""), `creating a publishable key answered ${made.status}: ${pk ?? (await made.text()).slice(0, 300)}`);
    const src = (site, key) => `${base}/api/v1/company-logo/image?domain=${site.host}&amp;size=64${key ? `&amp;key=${key}` : ""}`;
    // The site's own pages send Referrer-Policy: no-referrer, which would hide the page's origin from the key check; a
    // customer's page has the browser's default (strict-origin-when-cross-origin), given here on each <img>.
    const table = (key) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Suppliers</title></head><body><main><h1>Suppliers</h1><table><caption>60 suppliers and their logos</caption><thead><tr><th scope="col">Logo</th><th scope="col">Company</th><th scope="col">Website</th></tr></thead><tbody>${SITES.map(
        (s) =>
          `<tr><td><img width="64" height="64" alt="${s.name}" referrerpolicy="strict-origin-when-cross-origin" src="${src(s, key)}"></td><td>${s.name}</td><td>${s.host}</td></tr>`,
      ).join("")}</tbody></table></main></body></html>`;
    /** Loads the table in a page of `context`: the image replies (status, type, x-cache) and each image's size, in row order. */
    const load = async (context, key) => {
      const p = await open(context);
      const replies = [];
      p.on("response", (r) => {
        if (r.url().includes("/api/v1/company-logo/image"))
          replies.push({ url: r.url(), status: r.status(), type: r.headers()["content-type"], cache: r.headers()["x-cache"] });
      });
      await p.goto(`${base}/`, { waitUntil: "networkidle0" }); // the page's URL, hence the Referer, is ${base}/
      const t = performance.now();
      await p.setContent(table(key), { waitUntil: "load", timeout: 120_000 });
      await p.waitForFunction(() => [...document.images].every((i) => i.complete), { timeout: 120_000 });
      const ms = Math.round(performance.now() - t);
      // A response event may arrive a moment after its image is complete.
      for (let i = 0; i < 20 && replies.length < SITES.length; i++) await new Promise((r) => setTimeout(r, 100));
      const images = await p.$$eval("img", (imgs) => imgs.map((i) => ({ alt: i.alt, w: i.naturalWidth, h: i.naturalHeight })));
      return { p, replies, images, ms };
    };
    const rendered = (images) => {
      assert(images.length === SITES.length, `${images.length} images in the table`);
      const bad = images.filter((im, i) => im.alt !== SITES[i].name || im.w !== 64 || im.h !== 64);
      assert(bad.length === 0, `not 64×64: ${bad.map((im) => `${im.alt} ${im.w}×${im.h}`).join(", ")}`);
    };
    const hits = () => JSON.stringify([...fixtureHits].sort());

    // 1. First load, with the key: every logo is looked up once (homepage, then its logo), made and stored.
    const first = await load(browser, pk);
    rendered(first.images);
    assert(first.replies.length === SITES.length, `${first.replies.length} image replies for ${SITES.length} images`);
    const wrong = first.replies.filter((r) => r.status !== 200 || r.type !== "image/png");
    assert(wrong.length === 0, `image replies not 200 image/png: ${wrong.map((r) => `${r.status} ${r.type} ${r.url}`).join("; ")}`);
    // Exactly one homepage and one logo request per site (60 + 60), and nothing else.
    const expected = SITES.flatMap((s) => [`${s.host} /`, `${s.host} /logo.png`]);
    const missing = expected.filter((k) => !fixtureHits.has(k));
    // (the SVG check's site, vector.test, is its own)
    const extra = [...fixtureHits].filter(([k, n]) => !k.startsWith(`${SVG_SITE} `) && (n !== 1 || !expected.includes(k))).map(([k, n]) => `${k} ×${n}`);
    assert(
      missing.length === 0 && extra.length === 0,
      `the fixture server should see one / and one /logo.png per site; not asked: ${missing.join(", ") || "none"}; asked otherwise: ${extra.join(", ") || "none"}`,
    );
    // The right logo in the right row: each image's centre is its own site's colour, its corners transparent.
    const pixels = await first.p.evaluate(() =>
      [...document.images].map((img) => {
        const c = document.createElement("canvas");
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const g = c.getContext("2d", { willReadFrequently: true });
        g.drawImage(img, 0, 0);
        return { centre: [...g.getImageData(32, 32, 1, 1).data], corner: [...g.getImageData(0, 0, 1, 1).data] };
      }),
    );
    const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 4);
    const off = pixels
      .map((px, i) => ({ px, site: SITES[i] }))
      .filter(({ px, site }) => !near(px.centre, [...site.rgb, 255]) || px.corner[3] !== 0)
      .map(({ px, site }) => `${site.name}: centre ${px.centre} (its colour ${site.rgb}), corner alpha ${px.corner[3]}`);
    assert(off.length === 0, `logos not their site's own colour:\n${off.join("\n")}`);
    await first.p.evaluate(() => window.scrollTo(0, 0));
    await shot(first.p, "logos-table");
    await first.p.close();

    // 2. Second load: a new incognito context (an empty HTTP cache, so every image is asked of the API again), keyless
    // (the per-IP limit of 30 a minute, below the 60 asked): every logo comes from the API's cache, reads no site and
    // counts against no limit.
    const before = hits();
    const context = await browser.createBrowserContext();
    try {
      const second = await load(context, null);
      rendered(second.images);
      assert(second.replies.length === SITES.length, `${second.replies.length} image replies for ${SITES.length} images on the second load`);
      const notCached = second.replies.filter((r) => r.status !== 200 || r.type !== "image/png" || !["hit", "stored"].includes(r.cache));
      assert(
        notCached.length === 0,
        `second load, replies not 200 image/png from the cache: ${notCached.map((r) => `${r.status} ${r.type} x-cache ${r.cache} ${r.url}`).join("; ")}`,
      );
      assert(hits() === before, `the second load reached the fixture sites: ${before} → ${hits()}`);
      console.log(
        `      (first load ${first.ms} ms, second load ${second.ms} ms; second x-cache: ${[...new Set(second.replies.map((r) => r.cache))].join(", ")})`,
      );
    } finally {
      await context.close();
    }
  });

  await check("no request left the local origin, and no page broke its Content-Security-Policy", async () => {
    assert(outside.length === 0, `requests to elsewhere: ${[...new Set(outside)].join(", ")}`);
    assert(cspViolations.length === 0, cspViolations.join("\n"));
  });
} catch (e) {
  failures.push(`set-up: ${e?.stack ?? e}`);
  console.log(log.slice(-40).join("\n"));
} finally {
  await stop();
}

console.log(`\nBrowser tests: ${passed.length} passed, ${failures.length} failed. Screenshots in .browser-test/screens/.`);
if (failures.length) {
  console.log(failures.map((f) => `- ${f}`).join("\n"));
  process.exit(1);
}
