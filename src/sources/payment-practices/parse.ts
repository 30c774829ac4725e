/**
 * The Payment Practices export (check-payment-practices.service.gov.uk /export/csv/) → one RegisterRecord
 * per report (issue 14 §1; format: shared/formats/payment-practices.md).
 *
 * The file. RFC 4180 CSV read with papaparse through src/sources/delimited.ts (narrative fields hold
 * commas, quotes and line breaks), with or without a UTF-8 BOM. Columns are found by header name, never by
 * position: the 52-column export, the older 23-column one, and the variant header "% Invoices not paid
 * within agreed terms because of a dispute" all read the same. Required: Company number, Start date, End
 * date, Average time to pay; anything else missing is null.
 *
 * Two passes over the file, each streamed (the export is about 100 MB, more than a Worker holds as
 * records), so nothing but a few numbers per row is kept between them (about 30 bytes a row; measured by
 * scripts/bench/payment-practices.ts: peak live heap under 20 MB for 110,000 reports):
 * 1. The scan decodes the file as UTF-8 with `fatal`; if a byte sequence is not UTF-8 it starts again
 *    reading the whole file as windows-1252 (run notes: `encodingUtf8` or `encodingWindows1252`). It
 *    keeps each row's company number (as an integer), dates as written, filing date and report id,
 *    detects the date format, then sorts the rows by report key and picks one row per key.
 * 2. The read yields the chosen rows, in file order (a fixed order, so a run resumes at any record); a
 *    download that changed between the passes (its rows differ) fails the run rather than load wrong rows.
 *
 * Date format, per file, from every date column (start, end, filing, financial period start): a value with
 * "-" and the year first is ISO (read as such wherever it appears). Slashed values (d/m/yyyy or m/d/yyyy,
 * with or without leading zeros, a time after them ignored) are day first when some value has a first
 * number over 12, month first when some has a second number over 12; when both occur the majority wins
 * and the others are unreadable (note `dateFormatConflicts`); when nothing decides it, day first, the UK
 * convention (note `dateFormatAssumedDmy`). Notes `dateFormatIso` / `dateFormatDmy` / `dateFormatMdy` say
 * which was used.
 *
 * One report per company per period: key `${companyNumber}:${periodStart}:${periodEnd}` (the company
 * number normalised, e.g. unpadded `1234567` → `01234567`). A resubmission (same key) keeps the row with
 * the latest filing date, then the highest report id, then the later row; the others are counted
 * (`duplicateReports`). Rows without a usable company number (`rowsWithoutCompanyNumber`) or without
 * readable period dates (`rowsWithoutPeriod`) are counted and not loaded.
 *
 * Clamping. Values are self-reported and some are absurd. Blank stays null; nothing is ever invented or
 * corrected. A value set to null is named, with what was reported, in the report's `clamped`
 * (run notes: `clampedValues`, `reportsWithClampedValues`):
 * - days (average time to pay, shortest/longest standard and maximum contractual period): a number from 0
 *   to 365, else null ("avgDaysToPay: 4323394 is not a plausible number of days"). A year is already far
 *   beyond any statutory or customary term; 4,323,394 days has been seen.
 * - percentages (by number and by value): 0 to 100 (a trailing % allowed), else null.
 * - yes/no fields: TRUE/FALSE, Yes/No, Y/N, 1/0 in any case, else null.
 * - text where a number is expected ("n/a", "30 days"): null.
 * The three shares by number (within 30, 31–60, over 60 days) should add up to about 100: a triple whose
 * sum is outside 95–105 is kept as reported (each value is plausible on its own, and which is wrong cannot
 * be known) and named in the report's `inconsistent` (note `percentagesNotAddingUp`); the same for the
 * three shares by value. Standard payment terms text is cut to 1,000 characters (`standardTermsTextCut`);
 * the other narrative fields (dispute process, retention descriptions, other information) are not kept.
 */
