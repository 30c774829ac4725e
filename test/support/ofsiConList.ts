/**
 * Test support (tests and the bench only): the real historic OFSI Consolidated List (../shared/data/uk-sanctions, an
 * XLSX retired on 28 January 2026) rewritten as the FCDO UK Sanctions List CSV the service reads, so the tests and the
 * bench put about 4,700 real designations through the production parser (parseUkSanctionsListCsv) without the service
 * reading XLSX (issue 30 §2).
 *
 * One UKSL row per ConList row, in the file's order (ConList repeats a name once per address; so may the CSV). The
 * columns map one to one where both lists have them (names, name type, alias strength, non-Latin names, regime,
 * designation type, group id, dates, addresses, and the personal columns the parser must leave out). What ConList
 * keeps as tagged text in "Other Information" is moved to the UKSL column that holds it:
 * - Unique ID: "(UK Sanctions List Ref):RUS2305" (the first a group gives); a group without one (15878, SAMOFAL)
 *   keeps its group id, as the service did for it;
 * - Business registration number (s): "(Business Reg No):…", "Registration ID: …", "Registered company number: …",
 *   "Company no. …" outside the statement of reasons, every one the group gives, one a line;
 * - Sanctions Imposed: "Asset freeze" (every ConList entry is an asset freeze target) and the additional financial
 *   sanctions named ("Financial sanctions imposed in addition to an asset freeze: Trust services."), "|"-separated;
 * - UK Statement of Reasons, Type of entity, Parent company, Subsidiaries, IMO number.
 * Dates are written dd/mm/yyyy, the list date as "Report Date: 10-Apr-2025".
 */
import Papa from "papaparse";
import { sanctionsDate, splitRegistrationNumbers } from "../../src/sources/sanctions/parse";
import { readXlsxSheet } from "./xlsxSheet";

/** The real file in ../shared, served to the workerd tests at http://shared.test. */
export const OFSI_CONLIST_2025_04_10 = "data/uk-sanctions/ofsi-conlist_2025-04-10.xlsx";

/** The UKSL CSV header (shared/formats/uk-sanctions.md). */
export const UKSL_HEADER = [
  "Last Updated",
  "Unique ID",
  "OFSI Group ID",
  "UN Reference Number",
  "Name 6",
  "Name 1",
  "Name 2",
  "Name 3",
  "Name 4",
  "Name 5",
  "Name type",
  "Alias strength",
  "Title",
  "Name non-latin script",
  "Non-latin script type",
  "Non-latin script language",
  "Regime Name",
  "Designation Type",
  "Designation source",
  "Sanctions Imposed",
  "Other Information",
  "UK Statement of Reasons",
  "Address Line 1",
  "Address Line 2",
  "Address Line 3",
  "Address Line 4",
  "Address Line 5",
  "Address Line 6",
  "Address Postal Code",
  "Address Country",
  "Phone number",
  "Website",
  "Email address",
  "Date Designated",
  "D.O.B",
  "Nationality(/ies)",
  "National Identifier number",
  "National Identifier additional information",
  "Passport number",
  "Passport additional information",
  "Position",
  "Gender",
  "Town of birth",
  "Country of birth",
  "Type of entity",
  "Subsidiaries",
  "Parent company",
  "Business registration number (s)",
  "IMO number",
  "Current owner/operator (s)",
  "Previous owner/operator (s)",
  "Current believed flag of ship",
  "Previous flags",
  "Type of ship",
  "Tonnage of ship",
  "Length of ship",
  "Year Built",
  "Hull identification number (HIN)",
] as const;
type UkslColumn = (typeof UKSL_HEADER)[number];

/** UKSL column ← ConList column, where the two lists hold the same thing. */
const SAME: [UkslColumn, string][] = [
  ["OFSI Group ID", "Group ID"],
  ["Name 6", "Name 6"],
  ["Name 1", "Name 1"],
  ["Name 2", "Name 2"],
  ["Name 3", "Name 3"],
  ["Name 4", "Name 4"],
  ["Name 5", "Name 5"],
  ["Name type", "Alias Type"],
  ["Alias strength", "Alias Quality"],
  ["Title", "Title"],
  ["Name non-latin script", "Name Non-Latin Script"],
  ["Non-latin script type", "Non-Latin Script Type"],
  ["Non-latin script language", "Non-Latin Script Language"],
  ["Regime Name", "Regime"],
  ["Designation Type", "Group Type"],
  ["Address Line 1", "Address 1"],
  ["Address Line 2", "Address 2"],
  ["Address Line 3", "Address 3"],
  ["Address Line 4", "Address 4"],
  ["Address Line 5", "Address 5"],
  ["Address Line 6", "Address 6"],
  ["Address Postal Code", "Post/Zip Code"],
  ["Address Country", "Country"],
  ["D.O.B", "DOB"],
  ["Nationality(/ies)", "Nationality"],
  ["National Identifier number", "National Identification Number"],
  ["National Identifier additional information", "National Identification Details"],
  ["Passport number", "Passport Number"],
  ["Passport additional information", "Passport Details"],
  ["Position", "Position"],
  ["Town of birth", "Town of Birth"],
  ["Country of birth", "Country of Birth"],
];

const key = (h: string) => h.toLowerCase().replace(/\s+/g, "");

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

