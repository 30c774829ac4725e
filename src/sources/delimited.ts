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

/** Text, UTF-8 bytes, or a stream of UTF-8 bytes (a large download read as it arrives). */
export type DelimitedInput = Uint8Array | string | AsyncIterable<Uint8Array>;

/** Bytes that are not valid text in the encoding they were read as (BatchOptions `fatal`). */
export class TextEncodingError extends Error {
  name = "TextEncodingError";
}

/** A decoder that turns a malformed byte sequence into a TextEncodingError when `fatal`. */
function decoderOf(encoding: string, fatal: boolean): (bytes?: Uint8Array, stream?: boolean) => string {
  const dec = new TextDecoder(encoding, { fatal, ignoreBOM: false }); // utf-8 drops a leading BOM by itself
  return (bytes, stream = false) => {
    try {
      return bytes ? dec.decode(bytes, { stream }) : dec.decode();
    } catch (e) {
      if (fatal && e instanceof TypeError) throw new TextEncodingError(`delimited text: not valid ${encoding}`);
      throw e;
    }
  };
}

/** Splits the input into pieces of about `size` characters, decoding bytes piece by piece. */
async function* textPieces(input: DelimitedInput, size: number, encoding = "utf-8", fatal = false): AsyncGenerator<string> {
  if (typeof input === "string") {
    const s = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    for (let i = 0; i < s.length; i += size) yield s.slice(i, i + size);
    return;
  }
  const decode = decoderOf(encoding, fatal);
  if (input instanceof Uint8Array) {
    for (let i = 0; i < input.length; i += size) yield decode(input.subarray(i, i + size), true);
  } else {
    // Stream chunks are gathered up to `size` bytes, so the parser sees a few large pieces, not many small ones.
    let parts: Uint8Array[] = [];
    let bytes = 0;
    const joined = () => {
      if (parts.length === 1) return parts[0];
      const out = new Uint8Array(bytes);
      let at = 0;
      for (const p of parts) out.set(p, at), (at += p.length);
      return out;
    };
    for await (const chunk of input) {
      parts.push(chunk);
      bytes += chunk.length;
      if (bytes >= size) {
        yield decode(joined(), true);
        parts = [];
        bytes = 0;
      }
    }
    if (bytes) yield decode(joined(), true);
  }
  yield decode();
}

export interface BatchOptions {
  /** Characters read per piece (default 1M). */
  batchChars?: number;
  /**
   * A cheap look at each raw record (its text without the line break; index 0 is the first line)
   * before it is parsed: records it refuses are never parsed. An optimisation only: it may keep
   * records the caller then ignores, but anything it refuses is gone.
   */
  keep?: (record: string, index: number) => boolean;
  /** The bytes' encoding, a TextDecoder label (default utf-8; text input is already decoded). */
  encoding?: string;
  /** Throw a TextEncodingError on bytes that are not valid in `encoding`, instead of replacing them (default false). */
  fatal?: boolean;
}

/**
 * Delimited text (CSV, TSV) as batches of rows, for streaming parsers. A small scanner finds the last
 * record boundary outside quotes in each piece, so papaparse only ever sees whole records and a large
 * file is never held as one array of rows. Accepts a BOM, CRLF or LF, quoted or unquoted fields.
 */
