/**
 * Streaming row reader for OpenDocument spreadsheets (.ods), shared by the HMRC MLR register
 * and the CQC HSCA bulk file. The real HMRC file unpacks to a ~173 MB content.xml of padded
 * cells, so nothing here inflates it whole or builds a DOM: content.xml is inflated a slice at a
 * time, fed to a SAX parser, and rows are handed out one by one.
 *
 * The entry is located through the zip's central directory (the whole archive is in memory anyway)
 * rather than fflate's `Unzip`, whose streaming mode finds the end of data-descriptor entries by
 * scanning the compressed bytes for a signature; the central directory gives exact offsets and
 * lets us skip every other entry without touching it.
 *
 * The files come from outside, so what reading them holds is bounded by budgets counted as they are read (below): a
 * cell's characters, the cells a sheet hands out, the elements open at once and what the parser holds between two of
 * its events. A file past one is refused with RegisterFormatError naming the limit, as any other bad upstream file.
 */
import { Inflate } from "fflate";
import { SaxesParser } from "saxes";
import { RegisterFormatError } from "./format-error";

/** The ODS column and row limits; they bound repeat counts in hostile files. */
const MAX_COLS = 16_384;
const MAX_ROWS = 1_048_576;
/**
 * Characters of one cell's value: Excel's own limit on a cell. The longest cell of the real files is a few hundred
 * characters (a header of CQC's HSCA file carries a 332-character note), so this is about 100 times that.
 */
export const MAX_CELL_CHARS = 32_767;
/**
 * Cells one read of a sheet may hand out, every copy of a repeated row and every cell up to a row's last non-empty
 * one counted. The largest real sheets: CQC's HSCA Active Locations, ~56,000 rows of 119 columns (6.7 million cells
 * at most), and HMRC's register, ~68,000 rows of 21 (1.4 million). A row of 16,384 cells repeated 1,048,576 times
 * would otherwise be 17 billion cells.
 */
export const MAX_CELLS = 32 * 1024 * 1024;
/** Elements open at once: content.xml nests about ten deep (document, body, sheet, row, cell, paragraph, span...). */
export const MAX_XML_DEPTH = 256;
/**
 * Characters of content.xml read without the parser reporting a tag or a text: the SAX parser holds one text node,
 * tag, comment or CDATA section whole until it ends, so this bounds what it holds, to within one piece (PIECE) given
 * to it (a cell's text is at most MAX_CELL_CHARS, a few times that with its markup and entities).
 */
export const MAX_XML_RUN = 1024 * 1024;
/** Compressed bytes inflated per step: deflate inflates at most 1,032 times, so one step makes at most about 4 MiB of XML. */
const SLICE = 4 * 1024;
/** XML characters given to the parser at a time; the rows they complete are handed out before the next piece. */
const PIECE = 16 * 1024;

const XML_SPACE = /[ \t\r\n]+/g;
const names = new TextDecoder();

/**
 * Yields each non-empty row of one sheet (by name, else the first) as an array of cell strings.
 * Cell values: float/percentage/currency → `office:value`; date → `YYYY-MM-DD`; boolean →
 * `true`/`false`; otherwise the displayed text (paragraphs joined with "\n"), untrimmed.
 * Trailing empty cells are dropped, and entirely empty rows are skipped.
 */
