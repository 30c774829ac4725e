import { z } from "@hono/zod-openapi";
import { type AnyOperation, defineOperation } from "../../src/platform/registry";

/**
 * A keyed operation for gateway tests only (no route, not in the description: the reply conformance check skips it),
 * answering `{ ok }`; its handler decides what goes wrong.
 */
export const testOperation = (operationId: string, price: number, handler: AnyOperation["handler"], extra: Partial<AnyOperation> = {}): AnyOperation =>
  defineOperation({
    operationId,
    method: "get",
    path: `/api/v1/test-only-${operationId}`,
    family: "test",
    title: "Test",
    summary: "Test only.",
    description: "Test only.",
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    price,
    auth: "key",
    errors: [],
    readOnly: true,
    example: {},
    handler,
    ...extra,
  }) as unknown as AnyOperation;
