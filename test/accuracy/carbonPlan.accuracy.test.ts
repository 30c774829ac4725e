import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import { type CarbonPlanPartKey, CRP_PARTS, checkCarbonPlan } from "../../src/services/documents/carbonPlan";
import { type Doc, docFromHtml, docFromPdf, docFromText } from "../../src/services/documents/document";
import { Reading } from "../../src/services/documents/evidence";
import { readPdf } from "../../src/sources/documents/pdf";

/**
 * Issue 17 §5, third bullet: the eight carbon reduction plan parts on the four real plans in ../shared/corpora,
 * against answers written by hand from reading each plan (goal ≥ 90% of the 32 parts). `today` is fixed at
 * 2026-11-25, so the two older plans (2021, 2023) rightly fail `updatedWithinYear`.
 *
 * The hand answers, and why:
 * - Apexiar (PDF, published 28/06/2026): net zero by 2050; baseline (1 Oct 2025 – 28 Jun 2026) and current year tables
 *   in tCO2e; Scope 1 and 2 reported as 0; Scope 3 categories 1, 5, 6, 7, 8 reported, 4 and 9 "excluded where they are
 *   not applicable" → not reported; projects completed and planned; signed by the Chief Technology Officer, with the
 *   board's sign-off statement (a chief officer is board-level); dated within 12 months.
 * - EDAN UK (PDF, published 30 January 2023): net zero by 2035 (earlier counts); baseline 2022 in tCO2e; the current
 *   reporting year is stated to be the baseline year (a first plan), so current emissions are the baseline table;
 *   Scope 1 and Scope 2 (market- and location-based); Scope 3 list: fuel and energy (3), business travel (6),
 *   transportation and distribution upstream and downstream (4, 9), employee commuting (7), operational waste (5);
 *   projects; the signature block is signed by a Company Secretary and approved by the "Executive Team" → not a
 *   director; 2023 → not updated within a year.
 * - Planned Ltd (HTML, published 11 August 2026): every part, categories 4, 5, 6, 7 and 9 each stated; signed by the
 *   Director.
 * - Register Dynamics (markdown, December 2021): net zero by 2050; baseline 2021 table in tCO2e; no current year
 *   reporting; Scope 1 and 2 in the table; Scope 3 only as a total (no categories); projects; "signed off by the board
 *   of directors" (no role given); 2021 → not updated.
 */
const TODAY = "2026-11-25";

type Hand = Record<CarbonPlanPartKey, boolean> & { scope3Found: string[] };
const all = (v: boolean) => Object.fromEntries(CRP_PARTS.map((k) => [k, v])) as Record<CarbonPlanPartKey, boolean>;

const PLANS: { file: string; read: (b: Uint8Array) => Promise<Doc>; hand: Hand }[] = [
  {
    file: "apexiar-crp.pdf",
    read: async (b) => docFromPdf(await readPdf(b)),
    hand: { ...all(true), scope3Categories: false, scope3Found: ["1", "5", "6", "7", "8"] },
  },
  {
    file: "edan-uk-crp-2023.pdf",
    read: async (b) => docFromPdf(await readPdf(b)),
    hand: { ...all(true), directorSignOff: false, updatedWithinYear: false, scope3Found: ["3", "4", "5", "6", "7", "9"] },
  },
  {
    file: "planned-ltd-crp.html",
    read: async (b) => docFromHtml(new TextDecoder().decode(b)),
    hand: { ...all(true), scope3Found: ["4", "5", "6", "7", "9"] },
  },
  {
    file: "register-dynamics-crp.md",
    read: async (b) => docFromText(new TextDecoder().decode(b)),
    hand: { ...all(true), currentYearEmissions: false, scope3Categories: false, updatedWithinYear: false, scope3Found: [] },
  },
];

describe.skipIf(!SHARED_PRESENT)("accuracy: carbon reduction plan parts against hand answers (../shared/corpora)", () => {
  it("≥ 90% of the 32 parts agree with the hand answers; Scope 3 categories found are logged", async () => {
    let agree = 0;
    let total = 0;
    const disagreements: string[] = [];
    for (const plan of PLANS) {
      const bytes = new Uint8Array(await (await fetch(`http://shared.test/corpora/carbon-reduction-plans/${plan.file}`)).arrayBuffer());
      const report = checkCarbonPlan(new Reading(await plan.read(bytes)), { today: TODAY });
      for (const k of CRP_PARTS) {
        total++;
        if (report.parts[k].found === plan.hand[k]) agree++;
        else disagreements.push(`${plan.file} ${k}: hand ${plan.hand[k] ? "found" : "not found"}, checker ${report.parts[k].status} (${report.parts[k].note})`);
      }
      const s3 = report.scope3Found.join(",") === plan.hand.scope3Found.join(",");
      console.log(
        `ACCURACY crp-scope3 ${plan.file} ${s3 ? "agrees" : "differs"}: checker [${report.scope3Found.join(", ")}], hand [${plan.hand.scope3Found.join(", ")}]`,
      );
    }
    const pct = Math.round((agree / total) * 1000) / 10;
    console.log(`ACCURACY crp-parts ${agree}/${total} ${pct}%`);
    for (const d of disagreements) console.log(`ACCURACY crp-parts disagreement: ${d}`);
    expect(total).toBe(32);
    expect(agree / total).toBeGreaterThanOrEqual(0.9);
  });
});