export async function* readOdsRows(bytes: Uint8Array, opts: { sheet?: string } = {}): AsyncGenerator<string[]> {
  const entry = findZipEntry(bytes, "content.xml");
  const queue: Array<[row: string[], repeat: number]> = [];
  let found = false,
    inSheet = false,
    done = false;
  let row: string[] | null = null,
    rowRepeat = 1,
    pendingEmpty = 0;
  let inCell = false,
    cellRepeat = 1,
    typed: string | undefined,
    text = "",
    paras = 0,
    pDepth = 0,
    noteDepth = 0;
  // ODF white-space rule: runs of spaces/newlines in paragraph text are one space, and none at the
  // paragraph's edges; literal spaces come as <text:s/>. `softSpace` = text ends in such a collapsed space.
  let softSpace = false;

  /** Cells materialised so far (every row's cells times its repeat count), elements open, characters since the parser last reported. */
  let cells = 0,
    depth = 0,
    run = 0;
  const refuse = (limit: string): never => {
    throw new RegisterFormatError(`ODS content.xml is past a reading limit: ${limit}`);
  };
  const cellTooLong = () => refuse(`a cell of more than ${MAX_CELL_CHARS.toLocaleString("en-GB")} characters`);
  const add = (t: string) => {
    text += t;
    if (text.length > MAX_CELL_CHARS) cellTooLong();
  };

  const parser = new SaxesParser({ position: false });
  parser.on("opentag", (tag) => {
    run = 0;
    if (++depth > MAX_XML_DEPTH) refuse(`elements nested more than ${MAX_XML_DEPTH} deep`);
    const name = tag.name,
      a = tag.attributes as Record<string, string>;
    if (name === "table:table") {
      if (!found && !done && (opts.sheet === undefined || a["table:name"] === opts.sheet)) found = inSheet = true;
      return;
    }
    if (!inSheet) return;
    if (name === "table:table-row") {
      row = [];
      pendingEmpty = 0;
      rowRepeat = Math.min(count(a["table:number-rows-repeated"]), MAX_ROWS);
    } else if (row && (name === "table:table-cell" || name === "table:covered-table-cell")) {
      inCell = true;
      cellRepeat = count(a["table:number-columns-repeated"]);
      const type = a["office:value-type"];
      typed =
        type === "float" || type === "percentage" || type === "currency"
          ? a["office:value"]
          : type === "date"
            ? a["office:date-value"]?.slice(0, 10)
            : type === "boolean"
              ? a["office:boolean-value"]
              : undefined;
      text = "";
      paras = 0;
    } else if (!inCell) {
      return;
    } else if (name === "office:annotation") {
      noteDepth++; // a cell comment: its paragraphs are not the cell's value
    } else if (noteDepth) {
      return;
    } else if (name === "text:p" || name === "text:h") {
      if (pDepth === 0 && paras++ > 0) add("\n");
      if (pDepth === 0) softSpace = true; // so leading white space is dropped
      pDepth++;
    } else if (pDepth) {
      if (name === "text:s") add(" ".repeat(Math.min(count(a["text:c"]), 1000)));
      else if (name === "text:line-break") add("\n");
      else if (name === "text:tab") add("\t");
      else return;
      softSpace = false;
    }
  });
  parser.on("text", (t: string) => {
    run = 0;
    if (!pDepth || noteDepth) return;
    t = t.replace(XML_SPACE, " ");
    if (softSpace && t.charCodeAt(0) === 32) t = t.slice(1);
    if (t) add(t), (softSpace = t.charCodeAt(t.length - 1) === 32);
  });
  parser.on("closetag", (tag) => {
    run = 0;
    depth--;
    const name = tag.name;
    if (!inSheet) return;
    if (name === "table:table") {
      inSheet = false;
      done = true;
    } else if (name === "table:table-row") {
      if (row && row.length) {
        cells += row.length * rowRepeat;
        if (cells > MAX_CELLS) refuse(`more than ${MAX_CELLS.toLocaleString("en-GB")} cells in the sheet`);
        queue.push([row, rowRepeat]);
      }
      row = null;
    } else if (name === "table:table-cell" || name === "table:covered-table-cell") {
      if (!inCell || !row) return;
      inCell = false;
      const value = typed ?? text;
      if (value.length > MAX_CELL_CHARS) cellTooLong();
      if (value === "") {
        pendingEmpty += cellRepeat; // never materialised unless a non-empty cell follows
      } else {
        const end = Math.min(row.length + pendingEmpty + cellRepeat, MAX_COLS);
        while (pendingEmpty > 0 && row.length < end) row.push(""), pendingEmpty--;
        pendingEmpty = 0;
        while (row.length < end) row.push(value);
      }
    } else if (name === "office:annotation") {
      noteDepth--;
    } else if ((name === "text:p" || name === "text:h") && inCell && !noteDepth) {
      if (--pDepth === 0 && softSpace && text.endsWith(" ")) text = text.slice(0, -1);
    }
  });

  const decoder = new TextDecoder(); // one per reader: it carries split UTF-8 sequences between chunks
  /** Gives the parser one piece of XML; any failure is the file's (RegisterFormatError). */
  const write = (xml: string, final: boolean) => {
    try {
      run += xml.length;
      parser.write(xml);
      if (run > MAX_XML_RUN) refuse(`more than ${MAX_XML_RUN.toLocaleString("en-GB")} characters in one text, tag or comment`);
      if (final) parser.close();
    } catch (e) {
      throw e instanceof RegisterFormatError ? e : new RegisterFormatError(`ODS content.xml unreadable: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const inflated: Uint8Array[] = [];
  const inflater = entry.method === 8 ? new Inflate((chunk) => void (chunk.length && inflated.push(chunk))) : null;
  const data = entry.data;
  for (let off = 0; off < data.length && !done; off += SLICE) {
    const slice = data.subarray(off, off + SLICE),
      last = off + SLICE >= data.length;
    try {
      if (inflater) inflater.push(slice, last);
      else inflated.push(slice);
    } catch (e) {
      throw new RegisterFormatError(`ODS content.xml unreadable: ${e instanceof Error ? e.message : String(e)}`);
    }
    // Up to about 4 MiB of XML, given to the parser a piece at a time, each piece's rows handed out before the next:
    // a piece completes at most a few hundred rows, so the cells held at once stay few.
    let xml = "";
    for (const chunk of inflated) xml += decoder.decode(chunk, { stream: true });
    if (last) xml += decoder.decode();
    inflated.length = 0;
    for (let at = 0; (at < xml.length || (last && at === 0)) && !done; at += PIECE) {
      write(xml.slice(at, at + PIECE), last && at + PIECE >= xml.length);
      for (const [r, n] of queue) for (let i = 0; i < n; i++) yield i ? r.slice() : r;
      queue.length = 0;
    }
  }
  if (!found) throw new RegisterFormatError(opts.sheet ? `ODS sheet "${opts.sheet}" not found` : "ODS file has no sheet");
}

/** A positive repeat count attribute, default 1. */
function count(v: string | undefined): number {
  const n = v ? parseInt(v, 10) : 1;
  return n > 0 ? n : 1;
}

/** Locates one entry of a zip archive through its central directory; returns its raw (still compressed) bytes. */
function findZipEntry(b: Uint8Array, wanted: string): { method: number; data: Uint8Array } {
  if (b.length < 22 || b[0] !== 0x50 || b[1] !== 0x4b) throw new RegisterFormatError("not an ODS file (not a zip archive)");
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const u16 = (p: number) => dv.getUint16(p, true),
    u32 = (p: number) => dv.getUint32(p, true);
  const u64 = (p: number) => Number(dv.getBigUint64(p, true));
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (u32(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new RegisterFormatError("not an ODS file (zip directory missing)");
  let entries = u16(eocd + 10),
    p = u32(eocd + 16);
  if ((entries === 0xffff || p === 0xffffffff) && eocd >= 20 && u32(eocd - 20) === 0x07064b50) {
    const z = u64(eocd - 12); // zip64 end record
    if (z + 56 <= b.length && u32(z) === 0x06064b50) (entries = u64(z + 32)), (p = u64(z + 48));
  }
  for (let i = 0; i < entries; i++) {
    if (p + 46 > b.length || u32(p) !== 0x02014b50) throw new RegisterFormatError("not an ODS file (zip directory corrupt)");
    const flags = u16(p + 8),
      method = u16(p + 10),
      nameLen = u16(p + 28),
      extraLen = u16(p + 30),
      commentLen = u16(p + 32);
    let size = u32(p + 20),
      local = u32(p + 42);
    if (names.decode(b.subarray(p + 46, p + 46 + nameLen)) === wanted) {
      if (size === 0xffffffff || local === 0xffffffff) {
        // zip64 extra field: the 8-byte values present are those whose 32-bit field is 0xffffffff, in order
        for (let e = p + 46 + nameLen, end = e + extraLen; e + 4 <= end; e += 4 + u16(e + 2)) {
          if (u16(e) !== 1) continue;
          let q = e + 4;
          if (u32(p + 24) === 0xffffffff) q += 8;
          if (size === 0xffffffff) (size = u64(q)), (q += 8);
          if (local === 0xffffffff) local = u64(q);
        }
      }
      if (flags & 1) throw new RegisterFormatError("ODS file is encrypted");
      if (method !== 0 && method !== 8) throw new RegisterFormatError(`ODS ${wanted} uses unsupported compression ${method}`);
      if (local + 30 > b.length || u32(local) !== 0x04034b50) throw new RegisterFormatError("not an ODS file (zip entry corrupt)");
      const start = local + 30 + u16(local + 26) + u16(local + 28);
      if (start + size > b.length) throw new RegisterFormatError("ODS file is truncated");
      return { method, data: b.subarray(start, start + size) };
    }
    p += 46 + nameLen + extraLen + commentLen;
  }
  throw new RegisterFormatError(`not an ODS file (no ${wanted})`);
}
