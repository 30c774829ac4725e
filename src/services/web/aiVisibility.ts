/**
 * ai-visibility (SPEC §4.8): how readable a business's site is to AI assistants and search crawlers. Pure: the
 * operation fetches the page, robots.txt, llms.txt, llms-full.txt and the sitemaps, renders the page and asks
 * Companies House; this module reads what came back and says, check by check, what it found, with every finding
 * quoting its evidence and saying where it is. Same answers in, same reply out.
 *
 * Checks and their weights (the score formula, also in the reply's `scoring`):
 * - robots (30): each of the twelve crawlers earns its points when robots.txt lets it fetch the page and the home
 *   page: the search crawlers (Googlebot, Bingbot) 6 each, the assistants' live fetchers and search indexes
 *   (ChatGPT-User, OAI-SearchBot, Claude-User, PerplexityBot) 3 each, the training crawlers and control tokens
 *   (GPTBot, ClaudeBot, CCBot, Bytespider, Google-Extended, Applebot-Extended) 1 each. An unreachable robots.txt
 *   (5xx or no answer) scores 0: RFC 9309 tells crawlers to assume everything is disallowed.
 * - indexing (15): 0 with noindex; otherwise 15, less 5 for nosnippet (or max-snippet:0), 3 for noai, 2 for
 *   noimageai and 5 for a canonical link to another page.
 * - rendering (15): 15 × the share of the rendered text already in the HTML without JavaScript; left out when the
 *   browser could not tell.
 * - structuredData (15): 8 an Organization/LocalBusiness node, 2 its name and url, 1 logo, 1 sameAs, 1 address or
 *   telephone, 2 a company number (JSON-LD or page text) on the register whose name agrees with the JSON-LD's.
 * - sitemap (10): 6 a sitemap that reads as a urlset or sitemapindex with entries, 3 the page listed in it (left
 *   out when the files read could not tell), 1 lastmod dates given.
 * - llmsTxt (5): 4 an llms.txt file, 1 an llms-full.txt file.
 * - meta (10): 3 a title, 1 a title of at most 60 characters, 2 a meta description, 1 one of 50–160 characters,
 *   1 `<html lang>`, 1 exactly one h1, 1 an OpenGraph title or description.
 * score = round(100 × points earned ÷ points of the parts that could be judged).
 */
import { visibleText } from "./domText";
import { parseHtml } from "../html/parse";
import type { CompanyProfile } from "../companies/profile";
import { normaliseNameCore } from "../matching/names";
import { type StatedNumber, statedCompanyNumbers } from "./disclosures";
import { type JsonLdOrganisation, type JsonLdReading, postcodeIn, readJsonLd } from "./jsonLd";
import { CRAWLERS, type CrawlerToken, type RobotsAnswer, readRobots } from "./robots";
import { MAX_SITEMAP_FILES, type SitemapRead, comparableUrl, readSitemap, sitemapText } from "./sitemap";
import { squashPostcode } from "../matching/postcode";

// ---------------------------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------------------------

export type Severity = "high" | "medium" | "low" | "info";
export const SEVERITIES: readonly Severity[] = ["high", "medium", "low", "info"];
export const CHECKS = ["robots", "indexing", "rendering", "structuredData", "business", "sitemap", "llmsTxt", "meta"] as const;
export type Check = (typeof CHECKS)[number];

export interface Finding {
  id: string;
  severity: Severity;
  check: Check;
  message: string;
  evidence: { quote: string; where: string };
  fix: string;
}

/** What a crawler is for, which decides how much blocking it costs. */
export type CrawlerRole = "search" | "assistant" | "training";
export const CRAWLER_ROLES: Record<CrawlerToken, CrawlerRole> = {
  Googlebot: "search",
  Bingbot: "search",
  "ChatGPT-User": "assistant",
  "OAI-SearchBot": "assistant",
  "Claude-User": "assistant",
  PerplexityBot: "assistant",
  GPTBot: "training",
  ClaudeBot: "training",
  CCBot: "training",
  Bytespider: "training",
  "Google-Extended": "training",
  "Applebot-Extended": "training",
};
export const ROLE_POINTS: Record<CrawlerRole, number> = { search: 6, assistant: 3, training: 1 };

export const WEIGHTS: Record<Exclude<Check, "business">, number> = {
  robots: 30,
  indexing: 15,
  rendering: 15,
  structuredData: 15,
  sitemap: 10,
  llmsTxt: 5,
  meta: 10,
};

export const SCORING_FORMULA =
  "score = round(100 × points ÷ max), summed over the checks (and parts of checks) that could be judged. " +
  "robots 30: each crawler allowed the page and / earns its points: Googlebot and Bingbot 6 each; ChatGPT-User, OAI-SearchBot, Claude-User and PerplexityBot 3 each; GPTBot, ClaudeBot, CCBot, Bytespider, Google-Extended and Applebot-Extended 1 each; an unreachable robots.txt scores 0. " +
  "indexing 15: 0 with noindex, else 15 less 5 for nosnippet or max-snippet:0, 3 for noai, 2 for noimageai, 5 for a canonical link to another page. " +
  "rendering 15: 15 × the share of the rendered text present in the HTML without JavaScript; not judged when the page could not be rendered. " +
  "structuredData 15: 8 an Organization or LocalBusiness node, 2 its name and url, 1 logo, 1 sameAs, 1 address or telephone, 2 a company number on the register whose name agrees with the JSON-LD. " +
  "sitemap 10: 6 a sitemap read as a urlset or sitemapindex with entries, 3 the page listed (not judged when the files read could not tell), 1 lastmod dates. " +
  "llmsTxt 5: 4 /llms.txt, 1 /llms-full.txt. " +
  "meta 10: 3 a title, 1 title of at most 60 characters, 2 a meta description, 1 description of 50 to 160 characters, 1 <html lang>, 1 exactly one h1, 1 an OpenGraph title or description.";

/** A small file asked for (robots.txt, llms.txt, a sitemap): its answer, or why there was none. */
export interface FileAnswer {
  url: string;
  /** HTTP status; null when nothing usable came back (no answer, a refusal, or larger than the cap). */
  status: number | null;
  contentType: string;
  text: string | null;
  body?: Uint8Array;
  bytes: number | null;
  /** The answer was larger than the bytes read for it. */
  tooLarge: boolean;
  /** Why there was no answer (time-out, network error, a refused redirect), in words. */
  error: string | null;
}

export interface FetchedPage {
  /** The URL asked for and the URL answered (after redirects). */
  requestedUrl: string;
  url: string;
  status: number;
  redirects: string[];
  html: string;
  /** The X-Robots-Tag header(s) of the page's answer, joined; null when absent. */
  xRobotsTag: string | null;
}

export type RenderAnswer = { ok: true; text: string } | { ok: false; reason: string };

export interface RegisterAnswer {
  number: string;
  foundIn: "json-ld" | "page-text";
  quote: string;
  /** Companies House's profile; null when the register has no such company. */
  profile: CompanyProfile | null;
}

// ---------------------------------------------------------------------------------------------------------------
// The page as fetched (no JavaScript)
// ---------------------------------------------------------------------------------------------------------------

interface Tagged {
  text: string | null;
  /** The element, quoted (outerHTML, at most 200 characters). */
  tag: string | null;
}

export interface PageReading {
  url: string;
  /** Visible text without JavaScript: no script, style, noscript, template, head; one line per block. */
  text: string;
  /** Characters of that text with runs of white space counted as one. */
  textLength: number;
  title: Tagged;
  description: Tagged;
  ogTitle: Tagged;
  ogDescription: Tagged;
  lang: string | null;
  /** The `<html>` start tag as written. */
  htmlTag: string;
  h1: string[];
  metaRobots: { name: string; content: string; tag: string }[];
  canonicals: { href: string | null; tag: string }[];
  scripts: number;
  jsonLd: JsonLdReading;
  statedNumbers: StatedNumber[];
}

