/**
 * Finding a supplier's carbon reduction plan from its homepage (issue 17 §4.2, SPEC §4.4): the links whose text or
 * address mentions a carbon reduction plan, net zero, carbon, or sustainability, best first; and telling a plan from a
 * page that only links to one (`looksLikePlan`, in carbonPlan.ts). Pure: the operation fetches the candidates, at most
 * three, and records which page the plan was found from. `siteIdentity` reads who the page says runs the site, so a
 * plan naming another organisation is not taken for the supplier's (issue 28 §3; the rule is compareOrganisation's).
 */
import { parseHtml } from "../html/parse";
import { siteOf as registrableDomain } from "../net/site";
import { statedCompanyNames, statedCompanyNumbers } from "../web/disclosures";
import { readPage } from "../web/siteLinks";
import type { SiteIdentity } from "./carbonPlan";

export { looksLikePlan } from "./carbonPlan";

export interface PlanLink {
  /** Absolute, without its fragment. */
  url: string;
  /** The link's text (or its title, aria-label or image alt). */
  text: string;
  /** 4: carbon reduction plan (or "CRP", PPN 06/21); 3: net zero; 2: carbon; 1: sustainability or environment. */
  rank: number;
  pdf: boolean;
}

/** How strongly a link's words point at a carbon reduction plan; 0 when not at all. */
function rankOf(words: string): number {
  if (/\bcarbon\s*reduction\s*plan|\bcarbon\s*reduction\b|\bcrp\b|\bppn\s*0?6\s*21\b|\bppn\s*006\b/.test(words)) return 4;
  if (/\bnet\s*zero\b|\bnetzero\b/.test(words)) return 3;
  if (/\bcarbon\b|\bco2\b|\bemissions\b|\bghg\b/.test(words)) return 2;
  if (/\bsustainab|\benvironment|\besg\b|\bclimate\b|\bgreen\b/.test(words)) return 1;
  return 0;
}

/** The address's words: "/docs/Carbon-Reduction_Plan%202025.pdf" → "docs carbon reduction plan 2025 pdf". */
function wordsOfUrl(u: URL): string {
  let path = u.pathname + " " + u.search;
  try {
    path = decodeURIComponent(path);
  } catch {
    /* keep it as is */
  }
  return path
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ");
}

const siteOf = (host: string) => host.toLowerCase().replace(/^www\./, "");
const sameSite = (a: string, b: string) => {
  const x = siteOf(a),
    y = siteOf(b);
  return x === y || x.endsWith("." + y) || y.endsWith("." + x);
};

/**
 * The candidate links of a page, best first: absolute http(s) addresses on the same site (or any https address),
 * fragments dropped, each address once, the page itself left out. Ranked by `rankOf` (link text and address), then
 * PDFs first, then the order on the page.
 */
export function rankedPlanLinks(html: string, baseUrl: string): PlanLink[] {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    return [];
  }
  const { document } = parseHtml(html);
  const baseHref = document.querySelector("base[href]")?.getAttribute("href");
  let resolveFrom = base;
  if (baseHref)
    try {
      resolveFrom = new URL(baseHref, base);
    } catch {
      /* ignore a broken <base> */
    }
  const self = (() => {
    const b = new URL(base.href);
    b.hash = "";
    return b.href;
  })();
  const seen = new Map<string, PlanLink & { order: number }>();
  let order = 0;
  for (const a of [...document.querySelectorAll("a[href], area[href]")]) {
    const href = (a.getAttribute("href") ?? "").trim();
    if (!href || /^(?:mailto|tel|javascript|data|sms|ftp):/i.test(href)) continue;
    let u: URL;
    try {
      u = new URL(href, resolveFrom);
    } catch {
      continue;
    }
    if (u.protocol !== "https:" && u.protocol !== "http:") continue;
    if (!sameSite(u.hostname, base.hostname) && u.protocol !== "https:") continue;
    u.hash = "";
    if (u.href === self) continue;
    const alt = [...a.querySelectorAll("img[alt]")].map((i) => i.getAttribute("alt") ?? "").join(" ");
    const text = [a.textContent ?? "", a.getAttribute("title") ?? "", a.getAttribute("aria-label") ?? "", alt].join(" ").replace(/\s+/g, " ").trim();
    const words = `${text.toLowerCase().replace(/[^a-z0-9]+/g, " ")} ${wordsOfUrl(u)}`;
    const rank = rankOf(words);
    if (!rank) continue;
    const pdf = /\.pdf$/i.test(u.pathname) || /\bpdf\b/i.test(text);
    const prev = seen.get(u.href);
    if (prev) {
      // The same address linked twice ("Sustainability" in the menu, "Read our carbon reduction plan" in the page): its best words.
      if (rank > prev.rank) Object.assign(prev, { rank, text });
      continue;
    }
    seen.set(u.href, { url: u.href, text: text.slice(0, 200), rank, pdf, order: order++ });
  }
  return [...seen.values()].sort((x, y) => y.rank - x.rank || Number(y.pdf) - Number(x.pdf) || x.order - y.order).map(({ order: _o, ...l }) => l);
}

