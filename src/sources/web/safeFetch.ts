/**
 * The safe fetcher (issue: safe fetcher): every operation that fetches a URL or domain a caller gave goes through it.
 * http(s) only, no credentials, public addresses only in every notation, no local names, default or common web ports,
 * at most `maxRedirects` redirects each checked again, one time limit for the whole fetch, and a size cap while streaming.
 */
import { InputError, UpstreamError } from "../../shared/errors";
import { API_VERSION } from "../../shared/version";
import { isLocalName, isPublicAddress, parseIpLiteral } from "../../services/net/address";
import type { PostOutcome } from "../../services/watch/feed";
import { readCapped } from "../../shared/bytes";

export interface SafeFetchOptions {
  /** Whole fetch including redirects and body; default 8000. */
  timeoutMs?: number;
  /** Counted on the decompressed body while streaming; default 5 MiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Accept header. */
  accept?: string;
  /**
   * TEST-ONLY switch: host names let through the local-name, port and resolution checks (the Worker passes
   * env.SAFE_FETCH_TEST_HOSTS split on commas; never set in production). IP literals are always checked.
   */
  testHosts?: string[];
  /** Optional DNS resolver; when given, every resolved address must be public. */
  resolve?: (host: string) => Promise<string[]>;
  /** Defaults to globalThis.fetch (tests may inject). */
  fetchImpl?: typeof fetch;
  /** Return a non-2xx answer (its body read under the same cap) instead of throwing unreadable_input: robots.txt, llms.txt, a sitemap. */
  anyStatus?: boolean;
  /** Do not follow redirects: a 3xx is returned as the answer (with its Location), as a browser asks for them. */
  manualRedirects?: boolean;
}

export interface SafeFetchResult {
  url: string;
  status: number;
  headers: Headers;
  contentType: string;
  body: Uint8Array;
  /** Every URL redirected to, in order. */
  redirects: string[];
}

/**
 * A URL's characters at most: the 500 a caller may give (validation counts those, INPUT_LIMITS.url), and the
 * `https://` the service puts before an address given without a scheme.
 */
const MAX_URL_LENGTH = 500 + "https://".length;
const ALLOWED_PORTS = new Set(["", "80", "443", "8080", "8443"]); // "" is the scheme's default port
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Every page fetch and webhook post says who we are, with the API's version (said once, in src/shared/version.ts). */
export const USER_AGENT = `Mozilla/5.0 (compatible; UKBusinessIntelligenceAPI/${API_VERSION})`;

const isTestHost = (host: string, testHosts: string[] | undefined) => !!testHosts?.some((t) => t.trim().toLowerCase() === host.toLowerCase());

