/**
 * The summary writer over Workers AI (the `AI` binding), when it is configured: it is asked only to put the reader's
 * fact sentences into plain English. What it writes is checked against the facts by services/documents/summary.ts.
 * Any failure (no binding, an error, a time-out, an empty answer) is "no wording" and the facts' own sentences stand.
 */
import type { Phraser } from "../../services/documents/summary";

/** A small instruction model; the choice is a var (SUMMARY_MODEL). */
export const DEFAULT_SUMMARY_MODEL = "@cf/meta/llama-3.1-8b-instruct";
const TIMEOUT_MS = 6_000;

const INSTRUCTIONS =
  "You rewrite a list of facts about a document as one short plain-English paragraph for a busy reader. Use only the facts given: add no number, date, name, rating or opinion that is not in them, and drop none of the ratings or verdicts. Do not speculate. Answer with the paragraph only.";

interface AiBinding {
  run(model: string, input: { messages: { role: string; content: string }[]; max_tokens?: number }): Promise<unknown>;
}

export function workersAiPhraser(ai: AiBinding | undefined, model: string | undefined): Phraser {
  if (!ai) return { available: false, phrase: async () => null };
  return {
    available: true,
    async phrase({ document, facts }) {
      try {
        const answer = await Promise.race([
          ai.run(model || DEFAULT_SUMMARY_MODEL, {
            messages: [
              { role: "system", content: INSTRUCTIONS },
              { role: "user", content: `Document: ${document}\nFacts:\n${facts.map((f) => `- ${f}`).join("\n")}` },
            ],
            max_tokens: 400,
          }),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), TIMEOUT_MS)),
        ]);
        const text = answer && typeof answer === "object" && "response" in answer ? (answer as { response: unknown }).response : null;
        return typeof text === "string" && text.trim() ? text.trim() : null;
      } catch {
        return null;
      }
    },
  };
}