const TAG_MAX = 200;

/** The little of linkedom's DOM this module reads. */
interface DomNode {
  nodeType: number;
  tagName?: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  outerHTML?: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
const cut = (s: string, max = TAG_MAX) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
/** Characters of text with white space runs as one: how both the HTML's and the rendered text are measured. */
export const textLengthOf = (s: string) => collapse(s).length;

/** Meta names read as robots directives: robots, the search crawlers' own and the crawlers ai-visibility reports on. */
const ROBOTS_META = new Set(["robots", "googlebot", "googlebot-news", "bingbot", "msnbot", ...CRAWLERS.map((c) => c.token.toLowerCase())]);

/** The first `<name …>` start tag as written, found by a forward scan ("" when there is none). */
function startTag(html: string, name: string): string {
  const m = new RegExp(`<${name}\\b`, "i").exec(html);
  const end = m ? html.indexOf(">", m.index) : -1;
  return m && end >= 0 ? html.slice(m.index, end + 1) : "";
}

/** Markdown links (`[text](url …)`) of a text, counted in one pass (a pattern backtracks over every unclosed `[` or `(`). */
function markdownLinks(text: string): number {
  const n = text.length;
  // The next `]` or line end, and the next `)`, from each position (computed right to left).
  const nextBracket = new Int32Array(n + 1).fill(n);
  const nextParen = new Int32Array(n + 1).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    nextBracket[i] = c === 93 || c === 10 ? i : nextBracket[i + 1];
    nextParen[i] = c === 41 ? i : nextParen[i + 1];
  }
  let count = 0;
  for (let i = text.indexOf("["); i >= 0 && i < n; i = text.indexOf("[", i + 1)) {
    // \[[^\]\n]*\]\(\s*[^)\s]+[^)]*\)
    const close = nextBracket[i + 1];
    if (close >= n || text[close] !== "]" || text[close + 1] !== "(") continue;
    let k = close + 2;
    while (k < n && /\s/.test(text[k])) k++;
    if (k >= n || text[k] === ")") continue;
    const end = nextParen[k];
    if (end >= n) continue;
    count++;
    i = end;
  }
  return count;
}

/** Reads the page's HTML as a crawler that runs no JavaScript sees it. */
export function readPage(html: string, url: string): PageReading {
  const { document } = parseHtml(html);
  const all = (sel: string) => [...(document.querySelectorAll(sel) as unknown as DomNode[])];
  const quote = (el: DomNode | undefined) => (el?.outerHTML ? cut(collapse(el.outerHTML)) : null);
  const metaBy = (attr: "name" | "property", value: string) => all("meta").find((m) => (m.getAttribute(attr) ?? "").trim().toLowerCase() === value);
  const metaTagged = (attr: "name" | "property", value: string): Tagged => {
    const el = metaBy(attr, value) ?? (attr === "property" ? metaBy("name", value) : undefined);
    const content = el?.getAttribute("content");
    return { text: content == null ? null : collapse(content), tag: quote(el) };
  };
  const titleEl = all("title")[0];
  const root = ((document as unknown as { body: DomNode | null }).body ?? (document.documentElement as unknown as DomNode)) as DomNode;
  const text = visibleText(root);
  const htmlTag = startTag(html, "html");
  const lang = /\blang\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(htmlTag);
  const canonicals = all("link")
    .filter((l) => (l.getAttribute("rel") ?? "").toLowerCase().split(/\s+/).includes("canonical"))
    .map((l) => {
      const raw = l.getAttribute("href");
      let href: string | null = null;
      try {
        href = raw && raw.trim() ? new URL(raw.trim(), url).href : null;
      } catch {
        href = null;
      }
      return { href, tag: quote(l) ?? "" };
    });
  return {
    url,
    text,
    textLength: textLengthOf(text),
    title: { text: titleEl ? collapse(titleEl.textContent ?? "") || null : null, tag: quote(titleEl) },
    description: metaTagged("name", "description"),
    ogTitle: metaTagged("property", "og:title"),
    ogDescription: metaTagged("property", "og:description"),
    lang: (lang?.[1] ?? lang?.[2] ?? lang?.[3] ?? "").trim() || null,
    htmlTag: cut(htmlTag),
    h1: all("h1").map((h) => collapse(h.textContent ?? "")),
    metaRobots: all("meta")
      .filter((m) => ROBOTS_META.has((m.getAttribute("name") ?? "").trim().toLowerCase()))
      .map((m) => ({ name: (m.getAttribute("name") ?? "").trim().toLowerCase(), content: collapse(m.getAttribute("content") ?? ""), tag: quote(m) ?? "" })),
    canonicals,
    scripts: all("script").length,
    jsonLd: readJsonLd(html),
    statedNumbers: statedCompanyNumbers(text),
  };
}

/** The company number to look up: the JSON-LD's (an organisation's identifier), else the first the page's text states. */
export function companyNumberToCheck(reading: PageReading): { number: string; foundIn: "json-ld" | "page-text"; quote: string } | null {
  const org = reading.jsonLd.organisations.find((o) => o.companyNumber);
  if (org) return { number: org.companyNumber!, foundIn: "json-ld", quote: org.companyNumberQuote! };
  const stated = reading.statedNumbers[0];
  return stated ? { number: stated.number, foundIn: "page-text", quote: stated.quote } : null;
}

// ---------------------------------------------------------------------------------------------------------------
// robots.txt
// ---------------------------------------------------------------------------------------------------------------

interface Access {
  allowed: boolean;
  decidedBy: { line: number; text: string } | null;
}

export interface RobotsSection {
  url: string;
  file: "found" | "absent" | "unreachable";
  status: number | null;
  meaning: string;
  truncated: boolean;
  path: string;
  crawlers: { token: CrawlerToken; operator: string; use: string; role: CrawlerRole; group: "own" | "*" | "none"; page: Access; home: Access }[];
  sitemaps: string[];
}

/** robots.txt for the page: each crawler's access to the page and to `/`, the deciding lines, the sitemaps listed. */
export function robotsSection(answer: FileAnswer, pageUrl: string): RobotsSection {
  const u = new URL(pageUrl);
  const path = `${u.pathname}${u.search}`;
  const ans: RobotsAnswer = answer.status === null || answer.text === null ? { status: null, text: null } : { status: answer.status, text: answer.text };
  const page = readRobots(pageUrl, ans, [path]);
  const home = path === "/" ? page : readRobots(pageUrl, ans, ["/"]);
  const meaning =
    page.file === "found"
      ? `robots.txt was read (HTTP ${answer.status}): each crawler follows the group naming it, else the * group (RFC 9309).`
      : page.file === "absent"
        ? `No robots.txt (HTTP ${answer.status}): under RFC 9309 every crawler may fetch everything.`
        : `robots.txt could not be read (${answer.status === null ? `no answer: ${answer.error ?? "unknown"}` : `HTTP ${answer.status}`}): under RFC 9309 §2.3.1.4 crawlers must then assume everything is disallowed, so compliant crawlers fetch nothing from the site.`;
  return {
    url: answer.url,
    file: page.file,
    status: answer.status,
    meaning,
    truncated: page.truncated,
    path,
    crawlers: page.crawlers.map((c, i) => ({
      token: c.token,
      operator: c.operator,
      use: c.use,
      role: CRAWLER_ROLES[c.token],
      group: c.group,
      page: { allowed: c.allowed, decidedBy: c.decidedBy },
      home: { allowed: home.crawlers[i].allowed, decidedBy: home.crawlers[i].decidedBy },
    })),
    sitemaps: page.sitemaps,
  };
}

