/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";

/**
 * The layer rules of docs/architecture.md ("The shape of the service"), checked on every import of every file in src/;
 * the page's table is checked against RULES too, so the picture a newcomer reads is the one the imports follow.
 * Data flows one way: request → gateway → operation → services → sources and db → reply.
 *
 * A layer is the first folder under src/ (`src/sources/sra/parse.ts` is in `sources`), or the file's own name
 * for a file at the top (`src/index.ts` is `index`, `src/env.ts` is `env`). Every file must be in a layer of
 * this table: a new folder needs a row here (and one in docs/architecture.md's table).
 *
 * A row says what a layer may import, either as `may` (only these layers; its own included) or as `mayNot`
 * (anything but these). `typeOnly` lists layers it may import types from (`import type …`, or every name
 * marked `type`) even though it may not import their code.
 *
 * Decisions the table leaves open:
 * - `env` (src/env.ts, the Worker's bindings as types) may be imported by the layers the runtime hands `env` to:
 *   index, platform, jobs, ledger. Not by services, sources, db or shared (they get config and ports instead).
 * - operations may import types (only) from sources: a handler names the records ctx.services returns.
 * - platform may import anything but jobs' code: the services wiring builds sources and db adapters, and the jobs'
 *   composition root (platform/jobPorts.ts) builds the ports the jobs declare (types from jobs/ports.ts); background
 *   work starts from src/index.ts (scheduled, queue).
 * - operations and app may import platform's operation kit only (KIT below: the registry's defineOperation, the
 *   shared schemas, errors, plans, crypto, and the Services type): every operation file is defined through it. The
 *   kit imports nothing of app/ or operations/, so the arrows stay one way: platform → operations → app → services.
 * - platform reaches operation code only through the route table (routes.ts) and the operations list (app.ts loads
 *   src/operations/index.ts for the documents and MCP); what it shares with operations lives in app/.
 */
interface Rule {
  layer: string;
  may?: string[];
  mayNot?: string[];
  typeOnly?: string[];
  /** Said in the failure message: why the rule is there and where to look. */
  why: string;
}

const RULES: Rule[] = [
  { layer: "index", mayNot: [], why: "the Worker entry wires everything and holds no logic" },
  {
    layer: "readers",
    may: ["sources", "services", "shared"],
    why: "the readers Worker's entry (the PDF engine and the browser behind the API Worker's READERS binding): it serves sources, and the API Worker reaches it only through sources/readers/",
  },
  {
    layer: "platform",
    mayNot: ["jobs"],
    typeOnly: ["jobs"],
    why: "the registry, generators, gateway and the wiring (services.ts for requests, jobPorts.ts for jobs, which names the jobs' ports as types); background work is started by src/index.ts (scheduled, queue), never by the request path",
  },
  {
    layer: "operations",
    may: ["operations", "app", "services", "shared", "platform"],
    typeOnly: ["sources"],
    why: "a handler reaches sources and db only through ctx.services, and what several operations share through app/; the gateway does the charging (ledger)",
  },
  {
    layer: "app",
    may: ["app", "services", "shared", "platform"],
    typeOnly: ["sources"],
    why: "the application layer: what several operations (and platform's feeds and the watch reader) share, built on ctx.services; it never calls an operation",
  },
  { layer: "services", may: ["services", "shared"], why: "pure domain logic: no I/O, testable without the runtime" },
  {
    layer: "sources",
    may: ["sources", "services", "shared"],
    why: "one folder per upstream; it gets its base URL, key, cache and budget through ports (shared/), and never knows HTTP replies or tables",
  },
  {
    layer: "jobs",
    may: ["jobs", "sources", "services", "db", "shared", "env"],
    why: "background work never goes through the request path (platform, operations)",
  },
  {
    layer: "cli",
    may: ["cli", "jobs", "sources", "services", "db", "shared", "env"],
    why: "the npm scripts' entries into the jobs' code against the local databases (ingest, reset and the SIC lists in Node; npm run job in a local Workers runtime)",
  },
  { layer: "ledger", may: ["ledger", "shared", "env"], why: "the KeyLedger Durable Object touches only its own storage" },
  {
    layer: "db",
    may: ["db", "services", "shared"],
    why: "SQL by table group; db implements ports that live in shared/ and stores the domain's records (services types and constants, which are pure)",
  },
  { layer: "shared", may: ["shared"], why: "what every layer may import, so it imports nothing from src/" },
  { layer: "env", mayNot: [], why: "the Worker's bindings, as types" },
];

