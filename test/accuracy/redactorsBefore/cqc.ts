/**
 * A frozen copy of a name redactor as it was before issue 31 unified them (services/documents/names.ts redactNames),
 * kept only as the baseline test/accuracy/redactNames.accuracy.test.ts measures the unified redactor against. Copied
 * verbatim from src/services/documents/cqc.ts at commit 174ca49 (only `export` added where a
 * name was otherwise unused); not used by the service.
 */
import { type NameWords, nameAfter, nameBefore } from "./guard";

// ---------------------------------------------------------------------------------------------------------------------
// Privacy: no person's name in anything given.

const STOP_AFTER_LABEL = new Set([
  "The",
  "This",
  "That",
  "There",
  "They",
  "She",
  "He",
  "We",
  "Our",
  "A",
  "An",
  "And",
  "Of",
  "In",
  "On",
  "Is",
  "Was",
  "Has",
  "Had",
  "Told",
  "Said",
  "Who",
  "Since",
  "From",
  "For",
  "At",
  "To",
  "Good",
  "Outstanding",
  "Inadequate",
  "Requires",
  "Not",
  "No",
  "None",
  "Vacant",
  "Care",
  "Service",
  "Services",
  "Registered",
  "Manager",
  "Provider",
  "Regulation",
  "Safe",
  "Effective",
  "Caring",
  "Responsive",
  "Well",
]);
/** Words that are never (part of) a person's name in a CQC report: roles, the regulator's and services' words. */
const NOT_NAME = new Set([
  "Chief",
  "Deputy",
  "Inspector",
  "Director",
  "Manager",
  "Registered",
  "Care",
  "Quality",
  "Commission",
  "Limited",
  "Ltd",
  "Service",
  "Services",
  "Healthcare",
  "Hospital",
  "Trust",
  "Partners",
  "Practice",
  "Surgery",
]);
/** A capitalised word (not all capitals) or an initial that may be part of a person's name. */
const CQC_NAMES: NameWords = {
  isNameWord: (w) => /^\p{Lu}\.?$/u.test(w) || (!NOT_NAME.has(w) && !STOP_AFTER_LABEL.has(w) && /^\p{Lu}[\p{Ll}'’-]+(?:-\p{Lu}[\p{Ll}'’-]+)?$/u.test(w)),
};
const HONORIFIC = /\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof(?:essor)?|Sir|Dame|Lord|Lady)\.?(?=\s+\p{Lu})/gu;
/** Role labels a person's name may follow ("Registered manager: …", "Signed …", "Name: …"); matched case-insensitively, the name after it case-sensitively. */
const LABEL =
  /\b(?:registered\s+manager|home\s+manager|service\s+manager|nominated\s+individual|responsible\s+individual|lead\s+inspector|inspector|signed|signature)\b(?:\s*[:–-]\s*|\s*,\s*|\s+)|\bname\s*[:–-]\s*/gi;
const CHIEF = /\s*,?\s*(?:Deputy\s+)?Chief\s+Inspector\b/g;

/** Whether a text starts with a person's name (two to four name words). */
export const startsWithName = (text: string): boolean => nameAfter(`:${text}`, /^:/, CQC_NAMES, { min: 2 }) !== `:${text}`;

/** A quote with any person's name replaced by "[name]": after an honorific, after a role label, before "Chief Inspector" (services/documents/names.ts). */
export function redactNames(text: string): string {
  let t = nameAfter(text, HONORIFIC, CQC_NAMES, { min: 1, withLead: true });
  t = nameAfter(t, LABEL, CQC_NAMES, { min: 2 });
  return nameBefore(t, CHIEF, CQC_NAMES);
}
