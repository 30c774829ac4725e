import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { makePdf } from "../../../scripts/fixtures/make-pdf.mjs";
import {
  type CarbonPlanReport,
  CRP_PARTS,
  checkCarbonPlan,
  compareOrganisation,
  looksLikePlan,
  readingWithOrganisation,
  relateNames,
} from "../../../src/services/documents/carbonPlan";
import { type Doc, docFromHtml, docFromPdf, docFromText } from "../../../src/services/documents/document";
import { Reading } from "../../../src/services/documents/evidence";
import { planLinks, rankedPlanLinks, siteIdentity } from "../../../src/services/documents/planLinks";
import { readPdf } from "../../../src/sources/documents/pdf";

/**
 * Issue 17 §4: the carbon reduction plan check (SPEC §2.4) — the eight template parts, found / not found / couldn't
 * tell, each with its passage; form only, never the figures (SPEC §1 rule 5); signers' names never output. Real plans
 * first (../shared/corpora, skipped without it), then our fixtures (test/fixtures/documents/crp), then edge cases.
 */
const TODAY = "2026-11-25";
const shared = async (p: string) => new Uint8Array(await (await fetch(`http://shared.test/corpora/${p}`)).arrayBuffer());
const fixture = async (f: string) => new Uint8Array(await (await fetch(`http://files.test/documents/crp/${f}`)).arrayBuffer());
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const check = (doc: Doc, today = TODAY) => {
  const reading = new Reading(doc);
  return { report: checkCarbonPlan(reading, { today }), reading };
};
/** found (Y), not found (-), couldn't tell (?) for the eight parts, in SPEC order. */
const shape = (r: CarbonPlanReport) => CRP_PARTS.map((k) => ({ found: "Y", not_found: "-", couldnt_tell: "?" })[r.parts[k].status]).join("");

