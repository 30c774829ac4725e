/**
 * The one table of error codes and their HTTP status. OpenAPI, the Markdown pages and MCP
 * descriptions are generated from it (SPEC §7).
 */
export const ERROR_CODES = {
  bad_request: { status: 400, meaning: "Missing or invalid input; the message names the field." },
  invalid_url: { status: 400, meaning: "The URL or domain is not an http(s) address the service may fetch (scheme, credentials, length)." },
  missing_key: { status: 401, meaning: "No x-api-key header (or Bearer token on /mcp)." },
  invalid_key: { status: 401, meaning: "The key is not known." },
  inactive_key: { status: 401, meaning: "The key exists but has been disabled." },
  unverified: { status: 403, meaning: "The sign-up codes did not match or have expired." },
  secret_key_refused: {
    status: 403,
    meaning: "A secret key was sent where a key is public (an image address in page source): use a publishable key (pk_…).",
  },
  origin_not_allowed: { status: 403, meaning: "The publishable key's account does not name the page's origin (Origin or Referer) among its origins." },
  marketplace_refused: { status: 403, meaning: "Calls through the former third-party marketplace listing are refused; get a key directly." },
  not_found: { status: 404, meaning: "The subject was not found; the body echoes `query`." },
  method_not_allowed: { status: 405, meaning: "The path exists but not with this method." },
  conflict: { status: 409, meaning: "The Idempotency-Key was reused with a different request, or the first call is still running." },
  key_limit_reached: { status: 409, meaning: "The account already holds its most active keys (5); disable one first (keys of one account share one balance)." },
  watch_limit_reached: {
    status: 409,
    meaning: "The account already watches its plan's most companies; remove a watch first (the limits are in the watch list's description).",
  },
  payload_too_large: { status: 413, meaning: "The request body is larger than allowed." },
  unsupported_media_type: { status: 415, meaning: "POST bodies must be application/json." },
  blocked_address: { status: 422, meaning: "The URL resolves to a private, loopback, link-local, CGNAT, multicast or reserved address, or a local name." },
  too_many_redirects: { status: 422, meaning: "The page redirected more than 5 times." },
  fetch_timeout: { status: 422, meaning: "The page did not answer within the time limit." },
  response_too_large: { status: 422, meaning: "The page is larger than the size cap (after decompression)." },
  unreadable_input: { status: 422, meaning: "The page or document could not be fetched or read." },
  quota_exhausted: { status: 429, meaning: "This month's credits are used up; they reset on the 1st (UTC)." },
  org_pool_exhausted: { status: 429, meaning: "The organisation's shared credit pool is used up." },
  rate_limited: { status: 429, meaning: "Burst ceiling (60 a minute per account, shared by its keys) or an IP limit; see Retry-After. No credit used." },
  target_unidentified: {
    status: 422,
    meaning:
      "The business asked about (assess's target, tender-match's company) could not be identified confidently: no registered company is confirmed by its own website. Nothing is charged.",
  },
  date_out_of_range: { status: 422, meaning: "A date is outside the data the service holds (e.g. past the Bank Rate table)." },
  our_failure: { status: 500, meaning: "An unexpected error on our side; credits are given back." },
  upstream_unavailable: { status: 503, meaning: "An upstream source could not be read; retry later. Credits are given back." },
  ledger_unavailable: {
    status: 503,
    meaning:
      "The credit ledger could not be reached or answered too late; the call was not completed. Nothing was charged, or what it took is given back (`x-credits-refunded`; `x-credits-refund-pending` while the ledger has not yet confirmed it).",
  },
  webhook_signing_unavailable: {
    status: 503,
    meaning: "Webhook secrets cannot be sealed just now (the service's signing key is not configured); nothing was changed.",
  },
  timeout: { status: 503, meaning: "The call ran past its time limit; credits are given back." },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ApiErrorOptions {
  query?: unknown;
  retryAfter?: number;
  field?: string;
  details?: unknown;
}

/** Thrown anywhere below the gateway; the gateway turns it into the error envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly options: ApiErrorOptions;
  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.options = options;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

// ---- Error kinds thrown below the platform (sources, services, operations). platform/errors.ts maps
// each to the table above in one place (toApiError); nothing below the platform chooses an HTTP status.

/** How an upstream failed. Every kind answers 503 with credits back: an upstream failure is never "not found". */
export type UpstreamKind = "unreachable" | "timeout" | "rate_limited" | "refused" | "malformed" | "not_found" | "not_configured";

/** A source could not be read: thrown by `sources/` (Companies House down, a 429, a key missing, an unreadable reply). */
export class UpstreamError extends Error {
  readonly source: string;
  readonly kind: UpstreamKind;
  /** Seconds the upstream asked us to wait (its Retry-After or rate-limit reset), when it said. */
  readonly retryAfter?: number;
  /** The upstream's HTTP status, when it answered. */
  readonly status?: number;
  /** The caller's query, echoed in the reply (set by the operation that knows it; a source never does). */
  readonly query?: unknown;
  constructor(source: string, kind: UpstreamKind, message: string, options: { retryAfter?: number; status?: number; cause?: unknown; query?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UpstreamError";
    this.source = source;
    this.kind = kind;
    this.retryAfter = options.retryAfter;
    this.status = options.status;
    this.query = options.query;
  }
}

/** Codes of the table that describe the caller's own input (a value, a URL, the page it points at, a date). */
export type InputCode =
  | "bad_request"
  | "invalid_url"
  | "blocked_address"
  | "too_many_redirects"
  | "fetch_timeout"
  | "response_too_large"
  | "unreadable_input"
  | "date_out_of_range";

/** The caller's input cannot be answered: thrown by services (a date before the Act) and by the web source (a private address). */
export class InputError extends Error {
  readonly code: InputCode;
  readonly field?: string;
  readonly query?: unknown;
  constructor(code: InputCode, message: string, options: { field?: string; query?: unknown } = {}) {
    super(message);
    this.name = "InputError";
    this.code = code;
    this.field = options.field;
    this.query = options.query;
  }
}

/** The subject asked for is not there (404; the reply echoes `query`, SPEC §7). */
export class NotFoundError extends Error {
  readonly query?: unknown;
  constructor(message: string, query?: unknown) {
    super(message);
    this.name = "NotFoundError";
    this.query = query;
  }
}
