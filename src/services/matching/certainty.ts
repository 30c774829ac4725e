/**
 * The one match rule of every register read for a company (issue 28 §1; SPEC §1 rules 5–6, §2.5, §2.6, §4.5, §4.8).
 *
 * A register answer is a statement about a business, so it is never stronger than the match behind it. A match
 * is DEFINITE only when it rests on:
 * - a number: the register's own number (SRA number, MLR number, CQC id, charity number) or the company number
 *   on the register's own record; or
 * - a name: the register's name for the organisation (not a trading, other or former name) equal, after
 *   normalisation, to the company's current registered name (or, for a name query, to the name asked);
 *   names differing only in that one side states no legal form count as equal, two different legal forms do not;
 * and nothing on the register's record contradicts it: no other company number, and, where both the register
 * and the registered office give a place, at least one town, postcode or postcode district in common.
 *
 * Every other match is POSSIBLE: through a former company name, an alternative (trading or other) name, or a
 * similar name, or one the record contradicts. The register checks give their positive field (`licensed`,
 * `supervisedByHmrc`, `authorised`, `registered`) only from definite matches, and say "possible match" otherwise,
 * with the name that matched, its kind, the date a former name stopped being used, and what would confirm it.
 *
 * Pure: no I/O. Callers describe how each entry was reached (`MatchRoute`); this module decides.
 */
import { withoutCompanyNumber } from "./companyNumber";
import { normaliseName, normaliseNameCore, splitTradingName } from "./names";

/** How an entry was reached, surest first. */
export const MATCH_BASES = ["register-number", "company-number", "registered-name", "name-asked", "former-name", "alternative-name", "similar-name"] as const;
export type MatchBasis = (typeof MATCH_BASES)[number];

/** The kinds of name a possible match can come through, as the reply words them. */
export const NAME_KIND: Partial<Record<MatchBasis, string>> = {
  "former-name": "a former name of the company",
  "alternative-name": "an alternative (trading or other) name on the register",
  "similar-name": "a similar name",
};

/** A company as the rule needs it: its number, current and former names, and registered office. */
export interface CompanyForMatch {
  number: string;
  name: string;
  previousNames: { name: string; until: string | null }[];
  office: { town: string | null; postcode: string | null } | null;
}

/** How the lookup reached an entry. */
export interface MatchRoute {
  /** register-number and company-number: by a number; names: by the name `via` (the name asked, or a Companies House name). */
  by: "register-number" | "company-number" | "name";
  /** The register's name that matched (the entry's name, or one of its trading or other names). */
  matchedName: string;
  /** True when `matchedName` is the entry's own name, not a trading or other name. */
  primary: boolean;
  /** The name compared with the register's (a name query, or the company's current or a former name). */
  via: string | null;
}

/** What the register's record says that can agree or disagree with the company. */
export interface RecordFacts {
  name: string;
  companyNumber: string | null;
  /** Towns, full postcodes and postcode districts the register gives for the organisation. */
  places: { towns: string[]; postcodes: string[]; districts: string[] };
}

export interface MatchCertainty {
  definite: boolean;
  basis: MatchBasis;
  /** The register's name that matched. */
  matchedName: string;
  /** The company's name (current or former) or the name asked that it matched; null for a number. */
  matchedCompanyName: string | null;
  /** The date the company stopped using the former name that matched, where Companies House gives it. */
  formerNameUntil: string | null;
  /** What on the register's record disagrees with the company (another company number, another place). */
  contradictions: string[];
  /** What would confirm a possible match; null for a definite one. */
  toConfirm: string | null;
}

/** Outward code (district) of a postcode or district, upper case without spaces; null when it is not one. */
export function postcodeDistrictOf(raw: string | null | undefined): string | null {
  const s = (raw ?? "").toUpperCase().replace(/\s+/g, "");
  const m = /^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})?$/.exec(s);
  return m ? m[1] : null;
}

const fullPostcode = (raw: string | null | undefined): string | null => {
  const s = (raw ?? "").toUpperCase().replace(/\s+/g, "");
  return /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/.test(s) ? s : null;
};

/** A town compared as words: `BRIGHTON`, `Brighton ` and `Brighton and Hove` (whole leading words) agree. */
function townsAgree(a: string, b: string): boolean {
  const x = normaliseName(a);
  const y = normaliseName(b);
  if (!x || !y) return false;
  return x === y || x.startsWith(`${y} `) || y.startsWith(`${x} `);
}

/** The names are the same after normalisation: equal, or equal but for a legal form only one side states. */
export function sameNameNormalised(a: string, b: string): boolean {
  const na = normaliseName(a);
  const nb = normaliseName(b);
  if (na === nb) return !!na;
  const ca = normaliseNameCore(a);
  const cb = normaliseNameCore(b);
  // One side without a legal form ("Bayside Hotel Group" for BAYSIDE HOTEL GROUP LTD); Ltd vs LLP stays different.
  return !!ca && ca === cb && (ca === na || cb === nb);
}

