/**
 * HMRC Money Laundering Regulations supervised business register (SPEC §2.5, §3.2, §4.5, §6.3).
 * One record per row = one premises/agent of a supervised business. Two flavours are accepted,
 * both parsed by header name: the current ODS (long headers, `Yes`/`No Data` flags) and the older
 * CSV (`MLR_REG`, `BUSINESS_NAME`, `TRADING_NAME`, `POS`, `STATUS1`, `X`/blank flags).
 */
import { normaliseName } from "../../services/matching/names";
import { companyLevelNames } from "../../services/matching/people";
import type { RegisterRecord } from "../../services/registers/types";
import { delimitedRowBatches } from "../delimited";
import { RegisterFormatError } from "../format-error";
import { readOdsRows } from "../ods";

const SECTORS = [
  ["estate agency", ["estate agency business", "estate agency businesses", "estate agents", "eab"]],
  ["letting agency", ["letting agency business", "letting agency businesses", "letting agents", "lab"]],
  ["accountancy service provider", ["accountancy service provider", "accountancy service providers", "asp"]],
  ["trust or company service provider", ["trust or company service provider", "trust or company service providers", "tcsp"]],
  ["high value dealer", ["high value dealer", "high value dealers", "hvd"]],
  ["art market participant", ["art market participant", "art market participants", "amp"]],
  ["money service business", ["money service businesses", "money service business", "msb"]],
  ["bill payment service provider", ["bill payment service providers", "bill payment service provider", "bpsp"]],
  [
    "IT and digital payment service provider",
    [
      "it and digital payment service providers",
      "it and digital payment service provider",
      "telecommunication digital and it payment service providers",
      "tdpsp",
    ],
  ],
] as const;

const MSB_ACTIVITIES = [
  ["money transmitter", ["msb money transmitter"]],
  ["currency exchange", ["msb currency exchange"]],
  ["foreign exchange", ["msb foreign exchange"]],
  ["scrap metal dealer", ["msb scrap metal dealer"]],
  ["cheque casher", ["msb cheque casher"]],
] as const;

/** Header aliases (normalised: lower case, runs of non-alphanumerics → one space). */
const FIELDS = {
  mlrNumber: ["mlr registration number", "mlr reg", "mlr number", "mlr registration no"],
  businessStart: ["business start date"],
  businessName: ["business name"],
  agentStart: ["agent start date"],
  tradingName: ["trading name"],
  postcode: ["postcode", "pos", "post code"],
  status: ["status", "status1"],
} as const;
const REQUIRED = ["mlrNumber", "businessName", "tradingName", "postcode", "status"] as const;

const HEADER_SEARCH = 10;
const STATUS: Record<string, string> = { APPROVED: "Approved", APPLIED: "Applied", EXPIRED: "Expired" };
const SET_FLAGS = new Set(["yes", "x", "y"]);
const DMY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;
/** A full postcode written without its space: the inward code is always digit + two letters. */
const FULL_POSTCODE = /^([A-Z]{1,2}\d[A-Z\d]?)\d[A-Z]{2}$/;
const SPACES = /\s+/g;

const normHeader = (h: string) =>
  h
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
const norm = (s: string) => s.trim().toLowerCase().replace(SPACES, " ");

/** Column positions by field, found by header name. */
interface Columns {
  field: Record<keyof typeof FIELDS, number>;
  sectors: Array<[label: string, index: number]>;
  msb: Array<[label: string, index: number]>;
}

/** Column positions, or null when this row is not the header. */
function mapHeader(header: string[]): Columns | null {
  const pos = new Map<string, number>();
  header.forEach((h, i) => {
    const n = normHeader(h);
    if (n && !pos.has(n)) pos.set(n, i);
  });
  const find = (aliases: readonly string[]) => aliases.reduce((f, a) => (f >= 0 ? f : (pos.get(a) ?? -1)), -1);
  const field = Object.fromEntries(Object.entries(FIELDS).map(([k, aliases]) => [k, find(aliases)])) as Columns["field"];
  if (REQUIRED.some((k) => field[k] < 0)) return null;
  const flagCols = (list: typeof SECTORS | typeof MSB_ACTIVITIES) =>
    list.map(([label, aliases]) => [label, find(aliases)] as [string, number]).filter(([, i]) => i >= 0);
  return { field, sectors: flagCols(SECTORS), msb: flagCols(MSB_ACTIVITIES) };
}

/** Outward code of a postcode district or full postcode, upper case. */
export function postcodeDistrict(raw: string): string {
  const s = raw.trim().toUpperCase();
  const space = s.indexOf(" ");
  if (space > 0) return s.slice(0, space);
  const m = FULL_POSTCODE.exec(s);
  return m ? m[1] : s;
}

