/**
 * What a business's own website says, for enrichment (issue 18 §1–2): the identity evidence the matching rules
 * read (company numbers stated in the text or the organisation's JSON-LD, postcodes), and what the business does in
 * its own words (the meta description, the homepage's headings, the short items listed under a heading about its
 * services or products). Pure: the pages are fetched by the operation. Quotes are short and people's names are
 * never taken: headings and items that read like a person's name are left out.
 */
import { parseHtml, walkNodes } from "../html/parse";
import { looksLikePerson } from "../matching/people";
import { readBrandPage } from "../web/brandKit";
import { scrubPeople, statedAddresses, statedCompanyNumbers } from "../web/disclosures";
import type { ReadPage } from "../web/siteLinks";
import type { SiteEvidence } from "./identity";
import type { SiteFacts } from "./types";

/** One page read: its address (after redirects), its kind (home, contact, terms…) and what readPage found. */
export interface SitePage extends ReadPage {
  url: string;
  kind: string;
}

interface El {
  nodeType: number;
  tagName: string;
  textContent: string | null;
  childNodes: ArrayLike<El>;
  parentElement: El | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<El>;
}

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
const OFFERING_HEADING =
  /\b(?:services?|what we do|our work|products?|solutions?|expertise|specialis(?:e|ms?)|practice areas?|sectors?|capabilities|we offer|how we (?:can )?help|treatments?|courses?|menu)\b/i;
const NAV_WORDS =
  /^(?:home|about(?: us)?|contact(?: us)?|blog|news|careers|jobs|login|log in|sign in|sign up|privacy(?: policy)?|cookies?(?: policy)?|terms.*|faqs?|search|menu|shop|cart|basket|accessibility|sitemap|read more|learn more|find out more|get in touch|book now|call us|email us|back to top)$/i;
const MAX_OFFERINGS = 12;
const MAX_HEADINGS = 20;
/** Sections (a heading about services and its section) read for offerings at most: a homepage has a few. */
const MAX_OFFERING_SECTIONS = 20;

/** "nav, footer, header nav, [role=navigation], [role=contentinfo], script, style, template" of one element. */
const isChrome = (el: El) =>
  /^(?:NAV|FOOTER|SCRIPT|STYLE|TEMPLATE)$/.test(el.tagName) || el.getAttribute("role") === "navigation" || el.getAttribute("role") === "contentinfo";

/** A short phrase fit to list as something the business offers. */
function offeringOf(raw: string): string | null {
  const t = clean(raw).replace(/[:\s]+$/, "");
  if (t.length < 3 || t.length > 60 || t.split(" ").length > 8) return null;
  if (NAV_WORDS.test(t) || /[@©]|https?:|\d{5,}|^\+?\d/.test(t)) return null;
  if (looksLikePerson(t, "standalone")) return null;
  return t;
}

