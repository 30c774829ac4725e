// Helpers shared by the npm scripts (start, key, ingest, bench). Node only.
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DB_NAME = "ukbi";
/** Every D1 database of the Worker, each with its own migrations (wrangler.toml): the main one and the companies register's. */
export const DB_NAMES = [DB_NAME, "ukbi-companies"];

/**
 * The Workers the service is made of, each with its configuration (docs/architecture.md "Workers"): the API Worker first (it
 * serves HTTP, MCP, the cron and the queues), then the readers Worker its READERS binding calls (the PDF engine and
 * the browser). `wrangler dev` serves them together with `-c` for each, the API Worker as the primary.
 */
export const WORKER_CONFIGS = ["wrangler.toml", "wrangler.readers.toml"];
/** `-c <config>` for every Worker, from `dir` (the repo, or a snapshot of it). */
export const devConfigArgs = (dir = ROOT) => WORKER_CONFIGS.flatMap((c) => ["-c", join(dir, c)]);

/** Environment for wrangler: no telemetry, no Request.cf lookup (offline machines). */
export const wranglerEnv = (extra = {}) => ({
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  CI: process.env.CI ?? "true", // non-interactive migrations
  ...extra,
});

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: opts.quiet ? "pipe" : "inherit", env: wranglerEnv(opts.env), encoding: "utf8" });
  if (r.status !== 0) {
    if (opts.quiet) process.stderr.write(`${r.stdout ?? ""}${r.stderr ?? ""}`);
    throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status}`);
  }
  return r.stdout ?? "";
}

export const wrangler = (args, opts) => run(process.execPath, [join(ROOT, "node_modules/wrangler/bin/wrangler.js"), ...args], opts);

/** Whether a process id is alive (a lock left by a process that died is stale). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/** Takes the lock file `path` for this process if it is free (a lock whose process has died is taken over); false when held. */
function tryLock(path, deadline) {
  mkdirSync(dirname(path), { recursive: true });
  try {
    const fd = openSync(path, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (e) {
    if (e.code !== "EEXIST") throw e;
    const holder = Number(readFileSync(path, "utf8") || 0);
    if (holder && !alive(holder)) rmSync(path, { force: true });
    else if (Date.now() > deadline) throw new Error(`${path} is held by process ${holder}; remove it if that process is gone`);
    return false;
  }
}

/**
 * Runs `fn` holding a lock file, so scripts started side by side (npm start in one terminal, npm run key or
 * ingest in another) do not apply the migrations twice at once.
 */
async function withLock(path, fn) {
  const deadline = Date.now() + 180_000;
  while (!tryLock(path, deadline)) await new Promise((r) => setTimeout(r, 200));
  try {
    return await fn();
  } finally {
    rmSync(path, { force: true });
  }
}

/**
 * A copy of the Worker for a bench to serve through wrangler (which rebuilds and restarts when a file it watches
 * changes, so a copy keeps a long run steady): src, its assets, CHANGELOG.md, package.json (the Worker reads its
 * version there) and wrangler.toml without the build step. Packages resolve from the repository's node_modules (the
 * copy is under ROOT).
 */
export function snapshotWorker(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(ROOT, "public/vendor"))) run(process.execPath, [join(ROOT, "scripts/copy-assets.mjs")], { quiet: true });
  for (const p of ["src", "public", "CHANGELOG.md", "package.json"]) cpSync(join(ROOT, p), join(dir, p), { recursive: true });
  writeFileSync(join(dir, "wrangler.toml"), readFileSync(join(ROOT, "wrangler.toml"), "utf8").replace(/^\[build\]\n(?:[^[\n].*\n|\n)*/m, ""));
  for (const c of WORKER_CONFIGS.slice(1)) cpSync(join(ROOT, c), join(dir, c));
  return dir;
}

/**
 * Applies every database's D1 migrations to the local state (optionally under another persistence folder), in one
 * Node process through one local runtime (openLocal). Safe to run concurrently and to re-run: one process at a time
 * applies them, and those applied are skipped. For scripts that go on to start a server of their own; a script that
 * reads or writes the databases itself opens them with openLocal, which migrates them as it opens them.
 */
export function migrateLocal(persistTo) {
  // A script file, not `node --input-type=module -e`: the local runtime never starts from an evaluated module (its
  // workerd exits at once and the proxy waits for ever).
  run(process.execPath, [join(ROOT, "scripts/migrate.mjs"), ...(persistTo ? [persistTo] : [])], { quiet: true });
}

/** The D1 databases of wrangler.toml: binding, name, migrations folder and table (wrangler's defaults). */
function d1Databases() {
  return readFileSync(join(ROOT, "wrangler.toml"), "utf8")
    .split(/^\[\[d1_databases\]\]\s*$/m)
    .slice(1)
    .map((block) => {
      const body = block.split(/^\[/m)[0];
      const value = (key) => body.match(new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, "m"))?.[1];
      return {
        binding: value("binding"),
        name: value("database_name"),
        migrationsDir: value("migrations_dir") ?? "migrations",
        table: value("migrations_table") ?? "d1_migrations",
      };
    });
}

/**
 * Applies a database's migrations through its D1 binding as `wrangler d1 migrations apply --local` does (and as the
 * tests' applyD1Migrations does): the same table of applied migrations, so wrangler sees them as applied; the files in
 * number order, each split by wrangler's own splitter and run with its row in that table as one batch (one
 * transaction). Returns the names applied. (wrangler's command starts a local runtime for every statement it sends:
 * about 17 for these migrations, minutes on a busy machine.)
 */
export async function applyMigrations(db, dir, table = "d1_migrations") {
  const { unstable_splitSqlQuery } = await import("wrangler");
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS ${table}(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
    )
    .run();
  const applied = new Set((await db.prepare(`SELECT name FROM ${table}`).all()).results.map((r) => r.name));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sql") && !applied.has(f))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  for (const f of files) {
    const statements = unstable_splitSqlQuery(readFileSync(join(dir, f), "utf8")).map((q) => db.prepare(q));
    await db.batch([...statements, db.prepare(`INSERT INTO ${table} (name) VALUES (?)`).bind(f)]);
  }
  return files;
}

/**
 * The local databases, opened once for a whole script (npm start, ingest, key): one platform proxy (localEnv), with
 * every database's migrations applied through it under the migrations lock (scripts started side by side apply them
 * once). Returns the proxy (`env`, `dispose`) and `migrated`, the migrations applied now by database name.
 */
export async function openLocal(persistTo) {
  const lock = join(persistTo ?? join(ROOT, ".wrangler", "state"), "migrations.lock");
  // The runtime starts under the lock too: a workerd that opens the state's SQLite files while another script's is
  // creating them or applying migrations fails to start ("database is locked: SQLITE_BUSY"; workerd does not wait),
  // about one start in ten when two scripts open a fresh state at once (scripts/check-side-by-side.mjs).
  return withLock(lock, async () => {
    const proxy = await localEnv(persistTo ?? undefined);
    try {
      const migrated = {};
      for (const d of d1Databases()) migrated[d.name] = await applyMigrations(proxy.env[d.binding], join(ROOT, d.migrationsDir), d.table);
      return Object.assign(proxy, { migrated });
    } catch (e) {
      await proxy.dispose();
      throw e;
    }
  });
}

/** Bundles a TypeScript entry for Node with esbuild and imports it. */
export async function importTs(entry) {
  const { build } = await import("esbuild");
  const out = join(ROOT, ".wrangler", "cli", entry.replace(/[/\\]/g, "_").replace(/\.ts$/, ".mjs"));
  mkdirSync(dirname(out), { recursive: true });
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile: out,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
    loader: { ".md": "text" },
    // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  });
  return import(`${out}?t=${Date.now()}`);
}

/**
 * The local D1 databases that `wrangler dev` uses, from Node. The proxy gets a config holding only the
 * D1 bindings (same database ids, so the same local files): the Durable Object class lives in the Worker.
 */
export async function localEnv(persistTo) {
  const { getPlatformProxy } = await import("wrangler");
  const main = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const d1 = main.match(/\[\[d1_databases\]\][\s\S]*?(?=\n\[(?!\[d1_databases)|$)/)?.[0];
  const date = main.match(/^compatibility_date\s*=.*$/m)?.[0];
  const config = join(ROOT, ".wrangler", "cli", "wrangler.d1.toml");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, `name = "ukbi-cli"\n${date}\n\n${d1}\n`);
  // wrangler dev --persist-to X keeps its files under X/v3; the proxy takes the folder as it is.
  return getPlatformProxy({ configPath: config, persist: { path: join(persistTo ?? join(ROOT, ".wrangler", "state"), "v3") } });
}

export function startDev(port, { persistTo, vars = {} } = {}) {
  const args = [
    join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    ...devConfigArgs(),
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    ...(persistTo ? ["--persist-to", persistTo] : []),
  ];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  return spawn(process.execPath, args, { cwd: ROOT, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Runs `body(base)` against a `wrangler dev` it starts on 127.0.0.1:`port` (state under `persistTo`, extra
 * `vars`), and stops exactly that process when done; on failure the server's last output is printed.
 */
export async function withDev(port, { persistTo, vars = {} } = {}, body) {
  const dev = startDev(port, { persistTo, vars });
  let log = "";
  dev.stdout.on("data", (d) => (log += d));
  dev.stderr.on("data", (d) => (log += d));
  try {
    await waitFor(`http://127.0.0.1:${port}/`, 120_000);
    return await body(`http://127.0.0.1:${port}`);
  } catch (e) {
    console.error(log.slice(-3000));
    throw e;
  } finally {
    dev.kill("SIGTERM");
    await new Promise((r) => dev.once("exit", r));
  }
}

