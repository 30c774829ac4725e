/**
 * UK SIC 2007 (issue 18, enrichment: `industry-classifier`): the two published lists read from their real formats,
 * the hierarchy derived from a code, and a plain-English industry label. Pure: the bytes come from the CLI (npm run
 * ingest -- sic) or the database; see ../shared/formats/sic-2007.md for the formats.
 *
 * - The Companies House condensed list (`SIC07_CH_condensed_list_en.csv`): header `SIC Code,Description`, CRLF,
 *   RFC 4180 quotes around descriptions with commas, no newline after the last row; 731 codes.
 * - The ONS alphabetical index as re-formatted by Companies House (`ons_economic_activities_alphabetic_index.csv`,
 *   and CH's own one-row `ch_created_activity_sic_codes.csv`): UTF-8 BOM, mongoimport header
 *   `sic_code.string(),activity_description.string()`, descriptions NOT quoted and holding commas (split on the first
 *   comma only), a few codes and descriptions with trailing spaces, blank lines.
 */

/** A file that is not the format it claims to be (wrong header, a row without a code). */
export class SicFormatError extends Error {
  name = "SicFormatError";
}

export interface SicCodeRow {
  /** Five digits, leading zeros kept. */
  code: string;
  /** As published (double spaces and lower-case starts kept: they are tidied for display by `tidyDescription`). */
  description: string;
}

export interface SicIndexRow {
  code: string;
  /** The activity phrase, trimmed, commas kept: "Abrasive bonded disc, wheel and segment (manufacture)". */
  phrase: string;
}

const CODE = /^\d{5}$/;

/** Records of RFC 4180 CSV (quoted fields may hold commas, doubled quotes and line breaks); CRLF or LF; no final newline needed. */
function csvRecords(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') (field += '"'), i++;
      else quoted = false;
    } else if (ch === '"' && field === "") quoted = true;
    else if (ch === ",") row.push(field), (field = "");
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      if (row.length > 1 || row[0] !== "") rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  row.push(field);
  if (row.length > 1 || row[0] !== "") rows.push(row);
  return rows;
}

const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** The condensed list (`SIC Code,Description`): one row per code, in the file's order. */
export function parseCondensedList(text: string): SicCodeRow[] {
  const records = csvRecords(withoutBom(text));
  const header = (records.shift() ?? []).map((h) => h.trim().toLowerCase());
  if (header[0] !== "sic code" || header[1] !== "description")
    throw new SicFormatError(`SIC condensed list: header "${header.join(",")}", expected "SIC Code,Description"`);
  const out: SicCodeRow[] = [];
  for (const [i, r] of records.entries()) {
    const code = (r[0] ?? "").trim();
    if (!CODE.test(code)) throw new SicFormatError(`SIC condensed list: row ${i + 2} has no five-digit code ("${r[0]}")`);
    out.push({ code, description: (r[1] ?? "").trim() });
  }
  return out;
}

export interface ActivityIndex {
  rows: SicIndexRow[];
  /** Blank lines skipped (the real index has two). */
  blankLines: number;
}

/**
 * The ONS alphabetical index as Companies House publishes it (or its one-row CH addition): each line split on its
 * FIRST comma, since the descriptions are not quoted and hold commas; codes and phrases trimmed.
 */
export function parseActivityIndex(text: string): ActivityIndex {
  const lines = withoutBom(text).split("\n");
  const header = (lines.shift() ?? "").replace(/\r$/, "").trim().toLowerCase();
  if (!/^sic_code(\.string\(\))?,activity_description(\.string\(\))?$/.test(header)) {
    throw new SicFormatError(`SIC activity index: header "${header}", expected "sic_code.string(),activity_description.string()"`);
  }
  const rows: SicIndexRow[] = [];
  let blankLines = 0;
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\r$/, "");
    if (!line.trim()) {
      blankLines++;
      continue;
    }
    const comma = line.indexOf(",");
    const code = (comma < 0 ? line : line.slice(0, comma)).trim();
    const phrase = comma < 0 ? "" : line.slice(comma + 1).trim();
    if (!CODE.test(code) || !phrase) throw new SicFormatError(`SIC activity index: line ${i + 2} is not "code,phrase" ("${line.slice(0, 80)}")`);
    rows.push({ code, phrase });
  }
  return { rows, blankLines };
}

