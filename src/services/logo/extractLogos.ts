/**
 * Logo candidates from a homepage's HTML, best first (SPEC §4.7): the page's own logo image, then the app icon,
 * then an SVG or PNG icon, and the social share image last. Pure: the caller fetches the page.
 */
import { parseHtml, walkNodes } from "../html/parse";

export interface LogoCandidate {
  url: string;
  source: "logo-image" | "app-icon" | "icon" | "social-image";
  type?: string;
  sizes?: string;
  /**
   * "dark": the site offers this one for a dark colour scheme (`media="(prefers-color-scheme: dark)"` on a <picture>'s
   * <source> around the logo, or on an icon's <link>). Such candidates come after all others, so the first choice is
   * the one a page shows by default.
   */
  theme?: "dark";
}

/** A `media` query that selects a dark colour scheme. */
const DARK_MEDIA = /prefers-color-scheme\s*:\s*dark/i;

const MAX_CANDIDATES = 10;
const TYPES_BY_EXTENSION: Record<string, string> = {
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  ico: "image/x-icon",
};

/** Lower-cased file extension of a URL's path ("" when none). */
const extensionOf = (url: string) => /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? "";

/** The largest dimension in a `sizes` attribute ("any" counts as largest, none as 0). */
function largestSize(sizes: string | undefined): number {
  if (!sizes) return 0;
  if (/\bany\b/i.test(sizes)) return Infinity;
  return Math.max(0, ...[...sizes.matchAll(/(\d+)x(\d+)/gi)].map((m) => Math.max(Number(m[1]), Number(m[2]))));
}

/** Stable sort, highest key first. */
const byDesc = <T>(items: T[], key: (t: T) => number) =>
  items
    .map((t, i) => ({ t, i, k: key(t) }))
    .sort((a, b) => b.k - a.k || a.i - b.i)
    .map((x) => x.t);

/** Every `logo` of a schema.org JSON-LD node (walking @graph, arrays and nested nodes such as `publisher`), as raw URLs. */
function jsonLdLogos(data: unknown): string[] {
  const byId = new Map<string, Record<string, unknown>>();
  const nodes: Record<string, unknown>[] = [];
  // Every object, in document order, walked with an explicit stack (JSON nested however deep cannot overflow it).
  const stack: unknown[] = [data];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      continue;
    }
    if (!v || typeof v !== "object") continue;
    const node = v as Record<string, unknown>;
    nodes.push(node);
    if (typeof node["@id"] === "string") byId.set(node["@id"], node);
    const values = Object.values(node);
    for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
  }
  const isOrganization = (n: Record<string, unknown>) =>
    [n["@type"]].flat().some((t) => typeof t === "string" && /organi[sz]ation|corporation|business|ngo|brand/i.test(t));
  const urlOf = (v: unknown, depth = 0): string[] => {
    if (typeof v === "string") return [v];
    if (Array.isArray(v)) return depth > 12 ? [] : v.flatMap((x) => urlOf(x, depth + 1));
    if (!v || typeof v !== "object") return [];
    const o = v as Record<string, unknown>;
    const ref = typeof o["@id"] === "string" && !o.url && !o.contentUrl ? byId.get(o["@id"]) : undefined; // {"@id": "#logo"}
    const target = ref ?? o;
    return [target.url ?? target.contentUrl].filter((x): x is string => typeof x === "string");
  };
  return nodes.filter(isOrganization).flatMap((n) => urlOf(n.logo));
}

/**
 * Areas of a page that show other organisations' logos: partners, accreditations, clients, sponsors,
 * awards, memberships, certifications, press mentions, and the footer's badges. A logo image there is not
 * the page's own.
 */
const BADGE_AREA =
  /partner|accredit|certif|client|customer|sponsor|award|badge|member|affiliat|supplier|trusted|as-seen|press|featured|brands|logo-?(?:wall|grid|strip|carousel|cloud)/i;

/** The little of a DOM node this module reads (linkedom's; the Workers types' `Element` is HTMLRewriter's). */
interface Node {
  nodeType: number;
  tagName: string;
  childNodes: ArrayLike<Node>;
  parentNode?: Node | null;
  getAttribute(name: string): string | null;
}

