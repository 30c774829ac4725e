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
 */
import { Inflate } from "fflate";
import { SaxesParser } from "saxes";
import { RegisterFormatError } from "./format-error";

/** The ODS column and row limits; they bound repeat counts in hostile files. */
const MAX_COLS = 16_384;
const MAX_ROWS = 1_048_576;
/** Compressed bytes inflated per step: bounds the XML text (and rows) held at once. */
const SLICE = 16 * 1024;

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
  let found = false, inSheet = false, done = false;
  let row: string[] | null = null, rowRepeat = 1, pendingEmpty = 0;
  let inCell = false, cellRepeat = 1, typed: string | undefined, text = "", paras = 0, pDepth = 0, noteDepth = 0;
  // ODF white-space rule: runs of spaces/newlines in paragraph text are one space, and none at the
  // paragraph's edges; literal spaces come as <text:s/>. `softSpace` = text ends in such a collapsed space.
  let softSpace = false;

  const parser = new SaxesParser({ position: false });
  parser.on("opentag", (tag) => {
    const name = tag.name, a = tag.attributes as Record<string, string>;
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
        type === "float" || type === "percentage" || type === "currency" ? a["office:value"]
        : type === "date" ? a["office:date-value"]?.slice(0, 10)
        : type === "boolean" ? a["office:boolean-value"]
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
      if (pDepth === 0 && paras++ > 0) text += "\n";
      if (pDepth === 0) softSpace = true; // so leading white space is dropped
      pDepth++;
    } else if (pDepth) {
      if (name === "text:s") text += " ".repeat(Math.min(count(a["text:c"]), 1000));
      else if (name === "text:line-break") text += "\n";
      else if (name === "text:tab") text += "\t";
      else return;
      softSpace = false;
    }
  });
  parser.on("text", (t: string) => {
    if (!pDepth || noteDepth) return;
    t = t.replace(XML_SPACE, " ");
    if (softSpace && t.charCodeAt(0) === 32) t = t.slice(1);
    if (t) text += t, softSpace = t.charCodeAt(t.length - 1) === 32;
  });
  parser.on("closetag", (tag) => {
    const name = tag.name;
    if (!inSheet) return;
    if (name === "table:table") {
      inSheet = false;
      done = true;
    } else if (name === "table:table-row") {
      if (row && row.length) queue.push([row, rowRepeat]);
      row = null;
    } else if (name === "table:table-cell" || name === "table:covered-table-cell") {
      if (!inCell || !row) return;
      inCell = false;
      const value = typed ?? text;
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
  const feed = (chunk: Uint8Array, final: boolean) => {
    parser.write(decoder.decode(chunk, { stream: !final }));
    if (final) parser.close();
  };
  const inflater = entry.method === 8 ? new Inflate((chunk, final) => feed(chunk, final)) : null;
  const data = entry.data;
  for (let off = 0; off < data.length && !done; off += SLICE) {
    const slice = data.subarray(off, off + SLICE), last = off + SLICE >= data.length;
    try {
      if (inflater) inflater.push(slice, last);
      else feed(slice, last);
    } catch (e) {
      throw new RegisterFormatError(`ODS content.xml unreadable: ${e instanceof Error ? e.message : String(e)}`);
    }
    for (const [r, n] of queue) for (let i = 0; i < n; i++) yield i ? r.slice() : r;
    queue.length = 0;
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
  const u16 = (p: number) => dv.getUint16(p, true), u32 = (p: number) => dv.getUint32(p, true);
  const u64 = (p: number) => Number(dv.getBigUint64(p, true));
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (u32(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new RegisterFormatError("not an ODS file (zip directory missing)");
  let entries = u16(eocd + 10), p = u32(eocd + 16);
  if ((entries === 0xffff || p === 0xffffffff) && eocd >= 20 && u32(eocd - 20) === 0x07064b50) {
    const z = u64(eocd - 12); // zip64 end record
    if (z + 56 <= b.length && u32(z) === 0x06064b50) entries = u64(z + 32), p = u64(z + 48);
  }
  for (let i = 0; i < entries; i++) {
    if (p + 46 > b.length || u32(p) !== 0x02014b50) throw new RegisterFormatError("not an ODS file (zip directory corrupt)");
    const flags = u16(p + 8), method = u16(p + 10), nameLen = u16(p + 28), extraLen = u16(p + 30), commentLen = u16(p + 32);
    let size = u32(p + 20), local = u32(p + 42);
    if (names.decode(b.subarray(p + 46, p + 46 + nameLen)) === wanted) {
      if (size === 0xffffffff || local === 0xffffffff) {
        // zip64 extra field: the 8-byte values present are those whose 32-bit field is 0xffffffff, in order
        for (let e = p + 46 + nameLen, end = e + extraLen; e + 4 <= end; e += 4 + u16(e + 2)) {
          if (u16(e) !== 1) continue;
          let q = e + 4;
          if (u32(p + 24) === 0xffffffff) q += 8;
          if (size === 0xffffffff) size = u64(q), q += 8;
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
