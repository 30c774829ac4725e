/**
 * The modern slavery statement reader (issue 17 §3): a statement made under section 54 of the Modern Slavery Act 2015
 * read into the organisation, the year it covers and its date; its sign-off (s.54(6): approval by the board or
 * equivalent, signature by a director or equivalent); the six areas of s.54(5) scored 0–2 with quotes; the gaps; and
 * whether it is a group statement or looks out of date. Deterministic and pure: `today` is passed in.
 *
 * Decisions (checked on the six hand-read statements and the 213 WikiRate-labelled ones, ../shared/corpora):
 * - Sign-off: `meets` only when both the approval and the signature qualify; a stated shortfall (approval by a
 *   management team or a person, a signer who is a "General Manager", "Head of Compliance", "CEO" with no director
 *   title…) or nothing stated at all is `does_not_meet`; a signature with no role, a document that is not a statement,
 *   or a cut document missing its sign-off is `couldnt_tell`. Who qualifies: `roleQualifies`.
 * - Signature lines are read from the end of the statement, its sign-off section, the lines after a "Signed" label and
 *   after the approval sentence — headings included, since a PDF's "Managing Director" line often reads as one.
 * - Areas: 0 nothing, 1 mentioned in general terms, 2 specific (numbers, when/how often, named frameworks, who, a
 *   named mechanism such as questionnaires or audits, in two passages or three kinds of detail in one).
 * - Training counts only when it is about modern slavery (or described in a training section, or trains the
 *   organisation's own people), not code-of-conduct, anti-bribery or health-and-safety training, posters or reading
 *   the policy; "will introduce", "are developing" make it in development.
 *
 * Privacy: a signer's role is read, never their name. Every quote this reader gives passes through names.ts
 * `redactNames` (the sign-off's lines as a signature block, `signOff`), which replaces a person's name ("Signed:
 * [name]", "[name], Director") with "[name]"; a heading that is a person's name (a signature line read as a heading)
 * is replaced in `section`, and a sentence under it is not recorded as a passage.
 */
import type { Doc, DocSection, DocSentence } from "./document";
import { type Evidence, type Fact, MAX_QUOTE, type Reading, found, notFound, quoteOf } from "./evidence";
import { looksLikePerson } from "../matching/people";
import { redactNames } from "./names";
import { datesIn, monthsBetween } from "./values";

// ————————————————————————————————————————————————————————————————— the report

export type AreaKey = "structure" | "policies" | "dueDiligence" | "riskAssessment" | "effectiveness" | "training";
export type Score = 0 | 1 | 2;

export interface Area {
  score: Score;
  evidence: Evidence[];
  note: string;
}

export type TrainingAudience = "all_employees" | "procurement" | "leadership" | "suppliers" | "recruitment_hr";

export interface TrainingArea extends Area {
  /** Who the statement says is trained (or is to be). */
  audiences: TrainingAudience[];
  /** Training is described as planned or being developed (WikiRate's "In Development"). */
  inDevelopment: boolean;
}

export type ApprovalBody = "board_of_directors" | "members" | "partners" | "trustees" | "other";

export interface Approval {
  by: ApprovalBody;
  /** The approving body as written, a person's name removed. */
  body: string;
  /** `YYYY-MM-DD` (or `YYYY-MM` when only the month is given); null when no date is given with it. */
  date: string | null;
  /** The body is one s.54(6) accepts: the board of directors (or equivalent governing body), an LLP's members, the partners. */
  qualifies: boolean;
}

export interface Signature {
  /** The signer's role as written ("Managing Director", "UK General Manager"); null when signed but no role is given. */
  role: string | null;
  /** A director (or equivalent), a designated member or a partner; null when the role is not given. */
  qualifies: boolean | null;
  date: string | null;
}

export interface FinancialYear {
  /** The period as written ("year ending 31 March 2024", "2023", "1 September 2025 to 31 August 2026"). */
  period: string;
  /** The period's last day, `YYYY-MM-DD` (or `YYYY-MM`), when given. */
  endDate: string | null;
  /** The year the period ends in. */
  year: number | null;
}

export interface GroupStatement extends Fact<boolean> {
  /** Companies the statement names as covered (legal names only, never people). */
  entities: string[];
}

export type Verdict = "meets" | "does_not_meet" | "couldnt_tell";

export interface ModernSlaveryReport {
  organisation: Fact<string>;
  financialYear: Fact<FinancialYear>;
  statementDate: Fact<string>;
  approval: Fact<Approval>;
  signature: Fact<Signature>;
  areas: {
    structure: Area;
    policies: Area;
    dueDiligence: Area;
    riskAssessment: Area;
    effectiveness: Area;
    training: TrainingArea;
  };
  areasScore: { total: number; max: number };
  gaps: string[];
  signOff: { verdict: Verdict; reasons: string[] };
  groupStatement: GroupStatement;
  outOfDate: { value: boolean | null; note: string };
  facts: string[];
}

/** Months after the year it covers (or its date) beyond which a statement looks out of date. */
export const OUT_OF_DATE_MONTHS = 18;

export const AREA_LABELS: Record<AreaKey, string> = {
  structure: "organisation structure, business and supply chains (s.54(5)(a))",
  policies: "policies on slavery and human trafficking (s.54(5)(b))",
  dueDiligence: "due diligence processes (s.54(5)(c))",
  riskAssessment: "risk assessment and management (s.54(5)(d))",
  effectiveness: "measuring effectiveness / KPIs (s.54(5)(e))",
  training: "training on slavery and human trafficking (s.54(5)(f))",
};

const AREA_SHORT: Record<AreaKey, string> = {
  structure: "structure and supply chains",
  policies: "policies",
  dueDiligence: "due diligence",
  riskAssessment: "risk assessment",
  effectiveness: "effectiveness",
  training: "training",
};

// ————————————————————————————————————————————————————————————————— small helpers

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "2026-02-23" → "23 February 2026"; "2024-01" → "January 2024". */
export function dateWords(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number);
  if (!m) return String(y);
  return d ? `${d} ${MONTH_NAMES[m - 1]} ${y}` : `${MONTH_NAMES[m - 1]} ${y}`;
}

const flat = (re: RegExp) => new RegExp(re.source, re.flags.replace("g", ""));
const test = (re: RegExp, s: string) => flat(re).test(s);

/** A date in the text: the first with a day, else the first month-year. */
function dateOf(text: string): string | null {
  const ds = datesIn(text);
  return ds.find((d) => d.precision === "day")?.iso ?? ds.find((d) => d.precision === "month")?.iso ?? null;
}

/** The statement is about modern slavery at all (else sign-off and areas are "couldn't tell"). */
const ABOUT_SLAVERY = /\bslavery\b|\bslavey\b|trafficking|forced (?:or compulsory )?labou?r|anti-?slavery|section 54\b|s\.?\s?54\b/i;

// ————————————————————————————————————————————————————————————————— names out of quotes

/** A sign-off's text (a signature line, the approving body as written) with people's names out: names.ts redactNames, read as a signature block. */
const signOffText = (text: string, known: readonly string[] = []): string => redactNames(text, { signOff: true, known });

/** A quote from the reader: shortened around the match, a person's name removed (and not recorded as a passage when its section's heading names someone). */
function citeOf(reading: Reading, s: DocSentence, match?: RegExp): Evidence {
  const known = reading.people;
  const section = s.section === null ? null : redactNames(s.section, { line: true, known });
  if (s.section && section !== s.section) return { quote: quoteOf(redactNames(s.text, { section: s.section, known }), match), page: s.page, section };
  const e = reading.cite(s, match);
  return { ...e, quote: redactNames(e.quote, { section: s.section, known }) };
}

/** A line of the statement as the sign-off is read: a sentence, or a heading (a signer's title often stands as one). */
interface Line {
  pos: number;
  text: string;
  s: DocSentence | null;
  /** The section a heading line opens. */
  sec: DocSection | null;
  /** The heading the line is under (a heading line: itself). */
  section: string | null;
  page: number | null;
}

function linesOf(doc: Doc): Line[] {
  const out: Line[] = [];
  for (const sec of doc.sections) {
    if (sec.heading) out.push({ pos: out.length, text: sec.heading, s: null, sec, section: sec.heading, page: sec.page });
    for (let i = sec.first; i < sec.end; i++)
      out.push({ pos: out.length, text: doc.sentences[i].text, s: doc.sentences[i], sec: null, section: sec.heading, page: doc.sentences[i].page });
  }
  return out;
}

/** Consecutive lines quoted as one passage (a signature block written over several lines), names removed. */
function citeLines(reading: Reading, ls: Line[], match?: RegExp): Evidence {
  for (const l of ls) {
    if (l.section && redactNames(l.section, { line: true, signOff: true, known: reading.people }) !== l.section) continue;
    if (l.s) reading.cite(l.s);
    else if (l.sec) reading.citeHeading(l.sec);
  }
  const text = ls.map((l) => l.text).join(" ");
  return {
    quote: signOffText(quoteOf(text, match, MAX_QUOTE + 200), reading.people).slice(0, MAX_QUOTE + 40),
    page: ls[0].page,
    section: ls[0].section === null ? null : redactNames(ls[0].section, { line: true, signOff: true, known: reading.people }),
  };
}

// ————————————————————————————————————————————————————————————————— roles

/** Where a role starts (a signature line's title, after the name). */
const ROLE_HEAD_SRC = String.raw`designated\s+member|managing\s+member|(?:managing|senior|equity|salaried)\s+partner|partner|member|directors?(?!['’]s\s+(?:report|statement))|chief\s+executive(?:\s+officer)?|chief\s+[a-z]+(?:\s+[a-z]+)?\s+officer|ceo|cfo|coo|cto|cio|cpo|cro|vice[- ]president|president|chair(?:man|woman|person)?|general\s+manager|manager|head(?=\s+of\b)|company\s+secretary|secretary|trustee|governor|owner|founder|proprietor|principal|vice[- ]chancellor|general\s+counsel|treasurer|accounting\s+officer|officer`;
const ROLE_HEAD = new RegExp(String.raw`\b(?:${ROLE_HEAD_SRC})\b`, "gi");
const MODIFIERS = new Set(
  (
    "group uk u.k. global international european emea regional national country interim acting deputy joint co co- managing executive non-executive non executive independent senior lead sole " +
    "finance financial sales operations operating commercial technical hr people legal ethics ethical compliance risk procurement company board founding general assistant associate divisional " +
    "area site branch vice marketing it sustainability corporate quality property programme strategy business development customer chief designated local retail supply chain trading office " +
    "practice office managing-director engineering production manufacturing health safety esg responsible"
  ).split(" "),
);

interface RoleFound {
  /** As written. */
  text: string;
  start: number;
  end: number;
}

