import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { makePdf } from "../../../scripts/fixtures/make-pdf.mjs";
import { OFSTED_EXAMPLE_TEXT, OfstedReply } from "../../../src/app/documents/ofstedReply";
import { type Doc, docFromHtml, docFromPdf, docFromText } from "../../../src/services/documents/document";
import { Reading } from "../../../src/services/documents/evidence";
import { redactNames } from "../../../src/services/documents/names";
import { type OfstedReport, gradeOf, inspectionRangeIn, readOfstedReport } from "../../../src/services/documents/ofsted";
import { readPdf } from "../../../src/sources/documents/pdf";

/**
 * Issue 17 §3 "ofsted-report": the Ofsted report reader on its four formats. The real 2016 report first (../shared,
 * skipped without it), then our fixtures of the formats we have no real sample of (test/fixtures/documents/ofsted:
 * written from the published structure, invented schools and people), then edge cases.
 */
const TODAY = "2026-03-01";
/** The test runtime's outbound connection is now and then lost under load: a fetch of a local file is tried once more. */
const get = (url: string) => fetch(url).catch(() => fetch(url));
const shared = async (p: string) => new Uint8Array(await (await get(`http://shared.test/corpora/${p}`)).arrayBuffer());
const fixture = async (f: string) => {
  const res = await get(`http://files.test/documents/ofsted/${f}`);
  expect(res.status, f).toBe(200);
  return res.text();
};
/** A fixture written as the text of a PDF's pages (pages split by a form feed), made into a PDF and read back. */
const pdfFixture = async (f: string) => {
  const pages = (await fixture(f)).split("\f").map((p) => p.replace(/^\n/, "").replace(/\n$/, "").split("\n"));
  return docFromPdf(await readPdf(makePdf(pages)));
};
const read = (doc: Doc, today = TODAY) => readOfstedReport(new Reading(doc), { today });
const text = (t: string) => read(docFromText(t));
const areas = (r: OfstedReport) => Object.fromEntries(r.gradedAreas.map((a) => [a.key, a.grade]));
const json = (r: OfstedReport) => JSON.stringify(r);
/** The reply schema accepts the report (the operation adds the rest). */
const fitsReply = (r: OfstedReport) => {
  const { facts: _facts, ...fields } = r;
  expect(() => OfstedReply.parse(fields)).not.toThrow();
};
const noNames = (r: OfstedReport, names: string[]) => {
  const all = json(r).toLowerCase();
  for (const n of names) for (const part of [n, n.split(" ").slice(-1)[0]]) expect(all, `"${part}" is in the reply`).not.toContain(part.toLowerCase());
};

