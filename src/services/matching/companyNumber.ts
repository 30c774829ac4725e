/**
 * Companies House numbers: 8 digits, or a 2-character prefix + 6 digits (SC = Scotland,
 * NI = Northern Ireland, OC = LLP, ...). Registers type them loosely ("1234567", "sc 12345",
 * "oc300123"), so every number is normalised here before it is stored or compared.
 */

/** Prefixes Companies House uses before 6 digits. "R0" is a letter then a zero. */
export const PREFIXES = new Set([
  "AC",
  "AE",
  "AL",
  "AP",
  "BR",
  "CE",
  "CS",
  "FC",
  "FE",
  "GE",
  "GN",
  "GS",
  "IC",
  "IP",
  "LP",
  "NA",
  "NC",
  "NF",
  "NI",
  "NL",
  "NO",
  "NP",
  "NR",
  "NV",
  "NZ",
  "OC",
  "OE",
  "PC",
  "R0",
  "RC",
  "RS",
  "SA",
  "SC",
  "SE",
  "SF",
  "SG",
  "SI",
  "SL",
  "SO",
  "SP",
  "SR",
  "SZ",
  "ZC",
]);

const squash = (raw: string) => raw.trim().toUpperCase().replace(/\s+/g, "");

/** `1234567` → `01234567`, `sc 12345` → `SC012345`; anything that cannot be a company number → null. */
export function normaliseCompanyNumber(raw: string | null | undefined): string | null {
  if (raw == null) return null;
  const s = squash(raw);
  if (/^\d{1,8}$/.test(s)) return /^0+$/.test(s) ? null : s.padStart(8, "0");
  const m = /^([A-Z][A-Z0-9])(\d{1,6})$/.exec(s);
  if (!m || /^0+$/.test(m[2])) return null;
  // A known prefix may carry fewer than 6 digits; an unknown one is accepted only at full length.
  if (PREFIXES.has(m[1])) return m[1] + m[2].padStart(6, "0");
  return s.length === 8 && /^[A-Z]{2}$/.test(m[1]) ? s : null;
}

/** True when a search query is shaped like a company number (1–8 digits, or a known prefix + up to 6 digits). */
export function looksLikeCompanyNumber(q: string): boolean {
  const s = squash(q);
  if (/^\d{1,8}$/.test(s)) return !/^0+$/.test(s);
  const m = /^([A-Z][A-Z0-9])(\d{1,6})$/.exec(s);
  return !!m && PREFIXES.has(m[1]) && !/^0+$/.test(m[2]);
}

/** A number introduced by a label: "Company Registration Number 8013826", "Co. No. 01234567", "CRN: SC123456". */
const LABELLED =
  /\b(?:company\s+(?:registration\s+|reg\.?\s+)?(?:number|no\b\.?)|co\.?\s*no\b\.?|registration\s+(?:number|no\b\.?)|reg\.?\s*no\b\.?|crn)\s*[:#.]?\s*([a-z][a-z0-9]\s?\d{1,6}|\d{1,8})\b/i;
/** A bare number in brackets, or at the very end of the name ("… UK Ltd 15362523"). Full length only:
 *  shorter bare numbers are too often charity numbers, phone fragments or other registries' ids. */
const BRACKETED = /\(\s*([a-z]{2}\d{6}|\d{8})\s*\)/i;
const TRAILING = /(?:^|\s)([a-z]{2}\d{6}|\d{8})\s*\.?$/i;

/** Finds a company number written inside a name, e.g. `ACME LTD (12345678)`; null when there is none. */
export function extractCompanyNumber(text: string): string | null {
  for (const re of [LABELLED, BRACKETED, TRAILING]) {
    const m = re.exec(text);
    const n = m && normaliseCompanyNumber(m[1]);
    if (n) return n;
  }
  return null;
}

/** The name without a company number written inside it: `Abbeyfield Care Homes (12345678) Limited` → `Abbeyfield Care Homes Limited`. */
export function withoutCompanyNumber(text: string): string {
  for (const re of [LABELLED, BRACKETED, TRAILING]) {
    const m = re.exec(text);
    if (m && normaliseCompanyNumber(m[1])) return `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`.replace(/\s+/g, " ").trim();
  }
  return text;
}
