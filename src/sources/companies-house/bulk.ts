/**
 * Companies House "Basic Company Data" (the free monthly snapshot of every live company: one CSV of about
 * 5.7 million rows, or a zip holding it) → register records, streamed batch by batch.
 *
 * The real file's quirks (shared/formats/ch-bulk-basic-company-data.md): header names with leading
 * spaces; every value quoted, empty ones as ""; dates DD/MM/YYYY; numbers kept with their zeros and
 * prefixes (never integers: "07687209", "SC123456", "IP10067R"); SIC columns "CODE - Description" or
 * "None Supplied", 4-digit SIC 2003 codes on old records; runs of spaces inside values; older rows with
 * 53 columns (no confirmation-statement columns). Columns are found by their trimmed header names, so a
 * moved or missing column reads as blank rather than as its neighbour. Records are short-lived (staged in
 * batches), so values are kept as the parser cut them.
 */
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import type { BulkCompanyData } from "../../services/companies/records";
import type { RegisterRecord } from "../../services/registers/types";
import { type DelimitedInput, delimitedRowBatches, firstRow } from "../delimited";
import { RegisterFormatError } from "../format-error";

export type { BulkCompanyData };

/** Counts the parser keeps of rows it left out (never names). */
export interface BulkParseStats {
  [count: string]: number;
  badNumberRows: number;
  namelessRows: number;
  shortRows: number;
}

const REQUIRED = ["CompanyName", "CompanyNumber"] as const;

