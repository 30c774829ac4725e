/**
 * Finding a supplier's carbon reduction plan from its homepage (issue 17 §4.2, SPEC §4.4): the links whose text or
 * address mentions a carbon reduction plan, net zero, carbon, or sustainability, best first; and telling a plan from a
 * page that only links to one (`looksLikePlan`, in carbonPlan.ts). Pure: the operation fetches the candidates, at most
 * three, and records which page the plan was found from.
 */
import { parseHTML } from "linkedom";

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
  const { document } = parseHTML(html);
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