/** `dd/mm/yyyy` text or a typed date cell (already `YYYY-MM-DD`) → `YYYY-MM-DD`; anything else → null. */
function toDate(raw: string | undefined): string | null {
  const s = raw?.trim();
  if (!s) return null;
  if (ISO_DATE.test(s)) return s.slice(0, 10);
  const m = DMY.exec(s);
  return m ? `${m[3]}-${m[2].padStart(2, "0")}-${m[1].padStart(2, "0")}` : null;
}

/** What a parse left out, for the run log (never the left-out names themselves: SPEC §1 rule 7). */
export interface HmrcParseStats {
  /** Premises rows that name only a person (a sole practitioner under their own name): not loaded. */
  personOnlyRows: number;
  /** Rows whose business name is a person: kept under the trading name only. */
  personNamesRemoved: number;
}

/**
 * Parses one edition of the register (ODS, or the CSV flavour when the bytes are not a zip; the
 * format is told by content, so `fileName` is informative only).
 *
 * One record per premises row. The entity is the registration: its MLR number (a business renamed
 * keeps it), or `NONUM:<normalised business name>` for the rare row without one. `part` is the
 * premises' postcode district, so premises opened or closed are a `premises` change of the
 * registration, never its removal. Key: `${entity}|${normTradingName}|${postcodeDistrict}`; a key seen
 * again in the same file gets `|2`, `|3`… in file order.
 *
 * SPEC §1 rule 7: a sole practitioner registered under their own name is kept under the trading name
 * only; a row with nothing but a person's name is not loaded.
 */
export async function* parseHmrcMlr(bytes: Uint8Array, opts: { fileName?: string; stats?: HmrcParseStats } = {}): AsyncGenerator<RegisterRecord<"aml">> {
  const isZip = bytes.length >= 2 && bytes[0] === 0x50 && bytes[1] === 0x4b;
  const rows = isZip ? readOdsRows(bytes) : csvRows(bytes);
  let cols: Columns | null = null,
    before = 0;
  const seen = new Map<string, number>();
  for await (const row of rows) {
    if (!cols) {
      // row 1 is the header; a few title rows above it are tolerated
      cols = mapHeader(row);
      if (!cols && ++before > HEADER_SEARCH) break;
      continue;
    }
    const f = cols.field;
    const cell = (i: number) => (i >= 0 && i < row.length ? row[i].trim() : "");
    const mlrNumber = cell(f.mlrNumber).replace(SPACES, "").toUpperCase(),
      rawBusiness = cell(f.businessName),
      rawTrading = cell(f.tradingName);
    const rawStatus = cell(f.status);
    if (!mlrNumber && !rawBusiness && !rawTrading) continue; // a blank or filler row
    const district = postcodeDistrict(cell(f.postcode));
    const kept = companyLevelNames(rawBusiness || rawTrading, rawBusiness ? rawTrading || null : null);
    if (!kept) {
      if (opts.stats) opts.stats.personOnlyRows++;
      continue;
    }
    if (kept.personRemoved && opts.stats) opts.stats.personNamesRemoved++;
    const name = kept.name;
    const tradingName = kept.tradingName ?? "";
    const entity = mlrNumber || `NONUM:${normaliseName(name) || norm(name)}`;
    let key = `${entity}|${norm(tradingName)}|${district}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n > 1) key += `|${n}`;
    const status = STATUS[rawStatus.toUpperCase()] ?? rawStatus;
    const flagged = (list: Array<[string, number]>) => list.filter(([, i]) => SET_FLAGS.has(cell(i).toLowerCase())).map(([label]) => label);
    yield {
      source: "aml",
      key,
      entity,
      part: district || null,
      name,
      companyNumber: null,
      altNames: tradingName && norm(tradingName) !== norm(name) ? [tradingName] : [],
      status,
      rating: null,
      town: null,
      data: {
        mlrNumber: mlrNumber || null,
        businessName: name,
        tradingName: tradingName || null,
        postcodeDistrict: district,
        status,
        sectors: flagged(cols.sectors),
        msbActivities: flagged(cols.msb),
        registeredSince: toDate(cell(f.businessStart)),
        agentSince: toDate(cell(f.agentStart)),
      },
    };
  }
  if (!cols) {
    const want = REQUIRED.map((k) => FIELDS[k][0]).join(", ");
    throw new RegisterFormatError(`HMRC MLR register: no header row with the columns ${want}`);
  }
}

/** CSV rows (the CSV-era layout), read in batches of whole records. */
async function* csvRows(bytes: Uint8Array): AsyncGenerator<string[]> {
  if (bytes.includes(0)) throw new RegisterFormatError("HMRC MLR register: neither an ODS nor a CSV file");
  for await (const rows of delimitedRowBatches(bytes, ",")) yield* rows;
}