/** What every report must hold, whatever the document. */
function invariants(r: CarbonPlanReport, names: string[] = []) {
  expect(Object.keys(r.parts)).toEqual([...CRP_PARTS]);
  for (const k of CRP_PARTS) {
    const p = r.parts[k];
    expect(p.found, k).toBe(p.status === "found");
    if (p.status === "couldnt_tell") expect(p.note, k).toMatch(/^Couldn't tell:/);
    if (p.status === "found") expect(p.evidence?.quote, k).toBeTruthy();
  }
  expect(r.partsTotal).toBe(8);
  expect(r.partsMet).toBe(CRP_PARTS.filter((k) => r.parts[k].found).length);
  expect(r.meetsTemplate).toBe(r.partsMet === 8);
  expect(r.gaps).toHaveLength(8 - r.partsMet);
  expect(r.reading).toMatch(/form only.*never whether its figures are right/);
  expect(r.scope3Found).toEqual([...r.scope3Found].sort((a, b) => Number(a) - Number(b)));
  for (const c of r.scope3Found) expect(Number(c)).toBeGreaterThanOrEqual(1), expect(Number(c)).toBeLessThanOrEqual(15);
  expect(r.facts).toContain(`Template parts met: ${r.partsMet} of 8${r.partsMet === 8 ? " (meets the template)" : ""}.`);
  if (r.company.value) expect(r.facts).toContain(`Supplier: ${r.company.value}.`);
  // Signers are never named (a role yes, a name no).
  const json = JSON.stringify(r);
  for (const n of names) expect(json, n).not.toContain(n);
}

describe.skipIf(!SHARED_PRESENT)("real carbon reduction plans (../shared/corpora)", () => {
  it("Apexiar (PDF, PPN 006 template): 7 of 8 — Scope 3 categories 4 and 9 are excluded as not applicable; signed by the CTO", async () => {
    const { report: r } = check(docFromPdf(await readPdf(await shared("carbon-reduction-plans/apexiar-crp.pdf"))));
    invariants(r, ["Paul Bishop", "Bishop"]);
    expect(shape(r)).toBe("YYYY-YYY");
    expect(r.company).toMatchObject({ value: "Apexiar Limited", evidence: { page: 1 } });
    expect(r.planDate).toMatchObject({ value: "2026-06-28", evidence: { page: 1 } });
    expect(r.scope3Found).toEqual(["1", "5", "6", "7", "8"]);
    // The excluded list names 4 and 9 (and 10–15): they are not counted as reported.
    expect(r.parts.scope3Categories.note).toMatch(/4 and 9 are not reported \(4 and 9 stated as excluded/);
    expect(r.gaps[0]).toMatch(/categories 4 \(upstream transportation and distribution\), 9 \(downstream/);
    // "Chief Technology Of f icer": the PDF split the ligature; still a chief officer.
    expect(r.parts.directorSignOff).toMatchObject({
      found: true,
      note: expect.stringMatching(/Chief Technology Officer/),
      evidence: { page: 3, quote: expect.stringContaining("Name: [name] Position: Chief Technology") },
    });
    expect(r.parts.currentYearEmissions.evidence).toMatchObject({ page: 2, section: "Current Emissions Reporting" });
    expect(r.parts.netZeroBy2050.note).toBe("The plan commits to net zero by 2050.");
  });

  it("EDAN UK (PDF, 2023): net zero by 2035 counts; Scope 2 market- and location-based; signed by a Company Secretary (not a director); out of date", async () => {
    const { report: r, reading } = check(docFromPdf(await readPdf(await shared("carbon-reduction-plans/edan-uk-crp-2023.pdf"))));
    invariants(r, ["Margaret Juby", "Juby"]);
    expect(reading.doc.text).toContain("Margaret Juby"); // the name is in the document…
    expect(shape(r)).toBe("YYYYYY--");
    expect(r.company.value).toBe("EDAN UK");
    // Published 30 January 2023; the signature under the block is dated a year later: the publication date, and said.
    expect(r.planDate).toMatchObject({ value: "2023-01-30", note: "The sign-off is dated 31 January 2024; the publication date is used." });
    expect(r.parts.netZeroBy2050.note).toMatch(/net zero by 2035, earlier than 2050/);
    expect(r.parts.scope1and2.note).toMatch(/market- and location-based/);
    // The category list under "Scope 3 including:", not the categories the projects table says are still missing.
    expect(r.scope3Found).toEqual(["3", "4", "5", "6", "7", "9"]);
    expect(r.parts.scope3Categories.evidence?.quote).toMatch(/Transportation & Distribution \(Upstream & Downstream\)/);
    // A first plan: the current reporting year is the baseline year, and says so.
    expect(r.parts.currentYearEmissions.note).toMatch(/current reporting year is its baseline year/);
    // …but not in the reply: the role is, the name is replaced.
    expect(r.parts.directorSignOff).toMatchObject({
      found: false,
      status: "not_found",
      note: expect.stringMatching(/Company Secretary, which is not a director/),
    });
    expect(r.parts.directorSignOff.evidence).toMatchObject({ page: 10, quote: "[name] Company Secretary 31st January 2024" });
    expect(r.parts.updatedWithinYear.note).toBe("Dated 30 January 2023, more than 12 months before 25 November 2026.");
    expect(r.gaps).toEqual([
      expect.stringMatching(/signed off by a director .*Company Secretary/),
      expect.stringMatching(/Publish an updated plan: this one is dated 30 January 2023/),
    ]);
  });

  it("Planned Ltd (HTML, PPN 06/21 layout): meets the template; table cells read across; the director's name is not output", async () => {
    const { report: r } = check(docFromHtml(text(await shared("carbon-reduction-plans/planned-ltd-crp.html"))));
    invariants(r, ["Akingbenga", "Ibiyode"]);
    expect(shape(r)).toBe("YYYYYYYY");
    expect(r).toMatchObject({ meetsTemplate: true, partsMet: 8, gaps: [], company: { value: "Planned Limited" }, planDate: { value: "2026-08-11" } });
    expect(r.scope3Found).toEqual(["4", "5", "6", "7", "9"]);
    expect(r.parts.scope1and2.evidence?.quote).toBe("Scope 1 0 Scope 2 0.39");
    expect(r.parts.directorSignOff.evidence?.quote).toBe("Signed on behalf of Planned Limited [name] Director 11 August 2026");
    expect(r.reading).toMatch(/^Planned Limited's carbon reduction plan \(dated 11 August 2026\) has 8 of the 8 parts .*: it meets the template\./);
  });

  it("Register Dynamics (markdown, 2021): no current year emissions, Scope 3 only as a total; the board signed it off (no role given)", async () => {
    const { report: r } = check(docFromText(text(await shared("carbon-reduction-plans/register-dynamics-crp.md"))));
    invariants(r, ["Simon Worthington", "Worthington"]);
    expect(shape(r)).toBe("YY-Y-YY-");
    expect(r.company.value).toBe("Register Dynamics");
    expect(r.scope3Found).toEqual([]);
    expect(r.parts.scope3Categories.note).toMatch(/No Scope 3 categories are reported/);
    expect(r.parts.baselineYearEmissions.note).toBe("Baseline year 2021, with baseline emissions in tCO2e.");
    expect(r.parts.directorSignOff.note).toMatch(/signed off by the board of directors; the signer's role is not given/);
    expect(r.planDate.value?.slice(0, 7)).toBe("2021-12");
    expect(r.reading).toMatch(/^Register Dynamics' carbon reduction plan/);
  });

  it("a modern slavery statement is not a carbon reduction plan: every part couldn't tell, no crash", async () => {
    const { report: r, reading } = check(docFromHtml(text(await shared("modern-slavery/statements/cwiri-mss-2026.html"))));
    expect(looksLikePlan(reading)).toBe(false);
    invariants(r);
    expect(shape(r)).toBe("????????");
    expect(r.reading).toMatch(/^This document does not read as a carbon reduction plan/);
  });

  it("planLinks from a real page: Planned Ltd's statement page links to its carbon reduction plan in the footer", async () => {
    const html = text(await shared("modern-slavery/statements/planned-ltd-modern-slavery.html"));
    expect(planLinks(html, "https://plannedltd.co.uk/modern-slavery")).toEqual(["https://plannedltd.co.uk/carbon-reduction-plan"]);
    // The plan page itself reads as a plan; the statement page does not.
    expect(looksLikePlan(new Reading(docFromHtml(html)))).toBe(false);
    expect(looksLikePlan(new Reading(docFromHtml(text(await shared("carbon-reduction-plans/planned-ltd-crp.html")))))).toBe(true);
  });
});

describe("our fixtures (test/fixtures/documents/crp)", () => {
  it("a complete plan (PDF, three pages, emission tables as lines): all eight parts, each on its page", async () => {
    const bytes = await fixture("complete-plan.pdf");
    // The PDF is made from its lines: they cannot drift apart.
    const pages = JSON.parse(text(await fixture("complete-plan.pages.json"))) as string[][];
    expect(bytes).toEqual(makePdf(pages));
    const { report: r } = check(docFromPdf(await readPdf(bytes)));
    invariants(r, ["Alexandra Whitcombe", "Whitcombe"]);
    expect(shape(r)).toBe("YYYYYYYY");
    expect(r).toMatchObject({ company: { value: "Northwold Facilities Services Ltd" }, planDate: { value: "2026-10-14" }, meetsTemplate: true });
    expect(r.scope3Found).toEqual(["1", "4", "5", "6", "7", "9"]);
    expect(r.parts.baselineYearEmissions).toMatchObject({
      note: "Baseline year 1 April 2023 - 31 March 2024, with baseline emissions in tCO2e.",
      evidence: { page: 1 },
    });
    expect(r.parts.currentYearEmissions).toMatchObject({
      note: "Reporting year 1 April 2025 - 31 March 2026, with emissions in tCO2e.",
      evidence: { page: 2 },
    });
    expect(r.parts.reductionProjects.evidence?.page).toBe(2);
    expect(r.parts.directorSignOff).toMatchObject({ note: expect.stringMatching(/^Signed off by the Managing Director/), evidence: { page: 3 } });
    // The running footer on every page is not read as text.
    expect(JSON.stringify(r)).not.toMatch(/Page \d of 3/);
  });

  it("only Scope 3 categories 6 and 7: scope3Categories not found, the gap names 4, 5 and 9; an Office Manager's signature does not count", async () => {
    const { report: r } = check(docFromText(text(await fixture("scope3-six-seven-only.md"))));
    invariants(r, ["Dominic Feltham", "Feltham"]);
    expect(shape(r)).toBe("YYYY-Y-Y");
    expect(r.scope3Found).toEqual(["6", "7"]);
    expect(r.parts.scope3Categories.note).toBe("Scope 3 categories 4, 5 and 9 are not reported; categories reported: 6, 7.");
    expect(r.gaps[0]).toMatch(/^Report Scope 3 categories 4 \(upstream transportation and distribution\), 5 \(waste generated in operations\), 9 \(downstream/);
    // Categories 4 and 5 named only as targets ("will be measured from next year") are not reported.
    expect(r.parts.directorSignOff).toMatchObject({
      status: "not_found",
      note: "Signed by the Office Manager, which is not a director or equivalent board-level role.",
    });
    expect(r.reading).toMatch(/Missing: Scope 3 categories 4, 5 and 9 \(of the required 4, 5, 6, 7 and 9\) and sign-off by a director\./);
  });

  it("a month alone as the date: its last day, said so; the update judged at both ends of the month", async () => {
    const doc = docFromText(text(await fixture("scope3-six-seven-only.md")));
    const { report: r } = check(doc);
    expect(r.planDate).toMatchObject({ value: "2026-09-30", note: "Only the month is given (September 2026); its last day is used." });
    expect(r.facts).toContain("Plan dated 30 September 2026 (month only given).");
    expect(r.parts.updatedWithinYear.status).toBe("found");
    // 15 September 2027: 12 months after 1 September 2026 but not after 30 September 2026.
    expect(check(doc, "2027-09-15").report.parts.updatedWithinYear).toMatchObject({
      status: "couldnt_tell",
      note: expect.stringMatching(/^Couldn't tell: the plan is dated only by month \(September 2026\)/),
    });
    expect(check(doc, "2027-11-01").report.parts.updatedWithinYear.status).toBe("not_found");
  });

  it("carbon neutral by 2030 is not net zero; the government department 'for Energy Security and Net Zero' is no commitment", async () => {
    const { report: r } = check(docFromHtml(text(await fixture("carbon-neutral-2030.html"))));
    invariants(r, ["Priya Ramaswamy", "Ramaswamy"]);
    expect(shape(r)).toBe("-YYYYYYY");
    expect(r.parts.netZeroBy2050).toMatchObject({
      status: "not_found",
      note: expect.stringMatching(/carbon neutrality, which is not net zero/),
      evidence: { quote: expect.stringContaining("carbon neutral by 2030") },
    });
    expect(r.gaps).toEqual([expect.stringMatching(/carbon neutral target .* is not a net zero commitment/)]);
    expect(r.parts.directorSignOff.evidence?.quote).toBe("Signed: [name], Finance Director");
    // Categories by name in one sentence.
    expect(r.scope3Found).toEqual(["4", "5", "6", "7", "9"]);
  });

  it("net zero by 2055 is not found (the UK's 2050 target in the same paragraph is not the supplier's); a year-only date", async () => {
    const doc = docFromText(text(await fixture("net-zero-2055.txt")));
    const { report: r } = check(doc);
    invariants(r);
    expect(shape(r)).toBe("-YYYYYY?");
    expect(r.parts.netZeroBy2050).toMatchObject({
      note: "The plan commits to net zero only by 2055, later than 2050.",
      evidence: { quote: expect.stringContaining("by 2055") },
    });
    expect(r.gaps[0]).toBe("Bring the net zero commitment forward to 2050 at the latest (the plan says 2055).");
    expect(r.planDate).toMatchObject({ value: null, note: "Couldn't tell: the plan is dated only by its year (2025)." });
    expect(r.parts.updatedWithinYear.note).toMatch(/^Couldn't tell: the plan is dated only by year \(2025\)/);
    // All of 2025 more than 12 months back: not found.
    expect(check(doc, "2027-03-01").report.parts.updatedWithinYear.status).toBe("not_found");
    // All of 2025 within 12 months: found.
    expect(check(doc, "2025-12-31").report.parts.updatedWithinYear.status).toBe("found");
  });

  it("a messy page: 'Scope1', 'SCOPE 2 (location-based)', tCO₂e, 'tonnes CO2 e', a base year, renamed headings, a name on the signature line", async () => {
    const { report: r } = check(docFromHtml(text(await fixture("messy-plan.html"))));
    invariants(r, ["Rhiannon", "Vaughan-Price"]);
    expect(shape(r)).toBe("YYYYYYYY");
    expect(r.company.value).toBe("Quillon Cleaning Co Ltd");
    expect(r.planDate.value).toBe("2026-11-03");
    expect(r.parts.netZeroBy2050.note).toMatch(/by 2048/);
    expect(r.parts.baselineYearEmissions).toMatchObject({
      note: "Baseline year FY2021/22, with baseline emissions in tCO2e.",
      evidence: { quote: "Scope1 96.40 SCOPE 2 (location-based) 22.75 Scope 3 183.1" },
    });
    expect(r.parts.currentYearEmissions.evidence?.quote).toMatch(/tonnes CO2 e/);
    expect(r.scope3Found).toEqual(["4", "5", "6", "7", "9"]);
    expect(r.parts.reductionProjects.evidence?.section).toBe("What we're doing");
    expect(r.parts.directorSignOff.note).toMatch(/^Signed off by the Operations Director/);
  });

  it("a homepage: not a plan (all couldn't tell); its links to the plan, best first", async () => {
    const html = text(await fixture("homepage.html"));
    const { report: r, reading } = check(docFromHtml(html));
    expect(looksLikePlan(reading)).toBe(false);
    expect(shape(r)).toBe("????????");
    invariants(r);
    const base = "https://www.northwold-fs.test/";
    // The PDF (linked twice, once with a fragment) first, then net zero, then environment/sustainability; at most 3.
    expect(planLinks(html, base)).toEqual([
      "https://www.northwold-fs.test/wp-content/uploads/2026/10/Northwold-CRP-2026.pdf",
      "https://www.northwold-fs.test/about/net-zero",
      "https://www.northwold-fs.test/about/sustainability",
    ]);
    const all = rankedPlanLinks(html, base);
    expect(all.map((l) => [l.rank, l.url])).toEqual([
      [4, "https://www.northwold-fs.test/wp-content/uploads/2026/10/Northwold-CRP-2026.pdf"],
      [3, "https://www.northwold-fs.test/about/net-zero"],
      [1, "https://www.northwold-fs.test/about/sustainability"],
      [1, "https://www.northwold-fs.test/about/environment-policy"],
    ]);
    expect(all[0].pdf).toBe(true);
    // The plain-http partner site is left out (only https off the site); mail, fragments and unrelated links too.
    expect(all.some((l) => /carbon-calculator|mailto|linkedin|privacy|#/.test(l.url))).toBe(false);
    expect(planLinks(html, base, 1)).toHaveLength(1);
  });
});

describe("edge cases", () => {
  const plan = (body: string) => docFromText(`# Carbon Reduction Plan\n\nSupplier name: Example Widgets Ltd\nPublication date: 1 October 2026\n\n${body}`);
  const tables = `## Baseline Emissions Footprint\n\nBaseline Year: 2023\n\n| Emissions | Total (tCO2e) |\n|---|---|\n| Scope 1 | 10.0 |\n| Scope 2 | 4.0 |\n| Scope 3 | 20.0 |\n`;

  it("an empty document: every part couldn't tell, nothing found, no crash", () => {
    for (const doc of [docFromText(""), docFromHtml("<html><body></body></html>"), docFromText("Lorem ipsum dolor sit amet.")]) {
      const { report: r } = check(doc);
      invariants(r);
      expect(shape(r)).toBe("????????");
      expect(r).toMatchObject({ partsMet: 0, scope3Found: [], company: { value: null }, planDate: { value: null } });
    }
  });

  it("a table without units: baseline emissions couldn't tell", () => {
    const { report: r } = check(
      plan(
        `## Commitment to achieving Net Zero\n\nExample Widgets Ltd is committed to achieving Net Zero emissions by 2050.\n\n## Baseline Emissions Footprint\n\nBaseline Year: 2023\n\n| Emissions | Total |\n|---|---|\n| Scope 1 | 10.0 |\n| Scope 2 | 4.0 |\n\n## Carbon Reduction Projects\n\nWe have installed solar panels on the warehouse roof.`,
      ),
    );
    invariants(r);
    expect(r.parts.baselineYearEmissions).toMatchObject({
      status: "couldnt_tell",
      note: "Couldn't tell: baseline emissions are given, but without units (tCO2e).",
    });
    expect(r.parts.scope1and2.status).toBe("found");
  });

  it("net zero without a year: couldn't tell; a 'Net Zero' heading alone is no commitment", () => {
    const { report: r } = check(
      plan(`## Commitment to achieving Net Zero\n\nExample Widgets Ltd is committed to achieving Net Zero emissions as soon as we can.\n\n${tables}`),
    );
    expect(r.parts.netZeroBy2050).toMatchObject({ status: "couldnt_tell", note: "Couldn't tell: the plan commits to net zero but gives no year for it." });
    const none = check(plan(`## Commitment to achieving Net Zero\n\nWe care about the planet.\n\n${tables}`)).report;
    expect(none.parts.netZeroBy2050.status).toBe("not_found");
  });

  it("Scope 1 and 2 mentioned only in the declaration's boilerplate, or only as targets: not found", () => {
    const { report: r } = check(
      plan(
        `## Commitment to achieving Net Zero\n\nWe are committed to net zero by 2040.\n\n## Emissions reduction targets\n\nReduce scope 1 and 2 emissions to zero by 2030. Scope 1 emissions will fall 40% by 2028.\n\n## Declaration and Sign Off\n\nScope 1 and Scope 2 emissions have been reported in accordance with SECR requirements. Emissions are in tCO2e.`,
      ),
    );
    expect(r.parts.scope1and2.status).toBe("not_found");
  });

  it("sign-off: a name on the 'Approved by' line is replaced; a signature with no role and no board statement is couldn't tell", () => {
    const approved = check(
      plan(`${tables}\n## Declaration and Sign Off\n\nApproved by Jonathan Q Harrowby-Smythe, Managing Director, on 1 October 2026.`),
    ).report;
    invariants(approved, ["Jonathan", "Harrowby"]);
    expect(approved.parts.directorSignOff).toMatchObject({ status: "found", note: expect.stringMatching(/^Signed off by the Managing Director/) });
    expect(approved.parts.directorSignOff.evidence?.quote).toContain("[name]");
    const bare = check(
      plan(`${tables}\n## Declaration and Sign Off\n\nSigned on behalf of Example Widgets Ltd:\n\nName: Morwenna Trelawney\n\nDate: 1 October 2026`),
    ).report;
    invariants(bare, ["Morwenna", "Trelawney"]);
    expect(bare.parts.directorSignOff).toMatchObject({
      status: "couldnt_tell",
      note: "Couldn't tell: the plan is signed, but the signer's role is not given.",
    });
    const team = check(plan(`${tables}\n## Declaration and Sign Off\n\nThis plan has been reviewed and approved by the Senior Leadership Team.`)).report;
    expect(team.parts.directorSignOff.status).toBe("couldnt_tell");
    const manager = check(
      plan(
        `${tables}\n## Declaration and Sign Off\n\nThis plan has been reviewed and signed off by the board of directors.\n\nSigned: Tomasz Wierzbicki\nPosition: Sustainability Manager`,
      ),
    ).report;
    invariants(manager, ["Tomasz", "Wierzbicki"]);
    expect(manager.parts.directorSignOff).toMatchObject({
      status: "not_found",
      note: "Signed by the Sustainability Manager, which is not a director or equivalent board-level role.",
    });
    // A role named elsewhere in the plan is not the signer's.
    const elsewhere = check(
      plan(
        `${tables}\n## Carbon Reduction Projects\n\nOur Office Manager has introduced recycling at every site.\n\n## Declaration and Sign Off\n\nThis plan has been reviewed and signed off by the board of directors on 1 October 2026.`,
      ),
    ).report;
    expect(elsewhere.parts.directorSignOff).toMatchObject({
      status: "found",
      note: expect.stringMatching(/board of directors; the signer's role is not given/),
    });
  });

  it("the government template left unfilled: placeholders are not answers; its boilerplate with a blank signature block is no sign-off", () => {
    const { report: r } = check(
      docFromText(
        `Carbon Reduction Plan\nSupplier name: [Insert]\nPublication date: [Insert]\nCommitment to achieving Net Zero\n[Supplier name] is committed to achieving Net Zero emissions by [Year].\nBaseline Emissions Footprint\nBaseline Year: [Insert]\nEMISSIONS TOTAL (tCO2e)\nScope 1\nScope 2\nScope 3\n(Included Sources)\nTotal Emissions\nDeclaration and Sign Off\nThis Carbon Reduction Plan has been completed in accordance with PPN 06/21.\nScope 1 and Scope 2 emissions have been reported in accordance with SECR requirements.\nThis Carbon Reduction Plan has been reviewed and signed off by the board of directors (or equivalent management body).\nSigned on behalf of the Supplier:\nDate:`,
      ),
    );
    invariants(r);
    expect(r.company.value).toBeNull();
    expect(shape(r)).toBe("?-----??");
    expect(r.parts.directorSignOff.note).toMatch(/signature block is blank/);
  });

  it("no date: planDate and updatedWithinYear couldn't tell; a date after today couldn't tell", () => {
    const undated = check(docFromText(`# Carbon Reduction Plan\n\nAcme Ltd is committed to achieving Net Zero by 2045.\n\n${tables}`)).report;
    expect(undated.planDate).toMatchObject({ value: null, note: expect.stringMatching(/^Couldn't tell:/) });
    expect(undated.parts.updatedWithinYear.status).toBe("couldnt_tell");
    const future = check(plan(`## Commitment to achieving Net Zero\n\nWe are committed to net zero by 2040.\n\n${tables}`), "2026-09-01").report;
    expect(future.parts.updatedWithinYear).toMatchObject({ status: "couldnt_tell", note: expect.stringMatching(/after today/) });
  });

  it("Scope 3 categories by number lists and ranges, and not when said to be excluded", () => {
    const listed = check(plan(`${tables}\nScope 3 covers Categories 4 to 7 and Category 9, all in tCO2e.`)).report;
    expect(listed.scope3Found).toEqual(["4", "5", "6", "7", "9"]);
    expect(listed.parts.scope3Categories.status).toBe("found");
    const excluded = check(plan(`${tables}\nScope 3 covers Category 6 and Category 7. Categories 4, 5 and 9 have been excluded as not material.`)).report;
    expect(excluded.scope3Found).toEqual(["6", "7"]);
    expect(excluded.parts.scope3Categories.note).toMatch(/4, 5 and 9 stated as excluded/);
  });

  it("planLinks: relative and absolute addresses, words in the address, dedupe, other sites over http dropped", () => {
    const html = `<a href="/docs/Carbon_Reduction_Plan_2026.pdf">Download</a><a href="docs/Carbon_Reduction_Plan_2026.pdf#p2">CRP</a>
      <a href="https://cdn.example.org/netzero.pdf">Our pathway</a><a href="http://other.example/carbon">Carbon</a><a href="/about">About</a>
      <a href="javascript:void(0)">Carbon reduction plan</a><a href="/green-policy" title="Environmental policy">Policy</a>`;
    expect(planLinks(html, "http://www.example.com/")).toEqual([
      "http://www.example.com/docs/Carbon_Reduction_Plan_2026.pdf",
      "https://cdn.example.org/netzero.pdf",
      "http://www.example.com/green-policy",
    ]);
    expect(planLinks("<p>no links</p>", "https://example.com/")).toEqual([]);
    expect(planLinks(html, "not a url")).toEqual([]);
  });
});

/**
 * Issue 28 §3: whose plan it is (SPEC §2.4 `company`, §4.4 "from a homepage the service finds the plan"). The
 * organisation a plan names and the company number it gives, read on the real plans first; who a real site's page says
 * runs it; then the rule that compares them (compareOrganisation), on real pairs and on edge cases.
 */
describe.skipIf(!SHARED_PRESENT)("whose plan, on real plans and real sites (../shared/corpora)", () => {
  const realPlans = async () => ({
    apexiar: docFromPdf(await readPdf(await shared("carbon-reduction-plans/apexiar-crp.pdf"))),
    edan: docFromPdf(await readPdf(await shared("carbon-reduction-plans/edan-uk-crp-2023.pdf"))),
    planned: docFromHtml(text(await shared("carbon-reduction-plans/planned-ltd-crp.html"))),
    registerDynamics: docFromText(text(await shared("carbon-reduction-plans/register-dynamics-crp.md"))),
  });

  it("the organisation and company number each real plan names; the consultant who prepared EDAN's is not its organisation, and its empty number label stays empty", async () => {
    const plans = await realPlans();
    const named = Object.fromEntries(Object.entries(plans).map(([k, doc]) => [k, check(doc).report]));
    expect(Object.fromEntries(Object.entries(named).map(([k, r]) => [k, [r.company.value, r.companyNumber.value]]))).toEqual({
      apexiar: ["Apexiar Limited", null],
      edan: ["EDAN UK", null],
      planned: ["Planned Limited", "08881845"],
      registerDynamics: ["Register Dynamics", null],
    });
    expect(named.planned.companyNumber.evidence?.quote).toBe("Supplier name: Planned Limited (registered as PLANNED LTD, company number 08881845)");
    expect(named.planned.facts).toContain("Company number given in the plan: 08881845.");
    // "Company Registration Number: Published date: 30th January, 2023": the label is empty, no figure is taken from the date.
    expect(named.edan.companyNumber).toMatchObject({ value: null, evidence: null });
  });

  it("who a real site's page says runs it: the registered name in its footer or beside its number, the number, the name it calls itself", async () => {
    const page = async (p: string, url: string) => siteIdentity(text(await shared(p)), url);
    const planned = await page("modern-slavery/statements/planned-ltd-modern-slavery.html", "https://plannedltd.co.uk/modern-slavery");
    expect(planned).toMatchObject({ names: ["Planned Limited"], siteNames: ["Planned Limited"], numbers: ["08881845"], domain: "plannedltd" });
    // "© Cwiri Ltd. All rights reserved. Registered in Scotland as Company Number SC859594."
    expect(await page("modern-slavery/statements/cwiri-mss-2026.html", "https://www.cwiri.co.uk/modern-slavery-statement")).toMatchObject({
      names: ["Cwiri Ltd"],
      numbers: ["SC859594"],
      domain: "cwiri",
    });
    // "© Wild Fig Research Ltd. All rights reserved." then "Registered in England: 17350497".
    expect(await page("modern-slavery/statements/wildfig-research-mss.html", "https://wildfigresearch.com/modern-slavery-statement/")).toMatchObject({
      names: ["Wild Fig Research Ltd"],
      numbers: ["17350497"],
    });
  });

  it("every real plan against every real site: only Planned's plan on Planned's site is the same organisation (by its company number); every other pair is another organisation", async () => {
    const plans = await realPlans();
    const sites = {
      planned: siteIdentity(text(await shared("modern-slavery/statements/planned-ltd-modern-slavery.html")), "https://plannedltd.co.uk/modern-slavery"),
      cwiri: siteIdentity(text(await shared("modern-slavery/statements/cwiri-mss-2026.html")), "https://www.cwiri.co.uk/modern-slavery-statement"),
      wildfig: siteIdentity(text(await shared("modern-slavery/statements/wildfig-research-mss.html")), "https://wildfigresearch.com/modern-slavery-statement/"),
    };
    for (const [p, doc] of Object.entries(plans))
      for (const [s, site] of Object.entries(sites)) {
        const c = compareOrganisation(check(doc).report, doc.text, site);
        expect(c.match, `${p} on ${s}`).toBe(p === "planned" && s === "planned" ? "same" : "different");
      }
    const same = compareOrganisation(check(plans.planned).report, plans.planned.text, sites.planned);
    expect(same).toMatchObject({
      plan: { name: "Planned Limited", companyNumber: "08881845" },
      site: { names: ["Planned Limited"], companyNumbers: ["08881845"] },
      note: "The plan gives company number 08881845, which the site gives too.",
    });
    const other = compareOrganisation(check(plans.planned).report, plans.planned.text, sites.cwiri);
    expect(other.note).toBe(
      "The plan names Planned Limited (company number 08881845); the site gives company number SC859594 (Cwiri Ltd): another organisation.",
    );
  });
});

describe("whose plan: the rule (compareOrganisation), on our fixtures and edge cases", () => {
  const site = (footer: string, opts: { title?: string; url?: string; body?: string } = {}) =>
    siteIdentity(
      `<html><head><title>${opts.title ?? "Home"}</title></head><body><main><p>${opts.body ?? "We clean offices."}</p></main><footer><p>${footer}</p></footer></body></html>`,
      opts.url ?? "https://www.example.co.uk/",
    );
  const planOf = (name: string, extra = "") =>
    docFromText(
      `# Carbon Reduction Plan\n\nSupplier name: ${name}\nPublication date: 1 October 2026\n\n${extra}\n\n## Commitment to achieving Net Zero\n\n${name.replace(/\s*\(.*$/, "")} is committed to achieving Net Zero emissions by 2045.\n\n## Baseline Emissions Footprint\n\nBaseline Year: 2023. Scope 1 10.0 tCO2e. Scope 2 4.0 tCO2e.`,
    );
  const compare = (doc: ReturnType<typeof docFromText>, s: ReturnType<typeof site> | null) => compareOrganisation(check(doc).report, doc.text, s);

  it("the issue's case: Calder Facilities Ltd's homepage (test/fixtures/hosts/supplier.test) against the plan naming Northwold Facilities Services Ltd: another organisation", async () => {
    const home = siteIdentity(text(new Uint8Array(await (await fetch("http://supplier.test/")).arrayBuffer())), "https://supplier.test/");
    expect(home).toMatchObject({ names: ["Calder Facilities Ltd"], siteNames: ["Calder Facilities Ltd"], numbers: ["05123987"] });
    const doc = docFromPdf(await readPdf(await fixture("complete-plan.pdf")));
    const c = compare(doc, home);
    expect(c).toEqual({
      match: "different",
      plan: { name: "Northwold Facilities Services Ltd", companyNumber: null },
      site: { url: "https://supplier.test/", names: ["Calder Facilities Ltd"], companyNumbers: ["05123987"] },
      note: "The plan names Northwold Facilities Services Ltd; the site gives Calder Facilities Ltd (company number 05123987): another organisation.",
    });
  });

  it("names: the same (legal form, case and a shorter form aside), alike (the same leading word), or unrelated (a shared generic word is not enough)", () => {
    expect(relateNames("Planned Limited", "PLANNED LTD")).toBe("same");
    expect(relateNames("Register Dynamics", "Register Dynamics Ltd")).toBe("same");
    expect(relateNames("The Calder Group", "Calder Group Limited")).toBe("same");
    expect(relateNames("EDAN UK", "EDAN Medical (UK) Ltd")).toBe("related");
    expect(relateNames("Calder FM", "Calder Facilities Management Ltd")).toBe("related");
    expect(relateNames("Northwold Facilities Services Ltd", "Calder Facilities Ltd")).toBe("unrelated");
    expect(relateNames("Acme Services Ltd", "Zenith Services Ltd")).toBe("unrelated");
  });

  it("a company number decides first: the site's number in the plan is the same organisation whatever the name; another number is another organisation even with a like name", () => {
    const s = site("© 2026 Calder Facilities Ltd. Registered in England and Wales no. 05123987.");
    expect(compare(planOf("Calder FM (company number 05123987)"), s).match).toBe("same");
    expect(compare(planOf("Calder Facilities Group Ltd (company number 09999999)"), s)).toMatchObject({
      match: "different",
      note: expect.stringMatching(/company number 09999999.*05123987/),
    });
  });

  it("a group's plan that names the site's company, or a site that names the plan's organisation: couldn't tell, said", () => {
    const s = site("© 2026 Calder Facilities Ltd. Registered in England and Wales no. 05123987.");
    const group = compare(
      planOf(
        "Northwold Group plc (company number 01112223)",
        "This plan covers Northwold Group plc and its subsidiaries, Calder Facilities Ltd and Pennine Security Ltd.",
      ),
      s,
    );
    expect(group).toMatchObject({
      match: "couldnt_tell",
      note: expect.stringMatching(/^Couldn't tell: .*the plan mentions Calder Facilities Ltd.*group's plan may cover a subsidiary/),
    });
    const parent = site("© 2026 Calder Facilities Ltd, part of Northwold Group plc. Registered in England and Wales no. 05123987.");
    expect(compare(planOf("Northwold Group plc"), parent)).toMatchObject({
      match: "couldnt_tell",
      note: expect.stringMatching(/the site mentions Northwold Group plc/),
    });
  });

  it("a site that gives no registered name: only the name it calls itself, which differs: couldn't tell, never 'different'; alike names: couldn't tell", () => {
    const brand = siteIdentity(
      `<html><head><title>Zest | Office cleaning</title></head><body><p>Clean offices.</p></body></html>`,
      "https://zest-clean.example/",
    );
    expect(brand).toMatchObject({ names: [], siteNames: ["Zest"], numbers: [] });
    expect(compare(planOf("Acme Facilities Ltd"), brand)).toMatchObject({
      match: "couldnt_tell",
      note: expect.stringMatching(/calls itself Zest but gives no registered name/),
    });
    expect(compare(planOf("Zest Cleaning Ltd"), brand).match).toBe("same");
    const edan = site("© EDAN Medical (UK) Ltd. Registered in England and Wales.");
    expect(compare(planOf("EDAN UK"), edan)).toMatchObject({ match: "couldnt_tell", note: expect.stringMatching(/alike but not the same/) });
  });

  it("a plan that names no organisation: couldn't tell; no site page read (the plan asked for directly): not checked", () => {
    const s = site("© 2026 Calder Facilities Ltd. Registered in England and Wales no. 05123987.");
    expect(compare(planOf("[Insert]"), s).match).toBe("couldnt_tell");
    expect(compare(planOf("Calder Facilities Ltd"), null)).toMatchObject({ match: "not_checked", site: null });
  });

  it("the reading of a plan not confirmed as the supplier's says so first; a confirmed or unchecked one is unchanged", () => {
    const s = site("© 2026 Calder Facilities Ltd. Registered in England and Wales no. 05123987.");
    const doc = planOf("Calder FM Ltd");
    const { report } = check(doc);
    const c = compareOrganisation(report, doc.text, s);
    expect(c.match).toBe("couldnt_tell");
    expect(readingWithOrganisation(report.reading, c)).toMatch(
      /^Not confirmed as the supplier's own plan: the plan names Calder FM Ltd and the site is Calder Facilities Ltd: the names are alike but not the same\. Calder FM Ltd's carbon reduction plan/,
    );
    const same = compareOrganisation(report, doc.text, null);
    expect(readingWithOrganisation(report.reading, same)).toBe(report.reading);
  });
});
