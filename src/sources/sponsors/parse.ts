/**
 * Home Office register of licensed sponsors (workers; students) CSV → RegisterRecord (SPEC §4.8, §6.3).
 * One row per (organisation, route); no licence or company number, so the key is built from the
 * normalised name and route. Town is left out of the key on purpose: a rewritten town is a "moved"
 * change of the same entry, not a removal plus an addition.
 */
import { looksLikePersonalName } from "../../services/matching/names";
import Papa from "papaparse";
import type { RegisterRecord } from "../../services/registers/types";
import { RegisterFormatError } from "../format-error";

export type SponsorsRegister = "workers" | "students";

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

const SPACES = /\s+/g;
/** Cheap key normalisation: lower-case, trimmed, inner whitespace collapsed. Matching has its own. */
const norm = (s: string) => s.toLowerCase().trim().replace(SPACES, " ");

const DATE_IN_NAME = /(\d{4})-(\d{2})-(\d{2})/;

/**
 * Edition date from a register file name or URL: `2021-09-30_-_Worker_and_Temporary_Worker.csv`
 * (until mid-2026) or `SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv` (after).
 */
export function sponsorsEditionDateFromFileName(name: string): string | null {
  const base = decodeURIComponent(name.split(/[?#]/)[0].split("/").pop() ?? "");
  const m = DATE_IN_NAME.exec(base);
  if (!m) return null;
  const d = new Date(`${m[0]}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === m[0] ? m[0] : null;
}

/** Free-text county values that mean "none given". */
const COUNTY_PLACEHOLDERS = new Set(["select a state", "choose county", "select county", "not set", "none", "n/a", "na", "-"]);
const TRADING_AS = /\b(?:t\/as?|trading\s+as)\b/i;
const ALT_EDGE_START = /^[\s:.,\-(]+/;

/** The trading name after `T/A`, `t/as` or `trading as`, without stray brackets: "(t/a GIA London)" → "GIA London". */
function tradingName(name: string): string | null {
  const m = TRADING_AS.exec(name);
  if (!m) return null;
  let alt = name.slice(m.index + m[0].length).replace(ALT_EDGE_START, "").trimEnd();
  // Drop closing brackets that close something opened before the T/A.
  while (alt.endsWith(")") && alt.split(")").length > alt.split("(").length) alt = alt.slice(0, -1).trimEnd();
  return alt || null;
}

const blankToNull = (s: string | undefined) => {
  const t = s?.trim();
  return t ? t : null;
};

/** "Worker (A (Premium))" → "A (Premium)"; "Worker (UK Expansion Worker: Provisional )" → "UK Expansion Worker: Provisional". */
function ratingInBrackets(typeAndRating: string): string | null {
  const open = typeAndRating.indexOf("(");
  const close = typeAndRating.lastIndexOf(")");
  return open >= 0 && close > open ? typeAndRating.slice(open + 1, close).trim() || null : null;
}

interface Columns {
  name: number;
  town: number;
  route: number;
  county: number;
  typeAndRating: number;
  additionalLocations: number;
  sponsorType: number;
  status: number;
  compliance: number;
}

function columns(header: string[]): { register: SponsorsRegister; cols: Columns } {
  const at = (n: string) => header.findIndex((h) => h.toLowerCase() === n);
  const register: SponsorsRegister | null = at("organisation name") >= 0 ? "workers" : at("sponsor name") >= 0 ? "students" : null;
  if (!register) throw new RegisterFormatError("sponsors: header has neither 'Organisation Name' nor 'Sponsor Name'");
  const cols: Columns = {
    name: at(register === "workers" ? "organisation name" : "sponsor name"),
    town: at("town/city"),
    route: at("route"),
    county: at("county"),
    typeAndRating: at("type & rating"),
    additionalLocations: at("additional locations"),
    sponsorType: at("sponsor type"),
    status: at("status"),
    compliance: at("immigration compliance"),
  };
  const required = register === "workers" ? { town: "Town/City", route: "Route", typeAndRating: "Type & Rating" } : { town: "Town/City", route: "Route", status: "Status" };
  for (const [k, label] of Object.entries(required)) {
    if (cols[k as keyof Columns] < 0) throw new RegisterFormatError(`sponsors: ${register} header lacks '${label}'`);
  }
  return { register, cols };
}

/**
 * Parses a workers or students register file (told apart by its header). Keys are
 * `${register}|${name}|${route}` normalised; when the same key comes again in one edition (same
 * organisation and route in another town), `|${town}` is appended to the later rows, then `|2`, `|3`…
 */
export function parseSponsors(
  bytes: Uint8Array | string,
  opts: { fileName?: string } = {},
): { register: SponsorsRegister; editionDate: string | null; records: AsyncGenerator<RegisterRecord> } {
  const { register, cols } = columns(firstRow(bytes, ","));
  const editionDate = opts.fileName ? sponsorsEditionDateFromFileName(opts.fileName) : null;
  return { register, editionDate, records: sponsorRecords(bytes, register, cols) };
}

async function* sponsorRecords(bytes: Uint8Array | string, register: SponsorsRegister, c: Columns): AsyncGenerator<RegisterRecord> {
  const seen = new Set<string>();
  let header = true;
  for await (const rows of delimitedRowBatches(bytes, ",")) {
    for (const row of rows) {
      if (header) {
        header = false;
        continue;
      }
      const name = row[c.name]?.trim();
      if (!name) continue;
      // SPEC §1 rule 7: a person registered under their own name (a sole trader, "Mrs A Smith T/A ...") is not loaded.
      if (looksLikePersonalName(name)) continue;
      const town = blankToNull(row[c.town]);
      const route = row[c.route]?.trim() ?? "";
      let key = `${register}|${norm(name)}|${norm(route)}`;
      if (seen.has(key)) {
        key += `|${town ? norm(town) : ""}`;
        for (let n = 2, base = key; seen.has(key); n++) key = `${base}|${n}`;
      }
      seen.add(key);
      const alt = tradingName(name);
      let rating: string | null;
      let data: Record<string, unknown>;
      if (register === "workers") {
        const county = blankToNull(c.county >= 0 ? row[c.county] : undefined);
        const typeAndRating = blankToNull(row[c.typeAndRating]);
        rating = typeAndRating;
        data = {
          name,
          town,
          county: county && !COUNTY_PLACEHOLDERS.has(county.toLowerCase()) ? county : null,
          register,
          route,
          typeAndRating,
          rating: typeAndRating ? ratingInBrackets(typeAndRating) : null,
        };
      } else {
        const status = blankToNull(row[c.status]);
        const locations = c.additionalLocations >= 0 ? row[c.additionalLocations]?.trim() : "";
        rating = status;
        data = {
          name,
          town,
          county: null,
          register,
          route,
          sponsorType: blankToNull(c.sponsorType >= 0 ? row[c.sponsorType] : undefined),
          status,
          immigrationCompliance: blankToNull(c.compliance >= 0 ? row[c.compliance] : undefined),
          additionalLocations: locations ? locations.split("/").map((l) => l.trim()).filter(Boolean) : [],
          rating: status,
        };
      }
      yield { source: "sponsors", key, name, companyNumber: null, altNames: alt ? [alt] : [], status: "listed", rating, town, data };
    }
  }
}
