import type { z } from "@hono/zod-openapi";
import { claimIdempotencyKey, forgetReply, saveReply, storedReply } from "../db/idempotency";
import type { Env } from "../env";
import type { ChargeOnceResult, ChargeResult } from "../ledger/KeyLedger";
import { newId, sha256Hex } from "./crypto";
import { ApiError, toApiError } from "./errors";
import { BURST_WINDOW_MS, PLANS, ledgerFor, periodOf } from "./plans";
import { type AnyOperation, type Caller, type OpContext, Reply, priceOf } from "./registry";
import { keyRow } from "./keyCache";
import { type Services, buildServices } from "./services";

/**
 * The gateway: one path for every call, over HTTP and over MCP alike.
 * marketplace check → key → input validation → idempotency → charge (ledger) → handler under a
 * time limit → refund on 5xx/time-out → reply headers. Bad input is refused before anything is charged.
 */

export interface Outcome {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface CallMeta {
  requestId: string;
  headers: Headers;
  ip: string;
  /** POST/PUT only: a repeat with the same key returns the first reply and is charged once. */
  idempotencyKey?: string | null;
  /** Key as presented (x-api-key, or Bearer on /mcp). */
  apiKey: string | null;
  waitUntil(p: Promise<unknown>): void;
  now?: number;
  /** Tests: in-memory stand-ins for some of the services the handler gets. */
  services?: Partial<Services>;
  /** The service's own origin as the caller reached it (for addresses a reply gives, e.g. a calendar feed). */
  origin?: string;
}

export interface Authenticated {
  caller: Caller;
  /** The plan's burst ceiling (calls a minute per key). */
  burstLimit: number;
}

const DEFAULT_TIMEOUT_MS = 25_000;
const LEDGER_TIMEOUT_MS = 3_000;

export const requestIdHeader = "x-request-id";
export const newRequestId = () => newId("req");

/**
 * A message fit for a caller: the runtime's own wording for a failed connection ("internal error; reference =
 * …", "kj/…", "jsg.…" codes) is an internal detail, said plainly instead. The log keeps the original.
 */
export function publicMessage(message: string): string {
  return message
    .replace(/internal error;?\s*reference\s*=\s*[\w-]+/gi, "a network error")
    .replace(/\b(?:kj|jsg|workerd)[/.][^\s);,]*/gi, "")
    .replace(/\s{2,}/g, " ")
    .trim();
}

export function errorBody(e: ApiError, requestId: string): Record<string, unknown> {
  const body: Record<string, unknown> = { code: e.code, message: publicMessage(e.message), requestId };
  if (e.options.query !== undefined) body.query = e.options.query;
  if (e.options.field !== undefined) body.field = e.options.field;
  if (e.options.details !== undefined) body.details = e.options.details;
  return body;
}

export function errorOutcome(e: unknown, requestId: string): Outcome {
  const err = toApiError(e, requestId);
  const headers: Record<string, string> = {};
  if (err.options.retryAfter !== undefined) headers["retry-after"] = String(err.options.retryAfter);
  return { status: err.status, body: errorBody(err, requestId), headers };
}

/** Headers by which the former third-party marketplace's proxy identifies itself (SPEC §5.6). */
const MARKETPLACE_HEADERS = ["x-rapidapi-proxy-secret", "x-rapidapi-user", "x-rapidapi-host", "x-rapidapi-subscription", "x-mashape-proxy-secret", "x-mashape-user"];

export function refuseMarketplace(headers: Headers): void {
  if (MARKETPLACE_HEADERS.some((h) => headers.has(h)))
    throw new ApiError(
      "marketplace_refused",
      "Calls through the former third-party marketplace listing are no longer accepted. Get a free key directly: POST /api/v1/signup.",
    );
}