// ---- hierarchy ------------------------------------------------------------------------------------------------

/** Section letter → name (the format note's short names), and the divisions each covers. */
export const SIC_SECTIONS: Record<string, { name: string; from: number; to: number }> = {
  A: { name: "Agriculture, forestry and fishing", from: 1, to: 3 },
  B: { name: "Mining and quarrying", from: 5, to: 9 },
  C: { name: "Manufacturing", from: 10, to: 33 },
  D: { name: "Electricity, gas, steam and air conditioning supply", from: 35, to: 35 },
  E: { name: "Water supply, sewerage, waste management and remediation", from: 36, to: 39 },
  F: { name: "Construction", from: 41, to: 43 },
  G: { name: "Wholesale and retail trade, repair of motor vehicles", from: 45, to: 47 },
  H: { name: "Transportation and storage", from: 49, to: 53 },
  I: { name: "Accommodation and food service", from: 55, to: 56 },
  J: { name: "Information and communication", from: 58, to: 63 },
  K: { name: "Financial and insurance", from: 64, to: 66 },
  L: { name: "Real estate", from: 68, to: 68 },
  M: { name: "Professional, scientific and technical", from: 69, to: 75 },
  N: { name: "Administrative and support service", from: 77, to: 82 },
  O: { name: "Public administration and defence, compulsory social security", from: 84, to: 84 },
  P: { name: "Education", from: 85, to: 85 },
  Q: { name: "Human health and social work", from: 86, to: 88 },
  R: { name: "Arts, entertainment and recreation", from: 90, to: 93 },
  S: { name: "Other service activities", from: 94, to: 96 },
  T: { name: "Households as employers", from: 97, to: 98 },
  U: { name: "Extraterritorial organisations", from: 99, to: 99 },
};

/** Companies House codes that say the company has no real activity (not ONS SIC 2007 activities). */
export const NO_ACTIVITY_CODES: Record<string, string> = { "74990": "Non-trading company", "99999": "Dormant company" };
/** CH's condensation for residents' management companies (a flat block's freeholders), not a trading activity. */
export const RESIDENTS_MANAGEMENT_CODE = "98000";

export interface SicHierarchy {
  code: string;
  section: { letter: string; name: string };
  /** Digits 1-2, 1-3, 1-4 of the code ("62", "620", "6201"). */
  division: string;
  group: string;
  class: string;
  /** The UK subclass digit when the class is split (the 5th digit), else null ("62012" → "2", "69102" → "2", "56101" → "1", "85200" → null). */
  subclass: string | null;
  /** 74990 (non-trading) and 99999 (dormant): a company that says it does nothing. */
  noActivity: boolean;
  /** Said when the code is one of Companies House's own (74990, 99999, 98000). */
  note: string | null;
}

/** The section a two-digit division belongs to, or null for a division SIC 2007 does not have. */
export function sectionOfDivision(division: number): { letter: string; name: string } | null {
  for (const [letter, s] of Object.entries(SIC_SECTIONS)) if (division >= s.from && division <= s.to) return { letter, name: s.name };
  return null;
}

/** The hierarchy of a five-digit SIC 2007 code (whitespace trimmed), or null when it is not one (a 4-digit SIC 2003 code, junk). */
export function sicHierarchy(code: string): SicHierarchy | null {
  const c = code.trim();
  if (!CODE.test(c)) return null;
  const section = sectionOfDivision(Number(c.slice(0, 2)));
  if (!section) return null;
  const noActivity = c in NO_ACTIVITY_CODES;
  const note = noActivity
    ? `${c} (${NO_ACTIVITY_CODES[c].toLowerCase()}) is a Companies House code that says the company has no trading activity`
    : c === RESIDENTS_MANAGEMENT_CODE
      ? "98000 is Companies House's code for residents' property management companies (the owners of a block managing it), not a trading activity"
      : null;
  return { code: c, section, division: c.slice(0, 2), group: c.slice(0, 3), class: c.slice(0, 4), subclass: c[4] === "0" ? null : c[4], noActivity, note };
}

