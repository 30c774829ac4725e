/**
 * A PDF's text, page by page (unpdf, the PDF.js build for workers). The document readers quote the page a passage is
 * on, so pages are kept apart. A PDF whose pages carry no text (a scan) is refused as unreadable: the service does no
 * OCR, and says so rather than answering "not found" from an empty text.
 *
 * Bounded by budgets this code counts itself (issue 29 §1): a timer cannot fire while PDF.js holds the isolate, and
 * the fetch cap counts the compressed file, so a 1.5 MB file whose one stream inflates to 512 MiB, or a page of a
 * million text operators, must be stopped by counting. Each budget is refused with 422 `unreadable_input` naming it:
 * - before PDF.js sees the file, every stream is found and measured (`measureStreams`): FlateDecode data (also behind
 *   ASCIIHex/ASCII85) is inflated with fflate's streaming Inflate, counted and thrown away, stopping at the budget;
 *   LZW, RunLength and Brotli are bounded by their raw size times the filter's largest ratio; object streams (which
 *   PDF.js lets hold streams) are measured inside too. An encrypted file's streams are decrypted first (pdfCrypt.ts:
 *   the Standard handler with the empty user password, which PDF.js opens without being asked for one); a file
 *   encrypted in a way not decrypted here has its compressed streams bounded by raw size times the ratio. Image streams
 *   are never decoded to read text: they are not counted, and their data is blanked in the copy PDF.js reads, so a
 *   stream that calls itself an image cannot be inflated as a page's contents either.
 * - while reading, text items are counted per page and in the document (streamed, so a page past its budget is
 *   cancelled, not built whole), and the time spent is checked between pages, where the reader also yields to the
 *   event loop so other requests are served.
 * Operators are bounded by the decoded bytes (an operator takes at least two bytes, and PDF.js's text pass costs at
 * most about 2 s per decoded MiB of the worst operators measured), and the time check between pages bounds the rest.
 */
import { Inflate } from "fflate";
import { getDocumentProxy } from "unpdf";
import {
  MAX_PDF_CHARS,
  MAX_PDF_DECODED_BYTES,
  MAX_PDF_ITEMS,
  MAX_PDF_ITEMS_PER_PAGE,
  MAX_PDF_PAGES,
  MAX_PDF_READ_MS,
  MAX_PDF_STREAM_BYTES,
  MAX_UNFOLLOWED_KIDS,
  MAX_UNFOLLOWED_PAGES,
} from "../../services/documents/document";
import { InputError } from "../../shared/errors";
import { type PdfEncryption, decryptStream, openEncryption } from "./pdfCrypt";
import { PdfObjectIndex, regroupPageTree } from "./pdfPageTree";

export interface PdfText {
  /** The text of each page read, in order (page 1 first). */
  pages: string[];
  totalPages: number;
  /** True when the PDF has more pages than were read. */
  cut: boolean;
}

export { MAX_PDF_CHARS, MAX_PDF_DECODED_BYTES, MAX_PDF_ITEMS, MAX_PDF_ITEMS_PER_PAGE, MAX_PDF_PAGES, MAX_PDF_READ_MS, MAX_PDF_STREAM_BYTES };
/** Below this many letters a page on average, the PDF is taken to have no text layer. */
const MIN_LETTERS_PER_PAGE = 25;

const MiB = 1024 * 1024;
/** Object streams inside object streams, at most. */
const MAX_OBJSTM_DEPTH = 3;
/** Compressed bytes pushed to the inflater at a time. */
const INFLATE_PUSH = 4096;

const refuse = (what: string): never => {
  throw new InputError("unreadable_input", `The PDF is past a reading limit: ${what}. Give a smaller PDF, or its text.`);
};
const mib = (n: number) => `${Math.round((n / MiB) * 10) / 10} MiB`;

export const isPdf = (bytes: Uint8Array): boolean => bytes.length > 4 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46; // %PDF

/** The event loop gets a turn (other requests are served; the clock moves on in Workers). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * `opts.owned`: the caller gives `bytes` away (the readers Worker, which assembled them from the wire), so they are
 * measured and blanked in place rather than copied first.
 */
