/**
 * A PDF's text, page by page (unpdf, the PDF.js build for workers). The document readers quote the page a passage is
 * on, so pages are kept apart. A PDF whose pages carry no text (a scan) is refused as unreadable: the service does no
 * OCR, and says so rather than answering "not found" from an empty text.
 */
import { getDocumentProxy } from "unpdf";
import { MAX_PDF_PAGES } from "../../services/documents/document";
import { InputError } from "../../shared/errors";

export interface PdfText {
  /** The text of each page read, in order (page 1 first). */
  pages: string[];
  totalPages: number;
  /** True when the PDF has more pages than were read. */
  cut: boolean;
}

export { MAX_PDF_PAGES };
/** Below this many letters a page on average, the PDF is taken to have no text layer. */
const MIN_LETTERS_PER_PAGE = 25;

export const isPdf = (bytes: Uint8Array): boolean => bytes.length > 4 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46; // %PDF

export async function readPdf(bytes: Uint8Array, opts: { maxPages?: number } = {}): Promise<PdfText> {
  if (!isPdf(bytes)) throw new InputError("unreadable_input", "The document is not a PDF (it does not start with %PDF).");
  const maxPages = opts.maxPages ?? MAX_PDF_PAGES;
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // unpdf may take ownership of the buffer it is given: hand it a copy.
    pdf = await getDocumentProxy(bytes.slice());
  } catch (e) {
    const why = e instanceof Error ? e.message : "unknown error";
    throw new InputError("unreadable_input", `The PDF could not be opened (${/password/i.test(why) ? "it is encrypted with a password" : why.slice(0, 120)}).`);
  }
  try {
    const totalPages = pdf.numPages;
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(totalPages, maxPages); n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      pages.push(joinItems(content.items as TextItem[]));
      page.cleanup();
    }
    const letters = pages.reduce((sum, p) => sum + (p.match(/\p{L}/gu)?.length ?? 0), 0);
    if (letters < MIN_LETTERS_PER_PAGE * Math.max(1, pages.length))
      throw new InputError(
        "unreadable_input",
        `The PDF has no text layer to read (${pages.length} page${pages.length === 1 ? "" : "s"}, ${letters} letters): it looks scanned. Give a PDF with selectable text, or its text.`,
      );
    return { pages: mendLigatures(pages), totalPages, cut: totalPages > maxPages };
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

/**
 * Some PDFs' text layers give an "f" ligature (ff, fi, fl, fo…) as a lone "f" between spaces: "The f ollowing",
 * "f or", "signed of f". English has no word "f", so where a document does this (twice or more) a lone "f" is joined
 * to the word after it when that starts in lower case, else to the word before it.
 */
function mendLigatures(pages: string[]): string[] {
  const LONE_F = /(?<![\p{L}\d'’-])f (?=\p{Ll})/gu;
  const count = pages.reduce((n, p) => n + (p.match(LONE_F)?.length ?? 0), 0);
  if (count < 2) return pages;
  return pages.map((p) => p.replace(LONE_F, "f").replace(/(?<=\p{L}) f(?=[\s.,;:)]|$)/gmu, "f"));
}

interface TextItem {
  str?: string;
  hasEOL?: boolean;
  width?: number;
  transform?: number[];
}

/**
 * The page's text items joined into lines: an item that ends a line (hasEOL), or the next item starting lower on the
 * page, breaks the line; items on the same line are joined with a space unless one already has it.
 */
function joinItems(items: TextItem[]): string {
  let out = "";
  let lastY: number | null = null;
  let lastEnd: number | null = null;
  for (const it of items) {
    if (typeof it.str !== "string") continue;
    const x = it.transform?.[4] ?? null;
    const y = it.transform?.[5] ?? null;
    const size = Math.abs(it.transform?.[0] ?? 10) || 10;
    if (lastY !== null && y !== null && Math.abs(y - lastY) > size * 0.5 && !out.endsWith("\n")) out += "\n";
    if (it.str) {
      // Items on one line: a space only where there is a gap between them (a word split across runs stays whole).
      const gap = x !== null && lastEnd !== null ? x - lastEnd : size;
      if (out && !out.endsWith("\n") && !out.endsWith(" ") && !it.str.startsWith(" ") && gap > size * 0.15) out += " ";
      out += it.str;
    }
    if (it.hasEOL && !out.endsWith("\n")) out += "\n";
    if (y !== null) lastY = y;
    lastEnd = x !== null && it.width !== undefined ? x + it.width : null;
  }
  return out
    .split("\n")
    .map((l) => l.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