/** How an answer came back, quoted: `GET https://x/robots.txt → HTTP 503`. */
const answered = (a: FileAnswer) =>
  `GET ${a.url} → ${a.status !== null ? `HTTP ${a.status}${a.contentType ? ` (${a.contentType.split(";")[0].trim()})` : ""}` : a.tooLarge ? "larger than the bytes read" : `no answer (${a.error ?? "unknown"})`}`;

function robotsFindings(r: RobotsSection, answer: FileAnswer): Finding[] {
  const out: Finding[] = [];
  if (r.file === "unreachable") {
    out.push({
      id: "robots-unreachable",
      severity: "high",
      check: "robots",
      message:
        "robots.txt could not be read. Under RFC 9309 a crawler that gets a server error or no answer for robots.txt must assume the whole site is disallowed, so compliant search and AI crawlers fetch nothing.",
      evidence: { quote: answered(answer), where: r.url },
      fix: "Serve robots.txt with HTTP 200 (or 404 if you want no rules); make sure the server, firewall or bot protection does not answer it with a 5xx or block crawlers.",
    });
    return out;
  }
  if (r.file === "absent")
    out.push({
      id: "robots-absent",
      severity: "info",
      check: "robots",
      message:
        "There is no robots.txt, so every crawler may fetch everything (RFC 9309). Nothing is blocked, but crawlers are not pointed at a sitemap either.",
      evidence: { quote: answered(answer), where: r.url },
      fix: "Optionally publish a robots.txt with a `Sitemap:` line pointing at your sitemap.",
    });
  if (r.truncated)
    out.push({
      id: "robots-too-long",
      severity: "low",
      check: "robots",
      message: "robots.txt is longer than 500 KiB; crawlers read only the first 500 KiB (RFC 9309 §2.5), so later rules are ignored.",
      evidence: { quote: answered(answer), where: r.url },
      fix: "Shorten robots.txt: group user-agents and use wildcards instead of listing paths one by one.",
    });
  const wording: Record<CrawlerRole, { id: string; severity: Severity; what: string; why: string; fix: string }> = {
    search: {
      id: "robots-blocks-search",
      severity: "high",
      what: "search crawlers",
      why: "Search engines will not index the page, and assistants that answer from Bing or Google search (Copilot, Gemini, ChatGPT search in part) will not find it.",
      fix: "Remove the Disallow rule that applies to these crawlers, or add an `Allow:` for the page in their group.",
    },
    assistant: {
      id: "robots-blocks-assistants",
      severity: "medium",
      what: "AI assistants' live fetchers and search indexes",
      why: "Assistants cannot read the page when a user asks about the business, nor cite it in their search answers.",
      fix: "Allow these user agents (a group of their own with `Allow: /`), unless keeping the site out of AI answers is intended.",
    },
    training: {
      id: "robots-blocks-training",
      severity: "low",
      what: "AI training crawlers",
      why: "Future models will not learn about the business from the site. Blocking training is a legitimate choice; it does not stop assistants fetching pages live.",
      fix: "If you want models to know the business, allow these crawlers; otherwise no change is needed.",
    },
  };
  for (const role of ["search", "assistant", "training"] as const) {
    const blocked = r.crawlers.filter((c) => c.role === role && (!c.page.allowed || !c.home.allowed));
    if (!blocked.length) continue;
    const w = wording[role];
    const own = blocked.filter((c) => c.group === "own").length;
    const how = own === blocked.length ? "each by a group naming it" : own === 0 ? "through the * group" : "some by name, the rest through the * group";
    const lines = blocked.map((c) => {
      const d = !c.page.allowed ? c.page.decidedBy : c.home.decidedBy;
      return `${c.token}: ${d ? `line ${d.line} "${d.text}"` : "disallowed"}`;
    });
    out.push({
      id: w.id,
      severity: w.severity,
      check: "robots",
      message: `robots.txt blocks the ${w.what} ${blocked.map((c) => c.token).join(", ")} (${how}) from ${blocked.every((c) => !c.page.allowed) ? "this page" : "the home page"}. ${w.why}`,
      evidence: { quote: lines.join("; "), where: r.url },
      fix: w.fix,
    });
  }
  return out;
}

function robotsPoints(r: RobotsSection): { points: number; max: number } {
  if (r.file === "unreachable") return { points: 0, max: WEIGHTS.robots };
  const points = r.crawlers.reduce((s, c) => s + (c.page.allowed && c.home.allowed ? ROLE_POINTS[c.role] : 0), 0);
  return { points, max: WEIGHTS.robots };
}

// ---------------------------------------------------------------------------------------------------------------
// llms.txt
// ---------------------------------------------------------------------------------------------------------------

export interface LlmsTxtSection {
  url: string;
  present: boolean;
  status: number | null;
  bytes: number | null;
  tooLarge: boolean;
  title: string | null;
  summary: string | null;
  links: number;
  sections: number;
  full: { url: string; present: boolean; status: number | null; tooLarge: boolean };
  note: string;
}

/** A 2xx answer that is an HTML page (a catch-all route) is not a text file. */
const looksLikeHtml = (a: FileAnswer) => /html/i.test(a.contentType) || /^\s*(?:<!doctype\s+html|<html\b|<head\b|<body\b)/i.test(a.text ?? "");
const isPresent = (a: FileAnswer) =>
  a.tooLarge || (a.status !== null && a.status >= 200 && a.status < 300 && !looksLikeHtml(a) && (a.text ?? "").trim().length > 0);

