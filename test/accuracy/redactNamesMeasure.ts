/**
 * The measure test/accuracy/redactNames.accuracy.test.ts takes of a name redactor over a corpus: which people's names
 * it takes out (wholly, or only in part) and how many runs of words it takes out that are not anyone's name. Pure (no
 * fetch): the test reads the documents and hands their lines here.
 */
import type { Doc } from "../../src/services/documents/document";
import { REAL_PEOPLE, TITLE_WORDS, WORD, cyrb53, wordKey } from "./redactNamesTruth";

/** A line as a reader quotes it: a sentence (with its section's heading) or a heading. */
export interface Line {
  text: string;
  heading: boolean;
  /** The heading of the section the sentence is in ("" for none; the heading itself for a heading). */
  section: string;
  /** People's names in the line, as [start, end) offsets, when the corpus says where they are (the CQC register). */
  people?: [number, number][];
}

export interface CorpusDoc {
  file: string;
  lines: Line[];
  /** The parsed document (null for lines made from a register's rows). */
  doc: Doc | null;
}

export interface Corpus {
  name: string;
  kind: Kind;
  docs: CorpusDoc[];
}

export type Kind = "cqc" | "ofsted" | "charity" | "modernSlavery" | "carbonPlan";

/** A redactor as a reader applies it: to a sentence and to a heading, knowing the document. */
export interface Redactor {
  name: string;
  quote(text: string, line: Line, doc: CorpusDoc): string;
  heading(text: string, line: Line, doc: CorpusDoc): string;
}

/** The lines of a document: each heading, then its section's sentences. */
export function linesOf(doc: Doc): Line[] {
  const out: Line[] = [];
  for (const sec of doc.sections) {
    if (sec.heading) out.push({ text: sec.heading, heading: true, section: sec.heading });
    for (let i = sec.first; i < sec.end; i++) out.push({ text: doc.sentences[i].text, heading: false, section: sec.heading ?? "" });
  }
  return out;
}

/** The [start, end) ranges of `input` that `output` replaced by "[name]" (spaces may differ); null when the two do not align. */
export function spansOf(input: string, output: string): [number, number][] | null {
  if (input === output) return [];
  const parts = output.split("[name]");
  if (parts.length === 1 || parts.length > 12) return null;
  const esc = (s: string) =>
    [...s.replace(/\s+/g, "")]
      .map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .map((c) => `${c}\\s*`)
      .join("");
  const re = new RegExp(`^\\s*${parts.map(esc).join("(.+?)\\s*")}$`, "sd");
  const m = re.exec(input);
  if (!m?.indices) return null;
  const out: [number, number][] = [];
  for (let g = 1; g < m.length; g++) {
    const [a, b] = m.indices[g]!;
    const s = input.slice(a, b);
    const lead = s.length - s.trimStart().length;
    out.push([a + lead, a + s.trimEnd().length]);
  }
  return out;
}

/** The people's names in a line: runs of one to four words that are a fixture person's name or a real person's (hashed). */
export function peopleIn(text: string, fixturePeople: ReadonlySet<string>): [number, number][] {
  const words: { key: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(WORD)) {
    // A name run into the next word by a PDF ("Oliver TressFounder"): split where a small letter meets a capital.
    let from = 0;
    for (const cut of m[0].matchAll(/(?<=\p{Ll})(?=\p{Lu}\p{Ll})/gu)) {
      if (/^(?:Mc|Mac|O['’]|D['’]|De|Di|Le|La|Van|Von)$/.test(m[0].slice(from, cut.index))) continue;
      words.push({ key: wordKey(m[0].slice(from, cut.index)), start: m.index + from, end: m.index + cut.index });
      from = cut.index;
    }
    words.push({ key: wordKey(m[0].slice(from)), start: m.index + from, end: m.index + m[0].length });
  }
  const out: [number, number][] = [];
  for (let i = 0; i < words.length; i++) {
    if (TITLE_WORDS.has(words[i].key)) continue;
    for (let n = 4; n >= 1; n--) {
      if (i + n > words.length) continue;
      const key = words
        .slice(i, i + n)
        .map((w) => w.key)
        .join(" ");
      if (fixturePeople.has(key) || REAL_PEOPLE.has(cyrb53(key))) {
        out.push([words[i].start, words[i + n - 1].end]);
        break;
      }
    }
  }
  return out;
}

/** Words of a name that must go for it to be gone (not a title, not "and"/"&", not "Partners"). */
const NOT_NAME_PART = new Set([...TITLE_WORDS, "and", "partners", "jnr", "snr"]);

export interface Measure {
  /** People's names (occurrences) in the corpus. */
  people: number;
  /** Occurrences wholly taken out (every word of the name inside a run replaced by "[name]"). */
  names: number;
  /** Occurrences partly taken out (some word left). */
  partial: number;
  /** Runs taken out that hold no part of anyone's name, and what they were. */
  falseRuns: number;
  falseTexts: Map<string, number>;
  /** Outputs that could not be aligned with their input (counted as neither). */
  unaligned: number;
  /** Ids of the occurrences wholly taken out ("doc:line:start"). */
  removed: Set<string>;
  /** Ids of every occurrence, with its text. */
  occurrences: Map<string, string>;
}

export function measure(corpus: Corpus, r: Redactor, fixturePeople: ReadonlySet<string>): Measure {
  const m: Measure = { people: 0, names: 0, partial: 0, falseRuns: 0, falseTexts: new Map(), unaligned: 0, removed: new Set(), occurrences: new Map() };
  corpus.docs.forEach((d, di) => {
    d.lines.forEach((line, li) => {
      const people = line.people ?? peopleIn(line.text, fixturePeople);
      const out = line.heading ? r.heading(line.text, line, d) : r.quote(line.text, line, d);
      const spans = spansOf(line.text, out);
      for (const [a, b] of people) m.occurrences.set(`${di}:${li}:${a}`, line.text.slice(a, b));
      m.people += people.length;
      if (spans === null) {
        m.unaligned++;
        return;
      }
      const inSpan = (a: number, b: number) => spans.some(([x, y]) => a >= x && b <= y);
      for (const [a, b] of people) {
        const parts = [...line.text.slice(a, b).matchAll(WORD)].filter((w) => !NOT_NAME_PART.has(wordKey(w[0])));
        const gone = parts.filter((w) => inSpan(a + w.index, a + w.index + w[0].length)).length;
        if (parts.length && gone === parts.length) {
          m.names++;
          m.removed.add(`${di}:${li}:${a}`);
        } else if (gone) m.partial++;
      }
      for (const [x, y] of spans)
        if (!people.some(([a, b]) => a < y && x < b)) {
          m.falseRuns++;
          const t = line.text.slice(x, y);
          m.falseTexts.set(t, (m.falseTexts.get(t) ?? 0) + 1);
        }
    });
  });
  return m;
}
