/**
 * The carbon reduction plan check (issue 17 §4, SPEC §2.4 and §4.4): a supplier's Carbon Reduction Plan judged against
 * the government template (PPN 06/21, now PPN 006 under the Procurement Act 2023) — the eight parts the template asks
 * for, each found, not found, or "couldn't tell", with the passage it rests on.
 *
 * It judges the completeness of form only, never whether the figures are right (SPEC §1 rule 5): a Scope 1 figure of
 * "0" with a reason is a Scope 1 figure.
 *
 * How a part is shown (SPEC §2.4 leaves "couldn't tell" open): `{ found, status, note, evidence }` where `found` is
 * true only when `status` is "found"; "couldn't tell" is `found: false` with `status: "couldnt_tell"` and a note
 * starting "Couldn't tell:" (a plan dated only by its year; figures without units; a document that is not a plan).
 *
 * How it reads: the document's headings and sentences are laid end to end as one stream, each piece tagged with the
 * template zone it sits in (commitment, baseline, current year, targets, projects, declaration), from the headings the
 * template gives a plan and the labels it uses ("Baseline Year:", "Reporting Year:"). Table cells (a web page's table,
 * a PDF's table lines) are read across pieces ("Scope 2" then "0.39"). Figures are looked for in the emissions zones,
 * not in targets or projects ("reduce scope 1 and 2 emissions to zero by 2030" is a target, not a figure), and Scope 3
 * categories are counted where emissions are reported, not where they are said to be excluded or not yet measured.
 *
 * Decisions:
 * - The plan date is the publication date when labelled ("Publication date:", "Published"), else the sign-off date,
 *   else a "Date:" label, else a date in the plan's opening lines. A month alone ("March 2026") is taken as the month's
 *   last day, and says so; `updatedWithinYear` is then "couldn't tell" when the answer would differ between the
 *   month's first and last day. A year alone gives no plan date (`value` null); `updatedWithinYear` is still judged
 *   when the whole year is inside, or outside, the last 12 months.
 * - Net zero by 2050 or earlier counts (2035 counts); carbon neutral is not net zero; a net-zero year after 2050 is not
 *   found; net zero without a year is "couldn't tell".
 * - `scope3Categories` is found only when categories 4, 5, 6, 7 and 9 are all reported (by number or name); a category
 *   reported as nil or zero is reported; one said to be excluded, not measured or missing is not.
 * - `directorSignOff`: the signer's role decides when it is given (a director, a chief officer, the chair, a partner,
 *   a designated member, the owner or founder count; a manager, a company secretary or "Head of …" do not); when no
 *   role is given, a statement that the board of directors signed it off counts. The signer's name is never output:
 *   names in the sign-off block are replaced by "[name]" in every quote.
 * - Whose plan (issue 28 §3): the organisation the plan names and the company number it gives beside that name (never
 *   the number of the consultant who prepared it) are compared with what a page of the supplier's site says about who
 *   runs it (compareOrganisation; the rule is in its comment and in crp-check's description). A plan of another
 *   organisation is never presented as the supplier's.
 *
 * Pure: `today` is passed in.
 */
import { GENERIC_WORDS, normaliseNameCore } from "../matching/names";
import { findName, statedCompanyNumbers } from "../web/disclosures";
import type { DocSection, DocSentence } from "./document";
import { type Evidence, type Fact, found as foundFact, notFound, quoteOf, type Reading } from "./evidence";
import { redactNames } from "./names";
import { datesIn } from "./values";

export const CRP_PARTS = [
  "netZeroBy2050",
  "baselineYearEmissions",
  "currentYearEmissions",
  "scope1and2",
  "scope3Categories",
  "reductionProjects",
  "directorSignOff",
  "updatedWithinYear",
] as const;
export type CarbonPlanPartKey = (typeof CRP_PARTS)[number];
export type CarbonPlanPartStatus = "found" | "not_found" | "couldnt_tell";

export interface CarbonPlanPart {
  /** True only when `status` is "found". */
  found: boolean;
  status: CarbonPlanPartStatus;
  /** What was found, or why not; starts "Couldn't tell:" when status is couldnt_tell. */
  note: string;
  evidence: Evidence | null;
}

export interface CarbonPlanReport {
  /** The supplier's name. */
  company: Fact<string>;
  /** The company number the plan gives for the organisation it names (beside its name or in its opening); null when none. */
  companyNumber: Fact<string>;
  /** The plan's publication (or sign-off) date, YYYY-MM-DD. */
  planDate: Fact<string>;
  parts: Record<CarbonPlanPartKey, CarbonPlanPart>;
  /** Scope 3 category numbers reported (of 1–15), as strings, in numeric order. */
  scope3Found: string[];
  partsMet: number;
  partsTotal: 8;
  meetsTemplate: boolean;
  /** One per part not found, in words a bid writer can act on. */
  gaps: string[];
  /** A plain-language paragraph built from the parts. */
  reading: string;
  facts: string[];
}

/** The five Scope 3 categories the template requires. */
export const REQUIRED_SCOPE3 = ["4", "5", "6", "7", "9"] as const;

/** The parts in words (the reading, the facts). */
const LABEL: Record<CarbonPlanPartKey, string> = {
  netZeroBy2050: "Net zero by 2050",
  baselineYearEmissions: "Baseline year emissions",
  currentYearEmissions: "Current year emissions",
  scope1and2: "Scope 1 and 2",
  scope3Categories: "Scope 3 categories 4, 5, 6, 7 and 9",
  reductionProjects: "Carbon reduction projects",
  directorSignOff: "Director sign-off",
  updatedWithinYear: "Updated within a year",
};

/** What the template asks for, said plainly (the reading's "missing" list). */
const ASK: Record<CarbonPlanPartKey, string> = {
  netZeroBy2050: "a commitment to net zero by 2050",
  baselineYearEmissions: "baseline year emissions in tCO2e",
  currentYearEmissions: "current year emissions in tCO2e",
  scope1and2: "Scope 1 and Scope 2 figures",
  scope3Categories: "Scope 3 categories 4, 5, 6, 7 and 9",
  reductionProjects: "carbon reduction projects",
  directorSignOff: "sign-off by a director",
  updatedWithinYear: "an update within the last 12 months",
};

const SCOPE3_NAMES: Record<string, string> = {
  "1": "purchased goods and services",
  "2": "capital goods",
  "3": "fuel- and energy-related activities",
  "4": "upstream transportation and distribution",
  "5": "waste generated in operations",
  "6": "business travel",
  "7": "employee commuting",
  "8": "upstream leased assets",
  "9": "downstream transportation and distribution",
  "10": "processing of sold products",
  "11": "use of sold products",
  "12": "end-of-life treatment of sold products",
  "13": "downstream leased assets",
  "14": "franchises",
  "15": "investments",
};

// ---------------------------------------------------------------------------------------------------------------
// Patterns

/**
 * A phrase as a pattern tolerant of the way PDFs and people write it: "and" or "&", hyphens or spaces, and an "f"
 * followed by a stray space (PDF text extraction splits the "fi"/"ff" ligatures: "of f ice", "lif e").
 */
const phrase = (p: string): string =>
  p
    .split(/\s+/)
    .map((w) =>
      w === "and"
        ? "(?:and|&)"
        : w
            .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
            .replace(/-/g, "[\\s-]*")
            .replace(/f/g, "f ?"),
    )
    .join("[\\s-]+");

