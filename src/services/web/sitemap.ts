/**
 * XML sitemaps (sitemaps.org) as ai-visibility reads them (SPEC §4.8): whether a file is a `urlset` or a
 * `sitemapindex`, its `<loc>` entries and their `<lastmod>` dates, and whether a page is listed. A simple,
 * tolerant read (the root element, then each `<url>`/`<sitemap>` entry), not a validating parser: a sitemap with a
 * stray error elsewhere still lists its URLs, as search engines read it. Pure: the caller fetches.
 */
import { Gunzip } from "fflate";

/** Bytes read of one sitemap (after decompression). */
export const MAX_SITEMAP_BYTES = 2 * 1024 * 1024;
/** Sitemap files read in all: the ones robots.txt lists (or /sitemap.xml), then an index's children. */
export const MAX_SITEMAP_FILES = 4;

export interface SitemapEntry {
  loc: string;
  /** YYYY-MM-DD, when given and readable. */
  lastmod: string | null;
}

export interface SitemapRead {
  kind: "urlset" | "sitemapindex" | "not-a-sitemap";
  /** The root element's name, as written (for a file that is not a sitemap: what it is instead). */
  root: string | null;
  /** Pages (urlset) or child sitemaps (sitemapindex). */
  entries: SitemapEntry[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decode = (s: string) =>
  s
    .replace(/^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/, "$1")
    .replace(/&(amp|lt|gt|quot|apos);|&#(\d+);|&#x([0-9a-f]+);/gi, (_, n, d, h) =>
      n ? ENTITIES[n.toLowerCase()] : String.fromCodePoint(Number(d ?? parseInt(h, 16))),
    )
    .trim();

/** A W3C datetime's date: `2026-10-01T09:00:00+01:00` → `2026-10-01`; anything else → null. */
const dateOf = (s: string): string | null => /^(\d{4}-\d{2}-\d{2})/.exec(s.trim())?.[1] ?? /^(\d{4}-\d{2})$/.exec(s.trim())?.[1] ?? null;

/**
 * Compressed bytes pushed to the inflater at a time. DEFLATE expands at most ~1,032 times, so one slice yields at most
 * ~1 MiB: the inflated size is counted as it comes and the inflating stops within ~1 MiB of the cap, however much the
 * file would inflate to.
 */
const GZIP_SLICE = 1024;

/**
 * A sitemap body as text: gzip (a `.xml.gz` file served as is) is inflated as a stream, in small slices, counting
 * the output and stopping past MAX_SITEMAP_BYTES (too large). The gzip trailer's stated size (ISIZE, the caller's
 * site's word) only refuses early: a trailer that understates is never trusted to bound the work.
 */
export function sitemapText(body: Uint8Array, decoded: string): { text: string } | { tooLarge: true } {
  if (body[0] !== 0x1f || body[1] !== 0x8b) return { text: decoded };
  const n = body.length;
  const size = n >= 4 ? (body[n - 4] | (body[n - 3] << 8) | (body[n - 2] << 16) | (body[n - 1] << 24)) >>> 0 : 0;
  if (size > MAX_SITEMAP_BYTES) return { tooLarge: true };
  const parts: Uint8Array[] = [];
  let total = 0;
  let over = false;
  const gunzip = new Gunzip((chunk) => {
    if (over) return;
    total += chunk.byteLength;
    if (total > MAX_SITEMAP_BYTES) over = true;
    else parts.push(chunk);
  });
  try {
    for (let at = 0; at < n && !over; at += GZIP_SLICE) gunzip.push(body.subarray(at, at + GZIP_SLICE), at + GZIP_SLICE >= n);
  } catch {
    return over ? { tooLarge: true } : { text: "" };
  }
  if (over) return { tooLarge: true };
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return { text: new TextDecoder().decode(out) };
}

/**
 * The text without its processing instructions, comments and doctype, in one forward scan: each closer is searched
 * for once per opening, and an opening never closed is left as written, as is every later one of its kind (no closer
 * follows it either), where a lazy pattern would scan to the end again from each.
 */
function withoutProlog(xml: string): string {
  const parts: string[] = [];
  const start = /<\?|<!--|<!DOCTYPE/gi;
  const unclosed = new Set<string>();
  let from = 0;
  for (let m = start.exec(xml); m; m = start.exec(xml)) {
    const closer = m[0] === "<?" ? "?>" : m[0] === "<!--" ? "-->" : ">";
    if (unclosed.has(closer)) continue;
    const end = xml.indexOf(closer, m.index + m[0].length);
    if (end < 0) {
      unclosed.add(closer);
      continue;
    }
    parts.push(xml.slice(from, m.index));
    from = end + closer.length;
    start.lastIndex = from;
  }
  parts.push(xml.slice(from));
  return parts.join("");
}

/** The content of each `<name>…</name>` (any namespace prefix) in order, found in one forward scan. */
function* elementsOf(xml: string, name: string): Generator<string> {
  const open = new RegExp(`<(?:[\\w.-]+:)?${name}\\b`, "gi");
  const close = new RegExp(`<\\/(?:[\\w.-]+:)?${name}\\s*>`, "gi");
  for (let m = open.exec(xml); m; m = open.exec(xml)) {
    const tagEnd = xml.indexOf(">", m.index + m[0].length);
    if (tagEnd < 0) return;
    close.lastIndex = tagEnd + 1;
    const end = close.exec(xml);
    if (!end) return; // never closed: no later one can be either
    yield xml.slice(tagEnd + 1, end.index);
    open.lastIndex = end.index + end[0].length;
  }
}

/** The first `<name>…</name>`'s content, or null. */
const firstOf = (xml: string, name: string): string | null => {
  for (const inner of elementsOf(xml, name)) return inner;
  return null;
};

/** Reads one sitemap file, in time proportional to its length (every element is found in a forward scan). */
export function readSitemap(xml: string): SitemapRead {
  // The root: the first element that is not the prolog, a comment, a doctype or a processing instruction.
  const body = withoutProlog(xml.replace(/^\uFEFF/, ""));
  const rootName = /<\s*([A-Za-z_][\w.-]*(?::[\w.-]+)?)/.exec(body)?.[1] ?? null;
  const local = rootName?.replace(/^.*:/, "").toLowerCase();
  if (local !== "urlset" && local !== "sitemapindex") return { kind: "not-a-sitemap", root: rootName, entries: [] };
  const item = local === "urlset" ? "url" : "sitemap";
  const entries: SitemapEntry[] = [];
  for (const inner of elementsOf(body, item)) {
    const loc = firstOf(inner, "loc");
    if (loc === null) continue;
    const href = decode(loc);
    if (!href) continue;
    const lastmod = firstOf(inner, "lastmod");
    entries.push({ loc: href, lastmod: lastmod !== null ? dateOf(decode(lastmod)) : null });
  }
  return { kind: local, root: rootName, entries };
}

/** A URL as compared for "is the page listed": host lower case, no fragment, no default port, scheme and a trailing slash ignored. */
export function comparableUrl(u: string, base?: string): string | null {
  try {
    const url = new URL(u, base);
    url.hash = "";
    const path = url.pathname.replace(/\/+$/, "") || "";
    return `${url.hostname.toLowerCase()}${url.port ? `:${url.port}` : ""}${path}${url.search}`;
  } catch {
    return null;
  }
}
