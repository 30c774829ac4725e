import { type OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
// The generator @hono/zod-openapi is built on (its own dependency, the version it pins): its public `getRefId` tells
// which zod schemas are named components.
import { getRefId, zodToOpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { ERROR_CODES, type ErrorCode } from "./errors";
import { PLANS } from "./plans";
import { INPUT_LIMITS, limitParam } from "./schemas";
import { mediaTypesOf, pathParamsOf, type AnyOperation, priceText } from "./registry";
import { API_VERSION } from "../shared/version";
import { FAMILIES } from "./families";

export const API_TITLE = "UK Business Intelligence API";
export { API_VERSION };

export const ErrorEnvelope = z
  .object({
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).describe("Machine-readable error code; see the table in the API description."),
    message: z.string().describe("Plain sentence; names the field when the input was at fault."),
    requestId: z.string().describe("Also in the x-request-id header; quote it to support."),
    query: z.unknown().optional().describe("Echo of what was asked for, on errors about a subject (404)."),
    field: z.string().optional().describe("The input field at fault (400)."),
    details: z.unknown().optional(),
  })
  .openapi("Error");

/** Errors every keyed operation can answer, whatever it does. */
export const GATEWAY_ERRORS: ErrorCode[] = [
  "bad_request",
  "missing_key",
  "invalid_key",
  "inactive_key",
  "marketplace_refused",
  "quota_exhausted",
  "org_pool_exhausted",
  "rate_limited",
  "our_failure",
  "ledger_unavailable",
  "timeout",
];
const KEYLESS_ERRORS: ErrorCode[] = ["bad_request", "marketplace_refused", "our_failure", "timeout"];
/** Keyless, or with a publishable key: the key may be unknown, disabled, a secret one, or from an origin it does not name. */
const PUBLISHABLE_ERRORS: ErrorCode[] = [...KEYLESS_ERRORS, "invalid_key", "inactive_key", "secret_key_refused", "origin_not_allowed"];

export function errorsOf(op: AnyOperation): ErrorCode[] {
  const base = op.auth === "key" ? GATEWAY_ERRORS : op.auth === "publishable" ? PUBLISHABLE_ERRORS : KEYLESS_ERRORS;
  // Every path answers another method (HEAD included) with 405; a body is capped (413) and must be JSON (415).
  const http: ErrorCode[] =
    op.method === "post" || op.method === "put" ? ["method_not_allowed", "payload_too_large", "unsupported_media_type"] : ["method_not_allowed"];
  return [...new Set([...base, ...op.errors, ...http])];
}

/** The description of the whole API: conventions, the error table, plans. Generated, never typed twice. */
export function apiDescription(): string {
  const rows = Object.entries(ERROR_CODES)
    .map(([code, v]) => `| \`${code}\` | ${v.status} | ${v.meaning} |`)
    .join("\n");
  const plans = Object.entries(PLANS)
    .map(([id, p]) => `| \`${id}\` | ${p.name} | ${p.monthlyCredits.toLocaleString("en-GB")} | ${p.burstPerMinute} | ${p.maxWatches.toLocaleString("en-GB")} |`)
    .join("\n");
  const limits = (Object.keys(INPUT_LIMITS) as (keyof typeof INPUT_LIMITS)[])
    .map(
      (name) =>
        `| \`${limitParam(name)}\` | ${INPUT_LIMITS[name].max.toLocaleString("en-GB")} | ${INPUT_LIMITS[name].appliesTo} | ${INPUT_LIMITS[name].spec ? "SPEC §8" : "ours"} |`,
    )
    .join("\n");
  return `HTTP/JSON API over UK public data: registers, filings, documents and change feeds. The same operations are MCP tools at \`/mcp\`.

Results come from public sources and may be inaccurate or out of date; they are not legal, professional or credit advice. Company data contains public sector information licensed under the Open Government Licence v3.0.

**Authentication.** Send \`x-api-key: <key>\` (on \`/mcp\`: \`Authorization: Bearer <key>\`). Keys are free with a verified email and mobile: on the sign-up page (\`/signup\`) or with \`POST /api/v1/signup\`.

**Credits.** One balance per account, shared by all its keys (or per organisation pool), across every endpoint; each operation states its price (\`x-credits\`). A charged reply carries \`x-credits-remaining\`. Errors are never charged: bad input is refused before charging, and any error after charging (a 5xx, a time-out, a 404) gives the credits back, shown in \`x-credits-refunded\`. When the credit ledger is too slow to confirm a refund before the reply, the reply says \`x-credits-refund-pending: <n>\` instead (those credits are given back shortly, once), and a 503 \`ledger_unavailable\` says whether its charge was never made, was given back, or is being cancelled. POST and PUT accept \`Idempotency-Key\`: a repeat returns the first reply and is charged once.

**A register as it stood on a date (\`asOf\`).** To evidence a check made in the past (a supplier on HMRC's register when it was onboarded, a sponsor licensed when a worker was assigned), every register check and licences-and-registers take \`asOf=YYYY-MM-DD\`: the answer is what the register said in its newest edition published on or before that date, from the editions this service has kept, and the reply's \`asOf\` names those editions and the files they came from, and when each organisation found first appeared in them and, where it has left, when. A date before the first edition kept answers 422 \`date_out_of_range\` naming the first date that can be answered for; a date after today is 400. Companies House facts (\`company\`) and the sanctions list describe today; \`asOf.companyNameOnDate\` gives the company's name on the date from its former names.

**Signed receipts.** Every charged reply of a check (the register checks, licences-and-registers, idv-check, public-record, distress-signals and the company reports: accounts, charges, deadlines, ownership) carries a receipt, in the headers \`x-receipt-id\` and \`x-receipt\` (over MCP, in the result's \`_meta\`): a JWS this service signed (EdDSA, Ed25519) stating the time, your account id (never your key), the request as read, the SHA-256 of the reply's body exactly as sent, and the evidence the answer rests on (each register edition read, the file it came from and that file's SHA-256). Keep it with the reply in a compliance file: it verifies offline with any JOSE library against \`/.well-known/jwks.json\` (every key ever used stays there), and a changed byte in either fails. \`GET /api/v1/receipts/{id}\` returns a receipt and its reply for five years at least (free, your own account's only).

**Publishable keys and logos in \`<img>\` tags.** \`GET /api/v1/company-logo/image\` answers a company's logo as the image itself, by website domain or company number, for page source: \`<img src="…/api/v1/company-logo/image?domain=example.co.uk&size=64&key=pk_…">\`. It needs no key; a publishable key (\`pk_…\`, made with \`POST /api/v1/account/publishable-keys\`) raises its limit and works only from pages on the origins its account named (the browser's Origin or Referer). A publishable key works nowhere else, spends no credits and may be public; a secret key is refused there (403 \`secret_key_refused\`), since anything in an image address is public.

**Limits.** At most 60 calls a minute per account (its keys share the ceiling) on every keyed endpoint (429 \`rate_limited\` with \`Retry-After\`, no credit used). Every reply carries \`x-request-id\`.

**Consistency.** Register, company-search, contract and tender reads are answered by the nearest copy of the database, which may be a few seconds behind the newest edition loaded (each reply's edition and dates say what it read). A reply that read them carries \`x-d1-bookmark\`: send its value back as the request header \`x-d1-bookmark\` and the next call reads data at least as new as that reply's, wherever it is answered. The value is opaque; a value this service did not give answers 400 \`bad_request\` naming the header. Keys, credits, the watch list and webhooks are always read and written in one place, so they are never behind.

**Parameters.** Only the parameters an operation describes are taken: a query parameter (or JSON body field) it does not describe is refused with 400 \`bad_request\` naming it (\`field\`), never ignored and never charged, so a misspelt optional parameter cannot quietly change the answer. Numbers in a query are written with plain digits (\`25\`, \`1250.50\`).

**Errors.** Every error body is \`{ code, message, requestId }\`, plus \`query\` when it echoes the subject and \`field\` when an input was at fault.

| code | status | meaning |
|---|---|---|
${rows}

**Input limits** (longer input answers 400 \`bad_request\` naming the field):

| input | maximum | applies to | set by |
|---|---|---|---|
${limits}

**Plans** (balances reset on the 1st of each month, UTC):

| plan | name | credits a month | calls a minute | companies watched |
|---|---|---|---|---|
${plans}
`;
}

const statusText = (s: number) =>
  ({
    400: "Bad request",
    401: "Unauthorised",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Body too large",
    415: "Unsupported media type",
    422: "Unprocessable",
    429: "Too many requests",
    500: "Server error",
    503: "Unavailable",
  })[s] ?? "Error";

/** Wrappers through which the generator reads a named schema's name (`X.nullable()` is named X too). */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "nonoptional", "pipe", "catch"]);

