import { z } from "@hono/zod-openapi";
import type { ErrorCode } from "./errors";
import type { PlanId } from "./plans";
import type { Services } from "./services";
import { lazy } from "../shared/lazy";
import type { Evidence } from "../services/receipts/claims";
import { closedInput } from "./schemas";

/** Who is calling, as the gateway established it. Null on keyless operations (and on publishable ones: see OpContext.publishable). */
export interface Caller {
  keyId: string;
  accountId: string;
  plan: PlanId;
  /** SPEC §1 rule 7: names of directors and persons with significant control only for verified accounts. */
  canSeeNames: boolean;
  /** Where the caller's credits live: its own KeyLedger or its organisation's pool. */
  ledger: { name: string; pooled: boolean; allowance: number; startingBalance: number | null; period: string };
}

/** What a handler gets besides its validated input. No `env`: clients and stores come built, as `services`. */
export interface OpContext {
  /** Every client and store the operation may use, built from the configuration by platform/services.ts. */
  services: Services;
  requestId: string;
  /** The service's origin as the caller reached it (e.g. https://api.example.co.uk). */
  origin: string;
  caller: Caller | null;
  /**
   * A publishable key (`pk_…`) the call came with, checked by the gateway against the origins its account named
   * (auth "publishable" only; null when the call came without one, keyless).
   */
  publishable?: { key: string; accountId: string } | null;
  /** Client IP as the edge saw it (for keyless IP limits). */
  ip: string;
  now: Date;
  /** Aborted when the call passes its time limit. */
  signal: AbortSignal;
  /**
   * Charge more than the operation's price, from the handler, once it knows the call's cost (a watch charges only
   * when it starts or resumes). With `onceId`, a charge under that id is made at most once (a repeat charges 0).
   * Throws quota_exhausted / org_pool_exhausted (429) when the balance is short. Like the price, it is given back if
   * the call then fails.
   */
  charge(credits: number, onceId?: string): Promise<{ charged: number; remaining: number }>;
  /** Give back part of what was charged (e.g. batch items that could not be read). */
  refund(credits: number): void;
  /** Let the Worker finish background work after replying. */
  waitUntil(p: Promise<unknown>): void;
  /**
   * Names something the answer rests on (a register's edition and its file, an upstream read), for the call's signed
   * receipt (operations with `receipt: true`; issue 33 §2). Optional: contexts made outside the gateway have none.
   */
  cite?(evidence: Evidence): void;
}

/** A handler may return `new Reply(body, { headers })` to set extra reply headers (e.g. Cache-Control). */
export class Reply<T> {
  constructor(
    readonly body: T,
    readonly init: { status?: 200 | 201; headers?: Record<string, string> } = {},
  ) {}
}

/**
 * An image reply (company-logo/image, issue 32): the bytes and their media type, sent as they are. An operation whose
 * `output` is `imageOutput(...)` returns one; the gateway answers it with the bytes, never as JSON, and a request
 * whose If-None-Match names its ETag gets 304 without them.
 */
