/**
 * Parser for the UK sanctions list (shared/formats/uk-sanctions.md), giving one SanctionsDesignation per
 * list entry: parseUkSanctionsListCsv reads the FCDO UK Sanctions List CSV (line 1 "Report Date: 13-Feb-2026",
 * line 2 header, one row per name, grouped by Unique ID), the single UK list since 28 January 2026.
 *
 * The OFSI Consolidated List, retired that day, was published as XLSX; the service no longer reads it (issue 30 §2:
 * the npm `xlsx` package it was read with, SheetJS 0.18.5, is abandoned with known advisories, and the live list is
 * published as CSV). A workbook given as the list is refused with a RegisterFormatError that says so and names the
 * CSV to give (parseUkSanctionsFile).
 *
 * Individuals are kept only as far as matching needs (SPEC §1 rule 7): names, kind, ids, regimes, dates and
 * address countries. Dates of birth, passports, nationalities, positions, postcodes and statements of reasons
 * are never read into the output.
 */
import Papa from "papaparse";
import type { RegisterRecord } from "../../services/registers/types";
import type { DesignationKind, SanctionsDesignation, SanctionsName } from "../../services/sanctions/types";
import { extractCompanyNumber, normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { RegisterFormatError } from "../format-error";

export interface SanctionsParse {
  /** The list's own date (its "Report Date"), YYYY-MM-DD. */
  listDate: string | null;
  designations: SanctionsDesignation[];
  /** Counts for the import log: rows, groups, kinds, skipped rows. */
  notes: Record<string, number>;
}

// ---------------------------------------------------------------------------------------------------------
// Shared helpers

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };

const ymd = (y: number, m: number, d: number): string | null => {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200) return null;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCDate() !== d) return null; // 31/02
  return t.toISOString().slice(0, 10);
};

/** dd/mm/yyyy, dd-Mon-yyyy or YYYY-MM-DD → YYYY-MM-DD; anything else → null. */
export function sanctionsDate(v: string | null | undefined): string | null {
  if (typeof v !== "string") return null;
  const s = v.trim();
  let m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(s);
  if (m) return ymd(+m[3], +m[2], +m[1]);
  m = /^(\d{1,2})[- ]([A-Za-z]{3})[a-z]*[- ](\d{4})$/.exec(s);
  if (m && MONTHS[m[2].toLowerCase()]) return ymd(+m[3], MONTHS[m[2].toLowerCase()], +m[1]);
  m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return ymd(+m[1], +m[2], +m[3]);
  return null;
}

const clean = (v: unknown): string => (v == null ? "" : String(v).replace(/\s+/g, " ").trim());

/** Name 1..5 then Name 6, skipping blanks and the literal "0" older files use for a missing part. */
const joinName = (parts: unknown[]): string =>
  parts
    .map(clean)
    .filter((p) => p !== "" && p !== "0")
    .join(" ");

const KINDS: Record<string, DesignationKind> = { entity: "entity", individual: "individual", ship: "ship" };

function nameType(v: string): SanctionsName["type"] | null {
  const s = v.toLowerCase().replace(/\s+/g, " ").trim();
  if (s === "primary name") return "primary";
  if (s === "primary name variation") return "variation";
  if (s === "aka" || s === "alias") return "alias";
  if (s === "fka" || s === "former name" || s === "formerly known as") return "former";
  return null;
}

function quality(v: string): SanctionsName["quality"] {
  if (/^good/i.test(v)) return "good";
  if (/^low/i.test(v)) return "low";
  return null;
}

/**
 * One free-text registration field split into its entries: "(1) INN: 123 (2) OGRN: 456" → two entries;
 * also splits on line breaks, "|" and ";". Each entry is kept as written (white space collapsed).
 */
export function splitRegistrationNumbers(text: string): string[] {
  return text
    .split(/\(\d{1,2}\)|[\r\n|;]+/)
    .map((p) => clean(p).replace(/^[,.:\s]+|[,.\s]+$/g, ""))
    .filter((p) => /\d/.test(p));
}

/** Says in so many words that the number is a UK (Companies House) one. */
const UK_COMPANY =
  /\b(?:U\.?K\.?|United Kingdom|British|England\s*(?:and|&)\s*Wales|Scotland|Northern Ireland)\s+(?:company|companies|registered company|registration)\b|\bCompanies\s+House\b/i;