/** A zod schema (not a check: checks carry `_zod` too, but no `meta`). */
const isZod = (v: unknown): v is z.ZodType => typeof v === "object" && v !== null && "_zod" in v && typeof (v as { meta?: unknown }).meta === "function";

/**
 * Every named schema (`.openapi("Name")`) the operations use, as itself, not as one of its uses: children before
 * parents. The generator builds a component from the first use it meets, so a first use as `X.nullable().describe(…)`
 * made component X itself nullable and gave it that use's description (issue 29 §4: `CharityAmount` accepted null
 * everywhere). Registered first, each component is built from the schema as named.
 */
export function namedSchemas(roots: readonly z.ZodType[]): [string, z.ZodType][] {
  const seen = new Set<unknown>();
  const named = new Map<string, z.ZodType>();
  const visit = (s: z.ZodType): void => {
    if (seen.has(s)) return;
    seen.add(s);
    const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
    for (const [k, v] of Object.entries(def)) {
      if (k === "getter" && typeof v === "function") {
        const inner = (v as () => unknown)();
        if (isZod(inner)) visit(inner);
      } else if (isZod(v)) visit(v);
      else if (Array.isArray(v)) for (const x of v) isZod(x) && visit(x);
      else if (k === "shape" && v && typeof v === "object") for (const x of Object.values(v)) isZod(x) && visit(x);
    }
    const name = getRefId(s as never);
    if (name && !WRAPPERS.has(String(def.type)) && !named.has(name)) named.set(name, s);
  };
  for (const r of roots) visit(r);
  return [...named];
}

