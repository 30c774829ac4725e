/**
 * The plain-English `summary` of a document reader's reply (issue 17 §2). The facts come from the deterministic
 * reader; a language model, where one is configured, may only phrase them. Its text is checked against the facts and
 * dropped for the facts' own wording when it states anything they do not: a number, a date, a name or a rating word.
 * Pure: the model sits behind the `Phraser` port (sources/ai/workersAi.ts).
 */

/** The one small interface a model sits behind. */
export interface Phraser {
  /** False where no model is configured: the summary is composed from the facts. */
  readonly available: boolean;
  /** Plain-English prose from the fact sentences, or null when the model could not answer. Never throws. */
  phrase(task: { document: string; facts: string[] }): Promise<string | null>;
}

export const noPhraser: Phraser = { available: false, phrase: async () => null };

export interface Summary {
  summary: string;
  /** `facts`: the extracted facts' own sentences; `model`: a model's wording of them, checked. */
  by: "facts" | "model";
}

/** The longest summary kept (a model's longer text is refused). */
const MAX_SUMMARY = 1_200;

/** The facts' sentences, joined: the summary when no model phrases them. */
export const composeSummary = (facts: string[]): string => (facts.length ? facts.join(" ") : "Nothing the reader looks for was found in the document.");

/** Rating, grade and verdict words: a summary may use one only where the facts do. */
const VERDICTS = [
  "outstanding",
  "good",
  "requires improvement",
  "inadequate",
  "exceptional",
  "strong standard",
  "expected standard",
  "needs attention",
  "urgent improvement",
  "not met",
  "met",
  "not effective",
  "effective",
  "ineffective",
  "meets",
  "does not meet",
  "compliant",
  "non-compliant",
  "qualified",
  "unqualified",
  "deficit",
  "surplus",
  "going concern",
  "warning notice",
  "special measures",
  "net zero",
  "carbon neutral",
  "director",
  "designated member",
  "partner",
];

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/[\s\u00a0]+/g, " ");

/** What a summary states that the facts do not; empty when it keeps to them. */
export function unsupportedClaims(summary: string, facts: string[]): string[] {
  const source = norm(facts.join(" "));
  const text = norm(summary);
  const out: string[] = [];
  // Every figure: amounts, years, counts, dates' digits (commas and £ aside).
  for (const n of summary.match(/\d[\d,.]*/g) ?? []) {
    const bare = n.replace(/[.,]+$/, "");
    if (!source.includes(bare) && !source.includes(bare.replace(/,/g, ""))) out.push(bare);
  }
  // Rating and verdict words.
  for (const v of VERDICTS) {
    const re = new RegExp(`\\b${v.replace(/ /g, "\\s")}\\b`);
    if (re.test(text) && !re.test(source)) out.push(v);
  }
  // Names: capitalised words not starting a sentence.
  for (const m of summary.matchAll(/(?<=[a-z,;:]\s)(\p{Lu}[\p{L}'-]+(?:\s\p{Lu}[\p{L}'-]+)*)/gu)) if (!source.includes(norm(m[1]))) out.push(m[1]);
  // A negation the facts do not have reverses a fact ("not effective", "no warning notice").
  for (const m of text.matchAll(/\b(not|no|never|without)\s+(\w+)/g)) if (!source.includes(m[0])) out.push(m[0]);
  return [...new Set(out)];
}

/** The reply's summary: the model's wording when it keeps to the facts, else the facts' own. */
export async function summarise(phraser: Phraser, document: string, facts: string[]): Promise<Summary> {
  const composed = { summary: composeSummary(facts), by: "facts" as const };
  if (!phraser.available || !facts.length) return composed;
  const phrased = (await phraser.phrase({ document, facts }))?.trim();
  if (!phrased || phrased.length > MAX_SUMMARY || unsupportedClaims(phrased, facts).length) return composed;
  return { summary: phrased, by: "model" };
}