import type { PaymentReport } from "../../services/payments/types";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import type { RegisterRecord } from "../../services/registers/types";
import { type DelimitedInput, TextEncodingError, delimitedRowBatches, firstRow } from "../delimited";
import { RegisterFormatError } from "../format-error";

/** The export, opened afresh for each pass (bytes, or a stream of a download). */
export type PaymentPracticesInput = () => DelimitedInput;

/** Counts for the run log (see the header comment for each name). */
export type PaymentPracticesNotes = Record<string, number>;

// ------------------------------------------------------------------------------------------ columns

/** Header names (normalised: lower case, "the" dropped, punctuation but % as spaces) of each field. */
const HEADERS = {
  reportId: ["report id"],
  policyRegime: ["policy regime"],
  financialPeriodStart: ["financial period start date"],
  start: ["start date"],
  end: ["end date"],
  filed: ["filing date"],
  company: ["company", "company name"],
  companyNumber: ["company number"],
  qualifyingContracts: ["qualifying contracts in reporting period"],
  paymentsMade: ["payments made in reporting period"],
  constructionContracts: ["qualifying construction contracts in reporting period"],
  constructionRetention: ["construction contracts have retention clauses"],
  avgDaysToPay: ["average time to pay"],
  valuePctWithin30: ["total value invoices paid within 30 days"],
  valuePct31to60: ["total value invoices paid between 31 and 60 days"],
  valuePctOver60: ["total value invoices paid later than 60 days"],
  valuePctNotPaidWithinTerms: ["total value invoices paid later than agreed terms"],
  pctWithin30: ["% invoices paid within 30 days"],
  pct31to60: ["% invoices paid between 31 and 60 days"],
  pctOver60: ["% invoices paid later than 60 days"],
  pctNotPaidWithinTerms: ["% invoices not paid within agreed terms"],
  pctNotPaidDueToDispute: ["% invoices not paid due to dispute", "% invoices not paid within agreed terms because of a dispute"],
  shortestStandardTermsDays: ["shortest or only standard payment period"],
  longestStandardTermsDays: ["longest standard payment period"],
  standardTermsText: ["standard payment terms"],
  termsChanged: ["payment terms have changed"],
  suppliersNotified: ["suppliers notified of changes"],
  maxContractualTermsDays: ["maximum contractual payment period"],
  paymentCodes: ["participates in payment codes"],
  eInvoicing: ["e invoicing offered"],
  supplyChainFinance: ["supply chain financing offered"],
  chargesPolicy: ["policy covers charges for remaining on supplier list"],
  chargesMade: ["charges have been made for remaining on supplier list"],
  url: ["url"],
} as const;

type Field = keyof typeof HEADERS;
/** Each field's column index, -1 when the file has no such column. */
export type Columns = Record<Field, number>;

const REQUIRED: Partial<Record<Field, string>> = { companyNumber: "Company number", start: "Start date", end: "End date", avgDaysToPay: "Average time to pay" };

/** A BOM read as UTF-8 (U+FEFF) or as windows-1252 (ï»¿) is not part of the first header. */
const normHeader = (h: string) =>
  h
    .replace(/^(?:\uFEFF|\u00EF\u00BB\u00BF)/, "")
    .toLowerCase()
    .replace(/\bthe\b/g, " ")
    .replace(/[^a-z0-9%]+/g, " ")
    .trim();

/** The columns of a header row, by name; a header without the required columns is not the export. */
export function paymentPracticesColumns(header: string[]): Columns {
  const names = header.map(normHeader);
  const cols = {} as Columns;
  for (const [field, alts] of Object.entries(HEADERS) as [Field, readonly string[]][]) cols[field] = names.findIndex((n) => alts.includes(n));
  const missing = Object.entries(REQUIRED)
    .filter(([f]) => cols[f as Field] < 0)
    .map(([, label]) => `'${label}'`);
  if (missing.length) throw new RegisterFormatError(`payment-practices: the header lacks ${missing.join(", ")}: not the Payment Practices export`);
  return cols;
}