/**
 * The schema a component is built from. An extension of a named object (`Named.extend({…})`) is emitted by the
 * generator as `allOf: [{$ref}, {…}]`, with no `type`; a nullable use of such a component then loses its null (the
 * generator adds null to a referenced component's `type` only). So an extension is described whole, as the object it
 * is: its description and its own properties, the parent's included.
 */
function asComponent(schema: z.ZodType): z.ZodType {
  const internal = (zodToOpenAPIRegistry.get(schema as never) as { _internal?: { extendedFrom?: unknown } } | undefined)?._internal;
  if (!(schema instanceof z.ZodObject) || !internal?.extendedFrom) return schema;
  const def = schema._zod.def;
  const flat = def.catchall ? z.object(schema.shape).catchall(def.catchall as z.ZodType) : z.object(schema.shape);
  return schema.description ? flat.describe(schema.description) : flat;
}

/**
 * A nullable use of a named schema is emitted by the generator as `allOf: [{$ref}, {type: [object, null]}]`, which
 * no null can pass (the $ref refuses it). OpenAPI 3.1's own form is `anyOf: [{$ref}, {type: "null"}]` (annotations
 * such as the use's description stay beside it); a nullable extension of a named schema (`{$ref}` plus properties)
 * becomes `anyOf: [{allOf: [{$ref}, {type: object, …}]}, {type: "null"}]`. Applied to the whole document, once.
 */
const ANNOTATIONS = new Set(["description", "title", "example", "examples", "default", "deprecated", "readOnly", "writeOnly"]);
export function nullableRefsAsAnyOf<T>(node: T): T {
  if (Array.isArray(node)) return node.map(nullableRefsAsAnyOf) as T;
  if (!node || typeof node !== "object") return node;
  const o = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, nullableRefsAsAnyOf(v)])) as Record<string, unknown>;
  const all = o.allOf as Record<string, unknown>[] | undefined;
  if (!Array.isArray(all) || all.length !== 2) return o as T;
  const ref = all.find((x) => typeof x.$ref === "string" && Object.keys(x).length === 1);
  const other = all.find((x) => x !== ref);
  if (!ref || !other) return o as T;
  const types = [other.type].flat().filter((t): t is string => typeof t === "string");
  if (!types.includes("null")) return o as T;
  const rest = Object.fromEntries(Object.entries(other).filter(([k]) => k !== "type" && !ANNOTATIONS.has(k)));
  const notes = Object.fromEntries(Object.entries(other).filter(([k]) => ANNOTATIONS.has(k)));
  const nonNull = types.filter((t) => t !== "null");
  const some = Object.keys(rest).length ? { allOf: [ref, { ...(nonNull.length ? { type: nonNull.length === 1 ? nonNull[0] : nonNull } : {}), ...rest }] } : ref;
  const { allOf: _, ...outer } = o;
  return { ...outer, ...notes, anyOf: [some, { type: "null" }] } as T;
}

/** One media type, or the range they share (image/png and image/webp: image/*). */
export const mediaRange = (types: readonly string[]): string => {
  const tops = [...new Set(types.map((t) => t.split("/")[0]))];
  return types.length === 1 ? types[0] : tops.length === 1 ? `${tops[0]}/*` : "*/*";
};

