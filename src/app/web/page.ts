/**
 * What the web tools share: the `domain` and `url` inputs, the fetch of the caller's page (through the safe fetcher,
 * HTML only, the field named on refusal) and the optional render of it in the browser.
 */
import { z } from "@hono/zod-openapi";
import { DOMAIN_PATTERN, INPUT_LIMITS, PAGE_URL_PATTERN } from "../../platform/schemas";
import type { Services } from "../../platform/services";
import type { RenderOptions, RenderedPage } from "../../services/web/rendered";
import { isPublicAddress, parseIpLiteral } from "../../services/net/address";
import { InputError, UpstreamError } from "../../shared/errors";
import { isConfiguredTestHost } from "../../shared/testHosts";

/** What a web tool answers besides its reply: the safe fetcher's refusals of the caller's page, and 503 for an upstream (the DNS resolver, the browser, Companies House). */
export const PAGE_ERRORS = [
  "invalid_url",
  "blocked_address",
  "too_many_redirects",
  "fetch_timeout",
  "response_too_large",
  "unreadable_input",
  "upstream_unavailable",
] as const;

const HOST = /^(?=.{1,200}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * Accepts `example.co.uk`, `www.example.co.uk` or a pasted http(s) URL, and keeps only the host name. What it takes is
 * DOMAIN_PATTERN (in the description), and a host name the URL parser reads as such.
 */
export const Domain = z
  .string()
  .trim()
  .min(1, "is required")
  .max(INPUT_LIMITS.domain.max, `must be at most ${INPUT_LIMITS.domain.max} characters`)
  .transform((s, ctx) => {
    const raw = /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`;
    let host: string;
    try {
      host = new URL(raw).hostname.toLowerCase().replace(/\.$/, "");
    } catch {
      host = "";
    }
    if (!isConfiguredTestHost(host) && (!DOMAIN_PATTERN.test(s) || !HOST.test(host))) {
      ctx.addIssue({
        code: "custom",
        message: "must be a domain name such as example.co.uk (letters, digits and hyphens; or an http(s) address of a page of the site)",
      });
      return z.NEVER;
    }
    return host;
  })
  .openapi({ example: "example.co.uk", type: "string", maxLength: INPUT_LIMITS.domain.max, pattern: DOMAIN_PATTERN.source });

/** The host a caller's address names (https assumed without a scheme), or null when it is not a URL. */
const hostOf = (raw: string): string | null => {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`).hostname;
  } catch {
    return null;
  }
};

/** A configured fixture host (SAFE_FETCH_TEST_HOSTS: local runs only, never production) is taken though a public host's pattern would refuse it (`localhost`). */
const isTestHostAddress = (raw: string): boolean => {
  const host = hostOf(raw);
  return host !== null && isConfiguredTestHost(host);
};

/**
 * What can be told of a caller's URL without DNS or configuration, said as the reason it is refused (null: nothing
 * yet). The scheme (http or https; none means https, as `pageOf` reads it), a user name or password, and a host that
 * is an IP address: the safe fetcher's own classification (services/net/address) decides what is private. A name
 * that resolves to a private address is refused by the safe fetcher when it is fetched.
 */
export function urlRefusal(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return "is not a URL: give an absolute http(s) address such as https://www.example.co.uk/";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return `must be an http or https address, not ${u.protocol.slice(0, -1)}`;
  if (u.username || u.password) return "must not carry a user name or password";
  const ip = parseIpLiteral(u.hostname);
  if (ip && !isPublicAddress(ip))
    return `is on ${u.hostname}, a private, loopback, link-local, multicast or reserved address: only public addresses are fetched`;
  return null;
}

/** What every URL input's description says of it (its validation, in words; the pattern says the rest). */
export const URL_RULES = `An http(s) address, at most ${INPUT_LIMITS.url.max} characters, with no user name or password: a host name (letters, digits and hyphens), an IPv4 address or a bracketed IPv6 address, then an optional port and the path. An IP address must be a public one: a private, loopback, link-local or reserved address is refused with 400 \`bad_request\` naming the field, before anything is charged.`;

/**
 * A page a caller gives (`url`): an http(s) address (`https://` assumed without a scheme), at most 500 characters,
 * refused in validation (400, before any charge) when its scheme, credentials or IP address say it cannot be fetched,
 * or it does not match PAGE_URL_PATTERN (the description's pattern: everything it matches is taken, but for an IP
 * address that is not public); the safe fetcher checks the rest (names, ports, redirects) when it fetches.
 */