/** The addresses of the best candidate links (at most `max`, default 3): the pages to try for a carbon reduction plan. */
export function planLinks(html: string, baseUrl: string, max = 3): string[] {
  return rankedPlanLinks(html, baseUrl)
    .slice(0, Math.max(0, max))
    .map((l) => l.url);
}

/** Visible text kept for "does the site mention the plan's organisation" (a homepage's footer is near its end). */
const IDENTITY_TEXT_MAX = 200_000;
/** Lines that give the site's own registered name: a copyright line, its registration, its registered office, a trading name. */
const OWN_NAME_LINE =
  /©|\bcopyright\b|\(c\)\s*\d{4}|\bregistered\s+(?:in|office|address|number|no\b)|\bcompany\s+(?:registration\s+)?(?:number|no\b)|\bco\.?\s*(?:reg\.?\s*)?no\b|\btrading\s+(?:name|as)\b|\bt\s*\/\s*a\b|\bis\s+a\s+(?:private\s+)?(?:limited\s+)?company\b/i;
/** Words of a title that are not the site's name ("Home", "Welcome"). */
const NOT_A_SITE_NAME =
  /^(?:home(?:\s*page)?|welcome|index|official\s+(?:site|website)|main|start|untitled|page)$|\b(?:statement|policy|plan|report|privacy|terms|conditions|contact(?:\s+us)?|about(?:\s+us)?|news|blog|careers|jobs|faqs?|sitemap)$/i;
/** A tagline in sentence case ("Office cleaning", "Offices, surgeries and schools"), not a name. */
const SENTENCE_CASE = /^\p{Lu}[\p{Ll}'’-]*(?:,?\s+(?:[\p{Ll}'’&-]+))+$/u;

/**
 * Who a page of the supplier's site says runs it (issue 28 §3, crp-check): the registered names it gives as its own
 * (in its footer, a copyright line or beside its company number), the names it calls itself (og:site_name, the name
 * in its title), the company numbers it states. Pure; read from the page crp-check was asked for.
 */
