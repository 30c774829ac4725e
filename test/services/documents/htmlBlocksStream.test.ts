/**
 * htmlBlocks reads a page in one streaming pass of htmlparser2's Parser, with no DOM (issue 29 §1): its output must be
 * exactly the DOM walk's (linkedom, kept here as the reference) on every real page in ../shared (skipped when absent),
 * every HTML fixture of this repo, and generated tag soup; pages past the old elements/parts limits now read.
 */
import fc from "fast-check";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { type Block, htmlBlocks } from "../../../src/services/documents/blocks";
import { walkNodes } from "../../../src/services/html/parse";
import { InputError } from "../../../src/shared/errors";
import { cpuNow } from "../../support/cpuClock";

/** htmlBlocks as it was: linkedom's DOM, DROP and chrome removed, then walked from main ?? [role=main] ?? body. */
function domBlocks(html: string): { title: string; blocks: Block[] } {
  type N = { nodeType: number; tagName: string; textContent: string | null; childNodes: ArrayLike<N>; getAttribute(n: string): string | null; remove(): void };
  const BLOCK = new Set([
    "P",
    "LI",
    "TD",
    "TH",
    "DD",
    "DT",
    "BLOCKQUOTE",
    "PRE",
    "FIGCAPTION",
    "CAPTION",
    "ADDRESS",
    "DIV",
    "SECTION",
    "ARTICLE",
    "MAIN",
    "TABLE",
    "TR",
    "UL",
    "OL",
    "DL",
    "BODY",
    "HR",
    "BR",
  ]);
  const clean = (s: string) => s.replace(/[\s\u00a0]+/g, " ").trim();
  const isChrome = (el: N) =>
    el.tagName === "HEADER" || el.tagName === "FOOTER" || el.getAttribute("role") === "banner" || el.getAttribute("role") === "contentinfo";
  const isMain = (el: N) => el.tagName === "MAIN" || el.tagName === "ARTICLE" || el.getAttribute("role") === "main";
  const { document } = parseHTML(html);
  const title = clean(document.querySelector("title")?.textContent ?? "");
  for (const el of [
    ...document.querySelectorAll(
      "script, style, noscript, template, svg, canvas, iframe, nav, aside, form, button, select, [role=navigation], [role=search], [aria-hidden=true], [hidden]",
    ),
  ])
    el.remove();
  const chrome: N[] = [];
  let inMain = 0;
  walkNodes(
    document as unknown as N,
    (node) => {
      if (node.nodeType !== 1) return false;
      if (isMain(node)) inMain++;
      if (!inMain && isChrome(node)) return (void chrome.push(node), false);
    },
    (node) => void (isMain(node) && inMain--),
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
      root as unknown as N,
      (el) => {
        if (el.nodeType === 3) return (void (line += el.textContent ?? ""), false);
        if (el.nodeType !== 1) return false;
        const h = /^H([1-6])$/.exec(el.tagName);
        if (h) {
          flush();
          const t = clean(el.textContent ?? "");
          if (t) blocks.push({ kind: "heading", level: Number(h[1]), text: t });
          return false;
        }
        if (BLOCK.has(el.tagName)) flush();
      },
      (el) => void (BLOCK.has(el.tagName) && flush()),
    );
  flush();
  return { title, blocks };
}

