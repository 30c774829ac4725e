/**
 * Which registered company an enrichment query means (SPEC §2.2 matching rules, issue 18 §1). The business's own
 * website decides: a company number the site states (checked against the register: it exists and its name is on
 * the site), else a register entry whose name is the domain's name, or whose full registered name or registered
 * office postcode (with its name's words) the site gives. Anything less is not confirmed, and a query the site does
 * not confirm gets no company number. A wrong company number is the worst answer this service can give, so every
 * tie, contradiction or doubt ends in "not confirmed" with the entries offered to the caller as `alternatives`.
 * Pure: the pages and the register's answers are read by app/enrichment/enrich.ts.
 */
import { looksLikeCompanyNumber, normaliseCompanyNumber } from "../matching/companyNumber";
import { domainIsName } from "../matching/domainName";
import { normaliseNameCore } from "../matching/names";
import { findName, normalisePostcode, sameCompanyName } from "../web/disclosures";
import type { AccuracyItem, Alternative, Confidence } from "./types";

export type EnrichQuery = { kind: "domain"; host: string } | { kind: "number"; number: string } | { kind: "name"; name: string };

const HOST = /^(?=.{1,200}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** A domain or URL (no spaces, a dot, a letter TLD), a company number, or else a name. */
export function parseEnrichQuery(raw: string): EnrichQuery {
  const q = raw.trim();
  if (looksLikeCompanyNumber(q)) return { kind: "number", number: normaliseCompanyNumber(q)! };
  if (!/\s/.test(q) && q.includes(".")) {
    try {
      const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(q) ? q : `https://${q}`).hostname.toLowerCase().replace(/\.$/, "");
      if (HOST.test(host)) return { kind: "domain", host };
    } catch {
      /* not a URL: a name with a dot in it */
    }
  }
  return { kind: "name", name: q.replace(/\s+/g, " ") };
}

/** A register entry, as the local file or Companies House gives it. */
export interface Candidate {
  number: string;
  name: string;
  previousNames: string[];
  status: string | null;
  postcode: string | null;
  locality: string | null;
  /** The registered office on one line, where known. */
  address: string | null;
  incorporationDate: string | null;
}

/** What the site says about who runs it, from the homepage and the legal pages it links to. */
export interface SiteEvidence {
  host: string;
  /** The pages' visible text, homepage first. */
  text: string;
  /**
   * Where a business speaks of itself: every page's footer, and the legal pages' text (terms, privacy, contact, about,
   * legal, cookies). A registered name only in the homepage's body may be a client's or a supplier's.
   */
  ownText: string;
  /** Company numbers stated (labelled in the text, or in the organisation's JSON-LD), in page order. */
  numbers: { number: string; quote: string; url: string }[];
  /** UK postcodes the pages give. */
  postcodes: { postcode: string; quote: string; url: string; registeredOffice: boolean }[];
}

/** How strongly one register entry is tied to the site. */
export interface Tie {
  candidate: Candidate;
  /** The site states its number. */
  number: { quote: string; url: string } | null;
  /** The site gives its registered name: `exact` with its legal form, else its words only; `own` when in a footer or a legal page. */
  name: { quote: string; exact: boolean; own: boolean } | null;
  /** The site gives its registered office postcode. */
  postcode: { quote: string; url: string } | null;
  /** The domain is its name. */
  domain: boolean;
}

export interface Identity {
  /** The entry the site confirms, or null. */
  confirmed: Tie | null;
  /** Why no number is given (null when one is). */
  note: string | null;
  /** Entries for the caller to confirm: never picked for them. */
  alternatives: Candidate[];
}

const postcodeOf = (c: Candidate) => normalisePostcode(c.postcode);

/** Everything the site says about one entry. */
export function tieOf(site: SiteEvidence, candidate: Candidate): Tie {
  const stated = site.numbers.find((n) => n.number === candidate.number) ?? null;
  let name = findName(site.text, candidate.name);
  if (!name || !name.exact) {
    // A former name on the site ties it too (a site not yet updated after a change of name), words only.
    for (const prev of candidate.previousNames) {
      const f = findName(site.text, prev);
      if (f) {
        name ??= { exact: false, quote: f.quote };
        break;
      }
    }
  }
  const pc = postcodeOf(candidate);
  const postcode = pc ? (site.postcodes.find((p) => p.postcode === pc) ?? null) : null;
  const own = name?.exact ? findName(site.ownText, candidate.name)?.exact === true : false;
  return {
    candidate,
    number: stated ? { quote: stated.quote, url: stated.url } : null,
    name: name ? { quote: name.quote, exact: name.exact, own } : null,
    postcode: postcode ? { quote: postcode.quote, url: postcode.url } : null,
    domain: domainIsName(site.host, candidate.name),
  };
}

