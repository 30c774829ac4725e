/**
 * The one way a caller's HTML is parsed (issue 29 §1): counted before any DOM is built, so that no page, however it
 * is shaped, can hold the isolate. A timer cannot interrupt synchronous parsing, so the parse counts its own work.
 *
 * `checkHtml` runs htmlparser2's own Parser (the parser linkedom builds its DOM with, so its counts are the DOM's:
 * void elements, implied closes and the end of the document handled as linkedom will) with counting handlers, and
 * stops at the first limit passed: its characters, the depth of open elements, the elements, and every part a DOM
 * holds (elements, attributes, text runs, comments; end tags too, which cost the parser a search of its open
 * elements). Beyond a limit: 422 `unreadable_input`, the message naming the limit. `parseHtml` is linkedom's
 * `parseHTML` after that check; `readPage` (services/web/siteLinks.ts) checks before its own htmlparser2 pass.
 *
 * The limits, measured in workerd (linkedom 0.18, RSS growth while the page is held): a DOM part costs 350–550
 * bytes (an element about 380, an attribute about 500), so a page at the limit of 100,000 parts grows the process by
 * 35–55 MB and parses in under half a second (99,000 attributes: 53 MB, 0.3 s; 33,000 paragraphs: 34 MB, 0.4 s);
 * beyond the limits the refusal takes under 10 ms. Real pages: a statement page has about 200 elements and 600 parts
 * (3.3 parts an element), so the parts limit is reached by a page of about 30,000 elements, which only the heaviest
 * pages have; real pages nest fewer than 100–200 levels. htmlparser2's Parser keeps its open elements in an array it
 * adds to at the front, so its time grows with the square of the depth (50,000 levels 2.4 s, 1,000,000 minutes): the
 * depth is counted as it parses and the parse stops at the limit.
 */
import { thousands } from "../../shared/format";
import { Parser } from "htmlparser2";
import { parseHTML } from "linkedom";
import { InputError } from "../../shared/errors";

/** Characters of HTML read at most (5 MB of markup; the web tools fetch at most 3 MiB, the readers 15 MiB for PDFs). */
export const MAX_HTML_CHARS = 5_000_000;
/** Levels of open elements at most. */
export const MAX_HTML_DEPTH = 1_000;
/** Elements at most. */
export const MAX_HTML_ELEMENTS = 50_000;
/** Parts at most: elements, attributes, text runs, comments and end tags together (what the DOM holds, and what its parser walks). */
export const MAX_HTML_PARTS = 100_000;

const n = thousands; // at import: HTML_LIMITS_TEXT (shared/format.ts says why not toLocaleString)

/** The limits in words, for the descriptions of the operations that read a caller's web page (one sentence, said once). */
export const HTML_LIMITS_TEXT = `A web page is read only within these limits: ${n(MAX_HTML_CHARS)} characters of HTML, ${n(MAX_HTML_ELEMENTS)} elements nested at most ${n(MAX_HTML_DEPTH)} deep, and ${n(MAX_HTML_PARTS)} parts (elements, attributes, runs of text, comments and end tags); a page beyond them answers 422 \`unreadable_input\`, saying which limit, and costs nothing. The document readers (modern slavery statements, inspection and charity reports, carbon reduction plans) build no DOM from a page: for them only the characters and the depth are limited.`;

/** 422 `unreadable_input`: "The page nests elements deeper than 1,000 levels, the limit for a web page; it was not read." */
const refuse = (what: string) => new InputError("unreadable_input", `The page ${what}, the limit for a web page; it was not read.`);

const tooManyParts = () => refuse(`has more than ${n(MAX_HTML_PARTS)} parts (elements, attributes, runs of text, comments and end tags)`);

interface Counts {
  depth: number;
  elements: number;
  parts: number;
}

/** Handlers that count what the Parser reports, as linkedom's would build it, and throw at the first limit passed. */
function counting(c: Counts) {
  const part = () => {
    if (++c.parts > MAX_HTML_PARTS) throw tooManyParts();
  };
  return {
    onopentagname() {
      if (++c.elements > MAX_HTML_ELEMENTS) throw refuse(`has more than ${n(MAX_HTML_ELEMENTS)} elements`);
      if (++c.depth > MAX_HTML_DEPTH) throw refuse(`nests elements deeper than ${n(MAX_HTML_DEPTH)} levels`);
      part();
    },
    onclosetag() {
      c.depth--;
    },
    onattribute: part,
    ontext: part,
    oncomment: part,
    oncdatastart: part,
    onprocessinginstruction: part,
  };
}

/** htmlparser2's Parser with linkedom's options, counting every end tag too (matched or not, the Parser searches its open elements for each). */
class CountingParser extends Parser {
  private readonly counts: Counts;
  constructor(counts: Counts) {
    super(counting(counts), { decodeEntities: true, lowerCaseAttributeNames: false });
    this.counts = counts;
  }
  override onclosetag(start: number, endIndex: number): void {
    if (++this.counts.parts > MAX_HTML_PARTS) throw tooManyParts();
    super.onclosetag(start, endIndex);
  }
}

/** Refuses (422) a page longer than MAX_HTML_CHARS. */
export function checkHtmlLength(html: string): void {
  if (html.length > MAX_HTML_CHARS) throw refuse(`is longer than ${n(MAX_HTML_CHARS)} characters`);
}

/** Refuses (422) when `depth` open elements pass MAX_HTML_DEPTH (a streaming reader counts its own open elements). */
export function checkHtmlDepth(depth: number): void {
  if (depth > MAX_HTML_DEPTH) throw refuse(`nests elements deeper than ${n(MAX_HTML_DEPTH)} levels`);
}

/** The last page found within the limits (the same page is often checked twice: read as text, then as a DOM). */
let lastChecked: string | null = null;

/**
 * Refuses (422 `unreadable_input`, naming the limit) a page beyond the limits, before anything is built from it;
 * otherwise returns. Iterative, and stops as soon as a limit is passed.
 */
export function checkHtml(html: string): void {
  if (html === lastChecked) return;
  checkHtmlLength(html);
  const parser = new CountingParser({ depth: 0, elements: 0, parts: 0 });
  parser.write(html);
  parser.end();
  lastChecked = html;
}

/** linkedom's document of a page checked within the limits (`checkHtml`). */
export function parseHtml(html: string): ReturnType<typeof parseHTML> {
  checkHtml(html);
  return parseHTML(html);
}

/** The little of a DOM node the walks read (linkedom's; the Workers types' `Element` is HTMLRewriter's). */
export interface WalkNode {
  nodeType: number;
  childNodes: ArrayLike<WalkNode>;
}

/**
 * Visits the nodes under `root` in document order, iteratively (an explicit stack: no depth can overflow the call
 * stack). `enter` returns false to skip a node's children (and its `leave`); `leave`, when given, is called after a
 * node's children. Each node's children are read once (linkedom builds `childNodes` afresh on every read).
 */
export function walkNodes<N extends WalkNode>(root: N, enter: (node: N) => boolean | void, leave?: (node: N) => void): void {
  const stack: { node: N; kids: ArrayLike<N>; next: number }[] = [{ node: root, kids: root.childNodes as ArrayLike<N>, next: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.next < top.kids.length) {
      const child = top.kids[top.next++];
      if (enter(child) !== false) stack.push({ node: child, kids: child.childNodes as ArrayLike<N>, next: 0 });
      continue;
    }
    stack.pop();
    if (stack.length) leave?.(top.node);
  }
}
