// node scripts/check-bundles.mjs (run by npm test and .ci/run): builds each Worker's deploy bundle as `wrangler deploy
// --dry-run` does (WORKER_CONFIGS in scripts/lib.mjs), prints its size raw and gzipped, and fails when the API Worker
// carries a heavy reader the request path must not load (issue 30 §2: the PDF engine, the browser client, axe-core's
// source, a spreadsheet reader, the image maker), or when its bundle passes 1 MiB gzipped. The heavy readers belong to the readers
// Worker (src/readers.ts), which the API Worker calls through its READERS binding.
// Exits 1 on a failure; writes nothing in the repo (bundles go to a temporary folder, removed after).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT, WORKER_CONFIGS, wranglerEnv } from "./lib.mjs";

/** Modules the API Worker's bundle must not hold (a path of the bundle's inputs matching one fails the check). */
export const API_MUST_NOT_HOLD = [
  { what: "the PDF engine (unpdf, pdf.js)", re: /node_modules\/unpdf\// },
  { what: "the browser client (@cloudflare/puppeteer)", re: /node_modules\/@cloudflare\/puppeteer\// },
  { what: "axe-core's source", re: /node_modules\/axe-core\/|src\/sources\/web\/axeSource\.generated/ },
  { what: "the spreadsheet reader (xlsx)", re: /node_modules\/xlsx\// },
  { what: "the image maker (Photon's WebAssembly)", re: /node_modules\/@cf-wasm\// },
  {
    what: "the readers' PDF, browser and image modules",
    re: /src\/sources\/documents\/pdf\.ts|src\/sources\/web\/browser\.ts|src\/sources\/images\/transform\.ts/,
  },
];
/** The API Worker's deploy bundle, gzipped, at most (issue 30: the API Worker's gzip ≤ 1 MiB). */
export const API_MAX_GZIP_BYTES = 1024 * 1024;

export function buildBundle(config) {
  const out = mkdtempSync(join(tmpdir(), "ukbi-bundle-"));
  try {
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
        "deploy",
        "--dry-run",
        "-c",
        join(ROOT, config),
        "--outdir",
        out,
        "--metafile",
        join(out, "meta.json"),
      ],
      { cwd: ROOT, env: wranglerEnv(), encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`wrangler deploy --dry-run -c ${config} failed:\n${r.stdout}${r.stderr}`);
    // The modules uploaded: JavaScript and WebAssembly (a .wasm import is a module of its own).
    const js = readdirSync(out).filter((n) => n.endsWith(".js") || n.endsWith(".wasm"));
    let raw = 0;
    let gzip = 0;
    for (const n of js) {
      const b = readFileSync(join(out, n));
      raw += b.length;
      gzip += gzipSync(b).length;
    }
    const meta = JSON.parse(readFileSync(join(out, "meta.json"), "utf8"));
    const inputs = Object.values(meta.outputs)
      .flatMap((o) => Object.keys(o.inputs ?? {}))
      .map((p) => relative(ROOT, join(ROOT, p)).replace(/\\/g, "/"));
    return { config, raw, gzip, inputs };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const failures = [];
  for (const [i, config] of WORKER_CONFIGS.entries()) {
    const b = buildBundle(config);
    const name = readFileSync(join(ROOT, config), "utf8").match(/^name\s*=\s*"([^"]+)"/m)?.[1] ?? config;
    console.log(`bundle ${name} (${config}): ${(b.raw / 1024).toFixed(0)} KiB, gzip ${(b.gzip / 1024).toFixed(0)} KiB`);
    if (i !== 0) continue;
    for (const m of API_MUST_NOT_HOLD) {
      const hit = b.inputs.filter((p) => m.re.test(p));
      if (hit.length)
        failures.push(`the API Worker's bundle holds ${m.what}: ${hit.slice(0, 3).join(", ")}${hit.length > 3 ? `, and ${hit.length - 3} more` : ""}`);
    }
    if (b.gzip > API_MAX_GZIP_BYTES)
      failures.push(`the API Worker's bundle is ${(b.gzip / 1024).toFixed(0)} KiB gzipped, over ${API_MAX_GZIP_BYTES / 1024} KiB`);
  }
  for (const f of failures) console.error(`✗ ${f}`);
  if (failures.length) process.exit(1);
  console.log("bundles: the API Worker holds none of the heavy readers, and is within its size");
}
