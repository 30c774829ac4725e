import { build, type Metafile } from "esbuild";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runtimeChains, testFiles, testLanes, WORKERS_ONLY } from "./lanes";
import { ROOT } from "./shared";

/**
 * The lanes cannot drift (docs/testing.md): test/support/lanes.ts decides them from the imports with a walk of its own;
 * here esbuild resolves the same test files as the Node lane would load them (packages included) and must agree. A
 * Node-lane file that reaches a `cloudflare:` module, or a Workers-lane file that reaches none (so runs in the slow
 * lane for nothing), fails this test by name.
 */

/** The files vitest's own default pattern finds in the repository, outside what the config excludes. */
function vitestWouldFind(): string[] {
  const skip = new Set(["node_modules", ".git", ".wrangler", ".bench", ".browser-test", ".act", "dist", "fixtures"]);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (skip.has(e.name)) continue;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) walk(rel);
      else if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(e.name)) out.push(rel);
    }
  };
  walk("");
  return out.sort();
}

describe("the test lanes (test/support/lanes.ts)", () => {
  const lanes = testLanes(ROOT);

  it("every test file is in exactly one lane, and there is no test file the lanes do not know", () => {
    expect(lanes.node.length).toBeGreaterThan(20);
    expect(lanes.workers.length).toBeGreaterThan(20);
    expect(lanes.node.filter((f) => lanes.workers.includes(f))).toEqual([]);
    expect([...lanes.node, ...lanes.workers].sort()).toEqual(testFiles(ROOT));
    expect(vitestWouldFind()).toEqual(testFiles(ROOT));
  });

  it("esbuild agrees: Node-lane files reach no cloudflare: module, Workers-lane files do (or are named in WORKERS_ONLY)", async () => {
    const files = testFiles(ROOT);
    const { metafile } = await build({
      absWorkingDir: ROOT,
      entryPoints: files,
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      format: "esm",
      splitting: true,
      outdir: "lanes-check",
      external: ["cloudflare:*"],
      loader: { ".md": "text" },
      logLevel: "silent",
    });
    const reaches = reachesRuntime(metafile);
    const misplaced = files.flatMap((f) => {
      const inWorkers = lanes.workers.includes(f);
      const needs = reaches(f);
      if (!inWorkers && needs) return [`${f}: in the Node lane, but reaches cloudflare: (${needs})`];
      if (inWorkers && !needs && !(f in WORKERS_ONLY)) return [`${f}: in the Workers lane, but reaches no cloudflare: module`];
      return [];
    });
    expect(misplaced).toEqual([]);
  }, 120_000);

  it("WORKERS_ONLY names test files that exist and would otherwise run in Node", () => {
    const chains = runtimeChains(ROOT);
    for (const f of Object.keys(WORKERS_ONLY)) {
      expect(chains.has(f), `${f} is not a test file`).toBe(true);
      expect(chains.get(f), `${f} reaches cloudflare: by its imports already`).toBeUndefined();
    }
  });
});

/** For a test file (relative path), the first `cloudflare:` specifier its bundle imports, or undefined. */
function reachesRuntime(metafile: Metafile): (file: string) => string | undefined {
  const memo = new Map<string, string | null>();
  const visit = (input: string, seen: Set<string>): string | null => {
    if (memo.has(input)) return memo.get(input)!;
    if (seen.has(input)) return null;
    seen.add(input);
    let found: string | null = null;
    for (const imp of metafile.inputs[input]?.imports ?? []) {
      if (imp.path.startsWith("cloudflare:")) found = `${input} imports ${imp.path}`;
      else if (!imp.external) found = visit(imp.path, seen);
      if (found) break;
    }
    if (found) memo.set(input, found);
    return found;
  };
  return (file) => visit(file, new Set()) ?? undefined;
}