describe.skipIf(!SHARED_PRESENT)("real documents (../shared/corpora)", () => {
  it("Farnham Heath End School, 2016 (PDF, 10 pages, format 1): the grade table on page 1, read as the pipeline joins its lines", async () => {
    const doc = docFromPdf(await readPdf(await shared("ofsted/farnham-heath-end-school-2016-s5.pdf")));
    const r = read(doc);
    expect(r.format).toMatchObject({ value: "graded-table-to-2019", note: expect.stringMatching(/Common Inspection Framework/) });
    expect(r.provider.name).toMatchObject({ value: "Farnham Heath End School", evidence: { page: 1 } });
    expect(r.provider.urn).toMatchObject({ value: "139486", evidence: { quote: "Unique reference number 139486", page: 8 } });
    expect(r.provider.type.value).toBe("Secondary Comprehensive");
    expect(r.provider.category.value).toBe("Academy converter");
    // "carried out under section 8 … also deemed a section 5 inspection".
    expect(r.inspectionType).toMatchObject({
      value: { kind: "graded", section: "section 5" },
      evidence: { page: 8 },
      note: expect.stringMatching(/section 8 and deemed a section 5/),
    });
    expect(r.inspectionDates).toMatchObject({
      value: { from: "2016-02-09", to: "2016-02-10" },
      evidence: { quote: "Inspection dates 9–10 February 2016", page: 1 },
    });
    expect(r.monthsSinceInspection).toBe(120);
    expect(r.overallEffectiveness).toMatchObject({
      value: { grade: "Requires improvement", gradeNumber: 3, evaluation: null },
      evidence: { quote: "Overall effectiveness Requires improvement", page: 1 },
      note: null,
    });
    expect(r.gradedAreas.map((a) => [a.key, a.area, a.gradeNumber, a.evidence.page])).toEqual([
      ["leadership-and-management", "Effectiveness of leadership and management", 3, 1],
      ["quality-of-teaching", "Quality of teaching, learning and assessment", 3, 1],
      ["personal-development-behaviour-and-welfare", "Personal development, behaviour and welfare", 2, 1],
      ["outcomes", "Outcomes for pupils", 3, 1],
    ]);
    // The body's judgement headings ("… is good", "… require improvement") agree with the table: no note.
    expect(r.gradedAreas.every((a) => a.note === null)).toBe(true);
    expect(r.safeguarding).toMatchObject({
      value: { status: "effective", effective: true },
      evidence: { quote: "The arrangements for safeguarding are effective.", page: 4 },
    });
    expect(r.causingConcern.value).toBeNull();
    expect(r.previousInspection).toMatchObject({ value: { grade: "Good", gradeNumber: 2, date: "2012-10" }, evidence: { page: 1 } });
    // The report's own list of strengths: its three bullets (the PDF's symbol-font bullets split them).
    expect(r.strengths.map((s) => s.quote.slice(0, 40))).toEqual([
      "Leaders have created a very calm and ord",
      "Leaders have taken decisive steps to add",
      "Newly appointed leaders are responding m",
    ]);
    expect(r.strengths.every((s) => s.page === 1)).toBe(true);
    // "What does the school need to do to improve further?": three points, each with its sub-points.
    expect(r.improvements.map((s) => s.quote.slice(0, 30))).toEqual([
      "Increase the progress that dis",
      "Improve the quality of teachin",
      "Ensure that leaders at all lev",
    ]);
    expect(r.improvements[0].quote).toMatch(/by: – ensuring that all staff closely monitor/);
    expect(r.improvements.every((s) => s.page === 2 && s.section === "What does the school need to do to improve further?")).toBe(true);
    // Themes: reading comes up (the reading programme, the library), mathematics more; not the back page's "safeguarding and child protection".
    const theme = Object.fromEntries(r.themes.map((t) => [t.key, t.sentences]));
    expect(theme.reading).toBeGreaterThanOrEqual(4);
    expect(theme.mathematics).toBeGreaterThan(theme.reading);
    expect(r.themes.find((t) => t.key === "safeguarding")!.example.page).not.toBe(10);
    expect(r.themes.map((t) => t.sentences)).toEqual([...r.themes.map((t) => t.sentences)].sort((a, b) => b - a));
    // The chair, the headteacher and the inspectors are named in the PDF; never in the reply.
    noNames(r, ["Jenny Spencer", "Nicholas Phillips", "Seamus Murphy", "Mark Bennison", "Julie Miriam", "Adam Mirams", "Peter Whear", "Helen Bailey"]);
    expect(r.facts).toEqual(
      expect.arrayContaining([
        "Overall effectiveness: Requires improvement.",
        "Personal development, behaviour and welfare: Good.",
        "Safeguarding: effective.",
        "Inspection: graded (section 5), 9–10 February 2016.",
      ]),
    );
    fitsReply(r);
  });
});

