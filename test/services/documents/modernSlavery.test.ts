import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { makePdf } from "../../../scripts/fixtures/make-pdf.mjs";
import { MODERN_SLAVERY_EXAMPLE_TEXT, ModernSlaveryReply } from "../../../src/app/documents/modernSlaveryReply";
import { type Doc, docFromHtml, docFromPdf, docFromText } from "../../../src/services/documents/document";
import { Reading } from "../../../src/services/documents/evidence";
import { type ModernSlaveryReport, classifyBody, readModernSlavery, roleQualifies } from "../../../src/services/documents/modernSlavery";
import { redactNames } from "../../../src/services/documents/names";
import { InputError } from "../../../src/shared/errors";
import { readPdf } from "../../../src/sources/documents/pdf";

/**
 * Issue 17 §3 (modern-slavery) and §5: the modern slavery statement reader. Real statements first (../shared/corpora,
 * read and checked by hand: who approved, who signed and in what role), then our fixtures (test/fixtures/documents/
 * modern-slavery), then edge cases. `today` is fixed so "out of date" cannot drift.
 */
const TODAY = "2026-11-25";
const sharedBytes = async (p: string) => new Uint8Array(await (await fetch(`http://shared.test/corpora/${p}`)).arrayBuffer());
const fixture = async (f: string) => (await fetch(`http://files.test/documents/modern-slavery/${f}`)).text();
const read = (doc: Doc, today = TODAY) => readModernSlavery(new Reading(doc), { today });
const readText = (text: string, today = TODAY) => read(docFromText(text), today);
/** A text fixture as a PDF: pages split on form feeds, lines wrapped to the page's width. */
const pdfOf = (text: string) => makePdf(text.split("\f").map((page) => page.split("\n").flatMap((l) => l.match(/.{1,90}(?:\s|$)|\S+/g) ?? [""])));

/** The report (without `facts`) matches the documented reply schema, with no field the schema does not name. */
function expectValid(r: ModernSlaveryReport) {
  const { facts, ...rest } = r;
  const parsed = ModernSlaveryReply.strict().safeParse(rest);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(facts.length).toBeGreaterThan(0);
  for (const f of facts) expect(f).toMatch(/\.$/);
}

/** No quote, role, body or fact carries the person's name (or its surname alone). */
function expectNotNamed(r: ModernSlaveryReport, person: string) {
  const json = JSON.stringify(r);
  expect(person.trim().length).toBeGreaterThan(2);
  expect(json).not.toContain(person.trim());
  const surname = person.trim().split(/\s+/).pop()!;
  if (surname.length > 3) expect(json).not.toContain(surname);
}

