/**
 * brand-kit (SPEC §4.8 names it; the shape is ours): what a company's own website says about its brand, read from its
 * HTML, its same-site stylesheets, its web app manifest and, where a browser is available, the rendered page. Pure:
 * the operation fetches and calls these. Logos come from extractLogos (SPEC §4.7 order); the company number from the
 * page's own statements (disclosures.ts) and its JSON-LD (jsonLd.ts), checked at Companies House by the operation.
 *
 * People are never named (SPEC §1 rule 7): a personal LinkedIn profile is left out of `socials` and only counted.
 */
import { visibleText } from "./domText";
import { parseHtml, walkNodes } from "../html/parse";
import { type LogoCandidate, extractLogosFrom } from "../logo/extractLogos";
import { sameSite } from "../net/site";
import type { RenderedColour, RenderedFont } from "./rendered";
import {
  type ColourRole,
  type FontFace,
  type FontStackUse,
  type WebFontLink,
  absoluteUrl,
  colourProperties,
  customProperties,
  familiesOf,
  fontFaces,
  fontStacks,
  importsOf,
  isGenericFamily,
  isIconFont,
  parseColour,
  primaryFamily,
  propertyMap,
  webFontLink,
} from "./css";
import { readJsonLd } from "./jsonLd";

/** Same-site stylesheets read at most, and the most bytes read of each. */
export const MAX_STYLESHEETS = 4;
export const MAX_STYLESHEET_BYTES = 512 * 1024;
/** The web app manifest is read up to this size. */
export const MAX_MANIFEST_BYTES = 256 * 1024;

const MAX_COLOURS = 24;
const MAX_CSS_VARIABLE_COLOURS = 16;
const MAX_STACKS = 5;
const MAX_FAMILIES = 8;
const MAX_TAGLINE = 300;

// ---------------------------------------------------------------------------------------------------------------
// The page
// ---------------------------------------------------------------------------------------------------------------

export type NameSource = "og:site_name" | "application-name" | "json-ld" | "title";
export type TaglineSource = "meta-description" | "hero-heading";

export interface IconLink {
  url: string;
  type?: string;
  sizes?: string;
}

export interface MetaColour {
  hex: string;
  use: "theme" | "tile" | "mask-icon";
  source: "theme-color" | "msapplication-TileColor" | "mask-icon";
  media?: string;
}

export type Network = "linkedin" | "x" | "facebook" | "instagram" | "youtube" | "tiktok" | "github" | "threads" | "bluesky" | "mastodon";
export const NETWORKS: readonly Network[] = ["linkedin", "x", "facebook", "instagram", "youtube", "tiktok", "github", "threads", "bluesky", "mastodon"];

export interface SocialProfile {
  network: Network;
  url: string;
  /** `json-ld`: the organisation's own schema.org `sameAs`; `link`: a link on the page. */
  source: "json-ld" | "link";
}

export interface OpenGraph {
  title?: string;
  description?: string;
  image?: string;
  type?: string;
  url?: string;
  siteName?: string;
  twitterCard?: string;
  twitterSite?: string;
}

export interface BrandPage {
  name: { value: string; source: NameSource } | null;
  tagline: { value: string; source: TaglineSource } | null;
  description: string | null;
  openGraph: OpenGraph;
  logos: LogoCandidate[];
  favicons: (IconLink & { assumed?: true })[];
  appleTouchIcons: IconLink[];
  maskIcon: { url: string; colour?: string } | null;
  manifestUrl: string | null;
  metaColours: MetaColour[];
  /** The page's own CSS: every <style> element and style attribute, in order. */
  inlineCss: string;
  /** Same-site stylesheets linked from the page (and @imported by its <style>), absolute, in order. */
  stylesheets: string[];
  /** Web-font services linked (Google Fonts, Bunny Fonts, Adobe Fonts). */
  webFontLinks: WebFontLink[];
  /** Font files the page preloads (`<link rel="preload" as="font">`). */
  preloadedFonts: string[];
  socials: SocialProfile[];
  /** Personal profiles (LinkedIn /in/) linked: left out, only counted. */
  personalProfilesLeftOut: number;
  /** Company numbers stated in the organisation's JSON-LD, with the identifier quoted. */
  jsonLdCompanyNumbers: { number: string; quote: string }[];
  /** The visible text, one block a line, for the statements of disclosures.ts. */
  text: string;
}