/** The UK company number of one registration entry, when the entry says it is one (e.g. "UK Company no. 06527449"). */
export function ukCompanyNumberOf(entry: string): string | null {
  if (!UK_COMPANY.test(entry)) return null;
  const found = extractCompanyNumber(entry);
  if (found) return found;
  const last = /(?:^|[\s:#.-])([A-Za-z]{2}\s?\d{1,6}|\d{1,8})\s*\.?$/.exec(entry.trim());
  return last ? normaliseCompanyNumber(last[1]) : null;
}

/** A designation being assembled from its rows. */
class Builder {
  readonly names: SanctionsName[] = [];
  private readonly nameKeys = new Set<string>();
  readonly regimes = new Set<string>();
  readonly countries = new Set<string>();
  readonly postcodes = new Set<string>();
  readonly registrations = new Set<string>();
  readonly sanctions = new Set<string>();
  designatedOn: string | null = null;
  lastUpdated: string | null = null;
  ukslRef: string | null = null;

  constructor(
    readonly ofsiGroupId: string | null,
    readonly kind: DesignationKind,
    readonly unique: string | null,
  ) {}

  /** Returns false for a repeat of a name already held (a list may repeat a name once per address). */
  addName(name: string, type: SanctionsName["type"], q: SanctionsName["quality"], nonLatin: boolean): boolean {
    if (!name) return false;
    const key = `${type}|${q}|${nonLatin}|${name}`;
    if (this.nameKeys.has(key)) return false;
    this.nameKeys.add(key);
    this.names.push({ name, type, quality: q, nonLatin });
    return true;
  }

  addDates(designated: string | null, updated: string | null): void {
    // A group listed under several regimes has one row set per regime, each with its own dates: keep the
    // first designation and the latest update.
    if (designated && (!this.designatedOn || designated < this.designatedOn)) this.designatedOn = designated;
    if (updated && (!this.lastUpdated || updated > this.lastUpdated)) this.lastUpdated = updated;
  }

  addAddress(country: string, postcode: string): void {
    if (country) this.countries.add(country);
    if (postcode && this.kind !== "individual") this.postcodes.add(postcode);
  }

  build(): SanctionsDesignation {
    const registrationNumbers = this.kind === "entity" ? [...this.registrations] : [];
    const uk = new Set<string>();
    for (const r of registrationNumbers) {
      const n = ukCompanyNumberOf(r);
      if (n) uk.add(n);
    }
    return {
      id: this.ukslRef ?? this.unique ?? this.ofsiGroupId ?? "",
      ukslRef: this.ukslRef,
      ofsiGroupId: this.ofsiGroupId,
      kind: this.kind,
      names: this.names,
      regimes: [...this.regimes],
      designatedOn: this.designatedOn,
      lastUpdated: this.lastUpdated,
      registrationNumbers,
      ukCompanyNumbers: [...uk],
      countries: [...this.countries],
      postcodes: [...this.postcodes],
      sanctions: [...this.sanctions],
    };
  }
}

const bump = (notes: Record<string, number>, key: string, by = 1) => void (notes[key] = (notes[key] ?? 0) + by);

/** Header cells → column index, keyed by the name lower-cased with all white space removed. */
function headerIndex(row: unknown[]): Map<string, number> {
  const m = new Map<string, number>();
  row.forEach((h, i) => {
    const k = clean(h).toLowerCase().replace(/\s+/g, "");
    if (k && !m.has(k)) m.set(k, i);
  });
  return m;
}
const hkey = (name: string) => name.toLowerCase().replace(/\s+/g, "");

// ---------------------------------------------------------------------------------------------------------
// FCDO UK Sanctions List (CSV)

const UKSL_REQUIRED = ["Unique ID", "Name 6", "Name type", "Regime Name", "Designation Type"];

/** The FCDO UK Sanctions List CSV: "Report Date: …" preamble, header row, one row per name grouped by Unique ID. */
export function parseUkSanctionsListCsv(input: string | Uint8Array): SanctionsParse {
  let text = typeof input === "string" ? input : new TextDecoder("utf-8").decode(input);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const rows = Papa.parse<string[]>(text, { skipEmptyLines: "greedy" }).data;

  const headerAt = rows.slice(0, 10).findIndex((r) => {
    const h = headerIndex(r);
    return UKSL_REQUIRED.every((n) => h.has(hkey(n)));
  });
  if (headerAt < 0) throw new RegisterFormatError("UK Sanctions List CSV: no header row with Unique ID / Name 6 / Name type / Regime Name / Designation Type");
  let listDate: string | null = null;
  for (const r of rows.slice(0, headerAt)) {
    for (const cell of r) {
      const m = /Report Date:\s*(.+)$/i.exec(clean(cell));
      if (m) listDate = sanctionsDate(m[1]);
    }
  }

  const h = headerIndex(rows[headerAt]);
  const col = (name: string) => h.get(hkey(name)) ?? -1;
  const nameCols = ["Name 1", "Name 2", "Name 3", "Name 4", "Name 5", "Name 6"].map(col);
  const c = {
    unique: col("Unique ID"),
    group: col("OFSI Group ID"),
    nameType: col("Name type"),
    strength: col("Alias strength"),
    nonLatin: col("Name non-latin script"),
    regime: col("Regime Name"),
    kind: col("Designation Type"),
    sanctions: col("Sanctions Imposed"),
    postcode: col("Address Postal Code"),
    country: col("Address Country"),
    designated: col("Date Designated"),
    updated: col("Last Updated"),
    reg: col("Business registration number (s)"),
  };
  const at = (r: string[], i: number) => (i < 0 ? "" : clean(r[i]));

  const notes: Record<string, number> = {};
  const groups = new Map<string, Builder>();
  for (let i = headerAt + 1; i < rows.length; i++) {
    const r = rows[i];
    bump(notes, "rows");
    const unique = at(r, c.unique);
    const kind = KINDS[at(r, c.kind).toLowerCase()];
    if (!unique || !kind) {
      bump(notes, "skippedRows");
      continue;
    }
    let b = groups.get(unique);
    if (!b) {
      const group = at(r, c.group);
      b = new Builder(group || null, kind, unique);
      b.ukslRef = unique; // the Unique ID is the UK Sanctions List reference
      groups.set(unique, b);
    } else if (b.kind !== kind) bump(notes, "kindConflicts");
    const type = nameType(at(r, c.nameType));
    if (!type) bump(notes, "unknownNameType");
    const nt = type ?? "alias";
    const q = quality(at(r, c.strength));
    if (!b.addName(joinName(nameCols.map((k) => (k < 0 ? null : r[k]))), nt, q, false)) bump(notes, "repeatedNames");
    b.addName(at(r, c.nonLatin), nt, q, true);
    const regime = at(r, c.regime);
    if (regime) b.regimes.add(regime);
    b.addDates(sanctionsDate(at(r, c.designated)), sanctionsDate(at(r, c.updated)));
    b.addAddress(at(r, c.country), at(r, c.postcode));
    for (const s of (c.sanctions < 0 ? "" : (r[c.sanctions] ?? "")).split("|")) if (clean(s)) b.sanctions.add(clean(s));
    if (kind === "entity" && c.reg >= 0 && r[c.reg]) for (const n of splitRegistrationNumbers(r[c.reg])) b.registrations.add(n);
  }

  const designations = [...groups.values()].map((b) => b.build());
  notes.groups = designations.length;
  for (const d of designations) {
    bump(notes, d.kind);
    if (d.registrationNumbers.length) bump(notes, "withRegistrationNumbers");
    if (d.ukCompanyNumbers.length) bump(notes, "withUkCompanyNumbers");
  }
  return { listDate, designations, notes };
}

/** What to give instead of a workbook. */
const GIVE_CSV = "give the FCDO UK Sanctions List as CSV (UK-Sanctions-List.csv, as SANCTIONS_LIST_URL serves it)";

/**
 * The UK Sanctions List file: its CSV. A spreadsheet (a zip: XLSX or ODS; or an Excel 97 .xls) is refused, before
 * anything in it is read, with a RegisterFormatError saying that the retired OFSI Consolidated List (XLSX) is no
 * longer read and which file to give; anything else that is not the CSV, as parseUkSanctionsListCsv refuses it.
 */
export function parseUkSanctionsFile(bytes: Uint8Array): SanctionsParse {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    throw new RegisterFormatError(
      `UK sanctions list: this file is a zip (an XLSX or ODS workbook), not the CSV. The OFSI Consolidated List (XLSX), retired on 28 January 2026, is no longer read; ${GIVE_CSV}`,
    );
  }
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw new RegisterFormatError(`UK sanctions list: this file is an Excel workbook (.xls), not the CSV. Workbooks are not read; ${GIVE_CSV}`);
  }
  return parseUkSanctionsListCsv(bytes);
}

/**
 * A designation as a register record (the ingest pipeline's shape): keyed by its list id, named by its first
 * primary name, every other name an alternative name for matching. `data` keeps what matching and the replies
 * need; an individual's record is for matching only and is never shown (SPEC §1 rule 7).
 */
export function designationRecord(d: SanctionsDesignation): RegisterRecord<"sanctions"> {
  const primary = d.names.find((n) => n.type === "primary" && !n.nonLatin) ?? d.names.find((n) => !n.nonLatin) ?? d.names[0];
  return {
    source: "sanctions",
    key: d.id,
    entity: d.id,
    part: null,
    name: primary?.name ?? d.id,
    companyNumber: d.ukCompanyNumbers[0] ?? null,
    altNames: d.names.filter((n) => n !== primary).map((n) => n.name),
    status: "designated",
    rating: null,
    town: null,
    data: { ...d },
  };
}
