/**
 * A document as every reader sees it (issue 17 §1): headed sections of sentences, each sentence keeping its page
 * (PDF) and its section, plus the whole text for "is it mentioned" questions (SPEC §4.3: those come from the full
 * text). Built from HTML (linkedom), from a PDF's pages (read at the edge by sources/documents/pdf.ts) or from plain
 * text a caller sent. Pure.
 */
import { type Block, htmlBlocks, isHeadingLine, pdfBlocks } from "./blocks";
import { thousands } from "../../shared/format";
import { sectionsOf } from "./segment";

/** PDF pages read at most (a 100-page report reads whole); the rest is cut and `Doc.cut` says so. */
export const MAX_PDF_PAGES = 300;

const MiB = 1024 * 1024;

// The PDF reader's budgets (sources/documents/pdf.ts counts them; past one a PDF answers 422 unreadable_input naming
// it): said here, with the pages, so the readers' descriptions state them (PDF_LIMITS_TEXT).
/**
 * Decoded bytes of any one stream (a page's contents, a font, an object stream). Real text pages decode to tens of
 * KB, embedded fonts to a few MB; 16 MiB is also what PDF.js's own buffer for one stream may grow to.
 */
export const MAX_PDF_STREAM_BYTES = 16 * MiB;
/** Decoded bytes of all streams but images, together (images are never decoded to read text). */
export const MAX_PDF_DECODED_BYTES = 64 * MiB;
/** Text items (runs of text PDF.js gives) on one page; a dense page of small type has a few thousand. */
export const MAX_PDF_ITEMS_PER_PAGE = 50_000;
/** Text items in the pages read, together. */
export const MAX_PDF_ITEMS = 500_000;
/** Characters of text in the pages read, together (the readers take at most 1,000,000 characters of a page or text). */
export const MAX_PDF_CHARS = 4_000_000;
/** Time for opening and reading the pages, checked between pages: well under the readers' 30 s operation limit. */
export const MAX_PDF_READ_MS = 10_000;
/** A page tree that cannot be followed ahead of PDF.js (sources/documents/pdfPageTree.ts) is refused when one node lists more kids than this… */
export const MAX_UNFOLLOWED_KIDS = 2_000;
/** …or the file holds more page objects (/Type /Page) than this. */
export const MAX_UNFOLLOWED_PAGES = 10_000;

/** The PDF limits in words, for the readers' descriptions. */
export const PDF_LIMITS_TEXT = `A PDF is read within these limits: ${MAX_PDF_STREAM_BYTES / MiB} MiB decoded a stream and ${MAX_PDF_DECODED_BYTES / MiB} MiB a document, ${thousands(MAX_PDF_ITEMS_PER_PAGE)} text items a page and ${thousands(MAX_PDF_ITEMS)} in all, ${thousands(MAX_PDF_CHARS)} characters, ${MAX_PDF_READ_MS / 1000} s of reading, and a page tree that can be followed (one that cannot, with more than ${thousands(MAX_UNFOLLOWED_KIDS)} pages in one node or ${thousands(MAX_UNFOLLOWED_PAGES)} pages in all, is not opened); a PDF beyond one answers 422 \`unreadable_input\`, saying which limit, and costs nothing.`;

export interface DocSentence {
  /** Position in `Doc.sentences`. */
  index: number;
  text: string;
  /** The PDF page (1-based); null for HTML and text. */
  page: number | null;
  /** The heading of the section the sentence is in; null before the first heading. */
  section: string | null;
}

export interface DocSection {
  heading: string | null;
  level: number;
  page: number | null;
  /** Indexes into `Doc.sentences`. */
  first: number;
  /** One past the last sentence of the section. */
  end: number;
}

export interface Doc {
  kind: "html" | "pdf" | "text";
  /** The HTML title, or null. */
  title: string | null;
  sections: DocSection[];
  sentences: DocSentence[];
  /** Headings and sentences joined, one per line (for "is it mentioned anywhere" questions). */
  text: string;
  /** Characters of text read. */
  chars: number;
  /** Pages read (PDF), else null. */
  pages: number | null;
  /** The PDF's page count, else null. */
  totalPages: number | null;
  /** True when the document was longer than was read (pages or characters). */
  cut: boolean;
}

/**
 * Characters of a page's or a sent text's text read at most: the `text` a caller may send (1,000,000), and so also of
 * a web page's text (a PDF is read up to its pages and its own reading limits). The rest is cut and `Doc.cut` says so. A page of 4 MiB of text held the isolate
 * and grew it by over 100 MB; the readers' answers rest on the first million characters either way.
 */
export const MAX_DOC_CHARS = 1_000_000;