/** A free port on 127.0.0.1 (closed again at once, for a server started a moment later). */
export async function freePort() {
  const { createServer } = await import("node:net");
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export async function waitFor(url, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not come up`);
}

/**
 * The child's side of a Worker served through wrangler's API (`unstable_startWorker`) in a process of its own, until
 * SIGTERM or SIGINT: the bench's web and watch sections and the hostile-input harness start it with `--serve`. `dev`:
 * options over the defaults (no inspector, local state, no live reload or file watching, `logLevel` "info").
 */
export async function serveWorker({ config, port, persistTo, vars }, dev = {}) {
  const { unstable_startWorker } = await import("wrangler");
  // The readers Worker beside the API Worker's config (WORKER_CONFIGS), started first; the API Worker's READERS
  // binding finds it through a dev registry of this process's own (a temporary folder), so no other local server can
  // answer for it and this one answers for no other.
  const registry = mkdtempSync(join(tmpdir(), "ukbi-registry-"));
  const base = { inspector: false, remote: false, liveReload: false, watch: false, logLevel: "info", registry, ...dev };
  const readers = [];
  for (const c of WORKER_CONFIGS.slice(1)) {
    const w = await unstable_startWorker({
      config: join(dirname(config), c),
      dev: { ...base, server: { hostname: "127.0.0.1", port: 0 }, persist: persistTo },
    });
    await w.ready;
    readers.push(w);
  }
  const worker = await unstable_startWorker({
    config,
    dev: { ...base, server: { hostname: "127.0.0.1", port }, persist: persistTo },
    bindings: Object.fromEntries(Object.entries(vars).map(([k, value]) => [k, { type: "plain_text", value }])),
  });
  await worker.ready;
  const stop = async () => {
    for (const w of [worker, ...readers]) await w.dispose().catch(() => {});
    rmSync(registry, { recursive: true, force: true });
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/**
 * An HTTP server on 127.0.0.1 and, when the machine has it, on ::1 at the same port (workerd and chromium may resolve
 * localhost to either): `http://localhost:<port>`. `close` also ends open connections (held and endless responses).
 * `port`: a given port instead of a free one (scripts/stand-in.mjs).
 */
export async function listenLocalhost(handler, { port: wanted = 0 } = {}) {
  const { createServer } = await import("node:http");
  const v4 = createServer(handler);
  await new Promise((r, reject) => {
    v4.once("error", reject);
    v4.listen(wanted, "127.0.0.1", () => r(v4.off("error", reject)));
  });
  const port = v4.address().port;
  const v6 = createServer(handler);
  const has6 = await new Promise((r) => v6.once("error", () => r(false)).listen(port, "::1", () => r(true)));
  const servers = has6 ? [v4, v6] : [v4];
  const closeOne = (s) =>
    new Promise((r) => {
      s.close(r);
      s.closeAllConnections();
    });
  return { port, origin: `http://localhost:${port}`, close: () => Promise.all(servers.map(closeOne)) };
}

/**
 * Stops a child started in a process group of its own (spawn with `detached: true`): SIGTERM to the group, SIGKILL to
 * it after `graceMs` if it has not exited, then waits for `exited` (the child's exit). Never signals anything else.
 */
export async function stopGroup(child, exited, graceMs = 30_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const signal = (s) => {
    try {
      process.kill(-child.pid, s);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const late = setTimeout(() => signal("SIGKILL"), graceMs);
  await exited;
  clearTimeout(late);
}

/**
 * Starts `node <self> --serve <opts>` (a script serving a Worker copy through serveWorker) in a process group of its
 * own in `cwd`, its output written to `logFile`. Returns the child, a promise of its exit, its last output (for an
 * error), and `close()` for the log file. Stop it with stopGroup(child, exited).
 */
export function spawnServer(self, cwd, opts, logFile) {
  const child = spawn(process.execPath, [self, "--serve", JSON.stringify(opts)], {
    cwd,
    env: wranglerEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const file = createWriteStream(logFile);
  let tail = "";
  const onData = (d) => {
    file.write(d);
    tail = (tail + d).slice(-4000);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise((r) => child.once("exit", r));
  return { child, exited, tail: () => tail, close: () => file.end() };
}
