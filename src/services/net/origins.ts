/**
 * Origins a publishable key may be used from (issue 32), and the origin of the page a browser request came from. Pure.
 *
 * An origin is written as a browser sends it: scheme, host and port, nothing else (`https://www.example.co.uk`,
 * `http://localhost:3000`). `https://*.example.co.uk` stands for every subdomain of example.co.uk, at any depth, but not
 * example.co.uk itself (name both to allow both). Hosts are compared lower-cased; a port must match exactly (none
 * means the scheme's default).
 */

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const PORT = "(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])";
/**
 * An origin as an account may name it (what parseOriginPattern accepts, as a pattern the API description states):
 * http or https, a host of DNS labels (after `*.` at least two), a port from 1 to 65535, an optional trailing slash.
 */
export const ORIGIN_PATTERN = new RegExp(`^[Hh][Tt][Tt][Pp][Ss]?://(?:\\*\\.${LABEL}(?:\\.${LABEL})+|${LABEL}(?:\\.${LABEL})*)(?::${PORT})?/?$`);

/** At most this many origins a key. */
export const MAX_ORIGINS = 20;

export type OriginPattern = { ok: true; origin: string } | { ok: false; message: string };

/** Reads an origin as an account names it: the normal form, or why it is not one. */
export function parseOriginPattern(text: string): OriginPattern {
  const raw = text.trim();
  const m = ORIGIN_PATTERN.test(raw) ? /^(https?):\/\/(\*\.)?([^/:]+)(?::(\d+))?\/?$/i.exec(raw) : null;
  if (!m)
    return {
      ok: false,
      message: `${JSON.stringify(raw.slice(0, 80))} is not an origin: write scheme and host, with a port if any (https://www.example.co.uk, http://localhost:3000), no path`,
    };
  const [, scheme, wildcard, host, port] = m;
  const h = host.toLowerCase();
  const n = port === undefined ? undefined : Number(port);
  const s = scheme.toLowerCase();
  const defaultPort = s === "https" ? 443 : 80;
  const portPart = n === undefined || n === defaultPort ? "" : `:${n}`;
  return { ok: true, origin: `${s}://${wildcard ? "*." : ""}${h}${portPart}` };
}

/** Whether a page's origin (as pageOrigin gives it) is one of the patterns (each in parseOriginPattern's normal form). */
export function originAllowed(patterns: readonly string[], origin: string): boolean {
  let page: URL;
  try {
    page = new URL(origin);
  } catch {
    return false;
  }
  const scheme = page.protocol.slice(0, -1);
  const host = page.hostname.toLowerCase();
  const port = page.port; // "" for the scheme's default
  return patterns.some((p) => {
    const m = /^(https?):\/\/(\*\.)?([^/:]+)(?::(\d+))?$/.exec(p);
    if (!m || m[1] !== scheme || (m[4] ?? "") !== port) return false;
    return m[2] ? host.endsWith(`.${m[3]}`) : host === m[3];
  });
}

/**
 * The origin of the page a browser request came from: the Origin header (sent with fetch and CORS requests), else the
 * origin of the Referer (what an <img> sends, under the default referrer policy). Null when neither names an http(s)
 * origin ("null" from a sandboxed or privacy-sensitive context, or nothing).
 */
export function pageOrigin(headers: Headers): string | null {
  for (const value of [headers.get("origin"), headers.get("referer")]) {
    if (!value || value === "null") continue;
    try {
      const u = new URL(value);
      if (u.protocol === "https:" || u.protocol === "http:") return u.origin;
    } catch {
      // not a URL: try the next
    }
  }
  return null;
}