describe.skipIf(!SHARED_PRESENT)("the six hand-checked statements (../shared/corpora/modern-slavery/statements)", () => {
  // Read by hand: EDAN (PDF, 2 pages) — no approval stated; "Signed" over "<name>, UK General Manager"; covers the
  // "financial year ending 2021" though headed "January 2024"; calls itself "our Group's … statement".
  it("EDAN Medical (UK) Ltd (PDF): signed by a UK General Manager — not a director — and no approval stated: does not meet", async () => {
    const pdf = await readPdf(await sharedBytes("modern-slavery/statements/edan-uk-mss-2024.pdf"));
    const r = read(docFromPdf(pdf));
    expect(r.organisation.value).toBe("EDAN Medical (UK) Ltd");
    expect(r.approval).toMatchObject({ value: null, evidence: null });
    expect(r.signature.value).toEqual({ role: "UK General Manager", qualifies: false, date: null });
    expect(r.signature.evidence).toEqual({ quote: "Signed [name], UK General Manager", page: 2, section: "Signed" });
    expect(r.signOff.verdict).toBe("does_not_meet");
    expect(r.signOff.reasons.join(" ")).toMatch(/does not say it was approved.*UK General Manager: not a director/);
    expect(r.financialYear.value).toEqual({ period: "financial year ending 2021", endDate: null, year: 2021 });
    expect(r.financialYear.evidence?.page).toBe(2);
    expect(r.statementDate).toMatchObject({ value: "2024-01", evidence: { quote: "Modern Slavery Statement – January 2024", page: 1 } });
    expect(r.outOfDate.value).toBe(true);
    expect(r.groupStatement).toMatchObject({ value: true, entities: [], evidence: { page: 2 } });
    expect(r.areas.training.score).toBe(0);
    expect(r.gaps).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/No approval by the board/),
        expect.stringMatching(/UK General Manager, who is not a director/),
        expect.stringMatching(/Nothing on training/),
      ]),
    );
    // The signer's name, as the PDF gives it, is nowhere in the report.
    expectNotNamed(r, /^(.+?), UK General Manager$/m.exec(pdf.pages[1])![1]);
    expectValid(r);
  });

  // Read by hand: Cwiri (HTML) — "Approved by: Board of Directors, Cwiri Ltd", "Date: 23 Feb 2026", "Signed: <name>",
  // "Name / Title: Director"; financial year 1 September 2025 to 31 August 2026.
  it("Cwiri Ltd (HTML): approved by the Board of Directors on 23 February 2026 and signed by a Director: meets", async () => {
    const html = new TextDecoder().decode(await sharedBytes("modern-slavery/statements/cwiri-mss-2026.html"));
    const r = read(docFromHtml(html));
    expect(r.organisation.value).toBe("Cwiri Ltd");
    expect(r.approval.value).toEqual({ by: "board_of_directors", body: "Board of Directors, Cwiri Ltd", date: "2026-02-23", qualifies: true });
    expect(r.approval.evidence).toMatchObject({ quote: "Approved by: Board of Directors, Cwiri Ltd Date: 23 Feb 2026", section: "10) Approval" });
    expect(r.signature.value).toEqual({ role: "Director", qualifies: true, date: null });
    expect(r.signature.evidence?.quote).toBe("Signed: [name] Name / Title: Director");
    expect(r.signOff.verdict).toBe("meets");
    expect(r.financialYear.value).toEqual({ period: "financial year 1 September 2025 to 31 August 2026", endDate: "2026-08-31", year: 2026 });
    expect(r.statementDate.value).toBe("2026-02-23");
    expect(r.outOfDate.value).toBe(false);
    // "Cwiri is not part of a wider corporate group": not a group statement.
    expect(r.groupStatement).toMatchObject({ value: false, entities: [] });
    // Training: awareness "addressed through induction" — mentioned, not specific.
    expect(r.areas.training).toMatchObject({ score: 1, inDevelopment: false });
    expect(r.areas.effectiveness.score).toBeGreaterThanOrEqual(1);
    expect(r.gaps).toEqual([]);
    expectNotNamed(r, /Signed:<\/strong>\s*<span[^>]*>([^<]+)</.exec(html)![1]);
    expectValid(r);
  });

  // Read by hand: Planned Ltd (HTML) — "approved by the board of Planned Limited on 11 August 2026 and is signed on its
  // behalf by the sole director"; then "<name>" / "Director, Planned Limited" / "11 August 2026". Voluntary statement.
  it("Planned Limited (HTML): approved by its board and signed by its sole director on 11 August 2026: meets", async () => {
    const html = new TextDecoder().decode(await sharedBytes("modern-slavery/statements/planned-ltd-modern-slavery.html"));
    const r = read(docFromHtml(html));
    expect(r.organisation.value).toBe("Planned Limited");
    expect(r.approval.value).toEqual({ by: "board_of_directors", body: "board of Planned Limited", date: "2026-08-11", qualifies: true });
    expect(r.signature.value).toEqual({ role: "Director", qualifies: true, date: "2026-08-11" });
    expect(r.signature.evidence?.quote).toBe("Director, Planned Limited 11 August 2026");
    expect(r.signOff.verdict).toBe("meets");
    expect(r.financialYear.value).toEqual({ period: "financial year ended 28 February 2026", endDate: "2026-02-28", year: 2026 });
    expect(r.statementDate.value).toBe("2026-08-11");
    expect(r.outOfDate.value).toBe(false);
    // Its sections are specific: three named effectiveness tests reviewed annually.
    expect(r.areas.effectiveness.score).toBe(2);
    expect(r.areasScore.total).toBeGreaterThanOrEqual(8);
    expectNotNamed(r, /<strong>([^<]+)<\/strong><br>Director, Planned Limited/.exec(html)![1]);
    expectValid(r);
  });

  // Read by hand: Ridgestone (PDF) — "has been approved by the Board of Directors"; initials, then "<name>, Founder &
  // CEO, Ridgestone Developments Ltd." and "14/05/2024". A CEO with no director title does not count.
  it("Ridgestone Developments Ltd (PDF): board approval, but signed by a Founder & CEO with no director title: does not meet", async () => {
    const pdf = await readPdf(await sharedBytes("modern-slavery/statements/ridgestone-developments-mss.pdf"));
    const r = read(docFromPdf(pdf));
    expect(r.organisation.value).toBe("Ridgestone Developments Ltd");
    expect(r.approval.value).toEqual({ by: "board_of_directors", body: "Board of Directors", date: null, qualifies: true });
    expect(r.approval.evidence?.page).toBe(2);
    expect(r.signature.value).toEqual({ role: "Founder & CEO", qualifies: false, date: "2024-05-14" });
    expect(r.signature.evidence).toMatchObject({ quote: "[name], Founder & CEO, Ridgestone Developments Ltd. 14/05/2024", page: 2 });
    expect(r.signature.note).toMatch(/not, by that title, a director/);
    expect(r.signOff.verdict).toBe("does_not_meet");
    expect(r.financialYear.value).toBeNull();
    expect(r.statementDate.value).toBe("2024-05-14");
    expect(r.outOfDate).toMatchObject({ value: true, note: expect.stringMatching(/dated 14 May 2024, 30 months before/) });
    expect(r.areas.effectiveness.score).toBe(0);
    expect(r.areas.training).toMatchObject({ score: 1, audiences: ["all_employees", "suppliers"] });
    expectNotNamed(r, /^(.+?), Founder & CEO/m.exec(pdf.pages[1])![1]);
    expectValid(r);
  });

  // Read by hand: Wild Fig (HTML) — a placeholder page ("This page will set out our commitment…"): nothing approved,
  // nothing signed, no area covered.
  it("Wild Fig Research (HTML): a placeholder page — no approval, no signature, no area: does not meet, everything a gap", async () => {
    const r = read(docFromHtml(new TextDecoder().decode(await sharedBytes("modern-slavery/statements/wildfig-research-mss.html"))));
    expect(r.approval.value).toBeNull();
    expect(r.signature.value).toBeNull();
    expect(r.signOff.verdict).toBe("does_not_meet");
    expect(r.areasScore).toEqual({ total: 0, max: 12 });
    expect(r.outOfDate.value).toBeNull();
    expect(r.gaps.length).toBeGreaterThanOrEqual(8);
    expectValid(r);
  });

  it("EDAN's older statement (a scan with no text layer) is refused as unreadable, not read as empty", async () => {
    const e = await readPdf(await sharedBytes("modern-slavery/statements/edan-uk-mss-older-no-text-layer.pdf")).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InputError);
    expect(e).toMatchObject({ code: "unreadable_input" });
  });

  it("a document of another type (a real carbon reduction plan, signed off by a director): not a statement, sign-off couldn't tell", async () => {
    const r = read(docFromPdf(await readPdf(await sharedBytes("carbon-reduction-plans/apexiar-crp.pdf"))));
    expect(r.signOff.verdict).toBe("couldnt_tell");
    expect(r.signOff.reasons[0]).toMatch(/does not read as a modern slavery statement/);
    expect(r.areas.training.score).toBe(0);
    expectValid(r);
  });
});

