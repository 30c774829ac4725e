import { describe, expect, it } from "vitest";
import { ApiError, ERROR_CODES, InputError, NotFoundError, UpstreamError, type UpstreamKind, toApiError } from "../../src/platform/errors";

describe("issue 10 §1: one mapping from what a call threw to the error table", () => {
  const kinds: UpstreamKind[] = ["unreachable", "timeout", "rate_limited", "refused", "malformed", "not_found", "not_configured"];

  it.each(kinds)("SPEC §7 an upstream failure of kind %s is 503 upstream_unavailable (credits back), never not_found", (kind) => {
    const e = toApiError(new UpstreamError("companies-house", kind, "Companies House answered HTTP 502", { status: 502, retryAfter: 30, query: "00445790" }));
    expect([e.code, e.status, e.message, e.options.retryAfter, e.options.query]).toEqual([
      "upstream_unavailable",
      503,
      "Companies House answered HTTP 502",
      30,
      "00445790",
    ]);
  });

  it("an input error keeps its code, status and field; the table decides the status", () => {
    for (const code of [
      "bad_request",
      "invalid_url",
      "blocked_address",
      "too_many_redirects",
      "fetch_timeout",
      "response_too_large",
      "unreadable_input",
      "date_out_of_range",
    ] as const) {
      const e = toApiError(new InputError(code, "why", { field: "due" }));
      expect([e.code, e.status, e.options.field]).toEqual([code, ERROR_CODES[code].status, "due"]);
    }
  });

  it("SPEC §7 not found is 404 and echoes the query", () => {
    const e = toApiError(new NotFoundError("Nothing matches.", "Acme Ltd"));
    expect([e.code, e.status, e.options.query]).toEqual(["not_found", 404, "Acme Ltd"]);
  });

  it("an ApiError passes through unchanged; anything else is 500 our_failure with a message that says nothing of the cause", () => {
    const own = new ApiError("conflict", "x");
    expect(toApiError(own)).toBe(own);
    const e = toApiError(new TypeError("cannot read properties of undefined (reading 'x')"));
    expect([e.code, e.status]).toEqual(["our_failure", 500]);
    expect(e.message).not.toMatch(/undefined|TypeError/);
  });
});

describe("issue 10 §1: nothing below the platform builds an HTTP error", () => {
  // Every module under sources/ and services/ (read as text by Vite at build time).
  const files = import.meta.glob(["/src/sources/**/*.ts", "/src/services/**/*.ts", "/src/db/**/*.ts"], {
    query: "?raw",
    import: "default",
    eager: true,
  }) as Record<string, string>;

  it("sources, services and db throw upstream, input or not-found errors, never ApiError", () => {
    expect(Object.keys(files).length).toBeGreaterThan(20);
    const offenders = Object.entries(files)
      .filter(([, text]) => /\bApiError\b|ERROR_CODES/.test(text))
      .map(([file]) => file);
    expect(offenders).toEqual([]);
  });
});