/**
 * Whether the site confirms the entry without a stated number: its name is the domain's, or the site gives its full
 * registered name where a business speaks of itself (a footer, a legal page), or its postcode with its name's words.
 */
const confirmsWithoutNumber = (t: Tie) => t.domain || (t.name?.exact === true && t.name.own) || (t.postcode !== null && t.name !== null);

/** Evidence weight, to choose between two entries a site names (a parent and its subsidiary). */
const strength = (t: Tie) => (t.number ? 4 : 0) + (t.name?.exact ? 2 : t.name ? 1 : 0) + (t.postcode ? 2 : 0) + (t.domain ? 2 : 0);

/** The one strongest tie, or null when two share the top. */
function strongest(ties: Tie[]): Tie | null {
  if (!ties.length) return null;
  const sorted = [...ties].sort((a, b) => strength(b) - strength(a));
  return sorted.length > 1 && strength(sorted[0]) === strength(sorted[1]) ? null : sorted[0];
}

const list = (xs: string[]) => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);

/**
 * The domain path. `stated` is each number the site states with the register's entry for it (null: not on the
 * register); `byName` the entries a register search found for the site's names and the domain's words.
 */
export function decideForSite(site: SiteEvidence, stated: { number: string; entry: Candidate | null }[], byName: Candidate[]): Identity {
  const rejected: string[] = [];
  const accepted: Tie[] = [];
  for (const s of stated) {
    if (!s.entry) {
      rejected.push(`the site states company number ${s.number}, which is not on the companies register`);
      continue;
    }
    const tie = tieOf(site, s.entry);
    // The number must be this company's: its registered (or former) name on the site, or the domain its name.
    if (tie.name || tie.domain) accepted.push(tie);
    else rejected.push(`the site states company number ${s.number}, but the register's name for it (${s.entry.name}) does not appear on the site`);
  }
  if (accepted.length) {
    const best = strongest(accepted);
    if (best) return { confirmed: best, note: null, alternatives: [] };
    return {
      confirmed: null,
      note: `The site states several company numbers (${accepted.map((t) => t.candidate.number).join(", ")}) and names each company equally: which one runs the site is not clear, so no number is given. Confirm one of the alternatives.`,
      alternatives: accepted.map((t) => t.candidate),
    };
  }
  if (rejected.length)
    // The site contradicts the register: no weaker evidence is taken over it.
    return { confirmed: null, note: `Not confirmed: ${list(rejected)}. No company number is given.`, alternatives: [] };

  const seen = new Set<string>();
  const ties = byName.filter((c) => !seen.has(c.number) && seen.add(c.number)).map((c) => tieOf(site, c));
  const confirming = ties.filter(confirmsWithoutNumber);
  const best = strongest(confirming);
  if (best) return { confirmed: best, note: null, alternatives: [] };
  if (confirming.length)
    return {
      confirmed: null,
      note: `The site matches more than one registered company equally (${confirming.map((t) => t.candidate.name).join("; ")}) and states no company number, so none is given. Confirm one of the alternatives.`,
      alternatives: confirming.map((t) => t.candidate),
    };
  const near = ties.filter((t) => t.name || t.postcode).map((t) => t.candidate);
  return {
    confirmed: null,
    note:
      "The site states no company number, and no registered company's name is the domain's name or is given in full on the site (with its registered office postcode or legal form), so no company number is given." +
      (near.length ? " Registered companies sharing words with the site's name are listed as alternatives to confirm." : ""),
    alternatives: near,
  };
}

/**
 * Whether a site found for a company known by its name or number confirms it (issue 18 §1: its number, or its full
 * name plus its postcode). The domain being the name counts for nothing here: the domain was guessed from the name.
 */
