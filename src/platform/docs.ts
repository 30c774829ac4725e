import { z } from "@hono/zod-openapi";
import { ERROR_CODES } from "./errors";
import { errorsOf } from "./openapi";
import { type AnyOperation, fillPath, priceText, slugOf } from "./registry";

interface JsonSchemaProp {
  type?: string | string[];
  /** A number read strictly (platform/schemas.ts strictInt, strictPounds): a JSON number or the same written in digits. */
  anyOf?: JsonSchemaProp[];
  description?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
}

function limitsOf(p: JsonSchemaProp): string {
  const out: string[] = [];
  if (p.enum) out.push(`one of ${p.enum.map((v) => `\`${String(v)}\``).join(", ")}`);
  if (p.minLength !== undefined && p.minLength > 1) out.push(`min ${p.minLength} chars`);
  if (p.maxLength !== undefined) out.push(`max ${p.maxLength} chars`);
  if (p.minimum !== undefined) out.push(`min ${p.minimum}`);
  if (p.maximum !== undefined) out.push(`max ${p.maximum}`);
  if (p.minItems !== undefined) out.push(`${p.minItems} to ${p.maxItems ?? "any"} items`);
  if (p.format) out.push(p.format);
  if (p.default !== undefined) out.push(`default ${JSON.stringify(p.default)}`);
  return out.join("; ");
}

export function parameterRows(op: AnyOperation): string {
  const schema = z.toJSONSchema(op.input, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, JsonSchemaProp>; required?: string[] };
  const props = Object.entries(schema.properties ?? {});
  if (!props.length) return "None.";
  const where = op.method === "get" || op.method === "delete" ? "query" : "body";
  return [
    "| name | in | required | type | limits | description |",
    "|---|---|---|---|---|---|",
    ...props.map(([name, p]) => {
      // A number read strictly accepts its text form too ([number, string]): it is documented as the number it is.
      const types = [p.type ?? p.anyOf?.map((a) => a.type) ?? "string"].flat().filter((t): t is string => typeof t === "string");
      const numeric = types.find((t) => t === "number" || t === "integer");
      const type = numeric && types.every((t) => t === numeric || t === "string") ? numeric : types.join(" or ") || "string";
      return `| \`${name}\` | ${where} | ${schema.required?.includes(name) ? "yes" : "no"} | ${type} | ${limitsOf(p) || "—"} | ${(p.description ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ")} |`;
    }),
  ].join("\n");
}

function exampleRequest(op: AnyOperation, base: string): string {
  const key = op.auth === "key" ? ` \\\n  -H "x-api-key: $API_KEY"` : "";
  if (op.method === "get" || op.method === "delete") {
    const { path, rest } = fillPath(op.path, op.example);
    const qs = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)])).toString();
    const m = op.method === "delete" ? "-X DELETE " : "";
    return `curl ${m}"${base}${path}${qs ? `?${qs}` : ""}"${key}`;
  }
  return `curl -X ${op.method.toUpperCase()} "${base}${op.path}"${key} \\\n  -H "content-type: application/json" \\\n  -d '${JSON.stringify(op.example)}'`;
}

/** The example reply's section, when the operation documents one (computed on first use, registry.ts). */
function exampleReplyText(op: AnyOperation): string {
  const reply = op.exampleReply?.();
  return reply === undefined ? "" : `\n### Example reply\n\n\`\`\`json\n${JSON.stringify(reply, null, 2)}\n\`\`\`\n`;
}

function section(op: AnyOperation, base: string): string {
  const errors = errorsOf(op)
    .sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status)
    .map((c) => `| ${ERROR_CODES[c].status} | \`${c}\` | ${ERROR_CODES[c].meaning} |`)
    .join("\n");
  return `## ${op.method.toUpperCase()} ${op.path} (\`${op.operationId}\`)

${op.summary}

${op.description}

**Price:** ${priceText(op.price)}. **Auth:** ${op.auth === "key" ? "`x-api-key` header" : "none (keyless)"}. **MCP tool:** \`${op.operationId}\`.

### Parameters

${parameterRows(op)}

### Example request

\`\`\`sh
${exampleRequest(op, base)}
\`\`\`
${exampleReplyText(op)}
### Errors

| status | code | meaning |
|---|---|---|
${errors}
`;
}

/** One Markdown page per API (the operations sharing a path share a page). */
export function operationMarkdown(ops: readonly AnyOperation[], base: string): string {
  return `# ${ops[0].title}\n\n${ops.map((op) => section(op, base)).join("\n")}`;
}

export function apiIndexMarkdown(ops: readonly AnyOperation[], base: string): string {
  const families = [...new Set(ops.map((o) => o.family))];
  const body = families
    .map((f) => {
      const rows = ops
        .filter((o) => o.family === f)
        .map((o) => `| [${o.title}](${base}/apis/${slugOf(o)}.md) | \`${o.method.toUpperCase()} ${o.path}\` | ${priceText(o.price)} | ${o.summary} |`)
        .join("\n");
      return `## ${f}\n\n| API | endpoint | price | what it does |\n|---|---|---|---|\n${rows}`;
    })
    .join("\n\n");
  return `# UK Business Intelligence API\n\nEvery API as Markdown. Machine-readable: [openapi.yaml](${base}/openapi.yaml), [openapi.json](${base}/openapi.json), [api-catalog](${base}/.well-known/api-catalog), [apis.json](${base}/apis.json). MCP: \`${base}/mcp\` (\`Authorization: Bearer <key>\`).\n\n${body}\n`;
}
