/**
 * Open public tenders that fit a company (issue 18 §2 tender-match): the tender notice as stored (TenderNotice,
 * parsed from Find a Tender and Contracts Finder OCDS by src/sources/contracts/tenders.ts), when a notice is open,
 * and the ranking. Pure: no I/O.
 *
 * Ranking, each part with its reason in words:
 * - CPV (up to 75 points): a CPV code of the tender starts with a prefix mapped from the company's SIC codes
 *   (./cpvForSic.ts). The best match scores by how specific the prefix is (division 40, group 50, class 55,
 *   finer 60), +5 when it is the tender's main classification, +5 for each further prefix matched (at most +10).
 * - Keywords (up to 40): each keyword of the company's profile (SIC descriptions, what it does, the caller's own
 *   words) the title uses scores 12, one only the description uses 6. Words are compared whole, singular and
 *   plural alike ("school" = "schools"); a keyword of several words must appear as that phrase.
 * - Region (5): the tender is to be delivered in the region of the registered office's postcode area.
 * A tender is offered only when its CPV matches, or the title uses a keyword, or the description uses two; the
 * score is the sum, at most 100. Ties: the sooner deadline first (none last), then the larger value, then ocid.
 *
 * Closed tenders are never offered (isOpen): a status other than active or planned (complete, cancelled,
 * unsuccessful, withdrawn, unknown), a deadline passed (a deadline with a time: before `now`; a date alone:
 * before `today`), or no deadline at all and published more than NO_DEADLINE_DAYS (60) days ago or never dated.
 */
import { addDays, daysBetween } from "../../shared/dates";

/** Where the notice was published. */
export type TenderSource = "CF" | "FTS";

/** One tender notice (an OCDS contracting process at its tender stage), as stored. */
export interface TenderNotice {
  source: TenderSource;
  ocid: string;
  /** The notice (release) id it was read from: FTS `NNNNNN-YYYY`, CF `{notice guid}-{version}`. */
  noticeId: string;
  /** The release's date: later releases of the same ocid update the notice in this order. */
  releaseDate: string | null;
  /** The public notice page (FTS /Notice/{noticeId}, CF /Notice/{guid}). */
  noticeUrl: string;
  title: string | null;
  /** Line breaks and runs of spaces folded, trimmed, at most DESCRIPTION_CHARS characters. */
  description: string | null;
  buyer: string | null;
  /** CPV codes: the main classification first, then the additional ones and the items' and lots', each once. */
  cpv: { id: string; description: string | null }[];
  /** The estimated value; null when the notice states none. */
  value: { amount: number | null; min: number | null; max: number | null; currency: string } | null;
  /** `tender.status` in lower case (active, planned, complete, cancelled, unsuccessful, withdrawn), or `unknown`. */
  status: string;
  /** Deadline for tenders (`tenderPeriod.endDate`) as published; null when the notice gives none. */
  deadline: string | null;
  /** Suitability (sme, vcse) as published; null when not stated. */
  suitability: { sme: boolean | null; vcse: boolean | null };
  /** Delivery regions or places as published (region names, ITL/NUTS codes, postcodes). */
  regions: string[];
  /** `tender.datePublished`, else the first release's date. */
  published: string | null;
  /** goods, works or services, where given. */
  category: string | null;
  /** Why a notice is no longer open when a later release said so: `award` (an award was published), `cancelled`, … */
  closedBy: string | null;
}

export const DESCRIPTION_CHARS = 1000;
/** A notice with no deadline is offered for this many days after it was published, then taken as closed. */
export const NO_DEADLINE_DAYS = 60;
/** Statuses a tender can be bid for (or is announced as coming, `planned`). */
export const OPEN_STATUSES: readonly string[] = ["active", "planned"];

/** en-CA formats as YYYY-MM-DD; made once (making one is far slower than using it). */
let ukFormat: Intl.DateTimeFormat | null = null;

/** The UK calendar day of an instant (YYYY-MM-DD), or the date itself when it has no time. */
export function ukDay(t: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return t;
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return null;
  ukFormat ??= new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" });
  return ukFormat.format(new Date(ms));
}