export async function* delimitedRowBatches(
  input: DelimitedInput,
  delimiter: string,
  { batchChars = 1 << 20, keep, encoding, fatal }: BatchOptions = {},
): AsyncGenerator<string[][]> {
  const delim = delimiter.charCodeAt(0);
  let carry = "";
  let scanned = 0; // characters of `carry` already scanned
  let inQuotes = false;
  let newline: "\r\n" | "\n" | undefined;
  let recordIndex = 0;
  const parse = (text: string) => Papa.parse<string[]>(text, { delimiter, newline, skipEmptyLines: true }).data;
  for await (const piece of textPieces(input, batchChars, encoding, fatal)) {
    const text = carry + piece;
    let cut = -1;
    let recordStart = 0;
    const kept: string[] = [];
    // The scanner jumps between quotes and line breaks (indexOf), so a large file costs little beyond
    // papaparse's own pass. A quote opens a quoted field only at a field's start: the first character of
    // the text (a record's start) or after the delimiter or a line break.
    let i = scanned;
    let nextQuote = -2; // cached: the next quote at or after i (-1: none), -2: not looked for yet
    let nextLf = -2;
    while (i < text.length) {
      if (inQuotes) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          i = text.length;
          break;
        }
        if (q + 1 === text.length) {
          i = q; // a doubled quote may straddle the pieces: decide next time
          break;
        }
        if (text.charCodeAt(q + 1) === QUOTE) i = q + 2;
        else {
          inQuotes = false;
          i = q + 1;
        }
        nextQuote = nextLf = -2;
        continue;
      }
      if (nextQuote !== -1 && nextQuote < i) nextQuote = text.indexOf('"', i);
      if (nextLf !== -1 && nextLf < i) nextLf = text.indexOf("\n", i);
      if (nextLf >= 0 && (nextQuote < 0 || nextLf < nextQuote)) {
        const lf = nextLf;
        cut = lf + 1;
        newline ??= lf > 0 && text.charCodeAt(lf - 1) === CR ? "\r\n" : "\n";
        if (keep) {
          const end = lf > recordStart && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
          if (keep(text.slice(recordStart, end), recordIndex++)) kept.push(text.slice(recordStart, lf + 1));
          recordStart = lf + 1;
        }
        i = lf + 1;
      } else if (nextQuote >= 0) {
        const q = nextQuote;
        const prev = q > 0 ? text.charCodeAt(q - 1) : LF;
        if (prev === delim || prev === LF) inQuotes = true;
        i = q + 1;
      } else i = text.length;
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
    const rows = keep ? (kept.length ? parse(kept.join("")) : []) : parse(text.slice(0, cut));
    if (rows.length) yield rows;
  }
  if (carry.trim() && (!keep || keep(carry.replace(/\r?\n?$/, ""), recordIndex++))) {
    const rows = parse(carry);
    if (rows.length) yield rows;
  }
}

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

/**
 * A copy of `s` that does not keep alive the parsed text it was cut from. V8 makes substrings of 13+
 * characters views into their parent, so a value kept from a 1 MB piece would otherwise keep the piece.
 */
export const ownString = (s: string): string => (s.length < 13 ? s : DECODER.decode(ENCODER.encode(s)));

/** The first row of delimited text, read without decoding the whole input. */
export function firstRow(input: Uint8Array | string, delimiter: string): string[] {
  let head = typeof input === "string" ? input.slice(0, 65536) : new TextDecoder().decode(input.subarray(0, 65536));
  if (head.charCodeAt(0) === 0xfeff) head = head.slice(1);
  const end = head.indexOf("\n");
  const line = end < 0 ? head : head.slice(0, end > 0 && head.charCodeAt(end - 1) === CR ? end - 1 : end);
  const row = Papa.parse<string[]>(line, { delimiter, newline: "\n" }).data[0] ?? [];
  return row.map((h) => h.trim());
}

/**
 * The first `n` records of delimited text (the header included), read from its first 256K characters
 * without decoding the whole input; quoted fields may span lines. Fewer when the text has fewer (or
 * when a record runs past the piece read: the last one may then be cut short).
 */
export function firstRows(input: Uint8Array | string, delimiter: string, n: number): string[][] {
  let head = typeof input === "string" ? input.slice(0, 1 << 18) : new TextDecoder().decode(input.subarray(0, 1 << 18));
  if (head.charCodeAt(0) === 0xfeff) head = head.slice(1);
  const lf = head.indexOf("\n");
  const newline = lf > 0 && head.charCodeAt(lf - 1) === CR ? "\r\n" : "\n";
  return Papa.parse<string[]>(head, { delimiter, newline, preview: n, skipEmptyLines: true }).data;
}
