/**
 * The CQC report reader (issue 17 §3 "cqc-report", SPEC §4.3): a Care Quality Commission inspection report (the
 * rated reports of 2014–2023, PDF or text), an assessment report of the single assessment framework (from late
 * 2023), or a service's page on the CQC's own site (www.cqc.org.uk/location/…, read as HTML). It gives the service
 * and its provider, the overall rating and the five key questions, the SAF quality statement scores, the inspection
 * and publication dates, the previous rating, strengths, concerns, breaches of regulation and enforcement action —
 * each with the passage it rests on, or "couldn't tell".
 *
 * Ratings tables are read from the document's text as a stream (headings and sentences joined in order), not
 * sentence by sentence: in a PDF the ratings table's rows run into each other ("… Requires Improvement Is the
 * service safe?") and a key question and its rating may sit on two lines. The quote of a rating is the label and the
 * rating as written. Deterministic and pure: `today` is passed in. People are never named (a registered manager, a
 * provider who is an individual): a name in a quote is replaced with "[name]".
 */
import { redactNames } from "./names";
import type { DocSection, DocSentence } from "./document";
import { type Evidence, type Fact, type Reading, found, notFound, quoteOf } from "./evidence";
import { datesIn, monthsBetween } from "./values";

// ---------------------------------------------------------------------------------------------------------------------
// Types

/** The CQC's rating values (API `rating`), and the non-ratings a page or report may give instead. */
export const CQC_RATINGS = [
  "Outstanding",
  "Good",
  "Requires improvement",
  "Inadequate",
  "Not rated",
  "Inspected but not rated",
  "Insufficient evidence to rate",
  "No rating",
] as const;
export type CqcRating = (typeof CQC_RATINGS)[number];

export const KEY_QUESTIONS = ["safe", "effective", "caring", "responsive", "wellLed"] as const;
export type KeyQuestion = (typeof KEY_QUESTIONS)[number];
const KEY_QUESTION_NAME: Record<KeyQuestion, string> = {
  safe: "Safe",
  effective: "Effective",
  caring: "Caring",
  responsive: "Responsive",
  wellLed: "Well-led",
};

export interface RatingRead {
  rating: CqcRating;
  /** As the document writes it ("Requires Improvement", "INADEQUATE"). */
  asWritten: string;
  /** A percentage score printed with the rating (single assessment framework pages), else null. */
  score: number | null;
}

export const ENFORCEMENT_KINDS = [
  "warning_notice",
  "requirement_notice",
  "condition",
  "special_measures",
  "suspension",
  "cancellation",
  "fixed_penalty",
  "prosecution",
  "other",
] as const;
export type EnforcementKind = (typeof ENFORCEMENT_KINDS)[number];

export interface Enforcement {
  kind: EnforcementKind;
  /** The regulation number it is about ("12", "20A"), when the passage names one. */
  regulation: string | null;
  /** True when the passage is about an earlier inspection (a notice served before, special measures left). */
  previous: boolean;
  evidence: Evidence;
}

export interface Breach {
  /** The regulation's number ("12", "17", "20A"). */
  regulation: string;
  /** Which regulations: the Health and Social Care Act 2008 (Regulated Activities) Regulations 2014, or the Care Quality Commission (Registration) Regulations 2009. */
  regulations: "HSCA RA Regulations 2014" | "CQC (Registration) Regulations 2009";
  /** The regulation's title in those regulations ("Safe care and treatment"); null when not one we know. */
  title: string | null;
  evidence: Evidence;
}

export interface QualityStatement {
  keyQuestion: KeyQuestion;
  /** The quality statement's name, as the framework gives it ("Learning culture"). */
  name: string;
  /** 1 (significant shortfalls) to 4 (exceptional standard). */
  score: number;
  evidence: Evidence;
}

export type CqcFormat = "inspection_report" | "assessment_report" | "location_page" | "unknown";

export interface RatingChange {
  previous: CqcRating;
  /** When the previous report was published (`YYYY-MM-DD`), if stated. */
  previousPublished: string | null;
  /** The current overall rating, when read. */
  current: CqcRating | null;
  direction: "improved" | "declined" | "unchanged" | null;
}

export interface CqcReport {
  format: CqcFormat;
  formatNote: string;
  service: { name: Fact<string>; locationId: Fact<string>; type: Fact<string>; address: Fact<string> };
  provider: { name: Fact<string>; providerId: Fact<string> };
  registeredManager: Fact<boolean>;
  overallRating: Fact<RatingRead>;
  keyQuestions: Record<KeyQuestion, Fact<RatingRead>>;
  qualityStatements: QualityStatement[];
  inspectionDates: Fact<{ from: string; to: string }>;
  publicationDate: Fact<string>;
  reportAgeMonths: number | null;
  ratingChange: Fact<RatingChange>;
  strengths: Evidence[];
  concerns: Evidence[];
  breaches: Breach[];
  enforcement: Enforcement[];
  facts: string[];
}

// ---------------------------------------------------------------------------------------------------------------------
// Privacy: no person's name in anything given (names.ts redactNames, with the names the document's layout shows).

/** Whether a text (a page's line after "Registered manager:") starts with a person's name, as the redactor reads one there. */
const startsWithName = (text: string): boolean => {
  const label = "Registered manager: ";
  return redactNames(label + text.split("\n")[0]).startsWith(`${label}[name]`);
};
/** A quote with people's names out. */
const redactQuote = (reading: Reading, text: string): string => redactNames(text, { known: reading.people });
/** A section heading with people's names out (a heading that is only a name is "[name]"). */
const redactSection = (reading: Reading, heading: string | null): string | null =>
  heading === null ? null : redactNames(heading, { line: true, known: reading.people });

// ---------------------------------------------------------------------------------------------------------------------
// The text as a stream of headings and sentences, in order, one per line.

interface Item {
  start: number;
  end: number;
  page: number | null;
  section: string | null;
  sentence: DocSentence | null;
  heading: DocSection | null;
}

class Stream {
  readonly text: string;
  readonly items: Item[] = [];
  /** Passages quoted while the document is being recognised: recorded as read only if it is a CQC document. */
  private held: Item[] | null = [];
  constructor(readonly reading: Reading) {
    let text = "";
    const push = (t: string, page: number | null, section: string | null, sentence: DocSentence | null, heading: DocSection | null) => {
      if (text) text += "\n";
      const start = text.length;
      text += t;
      this.items.push({ start, end: text.length, page, section, sentence, heading });
    };
    const doc = reading.doc;
    for (const sec of doc.sections) {
      if (sec.heading) push(sec.heading, sec.page, sec.heading, null, sec);
      for (let i = sec.first; i < sec.end; i++) push(doc.sentences[i].text, doc.sentences[i].page, doc.sentences[i].section, doc.sentences[i], null);
    }
    this.text = text;
  }

  private use(it: Item) {
    if (it.sentence) this.reading.cite(it.sentence);
    else if (it.heading) this.reading.citeHeading(it.heading);
  }

  /** The document is a CQC one: the passages quoted so far are recorded as read (or, `keep` false, forgotten). */
  release(keep: boolean) {
    if (keep) for (const it of this.held ?? []) this.use(it);
    this.held = null;
  }

  /** The index of the item the offset is in (or of the one before, on a line break). */
  private indexAt(offset: number): number {
    let lo = 0;
    let hi = this.items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.items[mid].start <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  itemAt(offset: number): Item {
    return this.items[this.indexAt(offset)];
  }

  /** The text [a, b) as evidence: the passage quoted as written (names removed), the sentences it spans remembered as used. */
  evidence(a: number, b: number): Evidence {
    const first = this.itemAt(a);
    for (let i = this.indexAt(a); i < this.items.length; i++) {
      const it = this.items[i];
      if (it.start >= b) break;
      if (this.held) this.held.push(it);
      else this.use(it);
    }
    return {
      quote: redactQuote(this.reading, quoteOf(this.text.slice(a, b).replace(/\s+/g, " ").trim())),
      page: first.page,
      section: redactSection(this.reading, first.section),
    };
  }

  /**
   * Evidence for a match in running prose: the whole sentence when the match lies within one (centred on the match if
   * the sentence is long), else the matched text as `evidence` gives it.
   */
  evidenceInSentence(a: number, b: number): Evidence {
    const it = this.itemAt(a);
    if (!it.sentence || b > it.end) return this.evidence(a, b);
    const matched = this.text
      .slice(a, b)
      .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\s+/g, "\\s+");
    return citeSentence(this.reading, it.sentence, new RegExp(matched, "i"));
  }

  /** The end of the line from `a`, at most `max` characters on (at a word's end). */
  lineEnd(a: number, max: number): number {
    const nl = this.text.indexOf("\n", a);
    const end = nl < 0 ? this.text.length : nl;
    if (end - a <= max) return end;
    const cut = this.text.lastIndexOf(" ", a + max);
    return cut > a ? cut : a + max;
  }

  /** The text of the item(s) before `offset` on the same item, for context checks. */
  before(offset: number, chars: number): string {
    const it = this.itemAt(offset);
    return this.text.slice(Math.max(it.start, offset - chars), offset);
  }

  /** Matches in the document's head (HEAD): a report's cover and summary. */
  head(re: RegExp): Generator<RegExpExecArray> {
    return this.matches(re, 0, HEAD);
  }

  /** Matches in [from, to): the search stops at `to` (a table's end, the document's head). */
  *matches(re: RegExp, from = 0, to = this.text.length): Generator<RegExpExecArray> {
    const r = new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g");
    const hay = to < this.text.length ? this.text.slice(0, to) : this.text;
    r.lastIndex = from;
    for (let m = r.exec(hay); m; m = r.exec(hay)) {
      yield m;
      if (m[0].length === 0) r.lastIndex++;
    }
  }
}

/** A sentence as evidence, names removed. */
const citeSentence = (reading: Reading, s: DocSentence, match?: RegExp): Evidence => {
  const e = reading.cite(s, match);
  return { ...e, quote: redactQuote(reading, e.quote), section: redactSection(reading, e.section) };
};

