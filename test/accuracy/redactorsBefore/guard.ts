/**
 * A frozen copy of a name redactor as it was before issue 31 unified them (services/documents/names.ts redactNames),
 * kept only as the baseline test/accuracy/redactNames.accuracy.test.ts measures the unified redactor against. Copied
 * verbatim from src/services/documents/names.ts at commit 174ca49 (only `export` added where a
 * name was otherwise unused); not used by the service.
 */
import { looksLikePerson } from "../../../src/services/matching/people";

const WORD = String.raw`\p{Lu}[\p{Ll}'’]+(?:-\p{Lu}[\p{Ll}'’]+)?`;
const HONORIFIC = new RegExp(String.raw`\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Sir|Dame)\.?\s+(?:\p{Lu}\.?\s+)*${WORD}(?:\s+${WORD}){0,2}`, "gu");
const SIGNED = new RegExp(String.raw`\b((?:signed|signature|print\s+name|name)\s*(?::|-|–)\s*)(${WORD}(?:\s+(?:\p{Lu}\.?\s+)?${WORD}){1,2})\b`, "giu");
/** Words after a signature label that are not a name. */
const NOT_NAME =
  /\b(?:director|manager|board|company|limited|ltd|llp|plc|trust|group|on|behalf|of|the|date|dated|position|title|chair|secretary|officer|partner|member|trustee)\b/i;

/** What makes a name after a label an organisation's: "Supplier name: Northwold Facilities Services Ltd". */
const ORG_LABEL = /\b(?:supplier|company|organi[sz]ation|business|charity|service|school|provider|trading|registered|legal|brand|product|file)\s+$/i;
const ORG_AFTER = /^\s*(?:ltd|limited|llp|plc|lp|cic|cio|group|trust|services|partners|&|and\s+co)\b/i;

export function redactPeople(text: string): string {
  return text
    .replace(HONORIFIC, "[name]")
    .replace(SIGNED, (all, label: string, name: string, at: number, whole: string) =>
      NOT_NAME.test(name) || ORG_LABEL.test(whole.slice(Math.max(0, at - 30), at)) || ORG_AFTER.test(whole.slice(at + all.length)) ? all : `${label}[name]`,
    );
}

/** A section heading: "[name]" when it is a person's name, else redacted as text. */
export const redactHeadingOf = (heading: string): string => (looksLikePerson(heading.trim(), "standalone") ? "[name]" : redactPeople(heading));

/** Every `quote` and `section` string in a reply, redacted (a copy). */
export function redactQuotes<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redactQuotes) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "quote" && typeof v === "string") out[k] = redactPeople(v);
      else if (k === "section" && typeof v === "string") out[k] = redactHeadingOf(v);
      else out[k] = redactQuotes(v);
    }
    return out as T;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------------------
// The engine the readers take names out with, each with its own words: a name is a run of capitalised words that are
// not one of the reader's words (roles, organisations' words, a report's labels).

export interface NameWords {
  /** A word that may be (part of) a person's name: capitalised, or an initial, and not one of the reader's own words. */
  isNameWord(word: string): boolean;
  /** Words after a name that make it an organisation's ("… School", "… Trust", "… Limited"). */
  orgNext?: RegExp;
}

/**
 * Replaces, after each match of `lead`, a run of `min`–4 capitalised name words (a person's name) by "[name]" — not
 * when an organisation's word follows it (a school named after a person). With `withLead`, the lead (a title: "Mrs")
 * goes too.
 */
export function nameAfter(text: string, lead: RegExp, names: NameWords, opts: { min?: number; withLead?: boolean } = {}): string {
  const min = opts.min ?? 2;
  const withLead = opts.withLead ?? false;
  const { isNameWord, orgNext } = names;
  let out = "";
  let last = 0;
  const re = new RegExp(lead.source, lead.flags.includes("g") ? lead.flags : lead.flags + "g");
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index < last) continue; // inside a name already taken out ("Professor Sir …")
    const start = m.index + m[0].length;
    const rest = text.slice(start);
    const gap = /^[\s,:]*/.exec(rest)![0];
    const words: string[] = [];
    let pos = gap.length;
    for (const w of rest.slice(gap.length).split(/(?=\s)/)) {
      // A word's trailing punctuation is not the name's, except an initial's full stop ("A.").
      const t = w.trim().replace(/(?<=\p{L}{2,})[.,;:]$|[,;:]$/u, "");
      if (words.length >= 4 || !t || !isNameWord(t)) break;
      words.push(t);
      pos += w.length - (w.trim().length - t.length);
      if (t.length < w.trim().length) break;
    }
    if (words.length >= min && !(orgNext?.test(rest.slice(pos)) ?? false)) {
      out += withLead ? text.slice(last, m.index) + "[name]" : text.slice(last, start) + gap + "[name]";
      last = start + pos;
    }
    if (m[0].length === 0) re.lastIndex++;
  }
  return out + text.slice(last);
}

/** Replaces a run of 2–4 capitalised name words just before each match of `trail` ("…, lead inspector") by "[name]". */
export function nameBefore(text: string, trail: RegExp, { isNameWord }: NameWords): string {
  const re = new RegExp(trail.source, trail.flags.includes("g") ? trail.flags : trail.flags + "g");
  const cuts: [number, number][] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(0, m.index).replace(/[\s,]+$/, "");
    const words = before.split(/\s+/);
    let n = 0;
    while (n < 4 && n < words.length && isNameWord(words[words.length - 1 - n])) n++;
    if (n >= 2) {
      const name = words.slice(words.length - n).join(" ");
      const at = before.lastIndexOf(name);
      if (at >= 0) cuts.push([at, at + name.length]);
    }
    if (m[0].length === 0) re.lastIndex++;
  }
  let out = text;
  for (const [a, b] of cuts.sort((x, y) => y[0] - x[0])) out = out.slice(0, a) + "[name]" + out.slice(b);
  return out;
}