/** Emissions units: tCO2e and its spellings (tCO₂e is normalised first). */
const UNITS_SRC = String.raw`(?:\b(?:t|kg|kt|mt)\s?co\s?2\s?-?\s?e(?:q(?:uivalent)?)?\b|\btonnes?\s+(?:of\s+)?(?:co\s?2\s?-?\s?e(?:q(?:uivalent)?)?\b|carbon\s+dioxide\s+equivalent))`;
const UNITS = new RegExp(UNITS_SRC, "i");
const NUM = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`;
const NUM_UNITS = new RegExp(String.raw`(?:<\s?)?(?:${NUM}|nil|zero)\s*${UNITS_SRC}`, "gi");
/** A Scope row: "Scope 1 0.7", "Scope1: 12.4 tCO2e", "SCOPE 2 (location-based) 8.1", "Scope 2 Market-based: 1.858", "Scope 1. Nil." */
const SCOPE_ROW = new RegExp(
  String.raw`\bscope\s?([123])\b(?:\s*\([^)]{0,40}\))?(?:\s*[-–:]?\s*(?:emissions|total|market[\s-]?based|location[\s-]?based|direct|indirect|\(?${UNITS_SRC}\)?)){0,3}\s*[-–:=.]?\s*(?:<\s?)?(nil|zero|none|${NUM})(?!\s*%)(?![\d/])`,
  "gi",
);
/** Scope 1 and 2 given together: "Scope 1 and Scope 2 emissions are currently reported as zero", "Scope 1 & 2: 4.1 tCO2e". */
const SCOPE12_TOGETHER = new RegExp(
  String.raw`\bscope\s?1\s*(?:and|&|\+|,)\s*(?:scope\s?)?2\b(?:\s*emissions)?(?:\s*\([^)]{0,40}\))?\s*(?:[-–:=]|are|were|is|was|total(?:led)?|of)?\s*(?:currently\s+|both\s+)?(?:reported\s+as\s+|estimated\s+at\s+|calculated\s+as\s+)?(nil|zero|${NUM})(?!\s*%)`,
  "gi",
);
const TOTAL_ROW = new RegExp(String.raw`\btotal(?:\s+emissions)?\s*(?:\(\s*${UNITS_SRC}\s*\))?\s*[:\-–]?\s*(?:market[\s-]?based\s*:?\s*)?${NUM}(?!\s*%)`, "gi");

const YEAR = String.raw`(?:19|20)\d{2}`;
/** A period: "2021", "2025/26", "1 October 2025 - 28 June 2026", "January 2022 – December 2022". */
const PERIOD_END = String.raw`(?:\s*\/\s*\d{2,4})?(?:[^\S\n]*(?:-|–|to|until)[^\S\n]*[^.;\n]{0,25}?\b${YEAR}\b)?`;
/** A period as written, an unclosed bracket cut: "FY2021/22 (1 April 2021 – 31 March 2022" → "FY2021/22". */
const periodText = (s: string) => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.includes("(") && !t.includes(")") ? t.slice(0, t.indexOf("(")).trim() : t;
};
const BASELINE_YEAR = new RegExp(
  String.raw`\bbase(?:line)?\s+(?:year|period)(?:\s+emissions)?[^\S\n]*(?:[:\-–]|\bis\b|\bwas\b|\bof\b|to\s+be|(?:has\s+been\s+)?(?:set|chosen)\s+as)?[^\S\n]*([^.;\n]{0,60}?\b${YEAR}${PERIOD_END})|\b(${YEAR}(?:\s*\/\s*\d{2,4})?)\s+baseline\b|\bbaseline\s*\(\s*(?:fy\s*)?(${YEAR}[^)]{0,12})\)`,
  "i",
);
const REPORTING_YEAR = new RegExp(
  String.raw`\b(?:current\s+)?(?:reporting|report)\s+(?:year|period)[^\S\n]*(?:[:\-–(]|\bis\b|\bwas\b|\bof\b|\bcovers\b)?[^\S\n]*([^.;\n]{0,60}?\b${YEAR}${PERIOD_END})|\bcurrent\s+(?:reporting\s+)?year\s*(?:[:\-–(]|\bis\b|\bwas\b)?\s*([^.;\n]{0,40}?\b${YEAR})`,
  "i",
);
/** The plan saying its current year is its baseline year (a first plan). */
const CURRENT_IS_BASELINE = [
  /\bbaseline\s+year\s+and\s+the\s+current\s+(?:reporting\s+)?year\s+are\s+the\s+same\b/i,
  /\bcurrent\s+(?:reporting\s+)?(?:year|period)\b[^.]{0,160}\b(?:first\s+year|same\s+as|identical|serves?\s+as|will\s+serve\s+as|is\s+also)\b[^.]{0,60}\bbaseline\b/i,
  /\bbaseline\b[^.]{0,80}\b(?:same\s+as|identical\s+to|also)\b[^.]{0,30}\bcurrent\s+(?:reporting\s+)?(?:year|period)\b/i,
  /\bcurrent\s+emissions\s+are\s+(?:identical|the\s+same)\b/i,
];

const NET_ZERO = /\bnet[\s-]?zero\b/i;
const NET_ZERO_YEAR = [
  new RegExp(
    String.raw`\bnet[\s-]?zero\b[^.;]{0,100}?\b(?:by|in|before|no\s+later\s+than|from|until|for)\s+(?:the\s+(?:end\s+of\s+)?(?:year\s+)?)?(${YEAR})\b`,
    "i",
  ),
  new RegExp(String.raw`\bnet[\s-]?zero\s+(?:target|commitment|date|year|ambition|goal)\s*[:\-–]\s*(${YEAR})\b`, "i"),
  new RegExp(String.raw`\b(?:by|in|before)\s+(${YEAR})\b[^.;]{0,60}?\bnet[\s-]?zero\b`, "i"),
  new RegExp(String.raw`\b(${YEAR})\s+net[\s-]?zero\s+(?:target|commitment|goal)\b`, "i"),
];
/** The government department, not a commitment (kept the same length: positions in the stream stay right). */
const DESNZ =
  /\bdepartment\s+(?:for|of)\s+energy\s+security\s+(?:and|&)\s+net[\s-]?zero\b|\bnet[\s-]?zero\s+(?:strategy|review)\b(?=[^.]{0,40}\b(?:government|hm|beis|desnz)\b)/gi;
const CARBON_NEUTRAL = /\bcarbon[\s-]+neutral(?:ity)?\b/i;
/** A sentence about someone else's net zero target (the government's, the country's), not the supplier's. */
const OTHERS_TARGET = /\b(?:government|uk's|the\s+uk\s+(?:is|has)|national|country|legislation|climate\s+change\s+act|ppn\s*0?6\/21|ppn\s*006)\b/i;
const COMMITS =
  /\b(?:commit|pledge|aim|target|will\s+(?:achieve|reach|be|become)|achiev|reach|plan(?:s|ning)?\s+to|goal|ambition|on\s+track|working\s+towards)/i;

const EXCLUDED =
  /\b(?:exclud\w*|not\s+(?:been\s+|yet\s+been\s+|yet\s+)?(?:included|measured|reported|calculated|captured|covered|assessed|quantified)|missing|omitted|not\s+yet|outside\s+(?:the\s+|our\s+)?(?:scope|boundary)|will\s+(?:be\s+)?(?:measured|included|reported)|plan\s+to\s+(?:measure|include|report)|(?:commit|aim)\s+to\s+measur)/i;

/** Board-level roles: a director, chief officer, the chair, a partner, a designated member, the owner or founder. */
const BOARD_ROLE_SRC = String.raw`(?:(?:managing|executive|finance|financial|operations?|operating|technical|technology|sales|commercial|non[\s-]executive|joint|sole|company|group|uk)\s+)?director(?!s)\b(?:\s+of\s+[\p{L} ]{3,30}?(?=\s*(?:$|[,;:\n]|date\b)))?|chief\s+(?:[\p{L}]+\s+){0,3}of\s?f\s?icer|\b(?:ceo|cfo|coo|cto|cio|cso|md)\b|chair(?:man|woman|person)?|president|(?:senior\s+|managing\s+|equity\s+)?partner|designated\s+member|(?:business\s+)?owner|(?:co-?)?founder|proprietor|sole\s+trader`;
/** Roles that are not board-level. Checked before the board roles ("Company Secretary", "Office Manager", "Head of Finance"). */
const OTHER_ROLE_SRC = String.raw`company\s+secretary|(?:associate|assistant|deputy)\s+director|(?:[\p{L}&-]+\s+){0,3}manager|head\s+of\s+[\p{L}&]+(?:\s+[\p{L}&]+){0,2}|(?:[\p{L}&-]+\s+){0,2}(?:of\s?f\s?icer|lead|co-?ordinator|administrator|consultant|analyst|adviser|advisor|secretary|assistant|champion|specialist)`;
/** The chief officers first: "Chief Technology Officer" is not an "… Officer". */
const CHIEF_SRC = String.raw`chief\s+(?:[\p{L}]+\s+){0,3}of\s?f\s?icer|chief\s+executive|\b(?:ceo|cfo|coo|cto|cio|cso)\b`;
/** A role: group 1 a chief officer, group 2 a role that is not board-level, group 3 another board-level role. */
const ROLE = new RegExp(String.raw`\b(?:(${CHIEF_SRC})|(${OTHER_ROLE_SRC})|(${BOARD_ROLE_SRC}))\b`, "iu");
const isBoard = (m: RegExpExecArray) => !m[2];
/** A cheap test before ROLE: a word every role has. */
const ROLE_HINT =
  /director|of\s?f\s?icer|manager|chief|\b(?:ceo|cfo|coo|cto|cio|cso|md)\b|chair|president|partner|member|owner|founder|proprietor|secretary|head\s+of|lead|ordinator|administrator|consultant|analyst|advis|assistant|champion|specialist|trader/i;
const roleIn = (s: string) => (ROLE_HINT.test(s) ? ROLE.exec(s) : null);
const BOARD_SIGNOFF =
  /\b(?:signed\s*o\s?f\s?f|approved|endorsed|agreed|reviewed\s+and\s+(?:signed|approved))\s+(?:by|on\s+behalf\s+of)\s+(?:the\s+|our\s+|its\s+)?(?:(?:(?:uk|company['’]?s?|main|full|group|plc|whole|entire)\s+){0,2}(board(?:\s+of\s+directors)?|directors|director|managing\s+director|chief\s+executive(?:\s+officer)?|ceo|partners|members|owner|management\s+body)|(?:[\p{L}&]+\s+){0,3}?((?:executive|senior\s+(?:management|leadership)|management|leadership)\s+team))\b/iu;
/** Who the declaration says signed it off. */
const bodyOf = (m: RegExpExecArray) => (m[1] ?? m[2]).toLowerCase().replace(/\s+/g, " ");

const PLAN_TITLE = /\bcarbon\s+reduction\s+plan\b|\bnet[\s-]?zero\s+(?:plan|strategy|commitment)\b|\bppn\s*(?:0?6\/21|006)\b/i;

// ---------------------------------------------------------------------------------------------------------------
// The stream: headings and sentences end to end, each tagged with its template zone.

type Zone = "title" | "commitment" | "baseline" | "current" | "targets" | "projects" | "declaration" | null;

interface Piece {
  /** The text as written (quotes). */
  text: string;
  /** The text as matched: table rules, markdown emphasis and links stripped, CO₂ as CO2. */
  norm: string;
  sentence: DocSentence | null;
  heading: DocSection | null;
  section: string | null;
  page: number | null;
  zone: Zone;
  /** A heading, or a sentence shaped like one (a text's heading line the segmenter kept as text). */
  headingLike: boolean;
  /** Position in `Stream.pieces`. */
  index: number;
  start: number;
  end: number;
}

function zoneOfHeading(h: string): Zone | undefined {
  if (/\bdeclaration\b|\bsign(?:ed)?[\s-]*o\s?f\s?f\b|\bapproval\b|\bsignature\b/i.test(h)) return "declaration";
  if (/\bbaseline\b|\bbase\s+year\b/i.test(h)) return "baseline";
  if (/\bcurrent\b|\breporting\s+(?:year|period)\b|\blatest\s+(?:year|emissions)\b/i.test(h)) return "current";
  if (/\btargets?\b/i.test(h)) return "targets";
  if (
    /\bprojects?\b|\binitiatives?\b|\bmeasures\b|\breduction\s+plans\b|\bcompleted\b|\bplanned\b|\bfuture\b|\benvironmental\s+management\b|\bactions?\b|\bwhat\s+we(?:['’]re|\s+are)\s+doing\b|\bhow\s+we(?:['’]ll|\s+will)\s+(?:get|reach|reduce)/i.test(
      h,
    )
  )
    return "projects";
  if (/\bcommitment\b|\bnet[\s-]?zero\b/i.test(h)) return "commitment";
  if (PLAN_TITLE.test(h)) return "title";
  return undefined;
}

function zoneOfSentenceStart(s: string): Zone | undefined {
  if (!/^(?:base|current|reporting|emissions|reduction|declaration|signed)/i.test(s)) return undefined;
  if (/^(?:base(?:line)?\s+(?:year|period|emissions|footprint))\b/i.test(s)) return "baseline";
  if (/^(?:(?:current\s+)?reporting\s+(?:year|period)|current\s+(?:year\s+)?emissions)\b/i.test(s)) return "current";
  if (/^(?:emissions\s+)?reduction\s+targets?\b/i.test(s)) return "targets";
  if (/^(?:declaration\b|signed\s+on\s+behalf\b)/i.test(s)) return "declaration";
  return undefined;
}

const normalise = (s: string) =>
  !/[₂[*_|\u00a0]|\s\s/.test(s)
    ? s.trim()
    : s
        .replace(/₂/g, "2")
        .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
        .replace(/\*\*|__/g, "")
        .replace(/\|\s*:?-{3,}:?\s*(?=\|)/g, " ")
        .replace(/\|/g, " ")
        .replace(/\u00a0/g, " ")
        .replace(/[ \t]+/g, " ")
        .trim();

/** A short capitalised line without a full stop or figures: a heading the segmenter kept as text (a pasted text's). */
const headingShaped = (t: string) => t.length <= 90 && /^\p{Lu}/u.test(t) && !/[.!?:;,]$/.test(t) && t.split(/\s+/).length <= 8 && !/\d/.test(t);

class Stream {
  readonly pieces: Piece[] = [];
  readonly text: string;
  constructor(readonly reading: Reading) {
    const doc = reading.doc;
    let zone: Zone = null;
    let pos = 0;
    const parts: string[] = [];
    const push = (p: Omit<Piece, "start" | "end" | "norm" | "headingLike" | "index">, norm = normalise(p.text)) => {
      if (!norm) return;
      const headingLike = p.heading !== null || headingShaped(norm);
      const piece: Piece = { ...p, norm, headingLike, index: this.pieces.length, start: pos, end: pos + norm.length };
      this.pieces.push(piece);
      parts.push(norm);
      pos += norm.length + 1;
    };
    for (const sec of doc.sections) {
      if (sec.heading) {
        const z = zoneOfHeading(sec.heading);
        if (z !== undefined) zone = z;
        push({ text: sec.heading, sentence: null, heading: sec, section: sec.heading, page: sec.page, zone });
      }
      for (const s of doc.sentences.slice(sec.first, sec.end)) {
        const t = normalise(s.text);
        const z = zoneOfSentenceStart(t) ?? (headingShaped(t) ? zoneOfHeading(t) : undefined);
        if (z !== undefined) zone = z;
        push({ text: s.text, sentence: s, heading: null, section: s.section, page: s.page, zone }, t);
      }
    }
    this.text = parts.join("\n");
  }

  /** The piece a stream position falls in. */
  pieceAt(pos: number): Piece {
    let lo = 0,
      hi = this.pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.pieces[mid].start <= pos) lo = mid;
      else hi = mid - 1;
    }
    return this.pieces[lo];
  }

  /** Every match of a (global) pattern, with the piece it starts in, optionally only in some zones or the first `upTo` characters. */
  matches(re: RegExp, zones?: (z: Zone) => boolean, upTo = Infinity): { m: RegExpExecArray; piece: Piece }[] {
    const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g");
    const out: { m: RegExpExecArray; piece: Piece }[] = [];
    if (!this.pieces.length) return out;
    const text = upTo < this.text.length ? this.text.slice(0, upTo) : this.text;
    for (let m = g.exec(text); m; m = g.exec(text)) {
      if (m[0].length === 0) g.lastIndex++;
      const piece = this.pieceAt(m.index);
      if (!zones || zones(piece.zone)) out.push({ m, piece });
    }
    return out;
  }

  /** The first match (in some zones, within the first `upTo` characters), or null. */
  first(re: RegExp, zones?: (z: Zone) => boolean, upTo = Infinity) {
    const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g");
    if (!this.pieces.length) return null;
    const text = upTo < this.text.length ? this.text.slice(0, upTo) : this.text;
    for (let m = g.exec(text); m; m = g.exec(text)) {
      if (m[0].length === 0) g.lastIndex++;
      const piece = this.pieceAt(m.index);
      if (!zones || zones(piece.zone)) return { m, piece };
    }
    return null;
  }

  /** The passage from `from` to `to` (stream positions) as evidence: one sentence quoted as is, or table cells joined. */
  evidence(from: number, to: number, scrub: (s: string) => string): Evidence {
    const a = this.pieceAt(from);
    const b = this.pieceAt(Math.max(from, to - 1));
    const span = this.pieces.slice(a.index, b.index + 1);
    const matched = this.text.slice(from, to);
    const focus = new RegExp(
      matched
        .slice(0, 60)
        .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        .replace(/\s+/g, "\\s+"),
      "i",
    );
    // Remembered as passages used (the reply's read.passages), except under a heading that is a signer's name.
    for (const p of span) {
      if (p.section !== null && scrub(p.section) !== p.section) continue;
      if (p.sentence) this.reading.cite(p.sentence);
      else if (p.heading) this.reading.citeHeading(p.heading);
    }
    const text = span.length === 1 ? a.text : span.map((p) => p.norm).join(" ");
    return { quote: scrub(quoteOf(text, focus)), page: a.page, section: a.section === null ? null : scrub(a.section) };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Names in the sign-off block (never output)

const NOT_NAME_WORDS = new Set(
  (
    "carbon reduction plan plans declaration sign signed off on behalf of the supplier date name position role title director directors managing chief executive officer " +
    "company secretary limited ltd plc llp uk group board team management senior finance financial operations technical technology commercial sales chair chairman " +
    "chairwoman chairperson president partner partners member designated owner founder head manager general office net zero scope emissions total baseline current " +
    "reporting year signature approved approval by for and this our we page holdings services solutions consulting consultancy trading t/a " +
    "january february march april may june july august september october november december ppn standard protocol government"
  ).split(" "),
);

/** 2–4 capitalised words (a title allowed), none of them a role, company or heading word: the shape of a person's name. */
function looksLikeName(s: string): boolean {
  const t = s
    .replace(/\*\*|__/g, "")
    .replace(/[,:;]+$/, "")
    .trim();
  if (!/^(?:(?:mr|mrs|ms|miss|mx|dr|prof|sir|dame)\.?\s+)?\p{Lu}[\p{L}'’-]+(?:\s+(?:\p{Lu}\.?|\p{Lu}[\p{L}'’-]+)){1,3}$/u.test(t)) return false;
  const words = t.split(/\s+/).map((w) => w.toLowerCase().replace(/[^a-z/]/g, ""));
  return !words.some((w) => NOT_NAME_WORDS.has(w));
}

/** Where a sign-off block starts: "Signed", "Signature", "Approved by", "Authorised by". */
const SIGN_MARK = /\bsign(?:ed|ature)\b(?!\s*o\s?f\s?f)|\bsignatory\b|\b(?:approved|authori[sz]ed)\s+by\b/i;
const NAME_RUN = /((?:(?:mr|mrs|ms|miss|mx|dr|prof)\.?\s+)?\p{Lu}[\p{L}'’-]+(?:\s+(?:\p{Lu}\.?|\p{Lu}[\p{L}'’-]+)){1,3})$/u;

/**
 * The names written in the sign-off block: after "Name:" or "Signed by:", name-shaped lines after "Signed", and a
 * name-shaped run just before a role ("Margaret Smith Company Secretary", "Approved by Jo Bloggs, Managing Director").
 */
function signerNames(stream: Stream, company: string | null): string[] {
  const names = new Set<string>();
  const companyLc = (company ?? "").toLowerCase();
  const add = (n: string) => {
    const t = n
      .replace(/\*\*|__/g, "")
      .replace(/[\s,:;(–-]+$/, "")
      .trim();
    if (t.length >= 3 && /\p{L}/u.test(t) && !companyLc.includes(t.toLowerCase())) names.add(t);
  };
  const declaration = stream.pieces.filter((p) => p.zone === "declaration");
  const scope = declaration.length ? declaration : stream.pieces;
  const signedAt = scope.findIndex((p) => SIGN_MARK.test(p.norm));
  for (let i = 0; i < scope.length; i++) {
    const t = scope[i].norm;
    if (!/name|sign|approv|authori|by\b/i.test(t) && !ROLE_HINT.test(t) && (signedAt < 0 || i < signedAt || i > signedAt + 12)) continue;
    for (const m of t.matchAll(
      /(?<!\b(?:supplier|client|company|organi[sz]ation|business|bidder|file|trading|registered)(?:'s)?\s)\b(?:name|signed\s+by|signatory|signature|approved\s+by|authori[sz]ed\s+by|signed(?!\s*o\s?f\s?f))\s*:?\s*([^:\n]*?)(?=\s+(?:position|title|role|job\s+title|designation|date|signed|signature|on\s+behalf)\b|$)/gi,
    )) {
      const v = m[1]
        .replace(/[_\s.]+$/, "")
        .replace(/^_+\s*/, "")
        .trim();
      if (!v || !/\p{L}/u.test(v) || /^\d/.test(v)) continue;
      const role = ROLE.exec(v);
      // "Jane Smith", "Jane Smith, Director", "Jane Smith (CEO)": the part before the role.
      const before = role ? v.slice(0, role.index) : v;
      const run = NAME_RUN.exec(before.replace(/[\s,(–-]+$/, ""))?.[1];
      if (run && looksLikeName(run)) add(run);
      else if (
        !role &&
        /^on\s+behalf/i.test(v) === false &&
        v.split(/\s+/).length <= 5 &&
        /\p{Lu}/u.test(v) &&
        !/\b(?:ltd|limited|plc|llp|board|directors|team|supplier)\b/i.test(v)
      )
        add(v);
    }
    // "Margaret Smith Company Secretary 31st January 2024".
    const role = roleIn(t);
    if (role) {
      const before = t
        .slice(0, role.index)
        .replace(/^.*\b(?:signed|name|by)\b\s*:?\s*/i, "")
        .replace(/[\s,(–-]+$/, "");
      const run = NAME_RUN.exec(before)?.[1];
      if (run && looksLikeName(run)) add(run);
    }
    // A line that is just a name, after the block starts.
    if (signedAt >= 0 && i >= signedAt && i <= signedAt + 12 && looksLikeName(t)) add(t);
  }
  return [...names];
}

/**
 * People's names out of everything the check gives (names.ts redactNames): the signers' names found in the sign-off
 * block and the names the document's layout shows, wherever they stand, and any name the redactor reads itself.
 */
function scrubber(names: string[], reading: Reading): (s: string) => string {
  const known = [...names, ...reading.people];
  return (s: string) => redactNames(s, { known });
}

// ---------------------------------------------------------------------------------------------------------------
// The parts

interface Judged {
  status: CarbonPlanPartStatus;
  note: string;
  evidence: Evidence | null;
  /** What to do about it, when not found. */
  gap?: string;
}

const yes = (note: string, evidence: Evidence | null): Judged => ({ status: "found", note, evidence });
const no = (note: string, gap: string, evidence: Evidence | null = null): Judged => ({ status: "not_found", note, evidence, gap });
const unsure = (note: string, gap: string, evidence: Evidence | null = null): Judged => ({
  status: "couldnt_tell",
  note: `Couldn't tell: ${note}`,
  evidence,
  gap,
});