export class ImageReply {
  constructor(
    readonly bytes: Uint8Array,
    readonly contentType: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** The `output` of an operation that answers an image: the media types it may answer (OpenAPI lists each; MCP answers image content). */
export const imageOutput = (mediaTypes: readonly string[]) => {
  const schema = z.custom<ImageReply>((v) => v instanceof ImageReply, { message: "an image reply" });
  imageMediaTypes.set(schema, mediaTypes);
  return schema;
};
const imageMediaTypes = new WeakMap<z.ZodType, readonly string[]>();
/** The media types of an image operation's reply, or null for a JSON one. */
export const mediaTypesOf = (op: { output: z.ZodType }): readonly string[] | null => imageMediaTypes.get(op.output) ?? null;

export type Price<I> = number | { rule: string; credits: (input: I, plan: PlanId) => number };

export interface Operation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  /** operationId, MCP tool name. SPEC's own where it names one; camelCase otherwise. */
  operationId: string;
  method: "get" | "post" | "put" | "delete";
  /** Hono path, e.g. `/api/v1/late-payment`. */
  path: string;
  /** Family folder (registers, companies, money, web, account, ...), also the docs grouping. */
  family: string;
  /** Short human title (MCP annotation title, Markdown heading). */
  title: string;
  /** One line. */
  summary: string;
  /** Markdown. Price and limits are appended from `price` and the schemas by the generators. */
  description: string;
  /** The status of a successful reply (default 200; 201 where the call creates something). */
  successStatus?: 200 | 201;
  /** False: `Idempotency-Key` is not honoured (the reply holds a secret that must not be stored to replay it). */
  replayable?: false;
  /** With successStatus 201: when the call may also answer 200, what that means (documented as a second success reply). */
  alsoOk?: string;
  /** Query parameters for GET/DELETE, JSON body for POST/PUT. */
  input: I;
  output: O;
  price: Price<z.infer<I>>;
  /**
   * "key": a secret key (x-api-key). "keyless": none. "publishable": none, or a publishable key (`pk_…`, in the `key`
   * parameter or x-api-key) from one of its account's origins; a secret key is refused there (it would be public).
   */
  auth: "key" | "keyless" | "publishable";
  /** Error codes this operation can answer besides the gateway's own. */
  errors: ErrorCode[];
  /** Read-only operations get `readOnlyHint` in MCP. */
  readOnly: boolean;
  /** Time limit of a call in ms; past it the call answers 503 timeout and its credits come back. */
  timeoutMs?: number;
  /** The largest JSON body taken (default 256 KiB): the document readers take a long `text`. */
  maxBodyBytes?: number;
  /** Browsers may call it from any origin (company-logo). */
  cors?: boolean;
  /**
   * A check whose charged replies carry a signed receipt (issue 33 §2): the gateway signs what was asked, a digest of
   * the reply and the evidence the handler cited (ctx.cite), keeps both, and sends `x-receipt-id` and `x-receipt`.
   */
  receipt?: true;
  /** An example request (query or body) used in the generated docs. */
  example: Record<string, unknown>;
  /**
   * The reply to `example`, for the docs (computed from the real code where it is pure). A function, never a value:
   * it runs when the docs first ask for it (defineOperation keeps its result), not at import, where every cold start
   * would pay for it (issue 30 §1).
   */
  exampleReply?: () => unknown;
  handler: (input: z.infer<I>, ctx: OpContext) => Promise<z.infer<O> | Reply<z.infer<O>>>;
}

/**
 * Keeps the input/output types linked for the handler; the input refuses parameters it does not name (schemas.ts
 * closedInput); the example reply is computed once, on first use (shared/lazy.ts).
 */
export const defineOperation = <I extends z.ZodObject, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> => {
  defined.push(op.operationId);
  return {
    ...op,
    input: closedInput(op.input),
    ...(op.exampleReply ? { exampleReply: lazy(op.exampleReply, `${op.operationId}.exampleReply`) } : {}),
  };
};

/** The operations defined so far in this isolate (their modules evaluated), in order: test/platform/startup.test.ts checks a cold start defines none. */
const defined: string[] = [];
export const operationsDefined = (): readonly string[] => defined;

export type AnyOperation = Operation<z.ZodObject, z.ZodType>;

/** A route of the table the API Worker starts with (routes.ts): what routing needs, and the import of the operation. */
export interface OperationRoute {
  operationId: string;
  method: AnyOperation["method"];
  path: string;
  cors: boolean;
  load(): Promise<AnyOperation>;
}

/** The price of one call, for the ledger. */
export function priceOf<I>(price: Price<I>, input: I, plan: PlanId): number {
  return typeof price === "number" ? price : price.credits(input, plan);
}

/** The price as words, for docs, OpenAPI `x-credits` and MCP descriptions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function priceText(price: Price<any>): string {
  if (typeof price === "number") return price === 0 ? "free" : `${price} credit${price === 1 ? "" : "s"} per call`;
  return price.rule;
}

/** The slug of an operation's Markdown page: the path under /api/v1, with `/` as `-` (a path parameter by its name). */
export const slugOf = (op: { path: string }): string =>
  op.path
    .replace(/^\/api\/v1\//, "")
    .replace(/[{}:]/g, "")
    .replace(/\//g, "-") || "root";

/** The names of a path's parameters (`/api/v1/receipts/:id` → ["id"]). */
export const pathParamsOf = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

/**
 * A request's path with its parameters filled in from `input` (each encoded), and the rest of the input (the query or
 * body): how the docs' examples and the tests address an operation with path parameters.
 */
export function fillPath(path: string, input: Record<string, unknown>): { path: string; rest: Record<string, unknown> } {
  const rest = { ...input };
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    const v = rest[name];
    delete rest[name];
    return encodeURIComponent(String(v ?? ""));
  });
  return { path: filled, rest };
}