export function siteConfirms(site: SiteEvidence, candidate: Candidate): Tie | null {
  const tie = tieOf(site, candidate);
  const otherNumbers = site.numbers.filter((n) => n.number !== candidate.number);
  if (tie.number && (tie.name || tie.domain)) return tie;
  if (!tie.number && !otherNumbers.length && tie.name?.exact && tie.postcode) return tie;
  return null;
}

/** Whether an entry's registered office is in the place asked for (town, city or postcode area; words, case aside). */
export function inPlace(c: Candidate, location: string): boolean {
  const want = normaliseNameCore(location);
  if (!want) return true;
  const pc = normalisePostcode(location);
  if (pc) return postcodeOf(c) === pc;
  const area = /^[a-z]{1,2}\d[a-z\d]?$/i.test(location.trim()) ? location.trim().toUpperCase() : null;
  if (area) return (postcodeOf(c) ?? "").split(" ")[0] === area;
  const hay = ` ${normaliseNameCore([c.locality, c.address].filter(Boolean).join(" "))} `;
  return hay.includes(` ${want} `);
}

/** Entries sharing the queried name (the same name apart from case, punctuation and legal form). */
export function sameNamed(name: string, candidates: Candidate[]): Candidate[] {
  const core = normaliseNameCore(name);
  return candidates.filter(
    (c) => sameCompanyName(c.name, name) || normaliseNameCore(c.name) === core || c.previousNames.some((p) => normaliseNameCore(p) === core),
  );
}

export function alternativeOf(c: Candidate, reason: string): Alternative {
  return {
    name: c.name,
    companyNumber: c.number,
    status: c.status,
    locality: c.locality,
    postcode: c.postcode,
    incorporationDate: c.incorporationDate,
    needsConfirm: true,
    reason,
  };
}

/** Points of the accuracy breakdown (SPEC §2.2 Accuracy): each piece of identity evidence, out of 100. */
export const ACCURACY_POINTS = {
  number: 40,
  name: 20,
  postcode: 15,
  domain: 15,
  siteRead: 10,
} as const;

export const ACCURACY_FORMULA =
  "Out of 100: company number stated on the site and on the register 40 (given in the query: 40); registered name on the site 20 (its words without the legal form: 10); registered office postcode on the site 15; domain is the registered name 15; the business's site read 10. Confidence: high when the company is confirmed by its number (stated on the site, or given in the query) and the score is 70 or more; medium for any other confirmed company; low when no company is confirmed.";

/** The accuracy breakdown of an identity: what tied the site to the register, and what did not. */
export function accuracyOf(input: { tie: Tie | null; siteRead: boolean; numberFromQuery: boolean; site: string | null }): {
  score: number;
  confidence: Confidence;
  breakdown: AccuracyItem[];
} {
  const t = input.tie;
  const P = ACCURACY_POINTS;
  const breakdown: AccuracyItem[] = [
    input.numberFromQuery
      ? { label: "Company number given in the query, on the register", points: t ? P.number : 0, max: P.number, evidence: t ? t.candidate.number : null }
      : { label: "Company number stated on the site, on the register", points: t?.number ? P.number : 0, max: P.number, evidence: t?.number?.quote ?? null },
    { label: "Registered name on the site", points: t?.name ? (t.name.exact ? P.name : P.name / 2) : 0, max: P.name, evidence: t?.name?.quote ?? null },
    { label: "Registered office postcode on the site", points: t?.postcode ? P.postcode : 0, max: P.postcode, evidence: t?.postcode?.quote ?? null },
    {
      label: "Domain is the registered name",
      points: t?.domain ? P.domain : 0,
      max: P.domain,
      evidence: t?.domain && input.site ? `${input.site} ↔ ${t.candidate.name}` : null,
    },
    { label: "The business's own website read", points: input.siteRead ? P.siteRead : 0, max: P.siteRead, evidence: input.siteRead ? input.site : null },
  ];
  const score = Math.round(breakdown.reduce((s, b) => s + b.points, 0));
  const confirmed = t !== null && (input.numberFromQuery || t.number !== null || confirmsWithoutNumber(t));
  const confidence: Confidence = !confirmed ? "low" : score >= 70 && (t.number || input.numberFromQuery) ? "high" : "medium";
  return { score, confidence, breakdown };
}