export function readLlmsTxt(text: string): { title: string | null; summary: string | null; links: number; sections: number } {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const title = lines.map((l) => /^#\s+(.+?)\s*#*\s*$/.exec(l)?.[1]).find(Boolean) ?? null;
  const start = lines.findIndex((l) => /^>\s?/.test(l));
  let summary: string | null = null;
  if (start >= 0) {
    const quoted: string[] = [];
    for (let i = start; i < lines.length && /^>/.test(lines[i]); i++) quoted.push(lines[i].replace(/^>\s?/, ""));
    summary = collapse(quoted.join(" ")) || null;
  }
  return {
    title,
    summary,
    links: markdownLinks(text),
    sections: lines.filter((l) => /^##\s+\S/.test(l)).length,
  };
}

function llmsSection(llms: FileAnswer, full: FileAnswer): LlmsTxtSection {
  const present = isPresent(llms);
  const parsed = present && llms.text && !llms.tooLarge ? readLlmsTxt(llms.text) : { title: null, summary: null, links: 0, sections: 0 };
  return {
    url: llms.url,
    present,
    status: llms.status,
    bytes: llms.bytes,
    tooLarge: llms.tooLarge,
    ...parsed,
    full: { url: full.url, present: isPresent(full), status: full.status, tooLarge: full.tooLarge },
    note: "llms.txt (llmstxt.org) is an emerging convention: a Markdown file at the site's root with a title, a one-paragraph summary and links to the pages that matter, for language models to read. Few assistants fetch it yet, so its absence weighs little.",
  };
}

function llmsFindings(s: LlmsTxtSection, answer: FileAnswer): Finding[] {
  if (!s.present) {
    const html = answer.status !== null && answer.status < 300 && looksLikeHtml(answer);
    return [
      {
        id: "llms-txt-missing",
        severity: "low",
        check: "llmsTxt",
        message: html
          ? "/llms.txt answers with an HTML page (a catch-all route), not an llms.txt file. llms.txt is an emerging convention, so this weighs little."
          : "There is no /llms.txt. It is an emerging convention (llmstxt.org) that few assistants read yet, so this weighs little.",
        evidence: { quote: html ? `${answered(answer)}: ${cut(collapse(answer.text ?? ""), 80)}` : answered(answer), where: s.url },
        fix: "Publish /llms.txt in Markdown: `# Company name`, a `> one-paragraph summary` of what the business does, then `## Sections` of links to your key pages (services, about, contact).",
      },
    ];
  }
  if (!s.tooLarge && !s.title)
    return [
      {
        id: "llms-txt-no-title",
        severity: "low",
        check: "llmsTxt",
        message: "/llms.txt has no `# ` title line, which the format requires first.",
        evidence: { quote: cut(collapse((answer.text ?? "").split(/\r?\n/).find((l) => l.trim()) ?? ""), 120), where: `${s.url} line 1` },
        fix: "Start the file with `# ` and the business's name, then a `> ` summary line.",
      },
    ];
  return [];
}

// ---------------------------------------------------------------------------------------------------------------
// Structured data and the register
// ---------------------------------------------------------------------------------------------------------------

export interface StructuredDataSection {
  blocks: number;
  invalidBlocks: { block: number; line: number; error: string; excerpt: string }[];
  types: string[];
  organisations: JsonLdOrganisation[];
}

export interface BusinessSection {
  companyNumber: string;
  foundIn: "json-ld" | "page-text";
  quote: string;
  onRegister: boolean;
  registeredName: string | null;
  status: string | null;
  registeredPostcode: string | null;
  jsonLdName: string | null;
  jsonLdAddress: string | null;
  jsonLdPostcode: string | null;
  nameAgrees: boolean | null;
  postcodeAgrees: boolean | null;
  note: string;
}

const blockWhere = (o: { block: number }, jsonLd: JsonLdReading, pageUrl: string) =>
  `JSON-LD block ${o.block} (line ${jsonLd.blocks[o.block - 1]?.line ?? "?"}) of ${pageUrl}`;

function businessSection(reg: RegisterAnswer | null, jsonLd: JsonLdReading): BusinessSection | null {
  if (!reg) return null;
  const org = jsonLd.organisations.find((o) => o.companyNumber === reg.number) ?? jsonLd.organisations[0] ?? null;
  const jsonLdName = org ? (org.legalName ?? org.name) : null;
  const jsonLdPostcode = org?.address
    ? org.address.postcode
      ? (postcodeIn(org.address.postcode) ?? org.address.postcode.toUpperCase())
      : postcodeIn(org.address.text)
    : null;
  const p = reg.profile;
  if (!p)
    return {
      companyNumber: reg.number,
      foundIn: reg.foundIn,
      quote: reg.quote,
      onRegister: false,
      registeredName: null,
      status: null,
      registeredPostcode: null,
      jsonLdName,
      jsonLdAddress: org?.address?.text ?? null,
      jsonLdPostcode,
      nameAgrees: null,
      postcodeAgrees: null,
      note: `Companies House has no company ${reg.number}.`,
    };
  const names = org ? [org.legalName, org.name].filter((n): n is string => !!n) : [];
  const nameAgrees = names.length ? names.some((n) => normaliseNameCore(n) === normaliseNameCore(p.name)) : null;
  const regPostcode = p.registeredOffice.postcode;
  const postcodeAgrees = jsonLdPostcode && regPostcode ? squashPostcode(jsonLdPostcode) === squashPostcode(regPostcode) : null;
  const notes = [
    `Companies House: ${p.name} (${p.number}), ${p.status || "status not given"}.`,
    nameAgrees === null
      ? "No JSON-LD organisation name to compare."
      : nameAgrees
        ? "The JSON-LD name agrees with the registered name."
        : "The JSON-LD name is not the registered name.",
    postcodeAgrees === null
      ? "No postcode to compare (JSON-LD or register)."
      : postcodeAgrees
        ? "The JSON-LD postcode is the registered office's."
        : "The JSON-LD postcode is not the registered office's (a trading address may rightly differ).",
  ];
  return {
    companyNumber: reg.number,
    foundIn: reg.foundIn,
    quote: reg.quote,
    onRegister: true,
    registeredName: p.name,
    status: p.status || null,
    registeredPostcode: regPostcode,
    jsonLdName,
    jsonLdAddress: org?.address?.text ?? null,
    jsonLdPostcode,
    nameAgrees,
    postcodeAgrees,
    note: notes.join(" "),
  };
}

function structuredFindings(page: PageReading, business: BusinessSection | null, pageUrl: string): Finding[] {
  const out: Finding[] = [];
  const j = page.jsonLd;
  for (const b of j.invalid.slice(0, 5))
    out.push({
      id: "jsonld-invalid",
      severity: "medium",
      check: "structuredData",
      message: `JSON-LD block ${b.block} is not valid JSON (${b.error}), so crawlers ignore everything in it.`,
      evidence: { quote: b.excerpt, where: `JSON-LD block ${b.block} (line ${b.line}) of ${pageUrl}` },
      fix: "Fix the JSON (a trailing comma, an unescaped quote or a missing bracket is usual) and check it with the Schema Markup Validator (validator.schema.org).",
    });
  const orgFix =
    'Add `<script type="application/ld+json">` with `{"@context": "https://schema.org", "@type": "Organization", "name": …, "legalName": …, "url": …, "logo": …, "sameAs": [profiles], "address": {"@type": "PostalAddress", …, "postalCode": …}, "telephone": …, "identifier": {"@type": "PropertyValue", "name": "Company Number", "value": "01234567"}}`.';
  if (!j.organisations.length) {
    out.push({
      id: "jsonld-no-organisation",
      severity: "medium",
      check: "structuredData",
      message:
        "The page states no schema.org Organization or LocalBusiness in JSON-LD, so assistants and search engines must guess who the business is, where it is and how it is registered.",
      evidence: {
        quote: j.blocks.length
          ? `JSON-LD @type: ${j.types.join(", ") || "none readable"}`
          : `${page.scripts} <script> element${page.scripts === 1 ? "" : "s"}, none of type application/ld+json`,
        where: pageUrl,
      },
      fix: orgFix,
    });
  } else {
    const o = j.organisations[0];
    const missing = [
      !o.name && "name",
      !o.url && "url",
      !o.logo && "logo",
      !o.sameAs.length && "sameAs",
      !o.address && !o.telephone && "address or telephone",
    ].filter((x): x is string => !!x);
    if (missing.length)
      out.push({
        id: "jsonld-organisation-incomplete",
        severity: !o.name || !o.url ? "medium" : "low",
        check: "structuredData",
        message: `The ${o.types[0]} in JSON-LD has no ${missing.join(" or ")}.`,
        evidence: {
          quote: cut(
            JSON.stringify({ "@type": o.types.length === 1 ? o.types[0] : o.types, ...(o.name ? { name: o.name } : {}), ...(o.url ? { url: o.url } : {}) }),
          ),
          where: blockWhere(o, j, pageUrl),
        },
        fix: `Add ${missing.map((m) => `\`${m}\``).join(", ")} to the organisation's JSON-LD.`,
      });
  }
  // The register.
  const jsonLdNumber = j.organisations.find((o) => o.companyNumber);
  const textNumber = page.statedNumbers[0];
  if (jsonLdNumber && textNumber && !page.statedNumbers.some((s) => s.number === jsonLdNumber.companyNumber))
    out.push({
      id: "company-number-conflict",
      severity: "medium",
      check: "business",
      message: `The JSON-LD gives company number ${jsonLdNumber.companyNumber}, but the page's text states ${textNumber.number}.`,
      evidence: {
        quote: `${jsonLdNumber.companyNumberQuote}; page text: "${textNumber.quote}"`,
        where: `${blockWhere(jsonLdNumber, j, pageUrl)}, and the page's text`,
      },
      fix: "State the same, correct company number in both places.",
    });
  if (!business) {
    const tail = page.text.slice(-160);
    out.push({
      id: "company-number-not-stated",
      severity: "low",
      check: "business",
      message:
        "Neither the JSON-LD nor the page's text states a company number, so an assistant cannot tie the site to its Companies House record. (UK companies must state their number on their website, though not necessarily on this page.)",
      evidence: {
        quote: tail ? `…${collapse(tail)}` : "(the page has no text without JavaScript)",
        where: `the end of the page's text (usually the footer), ${pageUrl}`,
      },
      fix: 'State "Registered in England and Wales, company number 01234567" in the footer, and add it to the Organization JSON-LD as `identifier`.',
    });
    return out;
  }
  const where = business.foundIn === "json-ld" && jsonLdNumber ? blockWhere(jsonLdNumber, j, pageUrl) : `the page's text, ${pageUrl}`;
  const said = business.foundIn === "json-ld" ? business.quote : `"${business.quote}"`;
  if (!business.onRegister) {
    out.push({
      id: "company-number-not-registered",
      severity: "high",
      check: "business",
      message: `The company number ${business.companyNumber} stated ${business.foundIn === "json-ld" ? "in the JSON-LD" : "on the page"} is not on the Companies House register.`,
      evidence: { quote: said, where: `${where}; Companies House has no company ${business.companyNumber}` },
      fix: "Correct the company number (8 characters, e.g. 01234567 or SC123456) wherever it is stated.",
    });
    return out;
  }
  if (business.foundIn === "page-text" && j.organisations.length)
    out.push({
      id: "jsonld-no-company-number",
      severity: "low",
      check: "structuredData",
      message: `The page's text states company number ${business.companyNumber}, but the JSON-LD organisation does not carry it.`,
      evidence: { quote: said, where },
      fix:
        'Add `"identifier": {"@type": "PropertyValue", "name": "Company Number", "value": "' + business.companyNumber + "\"}` to the organisation's JSON-LD.",
    });
  if (business.status && business.status !== "active")
    out.push({
      id: "company-not-active",
      severity: "medium",
      check: "business",
      message: `Companies House gives company ${business.companyNumber} (${business.registeredName}) the status "${business.status}".`,
      evidence: { quote: said, where: `${where}; Companies House company ${business.companyNumber}` },
      fix: "If the business now trades through another company, state that company's number and name.",
    });
  if (business.nameAgrees === false)
    out.push({
      id: "company-name-disagrees",
      severity: "medium",
      check: "business",
      message: `The JSON-LD names the business "${business.jsonLdName}", but company ${business.companyNumber} is registered as "${business.registeredName}". An assistant checking the register may not trust the link.`,
      evidence: {
        quote: `JSON-LD name "${business.jsonLdName}"; Companies House name "${business.registeredName}"`,
        where: `${jsonLdNumber ? blockWhere(jsonLdNumber, j, pageUrl) : blockWhere(j.organisations[0], j, pageUrl)}; Companies House company ${business.companyNumber}`,
      },
      fix: `Add \`"legalName": "${business.registeredName}"\` to the organisation (keep \`name\` for the trading name), or correct the company number.`,
    });
  if (business.postcodeAgrees === false)
    out.push({
      id: "company-postcode-differs",
      severity: "low",
      check: "business",
      message: `The JSON-LD address postcode ${business.jsonLdPostcode} is not the registered office's (${business.registeredPostcode}). A trading address may rightly differ; if this is meant to be the registered office, it disagrees with the register.`,
      evidence: {
        quote: `JSON-LD address "${business.jsonLdAddress}"; Companies House registered office postcode "${business.registeredPostcode}"`,
        where: `${blockWhere(jsonLdNumber ?? j.organisations[0], j, pageUrl)}; Companies House company ${business.companyNumber}`,
      },
      fix: "Check the address; if the business trades elsewhere, keep it and consider stating the registered office too.",
    });
  return out;
}