export async function readPdf(bytes: Uint8Array, opts: { maxPages?: number; now?: () => number; owned?: boolean } = {}): Promise<PdfText> {
  if (!isPdf(bytes)) throw new InputError("unreadable_input", "The document is not a PDF (it does not start with %PDF).");
  const maxPages = opts.maxPages ?? MAX_PDF_PAGES;
  const now = opts.now ?? Date.now;
  const started = now();
  // unpdf may take ownership of the buffer it is given: it gets a copy (unless the caller gave `bytes` away), in which
  // image data is blanked.
  let data: Uint8Array | null = opts.owned ? bytes : bytes.slice();
  const { objects } = await measureStreams(data);
  // The page tree, followed ahead of PDF.js and regrouped where it is too wide to open (pdfPageTree.ts).
  const tree = regroupPageTree(data, objects);
  if (tree.bytes) data = tree.bytes;
  if (!tree.followed && (objects.maxKids > MAX_UNFOLLOWED_KIDS || objects.pageObjects > MAX_UNFOLLOWED_PAGES))
    refuse(
      objects.maxKids > MAX_UNFOLLOWED_KIDS
        ? `its page tree could not be followed, and one of its nodes lists ${objects.maxKids.toLocaleString("en-GB")} pages (more than ${MAX_UNFOLLOWED_KIDS.toLocaleString("en-GB")})`
        : `its page tree could not be followed, and it holds ${objects.pageObjects.toLocaleString("en-GB")} pages (more than ${MAX_UNFOLLOWED_PAGES.toLocaleString("en-GB")})`,
    );
  const checkTime = (where: string) => {
    const spent = now() - started;
    if (spent > MAX_PDF_READ_MS) refuse(`reading took more than ${MAX_PDF_READ_MS / 1000} s (${where}, after ${(spent / 1000).toFixed(1)} s)`);
  };
  await yieldToEventLoop();
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    const given = data;
    data = null; // PDF.js holds it from here
    pdf = await getDocumentProxy(given);
  } catch (e) {
    const why = e instanceof Error ? e.message : "unknown error";
    throw new InputError("unreadable_input", `The PDF could not be opened (${/password/i.test(why) ? "it is encrypted with a password" : why.slice(0, 120)}).`);
  }
  try {
    const totalPages = pdf.numPages;
    const pages: string[] = [];
    const count = { items: 0, chars: 0 };
    for (let n = 1; n <= Math.min(totalPages, maxPages); n++) {
      await yieldToEventLoop();
      checkTime(`before page ${n} of ${totalPages}`);
      // A page PDF.js cannot give (a damaged tree or page) makes the document unreadable, said so: reading on without
      // it would answer "not found" for what that page says.
      const damaged = (e: unknown): never => {
        if (e instanceof InputError) throw e;
        const why = e instanceof Error ? e.message : String(e);
        throw new InputError("unreadable_input", `The PDF could not be read: page ${n} of ${totalPages} is damaged (${why.slice(0, 120)}).`);
      };
      const page = await pdf.getPage(n).catch(damaged);
      try {
        pages.push(joinItems(await pageItems(page, n, count).catch(damaged)));
      } finally {
        page.cleanup();
      }
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

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>["getPage"]>>;

/**
 * A page's text items, read as PDF.js streams them (about 100 at a time): counted as they come, and the stream is
 * cancelled as soon as the page or the document is past its budget, so a page of a million operators is never built.
 */
async function pageItems(page: PdfPage, n: number, count: { items: number; chars: number }): Promise<TextItem[]> {
  const reader = (page.streamTextContent() as ReadableStream<{ items: TextItem[] }>).getReader();
  const items: TextItem[] = [];
  let pageChars = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const it of value.items) {
        if (typeof it.str !== "string") continue;
        items.push(it);
        pageChars += it.str.length;
        count.chars += it.str.length;
      }
      count.items += value.items.length;
      if (items.length > MAX_PDF_ITEMS_PER_PAGE) refuse(`page ${n} has more than ${MAX_PDF_ITEMS_PER_PAGE.toLocaleString("en-GB")} text items`);
      if (count.items > MAX_PDF_ITEMS) refuse(`the pages read have more than ${MAX_PDF_ITEMS.toLocaleString("en-GB")} text items`);
      if (count.chars > MAX_PDF_CHARS)
        refuse(
          `the pages read have more than ${MAX_PDF_CHARS.toLocaleString("en-GB")} characters of text (page ${n} has ${pageChars.toLocaleString("en-GB")} so far)`,
        );
    }
  } catch (e) {
    // PDF.js wants an Error as the reason (it throws on none); the page's work stops at its next text item.
    await reader.cancel(e instanceof Error ? e : new Error(String(e))).catch(() => {});
    throw e;
  }
  return items;
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring the streams before PDF.js reads them.

