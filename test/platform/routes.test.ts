import { describe, expect, it } from "vitest";
import { operations } from "../../src/operations";
import { routes } from "../../src/platform/routes";

describe("issue 30 §1: the route table the Worker starts with (src/platform/routes.ts, made by npm run routes)", () => {
  it("lists every operation of src/operations/index.ts, in order, with its method, path and CORS (else: npm run routes)", () => {
    expect(routes.map((r) => ({ operationId: r.operationId, method: r.method, path: r.path, cors: r.cors }))).toEqual(
      operations.map((op) => ({ operationId: op.operationId, method: op.method, path: op.path, cors: Boolean(op.cors) })),
    );
  });

  it("each route loads its own operation, the same object the list holds", async () => {
    for (const [i, r] of routes.entries()) expect(await r.load(), r.operationId).toBe(operations[i]);
  });
});