describe("our fixtures of the formats with no real sample here", () => {
  it("format 2, graded (section 5), a PDF with a running header and footer: the judgements table, a renamed label, the school details", async () => {
    const doc = await pdfFixture("hollins-brook-2022-s5.pdf.txt");
    expect(doc.pages).toBe(5);
    const r = read(doc);
    expect(r.format).toMatchObject({ value: "eif-2019-2024", note: expect.stringMatching(/The quality of education.*overall effectiveness grade/) });
    expect(r.provider.name.value).toBe("Hollins Brook Primary School");
    expect(r.provider.urn.value).toBe("115823");
    expect(r.provider).toMatchObject({ type: { value: "Primary" }, category: { value: "Maintained" } });
    expect(r.inspectionType).toMatchObject({ value: { kind: "graded", section: "section 5" }, evidence: { page: 4 } });
    expect(r.inspectionDates.value).toEqual({ from: "2022-03-08", to: "2022-03-09" });
    expect(r.overallEffectiveness.value).toEqual({ grade: "Requires improvement", gradeNumber: 3, evaluation: null });
    // "Leadership & management Requires  improvement" (renamed, odd spacing) is still leadership and management.
    expect(areas(r)).toEqual({
      "quality-of-education": "Requires improvement",
      "behaviour-and-attitudes": "Good",
      "personal-development": "Good",
      "leadership-and-management": "Requires improvement",
      "early-years": "Good",
    });
    expect(r.gradedAreas.find((a) => a.key === "leadership-and-management")).toMatchObject({
      area: "Leadership & management",
      gradeNumber: 3,
      evidence: { page: 1 },
    });
    expect(r.safeguarding).toMatchObject({ value: { status: "effective" }, evidence: { page: 2, section: "Safeguarding" } });
    expect(r.previousInspection.value).toEqual({ grade: "Good", gradeNumber: 2, date: "2017-06-14" });
    expect(r.improvements).toHaveLength(3);
    expect(r.improvements[1]).toMatchObject({
      quote: expect.stringMatching(/^Not all staff have the expertise to teach the new phonics programme.*match the sounds they know\.$/),
      page: 2,
    });
    // Strengths: praise without reservation, from both narrative parts (the PDF left their titles inside sentences).
    expect(r.strengths.length).toBeGreaterThanOrEqual(4);
    expect(new Set(r.strengths.map((s) => s.section))).toEqual(
      new Set(["What is it like to attend this school?", "What does the school do well and what does it need to do better?"]),
    );
    for (const s of r.strengths) expect(s.quote).not.toMatch(/\b(not|however|too|should)\b/i);
    expect(r.themes.find((t) => t.key === "reading")!.sentences).toBeGreaterThanOrEqual(4);
    // The running header is not a heading, nor quoted.
    expect(json(r)).not.toContain("Inspection report:");
    noNames(r, ["Aileen Farrow", "Tomasz Wren", "Rhian Castell", "Dominic Alvey"]);
    fitsReply(r);
  });

  it("format 2, ungraded (section 8), pasted as text with the running headers inline: continues to be good, no grade table was read", async () => {
    const r = read(docFromText(await fixture("st-aidans-2022-s8.txt")));
    expect(r.format).toMatchObject({ value: "eif-2019-2024", note: expect.stringMatching(/What is it like to attend this school\?.*no grade table was read/) });
    expect(r.provider.name.value).toBe("St Aidan’s CofE Primary School");
    expect(r.provider.urn.value).toBe("118842");
    expect(r.inspectionType.value).toEqual({ kind: "ungraded", section: "section 8" });
    expect(r.inspectionType.evidence!.quote).toMatch(/^Inspection of a good school/);
    expect(r.inspectionDates.value).toEqual({ from: "2022-11-17", to: "2022-11-17" });
    expect(r.overallEffectiveness).toMatchObject({
      value: { grade: "Good", gradeNumber: 2 },
      evidence: { quote: "St Aidan’s CofE Primary School continues to be a good school." },
      note: expect.stringMatching(/ungraded inspection.*no new grade/i),
    });
    expect(r.gradedAreas).toEqual([]);
    expect(r.safeguarding.value).toEqual({ status: "effective", effective: true });
    // "since we judged the school to be good in June 2017", the day from "Date of previous inspection 21 June 2017".
    expect(r.previousInspection.value).toEqual({ grade: "Good", gradeNumber: 2, date: "2017-06-21" });
    expect(r.improvements.map((p) => p.quote.slice(0, 28))).toEqual(["In a few foundation subjects", "Assessment in some foundatio"]);
    expect(r.strengths.length).toBeGreaterThanOrEqual(4);
    noNames(r, ["Alan Gatward", "Bernadette Quill", "Owen Prichard"]);
    expect(r.facts).toContain("Inspection: ungraded (section 8), 17 November 2022.");
    fitsReply(r);
  });

  it("format 3 (September 2024), a PDF: no overall grade (said why), the sub-judgements graded, a table cell wrapped over two lines", async () => {
    const r = read(await pdfFixture("harrowden-vale-2024-s5.pdf.txt"));
    expect(r.format).toMatchObject({ value: "no-overall-grade-2024", note: expect.stringMatching(/no overall effectiveness grade.*2024-10-02/) });
    expect(r.overallEffectiveness).toMatchObject({ value: null, evidence: null, note: expect.stringMatching(/from September 2024/) });
    expect(areas(r)).toEqual({
      "quality-of-education": "Good",
      "behaviour-and-attitudes": "Requires improvement",
      "personal-development": "Good",
      "leadership-and-management": "Good",
      // "Sixth-form" / "provision Good" on two lines.
      "sixth-form": "Good",
    });
    expect(r.safeguarding).toMatchObject({ value: { status: "effective", effective: true }, evidence: { quote: "Safeguarding Effective", page: 1 } });
    expect(r.previousInspection.value).toEqual({ grade: "Requires improvement", gradeNumber: 3, date: "2019-12-12" });
    expect(r.provider).toMatchObject({ name: { value: "Harrowden Vale Academy" }, urn: { value: "147021" }, type: { value: "Secondary comprehensive" } });
    expect(r.improvements.map((p) => p.quote.slice(0, 30))).toEqual(["Staff do not apply the school'", "Too many pupils are persistent"]);
    expect(r.themes[0].key).toBe("behaviour");
    // The page-1 paragraph names the headteacher, the CEO and the chair of trustees; the inspectors are named too.
    noNames(r, ["Marcus Delaney", "Fenella Osei-Brown", "Graham Pike", "Niamh Roper", "Kwame Adjei-Mensah", "Lorraine Baptiste"]);
    expect(r.facts).toContain("No overall effectiveness grade (not given from September 2024).");
    fitsReply(r);
  });

  it("format 4, a report card (HTML page on the regulator's site): five-point evaluations, safeguarding met, no overall grade", async () => {
    const r = read(docFromHtml(await fixture("ravenscar-lane-2026-report-card.html")));
    expect(r.format).toMatchObject({ value: "report-card-2025", note: expect.stringMatching(/7 evaluation areas.*five-point/) });
    expect(r.overallEffectiveness).toMatchObject({ value: null, note: expect.stringMatching(/Report cards.*no overall grade/) });
    expect(r.gradedAreas.map((a) => [a.key, a.evaluation, a.gradeNumber])).toEqual([
      ["inclusion", "strong-standard", null],
      ["curriculum-and-teaching", "expected-standard", null],
      ["achievement", "needs-attention", null],
      ["attendance-and-behaviour", "expected-standard", null],
      ["personal-development-and-well-being", "strong-standard", null],
      ["early-years", "expected-standard", null],
      ["leadership-and-governance", "expected-standard", null],
    ]);
    // "Personal development and wellbeing", "Leadership & governance", "Expected  standard": as written.
    expect(r.gradedAreas.find((a) => a.key === "leadership-and-governance")!.area).toBe("Leadership & governance");
    expect(r.safeguarding).toMatchObject({ value: { status: "met", effective: true }, evidence: { quote: "Safeguarding Met" } });
    expect(r.provider).toMatchObject({ name: { value: "Ravenscar Lane Primary School" }, urn: { value: "142207" } });
    expect(r.inspectionDates.value).toEqual({ from: "2026-01-27", to: "2026-01-29" });
    expect(r.inspectionType.value).toEqual({ kind: "graded", section: "section 5" });
    expect(r.previousInspection.value).toEqual({ grade: null, gradeNumber: null, date: "2022-05-04" });
    // "Next steps" as a web page's list: each item, to the sentence that says what to do.
    expect(r.improvements.map((p) => p.quote.slice(0, 30))).toEqual(["Pupils do not write at length ", "In some foundation subjects, t"]);
    expect(r.strengths.some((s) => s.section === "Inclusion")).toBe(true);
    noNames(r, ["Priya Gill", "Daniel Okafor", "Helen Rowbotham"]);
    fitsReply(r);
  });

  it("the documented example (a short report card as text, 30–60 lines) reads correctly", () => {
    const lines = OFSTED_EXAMPLE_TEXT.trim().split("\n").length;
    expect(lines).toBeGreaterThanOrEqual(30);
    expect(lines).toBeLessThanOrEqual(60);
    const r = text(OFSTED_EXAMPLE_TEXT);
    expect(r.format.value).toBe("report-card-2025");
    expect(r.provider).toMatchObject({ name: { value: "Harbour View Primary School" }, urn: { value: "150123" }, type: { value: "Primary" } });
    expect(r.inspectionDates.value).toEqual({ from: "2026-01-20", to: "2026-01-22" });
    expect(areas(r)).toEqual({
      inclusion: "Expected standard",
      "curriculum-and-teaching": "Strong standard",
      achievement: "Expected standard",
      "attendance-and-behaviour": "Needs attention",
      "personal-development-and-well-being": "Expected standard",
      "early-years": "Strong standard",
      "leadership-and-governance": "Expected standard",
    });
    expect(r.safeguarding.value).toEqual({ status: "met", effective: true });
    expect(r.overallEffectiveness.value).toBeNull();
    expect(r.improvements).toHaveLength(2);
    expect(r.strengths.length).toBeGreaterThanOrEqual(4);
    expect(r.themes[0].key).toBe("attendance");
    fitsReply(r);
  });
});

