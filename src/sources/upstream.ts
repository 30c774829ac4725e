/**
 * Plumbing every upstream client reuses: one GET with the cache, the request budget, the time limit,
 * one retry of a connection lost before any answer, and the mapping of the upstream's HTTP answer to an
 * `UpstreamError` kind. A client then states only its paths, its TTLs and how it reads a body
 * (`sources/<upstream>/parse.ts`). Never knows HTTP replies of this service: it throws upstream errors.
 */
import { type Clock, type HttpCache, type RequestBudget, systemClock } from "../shared/ports";
import { UpstreamError, type UpstreamKind } from "../shared/errors";

/** The kind of failure an upstream's HTTP status means (every kind is a 503 to our caller). */
export function kindOfStatus(status: number): UpstreamKind {
  if (status === 429) return "rate_limited";
  if (status === 404 || status === 410) return "not_found";
  if (status >= 500) return "unreachable";
  return "refused";
}

/** Seconds to wait that a 429 states: `Retry-After` (seconds), or Companies House's `X-Ratelimit-Reset` (epoch s). */
export function retryAfterOf(headers: Headers, now: number): number | undefined {
  const after = Number(headers.get("retry-after"));
  if (after > 0) return Math.ceil(after);
  const reset = Number(headers.get("x-ratelimit-reset"));
  return reset > 0 ? Math.max(1, Math.ceil(reset - now / 1000)) : undefined;
}

/**
 * Upstreams that announce their own limit (Companies House: `X-Ratelimit-Remain` or, on its Document API,
 * `X-Ratelimit-Remaining`, with `X-Ratelimit-Reset` in epoch seconds): when one says nothing is left, or answers
 * 429, calls to it stop here until its reset, per isolate, instead of spending requests on certain refusals.
 */
const pausedUntil = new Map<string, number>();

/** Tests: forget every pause. */
export const resetUpstreamPauses = () => pausedUntil.clear();

function notePause(source: string, headers: Headers, status: number, now: number): void {
  const remain = headers.get("x-ratelimit-remain") ?? headers.get("x-ratelimit-remaining");
  const reset = Number(headers.get("x-ratelimit-reset")) * 1000;
  if ((status === 429 || remain === "0") && reset > now) pausedUntil.set(source, reset);
}

export { mapLimited } from "../shared/concurrency";

export interface UpstreamConfig {
  /** Source id, used in logs, errors and as the budget's name (e.g. `companies-house`). */
  source: string;
  /** The upstream's name in messages (e.g. `Companies House`). */
  label: string;
  baseUrl: string;
  headers?: Record<string, string>;
  cache?: HttpCache;
  budget?: RequestBudget;
  clock?: Clock;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

/** Bytes of an answer's body read at most unless a call says otherwise: far above any register's JSON answer. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** An answer's body was longer than the call's `maxBytes` (the cause of the UpstreamError the GET throws). */
export class BodyTooLarge extends Error {
  name = "BodyTooLarge";
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
  }
}

