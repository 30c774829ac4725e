/**
 * Companies House "Basic Company Data" (the free monthly snapshot of every live company: one CSV of about
 * 5.7 million rows, or a zip holding it) → register records, streamed batch by batch.
 *
 * The real file's quirks (shared/formats/ch-bulk-basic-company-data.md): header names with leading
 * spaces; every value quoted, empty ones as ""; dates DD/MM/YYYY; numbers kept with their zeros and
 * prefixes (never integers: "07687209", "SC123456", "IP10067R"); SIC columns "CODE - Description" or
 * "None Supplied", 4-digit SIC 2003 codes on old records; runs of spaces inside values; older rows with
 * 53 columns (no confirmation-statement columns). Columns are found by their trimmed header names, so a
 * moved or missing column reads as blank rather than as its neighbour.
 */
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import type { RegisterRecord } from "../../services/registers/types";
import { type DelimitedInput, delimitedRowBatches, firstRow, ownString } from "../delimited";
import { RegisterFormatError } from "../format-error";

/** What a company's record carries in `data` (RegisterRecord: name, number, status, town are its own fields). */
export interface BulkCompanyData {
  category: string;
  incorporatedOn: string | null;
  sic: { code: string; description: string }[];
  postcode: string | null;
  countryOfOrigin: string | null;
  accountsDue: string | null;
  accountsMadeUpTo: string | null;
  accountsCategory: string | null;
  confirmationDue: string | null;
  confirmationMadeUpTo: string | null;
  previousNames: { name: string; until: string | null }[];
  /** The rest a reply may show: the registered office lines, the charges counts, the dissolution date. */
  extra: Record<string, string | number>;
}

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
  const m = s && /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s.trim());
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
const tidy = (s: string | undefined) => (s ?? "").trim().replace(/\s{2,}/g, " ");
const orNull = (s: string) => (s ? ownString(s) : null);

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
export async function* parseBasicCompanyData(input: DelimitedInput, opts: { from?: number; stats?: BulkParseStats } = {}): AsyncGenerator<RegisterRecord> {
  const from = opts.from ?? 0;
  const stats = opts.stats;
  let cols: Map<string, number> | null = null;
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
  for await (const rows of delimitedRowBatches(input, ",", { keep: from > 0 ? keep : undefined })) {
    for (const row of rows) {
      if (!cols) {
        cols = columnsOf(row);
        width = row.length;
        continue;
      }
      const v = (name: string) => {
        const i = cols!.get(name);
        return i === undefined ? "" : tidy(row[i]);
      };
      if (row.length < width && stats) stats.shortRows++;
      const number = numberOf(v("CompanyNumber"));
      const name = v("CompanyName");
      if (!number) {
        if (stats) stats.badNumberRows++;
        continue;
      }
      if (!name) {
        if (stats) stats.namelessRows++;
        continue;
      }
      yield recordOf(number, name, v);
    }
  }
  if (!cols) throw new RegisterFormatError("not a Basic Company Data file: it is empty");
}

function recordOf(number: string, name: string, v: (name: string) => string): RegisterRecord {
  const sic: { code: string; description: string }[] = [];
  for (let i = 1; i <= 4; i++) {
    const s = bulkSic(v(`SICCode.SicText_${i}`));
    if (s && !sic.some((x) => x.code === s.code)) sic.push({ code: s.code, description: ownString(s.description) });
  }
  const previousNames: { name: string; until: string | null }[] = [];
  for (let i = 1; i <= 10; i++) {
    const n = v(`PreviousName_${i}.CompanyName`);
    if (n) previousNames.push({ name: ownString(n), until: bulkDate(v(`PreviousName_${i}.CONDATE`)) });
  }
  const extra: Record<string, string | number> = {};
  for (const [key, col] of [
    ["careOf", "RegAddress.CareOf"],
    ["poBox", "RegAddress.POBox"],
    ["addressLine1", "RegAddress.AddressLine1"],
    ["addressLine2", "RegAddress.AddressLine2"],
    ["county", "RegAddress.County"],
    ["country", "RegAddress.Country"],
  ] as const) {
    const x = v(col);
    if (x) extra[key] = ownString(x);
  }
  const dissolved = bulkDate(v("DissolutionDate"));
  if (dissolved) extra.dissolvedOn = dissolved;
  for (const [key, col] of [
    ["chargesTotal", "Mortgages.NumMortCharges"],
    ["chargesOutstanding", "Mortgages.NumMortOutstanding"],
    ["chargesPartSatisfied", "Mortgages.NumMortPartSatisfied"],
    ["chargesSatisfied", "Mortgages.NumMortSatisfied"],
  ] as const) {
    const n = Number(v(col));
    if (Number.isInteger(n) && n > 0) extra[key] = n;
  }
  const data: BulkCompanyData = {
    category: ownString(v("CompanyCategory")),
    incorporatedOn: bulkDate(v("IncorporationDate")),
    sic,
    postcode: orNull(v("RegAddress.PostCode").toUpperCase()),
    countryOfOrigin: orNull(v("CountryOfOrigin")),
    accountsDue: bulkDate(v("Accounts.NextDueDate")),
    accountsMadeUpTo: bulkDate(v("Accounts.LastMadeUpDate")),
    accountsCategory: orNull(v("Accounts.AccountCategory")),
    confirmationDue: bulkDate(v("ConfStmtNextDueDate")),
    confirmationMadeUpTo: bulkDate(v("ConfStmtLastMadeUpDate")),
    previousNames,
    extra,
  };
  return {
    source: "companies",
    key: number,
    entity: number,
    part: null,
    name: ownString(name),
    companyNumber: number,
    altNames: previousNames.map((p) => p.name),
    status: ownString(v("CompanyStatus")),
    rating: null,
    town: orNull(v("RegAddress.PostTown")),
    data: data as unknown as Record<string, unknown>,
  };
}

/** The edition date a file name carries: BasicCompanyDataAsOneFile-2026-11-01.zip, BasicCompanyData-2026-11-01-part1_7.zip. */
export function bulkEditionDateOf(fileName: string | null | undefined): string | null {
  return fileName?.match(/BasicCompanyData(?:AsOneFile)?-(\d{4}-\d{2}-\d{2})/i)?.[1] ?? null;
}
