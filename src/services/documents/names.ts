/**
 * The last guard against a person's name in a reader's reply (SPEC §1 rule 7): each reader takes names out of what
 * it quotes, by its own document's conventions; this pass over every quote and section heading of the reply catches
 * the two forms no reader may let through — a name after an honorific ("Mrs Jane Smith") and a name after a
 * signature label ("Signed: Jane Smith", "Print name: Jane Smith") — and a heading that is only a person's name.
 */
import { looksLikePerson } from "../matching/people";

const WORD = String.raw`\p{Lu}[\p{Ll}'’]+(?:-\p{Lu}[\p{Ll}'’]+)?`;
const HONORIFIC = new RegExp(String.raw`\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Sir|Dame)\.?\s+(?:\p{Lu}\.?\s+)*${WORD}(?:\s+${WORD}){0,2}`, "gu");
const SIGNED = new RegExp(String.raw`\b((?:signed|signature|print\s+name|name)\s*(?::|-|–)\s*)(${WORD}(?:\s+(?:\p{Lu}\.?\s+)?${WORD}){1,2})\b`, "giu");
/** Words after a signature label that are not a name. */
const NOT_NAME = /\b(?:director|manager|board|company|limited|ltd|llp|plc|trust|group|on|behalf|of|the|date|dated|position|title|chair|secretary|officer|partner|member|trustee)\b/i;

export function redactPeople(text: string): string {
  return text.replace(HONORIFIC, "[name]").replace(SIGNED, (all, label: string, name: string) => (NOT_NAME.test(name) ? all : `${label}[name]`));
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
