/**
 * Test support (tests and the bench only; never imported by src): reads one sheet of an XLSX workbook into rows of
 * strings, so the real historic OFSI Consolidated List in ../shared (an XLSX, retired 28 January 2026) can still feed
 * the sanctions tests after the service stopped reading XLSX (issue 30 §2: the npm `xlsx` package is gone).
 *
 * It reads what that file and ordinary writers use: the workbook's sheet list and relationships, shared strings
 * (plain or in rich-text runs; phonetic runs dropped), inline strings, and `<v>` values of every other cell type as
 * written (numbers, booleans "1"/"0", formula results, errors). Cell references may skip columns (the skipped cells
 * are "") and rows (rows with no value are left out). The sheet read is the one named, else "Data", else the first.
 *
 * The workbook comes from a file, so reading it is bounded like the service's own readers (src/sources/ods.ts): the
 * zip is walked through its central directory, each part is inflated with fflate's streaming Inflate a slice at a
 * time and fed to saxes, and what it inflates, the entries, the cells and a cell's characters are counted as they
 * are read; a workbook past a limit is refused with an XlsxSheetError naming it.
 */
import { Inflate, strToU8, zipSync } from "fflate";
import { SaxesParser } from "saxes";

/** What the parts read may inflate to, together: the OFSI list of 10 April 2025 inflates to 17.0 MB (its sheet 12.8 MB). */
export const MAX_XLSX_INFLATED_BYTES = 64 * 1024 * 1024;
/** Entries in the zip's directory (the OFSI list has 7). */
export const MAX_XLSX_ENTRIES = 1_000;
/** Cells handed out (every cell up to a row's last non-empty one): the OFSI list has 18,798 rows of 36 columns. */
export const MAX_XLSX_CELLS = 4 * 1024 * 1024;
/** Characters of one cell or shared string: Excel's own limit. */
export const MAX_XLSX_CELL_CHARS = 32_767;
/** Excel's last column (XFD). */
const MAX_COLS = 16_384;
/** Elements open at once (a sheet nests about six deep). */
const MAX_DEPTH = 64;
/**
 * Characters read without the parser reporting a tag, a text or a comment: it holds one of those whole until it ends
 * (the longest cell is MAX_XLSX_CELL_CHARS, a few times that with its markup).
 */
const MAX_XML_RUN = 1024 * 1024;
/** Compressed bytes inflated per step: one step makes at most about 4 MiB. */
const SLICE = 4 * 1024;
/** XML characters given to the parser at a time (the run limit is checked between pieces). */
const PIECE = 16 * 1024;

export class XlsxSheetError extends Error {
  override name = "XlsxSheetError";
}

export interface XlsxSheet {
  name: string;
  /** Each row that holds a value, its cells from column A, trailing empty cells dropped. */
  rows: string[][];
}

interface Entry {
  method: number;
  data: Uint8Array;
}