const latin1 = new TextDecoder("latin1");
const STREAM = [0x73, 0x74, 0x72, 0x65, 0x61, 0x6d]; // "stream"
const ENDSTREAM = [0x65, 0x6e, 0x64, 0x73, 0x74, 0x72, 0x65, 0x61, 0x6d]; // "endstream"
/** Largest output per input byte of the filters that are not inflated here (LZW: a 9-bit code can stand for up to 4,096 bytes). */
const MAX_RATIO: Record<string, number> = { LZW: 3641, RunLength: 64, Flate: 1032, Brotli: Infinity };

function indexOfSeq(b: Uint8Array, seq: number[], from: number): number {
  const first = seq[0];
  for (let i = b.indexOf(first, from); i >= 0 && i + seq.length <= b.length; i = b.indexOf(first, i + 1)) {
    let k = 1;
    while (k < seq.length && b[i + k] === seq[k]) k++;
    if (k === seq.length) return i;
  }
  return -1;
}

const isWhite = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const isDelimiterOrWhite = (c: number | undefined) => c === undefined || isWhite(c) || "()<>[]{}/%".includes(String.fromCharCode(c));

/** A dictionary's text with `#xx` escapes in names undone (`/Fl#61teDecode` is `/FlateDecode` to PDF.js too). */
const unescapeNames = (s: string) => s.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** Where the keyword `stream` (not `endstream`, followed by an end of line) next starts at or after `from`; -1 if none. */
function nextStreamKeyword(b: Uint8Array, from: number): number {
  for (let i = indexOfSeq(b, STREAM, from); i >= 0; i = indexOfSeq(b, STREAM, i + 1)) {
    const after = b[i + 6];
    if ((after === 0x0a || after === 0x0d) && isDelimiterOrWhite(b[i - 1]) && !(b[i - 3] === 0x65 && b[i - 2] === 0x6e && b[i - 1] === 0x64)) return i;
  }
  return -1;
}

interface Budget {
  total: number;
  /** The file has an /Encrypt dictionary (its streams, but the cross-reference stream, are encrypted). */
  encrypted: boolean;
  /** How to decrypt them, when this module can (the top level only: what is inside an object stream is plain). */
  crypt: Extract<PdfEncryption, { state: "open" }> | null;
  /** The objects passed over, for the page tree (pdfPageTree.ts). */
  objects: PdfObjectIndex;
}

/**
 * Finds every stream of the file (by its `stream` keyword, as PDF.js's own recovery does, so a stream left out of the
 * cross-reference table is found too), measures its decoded size against MAX_PDF_STREAM_BYTES and, with the others,
 * against MAX_PDF_DECODED_BYTES, and blanks image data in `b` (which is the copy PDF.js will read). Throws
 * InputError("unreadable_input") naming the budget passed.
 */
export async function measureStreams(b: Uint8Array): Promise<{ decodedBytes: number; objects: PdfObjectIndex }> {
  // The trailer (or a cross-reference stream's dictionary) names /Encrypt; PDF.js undoes #xx escapes in names, so
  // this does too.
  const encrypted = /\/Encrypt\b/.test(unescapeNames(latin1.decode(b)));
  const enc: PdfEncryption = encrypted ? await openEncryption(b) : { state: "none" };
  // PDF.js asks for a password here and gets none: the same answer as when it refuses, before any measuring.
  if (enc.state === "password") throw new InputError("unreadable_input", "The PDF could not be opened (it is encrypted with a password).");
  const budget: Budget = { total: 0, encrypted, crypt: enc.state === "open" ? enc : null, objects: new PdfObjectIndex() };
  await scanStreams(b, budget, 0, true);
  return { decodedBytes: budget.total, objects: budget.objects };
}

