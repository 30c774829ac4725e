/**
 * The Ofsted report reader (issue 17 §3 "ofsted-report"): an Ofsted inspection report of a school (or another
 * provider: a college, a nursery, a training provider), whichever of its four formats it is in —
 *
 * 1. `graded-table-to-2019`: the Common Inspection Framework reports (to August 2019; also the earlier 2012–2015 table
 *    "Previous inspection: … / This inspection: …" and the short-inspection letters of good schools), a table of grades
 *    1–4 on page 1 ("Overall effectiveness", "Effectiveness of leadership and management", "Quality of teaching,
 *    learning and assessment", "Personal development, behaviour and welfare", "Outcomes for pupils"), "Summary of key
 *    findings for parents and pupils", "What does the school need to do to improve further?";
 * 2. `eif-2019-2024`: the Education Inspection Framework reports (September 2019 – August 2024): "What is it like to
 *    attend this school?", a table of "The quality of education", "Behaviour and attitudes", "Personal development",
 *    "Leadership and management" (and early years, sixth form) under "Overall effectiveness"; the ungraded (section 8)
 *    reports say the school "continues to be good";
 * 3. `no-overall-grade-2024`: the same framework's reports from September 2024, without a single-word overall grade
 *    (the sub-judgements still graded, safeguarding effective or not);
 * 4. `report-card-2025`: the report cards of the renewed framework (from November 2025): evaluation areas (inclusion,
 *    curriculum and teaching, achievement, …) on a five-point scale (exceptional … urgent improvement), safeguarding
 *    met or not met.
 *
 * Every field quotes the passage it rests on (the page, for a PDF) or says it couldn't tell. People are never named: a
 * quote that would hold a name (the headteacher, the chair, an inspector) has it replaced by "[name]". Deterministic and
 * pure: `today` is passed in.
 */
import { redactNames } from "./names";
import type { DocSection, DocSentence } from "./document";
import { type Evidence, type Fact, type Reading, found, notFound, quoteOf } from "./evidence";
import { datesIn, monthsBetween } from "./values";

// ---------------------------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------------------------

export type OfstedFormat = "graded-table-to-2019" | "eif-2019-2024" | "no-overall-grade-2024" | "report-card-2025";
export const OFSTED_FORMATS: OfstedFormat[] = ["graded-table-to-2019", "eif-2019-2024", "no-overall-grade-2024", "report-card-2025"];

/** The five-point scale of the report cards (November 2025 on), best first. */
export type ReportCardEvaluation = "exceptional" | "strong-standard" | "expected-standard" | "needs-attention" | "urgent-improvement";

export interface Grade {
  /** The grade as the report writes it ("Requires improvement", "Expected standard"). */
  grade: string;
  /** 1 outstanding, 2 good, 3 requires improvement, 4 inadequate (the four-point scale, formats 1–3); null on the five-point scale. */
  gradeNumber: 1 | 2 | 3 | 4 | null;
  /** The report-card evaluation (format 4); null on the four-point scale. */
  evaluation: ReportCardEvaluation | null;
}

export interface GradedArea extends Grade {
  /** The area's name as written ("Effectiveness of leadership and management"). */
  area: string;
  /** The normalised key (see `AREA_KEYS`). */
  key: string;
  evidence: Evidence;
  /** A disagreement between the grade table and the report's own text, or other qualification; null otherwise. */
  note: string | null;
}

export interface InspectionType {
  kind: "graded" | "ungraded" | "monitoring";
  /** The section of the Education Act 2005 (or other Act) it was carried out under, as the report says ("section 5"); null when it does not say. */
  section: string | null;
}

export interface SafeguardingStatus {
  /** As the report puts it: `effective` / `not-effective` (formats 1–3) or `met` / `not-met` (report cards). */
  status: "effective" | "not-effective" | "met" | "not-met";
  /** True for effective or met. */
  effective: boolean;
}

export interface PreviousInspection {
  /** The overall grade at the previous inspection as written, or null when only its date is given. */
  grade: string | null;
  gradeNumber: 1 | 2 | 3 | 4 | null;
  /** `YYYY-MM-DD`, or `YYYY-MM` when the report gives only the month; null when not stated. */
  date: string | null;
}

export interface QuotedPoint {
  /** The point, quoted (a bullet with its sub-points, or a sentence), shortened with … when long. */
  quote: string;
  page: number | null;
  section: string | null;
}

export interface ThemeCount {
  /** The theme's key (see `OFSTED_THEMES`). */
  key: string;
  /** Sentences of the report that mention it. */
  sentences: number;
  /** The first such sentence. */
  example: Evidence;
}