/** The roles in a line: a head word ("Director", "CEO", "General Manager"), with its qualifiers before ("UK", "Managing") and "of …" after, and joint titles ("Founder & CEO") joined. */
function rolesIn(line: string): RoleFound[] {
  const out: RoleFound[] = [];
  for (const m of line.matchAll(ROLE_HEAD)) {
    let start = m.index!;
    let end = start + m[0].length;
    // Qualifiers before: up to three known words.
    for (let n = 0; n < 3; n++) {
      const before = /([\p{L}.&-]+)\s+$/u.exec(line.slice(0, start));
      if (!before || !MODIFIERS.has(before[1].toLowerCase())) break;
      start = before.index;
    }
    // "of the Board of Directors", "of Compliance", "of Trustees", "of G's Fresh": up to six words.
    const of = /^\s+of\s+((?:the\s+)?(?:[\p{Lu}][\p{L}'’&.-]*|of|the|and|&)(?:\s+(?:[\p{Lu}][\p{L}'’&.-]*|of|the|and|&)){0,5})/u.exec(line.slice(end));
    if (
      (of && /^(?:head|chair|director|secretary|president|member|trustee|governor|chief)/i.test(line.slice(m.index!, m.index! + 12))) ||
      (of && /^head/i.test(m[0]))
    ) {
      end += of[0].replace(/\s+(?:of|the|and|&)$/i, "").length;
    } else if (/^head/i.test(m[0])) {
      const lower = /^\s+of\s+([a-z][a-z &-]{2,40}?)(?=[,.;]|$|\s+(?:and|at|for|on)\s)/.exec(line.slice(end));
      if (!lower) continue;
      end += lower[0].length;
    }
    if (
      /^(?:principal|owner|partner|member|officer|head|governor|trustee)$/i.test(m[0]) &&
      new RegExp(String.raw`^\s+(?:[\p{Lu}][\p{L}&'’-]*\s+){1,4}${LEGAL_SUFFIX}`, "u").test(line.slice(end))
    )
      continue;
    const prev = out[out.length - 1];
    if (prev && /^\s*(?:&|and|\/|,)\s*$/i.test(line.slice(prev.end, start))) {
      prev.end = end;
      prev.text = line.slice(prev.start, end).trim();
      continue;
    }
    if (prev && start < prev.end) {
      // "Chief Executive Director": one title.
      prev.end = Math.max(prev.end, end);
      prev.text = line.slice(prev.start, prev.end).trim();
      continue;
    }
    out.push({ text: line.slice(start, end).trim(), start, end });
  }
  return out;
}

/** Whether a role is one s.54(6) accepts as the signer: a director (or equivalent), a designated member, a partner. */
/** What a "Director of …" title names when it is a staff post (a function), not a company. */
const FUNCTIONS =
  /^(?:the\s+)?(?:corporate|finance|financial|operations|operational|procurement|purchasing|hr|human|people|legal|compliance|risk|sustainability|estates?|facilities|strategy|strategic|communications|marketing|sales|it|information|technology|digital|quality|nursing|pharmacy|clinical|medical|education|learning|research|student|academic|policy|public|external|business|commercial|resources|governance|ethics|safeguarding|workforce|supply|property|infrastructure|transformation|customer|services|development|programmes?|projects?)\b/i;

/**
 * Whether a role is one s.54(6) accepts as the signer. Counted: a director (any title with "Director" in it, e.g.
 * "Managing Director", "Finance Director", "CEO and Director" — except "Associate/Assistant/Deputy/Regional… Director"
 * and "Director of <a function>", which are staff titles), the chair of the board, trustees or governors (a
 * governing body's members are the equivalent of directors), a designated member (LLP) and a partner. Not counted: a
 * CEO, chief executive, president, general manager, head of a function, company secretary, owner or founder with no
 * director title — they may be directors, but the statement does not say so.
 */
export function roleQualifies(role: string): { ok: boolean; why: string } {
  const r = role.toLowerCase().replace(/\s+/g, " ");
  if (/designated member/.test(r)) return { ok: true, why: "a designated member signs for an LLP (s.54(6)(b))" };
  if (/\bpartner\b/.test(r) && !/business partner/.test(r))
    return { ok: true, why: "a partner signs for a partnership (s.54(6)(c)–(d)); for an LLP the Act asks for a designated member" };
  if (/\bdirectors?\b/.test(r)) {
    if (
      /\b(?:associate|assistant|deputy|regional|area|divisional|site|branch)\s+director/.test(r) &&
      !/\b(?:managing|executive|company)\s+director|\band\s+director\b/.test(r)
    )
      return { ok: false, why: `a "${role}" is a job title below the board, not a director of the company` };
    const of = /\bdirectors? of (.+)$/i.exec(role);
    if (of && !/\b(?:managing|executive|non-executive|company)\s+director|\b(?:and|&|\/)\s*director\b/i.test(role)) {
      const what = of[1];
      const company =
        /\b(?:ltd|limited|plc|llp|inc|llc|gmbh|ag|sa|sas|bv|nv|corp|corporation|group|holdings|company|board)\b/i.test(what) ||
        (/^[A-Z0-9&\s.'’-]+$/.test(what) && /[A-Z]{2}/.test(what));
      if (!company && FUNCTIONS.test(what)) return { ok: false, why: `a "${role}" is a staff post (the head of a function), not a seat on the board` };
    }
    return { ok: true, why: "a director signs (s.54(6)(a)); the title is taken as a director of the company" };
  }
  if (/\bchair(?:man|woman|person)?\b/.test(r)) {
    if (/\bof (?:the )?(?:[\w-]+ ){0,3}(?:working group|steering group|forum|network|task ?force|panel)\b/.test(r))
      return { ok: false, why: `a "${role}" chairs a working body, not the board` };
    return { ok: true, why: "the chair of the board (or of the trustees or governors) is one of its directors or equivalent" };
  }
  if (/\b(?:trustee|governor)s?\b/.test(r)) return { ok: true, why: "a trustee or governor is a member of the governing body, the equivalent of a director" };
  if (/\b(?:ceo|chief executive)/.test(r))
    return { ok: false, why: `a "${role}" is not, by that title, a director: the statement does not say the signer is one (check the register of officers)` };
  return { ok: false, why: `a "${role}" is not a director, designated member or partner` };
}

// ————————————————————————————————————————————————————————————————— organisation

const LEGAL_SUFFIX = String.raw`(?:Ltd\.?|Limited|LIMITED|LTD\.?|PLC|[Pp]lc|LLP|L\.L\.P\.|LP|Inc\.?|Incorporated|LLC|GmbH|AG|S\.A\.|N\.V\.|B\.V\.|Corporation|Corp\.)`;
/**
 * A word of a name, at most 60 characters: a pattern free to take any length would, at each of the many places a
 * name may start inside one long token ("1.1.1.…", "A’A’A’…"), read to the token's end and back (minutes for a
 * 100,000-character token).
 */
const NAME_WORD = String.raw`[\p{Lu}\d][\p{L}\d'’&.\-]{0,60}`;
const ORG_WORD = String.raw`(?:${NAME_WORD}|\(UK\)|\(U\.K\.\)|&|and|of|the|de|for)`;
/** A company's legal name: capitalised words ending in a legal suffix ("EDAN Medical (UK) Ltd.", "Planned Limited"). */
const LEGAL_NAME = new RegExp(String.raw`(?<![\p{L}])(?:${ORG_WORD}\s+){0,6}?${NAME_WORD}(?:\s+\(UK\))?\s+${LEGAL_SUFFIX}(?![\p{L}])`, "gu");
const NAME_LEAD =
  /^(?:(?:the|this|our|at|by|and|of|for|signed|approved|date|name|title|to|in|on|with|from|statement|modern|slavery|act|section|board|directors|members|trustees|\d+)\s+)+/i;

/** Legal names in a text, cleaned of leading small words ("This statement applies to Cwiri Ltd" → "Cwiri Ltd"). */
function legalNamesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(LEGAL_NAME)) {
    let n = m[0].replace(NAME_LEAD, "").replace(/\s+/g, " ").trim();
    n = n.replace(/^(?:and|of|the|&)\s+/i, "");
    // Lower-case lead words are not the name ("statement of X Ltd" → "X Ltd").
    const words = n.split(" ");
    while (words.length > 2 && !/^[\p{Lu}\d(]/u.test(words[0])) words.shift();
    n = words.join(" ");
    if (/^(?:ltd|limited|plc|llp|inc)\.?$/i.test(n) || n.length < 4) continue;
    if (n.split(" ").length < 2) continue;
    out.push(n.replace(/\.$/, "").replace(/,$/, ""));
  }
  return out;
}

function readOrganisation(reading: Reading): Fact<string> {
  const doc = reading.doc;
  const intro = doc.sentences.slice(0, 60);
  // "This statement applies to / is made by / is made on behalf of X" first.
  const named = reading.first(/\b(?:statement|it)\s+(?:applies|relates|is made|is published|sets out|covers|has been prepared|is issued)\b/i, {});
  const tally = new Map<string, { n: number; first: DocSentence }>();
  // The statement names its organisation near its start and in its sign-off: a long document is not read through for it.
  const tail = doc.sentences.slice(Math.max(60, doc.sentences.length - 40));
  for (const s of [...(named ? [named] : []), ...intro, ...tail])
    for (const n of legalNamesIn(s.text)) {
      const key = n.toLowerCase().replace(/\b(?:limited|ltd)\b\.?/g, "ltd");
      const t = tally.get(key);
      if (t) t.n++;
      else tally.set(key, { n: 1, first: s });
    }
  if (!tally.size) {
    // An HTML title ("Cwiri | Modern Slavery Statement 2026") is not a legal name: say so.
    return notFound("No company name with a legal ending (Ltd, Limited, plc, LLP…) was found in the statement.");
  }
  let best: [string, { n: number; first: DocSentence }] | null = null;
  const namedKeys = named ? legalNamesIn(named.text).map((n) => n.toLowerCase().replace(/\b(?:limited|ltd)\b\.?/g, "ltd")) : [];
  for (const entry of tally) {
    const score = entry[1].n + (namedKeys.includes(entry[0]) ? 3 : 0) + (entry[1].first.index < 15 ? 1 : 0);
    const bestScore = best ? best[1].n + (namedKeys.includes(best[0]) ? 3 : 0) + (best[1].first.index < 15 ? 1 : 0) : -1;
    if (score > bestScore) best = entry;
  }
  const s = best![1].first;
  const name = legalNamesIn(s.text).find((n) => n.toLowerCase().replace(/\b(?:limited|ltd)\b\.?/g, "ltd") === best![0])!;
  return found(name, citeOf(reading, s, new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))));
}

// ————————————————————————————————————————————————————————————————— financial year

const DATE_SRC = String.raw`(?:\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+[A-Z][a-z]{2,8}\.?,?\s+\d{4}|[A-Z][a-z]{2,8}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|[A-Z][a-z]{2,8}\s+\d{4}|\d{4})`;
const FY_PATTERNS: RegExp[] = [
  // "financial year 1 September 2025 to 31 August 2026", "period from 1 April 2019 to 31 March 2020"
  new RegExp(
    String.raw`\b(?:financial|fiscal|reporting|accounting)?\s*(?:year|period)\s+(?:from\s+|of\s+|beginning\s+)?(${DATE_SRC})\s*(?:to|until|–|-|—|through)\s*(${DATE_SRC})`,
    "i",
  ),
  // "year ending 31 March 2024", "financial year ended 28 February 2026", "FY ending 2021"
  new RegExp(
    String.raw`\b(?:(?:financial|fiscal|reporting|accounting)\s+(?:year|period)|year|FY|period)\s+(?:ending|ended|end|to)(?:\s+on)?\s+(${DATE_SRC})`,
    "i",
  ),
  // "financial year 2016", "financial year 2018/19", "FY2023", "FY 2022/23"
  /\b(?:(?:financial|fiscal)\s+year|FY)\s*(?:of\s+)?((?:19|20)\d{2}(?:\s*[/–-]\s*(?:19|20)?\d{2})?|\d{2}\s*[/–-]\s*\d{2})\b/i,
];

function yearOfRange(s: string): number | null {
  const m = /((?:19|20)\d{2})(?:\s*[/–-]\s*((?:19|20)?\d{2}))?/.exec(s);
  if (!m) {
    const two = /^(\d{2})\s*[/–-]\s*(\d{2})$/.exec(s.trim());
    return two ? 2000 + Number(two[2]) : null;
  }
  if (!m[2]) return Number(m[1]);
  return m[2].length === 2 ? Number(m[1].slice(0, 2) + m[2]) : Number(m[2]);
}

