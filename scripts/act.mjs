// npm run act: the accessibility audit's conformance to the W3C ACT rules. The ACT test cases saved in
// ../shared/corpora/act-rules are served from a local HTTP server on 127.0.0.1, each is loaded in Debian's chromium
// (driven by puppeteer-core), and axe-core is run in it with exactly the audit's options
// (src/services/web/accessibility/axeOptions.ts). Our outcome per case is compared with the ACT expected outcome, and
// axe-core's own published implementation report on the same cases is scored the same way.
//
// Before the browser part, a Node-side check of the rule table: every axe rule the audit's tags run has a plain fix
// and maps to at least one WCAG success criterion (src/services/web/accessibility/wcag.ts).
//
// Exits 1 when the rule table check fails or when a rule of CLAIMED_ACT_RULES (actRules.ts) is not run, agrees on
// fewer than 95% of its cases, or agrees less than the published axe-core report; 0 otherwise. Without ../shared, or
// without a browser (unless REQUIRE_BROWSER is set), it says so and exits 0. The JSON report goes to .act/report.json.
// AXE_PATH=<axe.min.js> runs another axe-core build (to compare versions; the default is the installed one);
// ACT_PAGES=<n> sets how many pages run cases side by side (default 4). No request leaves 127.0.0.1.
// Stops exactly what it started (its server, its browser) when done, on failure and on SIGINT/SIGTERM.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { extname, join, normalize, sep } from "node:path";
import { importTs, ROOT } from "./lib.mjs";

const require = createRequire(import.meta.url);
const started = Date.now();
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ACT_DIR = join(ROOT, "..", "shared", "corpora", "act-rules");
const OUT = join(ROOT, ".act");
const PAGES = Math.max(1, Number(process.env.ACT_PAGES) || 4);
const GOTO_TIMEOUT_MS = 5_000;
const AXE_TIMEOUT_MS = 20_000;
const PASS_MARK = 95;
const PREFIX = "/WAI/content-assets/wcag-act-rules/";

const { AXE_TAGS, AXE_RUN_OPTIONS } = await importTs("src/services/web/accessibility/axeOptions.ts");
const { FIXES, criteriaOfTags } = await importTs("src/services/web/accessibility/wcag.ts");
const { CLAIMED_ACT_RULES } = await importTs("src/services/web/accessibility/actRules.ts");

// ---- 1. The rule table, from Node: each rule the audit's tags select has a fix and a WCAG criterion. ----------------
// getRules(tags) also lists the experimental and deprecated rules, which axe.run skips unless asked for by name; they
// are checked too (the browser run below checks the rules axe.run did run).
const axeNode = require("axe-core");
const tagsOf = new Map(axeNode.getRules().map((r) => [r.ruleId, r.tags]));
const tagged = axeNode.getRules([...AXE_TAGS]);
const skipped = tagged.filter((r) => r.tags.includes("experimental") || r.tags.includes("deprecated")).map((r) => r.ruleId);
const tableProblems = [];
const checkRule = (id) => {
  const problems = [];
  if (!Object.hasOwn(FIXES, id)) problems.push(`${id}: no plain fix in wcag.ts FIXES`);
  if (criteriaOfTags(tagsOf.get(id) ?? []).length === 0) problems.push(`${id}: tags ${(tagsOf.get(id) ?? []).join(",")} name no criterion of WCAG_CRITERIA`);
  return problems;
};
for (const r of tagged) tableProblems.push(...checkRule(r.ruleId));
console.log(
  `Rule table: axe-core ${axeNode.version}: ${tagged.length} rules carry the audit's tags (${tagged.length - skipped.length} run by axe.run; skipped as experimental or deprecated: ${skipped.join(", ")}); ` +
    (tableProblems.length ? `${tableProblems.length} problem(s):` : "each has a plain fix and a WCAG criterion."),
);
for (const p of tableProblems) console.log(`  ✗ ${p}`);

