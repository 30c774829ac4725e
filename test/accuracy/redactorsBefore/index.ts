/**
 * The name redactors as they were before issue 31 (frozen copies beside this file), as test/accuracy/redactNames.accuracy.test.ts
 * runs them: each alone, and each reader's as its replies got it (the reader's own redactor, then the last guard every
 * reply passed through, names.ts redactQuotes: redactPeople on a quote, redactHeadingOf on a section heading).
 */
import type { Kind, Redactor } from "../redactNamesMeasure";
import { scrubber } from "./carbonPlan";
import { redactHeading as charityHeading, redactNames as charityNames } from "./charity";
import { redactNames as cqcNames } from "./cqc";
import { redactHeadingOf, redactPeople } from "./guard";
import { scrubHeading, scrubNames } from "./modernSlavery";
import { redactNames as ofstedNames, sectionName } from "./ofsted";

/** The carbon plan's scrubber without the names its reader found in the sign-off block (a reading of the document, not a redactor). */
const crp = scrubber([]);

export const BEFORE: Redactor[] = [
  { name: "guard", quote: (t) => redactPeople(t), heading: (t) => redactHeadingOf(t) },
  { name: "cqc", quote: (t) => cqcNames(t), heading: (t) => cqcNames(t) },
  { name: "ofsted", quote: (t) => ofstedNames(t), heading: (t) => sectionName(t) },
  { name: "charity", quote: (t, l) => charityNames(t, l.section), heading: (t) => charityHeading(t) },
  { name: "modernSlavery", quote: (t) => scrubNames(t, { cautious: true }), heading: (t) => scrubHeading(t) },
  { name: "carbonPlan", quote: (t) => crp(t), heading: (t) => crp(t) },
];

const byName = (n: string) => BEFORE.find((r) => r.name === n)!;
const piped = (kind: string): Redactor => {
  const own = byName(kind);
  return {
    name: `${kind}+guard`,
    quote: (t, l, d) => redactPeople(own.quote(t, l, d)),
    heading: (t, l, d) => redactHeadingOf(own.heading(t, l, d)),
  };
};

/** Each reader's redaction as its replies had it: its own redactor, then the guard. */
export const BEFORE_READER: Record<Kind, Redactor> = {
  cqc: piped("cqc"),
  ofsted: piped("ofsted"),
  charity: piped("charity"),
  modernSlavery: piped("modernSlavery"),
  carbonPlan: piped("carbonPlan"),
};