/** Checks the header of a file held whole, before a run begins (a stream is checked as it is read). */
export function checkPaymentPracticesHeader(bytes: Uint8Array | string): Columns {
  return paymentPracticesColumns(firstRow(bytes, ","));
}

// ------------------------------------------------------------------------------------------ dates

export type DateFormat = "iso" | "dmy" | "mdy";

const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T ])/;
const SLASH_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:$|[T ])/;

/**
 * A date as written, packed without deciding its format: year·10⁴ + first·10² + second, negative for
 * ISO (year-month-day); 0 when blank or unreadable.
 */
function rawDate(s: string | undefined): number {
  if (!s) return 0;
  const t = s.trim();
  let m = ISO_DATE.exec(t);
  if (m) return -(+m[1] * 10_000 + +m[2] * 100 + +m[3]);
  m = SLASH_DATE.exec(t);
  return m ? +m[3] * 10_000 + +m[1] * 100 + +m[2] : 0;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** A packed date read in the file's format: yyyymmdd, or 0 when it is no real date (e.g. 31/02, month 13). */
function dayOf(packed: number, format: DateFormat): number {
  if (!packed) return 0;
  const p = Math.abs(packed);
  const y = Math.floor(p / 10_000);
  const a = Math.floor(p / 100) % 100;
  const b = p % 100;
  const [month, day] = packed < 0 || format !== "dmy" ? [a, b] : [b, a];
  if (y < 1900 || y > 2200 || month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1] || (month === 2 && day === 29 && !isLeap(y))) return 0;
  return y * 10_000 + month * 100 + day;
}

const isoOf = (day: number) =>
  day ? `${Math.floor(day / 10_000)}-${String(Math.floor(day / 100) % 100).padStart(2, "0")}-${String(day % 100).padStart(2, "0")}` : null;

/** Evidence for the format, counted over every date value of the file. */
class DateEvidence {
  iso = 0;
  slashed = 0;
  dayFirst = 0;
  monthFirst = 0;

  add(packed: number): void {
    if (!packed) return;
    if (packed < 0) {
      this.iso++;
      return;
    }
    this.slashed++;
    const a = Math.floor(packed / 100) % 100;
    const b = packed % 100;
    if (a > 12 && b <= 12) this.dayFirst++;
    else if (b > 12 && a <= 12) this.monthFirst++;
  }

  decide(notes: PaymentPracticesNotes): DateFormat {
    if (!this.slashed) {
      notes.dateFormatIso = 1;
      return "iso";
    }
    if (this.dayFirst && this.monthFirst) notes.dateFormatConflicts = Math.min(this.dayFirst, this.monthFirst);
    else if (!this.dayFirst && !this.monthFirst) notes.dateFormatAssumedDmy = 1;
    const format = this.monthFirst > this.dayFirst ? "mdy" : "dmy";
    notes[format === "mdy" ? "dateFormatMdy" : "dateFormatDmy"] = 1;
    return format;
  }
}

// ------------------------------------------------------------------------------------------ pass 1: the scan

/** What the scan learnt of the file: enough to read it again and keep one row per report. */
export interface PaymentPracticesScan {
  encoding: "utf-8" | "windows-1252";
  format: DateFormat;
  /** Data rows in the file. */
  rows: number;
  /** Per data row: 1 when it is the report loaded for its key. */
  keep: Uint8Array;
  /** Per data row: a hash of its company number and period as written, to tell a file changed between the passes. */
  check: Int32Array;
  /** Reports loaded. */
  reports: number;
  /** The latest filing date of the reports loaded (ISO), the edition's date when it has none of its own. */
  latestFiling: string | null;
  notes: PaymentPracticesNotes;
}