describe("edge cases", () => {
  it("an empty or irrelevant document: every field couldn't tell, nothing invented, no crash", () => {
    for (const doc of [docFromText(""), docFromText("Lemon drizzle cake\nBeat the butter and sugar. Fold in the flour. Bake for 45 minutes at 180C.")]) {
      const r = read(doc);
      expect(r.format).toMatchObject({ value: null, evidence: null, note: expect.stringMatching(/does not read as an Ofsted inspection report/) });
      for (const f of [
        r.provider.name,
        r.provider.urn,
        r.inspectionType,
        r.inspectionDates,
        r.overallEffectiveness,
        r.safeguarding,
        r.previousInspection,
        r.causingConcern,
      ])
        expect(f.value).toBeNull();
      expect([r.gradedAreas, r.strengths, r.improvements, r.themes]).toEqual([[], [], [], []]);
      expect(r.facts).toHaveLength(1);
      fitsReply(r);
    }
  });

  it("a document of another type (a CQC report, a modern slavery statement) is not read as an Ofsted report", () => {
    const cqc = text(`Care Quality Commission
Inspection report
Meadowbank Care Home
Date of inspection visit: 4 March 2025
Overall rating Good
Is the service safe? Requires improvement
Is the service effective? Good
Is the service well-led? Good
Leadership and management of the service were effective. The registered manager is Mrs Jane Holt.`);
    expect(cqc.format.value).toBeNull();
    expect(cqc.gradedAreas).toEqual([]);
    expect(cqc.overallEffectiveness.value).toBeNull();
    const mss = text(
      "Modern Slavery Statement 2025\nThis statement is made under section 54 of the Modern Slavery Act 2015. Our supply chains include timber. The board approved this statement on 1 May 2025.",
    );
    expect(mss.format.value).toBeNull();
    expect(mss.themes).toEqual([]);
  });

  it("messy labels: a pasted 2012–2015 table (grade numbers, 'Previous inspection:' / 'This inspection:'), lower case and a typo", () => {
    const r = text(`School report
Kestrel Rise Primary School
Inspection dates 3–4 March 2015
Overall effectiveness Previous inspection: Good 2
This inspection: Requires Improvment 3
Leadership and management Requires improvement 3
Behaviour and safety of pupils Good 2
Quality of teaching Requires improvement 3
Achievement of pupils Requires improvement 3
Early years provision Good 2
Summary of key findings for parents and pupils
This is a school that requires improvement. It is not good because teaching is not consistently good.`);
    expect(r.format.value).toBe("graded-table-to-2019");
    expect(r.overallEffectiveness.value).toEqual({ grade: "Requires Improvment", gradeNumber: 3, evaluation: null });
    expect(r.previousInspection.value).toMatchObject({ grade: "Good", gradeNumber: 2 });
    expect(areas(r)).toEqual({
      "leadership-and-management": "Requires improvement",
      "behaviour-and-safety": "Good",
      "quality-of-teaching": "Requires improvement",
      outcomes: "Requires improvement",
      "early-years": "Good",
    });
    expect(r.provider.name.value).toBe("Kestrel Rise Primary School");
  });

  it("a grade table that disagrees with the report's own judgement heading: the table's grade, and a note quoting the text", () => {
    const r = text(`School report
Linwood Academy
Inspection dates 12–13 October 2017
Overall effectiveness Good
Effectiveness of leadership and management Good
Quality of teaching, learning and assessment Good
Personal development, behaviour and welfare Good
Outcomes for pupils Good

Outcomes for pupils require improvement
Pupils' progress in mathematics has declined.`);
    const outcomes = r.gradedAreas.find((a) => a.key === "outcomes")!;
    expect(outcomes).toMatchObject({
      grade: "Good",
      gradeNumber: 2,
      note: expect.stringMatching(/table says "Good".*"Outcomes for pupils require improvement"/),
    });
    expect(r.gradedAreas.filter((a) => a.note)).toHaveLength(1);
  });

  it("a short-inspection letter (2015–2019): ungraded, continues to be good, its next steps; the addressee and the inspector not named", () => {
    const r = text(`Mrs Karen Whitlow
Headteacher
Fenbridge Junior School
Dear Mrs Whitlow
Short inspection of Fenbridge Junior School
Following my visit to the school on 21 March 2018, I write on behalf of Her Majesty's Chief Inspector to report the inspection findings. The visit was the first short inspection carried out since the school was judged to be good in February 2014.
This school continues to be good.
The leadership team has maintained the good quality of education in the school since the last inspection. Pupils are confident and articulate learners.
Safeguarding is effective.
Next steps for the school
Leaders and those responsible for governance should ensure that:
• the most able pupils are challenged to reach the higher standards in writing
• middle leaders check the impact of their actions on pupils' progress.
Yours sincerely
Martin Ashdown
Her Majesty's Inspector`);
    expect(r.format.value).toBe("graded-table-to-2019");
    expect(r.inspectionType.value).toEqual({ kind: "ungraded", section: "section 8" });
    expect(r.inspectionDates.value).toEqual({ from: "2018-03-21", to: "2018-03-21" });
    expect(r.overallEffectiveness).toMatchObject({ value: { grade: "Good", gradeNumber: 2 }, note: expect.stringMatching(/ungraded/i) });
    expect(r.safeguarding.value).toEqual({ status: "effective", effective: true });
    expect(r.previousInspection.value).toEqual({ grade: "Good", gradeNumber: 2, date: "2014-02" });
    expect(r.improvements.map((p) => p.quote)).toEqual([
      "the most able pupils are challenged to reach the higher standards in writing",
      "middle leaders check the impact of their actions on pupils' progress.",
    ]);
    expect(r.provider.name.value).toBe("Fenbridge Junior School");
    noNames(r, ["Karen Whitlow", "Martin Ashdown"]);
  });

  it("a monitoring letter: a monitoring inspection, no overall grade; special measures read as a category of concern", () => {
    const r = text(`Monitoring inspection of Oakhurst Community College
Following my visit to your school on 5 and 6 February 2019, I write on behalf of Her Majesty's Chief Inspector.
The school requires special measures.
Leaders and managers are taking effective action towards the removal of special measures.
Safeguarding is effective.`);
    expect(r.inspectionType.value).toEqual({ kind: "monitoring", section: "section 8" });
    expect(r.inspectionDates.value).toEqual({ from: "2019-02-05", to: "2019-02-06" });
    expect(r.overallEffectiveness).toMatchObject({ value: null, note: expect.stringMatching(/monitoring inspection gives no overall grade/) });
    expect(r.causingConcern).toMatchObject({ value: "special-measures", evidence: { quote: "The school requires special measures." } });
    expect(
      text("Inspection of Oakhurst Community College\nWhat is it like to attend this school?\nThe school is no longer in special measures. Pupils are happy.")
        .causingConcern.value,
    ).toBeNull();
  });

  it("format 3 recognised by the report's statement when no date is found; safeguarding not effective; advice is not a judgement", () => {
    const r = text(`Inspection of Brackley Fields School
The quality of education Requires improvement
Behaviour and attitudes Inadequate
Personal development Requires improvement
Leadership and management Inadequate
Ofsted no longer gives an overall effectiveness grade to state-funded schools.
What is it like to attend this school?
Pupils do not feel safe at this school.
Safeguarding
The arrangements for safeguarding are not effective.
What does the school need to do to improve?
• Leaders must ensure that the arrangements for safeguarding are effective. Leaders must make sure that all staff report concerns promptly.`);
    expect(r.format).toMatchObject({ value: "no-overall-grade-2024", note: expect.stringMatching(/statement that there is no overall grade/) });
    expect(r.safeguarding).toMatchObject({
      value: { status: "not-effective", effective: false },
      evidence: { quote: "The arrangements for safeguarding are not effective." },
    });
    expect(r.gradedAreas.map((a) => a.gradeNumber)).toEqual([3, 4, 3, 4]);
    expect(r.improvements).toHaveLength(1);
  });

  it("a grade table read column by column (all the names, then all the grades) is paired in order", () => {
    const r = text(`Inspection of Brambleford Primary School
Inspection dates: 5 and 6 July 2023
Overall effectiveness
The quality of education
Behaviour and attitudes
Personal development
Leadership and management
Early years provision
Previous inspection grade
Good
Good
Outstanding
Good
Good
Requires improvement
Good

What is it like to attend this school?
Pupils love coming to this school.`);
    expect(r.format.value).toBe("eif-2019-2024");
    expect(r.overallEffectiveness.value).toMatchObject({ grade: "Good", gradeNumber: 2 });
    expect(areas(r)).toEqual({
      "quality-of-education": "Good",
      "behaviour-and-attitudes": "Outstanding",
      "personal-development": "Good",
      "leadership-and-management": "Good",
      "early-years": "Requires improvement",
    });
    expect(r.previousInspection.value).toMatchObject({ grade: "Good" });
    expect(r.gradedAreas[1].evidence.quote).toBe("Behaviour and attitudes … Outstanding");
  });

  it("a good school's 2015–2019 key findings are its strengths (up to 'It is not yet outstanding because'); the older safeguarding wording", () => {
    const r = text(`School report
Wrenfield Church of England Primary School
Inspection dates 7–8 June 2017
Overall effectiveness Good
Effectiveness of leadership and management Good
Quality of teaching, learning and assessment Good
Personal development, behaviour and welfare Outstanding
Outcomes for pupils Good
Overall effectiveness at previous inspection Requires improvement
Summary of key findings for parents and pupils
This is a good school
• The headteacher, Mrs Ada Lovell, has high expectations. Leaders have improved teaching since the previous inspection.
• Pupils make good progress in reading, writing and mathematics.
It is not yet an outstanding school because
• The most able pupils are not challenged enough in mathematics.
What does the school need to do to improve further?
• Ensure that the most able pupils are consistently challenged in mathematics.
Safeguarding
The school's arrangements for safeguarding pupils meet statutory requirements.`);
    expect(r.strengths.map((s) => s.quote)).toEqual([
      "The headteacher, [name], has high expectations. Leaders have improved teaching since the previous inspection.",
      "Pupils make good progress in reading, writing and mathematics.",
    ]);
    expect(r.improvements.map((s) => s.quote)).toEqual(["Ensure that the most able pupils are consistently challenged in mathematics."]);
    expect(r.safeguarding).toMatchObject({
      value: { status: "effective" },
      evidence: { quote: "The school's arrangements for safeguarding pupils meet statutory requirements." },
    });
    expect(r.previousInspection.value).toMatchObject({ grade: "Requires improvement", gradeNumber: 3 });
    expect(json(r)).not.toContain("Lovell");
  });

  it("an early years setting: EY URN, type of provision, the Childcare Act sections, a sub-heading inside a part", () => {
    const r = text(`Inspection of Little Acorns Day Nursery
12 Orchard Way, Fenmoor FM1 4TT
Inspection date: 12 May 2022
Overall effectiveness: Good
The quality of education: Good
Behaviour and attitudes: Good
Personal development: Outstanding
Leadership and management: Good
Overall effectiveness at previous inspection: Requires improvement

What is it like for your child to attend this early years setting?
The provision is good
Children arrive happy and settle quickly. Staff are kind and caring, and children form strong bonds with their key person.

Safeguarding
The arrangements for safeguarding are effective.

Setting details
Unique reference number EY498877
Type of provision Childcare on non-domestic premises
Registers Early Years Register, Compulsory Childcare Register

Information about this inspection
This inspection was carried out by Ofsted under sections 49 and 50 of the Childcare Act 2006 on the quality and standards of provision.`);
    expect(r.format.value).toBe("eif-2019-2024");
    expect(r.provider).toMatchObject({
      name: { value: "Little Acorns Day Nursery" },
      urn: { value: "EY498877" },
      type: { value: "Childcare on non-domestic premises" },
    });
    expect(r.inspectionType.value).toEqual({ kind: "graded", section: "sections 49 and 50" });
    expect(r.overallEffectiveness.value).toMatchObject({ grade: "Good" });
    expect(r.strengths.map((s) => s.section)).toEqual([
      "What is it like for your child to attend this early years setting?",
      "What is it like for your child to attend this early years setting?",
    ]);
  });

  it("dates: a range across months or years, one day, a date after today", () => {
    expect(inspectionRangeIn("Inspection dates 30 September – 1 October 2019")).toMatchObject({ from: "2019-09-30", to: "2019-10-01" });
    expect(inspectionRangeIn("31 December 2019 to 2 January 2020")).toMatchObject({ from: "2019-12-31", to: "2020-01-02" });
    expect(inspectionRangeIn("10, 11 and 12 March 2020")).toMatchObject({ from: "2020-03-10", to: "2020-03-12" });
    expect(inspectionRangeIn("Inspection date 12 May 2022")).toMatchObject({ from: "2022-05-12", to: "2022-05-12" });
    const r = read(docFromText("School report\nAlder School\nInspection dates 3–4 March 2027\nOverall effectiveness Good\nOutcomes for pupils Good"));
    expect(r.inspectionDates).toMatchObject({ value: { from: "2027-03-03", to: "2027-03-04" }, note: expect.stringMatching(/after today/) });
    expect(r.monthsSinceInspection).toBeNull();
  });

  it("grades: the four-point and the five-point scales", () => {
    expect(gradeOf("Requires  improvement")).toEqual({ grade: "Requires improvement", gradeNumber: 3, evaluation: null });
    expect(gradeOf("Outstanding")).toMatchObject({ gradeNumber: 1 });
    expect(gradeOf("Urgent improvement")).toEqual({ grade: "Urgent improvement", gradeNumber: null, evaluation: "urgent-improvement" });
    expect(gradeOf("Effective")).toBeNull();
  });

  it("names removed from quotes: titles, role labels, 'the headteacher is …', inspectors; the school's own name kept", () => {
    expect(redactNames("Chair Mrs Jenny Spencer")).toBe("Chair [name]");
    expect(redactNames("Headteacher Nicholas Phillips Telephone number 01252 733371")).toBe("Headteacher [name] Telephone number 01252 733371");
    expect(redactNames("Seamus Murphy, lead inspector Her Majesty’s Inspector")).toBe("[name], lead inspector Her Majesty’s Inspector");
    expect(redactNames("The headteacher of this school is Jane Smith-Jones. This school is part of Oak Trust.")).toBe(
      "The headteacher of this school is [name]. This school is part of Oak Trust.",
    );
    expect(
      redactNames("The trust is run by the chief executive officer, Fenella Osei-Brown, and overseen by a board of trustees, chaired by Graham Pike."),
    ).toBe("The trust is run by the chief executive officer, [name], and overseen by a board of trustees, chaired by [name].");
    expect(redactNames("Signed: A. N. Other, Headteacher")).toBe("Signed: [name], Headteacher");
    expect(redactNames("Helena Marsh, the headteacher, met the inspectors.")).toBe("[name], the headteacher, met the inspectors.");
    expect(redactNames("Principal/CEO Jane Smith")).toBe("Principal/CEO [name]");
    expect(redactNames("Dear Mr Smith")).toBe("Dear [name]");
    // A school or trust named after a person is an organisation.
    expect(redactNames("Pupils at Lady Margaret School and Dr Challoner's Grammar School")).toBe(
      "Pupils at Lady Margaret School and Dr Challoner's Grammar School",
    );
    expect(redactNames("The school is run by Oakfield Learning Trust.")).toBe("The school is run by Oakfield Learning Trust.");
    expect(redactNames("St Aidan’s CofE Primary School continues to be a good school.")).toBe("St Aidan’s CofE Primary School continues to be a good school.");
    expect(redactNames("Pupils in Year 6 enjoy their visits to Kew Gardens.")).toBe("Pupils in Year 6 enjoy their visits to Kew Gardens.");
  });

  it("deterministic: the same document gives the same reply", () => {
    const a = text(OFSTED_EXAMPLE_TEXT);
    const b = text(OFSTED_EXAMPLE_TEXT);
    expect(json(a)).toBe(json(b));
  });
});
