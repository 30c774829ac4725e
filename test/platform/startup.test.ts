import { afterEach, describe, expect, it, vi } from "vitest";
import { thousands } from "../../src/shared/format";

/**
 * Issue 30 §1 "Nothing at import": the global scope of the Worker runs at every cold start (within 1 s of CPU), so
 * importing it builds nothing a request does not need. Deterministic checks, not timings (the CPU figure is in the
 * bench, scripts/bench/startup.mjs):
 *  - the Worker module is imported afresh, and no lazy value (shared/lazy.ts: example replies, the schema-derived
 *    documents, word lists) was built by importing it;
 *  - no number was formatted by the locale machinery at import (its first use loads the locale data, over 10 ms);
 *  - every example reply is a function, run when the docs first ask and kept after that;
 *  - the OpenAPI registry is empty until /openapi.json is asked for, then built once and reused.
 */

type Fresh = {
  lazy: typeof import("../../src/shared/lazy");
  operations: typeof import("../../src/operations");
  app: typeof import("../../src/platform/app");
};

/** The Worker's module graph evaluated again, as a cold start does, with the locale formatters watched meanwhile. */
async function freshImport(): Promise<Fresh & { localeCalls: string[] }> {
  vi.resetModules();
  const localeCalls: string[] = [];
  const toLocale = Number.prototype.toLocaleString;
  vi.spyOn(Number.prototype, "toLocaleString").mockImplementation(function (this: number, ...args: Parameters<typeof toLocale>) {
    localeCalls.push(`(${this}).toLocaleString`);
    return toLocale.apply(this, args);
  });
  const format = Intl.NumberFormat;
  // biome-ignore lint/complexity/useArrowFunction: Intl.NumberFormat is called with `new`, which an arrow function cannot be
  vi.spyOn(Intl, "NumberFormat").mockImplementation(function (...args: ConstructorParameters<typeof format>) {
    localeCalls.push("Intl.NumberFormat");
    return new format(...args);
  } as unknown as typeof format);
  try {
    await import("../../src/index");
    return {
      lazy: await import("../../src/shared/lazy"),
      operations: await import("../../src/operations"),
      app: await import("../../src/platform/app"),
      localeCalls,
    };
  } finally {
    vi.restoreAllMocks();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("issue 30 §1: nothing at import", () => {
  it("importing the Worker defines no operation: each operation's module is imported when its route is first called", async () => {
    vi.resetModules();
    await import("../../src/index");
    const registry = await import("../../src/platform/registry");
    expect(registry.operationsDefined()).toEqual([]);
    const { routes } = await import("../../src/platform/routes");
    const route = routes.find((r) => r.operationId === "calculateLatePayment")!;
    const op = await route.load();
    expect(op.operationId).toBe("calculateLatePayment");
    expect(registry.operationsDefined()).toContain("calculateLatePayment");
    expect(registry.operationsDefined().length).toBeLessThan(routes.length);
  });

  it("importing the Worker builds no lazy value and formats no number with the locale data", async () => {
    const fresh = await freshImport();
    expect(fresh.lazy.lazyBuilt()).toEqual([]);
    expect(fresh.localeCalls).toEqual([]);
  });

  it("every example reply is a function, not a value computed at import; each runs once, when the docs ask", async () => {
    const { lazy, operations, app } = await freshImport();
    const withReply = operations.operations.filter((op) => op.exampleReply !== undefined);
    expect(withReply.length).toBeGreaterThan(5);
    for (const op of withReply) expect(typeof op.exampleReply, `${op.operationId}.exampleReply`).toBe("function");

    // The reader's example reply is computed by the real reader, on the first docs page that shows it.
    const reader = operations.operations.find((op) => op.operationId === "scoreModernSlaveryStatement")!;
    const built = () => lazy.lazyBuilt().filter((n) => n === "scoreModernSlaveryStatement.exampleReply").length;
    expect(built()).toBe(0);
    const worker = app.buildApp();
    const page = await worker.request("https://api.example.co.uk/apis/modern-slavery.md");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("### Example reply");
    expect(built()).toBe(1);
    expect(reader.exampleReply!()).toBe(reader.exampleReply!());
    await worker.request("https://api.example.co.uk/apis/modern-slavery.md");
    expect(built()).toBe(1);
  });

  it("the OpenAPI document is built on the first request for it, once, with each caller's origin", async () => {
    const { lazy, app } = await freshImport();
    const worker = app.buildApp();
    expect(worker.openAPIRegistry.definitions).toEqual([]);
    const a = await worker.request("https://one.example/openapi.json");
    const b = await worker.request("http://127.0.0.1:8787/openapi.yaml");
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(((await a.json()) as { servers: { url: string }[] }).servers).toEqual([{ url: "https://one.example" }]);
    expect(new TextDecoder().decode(await b.arrayBuffer())).toContain("- url: http://127.0.0.1:8787\n");
    expect(worker.openAPIRegistry.definitions.length).toBeGreaterThan(0);
    const c = await worker.request("https://two.example/openapi.json");
    expect(((await c.json()) as { servers: { url: string }[] }).servers).toEqual([{ url: "https://two.example" }]);
    expect(lazy.lazyBuilt().filter((n) => n === "openapi document")).toHaveLength(1);
  });

  it("the Markdown pages carry the caller's origin, from one cached page", async () => {
    const { app } = await freshImport();
    const worker = app.buildApp();
    const one = await (await worker.request("https://one.example/apis.md")).text();
    const two = await (await worker.request("https://two.example/apis.md")).text();
    expect(one).toContain("(https://one.example/openapi.yaml)");
    expect(two).toContain("(https://two.example/openapi.yaml)");
    expect(two).not.toContain("one.example");
    expect(one.replaceAll("https://one.example", "X")).toBe(two.replaceAll("https://two.example", "X"));
  });

  it("thousands() writes whole numbers as toLocaleString('en-GB') does", () => {
    for (const n of [0, 7, 999, 1000, 32_767, 100_000, 1_000_000, 5_000_000, 100_000_000, 123_456_789_012, -1_234_567, Number.MAX_SAFE_INTEGER])
      expect(thousands(n), String(n)).toBe(n.toLocaleString("en-GB"));
    expect(thousands(1234.5)).toBe((1234.5).toLocaleString("en-GB"));
  });
});
