// The hostile-input harness of issue 29 §1, against a live local server: run by scripts/test-hostile.mjs (a step of
// npm test) and by the bench (scripts/bench/hostile.mjs).
//
// It serves a copy of the Worker (src/ as it is now, through wrangler's API in a child process of its own process group,
// without the browser binding: the inputs are for the Worker's own readers) with a fresh local state and an enterprise
// key, starts the hostile host (scripts/hostile/serve.mjs), and sends each case of scripts/hostile/index.mjs once, one
// at a time. For each it measures:
//   - the reply: status and code; no reply at all is a failure;
//   - seconds, against the operation's time limit (its `timeoutMs` in the registry);
//   - the credits the call took (GET /api/v1/account before and after);
//   - the workerd process's resident memory (VmRSS of /proc/<pid>/status every 100 ms; workerd is found by walking the
//     process tree down from the child this harness started), peak during the call over the figure just before it;
//   - /api/status, asked every 250 ms while the call runs: the slowest answer;
//   - whether the server still answers /api/status after the call.
// The goals (a case that misses one fails):
//   - a reply: 2xx, or 4xx with a JSON `code` and `requestId`, or 503/504 `timeout` (the gateway's own time limit,
//     its credits given back); any other 5xx, or none, fails. An input beyond a documented cap must get 400 or 413;
//   - within the time limit (+ GRACE_MS for the reply to travel after the gateway's timer);
//   - nothing charged on a 4xx or 5xx;
//   - peak memory growth under 128 MB (a Worker isolate's memory);
//   - /api/status always answers within 1 s while the call runs, and answers after it.
// A server left unable to answer is stopped and started again for the next case (its case fails).
// Stops exactly what it started: the Worker's process group (and the workerd found under it, by process id), the
// local servers.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, WORKER_CONFIGS, importTs, localEnv, migrateLocal, serveWorker, snapshotWorker, stopGroup, waitFor, wranglerEnv } from "../lib.mjs";
import { caseList, fixtureDir } from "./index.mjs";
import { serveHostile } from "./serve.mjs";
import { createLocalKey } from "../key.mjs";

const SELF = fileURLToPath(import.meta.url);
export const GOALS = { memoryGrowthMB: 128, statusMs: 1000, statusEveryMs: 250, rssEveryMs: 100, graceMs: 1500 };
/** After the operation's limit, how long the harness waits for a reply before it counts none. */
const CLIENT_EXTRA_MS = 15_000;
/** How long /api/status may take to answer after a call before the server is taken as down. */
const ALIVE_WAIT_MS = 20_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// ---- processes ---------------------------------------------------------------------------------------------------

/** /proc/<pid>/stat: parent and name. */
function procStat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), comm: s.slice(s.indexOf("(") + 1, s.lastIndexOf(")")) };
  } catch {
    return null;
  }
}

/** The children of a process: /proc/<pid>/task/<tid>/children when the kernel has it, else every process's parent. */
function childrenOf(pid, table) {
  try {
    const ids = [];
    for (const tid of readdirSync(`/proc/${pid}/task`))
      ids.push(...readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(/\s+/).filter(Boolean).map(Number));
    return [...new Set(ids)].filter((c) => c !== pid);
  } catch {
    return table().get(pid) ?? [];
  }
}