/** Where the register places the organisation and where the registered office is: agrees, disagrees, or cannot say. */
export function placeAgreement(office: CompanyForMatch["office"], places: RecordFacts["places"]): { agrees: boolean | null; note: string | null } {
  const oTown = office?.town?.trim() || null;
  const oPost = fullPostcode(office?.postcode);
  const oDistrict = postcodeDistrictOf(office?.postcode);
  const rPosts = places.postcodes.map(fullPostcode).filter((p): p is string => !!p);
  const rDistricts = [...places.districts, ...places.postcodes].map(postcodeDistrictOf).filter((d): d is string => !!d);
  const rTowns = places.towns.map((t) => t.trim()).filter(Boolean);
  const comparable = (oTown && rTowns.length) || (oPost && rPosts.length) || (oDistrict && rDistricts.length);
  if (!comparable) return { agrees: null, note: null };
  const agrees =
    (!!oTown && rTowns.some((t) => townsAgree(t, oTown))) || (!!oPost && rPosts.includes(oPost)) || (!!oDistrict && rDistricts.includes(oDistrict));
  if (agrees) return { agrees: true, note: null };
  const theirs = [...new Set([...rTowns, ...(rPosts.length ? places.postcodes : places.districts)])].slice(0, 5).join(", ");
  const ours = [oTown, office?.postcode?.trim() || null].filter(Boolean).join(" ");
  return { agrees: false, note: `the register places the organisation at ${theirs}, the registered office is in ${ours}` };
}

/**
 * The certainty of one entry's match. `company` is the company asked for (null for a name query or a register
 * number, where no company was asked); `registerNumberLabel` names the register's own number for `toConfirm`.
 */
export function matchCertainty(route: MatchRoute, record: RecordFacts, company: CompanyForMatch | null, registerNumberLabel: string | null): MatchCertainty {
  const contradictions: string[] = [];
  if (company && record.companyNumber && record.companyNumber !== company.number)
    contradictions.push(`the register's record gives company number ${record.companyNumber}, not ${company.number}`);
  // A number is the register's own identification; a place only weighs against a name.
  if (company && route.by === "name") {
    const place = placeAgreement(company.office, record.places);
    if (place.agrees === false && place.note) contradictions.push(place.note);
  }

  let basis: MatchBasis;
  let matchedCompanyName: string | null = null;
  let formerNameUntil: string | null = null;
  if (route.by !== "name") basis = route.by;
  else {
    const via = route.via ?? "";
    matchedCompanyName = via || null;
    const former = company?.previousNames.find((p) => normaliseName(p.name) === normaliseName(via) && normaliseName(company.name) !== normaliseName(via));
    if (former) {
      basis = "former-name";
      formerNameUntil = former.until;
    } else if (!route.primary) basis = "alternative-name";
    // A company number written inside the register's name is an identifier, not part of the name (it is checked as a number).
    // A name written with its trading name ("BRANOS OXFORD LTD T/A LILO") is compared by its legal name.
    else if ([via, splitTradingName(via).name].some((v) => sameNameNormalised(withoutCompanyNumber(route.matchedName), withoutCompanyNumber(v))))
      basis = company ? "registered-name" : "name-asked";
    else basis = "similar-name";
  }
  const definite =
    (basis === "register-number" || basis === "company-number" || basis === "registered-name" || basis === "name-asked") && contradictions.length === 0;
  const number = registerNumberLabel ? `the ${registerNumberLabel}` : "the organisation's town and address on the register (it has no numbers)";
  const toConfirm = definite
    ? null
    : basis === "former-name"
      ? `Confirm with ${number} that this is the same organisation: the register may not have caught up with the change of name, or another business may use the old name.`
      : contradictions.length && (basis === "registered-name" || basis === "name-asked")
        ? `Confirm with ${number} that this is the same organisation: the name agrees, but the record disagrees with the company.`
        : `Confirm with ${number} that this is the organisation you mean: it matched only by ${NAME_KIND[basis] ?? "name"}.`;
  return { definite, basis, matchedName: route.matchedName, matchedCompanyName, formerNameUntil, contradictions, toConfirm };
}

/** The overall answer of a check: definite when any entry is, else possible; the best (first) possible match explained. */
export function overallCertainty(all: MatchCertainty[]): { definite: boolean; possibleMatch: boolean; best: MatchCertainty | null } {
  const definite = all.some((c) => c.definite);
  const best = all.find((c) => c.definite) ?? all[0] ?? null;
  return { definite, possibleMatch: all.length > 0 && !definite, best };
}

/**
 * The sentence a possible match leads its summary with: who matched, through which kind of name, and what would
 * confirm it. `who` is the register's organisation as the check describes it (e.g. `Bayside Hotel Group Ltd, listed
 * as a sponsor (workers; A rating)`), `queried` the company or name asked.
 */
export function possibleMatchSentence(who: string, queried: string, c: MatchCertainty): string {
  const how =
    c.basis === "former-name"
      ? `through the company's former name "${c.matchedCompanyName}"${c.formerNameUntil ? ` (used until ${c.formerNameUntil})` : ""}`
      : c.basis === "alternative-name"
        ? `through an alternative name on the register ("${c.matchedName}")`
        : c.basis === "similar-name"
          ? `by a similar name ("${c.matchedName}")`
          : `by name, but ${c.contradictions.join("; ")}`;
  return `Possible match only: ${who} matches ${queried} ${how}. ${c.toConfirm ?? ""}`.trim();
}
