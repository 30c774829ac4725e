/**
 * Finding and quoting passages (issue 17 §1 steps 4–5). Every factual field a reader gives carries the passage it
 * came from (and the page, for a PDF), or says it couldn't tell. A `Reading` remembers which passages were cited, for
 * the reply's `read.passages`. Pure.
 */
import type { Doc, DocSection, DocSentence } from "./document";
import { peopleOf, redactNames } from "./names";

/** The passage a fact comes from. */
export interface Evidence {
  /** The sentence, quoted (shortened around the match with "…" when long). */
  quote: string;
  /** PDF page (1-based); null for HTML and text. */
  page: number | null;
  /** The heading of the section it is in; null before the first heading. */
  section: string | null;
}

/**
 * A fact: its value and the passage it rests on, or `value` null with `evidence` null and a `note` saying why
 * (couldn't tell). `note` may also qualify a found value.
 */
export interface Fact<T> {
  value: T | null;
  evidence: Evidence | null;
  note: string | null;
}

export const found = <T>(value: T, evidence: Evidence, note: string | null = null): Fact<T> => ({ value, evidence, note });
export const notFound = <T>(note: string): Fact<T> => ({ value: null, evidence: null, note });

/** The longest quote given. */
export const MAX_QUOTE = 320;

/** Shortens a sentence to `max` characters around what matched. */
export function quoteOf(text: string, match?: RegExp, max = MAX_QUOTE): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  const m = match ? new RegExp(match.source, match.flags.replace("g", "")).exec(t) : null;
  const centre = m ? m.index + m[0].length / 2 : 0;
  let start = Math.max(0, Math.round(centre - max / 2));
  const end = Math.min(t.length, start + max);
  start = Math.max(0, end - max);
  // Whole words at the cut ends.
  let q = t.slice(start, end);
  if (start > 0) q = "…" + q.replace(/^\S*\s/, "");
  if (end < t.length) q = q.replace(/\s\S*$/, "") + "…";
  return q;
}

export interface FindOptions {
  /** Only sentences in sections whose heading matches. */
  inSection?: RegExp;
  /** Skip sentences that match this. */
  not?: RegExp;
  /** At most this many (default: all). */
  limit?: number;
}

const anyOf = (re: RegExp | RegExp[]) => (Array.isArray(re) ? re : [re]).map((r) => new RegExp(r.source, r.flags.replace("g", "")));

export class Reading {
  private readonly used = new Set<number>();
  private peopleFound: readonly string[] | null = null;
  constructor(readonly doc: Doc) {}

  /**
   * People's names the document's layout shows (a name on a line of its own over a role line, under "Signed", in a
   * list of trustees: names.ts peopleOf), read once. Readers pass them to redactNames as `known`, so a name goes from
   * every quote and heading, wherever the document repeats it.
   */
  get people(): readonly string[] {
    if (!this.peopleFound) {
      const lines: string[] = [];
      for (const sec of this.doc.sections) {
        if (sec.heading) lines.push(sec.heading);
        for (let i = sec.first; i < sec.end; i++) lines.push(this.doc.sentences[i].text);
      }
      this.peopleFound = peopleOf(lines);
    }
    return this.peopleFound;
  }

  /** Sentences (in document order) matching any of the patterns. Headings are matched as part of their section's first sentence's context only through `inSection`. */
  find(re: RegExp | RegExp[], opts: FindOptions = {}): DocSentence[] {
    const res = anyOf(re);
    const not = opts.not ? anyOf(opts.not) : [];
    const out: DocSentence[] = [];
    for (const s of this.doc.sentences) {
      if (opts.inSection && !(s.section && opts.inSection.test(s.section))) continue;
      if (!res.some((r) => r.test(s.text)) || not.some((r) => r.test(s.text))) continue;
      out.push(s);
      if (opts.limit && out.length >= opts.limit) break;
    }
    return out;
  }

  /** The first sentence matching, or null. */
  first(re: RegExp | RegExp[], opts: FindOptions = {}): DocSentence | null {
    return this.find(re, { ...opts, limit: 1 })[0] ?? null;
  }

  /** Sections whose heading matches. */
  sections(heading: RegExp): DocSection[] {
    return this.doc.sections.filter((s) => s.heading !== null && heading.test(s.heading));
  }

  /** The sentences of a section. */
  sentencesOf(section: DocSection): DocSentence[] {
    return this.doc.sentences.slice(section.first, section.end);
  }

  /** Whether the full text (headings included) mentions it anywhere. */
  mentions(re: RegExp): boolean {
    return new RegExp(re.source, re.flags.replace("g", "")).test(this.doc.text);
  }

  /** The sentence as evidence (shortened around `match`), remembered as a passage used. */
  cite(s: DocSentence, match?: RegExp): Evidence {
    this.used.add(s.index);
    return { quote: quoteOf(s.text, match), page: s.page, section: s.section };
  }

  /** A heading as evidence (e.g. a grade table's row read as a heading). */
  citeHeading(section: DocSection): Evidence {
    if (section.end > section.first) this.used.add(section.first);
    return { quote: quoteOf(section.heading ?? ""), page: section.page, section: section.heading };
  }

  /** The passages cited, grouped by section in document order: the section's heading ("[name]" when it is a person's name), its page(s) and how many of its sentences were quoted. */
  passages(): { section: string | null; pages: number[]; sentences: number }[] {
    const out: { section: string | null; pages: number[]; sentences: number }[] = [];
    for (const sec of this.doc.sections) {
      let n = 0;
      const pages = new Set<number>();
      for (let i = sec.first; i < sec.end; i++)
        if (this.used.has(i)) {
          n++;
          const p = this.doc.sentences[i].page;
          if (p !== null) pages.add(p);
        }
      // A signer's name often stands on its own line and is read as a heading: never given (SPEC §1 rule 7).
      const section = sec.heading === null ? null : redactNames(sec.heading, { line: true, known: this.people });
      if (n) out.push({ section, pages: [...pages].sort((a, b) => a - b), sentences: n });
    }
    return out;
  }
}