/** Every live descendant of `root`, walked down from it: [{ pid, comm }]. */
function descendants(root) {
  let table = null;
  const parents = () =>
    (table ??= (() => {
      const m = new Map();
      for (const name of readdirSync("/proc")) {
        if (!/^\d+$/.test(name)) continue;
        const st = procStat(Number(name));
        if (!st) continue;
        if (!m.has(st.ppid)) m.set(st.ppid, []);
        m.get(st.ppid).push(Number(name));
      }
      return m;
    })());
  const out = [];
  const seen = new Set([root]);
  const walk = (pid) => {
    for (const c of childrenOf(pid, parents)) {
      if (seen.has(c)) continue;
      seen.add(c);
      const st = procStat(c);
      if (!st) continue;
      out.push({ pid: c, comm: st.comm });
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** VmRSS of a process in MB, or null when it is gone. */
function rssMB(pid) {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

// ---- the Worker ------------------------------------------------------------------------------------------------------

/** A copy of the Worker to serve (so a change to src/ during the run neither restarts nor changes it), without the browser. */
function workerCopy(dir) {
  snapshotWorker(dir);
  // No browser: the readers Worker's Browser Rendering binding goes (the cases that render answer without it).
  for (const c of WORKER_CONFIGS) {
    const toml = join(dir, c);
    writeFileSync(toml, readFileSync(toml, "utf8").replace(/^\[browser\]\n(?:[^[\n].*\n|\n)*/m, ""));
  }
  return join(dir, "wrangler.toml");
}

/** Every migration file's name and text: the migrated template state is made again when they change. */
function migrationsHash() {
  const h = createHash("sha256");
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) walk(join(d, e.name));
      else h.update(`${join(d, e.name)}\n`).update(readFileSync(join(d, e.name)));
    }
  };
  walk(join(ROOT, "migrations"));
  return h.digest("hex").slice(0, 16);
}

/**
 * Fresh state in `dir`: a copy of a migrated template (kept under `root` until the migrations change: applying them
 * takes wrangler about 20 s), and an enterprise key in it.
 */
async function freshState(root, dir) {
  const template = join(root, `state-template-${migrationsHash()}`);
  if (!existsSync(template)) {
    for (const old of readdirSync(root)) if (old.startsWith("state-template-")) rmSync(join(root, old), { recursive: true, force: true });
    migrateLocal(`${template}.partial`);
    renameSync(`${template}.partial`, template);
  }
  rmSync(dir, { recursive: true, force: true });
  cpSync(template, dir, { recursive: true });
  const proxy = await localEnv(dir);
  const { key } = await createLocalKey(proxy.env.DB, { plan: "enterprise" });
  await proxy.dispose();
  return key;
}

/** Starts the Worker in a child of its own process group; resolves when it answers, with its base and workerd's pid. */
async function startWorker({ config, cwd, persistTo, vars, logFile }) {
  const port = await freePort();
  const child = spawn(process.execPath, [SELF, "--serve", JSON.stringify({ config, port, persistTo, vars })], {
    cwd,
    env: wranglerEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let tail = "";
  const onData = (d) => {
    tail = (tail + d).slice(-6000);
    if (logFile) writeFileSync(logFile, String(d), { flag: "a" });
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise((r) => child.once("exit", r));
  const base = `http://127.0.0.1:${port}`;
  const w = {
    base,
    child,
    tail: () => tail,
    workerd: [],
    /** The workerd processes under the child, walked down from its pid (wrangler's proxy and the Worker's runtime). */
    findWorkerd() {
      w.workerd = descendants(child.pid)
        .filter((p) => p.comm === "workerd")
        .map((p) => p.pid);
      return w.workerd;
    },
    /** Their resident memory together (MB), the tree walked again each time (a runtime restarted has a new pid). */
    rss() {
      const pids = w.findWorkerd();
      return pids.length ? pids.reduce((sum, pid) => sum + (rssMB(pid) ?? 0), 0) : null;
    },
    async stop() {
      const under = child.exitCode === null ? descendants(child.pid) : [];
      await stopGroup(child, exited, 10_000);
      // Anything started under the child that outlived it (found by walking down from it, so ours), by process id,
      // if that id still names the same program.
      for (const { pid, comm } of under) {
        if (procStat(pid)?.comm !== comm) continue;
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone
        }
      }
    },
  };
  try {
    await Promise.race([
      waitFor(`${base}/api/status`, 180_000),
      exited.then((code) => Promise.reject(new Error(`the Worker exited (${code}) before answering`))),
    ]);
  } catch (e) {
    await w.stop();
    throw new Error(`${e.message}\n${tail.slice(-3000)}`);
  }
  for (let i = 0; i < 50 && !w.findWorkerd().length; i++) await sleep(100);
  if (!w.workerd.length) {
    await w.stop();
    throw new Error("no workerd process under the Worker's process");
  }
  return w;
}

// ---- one case --------------------------------------------------------------------------------------------------------

async function timedFetch(url, init, ms) {
  const t = performance.now();
  try {
    const r = await fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
    const text = await r.text();
    return { status: r.status, headers: r.headers, text, ms: performance.now() - t };
  } catch (e) {
    return {
      status: 0,
      error: e?.name === "TimeoutError" ? `no answer in ${Math.round(ms / 1000)} s` : String(e?.cause?.code ?? e?.message ?? e),
      ms: performance.now() - t,
    };
  }
}

async function creditsOf(base, key) {
  const r = await timedFetch(`${base}/api/v1/account`, { headers: { "x-api-key": key } }, 10_000);
  try {
    return r.status === 200 ? JSON.parse(r.text).creditsRemaining : null;
  } catch {
    return null;
  }
}

/** Asks /api/status every GOALS.statusEveryMs (one at a time) until stopped; the slowest answer and how many. */
function statusPoller(base) {
  let running = true;
  const times = [];
  let failures = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const r = await timedFetch(`${base}/api/status`, {}, 10_000);
      times.push(r.ms);
      if (r.status !== 200) failures++;
      const wait = GOALS.statusEveryMs - (performance.now() - started);
      if (running && wait > 0) await sleep(wait);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { polls: times.length, maxMs: times.length ? Math.max(...times) : null, failures };
    },
  };
}

/** Samples workerd's resident memory every GOALS.rssEveryMs; the peak since start. */
function rssSampler(worker) {
  let peak = worker.rss() ?? 0;
  const t = setInterval(() => {
    const r = worker.rss();
    if (r !== null && r > peak) peak = r;
  }, GOALS.rssEveryMs);
  return {
    stop() {
      clearInterval(t);
      const r = worker.rss();
      if (r !== null && r > peak) peak = r;
      return peak;
    },
  };
}

const codeOf = (text) => {
  try {
    const j = JSON.parse(text);
    return { code: j.code ?? null, requestId: j.requestId ?? null, message: j.message ?? null, json: j };
  } catch {
    return { code: null, requestId: null, message: null, json: null };
  }
};

/** Sends one case and measures it; returns the row (with `failures`: the goals missed). */
async function runCase(c, { worker, key, op, inputs, host }) {
  const { base } = worker;
  const fetchedBefore = host.total();
  const limitMs = op.timeoutMs;
  const before = await creditsOf(base, key);
  const rssBefore = worker.rss();
  const pidsBefore = [...worker.workerd];
  const init = { method: op.method.toUpperCase(), headers: { "x-api-key": key } };
  let url = `${base}${op.path}`;
  const input = c.rawBody ? null : c.input(inputs);
  const byUrl = !c.overCap && input !== null && "url" in input && !("text" in input);
  if (c.rawBody) {
    init.body = c.rawBody();
    init.headers["content-type"] = "application/json";
  } else if (init.method === "GET") {
    url += `?${new URLSearchParams(input)}`;
  } else {
    init.body = JSON.stringify(input);
    init.headers["content-type"] = "application/json";
  }
  const sampler = rssSampler(worker);
  const poller = statusPoller(base);
  const reply = await timedFetch(url, init, limitMs + CLIENT_EXTRA_MS);
  const status = await poller.stop();
  const fetched = host.total() - fetchedBefore;
  // Liveness after: /api/status within ALIVE_WAIT_MS (memory is still sampled meanwhile: work may go on after a reply).
  const after = await timedFetch(`${base}/api/status`, {}, ALIVE_WAIT_MS);
  const rssPeak = sampler.stop();
  const alive = after.status === 200;
  const pidsAfter = worker.findWorkerd();
  const exited = pidsBefore.filter((p) => !pidsAfter.includes(p));
  let credits = alive ? await creditsOf(base, key) : null;
  const { code, requestId, message, json } = codeOf(reply.text ?? "");
  // A refund may land just after the reply: read the balance again for a few seconds before counting a charge.
  for (let i = 0; alive && reply.status >= 400 && before !== null && credits !== null && before - credits > 0 && i < 10; i++) {
    await sleep(500);
    credits = await creditsOf(base, key);
  }
  const charged = before !== null && credits !== null ? before - credits : null;
  const row = {
    name: c.name,
    operationId: c.operationId,
    path: op.path,
    method: init.method,
    status: reply.status,
    code: reply.status === 0 ? reply.error : (code ?? (reply.status < 300 ? "ok" : null)),
    note:
      reply.status >= 300
        ? (message ?? "").slice(0, 160)
        : json?.read
          ? `read ${json.read.format} ${json.read.chars} chars${json.read.pages !== null ? `, ${json.read.pages}/${json.read.totalPages} pages` : ""}${json.read.cut ? ", cut" : ""}`
          : "",
    seconds: +(reply.ms / 1000).toFixed(1),
    limitSeconds: limitMs / 1000,
    charged,
    refundedHeader: reply.headers?.get("x-credits-refunded") ?? null,
    rssBeforeMB: rssBefore === null ? null : Math.round(rssBefore),
    rssPeakMB: Math.round(rssPeak),
    rssGrowthMB: rssBefore === null ? null : Math.round(rssPeak - rssBefore),
    statusPolls: status.polls,
    statusMaxMs: status.maxMs === null ? null : Math.round(status.maxMs),
    statusFailures: status.failures,
    hostileHostRequests: fetched,
    aliveAfter: alive,
    aliveAfterMs: Math.round(after.ms),
    workerdExited: exited,
  };
  const failures = [];
  const s = reply.status;
  const isTimeout = (s === 503 || s === 504) && code === "timeout";
  if (s === 0) failures.push(`no reply (${reply.error})`);
  else if (s >= 500 && !isTimeout) failures.push(`${s} ${code ?? ""}`.trim());
  else if (s >= 400 && (!code || !requestId)) failures.push(`${s} without a JSON code and requestId`);
  if (c.overCap && s !== 400 && s !== 413) failures.push(`beyond a cap, answered ${s || "nothing"} (400 or 413 expected)`);
  if (c.mustRead && s !== 200) failures.push(`an ordinary input at the cap, answered ${s || "nothing"} (200 expected)`);
  // A case given by URL that never reached the hostile host tested nothing (refused before the fetch: a pattern or
  // check that does not let the test host through would make every such case pass).
  if (byUrl && fetched === 0) failures.push(`never fetched: the input did not reach the reader (${s} ${code ?? ""})`.replace(/ \)$/, ")"));
  if (s !== 0 && reply.ms > limitMs + GOALS.graceMs) failures.push(`${row.seconds} s > ${row.limitSeconds} s limit`);
  if (s === 0) failures.push(`> ${row.limitSeconds} s limit`);
  if ((s >= 400 || s === 0) && charged) failures.push(`charged ${charged} on ${s || "no reply"}`);
  if (row.rssGrowthMB !== null && row.rssGrowthMB >= GOALS.memoryGrowthMB) failures.push(`memory +${row.rssGrowthMB} MB ≥ ${GOALS.memoryGrowthMB} MB`);
  if (status.maxMs !== null && status.maxMs >= GOALS.statusMs) failures.push(`/api/status took ${row.statusMaxMs} ms ≥ ${GOALS.statusMs} ms`);
  if (status.failures) failures.push(`/api/status failed ${status.failures}×`);
  if (exited.length) failures.push(`workerd ${exited.join(", ")} exited during the call${pidsAfter.length ? ` (now ${pidsAfter.join(", ")})` : ""}`);
  if (!alive) failures.push(`server down after (${after.error ?? after.status})`);
  row.failures = failures;
  return row;
}

// ---- the run ---------------------------------------------------------------------------------------------------------

/**
 * Runs every case (or those whose name includes `only`) against a fresh server. `root`: a folder for the fixtures
 * (kept between runs), the Worker copy, its state and log. Returns { rows, failures } or { skipped }.
 */
export async function runHostile({ root, only, log = console.log }) {
  if (!existsSync("/proc/self/status")) return { skipped: "no /proc on this machine (the harness reads workerd's memory there)" };
  mkdirSync(root, { recursive: true });
  const started = Date.now();
  const { operations } = await importTs("src/operations/index.ts");
  const ops = new Map(operations.map((o) => [o.operationId, o]));
  log("Hostile inputs: making the fixtures (kept under the harness's folder until their generators change)…");
  const fixtures = await fixtureDir(join(root, "fixtures"), { log });
  const cases = (await caseList()).filter((c) => !only || c.name.includes(only));
  const missing = cases.filter((c) => !ops.has(c.operationId)).map((c) => `${c.name}: no operation ${c.operationId}`);
  const noLimit = cases.filter((c) => ops.has(c.operationId) && !ops.get(c.operationId).timeoutMs).map((c) => `${c.name}: ${c.operationId} has no timeoutMs`);
  if (missing.length || noLimit.length) throw new Error([...missing, ...noLimit].join("\n"));

  const sites = Object.fromEntries(cases.filter((c) => c.site).map((c) => [c.name, c.site]));
  const host = await serveHostile(fixtures, sites);
  const texts = new Map(fixtures.index.filter((f) => f.textCase).map((f) => [f.textCase, f.file]));
  const state = join(root, "state");
  const logFile = join(root, "worker.log");
  rmSync(logFile, { force: true });
  let worker = null;
  const rows = [];
  // Interrupted (Ctrl-C, or the runner stopping it), it stops what it started first: the Worker is in a process group
  // of its own, which a terminal's signal does not reach.
  const onSignal = (signal) => {
    Promise.allSettled([worker?.stop(), host.close()]).then(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    log("Hostile inputs: a fresh local state and key, and a copy of the Worker…");
    const key = await freshState(root, state);
    const workerDir = join(root, "worker");
    const config = workerCopy(workerDir);
    // Every upstream of wrangler.toml (its *_URL vars) points at the hostile host, which answers 404: nothing leaves
    // the machine, and the Worker's own jobs fail fast instead of waiting on names that do not resolve.
    const upstreams = [...readFileSync(config, "utf8").matchAll(/^([A-Z0-9_]+_URL)\s*=/gm)].map((m) => m[1]);
    const vars = {
      ...Object.fromEntries(upstreams.map((name) => [name, `${host.origin}/upstream/${name.toLowerCase()}`])),
      ENVIRONMENT: "development",
      SAFE_FETCH_TEST_HOSTS: "localhost",
      BROWSER_KEEP_ALIVE_MS: "0",
      DNS_RESOLVER_URL: `${host.origin}/dns-query`,
      COMPANIES_HOUSE_API_KEY: "hostile-harness",
    };
    const start = () => startWorker({ config, cwd: workerDir, persistTo: state, vars, logFile });
    worker = await start();
    log(
      `Hostile inputs: the Worker at ${worker.base} (workerd ${worker.workerd.join(", ")}, ${Math.round(worker.rss())} MB); the hostile host at ${host.origin}.`,
    );
    // Ordinary calls first, so the first cases do not pay for the Workers' warm-up: a keyed call, and the status page,
    // which calls the readers Worker (its runtime's memory is counted with the API Worker's).
    await timedFetch(`${worker.base}/api/v1/late-payment?amount=100&due=2026-01-01&paid=2026-02-01`, { headers: { "x-api-key": key } }, 30_000);
    await timedFetch(`${worker.base}/api/status`, {}, 30_000);
    // Then the process tree settles: some seconds after the Workers are up, wrangler starts a runtime of its own (about
    // 75 MB) for the service binding between them; a case must not be charged for it. Unchanged for 5 s (at most 60 s).
    for (let stable = 0, last = worker.findWorkerd().join(","), i = 0; stable < 5 && i < 60; i++) {
      await sleep(1000);
      const now = worker.findWorkerd().join(",");
      stable = now === last ? stable + 1 : 0;
      last = now;
    }
    for (const c of cases) {
      const inputs = {
        f: (file) => `${host.origin}/f/${encodeURIComponent(file)}`,
        r: (route) => `${host.origin}${route}`,
        site: c.site ? host.siteOrigin(c.name) : null,
        text: (name) => readFileSync(join(fixtures.dir, texts.get(name)), "utf8"),
      };
      const row = await runCase(c, { worker, key, op: ops.get(c.operationId), inputs, host });
      if (!row.aliveAfter) {
        // A server that cannot answer would spoil every later case: it is started again (this case has failed).
        log(`  (the server did not answer after "${c.name}": started again)`);
        await worker.stop();
        worker = await start();
        row.restarted = true;
      }
      rows.push(row);
      log(`  ${row.failures.length ? "✗" : "✓"} ${lineOf(row)}`);
    }
  } catch (e) {
    if (worker) e.message += `\n${worker.tail().slice(-3000)}`;
    throw e;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await worker?.stop();
    await host.close();
  }
  const failures = rows.filter((r) => r.failures.length).map((r) => `${r.name}: ${r.failures.join("; ")}`);
  return { rows, failures, seconds: Math.round((Date.now() - started) / 1000), goals: GOALS };
}

const pad = (s, n) => (String(s).length >= n ? String(s).slice(0, n) : String(s) + " ".repeat(n - String(s).length));
const lpad = (s, n) => (String(s).length >= n ? String(s) : " ".repeat(n - String(s).length) + String(s));
const lineOf = (r) =>
  `${pad(r.name, 50)} ${pad(r.operationId, 33)} ${lpad(r.status || "—", 3)} ${pad(r.code ?? "", 22)} ${lpad(r.seconds, 5)}/${pad(r.limitSeconds, 3)}s ` +
  `${lpad(r.charged ?? "?", 3)} ${lpad(`+${r.rssGrowthMB ?? "?"}`, 6)} ${lpad(r.rssPeakMB, 6)} ${lpad(r.statusMaxMs ?? "—", 6)} ${pad(r.aliveAfter ? "yes" : "NO", 4)}` +
  (r.failures.length ? `  ✗ ${r.failures.join("; ")}` : "") +
  (r.note ? `  (${r.note.slice(0, 90)})` : "");

/** The rows as a table. */
export function tableOf(rows) {
  const head = `${pad("case", 50)} ${pad("operation", 33)} ${lpad("st", 3)} ${pad("code", 22)} ${lpad("s", 5)}/${pad("lim", 3)}  ${lpad("cr", 3)} ${lpad("ΔRSS", 6)} ${lpad("peak", 6)} ${lpad("status", 6)} ${pad("up", 4)}`;
  const units = `${pad("", 50)} ${pad("", 33)} ${lpad("", 3)} ${pad("", 22)} ${lpad("", 5)} ${pad("", 4)}  ${lpad("", 3)} ${lpad("MB", 6)} ${lpad("MB", 6)} ${lpad("max ms", 6)} ${pad("after", 4)}`;
  return [head, units, ...rows.map(lineOf)].join("\n");
}

if (process.argv[1] === SELF && process.argv[2] === "--serve") await serveWorker(JSON.parse(process.argv[3]), { logLevel: "warn" });
