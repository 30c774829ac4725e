/**
 * Gender pay gap data (Government Equalities Office; one CSV per reporting year) → RegisterRecord.
 * Format: shared/formats/gender-pay-gap.md. Every field is quoted, quotes inside names are doubled,
 * SicCodes is a "comma plus newline" list inside one quoted field with leading zeros lost, numbers are
 * text of any precision, dates `YYYY/MM/DD HH:MM:SS`, booleans `True`/`False`; read with the shared
 * CSV reader (./delimited.ts), in batches of whole records, so a file is never held as rows.
 *
 * One record per employer and reporting year: key `${EmployerId}:${year}`, entity the EmployerId (the
 * service's own id, stable across years), part the year. The reporting year (the run's scope) is the
 * first year as text ("2021" for 2021 to 2022), from the file's name or address, else from its first
 * row's DueDate (the year of DueDate minus one).
 *
 * SPEC §1 rule 7: ResponsiblePerson (a person's name and job title) is never read into a record; only
 * how many rows had one is counted. An employer named only as a person is not loaded, and
 * "<person> t/a <business>" is kept under the business's name (src/services/matching/people.ts).
 */
import { companyLevelName } from "../../services/matching/people";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import type { GenderPayGapReport, QuartileSplit } from "../../services/paygap/types";
import type { RegisterRecord } from "../../services/registers/types";
import { type DelimitedInput, delimitedRowBatches, firstRows } from "../delimited";
import { RegisterFormatError } from "../format-error";

/** Counts a parse keeps of rows it left out or changed, for the run log (never a name: SPEC §1 rule 7). */
export interface GenderPayGapParseNotes {
  /** Rows with a ResponsiblePerson: the person's name and job title were not read. */
  responsiblePersonsNotStored: number;
  /** Rows whose employer is named only as a person: not loaded. */
  personOnlyRows: number;
  /** Names kept without the person in them ("<person> t/a <business>"), or a current name left out because it names a person. */
  personNamesRemoved: number;
  /** Rows without an EmployerId: not loaded. */
  rowsWithoutEmployerId: number;
  /** Rows repeating an EmployerId already read in the file: the first row counts. */
  duplicateRows: number;
  /** Rows whose DueDate falls in another reporting year than the file's (kept under the file's year). */
  rowsDueInAnotherYear: number;
  /** Values that could not be read as a number, date or True/False: null in the record. */
  unreadableValues: number;
  /** CompanyNumber values that are not a Companies House number: null in the record. */
  unreadableCompanyNumbers: number;
}

const newNotes = (): GenderPayGapParseNotes => ({
  responsiblePersonsNotStored: 0,
  personOnlyRows: 0,
  personNamesRemoved: 0,
  rowsWithoutEmployerId: 0,
  duplicateRows: 0,
  rowsDueInAnotherYear: 0,
  unreadableValues: 0,
  unreadableCompanyNumbers: 0,
});

/** The figure columns, in the file's order, and where each goes in the report. */
const FIGURES = [
  "DiffMeanHourlyPercent",
  "DiffMedianHourlyPercent",
  "DiffMeanBonusPercent",
  "DiffMedianBonusPercent",
  "MaleBonusPercent",
  "FemaleBonusPercent",
  "MaleLowerQuartile",
  "FemaleLowerQuartile",
  "MaleLowerMiddleQuartile",
  "FemaleLowerMiddleQuartile",
  "MaleUpperMiddleQuartile",
  "FemaleUpperMiddleQuartile",
  "MaleTopQuartile",
  "FemaleTopQuartile",
] as const;
const REQUIRED = ["EmployerName", "EmployerId", "CompanyNumber", ...FIGURES, "SubmittedAfterTheDeadline", "DueDate", "DateSubmitted"] as const;
const OPTIONAL = ["Address", "PostCode", "SicCodes", "CompanyLinkToGPGInfo", "ResponsiblePerson", "EmployerSize", "CurrentName"] as const;
type Column = (typeof REQUIRED)[number] | (typeof OPTIONAL)[number];
type Columns = Record<Column, number>;

function columnsOf(header: string[]): Columns {
  const at = new Map(header.map((h, i) => [h.trim().toLowerCase(), i] as const));
  const cols = {} as Columns;
  for (const c of [...REQUIRED, ...OPTIONAL]) cols[c] = at.get(c.toLowerCase()) ?? -1;
  const missing = REQUIRED.filter((c) => cols[c] < 0);
  if (missing.length === REQUIRED.length)
    throw new RegisterFormatError("gender-pay-gap: not a gender pay gap data file (no EmployerName, EmployerId, DueDate… header)");
  if (missing.length) throw new RegisterFormatError(`gender-pay-gap: the header lacks ${missing.join(", ")}`);
  return cols;
}

// ---------------------------------------------------------------- values

const YEAR_SPAN = /(?<!\d)((?:19|20)\d{2})\s*(?:_to_|to|-|–|_)\s*((?:19|20)?\d{2})(?!\d)/i;
const YEAR_ONLY = /^((?:19|20)\d{2})(?:\.csv)?$/i;
const YEAR_PARAM = /[?&]year=((?:19|20)\d{2})\b/i;