async function scanStreams(b: Uint8Array, budget: Budget, depth: number, topLevel: boolean): Promise<void> {
  let prevEnd = 0;
  for (let at = nextStreamKeyword(b, 0); at >= 0; at = nextStreamKeyword(b, prevEnd)) {
    // Everything since the last stream is read as this stream's dictionary: a filter named anywhere in it counts,
    // so text that hides the dictionary's start (a string holding "obj") cannot hide a filter.
    const text = latin1.decode(b.subarray(prevEnd, at));
    if (topLevel) budget.objects.addTopLevel(text, true);
    const window = unescapeNames(text);
    const ownDict = window.slice(window.lastIndexOf("obj") + 1);
    let start = at + 6;
    if (b[start] === 0x0d && b[start + 1] === 0x0a) start += 2;
    else start += 1;
    const { end, longest } = streamExtent(b, start, window);
    prevEnd = end;
    // The object the stream belongs to, whose number and generation make its key in an encrypted file.
    const header = topLevel ? /(\d+)\s+(\d+)\s+obj\s*$/.exec(window.slice(0, window.lastIndexOf("obj") + 3)) : null;
    if (topLevel && /\/Subtype\s*\/Image\b/.test(ownDict)) {
      b.fill(0, start, longest); // never decoded to read text; blanked so it cannot be decoded as anything else either
      continue;
    }
    const objectStream = /\/First\b/.test(window) && /\/N\b/.test(window);
    if (objectStream && depth >= MAX_OBJSTM_DEPTH) refuse(`object streams are nested more than ${MAX_OBJSTM_DEPTH} deep`);
    const object = header ? { num: Number(header[1]), gen: Number(header[2]) } : null;
    const decoded = await measureStream(b, { start, end, longest }, window, ownDict, budget, objectStream, topLevel ? object : "plain");
    if (decoded && objectStream && topLevel) budget.objects.addObjectStream(ownDict, decoded);
    if (decoded) await scanStreams(decoded, budget, depth + 1, false);
  }
  if (topLevel) budget.objects.addTopLevel(latin1.decode(b.subarray(prevEnd)), false);
}

/**
 * A stream's data ends at its direct /Length when `endstream` follows there, else at the first `endstream` (as
 * PDF.js does): `end`, where the scan goes on. `longest` is the furthest any /Length in the dictionary or that first
 * `endstream` puts it, the extent measured (a /Length that lies cannot make it shorter than PDF.js reads).
 */
function streamExtent(b: Uint8Array, start: number, dict: string): { end: number; longest: number } {
  const first = indexOfSeq(b, ENDSTREAM, start);
  let end = first < 0 ? b.length : first;
  let longest = end;
  for (const m of dict.matchAll(/\/Length\s+(\d+)(?!\s+\d+\s+R)/g)) {
    const e = Math.min(b.length, start + Number(m[1]));
    longest = Math.max(longest, e);
    let k = e;
    while (k < b.length && isWhite(b[k])) k++;
    if (indexOfSeq(b, ENDSTREAM, k) === k) end = Math.max(end, e);
  }
  return { end, longest };
}

/**
 * Counts one stream's decoded bytes into the budget; returns them when `keep` (an object stream, scanned for streams
 * inside it), else null. Zlib data is inflated from the stream's start to where it ends itself (not to a /Length or
 * `endstream` that may lie); inflation stops at the stream's budget; a stream that does not inflate counts what came
 * out before the damage (PDF.js stops there too).
 *
 * In an encrypted file the data is decrypted first, with the key of `object` (the `N G obj` the stream follows;
 * "plain" inside an object stream, whose objects are not encrypted one by one). The decrypted data must then inflate
 * to its own end to be measured: data that does not was decrypted with a key PDF.js does not use (the object's
 * number read wrong), and is bounded by the largest inflation instead. Streams PDF.js may also read as they stand are
 * measured both ways and counted at the larger: the cross-reference stream (read before decryption is set up) and,
 * with /EncryptMetadata false, the metadata stream.
 */