export function siteIdentity(html: string, url: string): SiteIdentity {
  const page = readPage(html, url);
  const text = page.text.length > IDENTITY_TEXT_MAX ? page.text.slice(-IDENTITY_TEXT_MAX) : page.text;
  const names: string[] = [];
  // "EDAN Medical (UK) Ltd": the bracketed word before the legal form read as a word, and given back its brackets.
  for (const line of [...page.footerText.split("\n"), ...text.split("\n").filter((l) => l.length <= 400 && OWN_NAME_LINE.test(l))])
    for (const found of statedCompanyNames(line.replace(BRACKETED_BEFORE_FORM, "$1"))) {
      const name = found.name
        .replace(/(\S+)(\s+(?:Limited|Ltd\.?|PLC|Plc|plc|LLP))$/i, (all, w: string, form: string) => (line.includes(`(${w})${form}`) ? `(${w})${form}` : all))
        .replace(/^\((\S+)\)/, "$1");
      // "Calder Facilities Ltd, part of Northwold Group plc": the group is named, but it is not the site's company.
      const at = line.indexOf(name);
      if (at >= 0 && NOT_OWN_BEFORE.test(line.slice(Math.max(0, at - 40), at))) continue;
      if (!names.includes(name)) names.push(name);
    }
  const head = html.slice(0, 200_000);
  const siteNames: string[] = [];
  const meta = startTags(head, "meta").find((t) => /\bproperty\s*=\s*["']og:site_name["']/i.test(t)) ?? "";
  const ogName = /\bcontent\s*=\s*"([^"]{2,80})"|\bcontent\s*=\s*'([^']{2,80})'/i.exec(meta);
  if (ogName) siteNames.push(decodeEntities(ogName[1] ?? ogName[2]).trim());
  // The title's parts ("Calder Facilities Ltd — cleaning and FM across the North"): a capitalised part of a few words.
  const title = decodeEntities(titleIn(head)).replace(/\s+/g, " ");
  for (const part of title.split(/\s+[|–—:-]\s+|\s*[|·•]\s*/)) {
    const t = part.trim();
    if (
      t.length >= 2 &&
      t.length <= 60 &&
      /^\p{Lu}|^\d/u.test(t) &&
      t.split(/\s+/).length <= 6 &&
      !NOT_A_SITE_NAME.test(t) &&
      !SENTENCE_CASE.test(t) &&
      !rankOf(t.toLowerCase())
    )
      siteNames.push(t);
  }
  let domain = "";
  try {
    domain = registrableDomain(new URL(url).hostname).split(".")[0];
  } catch {
    /* no address: no domain */
  }
  return {
    url,
    names: names.slice(0, 5),
    siteNames: [...new Set(siteNames)].slice(0, 4),
    numbers: statedCompanyNumbers(text).map((n) => n.number),
    text,
    domain,
  };
}

/** Every `<name …>` start tag as written, in one forward scan (a tag never closed ends it: no later one closes either). */
function startTags(html: string, name: string): string[] {
  const out: string[] = [];
  const open = new RegExp(`<${name}\\b`, "gi");
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const end = html.indexOf(">", m.index);
    if (end < 0) break;
    out.push(html.slice(m.index, end + 1));
    open.lastIndex = end + 1;
  }
  return out;
}

/** The first `<title>`'s text of up to 300 characters (no markup in it), as `/<title\b[^>]*>([^<]{0,300})<\/title>/i` reads it, in one forward scan. */
function titleIn(html: string): string {
  const text = /([^<]{0,300})<\/title>/iy;
  const open = /<title\b/gi;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const end = html.indexOf(">", m.index);
    if (end < 0) return "";
    text.lastIndex = end + 1;
    const t = text.exec(html);
    if (t) return t[1];
  }
  return "";
}

const BRACKETED_BEFORE_FORM = /\((\p{Lu}[\p{L}]{1,15})\)(?=\s+(?:Limited|Ltd|PLC|plc|LLP)\b)/gu;

/** Words before a registered name that make it another company's: a group the site is part of, a client, a partner. */
const NOT_OWN_BEFORE =
  /\b(?:part|member|subsidiary|division|partner|partners|supplier|client|customer)\s+of\s+(?:the\s+)?$|\b(?:owned|acquired|accredited|certified|approved|regulated|powered|supported|designed|built|hosted)\s+by\s+(?:the\s+)?$|\b(?:with|for|to)\s+$/i;

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  rsquo: "’",
  lsquo: "‘",
  middot: "·",
  bull: "•",
  pound: "£",
  copy: "©",
};
/** A title or attribute's character references. */
const decodeEntities = (s: string) =>
  s.replace(/&(?:#(\d{1,6})|#x([0-9a-f]{1,6})|([a-z]{2,8}));/gi, (all, d: string, x: string, n: string) => {
    const code = d ? Number(d) : x ? parseInt(x, 16) : null;
    if (code !== null) return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : all;
    return ENTITIES[n.toLowerCase()] ?? all;
  });
