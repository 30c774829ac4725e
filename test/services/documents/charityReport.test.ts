import { SHARED_PRESENT } from "../../support/shared";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { makePdf } from "../../../scripts/fixtures/make-pdf.mjs";
import { CHARITY_EXAMPLE_TEXT, CharityReportReply } from "../../../src/app/documents/charityReportReply";
import { type CharityReport, readCharityReport, TRANSPARENCY_ITEMS } from "../../../src/services/documents/charityReport";
import { type Doc, docFromHtml, docFromPdf, docFromText } from "../../../src/services/documents/document";
import { Reading } from "../../../src/services/documents/evidence";
import { peopleOf, redactNames } from "../../../src/services/documents/names";
import { readPdf } from "../../../src/sources/documents/pdf";

/**
 * Issue 17 §3 "charity-report": the trustees' report and accounts reader. Real documents first (../shared/corpora:
 * the UK Python Association's two CC16a receipts and payments accounts, checked by hand), then our fixtures (no real
 * trustees' report was available; each fixture is written from the published structure of its kind), then edge cases.
 */
const TODAY = "2026-03-01";
const shared = async (p: string) => new Uint8Array(await (await fetch(`http://shared.test/corpora/${p}`)).arrayBuffer());
const fixtureText = async (name: string) => {
  const res = await fetch(`http://files.test/documents/charity/${name}`);
  expect(res.status, name).toBe(200);
  return res.text();
};
/** A fixture written as pages of lines (pages split by a form feed), made into a text PDF and read back through unpdf. */
const fixturePdf = async (name: string) => {
  const pages = (await fixtureText(name)).split("\f").map((p) => p.replace(/^\n/, "").replace(/\n$/, "").split("\n"));
  return docFromPdf(await readPdf(makePdf(pages)));
};
const read = (doc: Doc, today = TODAY) => readCharityReport(new Reading(doc), { today });
const amount = (f: { value: { amount: number } | null }) => f.value?.amount ?? null;
const prior = (f: { value: { priorYear: { amount: number } | null } | null }) => f.value?.priorYear?.amount ?? null;
/** The reply as the API gives it (without `facts`, which become the summary) must match the documented schema. */
const checkSchema = (r: CharityReport) => {
  const { facts: _facts, ...reply } = r;
  expect(() => CharityReportReply.parse(reply)).not.toThrow();
};
/** Every fact has a quote when it has a value (or says why not), and every quote is in the document's text. */
const checkEvidence = (r: CharityReport, doc: Doc) => {
  const flat = (s: string) => s.replace(/…/g, "").replace(/\s+/g, " ").trim();
  const text = flat(doc.text);
  const walk = (o: unknown, path: string) => {
    if (!o || typeof o !== "object") return;
    const f = o as { value?: unknown; evidence?: { quote: string } | null; note?: string | null };
    if ("value" in f && "evidence" in f && "note" in f) {
      if (f.value === null) expect(f.note, `${path}: a "couldn't tell" says why`).toBeTruthy();
      else if (f.evidence === null) expect(f.note, `${path}: a value without a quote says why`).toBeTruthy();
    }
    if (f.evidence && typeof f.evidence.quote === "string")
      for (const part of flat(f.evidence.quote)
        .split("[name]")
        .map((x) => x.trim())
        .filter((x) => x.length > 8))
        expect(text, `${path}: quote from the document`).toContain(part);
    for (const [k, v] of Object.entries(o)) walk(v, `${path}.${k}`);
  };
  walk(r, "report");
};
const facts = (r: CharityReport) => r.facts.join(" ");

