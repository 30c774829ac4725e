import type { z } from "@hono/zod-openapi";
import { claimIdempotencyKey, forgetReply, saveReply, storedReply } from "../db/idempotency";
import type { Env } from "../env";
import { durableLedgers } from "../ledger/durableLedgers";
import type { ChargeOnceResult, ChargeResult, Ledger, Ledgers, RefundRequest, RefundResult } from "../shared/ledger";
import { newId, sha256Hex } from "./crypto";
import { ApiError, toApiError } from "./errors";
import { BURST_WINDOW_MS, PLANS, ledgerFor, periodOf } from "./plans";
import { type AnyOperation, type Caller, ImageReply, type OpContext, Reply, priceOf } from "./registry";
import { keyRow, publishableKeyRow } from "./keyCache";
import { originAllowed, pageOrigin } from "../services/net/origins";
import { BOOKMARK_HEADER, parseBookmarks, readSessions } from "../db/sessions";
import { type Services, buildServices, ledgerReads } from "./services";
import { configureTestHosts } from "../shared/testHosts";
import { type Evidence, receiptClaims } from "../services/receipts/claims";
import { putReceipt } from "../db/receipts";

/**
 * The gateway: one path for every call, over HTTP and over MCP alike.
 * marketplace check → key → input validation → idempotency → charge (ledger) → handler under a
 * time limit → refund on 5xx/time-out → reply headers. Bad input is refused before anything is charged.
 *
 * Billing when the ledger is slow (issue 29 §2). A ledger call is given up on after a time limit, but the call itself
 * cannot be withdrawn: it may still arrive, or it may have arrived and only its answer be late. So:
 * - Every charge carries an id made here, `<requestId>.<random>.<n>` (the random part because an MCP request may run
 *   several calls under one request id), and every refund names the charges it gives back: the ledger refunds by id,
 *   idempotently (KeyLedger.refund).
 * - A charge given up on is cancelled by id before the reply: the ledger gives it back if it arrived, or leaves a
 *   tombstone that refuses it if it arrives later. Only a confirmed cancel lets the reply say nothing was charged (or that
 *   what was taken was given back, `x-credits-refunded`). When the cancel is not confirmed either, the reply says the
 *   outcome is not yet known (503 ledger_unavailable with `x-credits-refund-pending`) and the cancel goes on in the
 *   background (waitUntil), retried.
 * - A refund given up on (a batch's unread items, an error's whole charge) is retried in the background the same way,
 *   and the reply says `x-credits-refund-pending: <n>` instead of `x-credits-refunded`: a reply never claims a refund
 *   that has not been confirmed, and never omits one it promises (a batch's `creditsRefunded` is in one header or the
 *   other). The log says `refundUnconfirmed` (with the charge ids, for the ledger's own record) only if every retry
 *   failed, never that a refund was lost.
 * So the credits a reply says it used (its price less `x-credits-refunded` and `x-credits-refund-pending`; 0 for an
 * error) are exactly what its call costs the balance once the background work is done.
 */

export interface Outcome {
  status: number;
  /** The JSON body; for an image reply, null (the bytes are in `image`). */
  body: unknown;
  headers: Record<string, string>;
  /** An image reply's bytes and media type (imageOutput operations), sent as they are. */
  image?: { bytes: Uint8Array; contentType: string };
  /** The JSON body as text, when it must be sent byte for byte as written (a receipt signed its digest). */
  text?: string;
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
  /**
   * Tests: the credit ledgers the call is charged on and the account read peeks at (`memoryLedgers()`: the same rules
   * without a Durable Object). Default: the KeyLedger Durable Objects of `env.LEDGER` (durableLedgers).
   */
  ledgers?: Ledgers;
  /** Tests: how long a ledger call may take before the gateway gives up on it (default LEDGER_TIMEOUT_MS). */
  ledgerTimeoutMs?: number;
}

/** The ledger calls the gateway makes (of the `Ledger` port, shared/ledger.ts). */
export type LedgerPort = Pick<Ledger, "charge" | "chargeOnce" | "refund">;

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
const MARKETPLACE_HEADERS = [
  "x-rapidapi-proxy-secret",
  "x-rapidapi-user",
  "x-rapidapi-host",
  "x-rapidapi-subscription",
  "x-mashape-proxy-secret",
  "x-mashape-user",
];

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

