// The startup cost of a Worker (issue 30 §1 "Nothing at import"): what every cold start pays before its first request.
//  - busy CPU of the global scope in workerd, from the CPU profile `wrangler check startup` writes (idle samples left
//    out), ROUNDS runs (default 3): min and median (goal ≤ 100 ms);
//  - the deploy bundle (`wrangler deploy --dry-run --outdir`): the main module and every module uploaded, raw and gzip;
//  - the same bundle imported by a fresh Node process (V8, `cloudflare:*` imports stubbed, text and wasm modules read
//    the way wrangler's module rules give them): CPU of the import (process.cpuUsage) and the heap after it, after a
//    full GC (goal ≤ 100 ms, ≤ 15 MB).
// One Worker per run, named by its configuration (npm run bench runs each wrangler*.toml):
// node --expose-gc scripts/bench/startup.mjs [--config wrangler.toml]
// [--rounds 3] [--bundle <dir>: a bundle already built there, measured as it is; no profile then]
// [--top N: also the N functions with the most inclusive time, from a profile of the unminified bundle].
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");
const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", CI: "true" };
const ms = (x) => Math.round(x * 10) / 10;
const mb = (x) => Math.round((x / 1024 / 1024) * 10) / 10;
const kib = (x) => Math.round(x / 1024);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

function wrangler(args) {
  const r = spawnSync(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`wrangler ${args.join(" ")} exited with ${r.status}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Busy CPU of a V8 CPU profile (every sample but idle ones), and the functions by inclusive time. */
export function profileFigures(profile, top = 0) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let busy = 0;
  const inclusive = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (node.callFrame.functionName === "(idle)") continue;
    busy += dt;
    if (!top) continue;
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id).callFrame;
      const key = `${f.functionName || "(anonymous)"} ${basename(f.url || "")}:${f.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  }
  const functions = [...inclusive]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([fn, t]) => `${ms(t)} ms ${fn}`);
  return { busyMs: ms(busy), ...(top ? { functions } : {}) };
}

/**
 * `wrangler check startup` on a bundle built once (`wrangler deploy --dry-run --outfile`): the global scope run in
 * workerd under the CPU profiler. (Without `--worker` it builds wrangler.toml's Worker whatever `--config` says.)
 */
