import { describe, expect, it } from "vitest";
import { type Phraser, composeSummary, summarise, unsupportedClaims } from "../../../src/services/documents/summary";

/** Issue 17 §2: a model may only word the facts; what it adds is caught and the facts' own sentences stand. */
const FACTS = [
  "Overall rating: Requires improvement (inspection of 12 and 13 March 2019).",
  "Safe: Inadequate. Well-led: Requires improvement.",
  "A warning notice was served under Regulation 12.",
];
const phraser = (text: string | null): Phraser & { calls: number } => {
  const p = { available: true, calls: 0, phrase: async () => (p.calls++, text) };
  return p;
};

describe("the summary", () => {
  it("without a model, is the facts' own sentences", async () => {
    expect(await summarise({ available: false, phrase: async () => "never asked" }, "a CQC report", FACTS)).toEqual({ summary: FACTS.join(" "), by: "facts" });
    expect(composeSummary([])).toMatch(/Nothing the reader looks for was found/);
  });

  it("a model's wording that keeps to the facts is used", async () => {
    const p = phraser(
      "The service was rated Requires improvement after the inspection of 12 and 13 March 2019; it was found Inadequate on safety and Requires improvement on leadership, and a warning notice was served under Regulation 12.",
    );
    const s = await summarise(p, "a CQC report", FACTS);
    expect(s.by).toBe("model");
    expect(p.calls).toBe(1);
  });

  it.each([
    ["a number the facts do not have", "The service was rated Requires improvement in 2021 after a warning notice under Regulation 12."],
    ["a rating the facts do not give", "The service is Good overall, though a warning notice was served under Regulation 12."],
    ["a reversed fact (a negation the facts lack)", "The service requires improvement; no warning notice was served."],
    ["a name the facts do not have", "The service, run by Sunrise Care Group, requires improvement."],
  ])("a model's wording that adds %s is refused, and the facts' sentences stand", async (_what, text) => {
    expect(unsupportedClaims(text, FACTS).length).toBeGreaterThan(0);
    expect(await summarise(phraser(text), "a CQC report", FACTS)).toEqual({ summary: FACTS.join(" "), by: "facts" });
  });

  it("no answer, or an overlong one, falls back to the facts", async () => {
    expect((await summarise(phraser(null), "x", FACTS)).by).toBe("facts");
    expect((await summarise(phraser("Requires improvement. ".repeat(80)), "x", FACTS)).by).toBe("facts");
  });
});
