/**
 * A document as the readers see it: headings and blocks of text, each with the page it is on (PDF) — from HTML
 * (linkedom, within the HTML limits of services/html/parse.ts) or from a PDF's pages. Pure: the bytes are fetched
 * and the PDF opened at the edge (sources/documents).
 */
import { parseHtml, walkNodes } from "../html/parse";

export interface Block {
  kind: "heading" | "text";
  /** 1–6 for a heading (HTML's own level; a PDF's headings are 2). */
  level?: number;
  text: string;
  /** The PDF page (1-based); absent for HTML and text. */
  page?: number;
}

/** Elements whose content is never the document's: navigation, chrome, scripts, forms. */
const DROP = "script, style, noscript, template, svg, canvas, iframe, nav, aside, form, button, select, [role=navigation], [role=search], [aria-hidden=true], [hidden]";
const BLOCK = new Set(["P", "LI", "TD", "TH", "DD", "DT", "BLOCKQUOTE", "PRE", "FIGCAPTION", "CAPTION", "ADDRESS", "DIV", "SECTION", "ARTICLE", "MAIN", "TABLE", "TR", "UL", "OL", "DL", "BODY", "HR", "BR"]);
const HEADING = /^H([1-6])$/;

/** The little of a DOM node this module reads (linkedom's; the Workers types' `Element` is HTMLRewriter's). */
interface DomNode {
  nodeType: number;
  tagName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute(name: string): string | null;
  remove(): void;
}

const clean = (s: string) => s.replace(/[\s\u00a0]+/g, " ").trim();

/** Page chrome when it is not inside the main content ("header, footer, [role=banner], [role=contentinfo]"), tested on one element. */
const isChrome = (el: DomNode) => el.tagName === "HEADER" || el.tagName === "FOOTER" || el.getAttribute("role") === "banner" || el.getAttribute("role") === "contentinfo";
/** The main content ("main, article, [role=main]"), tested on one element. */
const isMain = (el: DomNode) => el.tagName === "MAIN" || el.tagName === "ARTICLE" || el.getAttribute("role") === "main";

/**
 * The HTML document's title and its blocks, navigation, header and footer chrome, scripts and forms dropped. The page
 * is parsed within the HTML limits (services/html/parse.ts: 422 beyond them) and walked iteratively.
 */
export function htmlBlocks(html: string): { title: string; blocks: Block[] } {
  const { document } = parseHtml(html);
  const title = clean(document.querySelector("title")?.textContent ?? "");
  for (const el of [...document.querySelectorAll(DROP)]) el.remove();
  // Chrome outside the main content, found in one walk (an element's `closest` per element is a walk up per element).
  const chrome: DomNode[] = [];
  let inMain = 0;
  walkNodes(
    document as unknown as DomNode,
    (node) => {
      if (node.nodeType !== 1) return false;
      if (isMain(node)) inMain++;
      if (!inMain && isChrome(node)) {
        chrome.push(node); // removed with everything in it
        return false;
      }
    },
    (node) => {
      if (isMain(node)) inMain--;
    },
  );
  for (const el of chrome) el.remove();
  const root = document.querySelector("main, [role=main]") ?? document.body ?? document.documentElement;
  const blocks: Block[] = [];
  let line = "";
  const flush = () => {
    const t = clean(line);
    if (t) blocks.push({ kind: "text", text: t });
    line = "";
  };
  if (root)
    walkNodes(
      root as unknown as DomNode,
      (el) => {
        if (el.nodeType === 3) {
          line += el.textContent ?? "";
          return false;
        }
        if (el.nodeType !== 1) return false;
        const h = HEADING.exec(el.tagName);
        if (h) {
          flush();
          const t = clean(el.textContent ?? "");
          if (t) blocks.push({ kind: "heading", level: Number(h[1]), text: t });
          return false;
        }
        if (BLOCK.has(el.tagName)) flush();
      },
      (el) => {
        if (BLOCK.has(el.tagName)) flush();
      },
    );
  flush();
  return { title, blocks };
}