/** The body as text, refused with BodyTooLarge once more than `maxBytes` have arrived (at once when Content-Length says so), the rest cancelled unread. */
async function readTextCapped(res: Response, maxBytes: number): Promise<string> {
  if (Number(res.headers.get("content-length")) > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new BodyTooLarge(maxBytes);
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

export interface GetOptions {
  /** Cache key; with a cache, answers are kept `ttlSeconds(status)` seconds (0: not kept). */
  cacheKey?: string;
  ttlSeconds?: (status: number) => number;
  /** Statuses besides 200 that are answers (e.g. 404 "no such company"), not failures. */
  answers?: number[];
  /** Checks an answer before it is cached; throw to refuse it (it is then neither cached nor returned). */
  check?: (status: number, body: string) => void;
  /** Headers of this request besides the upstream's own (e.g. another Accept). */
  headers?: Record<string, string>;
  /** Bytes of the body read at most (DEFAULT_MAX_BODY_BYTES); longer, the GET fails with BodyTooLarge as its error's cause. */
  maxBytes?: number;
}

export interface Upstream {
  /** GET `path` (relative to the base URL): the answer's status and body, from the cache while it is fresh. */
  cachedGet(path: string, opts?: GetOptions): Promise<{ status: number; body: string; fromCache: boolean }>;
}

export function createUpstream(cfg: UpstreamConfig): Upstream {
  const fetchImpl = cfg.fetchImpl ?? fetch;
  const clock = cfg.clock ?? systemClock;
  const timeoutMs = cfg.timeoutMs ?? 5000;
  const base = cfg.baseUrl.replace(/\/+$/, "");
  const fail = (kind: UpstreamKind, message: string, o: { retryAfter?: number; status?: number; cause?: unknown } = {}) =>
    new UpstreamError(cfg.source, kind, message, o);

  return {
    async cachedGet(path, opts = {}) {
      const ttl = opts.ttlSeconds ?? (() => 0);
      if (cfg.cache && opts.cacheKey) {
        const hit = await cfg.cache.get(opts.cacheKey);
        // The TTL is judged here too, so any HttpCache (and an injected clock) behaves the same.
        if (hit && clock() - hit.fetchedAt < ttl(hit.status) * 1000) return { status: hit.status, body: hit.body, fromCache: true };
      }
      const paused = pausedUntil.get(cfg.source) ?? 0;
      if (paused > clock())
        throw fail("rate_limited", `${cfg.label} rate limit reached (it said so; waiting for its reset)`, {
          retryAfter: Math.max(1, Math.ceil((paused - clock()) / 1000)),
        });
      if (cfg.budget) {
        const allowed = await cfg.budget.take(cfg.source, clock());
        if (!allowed.ok) throw fail("rate_limited", `${cfg.label} request budget used up for this window`, { retryAfter: allowed.retryAfterSeconds });
      }

      const ctrl = new AbortController();
      const timer = setTimeout(() => ctrl.abort(), timeoutMs);
      let res: Response;
      let body: string;
      try {
        const get = () => fetchImpl(`${base}${path}`, { headers: { ...cfg.headers, ...opts.headers }, signal: ctrl.signal });
        // A GET that fails before any answer (a connection the upstream had closed, a refused first connection:
        // workerd says "Network connection lost.") is tried once more at once, within the same time limit.
        res = await get().catch((e: unknown) => {
          if (ctrl.signal.aborted) throw e;
          return get();
        });
        body = await readTextCapped(res, opts.maxBytes ?? DEFAULT_MAX_BODY_BYTES); // inside the timer: a stalled body also times out
      } catch (e) {
        throw ctrl.signal.aborted
          ? fail("timeout", `${cfg.label} did not answer within ${timeoutMs} ms`, { cause: e })
          : fail("unreachable", `${cfg.label} could not be reached: ${String(e)}`, { cause: e });
      } finally {
        clearTimeout(timer);
      }

      const status = res.status;
      notePause(cfg.source, res.headers, status, clock());
      if (status === 429) throw fail("rate_limited", `${cfg.label} rate limit reached`, { status, retryAfter: retryAfterOf(res.headers, clock()) });
      if (status !== 200 && !(opts.answers ?? []).includes(status)) throw fail(kindOfStatus(status), `${cfg.label} answered HTTP ${status}`, { status });
      opts.check?.(status, body);
      const keep = ttl(status);
      if (cfg.cache && opts.cacheKey && keep > 0) await cfg.cache.put(opts.cacheKey, { status, body, fetchedAt: clock() }, keep);
      return { status, body, fromCache: false };
    },
  };
}

/** For clients that stream or read big files themselves: the error for a failed fetch or a non-2xx answer. */
export const unreachable = (source: string, message: string, cause?: unknown) => new UpstreamError(source, "unreachable", message, { cause });
export const answeredBadly = (source: string, status: number, message: string) => new UpstreamError(source, kindOfStatus(status), message, { status });
export const notConfigured = (source: string, what: string) => new UpstreamError(source, "not_configured", `${what} not configured`);
