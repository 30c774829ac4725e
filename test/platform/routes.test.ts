/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/jobs/ingest/adapters";
import { operations } from "../../src/operations";
import { FAMILIES } from "../../src/platform/families";
import { routes } from "../../src/platform/routes";
import { REGISTER_SOURCES } from "../../src/services/registers/types";

/**
 * The lists scripts/routes.mjs (npm run routes) writes from the files themselves (issue 31: adding an operation or a
 * register adds no line to a hand-kept list): the operations list, the route table (issue 30 §1) and the ingest
 * adapters' index. Each test fails, naming `npm run routes`, when a list is not what the script would write.
 */
const OPERATION_FILES = Object.keys(import.meta.glob("/src/operations/*/*.ts"));
const ADAPTER_FILES = Object.keys(import.meta.glob("/src/jobs/ingest/adapters/*.ts")).filter((f) => !f.endsWith("/index.ts"));
const METHODS = ["get", "post", "put", "patch", "delete"];

describe("the generated lists (npm run routes)", () => {
  it("src/operations/index.ts lists one operation per file of src/operations/<family>/, named after its operationId (else: npm run routes)", () => {
    expect(OPERATION_FILES.length).toBeGreaterThan(40);
    expect(operations.map((op) => `/src/operations/${op.family}/${op.operationId}.ts`).sort()).toEqual([...OPERATION_FILES].sort());
  });

  it("in the families' order, then by path and method", () => {
    const families = Object.keys(FAMILIES);
    const rank = (op: (typeof operations)[number]) => [families.indexOf(op.family), op.path, METHODS.indexOf(op.method)] as const;
    const sorted = [...operations].sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0) || x[2] - y[2];
    });
    expect(operations.map((o) => o.operationId)).toEqual(sorted.map((o) => o.operationId));
  });

  it("the route table lists every operation, in order, with its method, path and CORS (else: npm run routes)", () => {
    expect(routes.map((r) => ({ operationId: r.operationId, method: r.method, path: r.path, cors: r.cors }))).toEqual(
      operations.map((op) => ({ operationId: op.operationId, method: op.method, path: op.path, cors: Boolean(op.cors) })),
    );
  });

  it("each route loads its own operation, the same object the list holds", async () => {
    for (const [i, r] of routes.entries()) expect(await r.load(), r.operationId).toBe(operations[i]);
  });

  it("the ingest adapters' index holds one adapter per file of src/jobs/ingest/adapters/, one per register of the catalogue (else: npm run routes)", () => {
    const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    expect(Object.keys(ADAPTERS).sort()).toEqual([...REGISTER_SOURCES].sort());
    expect(REGISTER_SOURCES.map((s) => `/src/jobs/ingest/adapters/${camel(s)}.ts`).sort()).toEqual([...ADAPTER_FILES].sort());
  });
});