async function measureStream(
  b: Uint8Array,
  ext: { start: number; end: number; longest: number },
  dict: string,
  ownDict: string,
  budget: Budget,
  keep: boolean,
  object: { num: number; gen: number } | null | "plain",
): Promise<Uint8Array | null> {
  const { start, longest } = ext;
  const names: string[] = [];
  for (const m of dict.matchAll(/\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/g)) for (const f of m[1].match(/\/[^\s/[\]<>()]+/g) ?? []) names.push(f.slice(1));
  const add = (n: number) => {
    if (n > MAX_PDF_STREAM_BYTES) refuse(`a stream decodes to more than ${mib(MAX_PDF_STREAM_BYTES)}`);
    budget.total += n;
    if (budget.total > MAX_PDF_DECODED_BYTES) refuse(`its streams decode to more than ${mib(MAX_PDF_DECODED_BYTES)} together`);
  };
  const raw = b.subarray(start, longest);
  const worstCase = (ratio: number, why: string): null => {
    const bound = raw.length * ratio;
    if (bound > MAX_PDF_STREAM_BYTES)
      refuse(
        `a ${why} stream of ${raw.length.toLocaleString("en-GB")} bytes could decode to more than ${mib(MAX_PDF_STREAM_BYTES)}, which cannot be checked before reading`,
      );
    add(bound);
    return null;
  };
  const flate = names.some((f) => f === "FlateDecode" || f === "Fl");
  // Filters not decoded here: the largest size they could decode to (times Flate's when FlateDecode is in the chain,
  // since nothing is inflated on this path).
  let ratio = 1;
  for (const f of new Set(names)) {
    const kind = /^(LZWDecode|LZW)$/.test(f) ? "LZW" : /^(RunLengthDecode|RL)$/.test(f) ? "RunLength" : /^BrotliDecode$/.test(f) ? "Brotli" : null;
    if (kind) ratio *= MAX_RATIO[kind];
  }
  if (ratio > 1) return worstCase(flate ? ratio * MAX_RATIO.Flate : ratio, names.join(", "));

  const xref = /\/Type\s*\/XRef\b/.test(ownDict);
  const asItStands = { data: b.subarray(start), rawLength: raw.length };
  const views: { data: Uint8Array; rawLength: number; strict: boolean }[] = [];
  if (!budget.encrypted || object === "plain") views.push({ ...asItStands, strict: false });
  else if (!budget.crypt) {
    // Encrypted in a way not decrypted here: only data that inflates whole as it stands (a cross-reference stream,
    // which is never encrypted) is measured; other compressed data is bounded by the largest inflation.
    const m = measureView(asItStands.data, asItStands.rawLength, names, flate, keep, true);
    if (m) {
      add(m.out);
      return m.kept;
    }
    return flate ? worstCase(MAX_RATIO.Flate, "compressed stream of an encrypted file (its data is encrypted)") : (add(raw.length), null);
  } else {
    if (!object) return worstCase(flate ? MAX_RATIO.Flate : 1, "stream of an encrypted file whose object number cannot be read (so its key is not known)");
    const metadata = /\/Type\s*\/Metadata\b/.test(ownDict) && !budget.crypt.encryptMetadata;
    const decrypted = await decryptStream(budget.crypt, raw, object.num, object.gen);
    const both = xref || metadata;
    views.push({ data: decrypted, rawLength: decrypted.length, strict: !both });
    if (both) views.push({ ...asItStands, strict: false });
  }
  let largest: { out: number; kept: Uint8Array | null } | null = null;
  for (const v of views) {
    const m = measureView(v.data, v.rawLength, names, flate, keep, v.strict);
    if (!m) return worstCase(MAX_RATIO.Flate, "compressed stream of an encrypted file that does not decrypt to whole deflate data");
    if (!largest || m.out > largest.out) largest = m;
  }
  add(largest!.out);
  return largest!.kept;
}

/**
 * What one reading of a stream's data decodes to: ASCII encodings undone first (they only shrink), then zlib data
 * inflated whatever the dictionary says, else the data's own length (`rawLength`, or the ASCII-decoded length).
 * `strict`: null unless zlib data inflates to its own end, and unless FlateDecode data is zlib at all.
 */
function measureView(
  view: Uint8Array,
  rawLength: number,
  names: string[],
  flate: boolean,
  keep: boolean,
  strict: boolean,
): { out: number; kept: Uint8Array | null } | null {
  let data = view;
  let ascii = true;
  if (names.some((f) => f === "ASCIIHexDecode" || f === "AHx")) data = fromHex(data);
  else if (names.some((f) => f === "ASCII85Decode" || f === "A85")) data = fromAscii85(data);
  else ascii = false;
  if (looksZlib(data)) {
    const inflated = inflateCounted(data, keep);
    if (strict && !inflated.finished) return null;
    return { out: inflated.out, kept: inflated.kept };
  }
  if (strict && flate) return null;
  const plain = ascii ? data : view.subarray(0, rawLength);
  return { out: plain.length, kept: keep ? plain : null };
}

const looksZlib = (d: Uint8Array) => d.length >= 2 && (d[0] & 0x0f) === 8 && ((d[0] << 8) + d[1]) % 31 === 0 && !(d[1] & 0x20);

/**
 * Inflates `data` (zlib) through fflate's streaming Inflate in 64 KiB pushes, counting the output and stopping at the
 * stream's budget; the output is thrown away unless `keep`. `finished`: the deflate data came to its own end.
 */
