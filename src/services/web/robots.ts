/**
 * robots.txt as the AI and search crawlers read it (issue 16 §4, groundwork: pure, not yet wired to an operation).
 * Parsing and matching are the `robots-parser` library's (RFC 9309: groups by product token, case-insensitive;
 * the longest matching path wins, Allow on a tie; `*` and `$` wildcards); this module says, for each known crawler,
 * whether it may fetch the paths asked, which line decides it, and whether the crawler has a group of its own or
 * falls to `User-agent: *`.
 *
 * How the file was answered decides everything before any rule (RFC 9309 §2.3.1):
 * - 2xx: the rules apply;
 * - 4xx (none): "unavailable", every crawler may fetch everything;
 * - 5xx or no answer: "unreachable", crawlers must assume everything is disallowed.
 */
import robotsParser from "robots-parser";

/** The crawlers reported on, by the product token they obey in robots.txt. */
export const CRAWLERS = [
  { token: "GPTBot", operator: "OpenAI", use: "collects pages to train OpenAI's models" },
  { token: "ChatGPT-User", operator: "OpenAI", use: "fetches a page when a ChatGPT user asks for it" },
  { token: "OAI-SearchBot", operator: "OpenAI", use: "builds the index ChatGPT search answers from" },
  { token: "ClaudeBot", operator: "Anthropic", use: "collects pages to train Anthropic's models" },
  { token: "Claude-User", operator: "Anthropic", use: "fetches a page when a Claude user asks for it" },
  { token: "PerplexityBot", operator: "Perplexity", use: "builds the index Perplexity answers from" },
  { token: "Google-Extended", operator: "Google", use: "a control token, not a crawler: whether Googlebot's pages may be used for Gemini and Vertex AI" },
  { token: "Applebot-Extended", operator: "Apple", use: "a control token, not a crawler: whether Applebot's pages may be used to train Apple's models" },
  { token: "CCBot", operator: "Common Crawl", use: "the open web crawl many models are trained on" },
  { token: "Bytespider", operator: "ByteDance", use: "collects pages to train ByteDance's models" },
  { token: "Googlebot", operator: "Google", use: "Google Search" },
  { token: "Bingbot", operator: "Microsoft", use: "Bing search, which Copilot answers from" },
] as const;

export type CrawlerToken = (typeof CRAWLERS)[number]["token"];

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; what is beyond is ignored. */
export const MAX_ROBOTS_BYTES = 500 * 1024;

/** How robots.txt was answered: its status and text, or no answer at all (a network error or time-out). */
export type RobotsAnswer = { status: number; text: string } | { status: null; text: null };

export interface CrawlerAccess {
  token: CrawlerToken;
  operator: string;
  use: string;
  /** Whether the crawler may fetch every path asked. */
  allowed: boolean;
  /** Paths it may not fetch, of those asked. */
  disallowedPaths: string[];
  /** The robots.txt group the crawler follows: its own, the `*` group, or none (no rule applies). */
  group: "own" | "*" | "none";
  /** The line that decides the first path asked, with its number (1-based); null when no rule matched. */
  decidedBy: { line: number; text: string } | null;
}

export interface RobotsReading {
  /** found (2xx), absent (4xx: everything allowed), unreachable (5xx or no answer: everything disallowed). */
  file: "found" | "absent" | "unreachable";
  status: number | null;
  crawlers: CrawlerAccess[];
  /** Sitemap lines, as written. */
  sitemaps: string[];
  /** True when the file was longer than MAX_ROBOTS_BYTES and only its start was read. */
  truncated: boolean;
}

/** The user-agent tokens the file names in its groups, lower case. */
function namedAgents(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split(/\r\n|\r|\n/)) {
    const m = /^\s*user-agent\s*:\s*([^#\s]+)/i.exec(line);
    if (m) out.add(m[1].toLowerCase());
  }
  return out;
}

/**
 * Each crawler's access to `paths` (default the home page) of the site whose robots.txt answered `answer`.
 * `site` is the site's origin or any URL on it.
 */
export function readRobots(site: string, answer: RobotsAnswer, paths: readonly string[] = ["/"]): RobotsReading {
  const origin = new URL(site).origin;
  const urls = paths.map((p) => new URL(p, origin).href);
  const all = (allowed: boolean, file: RobotsReading["file"]): RobotsReading => ({
    file,
    status: answer.status,
    crawlers: CRAWLERS.map((c) => ({ ...c, allowed, disallowedPaths: allowed ? [] : [...paths], group: "none", decidedBy: null })),
    sitemaps: [],
    truncated: false,
  });
  if (answer.status === null || answer.status >= 500) return all(false, "unreachable");
  if (answer.status >= 400) return all(true, "absent");
  if (answer.status < 200 || answer.status > 299) return all(false, "unreachable");

  const truncated = new TextEncoder().encode(answer.text).byteLength > MAX_ROBOTS_BYTES;
  const text = (truncated ? answer.text.slice(0, MAX_ROBOTS_BYTES) : answer.text).replace(/^\uFEFF/, "");
  const robots = robotsParser(`${origin}/robots.txt`, text);
  const lines = text.split(/\r\n|\r|\n/);
  const named = namedAgents(text);
  const crawlers = CRAWLERS.map((c): CrawlerAccess => {
    const disallowedPaths = paths.filter((_, i) => robots.isAllowed(urls[i], c.token) === false);
    const line = robots.getMatchingLineNumber(urls[0], c.token);
    return {
      ...c,
      allowed: disallowedPaths.length === 0,
      disallowedPaths,
      group: named.has(c.token.toLowerCase()) ? "own" : named.has("*") ? "*" : "none",
      decidedBy: line > 0 ? { line, text: (lines[line - 1] ?? "").trim() } : null,
    };
  });
  return { file: "found", status: answer.status, crawlers, sitemaps: robots.getSitemaps(), truncated };
}