/** An operation's input as the description states it: its path parameters, and its query (the rest of its fields). */
function splitPathParams(op: AnyOperation): { params: z.ZodObject; query: z.ZodObject } {
  const names = new Set(pathParamsOf(op.path));
  const shape = op.input.shape as Record<string, z.ZodType>;
  const part = (inPath: boolean) => z.object(Object.fromEntries(Object.entries(shape).filter(([k]) => names.has(k) === inPath)));
  return { params: part(true), query: part(false) };
}

/** Registers every operation's path on an OpenAPIHono registry (routes themselves are mounted by app.ts). */
export function registerOperations(app: OpenAPIHono<any>, ops: readonly AnyOperation[]): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", { type: "apiKey", in: "header", name: "x-api-key" });
  if (ops.some((op) => op.auth === "publishable"))
    app.openAPIRegistry.registerComponent("securitySchemes", "PublishableKey", {
      type: "apiKey",
      in: "query",
      name: "key",
      description:
        "A publishable key (`pk_…`, POST /api/v1/account/publishable-keys) for page source: only on the logo image, only from the origins its account named (Origin or Referer). Optional: without it, calls are limited per IP address.",
    });
  for (const [name, schema] of namedSchemas([ErrorEnvelope, ...ops.flatMap((op) => (mediaTypesOf(op) ? [op.input] : [op.input, op.output]))]))
    app.openAPIRegistry.register(name, asComponent(schema));
  for (const op of ops) {
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of errorsOf(op)) {
      const s = ERROR_CODES[code].status;
      byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
    }
    const ok = op.successStatus ?? 200;
    const media = mediaTypesOf(op);
    // An image operation answers the image's bytes in one of its media types (and 304 to a request naming its ETag).
    // One media range for all its types (a reference's renderers show a choice between several as a control inside
    // the response's disclosure button); the description names each.
    const okContent = media
      ? { [mediaRange(media)]: { schema: { type: "string", format: "binary", description: `One of ${media.join(", ")}.` } } }
      : { "application/json": { schema: op.output } };
    const responses: Record<string, unknown> = {
      [ok]: { description: ok === 201 ? "Created" : media ? `OK: the image (${media.join(", ")})` : "OK", content: okContent },
    };
    if (media) responses[304] = { description: "Not Modified: the request's If-None-Match names the image's ETag." };
    if (ok === 201 && op.alsoOk) responses[200] = { description: `OK: ${op.alsoOk}`, content: { "application/json": { schema: op.output } } };
    for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0]))
      responses[status] = {
        description: `${statusText(status)}: ${codes.map((c) => `\`${c}\``).join(", ")}`,
        content: { "application/json": { schema: ErrorEnvelope } },
      };
    const openapiPath = op.path.replace(/:(\w+)/g, "{$1}");
    const route = createRoute({
      method: op.method,
      path: openapiPath,
      operationId: op.operationId,
      // The short title is the summary (the reference's sidebar lists it); the one-line sentence opens the description.
      summary: op.title,
      description: `${op.summary}\n\n${op.description}\n\n**Price:** ${priceText(op.price)}.`,
      tags: [op.family],
      request:
        op.method === "get" || op.method === "delete"
          ? pathParamsOf(op.path).length
            ? splitPathParams(op)
            : { query: op.input }
          : { body: { content: { "application/json": { schema: op.input } }, required: true } },
      responses: responses as any,
      security: op.auth === "key" ? [{ ApiKey: [] }] : op.auth === "publishable" ? [{}, { PublishableKey: [] }] : [],
    });
    app.openAPIRegistry.registerPath({
      ...route,
      "x-credits": typeof op.price === "number" ? op.price : op.price.rule,
      "x-auth": op.auth,
    } as any);
  }
}

export function openApiDocument(app: OpenAPIHono<any>, baseUrl: string) {
  return nullableRefsAsAnyOf(
    app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: API_TITLE,
        version: API_VERSION,
        description: apiDescription(),
        license: {
          name: "Open Government Licence v3.0 (the public-sector data the API carries, where the source says so)",
          url: "https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/",
        },
      },
      servers: [{ url: baseUrl }],
      tags: Object.entries(FAMILIES).map(([name, f]) => ({ name, description: f.description })),
    }),
  );
}

/** The description as YAML (the yaml package is imported here, on the first /openapi.yaml, not at a cold start). */
export const toYaml = async (doc: unknown): Promise<string> => (await import("yaml")).stringify(doc, { aliasDuplicateObjects: false });
