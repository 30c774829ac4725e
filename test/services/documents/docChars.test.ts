import { describe, expect, it } from "vitest";
import { MAX_DOC_CHARS, docFromHtml, docFromText } from "../../../src/services/documents/document";

/**
 * Issue 29 §1: a reader reads at most MAX_DOC_CHARS characters of a document's text, whatever it came from (a page of
 * 4 MiB of text grew the isolate by over 100 MB). The rest is cut, and `cut` says so.
 */
describe("the document's text is read up to MAX_DOC_CHARS characters", () => {
  const sentence = "We assess our supply chain for risks of forced labour every year. ";
  it("a page of 4 MiB of text is cut at the limit, and says so", () => {
    const html = `<html><body><h1>Modern slavery statement</h1><p>${sentence.repeat(Math.ceil((4 * 1024 * 1024) / sentence.length))}</p></body></html>`;
    const doc = docFromHtml(html);
    expect(doc.cut).toBe(true);
    expect(doc.chars).toBeLessThanOrEqual(MAX_DOC_CHARS);
    expect(doc.chars).toBeGreaterThan(MAX_DOC_CHARS - 1_000);
    expect(doc.sentences[0].text).toMatch(/^We assess our supply chain/);
    // One paragraph crossing the limit is cut at a sentence's end: no half sentence is read.
    expect(doc.sentences.at(-1)!.text).toBe(sentence.trim());
  });
  it("a document within the limit is read whole and not cut; many blocks past it keep the whole blocks before it", () => {
    const small = docFromText(`Modern slavery statement\n\n${sentence.repeat(100)}`);
    expect(small.cut).toBe(false);
    const blocks = `<html><body>${`<p>${sentence}</p>`.repeat(Math.ceil((MAX_DOC_CHARS * 1.5) / sentence.length))}</body></html>`;
    const doc = docFromHtml(blocks);
    expect(doc.cut).toBe(true);
    expect(doc.chars).toBeLessThanOrEqual(MAX_DOC_CHARS);
    expect(doc.sentences.at(-1)!.text).toBe(sentence.trim());
  });
});

describe("a text at exactly the cap is read whole", () => {
  it("one word of MAX_DOC_CHARS characters, and two blocks that come to MAX_DOC_CHARS with their line break, are not cut", () => {
    expect(docFromText("a".repeat(MAX_DOC_CHARS)).cut).toBe(false);
    const half = MAX_DOC_CHARS / 2;
    const two = docFromHtml(`<html><body><p>${"b".repeat(half - 1)}</p><p>${"c".repeat(half)}</p></body></html>`);
    expect([two.cut, two.chars]).toEqual([false, MAX_DOC_CHARS]);
    expect(docFromHtml(`<html><body><p>${"b".repeat(half)}</p><p>${"c".repeat(half)}</p></body></html>`).cut).toBe(true);
  });
});