/** A growable array of numbers (per-row facts of a file of unknown length). */
class Numbers<T extends Int32Array | Float64Array> {
  length = 0;
  constructor(public data: T) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new (this.data.constructor as { new (n: number): T })(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
}

/** FNV-1a over a row's key fields as written. */
function hashOf(...parts: (string | undefined)[]): number {
  let h = 0x811c9dc5;
  for (const s of parts) {
    const t = s ?? "";
    for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 124, 0x01000193);
  }
  return h | 0;
}

const cell = (row: string[], i: number): string | undefined => (i < 0 ? undefined : row[i]);

/** A report id as a number (NaN when blank or not a number). */
const idOf = (s: string | undefined) => (s && /^\s*\d+\s*$/.test(s) ? Number(s) : Number.NaN);

/** Called after each batch of rows the scan reads, with the rows read so far (the benchmark samples memory there). */
type OnBatch = (rows: number) => void;

/**
 * A normalised company number as an integer (kept per row instead of its text, and sorted on): 8 digits as they are; two characters
 * then 6 digits as 10⁸ + (the characters in base 36)·10⁶ + the digits, below 2³¹.
 */
function numberCode(n: string): number {
  if (/^\d{8}$/.test(n)) return Number(n);
  return 100_000_000 + (parseInt(n[0], 36) * 36 + parseInt(n[1], 36)) * 1_000_000 + Number(n.slice(2));
}

async function scanAs(input: PaymentPracticesInput, encoding: "utf-8" | "windows-1252", onBatch?: OnBatch): Promise<PaymentPracticesScan> {
  const notes: PaymentPracticesNotes = {};
  let cols: Columns | null = null;
  // A few numbers per row, nothing else: the company number (coded, 0 when unusable), the dates as written, the report id.
  const numbers = new Numbers(new Int32Array(1 << 14));
  const starts = new Numbers(new Int32Array(1 << 14));
  const ends = new Numbers(new Int32Array(1 << 14));
  const filings = new Numbers(new Int32Array(1 << 14));
  const ids = new Numbers(new Float64Array(1 << 14));
  const checks = new Numbers(new Int32Array(1 << 14));
  const evidence = new DateEvidence();
  for await (const rows of delimitedRowBatches(input(), ",", { encoding, fatal: encoding === "utf-8" })) {
    for (const row of rows) {
      if (!cols) {
        cols = paymentPracticesColumns(row.map((h) => h.trim()));
        continue;
      }
      const rawNumber = cell(row, cols.companyNumber);
      const number = normaliseCompanyNumber(rawNumber);
      const s = rawDate(cell(row, cols.start));
      const e = rawDate(cell(row, cols.end));
      const f = rawDate(cell(row, cols.filed));
      evidence.add(s);
      evidence.add(e);
      evidence.add(f);
      evidence.add(rawDate(cell(row, cols.financialPeriodStart)));
      numbers.push(number ? numberCode(number) : 0);
      starts.push(s);
      ends.push(e);
      filings.push(f);
      ids.push(idOf(cell(row, cols.reportId)));
      checks.push(hashOf(rawNumber, cell(row, cols.start), cell(row, cols.end)));
    }
    onBatch?.(starts.length);
  }
  if (!cols) throw new RegisterFormatError("payment-practices: the file is empty");
  notes[encoding === "utf-8" ? "encodingUtf8" : "encodingWindows1252"] = 1;
  const format = evidence.decide(notes);

  const rows = starts.length;
  const [code, start, end, filing, id] = [numbers.data, starts.data, ends.data, filings.data, ids.data];
  const keep = new Uint8Array(rows);
  let loadable = 0;
  let noNumber = 0;
  let noPeriod = 0;
  for (let i = 0; i < rows; i++) {
    if (!code[i]) noNumber++;
    else if (!dayOf(start[i], format) || !dayOf(end[i], format)) noPeriod++;
    else {
      keep[i] = 1;
      loadable++;
    }
  }
  // Rows of one report (company number and period as written) made adjacent by a sort, then one kept:
  // the latest filing date, then the highest report id, then the later row.
  const order = new Int32Array(loadable);
  for (let i = 0, n = 0; i < rows; i++) if (keep[i]) order[n++] = i;
  order.sort((a, b) => code[a] - code[b] || start[a] - start[b] || end[a] - end[b] || a - b);
  const filed = (i: number) => dayOf(filing[i], format);
  const idAt = (i: number) => (Number.isNaN(id[i]) ? -1 : id[i]);
  let dropped = 0;
  for (let g = 0; g < order.length; ) {
    let h = g + 1;
    while (h < order.length && code[order[h]] === code[order[g]] && start[order[h]] === start[order[g]] && end[order[h]] === end[order[g]]) h++;
    if (h - g > 1) {
      let best = order[g];
      for (let k = g + 1; k < h; k++) {
        const i = order[k]; // a later row than best
        if (filed(i) > filed(best) || (filed(i) === filed(best) && idAt(i) >= idAt(best))) best = i;
      }
      for (let k = g; k < h; k++) if (order[k] !== best) keep[order[k]] = 0;
      dropped += h - g - 1;
    }
    g = h;
  }
  let reports = 0;
  let latest = 0;
  for (let i = 0; i < rows; i++) {
    if (!keep[i]) continue;
    reports++;
    latest = Math.max(latest, filed(i));
  }
  if (noNumber) notes.rowsWithoutCompanyNumber = noNumber;
  if (noPeriod) notes.rowsWithoutPeriod = noPeriod;
  if (dropped) notes.duplicateReports = dropped;
  return { encoding, format, rows, keep, check: checks.data.subarray(0, rows), reports, latestFiling: isoOf(latest), notes };
}