/** Registration numbers in Other Information: "(Business Reg No):…", "Registration ID: …", "Registered company number: …", "Company no. …". */
function registrations(info: string): string[] {
  const out: string[] = [];
  const reg = tagged(info, "Business Reg No");
  if (reg) out.push(...splitRegistrationNumbers(reg));
  const rest = withoutReasons(info).replace(/\(Business Reg No\):[\s\S]*?(?=\([A-Z][A-Za-z /&'-]{1,40}\):|$)/, " ");
  for (const m of rest.matchAll(/(?:Registration ID|Registered company number|Company (?:no\b\.?|number))\s*[:.]?\s*([A-Za-z]{0,2}\s?\d[\d ]{3,18}\d)/gi)) {
    out.push(m[0].replace(/\s+/g, " ").trim());
  }
  return out;
}

/** "Financial sanctions imposed in addition to an asset freeze: Trust services." */
const ADDITIONAL = /Financial sanctions imposed in addition to an asset freeze:\s*([^.]+)\./g;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A ConList date cell (dd/mm/yyyy text, or an Excel serial day from a date-formatted number cell) as YYYY-MM-DD, or null. */
function dateOf(cell: string | undefined): string | null {
  if (!cell) return null;
  if (!/^\d+(?:\.\d+)?$/.test(cell)) return sanctionsDate(cell);
  const day = Math.floor(Number(cell));
  return day >= 1 && day <= 200_000 ? new Date(Date.UTC(1899, 11, 30) + day * 86_400_000).toISOString().slice(0, 10) : null;
}
const dmy = (iso: string | null) => (iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : "");

/** What the designation of one Group ID gives in Other Information, over all its rows. */
interface Group {
  ref: string | null;
  registrations: Set<string>;
  sanctions: Set<string>;
}

/** ConList rows (sheet "Data" as readXlsxSheet gives it) as UK Sanctions List CSV text. */
export function conListRowsAsUkslCsv(rows: string[][]): string {
  const headerAt = rows.slice(0, 10).findIndex((r) => r.some((c) => key(c) === "groupid") && r.some((c) => key(c) === "otherinformation"));
  if (headerAt < 0) throw new Error("not the OFSI Consolidated List: no header row with Group ID and Other Information");
  const listDate = dateOf(rows.slice(0, headerAt).find((r) => /^last updated$/i.test((r[0] ?? "").trim()))?.[1]);
  const index = new Map<string, number>();
  rows[headerAt].forEach((h, i) => void (index.has(key(h)) || index.set(key(h), i)));
  const get = (r: string[], name: string) => {
    const i = index.get(key(name));
    return i === undefined ? "" : (r[i] ?? "");
  };
  const body = rows.slice(headerAt + 1);
  const groupOf = (r: string[]) => get(r, "Group ID").trim().replace(/\.0+$/, "");

  // Pass 1: what each group's Other Information gives (each distinct text once).
  const groups = new Map<string, Group>();
  const seen = new Set<string>();
  for (const r of body) {
    const id = groupOf(r);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { ref: null, registrations: new Set(), sanctions: new Set(["Asset freeze"]) }));
    const info = get(r, "Other Information");
    if (!info || seen.has(`${id}\u0000${info}`)) continue;
    seen.add(`${id}\u0000${info}`);
    // Kept as listed: a few refs are UN-style ("SDi.005").
    g.ref ??= /\(UK Sanctions List Ref\):\s*([A-Za-z0-9][A-Za-z0-9./-]*?)\.?(?=\s|\(|$)/.exec(info)?.[1] ?? null;
    if (/^entity$/i.test(get(r, "Group Type").trim())) for (const n of registrations(info)) g.registrations.add(n);
    for (const m of info.matchAll(ADDITIONAL)) for (const s of m[1].split(/,\s*|\s+and\s+/)) if (s.trim()) g.sanctions.add(s.replace(/\s+/g, " ").trim());
  }

  // Pass 2: one UKSL row per ConList row.
  const out: string[][] = [];
  for (const r of body) {
    const id = groupOf(r);
    const g = groups.get(id)!;
    const info = get(r, "Other Information");
    const row: Record<string, string> = {};
    for (const [to, from] of SAME) row[to] = get(r, from);
    Object.assign(row, {
      "Last Updated": dmy(dateOf(get(r, "Last Updated"))),
      "Unique ID": id ? (g.ref ?? id) : "",
      "OFSI Group ID": id,
      "Date Designated": dmy(dateOf(get(r, "UK Sanctions List Date Designated")) ?? dateOf(get(r, "Listed On"))),
      "Sanctions Imposed": [...g.sanctions].join("|"),
      "Other Information": withoutReasons(info).trim(),
      "UK Statement of Reasons": tagged(info, "UK Statement of Reasons") ?? "",
      "Type of entity": tagged(info, "Type of entity") ?? "",
      "Parent company": tagged(info, "Parent company") ?? "",
      Subsidiaries: tagged(info, "Subsidiaries") ?? "",
      "IMO number": tagged(info, "IMO number") ?? "",
      "Business registration number (s)": [...g.registrations].join("\n"),
    });
    out.push(UKSL_HEADER.map((h) => row[h] ?? ""));
  }
  const d = listDate ? `${listDate.slice(8, 10)}-${MONTHS[+listDate.slice(5, 7) - 1]}-${listDate.slice(0, 4)}` : "";
  return Papa.unparse([[`Report Date: ${d}`], [...UKSL_HEADER], ...out], { newline: "\n" });
}

/** The OFSI Consolidated List workbook (XLSX bytes) as UK Sanctions List CSV text. */
export function conListAsUkslCsv(xlsx: Uint8Array): string {
  return conListRowsAsUkslCsv(readXlsxSheet(xlsx, { sheet: "Data" }).rows);
}