/** Whether the notice can still be bid for on `today` (UK date) at `now` (ISO instant), and why not. */
export function isOpen(t: Pick<TenderNotice, "status" | "deadline" | "published" | "closedBy">, today: string, now: string): { open: boolean; why: string } {
  if (!OPEN_STATUSES.includes(t.status)) return { open: false, why: `status ${t.status}${t.closedBy ? ` (${t.closedBy})` : ""}` };
  if (t.deadline) {
    const day = ukDay(t.deadline);
    if (!day) return { open: false, why: `deadline ${t.deadline} cannot be read` };
    if (/^\d{4}-\d{2}-\d{2}$/.test(t.deadline) ? day < today : Date.parse(t.deadline) < Date.parse(now))
      return { open: false, why: `deadline ${t.deadline} has passed` };
    return { open: true, why: `deadline ${t.deadline}` };
  }
  const published = t.published ? ukDay(t.published) : null;
  if (!published) return { open: false, why: "no deadline and no publication date" };
  if (daysBetween(published, today) > NO_DEADLINE_DAYS)
    return { open: false, why: `no deadline, published ${published}, more than ${NO_DEADLINE_DAYS} days ago` };
  return { open: true, why: `no deadline; published ${published}` };
}

/** The first day a notice without a deadline is still offered on `today` (for the SQL that bounds candidates). */
export const noDeadlineCutoff = (today: string) => addDays(today, -NO_DEADLINE_DAYS);

// ---------------------------------------------------------------------------------------------- words

/** Words too common in SIC descriptions and notices to say what a business does. */
const GENERIC = new Set(
  (
    "a an and or of the for in on at to by with from as other others n e c nec n.e.c activities activity service services business businesses " +
    "general related support supply supplies products product production manufacture manufacturing goods retail sale sales wholesale trade " +
    "except specialised specialized stores store non own use similar various miscellaneous limited ltd company companies provision providing " +
    "work works new not elsewhere classified including incl excluding excl type types such plus via per all any part parts main equipment " +
    "management development agency agencies contract contracts contracting framework lot lots call tender tenders public council uk"
  ).split(" "),
);

/** Words of a text, lower case, letters and digits only. */
const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .match(/[a-z0-9]+/g) ?? [];