/**
 * platform's operation kit: the only platform files operations/ and app/ may import (`types` files as types only).
 * It imports nothing of app/ or operations/ (tested), so it sits below them.
 */
const KIT = {
  code: ["/src/platform/registry.ts", "/src/platform/schemas.ts", "/src/platform/errors.ts", "/src/platform/plans.ts", "/src/platform/crypto.ts"],
  types: ["/src/platform/services.ts"],
};
/** The only files outside operations/ that may import operation code: the route table, and the loader of the operations list. */
const OPERATION_LOADERS = ["/src/platform/routes.ts", "/src/platform/app.ts"];

/** Nobody may import these files (entry points). */
const NOT_IMPORTABLE = ["src/index.ts", "src/readers.ts"];

// ---------------------------------------------------------------------------------------------------------

/** Every TypeScript file under src/, as text, keyed `/src/…`. */
const FILES = import.meta.glob<string>("/src/**/*.ts", { query: "?raw", import: "default", eager: true });

interface Edge {
  from: string;
  to: string;
  /** As written in the file. */
  specifier: string;
  typeOnly: boolean;
  line: number;
}

const CLAUSE = String.raw`(?:\*(?:\s+as\s+\w+)?|\{[^}]*\}|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)`;
/** `import … from "x"`, `export … from "x"` (with or without `type`), at the start of a line. */
const STATIC = new RegExp(String.raw`^[ \t]*(import|export)\s+(type\s+)?(${CLAUSE})\s+from\s+["']([^"']+)["']`, "gm");
/** `import "x"` (side effects only). */
const BARE = /^[ \t]*import\s+["']([^"']+)["']/gm;
/** `import("x")` and `import type("x")`-style type queries: `typeof import("x")` counts as a type. */
const DYNAMIC = /(typeof\s+)?\bimport\(\s*["']([^"']+)["']\s*\)/g;

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** Every name in `{ a, type b }` marked `type` (an empty list is not type-only). */
function allNamesAreTypes(clause: string): boolean {
  if (!clause.startsWith("{")) return false;
  const names = clause
    .slice(1, -1)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => /^type\s/.test(n));
}

/** `/src/a/b.ts` + `../c` → the file it names, or the path as written when no such file is in src/. */
function resolve(from: string, specifier: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const p of specifier.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== ".") parts.push(p);
  }
  const base = parts.join("/");
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) if (candidate in FILES) return candidate;
  return base;
}

function importsOf(file: string, text: string): Edge[] {
  const edges: Edge[] = [];
  const add = (specifier: string, typeOnly: boolean, index: number) => {
    if (!specifier.startsWith(".")) return; // a package or a runtime module
    edges.push({ from: file, to: resolve(file, specifier), specifier, typeOnly, line: lineOf(text, index) });
  };
  for (const m of text.matchAll(STATIC)) add(m[4], !!m[2] || allNamesAreTypes(m[3]), m.index);
  for (const m of text.matchAll(BARE)) add(m[1], false, m.index);
  for (const m of text.matchAll(DYNAMIC)) {
    const lineStart = text.lastIndexOf("\n", m.index) + 1;
    if (/^\s*(\/\/|\*)/.test(text.slice(lineStart, m.index))) continue; // in a comment
    add(m[2], !!m[1], m.index);
  }
  return edges;
}