function readFinancialYear(reading: Reading): Fact<FinancialYear> {
  const maybe = reading.doc.sentences.filter((s) => /year|period|\bFY/i.test(s.text));
  for (const re of FY_PATTERNS) {
    for (const s of maybe.filter((x) => re.test(x.text))) {
      const m = flat(re).exec(s.text)!;
      const endText = m[2] ?? m[1];
      if (re === FY_PATTERNS[1] && /^\d{4}$/.test(endText) && /\byear\s+(?:ending|ended)\s+\d{4}\s+(?:and|to)\b/i.test(s.text)) continue;
      const d = datesIn(endText)[0];
      const endDate = d ? d.iso : null;
      const year = d ? Number(d.iso.slice(0, 4)) : yearOfRange(endText);
      if (year === null) continue;
      const period = m[0]
        .replace(/^\s+/, "")
        .replace(/^(?:the|our)\s+/i, "")
        .trim();
      return found({ period, endDate, year }, citeOf(reading, s, re));
    }
  }
  // The period in a heading (a title line: "Modern Slavery Act Statement (FY 2023/24)").
  for (const re of FY_PATTERNS)
    for (const sec of reading.doc.sections.slice(0, 4)) {
      const m = sec.heading ? flat(re).exec(sec.heading) : null;
      if (!m) continue;
      const endText = m[2] ?? m[1];
      const d = datesIn(endText)[0];
      const year = d ? Number(d.iso.slice(0, 4)) : yearOfRange(endText);
      if (year === null) continue;
      return found({ period: m[0].trim().replace(/^(?:the|our)\s+/i, ""), endDate: d ? d.iso : null, year }, reading.citeHeading(sec));
    }
  // A title's year: "Modern Slavery Statement 2026", "Slavery and human trafficking statement 2018/19".
  const TITLE = /\b(?:slavery|trafficking)\b[^.]{0,40}\bstatement\b[\s:–-]*(?:for\s+)?((?:19|20)\d{2}(?:\s*[/–-]\s*(?:19|20)?\d{2})?)\b/i;
  for (const sec of reading.doc.sections.slice(0, 4)) {
    const m = sec.heading ? TITLE.exec(sec.heading) : null;
    if (m)
      return found(
        { period: m[1], endDate: null, year: yearOfRange(m[1]) },
        reading.citeHeading(sec),
        "The year in the statement's title; the financial year itself is not stated.",
      );
  }
  const t = reading.first(TITLE, {});
  if (t && t.index < 10) {
    const m = TITLE.exec(t.text)!;
    return found(
      { period: m[1], endDate: null, year: yearOfRange(m[1]) },
      citeOf(reading, t, TITLE),
      "The year in the statement's title; the financial year itself is not stated.",
    );
  }
  if (reading.doc.title) {
    const m = TITLE.exec(reading.doc.title);
    if (m)
      return found(
        { period: m[1], endDate: null, year: yearOfRange(m[1]) },
        { quote: quoteOf(reading.doc.title), page: null, section: null },
        "The year in the page's title; the financial year itself is not stated.",
      );
  }
  return notFound("The statement does not say which financial year it covers.");
}

// ————————————————————————————————————————————————————————————————— approval

