/**
 * Matches a company against the UK sanctions list (SPEC §1 rule 6): "A company is reported as on the sanctions
 * list only on a definite match, never on a maybe, and never as a clearance". So this module reports DEFINITE
 * matches only; anything weaker returns nothing (there is deliberately no "possible" list).
 *
 * A match is definite when (shared/formats/uk-sanctions.md, "Definite vs possible match"):
 *  1. the company number equals a UK company number the designation lists (or a listed registration number
 *     that normalises to one), or
 *  2. one of the company's names (current or previous) is IDENTICAL, after normalisation, to one of the
 *     designation's names, AND a fact corroborates it (the designation's address country is the company's
 *     country, or a listed postcode equals the company's), AND nothing contradicts it (the designation lists
 *     countries and none is the company's; or it lists UK company numbers and the company's is not among them).
 * A name is never matched when, without its legal forms and stop words, it has fewer than 2 words or only
 * generic words ("Global Trading LLC", "Investments Limited"). Individuals are indexed apart and never matched
 * to a company. Pure: no I/O; one match is a handful of Map lookups.
 */
import { extractCompanyNumber, normaliseCompanyNumber } from "../matching/companyNumber";
import { GENERIC_WORDS, normaliseName } from "../matching/names";
import type { DesignationKind, SanctionsDesignation, SanctionsName } from "./types";
import { squashPostcode } from "../matching/postcode";

/** One definite match, with plain reasons saying what matched and what corroborated it. */
export interface SanctionsMatch {
  id: string;
  ukslRef: string | null;
  ofsiGroupId: string | null;
  regimes: string[];
  kind: DesignationKind;
  /** The listed name that matched (for a number match, the designation's primary name). */
  matchedName: string;
  nameType: SanctionsName["type"];
  reasons: string[];
}

export interface CompanyToMatch {
  name: string;
  number?: string | null;
  previousNames?: string[];
  /** Defaults to the United Kingdom: companies given here are Companies House companies. */
  country?: string | null;
  postcode?: string | null;
}

/**
 * Legal forms seen on the list, with their transliterations and abbreviations, and the one form each unifies
 * to. Words are as normaliseName leaves them (lower case, punctuation and «» / quotes gone, runs of single
 * letters joined: "L.L.C." → "llc"). A form is removed at the START or END of a name ("OOO «Romashka»",
 * "Romashka LLC") and the name keeps the unified form, so `OOO "ROMASHKA"` and `Romashka LLC` are both
 * `romashka llc`.
 *  - llc:   limited liability companies — LLC, OOO (and its Cyrillic letters), Obshchestvo s Ogranichennoi
 *           Otvetstvennostyu (several transliterations), Ukrainian TOV / Tovarystvo z Obmezhenoiu
 *           Vidpovidalnistiu, Kazakh TOO, Ltd, Limited, Private Limited, GmbH. The list itself renders ООО
 *           as "LTD" (FORSS TECHNOLOGY LTD = ООО ФОРСС ТЕХНОЛОГИИ), so Ltd and LLC are one form here.
 *  - jsc:   joint-stock companies — JSC, AO, PAO, PJSC, OAO, OJSC, ZAO, CJSC, (Open / Closed / Public) Joint
 *           Stock Company, Aktsionernoe Obshchestvo (and Publichnoe / Otkrytoe / Zakrytoe), Ukrainian
 *           Aktsionerne Tovarystvo / PAT / PrAT. The list gives one entity as JSC, OJSC and AO alike.
 *  - plc, llp, lp, cic: UK forms, kept apart from the above.
 *  - fze, fzco, fz llc: UAE free-zone forms (Free Zone Establishment / Company).
 */
