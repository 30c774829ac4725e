/**
 * Parsers for the UK sanctions list (shared/formats/uk-sanctions.md), giving one SanctionsDesignation per
 * list entry:
 * - parseOfsiConList: OFSI Consolidated List XLSX (historic, retired 28 Jan 2026): sheet "Data", row 1
 *   "Last Updated | dd/mm/yyyy", row 2 header, one row per name (and per address), grouped by Group ID.
 *   Identifiers are tagged text inside "Other Information".
 * - parseUkSanctionsListCsv: FCDO UK Sanctions List CSV: line 1 "Report Date: 13-Feb-2026", line 2 header,
 *   one row per name, grouped by Unique ID.
 *
 * Individuals are kept only as far as matching needs (SPEC §1 rule 7): names, kind, ids, regimes, dates and
 * address countries. Dates of birth, passports, nationalities, positions, postcodes and statements of reasons
 * are never read into the output.
 */
import { Inflate } from "fflate";
import Papa from "papaparse";
import * as XLSX from "xlsx";
import type { RegisterRecord } from "../../services/registers/types";
import type { DesignationKind, SanctionsDesignation, SanctionsName } from "../../services/sanctions/types";
import { extractCompanyNumber, normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { RegisterFormatError } from "../format-error";

export interface SanctionsParse {
  /** The list's own date (ConList "Last Updated", UKSL "Report Date"), YYYY-MM-DD. */
  listDate: string | null;
  designations: SanctionsDesignation[];
  /** Counts for the import log: rows, groups, kinds, skipped rows. */
  notes: Record<string, number>;
}

// ---------------------------------------------------------------------------------------------------------
// Shared helpers

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

const ymd = (y: number, m: number, d: number): string | null => {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200) return null;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCDate() !== d) return null; // 31/02
  return t.toISOString().slice(0, 10);
};