describe("our fixtures (test/fixtures/documents/modern-slavery)", () => {
  it("signed by a Head of Compliance (a name line, then the role, then the date): the approval qualifies, the signature does not", async () => {
    const text = await fixture("head-of-compliance.txt");
    const r = readText(text);
    expect(r.organisation.value).toBe("Transhaul Freight Services Limited");
    expect(r.approval.value).toMatchObject({ by: "board_of_directors", date: "2025-03-04", qualifies: true });
    expect(r.signature.value).toEqual({ role: "Head of Compliance", qualifies: false, date: "2025-03-04" });
    expect(r.signOff.verdict).toBe("does_not_meet");
    expect(r.gaps).toContain("Signed by a Head of Compliance, who is not a director, designated member or partner (s.54(6)).");
    expect(r.financialYear.value).toMatchObject({ endDate: "2024-12-31", year: 2024 });
    expect(r.areas.training).toMatchObject({ score: 2, inDevelopment: false });
    expect(r.areas.training.audiences).toEqual(expect.arrayContaining(["leadership", "recruitment_hr"]));
    expect(r.areas.dueDiligence.score).toBe(2);
    expectNotNamed(r, "Priya Examplewood");
    expectValid(r);
  });

  it("an LLP's statement (HTML) approved by its members and signed by a designated member: meets", async () => {
    const r = read(docFromHtml(await fixture("llp-designated-member.html")));
    expect(r.organisation.value).toBe("Harbour Lane Legal LLP");
    expect(r.approval.value).toEqual({ by: "members", body: "members of Harbour Lane Legal LLP", date: "2025-05-02", qualifies: true });
    expect(r.signature.value).toEqual({ role: "Designated Member", qualifies: true, date: "2025-05-02" });
    expect(r.signOff.verdict).toBe("meets");
    // The site's navigation and footer are not read; the statement has no KPIs.
    expect(r.areas.effectiveness.score).toBe(0);
    expect(r.gaps).toEqual(["Nothing on measuring effectiveness / KPIs (s.54(5)(e))."]);
    expect(r.areas.training.audiences).toEqual(expect.arrayContaining(["all_employees", "procurement"]));
    expectNotNamed(r, "Jordan Sampleton");
    expectValid(r);
  });

  it("a group statement (as a two-page PDF): the parent and the three subsidiaries it lists, signed by a CEO who is also a director", async () => {
    const r = read(docFromPdf(await readPdf(pdfOf(await fixture("group-statement.txt")))));
    expect(r.organisation.value).toBe("Northfield Holdings plc");
    expect(r.groupStatement.value).toBe(true);
    expect(r.groupStatement.entities).toEqual([
      "Northfield Holdings plc",
      "Northfield Foods Limited",
      "Northfield Logistics Limited",
      "Northfield Packaging Ltd",
    ]);
    expect(r.groupStatement.evidence?.page).toBe(1);
    expect(r.signature.value).toEqual({ role: "Chief Executive Officer and Director", qualifies: true, date: "2025-07-18" });
    expect(r.signature.evidence?.page).toBe(2);
    expect(r.approval.value).toMatchObject({ by: "board_of_directors", body: "Board of Northfield Holdings plc", date: "2025-07-18" });
    expect(r.signOff.verdict).toBe("meets");
    expect(r.areasScore.total).toBe(12);
    expect(r.facts).toContain(
      "Group statement covering Northfield Holdings plc, Northfield Foods Limited, Northfield Logistics Limited, Northfield Packaging Ltd.",
    );
    expectNotNamed(r, "Sam Placeholder");
    expectValid(r);
  });

  it("an old statement (financial year ending 31 March 2019): out of date; training only planned; signed over a dotted line by a Managing Director", async () => {
    const r = readText(await fixture("old-2019.txt"));
    expect(r.financialYear.value).toEqual({ period: "financial year ending 31 March 2019", endDate: "2019-03-31", year: 2019 });
    expect(r.outOfDate).toMatchObject({ value: true, note: expect.stringMatching(/91 months before 25 November 2026/) });
    expect(r.gaps).toContain(r.outOfDate.note);
    expect(r.signature.value).toEqual({ role: "Managing Director", qualifies: true, date: "2019-06-28" });
    expect(r.statementDate.value).toBe("2019-06-28");
    expect(r.approval.value).toMatchObject({ by: "board_of_directors", date: null });
    expect(r.signOff.verdict).toBe("meets");
    // "We do not yet provide training …, but we will introduce an e-learning module": none given, some planned.
    expect(r.areas.training).toMatchObject({ score: 0, inDevelopment: true });
    expect(r.gaps).toContain("Training on modern slavery is only planned (training on slavery and human trafficking (s.54(5)(f))).");
    expect(r.areas.riskAssessment.score).toBe(0);
    expectValid(r);
  });

  it('a messy statement: renamed headings, stray spacing, a typo\'d title, "Signed ……… Director" and "23rd Feb. 2024"', async () => {
    const r = readText(await fixture("messy.txt"));
    expect(r.organisation.value).toBe("Kestrel & Finch Catering Ltd");
    expect(r.financialYear.value).toEqual({ period: "FY 2023/24", endDate: null, year: 2024 });
    expect(r.approval.value).toEqual({ by: "board_of_directors", body: "board", date: "2024-02-23", qualifies: true });
    expect(r.signature.value).toEqual({ role: "Director", qualifies: true, date: "2024-02-23" });
    expect(r.statementDate.value).toBe("2024-02-23");
    expect(r.signOff.verdict).toBe("meets");
    // Headings as the writer named them: "OUR SET-UP", "Where the risks are", "Keeping people informed".
    expect(r.areas.structure.score).toBe(2);
    expect(r.areas.riskAssessment.score).toBeGreaterThanOrEqual(1);
    // "Site managers did a 1 hour awareness session with an outside trainer": training given, in general terms.
    expect(r.areas.training).toMatchObject({ score: 1, inDevelopment: false });
    expect(r.areas.training.evidence[0].quote).toMatch(/^Site managers did a 1 hour awareness session/);
    // "we dont have formal KPI's yet": mentioned, not specific.
    expect(r.areas.effectiveness.score).toBe(1);
    expectValid(r);
  });
});