/** The little of linkedom's DOM read here. */
interface El {
  tagName: string;
  nodeType: number;
  nodeValue: string | null;
  textContent: string | null;
  childNodes: ArrayLike<El>;
  getAttribute(name: string): string | null;
  closest(selector: string): El | null;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): ArrayLike<El>;
}

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** The first sentence of a text ("Ltd." and the like are not sentence ends), at most MAX_TAGLINE characters. */
export function firstSentence(s: string): string {
  const t = clean(s);
  for (const m of t.matchAll(/[.!?](?=\s+["'“‘(]?[A-Z0-9]|$)/g)) {
    // Past MAX_TAGLINE the answer is the text cut there, wherever the sentence ends.
    if (m.index >= MAX_TAGLINE) break;
    // The abbreviation test reads the few characters before the stop (the longest abbreviation and a boundary).
    if (/\b(?:ltd|co|inc|plc|llp|st|no|nos|mr|mrs|ms|dr|e\.g|i\.e|etc|vs|approx|est|incl)\.$/i.test(t.slice(Math.max(0, m.index - 9), m.index + 1))) continue;
    return cut(t.slice(0, m.index + 1));
  }
  return cut(t);
}

const cut = (s: string) => (s.length <= MAX_TAGLINE ? s : `${s.slice(0, MAX_TAGLINE).replace(/\s+\S*$/, "")}…`);

const TITLE_SEPARATORS = /\s+[|\-–—·•»:]{1,2}\s+|\s*[|·•»]\s*/;
const GENERIC_TITLE_PART = /^(?:home|homepage|home page|welcome|index|official site|official website)$/i;
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * The brand part of a title ("Modern slavery statement | Wild Fig Research" → "Wild Fig Research"): the part that
 * matches the site's domain name, else the first part on a homepage and the last elsewhere.
 */
export function brandFromTitle(title: string, pageUrl: string): string | null {
  const t = clean(title);
  if (!t) return null;
  const parts = t
    .split(TITLE_SEPARATORS)
    .map(clean)
    .filter((p) => p && !GENERIC_TITLE_PART.test(p));
  if (!parts.length) return null;
  if (parts.length === 1) return parts[0].length <= 80 ? parts[0] : null;
  const u = new URL(pageUrl);
  const label = squash(u.hostname.replace(/^www\./, "").split(".")[0]);
  const matching = parts.filter((p) => {
    const s = squash(p);
    return label.length >= 3 && s.length >= 3 && (s.includes(label) || label.includes(s));
  });
  if (matching.length) return matching[0];
  return u.pathname === "/" || u.pathname === "" ? parts[0] : parts.at(-1)!;
}

/** `[class*=hero], [id*=hero], [class*=banner], [class*=masthead], [class*=jumbotron], [class*=intro]` of one element. */
const isHeroArea = (el: El) => {
  const c = el.getAttribute("class") ?? "";
  return /hero|banner|masthead|jumbotron|intro/.test(c) || (el.getAttribute("id") ?? "").includes("hero");
};

/**
 * A hero area's heading: the homepage's first h1/h2 in a hero, banner or masthead that is not the brand's name. Read
 * as the areas' headings in order (each area's h1/h2 in page order, areas in page order), then, on a homepage, the
 * main content's h1s outside navigation and footers; found in one walk of the page (no walk up per element).
 */
function heroHeading(document: El, name: string | null, isHome: boolean): string | null {
  const main = isHome ? (document.querySelector("main, [role=main]") ?? document.querySelector("body")) : null;
  // Each heading under a hero area, with the first such area it is under (its outermost: areas come in page order).
  const inHero: { h: El; area: number }[] = [];
  const inMain: El[] = [];
  let areas = 0;
  type Ctx = { chrome: boolean; navFooter: boolean; area: number | null; main: boolean };
  const stack: Ctx[] = [{ chrome: false, navFooter: false, area: null, main: false }];
  walkNodes(
    document,
    (el) => {
      if (el.nodeType !== 1) return false;
      const up = stack[stack.length - 1];
      const navFooter = up.navFooter || el.tagName === "NAV" || el.tagName === "FOOTER";
      const chrome = navFooter || up.chrome || el.getAttribute("role") === "contentinfo";
      if (el.tagName === "H1" || el.tagName === "H2") {
        if (up.area !== null) inHero.push({ h: el, area: up.area });
        // "nav, footer, header nav": nav and footer (a nav in a header is a nav); role=contentinfo does not count here.
        if (el.tagName === "H1" && up.main && !up.navFooter) inMain.push(el);
      }
      const hero = up.area === null && !chrome && isHeroArea(el) && !/cookie|consent/i.test(`${el.getAttribute("class")} ${el.getAttribute("id")}`);
      stack.push({ chrome, navFooter, area: up.area ?? (hero ? areas++ : null), main: up.main || el === main });
    },
    () => void stack.pop(),
  );
  const candidates = [...inHero.sort((a, b) => a.area - b.area).map((x) => x.h), ...inMain];
  const own = squash(name ?? "");
  for (const h of candidates) {
    const text = clean(h.textContent);
    if (text && text.length <= 160 && squash(text) !== own) return text;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Social profiles
// ---------------------------------------------------------------------------------------------------------------

const MASTODON_HOSTS =
  /(?:^|\.)(?:mastodon\.[a-z.]+|mstdn\.[a-z.]+|fosstodon\.org|hachyderm\.io|mas\.to|infosec\.exchange|techhub\.social|social\.vivaldi\.net|mastodonapp\.uk|toot\.community|universeodon\.com)$/;
const X_RESERVED = /^(?:intent|share|home|hashtag|search|i|explore|login|signup|settings|messages|notifications|tos|privacy|compose|widgets?)$/i;
const FB_RESERVED =
  /^(?:sharer|sharer\.php|share|share\.php|dialog|plugins|tr|login|login\.php|events|groups|watch|help|policies|privacy|hashtag|photo|photo\.php|permalink\.php|story\.php|l\.php|pages)$/i;
const IG_RESERVED = /^(?:p|reel|reels|explore|accounts|stories|tv|direct|about|legal)$/i;
const GH_RESERVED =
  /^(?:features|login|join|sponsors|marketplace|about|pricing|topics|collections|trending|explore|orgs|settings|site|contact|enterprise|security|customer-stories|readme)$/i;
const HANDLE = /^[a-z0-9_.-]{1,100}$/i;

/** A link read as a social profile; "person" for a personal profile (left out); null for anything else (a share link, a post). */
export function socialProfile(href: string, rel = ""): Omit<SocialProfile, "source"> | "person" | null {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return null;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  const host = u.hostname.toLowerCase().replace(/^(?:www|m|mobile|uk|en-gb|business)\./, "");
  const seg = u.pathname
    .split("/")
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  const first = seg[0] ?? "";
  if (host === "linkedin.com" || host.endsWith(".linkedin.com")) {
    if (/^(?:in|pub|profile)$/i.test(first)) return "person";
    if (/^(?:company|school|showcase)$/i.test(first) && seg[1] && HANDLE.test(seg[1]))
      return { network: "linkedin", url: `https://www.linkedin.com/${first.toLowerCase()}/${seg[1]}` };
    return null; // shareArticle, sharing/share-offsite, feed, posts…
  }
  if (host === "twitter.com" || host === "x.com") {
    if (!first || X_RESERVED.test(first) || !/^[a-z0-9_]{1,15}$/i.test(first) || u.searchParams.has("status")) return null;
    return { network: "x", url: `https://x.com/${first}` };
  }
  if (host === "facebook.com" || host === "fb.com" || host === "fb.me") {
    if (first === "profile.php") {
      const id = u.searchParams.get("id");
      return id && /^\d+$/.test(id) ? { network: "facebook", url: `https://www.facebook.com/profile.php?id=${id}` } : null;
    }
    if (!first || FB_RESERVED.test(first) || !HANDLE.test(first)) return null;
    return { network: "facebook", url: `https://www.facebook.com/${first}` };
  }
  if (host === "instagram.com" || host === "instagr.am") {
    if (!first || IG_RESERVED.test(first) || !/^[a-z0-9_.]{1,30}$/i.test(first)) return null;
    return { network: "instagram", url: `https://www.instagram.com/${first}` };
  }
  if (host === "youtube.com") {
    if (/^@[\w.-]+$/.test(first)) return { network: "youtube", url: `https://www.youtube.com/${first}` };
    if (/^(?:channel|c|user)$/.test(first) && seg[1] && HANDLE.test(seg[1])) return { network: "youtube", url: `https://www.youtube.com/${first}/${seg[1]}` };
    return null; // watch, embed, playlist, shorts
  }
  if (host === "tiktok.com") return /^@[\w.]+$/.test(first) ? { network: "tiktok", url: `https://www.tiktok.com/${first}` } : null;
  if (host === "github.com") {
    if (!first || GH_RESERVED.test(first) || !/^[a-z0-9-]{1,39}$/i.test(first)) return null;
    return { network: "github", url: `https://github.com/${first}` };
  }
  if (host === "threads.net" || host === "threads.com") return /^@[\w.]+$/.test(first) ? { network: "threads", url: `https://www.threads.net/${first}` } : null;
  if (host === "bsky.app")
    return first === "profile" && seg[1] && /^[\w.:-]+$/.test(seg[1]) ? { network: "bluesky", url: `https://bsky.app/profile/${seg[1]}` } : null;
  if ((MASTODON_HOSTS.test(host) || /\bme\b/.test(rel)) && /^@[\w.]+$/.test(first) && seg.length === 1)
    return { network: "mastodon", url: `https://${u.hostname.toLowerCase()}/${first}` };
  return null;
}

/** One profile per network (the organisation's own JSON-LD `sameAs` first, then the page's links in order), in NETWORKS order. */
function socialsOf(sameAs: string[], links: { href: string; rel: string }[]): { socials: SocialProfile[]; people: number } {
  const byNetwork = new Map<Network, SocialProfile>();
  const people = new Set<string>();
  const take = (href: string, rel: string, source: SocialProfile["source"]) => {
    const p = socialProfile(href, rel);
    if (p === "person")
      return void people.add(
        href
          .toLowerCase()
          .replace(/[?#].*$/, "")
          .replace(/\/+$/, ""),
      );
    if (p && !byNetwork.has(p.network)) byNetwork.set(p.network, { ...p, source });
  };
  for (const s of sameAs) take(s, "", "json-ld");
  for (const l of links) take(l.href, l.rel, "link");
  return { socials: NETWORKS.flatMap((n) => (byNetwork.has(n) ? [byNetwork.get(n)!] : [])), people: people.size };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the page
// ---------------------------------------------------------------------------------------------------------------

/** Everything the page's own HTML says about its brand. `pageUrl` is the URL it was read from (after redirects). */
export function readBrandPage(html: string, pageUrl: string): BrandPage {
  const parsed = parseHtml(html);
  const document = parsed.document as unknown as El;
  let base = pageUrl;
  try {
    const href = document.querySelector("base[href]")?.getAttribute("href");
    if (href) base = new URL(href, pageUrl).href;
  } catch {
    /* a broken <base href> is ignored */
  }
  const abs = (raw: string | null | undefined) => (raw?.trim() ? absoluteUrl(raw, base) : null);
  const all = (sel: string) => Array.from(document.querySelectorAll(sel));
  const meta = (...names: string[]): El[] =>
    all("meta[content]").filter((m) => ["name", "property"].some((a) => names.includes((m.getAttribute(a) ?? "").toLowerCase())));
  const metaText = (...names: string[]) => {
    const v = clean(meta(...names)[0]?.getAttribute("content"));
    return v || undefined;
  };

  const jsonLd = readJsonLd(html);
  const org = jsonLd.organisations.find((o) => o.name) ?? null;
  const title = clean(document.querySelector("title")?.textContent);
  const isHome = new URL(pageUrl).pathname === "/";

  // Name: og:site_name, application-name, the JSON-LD organisation's name, then the title's brand part.
  const titleBrand = brandFromTitle(title, pageUrl);
  const name: BrandPage["name"] = metaText("og:site_name")
    ? { value: metaText("og:site_name")!, source: "og:site_name" }
    : metaText("application-name")
      ? { value: metaText("application-name")!, source: "application-name" }
      : org?.name
        ? { value: clean(org.name), source: "json-ld" }
        : titleBrand
          ? { value: titleBrand, source: "title" }
          : null;

  const description = metaText("description") ?? null;
  const hero = description ? null : heroHeading(document, name?.value ?? null, isHome);
  const tagline: BrandPage["tagline"] = description
    ? { value: firstSentence(description), source: "meta-description" }
    : hero
      ? { value: cut(hero), source: "hero-heading" }
      : null;

  const og: OpenGraph = {};
  const set = (k: keyof OpenGraph, v: string | undefined | null) => {
    if (v) og[k] = v;
  };
  set("title", metaText("og:title"));
  set("description", metaText("og:description"));
  set("image", abs(metaText("og:image", "og:image:url", "og:image:secure_url")));
  set("type", metaText("og:type"));
  set("url", abs(metaText("og:url")));
  set("siteName", metaText("og:site_name"));
  set("twitterCard", metaText("twitter:card"));
  set("twitterSite", metaText("twitter:site"));

  // Icons.
  const links = all("link[rel][href]").flatMap((el) => {
    const url = abs(el.getAttribute("href"));
    const rel = (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    return url ? [{ el, url, rel }] : [];
  });
  const iconOf = (l: (typeof links)[number]): IconLink => {
    const i: IconLink = { url: l.url };
    const type = clean(l.el.getAttribute("type"));
    const sizes = clean(l.el.getAttribute("sizes"));
    if (type) i.type = type;
    if (sizes) i.sizes = sizes;
    return i;
  };
  const uniq = <T extends { url: string }>(xs: T[]) => {
    const seen = new Set<string>();
    return xs.filter((x) => !seen.has(x.url) && !!seen.add(x.url));
  };
  const favicons: BrandPage["favicons"] = uniq(
    links.filter((l) => l.rel.includes("icon") && !l.rel.includes("mask-icon") && !l.rel.some((r) => r.startsWith("apple-touch-icon"))).map(iconOf),
  );
  if (!favicons.length) favicons.push({ url: new URL("/favicon.ico", pageUrl).href, assumed: true });
  const appleTouchIcons = uniq(links.filter((l) => l.rel.includes("apple-touch-icon") || l.rel.includes("apple-touch-icon-precomposed")).map(iconOf));
  const mask = links.find((l) => l.rel.includes("mask-icon"));
  const maskColour = mask ? parseColour(mask.el.getAttribute("color") ?? "") : null;
  const maskIcon = mask ? { url: mask.url, ...(maskColour ? { colour: maskColour.hex } : {}) } : null;
  const manifestUrl = links.find((l) => l.rel.includes("manifest"))?.url ?? null;

  // Colours the head states.
  const metaColours: MetaColour[] = [];
  for (const m of meta("theme-color")) {
    const c = parseColour(m.getAttribute("content") ?? "");
    const media = clean(m.getAttribute("media"));
    if (c) metaColours.push({ hex: c.hex, use: "theme", source: "theme-color", ...(media ? { media } : {}) });
  }
  for (const m of meta("msapplication-tilecolor")) {
    const c = parseColour(m.getAttribute("content") ?? "");
    if (c) metaColours.push({ hex: c.hex, use: "tile", source: "msapplication-TileColor" });
  }
  if (maskColour) metaColours.push({ hex: maskColour.hex, use: "mask-icon", source: "mask-icon" });

  // The page's own CSS, its same-site stylesheets and its web fonts.
  const styles = all("style").map((s) => s.textContent ?? "");
  const attrs = all("[style]").map((e) => `x{${e.getAttribute("style") ?? ""}}`);
  const inlineCss = [...styles, ...attrs].join("\n");
  const pageHost = new URL(pageUrl).hostname;
  const sheetLinks = links
    .filter((l) => l.rel.includes("stylesheet") || (l.rel.includes("preload") && (l.el.getAttribute("as") ?? "").toLowerCase() === "style"))
    .map((l) => l.url);
  const candidates = [...sheetLinks, ...importsOf(styles.join("\n"), base)];
  const isCandidate = new Set(candidates);
  const webFontLinks: WebFontLink[] = [];
  const webFontSeen = new Set<string>();
  const stylesheets: string[] = [];
  const stylesheetSeen = new Set<string>();
  const scripts = all("script[src]")
    .map((s) => abs(s.getAttribute("src")))
    .filter((u): u is string => !!u);
  for (const url of [...candidates, ...scripts]) {
    const wf = webFontLink(url);
    if (wf) {
      if (!webFontSeen.has(wf.url)) webFontSeen.add(wf.url), webFontLinks.push(wf);
    } else if (isCandidate.has(url) && !stylesheetSeen.has(url) && sameSite(new URL(url).hostname, pageHost)) stylesheetSeen.add(url), stylesheets.push(url);
  }
  const preloadedFonts = uniq(
    links.filter((l) => l.rel.includes("preload") && (l.el.getAttribute("as") ?? "").toLowerCase() === "font").map((l) => ({ url: l.url })),
  ).map((l) => l.url);

  // Social profiles: the organisation's sameAs, then the page's links (and rel=me).
  const pageLinks = [...all("a[href]"), ...all("link[rel~=me][href]")].flatMap((a) => {
    const href = abs(a.getAttribute("href"));
    return href ? [{ href, rel: (a.getAttribute("rel") ?? "").toLowerCase() }] : [];
  });
  const sameAs = jsonLd.organisations
    .flatMap((o) => o.sameAs)
    .map((s) => abs(s))
    .filter((s): s is string => !!s);
  const { socials, people } = socialsOf(sameAs, pageLinks);

  const jsonLdCompanyNumbers = jsonLd.organisations.flatMap((o) =>
    o.companyNumber && o.companyNumberQuote ? [{ number: o.companyNumber, quote: o.companyNumberQuote }] : [],
  );
  const body = document.querySelector("body");

  return {
    name,
    tagline,
    description,
    openGraph: og,
    logos: extractLogosFrom(parsed.document, pageUrl),
    favicons,
    appleTouchIcons,
    maskIcon,
    manifestUrl,
    metaColours,
    inlineCss,
    stylesheets,
    webFontLinks,
    preloadedFonts,
    socials,
    personalProfilesLeftOut: people,
    jsonLdCompanyNumbers,
    text: body ? visibleText(body) : "",
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The manifest
// ---------------------------------------------------------------------------------------------------------------

export interface Manifest {
  url: string;
  name?: string;
  shortName?: string;
  themeColour?: string;
  backgroundColour?: string;
  icons: { url: string; sizes?: string; type?: string; purpose?: string }[];
}

/** A web app manifest's brand fields; icons resolved against the manifest's URL. Throws on text that is not a JSON object. */
export function readManifest(text: string, manifestUrl: string): Manifest {
  const j = JSON.parse(text.replace(/^\uFEFF/, "")) as unknown;
  if (!j || typeof j !== "object" || Array.isArray(j)) throw new Error("the manifest is not a JSON object");
  const o = j as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && clean(v) ? clean(v) : undefined);
  const colour = (v: unknown) => (typeof v === "string" ? parseColour(v)?.hex : undefined);
  const icons = (Array.isArray(o.icons) ? o.icons : []).flatMap((i) => {
    if (!i || typeof i !== "object") return [];
    const r = i as Record<string, unknown>;
    const url = typeof r.src === "string" ? absoluteUrl(r.src, manifestUrl) : null;
    if (!url) return [];
    return [
      {
        url,
        ...(str(r.sizes) ? { sizes: str(r.sizes) } : {}),
        ...(str(r.type) ? { type: str(r.type) } : {}),
        ...(str(r.purpose) ? { purpose: str(r.purpose) } : {}),
      },
    ];
  });
  const m: Manifest = { url: manifestUrl, icons: icons.slice(0, 20) };
  if (str(o.name)) m.name = str(o.name);
  if (str(o.short_name)) m.shortName = str(o.short_name);
  if (colour(o.theme_color)) m.themeColour = colour(o.theme_color);
  if (colour(o.background_color)) m.backgroundColour = colour(o.background_color);
  return m;
}

// ---------------------------------------------------------------------------------------------------------------
// Colours
// ---------------------------------------------------------------------------------------------------------------

export type ColourSource = "theme-color" | "manifest" | "msapplication-TileColor" | "mask-icon" | "css-variable" | "rendered";
/** Source priority: what the site declares as its colour first, what the page paints last. */
export const COLOUR_SOURCES: readonly ColourSource[] = ["theme-color", "manifest", "msapplication-TileColor", "mask-icon", "css-variable", "rendered"];

export type ColourUse = "theme" | "background" | "tile" | "mask-icon" | ColourRole | RenderedColour["use"];

export interface BrandColour {
  hex: string;
  /** What the colour is for, as its first source says. */
  use: ColourUse;
  /** Its first source, by COLOUR_SOURCES priority. */
  source: ColourSource;
  /** Every source that gave this colour, in priority order. */
  sources: ColourSource[];
  /** The custom property that holds it (css-variable). */
  property?: string;
  /** The media query of a theme-color (light and dark schemes). */
  media?: string;
  /** Share of the rendered page's painted area, 0–1 (when the rendered page shows it). */
  share?: number;
}

/** A colour from one source, before merging. */
interface ColourFact {
  hex: string;
  use: ColourUse;
  source: ColourSource;
  property?: string;
  media?: string;
  share?: number;
}

const ROLE_ORDER: ColourRole[] = ["brand", "primary", "secondary", "accent", "background", "text", "link", "border", "other", "status"];

/**
 * The brand's colours, one entry per colour (#rrggbb): declared ones first (theme-color, manifest, tile colour,
 * mask-icon colour), then the CSS custom properties (brand, primary, secondary, accent … by name), then the rendered
 * page's colours by share. A colour given by several sources is listed once, under its first, with every source named.
 */
export function brandColours(input: {
  meta: MetaColour[];
  manifest: Manifest | null;
  cssProperties: { name: string; hex: string; role: ColourRole }[];
  rendered: RenderedColour[] | null;
}): BrandColour[] {
  const facts: ColourFact[] = [];
  for (const m of input.meta.filter((c) => c.source === "theme-color")) facts.push({ ...m });
  if (input.manifest?.themeColour) facts.push({ hex: input.manifest.themeColour, use: "theme", source: "manifest" });
  if (input.manifest?.backgroundColour) facts.push({ hex: input.manifest.backgroundColour, use: "background", source: "manifest" });
  for (const m of input.meta.filter((c) => c.source !== "theme-color")) facts.push({ ...m });
  const byRole = input.cssProperties
    .map((p, i) => ({ p, i }))
    .sort((a, b) => ROLE_ORDER.indexOf(a.p.role) - ROLE_ORDER.indexOf(b.p.role) || a.i - b.i)
    .map(({ p }) => p);
  const distinctCss: typeof byRole = [];
  for (const p of byRole) if (!distinctCss.some((d) => d.hex === p.hex) && distinctCss.length < MAX_CSS_VARIABLE_COLOURS) distinctCss.push(p);
  for (const p of distinctCss) facts.push({ hex: p.hex, use: p.role, source: "css-variable", property: p.name });
  const rendered = (input.rendered ?? [])
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.share - a.c.share || a.i - b.i)
    .map(({ c }) => c);
  for (const r of rendered) {
    const c = parseColour(r.hex);
    if (c) facts.push({ hex: c.hex, use: r.use, source: "rendered", share: Math.round(r.share * 1000) / 1000 });
  }

  // Sorted by source priority (stable within a source), then merged by colour.
  const ordered = facts.map((f, i) => ({ f, i })).sort((a, b) => COLOUR_SOURCES.indexOf(a.f.source) - COLOUR_SOURCES.indexOf(b.f.source) || a.i - b.i);
  const out = new Map<string, BrandColour>();
  for (const { f } of ordered) {
    const had = out.get(f.hex);
    if (!had) {
      out.set(f.hex, {
        hex: f.hex,
        use: f.use,
        source: f.source,
        sources: [f.source],
        ...(f.property ? { property: f.property } : {}),
        ...(f.media ? { media: f.media } : {}),
        ...(f.share !== undefined ? { share: f.share } : {}),
      });
      continue;
    }
    if (!had.sources.includes(f.source)) had.sources.push(f.source);
    if (f.property && !had.property) had.property = f.property;
    if (f.share !== undefined) had.share = Math.round(((had.share ?? 0) + f.share) * 1000) / 1000;
  }
  return [...out.values()].slice(0, MAX_COLOURS);
}

// ---------------------------------------------------------------------------------------------------------------
// Fonts
// ---------------------------------------------------------------------------------------------------------------

export type FontSource = "rendered" | "css" | "google-fonts" | "bunny-fonts" | "adobe-fonts" | "font-face" | "self-hosted";

export interface BrandFonts {
  /** The brand's font families, most used first (the rendered page's, then the CSS stacks', then web fonts and @font-face). Generic families left out. */
  families: { family: string; sources: FontSource[]; weights?: string[] }[];
  /** The CSS font-family stacks, most used first (at most 5). */
  stacks: FontStackUse[];
  /** The @font-face rules, one per family. */
  fontFaces: FontFace[];
  /** Web-font services and self-hosted font files the page loads. */
  webFonts: {
    provider: "google-fonts" | "bunny-fonts" | "adobe-fonts" | "self-hosted";
    url: string;
    families?: { family: string; weights: string[]; italic: boolean }[];
    kitId?: string;
  }[];
  /** The rendered page's font stacks by share of visible text; null when not rendered. */
  rendered: { family: string; primary: string; share: number }[] | null;
}

export function brandFonts(input: {
  css: string;
  sheets: { css: string; url: string }[];
  inlineBase: string;
  webFontLinks: WebFontLink[];
  preloadedFonts: string[];
  pageUrl: string;
  rendered: RenderedFont[] | null;
}): BrandFonts {
  const allCss = [input.css, ...input.sheets.map((s) => s.css)].join("\n");
  const vars = propertyMap(customProperties(allCss));
  const stacks = fontStacks(allCss, vars).slice(0, MAX_STACKS);
  const faces = [...fontFaces(input.css, input.inlineBase), ...input.sheets.flatMap((s) => fontFaces(s.css, s.url))];
  const mergedFaces: FontFace[] = [];
  for (const f of faces) {
    const had = mergedFaces.find((m) => m.family.toLowerCase() === f.family.toLowerCase());
    if (!had) mergedFaces.push({ ...f });
    else {
      for (const w of f.weights) if (!had.weights.includes(w)) had.weights.push(w);
      for (const s of f.styles) if (!had.styles.includes(s)) had.styles.push(s);
      for (const u of f.files) if (!had.files.includes(u)) had.files.push(u);
    }
  }
  const pageHost = new URL(input.pageUrl).hostname;
  const selfHosted = [...mergedFaces.flatMap((f) => f.files), ...input.preloadedFonts].filter(
    (u, i, xs) => xs.indexOf(u) === i && sameSite(new URL(u).hostname, pageHost),
  );
  const links = [...input.webFontLinks, ...input.sheets.flatMap((s) => importsOf(s.css, s.url).map(webFontLink)).filter((w): w is WebFontLink => !!w)].filter(
    (w, i, xs) => xs.findIndex((x) => x.url === w.url) === i,
  );
  const webFonts: BrandFonts["webFonts"] = [
    ...links.map((w) => ({ provider: w.provider, url: w.url, ...(w.families.length ? { families: w.families } : {}), ...(w.kitId ? { kitId: w.kitId } : {}) })),
    ...selfHosted.slice(0, 12).map((url) => ({ provider: "self-hosted" as const, url })),
  ];
  const rendered = input.rendered
    ? input.rendered
        .map((f, i) => ({ f, i, families: familiesOf(f.family) }))
        .filter((x) => x.families && !isIconFont(x.families[0]))
        .sort((a, b) => b.f.share - a.f.share || a.i - b.i)
        .slice(0, MAX_STACKS)
        .map(({ f, families }) => ({ family: families!.join(", "), primary: primaryFamily(families!), share: Math.round(f.share * 1000) / 1000 }))
    : null;

  const families = new Map<string, { family: string; sources: FontSource[]; weights?: string[] }>();
  const add = (family: string, source: FontSource, weights?: string[]) => {
    if (!family || isGenericFamily(family) || isIconFont(family)) return;
    const key = family.toLowerCase();
    const had = families.get(key) ?? { family, sources: [] };
    families.set(key, had);
    if (!had.sources.includes(source)) had.sources.push(source);
    if (weights?.length)
      had.weights = [...new Set([...(had.weights ?? []), ...weights])].sort(
        (a, b) => Number(/\d+/.exec(a)?.[0] ?? 400) - Number(/\d+/.exec(b)?.[0] ?? 400) || a.localeCompare(b),
      );
  };
  for (const r of rendered ?? []) add(r.primary, "rendered");
  for (const s of stacks) add(s.primary, "css");
  for (const w of links) for (const f of w.families) add(f.family, w.provider, f.weights);
  for (const f of mergedFaces) add(f.family, "font-face", f.weights);
  return { families: [...families.values()].slice(0, MAX_FAMILIES), stacks, fontFaces: mergedFaces, webFonts, rendered };
}

/** Same-site stylesheets @imported by the given CSS, not already listed. */
export function sameSiteImports(css: string, cssUrl: string, pageUrl: string, known: string[]): string[] {
  const host = new URL(pageUrl).hostname;
  return importsOf(css, cssUrl).filter((u) => !webFontLink(u) && sameSite(new URL(u).hostname, host) && !known.includes(u));
}

/** The colour custom properties of the page's CSS and stylesheets. */
export const cssColourProperties = (css: string, sheets: { css: string }[]) =>
  colourProperties(customProperties([css, ...sheets.map((s) => s.css)].join("\n")));

// ---------------------------------------------------------------------------------------------------------------
// The company
// ---------------------------------------------------------------------------------------------------------------

export type CompanyEvidence =
  | { kind: "none" }
  | { kind: "one"; number: string; quote: string; source: "page" | "json-ld" }
  | { kind: "several"; numbers: string[] };

/** What the site states about its company number: none, exactly one distinct number (with a quote), or several. */
export function companyEvidence(stated: { number: string; quote: string }[], jsonLd: { number: string; quote: string }[]): CompanyEvidence {
  const all = [...stated.map((s) => ({ ...s, source: "page" as const })), ...jsonLd.map((s) => ({ ...s, source: "json-ld" as const }))];
  const numbers = [...new Set(all.map((s) => s.number))];
  if (!numbers.length) return { kind: "none" };
  if (numbers.length > 1) return { kind: "several", numbers };
  return { kind: "one", ...all[0] };
}
