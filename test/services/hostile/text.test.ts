import { describe, expect, it } from "vitest";
import { textCases } from "../../../scripts/hostile/html.mjs";
import { checkCarbonPlan } from "../../../src/services/documents/carbonPlan";
import { readCharityReport } from "../../../src/services/documents/charityReport";
import { readCqcReport } from "../../../src/services/documents/cqc";
import { docFromText } from "../../../src/services/documents/document";
import { Reading } from "../../../src/services/documents/evidence";
import { readModernSlavery } from "../../../src/services/documents/modernSlavery";
import { redactQuotes } from "../../../src/services/documents/names";
import { readOfstedReport } from "../../../src/services/documents/ofsted";
import { datesIn } from "../../../src/services/documents/values";
import { sentences } from "../../../src/services/documents/segment";
import { cpuNow } from "../../support/cpuClock";

/**
 * Issue 29 §1, text given directly (POST `text`, up to 1,000,000 characters): each reader answers well within its
 * 30 s limit for the hostile texts of scripts/hostile/html.mjs and for the shapes that were quadratic before (each
 * measured at 1,000,000 characters in Node before the fix: a sentence of dates 94 s (charity-report) and 107 s
 * (crp-check), "A. " repeated over 10 minutes (sentence splitting), "1.1." and "A’" repeated hours (modern-slavery's
 * legal names)). The bounds are generous: they catch a hang, not a slow machine.
 */
const TODAY = "2026-11-25";
const READERS: [string, (r: Reading) => unknown][] = [
  ["modern-slavery", (r) => readModernSlavery(r, { today: TODAY })],
  ["ofsted-report", (r) => readOfstedReport(r, { today: TODAY })],
  ["cqc-report", (r) => readCqcReport(r, { today: TODAY })],
  ["charity-report", (r) => readCharityReport(r, { today: TODAY })],
  ["crp-check", (r) => checkCarbonPlan(r, { today: TODAY })],
];
const N = 1_000_000;
const fill = (s: string) => s.repeat(Math.ceil(N / s.length)).slice(0, N);
const CASES: { name: string; text: string }[] = [
  ...textCases(),
  { name: "a sentence of 66,000 dates", text: fill("1 January 2020 ") },
  { name: "'A. ' repeated (stops that end no sentence)", text: fill("A. ") },
  { name: "'1.1.' repeated (one token)", text: fill("1.1.") },
  { name: "'A’' repeated (one token)", text: fill("A’") },
];

describe("each reader answers every hostile text in time (the service, as the POST operation calls it)", () => {
  for (const c of CASES)
    it(c.name, () => {
      let t0 = cpuNow();
      const doc = docFromText(c.text);
      const times: Record<string, number> = { docFromText: cpuNow() - t0 };
      for (const [name, read] of READERS) {
        t0 = cpuNow();
        const report = redactQuotes(read(new Reading(doc))) as { facts: string[] };
        times[name] = cpuNow() - t0;
        expect(Array.isArray(report.facts), name).toBe(true);
      }
      for (const [name, ms] of Object.entries(times)) expect(ms, `${name} took ${Math.round(ms)} ms`).toBeLessThan(15_000);
    }, 120_000);
});

describe("the pieces that were quadratic give the same answers", () => {
  it("datesIn: dates that overlap are taken once, the earlier pattern first", () => {
    expect(datesIn("On 2026-02-23 and 23 February 2026, also 23/02/2026 and February 2026; not 31 February 2026.").map((d) => [d.iso, d.text])).toEqual([
      ["2026-02-23", "2026-02-23"],
      ["2026-02-23", "23 February 2026"],
      ["2026-02-23", "23/02/2026"],
      ["2026-02", "February 2026"],
      ["2026-02", "February 2026"],
    ]);
  });

  it("sentences: a stop after an initial or an abbreviation ends no sentence, read back from the stop", () => {
    expect(sentences("Signed by J. Smith, Director of Acme Ltd. On 1 June. The board approved it. 𝐀. Next one.")).toEqual([
      "Signed by J. Smith, Director of Acme Ltd. On 1 June.",
      "The board approved it.",
      "𝐀. Next one.",
    ]);
  });
});