function inflateCounted(data: Uint8Array, keep: boolean): { out: number; finished: boolean; kept: Uint8Array | null } {
  let out = 0;
  let finished = false;
  const kept: Uint8Array[] = [];
  const inflate = new Inflate((chunk) => {
    out += chunk.length;
    if (out > MAX_PDF_STREAM_BYTES) refuse(`a stream decodes to more than ${mib(MAX_PDF_STREAM_BYTES)}`);
    if (keep) kept.push(chunk);
  });
  // fflate (0.8.3, pinned) keeps its inflate state in `s`: `f` is set at the final block and `l` cleared once it is
  // read whole. Without that state the data is fed to its end, which is slower but as safe.
  const ended = () => {
    const st = (inflate as unknown as { s?: { f?: number; l?: unknown } }).s;
    return !!st?.f && !st.l;
  };
  try {
    const body = data.subarray(2);
    // 4 KiB at a time: deflate inflates at most 1,032 times, so one push makes at most about 4 MiB.
    for (let i = 0; i < body.length && !finished; i += INFLATE_PUSH) {
      inflate.push(body.subarray(i, i + INFLATE_PUSH), false);
      finished = ended();
    }
    if (!finished) {
      inflate.push(new Uint8Array(0), true);
      finished = true; // fflate throws on data that ends before its final block
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    finished = false; // damaged data: PDF.js reads what inflated before the damage, counted already
  }
  if (!keep) return { out, finished, kept: null };
  const all = new Uint8Array(out);
  let at = 0;
  for (const c of kept) {
    all.set(c, at);
    at += c.length;
  }
  return { out, finished, kept: all };
}

function fromHex(d: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(d.length / 2));
  let n = 0;
  let hi = -1;
  for (const c of d) {
    if (c === 0x3e) break; // ">"
    const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
    if (v < 0) continue;
    if (hi < 0) hi = v;
    else {
      out[n++] = (hi << 4) | v;
      hi = -1;
    }
  }
  if (hi >= 0) out[n++] = hi << 4;
  return out.subarray(0, n);
}

function fromAscii85(d: Uint8Array): Uint8Array {
  // At most 4 bytes a character ("z" stands for four zeros); no more than one stream's budget is ever made.
  const out = new Uint8Array(Math.min(4 * d.length, MAX_PDF_STREAM_BYTES + 8));
  let n = 0;
  const group: number[] = [];
  for (let i = 0; i < d.length; i++) {
    const c = d[i];
    if (c === 0x7e) break; // "~>"
    if (isWhite(c)) continue;
    if (n + 4 > out.length) refuse(`a stream decodes to more than ${mib(MAX_PDF_STREAM_BYTES)}`);
    if (c === 0x7a && group.length === 0) {
      n += 4;
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    group.push(c - 33);
    if (group.length === 5) {
      let v = 0;
      for (const g of group) v = v * 85 + g;
      out[n++] = (v >>> 24) & 0xff;
      out[n++] = (v >>> 16) & 0xff;
      out[n++] = (v >>> 8) & 0xff;
      out[n++] = v & 0xff;
      group.length = 0;
    }
  }
  if (group.length > 1) {
    const k = group.length - 1;
    while (group.length < 5) group.push(84);
    let v = 0;
    for (const g of group) v = v * 85 + g;
    for (let j = 0; j < k; j++) out[n++] = (v >>> (24 - 8 * j)) & 0xff;
  }
  return out.subarray(0, n);
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
  // Built as parts with the last character kept apart: asking a growing string whether it ends with "\n" flattens it
  // each time, which made a page of 20,000 items take seconds.
  const parts: string[] = [];
  let last = ""; // the last character written, "" at the start
  const put = (s: string) => {
    if (!s) return;
    parts.push(s);
    last = s[s.length - 1];
  };
  let lastY: number | null = null;
  let lastEnd: number | null = null;
  for (const it of items) {
    if (typeof it.str !== "string") continue;
    const x = it.transform?.[4] ?? null;
    const y = it.transform?.[5] ?? null;
    const size = Math.abs(it.transform?.[0] ?? 10) || 10;
    if (lastY !== null && y !== null && Math.abs(y - lastY) > size * 0.5 && last !== "\n") put("\n");
    if (it.str) {
      // Items on one line: a space only where there is a gap between them (a word split across runs stays whole).
      const gap = x !== null && lastEnd !== null ? x - lastEnd : size;
      if (last && last !== "\n" && last !== " " && !it.str.startsWith(" ") && gap > size * 0.15) put(" ");
      put(it.str);
    }
    if (it.hasEOL && last !== "\n") put("\n");
    if (y !== null) lastY = y;
    lastEnd = x !== null && it.width !== undefined ? x + it.width : null;
  }
  return parts
    .join("")
    .split("\n")
    .map((l) => l.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