describe("the documented example", () => {
  it("reads as documented: every field found, sign-off met, no person named", () => {
    const r = readText(MODERN_SLAVERY_EXAMPLE_TEXT);
    expect(r.organisation.value).toBe("Example Joinery Ltd");
    expect(r.financialYear.value).toEqual({ period: "financial year ending 31 March 2026", endDate: "2026-03-31", year: 2026 });
    expect(r.approval.value).toEqual({ by: "board_of_directors", body: "Board of Directors", date: "2026-06-12", qualifies: true });
    expect(r.signature.value).toEqual({ role: "Managing Director", qualifies: true, date: "2026-06-12" });
    expect(r.signOff.verdict).toBe("meets");
    expect(r.outOfDate.value).toBe(false);
    expect(r.areasScore).toEqual({ total: 12, max: 12 });
    expect(r.areas.training).toMatchObject({ audiences: ["all_employees", "procurement"], inDevelopment: true });
    expect(r.gaps).toEqual([]);
    expectNotNamed(r, "Alex Sampleford");
    expectValid(r);
    const lines = MODERN_SLAVERY_EXAMPLE_TEXT.trim().split("\n").length;
    expect(lines).toBeGreaterThanOrEqual(30);
    expect(lines).toBeLessThanOrEqual(60);
  });
});

