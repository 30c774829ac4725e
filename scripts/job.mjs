// npm run job -- <name> [args…] [--var NAME=VALUE]… [--verbose]
// npm run job -- --list
// Runs one background job now (issue 31: the watch list's tick or a forced read, the register reads, the Bank Rate,
// the tender notices), against the local state `npm start` serves (.wrangler/state: the same D1 databases and the
// same KeyLedger). Locally nothing fires the Cron Triggers, and wrangler 4.86's /cdn-cgi/handler/scheduled answers
// 500 for a Worker with static assets (miniflare sends the event to its assets proxy, which has no scheduled handler;
// fixed upstream in workers-sdk #14177), so this runs the job's own code in a local Workers runtime of its own
// (scripts/job-worker.ts → src/cli/jobs.ts), with the API Worker's name, databases, Durable Object class and
// configuration (wrangler.toml's [vars], then .dev.vars, then --var), and handles in the same run what the job would
// send to a queue. It works whether or not `npm start` is running, and stops exactly the runtime it started.
// An upstream that cannot be reached is said as such, naming its variable, its value and where that is set.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pipeFiltered } from "./devlog.mjs";
import { ROOT, freePort, importTs, migrateLocal, wranglerEnv } from "./lib.mjs";

const STATE = join(ROOT, ".wrangler", "state");
const CONFIG = join(ROOT, ".wrangler", "cli", "wrangler.job.toml");
/** What npm start sets over the configuration (scripts/start.mjs), so a job sees what the local server sees. */
const START_VARS = { ENVIRONMENT: "development", BROWSER_KEEP_ALIVE_MS: "0", TRUST_CLIENT_IP_HEADER: "" };

const took = (t) => `${((Date.now() - t) / 1000).toFixed(1)} s`;

/** The names set in .dev.vars (dotenv lines `NAME=value`), to say where a value comes from. */
function devVarNames() {
  const file = join(ROOT, ".dev.vars");
  if (!existsSync(file)) return new Set();
  return new Set([...readFileSync(file, "utf8").matchAll(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/gm)].map((m) => m[1]));
}

/**
 * The job Worker's configuration (written to .wrangler/cli/wrangler.job.toml) and its variables: the API Worker's
 * name, compatibility, D1 databases, Durable Object classes and rules from wrangler.toml, with scripts/job-worker.ts
 * as its entry; its vars are wrangler.toml's [vars] with .dev.vars (or .env) over them (wrangler's own reading), npm start's
 * over those, then `overrides` (--var). `origin` says where each one came from.
 */
export async function jobWorkerSettings(overrides = {}) {
  const { unstable_readConfig, unstable_getVarsForDev } = await import("wrangler");
  const main = unstable_readConfig({ config: join(ROOT, "wrangler.toml") });
  const q = (v) => JSON.stringify(v);
  const lines = [
    "# Written by scripts/job.mjs for npm run job: the API Worker's name, databases and Durable Objects, with the job runner as entry.",
    `name = ${q(main.name)}`,
    `main = ${q(join(ROOT, "scripts", "job-worker.ts"))}`,
    `compatibility_date = ${q(main.compatibility_date)}`,
    `compatibility_flags = ${q(main.compatibility_flags ?? [])}`,
  ];
  for (const d of main.d1_databases ?? [])
    lines.push("", "[[d1_databases]]", `binding = ${q(d.binding)}`, `database_name = ${q(d.database_name)}`, `database_id = ${q(d.database_id)}`);
  for (const b of (main.durable_objects?.bindings ?? []).filter((b) => !b.script_name))
    lines.push("", "[[durable_objects.bindings]]", `name = ${q(b.name)}`, `class_name = ${q(b.class_name)}`);
  for (const m of main.migrations ?? []) {
    lines.push("", "[[migrations]]");
    for (const [k, v] of Object.entries(m)) lines.push(`${k} = ${q(v)}`);
  }
  for (const r of main.rules ?? []) {
    lines.push("", "[[rules]]");
    for (const [k, v] of Object.entries(r)) lines.push(`${k} = ${q(v)}`);
  }
  mkdirSync(join(ROOT, ".wrangler", "cli"), { recursive: true });
  writeFileSync(CONFIG, `${lines.join("\n")}\n`);

  const devVars = devVarNames();
  const vars = {};
  const origin = {};
  for (const [name, b] of Object.entries(unstable_getVarsForDev(join(ROOT, "wrangler.toml"), undefined, main.vars, undefined, true))) {
    vars[name] = typeof b.value === "string" ? b.value : JSON.stringify(b.value);
    const fromToml = Object.hasOwn(main.vars ?? {}, name) && JSON.stringify(main.vars[name]) === JSON.stringify(b.value);
    // Without a .dev.vars wrangler reads .env, and the process's environment with CLOUDFLARE_INCLUDE_PROCESS_ENV=true.
    origin[name] = devVars.has(name) ? ".dev.vars" : fromToml ? "wrangler.toml [vars]" : ".env or the environment";
  }
  for (const [name, value] of Object.entries(START_VARS)) {
    vars[name] = value;
    origin[name] = "npm start";
  }
  for (const [name, value] of Object.entries(overrides)) {
    vars[name] = value;
    origin[name] = "--var";
  }
  return { config: CONFIG, name: main.name, vars, origin };
}