/**
 * Pass 1: reads the whole export once, as UTF-8, or (when it is not UTF-8) again as windows-1252; finds
 * the date format and the one row kept per report.
 */
export async function scanPaymentPractices(input: PaymentPracticesInput, opts: { onBatch?: OnBatch } = {}): Promise<PaymentPracticesScan> {
  try {
    return await scanAs(input, "utf-8", opts.onBatch);
  } catch (e) {
    if (e instanceof TextEncodingError) return scanAs(input, "windows-1252", opts.onBatch);
    throw e;
  }
}

/** The edition date of an export given without one: its latest filing date. */
export async function paymentPracticesEditionDate(input: PaymentPracticesInput): Promise<string | null> {
  return (await scanPaymentPractices(input)).latestFiling;
}

// ------------------------------------------------------------------------------------------ values

const MAX_DAYS = 365;
const MAX_TERMS_TEXT = 1_000;
/** The three shares of one report are expected to add up to 100 within this (rounding). */
const SUM_TOLERANCE = 5;

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const TRUE = new Set(["true", "yes", "y", "1"]);
const FALSE = new Set(["false", "no", "n", "0"]);

/** A reported value as it is named in `clamped`: trimmed, at most 40 characters. */
const shown = (raw: string) => (raw.length > 40 ? `${raw.slice(0, 39)}…` : raw);

class ReportReader {
  readonly clamped: string[] = [];

  constructor(
    private readonly row: string[],
    private readonly cols: Columns,
  ) {}

  raw(field: Field): string | null {
    const v = cell(this.row, this.cols[field])?.trim();
    return v ? v : null;
  }

  private number(field: Field): number | null | undefined {
    const raw = this.raw(field);
    if (raw === null) return null;
    const t = raw.replace(/%$/, "").replace(/,/g, "").trim();
    if (!NUMBER.test(t)) {
      this.clamped.push(`${field}: "${shown(raw)}" is not a number`);
      return undefined;
    }
    return Number(t);
  }

  days(field: Field): number | null {
    const n = this.number(field);
    if (n === undefined || n === null) return null;
    if (n < 0 || n > MAX_DAYS) {
      this.clamped.push(`${field}: ${shown(this.raw(field)!)} is not a plausible number of days`);
      return null;
    }
    return n;
  }