/** The blocks within MAX_DOC_CHARS (whole blocks; the one that crosses the limit is cut at its last sentence's end within it), and whether any were cut. */
function withinChars(blocks: Block[]): { blocks: Block[]; cut: boolean } {
  let total = 0;
  for (let i = 0; i < blocks.length; i++) {
    const n = blocks[i].text.length + (i > 0 ? 1 : 0); // the text is the blocks joined by line breaks
    if (total + n > MAX_DOC_CHARS) {
      const room = MAX_DOC_CHARS - total - (i > 0 ? 1 : 0);
      const kept = blocks.slice(0, i);
      if (room > 0 && blocks[i].kind === "text") {
        // Cut at the last sentence's end within the room, so no half sentence is read (and quoted) as a whole one.
        const part = blocks[i].text.slice(0, room);
        const end = Math.max(part.lastIndexOf(". "), part.lastIndexOf("! "), part.lastIndexOf("? "));
        // No sentence ends within it: dropped after other blocks, kept cut when it is the first (one long run of text).
        const text = end > 0 ? part.slice(0, end + 1) : kept.length ? null : part;
        if (text) kept.push({ ...blocks[i], text });
      }
      return { blocks: kept, cut: true };
    }
    total += n;
  }
  return { blocks, cut: false };
}

function docOf(kind: Doc["kind"], title: string | null, allBlocks: Block[], extra: { pages?: number; totalPages?: number; cut?: boolean } = {}): Doc {
  // A PDF is bounded by its pages and its own reading limits (sources/documents/pdf.ts); a page or a text by characters.
  const { blocks, cut: charsCut } = kind === "pdf" ? { blocks: allBlocks, cut: false } : withinChars(allBlocks);
  const sections: DocSection[] = [];
  const sentences: DocSentence[] = [];
  const lines: string[] = [];
  for (const s of sectionsOf(blocks)) {
    const first = sentences.length;
    if (s.heading) lines.push(s.heading);
    for (const x of s.sentences) {
      sentences.push({ index: sentences.length, text: x.text, page: x.page ?? null, section: s.heading });
      lines.push(x.text);
    }
    sections.push({ heading: s.heading, level: s.level, page: s.page ?? null, first, end: sentences.length });
  }
  const text = lines.join("\n");
  return {
    kind,
    title: title || null,
    sections,
    sentences,
    text,
    chars: text.length,
    pages: extra.pages ?? null,
    totalPages: extra.totalPages ?? null,
    cut: (extra.cut ?? false) || charsCut,
  };
}

/** An HTML page: navigation, page chrome, scripts and forms dropped (blocks.ts). */
export const docFromHtml = (html: string): Doc => {
  const { title, blocks } = htmlBlocks(html, MAX_DOC_CHARS);
  return docOf("html", title, blocks);
};

/** A PDF's pages, as read by sources/documents/pdf.ts. */
export const docFromPdf = (pdf: { pages: string[]; totalPages: number; cut: boolean }): Doc =>
  docOf("pdf", null, pdfBlocks(pdf.pages), { pages: pdf.pages.length, totalPages: pdf.totalPages, cut: pdf.cut });

/**
 * Plain text a caller sent (often copied from a PDF or a page): lines read as a PDF page's are (short capitalised
 * lines before text are headings, a blank line ends a paragraph), with no page numbers. Markdown headings (`#`) and
 * bullets are read as such.
 */
export function docFromText(text: string): Doc {
  const normalised = text
    .replace(/\r\n?/g, "\n")
    .replace(/\u00a0/g, " ")
    .replace(/^[ \t]*[-*+][ \t]+/gm, "• ");
  const blocks: Block[] = [];
  let chunk: string[] = [];
  const flush = () => {
    if (chunk.some((l) => l.trim())) for (const { page: _page, ...b } of pdfBlocks([headingsKept(chunk).join("\n")])) blocks.push(b);
    chunk = [];
  };
  for (const line of normalised.split("\n")) {
    const md = /^[ \t]*(#{1,6})[ \t]+(.+?)[ \t#]*$/.exec(line);
    if (!md) {
      chunk.push(line);
      continue;
    }
    flush();
    blocks.push({ kind: "heading", level: md[1].length, text: md[2].trim() });
  }
  flush();
  return docOf("text", null, blocks);
}

/**
 * Pasted text often puts a blank line after a heading ("Training", blank, the paragraph), where a PDF page's lines
 * have none: a line standing alone between blank lines that reads as a heading before the next paragraph keeps that
 * paragraph as its next line.
 */
function headingsKept(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    out.push(lines[i]);
    const line = lines[i].trim();
    if (!line || (i > 0 && lines[i - 1].trim()) || (lines[i + 1] ?? "").trim()) continue;
    let j = i + 1;
    while (j < lines.length && !lines[j].trim()) j++;
    if (j < lines.length && isHeadingLine(line, lines[j].trim(), "")) i = j - 1; // drop the blank lines between
  }
  return out;
}

/** The sentences of a section. */
export const sentencesOf = (doc: Doc, section: DocSection): DocSentence[] => doc.sentences.slice(section.first, section.end);
