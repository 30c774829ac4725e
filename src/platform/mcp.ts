import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import type { Env } from "../env";
import type { ApiError } from "./errors";
import { errorOutcome, execute, refuseMarketplace } from "./gateway";
import { API_VERSION } from "./openapi";
import { type AnyOperation, mediaTypesOf, priceText } from "./registry";
import { toBase64 } from "../shared/bytes";

interface McpMeta {
  requestId: string;
  /** The service's origin as the caller reached it. */
  origin?: string;
  ip: string;
  waitUntil(p: Promise<unknown>): void;
}

/** The key on /mcp: `Authorization: Bearer <key>` (SPEC §5.5); x-api-key is accepted too. */
export function mcpKey(headers: Headers): string | null {
  const auth = headers.get("authorization");
  const bearer = auth?.match(/^Bearer\s+(\S+)$/i)?.[1];
  return bearer ?? headers.get("x-api-key");
}

const toolDescription = (op: AnyOperation) =>
  `${op.summary}\n\n${op.description}\n\nPrice: ${priceText(op.price)}.${op.auth === "keyless" ? " No key needed." : ""} Errors come back as isError with a JSON body { code, message, requestId }.`;

/**
 * One MCP server per request (stateless streamable HTTP). One tool per operation, named by its
 * operationId; a tool call runs through the same gateway as HTTP, so credits, the burst ceiling,
 * errors and the reply JSON are the same (SPEC §1, §5.5).
 */
export function buildMcpServer(env: Env, ops: readonly AnyOperation[], headers: Headers, meta: McpMeta) {
  const server = new McpServer({ name: "uk-business-intelligence-api", version: API_VERSION });
  // The SDK checks a tool's arguments itself and answers a bad one with plain text ("Input validation error: …").
  // The gateway checks them too, with the same schema, and answers with the JSON envelope every tool promises
  // ({ code, message, requestId, field }): so the SDK's check hands the arguments through unchanged.
  (server as unknown as { validateToolInput: (tool: unknown, args: unknown) => Promise<unknown> }).validateToolInput = async (_tool, args) => args ?? {};
  const apiKey = mcpKey(headers);
  for (const op of ops) {
    // An image operation (the logo image) answers image content, base64 with its media type: it has no JSON output schema.
    const image = mediaTypesOf(op) !== null;
    server.registerTool(
      op.operationId,
      {
        title: op.title,
        description: toolDescription(op),
        inputSchema: op.input,
        ...(image ? {} : { outputSchema: op.output }),
        annotations: { title: op.title, readOnlyHint: op.readOnly, openWorldHint: true, idempotentHint: op.readOnly },
      },
      async (args: unknown) => {
        const outcome = await execute(env, op, args ?? {}, {
          requestId: meta.requestId,
          origin: meta.origin,
          headers,
          ip: meta.ip,
          // The logo image refuses a secret key (in an image address it is public); over MCP the key is not in a page,
          // so the tool is called as without one (the per-IP limit of logos not yet cached).
          apiKey: op.auth === "publishable" ? null : apiKey,
          waitUntil: meta.waitUntil,
        });
        if (outcome.image && outcome.status < 400)
          return { content: [{ type: "image" as const, data: toBase64(outcome.image.bytes), mimeType: outcome.image.contentType }] };
        const text = JSON.stringify(outcome.body);
        if (outcome.status >= 400) return { isError: true, content: [{ type: "text" as const, text }] };
        // A check's signed receipt (issue 33 §2) travels in _meta, as the headers carry it over HTTP.
        const receipt = outcome.headers["x-receipt"] ? { _meta: { receiptId: outcome.headers["x-receipt-id"], receipt: outcome.headers["x-receipt"] } } : {};
        return { content: [{ type: "text" as const, text }], structuredContent: outcome.body as Record<string, unknown>, ...receipt };
      },
    );
  }
  return server;
}

export async function handleMcp(req: Request, env: Env, ops: readonly AnyOperation[], meta: McpMeta): Promise<Response> {
  try {
    refuseMarketplace(req.headers);
  } catch (e) {
    const o = errorOutcome(e as ApiError, meta.requestId);
    return Response.json(o.body, { status: o.status });
  }
  const handler = createMcpHandler(() => buildMcpServer(env, ops, req.headers, { ...meta, origin: new URL(req.url).origin }));
  return handler.fetch(req);
}
