// npm run test:browser (also run by npm test): the pages for people, in a real browser (Debian's chromium,
// driven by puppeteer-core), against the app served locally by wrangler dev on a free port with its own
// database. Checks: the landing page and its links; the API reference lists every operation of
// /openapi.json and "try it" answers 200 with a key; the sign-up page issues a working key from the codes in
// the server log; the status page; axe-core finds no violation on any page; no request leaves the local
// origin; no Content-Security-Policy violation. Screenshots go to .browser-test/screens/.
// Stops exactly what it started (the server's process group, the browser it launched).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
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
  const open = async () => {
    const page = await browser.newPage();
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