/** The rows of one sheet of an XLSX workbook: `sheet` by name, else "Data", else the first sheet. */
export function readXlsxSheet(bytes: Uint8Array, opts: { sheet?: string } = {}): XlsxSheet {
  const zip = directory(bytes);
  let inflated = 0;
  /** Feeds one part's XML to `parser`, inflated a slice at a time; false when the part is absent. */
  const parse = (path: string, parser: Sax): boolean => {
    const entry = zip.get(path);
    if (!entry) return false;
    const decoder = new TextDecoder(); // drops a leading byte order mark
    const write = (chunk: Uint8Array, final: boolean) => {
      inflated += chunk.length;
      if (inflated > MAX_XLSX_INFLATED_BYTES) throw new XlsxSheetError(`the workbook inflates to more than ${MAX_XLSX_INFLATED_BYTES / 1024 / 1024} MiB`);
      try {
        const xml = decoder.decode(chunk, { stream: !final });
        for (let at = 0; at < xml.length; at += PIECE) parser.write(xml.slice(at, at + PIECE));
        if (final) parser.close();
      } catch (e) {
        throw e instanceof XlsxSheetError ? e : new XlsxSheetError(`${path} unreadable: ${e instanceof Error ? e.message : String(e)}`);
      }
    };
    if (entry.method === 0) {
      write(entry.data, true);
      return true;
    }
    const inflater = new Inflate((chunk, final) => write(chunk, final));
    try {
      for (let off = 0; off < entry.data.length || off === 0; off += SLICE)
        inflater.push(entry.data.subarray(off, off + SLICE), off + SLICE >= entry.data.length);
    } catch (e) {
      throw e instanceof XlsxSheetError ? e : new XlsxSheetError(`${path} does not inflate: ${e instanceof Error ? e.message : String(e)}`);
    }
    return true;
  };

  // The sheets, in workbook order, and where their parts are.
  const sheets: { name: string; rel: string }[] = [];
  if (!parse("xl/workbook.xml", saxOf({ opentag: (local, a) => void (local === "sheet" && sheets.push({ name: a.name ?? "", rel: relId(a) })) }))) {
    throw new XlsxSheetError("not an XLSX workbook (no xl/workbook.xml)");
  }
  const rels = new Map<string, { target: string; type: string }>();
  parse(
    "xl/_rels/workbook.xml.rels",
    saxOf({ opentag: (local, a) => void (local === "Relationship" && rels.set(a.Id ?? "", { target: a.Target ?? "", type: a.Type ?? "" })) }),
  );
  const sheet = opts.sheet !== undefined ? sheets.find((s) => s.name === opts.sheet) : (sheets.find((s) => s.name === "Data") ?? sheets[0]);
  if (!sheet) throw new XlsxSheetError(opts.sheet !== undefined ? `no sheet named "${opts.sheet}"` : "the workbook has no sheet");
  const sheetTarget = rels.get(sheet.rel)?.target;
  const sheetPath = sheetTarget ? partPath(sheetTarget) : `xl/worksheets/sheet${sheets.indexOf(sheet) + 1}.xml`;
  const sstTarget = [...rels.values()].find((r) => r.type.endsWith("/sharedStrings"))?.target;

  // Shared strings: each <si>'s <t> texts, rich-text runs joined, phonetic (<rPh>) runs left out.
  const shared: string[] = [];
  let si: string | null = null,
    inT = false,
    phonetic = 0;
  const addTo = (s: string, t: string) => {
    const out = s + t;
    if (out.length > MAX_XLSX_CELL_CHARS) throw new XlsxSheetError(`a string of more than ${MAX_XLSX_CELL_CHARS.toLocaleString("en-GB")} characters`);
    return out;
  };
  parse(
    sstTarget ? partPath(sstTarget) : "xl/sharedStrings.xml",
    saxOf({
      opentag: (local) => {
        if (local === "si") si = "";
        else if (local === "rPh") phonetic++;
        else if (local === "t" && si !== null && !phonetic) inT = true;
      },
      text: (t) => void (inT && si !== null && (si = addTo(si, t))),
      closetag: (local) => {
        if (local === "t") inT = false;
        else if (local === "rPh") phonetic--;
        else if (local === "si" && si !== null) shared.push(si), (si = null);
      },
    }),
  );

  // The sheet's cells.
  const rows: string[][] = [];
  let row: string[] = [],
    next = 0,
    cells = 0;
  let cell: { col: number; type: string } | null = null,
    value: string | null = null,
    inValue = false,
    inInline = 0;
  const put = () => {
    if (!cell || value === null) return;
    let v = value;
    if (cell.type === "s") {
      const i = Number(v);
      if (!Number.isInteger(i) || i < 0 || i >= shared.length)
        throw new XlsxSheetError(`a cell refers to shared string ${v}, which the workbook does not hold`);
      v = shared[i];
    }
    if (v === "") return;
    cells += cell.col + 1 - row.length;
    if (cells > MAX_XLSX_CELLS) throw new XlsxSheetError(`more than ${MAX_XLSX_CELLS.toLocaleString("en-GB")} cells in the sheet`);
    while (row.length < cell.col) row.push("");
    row.push(v);
  };
  const found = parse(
    sheetPath,
    saxOf({
      opentag: (local, a) => {
        if (local === "row") (row = []), (next = 0);
        else if (local === "c") {
          const col = a.r ? columnOf(a.r) : next;
          if (col >= MAX_COLS) throw new XlsxSheetError(`a cell reference past column XFD (${a.r})`);
          if (col < next) throw new XlsxSheetError(`cells out of order in a row (${a.r})`);
          next = col + 1;
          cell = { col, type: a.t ?? "n" };
          value = null;
        } else if (cell && local === "v") (inValue = true), (value = "");
        else if (cell && local === "is") inInline++, (value ??= "");
        else if (cell && inInline && local === "rPh") phonetic++;
        else if (cell && inInline && local === "t" && !phonetic) inValue = true;
      },
      text: (t) => void (inValue && (value = addTo(value ?? "", t))),
      closetag: (local) => {
        if (local === "v" || local === "t") inValue = false;
        else if (local === "rPh") phonetic--;
        else if (local === "is") inInline--;
        else if (local === "c") put(), (cell = null);
        else if (local === "row" && row.length) rows.push(row);
      },
    }),
  );
  if (!found) throw new XlsxSheetError(`the workbook lacks its sheet's part (${sheetPath})`);
  return { name: sheet.name, rows };
}