/**
 * The reporting year a file's name or address names: "UK Gender Pay Gap Data - 2021 to 2022.csv",
 * `…/viewing/download-data/2021`, `…/Viewing/download-data?year=2017` → "2021", "2021", "2017". Null when it names none.
 */
export function reportingYearOfName(name: string | null | undefined): string | null {
  if (!name) return null;
  const param = YEAR_PARAM.exec(name);
  if (param) return param[1];
  let base = name.split(/[?#]/)[0].replace(/\/+$/, "");
  base = base.slice(base.lastIndexOf("/") + 1);
  try {
    base = decodeURIComponent(base);
  } catch {
    // a name with a stray % is read as it is
  }
  const only = YEAR_ONLY.exec(base.trim());
  if (only) return only[1];
  const span = YEAR_SPAN.exec(base);
  if (!span) return null;
  const first = Number(span[1]);
  const second = Number(span[2].length === 2 ? span[1].slice(0, 2) + span[2] : span[2]);
  return second === first + 1 ? span[1] : null;
}

/**
 * The reporting year in progress on a date: year N runs from its snapshot date (31 March N for public
 * bodies, 5 April N for other employers) to the next, so from 31 March N the current year is N.
 */
export function reportingYearOn(date: Date): number {
  const y = date.getUTCFullYear();
  const month = date.getUTCMonth() + 1;
  return month > 3 || (month === 3 && date.getUTCDate() >= 31) ? y : y - 1;
}

const DATE_TIME = /^(\d{4})[/-](\d{2})[/-](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `2022/04/05 00:00:00` → `2022-04-05T00:00:00` (no zone, as given); blank → null; anything else → undefined. */
function dateTimeOf(raw: string | undefined): string | null | undefined {
  const s = raw?.trim();
  if (!s) return null;
  const m = DATE_TIME.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h = "00", mi = "00", se = "00"] = m;
  const [year, month, day] = [+y, +mo, +d];
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1] + (leap ? 1 : 0) || +h > 23 || +mi > 59 || +se > 59) return undefined;
  return `${y}-${mo}-${d}T${h}:${mi}:${se}`;
}

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** "12", "16.9", "-400", ".5" → numbers; blank → null; anything else → undefined. */
function numberOf(raw: string | undefined): number | null | undefined {
  const s = raw?.trim().replace(/%$/, "");
  if (!s) return null;
  return NUMBER.test(s) ? Number(s) : undefined;
}

function booleanOf(raw: string | undefined): boolean | null | undefined {
  const s = raw?.trim().toLowerCase();
  if (!s) return null;
  return s === "true" ? true : s === "false" ? false : undefined;
}

/**
 * SicCodes: "20301,\n23910" → ["20301", "23910"]. SIC 2007 codes are five digits and the file lost
 * their leading zero (1470 = 01470): a four-digit code gets it back. The service's public-sector code
 * "1" stays "1"; any other value is kept as given.
 */
export function sicCodesOf(raw: string | undefined): string[] {
  if (!raw) return [];
  const out: string[] = [];
  for (const part of raw.split(/[,;\s]+/)) {
    if (!part) continue;
    const code = /^\d{4}$/.test(part) ? `0${part}` : part;
    if (!out.includes(code)) out.push(code);
  }
  return out;
}

const blankToNull = (s: string | undefined): string | null => {
  const t = s?.trim();
  return t ? t : null;
};

const canon = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

// ---------------------------------------------------------------- the file

export interface ParsedGenderPayGap {
  /** The reporting year (the run's scope): "2021" for 2021 to 2022. */
  year: string;
  records: AsyncGenerator<RegisterRecord<"gender-pay-gap">>;
}

/**
 * Parses one reporting year's file. The header and the year are checked now (a RegisterFormatError
 * when the file is not one, or names no year); records are read as they are asked for. `fileName` (or
 * `url`) names the year; else the first row's DueDate gives it. A name and a first row that disagree
 * about the year are refused (a file of one year must never replace another's).
 */
export function parseGenderPayGap(
  input: Uint8Array | string,
  opts: { fileName?: string | null; url?: string | null; notes?: Partial<GenderPayGapParseNotes> } = {},
): ParsedGenderPayGap {
  const [header, first] = firstRows(input, ",", 2);
  const cols = columnsOf(header ?? []);
  const named = reportingYearOfName(opts.fileName) ?? reportingYearOfName(opts.url);
  const due = first ? dateTimeOf(first[cols.DueDate]) : null;
  const dueYear = due ? String(Number(due.slice(0, 4)) - 1) : null;
  const year = named ?? dueYear;
  if (!year) throw new RegisterFormatError("gender-pay-gap: neither the file's name nor its first row's DueDate says which reporting year it is");
  if (named && dueYear && named !== dueYear)
    throw new RegisterFormatError(
      `gender-pay-gap: the file is named for ${named} to ${+named + 1} but its first row is due in ${+dueYear + 1} (the ${dueYear} to ${+dueYear + 1} reporting year)`,
    );
  const notes = Object.assign(opts.notes ?? {}, newNotes());
  return { year, records: reportRecords(input, cols, year, notes) };
}

