/**
 * Which lane each test file runs in (docs/testing.md). The rule is computed, never listed, so it cannot go stale:
 *
 * - a test file runs in the **Workers lane** (inside workerd, vitest.config.ts's `workers` project) when the files it
 *   imports, followed through every relative import of the repository (test/helpers.ts, test/support/*, src/**),
 *   reach a `cloudflare:` module (`cloudflare:workers` for `env`/`exports`, `cloudflare:test`, or src's KeyLedger and
 *   readers entrypoints); or when WORKERS_ONLY below names it;
 * - every other test file runs in the **Node lane** (plain Node, the `node` project).
 *
 * Imports followed: static `import … from`, `export … from`, side-effect `import "…"` and `import("…")` with a literal
 * specifier (`vi.mock(import("…"))` too). Type-only imports (`import type`, `export type`) are left out, as the
 * compiler erases them. Packages are not followed: none that src uses imports `cloudflare:` (the lanes test checks it).
 * Anything the walk cannot see is caught twice: the Node lane refuses to resolve a `cloudflare:` module (the import
 * fails, naming the file), and test/support/lanes.test.ts checks every test file's lane against esbuild's own
 * resolution of the same imports.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/**
 * Test files that must run in workerd for a reason their imports do not show (a runtime global, a behaviour of
 * workerd's own fetch or streams under test), with the reason. Keep it short: the lanes test fails on an entry that
 * names no test file or one that would be in the Workers lane anyway.
 */
export const WORKERS_ONLY: Record<string, string> = {
  "test/sources/hostile/pdfEncrypted.test.ts": "the PDF decryption's key derivation asks crypto.subtle for MD5, which workerd has and Node's WebCrypto has not",
};

/** Where the test files are: every `*.test.ts` under test/, except the fixture trees. */
export function testFiles(root: string): string[] {
  return readdirSync(join(root, "test"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts") && !f.split(sep).includes("fixtures"))
    .map((f) => `test/${f.split(sep).join("/")}`)
    .sort();
}

const STATIC = /^[ \t]*(import|export)\s+(type\s+)?([^;]*?)\bfrom\s*["']([^"']+)["']/gm;
const SIDE_EFFECT = /^[ \t]*import\s*["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The specifiers a module imports (type-only imports left out). */
export function importsOf(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(STATIC)) if (!m[2] && !/^type\s*\{/.test(m[3] ?? "")) out.push(m[4]!);
  for (const m of source.matchAll(SIDE_EFFECT)) out.push(m[1]!);
  for (const m of source.matchAll(DYNAMIC)) out.push(m[1]!);
  return out;
}

function resolveRelative(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, base.replace(/\.m?js$/, ".ts"), join(base, "index.ts")];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/**
 * For each test file, the shortest chain of imports that reaches a `cloudflare:` module (the test file first, the
 * `cloudflare:` specifier last), or undefined when none does.
 */
export function runtimeChains(root: string, files = testFiles(root)): Map<string, string[] | undefined> {
  const edges = new Map<string, string[]>();
  const edgesOf = (abs: string): string[] => {
    let out = edges.get(abs);
    if (!out) {
      out = [];
      if (/\.(tsx?|[cm]?js)$/.test(abs))
        for (const spec of importsOf(readFileSync(abs, "utf8"))) {
          if (spec.startsWith("cloudflare:")) out.push(spec);
          else if (spec.startsWith(".")) {
            const next = resolveRelative(abs, spec);
            if (next) out.push(next);
          }
        }
      edges.set(abs, out);
    }
    return out;
  };
  const chainOf = (file: string): string[] | undefined => {
    const start = join(root, file);
    const parent = new Map<string, string | null>([[start, null]]);
    for (const queue = [start]; queue.length; ) {
      const at = queue.shift()!;
      for (const next of edgesOf(at)) {
        if (parent.has(next)) continue;
        parent.set(next, at);
        if (next.startsWith("cloudflare:")) {
          const chain: string[] = [];
          for (let n: string | null = next; n !== null; n = parent.get(n) ?? null)
            chain.unshift(n.startsWith("cloudflare:") ? n : relative(root, n).split(sep).join("/"));
          return chain;
        }
        queue.push(next);
      }
    }
    return undefined;
  };
  return new Map(files.map((f) => [f, chainOf(f)]));
}

export interface Lanes {
  node: string[];
  workers: string[];
}

/** The two lanes, each a sorted list of test files relative to the repository root. */
export function testLanes(root: string): Lanes {
  const lanes: Lanes = { node: [], workers: [] };
  for (const [file, chain] of runtimeChains(root)) (chain || file in WORKERS_ONLY ? lanes.workers : lanes.node).push(file);
  return lanes;
}