export async function authenticate(env: Env, apiKey: string | null, now: number): Promise<Authenticated> {
  if (!apiKey) throw new ApiError("missing_key", "Send your API key in the x-api-key header (on /mcp: Authorization: Bearer <key>).");
  if (apiKey.length > 200) throw new ApiError("invalid_key", "That API key is not recognised.");
  const row = await keyRow(env.DB, apiKey, now);
  if (!row) throw new ApiError("invalid_key", "That API key is not recognised.");
  if (!row.active) throw new ApiError("inactive_key", "That API key has been disabled. Create a new one or contact support.");
  const period = periodOf(now);
  // A key's one-month starting balance applies to its own ledger only; a pool opens at the org plan's allowance.
  const ledger = ledgerFor({ ...row, startingBalance: row.creditsOverridePeriod === period ? row.creditsOverride : null });
  return {
    caller: {
      keyId: row.keyId,
      accountId: row.accountId,
      plan: ledger.plan,
      canSeeNames: row.emailVerifiedAt !== null && row.mobileVerifiedAt !== null,
      // The allowance belongs to the person (the account with its verified email and mobile), not to each key:
      // every key of an account draws on one balance and one burst window (an organisation's pool, when pooled).
      ledger: { name: ledger.name, pooled: ledger.pooled, allowance: ledger.allowance, startingBalance: ledger.startingBalance, period },
    },
    burstLimit: PLANS[ledger.plan].burstPerMinute,
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(onTimeout()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const ledgerStub = (env: Env, name: string) => env.LEDGER.get(env.LEDGER.idFromName(name));

/** One call to the caller's ledger under its time limit; unreachable or late, the call is refused with `whenDown` and nothing is charged. */
async function onLedger<T>(auth: Authenticated, call: (ledger: ReturnType<typeof ledgerStub>) => Promise<T>, whenDown: string, env: Env): Promise<T> {
  try {
    return await withTimeout(call(ledgerStub(env, auth.caller.ledger.name)), LEDGER_TIMEOUT_MS, () => new Error("ledger time-out"));
  } catch (e) {
    console.error(JSON.stringify({ ledger: auth.caller.ledger.name, error: String(e) }));
    throw new ApiError("ledger_unavailable", whenDown);
  }
}

const ledgerTerms = (auth: Authenticated) => ({ period: auth.caller.ledger.period, allowance: auth.caller.ledger.allowance, startingBalance: auth.caller.ledger.startingBalance });

const charge = (env: Env, auth: Authenticated, cost: number, now: number) =>
  onLedger(
    auth,
    (l) => l.charge({ cost, keyId: auth.caller.keyId, ...ledgerTerms(auth), burstLimit: auth.burstLimit, burstWindowMs: BURST_WINDOW_MS, now }) as Promise<ChargeResult>,
    "The credit ledger could not be reached, so the call was not run and nothing was charged. Retry shortly.",
    env,
  );

/** A charge from the handler (ctx.charge): outside the burst ceiling (the call was counted once), at most once per id. */
const chargeOnce = (env: Env, auth: Authenticated, cost: number, onceId: string) =>
  onLedger(auth, (l) => l.chargeOnce({ id: onceId, cost, ...ledgerTerms(auth) }) as Promise<ChargeOnceResult>, "The credit ledger could not be reached, so nothing was charged. Retry shortly.", env);

const shortOfCredits = (auth: Authenticated, remaining: number, cost: number) =>
  auth.caller.ledger.pooled
    ? new ApiError("org_pool_exhausted", `Your organisation's shared pool has ${remaining} credits left; this call costs ${cost}.`)
    : new ApiError("quota_exhausted", `This month's credits are used up (${remaining} left; this call costs ${cost}). They reset on the 1st (UTC).`);

async function refund(env: Env, auth: Authenticated, amount: number, onceIds: string[] = []): Promise<{ remaining: number; refunded: number } | null> {
  try {
    const p = ledgerStub(env, auth.caller.ledger.name).refund(amount, auth.caller.ledger.period, onceIds) as Promise<{ remaining: number; refunded: number }>;
    return await withTimeout(p, LEDGER_TIMEOUT_MS, () => new Error("ledger time-out"));
  } catch (e) {
    console.error(JSON.stringify({ ledger: auth.caller.ledger.name, refundLost: amount, error: String(e) }));
    return null;
  }
}

/** Turns a zod failure into a 400 naming the field. */
export function badRequest(error: z.ZodError, where: "query" | "body", raw?: unknown): ApiError {
  const issue = error.issues[0];
  const field = issue.path.map(String).join(".") || (where === "body" ? "body" : "query");
  const top = issue.path[0];
  const absent = typeof raw === "object" && raw !== null && typeof top === "string" && ((raw as Record<string, unknown>)[top] === undefined || (raw as Record<string, unknown>)[top] === "");
  const missing = absent || (issue.code === "invalid_type" && /received undefined/.test(issue.message));
  const message = missing ? `\`${field}\` is required.` : `\`${field}\`: ${issue.message}`;
  return new ApiError("bad_request", message, { field, details: error.issues.slice(0, 5).map((i) => ({ field: i.path.join("."), message: i.message })) });
}

export function validate<I extends z.ZodObject>(op: { input: I; method: string }, raw: unknown): z.infer<I> {
  const where = op.method === "get" || op.method === "delete" ? "query" : "body";
  if (where === "body" && (typeof raw !== "object" || raw === null || Array.isArray(raw)))
    throw new ApiError("bad_request", "The request body must be a JSON object.", { field: "body" });
  const parsed = op.input.safeParse(raw);
  if (!parsed.success) throw badRequest(parsed.error, where, raw);
  return parsed.data;
}

/** Runs one operation for one caller. Never throws: every failure becomes an error Outcome. */
export async function execute(env: Env, op: AnyOperation, rawInput: unknown, meta: CallMeta): Promise<Outcome> {
  const now = meta.now ?? Date.now();
  let auth: Authenticated | null = null;
  let charged = 0;
  let idem: { keyId: string; key: string } | null = null;
  const onceIds: string[] = [];
  let remainingAfter: number | null = null;
  try {
    refuseMarketplace(meta.headers);
    if (op.auth === "key") auth = await authenticate(env, meta.apiKey, now);
    const input = validate(op, rawInput);

    if (auth && meta.idempotencyKey && (op.method === "post" || op.method === "put") && op.replayable !== false) {
      const replay = await idempotencyBegin(env, auth.caller.keyId, meta.idempotencyKey, op, rawInput);
      if (replay) return replay;
      idem = { keyId: auth.caller.keyId, key: meta.idempotencyKey };
    }

    const headers: Record<string, string> = {};
    if (auth) {
      const cost = priceOf(op.price, input, auth.caller.plan);
      const r = await charge(env, auth, cost, now);
      if (!r.ok) {
        if (r.reason === "burst")
          throw new ApiError("rate_limited", `Burst ceiling reached: at most ${auth.burstLimit} calls a minute per key. No credit was used.`, {
            retryAfter: r.retryAfterSeconds,
          });
        throw shortOfCredits(auth, r.remaining, cost);
      }
      charged = r.charged;
      if (charged > 0) headers["x-credits-remaining"] = String(r.remaining);
    }

    let partial = 0;
    const controller = new AbortController();
    const ctx: OpContext = {
      services: buildServices(env, meta.services),
      origin: meta.origin ?? "http://localhost",
      requestId: meta.requestId,
      caller: auth?.caller ?? null,
      ip: meta.ip,
      now: new Date(now),
      signal: controller.signal,
      charge: async (credits, onceId) => {
        if (!auth) throw new Error("ctx.charge on a keyless operation");
        const cost = Math.max(0, Math.floor(credits));
        const id = onceId ?? newId("chg");
        const r = await chargeOnce(env, auth, cost, id);
        if (!r.ok) throw shortOfCredits(auth, r.remaining, cost);
        if (r.charged > 0) onceIds.push(id);
        charged += r.charged;
        remainingAfter = r.remaining;
        return { charged: r.charged, remaining: r.remaining };
      },
      refund: (n) => {
        partial = Math.min(charged, partial + Math.max(0, Math.floor(n)));
      },
      waitUntil: meta.waitUntil,
    };
    const limit = op.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const result = await withTimeout(op.handler(input, ctx), limit, () => {
      controller.abort();
      return new ApiError("timeout", `The call ran past its ${Math.round(limit / 1000)} s time limit. Its credits were given back; retry later.`);
    });
    const reply = result instanceof Reply ? result : new Reply(result);
    Object.assign(headers, reply.init.headers ?? {});
    if (charged > 0 && remainingAfter !== null) headers["x-credits-remaining"] = String(remainingAfter);
    if (auth && partial > 0) {
      const back = await refund(env, auth, partial);
      if (back) {
        headers["x-credits-refunded"] = String(back.refunded);
        headers["x-credits-remaining"] = String(back.remaining);
      }
    }
    const outcome: Outcome = { status: reply.init.status ?? 200, body: reply.body, headers };
    if (idem) await idempotencyFinish(env, idem, outcome);
    return outcome;
  } catch (e) {
    const outcome = errorOutcome(e, meta.requestId);
    // Errors are never charged: a 5xx or time-out (SPEC §7.4), and also a 4xx found after charging
    // (not found, unreadable page), give back what the call took.
    if (auth && charged > 0) {
      const back = await refund(env, auth, charged, onceIds);
      if (back) {
        outcome.headers["x-credits-refunded"] = String(back.refunded);
        outcome.headers["x-credits-remaining"] = String(back.remaining);
      }
    }
    if (idem) {
      if (outcome.status >= 500) await idempotencyForget(env, idem);
      else await idempotencyFinish(env, idem, outcome);
    }
    return outcome;
  }
}

// ---- Idempotency-Key (POST/PUT) ----

async function idempotencyBegin(env: Env, keyId: string, key: string, op: AnyOperation, raw: unknown): Promise<Outcome | null> {
  if (key.length > 200) throw new ApiError("bad_request", "`Idempotency-Key` must be at most 200 characters.", { field: "Idempotency-Key" });
  const requestHash = await sha256Hex(`${op.method} ${op.path} ${JSON.stringify(raw)}`);
  if (await claimIdempotencyKey(env.DB, keyId, key, requestHash)) return null;
  const prior = await storedReply(env.DB, keyId, key);
  if (!prior) return null;
  if (prior.requestHash !== requestHash)
    throw new ApiError("conflict", "This Idempotency-Key was already used with a different request.", { field: "Idempotency-Key" });
  if (prior.status === 0) throw new ApiError("conflict", "The first call with this Idempotency-Key is still running; retry shortly.", { field: "Idempotency-Key" });
  const headers: Record<string, string> = { ...(JSON.parse(prior.headers ?? "{}") as Record<string, string>), "idempotent-replayed": "true" };
  return { status: prior.status, body: JSON.parse(prior.body ?? "null"), headers };
}

const idempotencyFinish = (env: Env, idem: { keyId: string; key: string }, o: Outcome) =>
  saveReply(env.DB, idem.keyId, idem.key, o.status, JSON.stringify(o.body), JSON.stringify(o.headers));

const idempotencyForget = (env: Env, idem: { keyId: string; key: string }) => forgetReply(env.DB, idem.keyId, idem.key);
