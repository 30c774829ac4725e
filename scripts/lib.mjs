// Helpers shared by the npm scripts (start, key, ingest, bench). Node only.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DB_NAME = "ukbi";

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

/** Applies the D1 migrations to the local database (optionally under another persistence folder). */
export function migrateLocal(persistTo) {
  wrangler(["d1", "migrations", "apply", DB_NAME, "--local", ...(persistTo ? ["--persist-to", persistTo] : [])], { quiet: true });
}

/** Bundles a TypeScript entry for Node with esbuild and imports it. */
export async function importTs(entry) {
  const { build } = await import("esbuild");
  const out = join(ROOT, ".wrangler", "cli", entry.replace(/[/\\]/g, "_").replace(/\.ts$/, ".mjs"));
  mkdirSync(dirname(out), { recursive: true });
  await build({ entryPoints: [join(ROOT, entry)], outfile: out, bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "error" });
  return import(`${out}?t=${Date.now()}`);
}

/**
 * The local D1 database that `wrangler dev` uses, from Node. The proxy gets a config holding only the
 * D1 binding (same database id, so the same local file): the Durable Object class lives in the Worker.
 */
export async function localEnv(persistTo) {
  const { getPlatformProxy } = await import("wrangler");
  const main = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const d1 = main.match(/\[\[d1_databases\]\][\s\S]*?(?=\n\[|$)/)?.[0];
  const date = main.match(/^compatibility_date\s*=.*$/m)?.[0];
  const config = join(ROOT, ".wrangler", "cli", "wrangler.d1.toml");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, `name = "ukbi-cli"\n${date}\n\n${d1}\n`);
  // wrangler dev --persist-to X keeps its files under X/v3; the proxy takes the folder as it is.
  return getPlatformProxy({ configPath: config, persist: { path: join(persistTo ?? join(ROOT, ".wrangler", "state"), "v3") } });
}

export function startDev(port, { persistTo, vars = {} } = {}) {
  const args = [join(ROOT, "node_modules/wrangler/bin/wrangler.js"), "dev", "--port", String(port), "--ip", "127.0.0.1", ...(persistTo ? ["--persist-to", persistTo] : [])];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  return spawn(process.execPath, args, { cwd: ROOT, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"] });
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