/** DD/MM/YYYY → YYYY-MM-DD; anything else (blank, a typo, 31/02) → null. */
export function bulkDate(s: string | undefined): string | null {
  if (!s) return null;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s.trim());
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return null;
  return `${y}-${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** "70229 - Management consultancy…" → code and description; "None Supplied" and blanks → null. */
export function bulkSic(s: string | undefined): { code: string; description: string } | null {
  const t = s?.trim();
  if (!t || /^none supplied$/i.test(t)) return null;
  const at = t.indexOf(" - ");
  const code = (at < 0 ? t : t.slice(0, at)).trim();
  if (!/^\d{4,5}$/.test(code)) return null;
  return { code, description: at < 0 ? "" : t.slice(at + 3).trim() };
}

/** A company number as the file writes it: normalised where it is one of the known shapes, else kept if 8 letters and digits (IP10067R). */
function numberOf(raw: string): string | null {
  const t = raw.trim().toUpperCase();
  return normaliseCompanyNumber(t) ?? (/^[A-Z0-9]{8}$/.test(t) ? t : null);
}

/** The first `n` fields of one CSV record (quoted or not), without parsing the rest. */
export function leadingFields(line: string, n: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (out.length < n && i <= line.length) {
    if (line.charCodeAt(i) === 34) {
      let v = "";
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q < 0) return out; // an unclosed quote: not a record this can judge
        v += line.slice(j, q);
        if (line.charCodeAt(q + 1) === 34) {
          v += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      out.push(v);
      i = j + 1; // past the comma
    } else {
      const c = line.indexOf(",", i);
      out.push(c < 0 ? line.slice(i) : line.slice(i, c));
      i = c < 0 ? line.length + 1 : c + 1;
    }
  }
  return out;
}

/** Runs of spaces inside a value are the file's, not the company's. */
function tidy(s: string | undefined): string {
  if (!s) return "";
  const t = s.trim();
  return t.includes("  ") ? t.replace(/\s{2,}/g, " ") : t;
}

/**
 * The header's column positions by trimmed name; throws RegisterFormatError unless it is a Basic
 * Company Data header.
 */
function columnsOf(header: string[]): Map<string, number> {
  const cols = new Map<string, number>();
  header.forEach((h, i) => cols.set(h.replace(/^\uFEFF/, "").trim(), i));
  const missing = REQUIRED.filter((c) => !cols.has(c));
  if (missing.length) throw new RegisterFormatError(`not a Basic Company Data file: no ${missing.join(" or ")} column in its header`);
  return cols;
}

/**
 * Records of one edition, in file order, from record index `from` on (earlier records are skipped before
 * they are parsed, so a resumed chunk costs little). Rows without a usable number or name are counted in
 * `stats`, never loaded.
 */
export async function* parseBasicCompanyData(
  input: DelimitedInput,
  opts: { from?: number; stats?: BulkParseStats } = {},
): AsyncGenerator<RegisterRecord<"companies">> {
  const from = opts.from ?? 0;
  const stats = opts.stats;
  let width = 0;
  // Records before `from` are skipped unparsed: only the two fields that decide whether a row is a
  // record (its number and name) are read, so `from` counts exactly the records yielded before.
  let toSkip = from;
  let at: { number: number; name: number } | null = null;
  const keep = (raw: string, i: number) => {
    if (i === 0) {
      const c = columnsOf(firstRow(raw, ","));
      at = { number: c.get("CompanyNumber")!, name: c.get("CompanyName")! };
      return true;
    }
    if (toSkip <= 0) return true;
    const f = leadingFields(raw, Math.max(at!.number, at!.name) + 1);
    if (numberOf(f[at!.number] ?? "") && tidy(f[at!.name])) toSkip--;
    return false;
  };
  let at2: Columns | null = null;
  for await (const rows of delimitedRowBatches(input, ",", { keep: from > 0 ? keep : undefined })) {
    for (const row of rows) {
      if (!at2) {
        at2 = columnIndexes(columnsOf(row));
        width = row.length;
        continue;
      }
      if (row.length < width && stats) stats.shortRows++;
      const number = numberOf(field(row, at2.number));
      const name = field(row, at2.name);
      if (!number) {
        if (stats) stats.badNumberRows++;
        continue;
      }
      if (!name) {
        if (stats) stats.namelessRows++;
        continue;
      }
      yield recordOf(number, name, row, at2);
    }
  }
  if (!at2) throw new RegisterFormatError("not a Basic Company Data file: it is empty");
}

/** Column positions of the fields read, found once per file by name (-1: the file has no such column). */
function columnIndexes(cols: Map<string, number>) {
  const i = (name: string) => cols.get(name) ?? -1;
  return {
    number: i("CompanyNumber"),
    name: i("CompanyName"),
    status: i("CompanyStatus"),
    category: i("CompanyCategory"),
    incorporated: i("IncorporationDate"),
    dissolved: i("DissolutionDate"),
    town: i("RegAddress.PostTown"),
    postcode: i("RegAddress.PostCode"),
    origin: i("CountryOfOrigin"),
    accountsDue: i("Accounts.NextDueDate"),
    accountsMadeUpTo: i("Accounts.LastMadeUpDate"),
    accountsCategory: i("Accounts.AccountCategory"),
    confirmationDue: i("ConfStmtNextDueDate"),
    confirmationMadeUpTo: i("ConfStmtLastMadeUpDate"),
    sic: [1, 2, 3, 4].map((n) => i(`SICCode.SicText_${n}`)),
    previous: Array.from({ length: 10 }, (_, n) => ({ name: i(`PreviousName_${n + 1}.CompanyName`), date: i(`PreviousName_${n + 1}.CONDATE`) })),
    address: (
      [
        ["careOf", "RegAddress.CareOf"],
        ["poBox", "RegAddress.POBox"],
        ["addressLine1", "RegAddress.AddressLine1"],
        ["addressLine2", "RegAddress.AddressLine2"],
        ["county", "RegAddress.County"],
        ["country", "RegAddress.Country"],
      ] as const
    ).map(([key, col]) => [key, i(col)] as const),
    charges: (
      [
        ["chargesTotal", "Mortgages.NumMortCharges"],
        ["chargesOutstanding", "Mortgages.NumMortOutstanding"],
        ["chargesPartSatisfied", "Mortgages.NumMortPartSatisfied"],
        ["chargesSatisfied", "Mortgages.NumMortSatisfied"],
      ] as const
    ).map(([key, col]) => [key, i(col)] as const),
  };
}
type Columns = ReturnType<typeof columnIndexes>;

/** A field of a row, trimmed, with runs of spaces made one ("" when the row or the file lacks it). */
const field = (row: string[], i: number): string => (i < 0 || i >= row.length ? "" : tidy(row[i]));

function recordOf(number: string, name: string, row: string[], c: Columns): RegisterRecord<"companies"> {
  const sic: { code: string; description: string }[] = [];
  for (const i of c.sic) {
    const s = bulkSic(field(row, i));
    if (s && !sic.some((x) => x.code === s.code)) sic.push(s);
  }
  const previousNames: { name: string; until: string | null }[] = [];
  for (const p of c.previous) {
    const n = field(row, p.name);
    if (n) previousNames.push({ name: n, until: bulkDate(field(row, p.date)) });
  }
  const extra: Record<string, string | number> = {};
  for (const [key, i] of c.address) {
    const x = field(row, i);
    if (x) extra[key] = x;
  }
  const dissolved = bulkDate(field(row, c.dissolved));
  if (dissolved) extra.dissolvedOn = dissolved;
  for (const [key, i] of c.charges) {
    const n = Number(field(row, i));
    if (Number.isInteger(n) && n > 0) extra[key] = n;
  }
  const orNull = (s: string) => s || null;
  const data: BulkCompanyData = {
    category: field(row, c.category),
    incorporatedOn: bulkDate(field(row, c.incorporated)),
    sic,
    postcode: orNull(field(row, c.postcode).toUpperCase()),
    countryOfOrigin: orNull(field(row, c.origin)),
    accountsDue: bulkDate(field(row, c.accountsDue)),
    accountsMadeUpTo: bulkDate(field(row, c.accountsMadeUpTo)),
    accountsCategory: orNull(field(row, c.accountsCategory)),
    confirmationDue: bulkDate(field(row, c.confirmationDue)),
    confirmationMadeUpTo: bulkDate(field(row, c.confirmationMadeUpTo)),
    previousNames,
    extra,
  };
  return {
    source: "companies",
    key: number,
    entity: number,
    part: null,
    name,
    companyNumber: number,
    altNames: previousNames.map((p) => p.name),
    status: field(row, c.status),
    rating: null,
    town: orNull(field(row, c.town)),
    data,
  };
}

/** The edition date a file name carries: BasicCompanyDataAsOneFile-2026-11-01.zip, BasicCompanyData-2026-11-01-part1_7.zip. */
export function bulkEditionDateOf(fileName: string | null | undefined): string | null {
  return fileName?.match(/BasicCompanyData(?:AsOneFile)?-(\d{4}-\d{2}-\d{2})/i)?.[1] ?? null;
}