const not =
  (...zones: Zone[]) =>
  (z: Zone) =>
    !zones.includes(z);
const inZone =
  (...zones: Zone[]) =>
  (z: Zone) =>
    zones.includes(z);
const EMISSIONS_ZONES = not("targets", "projects", "declaration");

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
/** "2026-06-28" → "28 June 2026". */
export const ukDate = (iso: string): string => {
  const [y, m, d] = iso.split("-").map(Number);
  return d ? `${d} ${MONTHS[m - 1]} ${y}` : m ? `${MONTHS[m - 1]} ${y}` : String(y);
};
const lastDayOf = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const pad = (n: number) => String(n).padStart(2, "0");
/** The ISO date 12 months after. */
function yearAfter(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number);
  return `${y + 1}-${pad(m)}-${pad(Math.min(d, lastDayOf(y + 1, m)))}`;
}

function judgeNetZero(st: Stream, scrub: (s: string) => string): Judged {
  const candidates = st.matches(new RegExp(NET_ZERO.source, "gi"), not("declaration"));
  let later: { year: number; from: number; to: number } | null = null;
  let noYear: { from: number; to: number } | null = null;
  const seen = new Set<Piece>();
  for (const { piece } of candidates) {
    if (seen.has(piece) || (piece.headingLike && !/\b(?:19|20)\d{2}\b/.test(piece.norm))) continue;
    seen.add(piece);
    // The sentence, and the piece after it when a table cell or a line break cuts it ("Net Zero target:" / "2040").
    const next = st.pieces[piece.index + 1];
    const text = (piece.norm + (next && !/[.!?]$/.test(piece.norm) ? "\n" + next.norm : "")).replace(DESNZ, (x) => "D".repeat(x.length));
    if (!COMMITS.test(text) && piece.zone !== "commitment" && piece.zone !== "targets") continue;
    if (OTHERS_TARGET.test(text) && !/\b(?:we|our|us)\b|\bcommitted\b/i.test(text)) continue;
    for (const re of NET_ZERO_YEAR) {
      const m = re.exec(text);
      if (!m) continue;
      const year = Number(m[1]);
      const ev = () => st.evidence(piece.start + m.index, piece.start + m.index + m[0].length, scrub);
      if (year <= 2050 && year >= 2000) return yes(`The plan commits to net zero by ${year}${year < 2050 ? ", earlier than 2050" : ""}.`, ev());
      if (year > 2050 && !later) later = { year, from: piece.start + m.index, to: piece.start + m.index + m[0].length };
      break;
    }
    if (
      !noYear &&
      COMMITS.test(text) &&
      !/\bnet[\s-]?zero\s+(?:transport|travel|vehicles?|goals?\b(?!\s+by))/i.test(text) &&
      /\b(?:we|our|is|are)\b[^.]{0,60}\b(?:commit|aim|pledge|achiev|reach|become|target)/i.test(text)
    )
      noYear = { from: piece.start, to: piece.end };
  }
  if (later)
    return no(
      `The plan commits to net zero only by ${later.year}, later than 2050.`,
      `Bring the net zero commitment forward to 2050 at the latest (the plan says ${later.year}).`,
      st.evidence(later.from, later.to, scrub),
    );
  const neutral = st.first(new RegExp(CARBON_NEUTRAL.source, "gi"), not("declaration"));
  if (noYear)
    return unsure(
      "the plan commits to net zero but gives no year for it.",
      "State the year by which the company will reach net zero for its UK operations (2050 at the latest).",
      st.evidence(noYear.from, noYear.to, scrub),
    );
  if (neutral)
    return no(
      "The plan aims at carbon neutrality, which is not net zero; no net zero commitment was found.",
      "Commit to net zero by 2050 at the latest: a carbon neutral target (which can rely on offsets) is not a net zero commitment.",
      st.evidence(neutral.m.index, neutral.m.index + neutral.m[0].length, scrub),
    );
  return no("No commitment to net zero by a given year was found.", "Add a commitment to achieve net zero emissions for UK operations by 2050 at the latest.");
}

