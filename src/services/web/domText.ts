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
  "ADDRESS ARTICLE ASIDE BLOCKQUOTE BODY BR CAPTION DD DETAILS DIALOG DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR HTML LI MAIN NAV OL P PRE SECTION SUMMARY TABLE TBODY TD TFOOT TH THEAD TR UL".split(
    " ",
  ),
);

/**
 * Scripts, styles, embedded documents and `hidden` elements left out; white space collapsed within lines; empty lines
 * dropped. Walked iteratively (an explicit stack), so a page nested however deep is read whole.
 */
export function visibleText(root: TextNode): string {
  const out: string[] = [];
  const stack: { kids: ArrayLike<TextNode>; next: number; block: boolean }[] = [{ kids: root.childNodes, next: 0, block: false }];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.next >= top.kids.length) {
      stack.pop();
      if (top.block) out.push("\n");
      continue;
    }
    const child = top.kids[top.next++];
    if (child.nodeType === 3) out.push(child.textContent ?? "");
    else if (child.nodeType === 1) {
      const tag = (child.tagName ?? "").toUpperCase();
      if (SKIP.has(tag) || child.hasAttribute?.("hidden")) continue;
      const block = BLOCK.has(tag);
      if (block) out.push("\n");
      stack.push({ kids: child.childNodes, next: 0, block });
    }
  }
  return out
    .join("")
    .split("\n")
    .map((l) => l.replace(/[ \t\f\v\r\u00a0]+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}