/** An XML reader: a SAX parser calling back with local names (prefixes dropped), with a depth and a run limit. */
interface Sax {
  write(xml: string): void;
  close(): void;
}
function saxOf(on: { opentag?: (local: string, attrs: Record<string, string>) => void; text?: (t: string) => void; closetag?: (local: string) => void }): Sax {
  const parser = new SaxesParser({ position: false });
  let depth = 0,
    run = 0;
  const local = (name: string) => name.slice(name.indexOf(":") + 1);
  parser.on("opentag", (tag) => {
    run = 0;
    if (++depth > MAX_DEPTH) throw new XlsxSheetError(`elements nested more than ${MAX_DEPTH} deep`);
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(tag.attributes as Record<string, string>)) attrs[local(k)] = v;
    on.opentag?.(local(tag.name), attrs);
  });
  parser.on("text", (t) => {
    run = 0;
    on.text?.(t);
  });
  parser.on("cdata", (t) => {
    run = 0;
    on.text?.(t);
  });
  parser.on("comment", () => void (run = 0));
  parser.on("closetag", (tag) => {
    run = 0;
    depth--;
    on.closetag?.(local(tag.name));
  });
  return {
    write(xml) {
      run += xml.length;
      parser.write(xml);
      if (run > MAX_XML_RUN) throw new XlsxSheetError(`more than ${MAX_XML_RUN.toLocaleString("en-GB")} characters in one text, tag or comment`);
    },
    close: () => void parser.close(),
  };
}

/** The relationship id of a <sheet> (r:id, whatever its prefix: prefixes are dropped, so it is "id"). */
const relId = (a: Record<string, string>) => a.id ?? "";

/** A relationship target as a path inside the zip (relative to xl/, or absolute from the root). */
function partPath(target: string): string {
  const parts: string[] = [];
  for (const p of (target.startsWith("/") ? target.slice(1) : `xl/${target}`).split("/")) {
    if (p === "..") parts.pop();
    else if (p && p !== ".") parts.push(p);
  }
  return parts.join("/");
}