const FORMS: [string, string[]][] = [
  [
    "llc",
    [
      "limited liability company",
      "llc",
      "ooo",
      "ооо",
      "obshchestvo s ogranichennoi otvetstvennostyu",
      "obshchestvo s ogranichennoy otvetstvennostyu",
      "obshchestvo s ogranichennoj otvetstvennostju",
      "obschestvo s ogranichennoy otvetstvennostyu",
      "obshestvo s ogranichennoy otvetstvennostyu",
      "tovarystvo z obmezhenoiu vidpovidalnistiu",
      "tovarystvo z obmezhenoyu vidpovidalnistyu",
      "tov",
      "too",
      "private limited company",
      "private limited",
      "pvt ltd",
      "ltd",
      "limited",
      "gmbh",
    ],
  ],
  [
    "jsc",
    [
      "open joint stock company",
      "closed joint stock company",
      "public joint stock company",
      "joint stock company",
      "publichnoe aktsionernoe obshchestvo",
      "otkrytoe aktsionernoe obshchestvo",
      "zakrytoe aktsionernoe obshchestvo",
      "aktsionernoe obshchestvo",
      "aktsionernoye obshchestvo",
      "aktsionerne tovarystvo",
      "jsc",
      "ojsc",
      "cjsc",
      "pjsc",
      "ao",
      "pao",
      "oao",
      "zao",
      "pat",
      "prat",
      "ао",
      "пао",
      "оао",
      "зао",
    ],
  ],
  ["plc", ["public limited company", "plc"]],
  ["llp", ["limited liability partnership", "llp"]],
  ["lp", ["limited partnership", "lp"]],
  ["cic", ["community interest company", "cic"]],
  ["fz llc", ["free zone limited liability company", "fz llc"]],
  ["fze", ["free zone establishment", "fze"]],
  ["fzco", ["free zone company", "fzco", "fzc"]],
];

/** Every form as words, longest first, so "joint stock company" is tried before "company"-less forms. */
const FORM_WORDS: [string[], string][] = FORMS.flatMap(([form, spellings]) => spellings.map((s): [string[], string] => [s.split(" "), form])).sort(
  (a, b) => b[0].length - a[0].length,
);

const STOP = new Set(["and", "of", "the", "a", "an", "for", "in", "at", "on", "to", "by"]);

/** "t m g engineering" → "tmg engineering": initials written with dots or spaces are one word. */
function joinInitials(w: string[]): string[] {
  const out: string[] = [];
  let run = "";
  for (const x of w) {
    if (x.length === 1 && /\p{L}/u.test(x)) {
      run += x;
      continue;
    }
    if (run) {
      out.push(run);
      run = "";
    }
    out.push(x);
  }
  if (run) out.push(run);
  return out;
}

const startsWith = (w: string[], f: string[]) => w.length > f.length && f.every((t, i) => w[i] === t);
const endsWith = (w: string[], f: string[]) => w.length > f.length && f.every((t, i) => w[w.length - f.length + i] === t);

/**
 * A Latin name as the sanctions matcher compares it: normaliseName, initials joined, legal forms at either end
 * removed and unified (FORMS). `key` is "core form" (e.g. "romashka llc"); `matchable` is false when the core,
 * without stop words, has fewer than 2 words or only generic words.
 */
/** Words common in company names on the list and on the register, beyond the matcher's generic words: never a one-word name. */
const COMMON_BUSINESS_WORDS: ReadonlySet<string> = new Set([
  "investment",
  "investments",
  "capital",
  "finance",
  "financial",
  "trade",
  "industries",
  "industrial",
  "commercial",
  "energy",
  "oil",
  "gas",
  "resources",
  "logistics",
  "shipping",
  "marine",
  "maritime",
  "technology",
  "technologies",
  "systems",
  "engineering",
  "construction",
  "development",
  "developments",
  "ventures",
  "bank",
  "import",
  "export",
  "products",
  "supply",
  "supplies",
  "industry",
  "corporation",
  "property",
  "properties",
  "estates",
  "network",
  "media",
  "security",
  "defence",
  "defense",
  "aviation",
]);