function checkStartup(workerBundle) {
  const dir = mkdtempSync(join(tmpdir(), "startup-profile-"));
  try {
    const out = join(dir, "startup.cpuprofile");
    wrangler(["check", "startup", "--worker", workerBundle, "--outfile", out]);
    return JSON.parse(readFileSync(out, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The modules a bundle directory uploads (source maps and the README wrangler writes aside), raw and gzip. */
function bundleSizes(dir, main) {
  const files = readdirSync(dir).filter((f) => !f.endsWith(".map") && f !== "README.md" && statSync(join(dir, f)).isFile());
  const size = (f) => {
    const b = readFileSync(join(dir, f));
    return { raw: b.length, gzip: gzipSync(b).length };
  };
  const all = files.map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
  const m = size(main);
  return { mainModule: main, mainKiB: kib(m.raw), mainGzipKiB: kib(m.gzip), modules: files.length, totalKiB: kib(all.raw), totalGzipKiB: kib(all.gzip) };
}

/** The bundle's main module imported by a fresh Node process (this file with --import-bundle). */
function importInNode(file) {
  const r = spawnSync(
    process.execPath,
    ["--expose-gc", fileURLToPath(import.meta.url), "--import-bundle", file, "--stubs", JSON.stringify(cloudflareImports(file))],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (r.status !== 0) return { error: `${r.stderr || r.stdout}`.trim().split("\n").slice(0, 6).join(" | ") };
  return JSON.parse(r.stdout.trim().split("\n").at(-1));
}

export async function benchStartup({ config = "wrangler.toml", rounds = 3, bundle = null, top = 0 } = {}) {
  const out = { config };
  const work = mkdtempSync(join(tmpdir(), "startup-bench-"));
  try {
    let dir = bundle ? resolve(bundle) : null;
    if (!dir) {
      const form = join(work, "worker.bundle");
      wrangler(["deploy", "--dry-run", "--config", config, "--outfile", form]);
      const busy = [];
      for (let i = 0; i < rounds; i++) busy.push(profileFigures(checkStartup(form)).busyMs);
      out.startupBusyMs = { min: Math.min(...busy), median: median(busy), runs: busy, goal: 100 };
      if (top) {
        // Names and lines need the unminified bundle (the deployed one is minified; its busy CPU is the figure above).
        const plain = join(work, "plain.bundle");
        wrangler(["deploy", "--dry-run", "--config", config, "--minify=false", "--outfile", plain]);
        out.startupFunctions = profileFigures(checkStartup(plain), top).functions;
      }
      dir = join(work, "out");
      wrangler(["deploy", "--dry-run", "--config", config, "--outdir", dir]);
    }
    const main = readdirSync(dir).find((f) => /\.m?js$/.test(f));
    out.bundle = bundleSizes(dir, main);
    const runs = [];
    for (let i = 0; i < rounds; i++) runs.push(importInNode(join(dir, main)));
    const ok = runs.filter((r) => !r.error);
    out.nodeImport = ok.length
      ? {
          // CPU of the whole process (V8's compiler and GC threads too); wallMs: the import's elapsed time.
          cpuMs: { min: Math.min(...ok.map((r) => r.cpuMs)), median: median(ok.map((r) => r.cpuMs)), goal: 100 },
          wallMs: { min: Math.min(...ok.map((r) => r.wallMs)), median: median(ok.map((r) => r.wallMs)) },
          heapAfterImportMB: { median: median(ok.map((r) => r.heapAfterMB)), goal: 15 },
          heapBeforeImportMB: median(ok.map((r) => r.heapBeforeMB)),
        }
      : { error: runs[0].error };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}

/** Every Worker of the service, by its configuration: wrangler.toml and each wrangler.<name>.toml beside it. */
export const workerConfigs = () => [
  "wrangler.toml",
  ...readdirSync(ROOT)
    .filter((f) => /^wrangler\..+\.toml$/.test(f))
    .sort(),
];

/** The bench of every Worker (scripts/bench/index.mjs). */
export async function benchStartupAll(opts = {}) {
  const out = [];
  for (const config of workerConfigs()) out.push(await benchStartup({ ...opts, config }));
  return out;
}

/**
 * Module hooks for the Node import: `cloudflare:*` modules become stubs exporting the names the bundle imports from
 * them (classes, so `extends DurableObject` works); text, data and wasm modules load as wrangler's module rules make them.
 */
const HOOKS = `
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
let names = {};
export async function initialize(data) { names = data; }
export async function resolve(specifier, context, next) {
  if (specifier.startsWith("cloudflare:")) return { url: "stub:" + specifier, shortCircuit: true };
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (url.startsWith("stub:")) {
    const list = names[url.slice(5)] ?? [];
    const source = list.map((n) => "export class " + n + " {}").join("\\n") + "\\nexport default {};";
    return { format: "module", source, shortCircuit: true };
  }
  const path = url.startsWith("file:") ? fileURLToPath(url) : null;
  if (path && /\\.(md|txt|html|sql|csv)$/.test(path)) return { format: "module", source: "export default " + JSON.stringify(readFileSync(path, "utf8")) + ";", shortCircuit: true };
  if (path && path.endsWith(".wasm")) return { format: "module", source: "export default new WebAssembly.Module(Buffer.from(" + JSON.stringify(readFileSync(path).toString("base64")) + ", 'base64'));", shortCircuit: true };
  if (path && path.endsWith(".bin")) return { format: "module", source: "export default Buffer.from(" + JSON.stringify(readFileSync(path).toString("base64")) + ", 'base64').buffer;", shortCircuit: true };
  return next(url, context);
}`;

/** The names the bundle imports from each `cloudflare:*` module (read here: the child's heap holds nothing but the import). */
function cloudflareImports(file) {
  const names = {};
  for (const m of readFileSync(file, "utf8").matchAll(/import\s*\{([^}]*)\}\s*from\s*["'](cloudflare:[\w-]+)["']/g))
    names[m[2]] = [
      ...new Set([
        ...(names[m[2]] ?? []),
        ...m[1]
          .split(",")
          .map((s) => s.trim().split(/\s+as\s+/)[0])
          .filter(Boolean),
      ]),
    ];
  return names;
}

async function importBundle(file, stubs) {
  const { register } = await import("node:module");
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: stubs });
  global.gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await import(pathToFileURL(file).href);
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  global.gc();
  const heapAfter = process.memoryUsage().heapUsed;
  console.log(JSON.stringify({ cpuMs: ms((used.user + used.system) / 1000), wallMs: ms(wall), heapBeforeMB: mb(heapBefore), heapAfterMB: mb(heapAfter) }));
}

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--import-bundle")) await importBundle(arg("import-bundle"), JSON.parse(arg("stubs", "{}")));
  else
    console.log(
      JSON.stringify(
        await benchStartup({
          config: arg("config", "wrangler.toml"),
          rounds: Number(arg("rounds", 3)),
          bundle: arg("bundle", null),
          top: Number(arg("top", 0)),
        }),
        null,
        2,
      ),
    );
}
