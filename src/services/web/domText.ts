/**
 * The visible text of a parsed page (linkedom), one block element a line: what a reader without JavaScript sees.
 * Shared by ai-visibility (text without JavaScript) and brand-kit (the statements disclosures.ts reads).
 */

/** The little of linkedom's DOM read here. */
export interface TextNode {
  nodeType: number;
  tagName?: string;
  textContent: string | null;
  childNodes: ArrayLike<TextNode>;
  hasAttribute?(name: string): boolean;
}

const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "SVG", "IFRAME", "OBJECT", "CANVAS", "TITLE", "META", "LINK"]);
const BLOCK = new Set(
  "ADDRESS ARTICLE ASIDE BLOCKQUOTE BODY BR CAPTION DD DETAILS DIALOG DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR HTML LI MAIN NAV OL P PRE SECTION SUMMARY TABLE TBODY TD TFOOT TH THEAD TR UL".split(" "),
);

/** Scripts, styles, embedded documents and `hidden` elements left out; white space collapsed within lines; empty lines dropped. */
export function visibleText(root: TextNode): string {
  const out: string[] = [];
  const walk = (node: TextNode, depth: number) => {
    if (depth > 400) return;
    const kids = node.childNodes;
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i];
      if (child.nodeType === 3) out.push(child.textContent ?? "");
      else if (child.nodeType === 1) {
        const tag = (child.tagName ?? "").toUpperCase();
        if (SKIP.has(tag) || child.hasAttribute?.("hidden")) continue;
        const block = BLOCK.has(tag);
        if (block) out.push("\n");
        walk(child, depth + 1);
        if (block) out.push("\n");
      }
    }
  };
  walk(root, 0);
  return out
    .join("")
    .split("\n")
    .map((l) => l.replace(/[ \t\f\v\r\u00a0]+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}
