/**
 * A page's links and visible text, read in one pass of htmlparser2: the links classified by what they lead to
 * (privacy notice, cookie policy, terms, contact, about, accessibility statement, modern slavery statement,
 * careers, legal/imprint page), each marked as the page's own site or not and as in the footer or not; and the
 * text a reader sees, with block boundaries as newlines. Pure; no fetching.
 */
import { Parser } from "htmlparser2";
import { checkHtml } from "../html/parse";
import { siteOf } from "../net/site";

export type LinkKind = "privacy" | "cookies" | "terms" | "contact" | "about" | "accessibility" | "modernSlavery" | "careers" | "legal";

export const LINK_KINDS: readonly LinkKind[] = ["privacy", "cookies", "terms", "contact", "about", "accessibility", "modernSlavery", "careers", "legal"];

export interface PageLink {
  /** Absolute URL, without its fragment. */
  url: string;
  /** The link's words: its text, else its aria-label, title or image alt text; spaces collapsed. */
  text: string;
  /** What the link leads to, by its words and its address; empty when none of the kinds. */
  kinds: LinkKind[];
  /** On the page's own site (registrable domain, e.g. shop.example.co.uk and example.co.uk). */
  sameSite: boolean;
  /** Inside the page's footer (<footer>, role=contentinfo, or an element whose id or class names a footer). */
  inFooter: boolean;
}

export interface ReadPage {
  title: string;
  /** Visible text: no script, style, noscript, template, svg or hidden element; blocks on their own lines. */
  text: string;
  /** The footer's visible text (empty when the page has no recognisable footer). */
  footerText: string;
  /** Every http(s) link once per URL (the first with words wins), in page order. */
  links: PageLink[];
  /** Addresses of mailto: links, lower case, each once. */
  mailto: string[];
}

/** Elements whose content is never visible text. */
const SKIPPED = new Set(["script", "style", "noscript", "template", "svg", "math", "iframe", "object", "canvas", "select", "head", "title"]);
/** Elements whose <title> is not the document's. */
const NOT_DOCUMENT = new Set(["svg", "math", "template"]);
/** Elements that start a new line in the rendered text. */
const BLOCK = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "thead",
  "tfoot",
  "tr",
  "ul",
  "br",
  "option",
]);
/** Cells: a separator, not a new line. */
const CELL = new Set(["td", "th"]);
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

const FOOTER_HINT = /(?:^|[\s_-])(?:site-?|page-?|global-?|main-?)?footer(?:$|[\s_-])|(?:^|\s)(?:colophon|legal-?bar|bottom-?bar)(?:$|\s)/i;

const hidden = (attrs: Record<string, string>) =>
  "hidden" in attrs || attrs["aria-hidden"] === "true" || /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(attrs.style ?? "");