async function* reportRecords(
  input: DelimitedInput,
  c: Columns,
  year: string,
  notes: GenderPayGapParseNotes,
): AsyncGenerator<RegisterRecord<"gender-pay-gap">> {
  const seen = new Set<string>();
  let header = true;
  for await (const rows of delimitedRowBatches(input, ",")) {
    for (const row of rows) {
      if (header) {
        header = false;
        continue;
      }
      const cell = (i: number): string | undefined => (i >= 0 ? row[i] : undefined);
      if (blankToNull(cell(c.ResponsiblePerson))) notes.responsiblePersonsNotStored++;
      const employerId = blankToNull(cell(c.EmployerId));
      if (!employerId) {
        notes.rowsWithoutEmployerId++;
        continue;
      }
      if (seen.has(employerId)) {
        notes.duplicateRows++;
        continue;
      }
      seen.add(employerId);
      const kept = companyLevelName(cell(c.EmployerName) ?? "");
      if (!kept) {
        notes.personOnlyRows++;
        continue;
      }
      if (kept.personRemoved) notes.personNamesRemoved++;
      const name = kept.name;
      const rawCurrent = blankToNull(cell(c.CurrentName));
      const current = rawCurrent === null ? null : rawCurrent === cell(c.EmployerName)?.trim() ? kept : companyLevelName(rawCurrent);
      if (rawCurrent && (!current || current.personRemoved)) notes.personNamesRemoved++;
      const currentName = current?.name ?? null;

      const num = (i: number): number | null => {
        const v = numberOf(cell(i));
        if (v === undefined) notes.unreadableValues++;
        return v ?? null;
      };
      const date = (i: number): string | null => {
        const v = dateTimeOf(cell(i));
        if (v === undefined) notes.unreadableValues++;
        return v ?? null;
      };
      const late = booleanOf(cell(c.SubmittedAfterTheDeadline));
      if (late === undefined) notes.unreadableValues++;
      const rawNumber = blankToNull(cell(c.CompanyNumber));
      const companyNumber = normaliseCompanyNumber(rawNumber);
      if (rawNumber && !companyNumber) notes.unreadableCompanyNumbers++;
      const dueDate = date(c.DueDate);
      if (dueDate && String(Number(dueDate.slice(0, 4)) - 1) !== year) notes.rowsDueInAnotherYear++;
      const split = (male: number, female: number): QuartileSplit => ({ malePct: num(male), femalePct: num(female) });
      const size = blankToNull(cell(c.EmployerSize));

      const report: GenderPayGapReport = {
        employerId,
        year,
        employerName: name,
        currentName,
        companyNumber,
        postcode: blankToNull(cell(c.PostCode)),
        address: blankToNull(cell(c.Address)),
        sicCodes: sicCodesOf(cell(c.SicCodes)),
        diffMeanHourlyPct: num(c.DiffMeanHourlyPercent),
        diffMedianHourlyPct: num(c.DiffMedianHourlyPercent),
        diffMeanBonusPct: num(c.DiffMeanBonusPercent),
        diffMedianBonusPct: num(c.DiffMedianBonusPercent),
        maleBonusPct: num(c.MaleBonusPercent),
        femaleBonusPct: num(c.FemaleBonusPercent),
        quartiles: {
          lower: split(c.MaleLowerQuartile, c.FemaleLowerQuartile),
          lowerMiddle: split(c.MaleLowerMiddleQuartile, c.FemaleLowerMiddleQuartile),
          upperMiddle: split(c.MaleUpperMiddleQuartile, c.FemaleUpperMiddleQuartile),
          top: split(c.MaleTopQuartile, c.FemaleTopQuartile),
        },
        sizeBand: size && canon(size) !== "not provided" ? size : null,
        link: blankToNull(cell(c.CompanyLinkToGPGInfo)),
        submittedLate: late ?? null,
        dueDate,
        submittedOn: date(c.DateSubmitted),
      };
      yield {
        source: "gender-pay-gap",
        key: `${employerId}:${year}`,
        entity: employerId,
        part: year,
        name,
        companyNumber,
        altNames: currentName && canon(currentName) !== canon(name) ? [currentName] : [],
        // A report filed (or last resubmitted) after the deadline: the file's SubmittedAfterTheDeadline.
        status: late ? "reported-late" : "reported",
        rating: null,
        town: null,
        data: report,
      };
    }
  }
}

/**
 * The date of the newest submission in a file (`YYYY-MM-DD`): the edition date of a file given without
 * one (the CLI), as the file is current up to its latest report. Null when no row has a readable date.
 */
export async function latestSubmissionOf(input: DelimitedInput): Promise<string | null> {
  let col = -1;
  let latest: string | null = null;
  let header = true;
  for await (const rows of delimitedRowBatches(input, ",")) {
    for (const row of rows) {
      if (header) {
        header = false;
        col = columnsOf(row).DateSubmitted;
        continue;
      }
      const d = dateTimeOf(row[col]);
      if (d && (latest === null || d > latest)) latest = d;
    }
  }
  return latest?.slice(0, 10) ?? null;
}