/** The same output, or (a page with no element at all, where linkedom's body getter threw) none from the DOM. */
function same(html: string, name = "") {
  let want: ReturnType<typeof domBlocks> | null = null;
  try {
    want = domBlocks(html);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  const got = htmlBlocks(html);
  if (want) expect(got, name).toEqual(want);
  else expect(got.blocks, name).toEqual([]);
}

const sharedPages = import.meta.glob("../../../../shared/corpora/**/*.{html,htm}", { query: "?raw", import: "default" });
const fixturePages = import.meta.glob("../../fixtures/**/*.{html,htm}", { query: "?raw", import: "default" });

describe("htmlBlocks streaming = the DOM walk", () => {
  it.skipIf(!Object.keys(sharedPages).length)(
    "every real HTML page in ../shared/corpora",
    async () => {
      let n = 0;
      const differ: string[] = [];
      for (const [path, load] of Object.entries(sharedPages)) {
        const html = (await load()) as string;
        if (html.length > 5_000_000) continue;
        n++;
        try {
          same(html, path);
        } catch {
          differ.push(path);
        }
      }
      console.error(`htmlBlocks sameness: ${n} shared pages, differing: ${JSON.stringify(differ)}`);
      // linkedom's DOM loses the text before a removed <canvas> (seen on an ACT test case: "<p>Happy new year!</p><canvas>"
      // gave no blocks); the stream reads it. Every other page must be identical.
      for (const path of differ) expect(((await sharedPages[path]()) as string).toLowerCase(), path).toContain("<canvas");
      expect(n).toBeGreaterThan(100);
    },
    300_000,
  );

  it("every HTML fixture of the repo", async () => {
    const entries = Object.entries(fixturePages);
    expect(entries.length).toBeGreaterThan(20);
    for (const [path, load] of entries) same((await load()) as string, path);
  }, 120_000);

  it("generated tag soup", () => {
    const tags = [
      "p",
      "div",
      "span",
      "b",
      "h1",
      "h3",
      "h6",
      "li",
      "ul",
      "table",
      "tr",
      "td",
      "br",
      "hr",
      "img",
      "main",
      "article",
      "header",
      "footer",
      "nav",
      "aside",
      "script",
      "style",
      "svg",
      "title",
      "body",
      "head",
      "html",
      "section",
      "form",
      "select",
      "option",
      "a",
      "pre",
      "template",
      "math",
    ];
    const attrs = [
      "",
      ' role="main"',
      ' role="navigation"',
      ' role="banner"',
      ' role="contentinfo"',
      ' role="search"',
      " hidden",
      ' aria-hidden="true"',
      ' aria-hidden="false"',
      ' ROLE="main"',
      ' class="x"',
      " HIDDEN",
    ];
    const piece = fc.oneof(
      fc.tuple(fc.constantFrom(...tags), fc.constantFrom(...attrs)).map(([t, a]) => `<${t}${a}>`),
      fc.constantFrom(...tags).map((t) => `</${t}>`),
      fc.constantFrom("Text ", "a&amp;b", "&nbsp;x", "  \n ", "Word.", "<!-- c -->", "<![CDATA[d]]>", "<!doctype html>", "<?xml x?>", "</", "<", "é"),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (parts) => same(parts.join(""))),
      { numRuns: 3000 },
    );
  }, 120_000);
});

describe("pages past the old DOM limits", () => {
  const page = (elements: number) => {
    const para = "<p>We assess our <b>supply chain</b> for risks of <i>forced labour</i> every year.</p>";
    return `<!doctype html><html><head><title>Modern slavery statement</title></head><body><main><h1>Statement</h1>${para.repeat(Math.ceil(elements / 3))}</main></body></html>`;
  };
  for (const n of [40_000, 100_000])
    it(`a page of ${n.toLocaleString("en-GB")} elements reads`, () => {
      const t0 = cpuNow();
      const { title, blocks } = htmlBlocks(page(n));
      console.error(`htmlBlocks ${n} elements: ${Math.round(cpuNow() - t0)} ms`);
      expect(title).toBe("Modern slavery statement");
      expect(blocks.length).toBe(Math.ceil(n / 3) + 1);
    });

  it("deep HTML is still refused quickly, by its depth", () => {
    const t0 = cpuNow();
    expect(() => htmlBlocks(`<body>${"<div>".repeat(200_000)}x`)).toThrow(InputError);
    expect(() => htmlBlocks(`<body>${"<div>".repeat(200_000)}x`)).toThrow(/deeper than 1,000 levels/);
    expect(cpuNow() - t0).toBeLessThan(1_000);
  });
});