// ---- 2. What is needed for the conformance run. -----------------------------------------------------------------------
if (!existsSync(join(ACT_DIR, "testcases-subset.json"))) {
  console.log("ACT conformance run skipped: ../shared/corpora/act-rules is not there (no test cases).");
  process.exit(tableProblems.length ? 1 : 0);
}
if (!existsSync(CHROMIUM)) {
  const why = `no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.REQUIRE_BROWSER) {
    console.error(`ACT conformance run: ${why}.`);
    process.exit(1);
  }
  console.log(`ACT conformance run skipped: ${why}.`);
  process.exit(tableProblems.length ? 1 : 0);
}
const { default: puppeteer } = await import("puppeteer-core");

const AXE_FILE = process.env.AXE_PATH ?? require.resolve("axe-core/axe.min.js");
const AXE_SOURCE = readFileSync(AXE_FILE, "utf8");
const { testcases } = JSON.parse(readFileSync(join(ACT_DIR, "testcases-subset.json"), "utf8"));
const published = JSON.parse(readFileSync(join(ACT_DIR, "implementations", "axe-core.json"), "utf8"));
const mappingOf = new Map(published.actRuleMapping.map((m) => [m.ruleId, m]));

// ---- 3. The local server: /WAI/content-assets/wcag-act-rules/{testcases,test-assets}/… from the saved files. ---------
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".xml": "application/xml",
  ".xhtml": "application/xhtml+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".mp3": "audio/mpeg",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".vtt": "text/vtt; charset=utf-8",
  ".pdf": "application/pdf",
};
/** Paths answered 404 (an asset not saved in ../shared), each with the pages that asked for it. */
const missing = new Map();
const fileFor = (pathname) => {
  if (!pathname.startsWith(PREFIX)) return null;
  let rest;
  try {
    rest = normalize(decodeURIComponent(pathname.slice(PREFIX.length)));
  } catch {
    return null; // malformed escape
  }
  if (!/^(testcases|test-assets)[/\\]/.test(rest)) return null;
  const file = join(ACT_DIR, rest);
  if (!file.startsWith(ACT_DIR + sep)) return null;
  return existsSync(file) && statSync(file).isFile() ? file : null;
};
const server = createServer((req, res) => {
  const { pathname } = new URL(req.url, "http://127.0.0.1");
  const file = fileFor(pathname);
  if (!file) {
    if (pathname === "/favicon.ico") return void res.writeHead(404).end(); // the browser's own request
    if (!missing.has(pathname)) missing.set(pathname, new Set());
    if (req.headers.referer) missing.get(pathname).add(new URL(req.headers.referer).pathname);
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not saved\n");
    return;
  }
  res.writeHead(200, { "content-type": TYPES[extname(file).toLowerCase()] ?? "application/octet-stream", "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : readFileSync(file));
});

let browser;
let stopping;
const stop = () =>
  (stopping ??= (async () => {
    if (browser) {
      const proc = browser.process();
      await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
      if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
    }
    server.closeAllConnections();
    if (server.listening) await new Promise((r) => server.close(r));
  })());
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.once(sig, () => {
    console.error(`\n${sig}: stopping the browser and the server.`);
    stop().finally(() => process.exit(130));
  });
}

const withTimeout = (p, ms, what) => {
  let t;
  return Promise.race([p, new Promise((_, reject) => (t = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(t),
  );
};

let exitCode = 0;
try {
  await new Promise((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--mute-audio", "--autoplay-policy=no-user-gesture-required"],
  });
  const axeVersion = AXE_SOURCE.match(/axe v([\d.]+)/)?.[1] ?? "unknown";
  const scorable = testcases.filter((t) => mappingOf.get(t.ruleId)?.procedureNames.length);
  console.log(
    `ACT conformance: ${testcases.length} cases of ${new Set(testcases.map((t) => t.ruleId)).size} rules (${scorable.length} with an axe-core procedure loaded), axe-core ${axeVersion}${process.env.AXE_PATH ? ` (${AXE_FILE})` : ""}, ${await browser.version()}, ${PAGES} pages at ${base}`,
  );

  // One page per worker; each case: load, inject axe through the DevTools protocol, run with the audit's options.
  const results = new Map(); // testcase key → { violations: {id: nodes}, incomplete: {id: nodes}, ran: [ids], error? }
  const current = new Map(); // page → case key (for requests leaving 127.0.0.1)
  const outside = new Map(); // case key → blocked outside URLs
  const openPage = async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 1024 });
    await page.setRequestInterception(true);
    // axe is put in every document the page loads, before its own scripts (sent to the browser once, not per case).
    await page.evaluateOnNewDocument(AXE_SOURCE);
    let topNavigations = 0;
    page.on("request", (r) => {
      const u = r.url();
      // The first navigation of the top document is the case's; a later one (meta refresh, a script's location
      // change) would replace it: dropped with net::ERR_ABORTED, which leaves the loaded document in place.
      if (r.isNavigationRequest() && r.frame() === page.mainFrame() && ++topNavigations > 1) return r.abort("aborted");
      if (u.startsWith(`${base}/`) || /^(data|blob|about):/.test(u)) return r.continue();
      const key = current.get(page);
      if (key) (outside.get(key) ?? outside.set(key, []).get(key)).push(u);
      return r.abort("blockedbyclient");
    });
    return { page, newCase: () => (topNavigations = 0) };
  };
  const runCase = async ({ page, newCase }, t) => {
    const key = `${t.ruleId}/${t.testcaseId}`;
    current.set(page, key);
    const url = `${base}/WAI/content-assets/wcag-act-rules/${t.relativePath}`;
    newCase();
    const t0 = Date.now();
    try {
      const res = await page.goto(url, { waitUntil: "load", timeout: GOTO_TIMEOUT_MS }).catch((e) => {
        if (/timeout/i.test(String(e?.message))) return null; // a slow subresource: audit what is there
        throw e;
      });
      if (res && res.status() !== 200) throw new Error(`case answered ${res.status()}`);
      if (!(await page.evaluate(() => typeof globalThis.axe?.run === "function"))) await page.evaluate(AXE_SOURCE);
      const r = await withTimeout(
        page.evaluate(async (options) => {
          const out = await globalThis.axe.run(document, options);
          const count = (list) => Object.fromEntries(list.map((x) => [x.id, x.nodes.length]));
          return {
            violations: count(out.violations),
            incomplete: count(out.incomplete),
            ran: [...out.violations, ...out.incomplete, ...out.passes, ...out.inapplicable].map((x) => x.id),
          };
        }, AXE_RUN_OPTIONS),
        AXE_TIMEOUT_MS,
        "axe.run",
      );
      results.set(key, { ...r, ms: Date.now() - t0 });
    } catch (e) {
      results.set(key, { violations: {}, incomplete: {}, ran: [], error: String(e?.message ?? e).split("\n")[0] });
    } finally {
      current.delete(page);
    }
  };
  // Cases of ACT rules with no axe-core procedure in the published report are not loaded: nothing could be scored.
  const queue = [...scorable];
  const workers = await Promise.all(Array.from({ length: PAGES }, openPage));
  await Promise.all(
    workers.map(async (w) => {
      for (let t = queue.shift(); t; t = queue.shift()) await runCase(w, t);
    }),
  );

  // ---- 4. Scoring. ---------------------------------------------------------------------------------------------------
  const ranByAudit = new Set([...results.values()].flatMap((r) => r.ran));
  // The rules axe.run ran in the browser (another build with AXE_PATH may run rules the installed one lacks).
  const browserTags = await workers[0].page.evaluate(() => globalThis.axe?.getRules().map((r) => [r.ruleId, r.tags]) ?? []).catch(() => []);
  for (const [id, tags] of browserTags) if (!tagsOf.has(id)) tagsOf.set(id, tags);
  for (const id of ranByAudit) {
    if (tagged.some((r) => r.ruleId === id)) continue;
    for (const problem of checkRule(id)) {
      tableProblems.push(problem);
      console.log(`  ✗ ${problem} (run by axe.run)`);
    }
  }
  /**
   * axe-core's published outcome for a case: "failed" if any mapped procedure's outcome is failed; "untested" when no
   * procedure answered (cases added to ACT after the report); otherwise not failed (passed, inapplicable, cantTell).
   */
  const publishedOutcome = (mapping, testcaseId) => {
    const tc = mapping?.testCaseResults.find((x) => x.testcaseId === testcaseId);
    const outcomes = (tc?.procedureResults ?? []).flatMap((p) => p.outcomes).filter((o) => o !== "untested");
    if (outcomes.length === 0) return "untested";
    if (outcomes.includes("failed")) return "failed";
    return outcomes.includes("cantTell") ? "cantTell" : "passed";
  };
  const agrees = (expected, outcome) => (expected === "failed") === (outcome === "failed");
  const pct = (n, d) => (d ? Math.round((1000 * n) / d) / 10 : null);

  const rules = [];
  const byRule = new Map();
  for (const t of testcases) (byRule.get(t.ruleId) ?? byRule.set(t.ruleId, []).get(t.ruleId)).push(t);
  for (const [act, cases] of byRule) {
    const mapping = mappingOf.get(act);
    const axeRules = mapping?.procedureNames ?? [];
    const notRun = axeRules.filter((id) => !ranByAudit.has(id));
    const caseRows = cases.map((t) => {
      const r = results.get(`${act}/${t.testcaseId}`) ?? { violations: {}, incomplete: {}, ran: [], error: "not loaded (no axe-core procedure)" };
      const hit = axeRules.filter((id) => (r.violations[id] ?? 0) > 0);
      const review = axeRules.filter((id) => (r.incomplete[id] ?? 0) > 0);
      const ours = r.error ? "error" : hit.length ? "failed" : "passed";
      const pub = publishedOutcome(mapping, t.testcaseId);
      return {
        testcaseId: t.testcaseId,
        title: t.testcaseTitle,
        file: t.relativePath,
        expected: t.expected,
        ours,
        oursViolations: hit,
        oursIncomplete: review,
        oursAgrees: axeRules.length > 0 && !r.error && agrees(t.expected, ours),
        published: pub,
        publishedAgrees: pub === "untested" ? null : agrees(t.expected, pub),
        error: r.error,
        ms: r.ms,
        blockedOutside: outside.get(`${act}/${t.testcaseId}`),
      };
    });
    const answered = caseRows.filter((c) => c.publishedAgrees !== null);
    const ours = axeRules.length ? pct(caseRows.filter((c) => c.oursAgrees).length, cases.length) : null;
    const oursOnAnswered = pct(answered.filter((c) => c.oursAgrees).length, answered.length);
    const pub = pct(answered.filter((c) => c.publishedAgrees).length, answered.length);
    const why = !axeRules.length
      ? "no axe-core procedure in the published report"
      : notRun.length
        ? `not run by the audit's rule set: ${notRun.join(", ")}`
        : ours < PASS_MARK
          ? `below ${PASS_MARK}%`
          : pub !== null && oursOnAnswered < pub
            ? `below the published axe-core agreement on the ${answered.length} cases it answered (${oursOnAnswered}%)`
            : "";
    rules.push({
      act,
      name: cases[0].ruleName,
      axeRules,
      notRun,
      cases: cases.length,
      ours,
      publishedAnswered: answered.length,
      published: pub,
      oursOnPublishedAnswered: oursOnAnswered,
      claimable: !why,
      why,
      claimed: CLAIMED_ACT_RULES.some((c) => c.act === act),
      caseRows,
    });
  }
  rules.sort((a, b) => Number(b.claimable) - Number(a.claimable) || a.act.localeCompare(b.act));

  // ---- 5. The table, the totals, the report. ---------------------------------------------------------------------------
  const pad = (s, n) => String(s).padEnd(n).slice(0, n);
  const lpad = (s, n) => String(s).padStart(n);
  const p = (x) => (x === null ? "–" : `${x}%`);
  console.log(`
How a case is scored. Ours: "failed" when an axe rule mapped to the ACT rule (the published report's procedures) has a
violation with a node; otherwise not failed (axe "incomplete" is not failed). Expected passed and inapplicable are both
"not failed". Published axe-core ${published.version}: "failed" if any mapped procedure's outcome is failed; passed,
inapplicable and cantTell are not failed (the same reading as our incomplete); cases it did not test (added to ACT
later) are left out of its figure, which is over the cases it answered ("answered" column). A rule is claimable when
every mapped axe rule is run by the audit, ours ≥ ${PASS_MARK}% over all cases, and ours ≥ published on the cases it answered.
`);
  console.log(`${pad("ACT", 7)} ${pad("rule", 52)} ${lpad("cases", 5)} ${lpad("ours", 6)} ${lpad("pub", 6)} ${lpad("answered", 8)}  claimable  claimed`);
  for (const r of rules) {
    console.log(
      `${pad(r.act, 7)} ${pad(r.name.replace(/`/g, ""), 52)} ${lpad(r.cases, 5)} ${lpad(p(r.ours), 6)} ${lpad(p(r.published), 6)} ${lpad(r.publishedAnswered, 8)}  ${pad(r.claimable ? "yes" : "no", 9)}  ${r.claimed ? "yes" : "no"}${r.why ? `   (${r.why})` : ""}`,
    );
  }
  const claimedRows = rules.filter((r) => r.claimed);
  const count = (rows, f) => rows.reduce((n, r) => n + r.caseRows.filter(f).length, 0);
  const totalCases = claimedRows.reduce((n, r) => n + r.cases, 0);
  if (totalCases) {
    const o = count(claimedRows, (c) => c.oursAgrees);
    const ans = count(claimedRows, (c) => c.publishedAgrees !== null);
    const pa = count(claimedRows, (c) => c.publishedAgrees);
    const oa = count(claimedRows, (c) => c.publishedAgrees !== null && c.oursAgrees);
    console.log(
      `\nClaimed: ${claimedRows.length} ACT rules, ${totalCases} cases: ours ${o}/${totalCases} (${pct(o, totalCases)}%); on the ${ans} cases the published report answered: ours ${oa} (${pct(oa, ans)}%), published axe-core ${pa} (${pct(pa, ans)}%).`,
    );
  } else console.log("\nClaimed: none.");

  const disagreements = rules.flatMap((r) =>
    r.axeRules.length && !r.notRun.length ? r.caseRows.filter((c) => !c.oursAgrees).map((c) => ({ act: r.act, ...c })) : [],
  );
  if (disagreements.length) {
    console.log(`\nCases where ours disagrees (rules with a procedure run by the audit):`);
    for (const d of disagreements) {
      const extra = [
        d.error && `error: ${d.error}`,
        d.oursIncomplete.length && `incomplete: ${d.oursIncomplete.join(",")}`,
        d.oursViolations.length && `violation: ${d.oursViolations.join(",")}`,
      ]
        .filter(Boolean)
        .join("; ");
      console.log(
        `  ${d.act} ${pad(d.title, 24)} expected ${pad(d.expected, 12)} ours ${pad(d.ours, 7)} published ${pad(d.published, 8)} ${d.file}${extra ? `  [${extra}]` : ""}`,
      );
    }
  }
  const errors = [...results.entries()].filter(([, r]) => r.error); // cases loaded but not audited
  if (errors.length) console.log(`\n${errors.length} case(s) not audited: ${errors.map(([k, r]) => `${k}: ${r.error}`).join("; ")}`);
  if (missing.size) {
    console.log(`\nAssets not saved in ../shared (answered 404):`);
    for (const [path, pages] of missing) console.log(`  ${path} ← ${[...pages].map((p) => p.replace(PREFIX, "")).join(", ") || "(no referer)"}`);
  }

  // The claims: each must be run, ≥ 95% and ≥ the published agreement.
  const claimProblems = [];
  for (const c of CLAIMED_ACT_RULES) {
    const r = rules.find((x) => x.act === c.act);
    if (!r) claimProblems.push(`${c.act} ${c.name}: claimed but has no test case in the subset`);
    else if (!r.claimable) claimProblems.push(`${c.act} ${c.name}: claimed but ${r.why} (ours ${r.ours}%, published ${r.published}%)`);
    else if ([...c.axeRules].sort().join() !== [...r.axeRules].sort().join())
      claimProblems.push(`${c.act}: claimed axeRules ${c.axeRules.join(",")} differ from the report's ${r.axeRules.join(",")}`);
  }
  for (const p of claimProblems) console.log(`  ✗ ${p}`);

  mkdirSync(OUT, { recursive: true });
  const report = {
    generated: new Date().toISOString(),
    axeCore: axeVersion,
    browser: await browser.version(),
    tags: AXE_TAGS,
    options: AXE_RUN_OPTIONS,
    published: { version: published.version, lastModified: published.lastModified },
    scoring:
      "failed = a mapped axe rule has a violation with a node; passed/inapplicable/incomplete = not failed. Published: failed if any mapped procedure outcome is failed; passed, inapplicable, cantTell = not failed; untested = disagreement.",
    claimed: CLAIMED_ACT_RULES.map((c) => c.act),
    rules: rules.map(({ caseRows, ...r }) => ({ ...r, cases: caseRows })),
    missingAssets: Object.fromEntries([...missing].map(([p, s]) => [p, [...s]])),
    ruleTableProblems: tableProblems,
    claimProblems,
  };
  writeFileSync(join(OUT, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nReport: .act/report.json. ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  if (tableProblems.length || claimProblems.length) exitCode = 1;
} catch (e) {
  console.error(`ACT conformance run failed: ${e?.stack ?? e}`);
  exitCode = 1;
} finally {
  await stop();
}
process.exit(exitCode);