/**
 * The document's head, where a report gives its service, provider, dates and previous rating (the cover and the
 * summary): the first 150,000 characters, some 40 pages. A long report is not searched to its end for them.
 */
const HEAD = 150_000;

// ---------------------------------------------------------------------------------------------------------------------
// Ratings

const RATING = String.raw`(outstanding|good|requires\s+improvement|inadequate|inspected\s+but\s+not\s+rated|insufficient\s+evidence\s+to\s+rate|not\s+yet\s+rated|not\s+rated|no\s+rating(?:\s+yet)?)(?![a-z\-])`;
/** Between a label and its rating: spaces, a colon, a dash or a table bar, "Rating:", a star or an opening quote. */
const SEP = String.raw`[\s:|–—=\-]{0,8}(?:rating\s*:?\s*)?[★☆*'‘"“]?\s*`;
const SCORE = String.raw`(?:\s*[(,–—\-]?\s*(?:score\s*:?\s*)?(\d{1,3})\s*%)?`;
const KQ = String.raw`(safe|effective|caring|responsive|well[\s\-‐‑–]*led)`;

const KQ_QUESTION = new RegExp(
  String.raw`\b(?:is|are)\s+(?:the\s+|this\s+)?(?:service|services|practice|trust|location|provider|home|hospital)\s+${KQ}\s*\??${SEP}${RATING}${SCORE}`,
  "gi",
);
/** A bare label ("Safe Good", "Well led: REQUIRES IMPROVEMENT") at a line start, after a bar, a colon or a previous rating. */
const KQ_BARE = new RegExp(
  String.raw`(?<=^|\n|[|•●▪:;,]\s*|(?:outstanding|good|improvement|inadequate|rated|rate)\s+|\d%?\s+)${KQ}(?=[\s:|–—\-])${SEP}${RATING}${SCORE}`,
  "gi",
);
const OVERALL = new RegExp(
  String.raw`\b(?:(?:our\s+)?overall\s+rating(?:\s+(?:for|of)\s+(?:this|the)\s+(?:service|location|practice|provider|trust|home|hospital))?(?:\s+(?:is|was|remains))?|overall(?=\s*[:|–—\n\-]))${SEP}${RATING}${SCORE}`,
  "gi",
);
const RATED_OVERALL = new RegExp(String.raw`\brated\s+(?:as\s+)?['‘"“]?${RATING}['’"”]?\s+overall\b`, "gi");
/** Words before a rating label that make it an earlier rating, not this report's. */
const EARLIER = /\b(last|previous(ly)?|prior|former|earlier)\b/i;

export function normaliseRating(written: string): CqcRating | null {
  const w = written.toLowerCase().replace(/\s+/g, " ").trim();
  if (w === "outstanding") return "Outstanding";
  if (w === "good") return "Good";
  if (w === "requires improvement") return "Requires improvement";
  if (w === "inadequate") return "Inadequate";
  if (w === "inspected but not rated") return "Inspected but not rated";
  if (w === "insufficient evidence to rate") return "Insufficient evidence to rate";
  if (w === "not rated" || w === "not yet rated") return "Not rated";
  if (w.startsWith("no rating")) return "No rating";
  return null;
}

const RANK: Partial<Record<CqcRating, number>> = { Outstanding: 4, Good: 3, "Requires improvement": 2, Inadequate: 1 };

interface RatingHit {
  value: RatingRead;
  a: number;
  b: number;
}

function ratingHit(stream: Stream, m: RegExpExecArray, ratingGroup: number): RatingHit | null {
  const written = m[ratingGroup].replace(/\s+/g, " ");
  const rating = normaliseRating(written);
  if (!rating) return null;
  const score = m[ratingGroup + 1] ? Number(m[ratingGroup + 1]) : null;
  return { value: { rating, asWritten: written, score: score !== null && score <= 100 ? score : null }, a: m.index, b: m.index + m[0].length };
}

/** The first rating hit (the report's own ratings table comes first), with a note when the document gives another. */
function ratingFact(stream: Stream, hits: RatingHit[], what: string): Fact<RatingRead> {
  if (!hits.length) return notFound(`The document gives no rating for ${what} that the reader could find.`);
  const [first, ...rest] = hits;
  const other = rest.find((h) => h.value.rating !== first.value.rating);
  const note = other
    ? `The document also gives "${other.value.asWritten}" for ${what}${stream.itemAt(other.a).page ? ` (page ${stream.itemAt(other.a).page})` : ""}: the first rating given is taken; check the report.`
    : null;
  if (other) stream.evidence(other.a, other.b);
  return found(first.value, stream.evidence(first.a, first.b), note);
}

function readRatings(stream: Stream): { overall: Fact<RatingRead>; keyQuestions: Record<KeyQuestion, Fact<RatingRead>> } {
  const overallHits: RatingHit[] = [];
  for (const re of [OVERALL, RATED_OVERALL])
    for (const m of stream.matches(re)) {
      if (EARLIER.test(stream.before(m.index, 50))) continue;
      const h = ratingHit(stream, m, 1);
      if (h) overallHits.push(h);
    }
  overallHits.sort((x, y) => x.a - y.a);
  const byKq: Record<KeyQuestion, RatingHit[]> = { safe: [], effective: [], caring: [], responsive: [], wellLed: [] };
  const seen = new Set<number>();
  for (const [re, bare] of [
    [KQ_QUESTION, false],
    [KQ_BARE, true],
  ] as const)
    for (const m of stream.matches(re)) {
      const label = m[1];
      if (bare && !/^\p{Lu}/u.test(label)) continue; // "safe good" in running prose is not a table row
      if (EARLIER.test(stream.before(m.index, 40))) continue;
      const ratingAt = m.index + m[0].toLowerCase().lastIndexOf(m[2].toLowerCase().split(/\s+/)[0]);
      if (seen.has(ratingAt)) continue;
      seen.add(ratingAt);
      const h = ratingHit(stream, m, 2);
      if (h) byKq[kqOf(label)].push(h);
    }
  const keyQuestions = {} as Record<KeyQuestion, Fact<RatingRead>>;
  for (const k of KEY_QUESTIONS)
    keyQuestions[k] = ratingFact(
      stream,
      byKq[k].sort((x, y) => x.a - y.a),
      `the key question "${KEY_QUESTION_NAME[k]}"`,
    );
  return { overall: ratingFact(stream, overallHits, "the service overall"), keyQuestions };
}

const kqOf = (label: string): KeyQuestion => {
  const l = label.toLowerCase();
  return l.startsWith("well") ? "wellLed" : (l as KeyQuestion);
};

// ---------------------------------------------------------------------------------------------------------------------
// Quality statements (single assessment framework: 34 "we statements", each scored 1–4)

const QUALITY_STATEMENTS: Record<KeyQuestion, string[]> = {
  safe: [
    "Learning culture",
    "Safe systems, pathways and transitions",
    "Safeguarding",
    "Involving people to manage risks",
    "Safe environments",
    "Safe and effective staffing",
    "Infection prevention and control",
    "Medicines optimisation",
  ],
  effective: [
    "Assessing needs",
    "Delivering evidence-based care and treatment",
    "How staff, teams and services work together",
    "Supporting people to live healthier lives",
    "Monitoring and improving outcomes",
    "Consent to care and treatment",
  ],
  caring: [
    "Kindness, compassion and dignity",
    "Treating people as individuals",
    "Independence, choice and control",
    "Responding to people's immediate needs",
    "Workforce wellbeing and enablement",
  ],
  responsive: [
    "Person-centred care",
    "Care provision, integration and continuity",
    "Providing information",
    "Listening to and involving people",
    "Equity in access",
    "Equity in experiences and outcomes",
    "Planning for the future",
  ],
  wellLed: [
    "Shared direction and culture",
    "Capable, compassionate and inclusive leaders",
    "Freedom to speak up",
    "Workforce equality, diversity and inclusion",
    "Governance, management and sustainability",
    "Partnerships and communities",
    "Learning, improvement and innovation",
    "Environmental sustainability – sustainable development",
  ],
};

const flexible = (name: string) =>
  name
    .replace(/ – /g, "\u0001")
    .replace(/-/g, "\u0002")
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/'/g, "['’]?")
    .replace(/,/g, ",?")
    .replace(/ /g, String.raw`\s+`)
    .replace(/\u0001/g, String.raw`\s*[–—:\-]?\s*`)
    .replace(/\u0002/g, String.raw`[\s\-‐‑]?`);

function readQualityStatements(stream: Stream): QualityStatement[] {
  const out: (QualityStatement & { at: number })[] = [];
  for (const k of KEY_QUESTIONS)
    for (const name of QUALITY_STATEMENTS[k]) {
      const re = new RegExp(
        String.raw`(?<![a-z])${flexible(name)}(?![a-z])(?:[\s:–—\-]{0,4}(?:score|scored)\s*:?\s*([1-4])(?!\d)|[\s:|–—\-]{1,6}([1-4])(?=\s*(?:\n|$)))`,
        "gi",
      );
      const m = stream.matches(re).next().value;
      if (m) out.push({ keyQuestion: k, name, score: Number(m[1] ?? m[2]), evidence: stream.evidence(m.index, m.index + m[0].length), at: m.index });
    }
  return out.sort((a, b) => a.at - b.at).map(({ at: _at, ...q }) => q);
}

// ---------------------------------------------------------------------------------------------------------------------
// Dates

const MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const pad = (n: number) => String(n).padStart(2, "0");
const validDay = (y: number, m: number, d: number) => y >= 1990 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();

/**
 * The days a passage gives, including lists and ranges that name the month and year once: "12 and 13 March 2019",
 * "28 November, 1 and 4 December 2017", "28 February to 1 March 2019", "15/01/2018".
 */