/** Collapses a text block: spaces within lines, blank lines dropped. */
function tidy(raw: string): string {
  return raw
    .split("\n")
    .map((l) => l.replace(/[ \t\f\r\u00a0\u2000-\u200b\u202f\u205f\u3000]+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}

interface Frame {
  tag: string;
  skip: boolean;
  footer: boolean;
  link: number | null;
  /** Inside an SVG, MathML or template (whose <title> is not the document's). */
  notDocument: boolean;
}

/**
 * Reads a page: title, visible text, footer text and links. `baseUrl` is the page's address (after redirects);
 * a <base href> in the page is honoured. The page is read within the HTML limits (services/html/parse.ts: 422
 * `unreadable_input` beyond them), and in constant work per tag.
 */
export function readPage(html: string, baseUrl: string): ReadPage {
  checkHtml(html);
  let base: URL | null = null;
  try {
    base = new URL(baseUrl);
  } catch {
    base = null;
  }
  const pageSite = base ? siteOf(base.hostname) : "";
  const stack: Frame[] = [];
  /** How many of each element are open (an end tag with none open is ignored without searching the stack). */
  const open = new Map<string, number>();
  let text = "";
  let footer = "";
  let title = "";
  let inTitle = false;
  let titleSeen = false;
  let baseSeen = false;
  const raw: { href: string; words: string; label: string; inFooter: boolean }[] = [];
  const top = () => stack.at(-1);
  const skipping = () => top()?.skip ?? false;
  const inFooter = () => top()?.footer ?? false;
  const add = (s: string) => {
    text += s;
    if (inFooter()) footer += s;
    const l = top()?.link;
    if (l != null) raw[l].words += s;
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const parent = top();
        // The document's title, as a browser's document.title: the first <title>, which sits in <head> (itself
        // skipped as text, so the skip flag cannot decide this), never an SVG's, MathML's or a template's.
        if (name === "title" && !titleSeen && !(parent?.notDocument ?? false)) {
          inTitle = true;
          titleSeen = true;
        }
        if (name === "base" && !baseSeen && attrs.href && base) {
          baseSeen = true;
          try {
            base = new URL(attrs.href, base);
          } catch {
            // ignored: an unparsable <base> leaves the page's own address
          }
        }
        const skip = (parent?.skip ?? false) || SKIPPED.has(name) || hidden(attrs);
        const footerHere =
          (parent?.footer ?? false) ||
          name === "footer" ||
          attrs.role === "contentinfo" ||
          FOOTER_HINT.test(attrs.id ?? "") ||
          FOOTER_HINT.test(attrs.class ?? "");
        let link = parent?.link ?? null;
        if (name === "a" && attrs.href && !skip) {
          raw.push({ href: attrs.href, words: "", label: attrs["aria-label"] || attrs.title || "", inFooter: footerHere });
          link = raw.length - 1;
        }
        if (name === "img" && link != null && !skip && attrs.alt) raw[link].label ||= attrs.alt;
        if (!VOID.has(name)) {
          stack.push({ tag: name, skip, footer: footerHere, link, notDocument: (parent?.notDocument ?? false) || NOT_DOCUMENT.has(name) });
          open.set(name, (open.get(name) ?? 0) + 1);
        }
        if (skip) return;
        if (BLOCK.has(name)) {
          text += "\n";
          if (footerHere) footer += "\n";
        } else if (CELL.has(name)) add(" \t ");
      },
      ontext(data) {
        if (inTitle) title += data;
        if (!skipping()) add(data);
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
        if (VOID.has(name)) {
          if (name === "br" || name === "hr") {
            if (!skipping()) add("\n");
          }
          return;
        }
        // Pop to the matching element (htmlparser2 closes implied ends itself; this keeps the stack right regardless).
        if (!open.get(name)) return;
        let i = stack.length - 1;
        while (i >= 0 && stack[i].tag !== name) i--;
        if (i < 0) return;
        const frame = stack[i];
        for (let j = i; j < stack.length; j++) open.set(stack[j].tag, open.get(stack[j].tag)! - 1);
        stack.length = i;
        if (!frame.skip && BLOCK.has(name)) {
          text += "\n";
          if (frame.footer) footer += "\n";
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  const seen = new Map<string, PageLink>();
  const mailto = new Set<string>();
  for (const r of raw) {
    const href = r.href.trim();
    const mail = /^mailto:([^?]+)/i.exec(href);
    if (mail) {
      for (const a of decodeURIComponentSafe(mail[1]).split(",")) if (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(a.trim())) mailto.add(a.trim().toLowerCase());
      continue;
    }
    if (!base || /^(?:javascript|mailto|tel|sms|data|blob|about):/i.test(href) || href.startsWith("#")) continue;
    let u: URL;
    try {
      u = new URL(href, base);
    } catch {
      continue;
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") continue;
    u.hash = "";
    const words = tidy(r.words).replace(/\n/g, " ") || r.label.replace(/\s+/g, " ").trim();
    const prior = seen.get(u.href);
    if (prior) {
      if (!prior.text && words) prior.text = words;
      if (prior.text && !prior.kinds.length) prior.kinds = classifyLink(prior.text, u.href);
      prior.inFooter ||= r.inFooter;
      continue;
    }
    seen.set(u.href, { url: u.href, text: words, kinds: classifyLink(words, u.href), sameSite: siteOf(u.hostname) === pageSite, inFooter: r.inFooter });
  }
  return { title: title.replace(/\s+/g, " ").trim(), text: tidy(text), footerText: tidy(footer), links: [...seen.values()], mailto: [...mailto] };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The visible text of an HTML page: no script, style, noscript, template or hidden element; blocks as newlines. */
export function visibleText(html: string): string {
  return readPage(html, "https://page.invalid/").text;
}

/** Every http(s) link of a page, classified (see readPage). */
export function pageLinks(html: string, baseUrl: string): PageLink[] {
  return readPage(html, baseUrl).links;
}

/**
 * How to recognise each kind, by the link's words and by its address (path and file name). The words decide
 * first: a link reading "Privacy" to /legal#privacy is a privacy link; an unlabelled icon link is judged by its
 * address alone.
 */
const BY_WORDS: Record<LinkKind, RegExp> = {
  privacy:
    /\bprivacy\b|\bdata\s+protection\b|\bgdpr\b|\bfair\s+processing\b|\bpersonal\s+(?:data|information)\b|\bhow\s+we\s+use\s+your\s+(?:data|information)\b|\bpreifatrwydd\b/i,
  cookies: /\bcookies?\b|\bcwcis\b/i,
  terms: /\bterms\b|\bconditions\b|\bt\s*&\s*c'?s?\b|\bt\s*'?s\s*(?:&|and)\s*c'?s\b|\btelerau\b|\buser\s+agreement\b|\bcustomer\s+agreement\b/i,
  contact:
    /\bcontact\b|\bget\s+in\s+touch\b|\bfind\s+us\b|\benquir(?:y|ies|e)\b|\binquir(?:y|ies|e)\b|\bcysylltu\b|\bcysylltwch\b|\bwhere\s+to\s+find\s+us\b|\bour\s+(?:offices?|locations?)\b/i,
  about: /\babout\b|\bwho\s+we\s+are\b|\bour\s+(?:story|company|history|team)\b|\bcompany\s+(?:info|information|details)\b|\bamdanom\b/i,
  accessibility: /\baccessibility\b|\bhygyrchedd\b/i,
  modernSlavery: /\bmodern[\s-]+slavery\b|\banti[\s-]*slavery\b|\bslavery\b|\bhuman\s+trafficking\b/i,
  careers: /\bcareers?\b|\bjobs?\b|\bvacanc(?:y|ies)\b|\bwork\s+(?:for|with)\s+us\b|\bjoin\s+(?:us|our\s+team|the\s+team)\b|\brecruitment\b|\bswyddi\b/i,
  legal:
    /\blegal\b|\bimprint\b|\bimpressum\b|\bdisclaimer\b|\bcorporate\s+information\b|\bcompany\s+information\b|\bsite\s+notice\b|\bregulatory\s+information\b|\bstatutory\s+information\b|\bcompliance\b/i,
};

const BY_PATH: Record<LinkKind, RegExp> = {
  privacy: /privacy|data-?protection|gdpr|fair-?processing|datenschutz/i,
  cookies: /cookie/i,
  terms: /terms|conditions|\bt-?and-?c|\btandc|\btcs\b|\btos\b|\bgtc\b/i,
  contact: /contact|get-?in-?touch|find-?us|enquir/i,
  about: /about|who-?we-?are|our-?story|company-?info/i,
  accessibility: /accessibility|\ba11y\b/i,
  modernSlavery: /slavery|trafficking|\bmsa\b|\bmss\b/i,
  careers: /careers?|jobs|vacanc|recruit|work-?(?:for|with)-?us/i,
  legal: /legal|imprint|impressum|disclaimer|corporate-?information|company-?information|statutory|regulatory/i,
};

/** Kinds whose words are specific enough to trust in a long link text. */
const SPECIFIC = new Set<LinkKind>(["privacy", "cookies", "accessibility", "modernSlavery"]);

/** The kinds a link is, from its words and its URL (path and query only: the host name says nothing). */
export function classifyLink(text: string, url: string): LinkKind[] {
  let path = "";
  try {
    const u = new URL(url);
    path = decodeURIComponent(u.pathname + u.search).toLowerCase();
  } catch {
    path = url.toLowerCase();
  }
  const words = text.trim();
  // Long link words (a headline, "Learn more about our services") name a notice only when they say so outright.
  const long = words.split(/\s+/).length > 6;
  const kinds = LINK_KINDS.filter((k) => (words ? (!long || SPECIFIC.has(k)) && BY_WORDS[k].test(words) : false));
  if (kinds.length) {
    // "Privacy & cookies" is both; "Terms" under /privacy is still terms by its words. The address adds a kind the
    // words only hint at: "Cookie settings" to /privacy-and-cookie-policy is also privacy.
    for (const k of LINK_KINDS)
      if (!kinds.includes(k) && (k === "privacy" || k === "cookies") && kinds.some((x) => x === "privacy" || x === "cookies") && BY_PATH[k].test(path))
        kinds.push(k);
  } else {
    // No telling words (an icon, "Read more", "Click here"): judge by the address.
    for (const k of LINK_KINDS) if (BY_PATH[k].test(path)) kinds.push(k);
  }
  // Careers pages mention "about" or "contact" in passing; a careers link is not the contact page.
  if (kinds.includes("careers")) return kinds.filter((k) => k !== "contact" && k !== "about");
  return LINK_KINDS.filter((k) => kinds.includes(k));
}

/** The order in which legal pages are worth reading: contact and about pages carry the address, then the notices. */
const FOLLOW_ORDER: LinkKind[] = ["contact", "legal", "privacy", "terms", "about", "cookies"];

/**
 * The same-site links most likely to be the site's legal pages, at most `max`, one per kind in FOLLOW_ORDER,
 * footer links preferred, never the page itself. PDFs and other files are left out (they are not pages).
 */
export function legalPagesToFollow(links: PageLink[], pageUrl: string, max = 5): { url: string; kind: LinkKind }[] {
  let self = pageUrl;
  try {
    const u = new URL(pageUrl);
    u.hash = "";
    self = u.href;
  } catch {
    // keep as given
  }
  const candidates = links.filter(
    (l) => l.sameSite && l.url !== self && !/\.(?:pdf|docx?|xlsx?|pptx?|zip|jpe?g|png|gif|webp|svg|mp4|mp3)(?:$|\?)/i.test(l.url),
  );
  const out: { url: string; kind: LinkKind }[] = [];
  const taken = new Set<string>();
  for (const kind of FOLLOW_ORDER) {
    if (out.length >= max) break;
    const of = candidates.filter((l) => l.kinds.includes(kind) && !taken.has(l.url));
    const best = of.find((l) => l.inFooter) ?? of[0];
    if (!best) continue;
    taken.add(best.url);
    out.push({ url: best.url, kind });
  }
  return out;
}