interface Figures {
  at: { from: number; to: number } | null;
  units: boolean;
}

/** Emission figures in some zones: scope rows, totals and figures with units; and whether units are given there. */
function figuresIn(st: Stream, zones: (z: Zone) => boolean): Figures {
  const hits = [
    ...st.matches(NUM_UNITS, zones),
    ...st.matches(SCOPE_ROW, zones),
    ...st.matches(SCOPE12_TOGETHER, zones),
    ...st.matches(TOTAL_ROW, zones),
  ].filter(
    // "Scope 1 2024" is a year, not a figure.
    ({ m }) => !/(?:^|[^\d.,])(?:19|20)\d{2}$/.test(m[0].trim()),
  );
  hits.sort((a, b) => a.m.index - b.m.index);
  const units = st.matches(new RegExp(UNITS_SRC, "gi"), zones).length > 0;
  if (!hits.length) return { at: null, units };
  // The passage: the largest cluster of figures (a table read across its cells), from its first figure to its last.
  let best = { from: 0, to: 0, n: 0 };
  let cur = { from: hits[0].m.index, to: hits[0].m.index + hits[0].m[0].length, n: 1 };
  for (const h of hits.slice(1)) {
    if (h.m.index - cur.to < 200) {
      cur.to = Math.max(cur.to, h.m.index + h.m[0].length);
      cur.n++;
      continue;
    }
    if (cur.n > best.n) best = cur;
    cur = { from: h.m.index, to: h.m.index + h.m[0].length, n: 1 };
  }
  if (cur.n > best.n) best = cur;
  return { at: { from: best.from, to: Math.min(best.to, best.from + 600) }, units };
}

const docUnits = (st: Stream) => st.matches(new RegExp(UNITS_SRC, "gi"), EMISSIONS_ZONES).length > 0;

/** A year in the first lines of a zone ("Current Emissions Reporting 2024/25", "Baseline Emissions Footprint (2019)"). */
function zoneYear(st: Stream, zone: Zone): string | null {
  for (const p of st.pieces.filter((x) => x.zone === zone).slice(0, 2)) {
    const m = /\b(?:fy\s*)?(?:19|20)\d{2}(?:\s*[/-]\s*(?:19|20)?\d{2}\b)?/i.exec(p.norm);
    if (m) return m[0];
  }
  return null;
}

function judgeBaseline(st: Stream, scrub: (s: string) => string): Judged & { year: string | null } {
  const yearHit = st.first(new RegExp(BASELINE_YEAR.source, "gi"), not("declaration"));
  const year = yearHit ? periodText(yearHit.m[1] ?? yearHit.m[2] ?? yearHit.m[3] ?? "") : zoneYear(st, "baseline");
  let figs = figuresIn(st, (z) => z === "baseline");
  if (!figs.at && yearHit) {
    // No baseline section: figures in the sentence that names the baseline year.
    const p = yearHit.piece;
    const inline = figuresIn(st, (z) => z === p.zone);
    if (inline.at && st.pieceAt(inline.at.from) === p) figs = inline;
  }
  const gap = "State the baseline year and its Scope 1, 2 and 3 emissions in tCO2e (the template's baseline emissions footprint).";
  if (!figs.at) {
    if (year)
      return {
        ...no(
          `A baseline year (${year}) is given, but no baseline emissions figures were found.`,
          gap,
          yearHit ? st.evidence(yearHit.m.index, yearHit.m.index + yearHit.m[0].length, scrub) : null,
        ),
        year,
      };
    return { ...no("No baseline year or baseline emissions were found.", gap), year: null };
  }
  const ev = st.evidence(figs.at.from, figs.at.to, scrub);
  if (!figs.units && !docUnits(st))
    return {
      ...unsure("baseline emissions are given, but without units (tCO2e).", "Give the baseline emissions' units: tonnes of CO2 equivalent (tCO2e).", ev),
      year,
    };
  if (!year)
    return { ...unsure("baseline emissions are given, but no baseline year was found.", "State the baseline year the baseline emissions are for.", ev), year };
  return { ...yes(`Baseline year ${year}, with baseline emissions in tCO2e.`, ev), year };
}

function judgeCurrent(st: Stream, baseline: Judged & { year: string | null }, scrub: (s: string) => string): Judged {
  const gap =
    "Report the emissions of the current reporting year (a 12-month period within the last 12 months) in tCO2e, for Scope 1, 2 and the required Scope 3 categories.";
  const yearHit = st.first(new RegExp(REPORTING_YEAR.source, "gi"), not("declaration", "targets", "projects"));
  const year = yearHit ? periodText(yearHit.m[1] ?? yearHit.m[2] ?? "") : zoneYear(st, "current");
  const figs = figuresIn(st, (z) => z === "current");
  if (figs.at) {
    const ev = st.evidence(figs.at.from, figs.at.to, scrub);
    if (!figs.units && !docUnits(st))
      return unsure(
        "current year emissions are given, but without units (tCO2e).",
        "Give the current year emissions' units: tonnes of CO2 equivalent (tCO2e).",
        ev,
      );
    if (!year)
      return unsure(
        "current emissions are given, but the reporting year they cover is not stated.",
        "State the current reporting year (its 12-month period) the emissions are for.",
        ev,
      );
    return yes(`Reporting year ${year}, with emissions in tCO2e.`, ev);
  }
  // A first plan: the current reporting year is the baseline year, and says so.
  for (const re of CURRENT_IS_BASELINE) {
    const hit = st.first(new RegExp(re.source, "gi"), not("declaration", "targets", "projects"));
    if (!hit) continue;
    const ev = st.evidence(hit.m.index, hit.m.index + hit.m[0].length, scrub);
    if (baseline.status === "found")
      return yes(
        `The plan says the current reporting year is its baseline year${baseline.year ? ` (${baseline.year})` : ""}; the baseline emissions are the current year's.`,
        ev,
      );
    return unsure("the plan says the current year is its baseline year, but the baseline emissions are not complete.", gap, ev);
  }
  if (yearHit)
    return no(
      `A reporting year (${year}) is named, but no current year emissions figures were found.`,
      gap,
      st.evidence(yearHit.m.index, yearHit.m.index + yearHit.m[0].length, scrub),
    );
  return no("No current reporting year emissions were found (only a baseline, if any).", gap);
}

function judgeScope12(st: Stream, scrub: (s: string) => string): Judged {
  const gap = "Give Scope 1 and Scope 2 emissions figures in tCO2e (zero, with the reason, where there are none).";
  const rows = st.matches(SCOPE_ROW, EMISSIONS_ZONES).filter(({ m }) => !/^(?:19|20)\d{2}$/.test(m[2]));
  const together = st.first(SCOPE12_TOGETHER, EMISSIONS_ZONES);
  const one = rows.find(({ m }) => m[1] === "1");
  const two = rows.find(({ m }) => m[1] === "2");
  if (one && two) {
    const from = Math.min(one.m.index, two.m.index);
    const to = Math.max(one.m.index + one.m[0].length, two.m.index + two.m[0].length);
    const ev = to - from < 400 ? st.evidence(from, to, scrub) : st.evidence(one.m.index, one.m.index + one.m[0].length, scrub);
    const market =
      /market[\s-]?based/i.test(st.text.slice(two.m.index, two.m.index + 200)) && /location[\s-]?based/i.test(st.text.slice(two.m.index, two.m.index + 200));
    return yes(`Scope 1 and Scope 2 figures are both reported${market ? " (Scope 2 both market- and location-based)" : ""}.`, ev);
  }
  if (together) return yes("Scope 1 and Scope 2 are reported (together).", st.evidence(together.m.index, together.m.index + together.m[0].length, scrub));
  if (one || two) {
    const has = one ? "1" : "2";
    const hit = (one ?? two)!;
    return no(
      `Only Scope ${has} has a figure; Scope ${has === "1" ? "2" : "1"} was not found.`,
      `Give a Scope ${has === "1" ? "2" : "1"} emissions figure (zero, with the reason, if there is none).`,
      st.evidence(hit.m.index, hit.m.index + hit.m[0].length, scrub),
    );
  }
  const mention = st.first(/\bscope\s?[12]\b/gi, EMISSIONS_ZONES);
  if (mention)
    return no(
      "Scope 1 and 2 are mentioned, but no figures for them were found.",
      gap,
      st.evidence(mention.m.index, mention.m.index + mention.m[0].length, scrub),
    );
  return no("No Scope 1 or Scope 2 emissions were found.", gap);
}