export function daysIn(text: string): string[] {
  const out = new Set<string>();
  for (const d of datesIn(text)) if (d.precision === "day") out.add(d.iso);
  const token = new RegExp(String.raw`(?<![\d/.])(\d{1,2})(?:st|nd|rd|th)?(?:\s+(?:of\s+)?${MONTH}\.?)?(?:,?\s+(\d{4}))?(?![\d/])`, "gi");
  const toks: { a: number; b: number; d: number; m: number | null; y: number | null }[] = [];
  for (let m = token.exec(text); m; m = token.exec(text))
    toks.push({
      a: m.index,
      b: m.index + m[0].length,
      d: Number(m[1]),
      m: m[2] ? MONTHS.indexOf(m[2].slice(0, 3).toLowerCase()) + 1 : null,
      y: m[3] ? Number(m[3]) : null,
    });
  // Chains of tokens separated only by list words; the month and year carried back from the chain's end.
  for (let i = toks.length - 1; i >= 0; i--) {
    const t = toks[i];
    if (t.m !== null && t.y !== null) continue;
    const next = toks[i + 1];
    if (!next || next.m === null || next.y === null) continue;
    if (!/^\s*(?:,|and|&|to|until|till|-|–|—)\s*(?:and\s+)?$/i.test(text.slice(t.b, next.a))) continue;
    t.m = t.m ?? next.m;
    t.y = t.y ?? (t.m > next.m ? next.y - 1 : next.y);
    if (validDay(t.y, t.m, t.d)) out.add(`${t.y}-${pad(t.m)}-${pad(t.d)}`);
  }
  return [...out].sort();
}

const fmtDate = (iso: string) => {
  const [y, m, d] = iso.split("-").map(Number);
  const month = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"][m - 1];
  return d ? `${d} ${month} ${y}` : m ? `${month} ${y}` : String(y);
};

/** The text after a label: up to the next label, the end of the sentence, or `max` characters. */
function windowAfter(stream: Stream, at: number, max: number, stop: RegExp): string {
  const w = stream.text.slice(at, at + max);
  const cut = new RegExp(stop.source, stop.flags.replace("g", "")).exec(w);
  return cut ? w.slice(0, cut.index) : w;
}

const NEXT_LABEL =
  /\b(?:date of publication|published|publication date|ratings?\b|overall\b|tel\b|telephone|website|location id|provider id|report published)|\.\s+\p{Lu}|\.\s*\n|\n(?=\p{Lu}[\p{Ll}\s]+:)/iu;

const INSPECTION_LABELS: RegExp[] = [
  /\bdates?\s+of\s+(?:inspection|assessment)(?:\s+(?:site\s+)?visits?)?(?:\s+activity)?\s*(?:\(s\))?\s*:?/gi,
  /\bassessment\s+dates?\s*(?:\(s\))?\s*:?/gi,
  /\binspection\s+(?:was\s+)?(?:carried\s+out|undertaken|took\s+place|completed)\s+(?:on|between)\b/gi,
  /\b(?:inspection|assessment)(?:\s+site\s+visit)?\s+activity\s+(?:started|began)\s+on\b/gi,
  /\b(?:this|the|our)\s+(?:comprehensive\s+|focused\s+|unannounced\s+|announced\s+|responsive\s+)*(?:inspection|assessment|site\s+visit)s?\s+(?:took\s+place|was\s+carried\s+out|was\s+undertaken|was\s+completed|happened)\s+(?:on|between|from)\b/gi,
  /\bwe\s+(?:carried\s+out|undertook|completed|conducted)\s+(?:our|this|an|the)\s+(?:\w+\s+){0,3}?(?:inspection|assessment|site\s+visit)\s+(?:on|between)\b/gi,
  /\bwe\s+inspected\s+(?:the|this)\s+(?:service|home|location|practice)\s+on\b/gi,
  /\b(?:latest|last)\s+(?:inspection|assessment|inspected)(?:\s+date)?\s*(?::|\n|on\b)/gi,
];

function readInspectionDates(stream: Stream, today: string): Fact<{ from: string; to: string }> {
  for (const [i, label] of INSPECTION_LABELS.entries())
    for (const m of stream.head(label)) {
      // "Latest inspection" is a label at a line's start; "at our last inspection on …" is the one before.
      if (/^(?:latest|last)/i.test(m[0]) ? stream.before(m.index, 40).trim() !== "" : EARLIER.test(stream.before(m.index, 40))) continue;
      const start = m.index + m[0].length;
      const w = windowAfter(stream, start, 170, NEXT_LABEL);
      const days = daysIn(w);
      if (!days.length) continue;
      const from = days[0];
      const to = days[days.length - 1];
      const notes: string[] = [];
      if (to > today) notes.push(`a date after today (${fmtDate(today)}): check the report`);
      if (monthsBetween(from, to) > 6) notes.push("the dates span more than six months");
      const dateEnd = start + w.length;
      // A label ("Date of inspection visit:", "Latest inspection") is quoted with its dates; a sentence is quoted whole.
      const isLabel = i <= 1 || i === INSPECTION_LABELS.length - 1;
      return found(
        { from, to },
        isLabel ? stream.evidence(m.index, dateEnd) : stream.evidenceInSentence(m.index, dateEnd),
        notes.length ? `Read from the label; ${notes.join("; ")}.` : null,
      );
    }
  return notFound("The document gives no inspection or assessment date that the reader could find.");
}

const PUBLICATION_LABELS = [
  /\bdate\s+of\s+publication\s*:?/gi,
  /\b(?:report\s+|latest\s+report\s+)?published\s*(?:on\s*)?:?/gi,
  /\bpublication\s+date\s*:?/gi,
  /\bdate\s+published\s*:?/gi,
];

