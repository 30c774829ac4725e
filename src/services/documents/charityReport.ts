/**
 * The charity report reader (issue 17 §3 "charity-report"): a charity's trustees' annual report and accounts —
 *
 * - accruals accounts under the Charities SORP (FRS 102): a Statement of Financial Activities ("Total income",
 *   "Total expenditure", "Net income/(expenditure)", "Total funds carried forward", fund columns unrestricted /
 *   restricted / endowment, a prior-year column) and a balance sheet ("The funds of the charity"), with the older
 *   SORP 2005 labels ("Total incoming resources", "Total resources expended", "Net (outgoing)/incoming resources");
 * - receipts and payments accounts, among them the Charity Commission's CC16a form ("A1 Receipts", "A3 Payments",
 *   "Net of receipts/(payments)", "Cash funds this year end", columns unrestricted / restricted / endowment / total /
 *   last year);
 * - of England and Wales (Charity Commission, 6–7 digit numbers), Scotland (OSCR, "SC0xxxxx") and Northern Ireland
 *   (CCNI, "NIC1xxxxx").
 *
 * Tables come as lines of a label and figures (a PDF's columns are not kept): a row's figures are mapped to columns
 * from the nearest column heading ("Note", "Unrestricted funds", "Total 2024", "Last year", "£" or "£'000") and checked
 * by their arithmetic (the fund columns add up to the total). Brackets and a leading minus are negatives; a dash is
 * nil; "- 1,518" (a spreadsheet's accounting format, as on the CC16a form) is read as a negative where that is what
 * makes the row add up.
 *
 * Every field quotes the passage it rests on (the page, for a PDF) or says it couldn't tell. People are never named:
 * trustees are counted, a signature line's name is replaced by "[name]". Deterministic and pure: `today` is passed in.
 *
 * What is read as a report (issue 28 §3, `recognise`): a document that names a charity (a charity number stated with
 * its label, wherever it is; a charity's legal form or regulator; a trustees' report's title) and has the form of a
 * report or accounts (a title in its opening lines; the accounts' statements; an examiner's or auditor's report; the
 * trustees' report's SORP or CC17a sections). A plain-prose report is one as much as a report with tables. What is not
 * is answered `recognised: false` with the reason, which the operation turns into a 422.
 */
import type { DocSection, DocSentence } from "./document";
import { redactNames } from "./names";
import { type Evidence, type Fact, type Reading, found, notFound, quoteOf } from "./evidence";
import { datesIn, moneyIn } from "./values";
import { daysBetween } from "../../shared/dates";
import { addDays } from "../../shared/dates";

// ---------------------------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------------------------

/** A sum in pounds and the financial year it is for, with the prior year's where the accounts give it. */
export interface Amount {
  /** In pounds (a table in £'000 multiplied out); negative for a deficit or a bracketed figure. */
  amount: number;
  /** The last day of the financial year it is for (`YYYY-MM-DD`), or null when the year could not be read. */
  yearEnded: string | null;
  /** The prior year's figure from the comparative column, or null when the accounts give none. */
  priorYear: { amount: number; yearEnded: string | null } | null;
}

export interface ReservesAmount extends Amount {
  /** `free_reserves`: the report states its free (unrestricted, undesignated) reserves; `total_funds`: no such figure is stated, so this is the total funds (or cash funds) at the year end. */
  kind: "free_reserves" | "total_funds";
}

export type Regulator = "charity_commission" | "oscr" | "ccni";
export type AccountsBasis = "accruals" | "receipts_and_payments";
export type Scrutiny = "independent_examination" | "audit";

export interface Quoted {
  evidence: Evidence;
}

export interface BeneficiaryMention {
  /** The number of people (or households, families …) stated, or null when the sentence gives none. */
  count: number | null;
  /** Who, as written ("households", "young people"), or null. */
  who: string | null;
  evidence: Evidence;
}

export interface TransparencyItem {
  item: string;
  present: boolean;
  points: number;
}