/** A word's stem for comparison: singular and plural alike (schools → school, nurseries → nursery, boxes → box). */
export function stem(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(?:ches|shes|sses|xes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/**
 * Keywords from texts (SIC descriptions, what a business does): distinct words of four letters or more that are
 * not generic, in order of first use.
 */
export function keywordsFrom(texts: (string | null | undefined)[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const t of texts)
    for (const w of wordsOf(t ?? ""))
      if (w.length >= 4 && !GENERIC.has(w) && !GENERIC.has(stem(w)) && !/^\d+$/.test(w) && !seen.has(stem(w))) {
        seen.add(stem(w));
        out.push(w);
      }
  return out;
}

/** The caller's own keywords (comma-separated): each kept as given (a phrase stays a phrase, generic words and all), lower case, once. */
export function ownKeywords(raw: string | null | undefined): string[] {
  const out: string[] = [];
  for (const part of (raw ?? "").split(",")) {
    const k = wordsOf(part).join(" ");
    if (k.length >= 2 && !out.includes(k)) out.push(k);
  }
  return out;
}

/** A text as stems, for whole-word and phrase search. */
function stemsOf(text: string | null): string[] {
  return wordsOf(text ?? "").map(stem);
}

function containsPhrase(hay: string[], needle: string[]): boolean {
  if (!needle.length) return false;
  if (needle.length === 1) return hay.includes(needle[0]);
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------- regions

/** ITL1 regions by their letter (TLx / NUTS UKx). */
export const REGIONS: Record<string, string> = {
  C: "North East",
  D: "North West",
  E: "Yorkshire and the Humber",
  F: "East Midlands",
  G: "West Midlands",
  H: "East of England",
  I: "London",
  J: "South East",
  K: "South West",
  L: "Wales",
  M: "Scotland",
  N: "Northern Ireland",
};

/** Postcode areas by the region most of the area lies in (an area crossing a border counts where most of it is). */
const AREAS: Record<string, string> = {
  C: "DH DL NE SR TS",
  D: "BB BL CA CH CW FY L LA M OL PR SK WA WN",
  E: "BD DN HD HG HU HX LS S WF YO",
  F: "DE LE LN NG NN",
  G: "B CV DY HR ST SY TF WR WS WV",
  H: "AL CB CM CO IP LU NR PE SG SS WD",
  I: "BR CR DA E EC EN HA IG KT N NW RM SE SM SW TW UB W WC",
  J: "BN CT GU HP ME MK OX PO RG RH SL SO TN",
  K: "BA BH BS DT EX GL PL SN SP TA TQ TR",
  L: "CF LD LL NP SA",
  M: "AB DD DG EH FK G HS IV KA KW KY ML PA PH TD ZE",
  N: "BT",
};
const AREA_REGION = new Map(Object.entries(AREAS).flatMap(([r, list]) => list.split(" ").map((a) => [a, r] as const)));

/** The region letter of a UK postcode's area (`BS1 4QA` → K, South West); null when not a known area. */
export function regionOfPostcode(postcode: string | null | undefined): string | null {
  const area = /^([A-Z]{1,2})\d/.exec((postcode ?? "").trim().toUpperCase())?.[1];
  return area ? (AREA_REGION.get(area) ?? null) : null;
}

const REGION_NAMES = new Map<string, string>([
  ...Object.entries(REGIONS).map(([k, v]) => [v.toLowerCase(), k] as [string, string]),
  ["yorkshire and the humber", "E"],
  ["yorkshire and humber", "E"],
  ["east", "H"],
  ["east of england", "H"],
  ["eastern", "H"],
  ["greater london", "I"],
]);

/** The region letters a tender's delivery places name: region names, ITL (TLx…) or NUTS (UKx…) codes, postcodes. */
export function regionsOfTender(places: string[]): string[] {
  const out = new Set<string>();
  for (const raw of places) {
    const p = raw.trim();
    const code = /^(?:TL|UK)([C-N])[0-9A-Z]*$/.exec(p.toUpperCase());
    if (code) out.add(code[1]);
    else if (REGION_NAMES.has(p.toLowerCase())) out.add(REGION_NAMES.get(p.toLowerCase())!);
    else {
      const r = regionOfPostcode(p);
      if (r && /^[A-Z]{1,2}\d[A-Z\d]?(?:\s*\d[A-Z]{2})?$/i.test(p)) out.add(r);
    }
  }
  return [...out].sort();
}

// ---------------------------------------------------------------------------------------------- ranking

export interface CpvSought {
  /** CPV code prefix (2–8 digits). */
  prefix: string;
  /** Its CPV name. */
  description: string;
  /** The SIC code it comes from and that code's description. */
  fromSic: string;
  sicDescription: string | null;
}

export interface TenderMatchInput {
  /** CPV prefixes mapped from the company's SIC codes (services/contracts/cpvForSic.ts). */
  cpv: CpvSought[];
  /** Keywords of the company's profile (keywordsFrom, ownKeywords). */
  keywords: string[];
  /** The registered office's postcode, for the region. */
  postcode?: string | null;
  /** The UK date (YYYY-MM-DD) and the instant (ISO) the deadlines are judged against. */
  today: string;
  now: string;
  tenders: TenderNotice[];
  limit?: number;
}

export interface TenderMatch {
  score: number;
  reasons: string[];
  tender: TenderNotice;
  /** Days from today to the deadline's UK date (0: closes today); null without a deadline. */
  daysLeft: number | null;
  /** The CPV prefixes and keywords that matched. */
  matchedCpv: string[];
  matchedKeywords: string[];
}

const specificity = (prefix: string) => (prefix.length >= 5 ? 60 : prefix.length === 4 ? 55 : prefix.length === 3 ? 50 : 40);
const quote = (ws: string[]) => ws.map((w) => `'${w}'`).join(", ");

/** Scores one open tender; null when nothing fits (see the header for the rules). */
export function scoreTender(
  t: TenderNotice,
  input: Omit<TenderMatchInput, "tenders" | "limit">,
  prepared = prepare(input),
): Omit<TenderMatch, "daysLeft"> | null {
  const reasons: string[] = [];
  // CPV: the most specific sought prefix that one of the tender's codes starts with.
  let best: { sought: CpvSought; code: { id: string; description: string | null }; index: number } | null = null;
  const matched = new Set<string>();
  t.cpv.forEach((code, index) => {
    for (const s of input.cpv)
      if (code.id.startsWith(s.prefix)) {
        matched.add(s.prefix);
        if (!best || s.prefix.length > best.sought.prefix.length || (s.prefix.length === best.sought.prefix.length && index < best.index))
          best = { sought: s, code, index };
      }
  });
  let cpvPoints = 0;
  if (best) {
    const b = best as { sought: CpvSought; code: { id: string; description: string | null }; index: number };
    cpvPoints = specificity(b.sought.prefix) + (b.index === 0 ? 5 : 0) + Math.min(10, 5 * (matched.size - 1));
    const soughtCode = b.sought.prefix.padEnd(8, "0");
    const via = b.code.id === soughtCode ? "" : ` (within CPV ${soughtCode} ${b.sought.description})`;
    reasons.push(
      `CPV ${b.code.id} ${b.code.description ?? b.sought.description}${via} matches SIC ${b.sought.fromSic}${b.sought.sicDescription ? ` ${b.sought.sicDescription}` : ""}` +
        (b.index === 0 ? " (the notice's main classification)" : ""),
    );
    for (const p of [...matched].filter((p) => p !== b.sought.prefix).slice(0, 2)) {
      const s = input.cpv.find((c) => c.prefix === p)!;
      reasons.push(`also CPV ${p.padEnd(8, "0")} ${s.description} (from SIC ${s.fromSic})`);
    }
  }
  // Keywords: in the title, else in the description.
  const title = stemsOf(t.title);
  const description = stemsOf(t.description);
  const inTitle: string[] = [];
  const inDescription: string[] = [];
  for (const [k, needle] of prepared.keywords) {
    if (containsPhrase(title, needle)) inTitle.push(k);
    else if (containsPhrase(description, needle)) inDescription.push(k);
  }
  const keywordPoints = Math.min(40, 12 * inTitle.length + 6 * inDescription.length);
  if (inTitle.length) reasons.push(`title mentions ${quote(inTitle)}`);
  if (inDescription.length) reasons.push(`description mentions ${quote(inDescription)}`);
  if (!cpvPoints && !inTitle.length && inDescription.length < 2) return null;
  // Region: a boost only, never a filter (many notices are for the whole country).
  let regionPoints = 0;
  if (prepared.region) {
    const regions = regionsOfTender(t.regions);
    if (regions.includes(prepared.region)) {
      regionPoints = 5;
      reasons.push(`to be delivered in ${REGIONS[prepared.region]}, the region of the registered office (${prepared.area})`);
    }
  }
  return {
    score: Math.min(100, cpvPoints + keywordPoints + regionPoints),
    reasons,
    tender: t,
    matchedCpv: [...matched].sort(),
    matchedKeywords: [...inTitle, ...inDescription],
  };
}

function prepare(input: Pick<TenderMatchInput, "keywords" | "postcode">) {
  const seen = new Set<string>();
  const keywords: [string, string[]][] = [];
  for (const k of input.keywords) {
    const needle = stemsOf(k);
    const id = needle.join(" ");
    if (needle.length && !seen.has(id)) {
      seen.add(id);
      keywords.push([k, needle]);
    }
  }
  const region = regionOfPostcode(input.postcode);
  const area = /^([A-Z]{1,2})\d/.exec((input.postcode ?? "").trim().toUpperCase())?.[1] ?? null;
  return { keywords, region, area: area ? `${area} postcode area` : null };
}

/** The open tenders that fit, best first (see the header): never a closed one. */
export function rankTenders(input: TenderMatchInput): TenderMatch[] {
  const prepared = prepare(input);
  const out: TenderMatch[] = [];
  for (const t of input.tenders) {
    if (!isOpen(t, input.today, input.now).open) continue;
    const m = scoreTender(t, input, prepared);
    if (!m) continue;
    const day = t.deadline ? ukDay(t.deadline) : null;
    out.push({ ...m, daysLeft: day ? daysBetween(input.today, day) : null });
  }
  out.sort(
    (a, b) =>
      b.score - a.score ||
      (a.tender.deadline ? Date.parse(a.tender.deadline) : Infinity) - (b.tender.deadline ? Date.parse(b.tender.deadline) : Infinity) ||
      (b.tender.value?.amount ?? -1) - (a.tender.value?.amount ?? -1) ||
      (a.tender.ocid < b.tender.ocid ? -1 : a.tender.ocid > b.tender.ocid ? 1 : 0),
  );
  return input.limit !== undefined ? out.slice(0, input.limit) : out;
}