/** `footer, [role=contentinfo]` of one element. */
const isFooter = (el: Node) => el.tagName === "FOOTER" || el.getAttribute("role") === "contentinfo";
/** `header, nav, [role=banner]` of one element: the page's own header. */
const isHeader = (el: Node) => el.tagName === "HEADER" || el.tagName === "NAV" || el.getAttribute("role") === "banner";

/** What an element's ancestors say about an image in it, known from one walk down the page (no walk up per image). */
interface Context {
  /** Inside a footer (or role=contentinfo). */
  footer: boolean;
  /** Inside the page's header, nav or banner. */
  header: boolean;
  /** The nearest ancestor below <body> that is the page's header ("header") or a badge area by its id, class or label ("badge"). */
  area: "header" | "badge" | null;
  /** The nearest `a[href]`'s href. */
  href: string | null;
}

/** The page's images in document order, each with what its ancestors (and itself) say. */
function imagesOf(document: Node): { img: Node; ctx: Context }[] {
  const out: { img: Node; ctx: Context }[] = [];
  const stack: Context[] = [{ footer: false, header: false, area: null, href: null }];
  walkNodes(
    document,
    (el) => {
      if (el.nodeType !== 1) return false;
      const up = stack[stack.length - 1];
      const label = `${el.getAttribute("id") ?? ""} ${el.getAttribute("class") ?? ""} ${el.getAttribute("aria-label") ?? ""}`;
      const own: Context = {
        footer: up.footer || isFooter(el),
        header: up.header || isHeader(el),
        // An image's areas are its ancestors up to <body> (not <body> itself), nearest first: the header wins at one element.
        area: el.tagName === "BODY" ? null : isHeader(el) ? "header" : BADGE_AREA.test(label) ? "badge" : up.area,
        href: el.tagName === "A" && el.getAttribute("href") !== null ? el.getAttribute("href") : up.href,
      };
      if (el.tagName === "IMG") out.push({ img: el, ctx: { ...own, area: up.area } });
      stack.push(own);
    },
    () => void stack.pop(),
  );
  return out;
}

/** An image in another organisation's area: a footer's badges, a partners or accreditations block, or named for one. */
function inBadgeArea(img: Node, ctx: Context): boolean {
  if (ctx.footer) return true;
  if (ctx.area) return ctx.area === "badge"; // the page's own header: false
  // A lone image named for someone else ("Cyber Essentials certified logo", "partner-logo.png").
  return BADGE_AREA.test(`${img.getAttribute("alt") ?? ""} ${img.getAttribute("class") ?? ""} ${img.getAttribute("src") ?? ""}`);
}

/** Extracts logo candidates in SPEC §4.7 order; URLs absolute (against <base href>, then the page URL), deduplicated, at most 10. */
export function extractLogos(html: string, pageUrl: string): LogoCandidate[] {
  return extractLogosFrom(parseHtml(html).document, pageUrl);
}