function structuredPoints(page: PageReading, business: BusinessSection | null): number {
  const o = page.jsonLd.organisations[0];
  if (!o) return 0;
  return (
    8 +
    (o.name && o.url ? 2 : 0) +
    (o.logo ? 1 : 0) +
    (o.sameAs.length ? 1 : 0) +
    (o.address || o.telephone ? 1 : 0) +
    (business?.onRegister && business.nameAgrees ? 2 : 0)
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Sitemap
// ---------------------------------------------------------------------------------------------------------------

export interface SitemapFileAnswer extends FileAnswer {
  /** What it was read as (the caller reads it with readSitemap to find an index's children). */
  read: SitemapRead | null;
}

export interface SitemapSection {
  from: "robots.txt" | "default";
  listed: string[];
  files: { url: string; status: number | null; kind: "urlset" | "sitemapindex" | "not-a-sitemap" | "absent" | "unreachable" | "too-large"; entries: number }[];
  found: boolean;
  urls: number;
  pageListed: boolean | null;
  lastmod: { earliest: string; latest: string } | null;
  note: string;
}

/** A sitemap file as read: a 2xx body (inflated when it is a gzip file) read as a urlset or sitemapindex. */
export function sitemapFileOf(a: FileAnswer): SitemapFileAnswer {
  if (a.status === null || a.status < 200 || a.status > 299 || a.text === null) return { ...a, read: null };
  const t = a.body ? sitemapText(a.body, a.text) : { text: a.text };
  if ("tooLarge" in t) return { ...a, tooLarge: true, read: null };
  return { ...a, read: readSitemap(t.text) };
}

/** Sitemaps to read from robots.txt's list, or the default; at most MAX_SITEMAP_FILES, http(s) only. */
export function sitemapsToRead(robots: { sitemaps: string[] }, origin: string): { from: "robots.txt" | "default"; urls: string[] } {
  const listed = robots.sitemaps
    .map((s) => {
      try {
        const u = new URL(s.trim(), origin);
        return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
      } catch {
        return null;
      }
    })
    .filter((u): u is string => !!u);
  const unique = [...new Set(listed)];
  return unique.length ? { from: "robots.txt", urls: unique.slice(0, MAX_SITEMAP_FILES) } : { from: "default", urls: [`${origin}/sitemap.xml`] };
}

/** An index's children to read next, its own site's first, within what is left of MAX_SITEMAP_FILES. */
export function childSitemaps(files: SitemapFileAnswer[], origin: string): string[] {
  const read = new Set(files.map((f) => f.url));
  const host = new URL(origin).hostname;
  const kids = files.flatMap((f) => (f.read?.kind === "sitemapindex" ? f.read.entries.map((e) => e.loc) : [])).filter((u) => !read.has(u));
  const rank = (u: string) => {
    try {
      return new URL(u).hostname === host ? 0 : 1;
    } catch {
      return 2; // not a URL
    }
  };
  const sorted = [...new Set(kids)]
    .map((u, i) => ({ u, i, rank: rank(u) }))
    .filter((x) => x.rank < 2)
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.u);
  return sorted.slice(0, Math.max(0, MAX_SITEMAP_FILES - files.length));
}

function sitemapSection(from: "robots.txt" | "default", listed: string[], files: SitemapFileAnswer[], page: FetchedPage): SitemapSection {
  const kindOf = (f: SitemapFileAnswer): SitemapSection["files"][number]["kind"] =>
    f.tooLarge
      ? "too-large"
      : f.status === null
        ? "unreachable"
        : f.status >= 500
          ? "unreachable"
          : f.status >= 300
            ? "absent"
            : (f.read?.kind ?? "not-a-sitemap");
  const out = files.map((f) => ({ url: f.url, status: f.status, kind: kindOf(f), entries: f.read?.entries.length ?? 0 }));
  const sets = files.filter((f) => f.read?.kind === "urlset");
  const indexes = files.filter((f) => f.read?.kind === "sitemapindex");
  const entries = sets.flatMap((f) => f.read!.entries);
  const found = files.some((f) => (f.read?.kind === "urlset" || f.read?.kind === "sitemapindex") && f.read.entries.length > 0);
  const targets = new Set([comparableUrl(page.url), comparableUrl(page.requestedUrl)].filter(Boolean));
  const listedHere = entries.some((e) => targets.has(comparableUrl(e.loc, page.url)));
  const read = new Set(files.map((f) => f.url));
  const unread = indexes.flatMap((f) => f.read!.entries.map((e) => e.loc)).filter((u) => !read.has(u)).length;
  const pageListed = !found ? null : listedHere ? true : unread > 0 ? null : false;
  const dates = [...entries, ...indexes.flatMap((f) => f.read!.entries)]
    .map((e) => e.lastmod)
    .filter((d): d is string => !!d)
    .sort();
  const note = !found
    ? "No sitemap could be read."
    : `${entries.length} page URL${entries.length === 1 ? "" : "s"} in ${sets.length} urlset file${sets.length === 1 ? "" : "s"} read${indexes.length ? `, from ${indexes.length} sitemap index${indexes.length === 1 ? "" : "es"}` : ""}${unread ? `; ${unread} further sitemap${unread === 1 ? "" : "s"} listed but not read (at most ${MAX_SITEMAP_FILES} files are read)` : ""}.`;
  return {
    from,
    listed,
    files: out,
    found,
    urls: entries.length,
    pageListed,
    lastmod: dates.length ? { earliest: dates[0], latest: dates.at(-1)! } : null,
    note,
  };
}

function sitemapFindings(s: SitemapSection, robots: RobotsSection, page: FetchedPage): Finding[] {
  const out: Finding[] = [];
  const quoteFiles = () =>
    s.files
      .map(
        (f) =>
          `GET ${f.url} → ${f.status !== null ? `HTTP ${f.status}` : f.kind === "too-large" ? "larger than 2 MiB" : "no answer"}${f.kind === "not-a-sitemap" ? " (not a urlset or sitemapindex)" : ""}`,
      )
      .join("; ");
  if (!s.found) {
    out.push({
      id: s.files.some((f) => f.kind === "not-a-sitemap" || f.kind === "too-large" || f.kind === "unreachable") ? "sitemap-unreadable" : "sitemap-missing",
      severity: "medium",
      check: "sitemap",
      message:
        s.from === "robots.txt"
          ? "The sitemap robots.txt lists could not be read as a sitemap, so crawlers must find pages by following links."
          : "No sitemap was found (robots.txt lists none and /sitemap.xml is not one), so crawlers must find pages by following links.",
      evidence: { quote: quoteFiles(), where: s.from === "robots.txt" ? `Sitemap lines of ${robots.url}` : "the site's /sitemap.xml" },
      fix: "Publish an XML sitemap (sitemaps.org) listing your pages with <lastmod> dates, and name it in robots.txt: `Sitemap: https://…/sitemap.xml`.",
    });
    return out;
  }
  if (s.from === "default" && robots.file === "found")
    out.push({
      id: "robots-no-sitemap-line",
      severity: "info",
      check: "sitemap",
      message: "The sitemap is at /sitemap.xml but robots.txt does not name it; crawlers other than the big search engines may not look there.",
      evidence: { quote: `robots.txt Sitemap lines: 0; ${quoteFiles()}`, where: robots.url },
      fix: `Add \`Sitemap: ${s.files[0].url}\` to robots.txt.`,
    });
  if (s.pageListed === false)
    out.push({
      id: "sitemap-page-not-listed",
      severity: "low",
      check: "sitemap",
      message: `The page ${page.url} is not among the ${s.urls} URLs of the sitemap.`,
      evidence: {
        quote: `${s.urls} <loc> entries, none of them ${page.url}`,
        where: s.files
          .filter((f) => f.kind === "urlset")
          .map((f) => f.url)
          .join(", "),
      },
      fix: "List the page's canonical URL in the sitemap.",
    });
  if (!s.lastmod)
    out.push({
      id: "sitemap-no-lastmod",
      severity: "info",
      check: "sitemap",
      message: "The sitemap gives no <lastmod> dates, so crawlers cannot tell which pages changed.",
      evidence: {
        quote: `${s.urls} <url> entries, none with <lastmod>`,
        where: s.files
          .filter((f) => f.kind === "urlset" || f.kind === "sitemapindex")
          .map((f) => f.url)
          .join(", "),
      },
      fix: "Give each <url> a <lastmod> (YYYY-MM-DD) of its last real change.",
    });
  return out;
}

function sitemapPoints(s: SitemapSection): { points: number; max: number } {
  const max = s.pageListed === null && s.found ? 7 : 10;
  if (!s.found) return { points: 0, max };
  return { points: 6 + (s.pageListed ? 3 : 0) + (s.lastmod ? 1 : 0), max };
}

// ---------------------------------------------------------------------------------------------------------------
// Indexing directives
// ---------------------------------------------------------------------------------------------------------------

export interface IndexingSection {
  metaRobots: { name: string; content: string }[];
  xRobotsTag: string | null;
  directives: { directive: string; value: string | null; appliesTo: string; source: "meta" | "header"; quote: string }[];
  noindex: boolean;
  nosnippet: boolean;
  noai: boolean;
  noimageai: boolean;
  canonical: { href: string | null; pointsHere: boolean } | null;
  canonicalLinks: number;
}

const DIRECTIVES = new Set([
  "all",
  "noindex",
  "index",
  "nofollow",
  "follow",
  "none",
  "noarchive",
  "nocache",
  "nosnippet",
  "noimageindex",
  "notranslate",
  "indexifembedded",
  "noai",
  "noimageai",
  "max-snippet",
  "max-image-preview",
  "max-video-preview",
  "unavailable_after",
  "nositelinkssearchbox",
]);

/** `googlebot: noindex, nofollow`, `noindex`, `max-snippet: 0`: each directive with the agent it applies to. */
export function robotsDirectives(content: string, agent: string): { agent: string; directive: string; value: string | null }[] {
  const out: { agent: string; directive: string; value: string | null }[] = [];
  let who = agent;
  for (const raw of content.split(",")) {
    let part = raw.trim();
    if (!part) continue;
    const prefixed = /^([\w.-]+)\s*:\s*(.*)$/.exec(part);
    if (prefixed && !DIRECTIVES.has(prefixed[1].toLowerCase())) {
      who = prefixed[1].toLowerCase();
      part = prefixed[2].trim();
      if (!part) continue;
    }
    const d = /^([\w-]+)\s*(?::\s*(.*))?$/.exec(part);
    if (d) out.push({ agent: who, directive: d[1].toLowerCase(), value: d[2]?.trim() || null });
  }
  return out;
}

function indexingSection(page: PageReading, fetched: FetchedPage): IndexingSection {
  const directives: IndexingSection["directives"] = [];
  for (const m of page.metaRobots)
    for (const d of robotsDirectives(m.content, m.name === "robots" ? "all" : m.name))
      directives.push({ directive: d.directive, value: d.value, appliesTo: d.agent, source: "meta", quote: m.tag });
  if (fetched.xRobotsTag)
    for (const d of robotsDirectives(fetched.xRobotsTag, "all"))
      directives.push({ directive: d.directive, value: d.value, appliesTo: d.agent, source: "header", quote: `X-Robots-Tag: ${cut(fetched.xRobotsTag)}` });
  const has = (...names: string[]) => directives.some((d) => names.includes(d.directive));
  const first = page.canonicals[0];
  const here = comparableUrl(fetched.url);
  return {
    metaRobots: page.metaRobots.map(({ name, content }) => ({ name, content })),
    xRobotsTag: fetched.xRobotsTag,
    directives,
    noindex: has("noindex", "none"),
    nosnippet: has("nosnippet") || directives.some((d) => d.directive === "max-snippet" && d.value === "0"),
    noai: has("noai"),
    noimageai: has("noimageai"),
    canonical: first ? { href: first.href, pointsHere: !!first.href && comparableUrl(first.href) === here } : null,
    canonicalLinks: page.canonicals.length,
  };
}

function indexingFindings(s: IndexingSection, page: PageReading, fetched: FetchedPage): Finding[] {
  const out: Finding[] = [];
  const whereOf = (d: IndexingSection["directives"][number]) => (d.source === "header" ? `HTTP header of ${fetched.url}` : `<head> of ${fetched.url}`);
  const flag = (
    id: string,
    severity: Severity,
    match: (d: IndexingSection["directives"][number]) => boolean,
    message: (agents: string) => string,
    fix: string,
  ) => {
    const hits = s.directives.filter(match);
    if (!hits.length) return;
    const agents = [...new Set(hits.map((d) => (d.appliesTo === "all" ? "every crawler" : d.appliesTo)))].join(", ");
    out.push({
      id,
      severity,
      check: "indexing",
      message: message(agents),
      evidence: { quote: [...new Set(hits.map((d) => d.quote))].join("; "), where: [...new Set(hits.map(whereOf))].join("; ") },
      fix,
    });
  };
  flag(
    "noindex",
    "high",
    (d) => d.directive === "noindex" || d.directive === "none",
    (a) => `The page tells ${a} not to index it (noindex): it will not appear in search results or in the search indexes assistants answer from.`,
    "Remove noindex from the meta robots tag and the X-Robots-Tag header (staging settings left on in production are the usual cause).",
  );
  flag(
    "nosnippet",
    "medium",
    (d) => d.directive === "nosnippet" || (d.directive === "max-snippet" && d.value === "0"),
    (a) => `The page forbids snippets for ${a} (nosnippet or max-snippet:0): search results and AI overviews may not quote its text.`,
    "Remove nosnippet (or use data-nosnippet on the few passages that must not be quoted).",
  );
  flag(
    "noai",
    "low",
    (d) => d.directive === "noai" || d.directive === "noimageai",
    (a) =>
      `The page asks ${a} not to use its text or images for AI (noai / noimageai). These are non-standard signals that few crawlers honour; they state an intent to stay out of AI.`,
    "Remove noai and noimageai if you want AI assistants to use the page.",
  );
  if (s.canonical && s.canonical.href && !s.canonical.pointsHere)
    out.push({
      id: "canonical-elsewhere",
      severity: "medium",
      check: "indexing",
      message: `The page's canonical link points to another URL (${s.canonical.href}), so crawlers index that URL instead of this one.`,
      evidence: { quote: page.canonicals[0].tag, where: `<head> of ${fetched.url}` },
      fix: "Point the canonical link at the page's own URL, unless the other URL really is the same content.",
    });
  if (s.canonicalLinks > 1)
    out.push({
      id: "canonical-multiple",
      severity: "low",
      check: "indexing",
      message: `The page has ${s.canonicalLinks} canonical links; crawlers may ignore them all.`,
      evidence: { quote: page.canonicals.map((c) => c.tag).join(" "), where: `<head> of ${fetched.url}` },
      fix: 'Keep exactly one `<link rel="canonical">`.',
    });
  return out;
}

function indexingPoints(s: IndexingSection): number {
  if (s.noindex) return 0;
  return Math.max(
    0,
    WEIGHTS.indexing - (s.nosnippet ? 5 : 0) - (s.noai ? 3 : 0) - (s.noimageai ? 2 : 0) - (s.canonical?.href && !s.canonical.pointsHere ? 5 : 0),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------------------------

export interface RenderingSection {
  judged: boolean;
  htmlTextLength: number;
  renderedTextLength: number | null;
  ratio: number | null;
  clientRendered: boolean | null;
  reason: string | null;
  note: string;
}

function renderingSection(page: PageReading, rendered: RenderAnswer): RenderingSection {
  const note =
    "Most AI crawlers (GPTBot, ClaudeBot, PerplexityBot, CCBot) read the HTML as served and run no JavaScript; text that only JavaScript writes is invisible to them.";
  if (!rendered.ok)
    return { judged: false, htmlTextLength: page.textLength, renderedTextLength: null, ratio: null, clientRendered: null, reason: rendered.reason, note };
  const renderedLength = textLengthOf(rendered.text);
  const ratio = renderedLength === 0 ? (page.textLength > 0 ? 1 : 0) : Math.min(1, page.textLength / renderedLength);
  const r = Math.round(ratio * 100) / 100;
  return { judged: true, htmlTextLength: page.textLength, renderedTextLength: renderedLength, ratio: r, clientRendered: r < 0.5, reason: null, note };
}

function renderingFindings(s: RenderingSection, page: PageReading, rendered: RenderAnswer, fetched: FetchedPage): Finding[] {
  if (!s.judged || !rendered.ok)
    return [
      {
        id: "rendering-unknown",
        severity: "info",
        check: "rendering",
        message: `Couldn't tell how much of the page needs JavaScript: ${s.reason}. The page's HTML holds ${s.htmlTextLength} characters of text without JavaScript.`,
        evidence: { quote: s.reason ?? "", where: `rendering ${fetched.url} in a browser` },
        fix: "Nothing to change for this; ask again later for the rendering check.",
      },
    ];
  if (s.ratio === null || s.ratio >= 0.8) return [];
  const sample = (t: string) => {
    const c = collapse(t);
    return c ? `"${cut(c, 60)}"` : "no text";
  };
  const quote = `without JavaScript: ${s.htmlTextLength} characters (${sample(page.text)}); rendered: ${s.renderedTextLength} characters (${sample(rendered.text)})`;
  const high = s.ratio < 0.5;
  return [
    {
      id: high ? "client-rendered" : "partly-client-rendered",
      severity: high ? "high" : "medium",
      check: "rendering",
      message: high
        ? `Only ${Math.round(s.ratio * 100)}% of the page's text is in its HTML; the rest is written by JavaScript (a client-rendered site). AI crawlers that run no JavaScript see almost nothing.`
        : `${Math.round((1 - s.ratio) * 100)}% of the page's text is written by JavaScript; AI crawlers that run no JavaScript miss it.`,
      evidence: { quote, where: `${fetched.url}: the HTML as served, and the page rendered in a browser` },
      fix: "Serve the content in the HTML: server-side rendering or static generation (e.g. Next.js, Nuxt, Astro, or pre-rendering), at least for the main text, the business's name, services and contact details.",
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Title, description and headings
// ---------------------------------------------------------------------------------------------------------------

export const TITLE_MAX = 60;
export const TITLE_MIN = 10;
export const DESCRIPTION_MIN = 50;
export const DESCRIPTION_MAX = 160;

type Verdict = "ok" | "missing" | "too-short" | "too-long";
export interface MetaSection {
  title: { text: string | null; length: number; verdict: Verdict };
  description: { text: string | null; length: number; verdict: Verdict };
  ogTitle: string | null;
  ogDescription: string | null;
  lang: string | null;
  h1Count: number;
  guidance: string;
}

const verdictOf = (t: string | null, min: number, max: number): Verdict => (!t ? "missing" : t.length < min ? "too-short" : t.length > max ? "too-long" : "ok");

function metaSection(page: PageReading): MetaSection {
  return {
    title: { text: page.title.text, length: page.title.text?.length ?? 0, verdict: verdictOf(page.title.text, TITLE_MIN, TITLE_MAX) },
    description: {
      text: page.description.text,
      length: page.description.text?.length ?? 0,
      verdict: verdictOf(page.description.text, DESCRIPTION_MIN, DESCRIPTION_MAX),
    },
    ogTitle: page.ogTitle.text,
    ogDescription: page.ogDescription.text,
    lang: page.lang,
    h1Count: page.h1.length,
    guidance: `Common guidance: a title of at most ${TITLE_MAX} characters (longer ones are cut in results), a meta description of ${DESCRIPTION_MIN}–${DESCRIPTION_MAX} characters, one h1, and <html lang>.`,
  };
}

function metaFindings(s: MetaSection, page: PageReading, fetched: FetchedPage): Finding[] {
  const out: Finding[] = [];
  const head = `<head> of ${fetched.url}`;
  const f = (id: string, severity: Severity, message: string, quote: string, fix: string, where = head) =>
    out.push({ id, severity, check: "meta", message, evidence: { quote, where }, fix });
  if (s.title.verdict === "missing")
    f(
      "title-missing",
      "medium",
      "The page has no <title>: search results and assistants show the URL instead of the business's name.",
      page.title.tag ?? `<title> elements: 0`,
      "Add a <title> naming the page and the business, e.g. `Services | Business name`.",
    );
  else if (s.title.verdict === "too-long")
    f(
      "title-too-long",
      "low",
      `The title is ${s.title.length} characters; results cut titles at about ${TITLE_MAX}.`,
      page.title.tag!,
      `Shorten the title to at most ${TITLE_MAX} characters, the business's name included.`,
    );
  else if (s.title.verdict === "too-short")
    f(
      "title-too-short",
      "low",
      `The title is only ${s.title.length} characters and says little about the page.`,
      page.title.tag!,
      "Name the page's subject and the business in the title.",
    );
  if (s.description.verdict === "missing")
    f(
      "description-missing",
      "medium",
      "The page has no meta description: assistants and search results make up a summary from whatever text they find.",
      `<meta name="description"> elements: 0`,
      `Add <meta name="description" content="…"> of ${DESCRIPTION_MIN}–${DESCRIPTION_MAX} characters saying what the business does and where.`,
    );
  else if (s.description.verdict !== "ok")
    f(
      "description-length",
      "low",
      `The meta description is ${s.description.length} characters; ${DESCRIPTION_MIN}–${DESCRIPTION_MAX} is the usual guidance.`,
      page.description.tag!,
      `Rewrite it to ${DESCRIPTION_MIN}–${DESCRIPTION_MAX} characters.`,
    );
  if (!s.lang)
    f(
      "lang-missing",
      "low",
      "The <html> element has no lang attribute, so the page's language is guessed.",
      page.htmlTag || "<html> element: none",
      'Add `<html lang="en-GB">`.',
      `start of ${fetched.url}`,
    );
  if (s.h1Count === 0)
    f(
      "h1-missing",
      "low",
      "The page has no h1 heading in its HTML, so its main subject is not marked.",
      `<h1> elements: 0`,
      "Give the page one <h1> stating what it is about.",
      `HTML of ${fetched.url}`,
    );
  else if (s.h1Count > 1)
    f(
      "h1-multiple",
      "info",
      `The page has ${s.h1Count} h1 headings; one is clearer.`,
      page.h1.map((h) => `<h1>${cut(h, 60)}</h1>`).join(" "),
      "Keep one <h1> and make the others h2.",
      `HTML of ${fetched.url}`,
    );
  if (!s.ogTitle && !s.ogDescription)
    f(
      "og-missing",
      "low",
      "The page has no OpenGraph title or description, which link previews and some assistants use.",
      `<meta property="og:title"> and <meta property="og:description">: none`,
      'Add `<meta property="og:title">` and `<meta property="og:description">`.',
    );
  return out;
}

function metaPoints(s: MetaSection): number {
  return (
    (s.title.verdict !== "missing" ? 3 : 0) +
    (s.title.verdict === "ok" || s.title.verdict === "too-short" ? 1 : 0) +
    (s.description.verdict !== "missing" ? 2 : 0) +
    (s.description.verdict === "ok" ? 1 : 0) +
    (s.lang ? 1 : 0) +
    (s.h1Count === 1 ? 1 : 0) +
    (s.ogTitle || s.ogDescription ? 1 : 0)
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The whole reading
// ---------------------------------------------------------------------------------------------------------------

export interface AiVisibilityInput {
  page: FetchedPage;
  reading: PageReading;
  robots: FileAnswer;
  llmsTxt: FileAnswer;
  llmsFullTxt: FileAnswer;
  sitemaps: { from: "robots.txt" | "default"; listed: string[]; files: SitemapFileAnswer[] };
  rendered: RenderAnswer;
  register: RegisterAnswer | null;
}

export interface AiVisibilityReading {
  score: number;
  summary: string;
  scoring: { formula: string; checks: { check: Exclude<Check, "business">; points: number; max: number; judged: boolean }[] };
  findings: Finding[];
  robots: RobotsSection;
  llmsTxt: LlmsTxtSection;
  structuredData: StructuredDataSection;
  business: BusinessSection | null;
  sitemap: SitemapSection;
  indexing: IndexingSection;
  rendering: RenderingSection;
  meta: MetaSection;
}

export function assessAiVisibility(input: AiVisibilityInput): AiVisibilityReading {
  const { page, reading } = input;
  const robots = robotsSection(input.robots, page.url);
  const llmsTxt = llmsSection(input.llmsTxt, input.llmsFullTxt);
  const business = businessSection(input.register, reading.jsonLd);
  const sitemap = sitemapSection(input.sitemaps.from, input.sitemaps.listed, input.sitemaps.files, page);
  const indexing = indexingSection(reading, page);
  const rendering = renderingSection(reading, input.rendered);
  const meta = metaSection(reading);

  const findings = [
    ...robotsFindings(robots, input.robots),
    ...indexingFindings(indexing, reading, page),
    ...renderingFindings(rendering, reading, input.rendered, page),
    ...structuredFindings(reading, business, page.url),
    ...sitemapFindings(sitemap, robots, page),
    ...llmsFindings(llmsTxt, input.llmsTxt),
    ...metaFindings(meta, reading, page),
  ]
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITIES.indexOf(a.f.severity) - SEVERITIES.indexOf(b.f.severity) || a.i - b.i)
    .map((x) => x.f);

  const rp = robotsPoints(robots);
  const sp = sitemapPoints(sitemap);
  const checks: AiVisibilityReading["scoring"]["checks"] = [
    { check: "robots", points: rp.points, max: rp.max, judged: true },
    { check: "indexing", points: indexingPoints(indexing), max: WEIGHTS.indexing, judged: true },
    {
      check: "rendering",
      points: rendering.judged ? Math.round(WEIGHTS.rendering * (rendering.ratio ?? 0) * 10) / 10 : 0,
      max: WEIGHTS.rendering,
      judged: rendering.judged,
    },
    { check: "structuredData", points: structuredPoints(reading, business), max: WEIGHTS.structuredData, judged: true },
    { check: "sitemap", points: sp.points, max: sp.max, judged: true },
    { check: "llmsTxt", points: (llmsTxt.present ? 4 : 0) + (llmsTxt.full.present ? 1 : 0), max: WEIGHTS.llmsTxt, judged: true },
    { check: "meta", points: metaPoints(meta), max: WEIGHTS.meta, judged: true },
  ];
  const judged = checks.filter((c) => c.judged);
  const max = judged.reduce((s, c) => s + c.max, 0);
  const score = max ? Math.round((100 * judged.reduce((s, c) => s + c.points, 0)) / max) : 0;

  const count = (sev: Severity) => findings.filter((f) => f.severity === sev).length;
  const worst = findings.find((f) => f.severity === "high") ?? findings.find((f) => f.severity === "medium");
  const summary = [
    `AI visibility ${score}/100 for ${page.url}.`,
    `Findings: ${count("high")} high, ${count("medium")} medium, ${count("low")} low, ${count("info")} info.`,
    worst ? `Most important: ${worst.message}` : "No high or medium finding.",
    rendering.judged ? "" : "Rendering could not be judged and is left out of the score.",
  ]
    .filter(Boolean)
    .join(" ");

  return {
    score,
    summary,
    scoring: { formula: SCORING_FORMULA, checks },
    findings,
    robots,
    llmsTxt,
    structuredData: {
      blocks: reading.jsonLd.blocks.length,
      invalidBlocks: reading.jsonLd.invalid,
      types: reading.jsonLd.types,
      organisations: reading.jsonLd.organisations,
    },
    business,
    sitemap,
    indexing,
    rendering,
    meta,
  };
}