/**
 * The key of a call to a "publishable" operation (the logo image): none (keyless, limited per IP address), or a
 * publishable key (`pk_…`, in the `key` parameter an <img> address can carry, or x-api-key) whose account names the
 * page's origin. A secret key is refused: in an image address it is public.
 */
export function refuseSecretKey(presented: string | null, fromHeader: boolean): void {
  // A secret key (ukbi_…; any key in the x-api-key header that is not a publishable one) is refused as such; anything
  // else in the `key` parameter is left to the input's validation (400 naming it).
  if (presented && !presented.startsWith("pk_") && (presented.startsWith("ukbi_") || fromHeader))
    throw new ApiError(
      "secret_key_refused",
      "This address goes in page source, where anyone can read it: it takes a publishable key (pk_…), never a secret key. Create one with POST /api/v1/account/publishable-keys, or leave the key out (keyless, limited per IP address). If a secret key has been published in a page, revoke it (DELETE /api/v1/account/keys).",
      { field: "key" },
    );
}

/** The publishable key's account, once its origin is checked (see refuseSecretKey for what comes first). */
export async function authenticatePublishable(
  env: Env,
  presented: string | null,
  headers: Headers,
  now: number,
): Promise<{ key: string; accountId: string } | null> {
  // Anything but a pk_ key was refused before (a secret key) or by the input's pattern (the `key` parameter).
  if (!presented) return null;
  if (presented.length > 100) throw new ApiError("invalid_key", "That publishable key is not recognised.", { field: "key" });
  const row = await publishableKeyRow(env.DB, presented, now);
  if (!row) throw new ApiError("invalid_key", "That publishable key is not recognised, or has been revoked.", { field: "key" });
  const origin = pageOrigin(headers);
  if (!origin)
    throw new ApiError(
      "origin_not_allowed",
      'A publishable key works only from the pages of the origins its account named, and this request says no page (no Origin or Referer header; a page with referrerpolicy="no-referrer" sends neither).',
      { field: "key" },
    );
  if (!originAllowed(row.origins, origin))
    throw new ApiError("origin_not_allowed", `This publishable key is not for pages on ${origin}; its account named ${row.origins.join(", ")}.`, {
      field: "key",
    });
  return { key: row.key, accountId: row.accountId };
}