/** Files outside src/ (CHANGELOG.md read as text, …) are in no layer and under no rule. */
const OUTSIDE = "outside src/";
/** `/src/sources/sra/parse.ts` → `sources`; `/src/index.ts` → `index`. */
const layerOf = (file: string): string => {
  const [, top, first, second] = file.split("/");
  if (top !== "src" || first === undefined) return OUTSIDE;
  return second === undefined ? first.replace(/\.[^.]+$/, "") : first;
};
/** `src/…` as a reader would type it. */
const show = (file: string) => file.replace(/^\//, "");

const EDGES = Object.entries(FILES).flatMap(([file, text]) => importsOf(file, text));
const RULE_OF = new Map(RULES.map((r) => [r.layer, r]));

/** Why an import breaks its layer's rule, or null when it does not. */
function breaks(e: Edge, rule: Rule): string | null {
  const target = layerOf(e.to);
  if (target === rule.layer || target === OUTSIDE) return null;
  const allowed = rule.may ? rule.may.includes(target) : !rule.mayNot!.includes(target);
  const kitOnly = target === "platform" && (rule.layer === "operations" || rule.layer === "app");
  if (allowed && !kitOnly) return null;
  if (allowed && (KIT.code.includes(e.to) || (e.typeOnly && KIT.types.includes(e.to)))) return null;
  if (allowed)
    return `${show(e.from)}:${e.line} imports${e.typeOnly ? " type-only" : ""} "${e.specifier}" (${show(e.to)}): ${rule.layer}/ may import from platform/ only its operation kit (${KIT.code.map(show).join(", ")}; types from ${KIT.types.map(show).join(", ")}); ${rule.why}`;
  if (e.typeOnly && rule.typeOnly?.includes(target)) return null;
  const limit = rule.may
    ? `${rule.layer}/ may import only ${rule.may.map((l) => `${l}/`).join(", ")}`
    : `${rule.layer}/ may not import ${rule.mayNot!.map((l) => `${l}/`).join(", ")}`;
  const types = rule.typeOnly?.length ? ` (types only from ${rule.typeOnly.map((l) => `${l}/`).join(", ")})` : "";
  return `${show(e.from)}:${e.line} imports${e.typeOnly ? " type-only" : ""} "${e.specifier}" (${show(e.to)}): ${limit}${types}; ${rule.why}`;
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (next.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** One shortest path of imports from `start` back to itself inside `within`, written out edge by edge. */
function loopThrough(start: string, within: Set<string>): string {
  const prev = new Map<string, Edge>();
  const queue = [start];
  const seen = new Set([start]);
  while (queue.length) {
    const v = queue.shift()!;
    for (const e of EDGES.filter((x) => x.from === v && within.has(x.to))) {
      if (e.to === start) {
        const path = [e];
        for (let at = v; at !== start; at = prev.get(at)!.from) path.unshift(prev.get(at)!);
        return path.map((p) => `${show(p.from)}:${p.line} imports${p.typeOnly ? " type-only" : ""} "${p.specifier}"`).join(" → ") + ` → back to ${show(start)}`;
      }
      if (!seen.has(e.to)) {
        seen.add(e.to);
        prev.set(e.to, e);
        queue.push(e.to);
      }
    }
  }
  return "";
}

/** docs/architecture.md, as text. */
const ARCHITECTURE = Object.values(import.meta.glob<string>("/docs/architecture.md", { query: "?raw", import: "default", eager: true }))[0] ?? "";

/** The page's table: layer (from the `place` cell) → the layers its `may import` cell names, and those it names as types only. */
function documentedRules(markdown: string): Map<string, { may: Set<string> | "all"; but: Set<string>; types: Set<string> }> {
  const rows = new Map<string, { may: Set<string> | "all"; but: Set<string>; types: Set<string> }>();
  for (const line of markdown.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const place = /^`src\/([a-z]+)(?:\/|\.ts)`$/.exec(cells[1] ?? "");
    if (!place || cells.length < 5) continue;
    const [allowed, types = ""] = cells[3].split(";");
    const names = (t: string) => new Set([...t.matchAll(/`([a-z]+)`/g)].map((m) => m[1]));
    const all = /^all\b/.test(allowed.trim());
    rows.set(place[1], { may: all ? "all" : names(allowed), but: all ? names(allowed) : new Set(), types: names(types) });
  }
  return rows;
}

describe("docs/architecture.md layers: every import in src/ follows the table", () => {
  it("docs/architecture.md's table says what RULES says, row for row", () => {
    const documented = documentedRules(ARCHITECTURE);
    expect([...documented.keys()].sort()).toEqual(RULES.map((r) => r.layer).sort());
    const sorted = (xs: Iterable<string>) => [...xs].sort();
    for (const rule of RULES) {
      const row = documented.get(rule.layer)!;
      const said = { may: row.may === "all" ? "all" : sorted(row.may), but: sorted(row.but), types: sorted(row.types) };
      const meant = { may: rule.may ? sorted(rule.may) : "all", but: sorted(rule.mayNot ?? []), types: sorted(rule.typeOnly ?? []) };
      expect(said, `docs/architecture.md's row for src/${rule.layer}`).toEqual(meant);
    }
    // The reader can fail: a row that names one layer too many is told apart.
    const wrong = documentedRules("| `src/db/` | SQL | `db`, `services`, `shared`, `sources` |");
    expect(sorted((wrong.get("db")!.may as Set<string>).values())).toEqual(["db", "services", "shared", "sources"]);
  });

  it("reads the sources: every file of src/, and their relative imports", () => {
    expect(Object.keys(FILES)).toContain("/src/index.ts");
    expect(Object.keys(FILES).length).toBeGreaterThan(20);
    expect(EDGES.length).toBeGreaterThan(Object.keys(FILES).length);
    // The parser sees each kind of import (checked on this file's own patterns, so it cannot pass on nothing).
    const sample = [
      'import { a, type B } from "../x";',
      'import type { C } from "./y";',
      'export { d } from "../z";',
      'export type { E } from "../w";',
      'import * as F from "./v";',
      'import G, { h } from "./u";',
      'import "./t";',
      'const m = await import("./s");',
      'type M = typeof import("./r");',
    ].join("\n");
    expect(importsOf("/src/a/b.ts", sample).map((e) => [e.specifier, e.typeOnly])).toEqual([
      ["../x", false],
      ["./y", true],
      ["../z", false],
      ["../w", true],
      ["./v", false],
      ["./u", false],
      ["./t", false],
      ["./s", false],
      ["./r", true],
    ]);
    // And the cycle finder finds one (a → b → c → a, plus d → d), so an empty list means no cycle.
    const edge = (from: string, to: string): Edge => ({ from, to, specifier: to, typeOnly: false, line: 1 });
    expect(
      cycles([
        edge("/src/a.ts", "/src/b.ts"),
        edge("/src/b.ts", "/src/c.ts"),
        edge("/src/c.ts", "/src/a.ts"),
        edge("/src/c.ts", "/src/e.ts"),
        edge("/src/d.ts", "/src/d.ts"),
      ]),
    ).toEqual([["/src/a.ts", "/src/b.ts", "/src/c.ts"], ["/src/d.ts"]]);
  });

  it("every file of src/ is in a layer of the table (a new folder needs a row in docs/architecture.md and in RULES)", () => {
    const unknown = Object.keys(FILES)
      .filter((f) => !RULE_OF.has(layerOf(f)))
      .map(
        (f) =>
          `${show(f)}: layer "${layerOf(f)}" is not in the table (docs/architecture.md "The shape of the service"); move the file to a layer, or add the layer to both`,
      );
    expect(unknown).toEqual([]);
  });

  it.each(RULES.map((r) => [r.layer, r] as const))("%s/ imports only what the table allows", (_layer, rule) => {
    const broken = EDGES.filter((e) => layerOf(e.from) === rule.layer)
      .map((e) => breaks(e, rule))
      .filter((m): m is string => m !== null);
    expect(broken).toEqual([]);
  });

  it(`nothing imports ${NOT_IMPORTABLE.join(", ")} (the Worker entry)`, () => {
    const broken = EDGES.filter((e) => NOT_IMPORTABLE.includes(show(e.to))).map(
      (e) => `${show(e.from)}:${e.line} imports "${e.specifier}" (${show(e.to)}): the entry point is imported by nobody; move what you need out of it`,
    );
    expect(broken).toEqual([]);
  });

  it("operations are leaves: an operation's file imports no other file of src/operations/ (what they share lives in src/app/)", () => {
    // An operation's file: src/operations/<family>/<operationId>.ts; src/operations/index.ts is the list of them all.
    const isOperation = (f: string) => /^\/src\/operations\/[^/]+\/[^/]+\.ts$/.test(f);
    const operationFiles = Object.keys(FILES).filter(isOperation);
    expect(operationFiles.length).toBeGreaterThan(40);
    // Every file under src/operations/ is an operation's (no common/ or other folder of shared pieces).
    expect(Object.keys(FILES).filter((f) => f.startsWith("/src/operations/") && f !== "/src/operations/index.ts" && !isOperation(f))).toEqual([]);
    const broken = EDGES.filter((e) => isOperation(e.from) && e.to.startsWith("/src/operations/")).map(
      (e) => `${show(e.from)}:${e.line} imports "${e.specifier}" (${show(e.to)}): move what both need to src/app/<family>/`,
    );
    expect(broken).toEqual([]);
  });

  it("platform/ reaches operation code only through the route table and the operations list; the kit imports no app/ or operations/ code", () => {
    const intoOperations = EDGES.filter(
      (e) => e.to.startsWith("/src/operations/") && !e.from.startsWith("/src/operations/") && !OPERATION_LOADERS.includes(e.from),
    ).map(
      (e) =>
        `${show(e.from)}:${e.line} imports "${e.specifier}" (${show(e.to)}): only ${OPERATION_LOADERS.map(show).join(" and ")} load operations; share code through src/app/, run an operation through the gateway`,
    );
    expect(intoOperations).toEqual([]);
    const kit = [...KIT.code, ...KIT.types];
    const kitUp = EDGES.filter((e) => kit.includes(e.from) && (e.to.startsWith("/src/operations/") || e.to.startsWith("/src/app/"))).map(
      (e) => `${show(e.from)}:${e.line} imports "${e.specifier}" (${show(e.to)}): the operation kit sits below app/ and operations/`,
    );
    expect(kitUp).toEqual([]);
    // The rules can fail: the route table does import operations, and app/ files do import the kit.
    expect(EDGES.some((e) => e.from === "/src/platform/routes.ts" && e.to.startsWith("/src/operations/"))).toBe(true);
    expect(EDGES.some((e) => e.from.startsWith("/src/app/") && KIT.code.includes(e.to))).toBe(true);
  });

  it("no import cycles among the files of src/ (type-only imports included)", () => {
    const found = cycles(EDGES).map(
      (scc) =>
        `${scc.length} files import each other: ${loopThrough(scc[0], new Set(scc))}${scc.length > 2 ? ` (all of them: ${scc.map(show).join(", ")})` : ""}`,
    );
    expect(found).toEqual([]);
  });
});

describe("one wiring (issue 31): jobs run on ports, never on env", () => {
  it("no file of src/jobs/ but its ports' declaration names Env: what a job needs comes from platform/jobPorts.ts", () => {
    const named = Object.entries(FILES)
      .filter(([f, text]) => f.startsWith("/src/jobs/") && f !== "/src/jobs/ports.ts" && /\bEnv\b/.test(text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")))
      .map(([f]) => `${show(f)} names Env: take the job's ports (src/jobs/ports.ts) instead, built in src/platform/jobPorts.ts`);
    expect(named).toEqual([]);
    // The check can fail: ports.ts itself names Env (the upstreams' variables are picked from it).
    expect(FILES["/src/jobs/ports.ts"]).toMatch(/\bEnv\b/);
  });
});
