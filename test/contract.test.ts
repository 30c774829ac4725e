import { z } from "@hono/zod-openapi";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { operations } from "../src/operations";
import { type AnyOperation, mediaTypesOf } from "../src/platform/registry";
import { probeImage } from "../src/services/images/probe";
import { callOperation, loadSampleRegisters, titleOf } from "./support/everyOperation";

/**
 * The contract test (DESIGN.md, after openstatus): every operation of the registry is called over HTTP with its
 * own `example`, and its reply must parse with its own zod `output` schema. A new operation is in this test by
 * being in `operations`; one without an example fails here.
 *
 * Data and set-up (test/support/everyOperation.ts, shared with the claims test): the sample registers through the
 * real ingest pipeline, the state some examples name (SETUP), stand-ins for the real domains examples name
 * (UPSTREAMS); other upstreams are the fixture hosts of vitest.config.ts.
 */

/** The parse result as a sentence a reader can act on. */
function parses(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  return r.success ? "parses" : z.prettifyError(r.error);
}

beforeAll(loadSampleRegisters);

afterEach(() => vi.restoreAllMocks());

describe("the contract: every operation's example answers its success status, and the reply parses with its output schema", () => {
  it("the registry has operations, each named once", () => {
    expect(operations.length).toBeGreaterThan(0);
    const ids = operations.map((o) => o.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it.each(operations.map((op) => [titleOf(op), op] as const))(
    "%s: its example, called over HTTP, answers its success status and a reply its output schema parses",
    async (_title, op) => {
      expect(
        op.example,
        `${op.operationId} has no \`example\`: give it one (query for GET/DELETE, JSON body for POST/PUT); the docs and this test use it`,
      ).toBeTypeOf("object");
      const { input, status, text, bytes, contentType } = await callOperation(op, { ...op.example });
      expect(status, `${op.operationId} with its example ${JSON.stringify(input)} answered ${status}: ${text.slice(0, 600)}`).toBe(op.successStatus ?? 200);
      const media = mediaTypesOf(op);
      if (media) {
        // An image operation: one of its media types, and bytes that are an image of that type.
        expect(media, `${op.operationId} answered ${contentType}`).toContain(contentType);
        const probe = probeImage(bytes);
        expect(probe.ok && probe.image.mime, `${op.operationId}'s reply is not a readable image`).toBe(contentType);
        return;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      expect(parses(op.output, body), `${op.operationId}'s reply does not parse with its output schema; reply: ${text.slice(0, 600)}`).toBe("parses");
      // Nothing undeclared either: parsing drops keys the schema does not name, so the two key lists must agree.
      const declared = op.output.parse(body) as Record<string, unknown>;
      expect(
        Object.keys(body).filter((k) => !(k in declared)),
        `${op.operationId}'s reply has keys its output schema does not declare`,
      ).toEqual([]);
    },
  );

  it("each operation lives in src/operations/<family>/<operationId>.ts, and every such file is in the registry", () => {
    const modules = import.meta.glob<Record<string, unknown>>("/src/operations/*/*.ts", { eager: true });
    const files = Object.entries(modules).map(([path, mod]) => ({
      path,
      ops: Object.values(mod).filter((v): v is AnyOperation => typeof v === "object" && v !== null && "operationId" in v && "handler" in v),
    }));
    for (const { path, ops } of files) {
      expect(
        ops.map((o) => `/src/operations/${o.family}/${o.operationId}.ts`),
        `${path} must define exactly the operation it is named after`,
      ).toEqual([path]);
    }
    expect(files.map((f) => f.ops[0]?.operationId).sort()).toEqual(operations.map((o) => o.operationId).sort());
  });

  const withReply = operations.filter((op) => !mediaTypesOf(op) && op.exampleReply?.() !== undefined);
  it.each(withReply.map((op) => [titleOf(op), op] as const))("%s: its documented exampleReply parses with its output schema", (_title, op) => {
    const reply = op.exampleReply?.();
    expect(parses(op.output, reply), `${op.operationId}.exampleReply (shown in the docs) does not parse with its output schema`).toBe("parses");
    const declared = op.output.parse(reply) as Record<string, unknown>;
    expect(
      Object.keys(reply as object).filter((k) => !(k in declared)),
      `${op.operationId}.exampleReply has keys its output schema does not declare`,
    ).toEqual([]);
  });
});
