import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PREBUNDLED, ZOD_ENTRIES } from "./prebundled";

/**
 * The Workers lane's pre-bundled packages (test/support/prebundled.ts): every package installed that imports zod is in
 * the list (else it would load a second zod beside the pre-bundled one), and every entry of the list is installed.
 */
const ROOT = join(import.meta.dirname, "../..");
const NM = join(ROOT, "node_modules");

/** The installed packages' names (scoped ones as @scope/name). */
function installed(): string[] {
  return readdirSync(NM)
    .filter((d) => !d.startsWith("."))
    .flatMap((d) => (d.startsWith("@") ? readdirSync(join(NM, d)).map((n) => `${d}/${n}`) : [d]));
}

/** Whether a package's JavaScript imports zod (its files, not its dependencies'), read as text. */
function importsZod(pkg: string): boolean {
  const dir = join(NM, pkg);
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => /\.(m?js|cjs)$/.test(f) && !f.includes("node_modules"));
  return files.some((f) => /(?:from\s*|require\(\s*|import\(\s*)["']zod(?:\/[\w/]+)?["']/.test(readFileSync(join(dir, f), "utf8")));
}

describe("the Workers lane's pre-bundled packages", () => {
  it("every installed package that imports zod is pre-bundled with it (one copy of zod in the lane)", () => {
    const dependencies = Object.keys(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies);
    // The API Worker's dependencies and what they bring in: every package of node_modules that imports zod.
    const zodUsers = installed().filter((p) => p !== "zod" && !p.startsWith("@types/") && importsZod(p));
    expect(zodUsers.length).toBeGreaterThan(2);
    const missing = zodUsers.filter((p) => !PREBUNDLED.includes(p) && (dependencies.includes(p) || dependencies.some((d) => dependsOn(d, p))));
    expect(missing, "add these to test/support/prebundled.ts").toEqual([]);
  });

  it("every entry is installed, and zod's entries are all there", () => {
    for (const p of PREBUNDLED) expect(existsSync(join(NM, p.startsWith("zod/") ? "zod" : p)), p).toBe(true);
    for (const z of ZOD_ENTRIES) expect(PREBUNDLED).toContain(z);
  });
});

/** Whether `pkg` is among `dep`'s own dependencies (one level: what the Worker's dependencies bring in directly). */
function dependsOn(dep: string, pkg: string): boolean {
  try {
    const j = JSON.parse(readFileSync(join(NM, dep, "package.json"), "utf8"));
    return pkg in { ...j.dependencies, ...j.peerDependencies };
  } catch {
    return false;
  }
}
