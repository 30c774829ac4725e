/**
 * Delimited text (CSV, TSV) read in batches of whole records, shared by the register parsers
 * (sponsors CSV, Charity Commission TSV).
 */
import Papa from "papaparse";
import { RegisterFormatError } from "./format-error";

const QUOTE = 34;
const LF = 10;
const CR = 13;
const MAX_RECORD_CHARS = 1 << 24;

/** Splits text (or UTF-8 bytes, decoded piece by piece) into pieces of about `size` characters. */
function* textPieces(input: Uint8Array | string, size: number): Generator<string> {
  if (typeof input === "string") {
    const s = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    for (let i = 0; i < s.length; i += size) yield s.slice(i, i + size);
    return;
  }
  const dec = new TextDecoder("utf-8"); // drops a leading BOM by itself
  for (let i = 0; i < input.length; i += size) yield dec.decode(input.subarray(i, i + size), { stream: true });
  yield dec.decode();
}

/**
 * Delimited text (CSV, TSV) as batches of rows, for streaming parsers. A small scanner finds the last
 * record boundary outside quotes in each piece, so papaparse only ever sees whole records and a large
 * file is never held as one array of rows. Accepts a BOM, CRLF or LF, quoted or unquoted fields.
 */
export async function* delimitedRowBatches(input: Uint8Array | string, delimiter: string, batchChars = 1 << 20): AsyncGenerator<string[][]> {
  const delim = delimiter.charCodeAt(0);
  let carry = "";
  let scanned = 0; // characters of `carry` already scanned
  let inQuotes = false;
  let fieldStart = true;
  let newline: "\r\n" | "\n" | undefined;
  const parse = (text: string) => Papa.parse<string[]>(text, { delimiter, newline, skipEmptyLines: true }).data;
  for (const piece of textPieces(input, batchChars)) {
    const text = carry + piece;
    let cut = -1;
    let i = scanned;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inQuotes) {
        if (c !== QUOTE) continue;
        if (i + 1 === text.length) break; // a doubled quote may straddle the pieces: decide next time
        if (text.charCodeAt(i + 1) === QUOTE) i++;
        else inQuotes = false;
      } else if (c === LF) {
        cut = i + 1;
        fieldStart = true;
        newline ??= i > 0 && text.charCodeAt(i - 1) === CR ? "\r\n" : "\n";
      } else {
        if (c === QUOTE && fieldStart) inQuotes = true;
        fieldStart = c === delim;
      }
    }
    if (cut < 0) {
      // An unclosed quote would otherwise swallow the rest of the file, re-copied piece after piece.
      if (text.length > MAX_RECORD_CHARS) throw new RegisterFormatError("delimited text: a record runs past 16M characters (unclosed quote?)");
      carry = text;
      scanned = i;
      continue;
    }
    carry = text.slice(cut);
    scanned = i - cut;
    const rows = parse(text.slice(0, cut));
    if (rows.length) yield rows;
  }
  if (carry.trim()) {
    const rows = parse(carry);
    if (rows.length) yield rows;
  }
}

/** The first row of delimited text, read without decoding the whole input. */
export function firstRow(input: Uint8Array | string, delimiter: string): string[] {
  let head = typeof input === "string" ? input.slice(0, 65536) : new TextDecoder().decode(input.subarray(0, 65536));
  if (head.charCodeAt(0) === 0xfeff) head = head.slice(1);
  const end = head.indexOf("\n");
  const line = end < 0 ? head : head.slice(0, end > 0 && head.charCodeAt(end - 1) === CR ? end - 1 : end);
  const row = Papa.parse<string[]>(line, { delimiter, newline: "\n" }).data[0] ?? [];
  return row.map((h) => h.trim());
}
