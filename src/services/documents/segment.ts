/**
 * Blocks into headed sections and sentences, each sentence keeping the page it came from. The readers find their
 * passages here and quote them.
 */
import type { Block } from "./blocks";

export interface Sentence {
  text: string;
  page?: number;
}

export interface Section {
  /** The heading the section sits under; null for text before the first heading. */
  heading: string | null;
  level: number;
  page?: number;
  sentences: Sentence[];
}

/** Abbreviations a full stop does not end a sentence after (lower case, without the stop). */
const ABBREVIATIONS = new Set([
  "ltd",
  "co",
  "no",
  "nos",
  "inc",
  "plc",
  "llp",
  "corp",
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "st",
  "rd",
  "ave",
  "e.g",
  "i.e",
  "etc",
  "vs",
  "approx",
  "dept",
  "est",
  "fig",
  "jan",
  "feb",
  "mar",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
  "ref",
  "reg",
  "regs",
  "s",
  "ss",
  "para",
  "cf",
  "al",
  "u.k",
  "p",
]);

/** Splits text into sentences: after . ! ? followed by a space and a capital, a digit or a quote, not after an abbreviation, an initial or inside a number. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  const t = text.replace(/\s+/g, " ").trim();
  let start = 0;
  const re = /[.!?]["'”’)]*\s+(?=["'“‘(]?[\p{Lu}\d•])/gu;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    const lastWord = lastWordBefore(t, start, m.index).toLowerCase();
    if (t[m.index] === "." && (ABBREVIATIONS.has(lastWord.replace(/\.$/, "")) || /^\p{L}$/u.test(lastWord))) continue;
    out.push(t.slice(start, m.index + m[0].trimEnd().length).trim());
    start = m.index + m[0].length;
  }
  const rest = t.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

const WORD_CHAR = /^[\p{L}.]$/u;

/**
 * The letters and dots just before `end` (back to `start` at most), as `/([\p{L}.]+)$/u` finds them in
 * `t.slice(start, end)`: read backwards from `end`, so that a text of many stops that end no sentence ("A. A. A.")
 * is not read again from its start at every stop.
 */
function lastWordBefore(t: string, start: number, end: number): string {
  let i = end;
  while (i > start) {
    const low = t.charCodeAt(i - 1);
    const pair = low >= 0xdc00 && low <= 0xdfff && i - 2 >= start && t.charCodeAt(i - 2) >= 0xd800 && t.charCodeAt(i - 2) <= 0xdbff;
    const ch = pair ? t.slice(i - 2, i) : t[i - 1];
    if (!WORD_CHAR.test(ch)) break;
    i -= ch.length;
  }
  return t.slice(i, end);
}

/** Blocks into sections: a heading opens one; text blocks' sentences fill it. */
export function sectionsOf(blocks: Block[]): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  for (const b of blocks) {
    if (b.kind === "heading") {
      current = { heading: b.text, level: b.level ?? 2, ...(b.page ? { page: b.page } : {}), sentences: [] };
      sections.push(current);
      continue;
    }
    if (!current) {
      current = { heading: null, level: 0, ...(b.page ? { page: b.page } : {}), sentences: [] };
      sections.push(current);
    }
    for (const s of sentences(b.text)) current.sentences.push(b.page ? { text: s, page: b.page } : { text: s });
  }
  return sections;
}