  pct(field: Field): number | null {
    const n = this.number(field);
    if (n === undefined || n === null) return null;
    if (n < 0 || n > 100) {
      this.clamped.push(`${field}: ${shown(this.raw(field)!)} is not a percentage from 0 to 100`);
      return null;
    }
    return n;
  }

  yesNo(field: Field): boolean | null {
    const raw = this.raw(field);
    if (raw === null) return null;
    const t = raw.toLowerCase();
    if (TRUE.has(t)) return true;
    if (FALSE.has(t)) return false;
    this.clamped.push(`${field}: "${shown(raw)}" is not yes or no`);
    return null;
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * A copy of a value that does not keep alive the megabyte of text it was parsed from (V8 makes substrings
 * views of their parent): concatenation then slice flattens it into new storage (as in services/registers/diff.ts).
 */
const own = (s: string) => (s.length < 13 ? s : (s + " ").slice(0, -1));

/** A report's three shares that should add up to 100: named in `inconsistent` when they do not (kept as reported). */
function checkSum(out: string[], names: [string, string, string], values: (number | null | undefined)[]): boolean {
  if (values.some((v) => v === null || v === undefined)) return true;
  const sum = round2((values as number[]).reduce((a, b) => a + b, 0));
  if (Math.abs(sum - 100) <= SUM_TOLERANCE) return true;
  out.push(`${names.join(" + ")} = ${sum}, not about 100`);
  return false;
}

const bump = (notes: PaymentPracticesNotes | undefined, key: string, by = 1) => {
  if (notes && by) notes[key] = (notes[key] ?? 0) + by;
};

/** One row of the export as a report (the row is known to have a company number and period). */
function reportOf(
  row: string[],
  cols: Columns,
  format: DateFormat,
  notes?: PaymentPracticesNotes,
): { report: PaymentReport; companyNumber: string; name: string | null } {
  const r = new ReportReader(row, cols);
  const date = (field: Field) => isoOf(dayOf(rawDate(r.raw(field) ?? undefined), format));
  let terms = r.raw("standardTermsText");
  if (terms && terms.length > MAX_TERMS_TEXT) {
    terms = `${terms.slice(0, MAX_TERMS_TEXT - 1).trimEnd()}…`;
    bump(notes, "standardTermsTextCut");
  }
  const id = idOf(r.raw("reportId") ?? undefined);
  const report: PaymentReport = {
    reportId: Number.isNaN(id) ? null : id,
    url: r.raw("url"),
    policyRegime: r.raw("policyRegime"),
    periodStart: date("start")!,
    periodEnd: date("end")!,
    filedOn: date("filed"),
    financialPeriodStart: date("financialPeriodStart"),
    avgDaysToPay: r.days("avgDaysToPay"),
    pctWithin30: r.pct("pctWithin30"),
    pct31to60: r.pct("pct31to60"),
    pctOver60: r.pct("pctOver60"),
    pctNotPaidWithinTerms: r.pct("pctNotPaidWithinTerms"),
    pctNotPaidDueToDispute: r.pct("pctNotPaidDueToDispute"),
    shortestStandardTermsDays: r.days("shortestStandardTermsDays"),
    longestStandardTermsDays: r.days("longestStandardTermsDays"),
    maxContractualTermsDays: r.days("maxContractualTermsDays"),
    standardTermsText: terms === null ? null : own(terms),
    termsChanged: r.yesNo("termsChanged"),
    suppliersNotified: r.yesNo("suppliersNotified"),
    paymentCodes: r.yesNo("paymentCodes"),
    eInvoicing: r.yesNo("eInvoicing"),
    supplyChainFinance: r.yesNo("supplyChainFinance"),
    chargesPolicy: r.yesNo("chargesPolicy"),
    chargesMade: r.yesNo("chargesMade"),
    qualifyingContracts: r.yesNo("qualifyingContracts"),
    paymentsMade: r.yesNo("paymentsMade"),
    constructionContracts: r.yesNo("constructionContracts"),
    constructionRetention: r.yesNo("constructionRetention"),
    clamped: r.clamped,
    inconsistent: [],
  };
  // The value shares exist only in exports with the 2024-amended columns.
  if (cols.valuePctWithin30 >= 0) report.valuePctWithin30 = r.pct("valuePctWithin30");
  if (cols.valuePct31to60 >= 0) report.valuePct31to60 = r.pct("valuePct31to60");
  if (cols.valuePctOver60 >= 0) report.valuePctOver60 = r.pct("valuePctOver60");
  if (cols.valuePctNotPaidWithinTerms >= 0) report.valuePctNotPaidWithinTerms = r.pct("valuePctNotPaidWithinTerms");
  const byNumber = checkSum(report.inconsistent, ["pctWithin30", "pct31to60", "pctOver60"], [report.pctWithin30, report.pct31to60, report.pctOver60]);
  const byValue = checkSum(
    report.inconsistent,
    ["valuePctWithin30", "valuePct31to60", "valuePctOver60"],
    [report.valuePctWithin30, report.valuePct31to60, report.valuePctOver60],
  );
  if (!byNumber || !byValue) bump(notes, "percentagesNotAddingUp");
  if (report.clamped.length) {
    bump(notes, "clampedValues", report.clamped.length);
    bump(notes, "reportsWithClampedValues");
  }
  const name = r.raw("company");
  return { report, companyNumber: normaliseCompanyNumber(r.raw("companyNumber"))!, name: name === null ? null : own(name) };
}

/** The register record of a report. */
export function paymentReportRecord(report: PaymentReport, companyNumber: string, name: string | null): RegisterRecord<"payment-practices"> {
  const key = `${companyNumber}:${report.periodStart}:${report.periodEnd}`;
  return {
    source: "payment-practices",
    key,
    // Each report is its own entry in the change history, so a new report for a company is an `added` change.
    entity: key,
    part: `${report.periodStart}/${report.periodEnd}`,
    name: name ?? companyNumber,
    companyNumber,
    altNames: [],
    status: "published",
    rating: null,
    town: null,
    data: { ...report },
  };
}

// ------------------------------------------------------------------------------------------ pass 2: the read

/**
 * Every report of the export, one per company per period, in file order, from record index `from` on
 * (records before it are read and counted in `notes`, not yielded). Reads the file twice (see above).
 */
export async function* parsePaymentPractices(
  input: PaymentPracticesInput,
  opts: { from?: number; notes?: PaymentPracticesNotes } = {},
): AsyncGenerator<RegisterRecord<"payment-practices">> {
  const from = opts.from ?? 0;
  const scan = await scanPaymentPractices(input);
  const notes = opts.notes;
  if (notes) Object.assign(notes, scan.notes);
  let cols: Columns | null = null;
  let index = 0;
  let emitted = 0;
  const changed = () =>
    new Error("payment-practices: the export changed while it was read (its rows differ between the two passes); the next run reads it again");
  for await (const rows of delimitedRowBatches(input(), ",", { encoding: scan.encoding })) {
    for (const row of rows) {
      if (!cols) {
        cols = paymentPracticesColumns(row.map((h) => h.trim()));
        continue;
      }
      const i = index++;
      if (i >= scan.rows) throw changed();
      if (!scan.keep[i]) continue;
      if (hashOf(cell(row, cols.companyNumber), cell(row, cols.start), cell(row, cols.end)) !== scan.check[i]) throw changed();
      const { report, companyNumber, name } = reportOf(row, cols, scan.format, notes);
      if (emitted++ < from) continue;
      yield paymentReportRecord(report, companyNumber, name);
    }
  }
  if (index !== scan.rows) throw changed();
}