function readPublicationDate(stream: Stream, today: string): Fact<string> {
  let best: { iso: string; a: number; b: number } | null = null;
  for (const label of PUBLICATION_LABELS)
    for (const m of stream.head(label)) {
      const before = stream.before(m.index, 90);
      if (/\(\s*(?:report\s+)?$/i.test(before) || /\b(last|previous|prior)\b|\brating\b.*\bwas\b/i.test(before)) continue; // "(published 10 October 2016)" of the last rating
      const start = m.index + m[0].length;
      const w = stream.text.slice(start, start + 45);
      const d = datesIn(w).find((x) => x.index <= 6);
      if (!d) continue;
      if (!best || m.index < best.a) best = { iso: d.iso, a: m.index, b: start + d.index + d.text.length };
      break;
    }
  if (!best) {
    // A running footer kept on a short document: "Oakwood House Inspection report 02 May 2019".
    const m = stream.head(/\b(?:inspection|assessment)\s+report\s+(\d{1,2}\s+[a-z]+\s+\d{4})\b/gi).next().value;
    const d = m ? datesIn(m[1])[0] : undefined;
    if (m && d && d.precision === "day") best = { iso: d.iso, a: m.index, b: m.index + m[0].length };
  }
  if (!best) return notFound("The document gives no publication date that the reader could find.");
  return found(best.iso, stream.evidence(best.a, best.b), best.iso > today ? `After today (${fmtDate(today)}): check the report.` : null);
}

// ---------------------------------------------------------------------------------------------------------------------
// The previous rating

const PREVIOUS_PATTERNS: { re: RegExp; previous: number; current?: number; date?: number }[] = [
  {
    re: new RegExp(
      String.raw`\blast\s+rating\s+for\s+(?:this|the)\s+(?:service|location|practice|home|provider)\s+was\s+(?:rated\s+)?['‘"“]?${RATING}['’"”]?(?:\s*\((?:report\s+)?published\s+(?:on\s+)?([^)]{6,40})\))?`,
      "gi",
    ),
    previous: 1,
    date: 2,
  },
  {
    re: new RegExp(
      String.raw`\brating\s+(?:for\s+(?:this|the)\s+(?:service|location|practice)\s+)?has\s+changed\s+from\s+['‘"“]?${RATING}['’"”]?\s+to\s+['‘"“]?${RATING.replace("(outstanding", "(?<current>outstanding")}`,
      "gi",
    ),
    previous: 1,
    current: 2,
  },
  {
    re: new RegExp(
      String.raw`\b(?:at|following|after)\s+(?:our|the)\s+(?:last|previous)\s+(?:comprehensive\s+|focused\s+)?(?:inspection|assessment)(?:\s+\([^)]{0,50}\))?(?:\s+(?:in|on)\s+[^,.;]{3,30}?)?,?\s+(?:we\s+rated\s+)?(?:this|the)\s+(?:service|location|practice|home)\s+(?:was\s+)?(?:rated\s+)?(?:as\s+)?['‘"“]?${RATING}`,
      "gi",
    ),
    previous: 1,
  },
  { re: new RegExp(String.raw`\bpreviously\s+rated\s+(?:as\s+)?['‘"“]?${RATING}`, "gi"), previous: 1 },
  { re: new RegExp(String.raw`\bprevious\s+(?:overall\s+)?rating\s*(?:was|:)?\s*['‘"“]?${RATING}`, "gi"), previous: 1 },
  {
    re: new RegExp(
      String.raw`\brating\s+at\s+(?:the\s+)?last\s+(?:inspection|assessment)\s*:?\s*['‘"“]?${RATING}(?:\s*\((?:report\s+)?published\s+(?:on\s+)?([^)]{6,40})\))?`,
      "gi",
    ),
    previous: 1,
    date: 2,
  },
];
const FIRST_INSPECTION =
  /\b(?:this\s+(?:is|was)\s+the\s+first\s+(?:rated\s+)?(?:inspection|assessment)|first\s+(?:inspection|assessment)\s+(?:of|for|since)\s+(?:this|the)\s+(?:service|location)|newly\s+registered\s+service|has\s+not\s+(?:previously\s+)?been\s+(?:inspected|rated)(?:\s+before)?)\b/i;

function readRatingChange(stream: Stream, current: CqcRating | null): Fact<RatingChange> {
  let best: { m: RegExpExecArray; p: (typeof PREVIOUS_PATTERNS)[number] } | null = null;
  for (const p of PREVIOUS_PATTERNS) {
    const m = stream.head(p.re).next().value;
    if (m && (!best || m.index < best.m.index)) best = { m, p };
  }
  if (!best) {
    const first = stream.head(FIRST_INSPECTION).next().value;
    if (first) {
      stream.evidenceInSentence(first.index, first.index + first[0].length);
      return notFound(`No previous rating: the document says this is the first inspection or assessment ("${first[0].trim()}").`);
    }
    return notFound("The document does not give the previous rating (or the reader could not find it).");
  }
  const { m, p } = best;
  const previous = normaliseRating(m[p.previous]);
  if (!previous) return notFound("The previous rating could not be read.");
  const stated = p.current ? normaliseRating(m.groups?.current ?? m[p.current] ?? "") : null;
  const now = current ?? stated;
  const published = p.date && m[p.date] ? (datesIn(m[p.date]).find((d) => d.precision === "day")?.iso ?? null) : null;
  const a = RANK[previous];
  const b = now ? RANK[now] : undefined;
  const direction = a && b ? (b > a ? "improved" : b < a ? "declined" : "unchanged") : null;
  return found({ previous, previousPublished: published, current: now, direction }, stream.evidenceInSentence(m.index, m.index + m[0].length));
}

// ---------------------------------------------------------------------------------------------------------------------
// Service and provider

const POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b/;
const ORGANISATION =
  /\b(ltd|limited|plc|llp|cic|c\.i\.c|lp|trust|foundation|group|council|partnership|partners|society|association|charity|services|care|healthcare|homes?|nhs|company|co\.|inc|holdings|organisation|housing|hospice|practice|surgery|medical|dental|clinic)\b/i;

function cleanName(raw: string): string {
  return raw
    .replace(/\s+/g, " ")
    .replace(/\s*(?:\||·|–|—)\s*$/, "")
    .replace(
      /\s*\b(?:Registered\s+manager|Location\s+ID|Provider\s+ID|Tel|Telephone|Phone|Website|Date\s+of|Overall\s+rating|Ratings|Inspection\s+report|Assessment\s+report|Report\s+published|Published)\b.*$/i,
      "",
    )
    .replace(/[.,;:]+$/, "")
    .trim();
}

/** An individual's name (a provider who is a person, a partnership of named people) is not given. */
function nameFact(reading: Reading, name: string, evidence: Evidence, what: string): Fact<string> {
  const redacted = redactQuote(reading, name);
  const ev = { ...evidence, quote: redactQuote(reading, evidence.quote), section: redactSection(reading, evidence.section) };
  if (redacted !== name) return found(redacted, ev, `The ${what} is named after a person; the name is not given.`);
  return found(name, ev);
}

function readServiceName(stream: Stream, reading: Reading): Fact<string> {
  const labelled = stream.head(/\b(?:name\s+of\s+(?:the\s+)?(?:service|location)|location\s+name|service\s+name)\s*:?\s*([^\n]{3,80})/gi).next().value;
  if (labelled) {
    const name = cleanName(labelled[1]);
    if (name.length >= 3) return nameFact(reading, name, stream.evidence(labelled.index, labelled.index + labelled[0].length), "service");
  }
  if (reading.doc.kind === "html") {
    const h1 = reading.doc.sections.find((s) => s.heading && s.level === 1);
    if (h1?.heading && h1.heading.length <= 100) return nameFact(reading, cleanName(h1.heading) || h1.heading, reading.citeHeading(h1), "service");
  }
  // A report's cover: the name on the line before "Inspection report" / "Assessment report".
  const cover = stream.head(/(?:^|\n)([^\n]{3,90})\n(?:inspection|assessment)\s+report\b/gi).next().value;
  if (cover && cover.index < 1500) {
    const name = cleanName(cover[1]);
    if (name.length >= 3 && !/[.!?]$/.test(name)) {
      const a = cover.index + cover[0].indexOf(cover[1]);
      return nameFact(reading, name, stream.evidence(a, cover.index + cover[0].length), "service");
    }
  }
  const about = stream
    .head(
      /(?:about\s+the\s+service\s*:?\s*)?\b((?:\p{Lu}[\p{L}'’&-]*\s+){0,6}\p{Lu}[\p{L}'’&-]*)\s+is\s+an?\s+['‘"“]?(?:residential|nursing|care\s+home|domiciliary|home\s*care|supported\s+living|extra\s+care|shared\s+lives|hospice|service)/gu,
    )
    .next().value;
  if (about && !/^(?:The|This|It|Our|A)$/.test(about[1]))
    return nameFact(reading, cleanName(about[1]), stream.evidence(about.index, about.index + about[0].length), "service");
  return notFound("The document does not name the service in a way the reader could find.");
}

function readProvider(stream: Stream, serviceName: string | null): { name: Fact<string>; providerId: Fact<string> } {
  let name: Fact<string> | null = null;
  const patterns: RegExp[] = [
    /\bprovided\s+and\s+run\s+by\s*:?\s*([^\n]{3,100})/gi,
    /\b(?:registered\s+provider|provider\s+name|name\s+of\s+(?:the\s+)?(?:registered\s+)?provider|provider)\s*:\s*([^\n]{3,100})/gi,
    /\bthe\s+(?:registered\s+)?provider\s+(?:of\s+(?:the|this)\s+service\s+)?(?:is|was)\s+((?:\p{Lu}[\p{L}'’&().-]*\s*){1,8})/gu,
  ];
  for (const re of patterns) {
    const m = stream.head(re).next().value;
    if (!m) continue;
    const n = cleanName(m[1].split(/\.\s/)[0]);
    if (n.length < 3 || !/^\p{Lu}|^\d/u.test(n) || (/^the\s/i.test(m[0]) && !ORGANISATION.test(n))) continue;
    const nameAt = m[0].indexOf(n);
    const end = nameAt >= 0 ? m.index + nameAt + n.length : m.index + m[0].length;
    name = nameFact(stream.reading, n, /^the\s/i.test(m[0]) ? stream.evidenceInSentence(m.index, end) : stream.evidence(m.index, end), "provider");
    break;
  }
  if (!name) {
    // A report's cover: the provider's name on the line above the service's.
    const cover = stream.head(/(?:^|\n)([^\n]{3,90})\n([^\n]{3,90})\n(?:inspection|assessment)\s+report\b/gi).next().value;
    if (cover && cover.index < 1500 && ORGANISATION.test(cover[1]) && cleanName(cover[1]) !== serviceName) {
      const a = cover.index + cover[0].indexOf(cover[1]);
      name = nameFact(stream.reading, cleanName(cover[1]), stream.evidence(a, a + cover[1].length), "provider");
      name.note = name.note ?? "Read from the report's cover, the line above the service's name.";
    }
  }
  const id = stream.head(/\b(?:cqc\s+)?provider\s+id\s*:?\s*(1-\d{6,12})\b|\/provider\/(1-\d{6,12})\b/gi).next().value;
  return {
    name: name ?? notFound("The document does not name the provider in a way the reader could find."),
    providerId: id ? found(id[1] ?? id[2], stream.evidence(id.index, id.index + id[0].length)) : notFound("No CQC provider ID (1-…) is given."),
  };
}

function readLocationId(stream: Stream): Fact<string> {
  const m = stream.head(/\b(?:cqc\s+)?location\s+id\s*:?\s*(1-\d{6,12})\b|\/location\/(1-\d{6,12})\b/gi).next().value;
  return m ? found(m[1] ?? m[2], stream.evidence(m.index, m.index + m[0].length)) : notFound("No CQC location ID (1-…) is given.");
}

const SERVICE_TYPES: [RegExp, string][] = [
  [
    /care\s+home\s+(?:service\s+)?with\s+nursing|nursing\s+home|care\s+home\s+providing\s+(?:personal\s+and\s+)?nursing|accommodation\s+(?:and|for|with)\s+(?:personal\s+and\s+)?nursing/i,
    "care home with nursing",
  ],
  [/care\s+home|residential\s+(?:care\s+)?home|residential\s+service|accommodation\s+(?:and|for|with)\s+personal\s+care/i, "care home"],
  [
    /domiciliary\s+care|home\s*care\s+(?:agency|service|provider)|personal\s+care\s+to\s+people\s+(?:living\s+)?in\s+their\s+own\s+(?:homes|houses|flats)/i,
    "domiciliary care",
  ],
  [/supported\s+living/i, "supported living"],
  [/extra\s+care\s+housing/i, "extra care housing"],
  [/shared\s+lives/i, "shared lives"],
  [/hospice/i, "hospice"],
  [/\bGP\s+(?:practice|surgery)|general\s+practice|doctors?\s+consultation/i, "GP practice"],
  [/dental\s+practice|dentist/i, "dental practice"],
  [/ambulance/i, "ambulance service"],
  [/hospital/i, "hospital"],
];
const TYPE_WORDS = String.raw`(?:care\s+home\s+(?:service\s+)?with(?:out)?\s+nursing|care\s+home|nursing\s+home|residential\s+(?:care\s+)?home|domiciliary\s+care(?:\s+(?:agency|service))?|home\s*care\s+(?:agency|service)|supported\s+living(?:\s+service)?|extra\s+care\s+housing(?:\s+service)?|shared\s+lives(?:\s+scheme)?|hospice|GP\s+(?:practice|surgery)|dental\s+practice|independent\s+hospital|hospital|ambulance\s+service)`;

function readServiceType(stream: Stream, serviceName: string | null): Fact<string> {
  const patterns = [
    new RegExp(String.raw`\bis\s+an?\s+['‘"“]?(?:registered\s+|small\s+|large\s+|purpose[\s\-]built\s+|residential\s+|\w+\s+){0,2}${TYPE_WORDS}`, "gi"),
    new RegExp(String.raw`\b(?:service\s+types?|type\s+of\s+service|location\s+type)\s*:?\s*${TYPE_WORDS}`, "gi"),
    new RegExp(String.raw`(?:^|\n)${TYPE_WORDS}(?=\n)`, "gi"),
    /\bprovides?\s+personal\s+care\s+to\s+people\s+(?:living\s+)?in\s+their\s+own\s+(?:homes|houses|flats)/gi,
    /\b(?:registered\s+to\s+provide|provides?|providing)\s+accommodation\s+(?:and|for|with)\s+(?:nursing|personal)(?:\s+and\s+(?:nursing|personal))?\s+care\b/gi,
  ];
  // The service's own sentence ("Oakwood House is a residential care home …") first, then the first anywhere.
  const own = (m: RegExpExecArray) => {
    if (!serviceName) return false;
    const it = stream.itemAt(m.index);
    return stream.text.slice(it.start, it.end).includes(serviceName);
  };
  let best: RegExpExecArray | null = null;
  let bestOwn = false;
  for (const re of patterns)
    for (const m of stream.head(re)) {
      const o = own(m);
      if (!best || (o && !bestOwn) || (o === bestOwn && m.index < best.index)) {
        best = m;
        bestOwn = o;
      }
      if (o) break;
    }
  if (!best) return notFound("The document does not say what type of service it is in a way the reader could find.");
  const around = stream.text.slice(best.index, best.index + best[0].length + 50);
  const type = SERVICE_TYPES.find(([re]) => re.test(around))?.[1] ?? "other";
  const a = best.index + (best[0].startsWith("\n") ? 1 : 0);
  return found(type, stream.evidenceInSentence(a, best.index + best[0].length));
}

function readAddress(stream: Stream, serviceNameAt: number | null): Fact<string> {
  // The first postcode near the top (the cover, the page's header): the address is the lines from the name to it.
  const head = stream.text.slice(0, 3000);
  const pc = new RegExp(POSTCODE.source, "g").exec(head);
  if (!pc) return notFound("No address with a postcode was found near the top of the document.");
  const pcEnd = pc.index + pc[0].length;
  let start = stream.text.lastIndexOf("\n", pc.index) + 1;
  const onOneLine = (stream.text.slice(start, pc.index).match(/,/g) ?? []).length >= 2;
  // Address lines before it (a cover's "14 Elm Grove / Ashford / Kent"): short lines without sentence ends.
  for (let k = 0; k < 6 && !onOneLine; k++) {
    const prevEnd = start - 1;
    if (prevEnd <= 0) break;
    const prevStart = stream.text.lastIndexOf("\n", prevEnd - 1) + 1;
    const line = stream.text.slice(prevStart, prevEnd);
    if (
      line.length > 60 ||
      /[.!?:]$/.test(line) ||
      /\b(?:inspection|assessment)\s+report\b|provided\s+and\s+run|^ratings?$/i.test(line) ||
      new RegExp(`^${TYPE_WORDS}$`, "i").test(line) ||
      (serviceNameAt !== null && prevStart <= serviceNameAt)
    )
      break;
    start = prevStart;
  }
  let text = stream.text
    .slice(start, pcEnd)
    .replace(/\s*\n\s*/g, ", ")
    .replace(/\s+/g, " ");
  text = text.replace(/^.*?\b(?:address|located at)\s*:?\s*/i, "").replace(/^[,\s]+/, "");
  if (text.length > 160 || text.length < 6) return notFound("An address could not be read cleanly.");
  return found(text, stream.evidence(start, pcEnd));
}

function readRegisteredManager(stream: Stream): Fact<boolean> {
  const no =
    /\b(?:did\s+not|does\s+not|didn['’]t|doesn['’]t|do\s+not)\s+have\s+an?\s+(?:registered\s+manager|manager\s+registered)|\bno\s+registered\s+manager|\bthere\s+(?:was|is|were)\s+no\s+(?:registered\s+)?manager|\bwithout\s+a\s+registered\s+manager|\bregistered\s+manager\s*:?\s*(?:none|vacant|not\s+applicable)\b|\bnot\s+have\s+a\s+manager\s+registered|\b(?:has|have|had)\s+not\s+had\s+an?\s+registered\s+manager/gi;
  const yes =
    /\b(?:had|has|have|there\s+(?:was|is))\s+an?\s+(?:registered\s+manager|manager\s+registered\s+with)|\bregistered\s+manager\s*(?::\s*|\n)(?=[^\n]{4,60}(?:\n|$))/gi;
  const n = stream.head(no).next().value;
  let y: RegExpExecArray | undefined;
  for (const m of stream.head(yes)) {
    if (/\b(not|n['’]t|no\s+longer)\s*$/i.test(stream.before(m.index, 20))) continue;
    // "Registered manager: <a person's name>" on a page: a name follows (two capitalised words), not a sentence.
    if (/registered\s+manager\s*(?::|\n)/i.test(m[0]) && !startsWithName(stream.text.slice(m.index + m[0].length))) continue;
    y = m;
    break;
  }
  const pick = n && (!y || n.index <= y.index) ? { m: n, v: false } : y ? { m: y, v: true } : null;
  if (!pick) return notFound("The document does not say whether there is a registered manager.");
  const end = pick.m.index + pick.m[0].length;
  // "Registered manager: <name>" on a page: the label and the name, the name replaced in the quote.
  const labelled = pick.v && /registered\s+manager\s*(?::|\n)/i.test(pick.m[0]);
  const nameEnd = labelled ? stream.text.indexOf("\n", end) : -1;
  const ev = labelled ? stream.evidence(pick.m.index, nameEnd < 0 ? stream.text.length : nameEnd) : stream.evidenceInSentence(pick.m.index, end);
  return found(pick.v, ev, pick.v ? "The manager's name is never given." : null);
}

// ---------------------------------------------------------------------------------------------------------------------
// Breaches and enforcement

const REG_2014_TITLES: Record<string, string> = {
  "9": "Person-centred care",
  "10": "Dignity and respect",
  "11": "Need for consent",
  "12": "Safe care and treatment",
  "13": "Safeguarding service users from abuse and improper treatment",
  "14": "Meeting nutritional and hydration needs",
  "15": "Premises and equipment",
  "16": "Receiving and acting on complaints",
  "17": "Good governance",
  "18": "Staffing",
  "19": "Fit and proper persons employed",
  "20": "Duty of candour",
  "20A": "Requirement as to display of performance assessments",
};
const REG_2009_TITLES: Record<string, string> = {
  "12": "Statement of purpose",
  "14": "Notice of absence",
  "15": "Notice of changes",
  "16": "Notification of death of service user",
  "17": "Notification of death or unauthorised absence of a service user who is detained or liable to be detained under the Mental Health Act 1983",
  "18": "Notification of other incidents",
  "20": "Requirements relating to termination of pregnancies",
  "22A": "Form of notifications to the Commission",
};
/** Regulation titles named without their numbers ("breaches in relation to safe care and treatment and good governance"). */
const TITLE_TO_REG: [RegExp, string][] = [
  [/person[\s-]centred\s+care/i, "9"],
  [/dignity\s+and\s+respect/i, "10"],
  [/need\s+for\s+consent|\bconsent\b/i, "11"],
  [/safe\s+care\s+and\s+treatment/i, "12"],
  [/safeguarding(?:\s+service\s+users)?/i, "13"],
  [/nutrition(?:al)?\s+and\s+hydration/i, "14"],
  [/premises\s+and\s+equipment/i, "15"],
  [/complaints/i, "16"],
  [/(?:good\s+)?governance\b/i, "17"],
  [/\bstaffing\b/i, "18"],
  [/fit\s+and\s+proper\s+persons/i, "19"],
  [/duty\s+of\s+candour/i, "20"],
  [/display\s+of\s+(?:performance\s+assessments|ratings)/i, "20A"],
];

const REG_LIST =
  /\breg(?:ulation)?s?\.?\s+(\d{1,2}A?)\b((?:\s*(?:\(\s*\w{1,3}\s*\)\s*)*(?:,|and|&)\s*(?:reg(?:ulation)?s?\.?\s+)?\d{1,2}A?\b(?:\s*\(\s*\w{1,3}\s*\))*)*)/gi;

/** The regulation numbers a passage cites ("regulations 12 and 17", "Regulation 12(1)(2)(a)", "Regulations 12, 13, 17 and 18"). */
function regulationsIn(text: string): { reg: string; set2009: boolean }[] {
  const out: { reg: string; set2009: boolean }[] = [];
  for (const m of text.matchAll(REG_LIST)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 90);
    const set2009 = /^\s*(?:\([^)]*\)\s*)?(?:of\s+the\s+)?(?:Care\s+Quality\s+Commission\s+|CQC\s+)?\(?Registration\)?\s+Regulations|^[^.]{0,40}\b2009\b/i.test(
      after,
    );
    const nums = [m[1], ...(m[2].match(/\d{1,2}A?(?=\b)(?!\s*\))/g) ?? [])];
    for (const n of nums) if (!out.some((o) => o.reg === n && o.set2009 === set2009)) out.push({ reg: n.toUpperCase(), set2009 });
  }
  return out;
}

const BREACH_CUE =
  /\bbreach(?:es|ed)?\b|\bnot\s+(?:being\s+)?met\b|\bwere\s+not\s+being\s+met\b|\bfailed\s+to\s+comply\b|\bnot\s+compliant\s+with\s+regulation/i;
const BREACH_PAST =
  /\bno\s+longer\s+(?:in\s+)?(?:a\s+)?breach|\bwas\s+no\s+longer\b|\benough\s+improvement\s+had\s+been\s+made\b|\b(?:had|have)\s+been\s+met\b|\b(?:at|following|after)\s+(?:our|the)\s+(?:last|previous)\s+(?:inspection|assessment)\b|\bpreviously\b/i;
const BREACH_STILL =
  /\b(?:still|remained|remains|continued\s+to\s+be)\s+in\s+breach\b|\bcontinued\s+breach\b|\brepeated\s+breach\b|\bnot\s+enough\s+improvement\b/i;
/** The legend of the CQC's site, explaining ratings ("… we've taken enforcement action against the provider"). */
const LEGEND =
  /\bthe\s+service\s+(?:is|isn['’]t|is\s+not)\s+performing\b|\bperforming\s+(?:exceptionally\s+well|badly)\b|\bwe\s+have\s+not\s+yet\s+rated\s+this\s+area\b/i;
const HYPOTHETICAL =
  /\b(?:if|unless|should)\s+(?:we|the\s+provider|a\s+provider|providers|services?|they|not\s+enough|there|it|this)\b|\bwill\s+(?:usually|normally|then\s+)?\s*(?:lead|result)\b|\b(?:could|can|may|might|would)\s+(?:lead|result|take|use|be\s+(?:placed|cancelled|suspended))\b|\bbegin\s+the\s+process\b|\bprocess\s+of\s+preventing\b|\bwe\s+(?:may|can|could)\b|\b(?:we|cqc)\s+(?:has|have)\s+(?:the\s+)?powers?\s+to\b/i;
/** Whether a conditional governs the match: "if we do not see improvement we may cancel …" is, "we issued a warning notice and will act if …" is not. */
const conditional = (text: string, re: RegExp): boolean => {
  const h = HYPOTHETICAL.exec(text);
  if (!h) return false;
  const m = new RegExp(re.source, re.flags.replace("g", "")).exec(text);
  return !m || h.index <= m.index;
};

interface Region {
  kind: "requirement" | "enforcement" | "breaches";
  a: number;
  b: number;
}

/** The report's legal tables: "Action we have told the provider to take" (requirement notices) and "Enforcement actions". */
const regionsOf = new WeakMap<Stream, Region[]>();
function legalRegions(stream: Stream): Region[] {
  const known = regionsOf.get(stream);
  if (known) return known;
  const labels: { kind: Region["kind"]; at: number }[] = [];
  const confirm = (after: string) => /the\s+table\s+below|regulated\s+activit/i.test(after) || /HSCA|Regulation\s+\d/.test(after);
  for (const [re, kind] of [
    [/\baction\s+we\s+have\s+told\s+the\s+provider\s+to\s+take\b|\brequirement\s+notices?\b/gi, "requirement"],
    [/\b(?:enforcement\s+actions?(?!\s+we\s+took)|warning\s+notices?)\b/gi, "enforcement"],
    [/\bbreach(?:es)?\s+of\s+(?:the\s+)?(?:legal\s+)?regulations?\b(?=\s*\n)/gi, "breaches"],
  ] as const)
    for (const m of stream.matches(re)) {
      // A table's heading starts its line ("Enforcement actions", "Requirement notices"); "action we have told the
      // provider to take" may run on from the line before it in a PDF.
      if (
        !/^action/i.test(m[0]) &&
        !/^\s*$/.test(stream.before(m.index, 2)) &&
        !/\(\s*$/.test(stream.text.slice(m.index + m[0].length, m.index + m[0].length + 2))
      )
        continue;
      const after = stream.text.slice(m.index + m[0].length, m.index + m[0].length + 400);
      if (!confirm(after)) continue;
      // "Please see the action we have told the provider to take at the end of this report": a pointer, not the table.
      if (/\bsee\s+the\s*$|\bat\s+the\s+end\b/i.test(stream.before(m.index, 20)) || /^\s+at\s+the\s+end\b/i.test(after)) continue;
      labels.push({ kind, at: m.index });
    }
  labels.sort((x, y) => x.at - y.at);
  // A table runs to the next one, and not much further (an appendix or glossary after it is not the table).
  const regions = labels.map((l, i) => ({ kind: l.kind, a: l.at, b: Math.min(labels[i + 1]?.at ?? stream.text.length, l.at + 6000) }));
  regionsOf.set(stream, regions);
  return regions;
}

const KIND_CUES: [EnforcementKind, RegExp][] = [
  ["warning_notice", /\bwarning\s+notices?\b/i],
  [
    "condition",
    /\bconditions?\b[^.]{0,60}\bregistration\b|\bimpos\w*\s+(?:urgent\s+|positive\s+)?conditions?\b|\burgent\s+conditions?\b|\bnotice\s+of\s+decision\s+to\s+(?:impose|vary)/i,
  ],
  ["cancellation", /\bcancel(?:led|lation|ling)?\b[^.]{0,60}\bregistration\b|\bnotice\s+of\s+proposal\s+to\s+cancel\b/i],
  ["suspension", /\bsuspen(?:d|ded|sion)\b[^.]{0,60}\bregistration\b|\burgent\s+suspension\b/i],
  ["fixed_penalty", /\b(?:fixed\s+)?penalty\s+notice\b|\bfixed\s+penalty\b/i],
  ["prosecution", /\bprosecut(?:ed|ion|e)\b|\bpleaded\s+guilty\b/i],
  ["special_measures", /\bspecial\s+measures\b/i],
  ["requirement_notice", /\brequirement\s+notices?\b/i],
];

/** A sentence saying action was taken (not explaining what could happen). */
const PROSE_ACTION: [EnforcementKind, RegExp][] = [
  [
    "warning_notice",
    /\b(?:issued|served|serve|issue|sent|gave)\b[^.]{0,60}\bwarning\s+notices?\b|\bwarning\s+notices?\b[^.]{0,40}\b(?:was|were|has\s+been|have\s+been|had\s+been)\s+(?:issued|served)\b|\brequirements?\s+of\s+(?:the|a|our)\s+warning\s+notice/i,
  ],
  ["requirement_notice", /\b(?:issued|served|issue)\b[^.]{0,40}\brequirement\s+notices?\b/i],
  [
    "condition",
    /\b(?:impos(?:e|ed|ing)|placed|added|varied)\b[^.]{0,80}\bconditions?\b[^.]{0,40}\bregistration\b|\bconditions?\s+(?:were|was|have\s+been|has\s+been)\s+(?:imposed|placed)\b|\bimposed\s+(?:urgent\s+|positive\s+)?conditions?\b|\bnotice\s+of\s+decision\s+to\s+(?:impose|vary)\s+(?:a\s+|the\s+)?conditions?/i,
  ],
  [
    "special_measures",
    /\b(?:placed|place|put|is|are|was|remains?|remained|being|kept|therefore|come|came|taken|no\s+longer)\s+(?:\w+\s+){0,3}?(?:in|out\s+of)\s+['‘"“]?special\s+measures/i,
  ],
  ["suspension", /\bsuspen(?:d|ded|sion)\b[^.]{0,60}\bregistration\b|\burgent\s+suspension\b/i],
  ["cancellation", /\b(?:cancel(?:led|lation)?|proposed\s+to\s+cancel|proposal\s+to\s+cancel)\b[^.]{0,60}\bregistration\b/i],
  ["fixed_penalty", /\b(?:issued|served|paid|accepted|gave)\b[^.]{0,40}\b(?:fixed\s+penalty(?:\s+notices?)?|penalty\s+notices?)\b/i],
  ["prosecution", /\b(?:prosecuted|successfully\s+prosecuted|brought\s+a\s+prosecution|pleaded\s+guilty|convicted)\b/i],
  ["other", /\bwe\s+(?:took|have\s+taken|are\s+taking|took\s+urgent)\s+(?:urgent\s+)?enforcement\s+action\b|\bissued\s+a\s+(?:simple\s+)?caution\b/i],
];
const PREVIOUS_ACTION =
  /\b(?:last|previous)\s+(?:inspection|assessment)\b|\bprevious(?:ly)?\b|\bhad\s+(?:been\s+)?(?:met|complied)\b|\bno\s+longer\s+(?:in|rated)\b|\b(?:come|came|taken)\s+out\s+of\b|\bto\s+check\s+(?:whether|that|if)\b/i;

function readBreachesAndEnforcement(stream: Stream, reading: Reading): { breaches: (Breach & { at: number })[]; enforcement: Enforcement[] } {
  const breaches: (Breach & { at: number })[] = [];
  const addBreach = (reg: string, set2009: boolean, at: number, evidence: () => Evidence) => {
    const regulations = set2009 ? "CQC (Registration) Regulations 2009" : "HSCA RA Regulations 2014";
    if (breaches.some((b) => b.regulation === reg && b.regulations === regulations)) return;
    breaches.push({ regulation: reg, regulations, title: (set2009 ? REG_2009_TITLES : REG_2014_TITLES)[reg] ?? null, evidence: evidence(), at });
  };
  const actions: (Enforcement & { at: number })[] = [];
  const regions = legalRegions(stream);
  const inRegion = (offset: number) => regions.some((r) => offset >= r.a && offset < r.b);

  // The prose: breach sentences and sentences saying action was taken.
  for (const item of stream.items) {
    const s = item.sentence;
    if (!s || inRegion(item.start) || LEGEND.test(s.text)) continue;
    if (BREACH_CUE.test(s.text) && (!BREACH_PAST.test(s.text) || BREACH_STILL.test(s.text)) && !conditional(s.text, BREACH_CUE)) {
      let regs = regulationsIn(s.text);
      if (
        !regs.length &&
        /\bbreach/i.test(s.text) &&
        /\b(?:in\s+relation\s+to|relating\s+to|regarding|about|of\s+the\s+regulations?\s+(?:for|on))\b/i.test(s.text)
      )
        regs = TITLE_TO_REG.filter(([re]) => re.test(s.text)).map(([, reg]) => ({ reg, set2009: false }));
      for (const { reg, set2009 } of regs) addBreach(reg, set2009, item.start, () => citeSentence(reading, s));
    }
    for (const [kind, re] of PROSE_ACTION) {
      if (!re.test(s.text) || conditional(s.text, re)) continue;
      const previous = PREVIOUS_ACTION.test(s.text);
      const regs = regulationsIn(s.text).filter((r) => !r.set2009);
      const evidence = citeSentence(reading, s, re);
      if (!regs.length) actions.push({ kind, regulation: null, previous, evidence, at: item.start });
      for (const r of regs) actions.push({ kind, regulation: r.reg, previous, evidence, at: item.start });
    }
  }

  // The legal tables: each "Regulation N …" row a breach, and a requirement notice or the enforcement the row says.
  for (const r of regions) {
    const rows: { reg: string; set2009: boolean; at: number; end: number }[] = [];
    for (const m of stream.matches(/\bRegulation\s+(\d{1,2}A?)\b([^\n]{0,90})/gu, r.a, r.b)) {
      const set2009 = /Registration|2009/i.test(m[2]);
      if (rows.some((x) => x.reg === m[1] && x.set2009 === set2009)) continue;
      if (/^\s*(?:of\s+the|HSCA|\(|Registration|CQC|[A-Z])/u.test(m[2]) || /^\s*$/.test(m[2]))
        rows.push({ reg: m[1], set2009, at: m.index, end: m.index + m[0].length });
    }
    rows.forEach((row, i) => {
      const evidence = () => stream.evidence(row.at, stream.lineEnd(row.at, 200));
      addBreach(row.reg, row.set2009, row.at, evidence);
      if (r.kind === "breaches") return;
      let kind: EnforcementKind = "requirement_notice";
      let at = row.at;
      let b = row.end;
      if (r.kind === "enforcement") {
        const segEnd = rows[i + 1]?.at ?? r.b;
        const seg = stream.text.slice(row.at, segEnd);
        const took = /(?:the\s+)?enforcement\s+action\s+we\s+took\s*:?/i.exec(seg);
        const cueText = took ? seg.slice(took.index) : seg;
        const cue = KIND_CUES.find(([, re]) => re.test(cueText));
        kind = cue?.[0] ?? "other";
        if (took) {
          at = row.at + took.index;
          // "The enforcement action we took:" and the line after it.
          const labelEnd = at + took[0].length;
          b = Math.min(
            stream.lineEnd(/^\s*\n/.test(stream.text.slice(labelEnd, labelEnd + 2)) ? stream.text.indexOf("\n", labelEnd) + 1 : labelEnd, 240),
            segEnd,
          );
        }
      }
      const ev = at === row.at ? evidence() : { ...stream.evidence(at, b) };
      if (at !== row.at) stream.evidence(row.at, row.end);
      actions.push({ kind, regulation: row.reg, previous: false, evidence: ev, at: row.at });
    });
  }

  // One entry per kind, regulation and time; a notice without its regulation dropped where the same one has it.
  actions.sort((x, y) => x.at - y.at);
  const kept: (Enforcement & { at: number })[] = [];
  for (const e of actions) {
    if (kept.some((k) => k.kind === e.kind && k.regulation === e.regulation && k.previous === e.previous)) continue;
    kept.push(e);
  }
  const enforcement = kept
    .filter((e) => e.regulation !== null || !kept.some((k) => k.kind === e.kind && k.previous === e.previous && k.regulation !== null))
    .map(({ at: _at, ...e }) => e);
  return { breaches: breaches.sort((x, y) => x.at - y.at), enforcement };
}

// ---------------------------------------------------------------------------------------------------------------------
// Strengths and concerns

const SUMMARY_HEADING =
  /summary|people['’]s\s+experience|our\s+view\s+of\s+the\s+service|what\s+we\s+found|about\s+the\s+service|key\s+findings|five\s+questions|areas?\s+for\s+improvement|what\s+people\s+told\s+us|overview|findings/i;
const BOILERPLATE =
  /^(?:we\s+always\s+ask|details\s+are\s+in\s+our|\w[\w\s-]*\s+[–-]\s+this\s+means\s+we\s+looked|this\s+section\s+is\s+primarily|the\s+table\s+below|full\s+information\s+about\s+cqc|you\s+can\s+see\s+what\s+action|we\s+will\s+(?:continue|meet|check|request|work|return|keep)|please\s+see|for\s+more\s+details|more\s+information\s+is\s+in|why\s+we\s+inspected|follow\s+up|inspection\s+team|notice\s+of\s+inspection|this\s+inspection\s+was\s+(?:un)?announced|we\s+carried\s+out\s+this\s+inspection\s+under|the\s+service\s+had\s+a\s+manager\s+registered|this\s+means\s+that\s+they\s+and\s+the\s+provider|a\s+registered\s+manager\s+is\s+a\s+person|people\s+in\s+care\s+homes\s+receive|cqc\s+regulates|services\s+in\s+special\s+measures|the\s+expectation\s+is\s+that|the\s+service\s+will\s+be\s+kept\s+under\s+review|this\s+was\s+a\s+planned\s+inspection|the\s+last\s+rating|rating\s+at\s+last|this\s+key\s+question\s+has|this\s+meant\s|if\s+not\s+enough\s+improvement|the\s+rating\s+(?:for\s+this\s+service\s+)?has\s+changed)/i;
/** A SAF quality statement's score line run into its first sentence ("Score: 3 - Evidence shows a good standard People were …"). */
const SCORE_PREFIX =
  /^score\s*:?\s*[1-4]\s*[-–—:]?\s*(?:evidence\s+shows\s+(?:an?\s+)?(?:exceptional|good|some|significant)\s+(?:standard|shortfalls)\s*[.:]?\s*)?/i;
/** A sentence about an earlier rating ("The service was previously rated Good") is neither a strength nor a concern. */
const EARLIER_RATING = /\b(?:previously|last|previous|prior)\b[^.]{0,60}\brated\b|\brated\b[^.]{0,40}\b(?:previously|at\s+(?:our|the)\s+last)\b/i;
const CONCERN_CUE =
  /\bnot\s+(?:always|consistently|effectively|safely|robust|adequately|sufficiently|properly|in\s+place|being\s+met|met|followed|managed|assessed|recorded|identified|reviewed|protected|safe|available|supported|up\s+to\s+date|accurate|complete|clear|enough|well)\b|\b(?:did|does|do|was|were|had|has|have|could|is|are)\s+not\s+(?:always\s+)?(?:have|receive|follow|identify|ensure|record|assess|manage|protect|meet|know|provide|match|been|effective|safe|robust|operated|established|in\s+place)\b|\b(?:failed|failure|failing)\s+to\b|\bbreach(?:es|ed)?\b|\bunsafe\b|\bpoor(?:ly)?\b|\binsufficient\b|\black(?:ed|ing)?\b|\bshortfalls?\b|\b(?:at|of)\s+(?:high\s+)?risk\s+of\s+(?:avoidable\s+)?harm\b|\bexposed\s+to\b|\bimprovements?\s+(?:were|was|is|are)\s+(?:needed|required)\b|\bneeds?\s+to\s+improve\b|\bineffective\b|\binconsistent(?:ly)?\b|\bout\s+of\s+date\b|\bincomplete\b|\bmissed\b|\blate\s+calls?\b|\bconcerns?\s+(?:about|were|regarding|with)\b|\bwarning\s+notice\b|\bspecial\s+measures\b|\bunder[\s-]?staff|\bnot\s+enough\s+staff\b|\bwait(?:ed|ing)?\s+(?:a\s+long\s+time|too\s+long|for\s+long)|\bdelay(?:s|ed)\b/i;
const STRENGTH_CUE =
  /\bfelt\s+safe\b|\bkind(?:ness|ly)?\b|\bcaring\b|\bcompassion(?:ate)?\b|\bdignity\b|\brespect(?:ed|ful)?\b|\bgood\b|\bwell[\s-](?:led|managed|trained|supported|maintained|organised)\b|\bpraised\b|\bcomplimentary\b|\bhappy\b|\benjoyed\b|\bexcellent\b|\boutstanding\b|\bexceptional\b|\bpositive\b|\bpersonali[sz]ed\b|\bperson[\s-]centred\b|\bpatient\s+and\b|\bapproachable\b|\binvolved\s+in\b|\bmanaged\s+safely\b|\bsafely\b|\beffective(?:ly)?\b|\bwelcoming\b|\bresponsive\b|\bknew\s+(?:them|people|how)\b|\breceived\s+(?:regular\s+)?(?:training|supervision)\b|\bwere\s+(?:trained|supported)\b|\b(?:enough|sufficient)\s+(?:numbers\s+of\s+)?staff\b|\bthe\s+service\s+was\s+(?:safe|effective|caring|responsive|well[\s-]led)\b/i;
const NEGATION = /\bnot\b|n['’]t\b|\bnever\b|\bno\s+longer\b|\bhowever\b|\bbut\b/i;

function strengthsAndConcerns(stream: Stream, reading: Reading, breachEvidence: Evidence[]): { strengths: Evidence[]; concerns: Evidence[] } {
  const regions = legalRegions(stream);
  const ratingLine = new RegExp(`${KQ_QUESTION.source}|${OVERALL.source}`, "i");
  const textOf = (s: DocSentence) => s.text.replace(/^[•▪●◦■\-–*]\s*/u, "").replace(SCORE_PREFIX, "");
  const candidates = (inSummary: boolean) =>
    stream.items.filter((it) => {
      const s = it.sentence;
      if (!s || regions.some((r) => it.start >= r.a && it.start < r.b)) return false;
      if (inSummary && !(s.section && SUMMARY_HEADING.test(s.section))) return false;
      const t = textOf(s).replace(/^(?:[\p{Lu}][\p{L}'’ ]{2,60}:\s+)/u, ""); // "People's experience of using this service: …"
      const words = t.split(/\s+/).length;
      return (
        words >= 4 &&
        words <= 70 &&
        /[.!"”’)]$/.test(t) && // a sentence, not a table cell or a list of specialisms
        !BOILERPLATE.test(t) &&
        !LEGEND.test(t) &&
        !HYPOTHETICAL.test(t) &&
        !EARLIER_RATING.test(t) &&
        !ratingLine.test(s.text) &&
        !/^\p{Lu}[\p{L}\s-]+:\s*this\s+meant\b/iu.test(t)
      );
    });
  // The summary's sentences first; the rest of the report fills the lists up to five each.
  const summary = candidates(true);
  const rest = candidates(false).filter((it) => !summary.includes(it));
  const strengths: Evidence[] = [];
  const concerns: Evidence[] = breachEvidence.slice(0, 10);
  const has = (list: Evidence[], q: string) => list.some((e) => e.quote === q);
  const quoted = (s: DocSentence): Evidence => {
    const e = citeSentence(reading, s);
    const t = textOf(s);
    return t === s.text ? e : { ...e, quote: redactQuote(reading, quoteOf(t)) };
  };
  const take = (pool: Item[], maxStrengths: number, maxConcerns: number) => {
    for (const it of pool) {
      const s = it.sentence!;
      const t = textOf(s);
      const list = CONCERN_CUE.test(t) ? concerns : STRENGTH_CUE.test(t) && !NEGATION.test(t) ? strengths : null;
      if (!list || list.length >= (list === concerns ? maxConcerns : maxStrengths)) continue;
      if (!has(list, redactQuote(reading, quoteOf(t)))) list.push(quoted(s));
    }
  };
  take(summary, 8, 10);
  take(rest, Math.max(5, strengths.length), Math.max(5, concerns.length));
  return { strengths, concerns };
}

// ---------------------------------------------------------------------------------------------------------------------
// The format

const CQC_MENTION = /care\s+quality\s+commission|\bCQC\b/i;

/** A document that is not a CQC report or page: every field "couldn't tell", nothing quoted. */
function notCqc(formatNote: string): CqcReport {
  const no = <T>(): Fact<T> => notFound("Not read: the document is not recognisably a CQC inspection report, assessment report or location page.");
  return {
    format: "unknown",
    formatNote,
    service: { name: no(), locationId: no(), type: no(), address: no() },
    provider: { name: no(), providerId: no() },
    registeredManager: no(),
    overallRating: no(),
    keyQuestions: { safe: no(), effective: no(), caring: no(), responsive: no(), wellLed: no() },
    qualityStatements: [],
    inspectionDates: no(),
    publicationDate: no(),
    reportAgeMonths: null,
    ratingChange: no(),
    strengths: [],
    concerns: [],
    breaches: [],
    enforcement: [],
    facts: [],
  };
}

function formatOf(reading: Reading): { format: CqcFormat; note: string } {
  const t = reading.doc.text;
  const cqc = CQC_MENTION.test(t) || CQC_MENTION.test(reading.doc.title ?? "");
  const keyQuestions = (t.match(/\b(?:is|are)\s+(?:the\s+)?services?\s+(?:safe|effective|caring|responsive|well[\s-]led)\?/gi) ?? []).length;
  const page = { format: "location_page" as const, note: "A service's page on the CQC's site (provided and run by, ratings, latest inspection)." };
  if (reading.doc.kind === "html" && /care\s+quality\s+commission|\bCQC\b/i.test(reading.doc.title ?? "")) return page;
  if (
    /\bquality\s+statements?\b|\bassessment\s+report\b|\bour\s+view\s+of\s+the\s+service\b|\bassessment\s+activity\s+(?:started|began)\b|\bsingle\s+assessment\s+framework\b|\bscore\s*:?\s*[1-4]\b[^\n]{0,40}evidence\s+shows/i.test(
      t,
    )
  )
    return {
      format: "assessment_report",
      note: "An assessment report of the CQC's single assessment framework (late 2023 on): key questions rated, quality statements scored 1–4.",
    };
  if (/\bprovided\s+and\s+run\s+by\b/i.test(t)) return page;
  if (
    keyQuestions >= 2 ||
    /\binspection\s+report\b[\s\S]{0,2000}\b(?:overall\s+rating|date\s+of\s+inspection)/i.test(t) ||
    (cqc && /\bsummary\s+of\s+findings\b|\bour\s+findings\b|\boverall\s+rating\s+for\s+this\s+service\b/i.test(t))
  )
    return {
      format: "inspection_report",
      note: "A CQC inspection report of the rated inspections (2014–2023): the ratings table, summary of findings, the five key questions and any action told to the provider.",
    };
  return {
    format: "unknown",
    note: cqc
      ? "The document mentions the CQC but does not read as a CQC inspection report, assessment report or location page (no ratings table, key questions or CQC landmarks were found): nothing was read from it."
      : "This does not look like a CQC inspection report, assessment report or location page (no CQC ratings, key questions or landmarks were found): nothing was read from it.",
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// The reader

export function readCqcReport(reading: Reading, opts: { today: string }): CqcReport {
  const stream = new Stream(reading);
  const { overall, keyQuestions } = readRatings(stream);
  const kqFound = KEY_QUESTIONS.filter((k) => keyQuestions[k].value).length;
  let { format, note: formatNote } = formatOf(reading);
  if (format === "unknown" && ((overall.value && kqFound >= 1) || kqFound >= 3 || (CQC_MENTION.test(reading.doc.text) && (overall.value || kqFound)))) {
    format = "inspection_report";
    formatNote = "Read as a CQC inspection report from its ratings (the document's other landmarks were not found: it may be an extract).";
  }
  // A landmark alone ("assessment report", "inspection report") in a document with no CQC mention, no rating and no
  // scored quality statement is not enough: a risk assessment report is not a CQC report.
  const qualityStatements = readQualityStatements(stream);
  const cqcLike =
    CQC_MENTION.test(reading.doc.text) || CQC_MENTION.test(reading.doc.title ?? "") || overall.value !== null || kqFound > 0 || qualityStatements.length > 0;
  if (format !== "unknown" && !cqcLike) {
    format = "unknown";
    formatNote = "The document has none of a CQC report's ratings, key questions or quality statements and does not mention the CQC: nothing was read from it.";
  }
  stream.release(format !== "unknown");
  if (format === "unknown") return notCqc(formatNote);

  const serviceName = readServiceName(stream, reading);
  const nameAt = serviceName.value ? stream.text.indexOf(serviceName.value) : -1;
  const service = {
    name: serviceName,
    locationId: readLocationId(stream),
    type: readServiceType(stream, serviceName.value),
    address: readAddress(stream, nameAt >= 0 ? nameAt : null),
  };
  const provider = readProvider(stream, serviceName.value);
  const registeredManager = readRegisteredManager(stream);
  const inspectionDates = readInspectionDates(stream, opts.today);
  const publicationDate = readPublicationDate(stream, opts.today);
  const ratingChange = readRatingChange(stream, overall.value?.rating ?? null);
  const { breaches: rawBreaches, enforcement } = readBreachesAndEnforcement(stream, reading);
  const breaches = rawBreaches.map(({ at: _at, ...b }) => b);
  const breachEvidence = breaches.filter((b) => b.evidence.quote.length > 40 && !/^Regulation\s+\d/.test(b.evidence.quote)).map((b) => b.evidence);
  const uniqueBreachEvidence = breachEvidence.filter((e, i) => breachEvidence.findIndex((x) => x.quote === e.quote) === i);
  const { strengths, concerns } = strengthsAndConcerns(stream, reading, uniqueBreachEvidence);

  const dated = publicationDate.value ?? inspectionDates.value?.to ?? null;
  const reportAgeMonths = dated && dated <= opts.today ? monthsBetween(dated, opts.today) : null;

  const report: Omit<CqcReport, "facts"> = {
    format,
    formatNote,
    service,
    provider,
    registeredManager,
    overallRating: overall,
    keyQuestions,
    qualityStatements,
    inspectionDates,
    publicationDate,
    reportAgeMonths,
    ratingChange,
    strengths,
    concerns,
    breaches,
    enforcement,
  };
  return { ...report, facts: factsOf(report) };
}

const KIND_WORDS: Record<EnforcementKind, string> = {
  warning_notice: "a warning notice",
  requirement_notice: "a requirement notice",
  condition: "conditions on registration",
  special_measures: "special measures",
  suspension: "suspension of registration",
  cancellation: "cancellation of registration",
  fixed_penalty: "a fixed penalty notice",
  prosecution: "a prosecution",
  other: "other enforcement action",
};

/** Plain-English sentences, one fact each, from the fields only. */
function factsOf(r: Omit<CqcReport, "facts">): string[] {
  const facts: string[] = [];
  const s = r.service;
  if (s.name.value) {
    const extra = [s.type.value, s.locationId.value ? `CQC location ${s.locationId.value}` : null].filter(Boolean).join(", ");
    facts.push(`Service: ${s.name.value}${extra ? ` (${extra})` : ""}.`);
  } else if (s.type.value) facts.push(`Type of service: ${s.type.value}.`);
  if (r.provider.name.value)
    facts.push(`Provider: ${r.provider.name.value}${r.provider.providerId.value ? ` (CQC provider ${r.provider.providerId.value})` : ""}.`);
  const dates = r.inspectionDates.value;
  const when = dates ? (dates.from === dates.to ? `inspected ${fmtDate(dates.from)}` : `inspected ${fmtDate(dates.from)} to ${fmtDate(dates.to)}`) : null;
  const pub = r.publicationDate.value ? `published ${fmtDate(r.publicationDate.value)}` : null;
  const context = [when, pub].filter(Boolean).join(", ");
  if (r.overallRating.value) facts.push(`Overall rating: ${r.overallRating.value.rating}${context ? ` (${context})` : ""}.`);
  else if (context) facts.push(`Report ${context}.`);
  const kq = KEY_QUESTIONS.filter((k) => r.keyQuestions[k].value).map((k) => `${KEY_QUESTION_NAME[k]}: ${r.keyQuestions[k].value!.rating}`);
  if (kq.length) facts.push(`Key questions — ${kq.join("; ")}.`);
  if (r.qualityStatements.length) {
    const low = r.qualityStatements.filter((q) => q.score <= 2);
    facts.push(
      `${r.qualityStatements.length} quality statement${r.qualityStatements.length === 1 ? "" : "s"} scored${low.length ? `; scored 1 or 2: ${low.map((q) => `${q.name} (${q.score})`).join(", ")}` : ""}.`,
    );
  }
  const rc = r.ratingChange.value;
  if (rc) {
    const since = rc.previousPublished ? ` (published ${fmtDate(rc.previousPublished)})` : "";
    const dir =
      rc.direction === "improved"
        ? "the rating has improved"
        : rc.direction === "declined"
          ? "the rating has gone down"
          : rc.direction === "unchanged"
            ? "the rating is unchanged"
            : null;
    facts.push(`Previous rating: ${rc.previous}${since}${dir ? `; ${dir}` : ""}.`);
  }
  if (r.breaches.length)
    facts.push(
      `Breaches of regulation: ${r.breaches.map((b) => `regulation ${b.regulation}${b.title ? ` (${b.title})` : ""}${b.regulations.includes("2009") ? " of the Registration Regulations 2009" : ""}`).join(", ")}.`,
    );
  const current = r.enforcement.filter((e) => !e.previous);
  if (current.length)
    facts.push(`Enforcement: ${current.map((e) => `${KIND_WORDS[e.kind]}${e.regulation ? ` (regulation ${e.regulation})` : ""}`).join("; ")}.`);
  const earlier = r.enforcement.filter((e) => e.previous);
  if (earlier.length) facts.push(`Earlier enforcement mentioned: ${earlier.map((e) => KIND_WORDS[e.kind]).join("; ")}.`);
  if (r.registeredManager.value === false) facts.push("There was no registered manager.");
  else if (r.registeredManager.value === true) facts.push("There was a registered manager.");
  return facts;
}
