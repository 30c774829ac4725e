import { ApiError, InputError, NotFoundError, UpstreamError, isApiError } from "../shared/errors";

/** The error table and the error kinds live in the shared kernel (src/shared/errors.ts), which every layer may import. */
export * from "../shared/errors";

/**
 * The one mapping from what a call threw to the error table (as Cloudflare's MCP servers map upstream
 * errors in one shared place). An upstream failure of any kind (429, 5xx, time-out, a key missing, an
 * unreadable reply, an unexpected 404) is 503 `upstream_unavailable` with credits given back, never
 * "not found"; the log keeps the source, the kind and the upstream's status. Anything unknown is 500.
 */
export function toApiError(e: unknown, requestId?: string): ApiError {
  if (isApiError(e)) return e;
  if (e instanceof UpstreamError) {
    // One line per failure: the source, the kind, the upstream's status and, when the message was rephrased, the cause.
    const cause = e.cause instanceof Error ? e.cause.message : undefined;
    console.error(JSON.stringify({ requestId, upstream: e.source, kind: e.kind, status: e.status, error: e.message, cause }));
    return new ApiError("upstream_unavailable", e.message, { retryAfter: e.retryAfter, query: e.query });
  }
  if (e instanceof InputError) return new ApiError(e.code, e.message, { field: e.field, query: e.query });
  if (e instanceof NotFoundError) return new ApiError("not_found", e.message, { query: e.query });
  console.error(JSON.stringify({ requestId, error: String((e as Error)?.stack ?? e) }));
  return new ApiError("our_failure", "Something went wrong on our side. Credits for this call were given back.");
}