/** dd/mm/yyyy, dd-Mon-yyyy, YYYY-MM-DD or an Excel serial day number → YYYY-MM-DD; anything else → null. */
export function sanctionsDate(v: unknown): string | null {
  if (typeof v === "number") {
    if (!Number.isFinite(v) || v < 1 || v > 200_000) return null;
    return new Date(EXCEL_EPOCH + Math.floor(v) * 86_400_000).toISOString().slice(0, 10);
  }
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString().slice(0, 10);
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
  parts.map(clean).filter((p) => p !== "" && p !== "0").join(" ");

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
const UK_COMPANY = /\b(?:U\.?K\.?|United Kingdom|British|England\s*(?:and|&)\s*Wales|Scotland|Northern Ireland)\s+(?:company|companies|registered company|registration)\b|\bCompanies\s+House\b/i;

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

  constructor(readonly ofsiGroupId: string | null, readonly kind: DesignationKind, readonly unique: string | null) {}

  /** Returns false for a repeat of a name already held (ConList repeats every name once per address). */
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
// OFSI Consolidated List (XLSX)

const OFSI_REQUIRED = ["Name 6", "Group ID", "Group Type", "Alias Type", "Regime", "Other Information"];

/** The text of one "(Tag):" section of Other Information, up to the next "(Tag):" or the end. */
function tagged(info: string, tag: string): string | null {
  const at = info.indexOf(`(${tag}):`);
  if (at < 0) return null;
  const rest = info.slice(at + tag.length + 3);
  const next = /\((?:[A-Z][A-Za-z /&'-]{1,40})\):/.exec(rest);
  return (next ? rest.slice(0, next.index) : rest).trim();
}

/** Other Information with the statement of reasons cut out: that prose names other companies and their numbers. */
function withoutReasons(info: string): string {
  const reasons = tagged(info, "UK Statement of Reasons");
  return reasons === null ? info : info.replace(reasons, " ");
}

/** Registration numbers an entity's Other Information gives: "(Business Reg No):…", "Registration ID: …", "Registered company number: …", "Company no. …". */
function ofsiRegistrations(info: string): string[] {
  const out: string[] = [];
  const reg = tagged(info, "Business Reg No");
  if (reg) out.push(...splitRegistrationNumbers(reg));
  const rest = withoutReasons(info).replace(/\(Business Reg No\):[^]*?(?=\([A-Z][A-Za-z /&'-]{1,40}\):|$)/, " ");
  for (const m of rest.matchAll(/(?:Registration ID|Registered company number|Company (?:no\b\.?|number))\s*[:.]?\s*([A-Za-z]{0,2}\s?\d[\d ]{3,18}\d)/gi)) {
    out.push(clean(m[0]));
  }
  return out;
}

/** "Financial sanctions imposed in addition to an asset freeze: Trust services." */
const ADDITIONAL = /Financial sanctions imposed in addition to an asset freeze:\s*([^.]+)\./g;

/**
 * What SheetJS may inflate of one workbook, all entries together. `XLSX.read` inflates every entry of the zip at once,
 * in memory, before reading a cell, so a small file that inflates to gigabytes would take the isolate with it. The
 * OFSI list of 10 April 2025 (2.2 MB) holds 17.0 MB inflated in 7 entries, its sheet 12.8 MB: this is nearly 4 times
 * that, and within a Worker isolate's 128 MB while SheetJS still has to hold the cells it reads.
 */
export const MAX_XLSX_INFLATED_BYTES = 64 * 1024 * 1024;
/** Entries of a workbook (the OFSI list has 7; a workbook of many sheets a few dozen). SheetJS copies the rest of the file once per entry. */
export const MAX_XLSX_ENTRIES = 256;
/** Compressed bytes inflated per step while measuring: one step makes at most about 1,032 times this. */
const MEASURE_SLICE = 4 * 1024;

/**
 * Measures, before `XLSX.read` is let near it, what SheetJS would inflate, walking the zip as SheetJS's reader does (the
 * last end-of-central-directory signature, its 16-bit entry count and directory offset, each entry's local header) and
 * inflating each deflated entry with fflate's streaming Inflate a slice at a time, the output counted and dropped.
 * An entry is charged the larger of what it inflates to and the size its local header states (SheetJS allocates that
 * up front); a stored entry its stored size. Refused (RegisterFormatError) past MAX_XLSX_INFLATED_BYTES or
 * MAX_XLSX_ENTRIES, or when the directory is not one SheetJS could walk without reading past the file's end: entries
 * that together claim more compressed bytes than the file holds (overlapping entries, one stream counted many times),
 * or a deflate stream that does not end within its entry's compressed size.
 */
export function checkXlsxBudget(b: Uint8Array): void {
  const refuse = (why: string): never => {
    throw new RegisterFormatError(`OFSI ConList: ${why}`);
  };
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const u16 = (p: number) => dv.getUint16(p, true), u32 = (p: number) => dv.getUint32(p, true);
  let eocd = b.length - 4;
  while (eocd >= 0 && !(b[eocd] === 0x50 && b[eocd + 1] === 0x4b && b[eocd + 2] === 5 && b[eocd + 3] === 6)) eocd--;
  if (eocd < 0 || eocd + 22 > b.length) refuse("unreadable XLSX (zip directory missing)");
  const entries = u16(eocd + 8);
  if (entries > MAX_XLSX_ENTRIES) refuse(`the workbook has ${entries} entries, more than ${MAX_XLSX_ENTRIES}`);
  let p = u32(eocd + 16), total = 0, claimed = 0;
  const charge = (n: number) => {
    total += n;
    if (total > MAX_XLSX_INFLATED_BYTES) refuse(`the workbook inflates to more than ${MAX_XLSX_INFLATED_BYTES / 1024 / 1024} MiB`);
  };
  for (let i = 0; i < entries; i++) {
    if (p + 46 > b.length) refuse("unreadable XLSX (zip directory corrupt)");
    const csz = u32(p + 20), local = u32(p + 42);
    p += 46 + u16(p + 28) + u16(p + 30) + u16(p + 32);
    claimed += csz;
    if (claimed > b.length) refuse("unreadable XLSX (its entries claim more bytes than the file holds)");
    if (local + 30 > b.length) refuse("unreadable XLSX (zip entry corrupt)");
    const method = u16(local + 8), localCsz = u32(local + 18), localUsz = u32(local + 22);
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    if (method === 0) {
      charge(Math.min(localCsz, Math.max(0, b.length - start)));
    } else if (method === 8) {
      if (start + csz > b.length) refuse("unreadable XLSX (zip entry truncated)");
      let inflated = 0;
      const inflater = new Inflate((chunk) => {
        inflated += chunk.length;
        if (inflated > localUsz) charge(chunk.length);
      });
      charge(localUsz);
      const data = b.subarray(start, start + csz);
      try {
        for (let off = 0; off < data.length || off === 0; off += MEASURE_SLICE) inflater.push(data.subarray(off, off + MEASURE_SLICE), off + MEASURE_SLICE >= data.length);
      } catch (e) {
        if (e instanceof RegisterFormatError) throw e;
        refuse(`unreadable XLSX (an entry does not inflate: ${e instanceof Error ? e.message : String(e)})`);
      }
    } // other methods: SheetJS refuses them itself
  }
}

/**
 * The OFSI Consolidated List of Asset Freeze Targets as XLSX (sheet "Data"). Every entry on it is an asset
 * freeze target, so each designation's `sanctions` holds "Asset freeze" plus any additional financial
 * sanctions Other Information names (e.g. "Trust services").
 */
export function parseOfsiConList(bytes: Uint8Array): SanctionsParse {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 3 || bytes[3] !== 4) {
    throw new RegisterFormatError("OFSI ConList: not an XLSX file");
  }
  checkXlsxBudget(bytes);
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(bytes, { type: "array", dense: true, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false });
  } catch (e) {
    throw new RegisterFormatError(`OFSI ConList: unreadable XLSX (${e instanceof Error ? e.message : String(e)})`);
  }
  const sheet = wb.Sheets["Data"] ?? wb.Sheets[wb.SheetNames[0]];
  if (!sheet) throw new RegisterFormatError("OFSI ConList: no sheet");
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: false });

  const headerAt = rows.slice(0, 10).findIndex((r) => {
    const h = headerIndex(r);
    return OFSI_REQUIRED.every((n) => h.has(hkey(n)));
  });
  if (headerAt < 0) throw new RegisterFormatError("OFSI ConList: no header row with Name 6 / Group ID / Group Type / Alias Type / Regime / Other Information");
  let listDate: string | null = null;
  for (const r of rows.slice(0, headerAt)) {
    if (/^last updated$/i.test(clean(r[0]))) listDate = sanctionsDate(r[1]);
  }

  const h = headerIndex(rows[headerAt]);
  const col = (name: string) => h.get(hkey(name)) ?? -1;
  const nameCols = ["Name 1", "Name 2", "Name 3", "Name 4", "Name 5", "Name 6"].map(col);
  const c = {
    nonLatin: col("Name Non-Latin Script"),
    postcode: col("Post/Zip Code"),
    country: col("Country"),
    info: col("Other Information"),
    kind: col("Group Type"),
    aliasType: col("Alias Type"),
    quality: col("Alias Quality"),
    regime: col("Regime"),
    listedOn: col("Listed On"),
    designated: col("UK Sanctions List Date Designated"),
    updated: col("Last Updated"),
    group: col("Group ID"),
  };
  const at = (r: unknown[], i: number) => (i < 0 ? "" : clean(r[i]));

  const notes: Record<string, number> = {};
  const groups = new Map<string, Builder>();
  const infoSeen = new Map<Builder, Set<string>>();
  for (let i = headerAt + 1; i < rows.length; i++) {
    const r = rows[i];
    bump(notes, "rows");
    const groupId = at(r, c.group).replace(/\.0+$/, "");
    const kind = KINDS[at(r, c.kind).toLowerCase()];
    const type = nameType(at(r, c.aliasType));
    if (!groupId || !kind) {
      bump(notes, "skippedRows");
      continue;
    }
    let b = groups.get(groupId);
    if (!b) {
      b = new Builder(groupId, kind, null);
      groups.set(groupId, b);
      b.sanctions.add("Asset freeze");
    } else if (b.kind !== kind) bump(notes, "kindConflicts");
    if (!type) bump(notes, "unknownAliasType");
    const nt = type ?? "alias";
    const q = quality(at(r, c.quality));
    if (!b.addName(joinName(nameCols.map((k) => (k < 0 ? null : r[k]))), nt, q, false)) bump(notes, "repeatedNames");
    b.addName(at(r, c.nonLatin), nt, q, true);
    const regime = at(r, c.regime);
    if (regime) b.regimes.add(regime);
    b.addDates(sanctionsDate(r[c.designated]) ?? sanctionsDate(r[c.listedOn]), sanctionsDate(r[c.updated]));
    b.addAddress(at(r, c.country), at(r, c.postcode));

    const info = c.info < 0 || r[c.info] == null ? "" : String(r[c.info]);
    let seen = infoSeen.get(b);
    if (!seen) infoSeen.set(b, (seen = new Set()));
    if (info && !seen.has(info)) {
      seen.add(info);
      // Kept as listed: a few refs are UN-style ("SDi.005").
      const ref = /\(UK Sanctions List Ref\):\s*([A-Za-z0-9][A-Za-z0-9./-]*?)\.?(?=\s|\(|$)/.exec(info);
      if (ref && !b.ukslRef) b.ukslRef = ref[1];
      if (kind === "entity") for (const n of ofsiRegistrations(info)) b.registrations.add(n);
      for (const m of info.matchAll(ADDITIONAL)) for (const s of m[1].split(/,\s*|\s+and\s+/)) if (clean(s)) b.sanctions.add(clean(s));
    }
  }

  const designations = [...groups.values()].map((b) => b.build());
  notes.groups = designations.length;
  for (const d of designations) {
    bump(notes, d.kind);
    if (!d.ukslRef) bump(notes, "noUkslRef");
    if (d.registrationNumbers.length) bump(notes, "withRegistrationNumbers");
    if (d.ukCompanyNumbers.length) bump(notes, "withUkCompanyNumbers");
  }
  return { listDate, designations, notes };
}

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
    for (const s of (c.sanctions < 0 ? "" : r[c.sanctions] ?? "").split("|")) if (clean(s)) b.sanctions.add(clean(s));
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

/** Either list, told apart by its first bytes (an XLSX is a zip); RegisterFormatError when it is neither. */
export function parseUkSanctionsFile(bytes: Uint8Array): SanctionsParse {
  return bytes[0] === 0x50 && bytes[1] === 0x4b ? parseOfsiConList(bytes) : parseUkSanctionsListCsv(bytes);
}

/**
 * A designation as a register record (the ingest pipeline's shape): keyed by its list id, named by its first
 * primary name, every other name an alternative name for matching. `data` keeps what matching and the replies
 * need; an individual's record is for matching only and is never shown (SPEC §1 rule 7).
 */
export function designationRecord(d: SanctionsDesignation): RegisterRecord {
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
    data: { ...d } as unknown as Record<string, unknown>,
  };
}