export const PageUrl = z
  .string()
  .trim()
  .min(1, "is required")
  .max(INPUT_LIMITS.url.max, `must be at most ${INPUT_LIMITS.url.max} characters`)
  .superRefine((s, ctx) => {
    if (s.length === 0 || s.length > INPUT_LIMITS.url.max) return;
    // The specific reason first (scheme, credentials, a non-public IP address), then the pattern the description gives.
    const why =
      urlRefusal(s) ??
      (PAGE_URL_PATTERN.test(s) || isTestHostAddress(s)
        ? null
        : "is not an address the service reads: give an http(s) address such as https://www.example.co.uk/ (a host name of letters, digits and hyphens, or an IP address)");
    if (why) ctx.addIssue({ code: "custom", message: why });
  })
  .openapi({
    example: "https://www.example.co.uk/",
    type: "string",
    maxLength: INPUT_LIMITS.url.max,
    pattern: PAGE_URL_PATTERN.source,
    description: URL_RULES,
  });

/** A `url` input described by its own words followed by its rules (URL_RULES): the description says what validation checks. */
export const describedUrl = (text: string) => PageUrl.describe(`${text} ${URL_RULES}`);

/** `?domain=` or `?url=`, exactly one (400 naming `domain` when neither is given, `url` when both are). */
export const domainOrUrl = (describe: { domain: string; url: string }) =>
  z.object({ domain: Domain.optional().describe(describe.domain), url: describedUrl(describe.url).optional() }).superRefine((v, ctx) => {
    if (v.domain === undefined && v.url === undefined)
      ctx.addIssue({ code: "custom", path: ["domain"], message: "give `domain` (a host such as example.co.uk) or `url` (a page of the site)" });
    else if (v.domain !== undefined && v.url !== undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "give either `domain` or `url`, not both" });
  });

/** The page a `domain`/`url` input asks for: the domain's homepage, or the URL (https assumed when no scheme is given). */
export const pageOf = (input: { domain?: string; url?: string }): string =>
  input.domain !== undefined ? `https://${input.domain}/` : /^[a-z][a-z0-9+.-]*:\/\//i.test(input.url!) ? input.url! : `https://${input.url}`;

/** HTML by its content type or, without one, by its first characters. */
export const isHtmlPage = (contentType: string, text: string): boolean => {
  const type = contentType.split(";")[0].trim().toLowerCase();
  return type ? /^(text\/html|application\/xhtml\+xml)$/.test(type) : /^\s*(?:<!doctype\s+html|<html\b|<head\b|<body\b|<)/i.test(text.slice(0, 200));
};

export type FetchedPage = Awaited<ReturnType<Services["web"]["fetch"]>> & {
  /** The page as the browser's document (served to it instead of fetching again). */
  document: { body: Uint8Array; contentType: string; status: number; headers: Record<string, string> };
};

/**
 * Fetches a caller's page through the safe fetcher (redirects followed and each checked; `https://` put before an
 * address without a scheme): a refusal names the caller's field; 422 `unreadable_input` unless it is an HTML page.
 */
export async function fetchHtmlPage(
  services: Pick<Services, "web">,
  url: string,
  opts: { field?: string; query?: unknown; maxBytes?: number; timeoutMs?: number } = {},
): Promise<FetchedPage> {
  const field = opts.field ?? "url";
  // The caller's address as the description says it is read: https when no scheme is given (pageOf leaves a scheme be).
  const page = await services.web
    .fetch(pageOf({ url }), { accept: "text/html,application/xhtml+xml", timeoutMs: opts.timeoutMs ?? 10_000, maxBytes: opts.maxBytes ?? 5 * 1024 * 1024 })
    .catch((e: unknown) => {
      // The caller's own value is at fault: say which field.
      throw e instanceof InputError && !e.field ? new InputError(e.code, e.message, { field, query: opts.query }) : e;
    });
  if (!isHtmlPage(page.contentType, page.text))
    throw new InputError(
      "unreadable_input",
      `The address is not a web page (its content type is ${page.contentType || "not given and it does not look like HTML"}).`,
      {
        field,
        query: opts.query,
      },
    );
  const headers: Record<string, string> = {};
  for (const k of ["content-language", "x-robots-tag", "link", "refresh"]) {
    const v = page.headers.get(k);
    if (v) headers[k] = v;
  }
  const cookies = page.headers.getAll("set-cookie");
  if (cookies.length) headers["set-cookie"] = cookies.join("\n");
  return { ...page, document: { body: page.body, contentType: page.contentType || "text/html", status: page.status, headers } };
}

/**
 * Renders the fetched page where the browser is available. The web tools other than the audit answer without it: a
 * browser that is not configured or fails gives `{ reason }` for the parts that needed it, never an error.
 */
export async function renderOrReason(
  browser: Services["browser"],
  page: FetchedPage,
  opts: RenderOptions,
): Promise<{ page: RenderedPage } | { reason: string }> {
  if (!browser.available) return { reason: "no browser is configured on this server" };
  try {
    return { page: await browser.render(page.url, { ...opts, document: page.document }) };
  } catch (e) {
    if (e instanceof UpstreamError) return { reason: `the browser could not be reached just now (${e.message.replace(/\.$/, "")})` };
    if (e instanceof InputError) return { reason: `the browser could not render the page (${e.message.replace(/\.$/, "")})` };
    throw e;
  }
}