const STOP_BODY = String.raw`(?!\s+on\s*(?:the\s+)?\d)(?!\s+on\s+(?:the\s+)?[A-Z][a-z]+\s+\d)(?!\s+(?:and\s+(?:will|is|are|has|have|was|were|signed|it|this|published|covers|reviewed|constitutes|approved)|who|which|at\s+(?:its|a|the)\s+meeting|in\s+(?:19|20)\d\d|in\s+[A-Z][a-z]+\s+\d{4})\b)(?!\.\s)`;
const APPROVED_BY = new RegExp(
  String.raw`\b(?:approved|adopted|ratified|endorsed|agreed|authori[sz]ed|signed[- ]off)\s+(?:(?:on|at)\s+[^,;]{3,30}?\s+)?(?:for\s+publication\s+)?by\s*:?\s+(?:the\s+|our\s+|its\s+|their\s+)?((?:${STOP_BODY}[^;\n]){2,140})`,
  "i",
);
const BODY_APPROVED =
  /\b((?:the\s+)?(?:[\p{Lu}][\p{L}'’&.-]*\s+){0,5}(?:board(?:\s+of\s+directors)?|directors|members|designated\s+members|partners|trustees|council|governing\s+body|governors|court))(?:\s+of\s+[^,.;]{2,60}?)?\s+(?:has\s+|have\s+|formally\s+|duly\s+)?(?:approved|adopted)\s+(?:this|the)\s+(?:statement|it)\b/iu;
const APPROVAL_LABEL = /\b(?:approved\s+by|board\s+approval|date\s+of\s+(?:board\s+)?approval|approval\s+date|date\s+approved|approved\s+on)\s*:?\s*/i;
const NOT_APPROVAL =
  /\bapproved\s+(?:suppliers?|vendors?|contractors?|auditing|auditors?|list|supplier list|panel)|approved by (?:the )?(?:home office|government|regulator|fca|sra|slave-free)|approved (?:auditing|audit) firms/i;
/** A person, not a body ("the Chief Executive Officer of X on behalf of the Board"). */
const PERSON_BODY =
  /^(?:\[name\][,\s–-]*)?(?:the\s+|our\s+|its\s+)?(?:(?:group|uk|global|interim|acting|deputy|joint|sole)\s+)*(?:chief\s+\w+(?:\s+officer)?|ceo|cfo|coo|managing\s+director|(?:finance|executive|non-executive)\s+director|director(?!s)|chair(?:man|woman|person)?\b|president|general\s+manager|head\s+of|owner|founder|company\s+secretary|vice-?chancellor|principal)\b/i;

export function classifyBody(body: string): ApprovalBody {
  const b = body.toLowerCase();
  if (PERSON_BODY.test(body)) return "other";
  // A management team or committee is not the board ("the Council's Senior Management Team"), unless the board approved too.
  if (
    /\bsenior\s+management\b|\bmanagement\s+(?:team|group|committee)\b|\bexecutive\s+(?:team|committee|group)\b|\bleadership\s+(?:team|group)\b/.test(b) &&
    !/\band\s+(?:the\s+)?board\b|\bboard\s+of\s+directors\b/.test(b)
  )
    return "other";
  if (
    /\bdesignated members\b|\bthe members\b|\bmembers of\b|on behalf of (?:its|the) members|\bmembers['’]? (?:council|board)|\bllp members\b|^members\b/.test(
      b,
    ) &&
    !/\bboard members\b/.test(b)
  )
    return "members";
  if (/\bpartners\b|\bpartnership (?:board|council|committee)/.test(b) && !/business partners/.test(b)) return "partners";
  if (
    /\btrustees?\b|\bgoverning body\b|\bgovernors\b|\bboard of governors\b|\bcouncil\b|\btrust board\b|\bboard of management\b|\bcourt\b(?! of directors)/.test(
      b,
    )
  )
    return "trustees";
  if (/\bboard\b|\bdirectors\b|\bcourt of directors\b/.test(b) && !/\b(?:management|leadership|executive) (?:team|group)\b/.test(b))
    return "board_of_directors";
  return "other";
}

const BODY_WORDS: Record<ApprovalBody, string> = {
  board_of_directors: "the board of directors",
  members: "the members (LLP)",
  partners: "the partners",
  trustees: "the trustees or governing body",
  other: "someone other than the board",
};

/** The approving body as written, cut at its date or the clause after it. */
function cleanBody(raw: string): string {
  let body = raw.replace(/\s+/g, " ").trim();
  body = body
    .replace(/\s+(?:on|dated)\s*(?:the\s+)?\d.*$/i, "")
    .replace(/\s+on\s+(?:the\s+)?[A-Z][a-z]+\.?\s+\d.*$/, "")
    .replace(/\s+\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]+\s+\d{4}.*$/, "")
    .replace(/\s+(?:on|in)\s+[A-Za-z]+\s+\d{4}.*$/, "")
    .replace(/\s+at\s+(?:its|a|the)\s+(?:board\s+)?meeting.*$/i, "");
  body = body.replace(/\s+(?:Date(?:\s+approved)?|Signed|Name)\s*:.*$/i, "");
  body = body.replace(/\s+(?:and\s+(?:will|is|are|has|have|was|were|signed|it|this|published|covers|reviewed|constitutes)|who|which)\b.*$/i, "");
  body = body.replace(/,\s+(?:and|which|who|to)\b.*$/i, "");
  body = body
    .replace(/\s*\((?:[“"'‘][^)]*|the\s+[^)]*)\)\s*$/i, "")
    .replace(/\s+on$/i, "")
    .replace(/[\s,.;:]+$/, "");
  if (body.length > 100) body = body.slice(0, 100).replace(/\s\S*$/, "");
  return body;
}

interface ApprovalFound {
  fact: Fact<Approval>;
  line: Line | null;
}

function readApproval(reading: Reading, lines: Line[]): ApprovalFound {
  const n = lines.length;
  const candidates: { l: Line; body: string; date: string | null; weight: number; dateLine: Line | null }[] = [];
  for (const l of lines) {
    if (!/\b(?:approv|adopt|ratif|endors|agreed|authori[sz]ed|signed[- ]off)/i.test(l.text) || NOT_APPROVAL.test(l.text)) continue;
    const b = BODY_APPROVED.exec(l.text);
    const a = APPROVED_BY.exec(l.text);
    const boardLabel = /\bapproved\s+by\s+(?:the\s+)?([\p{Lu}][\p{L}\s'’&.-]{2,60}?\b(?:BOARD|Board|board))\b/u.exec(l.text);
    const raw = b?.[1] ?? a?.[1] ?? boardLabel?.[1] ?? null;
    if (!raw) continue;
    const body = cleanBody(raw);
    if (!body) continue;
    const statementy =
      /\bstatement\b|\bthis\b|\bit\b/i.test(l.text) ||
      APPROVAL_LABEL.test(l.text) ||
      /^(?:\d+[.)]?\s*)?(?:approv|sign|declar)/i.test(l.section ?? "") ||
      l.pos >= n - 15;
    if (!statementy) continue;
    // Approval of something else ("the software was signed off by the business").
    if (/\b(?:software|platform|policy was|standards were|code was)\b/i.test(l.text) && !/\bstatement\b/i.test(l.text)) continue;
    // "written by X, authorised by Y": Y is a person signing off, read as the signature.
    let date = dateOf(l.text.slice(Math.max(0, l.text.search(/approv|adopt|ratif|endors|agreed|authori|signed/i))));
    let dateLine: Line | null = null;
    const next = lines[l.pos + 1];
    if (!date && next && /^\s*(?:date(?:\s+(?:approved|of\s+approval))?|approved\s+on|on)\s*:?\s*/i.test(next.text) && next.text.length < 60) {
      date = dateOf(next.text);
      if (date) dateLine = next;
    }
    const by = classifyBody(signOffText(body));
    const weight =
      (by !== "other" ? 4 : 0) +
      (date ? 2 : 0) +
      (/^(?:\d+[.)]?\s*)?(?:approv|sign|declar|board approval)/i.test(l.section ?? "") ? 1 : 0) +
      (/\bstatement\b/i.test(l.text) ? 1 : 0);
    candidates.push({ l, body, date, weight, dateLine });
  }
  if (!candidates.length) {
    // Signed "for and on behalf of the Board": the board authorised it.
    const BEHALF = /\b(?:for\s+and\s+)?on\s+behalf\s+of\s+((?:the\s+)?(?:[\p{Lu}][\p{L}'’&.-]*\s+){0,4}board(?:\s+of\s+directors)?)\b/iu;
    const behalf = lines.find((l) => BEHALF.test(l.text) && (l.pos >= n - 20 || /\bsign/i.test(l.text)));
    if (behalf) {
      const body = BEHALF.exec(behalf.text)![1];
      return {
        fact: found(
          { by: "board_of_directors", body: signOffText(body), date: dateOf(behalf.text), qualifies: true },
          citeLines(reading, [behalf], /on\s+behalf/i),
          "Signed on behalf of the board; the statement has no separate sentence saying the board approved it.",
        ),
        line: behalf,
      };
    }
    return { fact: notFound("The statement does not say who approved it."), line: null };
  }
  candidates.sort((x, y) => y.weight - x.weight || x.l.pos - y.l.pos);
  const c = candidates[0];
  let body = (looksLikePerson(c.body, "standalone") ? "[name]" : redactNames(c.body, { line: true, signOff: true, known: reading.people })).replace(
    /^\[name\][,\s–-]*/,
    "",
  );
  const by = classifyBody(body);
  if (!body || body === "[name]") body = "a person";
  const note =
    by === "other"
      ? PERSON_BODY.test(body) || body === "a person"
        ? "Approved by a person, not by the board: s.54(6) asks for approval by the board of directors (or equivalent)."
        : "The approving body is not the board of directors, the members of an LLP or the partners (s.54(6))."
      : null;
  const ev = citeLines(reading, c.dateLine ? [c.l, c.dateLine] : [c.l], /approv|adopt|ratif|endors|agreed|authori|signed/i);
  return { fact: found({ by, body, date: c.date, qualifies: by !== "other" }, ev, note), line: c.l };
}

// ————————————————————————————————————————————————————————————————— signature

const SIG_LABEL =
  /\b(?:signed|signature|signatory|sign-?off)\b|\bname\s*(?:\/\s*title)?\s*:|\b(?:job\s+)?title\s*:|\bposition\s*:|\bprint(?:ed)?\s+name\b|\bfor\s+and\s+on\s+behalf\s+of\b/i;
const NOT_SIG =
  /\bsigned\s+(?:up|into law)\b|\b(?:have|has|had)\s+signed\s+(?:up|our|the|a|their)\b|\bsigned\s+(?:our|the|a|their)\s+(?:supplier|code|contract|agreement|declaration|pledge|commitment|terms)|\bsigned\s+(?:supplier|code|contract)|\bsignatory\s+to\b|\bsignatories?\s+(?:of|to)\b|\bclearly\s+signed\b|\bsignpost|\bsigned\s+version\b/i;
/** Not the signer: the author, a contact. */
const NOT_SIGNER = /\b(?:author|written\s+by|prepared\s+by|drafted\s+by|contact|enquiries|questions)\b/i;
const SIG_HEADING = /^(?:\d+[.)]?\s*)?(?:signed|signature|sign[- ]?off|approval|approved|board approval|declaration|authori[sz]ation|statement approval)\b/i;
const SIGNED_BY_ROLE =
  /\b(?:signed|signed[- ]off)\b(?:\s+(?:on|for)\s+(?:its|their|the\s+board['’]?s?|behalf\s+of\s+the\s+board)\s+behalf)?(?:\s+(?:on|for)\s+(?:its|their)\s+behalf)?\s+by\s+(?:the\s+|its\s+|our\s+|a\s+|an\s+|one\s+of\s+(?:our|its|the)\s+)?([^.;]{2,120})/i;
const SMALL_OK = new Set([
  "of",
  "the",
  "and",
  "on",
  "behalf",
  "for",
  "by",
  "at",
  "&",
  "to",
  "signed",
  "date",
  "name",
  "title",
  "position",
  "print",
  "printed",
  "job",
]);

/** A line that is a signature's role line: short, and nothing in it but a name, a role, an organisation and a date. */
function isRoleLine(seg: string, role: RoleFound): boolean {
  if (seg.length > 160) return false;
  let rest = seg.slice(0, role.start) + " " + seg.slice(role.end);
  for (const nm of legalNamesIn(rest)) rest = rest.replace(nm, " ");
  for (const d of datesIn(rest)) rest = rest.replace(d.text, " ");
  rest = rest.replace(/\b(?:signed|signature|name|title|position|job title|print(?:ed)? name|date|for and on behalf of|on behalf of)\b\s*[:\-–]?/gi, " ");
  const toks = rest.split(/[\s,;:()/|–—-]+/).filter((t) => t && /\p{L}/u.test(t));
  const prose = toks.filter((t) => /^\p{Ll}/u.test(t) && !SMALL_OK.has(t.toLowerCase()));
  return prose.length <= 1 && toks.length <= 12;
}

interface SigCandidate {
  lines: Line[];
  role: string | null;
  qualifies: boolean | null;
  why: string | null;
  date: string | null;
  strength: number;
  at: number;
  /** "line": a signature line (a role under a name or a label); "described": a sentence saying who signed. */
  kind: "line" | "described";
}

/** Segments of a line a signature block may be run into (dotted signature lines, "|"). */
const segmentsOf = (text: string) =>
  text
    .split(/(?:[.…_]{3,}|…|\s\|\s)/)
    .map((t) => t.trim())
    .filter(Boolean);

function readSignature(reading: Reading, lines: Line[], approval: ApprovalFound): Fact<Signature> {
  const n = lines.length;
  const zone = new Set<number>();
  for (let i = Math.max(0, n - 14); i < n; i++) zone.add(i);
  for (const l of lines) {
    if ((l.section && SIG_HEADING.test(l.section)) || (SIG_LABEL.test(l.text) && !NOT_SIG.test(l.text)))
      for (let j = l.pos; j < Math.min(n, l.pos + 4); j++) zone.add(j);
  }
  const ap = approval.line?.pos ?? null;
  if (ap !== null) for (let j = ap; j < Math.min(n, ap + 7); j++) zone.add(j);
  const labelOnly = (l: Line | undefined) =>
    !!l && /^(?:signed|signature|signed by|signed on behalf of the board|for and on behalf of[^.]{0,80})\s*[:,.]?\s*(?:[.…_\s]*)$/i.test(l.text.trim());
  const nameOnly = (l: Line | undefined) =>
    !!l &&
    l.text.length < 60 &&
    (looksLikePerson(l.text.trim(), "standalone") || redactNames(l.text, { line: true, signOff: true }).replace(/[\s.,]/g, "") === "[name]");
  const cands: SigCandidate[] = [];
  for (const i of [...zone].sort((a, b) => a - b)) {
    const l = lines[i];
    if (NOT_SIG.test(l.text) && !/\bsigned\s+by\b/i.test(l.text)) continue;
    const inSigSection = !!l.section && SIG_HEADING.test(l.section);
    // "signed on its behalf by the sole director", "signed by a designated member"
    const sb = SIGNED_BY_ROLE.exec(l.text);
    if (sb) {
      const after = signOffText(sb[1]).replace(/^\[name\][,\s]*(?:(?:a|an|the|our|its)\s+)?/, "");
      const roles = rolesIn(after);
      if (roles.length && roles[0].start < 40) {
        const q = roleQualifies(roles[0].text);
        cands.push({
          lines: [l],
          role: roles[0].text,
          qualifies: q.ok,
          why: q.why,
          date: dateOf(l.text.slice(sb.index)),
          strength: 3,
          at: i,
          kind: "described",
        });
        continue;
      }
    }
    for (const seg of segmentsOf(l.text)) {
      if (NOT_SIGNER.test(seg)) continue;
      for (const role of rolesIn(seg)) {
        // A body ("the Board of Directors", "members"), not a signer; "Chairman of the Board of Directors" is one.
        if (
          /\b(?:directors|members|partners|trustees|governors)$/i.test(role.text.split(/\s+of\s+/i)[0]) &&
          !/\b(?:managing|executive)\s+directors\b/i.test(role.text)
        )
          continue;
        if (
          /^(?:member|partner|owner|principal|officer|manager|secretary|governor|trustee)$/i.test(role.text) &&
          !SIG_LABEL.test(seg) &&
          !isRoleLine(seg, role)
        )
          continue;
        const labelled = SIG_LABEL.test(seg) && !NOT_SIG.test(seg);
        const line = isRoleLine(seg, role);
        const prev = lines[i - 1];
        const afterLabel = labelOnly(prev) || nameOnly(prev) || (labelOnly(lines[i - 2]) && nameOnly(prev));
        const afterApproval = ap !== null && i > ap && i <= ap + 6;
        let strength = 0;
        if (labelled && (line || role.start < 60)) strength = 3;
        else if (line && (afterLabel || inSigSection || afterApproval)) strength = 3;
        else if (line && i >= n - 14) strength = 2;
        else if (/\b(?:approved|authori[sz]ed)\s+by\s*:?\s*$/i.test(signOffText(seg.slice(0, role.start)).replace(/\[name\][,\s–-]*$/, "")) && role.start < 80)
          strength = 2;
        if (!strength) continue;
        const q = roleQualifies(role.text);
        const block = [l];
        if (labelOnly(prev) || (prev && /^\s*signed\s*:/i.test(prev.text) && prev.text.length < 40)) block.unshift(prev);
        const next = lines[i + 1];
        let date = dateOf(seg.slice(role.start)) ?? dateOf(seg);
        // The date on the next line, or the one after an organisation's name line.
        const after2 = lines[i + 2];
        if (!date && next && next.text.length < 40 && dateOf(next.text)) {
          date = dateOf(next.text);
          block.push(next);
        } else if (
          !date &&
          next &&
          after2 &&
          next.text.length < 80 &&
          (legalNamesIn(next.text).length || /^(?:print(?:ed)?\s+)?name\s*:/i.test(next.text)) &&
          after2.text.length < 40 &&
          dateOf(after2.text)
        ) {
          date = dateOf(after2.text);
          block.push(next, after2);
        }
        cands.push({ lines: block, role: role.text, qualifies: q.ok, why: q.why, date, strength, at: i, kind: "line" });
      }
    }
  }
  if (!cands.length) {
    // A signature line with no role ("Signed: ………… Date: …").
    const bareSig = [...zone]
      .sort((a, b) => a - b)
      .map((i) => lines[i])
      .find((l) => /^(?:signed|signature|signed by)\b/i.test(l.text.trim()) && !NOT_SIG.test(l.text) && l.text.length < 120);
    if (bareSig)
      return found(
        { role: null, qualifies: null, date: dateOf(bareSig.text) },
        citeLines(reading, [bareSig]),
        "A signature line, but the signer's role is not given: whether a director signed couldn't be told.",
      );
    return notFound("No signature (a signer and their role) was found.");
  }
  const top = Math.max(...cands.map((c) => c.strength));
  const strong = cands.filter((c) => c.strength === top);
  const rank = (c: SigCandidate) => (c.qualifies ? 2 : 0) + (c.kind === "line" ? 1 : 0);
  const pick = strong.reduce((best, c) => (rank(c) > rank(best) || (rank(c) === rank(best) && c.at > best.at) ? c : best));
  const same = (x: string, y: string) => x.toLowerCase().includes(y.toLowerCase()) || y.toLowerCase().includes(x.toLowerCase());
  const others = [...new Set(strong.filter((c) => c !== pick && c.role && c.kind === "line").map((c) => c.role!))].filter(
    (r) => !pick.role || !same(r, pick.role),
  );
  const note = `${pick.qualifies ? "Qualifies" : "Does not qualify"}: ${pick.why}.${others.length ? ` Also signed by: ${others.join("; ")}.` : ""}`;
  return found({ role: pick.role, qualifies: pick.qualifies, date: pick.date }, citeLines(reading, pick.lines), note);
}

// ————————————————————————————————————————————————————————————————— statement date

function readStatementDate(reading: Reading, approval: Fact<Approval>, signature: Fact<Signature>): Fact<string> {
  const doc = reading.doc;
  const labelled =
    /\b(?:date(?:\s+(?:approved|of\s+approval|signed|published|of\s+publication))?|dated|published(?:\s+on)?|approved\s+on|signed\s+on|issued(?:\s+on)?|updated|last\s+updated|publication\s+date)\s*[:\-–]?\s*(?=\d|[A-Z][a-z]+\s+\d)/i;
  // The date the statement was signed or approved.
  if (signature.value?.date && signature.evidence) return found(signature.value.date, signature.evidence, "The date given with the signature.");
  if (approval.value?.date && approval.evidence) return found(approval.value.date, approval.evidence, "The date of approval.");
  // "Published 11 August 2026", "Date: 19 November 2019", "Updated: 21 March 2019"
  const ls = doc.sentences.filter((s) => labelled.test(s.text) && (s.index < 8 || s.index >= doc.sentences.length - 15));
  for (const s of ls) {
    const m = labelled.exec(s.text)!;
    const d = dateOf(s.text.slice(m.index));
    if (d) return found(d, citeOf(reading, s, labelled));
  }
  // A date in the statement's title: "Modern Slavery Statement – January 2024".
  for (const sec of doc.sections.slice(0, 3)) {
    if (!sec.heading || !/statement/i.test(sec.heading)) continue;
    const d = dateOf(sec.heading);
    if (d)
      return found(d, reading.citeHeading(sec), d.length === 7 ? "Only the month is given, in the statement's title." : "The date in the statement's title.");
  }
  for (const s of doc.sentences.slice(0, 3)) {
    if (!/statement/i.test(s.text) || s.text.length > 140) continue;
    const d = dateOf(s.text);
    if (d) return found(d, citeOf(reading, s), "The date in the statement's opening line.");
  }
  return notFound("No date of approval, signature or publication was found.");
}

// ————————————————————————————————————————————————————————————————— group statement

const GROUP_RE = [
  /\b(?:group|joint|consolidated)\s+(?:modern\s+slavery\s+)?(?:and\s+human\s+trafficking\s+)?statement\b/i,
  /\bgroup['’]s?\s+(?:modern\s+)?slavery\s+(?:and\s+human\s+trafficking\s+)?statement\b/i,
  /\b(?:statement|it)\s+(?:is\s+made|is\s+published|has\s+been\s+(?:made|prepared|published|issued)|is\s+issued|applies|covers|relates|is\s+given)\b[^.;]{0,80}\b(?:on\s+behalf\s+of|for|to)\b[^.;]{0,160}\b(?:subsidiar(?:y|ies)|group\s+companies|companies\s+(?:with)?in\s+the\s+group|group\s+entities|(?:following|all\s+(?:of\s+)?(?:its|our|the))\s+(?:uk\s+)?(?:companies|entities|subsidiaries|businesses)|entities)\b/i,
  /\b(?:made|published|issued)\s+on\s+behalf\s+of\s+(?:the\s+(?:\w+\s+)?group\b|(?:the\s+)?following\s+(?:companies|entities))/i,
  /\b(?:covers|applies\s+to|includes)\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:following\s+)?(?:uk\s+)?(?:[\p{Lu}][\p{L}]*\s+){0,3}(?:entities|subsidiaries|group\s+companies)\s+(?:including|listed|below|named|:)/iu,
];
const NOT_GROUP = /\bnot\s+(?:part\s+of\s+)?(?:a\s+)?(?:wider\s+)?(?:corporate\s+)?group\b/i;

function readGroup(reading: Reading, organisation: string | null): GroupStatement {
  const seen = new Set<number>();
  const cands: { s: DocSentence; re: RegExp; names: string[] }[] = [];
  const maybe = reading.doc.sentences.filter((s) => /group|joint|consolidated|subsidiar|entit|behalf/i.test(s.text) && !NOT_GROUP.test(s.text));
  for (const re of GROUP_RE)
    for (const s of maybe.filter((x) => re.test(x.text)).slice(0, 5)) {
      if (seen.has(s.index)) continue;
      seen.add(s.index);
      const names = legalNamesIn(s.text);
      // A list after the sentence ("…on behalf of the following companies:").
      if (/(?:following|below|:)\s*$/i.test(s.text) || /following\s+(?:companies|entities|subsidiaries)/i.test(s.text))
        for (const t of reading.doc.sentences.slice(s.index + 1, s.index + 25)) {
          const more = legalNamesIn(t.text);
          if (!more.length) break;
          names.push(...more);
        }
      cands.push({ s, re, names: [...new Set(names)] });
    }
  if (!cands.length)
    return { value: false, evidence: null, note: "Nothing in the statement says it covers other entities (a group or joint statement).", entities: [] };
  const others = (names: string[]) => names.filter((x) => !organisation || x.toLowerCase() !== organisation.toLowerCase());
  const c = cands.find((x) => others(x.names).length) ?? cands[0];
  const note = others(c.names).length ? null : "It says it is a group or joint statement, but names no other entity it covers.";
  return { ...found(true, citeOf(reading, c.s, c.re), note), entities: c.names };
}

// ————————————————————————————————————————————————————————————————— the six areas

const STRIP =
  /\bmodern slavery act(?: 2015)?|\b(?:section|s\.?)\s?54(?:\s?\(\d+\))?(?:\([a-z]\))?|\b2015\b(?=[^.]{0,10}\bact)|^\s*(?:\d{1,2}[.)]|\(?[a-z]\)|•)\s*/gi;
const NAMED_FRAMEWORK =
  /\b(?:sedex|smeta|ethical trading initiative|\beti\b|stronger together|amfori|bsci|sa8000|responsible business alliance|\brba\b|ecovadis|achilles|constructionline|gla{1,2}\b|gangmasters|unseen|slave-free alliance|hope for justice|anti-slavery international|verit[eé]|\biom\b|cips|fast forward|iso \d{4,5}|walk free|global slavery index|un global compact|guiding principles|\bilo\b|better buying|fair labou?r association|\bfla\b|modern slavery helpline|intertek|bureau veritas|\bsgs\b|elevate|clearview|electronic industry citizenship|\beicc\b|supplier ethical data exchange|ungps?)\b/i;
const FREQUENCY =
  /\b(?:annual(?:ly)?|quarterly|monthly|weekly|bi-?annual(?:ly)?|every\s+(?:year|quarter|month|\w+\s+(?:years|months))|each\s+(?:year|quarter)|per\s+(?:year|annum)|yearly|twice\s+a\s+year|since\s+(?:19|20)\d{2}|in\s+(?:19|20)\d{2}|during\s+(?:19|20)\d{2}|by\s+(?:\w+\s+)?(?:19|20)\d{2})\b/i;
const NUMBER = /\b\d[\d,.]*\s?%|\b\d+\b|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|hundreds?|thousands?|dozens?)\b/i;
const WHO =
  /\b(?:procurement|purchasing|buying|hr|human resources|compliance|legal|sustainability|ethical trad(?:e|ing)|responsible sourcing|quality|internal audit|risk|people|supply chain|commercial|sourcing)\s+(?:team|function|department|manager|director|officer|lead|committee)s?\b|\bhead of\b|\b(?:board|audit|risk|esg|ethics)\s+committee\b|\bthe board\b/i;

interface AreaSpec {
  key: Exclude<AreaKey, "training">;
  sentence: RegExp;
  heading: RegExp;
  not?: RegExp;
  /** Concrete mechanisms of this area (a named process). */
  mechanism: RegExp;
}

const AREA_SPECS: AreaSpec[] = [
  {
    key: "structure",
    sentence:
      /\b(?:organi[sz]ation(?:al)?|group|corporate|business|company|legal|ownership)\s+structure\b|\bsupply\s+chains?\s+(?:is|are|includes?|consists?|comprises?|primarily|mainly|is made up|span|covers?)\b|\bour\s+supply\s+chains?\b|\bheadquartered\b|\bwholly[- ]owned\b|\bsubsidiar(?:y|ies)\b|\bparent\s+company\b|\b(?:we|it|the\s+(?:company|group|business|organi[sz]ation|firm|charity))\s+(?:employ|employs|operate|operates|run|runs|has|have|works?|own|owns)\b[^.;]{0,60}\b(?:employees|staff|people|colleagues|workers|sites|stores|shops|restaurants|offices|depots|factories|countries|locations|branches|markets|suppliers|customers|clients)\b|\b(?:is|are)\s+(?:a|an)\s+(?:[\w-]+\s+){0,4}[\w-]+(?:er|or|ist|ant|ancy)\b|\bturnover\b|\b(?:is|are)\s+(?:a|an|the|one\s+of\s+the)\s+(?:[\w-]+\s+){0,5}(?:company|business|provider|manufacturer|retailer|supplier|group|firm|organi[sz]ation|charity|consultancy|university|college|contractor|developer|distributor|wholesaler|operator|specialist)\b|\b(?:registered|incorporated)\s+in\s+(?:england|scotland|wales|northern ireland|the\s+uk|the\s+united\s+kingdom)|\b(?:we|it)\s+(?:source|buy|procure|purchase)s?\b|\bour\s+(?:main\s+|key\s+|principal\s+)?suppliers\s+(?:are|include|provide|supply)|\b(?:operations|offices|sites)\s+(?:are\s+)?(?:based|located)\s+in\b/i,
    heading:
      /organi[sz]ation|structure|our business|about (?:us|the company|the firm)|who we are|what we do|set[- ]?up|supply chains?|our operations|business model|our company|our group|overview|operations and|company profile/i,
    mechanism:
      /\btier\s*(?:1|2|one|two)\b|\bcountries\b|\bbased in\s+\p{Lu}|\blocated in\s+\p{Lu}|\bheadquartered in\b|\b(?:employ|employs|employees)\b[^.]{0,20}\d|\bsuppliers\b[^.]{0,30}\d|\bturnover\b|\bcategories\b|:\s*$/iu,
  },
  {
    key: "policies",
    sentence:
      /\bpolic(?:y|ies)\b|\bcodes?\s+of\s+(?:business\s+)?(?:conduct|ethics|practice)\b|\bwhistle-?\s?blow|\bspeak(?:ing)?\s+up\b|\bethical\s+(?:trading|sourcing)\s+(?:code|standards?|polic)|\bsupplier\s+(?:code|charter|standards?|requirements|principles)\b|\bhuman\s+rights\s+(?:polic|commitment|statement|principles)|\bzero[- ]tolerance\b/i,
    heading: /polic|codes? of conduct|our (?:commitment|position|approach|values)|^(?:\d+[.)]?\s*)?commitment|zero tolerance|standards/i,
    not: /\bquestions about this policy\b|\bcookie|\bprivacy (?:policy|notice)|\bterms of (?:use|service)/i,
    mechanism:
      /\b(?:[\p{Lu}][\p{L}-]*\s+){1,4}(?:Policy|Code(?:\s+of\s+(?:Business\s+)?(?:Conduct|Ethics|Practice))?|Charter|Standards|Principles)\b|\b(?:reviewed|updated|signed|acknowledged|accepted|communicated|cascaded|published)\b[^.]{0,40}\b(?:annually|each year|all (?:staff|employees|suppliers)|intranet|induction)/u,
  },
  {
    key: "dueDiligence",
    sentence:
      /\bdue\s+diligence\b|\baudit(?:s|ed|ing|ors?)?\b|\bquestionnaires?\b|\bpre-?qualification|\bpqq\b|\bonboard(?:ing)?\b|\bvett?(?:ed|ing)\b|\bscreen(?:ed|ing)\b|\bsupplier\s+(?:assessments?|evaluations?|approval|checks?|reviews?|visits?|engagement|surveys?)\b|\bself-?assessments?\b|\bsite\s+visits?\b|\binspections?\b|\bcontract(?:ual)?\s+(?:clauses?|terms|provisions|obligations|requirements)\b|\bright\s+to\s+work\b|\b(?:sedex|smeta|ecovadis|achilles|constructionline)\b|\bmonitor(?:s|ed|ing)?\s+(?:of\s+)?(?:our\s+|potential\s+)?(?:suppliers|supply\s+chains?|compliance|supplier\s+compliance|risk\s+areas)\b|\bterminat(?:e|ing|ion)\b[^.]{0,30}\b(?:relationships?|contracts?)\b|\bcorrective\s+action|\b(?:check|checks|checked|checking|verify|verifies|verified)\s+(?:whether|that|the|our|their|suppliers)\b|\breputable\s+suppliers\b/i,
    heading:
      /due diligence|supplier (?:management|assurance|engagement|monitoring|adherence)|steps (?:taken|we have taken)|our approach|what we (?:do|have done)|actions? (?:taken|we have taken)|assurance|processes/i,
    mechanism:
      /\bquestionnaires?\b|\baudit(?:s|ed|ing)?\b|\bsite\s+visits?\b|\bself-?assessments?\b|\bpre-?qualification|\bpqq\b|\bonboarding\b|\bcontract(?:ual)?\s+(?:clauses?|terms)\b|\bright\s+to\s+work\b|\binspections?\b|\bcorrective\s+action|\bscreening\b|\bchecks?\b/i,
  },
  {
    key: "riskAssessment",
    sentence:
      /\brisk\s+assessments?\b|\bassess(?:es|ed|ing|ment\s+of)?\s+(?:the\s+|our\s+|potential\s+|any\s+|its\s+)?(?:modern\s+slavery\s+)?risks?\b|\brisks?\s+(?:of|in|within|arising|to|from|are|is|areas?|profile|register|matrix|map(?:ping)?|rating|based|categories|factors|levels?|assessment)\b|\b(?:high|higher|low|lower|medium|elevated|greatest|highest)[- ]risk\b|\b(?:identify|identified|identifies|identifying|mitigate|mitigating|mitigated|manage|managing|evaluate|evaluating|map|mapping|mapped|reduce|reducing|minimi[sz]e)\s+(?:and\s+\w+\s+)?(?:the\s+|any\s+|potential\s+|these\s+|such\s+|those\s+|our\s+)?(?:modern\s+slavery\s+)?risks?\b|\bexposure\b|\bvulnerab|\bglobal\s+slavery\s+index\b/i,
    heading: /risk|exposure/i,
    mechanism:
      /\brisk\s+(?:register|matrix|map|mapping|rating|scor|tool|categor)|\bglobal slavery index\b|\b(?:high|higher|elevated)[- ]risk\s+(?:countries|sectors|categories|industries|suppliers|areas|jurisdictions)\b|\b(?:countries|sectors?|industr(?:y|ies)|categories|jurisdictions)\b|\b(?:as|be|is|are)\s+(?:very\s+)?(?:low|medium|moderate|high)\b|\blower[- ]tier\b|\bagency\s+(?:labou?r|workers)|\bseasonal\b|\bmigrant\b|\braw\s+materials?\b|\bmanufactur\w*|\belectronics\b|\bhardware\b|\btextiles?\b|\bapparel\b|\bconstruction\b|\bagricultur\w*|\bcleaning\b|\bsecurity\s+services\b|\blogistics\b|\bhospitality\b|\bcar\s+washes?\b|\bfishing\b|\bmining\b/i,
  },
  {
    key: "effectiveness",
    sentence:
      /\bkpis?\b|\bkey\s+performance\s+indicators?\b|\beffective(?:ness|ly)?\b[^.;]{0,80}\b(?:measur|monitor|assess|review|evaluat|track)|\b(?:measur|monitor|assess|review|evaluat|track)\w*\b[^.;]{0,80}\beffective(?:ness)?\b|\bperformance\s+indicators?\b|\bmetrics?\b|\btargets?\b|\bmeasur(?:e|es|ed|ing)\s+(?:our\s+)?(?:progress|success|performance|impact)\b|\btrack(?:s|ed|ing)?\s+(?:our\s+)?progress\b|\b(?:number|percentage|proportion)\s+of\s+(?:suppliers|employees|staff|audits|reports|concerns|cases|incidents|grievances|allegations)\b/i,
    heading: /effective|kpi|performance indicator|measur|progress|monitoring|review of/i,
    mechanism: /\bkpis?\b|\bkey\s+performance\s+indicators?\b|\b(?:number|percentage|proportion|%)\s+of\b|\btargets?\b|\bmetrics?\b|\bwhether\b/i,
  },
];

/** The kinds of concrete detail a sentence gives: numbers, when/how often, named frameworks, who, a named mechanism. */
function signalsOf(text: string, mechanism: RegExp): Set<string> {
  const t = text.replace(STRIP, " ");
  const out = new Set<string>();
  if (test(NUMBER, t)) out.add("number");
  if (test(FREQUENCY, t)) out.add("when");
  if (test(NAMED_FRAMEWORK, t)) out.add("named");
  if (test(WHO, t)) out.add("who");
  if (test(mechanism, t)) out.add("mechanism");
  return out;
}

function scoreOf(found: { s: DocSentence; sig: Set<string> }[]): Score {
  if (!found.length) return 0;
  const specific = found.filter((f) => f.sig.size > 0);
  const kinds = new Set(specific.flatMap((f) => [...f.sig]));
  if (
    (specific.length >= 2 && kinds.size >= 2) ||
    specific.length >= 3 ||
    specific.some((f) => f.sig.size >= 3 || (f.sig.has("number") && f.sig.has("mechanism")))
  )
    return 2;
  return 1;
}

function pickEvidence(reading: Reading, hits: { s: DocSentence; sig: Set<string> }[], match?: RegExp): Evidence[] {
  const ranked = [...hits].sort((a, b) => b.sig.size - a.sig.size || a.s.index - b.s.index).slice(0, 3);
  return ranked.sort((a, b) => a.s.index - b.s.index).map((h) => citeOf(reading, h.s, match));
}

function noteOf(score: Score, hits: number, label: string): string {
  if (score === 0) return `Not covered: nothing on ${label}.`;
  if (score === 1) return `Mentioned in general terms (${hits} passage${hits === 1 ? "" : "s"}), without concrete steps, numbers or who/when.`;
  return `Specific (${hits} passage${hits === 1 ? "" : "s"}): concrete steps, numbers, named processes or who/when.`;
}

/** Passages of an area weighed for detail at most (a long report mentions its supply chain hundreds of times). */
const MAX_WEIGHED = 80;

/** One of s.54(5)(a)–(e): sentences that speak of it, or any sentence of a section headed for it, weighed for detail. */
function readArea(reading: Reading, spec: AreaSpec): Area {
  const hits: { s: DocSentence; sig: Set<string> }[] = [];
  for (const s of reading.doc.sentences) {
    if (spec.not && spec.not.test(s.text)) continue;
    const inSection = !!s.section && spec.heading.test(s.section);
    if (!spec.sentence.test(s.text) && !(inSection && s.text.length > 25)) continue;
    // A long document: the first passages are weighed (the score needs a few), all are counted.
    hits.push({ s, sig: hits.length < MAX_WEIGHED ? signalsOf(s.text, spec.mechanism) : new Set() });
  }
  const score = scoreOf(hits);
  return { score, evidence: pickEvidence(reading, hits, spec.sentence), note: noteOf(score, hits.length, AREA_SHORT[spec.key]) };
}

// ————————————————————————————————————————————————————————————————— training

const TRAIN =
  /\btrain(?:ing|ings|ed|s)?\b|\be-?learning\b|\bworkshops?\b|\bwebinars?\b|\binduction\b|\bbriefing\s+sessions?\b|\beducat(?:e|es|ed|ing)\s+(?:all\s+|our\s+|its\s+|their\s+|relevant\s+|key\s+)?(?:\w+\s+)?(?:staff|employees|colleagues|workers|buyers|teams?|managers|suppliers|people|them|personnel|members)|\binvest\s+in\s+educating\b|\bawareness\s+(?:sessions?|days?|workshops?|courses?|modules?|presentations?)\b|\bcourses?\b(?!\s+of\b)(?!\s+(?:for|to)\s+(?:students|learners|customers|clients))|\b(?:online|e-)\s?learning\b|\blearning\s+(?:modules?|tools?|platform|programmes?)\b|\btool\s?box\s+talks?\b|\b(?:refresh\w*|maintain\w*|keeps?|kept)\s+(?:(?:an?|their|his|her|its|that|our)\s+)?(?:up[- ]to[- ]date\s+)?(?:understanding|knowledge)\b/i;
const TOPIC =
  /slavery|traffick|forced\s+(?:or\s+compulsory\s+)?labou?r|compulsory\s+labou?r|servitude|human\s+rights|exploitation|(?<!un)ethical\s+(?:trade|trading|sourcing|procurement|recruitment|purchasing|labou?r)|responsible\s+(?:sourcing|recruitment|purchasing)|\bMSA\b|\bthe\s+Act\b|(?:anti-?slavery|modern\s+slavery|human\s+rights|ethical\s+trading)\s+polic|red\s+flags|signs\s+(?:to\s+look|of)|indicators\s+of|child\s+labou?r|labou?r\s+(?:rights|standards|practices|exploitation|abuse)|stronger\s+together|\bGLAA\b|bonded\s+labou?r|debt\s+bondage|worker\s+welfare/i;
const NOT_TRAINING =
  /\btrainees?\b|\btraining\s+(?:centres?|centers?|facilit(?:y|ies)|network|academy|academies|schools?|colleges?|grounds?)\b|\bTraining\s+(?:Ltd|Limited|Network)\b|\b(?:recruitment|promotion|pay|remuneration|hiring|selection),?\s+(?:and\s+)?training\b|\btraining,?\s+(?:and|or)\s+promotion\b|\btraining\s+and\s+(?:career\s+)?development\b|\bcareer\s+development\b|\bcourse\s+of\s+(?:business|its|our|their|the)\b|\bcourses?\s+(?:for|to)\s+(?:students|learners|pupils|customers|clients)\b|\b(?:qualifications?|apprenticeships?)\b[^.]{0,20}\btraining\b/gi;
const OTHER_SUBJECT =
  /code\s+of\s+(?:business\s+)?(?:conduct|ethics)|anti-?bribery|bribery|corruption|health\s+(?:and|&)\s+safety|\bH&S\b|data\s+protection|\bgdpr\b|information\s+security|cyber|fire\s+safety|first\s+aid|equality|diversity|driv(?:er|ing)|professional\s+development|skills\b|technical|product\s+knowledge|customer\s+service|values\s+of|company\s+values|governance|environment(?:al)?|agricultur|safeguarding|young\s+people|children|students|pupils|learners|communit(?:y|ies)|qualifications?|apprentice/i;
const NEGATED =
  /\b(?:no|not|nor|never|without|lack(?:s|ing)?)\b[^.;]{0,60}\b(?:train|e-?learning|course|workshop)|\btraining\b[^.;]{0,30}\b(?:is|was|has|have)\s+not\b|\bdoes\s+not\s+(?:currently\s+)?(?:provide|offer|deliver|have)\b[^.;]{0,60}\btrain/i;
const SUPPLIER_DUTY =
  /\b(?:expect|require|ask|request|encourage|oblige)s?\b[^.;]{0,80}\b(?:suppliers?|vendors?|partners|contractors|subcontractors|third parties)\b[^.;]{0,60}\bto\b[^.;]{0,80}\b(?:train|provide\s+training)|\b(?:suppliers?|vendors?|partners|contractors)\s+(?:must|should|shall|are\s+(?:required|expected)\s+to)\b[^.;]{0,100}\btrain|\bensure\s+workers\s+are\s+(?:appropriately\s+)?trained/i;
const PLANNED =
  /\b(?:will|shall|intends?\s+to|plans?\s+to|planning\s+to|planned|aims?\s+to|aiming\s+to|propose[sd]?\s+to|going\s+to|are\s+(?:currently\s+)?(?:developing|reviewing|establishing|designing|creating|preparing|exploring|considering|working\s+(?:on|towards))|is\s+being\s+(?:developed|designed|prepared|rolled\s+out)|being\s+developed|in\s+development|under\s+development|to\s+be\s+(?:rolled\s+out|introduced|launched|developed|delivered|provided|arranged|implemented)|next\s+(?:year|step|steps|financial\s+year|\d+\s+months|twelve\s+months)|in\s+the\s+coming\s+(?:year|months)|in\s+(?:the\s+)?future|going\s+forward|endeavou?r\s+to|seek\s+to|commit(?:ted)?\s+to\s+(?:providing|developing|introducing|rolling|delivering|engaging)|key\s+focus(?:es)?\s+for|our\s+plans|priorit(?:y|ies)\s+for\s+(?:the\s+)?(?:next|coming|20\d\d))\b/i;
const DONE =
  /\b(?:have|has|had)\s+(?:\w+\s+){0,3}(?:trained|provided|delivered|completed|received|rolled\s+out|undertaken|attended|introduced|launched|implemented|run|held|developed|given|been\s+(?:trained|provided|given|delivered))\b|\b(?:trained|provided|delivered|completed|received|attended|undertook|underwent|ran|held|hosted|launched|introduced|rolled[- ]out|invested|developed|conducted|organised|organized)\b|\b(?:we|it|the\s+(?:company|group|business|organisation))\s+(?:currently\s+|also\s+|regularly\s+|continue\s+to\s+)?(?:provide|provides|deliver|delivers|run|runs|offer|offers|give|gives|train|trains|hold|holds|require|requires|conduct|conducts|invest|educate|educates)\b|\b(?:receive|receives|complete|completes|undertake|undertakes|attend|attends|participate|participates|is\s+(?:provided|delivered|given|mandatory|required|included|part)|are\s+(?:provided|given|trained|required|expected|made)|forms?\s+part|includes?)\b|\bcontinu(?:e|es|ed|ing)\s+to\b|\balready\b/i;

const AUDIENCES: [TrainingAudience, RegExp][] = [
  [
    "all_employees",
    /\ball\s+(?:of\s+)?(?:our\s+|its\s+|the\s+)?(?:[\w-]+\s+(?:and|&)\s+)?(?:new\s+|uk\s+|permanent\s+|existing\s+|current\s+|operational\s+)*(?:employees|staff|colleagues|workers|team\s+members|personnel|people|members\s+of\s+staff|new\s+starters|new\s+joiners|individuals\s+who\s+work)(?!\s+(?:in|within|of\s+(?:the|our)|involved|working|who|responsible|based|at|with|from|across\s+(?:our|the)\s+\w+\s+(?:team|function))(?!\s+(?:within|across|in)\s+(?:the|our)\s+(?:organi[sz]ation|company|business|group)\b))|\bevery\s+(?:employee|member\s+of\s+staff|colleague)|\ball-staff\b|\bcompany-wide\b|\bacross\s+(?:the|our)\s+(?:business|organi[sz]ation|group|company|workforce)\b|\bwhole\s+(?:workforce|organi[sz]ation|company)\b|\binduction\b|\bnew\s+(?:starters|joiners|employees|recruits)\b|\b(?:to|for|train|trains|trained|educate|educating)\s+(?:all\s+)?(?:our|its|their)\s+(?:staff|employees|colleagues|workforce|people|team\s+members)\b(?!\s+(?:in|within|who|responsible|involved|working|with|that|from|at|based))|\b(?:our|its)\s+(?:staff|employees|colleagues)\s+(?:receive|are\s+trained|undertake|complete|have\s+(?:been\s+trained|received|completed))/i,
  ],
  [
    "procurement",
    /\bprocurement\b|\bpurchasing\b|\bbuyers?\b|\bbuying\b|\bsourcing\b|\bsupply\s+chain\s+(?:teams?|staff|personnel|employees|functions?|managers?|management|professionals|colleagues|members|contracting)|\bmerchandis|\bsupplier\s+(?:management|relationship)|\bcommercial\s+(?:team|staff|functions?)|\bcategory\s+managers?|\bvendor\s+(?:management|compliance|relations)|\bethical\s+(?:trade|trading|sourcing)\s+team|\bresponsible\s+sourcing\s+team|\bcontract\s+managers?|\b(?:who|that)\s+(?:interfaces?|deals?|works?)\s+(?:directly\s+)?with\s+(?:our\s+)?(?:supply\s+chains?|suppliers)|\b(?:staff|employees|colleagues|teams?|those)\s+(?:\w+\s+)?involved\s+(?:in|with)\s+(?:the\s+|our\s+)?(?:supply\s+chain|procur|purchas|buying|sourcing|suppliers)|\bworking\s+in\s+(?:[\w&]+,?\s+){0,4}(?:and\s+)?supply\s+chain\b/i,
  ],
  [
    "leadership",
    /\bboard\b|\bdirectors\b|\bsenior\s+(?:management|managers|leaders|leadership|executives|team|staff)|\bexecutive\s+(?:team|committee|board|leadership|management)|\bleadership\s+teams?|\bmanagement\s+teams?|(?<!(?:procurement|hr|risk|supply\s+chain|contract|category|account|project|site|line)\s)managers\b|\bmanagement[- ](?:level|teams?|board)\b|\b(?:senior|executive|top)\s+management\b|\bheads\s+of\b|\bexecutives\b|\bthe\s+(?:sole\s+)?director\b|\bsupervisors\b/i,
  ],
  [
    "suppliers",
    /\b(?:train(?:ed|ing|s)?|workshops?|webinars?|sessions?|educat\w*|courses?)\b[^.;]{0,80}\b(?:to|for|with|of|our|their|key|all|tier\s*\w+)\s+(?:\w+\s+){0,3}?(?:suppliers|vendors|sub-?contractors|contractors|labou?r\s+providers|factories|growers|farmers|business\s+partners|agencies)\b|\b(?:suppliers|vendors|sub-?contractors|contractors|labou?r\s+providers|factories)\b[^.;]{0,60}\b(?:trained|received\s+training|attended|completed|participated|took\s+part)|\bsupplier\s+(?:training|workshops?|webinars?)\b|\b(?:employees|staff),\s+(?:sub-?contractors|contractors|suppliers)\b/i,
  ],
  [
    "recruitment_hr",
    /\bHR\b|\bhuman\s+resources\b|\brecruit(?:ment|ers|ing)\b|\bpeople\s+team\b|\bresourcing\b|\btalent\s+acquisition\b|\bhiring\s+managers\b|\bpayroll\b|\bonboarding\s+team/i,
  ],
];

interface TrainingHit {
  s: DocSentence;
  planned: boolean;
  done: boolean;
  audiences: Set<TrainingAudience>;
  sig: Set<string>;
  /** Carries on from a sentence describing training given (its list of teams, its content). */
  follows: boolean;
}

const STAFF_TRAINED =
  /\b(?:staff|employees|colleagues|personnel|managers|buyers|directors|team\s+members)\s+(?:\w+\s+){0,2}(?:attended|did|completed|received|undertook|took\s+part\s+in|participated\s+in)\s+(?:an?\s+|the\s+|our\s+)?(?:[\w-]+\s+){0,3}(?:sessions?|workshops?|courses?|e-?learning|training|webinars?)\b|\b(?:train(?:s|ed|ing)?|educat(?:e|es|ed|ing)|brief(?:s|ed|ing)?)\s+(?:(?:our|its|all|relevant|key|the|their|new|existing|selected)\s+){0,2}(?:[\w-]+\s+)?(?:colleagues|staff|employees|teams?|managers|buyers|people|personnel|workforce|team\s+members)\b|\b(?:colleagues|staff|employees|teams?|managers|buyers|personnel|team\s+members)\s+(?:have\s+(?:all\s+)?(?:been\s+)?|are\s+|were\s+|receive\s+|received\s+|undertake\s+|complete\s+|completed\s+|attend\s+|attended\s+)(?:trained|training|(?:\w+\s+){0,2}training)/i;
const OWN_PEOPLE = /\b(?:staff|employees|colleagues|personnel|team\s+members|managers|buyers|directors|our\s+people|our\s+teams?)\b/i;
const DUTY_LEAD =
  /\b(?:expect|require|ask)s?\b[^.;]{0,80}\b(?:suppliers?|partners|vendors|contractors|subcontractors|third\s+parties)\b[^.;]{0,40}\bto\s*:\s*$/i;
const READ_ONLY = /\b(?:read|introduced\s+to|made\s+aware\s+of|given\s+(?:a\s+copy|access)|provided\s+with|sign(?:s|ed)?|acknowledge[sd]?)\b/i;
const TRAINING_HEADING = /train|awareness|educat|capacity|learning|communicat/i;
const TRAIN_MECH =
  /\be-?learning\b|\bonline\b|\bface[- ]to[- ]face\b|\bclassroom\b|\bworkshops?\b|\bmodules?\b|\binduction\b|\bcourses?\b|\bwebinars?\b|\brefresher\b|\bmandatory\b|\bcovers?\b|\bsigns\b|\bindicators\b|\bhow\s+to\s+(?:report|identify|spot|recognise|recognize)\b|\bcompleted\b|\bexternal\b/i;

/**
 * s.54(5)(f) training, the way WikiRate's "MSA training" metric reads it: training given (score 1, or 2 with detail:
 * who, how, how often, how many, by whom), training planned (`inDevelopment`), and who is trained (`audiences`).
 */
function readTraining(reading: Reading, isStatement: boolean): TrainingArea {
  const doc = reading.doc;
  const hits: TrainingHit[] = [];
  let negatedTopic: DocSentence | null = null;
  let prevCounted: DocSentence | null = null;
  let dutyList = false;
  const noTraining = doc.sentences.some((s) => NEGATED.test(s.text) && TOPIC.test(s.text) && TRAIN.test(s.text) && !/\bbut\b|\bhowever\b/i.test(s.text));
  for (const s of doc.sentences) {
    // A list of what suppliers must do ("We expect our suppliers to: … train their workers …") is not our training.
    if (DUTY_LEAD.test(s.text)) {
      dutyList = true;
      continue;
    }
    if (dutyList && !/^(?:[\p{Ll}•▪●–-]|\(?[a-z0-9]{1,2}[).])/u.test(s.text)) dutyList = false;
    if (dutyList) continue;
    const text = s.text.replace(NOT_TRAINING, " ");
    if (!TRAIN.test(text)) {
      prevCounted = null;
      continue;
    }
    // Reading a policy at induction is not training.
    if (!TRAIN.test(text.replace(/\binduction\b|\bbriefing\s+sessions?\b/gi, " ")) && READ_ONLY.test(text)) continue;
    const topic = TOPIC.test(text);
    if (NEGATED.test(text)) {
      if (topic) negatedTopic ??= s;
      prevCounted = null;
      // "…does not provide training, but is establishing training protocols": planned.
      const after = text.slice(text.search(/\bbut\b|\bhowever\b/i) + 1);
      if (/\bbut\b|\bhowever\b/i.test(text) && PLANNED.test(after) && TRAIN.test(after))
        hits.push({ s, planned: true, done: false, audiences: new Set(), sig: new Set(), follows: false });
      continue;
    }
    if (SUPPLIER_DUTY.test(text) && !/\bwe\s+(?:provide|deliver|offer|give|run|ran|held|hold|hosted)\b/i.test(text)) continue;
    // Training not itself about slavery counts in a statement when it is in a training (or slavery) section, carries on
    // from a sentence that is, or trains the organisation's own people — unless the statement says it has no such training.
    const prevLine = doc.sentences[s.index - 1];
    const underLabel = !!prevLine && prevLine.section === s.section && /^[^.]{3,60}:$/.test(prevLine.text) && TRAINING_HEADING.test(prevLine.text);
    const inTrainingSection =
      (!!s.section && TRAINING_HEADING.test(s.section)) ||
      underLabel ||
      (!!s.section && TOPIC.test(s.section) && !/\bstatement\b/i.test(s.section) && OWN_PEOPLE.test(text));
    const continues = prevCounted !== null && prevCounted.section === s.section && prevCounted.index === s.index - 1;
    const relevant = topic || (isStatement && !noTraining && !OTHER_SUBJECT.test(text) && (inTrainingSection || continues || STAFF_TRAINED.test(text)));
    if (!relevant) {
      prevCounted = null;
      continue;
    }
    const planned = PLANNED.test(text);
    const done = !planned || DONE.test(text.replace(/\bwill\s+(?:\w+\s+){0,2}\w+/gi, " "));
    const audiences = new Set<TrainingAudience>();
    for (const [a, re] of AUDIENCES) if (re.test(text)) audiences.add(a);
    const follows = continues && hits.length > 0 && hits[hits.length - 1].done;
    hits.push({ s, planned, done, audiences, sig: signalsOf(text, TRAIN_MECH), follows });
    prevCounted = s;
  }
  const actual = hits.filter((h) => h.done);
  const plannedHits = hits.filter((h) => h.planned);
  const inDevelopment = plannedHits.length > 0;
  // Who is trained: from the training given, else from the training planned.
  const whoFrom = actual.length ? hits.filter((h) => h.done || h.follows) : hits;
  const audiences = AUDIENCES.map(([a]) => a).filter((a) => whoFrom.some((h) => h.audiences.has(a)));
  let score: Score = 0;
  if (actual.length) {
    const kinds = new Set(actual.flatMap((h) => [...h.sig]));
    if (actual.some((h) => h.audiences.size)) kinds.add("who");
    score = kinds.size >= 2 && (actual.length >= 2 || actual.some((h) => h.sig.size >= 2)) ? 2 : 1;
  }
  const evidenceHits = [...actual, ...plannedHits.filter((h) => !h.done)];
  const evidence = [...evidenceHits]
    .sort((a, b) => b.sig.size + b.audiences.size - (a.sig.size + a.audiences.size) || a.s.index - b.s.index)
    .slice(0, 3)
    .sort((a, b) => a.s.index - b.s.index)
    .map((h) => citeOf(reading, h.s, TRAIN));
  let note: string;
  if (score === 0 && inDevelopment) note = "Training on modern slavery is only planned or being developed.";
  else if (score === 0 && negatedTopic) note = "The statement says there is no training on modern slavery.";
  else if (score === 0)
    note = "Not covered: no training on modern slavery is described (general code-of-conduct training, posters or policy reading are not counted).";
  else note = `${noteOf(score, actual.length, "training")}${inDevelopment ? " More training is planned or being developed." : ""}`;
  if (score === 0 && negatedTopic && !evidence.length) evidence.push(citeOf(reading, negatedTopic, TRAIN));
  return { score, evidence, note, audiences, inDevelopment };
}

// ————————————————————————————————————————————————————————————————— the reader

const AUDIENCE_WORDS: Record<TrainingAudience, string> = {
  all_employees: "all employees",
  procurement: "procurement/purchasing staff",
  leadership: "leadership",
  suppliers: "suppliers",
  recruitment_hr: "recruitment/HR",
};

/** Reads a modern slavery statement (a `Reading` of its document) as of `today` (`YYYY-MM-DD`). Pure. */
export function readModernSlavery(reading: Reading, opts: { today: string }): ModernSlaveryReport {
  const doc = reading.doc;
  const isStatement = ABOUT_SLAVERY.test(doc.text) || ABOUT_SLAVERY.test(doc.title ?? "");
  const organisation = readOrganisation(reading);
  const financialYear = readFinancialYear(reading);
  const lines = linesOf(doc);
  const approvalFound = readApproval(reading, lines);
  const approval = approvalFound.fact;
  const signature = readSignature(reading, lines, approvalFound);
  const statementDate = readStatementDate(reading, approval, signature);
  const groupStatement = readGroup(reading, organisation.value);

  const areas = {
    structure: readArea(reading, AREA_SPECS[0]),
    policies: readArea(reading, AREA_SPECS[1]),
    dueDiligence: readArea(reading, AREA_SPECS[2]),
    riskAssessment: readArea(reading, AREA_SPECS[3]),
    effectiveness: readArea(reading, AREA_SPECS[4]),
    training: readTraining(reading, isStatement),
  };
  const keys = Object.keys(areas) as AreaKey[];
  const areasScore = { total: keys.reduce((t, k) => t + areas[k].score, 0), max: keys.length * 2 };

  // Out of date: the year it covers (its end), else its date, more than 18 months before today.
  let outOfDate: ModernSlaveryReport["outOfDate"];
  const fy = financialYear.value;
  const ref = fy?.endDate ?? (fy?.year ? `${fy.year}-12-31` : null) ?? statementDate.value;
  if (!ref) outOfDate = { value: null, note: "Couldn't tell: neither the year it covers nor its date was found." };
  else {
    const months = monthsBetween(ref.length === 4 ? `${ref}-12-31` : ref, opts.today);
    const what = fy ? `it covers ${fy.period}${fy.endDate ? "" : ` (taken as ending by ${dateWords(ref)})`}` : `it is dated ${dateWords(ref)}`;
    outOfDate =
      months > OUT_OF_DATE_MONTHS
        ? { value: true, note: `Looks out of date: ${what}, ${months} months before ${dateWords(opts.today)} (more than ${OUT_OF_DATE_MONTHS}).` }
        : { value: false, note: `Current: ${what}, ${Math.max(0, months)} months before ${dateWords(opts.today)} (${OUT_OF_DATE_MONTHS} at most).` };
  }

  // Sign-off (s.54(6)).
  const reasons: string[] = [];
  let verdict: Verdict;
  const a = approval.value;
  const sg = signature.value;
  if (!isStatement) {
    verdict = "couldnt_tell";
    reasons.push("The document does not read as a modern slavery statement (it does not mention modern slavery or human trafficking).");
  } else {
    if (a)
      reasons.push(
        a.qualifies
          ? `Approved by ${BODY_WORDS[a.by]} ("${a.body}")${a.date ? ` on ${dateWords(a.date)}` : ""}.`
          : `Approved by "${a.body}", not by the board of directors (or the members of an LLP, the partners, or an equivalent body).`,
      );
    else reasons.push("The statement does not say it was approved by the board of directors (or equivalent).");
    if (sg && sg.role)
      reasons.push(sg.qualifies ? `Signed by a ${sg.role}, which qualifies.` : `Signed by a ${sg.role}: not a director, designated member or partner.`);
    else if (sg) reasons.push("Signed, but the signer's role is not given.");
    else reasons.push("No signature by a director (or equivalent) was found.");
    const aOk = !!a?.qualifies;
    const sOk = sg?.qualifies === true;
    if (aOk && sOk) verdict = "meets";
    else if ((a && !a.qualifies) || (sg && sg.qualifies === false)) verdict = "does_not_meet";
    else if (sg && sg.qualifies === null) verdict = "couldnt_tell";
    else if (doc.cut) {
      verdict = "couldnt_tell";
      reasons.push("The document was longer than was read: the sign-off may be in the part not read.");
    } else verdict = "does_not_meet";
  }

  // Gaps.
  const gaps: string[] = [];
  if (isStatement || doc.chars > 0) {
    if (!a) gaps.push("No approval by the board of directors (or equivalent) is stated (s.54(6)).");
    else if (!a.qualifies) gaps.push(`Approved by "${a.body}", not by the board of directors or equivalent (s.54(6)).`);
    if (!sg) gaps.push("Not signed by a director, designated member or partner (no signature found) (s.54(6)).");
    else if (sg.qualifies === false) gaps.push(`Signed by a ${sg.role}, who is not a director, designated member or partner (s.54(6)).`);
    else if (sg.qualifies === null) gaps.push("The signer's role is not given, so a director's signature cannot be confirmed (s.54(6)).");
    if (!statementDate.value) gaps.push("No date of approval, signature or publication is given.");
    if (!financialYear.value) gaps.push("The financial year it covers is not stated.");
    for (const k of keys) if (areas[k].score === 0) gaps.push(`Nothing on ${AREA_LABELS[k]}.`);
    if (areas.training.score === 0 && areas.training.inDevelopment)
      gaps[gaps.length - 1] = `Training on modern slavery is only planned (${AREA_LABELS.training}).`;
    if (outOfDate.value) gaps.push(outOfDate.note);
  }

  // Facts: one plain sentence each, only from the fields above.
  const facts: string[] = [];
  if (organisation.value) facts.push(`Organisation: ${organisation.value}.`);
  if (fy) facts.push(`Period covered: ${fy.period}.`);
  if (statementDate.value) facts.push(`Statement date: ${dateWords(statementDate.value)}.`);
  facts.push(
    a
      ? `Approval: by ${a.body}${a.date ? ` on ${dateWords(a.date)}` : ""}${a.qualifies ? "" : " (not the board or equivalent)"}.`
      : "Approval: no approval by the board is stated.",
  );
  facts.push(
    sg
      ? sg.role
        ? `Signature: signed by a ${sg.role}${sg.qualifies ? " (qualifies)" : " (not a director, designated member or partner)"}.`
        : "Signature: signed, the signer's role not given."
      : "Signature: none found.",
  );
  facts.push(
    `Sign-off under s.54(6): ${verdict === "meets" ? "meets the requirement" : verdict === "does_not_meet" ? "does not meet the requirement" : "couldn't tell"}.`,
  );
  facts.push(`The six areas score ${areasScore.total} of ${areasScore.max}: ${keys.map((k) => `${AREA_SHORT[k]} ${areas[k].score}`).join(", ")}.`);
  if (areas.training.audiences.length || areas.training.inDevelopment)
    facts.push(
      `Training: ${areas.training.audiences.length ? `for ${areas.training.audiences.map((x) => AUDIENCE_WORDS[x]).join(", ")}` : "audience not specified"}${areas.training.inDevelopment ? "; more is planned or in development" : ""}.`,
    );
  if (groupStatement.value) facts.push(`Group statement${groupStatement.entities.length ? ` covering ${groupStatement.entities.join(", ")}` : ""}.`);
  if (outOfDate.value) facts.push(outOfDate.note);
  if (gaps.length) facts.push(`Gaps: ${gaps.length}.`);

  return {
    organisation,
    financialYear,
    statementDate,
    approval,
    signature,
    areas,
    areasScore,
    gaps,
    signOff: { verdict, reasons },
    groupStatement,
    outOfDate,
    facts,
  };
}