/** extractLogos of a page already parsed (brand-kit reads the same document). */
export function extractLogosFrom(document: ReturnType<typeof parseHtml>["document"], pageUrl: string): LogoCandidate[] {
  let base = pageUrl;
  try {
    const href = document.querySelector("base[href]")?.getAttribute("href");
    if (href) base = new URL(href, pageUrl).href;
  } catch {
    /* a broken <base href> is ignored */
  }
  /** Absolute http(s) URL, or null (drops data:, javascript: and unparsable values). */
  const abs = (raw: string | null | undefined): string | null => {
    if (!raw?.trim()) return null;
    try {
      const u = new URL(raw.trim(), base);
      return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
    } catch {
      return null;
    }
  };
  const relTokens = (el: Element) => (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
  const withType = (url: string, source: LogoCandidate["source"], type?: string | null, sizes?: string | null): LogoCandidate => {
    const c: LogoCandidate = { url, source };
    const t = type || TYPES_BY_EXTENSION[extensionOf(url)];
    if (t) c.type = t;
    if (sizes) c.sizes = sizes;
    return c;
  };

  // (1) The page's own logo: <img> named "logo" (in header/nav or linking home first), then JSON-LD Organization.logo,
  // then other "logo" images (often partners' logos further down). Inline <svg> has no URL and is skipped.
  const homes = new Set([abs("/"), abs(pageUrl)]);
  const imgs = imagesOf(document as unknown as Node).flatMap(({ img, ctx }) => {
    const named = ["id", "class", "alt", "src"].some((a) => /logo/i.test(img.getAttribute(a) ?? ""));
    const url = ["src", "data-src", "data-lazy-src"].map((a) => abs(img.getAttribute(a))).find(Boolean);
    if (!named || !url || inBadgeArea(img, ctx)) return [];
    const home = homes.has(abs(ctx.href));
    // <picture><source media="(prefers-color-scheme: dark)" srcset="logo-dark.svg"><img class="logo" …></picture>
    const picture = img.parentNode?.tagName === "PICTURE" ? img.parentNode : null;
    const dark = picture
      ? Array.from(picture.childNodes).flatMap((n) => {
          if (n.nodeType !== 1 || n.tagName !== "SOURCE" || !DARK_MEDIA.test(n.getAttribute("media") ?? "")) return [];
          const first = (n.getAttribute("srcset") ?? "").trim().split(/\s+/)[0];
          const u = abs(first);
          return u ? [u] : [];
        })
      : [];
    return [{ url, prominent: ctx.header || home, dark }];
  });
  const ldLogos = [...document.querySelectorAll('script[type="application/ld+json"]')].flatMap((s) => {
    try {
      return jsonLdLogos(JSON.parse(s.textContent ?? ""));
    } catch {
      return []; // malformed JSON-LD is common; ignore it
    }
  });
  const logoImages = [
    ...imgs.filter((i) => i.prominent).map((i) => i.url),
    ...ldLogos.map(abs).filter((u): u is string => !!u),
    ...imgs.filter((i) => !i.prominent).map((i) => i.url),
  ].map((url) => withType(url, "logo-image"));
  const darkLogoImages = [...imgs.filter((i) => i.prominent), ...imgs.filter((i) => !i.prominent)].flatMap((i) =>
    i.dark.map((url) => ({ ...withType(url, "logo-image"), theme: "dark" as const })),
  );

  const links = [...document.querySelectorAll("link[rel][href]")].flatMap((el) => {
    const url = abs(el.getAttribute("href"));
    return url
      ? [{ el, url, rel: relTokens(el), type: el.getAttribute("type"), sizes: el.getAttribute("sizes"), dark: DARK_MEDIA.test(el.getAttribute("media") ?? "") }]
      : [];
  });

  // (2) App icons, largest first.
  const appIcons = byDesc(
    links.filter((l) => l.rel.includes("apple-touch-icon") || l.rel.includes("apple-touch-icon-precomposed")),
    (l) => largestSize(l.sizes ?? undefined),
  ).map((l) => withType(l.url, "app-icon", l.type, l.sizes));

  // (3) SVG or PNG icons (by type, else by extension; .ico skipped): SVG first, then PNG largest first, the monochrome mask-icon last.
  const icons = byDesc(
    links.flatMap((l) => {
      const isMask = l.rel.includes("mask-icon");
      if (!l.rel.includes("icon") && !isMask) return [];
      const type = (l.type || TYPES_BY_EXTENSION[extensionOf(l.url)] || "").toLowerCase();
      return type === "image/svg+xml" || type === "image/png" ? [{ ...l, type, isMask }] : [];
    }),
    (l) => (l.isMask ? -1 : l.type === "image/svg+xml" ? Infinity : largestSize(l.sizes ?? undefined)),
  ).map((l) => (l.dark ? { ...withType(l.url, "icon", l.type, l.sizes), theme: "dark" as const } : withType(l.url, "icon", l.type, l.sizes)));

  // (4) Social share images, last.
  const meta = (names: string[]) =>
    [...document.querySelectorAll("meta[content]")]
      .filter((m) => ["property", "name"].some((a) => names.includes((m.getAttribute(a) ?? "").toLowerCase())))
      .map((m) => abs(m.getAttribute("content")))
      .filter((u): u is string => !!u);
  const social = [...meta(["og:image", "og:image:url", "og:image:secure_url"]), ...meta(["twitter:image", "twitter:image:src"])].map((url) =>
    withType(url, "social-image"),
  );

  const seen = new Set<string>();
  const all = [...logoImages, ...darkLogoImages, ...appIcons, ...icons, ...social].filter((c) => !seen.has(c.url) && !!seen.add(c.url));
  // The dark-scheme variants after the rest (the first choice is what a page shows by default), within the limit.
  return [...all.filter((c) => !c.theme), ...all.filter((c) => c.theme)].slice(0, MAX_CANDIDATES);
}