/** The zero-based column of a cell reference ("A1" → 0, "AJ18798" → 35). */
function columnOf(ref: string): number {
  const m = /^\$?([A-Za-z]{1,3})\$?\d*$/.exec(ref);
  if (!m) throw new XlsxSheetError(`a cell reference that is not one (${ref.slice(0, 20)})`);
  let n = 0;
  for (const ch of m[1].toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** Every entry of the zip by path, through its central directory (no zip64: a workbook of 4 GB is not one to read). */
function directory(b: Uint8Array): Map<string, Entry> {
  if (b.length < 22 || b[0] !== 0x50 || b[1] !== 0x4b) throw new XlsxSheetError("not an XLSX workbook (not a zip archive)");
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const u16 = (p: number) => dv.getUint16(p, true),
    u32 = (p: number) => dv.getUint32(p, true);
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (u32(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new XlsxSheetError("not an XLSX workbook (zip directory missing)");
  const count = u16(eocd + 10);
  if (count > MAX_XLSX_ENTRIES) throw new XlsxSheetError(`the workbook has ${count} entries, more than ${MAX_XLSX_ENTRIES}`);
  const names = new TextDecoder();
  const out = new Map<string, Entry>();
  for (let i = 0, p = u32(eocd + 16); i < count; i++) {
    if (p + 46 > b.length || u32(p) !== 0x02014b50) throw new XlsxSheetError("not an XLSX workbook (zip directory corrupt)");
    const flags = u16(p + 8),
      method = u16(p + 10),
      size = u32(p + 20),
      nameLen = u16(p + 28),
      local = u32(p + 42);
    const name = names.decode(b.subarray(p + 46, p + 46 + nameLen));
    p += 46 + nameLen + u16(p + 30) + u16(p + 32);
    if (flags & 1) throw new XlsxSheetError("the workbook is encrypted");
    if (method !== 0 && method !== 8) throw new XlsxSheetError(`${name} uses compression method ${method}`);
    if (local + 30 > b.length || u32(local) !== 0x04034b50) throw new XlsxSheetError("not an XLSX workbook (zip entry corrupt)");
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    if (start + size > b.length) throw new XlsxSheetError(`${name} is truncated`);
    if (!out.has(name)) out.set(name, { method, data: b.subarray(start, start + size) });
  }
  return out;
}

/**
 * A small XLSX workbook for tests, written by hand as Excel lays one out: each sheet's rows from column A, strings as
 * shared strings (or inline strings with `inline`), numbers as numbers, null and "" cells left out (so rows have
 * gaps). Sheets in the order given.
 */
export function xlsxOf(sheets: Record<string, (string | number | null)[][]>, opts: { inline?: boolean } = {}): Uint8Array {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const col = (i: number): string => (i < 26 ? String.fromCharCode(65 + i) : col(Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26)));
  const shared: string[] = [];
  const sharedAt = new Map<string, number>();
  const files: Record<string, Uint8Array> = {};
  const names = Object.keys(sheets);
  names.forEach((name, s) => {
    const rows = sheets[name].map((r, ri) => {
      const cells = r.map((v, ci) => {
        if (v === null || v === "") return "";
        const ref = `${col(ci)}${ri + 1}`;
        if (typeof v === "number") return `<c r="${ref}"><v>${v}</v></c>`;
        if (opts.inline) return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${esc(v)}</t></is></c>`;
        if (!sharedAt.has(v)) sharedAt.set(v, shared.push(v) - 1);
        return `<c r="${ref}" t="s"><v>${sharedAt.get(v)}</v></c>`;
      });
      return `<row r="${ri + 1}">${cells.join("")}</row>`;
    });
    files[`xl/worksheets/sheet${s + 1}.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${MAIN}"><sheetData>${rows.join("")}</sheetData></worksheet>`,
    );
  });
  const ct = "application/vnd.openxmlformats-officedocument.spreadsheetml";
  files["[Content_Types].xml"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="${ct}.sheet.main+xml"/>` +
      names.map((_, s) => `<Override PartName="/xl/worksheets/sheet${s + 1}.xml" ContentType="${ct}.worksheet+xml"/>`).join("") +
      `<Override PartName="/xl/sharedStrings.xml" ContentType="${ct}.sharedStrings+xml"/></Types>`,
  );
  files["_rels/.rels"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  files["xl/workbook.xml"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>${names.map((n, s) => `<sheet name="${esc(n)}" sheetId="${s + 1}" r:id="rId${s + 1}"/>`).join("")}</sheets></workbook>`,
  );
  files["xl/_rels/workbook.xml.rels"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      names.map((_, s) => `<Relationship Id="rId${s + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${s + 1}.xml"/>`).join("") +
      `<Relationship Id="rId${names.length + 1}" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  );
  files["xl/sharedStrings.xml"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${MAIN}" count="${shared.length}" uniqueCount="${shared.length}">${shared.map((t) => `<si><t xml:space="preserve">${esc(t)}</t></si>`).join("")}</sst>`,
  );
  return zipSync(files);
}
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