export function normaliseSanctionsName(raw: string): { key: string; core: string; form: string | null; matchable: boolean } {
  let w = joinInitials(normaliseName(raw).split(" ").filter(Boolean));
  const forms = new Set<string>();
  for (let changed = true, rounds = 0; changed && rounds < 4; rounds++) {
    changed = false;
    for (const [f, form] of FORM_WORDS) {
      if (startsWith(w, f)) {
        w = w.slice(f.length);
        forms.add(form);
        changed = true;
        break;
      }
      if (endsWith(w, f)) {
        w = w.slice(0, w.length - f.length);
        forms.add(form);
        changed = true;
        break;
      }
    }
  }
  const core = w.join(" ");
  const form = forms.size ? [...forms].sort().join("+") : null;
  const significant = w.filter((x) => !STOP.has(x));
  // A name of common words only ("Global Trading LLC") never identifies anyone; one distinctive word of four or
  // more letters does (UK company names are unique on the register; corroboration is still required).
  const matchable =
    significant.length >= 2
      ? significant.some((x) => !GENERIC_WORDS.has(x))
      : significant.length === 1 && significant[0].length >= 4 && !GENERIC_WORDS.has(significant[0]) && !COMMON_BUSINESS_WORDS.has(significant[0]);
  return { key: form ? `${core} ${form}` : core, core, form, matchable };
}

/** A non-Latin name is compared exactly (Unicode-normalised, case and spacing folded). */
function nonLatinKey(raw: string): { key: string; matchable: boolean } {
  const s = raw.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  return { key: `nonlatin:${s}`, matchable: (s.match(/\p{L}+/gu) ?? []).length >= 2 };
}

/** Countries as written → one name; the UK's parts and spellings are all "united kingdom". */
const COUNTRY_ALIASES: Record<string, string> = {
  uk: "united kingdom",
  "u k": "united kingdom",
  gb: "united kingdom",
  "great britain": "united kingdom",
  britain: "united kingdom",
  england: "united kingdom",
  scotland: "united kingdom",
  wales: "united kingdom",
  "northern ireland": "united kingdom",
  "england and wales": "united kingdom",
  "england wales": "united kingdom",
  "united kingdom of great britain and northern ireland": "united kingdom",
  "russian federation": "russia",
  uae: "united arab emirates",
  usa: "united states",
  "united states of america": "united states",
  us: "united states",
};

export function normaliseCountry(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const s = raw
    .toLowerCase()
    .replace(/\(\d+\)/g, " ")
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  return s ? (COUNTRY_ALIASES[s] ?? s) : null;
}

/** Listed postcodes as written, split where the list numbers several ("(1) 603950 (2) 603107"). */
function postcodesOf(listed: string[]): Set<string> {
  const out = new Set<string>();
  for (const p of listed)
    for (const part of p.split(/\(\d+\)|[;,]/)) {
      const s = squashPostcode(part);
      if (s) out.add(s);
    }
  return out;
}

/** A designation's facts pre-computed once, for the corroboration and contradiction checks. */
interface Entry {
  d: SanctionsDesignation;
  countries: Set<string>;
  /** Display forms of the countries, by normalised name (for reasons). */
  countryNames: Map<string, string>;
  postcodes: Set<string>;
  /** UK company numbers: ukCompanyNumbers plus registration numbers that normalise to one. */
  ukNumbers: Map<string, string>;
}

interface NameHit {
  entry: Entry;
  name: SanctionsName;
}

export interface SanctionsIndex {
  /** Entity and ship designations by UK company number (the value says which listed text gave it). */
  byNumber: Map<string, { entry: Entry; via: string }[]>;
  /** Entity and ship designations by registration-number text, squashed (upper case, letters and digits). */
  byRegistration: Map<string, Entry[]>;
  /** Entity and ship designations by normalised name (non-Latin names under "nonlatin:" + exact text). */
  byName: Map<string, NameHit[]>;
  /** Individuals by normalised name: never used to match a company. */
  individualsByName: Map<string, NameHit[]>;
  size: { designations: number; names: number };
}

