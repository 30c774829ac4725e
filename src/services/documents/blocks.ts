/**
 * A document as the readers see it: headings and blocks of text, each with the page it is on (PDF) — from HTML
 * (one streaming pass of htmlparser2's Parser, within the characters and depth limits of services/html/parse.ts) or
 * from a PDF's pages. Pure: the bytes are fetched and the PDF opened at the edge (sources/documents).
 */
import { Parser } from "htmlparser2";
import { checkHtmlDepth, checkHtmlLength } from "../html/parse";

export interface Block {
  kind: "heading" | "text";
  /** 1–6 for a heading (HTML's own level; a PDF's headings are 2). */
  level?: number;
  text: string;
  /** The PDF page (1-based); absent for HTML and text. */
  page?: number;
}

/** Elements whose content is never the document's: navigation, chrome, scripts, forms (and, by their attributes, `isDropped`). */
const DROP = new Set(["script", "style", "noscript", "template", "svg", "canvas", "iframe", "nav", "aside", "form", "button", "select"]);
const BLOCK = new Set([
  "p",
  "li",
  "td",
  "th",
  "dd",
  "dt",
  "blockquote",
  "pre",
  "figcaption",
  "caption",
  "address",
  "div",
  "section",
  "article",
  "main",
  "table",
  "tr",
  "ul",
  "ol",
  "dl",
  "body",
  "hr",
  "br",
]);
const HEADING = /^h([1-6])$/;

type Attributes = Record<string, string>;
const has = (a: Attributes, name: string) => Object.hasOwn(a, name);
const attr = (a: Attributes, name: string) => (has(a, name) ? a[name] : null);

const clean = (s: string) => s.replace(/[\s\u00a0]+/g, " ").trim();

/** Dropped with everything in it: DROP's tags, and "[role=navigation], [role=search], [aria-hidden=true], [hidden]" (names and values as written). */
const isDropped = (tag: string, a: Attributes) =>
  DROP.has(tag) || attr(a, "role") === "navigation" || attr(a, "role") === "search" || attr(a, "aria-hidden") === "true" || has(a, "hidden");
/** Page chrome when it is not inside the main content ("header, footer, [role=banner], [role=contentinfo]"). */
const isChrome = (tag: string, a: Attributes) => tag === "header" || tag === "footer" || attr(a, "role") === "banner" || attr(a, "role") === "contentinfo";
/** The main content ("main, article, [role=main]"): chrome inside it is kept. */
const isMain = (tag: string, a: Attributes) => tag === "main" || tag === "article" || attr(a, "role") === "main";

/** The blocks of one candidate root's content (the first main element's, or the body's), collected as the page streams. */
class Collector {
  blocks: Block[] = [];
  line = "";
  /** Characters of the blocks kept, joined by line breaks (as the document's text joins them). */
  chars = 0;
  /** Past the caller's budget: nothing more is kept (the blocks after it would be cut anyway). */
  full = false;
  constructor(private readonly maxChars: number) {}
  push(b: Block) {
    if (this.full) return;
    this.blocks.push(b);
    this.chars += b.text.length + (this.blocks.length > 1 ? 1 : 0);
    if (this.chars > this.maxChars) this.full = true;
  }
  /** Open while the root is open. */
  active = false;
  /** The stack depth of the heading being read (its text only), or -1. */
  heading = -1;
  level = 0;
  headingText = "";
  flush() {
    const t = this.full ? "" : clean(this.line);
    if (t) this.push({ kind: "text", text: t });
    this.line = "";
  }
}

interface Open {
  tag: string;
  /** A kept element (not dropped, not chrome, not inside either). */
  kept: boolean;
  main: boolean;
  /** The collectors whose root this element is. */
  roots: Collector[] | null;
}

/**
 * The HTML document's title and its blocks, navigation, header and footer chrome, scripts and forms dropped, read in
 * one pass of htmlparser2's Parser (the parser linkedom builds its DOM with, with its options: the same elements,
 * implied closes and text), building no DOM: memory grows with the text kept, not with the elements. What it reads is
 * what the DOM walk read: the first `<title>`'s text (anywhere); DROP's elements and their content skipped; chrome
 * skipped unless inside main/article/[role=main]; the root is the first kept `main` or `[role=main]`, else the body as
 * linkedom finds it (the first kept element's first element child when BODY, or its second after a HEAD; else none);
 * headings h1–h6 are heading blocks of their text, BLOCK elements end lines (the root's own tag does not). Limits:
 * the characters and the depth of open elements (services/html/parse.ts; 422 beyond); the elements and parts limits,
 * which bound a DOM, do not apply.
 */