export interface OfstedReport {
  format: Fact<OfstedFormat>;
  provider: {
    name: Fact<string>;
    urn: Fact<string>;
    type: Fact<string>;
    category: Fact<string>;
  };
  inspectionType: Fact<InspectionType>;
  inspectionDates: Fact<{ from: string; to: string }>;
  monthsSinceInspection: number | null;
  overallEffectiveness: Fact<Grade>;
  gradedAreas: GradedArea[];
  safeguarding: Fact<SafeguardingStatus>;
  causingConcern: Fact<"special-measures" | "serious-weaknesses">;
  previousInspection: Fact<PreviousInspection>;
  strengths: QuotedPoint[];
  improvements: QuotedPoint[];
  themes: ThemeCount[];
  facts: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Lines: headings and sentences in document order (a grade table is read from either)
// ---------------------------------------------------------------------------------------------------------------

interface Line {
  /** Position among the lines. */
  i: number;
  text: string;
  page: number | null;
  section: string | null;
  sentence: DocSentence | null;
  heading: DocSection | null;
}

function linesOf(r: Reading): Line[] {
  const out: Line[] = [];
  for (const sec of r.doc.sections) {
    if (sec.heading) out.push({ i: out.length, text: sec.heading, page: sec.page, section: sec.heading, sentence: null, heading: sec });
    for (const s of r.sentencesOf(sec)) out.push({ i: out.length, text: s.text, page: s.page, section: s.section, sentence: s, heading: null });
  }
  return out;
}

/** The line as evidence: `part` (a table row, a bullet) quoted instead of the whole line when given; names removed. */
function cite(r: Reading, line: Line, match?: RegExp, part?: string): Evidence {
  if (line.sentence) r.cite(line.sentence, match);
  else if (line.heading) r.citeHeading(line.heading);
  let text = part ?? line.text;
  // A sentence that runs over several bullets (a PDF whose bullets are not read as such): the bullet that matched.
  if (part === undefined && match && BULLET_SPLIT.test(text))
    text = text.split(BULLET_SPLIT).find((p) => new RegExp(match.source, match.flags.replace("g", "")).test(p)) ?? text;
  text = text.replace(new RegExp(`^[\\s${BULLETS}\u0336–-]+`), "").replace(/\s+/g, " ");
  return { quote: quoteOf(redactText(r, text), match), page: line.page, section: line.section === null ? null : sectionName(r, line.section) };
}

// ---------------------------------------------------------------------------------------------------------------
// Privacy: people named in a report (headteacher, chair, inspectors, a letter's addressee) are never quoted
// (names.ts redactNames, with the names the document's layout shows: an inspection team's list, a letter's signer)
// ---------------------------------------------------------------------------------------------------------------

/** A quote with people's names out. */
const redactText = (r: Reading, text: string): string => redactNames(text, { known: r.people });
/** A heading as the evidence's section: names removed, and a heading that is only a name is "[name]". */
const sectionName = (r: Reading, heading: string): string => redactNames(heading, { line: true, known: r.people });

// ---------------------------------------------------------------------------------------------------------------
// Grades and the areas they are given for
// ---------------------------------------------------------------------------------------------------------------

const GRADE4 = String.raw`outstanding|good|requires?\s+improve?ments?|inadequate`;
const GRADE5 = String.raw`exceptional|strong\s+standard|expected\s+standard|needs\s+attention|urgent\s+improvements?`;
const GRADE = `${GRADE5}|${GRADE4}`;
const SAFEGUARDING_GRADE = String.raw`not\s+met|met|not\s+effective|ineffective|effective`;

/** A grade read from prose ("continues to be a good school"), written as the tables write it ("Good"). */
const proseGrade = (word: string): Grade | null => {
  const g = gradeOf(word);
  return g && { ...g, grade: g.grade.charAt(0).toUpperCase() + g.grade.slice(1).toLowerCase() };
};

export function gradeOf(written: string): Grade | null {
  const g = written.replace(/\s+/g, " ").trim();
  const l = g.toLowerCase();
  const four: [RegExp, 1 | 2 | 3 | 4][] = [
    [/^outstanding$/, 1],
    [/^good$/, 2],
    [/^requires? improve?ments?$/, 3],
    [/^inadequate$/, 4],
  ];
  for (const [re, n] of four) if (re.test(l)) return { grade: g, gradeNumber: n, evaluation: null };
  const five: [RegExp, ReportCardEvaluation][] = [
    [/^exceptional$/, "exceptional"],
    [/^strong standard$/, "strong-standard"],
    [/^expected standard$/, "expected-standard"],
    [/^needs attention$/, "needs-attention"],
    [/^urgent improvements?$/, "urgent-improvement"],
  ];
  for (const [re, e] of five) if (re.test(l)) return { grade: g, gradeNumber: null, evaluation: e };
  return null;
}

interface AreaDef {
  key: string;
  /** The area's name (regex source, matched case-insensitively). */
  label: string;
  /** Which framework(s) name it so (for recognising the format). */
  framework: "cif" | "eif" | "card" | "fe" | "any";
}

/**
 * The graded areas of the four formats (and of further-education and early-years reports), longest names first where
 * one contains another. The key is what `gradedAreas[].key` gives.
 */
const AREAS: AreaDef[] = [
  // Common Inspection Framework (2015–2019) and the 2012–2015 table.
  { key: "leadership-and-management", label: String.raw`(?:the\s+)?effectiveness\s+of\s+(?:the\s+)?leadership\s+(?:and|&)\s+management`, framework: "cif" },
  {
    key: "quality-of-teaching",
    label: String.raw`(?:the\s+)?quality\s+of\s+teaching,?\s+learning,?\s+(?:and|&)\s+assessment|(?:the\s+)?quality\s+of\s+teaching`,
    framework: "cif",
  },
  { key: "personal-development-behaviour-and-welfare", label: String.raw`personal\s+development,?\s+behaviour,?\s+(?:and|&)\s+welfare`, framework: "cif" },
  {
    key: "outcomes",
    label: String.raw`outcomes\s+for\s+(?:pupils|children(?:\s+and\s+learners)?|learners|young\s+people)|achievement\s+of\s+pupils`,
    framework: "cif",
  },
  { key: "behaviour-and-safety", label: String.raw`behaviour\s+and\s+safety\s+of\s+pupils`, framework: "cif" },
  // Education Inspection Framework (2019–2025).
  { key: "quality-of-education", label: String.raw`(?:the\s+)?quality\s+of\s+education`, framework: "eif" },
  { key: "behaviour-and-attitudes", label: String.raw`behaviour\s+(?:and|&)\s+attitudes`, framework: "eif" },
  // Report cards (November 2025 on).
  { key: "personal-development-and-well-being", label: String.raw`personal\s+development\s+(?:and|&)\s+well[-\s]?being`, framework: "card" },
  { key: "inclusion", label: String.raw`inclusion`, framework: "card" },
  { key: "curriculum-and-teaching", label: String.raw`curriculum\s+(?:and|&)\s+teaching`, framework: "card" },
  { key: "achievement", label: String.raw`achievement`, framework: "card" },
  { key: "attendance-and-behaviour", label: String.raw`attendance\s+(?:and|&)\s+behaviour`, framework: "card" },
  { key: "leadership-and-governance", label: String.raw`leadership\s+(?:and|&)\s+governance`, framework: "card" },
  // Shared.
  { key: "personal-development", label: String.raw`personal\s+development`, framework: "eif" },
  { key: "leadership-and-management", label: String.raw`leadership\s+(?:and|&)\s+management`, framework: "any" },
  {
    key: "early-years",
    label: String.raw`(?:the\s+)?(?:effectiveness\s+of\s+(?:the\s+)?)?early\s+years(?:\s+(?:provision|foundation\s+stage))?`,
    framework: "any",
  },
  { key: "sixth-form", label: String.raw`sixth[-\s]form(?:\s+provision)?|16\s+to\s+19\s+study\s+programmes`, framework: "any" },
  // Further education and skills.
  { key: "education-programmes-for-young-people", label: String.raw`education\s+programmes\s+for\s+young\s+people`, framework: "fe" },
  { key: "adult-learning-programmes", label: String.raw`adult\s+learning\s+programmes`, framework: "fe" },
  { key: "apprenticeships", label: String.raw`apprenticeships`, framework: "fe" },
  { key: "provision-for-learners-with-high-needs", label: String.raw`provision\s+for\s+learners\s+with\s+high\s+needs`, framework: "fe" },
];

/** Every `gradedAreas[].key` the reader gives. */
export const AREA_KEYS = [...new Set(AREAS.map((a) => a.key))];

/** Rows that are not graded areas: the overall grade, the previous inspection's, safeguarding. */
const OVERALL_LABEL = String.raw`overall\s+effectiveness(?!\s+at\s)|this\s+inspection(?=\s*:)`;
const PREVIOUS_LABEL = String.raw`overall\s+effectiveness\s+at\s+(?:the\s+)?previous\s+inspection|previous\s+inspection\s+grade|previous\s+inspection(?=\s*:)`;

interface Row {
  key: string;
  /** The label as written. */
  label: string;
  /** The grade as written. */
  written: string;
  line: Line;
  /** The row's own text (label and grade). */
  part: string;
  /** `table`: a row of a grade table; `heading`: a judgement heading of the report's text ("Outcomes for pupils require improvement"). */
  source: "table" | "heading";
}

const ROW_DEFS: { key: string; label: string; grades: string }[] = [
  { key: "previous", label: PREVIOUS_LABEL, grades: `${GRADE4}|not\\s+previously\\s+inspected` },
  { key: "overall", label: OVERALL_LABEL, grades: GRADE4 },
  { key: "safeguarding", label: String.raw`safeguarding(?:\s+standards)?`, grades: SAFEGUARDING_GRADE },
  ...AREAS.map((a) => ({ key: a.key, label: a.label, grades: GRADE })),
];

const startsUpper = (s: string) => /^\p{Lu}/u.test(s.trim());

/** Each row kind's regexes, compiled once: in a line ("Label Grade"), a label alone, a grade opening the next line. */
const ROW_RES = ROW_DEFS.map((d) => ({
  ...d,
  inLine: new RegExp(
    String.raw`(?<![\p{L}\-’'])(${d.label})(\s*[:\-–—|]\s*(?:(?:grade|judgement|evaluation)\s*:?\s*)?|\s+(?:grade|judgement|evaluation)\s*:?\s*|\s+(?:(?:is|are|remains?|continues?\s+to\s+be)\s+)?|\s*(?:\(\s*)?)(${d.grades})\b(?:\s*\(?([1-4])\)?(?![\d.,]))?`,
    "giu",
  ),
  alone: new RegExp(String.raw`^(?:${d.label})\s*:?$`, "iu"),
  opens: new RegExp(String.raw`^(${d.grades})\b`, "iu"),
}));

/**
 * The grade rows of a line: "Label Grade" (as a table reads, several to a line when the PDF joins the table's lines),
 * "Label: Grade" or "Label – Grade"; and the judgement headings of the report's text ("Personal development, behaviour
 * and welfare is good").
 */
/** Quick tests a line must pass before its rows are looked for: a grade word and a judgement's name. */
const ANY_GRADE = new RegExp(String.raw`\b(?:${GRADE}|${SAFEGUARDING_GRADE}|not\s+previously\s+inspected)\b`, "iu");
/** A word every way of writing the row's name contains (lower case): rows are looked for only where it is. */
const HINTS: Record<string, string[]> = {
  previous: ["previous"],
  overall: ["overall", "this inspection"],
  safeguarding: ["safeguarding"],
  "leadership-and-management": ["management"],
  "quality-of-teaching": ["teaching"],
  "personal-development-behaviour-and-welfare": ["welfare"],
  outcomes: ["outcomes", "achievement"],
  "behaviour-and-safety": ["safety"],
  "quality-of-education": ["education"],
  "behaviour-and-attitudes": ["attitudes"],
  "personal-development-and-well-being": ["being"],
  inclusion: ["inclusion"],
  "curriculum-and-teaching": ["curriculum"],
  achievement: ["achievement"],
  "attendance-and-behaviour": ["attendance"],
  "leadership-and-governance": ["governance"],
  "personal-development": ["personal"],
  "early-years": ["early"],
  "sixth-form": ["sixth", "16 to 19"],
  "education-programmes-for-young-people": ["programmes"],
  "adult-learning-programmes": ["adult"],
  apprenticeships: ["apprenticeships"],
  "provision-for-learners-with-high-needs": ["high needs"],
};

function rowsOf(line: Line, next: Line | undefined): Row[] {
  const text = line.text.replace(/\s+/g, " ");
  const hits: (Row & { start: number; end: number })[] = [];
  const lower = text.toLowerCase();
  const candidate = ANY_GRADE.test(text);
  for (const d of candidate ? ROW_RES : []) {
    if (!(HINTS[d.key] ?? [""]).some((h) => lower.includes(h))) continue;
    const re = d.inLine;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const [all, label, sep, written] = m;
      const verbal = /\b(is|are|remains?|continues?)\b/i.test(sep);
      const separated = /[:\-–—|(]|grade|judgement|evaluation/i.test(sep);
      const whole = all.length >= text.replace(/[.\s]+$/, "").length - 1;
      const opens = /^\W*(?:the\s+)?$/i.test(text.slice(0, m.index)) && text.length <= 100;
      let source: Row["source"] | null = null;
      if (verbal) {
        // "Personal development, behaviour and welfare is good": the line opens with it and is short (a heading).
        if (opens) source = "heading";
      } else if (d.key === "safeguarding") {
        // "Safeguarding Effective", "Safeguarding: Not met" — never prose ("… safeguarding effectively").
        if ((startsUpper(label) && startsUpper(written)) || separated || whole) source = "table";
      } else if ((startsUpper(label) && startsUpper(written)) || separated) source = "table";
      else if (opens && /^\s+$/.test(sep)) source = "heading"; // "Outcomes for pupils require improvement"
      if (!source) continue;
      hits.push({
        key: d.key,
        label: label.trim(),
        written: written.replace(/\s+/g, " ").trim(),
        line,
        part: all.trim(),
        source,
        start: m.index,
        end: m.index + all.length,
      });
    }
  }
  // The label on its own line and the grade on the next (an HTML table's cells, a report card's heading and its grade).
  if (next && !hits.length && text.length <= 60)
    for (const d of ROW_RES) {
      if (!d.alone.test(text.trim())) continue;
      const g = d.opens.exec(next.text.trim());
      if (g && (next.text.trim().length <= g[0].length + 2 || startsUpper(g[1]))) {
        hits.push({
          key: d.key,
          label: text.trim().replace(/:$/, ""),
          written: g[1].replace(/\s+/g, " "),
          line,
          part: `${text.trim()} ${g[1]}`,
          source: "table",
          start: 0,
          end: text.length,
        });
        break;
      }
    }
  // Where names overlap ("Effectiveness of leadership and management" / "leadership and management"), the longest, earliest, wins.
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: typeof hits = [];
  for (const h of hits) if (!kept.some((k) => h.start < k.end && h.end > k.start)) kept.push(h);
  return kept.map(({ start: _s, end: _e, ...row }) => row);
}

/**
 * A grade table read column by column (the PDF gives all the names, then all the grades: "Overall effectiveness The
 * quality of education … Good Requires improvement …"): a run of three or more names followed by as many grades,
 * paired in order.
 */
const LABEL_AT = ROW_DEFS.map((d) => ({
  key: d.key,
  grades: new RegExp(String.raw`^(?:${d.grades})$`, "iu"),
  re: new RegExp(String.raw`(?:${d.label})(?![\p{L}])`, "iuy"),
}));
const GRADE_AT = new RegExp(String.raw`(?:${GRADE}|${SAFEGUARDING_GRADE}|not\s+previously\s+inspected|not\s+applicable)(?![\p{L}])`, "iuy");

function columnRows(lines: Line[]): Row[] {
  type Token = { kind: "label" | "grade" | "other"; key?: string; text: string; line: Line };
  const tokens: Token[] = [];
  for (const line of lines) {
    const text = line.text;
    for (let i = 0; i < text.length; ) {
      if (/\s/.test(text[i])) {
        i++;
        continue;
      }
      let best: Token | null = null;
      for (const l of LABEL_AT) {
        l.re.lastIndex = i;
        const m = l.re.exec(text);
        if (m && (!best || m[0].length > best.text.length)) best = { kind: "label", key: l.key, text: m[0], line };
      }
      GRADE_AT.lastIndex = i;
      const g = GRADE_AT.exec(text);
      if (g && (!best || g[0].length >= best.text.length)) best = { kind: "grade", text: g[0], line };
      if (!best) {
        const end = text.slice(i).search(/\s/);
        best = { kind: "other", text: text.slice(i, end < 0 ? text.length : i + end), line };
      }
      tokens.push(best);
      i += best.text.length;
    }
  }
  const rows: Row[] = [];
  for (let a = 0; a < tokens.length; a++) {
    let n = 0;
    while (tokens[a + n]?.kind === "label") n++;
    const grades = tokens.slice(a + n, a + 2 * n);
    if (n >= 3 && grades.length === n && grades.every((t) => t.kind === "grade")) {
      for (let k = 0; k < n; k++) {
        const label = tokens[a + k];
        const grade = grades[k].text.replace(/\s+/g, " ");
        const def = LABEL_AT.find((d) => d.key === label.key)!;
        if (!def.grades.test(grade) || /not applicable/i.test(grade)) continue;
        const name = label.text.replace(/\s+/g, " ");
        rows.push({ key: label.key!, label: name, written: grade, line: label.line, part: `${name} … ${grade}`, source: "table" });
      }
      a += 2 * n - 1;
    } else if (n) a += n - 1;
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------------------------

const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const DAY = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;
/** "9 – 10 February 2016", "14 and 15 May 2019", "30 September – 1 October 2019", "10, 11 and 12 March 2020", "31 December 2019 to 2 January 2020". */
const RANGE = new RegExp(
  String.raw`${DAY}(?:\s+(${MONTH})\.?)?(?:\s+(\d{4}))?(?:\s*,\s*\d{1,2}(?:st|nd|rd|th)?)*\s*(?:–|—|-|to|and|&)\s*${DAY}\s+(${MONTH})\.?,?\s+(\d{4})`,
  "i",
);

const isoOf = (day: string, month: string, year: string) => datesIn(`${day} ${month} ${year}`).find((d) => d.precision === "day")?.iso ?? null;

/** The inspection's first and last day in a text, or null. */
export function inspectionRangeIn(text: string): { from: string; to: string; text: string } | null {
  const m = RANGE.exec(text);
  if (m) {
    const [all, d1, m1, y1, d2, m2, y2] = m;
    const to = isoOf(d2, m2, y2);
    const from = isoOf(d1, m1 ?? m2, y1 ?? (m1 && monthIndex(m1) > monthIndex(m2) ? String(Number(y2) - 1) : y2));
    if (from && to && from <= to) return { from, to, text: all };
  }
  const single = datesIn(text).find((d) => d.precision === "day");
  return single ? { from: single.iso, to: single.iso, text: single.text } : null;
}

const monthIndex = (m: string) => ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].indexOf(m.slice(0, 3).toLowerCase());

// ---------------------------------------------------------------------------------------------------------------
// Themes
// ---------------------------------------------------------------------------------------------------------------

/** The fixed list of themes counted (sentences mentioning each), with what counts as a mention. */
export const OFSTED_THEMES: { key: string; re: RegExp }[] = [
  { key: "reading", re: /\b(reading|phonics|readers?|read(s)? (widely|fluently|often))\b/i },
  { key: "writing-and-literacy", re: /\b(writing|literacy|spelling|handwriting|grammar|vocabulary)\b/i },
  { key: "mathematics", re: /\b(mathematics|maths|mathematical|numeracy|arithmetic)\b/i },
  { key: "curriculum", re: /\bcurricul(um|a|ar)\b/i },
  { key: "teaching-and-assessment", re: /\b(teaching|assessment|assess(es|ed)?|feedback|homework)\b/i },
  { key: "achievement", re: /\b(achievement|achieve[sd]?|attainment|outcomes|progress|results|examinations?|GCSEs?|A levels?|qualifications?)\b/i },
  { key: "behaviour", re: /\b(behaviour|behave[sd]?|conduct|disruption|disruptive|exclusions?|excluded|suspensions?)\b/i },
  { key: "bullying", re: /\bbull(y|ying|ied)\b/i },
  { key: "attendance", re: /\b(attendance|absence|absent|punctual(ity)?|truancy)\b/i },
  { key: "send", re: /\b(SEND|special educational needs|disabilit(y|ies)|EHC plans?|education,? health and care plans?|SENCo)\b/ },
  { key: "disadvantaged", re: /\b(disadvantaged|pupil premium|free school meals)\b/i },
  { key: "inclusion", re: /\b(inclusion|inclusive)\b/i },
  { key: "safeguarding", re: /\b(safeguarding|child protection|safe|safety|safely)\b/i },
  {
    key: "personal-development",
    re: /\b(personal development|PSHE|British values|spiritual|moral|relationships (and sex )?education|character|citizenship)\b/i,
  },
  { key: "wellbeing", re: /\b(well-?being|mental health|pastoral|emotional)\b/i },
  { key: "careers", re: /\b(careers?|work experience|employment|next stage)\b/i },
  { key: "leadership", re: /\b(leaders?|leadership|headteacher|principal|managers?)\b/i },
  { key: "governance", re: /\b(governors?|governance|governing body|trustees?|trust board|proprietor)\b/i },
  { key: "staff", re: /\b(staff training|professional development|workload|recruitment|staffing|teachers' (well-?being|workload))\b/i },
  { key: "parents", re: /\b(parents?|carers?|families)\b/i },
  { key: "early-years", re: /\b(early years|EYFS|nursery|Reception( class| year)?|children in the Reception)\b/ },
  { key: "sixth-form", re: /\b(sixth[- ]form|post-16|16 to 19|students in Years 12 and 13)\b/i },
];

/** Ofsted's own boilerplate (complaints, Parent View, the licence, the back page): not counted or quoted. */
const BOILERPLATE =
  /regulates and inspects|Open Government Licence|Crown copyright|making a complaint about Ofsted|use (Ofsted )?Parent View|information parents and carers provide|looked after children, safeguarding and child protection|large print or Braille|monthly newsletter|www\.gov\.uk|nationalarchives|enquiries@ofsted|You can search for published performance information|school inspection handbook|under section \d+ of the Education Act 2005|Piccadilly Gate/i;

// ---------------------------------------------------------------------------------------------------------------
// The reader
// ---------------------------------------------------------------------------------------------------------------

const FORMAT_LABEL: Record<OfstedFormat, string> = {
  "graded-table-to-2019": "a graded-table report (Common Inspection Framework, to 2019)",
  "eif-2019-2024": "an Education Inspection Framework report (2019–2024)",
  "no-overall-grade-2024": "a report from September 2024 without an overall grade",
  "report-card-2025": "a report card (renewed framework, from November 2025)",
};

const NO_OVERALL_STATEMENT =
  /\b(no longer (?:make|makes|give|gives|award|awards)\s+(?:a|an)?\s*(?:single[- ]word\s+)?overall(?: effectiveness)? (?:judgement|grade)|without (?:a|an) (?:single[- ]word )?overall (?:effectiveness )?(?:judgement|grade)|(?:has|have) not (?:made|given) (?:a|an) (?:single[- ]word )?overall (?:effectiveness )?(?:judgement|grade)|overall effectiveness (?:judgement|grade) (?:has|have) been removed|does not (?:include|give) (?:a|an) (?:single[- ]word )?overall (?:effectiveness )?(?:judgement|grade)|no (?:single[- ]word )?overall (?:effectiveness )?(?:judgement|grade))/i;
const REPORT_CARD = /\breport cards?\b|\brenewed (?:education )?inspection framework\b|\bevaluation areas?\b/i;
const EIF_HEADING =
  /\b(?:what is it like to (?:attend this school|be a (?:pupil|learner|student)|attend)|what is it like for (?:your child|children|learners)|what does the (?:early years )?(?:school|provider|setting|college|academy) do well and what does it need to do better)/i;
const CIF_MARK =
  /\b(summary of key findings for (?:parents|learners|children)|what does the (?:school|provider|setting) need to do to improve further|short inspection of|this school continues to be (?:good|outstanding)|the school has the following strengths|it is not yet (?:good|outstanding) because)\b/i;
const CONTINUES = /\b(?:continues to be|remains)\s+(?:a\s+|an\s+)?(good|outstanding)(?:\s+school)?\b/i;
const IMPROVE_HEAD =
  /(?:what (?:does|do) (?:the )?(?:school|provider|setting|academy|college|trust|leaders?)(?: and [\w\s]{3,40}?)? (?:need|needs) to do to improve(?: further)?\??|^next steps(?: for the (?:school|provider|setting|college))?:?|^areas? for (?:improvement|development):?|^priorities for (?:further )?improvement:?|^to improve further,? the school should:?|^what (?:the school|leaders) (?:should|must) do to improve:?)/i;
const STRENGTH_SECTION = /(following strengths|^strengths\b|what is it like|do well|key findings|main findings|^summary|what we found|inspection findings)/i;
const POSITIVE =
  /\b(well|strong(ly)?|high(ly)?|proud|ambitious|enjoy(s|ed)?|effective(ly)?|success(ful(ly)?)?|excellent|exceptional(ly)?|thrive|good|positive(ly)?|safe|kind|respectful|caring|confident(ly)?|rich|broad|secure(ly)?|rapid(ly)?|impressive(ly)?|outstanding|improv(ing|ed)|calm|happy|supportive|skilful(ly)?|expert(ly)?|wide range)\b/i;
const NEGATIVE =
  /\b(not|no|never|too|however|although|though|but|weak(ness(es)?)?|inconsisten\w*|variable|vary|varies|need(s)? to|should|must|less|yet|insufficient(ly)?|poor(ly)?|low(er)?|slow(ly|er)?|gaps?|concern\w*|require[sd]? improvement|inadequate|lack\w*|fail\w*|struggle\w*|limited|uneven|below|declin\w*|dip)\b/i;
/** Bullets as PDFs give them: "•", and a symbol font's bullet read as U+0084, U+0095 or a private-use character. */
const BULLETS = "•▪●■\u0084\u0095\uf0b7\uf0a7\uf076\uf0d8";
const BULLET_SPLIT = new RegExp(`[${BULLETS}]`);
const CAUSING_CONCERN =
  /\b(?:requires?|is in|placed in|remains in|is subject to|be made subject to)\s+(special measures)\b|\b(?:has|have)\s+(serious weaknesses)\b/i;
const NO_LONGER_CONCERN = /\bno longer\b.{0,40}\b(special measures|serious weaknesses)\b|\b(removed from|taken out of) special measures\b/i;

const fiveWords = (r: Reading) => r.mentions(new RegExp(`\\b(${GRADE5})\\b`, "i"));

export function readOfstedReport(reading: Reading, opts: { today: string }): OfstedReport {
  const r = reading;
  const lines = linesOf(r);
  const body = lines.filter((l) => !BOILERPLATE.test(l.text));

  // --- Grade rows (tables and judgement headings) -------------------------------------------------------------
  const rows: Row[] = [];
  lines.forEach((l, k) => {
    const own = rowsOf(l, lines[k + 1]);
    const next = lines[k + 1];
    // A table cell wrapped over two lines ("Sixth-form" / "provision Good"): the two read together.
    if (!own.length && next && l.text.length <= 40 && !/[.!?]$/.test(l.text)) {
      const joined = rowsOf({ ...l, text: `${l.text} ${next.text}` }, undefined).filter(
        (x) => x.source === "table" && x.part.startsWith(l.text) && x.part.length > l.text.length + 1,
      );
      if (joined.length) own.push({ ...joined[0], line: next });
    }
    rows.push(...own);
  });
  // A table read column by column (all the names, then all the grades), in the report's first lines.
  if (!rows.some((x) => x.source === "table")) rows.push(...columnRows(lines.slice(0, 80)));
  const firstRow = (key: string, source?: Row["source"]) => rows.find((x) => x.key === key && (!source || x.source === source)) ?? null;

  // --- Dates -------------------------------------------------------------------------------------------------
  const inspectionDates = datesOf(r, lines);
  const inspectedOn = inspectionDates.value?.to ?? null;

  // --- Format -----------------------------------------------------------------------------------------------
  const areaRows = rows.filter((x) => AREAS.some((a) => a.key === x.key));
  const fiveRows = areaRows.filter((x) => gradeOf(x.written)?.evaluation);
  const safeguardingMet = rows.find((x) => x.key === "safeguarding" && /met/i.test(x.written));
  const cifKeys = new Set(["quality-of-teaching", "personal-development-behaviour-and-welfare", "outcomes", "behaviour-and-safety"]);
  const eifKeys = new Set(["quality-of-education", "behaviour-and-attitudes", "personal-development"]);
  const cifRows = areaRows.filter((x) => cifKeys.has(x.key));
  const eifRows = areaRows.filter((x) => eifKeys.has(x.key) && gradeOf(x.written)?.gradeNumber);
  const eifHeading = lines.find((l) => EIF_HEADING.test(l.text)) ?? null;
  const cifMark = lines.find((l) => CIF_MARK.test(l.text)) ?? null;
  const noOverallLine = lines.find((l) => NO_OVERALL_STATEMENT.test(l.text)) ?? null;
  const cardLine = lines.find((l) => REPORT_CARD.test(l.text)) ?? null;
  const overallTable = firstRow("overall", "table");
  const ofstedish = r.mentions(/\bOfsted\b|\binspection\b|\binspectors?\b/i);

  let format: Fact<OfstedFormat>;
  if (fiveRows.length || safeguardingMet || (cardLine && ofstedish && (fiveWords(r) || (inspectedOn !== null && inspectedOn >= "2025-11-10")))) {
    const n = new Set(fiveRows.map((x) => x.key)).size;
    const why = fiveRows.length
      ? `${n} evaluation area${n === 1 ? "" : "s"} graded on the report cards' five-point scale (e.g. "${fiveRows[0].part}")`
      : safeguardingMet
        ? `safeguarding judged "${safeguardingMet.written}" (report cards say met or not met)`
        : fiveWords(r)
          ? "it calls itself a report card and uses the five-point scale"
          : `it calls itself a report card and was inspected on ${inspectedOn} (report cards from 10 November 2025)`;
    const line = fiveRows[0]?.line ?? safeguardingMet?.line ?? cardLine!;
    format = found("report-card-2025", cite(r, line, undefined, fiveRows[0]?.part ?? safeguardingMet?.part), `Recognised by ${why}.`);
  } else if (cifRows.length || (cifMark && !eifHeading && !eifRows.length)) {
    const why = cifRows.length
      ? `the Common Inspection Framework's judgements (${[...new Set(cifRows.map((x) => x.label))]
          .slice(0, 3)
          .map((s) => `"${s}"`)
          .join(", ")})`
      : `"${CIF_MARK.exec(cifMark!.text)![0]}"`;
    format = found("graded-table-to-2019", cite(r, cifRows[0]?.line ?? cifMark!, undefined, cifRows[0]?.part), `Recognised by ${why}.`);
  } else if (eifRows.length || eifHeading) {
    const line = eifRows[0]?.line ?? eifHeading!;
    const part = eifRows[0]?.part;
    const what = eifRows.length ? `the Education Inspection Framework's judgements ("${eifRows[0].label}")` : `"${eifHeading!.text}"`;
    if (overallTable) format = found("eif-2019-2024", cite(r, line, undefined, part), `Recognised by ${what} with an overall effectiveness grade.`);
    else if (noOverallLine)
      format = found(
        "no-overall-grade-2024",
        cite(r, noOverallLine, NO_OVERALL_STATEMENT),
        `Recognised by ${what} and the statement that there is no overall grade.`,
      );
    else if (inspectedOn && inspectedOn >= "2024-09-01")
      format = found(
        "no-overall-grade-2024",
        cite(r, line, undefined, part),
        `Recognised by ${what}, no overall effectiveness grade, and the inspection date (${inspectedOn}, after Ofsted stopped giving schools an overall grade in September 2024).`,
      );
    else if (eifRows.length)
      format = found(
        "no-overall-grade-2024",
        cite(r, line, undefined, part),
        `Recognised by ${what} graded without an overall effectiveness grade (the reports from September 2024 give none); the inspection date was not found to confirm it.`,
      );
    else
      format = found(
        "eif-2019-2024",
        cite(r, line, undefined, part),
        `Recognised by ${what}; no grade table was read (an ungraded report of the 2019–2024 framework has none).`,
      );
  } else if (ofstedish && (rows.length || CONTINUES.test(r.doc.text))) {
    const row = rows[0];
    if (row)
      format = found(
        "graded-table-to-2019",
        cite(r, row.line, undefined, row.part),
        "Only an overall grade was recognised (no framework's own judgement names): read as a graded-table report.",
      );
    else format = notFound("An inspection is mentioned but none of the four formats' judgements or headings were found.");
  } else format = notFound("This does not read as an Ofsted inspection report: none of the four formats' grade tables, judgements or headings were found.");
  const fmt = format.value;

  // --- Graded areas ------------------------------------------------------------------------------------------
  const gradedAreas: GradedArea[] = [];
  if (fmt)
    for (const key of [...new Set(areaRows.map((x) => x.key))]) {
      const table = areaRows.find((x) => x.key === key && x.source === "table");
      const heading = areaRows.find((x) => x.key === key && x.source === "heading");
      const row = table ?? heading!;
      const g = gradeOf(row.written);
      if (!g) continue;
      // The five-point scale only on report cards; the four-point one only before them.
      if ((fmt === "report-card-2025") !== (g.evaluation !== null)) continue;
      if (fmt !== "report-card-2025" && AREAS.find((a) => a.key === key)?.framework === "card" && row.source !== "table") continue;
      let note: string | null = null;
      if (table && heading) {
        const h = gradeOf(heading.written);
        if (h && h.grade.toLowerCase() !== g.grade.toLowerCase() && h.gradeNumber !== g.gradeNumber)
          note = `The grade table says "${g.grade}" but the report's text says "${heading.part}"${heading.line.page ? ` (page ${heading.line.page})` : ""}; the table's grade is given.`;
      }
      gradedAreas.push({ area: row.label.replace(/\s+/g, " "), key, ...g, evidence: cite(r, row.line, undefined, row.part), note });
    }

  // --- Overall effectiveness --------------------------------------------------------------------------------
  const overallEffectiveness = overallOf(r, lines, rows, fmt);

  // --- Provider, inspection type, safeguarding, previous inspection -------------------------------------------
  const provider = providerOf(r, lines);
  const gradedRow =
    (gradedAreas.length ? rows.find((x) => x.key === gradedAreas[0].key) : null) ?? rows.find((x) => x.key === "overall" && x.source === "table") ?? null;
  const inspectionType = inspectionTypeOf(r, lines, fmt, gradedRow);
  const safeguarding = safeguardingOf(r, lines, rows, fmt);
  const previousInspection = previousOf(r, lines, rows);
  const causingConcern = concernOf(r, lines);

  // --- Strengths and improvements ----------------------------------------------------------------------------
  const parts = partsOf(lines);
  const improvements = fmt ? improvementsOf(r, parts) : [];
  const strengths = fmt ? strengthsOf(r, parts, improvements, fmt) : [];

  // --- Themes ------------------------------------------------------------------------------------------------
  // Counted over the report's sentences (a sentence that runs over several bullets counted as its bullets), not over
  // the grade table's rows nor Ofsted's boilerplate.
  const tableLines = new Set(rows.filter((x) => x.source === "table").map((x) => x.line.i));
  const units = body
    .filter((l) => l.sentence && !tableLines.has(l.i))
    .flatMap((l) =>
      l.text
        .split(BULLET_SPLIT)
        .filter((p) => /\p{L}{3}/u.test(p))
        .map((p) => ({ line: l, text: p })),
    );
  const themes: ThemeCount[] = [];
  if (fmt)
    for (const t of OFSTED_THEMES) {
      const hits = units.filter((u) => t.re.test(u.text));
      if (hits.length) themes.push({ key: t.key, sentences: hits.length, example: cite(r, hits[0].line, t.re) });
    }
  themes.sort((a, b) => b.sentences - a.sentences || OFSTED_THEMES.findIndex((t) => t.key === a.key) - OFSTED_THEMES.findIndex((t) => t.key === b.key));

  const monthsSinceInspection =
    inspectedOn && /^\d{4}-\d{2}-\d{2}$/.test(opts.today) && inspectedOn <= opts.today ? monthsBetween(inspectedOn, opts.today) : null;
  if (inspectedOn && inspectedOn > opts.today && inspectionDates.value)
    inspectionDates.note = `${inspectionDates.note ? inspectionDates.note + " " : ""}The dates read are after today (${opts.today}): check them.`;

  const report: Omit<OfstedReport, "facts"> = {
    format,
    provider,
    inspectionType,
    inspectionDates,
    monthsSinceInspection,
    overallEffectiveness,
    gradedAreas,
    safeguarding,
    causingConcern,
    previousInspection,
    strengths,
    improvements,
    themes,
  };
  return { ...report, facts: factsOf(report) };
}

// ---------------------------------------------------------------------------------------------------------------
// Fields
// ---------------------------------------------------------------------------------------------------------------

function datesOf(r: Reading, lines: Line[]): Fact<{ from: string; to: string }> {
  const labelled = [
    /\binspection dates?\s*:?\s*/i,
    /\bdates? of (?:the )?inspection\s*:?\s*/i,
    /\binspection report:?\s+[^\n]{3,120}?,?\s+(?=\d)/i,
    /\b(?:visit(?:ed)?|inspection) (?:to|of) (?:the|your) (?:school|college|setting|provider|academy)(?: that took place)? on\s+/i,
    /\b(?:took place|inspected|carried out) on\s+/i,
  ];
  for (const label of labelled)
    for (const l of lines) {
      const m = label.exec(l.text);
      if (!m) continue;
      const after = l.text.slice(m.index + m[0].length, m.index + m[0].length + 60);
      const range = inspectionRangeIn(after);
      if (range) {
        const match = new RegExp(range.text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
        // The label and the dates when they are written together ("Inspection dates 9–10 February 2016").
        const part = after.indexOf(range.text) <= 2 ? `${m[0].trim()} ${range.text}` : quoteOf(l.text, match, 160);
        return found({ from: range.from, to: range.to }, cite(r, l, match, part));
      }
    }
  return notFound('No inspection date was found (looked for "Inspection date(s)", the running header and "visit … on").');
}

function overallOf(r: Reading, lines: Line[], rows: Row[], fmt: OfstedFormat | null): Fact<Grade> {
  if (fmt === "report-card-2025")
    return notFound("Report cards (from November 2025) give no overall grade: each evaluation area is graded on its own five-point scale (see gradedAreas).");
  const table = rows.find((x) => x.key === "overall" && x.source === "table" && gradeOf(x.written)?.gradeNumber);
  if (fmt === "no-overall-grade-2024" && !table)
    return notFound(
      "No overall effectiveness grade: from September 2024 Ofsted stopped giving schools a single-word overall grade; the sub-judgements are in gradedAreas.",
    );
  const summary = lines.find((l) =>
    /\bthis is (?:a|an) (good|outstanding|inadequate) school\b|\bthis is a school that (requires improvement)\b|\bthis school (requires improvement|is inadequate)\b/i.test(
      l.text,
    ),
  );
  const summaryGrade = summary
    ? proseGrade(/\b(good|outstanding|inadequate|requires improvement)\b/i.exec(summary.text.replace(/.*?this (?:is|school)/i, ""))![1])
    : null;
  if (table) {
    const g = gradeOf(table.written)!;
    const heading = rows.find((x) => x.key === "overall" && x.source === "heading");
    const h = heading ? gradeOf(heading.written) : null;
    const disagree = h && h.gradeNumber !== g.gradeNumber ? h : summaryGrade && summaryGrade.gradeNumber !== g.gradeNumber ? summaryGrade : null;
    const note = disagree
      ? `The grade table says "${g.grade}" but the report's text says "${disagree.grade.toLowerCase()}"; the table's grade is given.`
      : null;
    return found(g, cite(r, table.line, undefined, table.part), note);
  }
  const heading = rows.find((x) => x.key === "overall" && gradeOf(x.written)?.gradeNumber);
  if (heading) return found(gradeOf(heading.written)!, cite(r, heading.line, undefined, heading.part));
  if (summary && summaryGrade)
    return found(
      summaryGrade,
      cite(r, summary, /this is (?:a|an)[^.]*school|this school [^.]*/i),
      "Read from the summary of key findings (no grade table was found).",
    );
  const cont = lines.find(
    (l) => CONTINUES.test(l.text) && /\b(school|provider|setting|college|academy)\b/i.test(l.text) && !/\bif\b|\bwhether\b/i.test(l.text),
  );
  if (cont) {
    const g = proseGrade(CONTINUES.exec(cont.text)![1])!;
    return found(
      g,
      cite(r, cont, CONTINUES),
      "An ungraded inspection: it gives no new grade but confirms that the grade of the previous graded inspection stands.",
    );
  }
  if (lines.some((l) => /\bmonitoring (?:inspection|visit)\b/i.test(l.text))) return notFound("A monitoring inspection gives no overall grade.");
  if (fmt === "eif-2019-2024" || fmt === "graded-table-to-2019") return notFound("No overall effectiveness grade was found in the report.");
  return notFound("Couldn't tell: no overall effectiveness grade was found.");
}

const SCHOOLISH =
  /\b(School|Academy|College|Nursery|Pre-?school|Preschool|Playgroup|Kindergarten|Centre|Infants?|Juniors?|Primary|Secondary|High|Grammar|Federation|UTC|Studio|Provider|Limited|Ltd|Trust|Institute|University)\b/;

const NAME_JOINERS = new Set(["of", "and", "the", "for", "de", "la", "le", "upon", "on", "in", "under", "with", "&"]);

function cleanName(s: string): string | null {
  let t = s
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[:\-–\s]+/, "");
  // The address run on after the name ("… Primary School Chapel Row, Kelsby, Eastmoor EM2 9JD"): cut before a house
  // number, else after the last school word before the first comma.
  if (/\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b/.test(t)) {
    const num = /\s\d+[a-z]?(?:-\d+)?\s+\p{Lu}/u.exec(t);
    if (num) t = t.slice(0, num.index);
    else {
      const head = t.split(",")[0];
      const words = [...head.matchAll(new RegExp(SCHOOLISH.source, "g"))];
      const last = words[words.length - 1];
      if (last && last.index !== undefined) t = head.slice(0, last.index + last[0].length);
    }
  }
  // Cut at the address or the dates that follow on the same line.
  const cut = /,\s|\s+(?=\d{1,2}(?:\s*(?:–|-|to|and)\s*\d{1,2})?\s+[A-Z][a-z]+\s+\d{4})|\s+(?=Inspection dates?)|\s+(?=URN\b)|\s+(?=Unique reference)/.exec(t);
  if (cut) t = t.slice(0, cut.index);
  // A sentence run on after the name ("Fenbridge Junior School Following my visit …"): cut after the school word.
  const words = t.split(" ");
  let school = -1;
  for (let i = 0; i < words.length; i++) {
    if (SCHOOLISH.test(words[i])) school = i;
    else if (school >= 0 && /^\p{Ll}/u.test(words[i]) && !NAME_JOINERS.has(words[i])) {
      t = words.slice(0, school + 1).join(" ");
      break;
    }
  }
  t = t.replace(/[.,;:]+$/, "").trim();
  if (t.length < 3 || t.length > 100 || !/\p{Lu}/u.test(t)) return null;
  return t;
}

function providerOf(r: Reading, lines: Line[]): OfstedReport["provider"] {
  // Name: the report's title ("Inspection of …", "School report" followed by the name, a letter's "Short inspection
  // of …"), else the running header "Inspection report: …", else "… continues to be a good school".
  let name: Fact<string> = notFound("The provider's name was not found.");
  const top = lines.slice(0, 40);
  const tries: [Line[], RegExp][] = [
    [top, /^(?:ofsted\s+)?(?:school\s+)?(?:inspection\s+report\s+card|report\s+card)\s*(?:for|:|–|-)\s*(.+)$/i],
    [
      top,
      /^(?:(?:short|monitoring|ungraded|graded|focused|unannounced|full|section \d+)\s+)?inspection of (?:a (?:good|outstanding) (?:school|provider)|a registered early years provider|an? [\w\s-]{3,40}? provider)?\s*:?\s*(.+)$/i,
    ],
    [lines, /\binspection report:\s*(.+?)(?:,|\s+\d{1,2}\b)/i],
  ];
  for (const [ls, re] of tries) {
    if (name.value) break;
    for (const l of ls) {
      const m = re.exec(l.text.trim());
      const n = m && cleanName(m[1]);
      if (n && SCHOOLISH.test(n)) {
        name = found(n, cite(r, l, undefined, l.text.length > 160 ? n : undefined));
        break;
      }
    }
  }
  if (!name.value) {
    const k = top.findIndex((l) => /^(?:school|college|provider|setting|further education and skills) (?:inspection )?report$/i.test(l.text.trim()));
    const after = k >= 0 ? top.slice(k + 1, k + 3).find((l) => SCHOOLISH.test(l.text)) : undefined;
    const n = after && cleanName(after.text);
    if (after && n) name = found(n, cite(r, after, undefined, n));
  }
  if (!name.value) {
    const l = lines.find((x) => CONTINUES.test(x.text) && /^(.+?)\s+(?:continues to be|remains)\b/i.test(x.text));
    const n = l && cleanName(/^(?:outcome:?\s*)?(.+?)\s+(?:continues to be|remains)\b/i.exec(l.text.trim())![1]);
    if (l && n && SCHOOLISH.test(n) && !/^(the|this) (school|provider)$/i.test(n)) name = found(n, cite(r, l, CONTINUES));
  }
  if (!name.value) {
    const l = top.slice(0, 6).find((x) => x.heading && SCHOOLISH.test(x.text) && x.text.length <= 80 && !/\b(report|inspection|ofsted)\b/i.test(x.text));
    if (l) name = found(cleanName(l.text) ?? l.text, cite(r, l), "Taken from the first heading that names a school or provider.");
  }

  const label = (re: RegExp, what: string, stop: RegExp): Fact<string> => {
    for (const l of lines) {
      const m = re.exec(l.text);
      if (!m) continue;
      let v = l.text.slice(m.index + m[0].length);
      const s = stop.exec(v);
      if (s) v = v.slice(0, s.index);
      v = v.replace(/[.;,]+\s*$/, "").trim();
      if (v && v.length <= 80) return found(v, cite(r, l, re, `${m[0].trim()} ${v}`));
    }
    return notFound(`The ${what} was not found.`);
  };
  const NEXT_LABEL =
    /\s+(?=(?:School category|Age range|Gender of|Number of|Registers?\b|Appropriate authority|Local authority|Unique reference|URN\b|Inspection number|Chair|Headteacher|Head teacher|Principal|Executive|Telephone|Website|Email|E-mail|Date of previous|Registered person|Responsible person|Lead inspector|Type of|Proprietor|Address|Postcode|Day care type|Trust\b|Sixth form|Information about|Phase of|Religious character|Provision for)\b)/i;
  const urnLine = lines.find((l) => /\b(?:unique reference number|URN)\s*:?\s*(?:EY|SC|CL)?\d{6,7}\b/i.test(l.text));
  const urnM = urnLine && /\b(?:unique reference number|URN)\s*:?\s*((?:EY|SC|CL)?\d{6,7})\b/i.exec(urnLine.text);
  const urn: Fact<string> =
    urnLine && urnM
      ? found(urnM[1].toUpperCase(), cite(r, urnLine, /unique reference number|URN/i, urnM[0]))
      : notFound("No unique reference number (URN) was found.");
  const type = label(/\btype of (?:school|provision|provider|setting|education|institution)\s*:?\s*/i, "type of school or provision", NEXT_LABEL);
  const category = label(/\b(?:school|provider) category\s*:?\s*/i, "school category", NEXT_LABEL);
  // A childminder's name is a person's: never given.
  if (type.value && /childminder/i.test(type.value) && name.value) name = notFound("A childminder's name is a person's name: not given.");
  return { name, urn, type, category };
}

function inspectionTypeOf(r: Reading, lines: Line[], fmt: OfstedFormat | null, gradedRow: Row | null): Fact<InspectionType> {
  const graded = gradedRow !== null;
  if (!fmt) return notFound("Couldn't tell: not recognised as an Ofsted inspection report.");
  const under =
    /\b(?:carried out|conducted|undertaken)(?:\s+this\s+(?:inspection|visit))?(?:\s+by\s+(?:Ofsted|inspectors))?\s+under\s+(sections?\s+\d+[A-Z]?(?:\(\d+\))*(?:\s*(?:,|and)\s*(?:\d+[A-Z]?)?(?:\(\d+\))*)*)\s+of\s+the\s+[A-Z][\w\s]{3,40}?Act\s+\d{4}/i;
  const deemed = /\bdeemed\s+(?:to be\s+)?(?:a\s+)?(section\s+\d+)\s+inspection/i;
  const dl = lines.find((l) => deemed.test(l.text));
  const ul = lines.find((l) => under.test(l.text));
  const monitoring = lines.find(
    (l) => /\bmonitoring (?:inspection|visit)\b/i.test(l.text) && !/\bmay (?:receive|have)|\bwill (?:receive|have|carry out)|\bnext\b/i.test(l.text),
  );
  const ungraded = lines.find((l) =>
    /\b(ungraded inspection|inspection of a (?:good|outstanding) (?:school|provider)|short inspection of|section 8 inspection of a good|continues to be (?:a )?(?:good|outstanding)|we do not give graded judgements)\b/i.test(
      l.text,
    ),
  );
  const sec = (s: string) => s.toLowerCase().replace(/\s+/g, " ");
  if (dl) {
    const s = sec(deemed.exec(dl.text)![1]);
    return found(
      { kind: s === "section 5" ? "graded" : "ungraded", section: s },
      cite(r, dl, deemed),
      ul && ul !== dl ? `Carried out under ${sec(under.exec(ul.text)![1])} and deemed a ${s} inspection.` : null,
    );
  }
  if (monitoring && !graded) {
    const s = ul ? sec(under.exec(ul.text)![1]) : null;
    return found(
      { kind: "monitoring", section: s ?? "section 8" },
      cite(r, monitoring, /monitoring (?:inspection|visit)/i),
      s ? null : "Monitoring inspections are carried out under section 8 of the Education Act 2005.",
    );
  }
  if (ungraded && !graded) {
    const s = ul ? sec(under.exec(ul.text)![1]) : "section 8";
    return found(
      { kind: "ungraded", section: s },
      cite(r, ungraded, /ungraded inspection|inspection of a (?:good|outstanding)|short inspection|section 8|continues to be|graded judgements/i),
      ul ? null : "Ungraded inspections are carried out under section 8 of the Education Act 2005.",
    );
  }
  if (ul) {
    const s = sec(under.exec(ul.text)![1]);
    const kind: InspectionType["kind"] = s === "section 8" && !graded ? "ungraded" : "graded";
    return found({ kind, section: s }, cite(r, ul, under));
  }
  const gradedLine = lines.find((l) => /\bgraded inspection\b/i.test(l.text) && !/\bnext\b|\bwill\b|\bif\b/i.test(l.text));
  if (gradedLine)
    return found(
      { kind: "graded", section: null },
      cite(r, gradedLine, /graded inspection/i),
      "The report does not say which section of the Act it was carried out under.",
    );
  if (gradedRow)
    return found(
      { kind: "graded", section: null },
      cite(r, gradedRow.line, undefined, gradedRow.part),
      "Inferred from the graded judgements; the report does not say which section of the Act it was carried out under.",
    );
  return notFound("The report does not say what kind of inspection it was.");
}

function safeguardingOf(r: Reading, lines: Line[], rows: Row[], fmt: OfstedFormat | null): Fact<SafeguardingStatus> {
  const asStatus = (w: string, card: boolean): SafeguardingStatus => {
    const l = w.toLowerCase().replace(/\s+/g, " ");
    if (l === "met") return { status: "met", effective: true };
    if (l === "not met") return { status: "not-met", effective: false };
    if (l === "effective") return { status: card ? "met" : "effective", effective: true };
    return { status: card ? "not-met" : "not-effective", effective: false };
  };
  const card = fmt === "report-card-2025";
  const row = rows.find((x) => x.key === "safeguarding" && x.source === "table");
  const stmtNot =
    /\barrangements for safeguarding (?:pupils |children |learners )?do not meet (?:all )?(?:the )?statutory requirements|\b(?:the )?(?:arrangements for safeguarding|safeguarding(?: arrangements)?|safeguarding (?:standards|requirements))\s+(?:are|is|were|was)\s+(not effective|ineffective|not met)\b|\bsafeguarding (?:requirements|standards) (?:are|were) not met\b|\bdoes not meet (?:the )?(?:safeguarding|requirements for safeguarding)/i;
  const stmt =
    /\barrangements for safeguarding (?:pupils |children |learners )?meet (?:all )?(?:the )?statutory requirements|\b(?:the )?(?:arrangements for safeguarding|safeguarding(?: arrangements)?|safeguarding (?:standards|requirements))\s+(?:are|is|were|was)\s+(effective|met)\b|\bmeets (?:the )?(?:safeguarding|requirements for safeguarding)/i;
  const advice = /\b(ensure|must|should|so that|if)\b/i;
  const notLine = lines.find((l) => stmtNot.test(l.text) && !advice.test(l.text.slice(0, stmtNot.exec(l.text)!.index)));
  const yesLine = lines.find((l) => stmt.test(l.text) && !stmtNot.test(l.text) && !advice.test(l.text.slice(0, stmt.exec(l.text)!.index)));
  const ask = lines.find((l) => /\bmeet(?:s)? (?:the )?(?:statutory )?requirements? (?:for|in relation to) safeguarding\??\s*(yes|no)\b/i.test(l.text));
  if (row) {
    const v = asStatus(row.written, card || /met/i.test(row.written));
    const other = notLine && v.effective ? notLine : yesLine && !v.effective ? yesLine : null;
    return found(
      v,
      cite(r, row.line, undefined, row.part),
      other ? `The report's text also says "${quoteOf(redactText(r, other.text), undefined, 160)}"; the table's status is given.` : null,
    );
  }
  if (notLine) {
    const v = /not met|does not meet/i.test(stmtNot.exec(notLine.text)![0]) ? asStatus("not met", true) : asStatus("not effective", card);
    return found(v, cite(r, notLine, stmtNot));
  }
  if (yesLine) {
    const v = /\bmet\b|\bmeets\b/i.test(stmt.exec(yesLine.text)![0]) ? asStatus("met", true) : asStatus("effective", card);
    return found(v, cite(r, yesLine, stmt));
  }
  if (ask) {
    const yes = /\?\s*yes\b|\)\s*yes\b|\s+yes\b/i.test(ask.text);
    return found(asStatus(yes ? "effective" : "not effective", card), cite(r, ask, /safeguarding/i));
  }
  return notFound(fmt ? "The report's safeguarding judgement was not found." : "Couldn't tell: not recognised as an Ofsted inspection report.");
}

function previousOf(r: Reading, lines: Line[], rows: Row[]): Fact<PreviousInspection> {
  const row = rows.find((x) => x.key === "previous" && (x.source === "table" || /not previously/i.test(x.written)));
  const dateLabel = /\bdates? of (?:the )?(?:school's |setting's |provider's )?(?:previous|last) (?:full |graded |section 5 |standard )?inspection\s*:?\s*/i;
  const dl = lines.find((l) => dateLabel.test(l.text));
  let date: string | null = null;
  let dateQuote = "";
  if (dl) {
    const m = dateLabel.exec(dl.text)!;
    const after = dl.text.slice(m.index + m[0].length, m.index + m[0].length + 60);
    const range = inspectionRangeIn(after);
    const d = datesIn(after)[0];
    date = range?.to ?? d?.iso ?? null;
    dateQuote = `${m[0].trim()} ${range?.text ?? d?.text ?? ""}`.trim();
  }
  const JUDGED =
    /\b(?:since|when)\s+(?:the school was|it was|we|ofsted|inspectors)\s+(?:last\s+)?judged\s+(?:the school\s+|it\s+)?(?:to be\s+|as\s+)?(good|outstanding|requires improvement|inadequate)\b(?:[^.]{0,20}?\bin\s+([A-Z][a-z]+\s+\d{4}))?/i;
  const judged = lines.find((l) => JUDGED.test(l.text));
  if (row) {
    const g = gradeOf(row.written);
    const grade = g?.gradeNumber ? g : null;
    const note = !grade ? "Not previously inspected." : null;
    return found(
      { grade: grade?.grade ?? null, gradeNumber: grade?.gradeNumber ?? null, date },
      cite(r, row.line, undefined, row.part),
      dl && date ? `${note ? note + " " : ""}Date from "${redactText(r, dateQuote)}"${dl.page ? ` (page ${dl.page})` : ""}.` : note,
    );
  }
  if (judged) {
    const m = JUDGED.exec(judged.text)!;
    const g = proseGrade(m[1])!;
    const said = m[2] ? (datesIn(m[2])[0]?.iso ?? null) : null;
    // The labelled date ("Date of previous inspection 21 June 2017") is the more precise when it is the same month.
    const d = date && (!said || date.startsWith(said)) ? date : (said ?? date);
    return found(
      { grade: g.grade, gradeNumber: g.gradeNumber, date: d },
      cite(r, judged, JUDGED),
      dl && d === date && date ? `Date from "${redactText(r, dateQuote)}".` : null,
    );
  }
  if (dl && date)
    return found({ grade: null, gradeNumber: null, date }, cite(r, dl, dateLabel, dateQuote), "Only the date of the previous inspection is stated.");
  return notFound("The previous inspection is not stated.");
}

function concernOf(r: Reading, lines: Line[]): Fact<"special-measures" | "serious-weaknesses"> {
  const l = lines.find(
    (x) =>
      CAUSING_CONCERN.test(x.text) &&
      !NO_LONGER_CONCERN.test(x.text) &&
      !/\bif\b|\bwould\b|\bcould\b|\bprevious(ly)?\b|\bwas (?:placed|judged)\b/i.test(x.text),
  );
  if (!l) return notFound("The report does not place the school in a category of concern (special measures or serious weaknesses).");
  const m = CAUSING_CONCERN.exec(l.text)!;
  return found(m[1] ? "special-measures" : "serious-weaknesses", cite(r, l, CAUSING_CONCERN));
}

/** The sentence of an improvement point that says what to do ("Leaders should ensure …", "The school must …"). */
const ADVICE =
  /\b(?:leaders|the school|governors|trustees|the trust|staff|the provider|the setting|the college|the academy|managers|teachers|those responsible for [\w\s]{3,30}?|the proprietor|the board)(?: and [\w\s]{3,30}?)?\s+(?:should|must|needs? to|ought to)\b/i;

/** A region of lines as points: its bullets (with their sub-points), or its sentences where it has no bullets. */
function pointsOf(r: Reading, all: Line[], firstText?: string, partName?: string): QuotedPoint[] {
  const region = all.filter((l, k) => !BOILERPLATE.test(k === 0 && firstText !== undefined ? firstText : l.text));
  if (firstText !== undefined && region[0] !== all[0]) firstText = undefined;
  if (!region.length) return [];
  const texts = region.map((l, k) => (k === 0 && firstText !== undefined ? firstText : l.text));
  const joined = texts.join(" \u0000 ");
  const hasBullets = texts.some((t) => BULLET_SPLIT.test(t));
  const out: QuotedPoint[] = [];
  const push = (text: string) => {
    const clean = text
      .replace(/\u0000/g, " ")
      .replace(/\s+/g, " ")
      .replace(/^[–\-\s]+/, "")
      .trim();
    if (clean.length < 15 || /^\(?information for the (?:school|provider)/i.test(clean) || BOILERPLATE.test(clean)) return;
    // The line the point starts in, for its page and section.
    const probe = clean.slice(0, 40);
    const line = region.find((l) => l.text.replace(/\s+/g, " ").includes(probe)) ?? region.find((l) => l.text.includes(clean.slice(0, 15))) ?? region[0];
    const e = cite(r, line, undefined, clean);
    out.push({ quote: e.quote, page: e.page, section: partName ? sectionName(r, partName) : e.section });
  };
  if (hasBullets) {
    const parts = joined.split(BULLET_SPLIT);
    const preamble = parts.shift() ?? "";
    // A preamble that is a sentence of its own (not "… should ensure that:") is a point too.
    if (preamble.replace(/\u0000/g, "").trim().length > 40 && !/:\s*(\u0000\s*)?$/.test(preamble.trim())) push(preamble);
    for (const p of parts) push(p);
  } else if (texts.some((t) => ADVICE.test(t))) {
    // No bullets (a web page's list items, pasted text): a point runs to the sentence that says what to do ("Leaders
    // should …"), as Ofsted writes each one.
    let acc: string[] = [];
    for (const t of texts) {
      acc.push(t);
      if (ADVICE.test(t)) {
        push(acc.join(" "));
        acc = [];
      }
    }
    if (acc.length) push(acc.join(" "));
  } else for (const t of texts) push(t);
  return out;
}

/**
 * The report's parts, each opened by a heading or by one of the reports' own part titles where the PDF's text left it
 * inside a sentence ("… Previous inspection grade Good What is it like to attend this school?"): its title, the rest
 * of the sentence it opens, and the lines up to the next part.
 */
interface Part {
  name: string;
  start: Line;
  /** The text after the title in the line that opens it ("" for a heading). */
  rest: string;
  lines: Line[];
}

const PART_ANYWHERE = new RegExp(
  [
    String.raw`what is it like (?:to attend this school|to be an? (?:pupil|learner|student|child)[^?]{0,60}|for (?:your child|children|learners)[^?]{0,60})\?`,
    String.raw`what does the (?:early years )?(?:school|provider|setting|college|academy) do well and what does it need to do better\??`,
    String.raw`what (?:does|do) (?:the )?(?:school|provider|setting|academy|college|trust|leaders?)(?: and [\w\s]{3,40}?)? (?:need|needs) to do to improve(?: further)?\??`,
    String.raw`summary of key findings for (?:parents and pupils|learners|parents and children|parents)`,
    String.raw`the (?:school|provider|setting|college) has the following strengths`,
  ].join("|"),
  "i",
);
const PART_AT_START =
  /^(?:full report|inspection judgements|how can i feed back my views\??|further information|(?:school|provider|setting|college) details|information about this (?:school|inspection|provider|setting)|background|inspection team|next steps(?: for the (?:school|provider|setting|college))?:?|main findings|evidence|outcome|yours (?:sincerely|faithfully)|date of (?:the )?previous inspection|unique reference number|urn\b|type of (?:school|provision|provider)|inspection number|areas? for (?:improvement|development):?|priorities for (?:further )?improvement:?|to improve further,? the school should:?)\b/i;

const RUNNING = new RegExp(
  String.raw`^(?:\d{1,2}(?:\s*(?:–|-|and|to)\s*\d{1,2})?\s+${MONTH}\s+\d{4}(?:\s+\d{1,3})?|inspection report:.*|page \d+.*|\d{1,3}(?: of \d{1,3})?)$`,
  "i",
);

/** A heading that opens a part of its own: a report's part title, "Safeguarding", an evaluation area's name. */
const knownTitle = (t: string) =>
  PART_ANYWHERE.test(t) ||
  PART_AT_START.test(t) ||
  /^(?:safeguarding\b|summary\b|about this inspection|what we found|inspection findings|information about|yours (?:sincerely|faithfully))/i.test(t) ||
  // A heading that is only a name (an inspection team's list) opens nothing: read as any line of name words would be in a signature block.
  redactNames(t, { line: true, signOff: true }) === "[name]" ||
  ROW_DEFS.some((d) => new RegExp(`^(?:${d.label})\\b`, "iu").test(t));

function partsOf(lines: Line[]): Part[] {
  const parts: Part[] = [];
  let current: Part | null = null;
  for (const l of lines) {
    // A running header or a page number read as a heading (text pasted from a PDF) does not open a part, nor does a
    // sub-heading of a narrative part ("The provision is good" under "What is it like for your child …").
    if (l.heading && current && RUNNING.test(l.text.trim())) continue;
    if (l.heading && current && (STRENGTH_SECTION.test(current.name) || IMPROVE_HEAD.test(current.name)) && !knownTitle(l.text.trim())) {
      current.lines.push(l);
      continue;
    }
    if (l.heading) {
      current = { name: l.text, start: l, rest: "", lines: [] };
      parts.push(current);
      continue;
    }
    const m = PART_ANYWHERE.exec(l.text) ?? PART_AT_START.exec(l.text.trim());
    if (m) {
      const at = l.text.indexOf(m[0]);
      if (current && at > 0) current.lines.push({ ...l, text: l.text.slice(0, at).trim() });
      current = { name: m[0].trim(), start: l, rest: l.text.slice(at + m[0].length).trim(), lines: [] };
      parts.push(current);
      continue;
    }
    if (!current) {
      current = { name: "", start: l, rest: l.text, lines: [] };
      parts.push(current);
      continue;
    }
    current.lines.push(l);
  }
  return parts;
}

/** A part's content as lines (the rest of its opening line first). */
const contentOf = (p: Part): { lines: Line[]; first?: string } => (p.rest.length > 3 ? { lines: [p.start, ...p.lines], first: p.rest } : { lines: p.lines });

function improvementsOf(r: Reading, parts: Part[]): QuotedPoint[] {
  const part = parts.find((p) => IMPROVE_HEAD.test(p.name.trim()) && !BOILERPLATE.test(p.name));
  if (!part) return [];
  const c = contentOf(part);
  return pointsOf(r, c.lines, c.first, part.name).slice(0, 12);
}

const STRENGTHS_LIST = /\bthe (?:school|provider|setting|college) has the following strengths\b/i;
const GOOD_SUMMARY = /\bthis is (?:a|an) (?:good|outstanding) (?:school|provider|college|setting)\b\.?/i;
const NOT_YET = /\bit is not yet (?:an? )?(?:good|outstanding)/i;

function strengthsOf(r: Reading, parts: Part[], improvements: QuotedPoint[], fmt: OfstedFormat | null): QuotedPoint[] {
  // A "following strengths" list (the 2015–2019 reports) is the report's own list.
  const own = parts.find((p) => STRENGTHS_LIST.test(p.name));
  if (own) {
    const c = contentOf(own);
    const pts = pointsOf(r, c.lines, c.first, own.name);
    if (pts.length) return pts.slice(0, 10);
  }
  // "This is a good school" and its key findings, until "It is not yet outstanding because".
  const summary = parts.find((p) => /summary of key findings/i.test(p.name) && GOOD_SUMMARY.test([p.rest, ...p.lines.map((l) => l.text)].join(" ")));
  if (summary) {
    const c = contentOf(summary);
    const texts = c.lines.map((l, k) => (k === 0 && c.first !== undefined ? c.first : l.text));
    const g = texts.findIndex((t) => GOOD_SUMMARY.test(t));
    const cut = texts.findIndex((t, k) => k >= g && NOT_YET.test(t));
    const end = cut >= 0 ? cut + 1 : texts.length;
    const lines = c.lines.slice(g, end);
    const own = texts.slice(g, end).map((t, k, all) => {
      let x = t;
      if (k === 0) x = x.slice(GOOD_SUMMARY.exec(x)!.index).replace(GOOD_SUMMARY, "");
      if (k === all.length - 1 && cut >= 0) x = x.slice(0, NOT_YET.exec(x)!.index);
      return x;
    });
    const pts = pointsOf(
      r,
      lines.map((l, k) => ({ ...l, text: own[k] })),
      undefined,
      summary.name,
    );
    if (pts.length) return pts.slice(0, 10);
  }
  // Otherwise: sentences of the narrative parts that praise without a reservation (on a report card, the text under
  // each evaluation area too).
  const improved = new Set(improvements.map((p) => p.quote.slice(0, 40)));
  const narrative = (p: Part) =>
    STRENGTH_SECTION.test(p.name) || (fmt === "report-card-2025" && AREAS.some((a) => new RegExp(`^(?:${a.label})\\b`, "i").test(p.name.trim())));
  const byPart: Line[][] = [];
  for (const p of parts) {
    if (!narrative(p) || IMPROVE_HEAD.test(p.name)) continue;
    const c = contentOf(p);
    const picked: Line[] = [];
    byPart.push(picked);
    c.lines.forEach((l, k) => {
      const text = k === 0 && c.first !== undefined ? c.first : l.text;
      if (
        l.sentence &&
        text.length >= 40 &&
        !/\?$/.test(text) &&
        POSITIVE.test(text) &&
        !NEGATIVE.test(text) &&
        !BOILERPLATE.test(text) &&
        !improved.has(text.slice(0, 40)) &&
        !rowsOf({ ...l, text }, undefined).length
      )
        picked.push({ ...l, text });
    });
  }
  // Taken in turn from each part (what it is like to attend, what the school does well, …), in document order.
  const picked: Line[] = [];
  for (let k = 0; picked.length < 8 && byPart.some((b) => b.length > k); k++) for (const b of byPart) if (b[k] && picked.length < 8) picked.push(b[k]);
  picked.sort((a, b) => a.i - b.i);
  return picked.map((l) => {
    const e = cite(r, l, undefined, l.text);
    return { quote: e.quote, page: e.page, section: partOfLine(r, parts, l) };
  });
}

/** The part a line is in, as the evidence's section (the PDF's heading when the part is one). */
function partOfLine(r: Reading, parts: Part[], l: Line): string | null {
  const p = [...parts].reverse().find((x) => x.start.i <= l.i);
  return p?.name ? sectionName(r, p.name) : l.section === null ? null : sectionName(r, l.section);
}

// ---------------------------------------------------------------------------------------------------------------
// Facts (the summary is composed from these)
// ---------------------------------------------------------------------------------------------------------------

const fmtDate = (iso: string) => {
  const [y, m, d] = iso.split("-").map(Number);
  const month = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"][m - 1];
  return d ? `${d} ${month} ${y}` : `${month} ${y}`;
};

/** "9–10 February 2016", "30 September to 1 October 2019", "12 May 2022". */
function spanOf(from: string, to: string): string {
  if (from === to) return fmtDate(from);
  if (from.slice(0, 7) === to.slice(0, 7)) return `${Number(from.slice(8))}–${fmtDate(to)}`;
  return `${fmtDate(from)} to ${fmtDate(to)}`;
}

function factsOf(x: Omit<OfstedReport, "facts">): string[] {
  const facts: string[] = [];
  if (!x.format.value) return ["This does not read as an Ofsted inspection report: none of the four formats' grade tables, judgements or headings were found."];
  const who = x.provider.name.value ? `${x.provider.name.value}${x.provider.urn.value ? ` (URN ${x.provider.urn.value})` : ""}` : "The provider";
  facts.push(`${who}: ${FORMAT_LABEL[x.format.value]}.`);
  const d = x.inspectionDates.value;
  const when = d ? spanOf(d.from, d.to) : null;
  const t = x.inspectionType.value;
  if (t || when) facts.push(`Inspection: ${t ? `${t.kind}${t.section ? ` (${t.section})` : ""}` : "type not stated"}${when ? `, ${when}` : ""}.`);
  if (x.overallEffectiveness.value) facts.push(`Overall effectiveness: ${x.overallEffectiveness.value.grade}.`);
  else if (x.format.value === "report-card-2025") facts.push("Report cards give no overall grade.");
  else if (x.format.value === "no-overall-grade-2024") facts.push("No overall effectiveness grade (not given from September 2024).");
  for (const a of x.gradedAreas) facts.push(`${a.area}: ${a.grade}.`);
  if (x.safeguarding.value) {
    const s = x.safeguarding.value.status;
    facts.push(`Safeguarding: ${s === "met" ? "met" : s === "not-met" ? "not met" : s === "effective" ? "effective" : "not effective"}.`);
  }
  if (x.causingConcern.value)
    facts.push(`The school is placed in ${x.causingConcern.value === "special-measures" ? "special measures" : "a category of concern: serious weaknesses"}.`);
  const p = x.previousInspection.value;
  if (p && (p.grade || p.date)) facts.push(`Previous inspection: ${p.grade ?? "grade not stated"}${p.date ? ` (${fmtDate(p.date)})` : ""}.`);
  if (x.improvements.length) facts.push(`The report sets ${x.improvements.length} point${x.improvements.length === 1 ? "" : "s"} to improve.`);
  if (x.themes.length)
    facts.push(
      `Most mentioned themes: ${x.themes
        .slice(0, 3)
        .map((t) => `${t.key} (${t.sentences} sentence${t.sentences === 1 ? "" : "s"})`)
        .join(", ")}.`,
    );
  return facts;
}
