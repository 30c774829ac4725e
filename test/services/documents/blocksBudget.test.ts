import { describe, expect, it } from "vitest";
import { htmlBlocks } from "../../../src/services/documents/blocks";
import { MAX_DOC_CHARS, docFromHtml } from "../../../src/services/documents/document";

const joined = (blocks: { text: string }[]) => blocks.map((b) => b.text).join("\n").length;
const para = (i: number) => `<p>Paragraph ${i}: we check every supplier for forced labour and report what we find each year.</p>`;
const page = (n: number, opts: { main?: boolean; headingEvery?: number } = {}) => {
  const parts = Array.from({ length: n }, (_, i) => `${opts.headingEvery && i % opts.headingEvery === 0 ? `<h2>Part ${i}</h2>` : ""}${para(i)}`).join("");
  return `<!doctype html><html><head><title>Big</title></head><body><nav>Menu</nav>${opts.main ? `<main>${parts}</main>` : parts}</body></html>`;
};

describe("issue 30: a page's blocks kept only up to what the document reader reads (MAX_DOC_CHARS)", () => {
  it("past the budget, the blocks are a prefix of every block, up to and including the one that crosses it", () => {
    for (const html of [page(40_000), page(40_000, { main: true, headingEvery: 7 })]) {
      const all = htmlBlocks(html).blocks;
      const kept = htmlBlocks(html, MAX_DOC_CHARS).blocks;
      expect(joined(all)).toBeGreaterThan(3 * MAX_DOC_CHARS);
      expect(kept.length).toBeLessThan(all.length);
      expect(kept).toEqual(all.slice(0, kept.length));
      expect(joined(kept)).toBeGreaterThan(MAX_DOC_CHARS);
      expect(joined(kept.slice(0, -1))).toBeLessThanOrEqual(MAX_DOC_CHARS);
    }
  });

  it("within the budget, every block is kept; and the document read is cut at the budget either way", () => {
    const small = page(500, { main: true, headingEvery: 5 });
    expect(htmlBlocks(small, MAX_DOC_CHARS)).toEqual(htmlBlocks(small));
    const doc = docFromHtml(page(40_000));
    expect(doc.cut).toBe(true);
    expect(doc.chars).toBeLessThanOrEqual(MAX_DOC_CHARS);
    expect(doc.chars).toBeGreaterThan(MAX_DOC_CHARS - 200);
  });
});