export interface CharityReport {
  recognition: {
    /** Whether the text reads as a charity's report or accounts at all. When false every field is "couldn't tell". */
    recognised: boolean;
    /** The parts found: a trustees' report, accounts (and which kind), an examiner's or auditor's report. */
    parts: string[];
    note: string;
  };
  charity: {
    name: Fact<string>;
    charityNumber: Fact<string>;
    regulator: Fact<Regulator>;
    companyNumber: Fact<string>;
    financialYear: Fact<{ start: string | null; end: string }>;
  };
  finances: {
    basis: Fact<AccountsBasis>;
    income: Fact<Amount>;
    expenditure: Fact<Amount>;
    netIncome: Fact<Amount>;
    reserves: Fact<ReservesAmount>;
    funds: {
      unrestricted: Fact<Amount>;
      restricted: Fact<Amount>;
      endowment: Fact<Amount>;
      designated: Fact<Amount>;
      total: Fact<Amount>;
    };
  };
  governance: {
    trustees: Fact<number>;
    meetings: Fact<{ frequency: string; perYear: number | null }>;
    safeguarding: Fact<boolean>;
    conflictsOfInterest: Fact<boolean>;
    riskStatement: Fact<boolean>;
    reservesPolicy: Fact<boolean>;
    publicBenefit: Fact<boolean>;
    scrutiny: Fact<Scrutiny>;
    approvedOn: Fact<string>;
  };
  delivery: {
    activities: Quoted[];
    beneficiaries: BeneficiaryMention[];
    peopleHelped: Fact<number>;
  };
  flags: {
    deficit: Fact<boolean>;
    deficitExplained: Fact<boolean>;
    goingConcern: Fact<boolean>;
    qualifiedOpinion: Fact<boolean>;
    lateFiling: Fact<boolean>;
  };
  transparency: { score: number; formula: string; components: TransparencyItem[] };
  funderGaps: string[];
  facts: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------------------------

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
/** "2024-03-31" → "31 March 2024". */
export const longDate = (iso: string): string => {
  const [y, m, d] = iso.split("-").map(Number);
  if (!m) return String(y);
  return d ? `${d} ${MONTH_NAMES[m - 1]} ${y}` : `${MONTH_NAMES[m - 1]} ${y}`;
};
/** 1234567.5 → "£1,234,568"; negatives "-£1,518". */
export const pounds = (n: number): string => {
  const abs = Math.round(Math.abs(n));
  return `${n < 0 && abs !== 0 ? "-" : ""}£${String(abs).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
};
const isoOf = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
/** The same day `months` later (clamped to the month's end; a month-end stays a month-end). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split("-").map(Number);
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = (total % 12) + 1;
  const monthEnd = d === daysIn(y, m);
  return isoOf(ny, nm, monthEnd ? daysIn(ny, nm) : Math.min(d, daysIn(ny, nm)));
}
/** Whole months from a to b (b later), counting a month-end to a month-end as whole months. */
function fullMonths(a: string, b: string): number {
  const [ya, ma, da] = a.split("-").map(Number);
  const [yb, mb, db] = b.split("-").map(Number);
  let n = (yb - ya) * 12 + (mb - ma);
  const aEnd = da === daysIn(ya, ma);
  const bEnd = db === daysIn(yb, mb);
  if (db < da && !(aEnd && bEnd)) n--;
  return n;
}
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
};
const SMALL_NUM =
  "(\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)";
const numberOf = (w: string): number | null => {
  const t = w.toLowerCase().replace(/,/g, "");
  if (/^\d+$/.test(t)) return Number(t);
  return NUMBER_WORDS[t] ?? null;
};

// ---------------------------------------------------------------------------------------------------------------
// The document as a stream: headings and sentences in order
// ---------------------------------------------------------------------------------------------------------------

interface Item {
  index: number;
  text: string;
  page: number | null;
  section: DocSection;
  /** The sentence; null for a heading. */
  sentence: DocSentence | null;
}

function itemsOf(reading: Reading): Item[] {
  const doc = reading.doc;
  const out: Item[] = [];
  for (const sec of doc.sections) {
    if (sec.heading) out.push({ index: out.length, text: sec.heading, page: sec.page, section: sec, sentence: null });
    for (let i = sec.first; i < sec.end; i++) {
      const s = doc.sentences[i];
      out.push({ index: out.length, text: s.text, page: s.page, section: sec, sentence: s });
    }
  }
  return out;
}

class Citer {
  constructor(readonly reading: Reading) {}
  /** Evidence for an item (a sentence or a heading), its quote shortened around `match` and names taken out. */
  item(it: Item, match?: RegExp): Evidence {
    const ev = it.sentence ? this.reading.cite(it.sentence, match) : this.reading.citeHeading(it.section);
    if (!it.sentence && match) ev.quote = quoteOf(it.text, match);
    return this.clean(ev, it.section.heading ?? "");
  }
  sentence(s: DocSentence, match?: RegExp): Evidence {
    return this.clean(this.reading.cite(s, match), s.section ?? "");
  }
  /** Evidence with its own quote (a table row as read), the item remembered as a passage used. */
  quoted(it: Item, quote: string): Evidence {
    const ev = this.item(it);
    return this.clean({ ...ev, quote: quoteOf(quote) }, it.section.heading ?? "");
  }
  /**
   * People's names out (names.ts redactNames, with the names the document's layout shows: a trustees' list, a
   * signature under "Print name"): a quote that is its section's heading is read as a line of its own, any other in
   * its section (a short line under a signature's heading that starts with a name is a signature).
   */
  private clean(ev: Evidence, context: string): Evidence {
    const known = this.reading.people;
    const quote = ev.quote === context ? redactNames(ev.quote, { line: true, known }) : redactNames(ev.quote, { section: context, known });
    return { ...ev, quote, section: ev.section === null ? null : redactNames(ev.section, { line: true, known }) };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Tables: rows of a label and figures
// ---------------------------------------------------------------------------------------------------------------

type Role = "note" | "u" | "d" | "r" | "e" | "cur" | "prior";
type TokKind = "num" | "dash" | "unit" | "year" | "word";
interface Tok {
  /** As written (a date joined into one token: "31_March_2024"). */
  raw: string;
  /** A figure, a dash (nil), a "£"/"£'000" column marker, a year in a column heading, or a word. */
  kind: TokKind;
  /** A figure's value (negative for "(1,234)" or "-1,234"). */
  value: number;
  /** The item (heading or sentence) it is in. */
  item: number;
  /** Units a "£" marker states (1, 1000, 1e6); 0 otherwise. */
  unit: number;
  /** A bare whole number (no sign, bracket, comma or "£"): could be a year or a note number. */
  plain: boolean;
}

interface Row {
  label: string;
  /** The label's last words, lower case, codes and trailing dates removed, for matching. */
  key: string;
  figs: Tok[];
  header: Role[] | null;
  units: number;
  /** Item holding the row's first figure, and the item the label ends in. */
  figItem: number;
  labelItem: number;
}

export interface ParsedRow {
  row: Row;
  roles: Role[];
  cells: (number | null)[];
  /** How many of the row's figure tokens the cells took (for quoting the row as read). */
  tokensUsed: number;
  /** The prior-year cell is a dash (blank), not a figure. */
  priorBlank: boolean;
  cur: number | null;
  prior: number | null;
  funds: Partial<Record<"u" | "d" | "r" | "e", number>>;
}

const NUM_RE = /^£?(\()?£?([-–])?£?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\))?$/;
const YEAR_RE = /^(?:19[89]\d|20\d\d)$/;
const HEADER_WORDS = new Set([
  "total",
  "totals",
  "funds",
  "fund",
  "note",
  "notes",
  "unrestricted",
  "restricted",
  "endowment",
  "endowed",
  "designated",
  "general",
  "year",
  "current",
  "last",
  "prior",
  "previous",
  "this",
  "£",
]);

function unitOf(raw: string): number {
  const t = raw.replace(/^\(|\)$/g, "").toLowerCase();
  if (t === "£" || t === "£s" || t === "(£)") return 1;
  if (/^£?['’]?0{3}s?$/.test(t) && t.includes("000") && (t.startsWith("£") || t.startsWith("'") || t.startsWith("’"))) return 1000;
  if (t === "£k" || t === "£'k") return 1000;
  if (t === "£m" || t === "£'m" || t === "£mn") return 1e6;
  return 0;
}

/** A quick test before the (slower) date reader: a month's name or a numeric date's separator. */
const MAY_HOLD_DATE = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\d[/.-]\d/i;

function tokensOf(items: Item[]): Tok[] {
  const toks: Tok[] = [];
  for (const it of items) {
    let t = it.text.replace(/\u2212/g, "-").replace(/\u00a0/g, " ");
    // A date is one token ("31 March 2024" → "31_March_2024"): its day and year are not figures.
    if (MAY_HOLD_DATE.test(t)) {
      // Rebuilt in one pass (the dates are in order and never overlap), not once per date.
      const parts: string[] = [];
      let from = 0;
      for (const d of datesIn(t)) {
        parts.push(t.slice(from, d.index), d.text.replace(/\s+/g, "_"));
        from = d.index + d.text.length;
      }
      parts.push(t.slice(from));
      t = parts.join("");
    }
    t = t
      .replace(/\(\s+(?=[\d£])/g, "(")
      .replace(/(\d)\s+\)/g, "$1)")
      .replace(/£\s+(?=[\d(])/g, "£")
      .replace(/\(£\)/g, "£");
    let words = t.split(/\s+/).filter(Boolean);
    // Prose with no figure, "£" or dash: only its last words can be a row's label or a column heading.
    if (words.length > 40 && !/[\d£]|\s[-–—]\s/.test(t)) words = words.slice(-40);
    for (const raw of words) {
      const unit = unitOf(raw);
      const m = NUM_RE.exec(raw);
      if (unit) toks.push({ raw, kind: "unit", value: 0, item: it.index, unit, plain: false });
      else if (/^[-–—]+$/.test(raw) || /^nil$/i.test(raw)) toks.push({ raw, kind: "dash", value: 0, item: it.index, unit: 0, plain: false });
      else if (m) {
        // "(1,234)" and "-1,234" are negative; a lone bracket (a figure cut from its prose) is not.
        const negative = (!!m[1] && !!m[5]) || !!m[2];
        const v = Number(m[3].replace(/,/g, "") + (m[4] ?? ""));
        toks.push({
          raw,
          kind: "num",
          value: negative ? -v : v,
          item: it.index,
          unit: 0,
          plain: !m[1] && !m[2] && !m[4] && !m[5] && !m[3].includes(",") && !raw.includes("£"),
        });
      } else toks.push({ raw, kind: "word", value: 0, item: it.index, unit: 0, plain: false });
    }
  }
  // Years in column headings ("Total 2024", "2024 2023 £ £") are not figures.
  const isYearish = (k: Tok | undefined) => !!k && ((k.kind === "num" && k.plain && YEAR_RE.test(k.raw)) || k.kind === "year" || k.kind === "unit");
  for (let i = 0; i < toks.length; i++) {
    const k = toks[i];
    if (k.kind !== "num" || !k.plain || !YEAR_RE.test(k.raw)) continue;
    const prev = toks[i - 1];
    const next = toks[i + 1];
    const prevHeader =
      !!prev && ((prev.kind === "word" && HEADER_WORDS.has(prev.raw.toLowerCase().replace(/[^a-z£]/g, ""))) || prev.kind === "year" || prev.kind === "unit");
    if (prevHeader || isYearish(next)) k.kind = "year";
  }
  return toks;
}

/** A date joined into one token ("31_March_2024"): as a column heading, it stands for its year. */
const isDateTok = (t: Tok) => t.kind === "word" && /\d_|_\d/.test(t.raw) && /(?:19|20)\d\d$/.test(t.raw);
/** "2023/24", "2023-24": a financial year in a column heading. */
const isYearSpan = (t: Tok) => t.kind === "word" && /^(?:19|20)\d\d[/-]\d\d(?:\d\d)?$/.test(t.raw);

/** The column roles a heading names, in order: "Note Unrestricted Restricted Total 2024 Total 2023 £ £ £ £". */
function parseHeader(toks: Tok[]): Role[] | null {
  const funds: Role[] = [];
  let note = false;
  let totals = 0;
  let years = 0;
  let prior = false;
  for (let i = 0; i < toks.length; i++) {
    const w = toks[i].raw.toLowerCase().replace(/[^a-z]/g, "");
    if (toks[i].kind === "year" || isDateTok(toks[i]) || isYearSpan(toks[i])) years++;
    else if (w === "note" || w === "notes") note = true;
    else if (w === "unrestricted" || w === "general") funds.includes("u") || funds.push("u");
    else if (w === "designated") funds.includes("d") || funds.push("d");
    else if (w === "restricted") funds.includes("r") || funds.push("r");
    else if (w === "endowment" || w === "endowed") funds.includes("e") || funds.push("e");
    else if (w === "total" || w === "totals") totals++;
    else if ((w === "last" || w === "prior" || w === "previous") && /^year/i.test(toks[i + 1]?.raw ?? "")) prior = true;
  }
  const tail: Role[] = totals >= 2 || years >= 2 || (totals >= 1 && prior) ? ["cur", "prior"] : totals === 1 || years === 1 ? ["cur"] : prior ? ["prior"] : [];
  const roles: Role[] = [...(note ? (["note"] as Role[]) : []), ...funds, ...tail];
  return funds.length + tail.length ? roles : null;
}

/** The document's rows: each run of figures with the label before it, under the nearest column heading. */
function rowsOf(items: Item[]): Row[] {
  const toks = tokensOf(items);
  const rows: Row[] = [];
  let header: Role[] | null = null;
  let units = 1;
  let label: Tok[] = [];
  for (let i = 0; i < toks.length; ) {
    const k = toks[i];
    if (k.kind !== "num" && k.kind !== "dash") {
      label.push(k);
      if (label.length > 120) label = label.slice(-60);
      i++;
      continue;
    }
    const figs: Tok[] = [];
    while (i < toks.length && (toks[i].kind === "num" || toks[i].kind === "dash")) figs.push(toks[i++]);
    // A column heading in the label: everything up to its last "£" marker or year is the heading, the rest the row's label.
    let h = -1;
    const yearish = (t: Tok) => t.kind === "year" || isDateTok(t) || isYearSpan(t);
    for (let j = label.length - 1; j >= 0; j--)
      if (label[j].kind === "unit" || yearish(label[j])) {
        h = j;
        break;
      }
    const markers = label.filter((t) => t.kind === "unit");
    if (h >= 0 && (markers.length || label.slice(Math.max(0, h - 12), h + 1).filter(yearish).length >= 2)) {
      const head = label.slice(Math.max(0, h - 30), h + 1);
      const roles = parseHeader(head);
      if (roles) header = roles;
      const u = head.filter((t) => t.kind === "unit").map((t) => t.unit);
      if (u.length) units = Math.max(...u);
      label = label.slice(h + 1);
    }
    const words = label.filter((t) => t.kind === "word");
    if (words.length) {
      const text = words
        .slice(-16)
        .map((t) => t.raw.replace(/_/g, " "))
        .join(" ");
      let key = words
        .slice(-14)
        .map((t) => t.raw)
        .join(" ")
        .toLowerCase();
      key = key
        .replace(/\b[a-b]\d\b\s*/g, "")
        .replace(/(?:\s+(?:at|as at|on|to|for|ended|ending))?(?:\s+\S*(?:\d_|_\d|\d{4}-\d\d-\d\d)\S*)+$/, "")
        .replace(/_/g, " ")
        .replace(/\s+/g, " ")
        .trim();
      rows.push({ label: text, key, figs, header, units, figItem: figs[0].item, labelItem: words[words.length - 1].item });
    }
    label = [];
  }
  return rows;
}

/**
 * A statement of financial activities laid out by sections, as the accounts software most small charities use prints
 * it: "INCOME AND ENDOWMENTS FROM" its lines and a row labelled only "Total", then "EXPENDITURE ON" its lines and
 * "Total" (none when the section has one line). That "Total" is the section's total, and a section of one line with
 * no "Total" row is its own total: their keys become "total income" and "total expenditure".
 */
function nameSectionTotals(rows: Row[]): void {
  let section: "income" | "expenditure" | null = null;
  let members: Row[] = [];
  const close = (totalled: boolean) => {
    if (section && !totalled && members.length === 1) members[0].key = `total ${section}`;
    section = null;
    members = [];
  };
  for (const r of rows) {
    const opens = /\b(?:income|incoming resources)(?: and endowments)? from\b/.test(r.key)
      ? "income"
      : /\b(?:expenditure|resources expended) on\b/.test(r.key)
        ? "expenditure"
        : null;
    if (opens) {
      close(false);
      section = opens;
      members = [r];
      continue;
    }
    if (!section) continue;
    if (r.key === "total" || r.key === "totals") {
      r.key = `total ${section}`;
      close(true);
    } else if (/^total (?:income|incoming|expenditure|resources)/.test(r.key)) close(true);
    else if (/\bnet\b|\bfunds\b|\btransfers\b|\bgains?\b|\blosses\b/.test(r.key)) close(false);
    else members.push(r);
  }
  close(false);
}

const FALLBACK_LAYOUTS: Role[][] = [
  ["cur"],
  ["cur", "prior"],
  ["u", "r", "cur"],
  ["u", "r", "cur", "prior"],
  ["u", "r", "e", "cur"],
  ["u", "r", "e", "cur", "prior"],
  ["u", "d", "r", "cur", "prior"],
  ["u", "d", "r", "e", "cur", "prior"],
];

/**
 * The row's cells: brackets and a leading minus negative, a dash nil. A dash before a figure ("- 1,518") is either a nil
 * cell and then the figure, or (a spreadsheet's accounting format, as on the CC16a form) the figure negative: `merge`
 * says, for each such pair in turn, which. `ends[i]` is the token after cell i.
 */
function cellsOf(figs: Tok[], merge: boolean[]): { cells: (number | null)[]; ends: number[]; merged: number } {
  const cells: (number | null)[] = [];
  const ends: number[] = [];
  let pair = 0;
  let merged = 0;
  for (let i = 0; i < figs.length; i++) {
    const k = figs[i];
    if (k.kind === "dash") {
      const next = figs[i + 1];
      if (next && isMergeable(next) && merge[pair++]) {
        cells.push(-next.value);
        merged++;
        i++;
      } else cells.push(null);
    } else cells.push(k.value);
    ends.push(i + 1);
  }
  return { cells, ends, merged };
}
const isMergeable = (t: Tok) => t.kind === "num" && t.value >= 0 && !/^\(/.test(t.raw);

/** Maps a row's figures to columns: the heading's layout where it fits, else the layout whose fund columns add up to its total. */
function parseRow(row: Row, receiptsForm: boolean): ParsedRow | null {
  let best: { score: number; roles: Role[]; cells: (number | null)[]; used: number } | null = null;
  const layouts: { roles: Role[]; bonus: number }[] = [];
  if (row.header) {
    layouts.push({ roles: row.header, bonus: 3 });
    if (row.header[0] === "note") layouts.push({ roles: row.header.slice(1), bonus: 2 });
  }
  for (const l of FALLBACK_LAYOUTS) {
    layouts.push({ roles: l, bonus: 0 });
    layouts.push({ roles: ["note", ...l], bonus: 0 });
  }
  // Every reading of the "- N" pairs among the first figures (a row has at most six columns).
  const figs = row.figs.slice(0, 14);
  let pairs = 0;
  for (let i = 0; i + 1 < figs.length; i++) if (figs[i].kind === "dash" && isMergeable(figs[i + 1])) pairs++;
  pairs = Math.min(pairs, 7);
  for (let mask = 0; mask < 1 << pairs; mask++) {
    const merge = Array.from({ length: pairs }, (_, b) => ((mask >> b) & 1) === 1);
    const { cells: all, ends, merged } = cellsOf(figs, merge);
    if (figs.length < row.figs.length) all.push(null); // more figures follow: never an exact fit
    for (const { roles, bonus } of layouts) {
      if (all.length < roles.length) continue;
      const cells = all.slice(0, roles.length);
      let score = bonus + (all.length === roles.length ? 1 : -3);
      const noteAt = roles.indexOf("note");
      if (noteAt >= 0) {
        const v = cells[noteAt];
        const tok = row.figs.filter((t) => t.kind === "num")[0];
        if (v === null || v <= 0 || v > 99 || !Number.isInteger(v) || (tok && tok.raw.includes(","))) continue;
      }
      const fundIdx = roles.map((r, i) => (r === "u" || r === "d" || r === "r" || r === "e" ? i : -1)).filter((i) => i >= 0);
      const curIdx = roles.indexOf("cur");
      if (fundIdx.length && curIdx >= 0) {
        const sum = fundIdx.reduce((s, i) => s + (cells[i] ?? 0), 0);
        const cur = cells[curIdx] ?? 0;
        const allZero = sum === 0 && cur === 0;
        if (!allZero) score += Math.abs(sum - cur) <= fundIdx.length + 1 ? 4 : -6;
      }
      if (merged) score += receiptsForm ? 0.5 : -0.5;
      if (!best || score > best.score) best = { score, roles, cells, used: ends[roles.length - 1] };
    }
  }
  if (!best || best.score < 0) return null;
  const at = (r: Role) => {
    const i = best!.roles.indexOf(r);
    return i < 0 ? null : (best!.cells[i] ?? 0) * row.units + 0;
  };
  const funds: ParsedRow["funds"] = {};
  for (const r of ["u", "d", "r", "e"] as const) {
    const v = at(r);
    if (v !== null) funds[r] = v;
  }
  let cur = at("cur");
  if (cur === null && Object.keys(funds).length && !best.roles.includes("prior")) cur = Object.values(funds).reduce((s, v) => s + v, 0);
  const pi = best.roles.indexOf("prior");
  return { row, roles: best.roles, cells: best.cells, tokensUsed: best.used, cur, prior: at("prior"), priorBlank: pi >= 0 && best.cells[pi] === null, funds };
}

// ---------------------------------------------------------------------------------------------------------------
// The labels of the rows the reader looks for
// ---------------------------------------------------------------------------------------------------------------

const INCOME_LABELS = [
  /\btotal (?:income|incoming resources|incomming resources)(?: and endowments)?(?: for the (?:year|period))?$/,
  /\bgross income[^a-z]*(?:for (?:the )?ar\)?)?$/,
  /\btotal receipts$/,
  /^(?:total )?income$/,
];
const EXPENDITURE_LABELS = [
  /\btotal (?:expenditure|resources expended|outgoing resources|spending)(?: for the (?:year|period))?$/,
  /\btotal payments$/,
  /^expenditure$/,
];
const NET_LABELS = [
  /\bnet (?:\(?(?:income|expenditure|incoming|outgoing)\)?\s*\/?\s*){1,2}(?:resources)?(?: for the (?:year|period))?(?: before [a-z ,/()]+)?$/,
  /\bnet (?:of )?receipts\s*\/\s*\(?payments\)?$|\bexcess of receipts over payments$/,
  /(?:\(?surplus\)?\s*\/\s*\(?deficit\)?|\(?deficit\)?\s*\/\s*\(?surplus\)?)(?: for the (?:year|period))?$|\b(?:surplus|deficit) for the (?:year|period)$/,
  /\bnet movement in funds(?: for the (?:year|period))?$/,
];
const TOTAL_FUNDS_LABELS = [
  /\btotal funds carried forward$|\bfunds carried forward$|\bfund balances carried forward$|\btotal funds c\/f$/,
  /\btotal (?:charity )?funds$|\btotal funds of the charity$|\btotal charity funds$|\btotal funds at (?:the )?(?:year end|end of the (?:year|period))$/,
  /\bcash funds this year end$|\btotal cash funds$/,
  /\b(?:total )?net assets$|\bnet assets\s*\/\s*\(?liabilities\)?$/,
];
const FUND_LABELS: Record<"u" | "d" | "r" | "e" | "g", RegExp> = {
  u: /(?:^|[^a-z])(?:total )?unrestricted (?:income )?funds?$/,
  g: /\bgeneral (?:unrestricted )?(?:funds?|reserves?)$|\bunrestricted funds?\W*general(?: funds?)?$/,
  d: /\bdesignated (?:funds?|reserves?)$|\bunrestricted funds?\W*designated(?: funds?)?$/,
  r: /(?:^|[^n])\brestricted (?:income )?funds?$|^total restricted funds?$/,
  e: /\bendowment funds?$|\bendowed funds?$|\b(?:permanent|expendable) endowment(?: funds?)?$/,
};

// ---------------------------------------------------------------------------------------------------------------
// The reader
// ---------------------------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------------------------
// Recognition: a charity's trustees' report or accounts (issue 28 §3)
// ---------------------------------------------------------------------------------------------------------------

/**
 * What makes the subject a charity: its legal form or regulator named ("registered charity", "charitable company",
 * "charitable incorporated organisation", a CIO or SCIO, the Charity Commission, OSCR, the CCNI, the Charities Act or
 * SORP), besides a charity number stated (read by charityNumberOf) or a trustees' report's title.
 */
const CHARITY_FORM =
  /\bregistered\s+(?:as\s+a\s+)?charity\b|\bcharitable\s+(?:company|incorporated\s+organi[sz]ation|trust|association|foundation)\b|\bS?CIO\b|\bcharity\s+commission\b|\bOSCR\b|\bscottish\s+charity\b|\bCCNI\b|\bcharities\s+(?:act|sorp|statement\s+of\s+recommended\s+practice)\b|\bSORP\b/i;
/** "The charity" as the document's subject, said again and again (a plc's report naming a charity it supports does not). */
const THE_CHARITY = /\bthe\s+charity(?:['’]s)?\b/gi;

/** A trustees' report's title: "Trustees' Annual Report", "Report of the Trustees", "Directors' and Trustees' Report". */
const TRUSTEES_TITLE =
  /\btrustees['’]?\s*(?:\(\s*including\s+(?:the\s+)?directors['’]?\s*\)\s*)?(?:annual\s+)?report\b|\breport\s+of\s+the\s+(?:board\s+of\s+)?trustees\b|\bannual\s+report\s+of\s+the\s+(?:board\s+of\s+)?trustees\b|\bdirectors['’]?\s+(?:and|&)\s+trustees['’]?\s+(?:annual\s+)?report\b|\btrustees['’]?\s+(?:and|&)\s+directors['’]?\s+report\b/i;
/**
 * A report's or accounts' title: "Annual Report and Financial Statements", "Report and Accounts", "Annual Report and
 * Unaudited Accounts", "Financial Statements for the year ended …", "Annual Report 2024/25", "Annual Accounts".
 */
const REPORT_TITLE =
  /\b(?:annual\s+)?report\s*(?:and|&)\s*(?:the\s+)?(?:audited\s+|unaudited\s+|consolidated\s+|independently\s+examined\s+)?(?:financial\s+statements|accounts)\b|\b(?:financial\s+statements|accounts)\s+for\s+the\s+(?:year|period)\s+(?:ended|ending|to)\b|\bannual\s+(?:report|accounts|return)\b|\bCC1[67]a?\b/i;

/** The trustees' report's sections: the Charities SORP (FRS 102) module 1 and the Charity Commission's CC17a form. */
const SORP_SECTIONS: [string, RegExp][] = [
  [
    "objectives and activities",
    /^(?:our\s+|the\s+charity['’]s\s+)?(?:charitable\s+)?(?:objectives?|objects?|aims?|purposes?)(?:,)?\s+(?:and|&)\s+(?:principal\s+|main\s+)?activities\b/i,
  ],
  ["achievements and performance", /^(?:our\s+)?(?:achievements?\s+(?:and|&)\s+performance|performance\s+(?:and|&)\s+achievements?)\b/i],
  ["financial review", /^(?:the\s+)?financial\s+review\b|^review\s+of\s+(?:the\s+)?(?:charity['’]s\s+)?finances\b/i],
  ["structure, governance and management", /^(?:structure\s*,?\s*)?governance\s+(?:and|&)\s+management\b|^structure\s*(?:,|and|&)\s*governance\b/i],
  [
    "reference and administrative details",
    /^(?:reference|legal)\s+(?:and|&)\s+administrative\s+(?:details|information)\b|^administrative\s+(?:details|information)\b/i,
  ],
  ["plans for future periods", /^(?:plans\s+for\s+(?:the\s+)?future(?:\s+periods)?|future\s+plans)\b/i],
  ["the trustees' responsibilities", /^(?:statement\s+of\s+)?(?:the\s+)?trustees['’]?\s+responsibilities\b|^responsibilities\s+of\s+the\s+trustees\b/i],
  ["public benefit", /^public\s+benefit\b/i],
  ["reserves policy", /^reserves\s+policy\b/i],
];
/** A section number before a heading: "2.", "3.1", "Section C", "C." (the CC17a form), a bullet. */
const HEADING_LEAD = /^(?:(?:section\s+)?[a-h][.):]?\s+(?=\p{Lu})|\d{1,2}(?:\.\d{1,2})*\.?\)?\s+|[•·▪\-–]\s*)/iu;

/** The accounts' own statements: named anywhere (words only accounts use), or as a heading (words others use too). */
const ACCOUNTS_PARTS: [string, RegExp][] = [
  ["a statement of financial activities", /\bstatement\s+of\s+financial\s+activities\b/i],
  ["receipts and payments accounts", /\breceipts\s+(?:and|&)\s+payments\s+accounts?\b|\bCC16a\b/i],
  ["a statement of assets and liabilities", /\bstatement\s+of\s+assets\s+(?:and|&)\s+liabilities\b/i],
];
const ACCOUNTS_HEADINGS: [string, RegExp][] = [
  ["a balance sheet", /^(?:the\s+)?(?:charity['’]s\s+|consolidated\s+)?balance\s+sheet\b/i],
  ["notes to the accounts", /^notes\s+(?:to|forming\s+part\s+of)\s+the\s+(?:financial\s+statements|accounts)\b/i],
];
const SCRUTINY_PARTS: [string, RegExp][] = [
  [
    "an independent examiner's report",
    /\bindependent\s+examiner['’]?s?\s+report\b|\breport\s+of\s+the\s+independent\s+examiner\b|\bindependent\s+examination\b/i,
  ],
  [
    "an auditor's report",
    /\b(?:independent\s+)?auditors?['’]?s?\s+report\s+to\s+the\s+(?:trustees|members)\b|\breport\s+of\s+the\s+(?:independent\s+)?auditors?\b/i,
  ],
];

/** Characters of each of the document's first lines where its title is looked for (a PDF's first page may run its lines together). */
const OPENING = 600;
/** Words before a title that make it a reference to another document. */
const REFERENCE_BEFORE = /\b(?:our|an|its|their|his|her|see|publish(?:ed|es)?|within|in\s+(?:the|our|its|their))\s+$/i;

interface Recognition {
  recognised: boolean;
  /** What says it is a charity's. */
  identity: string[];
  /** What says it is a report or accounts. */
  form: string[];
  /** The trustees' report is there: its title or one of its SORP sections. */
  trusteesReport: boolean;
  /** Why (not), in words. */
  note: string;
}

/**
 * Whether the document is a charity's trustees' report or accounts. It must name a charity (a charity number, its legal
 * form or regulator, a trustees' report's title, or "the charity" as its subject with its trustees) and have the form of
 * one: a report's or accounts' title in its opening or a heading; a statement of financial activities, receipts and
 * payments accounts, a statement of assets and liabilities, a balance sheet or notes to the accounts; an examiner's or
 * auditor's report; two of the trustees' report's SORP sections; or one with the year's income or expenditure.
 */
function recognise(reading: Reading, items: Item[], charityNumber: string | null, figures: boolean): Recognition {
  const doc = reading.doc;
  const headingText = (t: string) => t.replace(HEADING_LEAD, "").replace(/^[\s"“‘'*_#]+/, "");
  // A title, not a reference to one ("see our Annual Report", "publish an annual report", "in the Annual Report").
  // A title stands at the start of its line, or after the charity's name or a capitalised word; after a word in lower
  // case ("read our latest annual report and accounts") it is prose naming a report.
  const titleIn = (re: RegExp, text: string) => {
    for (const m of text.matchAll(new RegExp(re.source, "gi"))) {
      const before = text.slice(Math.max(0, m.index - 30), m.index);
      const word = /([\p{L}'’]+)\W*$/u.exec(before)?.[1] ?? "";
      if (!REFERENCE_BEFORE.test(before) && (!/^\p{Ll}/u.test(word) || word === "the")) return true;
    }
    return false;
  };
  // The document's opening lines; and, for a trustees' report, any heading (a report bound after the accounts' cover).
  const early = items.slice(0, 8).map((x) => x.text.slice(0, OPENING));
  const trusteesTitle = early.some((t) => titleIn(TRUSTEES_TITLE, t)) || items.some((x) => !x.sentence && titleIn(TRUSTEES_TITLE, x.text));
  const reportTitle = trusteesTitle || early.some((t) => titleIn(REPORT_TITLE, t));
  // A section heading, or a sentence that starts with one (a PDF's heading run into its first sentence).
  // Each item's text as a heading, worked out once (every section and heading pattern reads it).
  const heads = items.map((x) => headingText(x.text));
  const sections = SORP_SECTIONS.filter(([, re]) => heads.some((h) => re.test(h))).map(([name]) => name);
  const accounts = [
    ...ACCOUNTS_PARTS.filter(([, re]) => reading.mentions(re)).map(([name]) => name),
    ...ACCOUNTS_HEADINGS.filter(([, re]) => items.some((x, i) => (!x.sentence || x.text.length <= 120) && re.test(heads[i]))).map(([name]) => name),
  ];
  const scrutiny = SCRUTINY_PARTS.filter(([, re]) => reading.mentions(re)).map(([name]) => name);

  const identity: string[] = [];
  if (charityNumber) identity.push(`a charity number (${charityNumber})`);
  if (reading.mentions(CHARITY_FORM)) identity.push("a charity's legal form or regulator");
  if (trusteesTitle) identity.push("a trustees' report's title");
  if (!identity.length && (doc.text.match(THE_CHARITY)?.length ?? 0) >= 3 && reading.mentions(/\btrustees\b/i))
    identity.push("the charity and its trustees as its subject");

  const form: string[] = [];
  if (reportTitle) form.push(trusteesTitle ? "a trustees' report's title" : "a report's or accounts' title");
  form.push(...accounts, ...scrutiny);
  if (sections.length) form.push(`the trustees' report's section${sections.length > 1 ? "s" : ""} ${sections.join(", ")}`);
  const hasForm = reportTitle || accounts.length > 0 || scrutiny.length > 0 || sections.length >= 2 || (sections.length === 1 && figures);
  if (figures && hasForm) form.push("the year's income or expenditure");

  const recognised = identity.length > 0 && hasForm;
  const trusteesReport = trusteesTitle || sections.length > 0;
  let note: string;
  if (recognised)
    note = `Read as a charity's ${trusteesReport ? "trustees' report" : "report"}${accounts.length || figures ? " and accounts" : ""}: it has ${[...new Set([...identity, ...form])].join(", ")}.`;
  else if (doc.chars < 40) note = "The document has almost no text.";
  else
    note = `The document does not read as a charity's trustees' report or accounts: ${[
      identity.length
        ? null
        : "it names no charity (no charity number, no charity's legal form or regulator such as a charitable company, a CIO or the Charity Commission, no trustees' report)",
      hasForm
        ? null
        : "it has none of the parts of one (no title such as \"Trustees' annual report\" or \"Annual report and financial statements\", none of the trustees' report's sections such as objectives and activities, achievements and performance or financial review, no statement of financial activities, receipts and payments accounts or balance sheet, no independent examiner's or auditor's report)",
    ]
      .filter(Boolean)
      .join("; and ")}.`;
  return { recognised, identity, form, trusteesReport, note };
}

/** A fact not found: absent from a document read in full, "couldn't tell" from a cut one. */
type Absent = <T>(what: string, value?: T | null) => Fact<T>;

export interface CharityReadOptions {
  /** Today, `YYYY-MM-DD` (for whether a filing deadline has passed). */
  today: string;
}

export function readCharityReport(reading: Reading, opts: CharityReadOptions): CharityReport {
  const doc = reading.doc;
  const cite = new Citer(reading);
  const items = itemsOf(reading);
  const rows = rowsOf(items);
  nameSectionTotals(rows);
  const receiptsForm = reading.mentions(/CC16a|receipts and payments/i);
  // Rows are mapped to columns only when their label is one the reader looks for.
  const cache = new Map<number, ParsedRow | null>();
  const parsedAt = (i: number) => {
    if (!cache.has(i)) cache.set(i, parseRow(rows[i], receiptsForm));
    return cache.get(i)!;
  };
  /** The first row (in document order) whose label matches, trying the labels in order of preference. */
  const firstRow = (labels: RegExp[]) => {
    for (const re of labels)
      for (let i = 0; i < rows.length; i++) {
        if (!re.test(rows[i].key)) continue;
        const p = parsedAt(i);
        if (p && p.cur !== null) return p;
      }
    return null;
  };
  const incomeRow = firstRow(INCOME_LABELS);
  const expenditureRow = firstRow(EXPENDITURE_LABELS);
  const numbers = charityNumberOf(reading, items, cite);
  const figures = !!(incomeRow || expenditureRow || narrativeAmount(reading, NARRATIVE_INCOME) || narrativeAmount(reading, NARRATIVE_EXPENDITURE));
  const recognition = recognise(reading, items, numbers.charityNumber.value, figures);

  if (!recognition.recognised) return unrecognised(recognition.note);

  // A fact not found in a document read in full is absent ("not stated"); in a cut one, couldn't tell.
  const absent: Absent = <T>(what: string, value: T | null = null): Fact<T> =>
    doc.cut
      ? notFound(`Couldn't tell: ${what} was not found in the part of the document read (it was cut).`)
      : { value, evidence: null, note: `Not found: the document (read in full) does not mention ${what}.` };
  const rowEvidence = (p: ParsedRow) => {
    const it = items[p.row.figItem];
    const figs = p.row.figs.slice(0, p.tokensUsed).map((t) => t.raw);
    return cite.quoted(it, `${p.row.label} ${figs.join(" ")}`.trim());
  };

  // --- The charity -------------------------------------------------------------------------------------------
  const financialYear = financialYearOf(reading, items, cite);
  const yearEnd = financialYear.value?.end ?? null;
  const priorEnd = yearEnd ? addMonths(yearEnd, -12) : null;
  const name = charityNameOf(reading, items, cite, numbers.formName);
  const companyNumber = companyNumberOf(reading, cite);

  // --- Finances ----------------------------------------------------------------------------------------------
  const basis = basisOf(items, cite);
  const amountOf = (v: number, prior: number | null): Amount => ({
    amount: v,
    yearEnded: yearEnd,
    priorYear: prior === null ? null : { amount: prior, yearEnded: priorEnd },
  });
  const fromRow = (p: ParsedRow | null, what: string, narrativeRe: RegExp | null): Fact<Amount> => {
    const narrative = narrativeRe ? narrativeAmount(reading, narrativeRe) : null;
    if (p && p.cur !== null) {
      let note: string | null = p.row.units !== 1 ? `The table is in ${p.row.units === 1000 ? "£'000" : "£m"}: multiplied out.` : null;
      if (p.priorBlank) note = `${note ? `${note} ` : ""}The prior-year column is blank (a dash): no prior-year figure is given.`;
      if (narrative && Math.abs(narrative.amount - p.cur) > Math.max(1, Math.abs(p.cur) * 0.005)) {
        const msg = `The report's text gives ${pounds(narrative.amount)} ("${redactNames(quoteOf(narrative.sentence.text, narrativeRe!, 140), { known: reading.people })}"), which disagrees with the accounts' ${pounds(p.cur)}; the accounts' figure is given.`;
        note = note ? `${note} ${msg}` : msg;
      }
      return found(amountOf(p.cur, p.priorBlank ? null : p.prior), rowEvidence(p), note);
    }
    if (narrative)
      return found(
        amountOf(narrative.amount, narrative.prior),
        cite.sentence(narrative.sentence, narrativeRe!),
        "From the report's text (no accounts table with this figure was read).",
      );
    return absent(what);
  };
  const income = fromRow(incomeRow, `an income (or receipts) figure`, NARRATIVE_INCOME);
  const expenditure = fromRow(expenditureRow, `an expenditure (or payments) figure`, NARRATIVE_EXPENDITURE);
  const netRow = firstRow(NET_LABELS);
  let netIncome: Fact<Amount>;
  if (netRow && netRow.cur !== null) netIncome = fromRow(netRow, "", null);
  else if (income.value && expenditure.value && income.evidence) {
    const prior = income.value.priorYear && expenditure.value.priorYear ? income.value.priorYear.amount - expenditure.value.priorYear.amount : null;
    netIncome = found(
      amountOf(income.value.amount - expenditure.value.amount, prior),
      expenditure.evidence ?? income.evidence,
      "Worked out as income minus expenditure (the accounts give no net figure that was read).",
    );
  } else netIncome = absent("a net income (surplus or deficit) figure");

  const fundsOut = fundsOf(firstRow, reading, amountOf, rowEvidence, absent, receiptsForm, cite);
  const reserves = reservesOf(reading, cite, fundsOut.total, yearEnd, priorEnd, basis.value);

  // --- Governance --------------------------------------------------------------------------------------------
  const trustees = trusteeCountOf(reading, cite, absent);
  const meetings = meetingsOf(reading, cite, absent);
  /** A sentence stating it; else a section under its own heading ("Reserves policy", "Safeguarding"), its first sentence quoted. */
  const policy = (what: string, re: RegExp[], heading: RegExp, not?: RegExp): Fact<boolean> => {
    const s = reading.first(re, { not });
    if (s) return found(true, cite.sentence(s, re[0].test(s.text) ? re[0] : re[re.length - 1]));
    const sec = reading.sections(heading).find((x) => x.end > x.first);
    if (sec)
      return found(
        true,
        cite.sentence(reading.sentencesOf(sec)[0]),
        `The report has a section headed "${redactNames(sec.heading ?? "", { line: true, known: reading.people })}".`,
      );
    return absent(what, false);
  };
  const safeguarding = policy(
    "a safeguarding policy",
    [SAFEGUARDING_POLICY, /\bsafeguarding\b.*\b(?:polic(?:y|ies)|procedures?|lead|officer|trustee|training|DBS)\b/i],
    /^(?:\d+\.?\s*)?(?:safeguarding|child protection|protecting (?:children|vulnerable))\b/i,
    /\bsafeguarding (?:the |its |their |of the )?(?:charity['’]s |company['’]s )?(?:assets|funds|property|resources)\b/i,
  );
  const conflictsOfInterest = policy(
    "how conflicts of interest are managed",
    [
      /conflicts? of interests?|register of (?:trustees['’]? |members['’]? )?interests|declar\w* (?:of )?(?:any |their |all )?(?:\w+ )?(?:interests?|conflicts?)|interests? (?:are|is) declared/i,
    ],
    /^(?:\d+\.?\s*)?(?:conflicts? of interests?|declarations? of interests?|trustees['’]? interests)\b/i,
  );
  const riskStatement = policy(
    "a statement on the major risks the charity faces",
    [RISK_STATEMENT],
    /^(?:\d+\.?\s*)?(?:(?:major|principal|key|main) risks|risk management|risks and uncertainties|risk review)\b/i,
  );
  const reservesPolicy = policy("a reserves policy", [RESERVES_POLICY], /^(?:\d+\.?\s*)?reserves policy\b/i);
  const publicBenefit = policy("a public benefit statement", [/\bpublic benefit\b/i], /^(?:\d+\.?\s*)?public benefit\b/i);
  const scrutiny = scrutinyOf(reading, items, cite, absent);
  const approvedOn = approvalOf(reading, items, cite, yearEnd, absent);

  // --- Delivery ----------------------------------------------------------------------------------------------
  const delivery = deliveryOf(reading, cite, absent);

  // --- Flags -------------------------------------------------------------------------------------------------
  const region: Regulator | null = numbers.regulator.value;
  const flags = flagsOf({
    reading,
    cite,
    income,
    expenditure,
    netIncome,
    scrutiny,
    approvedOn,
    financialYear,
    region,
    today: opts.today,
    absent,
    receiptsForm: basis.value === "receipts_and_payments",
  });

  const parts = [
    recognition.trusteesReport ? "a trustees' report" : null,
    basis.value === "receipts_and_payments"
      ? "receipts and payments accounts"
      : basis.value === "accruals"
        ? "accruals accounts"
        : income.value || expenditure.value
          ? "accounts"
          : null,
    scrutiny.value === "audit" ? "an auditor's report" : scrutiny.value === "independent_examination" ? "an independent examiner's report" : null,
  ].filter((x): x is string => !!x);

  const report: Omit<CharityReport, "transparency" | "funderGaps" | "facts"> = {
    recognition: {
      recognised: true,
      parts,
      note: `${recognition.note}${doc.cut ? " The document was cut: what is not found may be in the part not read." : ""}`,
    },
    charity: { name, charityNumber: numbers.charityNumber, regulator: numbers.regulator, companyNumber, financialYear },
    finances: { basis, income, expenditure, netIncome, reserves, funds: fundsOut },
    governance: { trustees, meetings, safeguarding, conflictsOfInterest, riskStatement, reservesPolicy, publicBenefit, scrutiny, approvedOn },
    delivery,
    flags,
  };
  const transparency = transparencyOf(report);
  const funderGaps = funderGapsOf(report);
  return { ...report, transparency, funderGaps, facts: factsOf(report, transparency) };
}

// ---------------------------------------------------------------------------------------------------------------
// Not a charity document
// ---------------------------------------------------------------------------------------------------------------

function unrecognised(why: string): CharityReport {
  const nf = <T>(): Fact<T> => notFound(`Couldn't tell: ${why}`);
  const base: Omit<CharityReport, "transparency" | "funderGaps" | "facts"> = {
    recognition: { recognised: false, parts: [], note: why },
    charity: { name: nf(), charityNumber: nf(), regulator: nf(), companyNumber: nf(), financialYear: nf() },
    finances: {
      basis: nf(),
      income: nf(),
      expenditure: nf(),
      netIncome: nf(),
      reserves: nf(),
      funds: { unrestricted: nf(), restricted: nf(), endowment: nf(), designated: nf(), total: nf() },
    },
    governance: {
      trustees: nf(),
      meetings: nf(),
      safeguarding: nf(),
      conflictsOfInterest: nf(),
      riskStatement: nf(),
      reservesPolicy: nf(),
      publicBenefit: nf(),
      scrutiny: nf(),
      approvedOn: nf(),
    },
    delivery: { activities: [], beneficiaries: [], peopleHelped: nf() },
    flags: { deficit: nf(), deficitExplained: nf(), goingConcern: nf(), qualifiedOpinion: nf(), lateFiling: nf() },
  };
  const transparency = transparencyOf(base);
  return { ...base, transparency, funderGaps: [], facts: [why] };
}

// ---------------------------------------------------------------------------------------------------------------
// The charity: name, numbers, year
// ---------------------------------------------------------------------------------------------------------------

const CC16A_LINE = /^(.{3,120}?)\s+((?:SC\s?|NIC\s?)?\d{5,7}(?:-\d{1,2})?)\s+CC1[67]a/i;

/** "number", "No.", "Nos", "num", "#". */
const CHARITY_NUM_WORD = String.raw`(?:numbers?|nos?\b\.?|num\b\.?|nr\b\.?|#)`;
/**
 * A charity number's label, as reports write it: "Registered charity number", "Charity No.", "Charity registration
 * number:", "Registered Charity No", "Reg. charity no", "Charity reg no", "Charity Commission number", "Registered
 * charity", "Registered as a charity", "Registered with the Charity Commission (under number)", "Scottish charity
 * number", "OSCR number".
 */
const CHARITY_LABEL = String.raw`(?:\b(?:registered\s+|reg(?:istered|d)?\.?\s*)?charit(?:y|ies)(?:['’]s)?(?:\s+commission)?(?:\s+(?:registration|registered|reg|regn)\.?)?\s*${CHARITY_NUM_WORD}|\bregistered\s+(?:as\s+an?\s+)?(?:scottish\s+)?charity\b|\bregistered\s+with\s+the\s+charity\s+commission(?:\s+for\s+(?:england\s+(?:and|&)\s+wales|northern\s+ireland))?(?:\s+(?:under|with|as))?|\b(?:scottish\s+charity|charity\s+in\s+scotland|OSCR)(?:\s+(?:registration\s+)?${CHARITY_NUM_WORD})?)`;
/** "(England and Wales)", "in England & Wales", "(if any)", "(Scotland)" between the label and the number. */
const CHARITY_QUALIFIER = String.raw`(?:[\s,]*\(?\s*(?:if\s+any|(?:in\s+)?(?:england\s*(?:and|&)\s*wales|scotland|northern\s+ireland|e\s*&\s*w))\s*\)?)?`;
/** The number: Scotland SC0 + 5 digits, Northern Ireland NIC1 + 5 digits, England and Wales 6–7 digits (a linked charity's suffix kept). */
const CHARITY_NUMBER = String.raw`(SC\s?0\d{5}|NIC\s?1\d{5}|\d{6,7}(?:\s?[-/]\s?\d{1,2}(?![\d/]))?)(?![\d])`;
/** A labelled charity number, wherever the text states it (the label and the number may be on different lines). */
const CHARITY_NUMBER_STATED = new RegExp(
  String.raw`${CHARITY_LABEL}${CHARITY_QUALIFIER}[\s:.\-–#(,]*(?:(?:is|under|no\.?|number)\b[\s:.\-–#]*)?${CHARITY_NUMBER}`,
  "i",
);

function charityNumberOf(reading: Reading, items: Item[], cite: Citer) {
  // The labelled number first, read across the document's lines (a table's label cell, then its value).
  const joined = items.map((x) => x.text).join("\n");
  const starts: number[] = [];
  for (let i = 0, at = 0; i < items.length; at += items[i].text.length + 1, i++) starts.push(at);
  const itemAt = (pos: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return items[lo];
  };
  const patterns: RegExp[] = [
    /\b(?:scottish charity|OSCR|charity in scotland)\b[^.]{0,40}?\b(SC\s?0\d{5})\b/i,
    /\bcharity commission for northern ireland\b[^.]{0,60}?\b((?:NIC\s?)?1\d{5})\b/i,
    /\b(SC0\d{5})\b/,
    /\b(NIC\s?1\d{5})\b/,
  ];
  let out: { value: string; evidence: Evidence; re: RegExp } | null = null;
  let formName: { name: string; item: Item } | null = null;
  const stated = CHARITY_NUMBER_STATED.exec(joined);
  if (stated) {
    // Quoted from the item the label starts in; the number, when it is on the next line, is the item after.
    const it = itemAt(stated.index);
    const inItem = joined.slice(stated.index, Math.min(stated.index + stated[0].length, starts[it.index] + it.text.length));
    const focus = new RegExp(escapeRe(inItem.trim().slice(0, 80)).replace(/\s+/g, "\\s+"), "i");
    out = { value: stated[1].replace(/\s+/g, "").toUpperCase(), evidence: cite.item(it, focus), re: CHARITY_NUMBER_STATED };
  }
  for (const re of out ? [] : patterns) {
    const it = items.find((x) => re.test(x.text));
    if (it) {
      const m = re.exec(it.text)!;
      out = { value: m[1].replace(/\s+/g, "").toUpperCase(), evidence: cite.item(it, re), re };
      break;
    }
  }
  // The CC16a / CC17a form: the charity's name and number on its first line.
  const form = items.slice(0, 12).find((x) => CC16A_LINE.test(x.text));
  if (form) {
    const m = CC16A_LINE.exec(form.text)!;
    formName = { name: m[1].trim(), item: form };
    if (!out) out = { value: m[2].replace(/\s+/g, "").toUpperCase(), evidence: cite.item(form, CC16A_LINE), re: CC16A_LINE };
  }
  const charityNumber: Fact<string> = out
    ? found(out.value, out.evidence, out.re === CC16A_LINE ? "The number beside the charity's name on the form's first line." : null)
    : notFound(
        'Couldn\'t tell: no charity number was found (no "Registered charity number", "Charity No.", "Charity registration number" or the like with a number).',
      );
  let regulator: Fact<Regulator>;
  if (out) {
    const v = out.value;
    const scottish = /^SC/.test(v);
    const ni = /^NIC/.test(v) || (/^1\d{5}$/.test(v) && reading.mentions(/northern ireland|\bCCNI\b/i));
    regulator = found(
      scottish ? "oscr" : ni ? "ccni" : "charity_commission",
      out.evidence,
      scottish
        ? "An SC number: the Scottish Charity Regulator (OSCR)."
        : ni
          ? "A Northern Ireland number: the Charity Commission for Northern Ireland."
          : "A number of the Charity Commission for England and Wales.",
    );
  } else regulator = notFound("Couldn't tell: no charity number was found.");
  return { charityNumber, regulator, formName };
}

const ORG_WORD =
  /\b(?:Trust|Charity|Foundation|Association|Society|Fund|CIO|Limited|Ltd|Centre|Center|Club|Church|Chapel|Project|Appeal|Network|Hospice|Alliance|Institute|League|Friends|Hall|Players|Federation|Council|Group|UK|Mission|Aid|Action|Care|Relief|Shelter|Sanctuary|Rescue|Partnership|Forum|Collective|Company|Committee|Museum|Theatre|Orchestra|Choir|School|Academy|Services|Initiative|Community|Scouts|Guides|Bank|Home|Homes|Housing|Enterprise|Cooperative|Co-operative|Fellowship|Union|Festival)\b/i;
const GENERIC_TITLE =
  /\b(?:annual report|trustees['’]?|report|accounts|financial statements|statement of financial|contents|for the year|year ended|registered|company number|charity number|receipts|balance sheet|legal and administrative|reference and administrative|independent examiner|auditor)\b/i;

function charityNameOf(reading: Reading, items: Item[], cite: Citer, formName: { name: string; item: Item } | null): Fact<string> {
  const label =
    /\b(?:charity(?:['’]s)? name|name of (?:the )?charity|registered name|full name of (?:the )?charity|charity name)\s*[:\-–]?\s+(.{3,90}?)(?=\s+(?:charity (?:registration )?(?:number|no)|registered|company|working name|other names?|principal|address|trustees)\b|[;\n]|\.\s|\.$|$)/i;
  const it = items.find((x) => label.test(x.text));
  if (it) {
    const m = label.exec(it.text)!;
    return found(m[1].trim().replace(/[,.]$/, ""), cite.item(it, label));
  }
  if (formName) return found(formName.name, cite.item(formName.item, CC16A_LINE), "The name on the form's first line.");
  // "World Vision UK is a registered charity", "Hollybrook Community Trust is a charitable company limited by guarantee".
  const is =
    /((?:The\s+)?[A-Z][\w&'’.-]*(?:\s+(?:[A-Z][\w&'’.()-]*|of|and|the|for|in|&|on|at)){0,8})\s+(?:is|was)\s+(?:a|an)\s+(?:registered charity|charity registered|(?:registered )?charitable (?:company|incorporated organisation|trust|association)|company limited by guarantee|charitable company|(?:registered )?(?:scottish )?charity\b|unincorporated charitable)/;
  const isIt = items.find((x) => is.test(x.text));
  if (isIt) {
    const nm = is.exec(isIt.text)![1].trim();
    if (!/^(?:It|This|The (?:charity|trust|company|organisation))$/i.test(nm))
      return found(nm, cite.item(isIt, is), "The name the report says is the charity.");
  }
  // "… (the Charity)" / "(“the Trust”)".
  const defined =
    /((?:The\s+)?[A-Z][\w&'’.-]*(?:\s+(?:[A-Z][\w&'’.-]*|of|and|the|for|in|&|on)){0,8})\s*\((?:the\s*)?["“'‘]?(?:charity|trust|cio|company|organisation|association|foundation|society)["”'’]?\)/;
  const d = items.find((x) => defined.test(x.text));
  if (d) {
    const m = defined.exec(d.text)!;
    const nm = m[1].replace(/^(?:The accounts of|Welcome to)\s+/i, "").trim();
    if (ORG_WORD.test(nm) || nm.split(/\s+/).length >= 2) return found(nm, cite.item(d, defined));
  }
  // "Independent examiner's report to the trustees of Ashworth Community Arts ('the Company')".
  const addressed =
    /\breport\s+(?:to|of)\s+the\s+(?:charity\s+)?(?:trustees|members|directors)\s+of\s+((?:The\s+)?[A-Z][\w&'’.-]*(?:\s+(?:[A-Z][\w&'’.-]*|of|and|the|for|in|&|on|at)){0,8}?)(?=\s*(?:\(|['‘"“,;:.]|$)|\s+(?:on|for|I|We|to|in)\b)/;
  const ad = items.find((x) => addressed.test(x.text));
  if (ad) {
    const nm = addressed.exec(ad.text)![1].trim();
    if (nm.split(/\s+/).length <= 10 && !/^(?:The\s+)?(?:Charity|Trust|Company|CIO)$/i.test(nm))
      return found(nm, cite.item(ad, addressed), "The name the examiner's or auditor's report is addressed to.");
  }
  // A title line near the top: the first heading or line naming an organisation, before the report's own title.
  for (const x of items.slice(0, 25)) {
    const t = x.text.replace(/\s+/g, " ").trim();
    const head =
      /^(.{3,90}?)\s+(?:trustees['’]?|annual report|report and (?:financial statements|accounts)|financial statements|(?:unaudited |audited )?accounts)\b/i.exec(
        t,
      );
    const candidate = head ? head[1] : t.length <= 80 && !GENERIC_TITLE.test(t) ? t : null;
    if (!candidate || !ORG_WORD.test(candidate) || /[.!?]$/.test(candidate) || /\d{3,}/.test(candidate)) continue;
    const nm = candidate
      .replace(/\s*\((?:a )?company limited by guarantee\)\s*$/i, "")
      .replace(/[–:,-]\s*$/, "")
      .trim();
    if (nm.split(/\s+/).length > 10) continue;
    return found(nm, cite.item(x, new RegExp(escapeRe(nm.slice(0, 30)))), "Taken from the document's title.");
  }
  return notFound("Couldn't tell: the charity's name was not found (no \"Charity name\" label, form line or title naming it).");
}

function companyNumberOf(reading: Reading, cite: Citer): Fact<string> {
  const re =
    /\b(?:company (?:registration |registered )?(?:number|no\.?|reg(?:istration)?\.? no\.?)|registered company (?:number|no\.?)|companies house (?:number|no\.?)|registered in england(?: and wales)?(?: with)?(?: company)?(?: number| no\.?)?)\s*[:.\-–]?\s*((?:SC|NI|OC|SO|NC|R0)?\s?\d{6,8})\b/i;
  const s = reading.first(re);
  if (!s) return notFound("Couldn't tell: no company number was found (most charities are not companies).");
  return found(re.exec(s.text)![1].replace(/\s+/g, "").toUpperCase(), cite.sentence(s, re));
}

function financialYearOf(reading: Reading, items: Item[], cite: Citer): Fact<{ start: string | null; end: string }> {
  // 1. A period with both dates: "for the period from 2022-04-01 To 2023-03-31", "1 April 2023 to 31 March 2024".
  let period: { start: string; end: string; item: Item; text: string } | null = null;
  for (const it of items) {
    if (period) break;
    if (!MAY_HOLD_DATE.test(it.text)) continue;
    const ds = datesIn(it.text).filter((d) => d.precision === "day");
    for (let i = 0; i + 1 < ds.length; i++) {
      const between = it.text.slice(ds[i].index + ds[i].text.length, ds[i + 1].index);
      if (!/^\s*(?:to|until|till|and|–|-|—)\s*$/i.test(between)) continue;
      const days = daysBetween(ds[i].iso, ds[i + 1].iso);
      if (days < 180 || days > 550) continue;
      const before = it.text.slice(Math.max(0, ds[i].index - 60), ds[i].index);
      if (/\b(?:last|prior|previous|comparative)\b/i.test(before)) continue;
      period = { start: ds[i].iso, end: ds[i + 1].iso, item: it, text: ds[i].text };
      break;
    }
  }
  // 2. "year ended 31 March 2024": the date most often named so (the first on a tie).
  const re = /\b(?:year|period|twelve months|12 months)(?: ended| ending| end| to)\s*:?\s*(?:on\s+)?$/i;
  const counts = new Map<string, { n: number; item: Item; text: string }>();
  for (const it of items)
    for (const d of /\b(?:year|period|months)\b/i.test(it.text) && MAY_HOLD_DATE.test(it.text) ? datesIn(it.text) : []) {
      if (d.precision !== "day") continue;
      if (!re.test(it.text.slice(Math.max(0, d.index - 40), d.index))) continue;
      const c = counts.get(d.iso);
      if (c) c.n++;
      else counts.set(d.iso, { n: 1, item: it, text: d.text });
    }
  const ended = counts.size ? [...counts].sort((a, b) => b[1].n - a[1].n || a[1].item.index - b[1].item.index)[0] : null;
  // A period that ends on the year end named (or with none named) is the year; otherwise the year end named wins.
  if (period && (!ended || ended[0] === period.end))
    return found({ start: period.start, end: period.end }, cite.item(period.item, new RegExp(escapeRe(period.text))));
  if (ended) {
    const [iso, best] = ended;
    return found(
      { start: addDays(addMonths(iso, -12), 1), end: iso },
      cite.item(best.item, new RegExp(escapeRe(best.text))),
      "The start is taken as the day after the same date a year earlier (the report gives the year end).",
    );
  }
  // 3. A balance sheet "as at" date.
  const asAt = items.find(
    (x) => /\bbalance sheet\b[^.]{0,20}\bas at\b/i.test(x.text) && MAY_HOLD_DATE.test(x.text) && datesIn(x.text).some((d) => d.precision === "day"),
  );
  if (asAt) {
    const d = datesIn(asAt.text).find((x) => x.precision === "day")!;
    return found(
      { start: addDays(addMonths(d.iso, -12), 1), end: d.iso },
      cite.item(asAt, new RegExp(escapeRe(d.text))),
      'The balance sheet date, taken as the year end (no "year ended" was found); the start is the day after the same date a year earlier.',
    );
  }
  return notFound('Couldn\'t tell: no financial year ("year ended …" or a period from … to …) was found.');
}

function basisOf(items: Item[], cite: Citer): Fact<AccountsBasis> {
  const RP_EXPLICIT = /\breceipts and payments basis\b|\bprepared (?:on|using) (?:a|the) receipts and payments\b/i;
  const ACC_EXPLICIT = /\baccruals basis\b|\bprepared (?:under|in accordance with) (?:the )?(?:charities )?SORP\b|\bFRS ?102\b/i;
  const RP = /CC16a|receipts and payments accounts?\b|\bstatement of assets and liabilities\b/i;
  const ACC = /\bstatement of financial activities\b|\bbalance sheet\b|\bSORP\b|\bincome and expenditure account\b/i;
  for (const [re, basis] of [
    [RP_EXPLICIT, "receipts_and_payments"],
    [ACC_EXPLICIT, "accruals"],
    [RP, "receipts_and_payments"],
    [ACC, "accruals"],
  ] as const) {
    const it = items.find((x) => re.test(x.text));
    if (it) return found(basis, cite.item(it, re));
  }
  return notFound(
    "Couldn't tell whether the accounts are accruals or receipts and payments (no statement of financial activities, SORP or receipts and payments form was found).",
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Finances: narrative figures, funds, reserves
// ---------------------------------------------------------------------------------------------------------------

const NARRATIVE_INCOME =
  /\b(?:total )?(?:income|incoming resources|receipts)(?: for the (?:year|period))?(?: received)?\s+(?:was|were|of|totalled|totalling|amounted to|stood at|reached|came to|rose to|fell to|increased to|decreased to|is)\s+(?:just |nearly |almost |over |some )?£/i;
const NARRATIVE_EXPENDITURE =
  /\b(?:total )?(?:expenditure|spending|resources expended|payments)(?: for the (?:year|period))?\s+(?:was|were|of|totalled|totalling|amounted to|stood at|reached|came to|rose to|fell to|increased to|decreased to|is)\s+(?:just |nearly |almost |over |some )?£/i;

function narrativeAmount(reading: Reading, re: RegExp): { amount: number; prior: number | null; sentence: DocSentence } | null {
  for (const s of reading.find(re, { not: /\b(?:budget|forecast|target|expect|plan(?:ned|s)? (?:for|to)|next year|aim)\b/i })) {
    const m = new RegExp(re.source, re.flags.replace("g", "")).exec(s.text)!;
    // "Restricted income of £12,000", "investment income was £400": a part of the income, not the year's total.
    if (
      /\b(?:restricted|unrestricted|investment|grant|trading|rental|other|donated|legacy|legacies|charitable|fundraising|interest|gift aid|endowment|deferred|designated|shop)\s*$/i.test(
        s.text.slice(Math.max(0, m.index - 25), m.index),
      )
    )
      continue;
    const rest = s.text.slice(m.index + m[0].length - 1);
    const money = moneyIn(rest);
    if (!money.length || money[0].index !== 0) continue;
    const after = rest.slice(money[0].text.length, money[0].text.length + 40);
    const prior = /^\s*\((?:\d{4}|20\d\d\/\d\d|last year|prior year)\s*:?\s*£/i.test(after) ? (moneyIn(after)[0]?.amount ?? null) : null;
    return { amount: money[0].amount, prior, sentence: s };
  }
  return null;
}

function fundsOf(
  firstRow: (labels: RegExp[]) => ParsedRow | null,
  reading: Reading,
  amountOf: (v: number, prior: number | null) => Amount,
  rowEvidence: (p: ParsedRow) => Evidence,
  absent: Absent,
  receiptsForm: boolean,
  cite: Citer,
): CharityReport["finances"]["funds"] {
  const first = (re: RegExp) => firstRow([re]);
  let totalRow: ParsedRow | null = null;
  for (const re of TOTAL_FUNDS_LABELS) if ((totalRow = first(re))) break;
  const none = (what: string): Fact<Amount> => absent(what);
  let total: Fact<Amount> = none("the charity's total funds at the year end");
  if (totalRow) {
    let prior = totalRow.priorBlank ? null : totalRow.prior;
    let note: string | null = totalRow.row.units !== 1 ? `The table is in ${totalRow.row.units === 1000 ? "£'000" : "£m"}: multiplied out.` : null;
    // A receipts and payments form: last year's closing funds are this year's opening ("Cash funds last year end").
    const opening = first(/\bcash funds last year end$|\bfunds brought forward$|\btotal funds brought forward$|\bfund balances brought forward$/);
    if (opening && opening.cur !== null && opening.row.figItem <= totalRow.row.figItem) {
      if (prior !== null && Math.abs(prior - opening.cur) > 1)
        note = `${note ? `${note} ` : ""}The ${receiptsForm ? "form's " : ""}last-year column gives ${pounds(prior)}, which disagrees with the funds at the start of the year (${pounds(opening.cur)}, "${opening.row.label}"); the latter is given as the prior year's.`;
      else if (prior === null)
        note = `${note ? `${note} ` : ""}The last-year column is blank: the funds at the start of the year (${pounds(opening.cur)}, "${opening.row.label}") are given as the prior year's.`;
      prior = opening.cur;
    }
    total = found(amountOf(totalRow.cur!, prior), rowEvidence(totalRow), note);
  }
  const fromTotal = (k: "u" | "r" | "e" | "d") => (totalRow && totalRow.funds[k] !== undefined ? totalRow.funds[k]! : null);
  const fact = (k: "u" | "r" | "e" | "d", labels: RegExp[], what: string): Fact<Amount> => {
    for (const re of labels) {
      const p = first(re);
      if (p && p.cur !== null) return found(amountOf(p.cur, p.priorBlank ? null : p.prior), rowEvidence(p));
    }
    const v = fromTotal(k);
    if (v !== null && totalRow) return found(amountOf(v, null), rowEvidence(totalRow), `The ${what} column of the total funds row.`);
    // Designated funds sit inside the unrestricted column: no column of their own says nothing.
    if (k !== "d" && totalRow && Object.keys(totalRow.funds).length)
      return { value: null, evidence: null, note: `The accounts show no ${what} column: none is held, as far as the accounts show.` };
    return none(`${what} (a figure for them)`);
  };
  // Funds by type: the total funds row's own columns first (one row, consistent), else the balance sheet's rows.
  const byColumn = (k: "u" | "r" | "e" | "d", what: string): Fact<Amount> | null => {
    const v = fromTotal(k);
    if (v === null || !totalRow) return null;
    let prior: number | null = null;
    if (k === "u" && totalRow.prior !== null && !Object.keys(totalRow.funds).some((x) => x !== "u" && (totalRow!.funds as Record<string, number>)[x] !== 0))
      prior = total.value?.priorYear?.amount ?? null;
    return found(amountOf(v, prior), total.evidence!, `The ${what} column of the total funds row.`);
  };
  let unrestricted = byColumn("u", "unrestricted") ?? fact("u", [FUND_LABELS.u], "unrestricted funds");
  if (!unrestricted.value) {
    const g = first(FUND_LABELS.g);
    const d = first(FUND_LABELS.d);
    if (g && g.cur !== null) {
      const sum = g.cur + (d?.cur ?? 0);
      const prior = g.prior !== null ? g.prior + (d?.prior ?? 0) : null;
      unrestricted = found(
        amountOf(sum, prior),
        rowEvidence(g),
        d ? "General and designated funds added (both are unrestricted)." : "The general fund (no designated funds were read).",
      );
    }
  }
  if (!unrestricted.value && total.value) {
    const all = reading.first(
      /\ball (?:of )?(?:the )?(?:charity['’]s |our |its )?funds (?:are|were|is) unrestricted|\bhas no restricted (?:or endowment )?funds|\bholds? only unrestricted funds/i,
    );
    if (all) unrestricted = found({ ...total.value }, cite.sentence(all), "The report says all its funds are unrestricted: the total funds.");
  }
  const restricted = byColumn("r", "restricted") ?? fact("r", [FUND_LABELS.r], "restricted funds");
  const endowment = byColumn("e", "endowment") ?? fact("e", [FUND_LABELS.e], "endowment funds");
  let designated = fact("d", [FUND_LABELS.d], "designated funds");
  if (!designated.value) {
    const re = /\bdesignated (?:funds? )?(?:of|totalling|totaling|amounting to|stood at|were|was)\s+£|\b(?:have|has) designated\s+£/i;
    const s = reading.first(re);
    const money = s ? moneyIn(s.text.slice(new RegExp(re.source, "i").exec(s.text)!.index)) : [];
    if (s && money.length) designated = found(amountOf(money[0].amount, null), cite.sentence(s, re), "From the report's text.");
  }
  return { unrestricted, restricted, endowment, designated, total };
}

function reservesOf(
  reading: Reading,
  cite: Citer,
  total: Fact<Amount>,
  yearEnd: string | null,
  priorEnd: string | null,
  basis: AccountsBasis | null,
): Fact<ReservesAmount> {
  const re =
    /\b(?:free reserves|free unrestricted reserves|unrestricted (?:free )?reserves|general reserves|free funds|reserves (?:held )?at the (?:year[- ]end|end of the year))\b/i;
  const target = /\b(?:aim|aims|target|policy|seek|seeks|intend|should|would|need to|require|ideal|equivalent to|between|minimum|at least)\b/i;
  for (const s of reading.find(re)) {
    const m = re.exec(s.text)!;
    const clause = s.text.slice(m.index, m.index + 220);
    if (target.test(s.text.slice(0, m.index)) && !/\b(?:were|was|stood)\b/.test(clause)) continue;
    // The figure the reserves are stated as: after "were", "stood at", "amounted to" … (else "of", "at"), not inside brackets.
    let pick: { at: number; amount: number; text: string } | null = null;
    for (const verbs of [
      /\b(?:were|was|stood at|amounted to|amount to|totalled|totalling|total|are|is|came to|now stand at|stand at)\s+(?:approximately |about |around |just over |some )?(?=£)/gi,
      /\b(?:of|at)\s+(?=£)/gi,
    ]) {
      for (let v = verbs.exec(clause); v; v = verbs.exec(clause)) {
        const before = clause.slice(0, v.index);
        if ((before.match(/\(/g)?.length ?? 0) > (before.match(/\)/g)?.length ?? 0)) continue;
        if (target.test(before.slice(m[0].length))) break;
        const money = moneyIn(clause.slice(v.index + v[0].length));
        if (money.length && money[0].index === 0) {
          pick = { at: v.index + v[0].length, amount: money[0].amount, text: money[0].text };
          break;
        }
      }
      if (pick) break;
    }
    if (!pick) continue;
    const after = clause.slice(pick.at + pick.text.length, pick.at + pick.text.length + 60);
    const pm = /^[^(]{0,30}\((?:\d{4}|20\d\d\/\d\d|last year|prior year)\s*:?\s*(?=£)/i.exec(after);
    const prior = pm ? (moneyIn(after.slice(pm[0].length))[0]?.amount ?? null) : null;
    return found(
      { kind: "free_reserves", amount: pick.amount, yearEnded: yearEnd, priorYear: prior === null ? null : { amount: prior, yearEnded: priorEnd } },
      cite.sentence(s, re),
    );
  }
  if (total.value && total.evidence)
    return found(
      { kind: "total_funds", ...total.value },
      total.evidence,
      `No free-reserves figure is stated: the total ${basis === "receipts_and_payments" ? "cash funds" : "funds"} at the year end are given.`,
    );
  return total.note
    ? { value: null, evidence: null, note: "Not found: neither a free-reserves figure nor total funds were read." }
    : notFound("Couldn't tell: no reserves figure was found.");
}

// ---------------------------------------------------------------------------------------------------------------
// Governance
// ---------------------------------------------------------------------------------------------------------------

const SAFEGUARDING_POLICY =
  /\b(?:child protection|adult support and protection|protection of vulnerable (?:groups|adults)|vulnerable adults?) (?:and [a-z ]{3,40} )?(?:polic(?:y|ies)|procedures?)\b|\bPVG scheme\b|\bsafeguarding (?:and [a-z ]{3,30} )?(?:polic(?:y|ies)|procedures?|lead|officer|trustee|framework|training)\b|\bpolic(?:y|ies) (?:on|for) safeguarding\b|\bsafeguarding of (?:children|vulnerable|adults)/i;
const RISK_STATEMENT =
  /\b(?:major|principal|key|main|significant|strategic) risks\b|\brisk register\b|\brisk management\b|\brisks? (?:to which the charity is exposed|facing the charity)\b|\b(?:reviewed|identified|assessed|considered) the (?:major |principal |main |key )?risks\b/i;
const RESERVES_POLICY =
  /\breserves policy\b|\b(?:aim|aims|seek|seeks|intend|intends|target|plan|plans|policy is) to (?:hold|maintain|keep|retain|have)\b[^.]{0,60}\bin reserves?\b|\bpolicy on reserves\b|\b(?:aim|aims|seek|seeks|intend|intends|target|plan|plans|policy is) to (?:hold|maintain|keep|retain|have) (?:free |unrestricted |general |sufficient |adequate )?(?:reserves|funds)\b|\breserves? (?:target|level) of\b|\b(?:hold|maintain|keep|retain) (?:free |unrestricted |general )?reserves (?:equivalent|equal|of|at|sufficient|to cover)\b|\bmonths['’]? (?:of )?(?:running|operating|unrestricted)? ?(?:costs|expenditure)\b.*\breserves?\b|\breserves?\b.*\bmonths['’]? (?:of )?(?:running|operating|unrestricted)? ?(?:costs|expenditure)\b/i;

function trusteeCountOf(reading: Reading, cite: Citer, absent: Absent): Fact<number> {
  const patterns = [
    new RegExp(
      `\\b(?:board|committee|trustee body|board of trustees|management committee)\\b[^.]{0,60}?\\b(?:comprises|comprised|comprising|consists of|consisted of|is made up of|was made up of|has|had|of)\\s+${SMALL_NUM}\\s+(?:[a-z-]+\\s+){0,2}?(?:trustees|members|directors)\\b`,
      "i",
    ),
    new RegExp(`\\bthere (?:are|were) (?:currently |now )?${SMALL_NUM}\\s+(?:[a-z-]+\\s+){0,2}?trustees\\b`, "i"),
    new RegExp(
      `\\b${SMALL_NUM}\\s+(?:[a-z-]+\\s+){0,2}?trustees (?:served|were in post|in post|at the (?:year[- ]end|end of the year)|during the year)\\b`,
      "i",
    ),
    new RegExp(`\\bnumber of trustees\\b[^.]{0,40}?\\b(?:is|was|stood at|were)\\s+${SMALL_NUM}\\b`, "i"),
    new RegExp(`\\b(?:has|had|with) (?:a board of )?${SMALL_NUM}\\s+(?:[a-z-]+\\s+)?trustees\\b`, "i"),
    new RegExp(`\\b(?:management committee|board of trustees|board) of ${SMALL_NUM}\\b`, "i"),
  ];
  for (const re of patterns) {
    for (const s of reading.find(re)) {
      const m = re.exec(s.text)!;
      if (
        /\b(?:up to|maximum|minimum|no fewer|not (?:less|more)|at least|may (?:appoint|have)|not exceeding|quorum|one or two|signed by)\b/i.test(
          s.text.slice(Math.max(0, m.index - 30), m.index + m[0].length),
        )
      )
        continue;
      if (/^\s*(?:who )?(?:resigned|retired|stood down|left|joined|were appointed|was appointed|were co-opted)\b/i.test(s.text.slice(m.index + m[0].length)))
        continue;
      const n = numberOf(m[1]);
      if (n && n >= 1 && n <= 40) return found(n, cite.sentence(s, re), "As the report states it (trustees are counted, never named).");
    }
  }
  return absent("how many trustees there are");
}

const FREQ = new RegExp(
  [
    "quarterly",
    "monthly",
    "bi-?monthly",
    "annually",
    "weekly",
    "fortnightly",
    "termly",
    "every (?:\\w+ )?(?:weeks?|months?|quarter|term)",
    "(?:once|twice|\\w+ times) (?:a|per|each|every|in the|during the|in each) (?:year|month|quarter|term)",
    "(?:on )?(?:\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (?:times|occasions)(?: during| in)?(?: the| this)? (?:year|period)",
    "at least (?:\\w+ )times (?:a|per|each) year",
  ].join("|"),
  "i",
);
const MEETS =
  /\b(?:trustees|board|committee|directors|council)\b[^.]{0,120}?\b(?:meets?|met)\b|\b(?:meets?|met)\b[^.]{0,80}\b(?:trustees|board|committee)\b|\b(?:held|holds|hold)\s+(?:\w+\s+){0,2}(?:board|trustee|trustees['’]?|committee)?\s*meetings\b/i;

function perYearOf(f: string): number | null {
  const t = f.toLowerCase();
  if (/quarter/.test(t) && !/every \w+ quarter/.test(t)) return /every quarter|quarterly/.test(t) ? 4 : null;
  if (/bi-?monthly/.test(t)) return 6;
  if (/monthly|every month/.test(t)) return 12;
  if (/annually|once a year|once per year/.test(t)) return 1;
  if (/weekly|every week/.test(t)) return 52;
  if (/fortnightly/.test(t)) return 26;
  if (/termly|every term/.test(t)) return 3;
  let m = /every (\w+) (weeks?|months?)/.exec(t);
  if (m) {
    const n = numberOf(m[1]);
    if (n) return Math.round(/week/.test(m[2]) ? 52 / n : 12 / n);
  }
  if (/twice/.test(t)) return /month/.test(t) ? 24 : 2;
  m = /(\w+) (?:times|occasions)/.exec(t);
  if (m) {
    const n = numberOf(m[1]);
    if (n) return /month/.test(t) ? n * 12 : /quarter/.test(t) ? n * 4 : n;
  }
  return null;
}

function meetingsOf(reading: Reading, cite: Citer, absent: Absent): Fact<{ frequency: string; perYear: number | null }> {
  for (const s of reading.find(MEETS)) {
    // The frequency close after "meet"/"met" ("who meet quarterly", "met five times during the year").
    const verb = /\b(?:meets?|met)\b/i.exec(s.text);
    const m = verb ? FREQ.exec(s.text.slice(verb.index, verb.index + 90)) : null;
    if (m) return found({ frequency: m[0].trim(), perYear: perYearOf(m[0]) }, cite.sentence(s, FREQ));
    const held = new RegExp(`\\b(?:held|holds|met on)\\s+${SMALL_NUM}\\s+(?:[a-z]+\\s+){0,2}(?:meetings|occasions)\\b`, "i").exec(s.text);
    if (held) return found({ frequency: held[0], perYear: numberOf(held[1]) }, cite.sentence(s, /held|holds|met on/i));
  }
  return absent("how often the trustees meet");
}

const EXAMINER_HEADING = /independent examiner|examiner['’]s report|auditors?['’]? report|report of the (?:independent )?auditors?|independent auditor/i;
const EXAMINER_TEXT =
  /\bI report (?:to the (?:charity['’]?s? )?trustees )?on my examination\b|\bwe have audited\b|\bmy examination of the (?:charity['’]s )?accounts\b|\bindependent examiner['’]s (?:report|statement)\b|\b(?:independent )?auditors?['’]? report to the (?:trustees|members)\b|\breport of the independent auditors?\b|\bI have examined\b/i;

function scrutinyOf(reading: Reading, items: Item[], cite: Citer, absent: Absent): Fact<Scrutiny> {
  const head = items.find((x) => !x.sentence && EXAMINER_HEADING.test(x.text) && !/\bappointment\b/i.test(x.text));
  const sent = reading.first(EXAMINER_TEXT);
  const kindOf = (t: string) => (/audit/i.test(t) && !/examin/i.test(t) ? "audit" : "independent_examination");
  if (head) return found(kindOf(head.text) as Scrutiny, cite.item(head));
  if (sent) return found(kindOf(sent.text) as Scrutiny, cite.sentence(sent, EXAMINER_TEXT));
  return absent("an independent examiner's or auditor's report");
}

/** The trustees' approval (or signing) date of the report or accounts. */
function approvalOf(reading: Reading, items: Item[], cite: Citer, yearEnd: string | null, absent: Absent): Fact<string> {
  const STRONG =
    /\b(?:approved|authori[sz]ed for issue|adopted)\b[^.]{0,20}?\bby the (?:board|trustees|committee|directors|members|management committee)\b|\bsigned (?:for and )?on (?:their |its )?behalf\b|\bon behalf of the (?:board|trustees|committee|charity|management committee)\b|\bdate of approval\b|\bsigned by (?:one or two )?trustees?\b|\b(?:report|accounts|financial statements) (?:were|was) approved\b|\bapproved (?:by the [a-z ]{3,30} )?on\b/i;
  const WEAK =
    /\b(?:approved|authori[sz]ed for issue|adopted)\b[^.]{0,80}?\b(?:trustees|board|committee|directors|members)\b|\b(?:trustees|board|committee|directors)\b[^.]{0,40}?\b(?:approved|authori[sz]ed)\b/i;
  let APPROVAL = STRONG;
  const after = (iso: string) => !yearEnd || iso > yearEnd;
  const pick = (it: Item): { iso: string; text: string } | null => {
    const ds = datesIn(it.text).filter((d) => d.precision === "day" && after(d.iso));
    if (!ds.length) return null;
    const m = APPROVAL.exec(it.text);
    const afterMatch = m ? ds.find((d) => d.index >= m.index) : null;
    return afterMatch ?? ds[ds.length - 1];
  };
  // In the examiner's or auditor's report, a date is theirs unless the sentence is the trustees' own approval.
  const examiner = (it: Item) => EXAMINER_HEADING.test(it.section.heading ?? "") && !/\b(?:trustees|board|committee|directors)\b/i.test(it.text);
  // 1. A sentence naming the approval with a date; 2. a date in the lines just after it (a signature block); 3. a signature section's date.
  for (const pass of [0, 1, 2]) {
    APPROVAL = pass === 1 ? WEAK : STRONG;
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (!APPROVAL.test(it.text) || (pass < 2 && examiner(it))) continue;
      const own = pick(it);
      if (own)
        return found(
          own.iso,
          cite.item(it, new RegExp(escapeRe(own.text))),
          examiner(it) ? "The date the examiner's or auditor's report was signed (the trustees' approval date was not found)." : null,
        );
      for (const next of items.slice(i + 1, i + 5)) {
        const d = pick(next);
        if (d && next.text.length < 160)
          return found(d.iso, cite.item(next, new RegExp(escapeRe(d.text))), "The date in the signature block after the approval statement.");
      }
    }
  }
  for (const it of items) {
    if (!/\bsignature|signed|date of approval\b/i.test(it.section.heading ?? "") || !it.sentence) continue;
    const d = pick(it);
    if (d && it.text.length < 160) return found(d.iso, cite.item(it, new RegExp(escapeRe(d.text))), "The date in the signature block.");
  }
  return absent("the date the trustees approved the report and accounts");
}

// ---------------------------------------------------------------------------------------------------------------
// Delivery
// ---------------------------------------------------------------------------------------------------------------

const ACTIVITY_SECTION =
  /activit|achievement|performance|our work|objectives|what we do|what we did|review of the year|highlights|projects?|programmes?|services|public benefit|impact|operations|year in review/i;
const ACTIVITY_VERBS =
  "provided|provides|provide|delivered|delivers|deliver|ran|runs|run|supported|supports|support|held|holds|organised|organises|funded|funds|awarded|offer|offers|offered|operated|operates|operate|opened|re-opened|hosted|hosts|launched|continued|worked|helped|helps|distributed|served|serves|trained|gave|made grants|matched|welcomed|reached|visited|hired|built|created|developed|expanded|established|completed|taught|published|campaigned|exists to|aims to";
const ACTIVITY_VERB = new RegExp(
  `\\b(?:we|the charity|the trust|the project|the centre|the hall|the foundation|our (?:team|volunteers|staff|service|services|[a-z-]+ (?:team|service|project|programme)))\\b[^.]{0,40}?\\b(?:${ACTIVITY_VERBS})\\b`,
  "i",
);
const ANY_ACTIVITY_VERB = new RegExp(`\\b(?:${ACTIVITY_VERBS})\\b`, "i");
const PEOPLE =
  "(?:people|persons|individuals|children|young people|youngsters|pupils|students|families|households|adults|older people|elderly people|residents|visitors|participants|beneficiaries|clients|service users|carers|refugees|women|men|girls|boys|patients|members of the public|learners|users|attendees|meals|food parcels|parcels)";
const BENEFICIARY_NUMBER = new RegExp(
  `\\b((?:over |more than |around |about |approximately |nearly |almost |some )?(\\d{1,3}(?:,\\d{3})+|\\d+|${Object.keys(NUMBER_WORDS).join("|")}))\\s+((?:(?:new|different|local|vulnerable|isolated|older|young|elderly|disadvantaged|unique|separate|individual|registered|emergency)\\s+){0,2}${PEOPLE})\\b`,
  "i",
);
const NOT_BENEFICIARY = /\b(?:staff|employees|trustees|volunteers|directors|members of staff)\b|\b(?:£|per cent|%)/i;
const FINANCE_SENTENCE =
  /\b(?:income|expenditure|reserves|funds|surplus|deficit|accounts|depreciation|financial statements|trustees|governed|articles|constitution)\b/i;

function deliveryOf(reading: Reading, cite: Citer, absent: Absent): CharityReport["delivery"] {
  const sentences = reading.doc.sentences.filter(
    (s) => s.text.length >= 40 && s.text.length <= 500 && /[a-z]{3}/.test(s.text) && (s.text.match(/\d[\d,]*/g)?.length ?? 0) <= 6,
  );
  const inActivity = (s: DocSentence) => !!s.section && ACTIVITY_SECTION.test(s.section) && !/financ|reserve|risk|governance|structure/i.test(s.section);
  const activityPicks = sentences.filter(
    (s) => !FINANCE_SENTENCE.test(s.text) && ((inActivity(s) && ANY_ACTIVITY_VERB.test(s.text)) || ACTIVITY_VERB.test(s.text)),
  );
  const ordered = [...activityPicks.filter(inActivity), ...activityPicks.filter((s) => !inActivity(s))].slice(0, 4).sort((a, b) => a.index - b.index);
  const activities = ordered.map((s) => ({ evidence: cite.sentence(s, ANY_ACTIVITY_VERB) }));

  const beneficiaries: BeneficiaryMention[] = [];
  let best: { count: number; s: DocSentence } | null = null;
  const all = new RegExp(BENEFICIARY_NUMBER.source, "gi");
  for (const s of sentences) {
    if (beneficiaries.length >= 5) break;
    const hits: { count: number; who: string; people: boolean }[] = [];
    for (let m = all.exec(s.text); m; m = all.exec(s.text)) {
      const around = s.text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 10);
      if (NOT_BENEFICIARY.test(around) || /\b(?:19|20)\d\d\b/.test(m[2])) continue;
      const count = numberOf(m[2]);
      if (count === null) continue;
      const who = m[3].toLowerCase();
      hits.push({ count, who, people: !/meals|parcels/.test(who) });
    }
    if (!hits.length) continue;
    const first = hits.find((h) => h.people) ?? hits[0];
    beneficiaries.push({ count: first.count, who: first.who, evidence: cite.sentence(s, BENEFICIARY_NUMBER) });
    for (const h of hits) if (h.people && (!best || h.count > best.count)) best = { count: h.count, s };
  }
  const peopleHelped: Fact<number> = best
    ? found(
        best.count,
        cite.sentence(best.s, BENEFICIARY_NUMBER),
        "The largest number of people stated (figures are not added up: the same people may be counted more than once).",
      )
    : absent("how many people the charity helped");
  return { activities, beneficiaries, peopleHelped };
}

// ---------------------------------------------------------------------------------------------------------------
// Flags
// ---------------------------------------------------------------------------------------------------------------

const GOING_CONCERN_DOUBT =
  /\bmaterial uncertaint(?:y|ies)\b|\b(?:significant|substantial|serious) doubts?\b|\bcasts? (?:significant )?doubt\b|\b(?:may|might) not be able to continue (?:as a going concern|operating|its (?:operations|activities))\b|\bnot (?:be )?a going concern\b/i;
const GOING_CONCERN_NEGATED =
  /\bno (?:material|significant)? ?uncertaint|\bnot aware of (?:any )?(?:material )?uncertaint|\b(?:are|is|were|was) no (?:material|significant)|\bthere (?:are|is) no\b[^.]{0,30}uncertaint|\bno (?:significant |serious |material )?doubts?\b|\bdo(?:es)? not (?:consider|believe|have)\b[^.]{0,60}\b(?:material uncertaint|doubt)|\bwithout (?:any )?material uncertaint|\bnot identified any material uncertaint|\bhave no concerns\b/i;
const QUALIFIED =
  /\bqualified (?:opinion|conclusion|report|independent examiner['’]s)|\bopinion is qualified\b|\bbasis for qualified\b|\bexcept for (?:the (?:possible )?effects? of )?(?:the |this )?(?:matters?|issues?|items?|limitation|absence|lack|failure)|\badverse (?:opinion|conclusion)\b|\bdisclaimer of (?:opinion|conclusion)\b|\bdo(?:es)? not express an (?:opinion|conclusion)\b|\bunable to (?:form|express|obtain sufficient)\b|\b(?:I|we) have (?:identified|found|come across|noted) the following matters?\b|\bfollowing matters? (?:has|have) come to (?:my|our) attention\b|\bmatters? (?:has|have) come to (?:my|our) attention\b(?![^.]{0,40}giving me)/i;
const QUALIFIED_NEGATED =
  /\bno (?:material |other )?matters?\b|\bnot (?:come|came) across any\b|\bunqualified\b|\bunmodified\b|\bnothing (?:has )?come to\b|\bno concerns\b/i;

function flagsOf(a: {
  reading: Reading;
  cite: Citer;
  income: Fact<Amount>;
  expenditure: Fact<Amount>;
  netIncome: Fact<Amount>;
  scrutiny: Fact<Scrutiny>;
  approvedOn: Fact<string>;
  financialYear: Fact<{ start: string | null; end: string }>;
  region: Regulator | null;
  today: string;
  absent: Absent;
  receiptsForm: boolean;
}): CharityReport["flags"] {
  const { reading, cite } = a;
  const [inWord, outWord] = a.receiptsForm ? ["receipts", "payments"] : ["income", "expenditure"];
  // Deficit: expenditure above income (or a negative net figure).
  let deficit: Fact<boolean>;
  if (a.income.value && a.expenditure.value) {
    const gap = a.expenditure.value.amount - a.income.value.amount;
    const year = a.income.value.yearEnded ? ` in the year ended ${longDate(a.income.value.yearEnded)}` : "";
    deficit = found(
      gap > 0,
      a.expenditure.evidence!,
      gap > 0
        ? `${outWord[0].toUpperCase()}${outWord.slice(1)} (${pounds(a.expenditure.value.amount)}) exceeded ${inWord} (${pounds(a.income.value.amount)}) by ${pounds(gap)}${year}.`
        : `${inWord[0].toUpperCase()}${inWord.slice(1)} (${pounds(a.income.value.amount)}) covered ${outWord} (${pounds(a.expenditure.value.amount)})${year}.`,
    );
  } else if (a.netIncome.value && a.netIncome.evidence) {
    deficit = found(a.netIncome.value.amount < 0, a.netIncome.evidence, `From the net figure (${pounds(a.netIncome.value.amount)}).`);
  } else deficit = notFound("Couldn't tell: income and expenditure were not both read.");
  let deficitExplained: Fact<boolean>;
  if (deficit.value !== true) deficitExplained = notFound(deficit.value === false ? "No deficit to explain." : "Couldn't tell whether there was a deficit.");
  else {
    const re =
      /\b(?:deficit|shortfall|(?:expenditure|spending|payments) (?:exceeded|was (?:greater|higher) than|outstripped) (?:income|receipts)|spent more than|(?:drew|draw|drawing|drawn) (?:down )?(?:on|from) (?:its |our |the )?(?:reserves|funds)|(?:use|used|using) (?:of )?(?:its |our |the )?reserves|funded from (?:its |our |the )?reserves|net (?:outgoing|expenditure) (?:of|was))\b/i;
    const why =
      /\b(?:because|due to|owing to|as a result|result(?:ed)? (?:of|from)|reflect(?:s|ed|ing)?|planned|budgeted|deliberate(?:ly)?|caused by|arose|timing|spent on|was used|were used|to fund|in line with|expected|one-off|received in (?:the )?(?:prior|previous|last) year|brought forward)\b/i;
    const s = reading.find(re).find((x) => why.test(x.text));
    deficitExplained = s ? found(true, cite.sentence(s, re)) : a.absent("an explanation of the deficit", false);
  }

  // Going concern.
  let goingConcern: Fact<boolean>;
  const gc = reading
    .find(GOING_CONCERN_DOUBT)
    .filter((s) => !GOING_CONCERN_NEGATED.test(s.text) && (/going concern|continue|doubt/i.test(s.text) || /going concern/i.test(s.section ?? "")));
  if (gc.length)
    goingConcern = found(
      true,
      cite.sentence(gc[0], GOING_CONCERN_DOUBT),
      "The report states a material uncertainty or doubt about the charity continuing as a going concern.",
    );
  else {
    const ok = reading.first([/going concern/i]);
    goingConcern = ok
      ? found(
          false,
          cite.sentence(ok, /going concern/i),
          GOING_CONCERN_NEGATED.test(ok.text) ? "The report says there is no material uncertainty." : "A going-concern statement with no doubt raised.",
        )
      : a.absent("any doubt about the charity continuing as a going concern", false);
  }

  // Qualified opinion: only in the examiner's or auditor's report.
  let qualifiedOpinion: Fact<boolean>;
  if (!a.scrutiny.value) qualifiedOpinion = notFound("Couldn't tell: the document has no independent examiner's or auditor's report.");
  else {
    const scope = (s: DocSentence) => EXAMINER_HEADING.test(s.section ?? "") || /\b(?:examin|audit|opinion|attention|accounting records)/i.test(s.text);
    const q = reading.find(QUALIFIED).filter((s) => scope(s) && !QUALIFIED_NEGATED.test(s.text));
    if (q.length)
      qualifiedOpinion = found(
        true,
        cite.sentence(q[0], QUALIFIED),
        `The ${a.scrutiny.value === "audit" ? "auditor" : "independent examiner"} reports matters, a qualification, an adverse opinion or a disclaimer.`,
      );
    else {
      const clean = reading.first(
        /\bno (?:material |other )?matters?\b[^.]*\b(?:attention|examination)|\bgive a true and fair view\b|\bin (?:my|our) opinion\b|\bno concerns\b/i,
      );
      qualifiedOpinion = clean
        ? found(
            false,
            cite.sentence(clean, /no (?:material |other )?matters?|true and fair|in (?:my|our) opinion|no concerns/i),
            "No qualification, matters, adverse opinion or disclaimer reported.",
          )
        : {
            value: false,
            evidence: a.scrutiny.evidence,
            note: "The examiner's or auditor's report was found with no qualification, matters, adverse opinion or disclaimer in it.",
          };
    }
  }

  // Late filing: approved after the regulator's filing deadline (10 months after the year end; 9 in Scotland).
  let lateFiling: Fact<boolean>;
  const yearEnd = a.financialYear.value?.end ?? null;
  const months = a.region === "oscr" ? 9 : 10;
  const regulatorName = a.region === "oscr" ? "OSCR's" : a.region === "ccni" ? "the Charity Commission for Northern Ireland's" : "the Charity Commission's";
  if (!yearEnd) lateFiling = notFound("Couldn't tell: the financial year end was not found.");
  else {
    const deadline = addMonths(yearEnd, months);
    if (a.approvedOn.value && a.approvedOn.evidence) {
      const approved = a.approvedOn.value;
      const gap = fullMonths(yearEnd, approved);
      const late = approved > deadline;
      lateFiling = found(
        late,
        a.approvedOn.evidence,
        late
          ? `Approved on ${longDate(approved)}, ${gap} months after the year end (${longDate(yearEnd)}): after ${regulatorName} filing deadline of ${months} months (${longDate(deadline)}). Accounts cannot be filed before they are approved, so they were filed late.`
          : `Approved on ${longDate(approved)}, ${gap} months after the year end (${longDate(yearEnd)}): within ${regulatorName} filing deadline of ${months} months (${longDate(deadline)}). When it was actually filed is not in the report.`,
      );
    } else
      lateFiling = notFound(
        `Couldn't tell: the report gives no approval date. The filing deadline (${months} months after the year end of ${longDate(yearEnd)}) ${a.today > deadline ? "was" : "is"} ${longDate(deadline)}${a.today > deadline ? ", which has passed" : ", not yet passed"}.`,
      );
  }
  return { deficit, deficitExplained, goingConcern, qualifiedOpinion, lateFiling };
}

// ---------------------------------------------------------------------------------------------------------------
// Transparency, gaps, facts
// ---------------------------------------------------------------------------------------------------------------

type Body = Omit<CharityReport, "transparency" | "funderGaps" | "facts">;

/** The 20 disclosures the transparency score counts, each worth 5 points. */
export const TRANSPARENCY_ITEMS: [string, (r: Body) => boolean][] = [
  ["charity name", (r) => r.charity.name.value !== null],
  ["charity number", (r) => r.charity.charityNumber.value !== null],
  ["financial year", (r) => r.charity.financialYear.value !== null],
  ["income", (r) => r.finances.income.value !== null],
  ["expenditure", (r) => r.finances.expenditure.value !== null],
  ["total funds", (r) => r.finances.funds.total.value !== null],
  ["funds by type", (r) => [r.finances.funds.unrestricted, r.finances.funds.restricted, r.finances.funds.endowment].some((f) => f.value !== null)],
  ["prior-year figures", (r) => [r.finances.income, r.finances.expenditure, r.finances.funds.total].some((f) => f.value?.priorYear)],
  ["free reserves figure", (r) => r.finances.reserves.value?.kind === "free_reserves"],
  ["reserves policy", (r) => r.governance.reservesPolicy.value === true],
  ["number of trustees", (r) => r.governance.trustees.value !== null],
  ["how often trustees meet", (r) => r.governance.meetings.value !== null],
  ["safeguarding policy", (r) => r.governance.safeguarding.value === true],
  ["conflicts of interest", (r) => r.governance.conflictsOfInterest.value === true],
  ["risk statement", (r) => r.governance.riskStatement.value === true],
  ["public benefit statement", (r) => r.governance.publicBenefit.value === true],
  ["activities described", (r) => r.delivery.activities.length > 0],
  ["beneficiary numbers", (r) => r.delivery.peopleHelped.value !== null],
  ["examiner's or auditor's report", (r) => r.governance.scrutiny.value !== null],
  ["approval date", (r) => r.governance.approvedOn.value !== null],
];
const POINTS = 100 / TRANSPARENCY_ITEMS.length;
export const TRANSPARENCY_FORMULA = `${TRANSPARENCY_ITEMS.length} disclosures, ${POINTS} points each (score = ${POINTS} × the number present, 0–100): ${TRANSPARENCY_ITEMS.map(([n]) => n).join("; ")}. An item is present when its field was found in the document.`;

function transparencyOf(r: Body): CharityReport["transparency"] {
  const components = TRANSPARENCY_ITEMS.map(([item, test]) => {
    const present = r.recognition.recognised && test(r);
    return { item, present, points: present ? POINTS : 0 };
  });
  return { score: components.reduce((s, c) => s + c.points, 0), formula: TRANSPARENCY_FORMULA, components };
}

function funderGapsOf(r: Body): string[] {
  if (!r.recognition.recognised) return [];
  const gaps: string[] = [];
  const f = r.finances;
  const g = r.governance;
  if (!f.income.value || !f.expenditure.value) gaps.push("No accounts figures: income and expenditure for the year are not both shown.");
  if (f.income.value && !f.income.value.priorYear && f.expenditure.value && !f.expenditure.value.priorYear)
    gaps.push("No prior-year figures to compare the year with.");
  if (g.reservesPolicy.value !== true) gaps.push("No reserves policy: how much the charity aims to hold in reserve, and why.");
  if (f.reserves.value?.kind !== "free_reserves") gaps.push("No free reserves figure (unrestricted funds not designated or tied up in fixed assets).");
  if (g.riskStatement.value !== true) gaps.push("No statement on the major risks the charity faces and how they are managed.");
  if (g.safeguarding.value !== true) gaps.push("No safeguarding policy mentioned.");
  if (g.conflictsOfInterest.value !== true) gaps.push("No mention of how trustees' conflicts of interest are declared and managed.");
  if (g.trustees.value === null || g.meetings.value === null)
    gaps.push(
      `How the board works is not fully described (${[g.trustees.value === null ? "how many trustees" : null, g.meetings.value === null ? "how often they meet" : null].filter(Boolean).join(", ")}).`,
    );
  if (!r.delivery.activities.length) gaps.push("No description of the charity's activities in the year.");
  if (r.delivery.peopleHelped.value === null) gaps.push("No beneficiary numbers: how many people the charity helped.");
  if (!g.scrutiny.value) {
    const inc = f.income.value?.amount ?? null;
    if (inc !== null && inc <= 25_000)
      gaps.push(
        `No independent examiner's or auditor's report (not required by law at this income, ${pounds(inc)}, but a funder may ask who checks the accounts).`,
      );
    else gaps.push("No independent examiner's or auditor's report in the document.");
  }
  if (r.flags.deficit.value === true && r.flags.deficitExplained.value !== true)
    gaps.push(`A deficit with no explanation in the report: ${r.flags.deficit.note ?? "expenditure exceeded income."}`);
  if (r.flags.goingConcern.value === true)
    gaps.push("The report states doubt (a material uncertainty) about the charity continuing as a going concern: how will it be resolved?");
  if (r.flags.qualifiedOpinion.value === true) gaps.push("The examiner's or auditor's report is qualified (matters reported): what has been done about them?");
  if (r.flags.lateFiling.value === true) gaps.push("The report was approved after the regulator's filing deadline: the accounts were filed late.");
  if (g.approvedOn.value === null) gaps.push("No date of approval by the trustees.");
  return gaps;
}

function factsOf(r: Body, t: CharityReport["transparency"]): string[] {
  const out: string[] = [];
  const c = r.charity;
  const f = r.finances;
  const g = r.governance;
  const year = c.financialYear.value ? `the year ended ${longDate(c.financialYear.value.end)}` : null;
  if (c.name.value || c.charityNumber.value) {
    // The number as the report gives it: whether the register lists it is the reply's `register`, not this sentence.
    const reg = c.regulator.value === "oscr" ? "Scottish charity" : c.regulator.value === "ccni" ? "Northern Ireland charity" : "charity";
    out.push(
      `${c.name.value ?? "The charity"}${c.charityNumber.value ? ` (${reg} number ${c.charityNumber.value}, as the report gives it)` : ""}${c.companyNumber.value ? `, company number ${c.companyNumber.value}` : ""}.`,
    );
  }
  if (c.financialYear.value)
    out.push(
      `Financial year: ${c.financialYear.value.start ? `${longDate(c.financialYear.value.start)} to ` : "ending "}${longDate(c.financialYear.value.end)}.`,
    );
  if (f.basis.value) out.push(`The accounts are ${f.basis.value === "accruals" ? "accruals accounts" : "receipts and payments accounts"}.`);
  const rp = f.basis.value === "receipts_and_payments";
  const money = (label: string, a: Fact<Amount>) => {
    if (!a.value) return;
    out.push(`${label}: ${pounds(a.value.amount)}${year ? ` in ${year}` : ""}${a.value.priorYear ? ` (prior year ${pounds(a.value.priorYear.amount)})` : ""}.`);
  };
  money(rp ? "Receipts" : "Income", f.income);
  money(rp ? "Payments" : "Expenditure", f.expenditure);
  if (f.netIncome.value)
    out.push(
      `Net result: ${f.netIncome.value.amount < 0 ? "a deficit of " : "a surplus of "}${pounds(Math.abs(f.netIncome.value.amount))}${year ? ` in ${year}` : ""}.`,
    );
  if (f.funds.total.value) out.push(`Total ${rp ? "cash funds" : "funds"} at the year end: ${pounds(f.funds.total.value.amount)}.`);
  const types = (["unrestricted", "restricted", "endowment", "designated"] as const)
    .filter((k) => f.funds[k].value)
    .map((k) => `${k} ${pounds(f.funds[k].value!.amount)}`);
  if (types.length) out.push(`Funds by type: ${types.join(", ")}.`);
  if (f.reserves.value?.kind === "free_reserves") out.push(`Free reserves: ${pounds(f.reserves.value.amount)}.`);
  if (g.trustees.value !== null) out.push(`The report states ${g.trustees.value} trustee${g.trustees.value === 1 ? "" : "s"}.`);
  if (g.meetings.value)
    out.push(
      `The trustees meet ${g.meetings.value.frequency}${g.meetings.value.perYear && !/times|occasions/i.test(g.meetings.value.frequency) ? ` (about ${g.meetings.value.perYear} times a year)` : ""}.`,
    );
  const named = [
    [g.safeguarding, "a safeguarding policy"],
    [g.conflictsOfInterest, "conflicts of interest"],
    [g.riskStatement, "a risk statement"],
    [g.reservesPolicy, "a reserves policy"],
    [g.publicBenefit, "public benefit"],
  ] as const;
  const has = named.filter(([x]) => x.value === true).map(([, n]) => n);
  const lacks = named.filter(([x]) => x.value === false).map(([, n]) => n);
  if (has.length) out.push(`The report covers ${has.join(", ")}.`);
  if (lacks.length) out.push(`It does not mention ${lacks.join(", ")}.`);
  if (g.scrutiny.value) out.push(`It includes ${g.scrutiny.value === "audit" ? "an auditor's report" : "an independent examiner's report"}.`);
  if (g.approvedOn.value) out.push(`Approved by the trustees on ${longDate(g.approvedOn.value)}.`);
  if (r.delivery.peopleHelped.value !== null) out.push(`People helped: ${pounds(r.delivery.peopleHelped.value).replace("£", "")} (the largest figure stated).`);
  if (r.flags.deficit.value === true) out.push(`Deficit: ${r.flags.deficit.note}${r.flags.deficitExplained.value ? " The report explains it." : ""}`);
  if (r.flags.goingConcern.value === true) out.push("Going concern: the report states a material uncertainty.");
  if (r.flags.qualifiedOpinion.value === true) out.push("The examiner's or auditor's report is qualified.");
  if (r.flags.lateFiling.value === true) out.push("Approved after the filing deadline: filed late.");
  out.push(`Transparency score: ${t.score}/100.`);
  return out;
}