/** Parses and checks a caller's URL before any fetch; throws InputError invalid_url or blocked_address. */
export function checkUrl(raw: string, opts: Pick<SafeFetchOptions, "testHosts"> = {}): URL {
  const s = raw.trim();
  if (s.length > MAX_URL_LENGTH) throw new InputError("invalid_url", `The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new InputError("invalid_url", "The URL could not be parsed; give an absolute http(s) URL.");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new InputError("invalid_url", `Only http and https URLs are fetched, not ${u.protocol}`);
  if (u.username || u.password) throw new InputError("invalid_url", "URLs with a user name or password are not fetched.");
  // new URL() has already normalised decimal, octal, hex and short IPv4 forms to dotted decimal; parseIpLiteral reads both.
  const ip = parseIpLiteral(u.hostname);
  if (ip) {
    if (!isPublicAddress(ip)) throw new InputError("blocked_address", `The address ${u.hostname} is private, loopback, link-local, multicast or reserved.`);
  } else if (!isTestHost(u.hostname, opts.testHosts)) {
    if (isLocalName(u.hostname)) throw new InputError("blocked_address", `The host ${u.hostname} is a local or reserved name.`);
  }
  if (!ALLOWED_PORTS.has(u.port) && !isTestHost(u.hostname, opts.testHosts))
    throw new InputError("blocked_address", `Port ${u.port} is not fetched; use 80, 443, 8080 or 8443.`);
  return u;
}

const timeoutError = (ms: number) => new InputError("fetch_timeout", `The page did not answer within ${ms} ms.`);

/** Settles with `p`, or rejects with fetch_timeout as soon as `signal` aborts (for promises that ignore the signal). */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timeoutError(ms));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Checks that every address the host resolves to is public (only when a resolver is given). */
async function checkResolved(u: URL, opts: SafeFetchOptions, signal: AbortSignal, ms: number): Promise<void> {
  if (!opts.resolve || parseIpLiteral(u.hostname) || isTestHost(u.hostname, opts.testHosts)) return;
  let addresses: string[];
  try {
    addresses = await raceAbort(opts.resolve(u.hostname), signal, ms);
  } catch (e) {
    if (e instanceof InputError || e instanceof UpstreamError) throw e;
    throw new InputError("unreadable_input", `The host ${u.hostname} could not be resolved.`);
  }
  if (addresses.length === 0) throw new InputError("unreadable_input", `The host ${u.hostname} has no address.`);
  const bad = addresses.find((a) => !isPublicAddress(a));
  if (bad) throw new InputError("blocked_address", `The host ${u.hostname} resolves to the non-public address ${bad}.`);
}

/** Fetches a caller's URL with every check of the issue; throws InputError on each refusal, UpstreamError when the resolver fails. */
export async function safeFetch(url: string, opts: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const { timeoutMs = 8000, maxBytes = 5 * 1024 * 1024, maxRedirects = 5, fetchImpl = globalThis.fetch } = opts;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const signal = controller.signal;
  const headers: Record<string, string> = { "user-agent": USER_AGENT };
  if (opts.accept) headers.accept = opts.accept;
  const redirects: string[] = [];
  try {
    let current = checkUrl(url, opts);
    for (;;) {
      await checkResolved(current, opts, signal, timeoutMs);
      let res: Response;
      try {
        // Redirects are followed by hand so that each target is checked before it is fetched.
        res = await raceAbort(fetchImpl(current.href, { method: "GET", headers, redirect: "manual", signal }), signal, timeoutMs);
      } catch (e) {
        if (e instanceof InputError || e instanceof UpstreamError) throw e;
        if (signal.aborted) throw timeoutError(timeoutMs);
        throw new InputError("unreadable_input", `The page could not be fetched (${e instanceof Error ? e.message : "network error"}).`);
      }
      const location = res.headers.get("location");
      if (REDIRECT_STATUSES.has(res.status) && location && !opts.manualRedirects) {
        res.body?.cancel().catch(() => {});
        if (redirects.length >= maxRedirects) throw new InputError("too_many_redirects", `The page redirected more than ${maxRedirects} times.`);
        let next: string;
        try {
          next = new URL(location, current).href; // a relative Location is resolved against the current URL
        } catch {
          throw new InputError("unreadable_input", "The page redirected to an unparsable address.");
        }
        current = checkUrl(next, opts);
        redirects.push(current.href);
        continue;
      }
      if ((res.status < 200 || res.status > 299) && !opts.anyStatus && !(opts.manualRedirects && REDIRECT_STATUSES.has(res.status))) {
        res.body?.cancel().catch(() => {});
        throw new InputError("unreadable_input", `The page answered with HTTP status ${res.status}.`);
      }
      const length = Number(res.headers.get("content-length"));
      if (length > maxBytes) {
        res.body?.cancel().catch(() => {});
        throw new InputError("response_too_large", `The page is larger than ${maxBytes} bytes (Content-Length ${length}).`);
      }
      // Counted as it arrives: in workerd fetch() decompresses gzip/br/deflate transparently, so what is counted is the
      // decompressed size, and a small compressed body that inflates past the cap is refused.
      const body = res.body
        ? await readCapped(res.body, {
            maxBytes,
            sizeHint: length,
            tooLarge: () => new InputError("response_too_large", `The page is larger than ${maxBytes} bytes.`),
            read: (next) => raceAbort(next, signal, timeoutMs),
          })
        : new Uint8Array(0);
      return { url: current.href, status: res.status, headers: res.headers, contentType: res.headers.get("content-type") ?? "", body, redirects };
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Decodes the body: BOM, then charset from Content-Type, then `<meta charset>` in the first 1024 bytes, then utf-8. */
export function decodeText(r: SafeFetchResult): string {
  const b = r.body;
  let label: string | undefined;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) label = "utf-8";
  else if (b[0] === 0xff && b[1] === 0xfe) label = "utf-16le";
  else if (b[0] === 0xfe && b[1] === 0xff) label = "utf-16be";
  label ??= /charset\s*=\s*["']?([\w.:-]+)/i.exec(r.contentType)?.[1];
  label ??= /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(new TextDecoder("latin1").decode(b.subarray(0, 1024)))?.[1];
  try {
    return new TextDecoder(label ?? "utf-8").decode(b);
  } catch {
    return new TextDecoder("utf-8").decode(b); // unknown or unsupported label
  }
}

/**
 * Posts a webhook delivery through the same address rules as every fetch of a caller's URL, checked again at each
 * delivery (DNS can change): https only, public addresses only (every resolved address), no redirects followed (a
 * 3xx is the answer). The reply's status line and headers must arrive within `timeoutMs`; its body is not read.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: Pick<SafeFetchOptions, "resolve" | "testHosts" | "fetchImpl"> & { timeoutMs: number },
): Promise<PostOutcome> {
  const { timeoutMs, fetchImpl = globalThis.fetch } = opts;
  let u: URL;
  try {
    u = await checkAddress(url, { ...opts, httpsOnly: true, timeoutMs: ADDRESS_CHECK_MS });
  } catch (e) {
    if (e instanceof InputError && (e.code === "blocked_address" || e.code === "invalid_url")) return { error: "refused-address", reason: e.message };
    if (e instanceof InputError && e.code === "fetch_timeout") return { error: "timeout", reason: e.message };
    return { error: "network", reason: e instanceof Error ? e.message : "the address could not be checked" };
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const signal = controller.signal;
  try {
    try {
      const res = await raceAbort(
        fetchImpl(u.href, { method: "POST", headers: { "user-agent": USER_AGENT, ...headers }, body, redirect: "manual", signal }),
        signal,
        timeoutMs,
      );
      res.body?.cancel().catch(() => {});
      return { status: res.status, headers: res.headers };
    } catch (e) {
      if (signal.aborted || (e instanceof InputError && e.code === "fetch_timeout"))
        return { error: "timeout", reason: `no reply within ${timeoutMs / 1000} s` };
      return { error: "network", reason: e instanceof Error ? e.message : "network error" };
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The address check before a webhook post (the reply then has DELIVERY_TIMEOUT_MS of its own). */
const ADDRESS_CHECK_MS = 5_000;

/**
 * Checks a caller's URL and every address its host resolves to, without fetching it (a webhook when it is set, and
 * before each delivery). `httpsOnly`: http is refused (invalid_url), except on a test host (never set in production).
 */
export async function checkAddress(
  url: string,
  opts: Pick<SafeFetchOptions, "resolve" | "testHosts"> & { timeoutMs?: number; httpsOnly?: boolean },
): Promise<URL> {
  const ms = opts.timeoutMs ?? ADDRESS_CHECK_MS;
  const u = checkUrl(url, opts);
  if (opts.httpsOnly && u.protocol !== "https:" && !isTestHost(u.hostname, opts.testHosts)) throw new InputError("invalid_url", "A webhook URL must be https.");
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    await checkResolved(u, opts, controller.signal, ms);
  } finally {
    clearTimeout(timer);
  }
  return u;
}