/**
 * A PDF's pages as blocks. A line is a heading when it is short, does not end a sentence, is followed by text, and is
 * numbered ("2.", "3.1", "Section 4") or mostly capitalised words; other lines are joined into paragraphs, a blank
 * line or a heading ending one.
 */
export function pdfBlocks(pages: string[]): Block[] {
  const blocks: Block[] = [];
  const running = runningLines(pages);
  pages.forEach((pageText, i) => {
    const page = i + 1;
    const lines = pageText
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => !running.has(shapeOf(l)));
    let para: string[] = [];
    const flush = () => {
      const t = clean(para.join(" ").replace(/(\w)- (\w)/g, "$1$2"));
      if (t) blocks.push({ kind: "text", text: t, page });
      para = [];
    };
    lines.forEach((l, k) => {
      if (!l) return flush();
      if (isHeadingLine(l, lines[k + 1] ?? "", k === 0 ? "" : lines[k - 1])) {
        flush();
        blocks.push({ kind: "heading", level: 2, text: clean(l), page });
        return;
      }
      // A bullet starts its own block: each item is read as its own sentence(s).
      if (/^[•▪●◦■\-–*]\s/.test(l) || /^\(?[a-z0-9]{1,2}[).]\s+\p{Lu}/u.test(l)) flush();
      para.push(l);
    });
    flush();
  });
  return blocks;
}

/** A line with its digits generalised: "Inspection report: X, 9–10 February 2016 2 of 10" matches on every page. */
const shapeOf = (line: string) => line.replace(/\d+/g, "#").replace(/\s+/g, " ").trim().toLowerCase();

/** Running headers and footers: the same line (digits aside) on at least half the pages of a document of three or more. */
function runningLines(pages: string[]): Set<string> {
  if (pages.length < 3) return new Set();
  const counts = new Map<string, number>();
  for (const p of pages) for (const shape of new Set(p.split("\n").map(shapeOf).filter(Boolean))) counts.set(shape, (counts.get(shape) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n >= Math.max(3, pages.length / 2)).map(([shape]) => shape));
}

export function isHeadingLine(line: string, next: string, previous: string): boolean {
  if (line.length > 90 || line.length < 3 || /[.,;:]$/.test(line) || !next) return false;
  if (/^\d{1,3}$/.test(line) || /^page \d+/i.test(line)) return false; // page numbers
  // A table row or a labelled value ("Scope 2 0", "Total Emissions 3.06", "Baseline Year: 1 October 2025"), not a heading.
  if ((/\d[\d,.]*%?$/.test(line) && !/\b(19|20)\d{2}$/.test(line)) || /\S: \S/.test(line)) return false;
  const numbered = /^(?:\d{1,2}(?:\.\d{1,2})*[.)]?|section \d+[:.]?|part [a-z0-9]+[:.]?)\s+\p{Lu}/iu.test(line);
  const words = line.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  if (!words.length || words.length > (numbered ? 10 : 12)) return false;
  const small = new Set(["and", "or", "of", "the", "in", "on", "for", "to", "a", "an", "our", "with", "by", "at", "as", "its"]);
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w) || small.has(w.toLowerCase())).length / words.length;
  const upper = line === line.toUpperCase() && /\p{Lu}{3}/u.test(line);
  if (numbered || upper || (capitalised >= 0.85 && words.length <= 8 && /^\p{Lu}/u.test(line))) return true;
  // A sentence-case heading (GOV.UK style: "Full report", "What does the school need to do to improve further?"):
  // short, capitalised, after a paragraph has ended, and followed by a new sentence or a bullet.
  const afterParagraph = !previous || /[.:!?]$/.test(previous);
  const nextStarts = /^[\p{Lu}\d•▪●–\-]/u.test(next) || /^\W\s*\p{Lu}/u.test(next);
  return afterParagraph && nextStarts && /^\p{Lu}/u.test(line) && words.length <= 10 && !/[.!]$/.test(line);
}