/**
 * The child's side (`--serve`): the job Worker served through wrangler's API on 127.0.0.1:`port`, on the local state,
 * until SIGTERM or SIGINT. `registry`: a dev registry of its own (a temporary folder the parent made and removes), so
 * no other local server can reach it, and it answers for no other.
 */
async function serve({ config, port, vars, registry }) {
  const { unstable_startWorker } = await import("wrangler");
  const worker = await unstable_startWorker({
    config,
    dev: {
      inspector: false,
      remote: false,
      liveReload: false,
      watch: false,
      logLevel: "info",
      registry,
      server: { hostname: "127.0.0.1", port },
      persist: STATE,
    },
    bindings: Object.fromEntries(Object.entries(vars).map(([k, value]) => [k, { type: "plain_text", value }])),
  });
  await worker.ready;
  const stop = async () => {
    await worker.dispose().catch(() => {});
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/** How a configuration variable is set, for a line under a failure: a URL's value, a key only as set or not. */
function describeSetting(u, origin) {
  const from = origin[u.name];
  if (u.secret) return u.value ? `${u.name} is set (${from})` : `${u.name} is not set (a secret: add it to .dev.vars)`;
  if (!u.value) return `${u.name} is not set (add it to wrangler.toml's [vars] or .dev.vars)`;
  const where = from === "wrangler.toml [vars]" ? "wrangler.toml [vars]; .dev.vars or --var overrides it" : from;
  return `${u.name} = ${u.value}  (${where})`;
}

const usage = (jobs, msg) => {
  if (msg) console.error(msg);
  console.error(
    `usage: npm run job -- <${jobs.map((j) => j.name).join("|")}> [args…] [--var NAME=VALUE]… [--verbose]\n       npm run job -- --list   (what each job does)`,
  );
  process.exit(2);
};

/** The CLI: runs the job in a child runtime, prints its events as they come, stops the child. Exit 1 when a part failed. */
async function main(argv) {
  const { JOBS, JOB_NAMES } = await importTs("src/cli/jobList.ts");
  const overrides = {};
  const rest = [];
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--var") {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(argv[++i] ?? "");
      if (!m) usage(JOBS, "--var takes NAME=VALUE");
      overrides[m[1]] = m[2];
    } else if (a === "--verbose" || a === "-v") verbose = true;
    else rest.push(a);
  }
  const [name, ...args] = rest;
  if (name === "--list" || name === "list") {
    console.log("Jobs (npm run job -- <name>), run now against the local state npm start serves:\n");
    for (const j of JOBS) console.log(`  ${j.name}${j.args ? ` ${j.args}` : ""}\n      ${j.what}\n      In production: ${j.cron}.\n`);
    console.log(
      "Options: --var NAME=VALUE sets a variable for this run only (e.g. an upstream's URL pointed at a local stand-in); --verbose shows the runtime's log.",
    );
    return 0;
  }
  if (!name || name === "--help" || name === "-h") usage(JOBS);
  if (!JOB_NAMES.includes(name)) usage(JOBS, `no job named ${name}`);
  if (name !== "watch-now" && name !== "registers" && args.length) usage(JOBS, `${name} takes no arguments`);

  const began = Date.now();
  console.log(`Job ${[name, ...args].join(" ")}: against the local state npm start serves (.wrangler/state)…`);
  migrateLocal();
  const settings = await jobWorkerSettings(overrides);
  const port = await freePort();
  const registry = mkdtempSync(join(tmpdir(), "ukbi-job-registry-"));
  const child = spawn(process.execPath, [join(ROOT, "scripts", "job.mjs"), "--serve"], {
    cwd: ROOT,
    detached: true, // its own process group: stopped whole (wrangler, workerd, esbuild), and only it
    stdio: ["ignore", "pipe", "pipe"],
    env: wranglerEnv({ UKBI_JOB_SERVE: JSON.stringify({ config: settings.config, port, vars: settings.vars, registry }) }),
  });
  const log = [];
  const keep = (line) => {
    log.push(line);
    if (log.length > 200) log.shift();
    if (verbose) process.stderr.write(`  | ${line}`);
    // An unreachable upstream is one plain line (scripts/devlog.mjs); shown always, it says which host.
    else if (/^upstream unreachable: /.test(line)) process.stdout.write(`  runtime: ${line}`);
  };
  pipeFiltered(child.stdout, keep);
  pipeFiltered(child.stderr, keep);
  let exited = false;
  const gone = new Promise((r) => child.once("exit", (code, signal) => r((exited = true) && { code, signal })));
  const stop = async () => {
    if (!exited) {
      try {
        process.kill(-child.pid, "SIGTERM");
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid, "SIGKILL");
          } catch {}
        }, 15_000);
        await gone;
        clearTimeout(timer);
      } catch {
        // already gone
      }
    }
    rmSync(registry, { recursive: true, force: true });
  };
  const interrupted = () => stop().then(() => process.exit(130));
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  const dump = () => {
    if (!verbose) process.stderr.write(`The job runtime's last output:\n${log.slice(-40).join("")}`);
  };
  try {
    // Up when the job Worker answers (405 to a GET); a runtime that exits first has failed to start.
    const t = Date.now();
    const base = `http://127.0.0.1:${port}`;
    for (;;) {
      if (exited) throw new Error("the job runtime exited before it was up");
      if (Date.now() - t > 180_000) throw new Error("the job runtime did not come up in 180 s");
      const r = await fetch(base).catch(() => null);
      if (r?.status === 405) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    console.log(`  (local runtime up in ${took(t)})`);
    const res = await fetch(base, { method: "POST", body: JSON.stringify({ job: name, args }), headers: { "content-type": "application/json" } });
    if (!res.ok || !res.body) throw new Error(`the job runtime answered ${res.status}: ${await res.text()}`);
    let done = null;
    let rest = "";
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = lines.pop() ?? "";
      for (const l of lines.filter(Boolean)) {
        const e = JSON.parse(l);
        if (e.kind === "done") done = e;
        else if (e.kind === "info") console.log(`  ${e.text}`);
        else {
          console.log(`${{ ok: "✓", warn: "!", fail: "✗" }[e.kind]} ${e.what}: ${e.text}`);
          for (const u of e.upstreams ?? []) console.log(`    ${describeSetting(u, settings.origin)}`);
        }
      }
    }
    if (!done) throw new Error("the job ended without saying so (see the runtime's output)");
    await stop(); // its last log lines (an unreachable upstream's) come before the summary
    const counts = [done.failed ? `${done.failed} failed` : "", done.warned ? `${done.warned} ${done.warned === 1 ? "warning" : "warnings"}` : ""].filter(
      Boolean,
    );
    console.log(`Job ${name} ${done.ok ? "done" : "failed"} in ${took(began)}${counts.length ? `: ${counts.join(", ")}` : ""}.`);
    if (!done.ok)
      console.log("An upstream that cannot be reached is configured by the variable named under it: point it at a local stand-in in .dev.vars or with --var.");
    return done.ok ? 0 : 1;
  } catch (e) {
    console.error(`job ${name} failed: ${e.message}`);
    dump();
    return 1;
  } finally {
    await stop();
  }
}

if (process.env.UKBI_JOB_SERVE && process.argv[2] === "--serve") await serve(JSON.parse(process.env.UKBI_JOB_SERVE));
else if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) process.exitCode = await main(process.argv.slice(2));