function scope3Patterns(): { cat: string; re: RegExp }[] {
  const extra: Record<string, string[]> = {
    "1": ["purchased goods & services"],
    "3": ["fuel and energy related", "fuel and energy-related", "fuel-and-energy-related", "well-to-tank"],
    "4": ["upstream transportation", "upstream transport", "upstream distribution", "inbound logistics", "upstream t&d", "upstream t & d"],
    "5": ["waste generated in operations", "operational waste", "waste from operations", "waste in operations", "waste disposal"],
    "6": ["business travel", "business travels"],
    "7": [
      "employee commuting",
      "employee commute",
      "staff commuting",
      "commuting and homeworking",
      "commuting and home working",
      "commuting and working from home",
      "employee travel to work",
    ],
    "9": ["downstream transportation", "downstream transport", "downstream distribution", "outbound logistics", "downstream t&d", "downstream t & d"],
    "12": ["end-of-life treatment", "end of life treatment"],
  };
  const out: { cat: string; re: RegExp }[] = [];
  for (const [cat, name] of Object.entries(SCOPE3_NAMES))
    for (const n of [name, ...(extra[cat] ?? [])]) out.push({ cat, re: new RegExp(`\\b${phrase(n)}`, "gi") });
  // "Transportation & Distribution (Upstream & Downstream)", "Upstream and downstream transportation and distribution".
  out.push({
    cat: "4+9",
    re: new RegExp(
      `\\b${phrase("transportation and distribution")}\\s*\\(\\s*upstream\\s*(?:and|&|/)\\s*downstream\\s*\\)|\\bupstream\\s*(?:and|&|/)\\s*downstream\\s+transport`,
      "gi",
    ),
  });
  return out;
}
const SCOPE3_RES = scope3Patterns();
const CATEGORY_NUMBERS = /\b(?:category|categories|cat\.?)\s*((?:1[0-5]|[1-9])(?!\d)(?:\s*(?:,|and|&|to|or)\s*(?:1[0-5]|[1-9])(?!\d))*)(?!\s*%)/gi;

function judgeScope3(st: Stream, scrub: (s: string) => string): Judged & { found: string[] } {
  const found = new Map<string, number>();
  const add = (cat: string, at: number) => {
    if (!found.has(cat)) found.set(cat, at);
  };
  /** Whether the list the mention is in says these categories are left out. */
  const excluded = (at: number) => {
    const before = st.text.slice(Math.max(0, at - 1000), at);
    const clause = before.slice(Math.max(before.lastIndexOf(". "), before.lastIndexOf(".\n"), 0));
    return EXCLUDED.test(clause) || EXCLUDED.test(st.text.slice(at, at + 60).split(/[.;]/)[0]);
  };
  /** A name on its own counts near Scope 3 or emissions figures (not in a project description). */
  const nearScope3 = (at: number) =>
    /\bscope\s?3\b|\bcategor|\bcat\.?\s*\d|\bindirect\b|\bvalue\s+chain\b/i.test(st.text.slice(Math.max(0, at - 400), at + 80)) ||
    UNITS.test(st.text.slice(at, at + 120));
  /** Categories the plan says it leaves out. */
  const left = new Set<string>();
  for (const { m } of st.matches(CATEGORY_NUMBERS, EMISSIONS_ZONES)) {
    // "Scope 3 ... category" is Scope 3's; "Category 1" of something else would need "scope 3" near too.
    if (!nearScope3(m.index)) continue;
    const list = m[1];
    // "4, 5 and 9", "4 to 7": each item a number or a range.
    const nums = list.split(/\s*(?:,|and|&|or)\s*/).flatMap((item) => {
      const range = /^(\d+)\s*to\s*(\d+)$/.exec(item);
      if (!range) return [item];
      const [a, b] = [Number(range[1]), Number(range[2])];
      return b >= a && b - a < 15 ? Array.from({ length: b - a + 1 }, (_, i) => String(a + i)) : [];
    });
    const out = excluded(m.index);
    for (const n of nums) {
      if (Number(n) < 1 || Number(n) > 15) continue;
      if (out) left.add(n);
      else add(n, m.index);
    }
  }
  for (const { cat, re } of SCOPE3_RES)
    for (const { m } of st.matches(re, EMISSIONS_ZONES)) {
      if (!nearScope3(m.index)) continue;
      const out = excluded(m.index);
      for (const c of cat.split("+")) {
        if (out) left.add(c);
        else add(c, m.index);
      }
    }
  const cats = [...found.keys()].sort((a, b) => Number(a) - Number(b));
  const missing = REQUIRED_SCOPE3.filter((c) => !found.has(c));
  const list = (xs: readonly string[]) => (xs.length === 1 ? xs[0] : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
  const names = (xs: readonly string[]) => xs.map((c) => `${c} (${SCOPE3_NAMES[c]})`).join(", ");
  if (!missing.length) {
    const at = Math.min(...REQUIRED_SCOPE3.map((c) => found.get(c)!));
    const end = Math.max(...REQUIRED_SCOPE3.map((c) => found.get(c)!));
    const ev = end - at < 500 ? st.evidence(at, end + 40, scrub) : st.evidence(at, at + 40, scrub);
    return { ...yes(`All five required Scope 3 categories (4, 5, 6, 7 and 9) are reported; categories reported: ${cats.join(", ")}.`, ev), found: cats };
  }
  const excludedStated = missing.filter((c) => left.has(c));
  const gap = `Report Scope 3 ${missing.length === 1 ? "category" : "categories"} ${names(missing)} — the template requires 4, 5, 6, 7 and 9 — giving zero or "not applicable" with the reason where one does not apply${excludedStated.length ? ` (the plan leaves ${list(excludedStated)} out)` : ""}.`;
  const evAt = cats.length ? found.get(cats[0])! : null;
  const ev = evAt !== null ? st.evidence(evAt, evAt + 40, scrub) : null;
  if (!cats.length) {
    const s3 = st.first(/\bscope\s?3\b/gi, EMISSIONS_ZONES);
    return {
      ...no(
        `No Scope 3 categories are reported${s3 ? " (Scope 3 is given only as a total, or mentioned without categories)" : ""}.`,
        gap,
        s3 ? st.evidence(s3.m.index, s3.m.index + s3.m[0].length, scrub) : null,
      ),
      found: [],
    };
  }
  return {
    ...no(
      `Scope 3 ${missing.length === 1 ? "category" : "categories"} ${list(missing)} ${missing.length === 1 ? "is" : "are"} not reported${excludedStated.length ? ` (${list(excludedStated)} stated as excluded or not applicable)` : ""}; categories reported: ${cats.join(", ")}.`,
      gap,
      ev,
    ),
    found: cats,
  };
}

function judgeProjects(st: Stream, scrub: (s: string) => string): Judged {
  const gap =
    "Describe the carbon reduction projects and environmental management measures completed since the baseline and planned, which will be in effect during the contract.";
  const inSection = st.pieces.filter((p) => p.zone === "projects" && p.sentence && p.norm.split(/\s+/).length >= 6 && /\p{Ll}{3}/u.test(p.norm));
  if (inSection.length) {
    const p =
      inSection.find((x) =>
        /\b(?:measures|projects|initiatives|implemented|completed|we\s+(?:will|have)|install|switch|replac|introduc|reduc)\b/i.test(x.norm),
      ) ?? inSection[0];
    return yes(
      `Carbon reduction projects or measures are described (${inSection.length} sentence${inSection.length === 1 ? "" : "s"} under the projects heading).`,
      st.evidence(p.start, p.end, scrub),
    );
  }
  const free = st.first(
    /\b(?:measures|projects|initiatives)\b[^.\n]{0,80}\b(?:implemented|completed|undertaken|introduced|in\s+place|planned)\b|\bwe\s+(?:have|will|plan\s+to|intend\s+to|are)\s+(?:\w+\s+){0,2}(?:install|switch|mov|replac|introduc|implement|upgrad|procur|adopt|electrif|transition|trial|fitt|convert|launch)\w*|(?:^|\n)(?:[•▪●◦■*–-]\s*)?(?:switched|replaced|installed|introduced|moved|upgraded|fitted|converted|launched|trialled|adopted|implemented|electrified)\b/gi,
    not("declaration"),
  );
  if (free) return yes("Carbon reduction measures are described.", st.evidence(free.m.index, free.m.index + free.m[0].length, scrub));
  const heading = st.pieces.find((p) => p.zone === "projects" && p.heading);
  if (heading)
    return no("A projects heading is there, but no projects or measures are described under it.", gap, st.evidence(heading.start, heading.end, scrub));
  return no("No carbon reduction projects or measures were found.", gap);
}

const titleCase = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\b(?:ceo|cfo|coo|cto|cio|cso|md|uk)\b/gi, (x) => x.toUpperCase())
    .replace(/\b(\p{Ll})(\p{L}*)/gu, (w, a: string, b: string) => (/^(?:of|and|the)$/.test(w) ? w : a.toUpperCase() + b));