const squashReg = (raw: string) => raw.toUpperCase().replace(/[^\p{L}\p{N}]/gu, "");
const UK_HINT = /\b(uk|u\.k\.|united kingdom|companies house|england|scotland|wales)\b/i;

/**
 * UK company numbers in a listed registration-number text: the whole text when it is shaped like one
 * ("OC425116", "5742647"), or a labelled / bracketed / trailing number in it ("UK Company no. 06527449").
 * A bare number counts only when the designation has a UK address or the text says UK, so a foreign
 * registry's short number is not taken for a UK company number.
 */
function ukNumberIn(text: string, ukAddress: boolean): string | null {
  const whole = normaliseCompanyNumber(text.replace(/^\s*(?:uk\s+)?company\s+(?:no\.?|number)\s*:?\s*/i, ""));
  const n = whole ?? extractCompanyNumber(text);
  if (!n) return null;
  return ukAddress || UK_HINT.test(text) ? n : null;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

function nameKeys(n: SanctionsName): string[] {
  const out: string[] = [];
  if (n.nonLatin) {
    const nl = nonLatinKey(n.name);
    if (nl.matchable) out.push(nl.key);
    return out;
  }
  const s = normaliseSanctionsName(n.name);
  if (s.matchable) out.push(s.key);
  return out;
}

/** Indexes the list once; matchCompany is then Map lookups only. */
export function buildSanctionsIndex(designations: SanctionsDesignation[]): SanctionsIndex {
  const index: SanctionsIndex = {
    byNumber: new Map(),
    byRegistration: new Map(),
    byName: new Map(),
    individualsByName: new Map(),
    size: { designations: 0, names: 0 },
  };
  for (const d of designations) {
    const countryNames = new Map<string, string>();
    for (const c of d.countries) {
      const n = normaliseCountry(c);
      if (n && !countryNames.has(n)) countryNames.set(n, c.trim());
    }
    const entry: Entry = { d, countries: new Set(countryNames.keys()), countryNames, postcodes: postcodesOf(d.postcodes), ukNumbers: new Map() };
    index.size.designations++;
    if (d.kind === "individual") {
      for (const n of d.names)
        for (const k of nameKeys(n)) {
          push(index.individualsByName, k, { entry, name: n });
          index.size.names++;
        }
      continue;
    }
    const ukAddress = entry.countries.has("united kingdom");
    for (const raw of d.ukCompanyNumbers) {
      const n = normaliseCompanyNumber(raw);
      if (n && !entry.ukNumbers.has(n)) entry.ukNumbers.set(n, `same UK company number ${n}`);
    }
    for (const text of d.registrationNumbers) {
      const sq = squashReg(text);
      if (sq) push(index.byRegistration, sq, entry);
      const n = ukNumberIn(text, ukAddress);
      if (n && !entry.ukNumbers.has(n)) entry.ukNumbers.set(n, `listed registration number "${text.trim()}" is UK company number ${n}`);
    }
    for (const [n, via] of entry.ukNumbers) push(index.byNumber, n, { entry, via });
    const seen = new Set<string>();
    for (const n of d.names) {
      for (const k of nameKeys(n)) {
        if (seen.has(k)) continue;
        seen.add(k);
        push(index.byName, k, { entry, name: n });
        index.size.names++;
      }
    }
  }
  return index;
}

/** Designations listed under a registration number, compared as squashed text (exact otherwise). */
export function findByRegistrationNumber(index: SanctionsIndex, text: string): SanctionsDesignation[] {
  const sq = squashReg(text);
  return sq ? (index.byRegistration.get(sq) ?? []).map((e) => e.d) : [];
}

const primaryName = (d: SanctionsDesignation) => d.names.find((n) => n.type === "primary" && !n.nonLatin) ?? d.names.find((n) => !n.nonLatin) ?? d.names[0];

/**
 * Definite matches of one company (SPEC §1 rule 6), by designation id. Empty means "no definite match",
 * which is never a clearance: say so with noDefiniteMatchSentence.
 */
export function matchCompany(index: SanctionsIndex, company: CompanyToMatch): { definite: SanctionsMatch[] } {
  const found = new Map<string, SanctionsMatch>();
  const number = normaliseCompanyNumber(company.number ?? null);

  // Rule 1: the same UK company number.
  if (number) {
    for (const { entry, via } of index.byNumber.get(number) ?? []) {
      const p = primaryName(entry.d);
      found.set(entry.d.id, toMatch(entry, p?.name ?? entry.d.id, p?.type ?? "primary", [via]));
    }
  }

  // Rule 2: an identical normalised name, corroborated, not contradicted.
  const country = normaliseCountry(company.country ?? "United Kingdom");
  const postcode = company.postcode ? squashPostcode(company.postcode) : "";
  const names = [{ raw: company.name, previous: false }, ...(company.previousNames ?? []).map((raw) => ({ raw, previous: true }))];
  for (const { raw, previous } of names) {
    if (!raw || !raw.trim()) continue;
    const s = normaliseSanctionsName(raw);
    const nl = nonLatinKey(raw);
    const keys: [string, string][] = [];
    if (s.matchable) keys.push([s.key, " after normalisation"]);
    if (nl.matchable) keys.push([nl.key, ""]);
    for (const [key, how] of keys) {
      for (const { entry, name } of index.byName.get(key) ?? []) {
        const reasons = corroborate(entry, country, postcode, number);
        if (!reasons) continue;
        const nameReason = `${previous ? "previous name" : "name"} "${raw.trim()}" identical to the listed name "${name.name}"${how}`;
        const why = [nameReason, ...reasons];
        const have = found.get(entry.d.id);
        if (!have) found.set(entry.d.id, toMatch(entry, name.name, name.type, why));
        else for (const r of why) if (!have.reasons.includes(r)) have.reasons.push(r);
      }
    }
  }
  return { definite: [...found.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
}

/** The corroborating facts for a name match, or null when none corroborates or something contradicts. */
function corroborate(entry: Entry, country: string | null, postcode: string, number: string | null): string[] | null {
  // Contradictions first: a different listed UK company number, or listed countries without the company's.
  if (number && entry.ukNumbers.size && !entry.ukNumbers.has(number)) return null;
  if (entry.countries.size && (!country || !entry.countries.has(country))) return null;
  const reasons: string[] = [];
  if (country && entry.countries.has(country)) reasons.push(`address country ${entry.countryNames.get(country)} matches`);
  if (postcode && entry.postcodes.has(postcode))
    reasons.push(`same postcode ${postcode.length > 4 ? `${postcode.slice(0, -3)} ${postcode.slice(-3)}` : postcode}`);
  return reasons.length ? reasons : null;
}

function toMatch(entry: Entry, matchedName: string, nameType: SanctionsName["type"], reasons: string[]): SanctionsMatch {
  const { d } = entry;
  return { id: d.id, ukslRef: d.ukslRef, ofsiGroupId: d.ofsiGroupId, regimes: [...d.regimes], kind: d.kind, matchedName, nameType, reasons: [...reasons] };
}

/** The words every "no match" reply carries: not being found is never a clearance (SPEC §1 rule 6). */
export const SANCTIONS_NOT_A_CLEARANCE = "this is not a clearance";

/** "No definite match on the UK sanctions list (list of 2025-04-10); this is not a clearance." */
export function noDefiniteMatchSentence(listDate: string | null): string {
  const of = listDate ? `list of ${listDate}` : "list date unknown";
  return `No definite match on the UK sanctions list (${of}); ${SANCTIONS_NOT_A_CLEARANCE}.`;
}