describe("edge cases", () => {
  it("an empty document: everything couldn't tell, nothing invented, no crash", () => {
    const r = readText("");
    expect(r.organisation.value).toBeNull();
    expect(r.approval.value).toBeNull();
    expect(r.signature.value).toBeNull();
    expect(r.signOff.verdict).toBe("couldnt_tell");
    expect(r.outOfDate.value).toBeNull();
    expect(r.areasScore.total).toBe(0);
    expectValid(r);
  });

  it("an irrelevant document (a school's newsletter, signed by its head): not a statement, so sign-off couldn't tell", () => {
    const r = readText(
      "Spring newsletter\nDear parents, our Year 6 trip to York was a great success. The summer fair raised £2,300 for the library.\nSigned: Jo Sample, Headteacher\n12 March 2026",
    );
    expect(r.signOff.verdict).toBe("couldnt_tell");
    expect(r.areas.training.score).toBe(0);
    expectNotNamed(r, "Jo Sample");
    expectValid(r);
  });

  it("markdown headings and a signature 'for and on behalf of the Board' with no approval sentence: the board's authority is read from it", () => {
    const r = readText(
      "# Modern slavery statement 2026\nThis statement is made under section 54 of the Modern Slavery Act 2015 by Acorn Example Ltd.\n## Signed\nFor and on behalf of the Board of Acorn Example Ltd\nTaylor Sample, Finance Director\n3 June 2026",
    );
    expect(r.approval.value).toMatchObject({ by: "board_of_directors", qualifies: true });
    expect(r.approval.note).toMatch(/on behalf of the board/);
    expect(r.signature.value).toEqual({ role: "Finance Director", qualifies: true, date: "2026-06-03" });
    expect(r.signOff.verdict).toBe("meets");
    expectNotNamed(r, "Taylor Sample");
  });

  it("approval by a management team, or by a person, does not meet s.54(6)", () => {
    const team = readText(
      "Modern slavery statement.\nThis statement has been approved by the Senior Management Team on 1 May 2026.\nSigned: Managing Director",
    );
    expect(team.approval.value).toMatchObject({ by: "other", body: "Senior Management Team", qualifies: false });
    expect(team.signOff.verdict).toBe("does_not_meet");
    const person = readText("Modern slavery statement.\nThis statement has been approved by Casey Sample, Chief Executive Officer, on 1 May 2026.");
    expect(person.approval.value).toMatchObject({ by: "other", qualifies: false });
    expect(person.approval.note).toMatch(/Approved by a person/);
    expectNotNamed(person, "Casey Sample");
  });

  it("a signature line that gives no role: couldn't tell whether a director signed", () => {
    const r = readText(
      "Modern slavery statement 2026.\nThis statement was approved by the board of directors on 2 April 2026.\nSigned: ____________________\nDate: 2 April 2026",
    );
    expect(r.signature.value).toEqual({ role: null, qualifies: null, date: "2026-04-02" });
    expect(r.signOff.verdict).toBe("couldnt_tell");
    expect(r.gaps).toContain("The signer's role is not given, so a director's signature cannot be confirmed (s.54(6)).");
  });

  it("co-signed by a CEO and a director: the director's signature is the one that counts, the other is noted", () => {
    const r = readText(
      "Modern slavery statement 2026.\nApproved by the Board on 5 May 2026.\nSigned:\nRiley Sample, Chief Executive Officer\nMorgan Sample, Non-executive Director\n5 May 2026",
    );
    expect(r.signature.value).toMatchObject({ role: "Non-executive Director", qualifies: true });
    expect(r.signature.note).toMatch(/Also signed by: Chief Executive Officer/);
    expect(r.signOff.verdict).toBe("meets");
    expectNotNamed(r, "Riley Sample");
    expectNotNamed(r, "Morgan Sample");
  });

  it("a document cut before its end (a long PDF read in part) with no sign-off found: couldn't tell", () => {
    const doc = docFromText("Modern slavery statement.\nOur business is a bakery with 40 staff.");
    const r = read({ ...doc, cut: true });
    expect(r.signOff.verdict).toBe("couldnt_tell");
    expect(r.signOff.reasons.join(" ")).toMatch(/longer than was read/);
  });

  it("out of date: more than 18 months after the end of the year it covers", () => {
    const text = "Modern slavery statement for the financial year ending 31 March 2025.";
    expect(readText(text, "2026-09-30").outOfDate.value).toBe(false);
    expect(readText(text, "2026-10-31").outOfDate.value).toBe(true);
  });

  it("training: code-of-conduct training, posters and reading the policy are not training on modern slavery; 'no training' is 0", () => {
    const none = readText(
      "Modern slavery statement.\n## Training\nAll employees take annual online training on our Code of Conduct. Posters about modern slavery are displayed in every office. New starters are required to read our Modern Slavery Policy at induction.",
    );
    expect(none.areas.training).toMatchObject({ score: 0, inDevelopment: false, evidence: [] });
    const no = readText("Modern slavery statement.\nAt present we provide no training on modern slavery or human trafficking.");
    expect(no.areas.training.score).toBe(0);
    expect(no.areas.training.note).toMatch(/says there is no training/);
    const yes = readText(
      "Modern slavery statement.\nOur buyers and HR team received modern slavery training from Stronger Together in 2025, and 96% of staff completed our e-learning module.",
    );
    expect(yes.areas.training).toMatchObject({ score: 2, audiences: ["procurement", "recruitment_hr"], inDevelopment: false });
  });

  it("the approving body is classified: board, members, partners, trustees or governing body, or other", () => {
    expect(classifyBody("Board of Directors of Example Ltd")).toBe("board_of_directors");
    expect(classifyBody("Court of Directors")).toBe("board_of_directors");
    expect(classifyBody("members of Example LLP")).toBe("members");
    expect(classifyBody("partners")).toBe("partners");
    expect(classifyBody("Board of Trustees")).toBe("trustees");
    expect(classifyBody("University Council")).toBe("trustees");
    expect(classifyBody("Group Management Team")).toBe("other");
    expect(classifyBody("Chief Executive Officer of Example on behalf of the Board")).toBe("other");
  });

  it("who may sign: a director (or equivalent), a designated member or a partner — not a CEO, general manager, head of compliance or company secretary", () => {
    const ok = [
      "Director",
      "Managing Director",
      "Finance Director",
      "Group Managing Director",
      "CEO and Director",
      "Non-executive Chairman",
      "Chair of the Board of Trustees",
      "Trustee",
      "Designated Member",
      "Senior Partner",
      "Director of Example Holdings Ltd",
    ];
    const no = [
      "CEO",
      "Chief Executive Officer",
      "Group Chief Executive",
      "Founder & CEO",
      "General Manager",
      "UK General Manager",
      "Head of Compliance",
      "Company Secretary",
      "Associate Director",
      "Director of Procurement",
      "President",
      "Owner",
      "Chief Operating Officer",
    ];
    for (const role of ok) expect(roleQualifies(role).ok, role).toBe(true);
    for (const role of no) expect(roleQualifies(role).ok, role).toBe(false);
  });

  it("names come out of signature lines; organisations' names stay (names.ts redactNames, as the reader reads a sign-off)", () => {
    const signOff = (t: string) => redactNames(t, { signOff: true });
    expect(signOff("Signed: Alex Sample")).toBe("Signed: [name]");
    expect(signOff("Alex Sample, UK General Manager")).toBe("[name], UK General Manager");
    expect(signOff("Dr Alex J. Sample Group Chief Executive Officer January 2019")).toBe("[name] Group Chief Executive Officer January 2019");
    expect(signOff("Name: Alex Sample Title: Managing Director")).toBe("Name: [name] Title: Managing Director");
    expect(signOff("signed by our Managing Director Alex Sample on 1 May")).toBe("signed by our Managing Director [name] on 1 May");
    expect(signOff("Alex SampleFounder & Managing Director, Example Ltd")).toBe("[name] Founder & Managing Director, Example Ltd");
    expect(redactNames("S.M.", { line: true, signOff: true })).toBe("[name]");
    expect(signOff("Approved by: Board of Directors, Example Widgets Ltd")).toBe("Approved by: Board of Directors, Example Widgets Ltd");
    expect(signOff("Jo Sample, Managing Director, Example Foods (UK) Ltd")).toBe("[name], Managing Director, Example Foods (UK) Ltd");
    expect(signOff("Our Supply Chains are audited by Example Audit Ltd")).toBe("Our Supply Chains are audited by Example Audit Ltd");
    // Outside a signature block, a title's own words are not taken for a name; a name set off by commas is.
    expect(redactNames("Our Ethical Trade Manager reviews every audit.")).toBe("Our Ethical Trade Manager reviews every audit.");
    expect(redactNames("Our Head of Procurement, Alex Sample, leads this work.")).toBe("Our Head of Procurement, [name], leads this work.");
  });
});