/** The `key` parameter of a call's input, when it is a string. */
const keyParameter = (raw: unknown): string | null => {
  const k = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>).key : undefined;
  return typeof k === "string" && k !== "" ? k : null;
};

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(onTimeout()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const ledgerTerms = (auth: Authenticated) => ({
  period: auth.caller.ledger.period,
  allowance: auth.caller.ledger.allowance,
  startingBalance: auth.caller.ledger.startingBalance,
});

const shortOfCredits = (auth: Authenticated, remaining: number, cost: number) =>
  auth.caller.ledger.pooled
    ? new ApiError("org_pool_exhausted", `Your organisation's shared pool has ${remaining} credits left; this call costs ${cost}.`)
    : new ApiError("quota_exhausted", `This month's credits are used up (${remaining} left; this call costs ${cost}). They reset on the 1st (UTC).`);

/** A charge the ledger did not answer in time: the call fails with this, and what it says is settled once the charge is cancelled. */
class LedgerUnanswered extends ApiError {
  constructor(readonly what: "call" | "charge") {
    super("ledger_unavailable", "The credit ledger did not answer in time.");
  }
  /** The message once the cancel's outcome is known: nothing charged, taken and given back, or not yet known. */
  settled(back: Settlement | null): ApiError {
    const run = this.what === "call" ? "so the call was not run" : "so the call was stopped";
    const message =
      back && "pending" in back
        ? `The credit ledger did not answer in time, ${run}. Whether the charge reached it is not yet known: it is being cancelled, and anything it took will be given back (\`x-credits-refund-pending\`). Retry shortly.`
        : back && back.refunded > 0
          ? `The credit ledger answered too late, ${run}; what it took was given back (\`x-credits-refunded\`). Retry shortly.`
          : `The credit ledger could not be reached, ${run} and nothing was charged. Retry shortly.`;
    return new ApiError("ledger_unavailable", message);
  }
}

/** What giving back came to: confirmed (`refunded` of the charges the reply counts, the balance after), or still under way. */
type Settlement = { refunded: number; remaining: number } | { pending: number };

/**
 * A refund or cancel the reply could not wait for: in the background, its first answer is awaited twice the time limit
 * longer, then it is asked again after each of these pauses (fractions of the time limit), each under the time limit.
 * With the 3 s limit that is at most about 24 s, within the 30 s a Worker has after its reply.
 */
const RETRY_DELAYS = [0.1, 0.25, 0.5, 1];

/**
 * One call's dealings with its ledger: the charges it made (by id), and giving them back. Every ledger call is under
 * the time limit; a charge given up on is kept as `unknown` and cancelled by id when the call ends.
 */
class CallLedger {
  /** Charges the ledger confirmed, in order (the call's price first). */
  private readonly held: { id: string; cost: number }[] = [];
  /** Charges given up on: their outcome is not known until they are cancelled. */
  private readonly unknown: { id: string; cost: number }[] = [];
  private readonly base: string;
  private seq = 0;

  constructor(
    private readonly port: LedgerPort,
    private readonly auth: Authenticated,
    private readonly timeoutMs: number,
    private readonly meta: CallMeta,
  ) {
    this.base = `${meta.requestId}.${newId("c").slice(2, 10)}`;
  }

  /** Credits the ledger confirmed this call was charged. */
  get charged(): number {
    return this.held.reduce((s, c) => s + c.cost, 0);
  }

  private timed<T>(p: Promise<T>): Promise<T> {
    return withTimeout(p, this.timeoutMs, () => new Error("ledger time-out"));
  }

  private log(fields: Record<string, unknown>) {
    console.error(JSON.stringify({ requestId: this.meta.requestId, ledger: this.auth.caller.ledger.name, ...fields }));
  }

  /** Sends one ledger charge under its id; unanswered, it is kept to be cancelled and the call fails (LedgerUnanswered). */
  private async send<R extends { ok: boolean }>(cost: number, what: "call" | "charge", call: (id: string) => Promise<R>): Promise<R & { id: string }> {
    const id = `${this.base}.${this.seq++}`;
    let r: R;
    try {
      r = await this.timed(call(id));
    } catch (e) {
      this.log({ chargeId: id, cost, error: String(e) });
      if (cost > 0) this.unknown.push({ id, cost });
      throw new LedgerUnanswered(what);
    }
    return { ...r, id };
  }

  /** The call's price, under the burst ceiling. */
  async charge(cost: number, now: number): Promise<ChargeResult> {
    const a = this.auth;
    const r = await this.send(cost, "call", (id) =>
      this.port.charge({ id, cost, keyId: a.caller.keyId, ...ledgerTerms(a), burstLimit: a.burstLimit, burstWindowMs: BURST_WINDOW_MS, now }),
    );
    if (r.ok && r.charged > 0) this.held.push({ id: r.id, cost: r.charged });
    return r;
  }

  /** A charge from the handler (ctx.charge): outside the burst ceiling (the call was counted once), at most once per once id. */
  async chargeOnce(cost: number, onceId: string | undefined): Promise<ChargeOnceResult> {
    const r = await this.send(cost, "charge", (id) => this.port.chargeOnce({ id: onceId ?? id, chargeId: id, cost, ...ledgerTerms(this.auth) }));
    if (r.ok && r.charged > 0) this.held.push({ id: r.id, cost: r.charged });
    return r;
  }

  /** Gives back `amount` of what was charged (the call succeeded: a batch's unread items), and cancels charges given up on. */
  givePartBack(amount: number): Promise<Settlement | null> {
    const items: RefundRequest["charges"] = [];
    let left = Math.min(amount, this.charged);
    for (const c of this.held) {
      if (left <= 0) break;
      items.push({ id: c.id, upTo: Math.min(left, c.cost) });
      left -= c.cost;
    }
    // What the reply counts as given back is of the charges it counts as made: a cancelled one it never saw nets to nothing.
    const held = new Set(this.held.map((c) => c.id));
    return this.settle([...items, ...this.cancels(this.unknown)], Math.min(amount, this.charged), (r) => r.charges.filter((c) => held.has(c.id)));
  }

  /** Gives everything back (the call failed): every charge confirmed, and every charge given up on, cancelled by id. */
  giveAllBack(): Promise<Settlement | null> {
    const all = [...this.held, ...this.unknown];
    return this.settle(
      this.cancels(all),
      all.reduce((s, c) => s + c.cost, 0),
      (r) => r.charges,
    );
  }

  private cancels(charges: { id: string }[]): RefundRequest["charges"] {
    return charges.map((c) => ({ id: c.id, cancel: true }));
  }

  /**
   * One refund to the ledger under the time limit. Confirmed: what it gave back (of the charges `counted` picks) and the
   * balance after. Not: `pending` credits, and the same refund (idempotent) goes on in the background until confirmed.
   */
  private async settle(charges: RefundRequest["charges"], pending: number, counted: (r: RefundResult) => RefundResult["charges"]): Promise<Settlement | null> {
    if (!charges.length) return null;
    const req: RefundRequest = { period: this.auth.caller.ledger.period, charges };
    const first = Promise.resolve().then(() => this.port.refund(req));
    try {
      const r = await this.timed(first);
      return { refunded: counted(r).reduce((s, c) => s + c.refunded, 0), remaining: r.remaining };
    } catch (e) {
      this.log({ refundPending: pending, chargeIds: charges.map((c) => c.id), error: String(e) });
      this.meta.waitUntil(this.retry(req, first, pending));
      return { pending };
    }
  }

  /** The background half: waits a while longer for the first answer, then asks again (the refund is idempotent). */
  private async retry(req: RefundRequest, first: Promise<RefundResult>, pending: number): Promise<void> {
    let last: unknown;
    try {
      await withTimeout(first, this.timeoutMs * 2, () => new Error("ledger time-out"));
      return;
    } catch (e) {
      last = e;
    }
    for (const f of RETRY_DELAYS) {
      await new Promise((r) => setTimeout(r, this.timeoutMs * f));
      try {
        await this.timed(this.port.refund(req));
        return;
      } catch (e) {
        last = e;
      }
    }
    this.log({ refundUnconfirmed: pending, chargeIds: req.charges.map((c) => c.id), error: String(last) });
  }
}

/** The reply's credit headers for a settlement: refunded (with the balance after), or pending. */
function refundHeaders(headers: Record<string, string>, back: Settlement | null): void {
  if (!back) return;
  if ("pending" in back) {
    if (back.pending > 0) headers["x-credits-refund-pending"] = String(back.pending);
    return;
  }
  if (back.refunded > 0) {
    headers["x-credits-refunded"] = String(back.refunded);
    headers["x-credits-remaining"] = String(back.remaining);
  }
}

/** Turns a zod failure into a 400 naming the field. */
export function badRequest(error: z.ZodError, where: "query" | "body", raw?: unknown): ApiError {
  const issue = error.issues[0];
  const field = issue.path.map(String).join(".") || (where === "body" ? "body" : "query");
  const top = issue.path[0];
  const absent =
    typeof raw === "object" &&
    raw !== null &&
    typeof top === "string" &&
    ((raw as Record<string, unknown>)[top] === undefined || (raw as Record<string, unknown>)[top] === "");
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
  let ledger: CallLedger | null = null;
  let idem: { keyId: string; key: string } | null = null;
  let remainingAfter: number | null = null;
  let publishable: { key: string; accountId: string } | null = null;
  try {
    // Validation has no env: the fixture hosts it lets through (never in production) are configured here, for this isolate.
    configureTestHosts(env.SAFE_FETCH_TEST_HOSTS);
    refuseMarketplace(meta.headers);
    if (op.auth === "key") auth = await authenticate(env, meta.apiKey, now);
    // A publishable operation: the input is checked first (a malformed one is a 400 naming its field, whatever key came
    // with it), then a secret key is refused (also when it is the `key` parameter's only fault), then a publishable key
    // is looked up and its origin checked.
    const presented = op.auth === "publishable" ? (meta.apiKey ?? keyParameter(rawInput)) : null;
    const fromHeader = meta.apiKey !== null && meta.apiKey !== undefined;
    let input: ReturnType<typeof validate>;
    try {
      input = validate(op, rawInput);
    } catch (e) {
      if (op.auth === "publishable" && e instanceof ApiError && e.options.field === "key") refuseSecretKey(presented, fromHeader);
      throw e;
    }
    if (op.auth === "publishable") {
      refuseSecretKey(presented, fromHeader);
      publishable = await authenticatePublishable(env, presented, meta.headers, now);
    }
    // Register reads on the nearest copy of the database, at least as new as the caller's bookmark (db/sessions.ts).
    const reads = readSessions({ ukbi: env.DB, "ukbi-companies": env.COMPANIES_DB }, parseBookmarks(meta.headers.get(BOOKMARK_HEADER)));

    if (auth && meta.idempotencyKey && (op.method === "post" || op.method === "put") && op.replayable !== false) {
      const replay = await idempotencyBegin(env, auth.caller.keyId, meta.idempotencyKey, op, rawInput);
      if (replay) return replay;
      idem = { keyId: auth.caller.keyId, key: meta.idempotencyKey };
    }

    const ledgers = meta.ledgers ?? durableLedgers(env);
    const headers: Record<string, string> = {};
    if (auth) {
      ledger = new CallLedger(ledgers.get(auth.caller.ledger.name), auth, meta.ledgerTimeoutMs ?? LEDGER_TIMEOUT_MS, meta);
      const cost = priceOf(op.price, input, auth.caller.plan);
      const r = await ledger.charge(cost, now);
      if (!r.ok) {
        if (r.reason === "burst")
          throw new ApiError("rate_limited", `Burst ceiling reached: at most ${auth.burstLimit} calls a minute per key. No credit was used.`, {
            retryAfter: r.retryAfterSeconds,
          });
        if (r.reason === "cancelled") throw new LedgerUnanswered("call"); // its id was cancelled: cannot happen to a fresh id
        throw shortOfCredits(auth, r.remaining, cost);
      }
      if (r.charged > 0) headers["x-credits-remaining"] = String(r.remaining);
    }

    let partial = 0;
    const evidence: Evidence[] = [];
    const controller = new AbortController();
    const ctx: OpContext = {
      services: buildServices(env, { ledger: ledgerReads(ledgers), ...meta.services }, reads),
      origin: meta.origin ?? "http://localhost",
      requestId: meta.requestId,
      caller: auth?.caller ?? null,
      publishable,
      ip: meta.ip,
      now: new Date(now),
      signal: controller.signal,
      charge: async (credits, onceId) => {
        if (!auth || !ledger) throw new Error("ctx.charge on a keyless operation");
        const cost = Math.max(0, Math.floor(credits));
        const r = await ledger.chargeOnce(cost, onceId);
        if (!r.ok) {
          if (r.reason === "cancelled") throw new LedgerUnanswered("charge");
          throw shortOfCredits(auth, r.remaining, cost);
        }
        remainingAfter = r.remaining;
        return { charged: r.charged, remaining: r.remaining };
      },
      refund: (n) => {
        partial = Math.min(ledger?.charged ?? 0, partial + Math.max(0, Math.floor(n)));
      },
      waitUntil: meta.waitUntil,
      cite: (e) => void evidence.push(e),
    };
    const limit = op.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const result = await withTimeout(op.handler(input, ctx), limit, () => {
      controller.abort();
      return new ApiError("timeout", `The call ran past its ${Math.round(limit / 1000)} s time limit. Its credits are given back; retry later.`);
    });
    const image = result instanceof ImageReply ? result : null;
    const reply = image ? new Reply(null, { headers: image.headers }) : result instanceof Reply ? result : new Reply(result);
    Object.assign(headers, reply.init.headers ?? {});
    const bookmark = reads.header();
    if (bookmark) headers[BOOKMARK_HEADER] = bookmark;
    if (ledger && ledger.charged > 0 && remainingAfter !== null) headers["x-credits-remaining"] = String(remainingAfter);
    // A partial refund (a batch's unread items), and the cancel of any handler charge given up on (a handler that went on).
    if (ledger) refundHeaders(headers, await ledger.givePartBack(partial));
    const outcome: Outcome = { status: reply.init.status ?? 200, body: reply.body, headers };
    if (image) outcome.image = { bytes: image.bytes, contentType: image.contentType };
    // A check's charged reply carries a signed receipt of what was asked, a digest of the body sent and its evidence.
    if (op.receipt && auth && ledger && ledger.charged - partial > 0 && !image)
      await attachReceipt(env, outcome, { op, input, auth, meta, now: new Date(now), evidence, origin: meta.origin ?? "http://localhost" });
    if (idem) await idempotencyFinish(env, idem, outcome);
    return outcome;
  } catch (e) {
    // Errors are never charged: a 5xx or time-out (SPEC §7.4), and also a 4xx found after charging
    // (not found, unreadable page), give back what the call took; a charge given up on is cancelled by id.
    const back = ledger ? await ledger.giveAllBack() : null;
    const outcome = errorOutcome(e instanceof LedgerUnanswered ? e.settled(back) : e, meta.requestId);
    refundHeaders(outcome.headers, back);
    if (idem) {
      if (outcome.status >= 500) await idempotencyForget(env, idem);
      else await idempotencyFinish(env, idem, outcome);
    }
    return outcome;
  }
}

// ---- Receipts (issue 33 §2) ----

/**
 * Signs and keeps the receipt of a charged check: the claims (services/receipts/claims.ts) with the SHA-256 of the body
 * as it will be sent (`outcome.text`), signed (sources/receipts/signer.ts) and stored with the body. A receipt that
 * cannot be made (no signing key in production, the database failing) leaves the reply as it is, saying why in
 * `x-receipt-unavailable`: the answer stands; only its receipt is missing.
 */
async function attachReceipt(
  env: Env,
  outcome: Outcome,
  a: { op: AnyOperation; input: unknown; auth: Authenticated; meta: CallMeta; now: Date; evidence: Evidence[]; origin: string },
): Promise<void> {
  try {
    // jose is loaded on the first receipt, not at a cold start. A misconfigured key is logged, and the answer stands.
    const keys = (await import("../sources/receipts/signer")).receiptKeys(env);
    if (!keys.signer) {
      outcome.headers["x-receipt-unavailable"] = "no signing key is configured";
      return;
    }
    const text = JSON.stringify(outcome.body);
    const id = newId("rcpt");
    const claims = receiptClaims({
      id,
      origin: a.origin,
      now: a.now,
      accountId: a.auth.caller.accountId,
      operation: a.op.operationId,
      method: a.op.method,
      path: a.op.path,
      input: a.input,
      status: outcome.status,
      contentType: "application/json; charset=utf-8",
      bodySha256: await sha256Hex(text),
      requestId: a.meta.requestId,
      evidence: a.evidence,
    });
    const jws = await keys.signer.sign(claims);
    await putReceipt(env.DB, {
      id,
      accountId: a.auth.caller.accountId,
      createdAt: a.now.getTime(),
      operation: a.op.operationId,
      kid: keys.signer.kid,
      jws,
      contentType: claims.reply.contentType,
      body: text,
    });
    outcome.text = text;
    outcome.headers["x-receipt-id"] = id;
    outcome.headers["x-receipt"] = jws;
  } catch (e) {
    console.error(JSON.stringify({ requestId: a.meta.requestId, receipt: "not made", error: String((e as Error)?.message ?? e) }));
    outcome.headers["x-receipt-unavailable"] = "the receipt could not be made just now";
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
  if (prior.status === 0)
    throw new ApiError("conflict", "The first call with this Idempotency-Key is still running; retry shortly.", { field: "Idempotency-Key" });
  const headers: Record<string, string> = { ...(JSON.parse(prior.headers ?? "{}") as Record<string, string>), "idempotent-replayed": "true" };
  return { status: prior.status, body: JSON.parse(prior.body ?? "null"), headers };
}

const idempotencyFinish = (env: Env, idem: { keyId: string; key: string }, o: Outcome) =>
  saveReply(env.DB, idem.keyId, idem.key, o.status, JSON.stringify(o.body), JSON.stringify(o.headers));

const idempotencyForget = (env: Env, idem: { keyId: string; key: string }) => forgetReply(env.DB, idem.keyId, idem.key);