function judgeSignOff(st: Stream, scrub: (s: string) => string, hasSigner: boolean): Judged & { role: string | null } {
  const gap = "Have the plan signed off by a director (or equivalent: a board-level person) and say so in the declaration, giving the signer's role.";
  const declaration = st.pieces.filter((p) => p.zone === "declaration");
  const scope = declaration.length ? declaration : st.pieces;
  const signedAt = scope.findIndex((p) => SIGN_MARK.test(p.norm) && !BOARD_SIGNOFF.test(p.norm));
  // The signature block; without a "Signed" line, the declaration (never the whole document: a "Sustainability
  // Manager" mentioned in the projects is not a signer).
  const window = signedAt >= 0 ? scope.slice(signedAt, signedAt + 12) : declaration;
  // The signer's role: a "Position:" label, else the first role after "Signed".
  let role: { text: string; board: boolean; piece: Piece; first: Piece } | null = null;
  for (const p of window) {
    const label = /\b(?:position|role|job\s+title|title|designation|capacity)\s*:\s*([^:\n]{2,80}?)(?=\s+(?:date|name|signed|signature)\b|$)/i.exec(p.norm);
    const m = label ? ROLE.exec(label[1]) : null;
    if (m) {
      role = { text: m[0], board: isBoard(m), piece: p, first: window[0] };
      break;
    }
  }
  if (!role)
    for (const p of window) {
      if (/https?:\/\//i.test(p.norm) || BOARD_SIGNOFF.test(p.norm)) continue;
      const m = ROLE.exec(p.norm.replace(/^.*?\bsigned\s+(?:on\s+behalf\s+of|for)\s+[^:]*:?/i, ""));
      if (m) {
        role = { text: m[0], board: isBoard(m), piece: p, first: window[0] };
        break;
      }
    }
  const boardStatement = st.first(new RegExp(BOARD_SIGNOFF.source, "giu"));
  if (role) {
    const r = titleCase(role.text.replace(/of\s?f\s?icer/i, "officer"));
    // The sign-off block around the role: "Signed on behalf of X / [name] / Director / 11 August 2026".
    const at = role.piece.index;
    const from = signedAt >= 0 && at - role.first.index <= 3 ? role.first : st.pieces[Math.max(0, at - 1)];
    const after = st.pieces[at + 1];
    const to = after && after.zone === "declaration" && after.norm.length < 40 && datesIn(after.norm).length ? after : role.piece;
    const ev = st.evidence(from.start, to.end, scrub);
    if (role.board)
      return {
        ...yes(
          `Signed off by the ${r}${boardStatement && /board|directors/i.test(bodyOf(boardStatement.m)) ? ", and the plan says the board of directors signed it off" : ""}.`,
          ev,
        ),
        role: r,
      };
    return {
      ...no(
        `Signed by the ${r}, which is not a director or equivalent board-level role.`,
        `Have the plan signed off by a director (or equivalent board-level person): it is signed by the ${r}.`,
        ev,
      ),
      role: r,
    };
  }
  if (boardStatement) {
    const body = bodyOf(boardStatement.m);
    const ev = st.evidence(boardStatement.m.index, boardStatement.m.index + boardStatement.m[0].length, scrub);
    // The template's own words with its signature block left blank (no name, no date) are not a sign-off.
    const blank = signedAt >= 0 && !hasSigner && !window.some((p) => datesIn(p.norm).some((d) => d.precision !== "year"));
    if (blank)
      return {
        ...unsure(`the declaration says the ${body} signed the plan off, but its signature block is blank (no name, role or date).`, gap, ev),
        role: null,
      };
    if (/^(?:board|board of directors|directors|director|managing director|chief executive|chief executive officer|ceo|partners|members|owner)$/.test(body))
      return {
        ...yes(`The declaration says the plan was signed off by the ${body === "ceo" ? "CEO" : body}; the signer's role is not given.`, ev),
        role: null,
      };
    return {
      ...unsure(`the plan was approved by the ${body}, which is not said to be the board or a director, and no signer's role is given.`, gap, ev),
      role: null,
    };
  }
  if (signedAt >= 0) {
    const p = scope[signedAt];
    return {
      ...unsure(
        "the plan is signed, but the signer's role is not given.",
        "Give the signer's role in the declaration, showing it is a director (or equivalent).",
        st.evidence(p.start, p.end, scrub),
      ),
      role: null,
    };
  }
  return { ...no("No declaration signed off by a director was found.", gap), role: null };
}

interface PlanDate {
  iso: string | null;
  precision: "day" | "month" | "year" | null;
  /** For a month: its first and last day; for a year: 1 January and 31 December. */
  earliest: string | null;
  latest: string | null;
  evidence: Evidence | null;
  note: string | null;
  label: string;
}

function findPlanDate(st: Stream, scrub: (s: string) => string): PlanDate {
  const none: PlanDate = { iso: null, precision: null, earliest: null, latest: null, evidence: null, note: null, label: "" };
  const take = (from: number, text: string, label: string, yearOnlyOk: boolean): PlanDate | null => {
    const d = datesIn(text).find((x) => x.index <= 3);
    const ev = () => st.evidence(from, from + Math.max(label.length + (d ? d.index + d.text.length : 4), 1), scrub);
    if (d) {
      if (d.precision === "day") return { iso: d.iso, precision: "day", earliest: d.iso, latest: d.iso, evidence: ev(), note: null, label };
      const [y, m] = d.iso.split("-").map(Number);
      const last = `${y}-${pad(m)}-${pad(lastDayOf(y, m))}`;
      return {
        iso: last,
        precision: "month",
        earliest: `${y}-${pad(m)}-01`,
        latest: last,
        evidence: ev(),
        note: `Only the month is given (${ukDate(d.iso)}); its last day is used.`,
        label,
      };
    }
    const y = yearOnlyOk ? /^\s*(?:(?:fy|year)\s*)?((?:19|20)\d{2})(?!\s*[/-]\s*\d)\b/i.exec(text) : null;
    if (y)
      return {
        iso: null,
        precision: "year",
        earliest: `${y[1]}-01-01`,
        latest: `${y[1]}-12-31`,
        evidence: ev(),
        note: `The plan is dated only by its year (${y[1]}).`,
        label,
      };
    return null;
  };
  const labelled = (re: RegExp, zones?: (z: Zone) => boolean, yearOnlyOk = true) => {
    for (const { m } of st.matches(re, zones)) {
      const at = m.index + m[0].length;
      const r = take(m.index, st.text.slice(at, at + 40), m[0], yearOnlyOk);
      if (r) return r;
    }
    return null;
  };
  const published = labelled(
    /\b(?:publication\s+date|date\s+of\s+publication|date\s+published|published(?:\s+date|\s+on)?|issue\s+date|date\s+of\s+issue|issued(?:\s+on)?|plan\s+date|document\s+date|last\s+(?:updated|reviewed|revised)(?:\s+on)?|updated(?:\s+on)?|version\s+date|review\s+date)\s*[:\-–]?\s*/gi,
    not("baseline", "current", "targets", "projects"),
  );
  // The sign-off date: "Date:" in the declaration, or a date line after "Signed".
  const signedOn = (): PlanDate | null => {
    const decl = labelled(/\bdate(?:d)?\s*[:\-–]?\s*/gi, inZone("declaration"));
    if (decl) return decl;
    const declPieces = st.pieces.filter((p) => p.zone === "declaration");
    const signedAt = declPieces.findIndex((p) => /\bsign(?:ed|ature)\b(?!\s*o\s?f\s?f)/i.test(p.norm));
    if (signedAt >= 0)
      for (const p of declPieces.slice(signedAt, signedAt + 12)) {
        const d = datesIn(p.norm).find((x) => x.precision !== "year");
        const r = d ? take(p.start + d.index, p.norm.slice(d.index), "", false) : null;
        if (r) return r;
      }
    return null;
  };
  const signed = signedOn();
  if (published) {
    // Said when the signature is dated otherwise (a plan re-signed, or signed before it was published).
    if (signed?.iso && published.iso && signed.precision === "day" && signed.iso !== published.iso)
      published.note = `${published.note ? published.note + " " : ""}The sign-off is dated ${ukDate(signed.iso)}; the publication date is used.`;
    return published;
  }
  if (signed) return signed;
  const anyLabel = labelled(/(?:^|\n|\s)date\s*:\s*/gi);
  if (anyLabel) return anyLabel;
  // The plan's opening lines: "Carbon Reduction Plan — March 2026" (not a reporting period).
  for (const p of st.pieces.slice(0, 4)) {
    if (/\b(?:period|baseline|reporting|from|to|ending|ended|year)\b/i.test(p.norm)) continue;
    const d = datesIn(p.norm)[0];
    if (d) {
      const r = take(p.start + d.index, p.norm.slice(d.index), "", false);
      if (r) return r;
    }
  }
  // A year in the plan's title: "Carbon Reduction Plan 2024".
  const title = st.pieces.slice(0, 4).find((p) => PLAN_TITLE.test(p.norm) && /\b(?:19|20)\d{2}\b/.test(p.norm) && p.norm.length < 80);
  if (title) {
    const y = /\b((?:19|20)\d{2})\b/.exec(title.norm)!;
    return {
      iso: null,
      precision: "year",
      earliest: `${y[1]}-01-01`,
      latest: `${y[1]}-12-31`,
      evidence: st.evidence(title.start, title.end, scrub),
      note: `The plan is dated only by the year in its title (${y[1]}).`,
      label: "",
    };
  }
  return none;
}

function judgeUpdated(date: PlanDate, today: string): Judged {
  if (!date.earliest || !date.latest)
    return unsure(
      "the plan gives no date, so its age cannot be judged.",
      "Date the plan (its publication or sign-off date), so a buyer can see it was updated within the last 12 months.",
    );
  const within = (iso: string) => iso <= today && yearAfter(iso) >= today;
  const shown = date.iso ? ukDate(date.iso) : date.earliest.slice(0, 4);
  if (date.earliest > today)
    return unsure(`the plan is dated ${shown}, after today (${ukDate(today)}).`, "Check the plan's date: it is later than today.", date.evidence);
  if (date.precision === "day") {
    if (within(date.iso!)) return yes(`Dated ${shown}, within 12 months of ${ukDate(today)}.`, date.evidence);
    return no(
      `Dated ${shown}, more than 12 months before ${ukDate(today)}.`,
      `Publish an updated plan: this one is dated ${shown}, more than 12 months ago (plans must be updated at least annually).`,
      date.evidence,
    );
  }
  // A month or a year: judged at its first day and at its last (or today, when that is sooner).
  const a = within(date.earliest);
  const b = within(date.latest < today ? date.latest : today);
  const period = date.precision === "month" ? ukDate(date.earliest.slice(0, 7)) : shown;
  if (a && b) return yes(`Dated ${period}, within 12 months of ${ukDate(today)} whatever the day.`, date.evidence);
  if (!a && !b)
    return no(
      `Dated ${period}, more than 12 months before ${ukDate(today)}.`,
      `Publish an updated plan: this one is dated ${period}, more than 12 months ago (plans must be updated at least annually).`,
      date.evidence,
    );
  return unsure(
    `the plan is dated only ${date.precision === "month" ? `by month (${ukDate(date.earliest.slice(0, 7))})` : `by year (${shown})`}, and whether that is within 12 months of ${ukDate(today)} depends on the day.`,
    "Give the plan's full publication or sign-off date (day, month and year).",
    date.evidence,
  );
}

/** Where the supplier's name and the plan's date are looked for (the plan's opening), in characters. */
const HEAD = 20_000;

function findCompany(st: Stream, reading: Reading): Fact<string> {
  const clean = (s: string) =>
    s
      .replace(/\s*\(.*$/, "")
      .replace(/[\s,;:.–-]+$/, "")
      .replace(/^the\s+/i, "")
      .trim();
  // Not the template's placeholders: "[Insert]", "[Supplier name]", "TBC".
  const ok = (s: string) =>
    s.length >= 2 && s.length <= 80 && /\p{L}/u.test(s) && !/^(?:the\s+)?supplier$/i.test(s) && !/^_+$|^\[.*\]$|\binsert\b|^tbc$|^xx+$/i.test(s);
  const next = String.raw`(?=\s+(?:publication|published|date|company\s+(?:registration|number|no)|registration|registered|address|prepared|version|issued?|reporting|plan|website|contact|sector|last)\b[^:\n]{0,30}:|\s+\p{Lu}\p{L}*(?:\s+\p{L}+)?\s*:|\s*\(|\s+[-–|·]\s|\n|$)`;
  const label = st.first(
    new RegExp(
      String.raw`\b(?:supplier|client|company|organi[sz]ation|business|bidder)(?:'s)?\s+name\s*:\s*([^\n]*?)${next}|\b(?:supplier|organi[sz]ation|company)\s*:\s*([^\n]*?)${next}`,
      "giu",
    ),
    undefined,
    HEAD,
  );
  if (label) {
    const v = clean(label.m[1] ?? label.m[2] ?? "");
    if (ok(v))
      return foundFact(
        v,
        st.evidence(label.m.index, label.m.index + label.m[0].length, (s) => s),
        "From the plan's supplier name.",
      );
  }
  const committed = st.first(
    /(?:^|\n)([\p{Lu}][^\n.]{1,80}?)\s+(?:(?:is|are|has|have)\s+(?:fully\s+|firmly\s+)?committed\s+to|commits\s+to|will|aims?\s+to|plans?\s+to|pledges?\s+to)\s+(?:achieving|reaching|becoming|achieve|reach|become|be)?\s*net[\s-]?zero/giu,
    undefined,
    HEAD,
  );
  if (committed) {
    const v = clean(committed.m[1]);
    if (ok(v) && !/^(?:we|our\s+\w+|the\s+company|the\s+organi[sz]ation|the\s+business|this\s+\w+)$/i.test(v) && !/^(?:in|by|to|as|from|our)\b/i.test(v))
      return foundFact(
        v,
        st.evidence(committed.m.index, committed.m.index + committed.m[0].length, (s) => s),
        "From the net zero commitment.",
      );
  }
  const onBehalf = st.first(/\bsigned\s+(?:on\s+behalf\s+of|for\s+and\s+on\s+behalf\s+of|for)\s+([^\n:_]{2,80}?)(?=\s*[:_\n]|\s+name\b|$)/gi);
  if (onBehalf) {
    const v = clean(onBehalf.m[1]);
    if (ok(v))
      return foundFact(
        v,
        st.evidence(onBehalf.m.index, onBehalf.m.index + onBehalf.m[0].length, (s) => s),
        "From the declaration (signed on behalf of).",
      );
  }
  const title = reading.doc.title;
  const t = title ? /carbon\s+reduction\s+plan\s*[-–|:]\s*(.+)$|^(.+?)\s*[-–|:]\s*carbon\s+reduction\s+plan/i.exec(title) : null;
  if (t) {
    const v = clean(t[1] ?? t[2]);
    if (ok(v)) return { value: v, evidence: { quote: quoteOf(title!), page: null, section: null }, note: "From the page's title." };
  }
  return notFound('Couldn\'t tell: the plan does not name the supplier in a way the reader recognises (a "Supplier name:" label or a net zero commitment).');
}

/** A passage that gives someone else's details: the consultant who prepared the plan, not the supplier. */
const PREPARER =
  /\b(?:prepared|produced|compiled|written|calculated|verified|assured|supported|designed)\s+(?:by|with)\b|\bconsultan(?:t|cy|ts)\b|\bon\s+behalf\s+of\s+(?:our\s+)?client\b|\bt\s*\/\s*a\b/i;

/**
 * The company number the plan gives for the organisation it names: stated in the plan's opening (or beside the name),
 * in a passage that names the supplier or labels it ("Supplier name: Planned Limited (… company number 08881845)"),
 * never in a passage about who prepared the plan.
 */
function findCompanyNumber(st: Stream, company: Fact<string>): Fact<string> {
  const core = company.value ? normaliseNameCore(company.value) : "";
  for (const p of st.pieces) {
    if (p.start > HEAD) break;
    if (!/\d{6}/.test(p.norm) || PREPARER.test(p.norm)) continue;
    const stated = statedCompanyNumbers(p.norm);
    if (!stated.length) continue;
    const names = !!core && ` ${normaliseNameCore(p.norm)} `.includes(` ${core} `);
    const labelled = /\b(?:supplier|client|company|organi[sz]ation|business|bidder)(?:['’]s)?\s+(?:name|details)\b/i.test(p.norm);
    const opening = p.index < 6;
    if (!names && !labelled && !opening) continue;
    return foundFact(
      stated[0].number,
      st.evidence(p.start, p.end, (x) => x),
      names ? "Beside the organisation's name in the plan." : "From the plan's opening.",
    );
  }
  return notFound("The plan gives no company number for the organisation it names.");
}

// ---------------------------------------------------------------------------------------------------------------
// Whose plan: the organisation the plan names against the one whose site it was found from (issue 28 §3).

/** What a page of the supplier's site says about who runs it (services/documents/planLinks.ts reads it). */
export interface SiteIdentity {
  /** The page read. */
  url: string;
  /** Registered names the page gives as its own: in its footer, a copyright line or beside its company number. */
  names: string[];
  /** Names the site calls itself (its og:site_name, its title's name): weaker than a registered name. */
  siteNames: string[];
  /** Company numbers the page states. */
  numbers: string[];
  /** The page's visible text (to see whether it mentions the plan's organisation), cut to a bound. */
  text: string;
  /** The site's name in its address: its registrable domain's first label ("calder-fm" of www.calder-fm.co.uk). */
  domain: string;
}

export type OrganisationMatch = "same" | "different" | "couldnt_tell" | "not_checked";

export interface OrganisationCheck {
  /**
   * `same`: the plan's company number is the site's, or its name is the site's (legal form aside); `different`: the
   * plan names another organisation (its company number is not the site's, or its name shares nothing with the
   * registered name the site gives, and neither mentions the other); `couldnt_tell`: not enough to say either way;
   * `not_checked`: no page of the site was read besides the plan (the address given was the plan).
   */
  match: OrganisationMatch;
  plan: { name: string | null; companyNumber: string | null };
  site: { url: string; names: string[]; companyNumbers: string[] } | null;
  /** Why, in words. */
  note: string;
}

/** Characters of the plan searched for the site's name and numbers (a plan names its organisation early; a long PDF is bounded). */
const COMPARED_TEXT_MAX = 200_000;

/** Words of a name that identify it: no legal form, no generic word ("Calder Facilities Ltd" → calder, facilities). */
const tokensOf = (name: string) =>
  normaliseNameCore(name)
    .split(" ")
    .filter((w) => w && !GENERIC_WORDS.has(w));

/**
 * How two organisation names relate: `same` when equal (legal form, case and punctuation aside) or one's words are
 * the other's in order ("Register Dynamics" and "Register Dynamics Ltd"); `related` when they share the word that
 * leads either ("EDAN UK" and "EDAN Medical (UK) Ltd"); `unrelated` otherwise ("Calder Facilities Ltd" and
 * "Northwold Facilities Services Ltd" share only "Facilities", which leads neither).
 */
export function relateNames(a: string, b: string): "same" | "related" | "unrelated" {
  const x = normaliseNameCore(a);
  const y = normaliseNameCore(b);
  if (!x || !y) return "unrelated";
  if (x === y) return "same";
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  if (tokensOf(short).length && ` ${long} `.includes(` ${short} `)) return "same";
  const tx = tokensOf(a);
  const ty = tokensOf(b);
  if (tx.length && ty.length && (ty.includes(tx[0]) || tx.includes(ty[0]))) return "related";
  return "unrelated";
}

const listOf = (xs: readonly string[]) => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);

/** The site as it names itself, for a sentence: "Calder Facilities Ltd (company number 05123987)". */
export function siteLabel(site: { names: string[]; companyNumbers: string[] } | null): string {
  if (!site) return "the supplier";
  const name = site.names[0] ?? null;
  const number = site.companyNumbers[0] ?? null;
  if (name && number) return `${name} (company number ${number})`;
  if (name) return name;
  if (number) return `company number ${number}`;
  return "the supplier";
}

const planLabel = (plan: { name: string | null; companyNumber: string | null }) =>
  plan.name
    ? `${plan.name}${plan.companyNumber ? ` (company number ${plan.companyNumber})` : ""}`
    : plan.companyNumber
      ? `company number ${plan.companyNumber}`
      : "no organisation";

/**
 * Whether the plan is the site's organisation's (pure). The rule, in order:
 * 1. No site page read (the address given was the plan): not checked.
 * 2. The plan states a company number the site states too: the same organisation.
 * 3. The site mentions the organisation the plan names, or the plan mentions the site's registered name or number
 *    (a group's plan naming its subsidiary): couldn't tell — said, not presumed either way.
 * 4. The plan's company number is not one the site states: a different organisation.
 * 5. The plan's name is the site's (a registered name or the name the site calls itself): the same organisation.
 * 6. The names share their leading word: couldn't tell.
 * 7. The site gives a registered name and the plan's shares nothing with it (nor with the site's own name or its
 *    address): a different organisation. With no registered name on the site, couldn't tell.
 */
export function compareOrganisation(
  report: Pick<CarbonPlanReport, "company" | "companyNumber">,
  planText: string,
  site: SiteIdentity | null,
): OrganisationCheck {
  const plan = { name: report.company.value, companyNumber: report.companyNumber.value };
  if (!site)
    return {
      match: "not_checked",
      plan,
      site: null,
      note: "The address given is the plan itself: no other page of the supplier's site was read to compare the organisation it names with.",
    };
  const out = { url: site.url, names: site.names.slice(0, 3), companyNumbers: site.numbers.slice(0, 3) };
  const who = siteLabel(out);
  const planWho = planLabel(plan);
  const result = (match: OrganisationMatch, note: string): OrganisationCheck => ({ match, plan, site: out, note });
  const planHead = planText.slice(0, COMPARED_TEXT_MAX);
  const planNumbers = statedCompanyNumbers(planHead).map((n) => n.number);
  if (plan.companyNumber && site.numbers.includes(plan.companyNumber))
    return result("same", `The plan gives company number ${plan.companyNumber}, which the site gives too.`);
  if (!plan.name && !plan.companyNumber)
    return result("couldnt_tell", `Couldn't tell: the plan does not name the organisation it is for, so it could not be compared with the site's (${who}).`);
  const siteMentionsPlan = !!plan.name && tokensOf(plan.name).length > 0 && !!findName(site.text, plan.name);
  const planMentionsSite = site.names.some((n) => findName(planHead, n)?.exact) || site.numbers.some((n) => planNumbers.includes(n));
  if (siteMentionsPlan || planMentionsSite) {
    if (plan.name && [...site.names, ...site.siteNames].some((n) => relateNames(plan.name!, n) === "same") && !(plan.companyNumber && site.numbers.length))
      return result("same", `The plan names ${planWho}, the name the site gives.`);
    return result(
      "couldnt_tell",
      `Couldn't tell: the plan names ${planWho} and the site is ${who}, but ${siteMentionsPlan ? `the site mentions ${plan.name}` : `the plan mentions ${who}`} (a group's plan may cover a subsidiary): check that the plan covers the supplier.`,
    );
  }
  if (plan.companyNumber && site.numbers.length)
    return result(
      "different",
      `The plan names ${planWho}; the site gives company number${site.numbers.length > 1 ? "s" : ""} ${listOf(out.companyNumbers)}${out.names.length ? ` (${out.names[0]})` : ""}: another organisation.`,
    );
  if (!plan.name)
    return result("couldnt_tell", `Couldn't tell: the plan gives only company number ${plan.companyNumber}, and the site gives none to compare it with.`);
  const relations = [...site.names, ...site.siteNames].map((n) => ({ n, r: relateNames(plan.name!, n) }));
  const same = relations.find((x) => x.r === "same");
  if (same) return result("same", `The plan names ${plan.name}, the name the site gives (${same.n}).`);
  const related = relations.find((x) => x.r === "related");
  const lead = tokensOf(plan.name)[0];
  const hostWords = site.domain.toLowerCase().replace(/[^a-z0-9]+/g, "");
  if (related || (lead && lead.length >= 4 && hostWords.includes(lead)))
    return result(
      "couldnt_tell",
      `Couldn't tell: the plan names ${planWho} and the site is ${related ? related.n : who}${related ? "" : ` (its address holds "${lead}": ${site.domain})`}: the names are alike but not the same.`,
    );
  if (site.names.length) return result("different", `The plan names ${planWho}; the site gives ${who}: another organisation.`);
  const called = site.siteNames.length
    ? `calls itself ${listOf(site.siteNames.slice(0, 2))} but gives no registered name`
    : "gives no registered name or company number";
  return result("couldnt_tell", `Couldn't tell: the plan names ${planWho}, and the site ${called}.`);
}

/** The reading of a plan whose organisation could not be confirmed as the site's: said first. */
export function readingWithOrganisation(reading: string, check: OrganisationCheck): string {
  if (check.match !== "couldnt_tell") return reading;
  return `Not confirmed as the supplier's own plan: ${check.note.replace(/^Couldn't tell:\s*/, "")} ${reading}`;
}

/** A plan found from the site that names another organisation: not taken as the supplier's plan. */
export interface OtherOrganisationPlan {
  url: string;
  company: string | null;
  companyNumber: string | null;
  note: string;
}

/** The reply's words when the only plans found name other organisations (the supplier's own plan was not found). */
export function otherPlansWording(
  others: readonly OtherOrganisationPlan[],
  site: { names: string[]; companyNumbers: string[] } | null,
): { reading: string; gap: string } {
  const who = siteLabel(site);
  const name = site?.names[0] ?? (site?.companyNumbers[0] ? `company ${site.companyNumbers[0]}` : "the supplier");
  const named = others.map((o) => `${planLabel({ name: o.company, companyNumber: o.companyNumber })} (${o.url})`);
  const one = others.length === 1;
  return {
    reading: `No carbon reduction plan of ${who} was found. ${one ? "The plan" : "The plans"} the site links to name${one ? "s" : ""} another organisation: ${listOf(named)}. ${one ? "It is" : "They are"} not taken as ${name}'s plan, and ${one ? "its" : "their"} parts are not counted for it; if ${name} is covered by ${one ? "it" : "one of them"} (a group's plan may cover a subsidiary), check that with the supplier and give the plan's own address to check it. The check judges the completeness of a plan's form only, never whether its figures are right.`,
    gap: `No carbon reduction plan of ${who} was found: the site links only to ${one ? "a plan" : "plans"} of another organisation (${listOf(named)}). Publish ${name}'s own plan on its website, or say in the plan that it covers ${name}.`,
  };
}

// ---------------------------------------------------------------------------------------------------------------

/** Whether a document reads as a carbon reduction plan (not, say, the supplier's homepage that links to one). */
export function looksLikePlan(reading: Reading): boolean {
  const text = normalise(reading.doc.text);
  const headings = reading.doc.sections.map((s) => s.heading ?? "").join("\n");
  const titled =
    PLAN_TITLE.test(headings) || PLAN_TITLE.test(reading.doc.title ?? "") || /^\s*(?:[^\n]{0,80}\n)?\s*carbon\s+reduction\s+plan\b/i.test(text.slice(0, 400));
  const emissions = [/\bscope\s?[12]\b/i.test(text), UNITS.test(text), /\bbase(?:line)?\s+(?:year|emissions|footprint)\b/i.test(text)];
  const signals = [
    /\bcarbon\s+reduction\s+plan\b/i.test(text),
    NET_ZERO_YEAR.some((re) => re.test(text)) || CARBON_NEUTRAL.test(text),
    ...emissions,
    /\bppn\s*(?:0?6\/21|006)\b|\bghg\s+(?:reporting\s+)?protocol\b|\bsecr\b/i.test(text),
  ].filter(Boolean).length;
  // A page that only mentions a plan and a net zero target (a homepage) is not one: some emissions reporting is.
  return emissions.some(Boolean) && (signals >= 4 || (titled && signals >= 3));
}

const STATUS_WORD: Record<CarbonPlanPartStatus, string> = { found: "found", not_found: "not found", couldnt_tell: "couldn't tell" };

/** Checks a carbon reduction plan against the government template's eight parts (form only). */
export function checkCarbonPlan(reading: Reading, opts: { today: string }): CarbonPlanReport {
  const st = new Stream(reading);
  const company = findCompany(st, reading);
  const companyNumber = findCompanyNumber(st, company);
  const names = signerNames(st, company.value);
  const scrub = scrubber(names, reading);
  const isPlan = looksLikePlan(reading);
  const date = findPlanDate(st, scrub);
  const planDate: Fact<string> =
    date.iso && date.evidence
      ? foundFact(date.iso, date.evidence, date.note)
      : date.precision === "year" && date.note
        ? { value: null, evidence: date.evidence, note: `Couldn't tell: ${date.note.charAt(0).toLowerCase()}${date.note.slice(1)}` }
        : notFound("Couldn't tell: no publication or sign-off date was found.");

  let judged: Record<CarbonPlanPartKey, Judged>;
  let scope3Found: string[] = [];
  if (!isPlan) {
    const why =
      "the document does not read as a carbon reduction plan (no plan heading with a net zero commitment, emissions in tCO2e or Scope 1 and 2 figures).";
    judged = Object.fromEntries(
      CRP_PARTS.map((k) => [k, unsure(why, `Give the carbon reduction plan itself (this document does not read as one): ${ASK[k]} could not be checked.`)]),
    ) as Record<CarbonPlanPartKey, Judged>;
  } else {
    const baseline = judgeBaseline(st, scrub);
    const s3 = judgeScope3(st, scrub);
    scope3Found = s3.found;
    judged = {
      netZeroBy2050: judgeNetZero(st, scrub),
      baselineYearEmissions: baseline,
      currentYearEmissions: judgeCurrent(st, baseline, scrub),
      scope1and2: judgeScope12(st, scrub),
      scope3Categories: s3,
      reductionProjects: judgeProjects(st, scrub),
      directorSignOff: judgeSignOff(st, scrub, names.length > 0),
      updatedWithinYear: judgeUpdated(date, opts.today),
    };
  }

  const parts = Object.fromEntries(
    CRP_PARTS.map((k) => {
      const j = judged[k];
      return [k, { found: j.status === "found", status: j.status, note: scrub(j.note), evidence: j.evidence }];
    }),
  ) as Record<CarbonPlanPartKey, CarbonPlanPart>;
  const partsMet = CRP_PARTS.filter((k) => parts[k].found).length;
  const gaps = CRP_PARTS.filter((k) => !parts[k].found).map((k) => scrub(judged[k].gap ?? `${LABEL[k]}: ${parts[k].note}`));

  const who = company.value ?? "The supplier";
  const whose = /s$/i.test(who) ? `${who}'` : `${who}'s`;
  const dated = planDate.value ? ` (dated ${ukDate(planDate.value)})` : "";
  const list = (xs: readonly string[]) => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
  const s3Missing = REQUIRED_SCOPE3.filter((c) => !scope3Found.includes(c));
  const ask = (k: CarbonPlanPartKey) =>
    k === "scope3Categories" && parts[k].status === "not_found" && scope3Found.length
      ? `Scope 3 ${s3Missing.length === 1 ? "category" : "categories"} ${list(s3Missing)} (of the required 4, 5, 6, 7 and 9)`
      : ASK[k];
  const have = CRP_PARTS.filter((k) => parts[k].status === "found").map(ask);
  const missing = CRP_PARTS.filter((k) => parts[k].status === "not_found").map(ask);
  const unsureOf = CRP_PARTS.filter((k) => parts[k].status === "couldnt_tell").map(ask);
  const readingText = [
    isPlan
      ? `${whose} carbon reduction plan${dated} has ${partsMet} of the 8 parts the government template (PPN 06/21, now PPN 006) asks for${partsMet === 8 ? ": it meets the template" : ""}.`
      : `This document does not read as a carbon reduction plan, so the template's 8 parts could not be checked.`,
    isPlan && have.length ? `It has ${list(have)}.` : "",
    missing.length ? `Missing: ${list(missing)}.` : "",
    isPlan && unsureOf.length ? `Couldn't tell: ${list(unsureOf)}.` : "",
    isPlan && scope3Found.length ? `Scope 3 categories reported: ${scope3Found.join(", ")}.` : "",
    "This checks the plan's form only — that each part is there — never whether its figures are right.",
  ]
    .filter(Boolean)
    .join(" ");

  const facts: string[] = [];
  if (company.value) facts.push(`Supplier: ${company.value}.`);
  if (companyNumber.value) facts.push(`Company number given in the plan: ${companyNumber.value}.`);
  if (planDate.value) facts.push(`Plan dated ${ukDate(planDate.value)}${date.precision === "month" ? " (month only given)" : ""}.`);
  facts.push(`Template parts met: ${partsMet} of 8${partsMet === 8 ? " (meets the template)" : ""}.`);
  for (const k of CRP_PARTS) facts.push(`${LABEL[k]}: ${STATUS_WORD[parts[k].status]} — ${parts[k].note.replace(/^Couldn't tell:\s*/, "")}`);
  if (isPlan) facts.push(`Scope 3 categories reported: ${scope3Found.length ? scope3Found.join(", ") : "none"}.`);

  return {
    company: company.evidence
      ? {
          ...company,
          evidence: {
            ...company.evidence,
            quote: scrub(company.evidence.quote),
            section: company.evidence.section === null ? null : scrub(company.evidence.section),
          },
        }
      : company,
    companyNumber: companyNumber.evidence
      ? { ...companyNumber, evidence: { ...companyNumber.evidence, quote: scrub(companyNumber.evidence.quote) } }
      : companyNumber,
    planDate,
    parts,
    scope3Found,
    partsMet,
    partsTotal: 8,
    meetsTemplate: partsMet === 8,
    gaps,
    reading: scrub(readingText),
    facts: facts.map(scrub),
  };
}
