import { SHARED_PRESENT } from "../support/shared";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { docFromHtml, docFromPdf, docFromText } from "../../src/services/documents/document";
import { Reading } from "../../src/services/documents/evidence";
import { type ModernSlaveryReport, type TrainingAudience, readModernSlavery } from "../../src/services/documents/modernSlavery";
import { InputError } from "../../src/shared/errors";
import { readPdf } from "../../src/sources/documents/pdf";

/**
 * Issue 17 §5, measured on real documents (`npm run accuracy`):
 *
 * 1. Agreement with the WikiRate / Walk Free "MSA training (revised)" human label on 213 real statements
 *    (../shared/corpora/modern-slavery/wikirate-msa-training-labels-with-text.csv, column `Text`, label `Value`).
 *    Primary: training reported (any label but "No") against not ("No"); the reader reports training when its
 *    training score is 1 or more or training is in development. Goal ≥ 90%. Per audience (Employees (all),
 *    Procurement / purchasing, Leadership, Suppliers, Recruitment / HR): agreement on whether the label names it.
 *    Two rows have no statement text (a 404 page, an empty cell) and count as read: they are disagreements.
 * 2. Approval and signature on the six statements checked by hand (../shared/corpora/modern-slavery/statements):
 *    all correct. EDAN's is signed by a UK General Manager, who is not a director.
 */
const TODAY = "2026-11-25";
const read = (doc: ReturnType<typeof docFromText>) => readModernSlavery(new Reading(doc), { today: TODAY });
const pct = (a: number, b: number) => ((100 * a) / b).toFixed(1);

const AUDIENCES: [string, TrainingAudience][] = [
  ["Employees (all)", "all_employees"],
  ["Procurement / purchasing", "procurement"],
  ["Leadership", "leadership"],
  ["Suppliers", "suppliers"],
  ["Recruitment / HR", "recruitment_hr"],
];

describe.skipIf(!SHARED_PRESENT)("modern slavery statements: accuracy on real documents", () => {
  it("agrees with the WikiRate training label on at least 90% of the 213 statements", async () => {
    const csv = await (await fetch("http://shared.test/corpora/modern-slavery/wikirate-msa-training-labels-with-text.csv")).text();
    const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
    expect(rows.length).toBe(213);
    let agree = 0;
    const byAudience = new Map<TrainingAudience, { agree: number; labelled: number; found: number; both: number }>();
    for (const row of rows) {
      const labels = row.Value.split(",").map((v) => v.trim());
      const training = read(docFromText(row.Text)).areas.training;
      const reported = !labels.includes("No");
      if (reported === (training.score >= 1 || training.inDevelopment)) agree++;
      for (const [label, key] of AUDIENCES) {
        const a = byAudience.get(key) ?? { agree: 0, labelled: 0, found: 0, both: 0 };
        const l = labels.includes(label);
        const o = training.audiences.includes(key);
        if (l === o) a.agree++;
        if (l) a.labelled++;
        if (o) a.found++;
        if (l && o) a.both++;
        byAudience.set(key, a);
      }
    }
    for (const [label, key] of AUDIENCES) {
      const a = byAudience.get(key)!;
      console.log(
        `ACCURACY modern-slavery wikirate-training-audience ${key} ${a.agree}/${rows.length} ${pct(a.agree, rows.length)}% (label "${label}" on ${a.labelled}, reader ${a.found}, both ${a.both})`,
      );
    }
    console.log(`ACCURACY modern-slavery wikirate-training ${agree}/${rows.length} ${pct(agree, rows.length)}%`);
    expect(agree / rows.length).toBeGreaterThanOrEqual(0.9);
  });

  it("reads approval and signature right on all six hand-checked statements", async () => {
    const bytes = async (f: string) => new Uint8Array(await (await fetch(`http://shared.test/corpora/modern-slavery/statements/${f}`)).arrayBuffer());
    const html = async (f: string) => docFromHtml(new TextDecoder().decode(await bytes(f)));
    const pdf = async (f: string) => docFromPdf(await readPdf(await bytes(f)));
    /** Checked by hand: who approved (the body, as s.54(6) classes it), who signed (the role as written), and whether it qualifies. */
    const expected: {
      file: string;
      load: () => Promise<ModernSlaveryReport | "unreadable">;
      approvedBy: string | null;
      role: string | null;
      qualifies: boolean | null;
      verdict: string | null;
    }[] = [
      {
        file: "cwiri-mss-2026.html",
        load: async () => read(await html("cwiri-mss-2026.html")),
        approvedBy: "board_of_directors",
        role: "Director",
        qualifies: true,
        verdict: "meets",
      },
      {
        file: "planned-ltd-modern-slavery.html",
        load: async () => read(await html("planned-ltd-modern-slavery.html")),
        approvedBy: "board_of_directors",
        role: "Director",
        qualifies: true,
        verdict: "meets",
      },
      {
        file: "wildfig-research-mss.html",
        load: async () => read(await html("wildfig-research-mss.html")),
        approvedBy: null,
        role: null,
        qualifies: null,
        verdict: "does_not_meet",
      },
      {
        file: "edan-uk-mss-2024.pdf",
        load: async () => read(await pdf("edan-uk-mss-2024.pdf")),
        approvedBy: null,
        role: "UK General Manager",
        qualifies: false,
        verdict: "does_not_meet",
      },
      {
        file: "ridgestone-developments-mss.pdf",
        load: async () => read(await pdf("ridgestone-developments-mss.pdf")),
        approvedBy: "board_of_directors",
        role: "Founder & CEO",
        qualifies: false,
        verdict: "does_not_meet",
      },
      {
        file: "edan-uk-mss-older-no-text-layer.pdf",
        load: () =>
          pdf("edan-uk-mss-older-no-text-layer.pdf").then(read, (e: unknown) =>
            e instanceof InputError && e.code === "unreadable_input" ? "unreadable" : Promise.reject(e),
          ),
        approvedBy: null,
        role: null,
        qualifies: null,
        verdict: null,
      },
    ];
    const wrong: string[] = [];
    for (const x of expected) {
      const r = await x.load();
      if (r === "unreadable") {
        if (x.verdict !== null) wrong.push(`${x.file}: refused as unreadable`);
        continue;
      }
      const got = {
        approvedBy: r.approval.value?.by ?? null,
        role: r.signature.value?.role ?? null,
        qualifies: r.signature.value?.qualifies ?? null,
        verdict: r.signOff.verdict,
      };
      const want = { approvedBy: x.approvedBy, role: x.role, qualifies: x.qualifies, verdict: x.verdict };
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${x.file}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
    }
    console.log(`ACCURACY modern-slavery sign-off ${expected.length - wrong.length}/${expected.length}`);
    expect(wrong).toEqual([]);
  });
});