/** How far two codes agree: the longest shared level (code, class, group, division, section), or "none". */
export type SicLevel = "code" | "class" | "group" | "division" | "section" | "none";

export function sharedLevel(a: string, b: string): SicLevel {
  const ha = sicHierarchy(a);
  const hb = sicHierarchy(b);
  if (!ha || !hb) return "none";
  if (ha.code === hb.code) return "code";
  if (ha.class === hb.class) return "class";
  if (ha.group === hb.group) return "group";
  if (ha.division === hb.division) return "division";
  if (ha.section.letter === hb.section.letter) return "section";
  return "none";
}

// ---- labels ---------------------------------------------------------------------------------------------------

/** Labels where the rules below would read badly. */
const LABEL_OVERRIDES: Record<string, string> = {
  "62012": "Software development",
  "62011": "Computer games development",
  "74990": "Non-trading company",
  "99999": "Dormant company",
  "98000": "Residents' property management",
  "68209": "Letting and operating of property",
  "64209": "Holding company",
};

/** A published description tidied for display: whitespace collapsed, first letter capitalised, nothing else changed. */
export function tidyDescription(description: string): string {
  const s = description.replace(/\s+/g, " ").trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * A description in plain English: tidied, "n.e.c." (not elsewhere classified) dropped, a leading "Other" and
 * "Activities of" dropped, "service activities" said as "services", "in specialised stores" as "in specialist shops".
 */
export function plainLabel(code: string, description: string): string {
  if (LABEL_OVERRIDES[code]) return LABEL_OVERRIDES[code];
  let s = description.replace(/\s+/g, " ").trim();
  s = s.replace(/,?\s*(n\.e\.c\.?|not elsewhere classified)/gi, "").trim();
  for (let i = 0; i < 2; i++) s = s.replace(/^other\s+/i, "").replace(/^activities of\s+/i, "");
  s = s.replace(/\bservice activities\b/gi, "services").replace(/\bin specialised stores\b/gi, "in specialist shops");
  return tidyDescription(s);
}

export interface LabelledCode {
  code: string;
  /** The published description (tidied), or null when the code is not in the list given. */
  description: string | null;
  label: string | null;
  section: { letter: string; name: string } | null;
  noActivity: boolean;
  note: string | null;
}

export interface IndustryLabel {
  /** Plain English for the first code with a real activity ("Software development"), else for the first code. */
  label: string;
  /** The section of that code ("Information and communication"). */
  section: { letter: string; name: string };
  /** Every code given, labelled, in the order given (duplicates and blanks dropped). */
  codes: LabelledCode[];
  /** True when every code says the company has no activity (74990, 99999). */
  noActivity: boolean;
  /** Notes on Companies House's own codes and on codes the list does not describe. */
  notes: string[];
}

/**
 * A plain-English industry label for a company's SIC codes (the register's order: the first is the main one).
 * `descriptions` is the condensed list (code → description). Null when no code is a SIC 2007 code.
 */
export function industryLabel(codes: readonly string[], descriptions: ReadonlyMap<string, string>): IndustryLabel | null {
  const seen = new Set<string>();
  const labelled: LabelledCode[] = [];
  const notes: string[] = [];
  for (const raw of codes) {
    const code = raw.trim();
    if (!code || seen.has(code)) continue;
    seen.add(code);
    const h = sicHierarchy(code);
    const d = descriptions.get(code) ?? null;
    if (h && !d) notes.push(`${code} is not in the SIC 2007 list loaded: labelled by its section only`);
    if (!h) notes.push(`${code} is not a five-digit SIC 2007 code (an old SIC 2003 code?)`);
    if (h?.note) notes.push(h.note);
    labelled.push({
      code,
      description: d ? tidyDescription(d) : null,
      label: d ? plainLabel(code, d) : null,
      section: h?.section ?? null,
      noActivity: h?.noActivity ?? false,
      note: h?.note ?? null,
    });
  }
  const usable = labelled.filter((c) => c.section);
  if (!usable.length) return null;
  const main = usable.find((c) => !c.noActivity && c.code !== RESIDENTS_MANAGEMENT_CODE) ?? usable[0];
  return { label: main.label ?? main.section!.name, section: main.section!, codes: labelled, noActivity: usable.every((c) => c.noActivity), notes };
}