describe.skipIf(!SHARED_PRESENT)("real documents (../shared/corpora/charity)", () => {
  it("UK Python Association, CC16a 2022-23: every figure as checked by hand on the form", async () => {
    const doc = docFromPdf(await readPdf(await shared("charity/ukpa-cc16a-receipts-payments-2022-23.pdf")));
    const r = read(doc);
    checkSchema(r);
    checkEvidence(r, doc);
    expect(r.recognition.recognised).toBe(true);
    expect(r.recognition.parts).toEqual(["receipts and payments accounts"]);
    // The form's first line: "UK Python Association 173471", then "For the period from 2022-04-01 To 2023-03-31".
    expect(r.charity.name.value).toBe("UK Python Association");
    expect(r.charity.charityNumber).toMatchObject({ value: "173471", evidence: { page: 1 } });
    expect(r.charity.regulator.value).toBe("charity_commission");
    expect(r.charity.companyNumber.value).toBeNull();
    expect(r.charity.financialYear.value).toEqual({ start: "2022-04-01", end: "2023-03-31" });
    expect(r.finances.basis.value).toBe("receipts_and_payments");
    // A1: no receipts ("Sub total(Gross income for AR) - 0 - - - -": its last-year cell is a dash, so no prior year).
    // A3: ICO fees 35 + insurance 797 + trustee meeting 686 = 1,518 (last year 744).
    expect(r.finances.income.value).toEqual({ amount: 0, yearEnded: "2023-03-31", priorYear: null });
    expect(r.finances.income.evidence?.quote).toMatch(/Gross income for AR/);
    expect(amount(r.finances.expenditure)).toBe(35 + 797 + 686);
    expect(prior(r.finances.expenditure)).toBe(744);
    expect(r.finances.expenditure.evidence).toMatchObject({ quote: "Total payments 1,518 - 0 - 0 1,518 744", page: 1 });
    // "Net of receipts/(payments) - 1,518 - - - 1,518 - 744": the spreadsheet's "- 1,518" is a negative.
    expect(amount(r.finances.netIncome)).toBe(-1518);
    expect(prior(r.finances.netIncome)).toBe(-744);
    // Cash funds: 3,772 at last year end − 1,518 = 2,254 (B1 "Current Account 2,254" agrees). The form's last-year
    // column for "Cash funds this year end" says "- 744" (last year's net, not its funds): the opening 3,772 is given.
    expect(amount(r.finances.funds.total)).toBe(3772 - 1518);
    expect(prior(r.finances.funds.total)).toBe(3772);
    expect(r.finances.funds.total.note).toMatch(/-£744.*disagrees.*£3,772/);
    expect(amount(r.finances.funds.unrestricted)).toBe(2254);
    expect(amount(r.finances.funds.restricted)).toBe(0);
    expect(amount(r.finances.funds.endowment)).toBe(0);
    expect(r.finances.funds.designated.value).toBeNull();
    expect(r.finances.reserves.value).toMatchObject({ kind: "total_funds", amount: 2254 });
    // Payments with no receipts: a deficit, unexplained on a bare form.
    expect(r.flags.deficit).toMatchObject({ value: true, note: expect.stringMatching(/Payments \(£1,518\) exceeded receipts \(£0\)/) });
    expect(r.flags.deficitExplained.value).toBe(false);
    // The form is unsigned and undated: late filing can't be told; the deadline (31 January 2024) has passed.
    expect(r.governance.approvedOn.value).toBeNull();
    expect(r.flags.lateFiling).toMatchObject({ value: null, note: expect.stringMatching(/no approval date.*31 January 2024, which has passed/) });
    expect(r.flags.qualifiedOpinion.value).toBeNull();
    // A bare accounts form has no trustees' report: the governance signals are not in it.
    expect(r.governance.trustees.value).toBeNull();
    expect(r.governance.safeguarding).toMatchObject({ value: false, evidence: null });
    expect(r.governance.reservesPolicy.value).toBe(false);
    expect(r.delivery.activities).toEqual([]);
    // Transparency: name, number, year, income, expenditure, total funds, funds by type, prior year = 8 × 5.
    expect(r.transparency.score).toBe(40);
    expect(r.transparency.components.filter((c) => c.present).map((c) => c.item)).toEqual([
      "charity name",
      "charity number",
      "financial year",
      "income",
      "expenditure",
      "total funds",
      "funds by type",
      "prior-year figures",
    ]);
    expect(r.funderGaps).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^No reserves policy/),
        expect.stringMatching(/^No safeguarding policy/),
        expect.stringMatching(/^No independent examiner's or auditor's report \(not required by law at this income, £0/),
        expect.stringMatching(/^A deficit with no explanation/),
        expect.stringMatching(/^No date of approval/),
      ]),
    );
    expect(facts(r)).toContain("Payments: £1,518 in the year ended 31 March 2023 (prior year £744).");
  });

  it("UK Python Association, latest CC16a (2024-25): payments, cash funds and the signed approval date, with the signer's name kept out", async () => {
    const doc = docFromPdf(await readPdf(await shared("charity/ukpa-cc16a-receipts-payments-latest.pdf")));
    const r = read(doc);
    checkSchema(r);
    checkEvidence(r, doc);
    expect(r.charity.name.value).toBe("UK Python Association");
    expect(r.charity.charityNumber.value).toBe("173471");
    // "2024-04-01 To 2025-03-31" (the form's "For the period from" label is printed elsewhere on the page).
    expect(r.charity.financialYear.value).toEqual({ start: "2024-04-01", end: "2025-03-31" });
    // A3: Python in Education Day grant 500 + PyCon Tanzania grant 1,919 + ICO fees 35 = 2,454; no receipts.
    expect(amount(r.finances.expenditure)).toBe(500 + 1919 + 35);
    expect(amount(r.finances.income)).toBe(0);
    expect(amount(r.finances.netIncome)).toBe(-2454);
    // The last-year column is all dashes: no prior-year figure is made up from it.
    expect(r.finances.expenditure.value?.priorYear).toBeNull();
    expect(r.finances.expenditure.note).toMatch(/prior-year column is blank/);
    // 9,094 at last year end − 2,454 = 6,640 (B1 "Current Account 6,640").
    expect(amount(r.finances.funds.total)).toBe(9094 - 2454);
    expect(prior(r.finances.funds.total)).toBe(9094);
    // Signed "Kristian Glass 2026-01-14" under "Signature Print Name": 9½ months after 31 March 2025, inside the 10-month deadline.
    expect(r.governance.approvedOn).toMatchObject({ value: "2026-01-14", evidence: { page: 2, quote: "[name] 2026-01-14" } });
    expect(r.flags.lateFiling).toMatchObject({
      value: false,
      note: expect.stringMatching(/9 months after the year end.*within the Charity Commission's filing deadline of 10 months \(31 January 2026\)/),
    });
    expect(JSON.stringify(r)).not.toMatch(/Kristian|Glass/);
    // The running "CCXX R1 accounts (SS) 1 15/01/2026" print date is not the approval date.
    expect(r.transparency.score).toBe(45);
  });

  it("documents of other types (an Ofsted report, a modern slavery statement, a carbon reduction plan) are not read as charity reports", async () => {
    for (const p of [
      "ofsted/farnham-heath-end-school-2016-s5.pdf",
      "modern-slavery/statements/edan-uk-mss-2024.pdf",
      "carbon-reduction-plans/apexiar-crp.pdf",
    ]) {
      const r = read(docFromPdf(await readPdf(await shared(p))));
      checkSchema(r);
      expect(r.recognition.recognised, p).toBe(false);
      expect(r.charity.charityNumber.value).toBeNull();
      expect(r.finances.income).toMatchObject({ value: null, evidence: null, note: expect.stringMatching(/^Couldn't tell/) });
      // "Safeguarding is effective" in an Ofsted report is not a charity's safeguarding policy.
      expect(r.governance.safeguarding.value).toBeNull();
      expect(r.flags.deficit.value).toBeNull();
      expect(r.transparency.score).toBe(0);
      expect(r.funderGaps).toEqual([]);
    }
  });
});

describe("fixtures: trustees' reports written from the published structure (test/fixtures/documents/charity)", () => {
  it("a SORP accruals report as a PDF (Hollybrook, 6 pages): SOFA lines under £ headings with brackets and a prior-year column, balance sheet, running header", async () => {
    const doc = await fixturePdf("hollybrook-trustees-report-2024.pages.txt");
    expect(doc.pages).toBe(6);
    const r = read(doc);
    checkSchema(r);
    checkEvidence(r, doc);
    expect(r.charity.name.value).toBe("Hollybrook Community Trust");
    expect(r.charity.charityNumber).toMatchObject({ value: "1165432", evidence: { page: 1 } });
    expect(r.charity.companyNumber.value).toBe("09876543");
    expect(r.charity.financialYear.value).toEqual({ start: "2023-04-01", end: "2024-03-31" });
    expect(r.finances.basis.value).toBe("accruals");
    expect(r.finances.income.value).toEqual({ amount: 204_255, yearEnded: "2024-03-31", priorYear: { amount: 186_430, yearEnded: "2023-03-31" } });
    expect(r.finances.income.evidence).toMatchObject({ quote: "Total income 126,755 77,500 204,255 186,430", page: 5 });
    expect(r.finances.income.note).toBeNull(); // the report's text agrees with the SOFA
    expect(amount(r.finances.expenditure)).toBe(198_940);
    expect(prior(r.finances.expenditure)).toBe(181_005);
    // "Net income/(expenditure) 9,515 (4,200) 5,315 5,425": the bracketed restricted column is negative, the columns add up.
    expect(amount(r.finances.netIncome)).toBe(5315);
    expect(amount(r.finances.funds.total)).toBe(114_340);
    expect(prior(r.finances.funds.total)).toBe(109_025);
    expect(amount(r.finances.funds.unrestricted)).toBe(90_440);
    expect(amount(r.finances.funds.restricted)).toBe(23_900);
    expect(r.finances.funds.endowment.value).toBeNull();
    expect(r.finances.funds.designated).toMatchObject({ value: { amount: 20_000, priorYear: { amount: 15_000 } }, evidence: { page: 6 } });
    // The free reserves stated (£58,040), not the policy's target range (£39,000 to £58,600).
    expect(r.finances.reserves.value).toMatchObject({ kind: "free_reserves", amount: 58_040, priorYear: { amount: 52_825 } });
    expect(r.governance.trustees).toMatchObject({ value: 9, evidence: { page: 2 } });
    expect(r.governance.meetings.value).toEqual({ frequency: "quarterly", perYear: 4 });
    for (const k of ["safeguarding", "conflictsOfInterest", "riskStatement", "reservesPolicy", "publicBenefit"] as const)
      expect(r.governance[k].value, k).toBe(true);
    expect(r.governance.scrutiny).toMatchObject({ value: "independent_examination", evidence: { page: 4 } });
    expect(r.governance.approvedOn).toMatchObject({ value: "2024-09-12", evidence: { page: 3 } });
    expect(r.delivery.activities.length).toBeGreaterThanOrEqual(2);
    expect(r.delivery.peopleHelped.value).toBe(1186); // households helped by the food bank; meals and parcels are not people
    expect(r.delivery.beneficiaries.map((b) => [b.count, b.who])).toEqual([
      [1186, "households"],
      [74, "older people"],
      [9800, "meals"],
    ]);
    // The standard examiner's wording lists "accounting records were not kept …" under "no material matters": not a qualification.
    expect(r.flags.qualifiedOpinion.value).toBe(false);
    expect(r.flags.goingConcern).toMatchObject({ value: false, evidence: { quote: expect.stringMatching(/no material uncertainties/) } });
    expect(r.flags.deficit.value).toBe(false);
    expect(r.flags.lateFiling.value).toBe(false);
    expect(r.transparency.score).toBe(100);
    expect(r.funderGaps).toEqual([]);
    // The running header and the page footers are not quoted; the trustees and the examiner are never named.
    const json = JSON.stringify(r);
    expect(json).not.toMatch(/Page \d of 6|Trustees' Report and Financial Statements {2}Year/);
    expect(json).not.toMatch(/Margaret|Ellison|Raman|Olusegun|Adeyemi|Catherine|Moorcroft|Priya/);
  });

  it("a small charity's plain-text report with SORP 2005 labels and messy layout (Millbrook Village Hall)", async () => {
    const doc = docFromText(await fixtureText("millbrook-village-hall-2023.txt"));
    const r = read(doc);
    checkSchema(r);
    checkEvidence(r, doc);
    expect(r.charity.charityNumber.value).toBe("302118");
    expect(r.charity.name.value).toBe("MILLBROOK VILLAGE HALL");
    expect(r.charity.financialYear.value).toEqual({ start: "2022-10-01", end: "2023-09-30" });
    expect(r.finances.basis.value).toBe("accruals");
    // "Total  incoming  resources 18,590 15,040" — the report's text says £18,950: the accounts are given, the disagreement noted.
    expect(r.finances.income.value).toMatchObject({ amount: 18_590, priorYear: { amount: 15_040 } });
    expect(r.finances.income.note).toMatch(/text gives £18,950.*disagrees with the accounts' £18,590/);
    expect(amount(r.finances.expenditure)).toBe(20_930);
    // "Net (outgoing)/incoming resources (2,340) 3,120".
    expect(r.finances.netIncome.value).toMatchObject({ amount: -2340, priorYear: { amount: 3120 } });
    expect(r.finances.funds.total.value).toMatchObject({ amount: 25_520, priorYear: { amount: 27_860 } });
    // "All of the charity's funds are unrestricted."
    expect(r.finances.funds.unrestricted).toMatchObject({ value: { amount: 25_520 }, evidence: { quote: "All of the charity's funds are unrestricted." } });
    expect(r.governance.trustees.value).toBe(11);
    expect(r.governance.meetings.value).toEqual({ frequency: "every 2 months", perYear: 6 });
    expect(r.governance.reservesPolicy.value).toBe(true); // "aim to keep at least £10,000 in reserve"
    expect(r.finances.reserves.value?.kind).toBe("total_funds"); // that is a target, not a statement of free reserves
    expect(r.flags.deficit.value).toBe(true);
    expect(r.flags.deficitExplained).toMatchObject({ value: true, evidence: { quote: expect.stringMatching(/due to the replacement of the boiler/) } });
    expect(r.governance.approvedOn).toMatchObject({
      value: "2024-01-14",
      evidence: { quote: expect.stringMatching(/^Signed on behalf of the committee: \[name\] \(Chairman\) Date: 14th January 2024$/) },
    });
    expect(r.flags.lateFiling.value).toBe(false);
    expect(r.governance.scrutiny.value).toBeNull();
    // "safeguarding the assets of the charity" (the trustees' financial duty) is not a safeguarding policy.
    expect(r.governance.safeguarding).toMatchObject({ value: false, evidence: null });
    expect(r.funderGaps).toEqual(
      expect.arrayContaining([expect.stringMatching(/not required by law at this income, £18,590/), "No safeguarding policy mentioned."]),
    );
    expect(r.funderGaps.some((g) => /deficit/i.test(g))).toBe(false); // it is explained
    expect(JSON.stringify(r)).not.toMatch(/Alan|Whitcombe/);
  });

  it("a qualified independent examiner's report and a going-concern uncertainty (Eastgate Youth Project, Northern Ireland)", async () => {
    const doc = docFromText(await fixtureText("eastgate-youth-project-2023.txt"));
    const r = read(doc);
    checkSchema(r);
    checkEvidence(r, doc);
    expect(r.charity.charityNumber.value).toBe("NIC104872");
    expect(r.charity.regulator.value).toBe("ccni");
    expect(r.charity.companyNumber.value).toBe("NI612345");
    expect(r.charity.financialYear.value).toEqual({ start: "2023-01-01", end: "2023-12-31" });
    expect(r.flags.qualifiedOpinion).toMatchObject({
      value: true,
      evidence: { quote: "I have identified the following matters in connection with my examination:" },
    });
    expect(r.flags.goingConcern).toMatchObject({ value: true, evidence: { quote: expect.stringMatching(/material uncertainty exists/) } });
    expect(r.finances.income.value).toMatchObject({ amount: 139_775, priorYear: { amount: 154_125 } });
    // "Restricted income of £12,000" in the examiner's report is not the year's income: no disagreement is noted.
    expect(r.finances.income.note).toBeNull();
    expect(amount(r.finances.netIncome)).toBe(-23_410);
    expect(r.flags.deficit.value).toBe(true);
    expect(r.flags.deficitExplained.value).toBe(false);
    expect(amount(r.finances.funds.restricted)).toBe(0); // "-" in the restricted column
    expect(r.finances.reserves.value).toMatchObject({ kind: "free_reserves", amount: 6150 });
    expect(r.governance.trustees.value).toBe(6);
    expect(r.governance.meetings.value).toEqual({ frequency: "five times during the year", perYear: 5 });
    expect(r.governance.conflictsOfInterest.value).toBe(false);
    // Approved 20 September 2024: inside CCNI's 10 months (31 October 2024).
    expect(r.flags.lateFiling).toMatchObject({
      value: false,
      note: expect.stringMatching(/Northern Ireland's filing deadline of 10 months \(31 October 2024\)/),
    });
    expect(r.funderGaps).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/going concern/),
        expect.stringMatching(/qualified/),
        expect.stringMatching(/^A deficit with no explanation/),
        expect.stringMatching(/^No reserves policy/),
      ]),
    );
    expect(facts(r)).toContain("The examiner's or auditor's report is qualified.");
    expect(JSON.stringify(r)).not.toMatch(/Siobhan|McAllister|Declan|O'Hare ACA/);
  });

  it("approved 14 months after the year end, a Scottish charity, an audited SOFA in £'000 with an endowment column (Glenbrae Care Trust)", async () => {
    const doc = docFromText(await fixtureText("glenbrae-care-trust-2022.txt"));
    const r = read(doc);
    checkSchema(r);
    checkEvidence(r, doc);
    expect(r.charity.name).toMatchObject({ value: "Glenbrae Care Trust", note: "The name the report says is the charity." });
    expect(r.charity.charityNumber.value).toBe("SC041877");
    expect(r.charity.regulator.value).toBe("oscr");
    expect(r.charity.companyNumber.value).toBe("SC298765");
    expect(r.finances.income).toMatchObject({ value: { amount: 1_842_000, priorYear: { amount: 1_733_000 } }, note: expect.stringMatching(/£'000/) });
    expect(amount(r.finances.expenditure)).toBe(1_796_000);
    expect(amount(r.finances.netIncome)).toBe(93_000);
    expect(amount(r.finances.funds.endowment)).toBe(1_252_000);
    expect(amount(r.finances.funds.total)).toBe(1_997_000);
    // "Free reserves (unrestricted funds less fixed assets of £225,000) were £412,000": the bracketed figure is not the reserves.
    expect(r.finances.reserves.value).toMatchObject({ kind: "free_reserves", amount: 412_000, priorYear: { amount: 398_000 } });
    expect(r.governance.scrutiny.value).toBe("audit");
    // The unmodified auditor's report says it has "not identified any material uncertainties … that may cast significant doubt".
    expect(r.flags.goingConcern.value).toBe(false);
    expect(r.flags.qualifiedOpinion).toMatchObject({ value: false, evidence: { quote: expect.stringMatching(/true and fair view/) } });
    // Child protection and adult support and protection policies, the PVG scheme: Scotland's words for safeguarding.
    expect(r.governance.safeguarding.value).toBe(true);
    expect(r.governance.trustees.value).toBe(10);
    expect(r.governance.meetings.value).toEqual({ frequency: "six times a year", perYear: 6 });
    // Year end 31 March 2022, approved 14 June 2023: 14 months, past OSCR's 9-month deadline (31 December 2022).
    expect(r.governance.approvedOn.value).toBe("2023-06-14");
    expect(r.flags.lateFiling).toMatchObject({
      value: true,
      note: expect.stringMatching(/14 months after the year end.*OSCR's filing deadline of 9 months \(31 December 2022\)/),
    });
    expect(r.funderGaps).toContain("The report was approved after the regulator's filing deadline: the accounts were filed late.");
    expect(JSON.stringify(r)).not.toMatch(/Alasdair|Munro|Fiona|Dalgleish/);
  });

  it("the documented example text reads correctly", () => {
    const doc = docFromText(CHARITY_EXAMPLE_TEXT);
    const lines = CHARITY_EXAMPLE_TEXT.split("\n").length;
    expect(lines).toBeGreaterThanOrEqual(30);
    expect(lines).toBeLessThanOrEqual(60);
    const r = read(doc);
    checkSchema(r);
    checkEvidence(r, doc);
    expect(r.charity.name.value).toBe("Riverside Reading Project");
    expect(r.charity.charityNumber.value).toBe("1187654");
    expect(r.finances.income.value).toEqual({ amount: 48_620, yearEnded: "2025-03-31", priorYear: { amount: 44_910, yearEnded: "2024-03-31" } });
    expect(amount(r.finances.expenditure)).toBe(51_380);
    expect(amount(r.finances.netIncome)).toBe(-2760);
    expect(r.finances.reserves.value).toMatchObject({ kind: "free_reserves", amount: 17_450 });
    expect(r.flags.deficit.value).toBe(true);
    expect(r.flags.deficitExplained.value).toBe(true);
    expect(r.governance.approvedOn).toMatchObject({ value: "2025-09-09", note: null });
    expect(r.governance.trustees.value).toBe(7);
    expect(r.delivery.peopleHelped.value).toBe(540); // the larger of "312 children" and "540 children" in one sentence, never added
    expect(r.flags.qualifiedOpinion.value).toBe(false);
    expect(JSON.stringify(r)).not.toMatch(/Bloggs/);
    // The number as the report gives it: whether the register lists it is the reply's `register`, not the summary's
    // (issue 28 §4: "registered charity" is said only where the register says so).
    expect(r.facts[0]).toBe("Riverside Reading Project (charity number 1187654, as the report gives it).");
  });
});

describe("edge cases", () => {
  it("an empty or irrelevant document: everything is couldn't tell, nothing crashes", () => {
    for (const text of ["", "   ", "Lemon drizzle cake. Mix 225g butter with 225g caster sugar. Bake for 45 minutes at 180C. Serves 12."]) {
      const r = read(docFromText(text));
      checkSchema(r);
      expect(r.recognition.recognised).toBe(false);
      expect(r.charity.name).toMatchObject({ value: null, evidence: null });
      expect(r.governance.reservesPolicy.value).toBeNull();
      expect(r.flags.lateFiling.value).toBeNull();
      expect(r.delivery.activities).toEqual([]);
      expect(r.transparency.score).toBe(0);
      expect(r.funderGaps).toEqual([]);
      expect(r.facts).toHaveLength(1);
    }
  });

  it("a document cut short: what is not found is couldn't tell, not absent", async () => {
    const doc = { ...docFromText(await fixtureText("millbrook-village-hall-2023.txt")), cut: true };
    const r = read(doc);
    expect(r.governance.safeguarding).toMatchObject({ value: null, note: expect.stringMatching(/cut/) });
    expect(r.governance.trustees.value).toBe(11);
  });

  it("messy tables: a note column some rows lack, years in the headings, nil dashes, the spreadsheet's '- 1,518', £'000", () => {
    const sofa = `Registered charity number 1012345
Trustees' report and accounts for the year ended 30 June 2024
Statement of financial activities
Unrestricted Restricted Endowment Total Total
funds funds funds 2024 2023
Note £ £ £ £ £
Grants 3 10,000 5,000 - 15,000 12,000
Investments 500 - 250 750 700
Total income 10,500 5,000 250 15,750 12,700
Total expenditure 11,000 4,000 - 15,000 13,100
Net income/(expenditure) (500) 1,000 250 750 (400)
Total funds at 30 June 2024 3,500 2,000 9,250 14,750 14,000`;
    const r = read(docFromText(sofa));
    expect(r.finances.income.value).toMatchObject({ amount: 15_750, priorYear: { amount: 12_700 }, yearEnded: "2024-06-30" });
    expect(r.finances.netIncome.value).toMatchObject({ amount: 750, priorYear: { amount: -400 } });
    expect(r.finances.funds.total.value).toMatchObject({ amount: 14_750, priorYear: { amount: 14_000 } });
    expect(amount(r.finances.funds.endowment)).toBe(9250);
    expect(amount(r.finances.funds.unrestricted)).toBe(3500);

    const rp = `Registered charity number 1012345
Receipts and payments accounts for the period from 1 April 2023 to 31 March 2024
Unrestricted funds Restricted funds Endowment funds Total funds Last year
to the nearest £ to the nearest £ to the nearest £ to the nearest £ to the nearest £
Total receipts 1,200 - - 1,200 2,000
Total payments 2,718 - - 2,718 1,500
Net of receipts/(payments) - 1,518 - - - 1,518 500
Cash funds this year end 4,482 - - 4,482 6,000`;
    const q = read(docFromText(rp));
    expect(q.charity.financialYear.value).toEqual({ start: "2023-04-01", end: "2024-03-31" });
    expect(q.finances.netIncome.value).toMatchObject({ amount: -1518, priorYear: { amount: 500 } });
    expect(amount(q.finances.funds.total)).toBe(4482);

    const thousands = `Registered charity number 1012345
Trustees' annual report for the year ended 31 December 2024
Statement of financial activities
2024 2023
£'000 £'000
Total income 2,310 2,005
Total expenditure 2,400 1,980`;
    const dated = `Registered charity number 1012345
Trustees' annual report for the year ended 31 March 2024
Statement of financial activities
Note 31 March 2024 31 March 2023
Donations 2 3,000 2,500
Total income 5,000 4,000
Total expenditure 4,200 4,350
Summary 2023/24 2022/23
Funds carried forward 8,100 7,300`;
    const d = read(docFromText(dated));
    expect(d.finances.income.value).toMatchObject({ amount: 5000, priorYear: { amount: 4000 } });
    expect(d.finances.funds.total.value).toMatchObject({ amount: 8100, priorYear: { amount: 7300 } });

    const t = read(docFromText(thousands));
    expect(t.finances.income.value).toMatchObject({ amount: 2_310_000, priorYear: { amount: 2_005_000 } });
    expect(t.flags.deficit).toMatchObject({ value: true, note: expect.stringMatching(/exceeded income \(£2,310,000\) by £90,000/) });
  });

  it("a web page: the table's cells read as rows, the site's navigation not read, a policy found by its heading", () => {
    const html = `<!doctype html><html><head><title>Annual report 2024 | Oakfield Trust</title></head><body>
<nav><a href="/">Home</a> <a href="/donate">Donate: £10 a month</a></nav>
<main><h1>Oakfield Trust: trustees' annual report 2023/24</h1>
<p>Oakfield Trust is a registered charity (number 1150021). This report covers the year ended 31 March 2024.</p>
<h2>Our finances</h2>
<table><thead><tr><th></th><th>Unrestricted funds £</th><th>Restricted funds £</th><th>Total 2024 £</th><th>Total 2023 £</th></tr></thead>
<tbody><tr><td>Total income</td><td>50,100</td><td>20,000</td><td>70,100</td><td>65,000</td></tr>
<tr><td>Total expenditure</td><td>48,000</td><td>25,500</td><td>73,500</td><td>60,250</td></tr>
<tr><td>Net income/(expenditure)</td><td>2,100</td><td>(5,500)</td><td>(3,400)</td><td>4,750</td></tr>
<tr><td>Total funds carried forward</td><td>30,000</td><td>4,500</td><td>34,500</td><td>37,900</td></tr></tbody></table>
<h2>Reserves policy</h2><p>We want to keep enough money to cover four months of running costs.</p>
</main><footer>© Oakfield Trust</footer></body></html>`;
    const r = read(docFromHtml(html));
    checkSchema(r);
    expect(r.charity.name.value).toBe("Oakfield Trust");
    expect(r.charity.charityNumber.value).toBe("1150021");
    expect(r.finances.income).toMatchObject({
      value: { amount: 70_100, priorYear: { amount: 65_000 } },
      evidence: { quote: "Total income 50,100 20,000 70,100 65,000", page: null, section: "Our finances" },
    });
    expect(r.finances.netIncome.value).toMatchObject({ amount: -3400, priorYear: { amount: 4750 } });
    expect(r.finances.funds.restricted.value).toMatchObject({ amount: 4500 });
    expect(r.flags.deficit.value).toBe(true);
    expect(r.governance.reservesPolicy).toMatchObject({ value: true, note: 'The report has a section headed "Reserves policy".' });
  });

  it("figures from the report's text when there is no table; a constitutional maximum is not a trustee count", () => {
    const text = `Registered charity number 1098765
Trustees' annual report for the year ended 31 March 2025
Our constitution allows up to twelve trustees. The accounts are signed by two trustees.
The trustees review the reserves annually at a board meeting.
Financial review
Total income for the year was £12,400 (2024: £11,900) and total expenditure was £13,050.
The shortfall was met from reserves, as planned by the trustees.`;
    const r = read(docFromText(text));
    expect(r.finances.income).toMatchObject({
      value: { amount: 12_400, priorYear: { amount: 11_900 } },
      note: expect.stringMatching(/From the report's text/),
    });
    expect(amount(r.finances.expenditure)).toBe(13_050);
    expect(r.flags.deficit.value).toBe(true);
    expect(r.flags.deficitExplained.value).toBe(true);
    expect(r.governance.trustees.value).toBeNull();
    expect(r.governance.meetings.value).toBeNull(); // reviewing "annually at a board meeting" is not how often the board meets
    // No approval date: the deadline (31 January 2026) not yet passed on 1 June 2025.
    expect(read(docFromText(text), "2025-06-01").flags.lateFiling.note).toMatch(/31 January 2026, not yet passed/);
  });

  it("names are taken out of quotes and headings; organisations and roles are kept", () => {
    expect(redactNames("Signed: John Smith, Director")).toBe("Signed: [name], Director");
    expect(redactNames("Jane Doe FCCA Independent Examiner, Smith & Co")).toBe("[name] FCCA Independent Examiner, Smith & Co");
    expect(redactNames("Approved by the trustees on 5 May 2024 and signed on their behalf by: Dr A. N. Other (Chair)")).toBe(
      "Approved by the trustees on 5 May 2024 and signed on their behalf by: [name] (Chair)",
    );
    expect(redactNames("Independent examiner: Priya Natarajan FCCA, Natarajan & Co")).toBe("Independent examiner: [name] FCCA, Natarajan & Co");
    expect(redactNames("Approved by the board of Hollybrook Community Trust on 5 May 2024.")).toBe(
      "Approved by the board of Hollybrook Community Trust on 5 May 2024.",
    );
    expect(redactNames("Kristian Glass 2026-01-14", { section: "Signature Print Name" })).toBe("[name] 2026-01-14");
    // A trustee's name on a line of its own: a name beside other trustees' lines in the list is one.
    const list = ["Trustees who served during the year:", "Margaret Ellison (Chair)", "Dev Raman (Treasurer)", "Olusegun Adeyemi", "Trustees' report"];
    expect(redactNames("Olusegun Adeyemi", { line: true, known: peopleOf(list) })).toBe("[name]");
    expect(redactNames("Margaret Ellison (Chair)", { line: true })).toBe("[name] (Chair)");
    for (const h of ["Going Concern", "Public Benefit", "Principal Risks", "Financial Review", "Achievements and performance", "HOLLYBROOK COMMUNITY TRUST"])
      expect(redactNames(h, { line: true, known: peopleOf(list) })).toBe(h);
  });

  it("the transparency score is 5 points for each of the 20 items present, as its formula says", async () => {
    const r = read(docFromText(await fixtureText("eastgate-youth-project-2023.txt")));
    expect(TRANSPARENCY_ITEMS).toHaveLength(20);
    expect(r.transparency.components).toHaveLength(20);
    expect(r.transparency.score).toBe(5 * r.transparency.components.filter((c) => c.present).length);
    expect(r.transparency.components.every((c) => c.points === (c.present ? 5 : 0))).toBe(true);
    expect(r.transparency.formula).toMatch(/^20 disclosures, 5 points each/);
    expect(r.transparency.components.filter((c) => !c.present).map((c) => c.item)).toEqual([
      "reserves policy",
      "conflicts of interest",
      "risk statement",
      "public benefit statement",
    ]);
  });
});

/**
 * Issue 28 §3 "charity-report": the real forms of a charity's report are recognised (a plain-prose trustees' report,
 * the Charity Commission's CC16a and CC17a forms, the accounts software's "Report of the Trustees and Unaudited
 * Financial Statements"), the charity number is read wherever the text states it, and what truly is not a report is
 * not read as one (the operation refuses it with 422: test/operations/documents/perReader.test.ts). SPEC §4.3.
 */
const formsText = async (name: string) => {
  const res = await fetch(`http://files.test/documents/charity-forms/${name}`);
  expect(res.status, name).toBe(200);
  return res.text();
};
const formsPdf = async (name: string) => {
  const pages = (await formsText(name)).split("\f").map((p) => p.replace(/^\n/, "").replace(/\n$/, "").split("\n"));
  return docFromPdf(await readPdf(makePdf(pages)));
};
/** The people named in the fixtures of test/fixtures/documents/charity-forms (its people.txt). */
const formsPeople = async () => (await formsText("people.txt")).split("\n").filter((l) => l.trim() && !l.startsWith("#"));

describe.skipIf(!SHARED_PRESENT)("issue 28 §3: what is and is not a charity's report, on every real document in ../shared/corpora", () => {
  it("both real charity documents (the UK Python Association's CC16a forms) are read, each with its number from the form's first line", async () => {
    for (const p of ["charity/ukpa-cc16a-receipts-payments-2022-23.pdf", "charity/ukpa-cc16a-receipts-payments-latest.pdf"]) {
      const r = read(docFromPdf(await readPdf(await shared(p))));
      expect(r.recognition, p).toMatchObject({
        recognised: true,
        note: expect.stringMatching(/^Read as a charity's report and accounts: it has a charity number \(173471\), receipts and payments accounts/),
      });
      expect(r.charity.charityNumber.value, p).toBe("173471");
    }
  });

  it("no other real document is read as one: the 212 modern slavery statements (several by charities, naming their charity number and trustees), the other statements, plans and the Ofsted report", async () => {
    const csv = new TextDecoder().decode(await shared("modern-slavery/wikirate-msa-training-labels-with-text.csv"));
    const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data.filter((r) => r.Text);
    expect(rows.length).toBeGreaterThanOrEqual(200);
    const byCharities = ["Save the Children", "The Prince's Trust", "World Vision UK", "United Response"];
    for (const c of byCharities)
      expect(
        rows.some((r) => r.Company.startsWith(c)),
        c,
      ).toBe(true);
    const misread = rows.filter((r) => read(docFromText(r.Text)).recognition.recognised).map((r) => `${r.Company} ${r.Year}`);
    expect(misread).toEqual([]);
    // The charities' statements name a charity: what they lack is a report's form, and the note says so.
    const stc = rows.find((r) => r.Company.startsWith("Save the Children"))!;
    expect(read(docFromText(stc.Text)).recognition.note).toMatch(
      /^The document does not read as a charity's trustees' report or accounts: it has none of the parts of one/,
    );
    for (const p of [
      "modern-slavery/statements/edan-uk-mss-2024.pdf",
      "modern-slavery/statements/ridgestone-developments-mss.pdf",
      "carbon-reduction-plans/apexiar-crp.pdf",
      "carbon-reduction-plans/edan-uk-crp-2023.pdf",
      "ofsted/farnham-heath-end-school-2016-s5.pdf",
    ])
      expect(read(docFromPdf(await readPdf(await shared(p)))).recognition.recognised, p).toBe(false);
    for (const p of [
      "modern-slavery/statements/cwiri-mss-2026.html",
      "modern-slavery/statements/wildfig-research-mss.html",
      "modern-slavery/statements/planned-ltd-modern-slavery.html",
      "carbon-reduction-plans/planned-ltd-crp.html",
    ])
      expect(read(docFromHtml(new TextDecoder().decode(await shared(p)))).recognition.recognised, p).toBe(false);
  });
});

describe("issue 28 §3: the real forms of a charity's report, in fixtures reproducing their mess (test/fixtures/documents/charity-forms)", () => {
  it("the issue's plain-prose report (\"Annual Report and Financial Statements … Registered charity number 1100001 … Trustees … Financial review\"): a trustees' report, its number, its figures from the text", async () => {
    const doc = docFromText(await formsText("riverside-plain-2025.txt"));
    const r = read(doc);
    checkSchema(r);
    checkEvidence(r, doc);
    expect(r.recognition).toMatchObject({ recognised: true, parts: ["a trustees' report", "accounts"] });
    expect(r.recognition.note).toMatch(
      /^Read as a charity's trustees' report and accounts: it has a charity number \(1100001\).*a report's or accounts' title.*the trustees' report's section financial review/,
    );
    expect(r.charity.name.value).toBe("Riverside Community Trust");
    expect(r.charity.charityNumber).toMatchObject({ value: "1100001", evidence: { quote: "Registered charity number 1100001" } });
    expect(r.charity.regulator.value).toBe("charity_commission");
    expect(r.charity.financialYear.value).toEqual({ start: "2024-04-01", end: "2025-03-31" });
    expect(r.finances.income).toMatchObject({
      value: { amount: 84_500, priorYear: { amount: 77_300 } },
      note: expect.stringMatching(/From the report's text/),
    });
    expect(amount(r.finances.expenditure)).toBe(79_200);
    expect(r.flags.deficit.value).toBe(false);
    expect(r.governance.meetings.value).toMatchObject({ perYear: 4 });
    expect(r.governance.approvedOn.value).toBe("2025-09-12");
    expect(r.delivery.peopleHelped.value).toBe(1240);
    expect(r.facts[0]).toBe("Riverside Community Trust (charity number 1100001, as the report gives it).");
    const json = JSON.stringify(r);
    for (const n of await formsPeople()) expect(json, n).not.toContain(n);
  });

  it("the Charity Commission's CC17a trustees' annual report form as a PDF: 'Section C Objectives and activities' and the others, the number after 'Registered charity number (if any)', the period From … To …", async () => {
    const doc = await formsPdf("hilltop-cc17a-2025.pages.txt");
    const r = read(doc);
    checkSchema(r);
    checkEvidence(r, doc);
    expect(r.recognition.recognised).toBe(true);
    expect(r.recognition.parts[0]).toBe("a trustees' report");
    expect(r.recognition.note).toMatch(
      /sections objectives and activities, achievements and performance, financial review, structure, governance and management/,
    );
    expect(r.charity.name.value).toBe("Hilltop Youth Music CIO");
    expect(r.charity.charityNumber).toMatchObject({
      value: "1150002",
      evidence: { page: 1, quote: expect.stringContaining("Registered charity number (if any) 1150002") },
    });
    expect(r.charity.financialYear.value).toEqual({ start: "2024-04-01", end: "2025-03-31" });
    expect(amount(r.finances.income)).toBe(9840);
    expect(amount(r.finances.expenditure)).toBe(8215);
    expect(r.governance.publicBenefit.value).toBe(true);
    expect(r.governance.approvedOn.value).toBe("2025-10-03");
    const json = JSON.stringify(r);
    for (const n of await formsPeople()) expect(json, n).not.toContain(n);
  });

  it("the accounts software's 'REPORT OF THE TRUSTEES AND UNAUDITED FINANCIAL STATEMENTS' (PDF): capitals, the running header dropped, the name from the examiner's report, the SOFA's section totals", async () => {
    const doc = await formsPdf("ashworth-arts-2025.pages.txt");
    // The running header (the charity's name, "FOR THE YEAR ENDED 31 MARCH 2025") repeats on every page and is not read.
    expect(doc.text).not.toMatch(/^ASHWORTH COMMUNITY ARTS$/m);
    const r = read(doc);
    checkSchema(r);
    checkEvidence(r, doc);
    expect(r.recognition.parts).toEqual(["a trustees' report", "accruals accounts", "an independent examiner's report"]);
    expect(r.charity.charityNumber).toMatchObject({
      value: "1187222",
      evidence: { page: 1, quote: expect.stringMatching(/REGISTERED CHARITY NUMBER: 1187222/) },
    });
    expect(r.charity.companyNumber.value).toBe("07654321");
    expect(r.charity.name).toMatchObject({ value: "Ashworth Community Arts", note: "The name the examiner's or auditor's report is addressed to." });
    expect(r.charity.financialYear.value).toEqual({ start: "2024-04-01", end: "2025-03-31" });
    // "INCOME AND ENDOWMENTS FROM … Total 41,010 9,500 50,510 47,190": the section's "Total" is the total income.
    expect(r.finances.income).toMatchObject({
      value: { amount: 50_510, priorYear: { amount: 47_190 } },
      evidence: { quote: "Total 41,010 9,500 50,510 47,190" },
    });
    // "EXPENDITURE ON Charitable activities 3 38,940 12,000 50,940 44,380": one line, no "Total" row: the line is the total.
    expect(r.finances.expenditure).toMatchObject({
      value: { amount: 50_940, priorYear: { amount: 44_380 } },
      evidence: { quote: expect.stringMatching(/Charitable activities 3 38,940 12,000 50,940 44,380$/) },
    });
    expect(amount(r.finances.netIncome)).toBe(-430);
    expect(amount(r.finances.funds.total)).toBe(27_700);
    expect(r.finances.reserves.value).toMatchObject({ kind: "free_reserves", amount: 21_300 });
    expect(r.governance.scrutiny.value).toBe("independent_examination");
    expect(r.governance.approvedOn.value).toBe("2025-12-19");
    expect(r.flags.lateFiling.value).toBe(false);
    const json = JSON.stringify(r);
    for (const n of await formsPeople()) expect(json, n).not.toContain(n);
  });

  it("what is not a report, though it names a charity and its number: a charity's modern slavery statement, its 'About us' page", async () => {
    const ms = read(docFromText(await formsText("not-a-report-ms-statement.txt")));
    expect(ms.recognition).toMatchObject({ recognised: false, parts: [] });
    expect(ms.recognition.note).toMatch(
      /^The document does not read as a charity's trustees' report or accounts: it has none of the parts of one \(no title such as "Trustees' annual report"/,
    );
    expect(ms.charity.charityNumber.value).toBeNull();
    // "You can read our latest annual report and accounts …": a report named in prose, not the document's title.
    const about = read(docFromHtml(await formsText("not-a-report-about-page.html")));
    expect(about.recognition.recognised).toBe(false);
    // A recipe names no charity at all, and has no report's form: both said.
    expect(read(docFromText("Lemon drizzle cake. Mix 225g butter with 225g caster sugar. Bake for 45 minutes at 180C. Serves 12.")).recognition.note).toMatch(
      /it names no charity .*; and it has none of the parts of one/,
    );
  });

  it("the charity number wherever and however the text states it; never a company number, a year or a phone number", () => {
    const numberIn = (line: string) =>
      read(
        docFromText(
          `Oakwood Trust\nTrustees' annual report for the year ended 31 March 2025\n\n${line}\n\nFinancial review\nTotal income for the year was £12,000.`,
        ),
      ).charity.charityNumber.value;
    const stated: [string, string][] = [
      ["Registered charity number 1100001", "1100001"],
      ["Charity No. 1100001", "1100001"],
      ["Charity registration number: 1100001", "1100001"],
      ["Registered Charity No 1100001", "1100001"],
      ["REGISTERED CHARITY NUMBER: 1100001", "1100001"],
      ["Reg. Charity No. 1100001", "1100001"],
      ["Charity Reg No 1100001", "1100001"],
      ["Charity number (England and Wales): 1100001", "1100001"],
      ["Registered charity in England & Wales, no. 1100001", "1100001"],
      ["Registered with the Charity Commission under number 1100001.", "1100001"],
      ["Oakwood Trust is registered with the Charity Commission (no. 1100001).", "1100001"],
      ["Registered charity 1100001", "1100001"],
      ["A registered charity (number 1100001) and a company limited by guarantee (company number 01234567).", "1100001"],
      ["Registered charity numbers: 1100001 (England and Wales) and SC041877 (Scotland)", "1100001"],
      ["Charity number: 212345", "212345"],
      ["Registered charity number 1100001-2", "1100001-2"],
      ["Scottish Charity Number SC041877", "SC041877"],
      ["Charity No: NIC104872", "NIC104872"],
    ];
    for (const [line, want] of stated) expect(numberIn(line), line).toBe(want);
    for (const line of ["Company number 01234567", "A registered charity since 1998, with 1,234 members.", "Call the charity office on 0161 496 0000."])
      expect(numberIn(line), line).toBeNull();
    // The label on a line of its own (a table's cell, a form's field), the number on the next.
    expect(
      read(
        docFromText(
          "Oakwood Trust\nTrustees' annual report for the year ended 31 March 2025\n\nReference and administrative details\n\nRegistered Charity Number\n\n1100001\n\nPrincipal address\n\nThe Old School, Oakwood",
        ),
      ).charity.charityNumber.value,
    ).toBe("1100001");
  });
});