export function htmlBlocks(html: string, maxChars = Infinity): { title: string; blocks: Block[] } {
  checkHtmlLength(html);
  const stack: Open[] = [];
  /** The stack depth where a dropped or chrome element opened (its content skipped), or -1. */
  let skipFrom = -1;
  let inMain = 0;
  let inTemplate = 0;
  let depth = 0;
  let title = "";
  /** The stack depth of the first <title> while it is open; -1 before, -2 after. */
  let titleAt = -1;
  let cdata = false;
  /** The first kept top-level element (linkedom's documentElement), and how many kept element children it has had. */
  let docEl: Open | null = null;
  let docKids = 0;
  let firstKidHead = false;
  // `maxChars`: the characters the caller reads at most (documents: MAX_DOC_CHARS). Blocks are kept until their text
  // passes it, the block that crosses it included, so the caller cuts exactly where it would have with every block;
  // a page of several MiB of text no longer holds all of it (twice, with main and body) to keep a million characters.
  const main = new Collector(maxChars);
  const body = new Collector(maxChars);
  let mainFound = false;
  let bodyFound = false;
  const active = () => [main, body].filter((c) => c.active);

  const parser = new Parser(
    {
      onopentagname() {
        checkHtmlDepth(++depth);
      },
      onopentag(name, attributes) {
        const tag = name.toLowerCase();
        const at = stack.length;
        if (tag === "template") inTemplate++;
        // (linkedom keeps a <template>'s content apart from the document: a title there is not the page's)
        if (titleAt === -1 && tag === "title" && !inTemplate) titleAt = at;
        if (skipFrom >= 0) {
          stack.push({ tag, kept: false, main: false, roots: null });
          return;
        }
        const isMainEl = isMain(tag, attributes);
        if (isDropped(tag, attributes) || (!inMain && !isMainEl && isChrome(tag, attributes))) {
          skipFrom = at;
          stack.push({ tag, kept: false, main: false, roots: null });
          return;
        }
        const open: Open = { tag, kept: true, main: isMainEl, roots: null };
        if (isMainEl) inMain++;
        // Entering: for the collectors already open, a heading starts, or a block ends the line.
        for (const c of active()) {
          if (c.heading >= 0) continue;
          const h = HEADING.exec(tag);
          if (h) {
            c.flush();
            c.heading = at;
            c.level = Number(h[1]);
            c.headingText = "";
          } else if (BLOCK.has(tag)) c.flush();
        }
        // The roots: linkedom's body, and the first main.
        if (at === 0 && !docEl) docEl = open;
        else if (at === 1 && stack[0] === docEl) {
          const k = docKids++;
          if (k === 0) firstKidHead = tag === "head";
          if (tag === "body" && (k === 0 || (k === 1 && firstKidHead))) {
            bodyFound = body.active = true;
            (open.roots ??= []).push(body);
          }
        }
        if (!mainFound && (tag === "main" || attr(attributes, "role") === "main")) {
          mainFound = main.active = true;
          (open.roots ??= []).push(main);
        }
        stack.push(open);
      },
      ontext(text) {
        if (titleAt >= 0) title += text;
        if (skipFrom >= 0) return;
        for (const c of active()) {
          if (c.full) continue;
          if (c.heading >= 0) c.headingText += text;
          else if (!cdata) c.line += text;
        }
      },
      oncdatastart() {
        cdata = true;
      },
      oncdataend() {
        cdata = false;
      },
      onclosetag() {
        depth--;
        const open = stack.pop();
        const at = stack.length;
        if (titleAt === at) titleAt = -2;
        if (!open) return;
        if (open.tag === "template") inTemplate--;
        if (skipFrom >= 0) {
          if (skipFrom === at) skipFrom = -1;
          return;
        }
        if (open.main) inMain--;
        for (const c of open.roots ?? []) c.active = false;
        for (const c of active()) {
          if (c.heading === at) {
            const t = c.full ? "" : clean(c.headingText);
            if (t) c.push({ kind: "heading", level: c.level, text: t });
            c.heading = -1;
          } else if (c.heading < 0 && BLOCK.has(open.tag)) c.flush();
        }
      },
    },
    { lowerCaseAttributeNames: false, decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  const root = mainFound ? main : bodyFound ? body : null;
  if (!root) return { title: clean(title), blocks: [] };
  root.flush();
  return { title: clean(title), blocks: root.blocks };
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
  const nextStarts = /^[\p{Lu}\d•▪●–-]/u.test(next) || /^\W\s*\p{Lu}/u.test(next);
  return afterParagraph && nextStarts && /^\p{Lu}/u.test(line) && words.length <= 10 && !/[.!]$/.test(line);
}