/** Headings (h1–h3) and the items listed under a heading about services or products, in page order. */
export function offeringsOf(html: string): { headings: string[]; offerings: string[] } {
  const { document } = parseHtml(html) as unknown as { document: El };
  // One walk down the page: the elements in chrome (themselves or inside it), and each heading's section (its nearest
  // section, article or div) — no walk up per element.
  const chrome = new Set<El>();
  const sectionOf = new Map<El, El | null>();
  const stack: { chrome: boolean; section: El | null }[] = [{ chrome: false, section: null }];
  walkNodes(
    document,
    (el) => {
      if (el.nodeType !== 1) return false;
      const up = stack[stack.length - 1];
      const inside = up.chrome || isChrome(el);
      if (inside) chrome.add(el);
      if (/^H[1-4]$/.test(el.tagName)) sectionOf.set(el, up.section);
      stack.push({ chrome: inside, section: /^(?:SECTION|ARTICLE|DIV)$/.test(el.tagName) ? el : up.section });
    },
    () => void stack.pop(),
  );
  const inChrome = (el: El) => chrome.has(el);
  const headings: string[] = [];
  for (const h of Array.from(document.querySelectorAll("h1, h2, h3"))) {
    if (inChrome(h)) continue;
    const t = clean(h.textContent);
    if (t && t.length <= 120 && !looksLikePerson(t, "standalone") && !headings.includes(t)) headings.push(t);
    if (headings.length >= MAX_HEADINGS) break;
  }
  const offerings: string[] = [];
  const add = (t: string | null) => {
    if (t && !offerings.some((o) => o.toLowerCase() === t.toLowerCase()) && offerings.length < MAX_OFFERINGS) offerings.push(t);
  };
  // Each section is read once per heading level (a second heading about services in it would add nothing new).
  const read = new Set<string>();
  const scopes = new Map<El, number>();
  for (const h of Array.from(document.querySelectorAll("h1, h2, h3, h4"))) {
    if (offerings.length >= MAX_OFFERINGS) break;
    if (inChrome(h) || !OFFERING_HEADING.test(clean(h.textContent))) continue;
    // The list or the sub-headings that follow the heading, within its section.
    const scope = sectionOf.get(h) ?? h.parentElement;
    if (!scope) continue;
    const level = Number(h.tagName.slice(1));
    if (!scopes.has(scope)) {
      if (scopes.size >= MAX_OFFERING_SECTIONS) continue;
      scopes.set(scope, scopes.size);
    }
    // The section's list items are the same for every heading in it; its sub-headings depend on the heading's level.
    const key = `${scopes.get(scope)}:${level}`;
    if (read.has(key)) continue;
    if (!read.has(`${scopes.get(scope)}`))
      for (const li of Array.from(scope.querySelectorAll("li"))) {
        if (offerings.length >= MAX_OFFERINGS) break;
        if (!inChrome(li)) add(offeringOf(li.textContent ?? ""));
      }
    read.add(key).add(`${scopes.get(scope)}`);
    for (const sub of Array.from(scope.querySelectorAll("h2, h3, h4, h5"))) {
      if (offerings.length >= MAX_OFFERINGS) break;
      if (sub !== h && Number(sub.tagName.slice(1)) > level) add(offeringOf(sub.textContent ?? ""));
    }
  }
  return { headings, offerings };
}

/**
 * The site's facts and identity evidence from its homepage HTML and the pages read (homepage first). Numbers come
 * from the labelled statements of every page and from the homepage's organisation JSON-LD.
 */
export function readSite(host: string, homeHtml: string, pages: SitePage[]): { facts: SiteFacts; evidence: SiteEvidence } {
  const home = pages[0];
  const brand = readBrandPage(homeHtml, home.url);
  const { headings, offerings } = offeringsOf(homeHtml);
  const numbers: SiteEvidence["numbers"] = [];
  const postcodes: SiteEvidence["postcodes"] = [];
  for (const p of pages) {
    // The footer first: it is where a business states its own number.
    for (const n of [...statedCompanyNumbers(p.footerText), ...statedCompanyNumbers(p.text)])
      if (!numbers.some((x) => x.number === n.number)) numbers.push({ number: n.number, quote: scrubPeople(n.quote), url: p.url });
    for (const a of statedAddresses(p.text))
      if (!postcodes.some((x) => x.postcode === a.postcode))
        postcodes.push({ postcode: a.postcode, quote: scrubPeople(a.quote), url: p.url, registeredOffice: a.registeredOffice });
  }
  for (const j of brand.jsonLdCompanyNumbers)
    if (!numbers.some((x) => x.number === j.number)) numbers.push({ number: j.number, quote: j.quote, url: home.url });
  const careers = pages.flatMap((p) => p.links).find((l) => l.sameSite && l.kinds.includes("careers")) ?? null;
  const text = pages.map((p) => p.text).join("\n");
  const ownText = pages.map((p) => (p.kind === "home" ? p.footerText : `${p.footerText}\n${p.text}`)).join("\n");
  const description = brand.description ?? brand.openGraph.description ?? null;
  return {
    facts: {
      url: home.url,
      title: home.title,
      description: description ? clean(description) : null,
      siteName: brand.name?.value ?? null,
      headings,
      offerings,
      text,
      careersUrl: careers?.url ?? null,
      pagesRead: pages.map((p) => ({ url: p.url, kind: p.kind })),
    },
    evidence: { host, text, ownText, numbers, postcodes },
  };
}
