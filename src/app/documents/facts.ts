/**
 * The schemas every document reader's reply shares: a quoted passage (`Evidence`) and a fact with its evidence or
 * "couldn't tell" (`fact(...)`), mirroring services/documents/evidence.ts.
 */
import { z } from "@hono/zod-openapi";

export const Evidence = z
  .object({
    quote: z.string().describe("The sentence the answer rests on, quoted from the document (shortened with … around the match when long)."),
    page: z.number().int().nullable().describe("The PDF page it is on (1-based); null for a web page or text."),
    section: z.string().nullable().describe("The heading of the section it is in; null before the first heading."),
  })
  .openapi("DocumentEvidence");

/**
 * A fact read from the document: `value` with the passage it rests on, or `value` null, `evidence` null and a `note`
 * saying the reader couldn't tell.
 */
export const fact = <T extends z.ZodType>(value: T, describe: string) =>
  z
    .object({
      value: value.nullable().describe(`${describe} Null when the reader couldn't tell.`),
      evidence: Evidence.nullable().describe("The passage the value rests on; null when it couldn't tell."),
      note: z.string().nullable().describe("Why it couldn't tell, or what qualifies the value; null otherwise."),
    })
    .describe(describe);
