/**
 * Errors across a Worker boundary (Workers RPC keeps an error's message, not its class or fields): the readers Worker
 * returns a failure as plain data and the caller throws the same kind of error again, so the gateway answers exactly as
 * it would have in one Worker (422 with the input's code, 503 for an upstream, 500 for anything else).
 */
import { InputError, type InputCode, UpstreamError, type UpstreamKind } from "./errors";

export type WireError =
  | { kind: "input"; code: InputCode; message: string; field?: string }
  | { kind: "upstream"; source: string; upstream: UpstreamKind; message: string; retryAfter?: number; status?: number }
  | { kind: "other"; message: string };

/** What crosses the boundary: the value, or the error as data. */
export type Wired<T> = { ok: true; value: T } | { ok: false; error: WireError };

export function toWire(e: unknown): WireError {
  if (e instanceof InputError) return { kind: "input", code: e.code, message: e.message, ...(e.field === undefined ? {} : { field: e.field }) };
  if (e instanceof UpstreamError)
    return {
      kind: "upstream",
      source: e.source,
      upstream: e.kind,
      message: e.message,
      ...(e.retryAfter === undefined ? {} : { retryAfter: e.retryAfter }),
      ...(e.status === undefined ? {} : { status: e.status }),
    };
  return { kind: "other", message: e instanceof Error ? e.message : String(e) };
}

export function fromWire(w: WireError): Error {
  if (w.kind === "input") return new InputError(w.code, w.message, w.field === undefined ? {} : { field: w.field });
  if (w.kind === "upstream") return new UpstreamError(w.source, w.upstream, w.message, { retryAfter: w.retryAfter, status: w.status });
  return new Error(w.message);
}

/** Runs `f` on the callee's side: its value, or its error as data. */
export async function wired<T>(f: () => Promise<T>): Promise<Wired<T>> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    return { ok: false, error: toWire(e) };
  }
}

/** The caller's side: the value, or the callee's error thrown again as its own kind. */
export function unwire<T>(r: Wired<T>): T {
  if (r.ok) return r.value;
  throw fromWire(r.error);
}
