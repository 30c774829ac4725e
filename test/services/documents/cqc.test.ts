import { SHARED_PRESENT } from "../../support/shared";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { makePdf } from "../../../scripts/fixtures/make-pdf.mjs";
import { CQC_EXAMPLE_TEXT, CqcReply } from "../../../src/app/documents/cqcReply";
import { type CqcReport, daysIn, readCqcReport } from "../../../src/services/documents/cqc";
import { type Doc, docFromHtml, docFromPdf, docFromText } from "../../../src/services/documents/document";
import { Reading } from "../../../src/services/documents/evidence";
import { redactNames } from "../../../src/services/documents/names";
import { readPdf } from "../../../src/sources/documents/pdf";

/**
 * Issue 17 §3 "cqc-report": the CQC inspection report reader. There is no real CQC report in ../shared/corpora, so
 * the real documents there are used for what must NOT be read as one (the nearest is the Ofsted report, graded with
 * the same words); the CQC formats are our own fixtures (test/fixtures/documents/cqc), written from the published
 * structure: a 2019 care home report as a PDF, a single assessment framework report as text, a location page of
 * www.cqc.org.uk as HTML, and a messy 2018 domiciliary care report.
 */
const TODAY = "2026-11-25";
const read = (doc: Doc) => {
  const reading = new Reading(doc);
  return { report: readCqcReport(reading, { today: TODAY }), reading };
};
const shared = async (p: string) => {
  const r = await fetch(`http://shared.test/corpora/${p}`);
  expect(r.status, p).toBe(200);
  return new Uint8Array(await r.arrayBuffer());
};
const fixture = async (f: string) => {
  const r = await fetch(`http://files.test/documents/cqc/${f}`);
  expect(r.status, f).toBe(200);
  return r.text();
};
/** A PDF made from the fixture's lines, pages split at "--- page break ---", read as any PDF is. */
const pdfFixture = async (f: string) => {
  const pages = (await fixture(f)).split(/\n--- page break ---\n/).map((p) => p.replace(/\n$/, "").split("\n"));
  return docFromPdf(await readPdf(makePdf(pages)));
};
const ratings = (r: CqcReport) => ({
  overall: r.overallRating.value?.rating,
  safe: r.keyQuestions.safe.value?.rating,
  effective: r.keyQuestions.effective.value?.rating,
  caring: r.keyQuestions.caring.value?.rating,
  responsive: r.keyQuestions.responsive.value?.rating,
  wellLed: r.keyQuestions.wellLed.value?.rating,
});
const quotes = (list: { quote: string }[]) => list.map((e) => e.quote);
/** The reply's schema takes the report as it is (no field missing, none extra). */
const fitsReply = (r: CqcReport) => {
  const { facts: _facts, ...rest } = r;
  expect(() => CqcReply.strict().parse(rest)).not.toThrow();
};
const expectNothingRead = (r: CqcReport) => {
  expect(r.format).toBe("unknown");
  for (const f of [
    r.overallRating,
    ...Object.values(r.keyQuestions),
    r.service.name,
    r.service.address,
    r.provider.name,
    r.inspectionDates,
    r.publicationDate,
    r.ratingChange,
    r.registeredManager,
  ])
    expect(f).toMatchObject({ value: null, evidence: null, note: expect.any(String) });
  expect([r.strengths, r.concerns, r.breaches, r.enforcement, r.qualityStatements, r.facts]).toEqual([[], [], [], [], [], []]);
};

describe.skipIf(!SHARED_PRESENT)("real documents (../shared/corpora has no CQC report): other documents are not read as one", () => {
  it("the Ofsted 2016 report (PDF), graded with the same words (Requires improvement, Good), is not a CQC report", async () => {
    const doc = docFromPdf(await readPdf(await shared("ofsted/farnham-heath-end-school-2016-s5.pdf")));
    expect(doc.text).toMatch(/Overall effectiveness Requires improvement/);
    const { report } = read(doc);
    expectNothingRead(report);
    expect(report.formatNote).toMatch(/does not look like a CQC/);
    fitsReply(report);
  });

  it("a modern slavery statement (HTML) and a carbon reduction plan (PDF) are not CQC reports", async () => {
    const mss = read(docFromHtml(new TextDecoder().decode(await shared("modern-slavery/statements/planned-ltd-modern-slavery.html")))).report;
    const crp = read(docFromPdf(await readPdf(await shared("carbon-reduction-plans/apexiar-crp.pdf")))).report;
    expectNothingRead(mss);
    expectNothingRead(crp);
  });

  it("none of the 212 real statements of the WikiRate set is read as a CQC report, the care companies' that mention the CQC included", async () => {
    const csv = new TextDecoder().decode(await shared("modern-slavery/wikirate-msa-training-labels-with-text.csv"));
    const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data.filter((r) => (r.Text ?? "").length >= 40);
    expect(rows.length).toBeGreaterThan(200);
    expect(rows.filter((r) => /care quality commission|\bCQC\b/i.test(r.Text)).length).toBeGreaterThan(0);
    const recognised = rows.filter((r) => read(docFromText(r.Text)).report.format !== "unknown");
    expect(recognised.map((r) => r.Company)).toEqual([]);
  });
});

describe("a 2019 care home inspection report (PDF fixture: cover with ratings table, running header and footer, legal tables)", () => {
  it("the service, its provider, type and address from the cover; never the manager's name", async () => {
    const { report } = read(await pdfFixture("oakwood-house-2019.pages.txt"));
    expect(report.format).toBe("inspection_report");
    expect(report.service.name).toMatchObject({ value: "Oakwood House", evidence: { page: 1 } });
    expect(report.provider.name).toMatchObject({ value: "Sunrise Living Care Limited", evidence: { quote: "Sunrise Living Care Limited", page: 1 } });
    expect(report.service.type).toMatchObject({
      value: "care home",
      evidence: { quote: expect.stringContaining("Oakwood House is a residential care home"), page: 2 },
    });
    expect(report.service.address.value).toBe("14 Elm Grove, Ashford, Kent, TN23 4QX");
    expect(report.service.locationId).toMatchObject({ value: null, note: expect.stringMatching(/No CQC location ID/) });
    expect(report.registeredManager).toMatchObject({
      value: true,
      evidence: { quote: "The service had a manager registered with the Care Quality Commission.", page: 4 },
    });
    fitsReply(report);
  });

  it("the ratings table, its rows run together by the PDF and one split over two lines: the overall rating and the five key questions, quoted from page 1", async () => {
    const { report } = read(await pdfFixture("oakwood-house-2019.pages.txt"));
    expect(ratings(report)).toEqual({
      overall: "Requires improvement",
      safe: "Inadequate",
      effective: "Requires improvement",
      caring: "Good",
      responsive: "Good",
      wellLed: "Requires improvement",
    });
    expect(report.overallRating).toMatchObject({
      value: { asWritten: "Requires Improvement", score: null },
      evidence: { quote: "Overall rating for this service Requires Improvement", page: 1 },
      note: null,
    });
    expect(report.keyQuestions.safe.evidence).toMatchObject({ quote: "Is the service safe? Inadequate", page: 1 });
    expect(report.keyQuestions.wellLed.evidence).toMatchObject({ quote: "Is the service well-led? Requires Improvement", page: 1 });
    // The summary's "five questions" agree with the cover: no disagreement noted.
    for (const k of Object.values(report.keyQuestions)) expect(k.note).toBeNull();
  });

  it("dates: the visit's two days and the publication; the last rating's publication date is not taken for it", async () => {
    const { report } = read(await pdfFixture("oakwood-house-2019.pages.txt"));
    expect(report.inspectionDates).toMatchObject({
      value: { from: "2019-03-12", to: "2019-03-13" },
      evidence: { quote: "Date of inspection visit: 12 March 2019 13 March 2019", page: 1 },
    });
    expect(report.publicationDate).toMatchObject({ value: "2019-05-02", evidence: { quote: "Date of publication: 02 May 2019", page: 1 } });
    expect(report.reportAgeMonths).toBe(90);
    expect(report.ratingChange).toMatchObject({
      value: { previous: "Good", previousPublished: "2016-10-10", current: "Requires improvement", direction: "declined" },
      evidence: { quote: expect.stringContaining("The last rating for this service was Good (published 10 October 2016)"), page: 2 },
    });
  });

  it("breaches of regulations 12 and 17; a warning notice (regulation 12) and a requirement notice (regulation 17) from the legal tables", async () => {
    const { report } = read(await pdfFixture("oakwood-house-2019.pages.txt"));
    expect(report.breaches.map((b) => [b.regulation, b.regulations, b.title])).toEqual([
      ["12", "HSCA RA Regulations 2014", "Safe care and treatment"],
      ["17", "HSCA RA Regulations 2014", "Good governance"],
    ]);
    expect(report.enforcement.map((e) => [e.kind, e.regulation, e.previous])).toEqual([
      ["warning_notice", "12", false],
      ["requirement_notice", "17", false],
    ]);
    expect(report.enforcement[1].evidence).toMatchObject({ quote: expect.stringMatching(/^Regulation 17 HSCA RA Regulations 2014/), page: 6 });
    // Quotes end at a whole word.
    expect(report.enforcement[1].evidence.quote).toMatch(/\b(?:the|service\.?)$/);
  });

  it("strengths and concerns are the report's sentences, summary first; boilerplate and the rating legend are not taken", async () => {
    const { report, reading } = read(await pdfFixture("oakwood-house-2019.pages.txt"));
    expect(quotes(report.strengths)).toEqual(
      expect.arrayContaining([
        "People were supported by kind and caring staff who knew them well.",
        "People were treated with dignity and respect, and their privacy was maintained.",
      ]),
    );
    expect(quotes(report.concerns)).toEqual(
      expect.arrayContaining([
        "Medicines were not always managed safely.",
        "Staff did not always follow guidance from health professionals about people's fluid intake.",
        "We issued a warning notice in relation to regulation 12.",
      ]),
    );
    expect(quotes(report.concerns).some((q) => /breaches of regulations 12 and 17/.test(q))).toBe(true);
    const all = [...quotes(report.strengths), ...quotes(report.concerns)].join("\n");
    expect(all).not.toMatch(/We always ask|Details are in our|this means we looked for evidence|Full information about CQC|Please see the action/);
    expect(report.strengths.every((e) => e.page !== null)).toBe(true);
    // What was quoted is recorded as the passages read.
    expect(reading.passages().map((p) => p.section)).toEqual(expect.arrayContaining(["Ratings", "Summary of findings"]));
  });

  it("facts are plain sentences from the fields", async () => {
    const { report } = read(await pdfFixture("oakwood-house-2019.pages.txt"));
    expect(report.facts).toEqual([
      "Service: Oakwood House (care home).",
      "Provider: Sunrise Living Care Limited.",
      "Overall rating: Requires improvement (inspected 12 March 2019 to 13 March 2019, published 2 May 2019).",
      "Key questions — Safe: Inadequate; Effective: Requires improvement; Caring: Good; Responsive: Good; Well-led: Requires improvement.",
      "Previous rating: Good (published 10 October 2016); the rating has gone down.",
      "Breaches of regulation: regulation 12 (Safe care and treatment), regulation 17 (Good governance).",
      "Enforcement: a warning notice (regulation 12); a requirement notice (regulation 17).",
      "There was a registered manager.",
    ]);
  });
});

describe("a single assessment framework report (text fixture)", () => {
  it("the ratings as bare labels, the quality statements with their scores, the assessment dates", async () => {
    const { report } = read(docFromText(await fixture("meadowbank-lodge-assessment-2024.txt")));
    expect(report.format).toBe("assessment_report");
    expect(ratings(report)).toEqual({
      overall: "Requires improvement",
      safe: "Requires improvement",
      effective: "Good",
      caring: "Good",
      responsive: "Good",
      wellLed: "Inadequate",
    });
    expect(report.keyQuestions.wellLed.evidence?.quote).toBe("Well-led: Inadequate");
    expect(report.qualityStatements.map((q) => [q.keyQuestion, q.name, q.score])).toEqual([
      ["safe", "Learning culture", 2],
      ["safe", "Safeguarding", 3],
      ["safe", "Involving people to manage risks", 2],
      ["safe", "Medicines optimisation", 2],
      ["effective", "Assessing needs", 3],
      ["caring", "Kindness, compassion and dignity", 3],
      ["responsive", "Person-centred care", 3],
      ["wellLed", "Governance, management and sustainability", 1],
      ["wellLed", "Freedom to speak up", 2],
    ]);
    expect(report.qualityStatements[7].evidence.quote).toBe("Governance, management and sustainability Score: 1");
    expect(report.inspectionDates.value).toEqual({ from: "2024-03-04", to: "2024-03-20" });
    expect(report.publicationDate.value).toBe("2024-05-23");
    fitsReply(report);
  });

  it("the service, provider and their CQC IDs; breaches named without numbers; the warning notice", async () => {
    const { report } = read(docFromText(await fixture("meadowbank-lodge-assessment-2024.txt")));
    expect(report.service.name.value).toBe("Meadowbank Lodge");
    expect(report.service.locationId).toMatchObject({ value: "1-4455667788", evidence: { quote: "Location ID: 1-4455667788" } });
    expect(report.provider.name).toMatchObject({ value: "Northfell Care Homes Ltd", evidence: { quote: "Provided and run by: Northfell Care Homes Ltd" } });
    expect(report.provider.providerId.value).toBe("1-2233445566");
    expect(report.service.type.value).toBe("care home with nursing");
    expect(report.ratingChange.value).toEqual({ previous: "Good", previousPublished: null, current: "Requires improvement", direction: "declined" });
    expect(report.breaches.map((b) => b.regulation)).toEqual(["12", "17"]);
    expect(report.breaches[0].evidence.quote).toMatch(/in relation to safe care and treatment and good governance/);
    expect(report.enforcement.map((e) => [e.kind, e.regulation])).toEqual([["warning_notice", "17"]]);
    // The score line run into the next sentence is not quoted, nor does "good standard" make a strength.
    expect([...quotes(report.strengths), ...quotes(report.concerns)].join("\n")).not.toMatch(/Score:|Evidence shows/);
    expect(quotes(report.concerns)).toContain("Some people told us they sometimes waited a long time for help at night.");
    expect(quotes(report.strengths)).not.toContain("The service was previously rated Good.");
  });
});

describe("a location page on www.cqc.org.uk (HTML fixture with the site's cookie banner, header, navigation and footer)", () => {
  it("is read through docFromHtml: name, address, provider, ratings, latest inspection and publication dates", async () => {
    const html = await fixture("location-1-123456789.html");
    const { report } = read(docFromHtml(html));
    expect(report.format).toBe("location_page");
    expect(report.service.name.value).toBe("Oakwood House");
    expect(report.service.address.value).toBe("14 Elm Grove, Ashford, Kent, TN23 4QX");
    expect(report.service.type.value).toBe("care home");
    expect(report.service.locationId.value).toBe("1-123456789");
    expect(report.provider.name).toMatchObject({
      value: "Sunrise Living Care Limited",
      evidence: { quote: "Provided and run by: Sunrise Living Care Limited" },
    });
    expect(ratings(report)).toEqual({
      overall: "Requires improvement",
      safe: "Inadequate",
      effective: "Requires improvement",
      caring: "Good",
      responsive: "Good",
      wellLed: "Requires improvement",
    });
    expect(report.overallRating.evidence?.quote).toBe("Overall Requires improvement");
    expect(report.inspectionDates).toMatchObject({ value: { from: "2019-03-13", to: "2019-03-13" }, evidence: { quote: "Latest inspection 13 March 2019" } });
    expect(report.publicationDate).toMatchObject({ value: "2019-05-02", evidence: { quote: "Report published 2 May 2019" } });
    expect(report.enforcement.map((e) => [e.kind, e.regulation])).toEqual([["warning_notice", "12"]]);
    fitsReply(report);
  });

  it("the registered manager is there but never named; the site's chrome and the ratings legend are not read as findings", async () => {
    const html = await fixture("location-1-123456789.html");
    expect(html).toContain("Helen Carver");
    const { report } = read(docFromHtml(html));
    expect(report.registeredManager).toMatchObject({ value: true, evidence: { quote: "Registered manager [name]" } });
    const out = JSON.stringify(report);
    expect(out).not.toMatch(/Helen|Carver/);
    expect(out).not.toMatch(/cookies|Find and compare services|Citygate|Accept additional/i);
    // "we've taken enforcement action against the provider" is the legend, not this service's enforcement.
    expect(out).not.toMatch(/performing badly/);
    expect(report.enforcement.every((e) => e.kind === "warning_notice")).toBe(true);
    // The specialisms list is not a strength.
    expect(quotes(report.strengths)).toEqual([
      "People were supported by kind and caring staff who knew them well.",
      "People were treated with dignity and respect.",
    ]);
  });
});

describe('a messy report (text fixture: capitals, "Well led", a rating on the next line, numeric date, ratings that disagree)', () => {
  it("reads the ratings whatever their case or layout, and notes where the report disagrees with itself", async () => {
    const { report } = read(docFromText(await fixture("brightway-home-care-2018-messy.txt")));
    expect(report.format).toBe("inspection_report");
    expect(ratings(report)).toEqual({
      overall: "Inadequate",
      safe: "Inadequate",
      effective: "Requires improvement",
      caring: "Requires improvement",
      responsive: "Requires improvement",
      wellLed: "Inadequate",
    });
    expect(report.overallRating.value).toEqual({ rating: "Inadequate", asWritten: "INADEQUATE", score: null });
    expect(report.keyQuestions.wellLed.evidence?.quote).toBe("Is the service Well led? INADEQUATE");
    expect(report.keyQuestions.responsive.evidence?.quote).toBe("Is the service responsive? Requires Improvement");
    // The cover says Requires Improvement; the five questions further on say Good.
    expect(report.keyQuestions.caring.note).toMatch(/also gives "Good"/);
    expect(report.inspectionDates.value).toEqual({ from: "2017-11-28", to: "2017-12-04" });
    expect(report.publicationDate.value).toBe("2018-01-15");
    expect(report.ratingChange.value).toMatchObject({ previous: "Good", current: "Inadequate", direction: "declined" });
    fitsReply(report);
  });

  it("special measures, conditions and a warning notice are taken; the boilerplate about cancelling registration is not", async () => {
    const { report } = read(docFromText(await fixture("brightway-home-care-2018-messy.txt")));
    expect(report.enforcement.map((e) => [e.kind, e.regulation, e.previous])).toEqual([
      ["special_measures", null, false],
      ["condition", "12", false],
      ["warning_notice", "17", false],
      ["requirement_notice", "13", false],
      ["requirement_notice", "18", false],
    ]);
    expect(report.enforcement.some((e) => e.kind === "cancellation")).toBe(false);
    expect(report.enforcement[0].evidence.quote).toBe(
      "The overall rating for this service is 'Inadequate' and the service is therefore in 'Special measures'.",
    );
    expect(report.breaches.map((b) => `${b.regulation}/${b.regulations}`)).toEqual([
      "12/HSCA RA Regulations 2014",
      "13/HSCA RA Regulations 2014",
      "17/HSCA RA Regulations 2014",
      "18/HSCA RA Regulations 2014",
      "18/CQC (Registration) Regulations 2009",
    ]);
    expect(report.breaches[4].title).toBe("Notification of other incidents");
    expect(quotes(report.concerns).join("\n")).not.toMatch(/If not enough improvement|will usually lead to/);
  });

  it("no registered manager; the former manager's name is never given; a domiciliary care agency without a stated provider", async () => {
    const text = await fixture("brightway-home-care-2018-messy.txt");
    expect(text).toContain("Mrs Gail Hartley");
    const { report } = read(docFromText(text));
    expect(report.registeredManager).toMatchObject({
      value: false,
      evidence: { quote: "At the time of the inspection, there was no registered manager in post." },
    });
    expect(JSON.stringify(report)).not.toMatch(/Gail|Hartley/);
    expect(report.service.type).toMatchObject({ value: "domiciliary care", evidence: { quote: "Brightway Home Care Services is a domiciliary care agency." } });
    expect(report.provider.name).toMatchObject({ value: null, evidence: null, note: expect.stringMatching(/does not name the provider/) });
    expect(report.facts).toContain("There was no registered manager.");
  });
});

describe("a 2016-template report (text fixture: ratings on the next line in the five questions, no enforcement)", () => {
  it("a Good service with an Outstanding key question: no breaches or enforcement invented, the last inspection's date not taken", async () => {
    const { report } = read(docFromText(await fixture("rosewood-court-2016.txt")));
    expect(ratings(report)).toEqual({ overall: "Good", safe: "Good", effective: "Good", caring: "Outstanding", responsive: "Good", wellLed: "Good" });
    expect(report.service.type).toMatchObject({
      value: "care home",
      evidence: { quote: "Rosewood Court is registered to provide accommodation and personal care for up to 30 older people." },
    });
    expect(report.provider.name.value).toBe("Sunnyside Care Ltd");
    expect(report.inspectionDates).toMatchObject({
      value: { from: "2016-05-10", to: "2016-05-10" },
      evidence: { quote: "Date of inspection visit: 10 May 2016" },
    });
    expect(report.ratingChange).toMatchObject({ value: null });
    expect([report.breaches, report.enforcement]).toEqual([[], []]);
    expect(report.registeredManager).toMatchObject({ value: true, evidence: { quote: "There was a registered manager in post." } });
    expect(quotes(report.strengths)).toEqual(expect.arrayContaining(["Medicines were managed safely.", "There were enough staff to meet people's needs."]));
    expect(quotes(report.concerns)).toEqual(["The provider had not always notified us of incidents as required."]);
    fitsReply(report);
  });
});

describe("the documented example", () => {
  it("CQC_EXAMPLE_TEXT reads correctly", () => {
    const lines = CQC_EXAMPLE_TEXT.split("\n").length;
    expect(lines).toBeGreaterThanOrEqual(30);
    expect(lines).toBeLessThanOrEqual(60);
    const { report } = read(docFromText(CQC_EXAMPLE_TEXT));
    expect(report.format).toBe("inspection_report");
    expect(report.service.name.value).toBe("Willow Bank House");
    expect(report.provider.name.value).toBe("Brookfield Care Limited");
    expect(report.service.type.value).toBe("care home");
    expect(ratings(report)).toEqual({
      overall: "Requires improvement",
      safe: "Requires improvement",
      effective: "Good",
      caring: "Good",
      responsive: "Good",
      wellLed: "Requires improvement",
    });
    expect(report.inspectionDates.value).toEqual({ from: "2019-06-04", to: "2019-06-05" });
    expect(report.publicationDate.value).toBe("2019-07-18");
    expect(report.ratingChange.value).toMatchObject({ previous: "Good", previousPublished: "2016-11-02", direction: "declined" });
    expect(report.breaches.map((b) => b.regulation)).toEqual(["12", "17"]);
    expect(report.enforcement.map((e) => [e.kind, e.regulation])).toEqual([
      ["warning_notice", "12"],
      ["requirement_notice", "17"],
    ]);
    expect(report.registeredManager.value).toBe(true);
    expect(report.strengths.length).toBeGreaterThan(0);
    expect(report.concerns.length).toBeGreaterThan(0);
    fitsReply(report);
  });
});

describe("edge cases", () => {
  it("an empty or irrelevant document: everything couldn't tell, no crash", () => {
    expectNothingRead(read(docFromText("")).report);
    expectNothingRead(read(docFromText("Our bakery makes bread every morning. We deliver to shops across Kent.\n\nContact us on 01234 567890.")).report);
    expectNothingRead(read(docFromHtml("<html><body><nav>Menu</nav></body></html>")).report);
    // A restaurant's "Overall rating: Good" is not a CQC rating, and nothing of it is recorded as read.
    const { report, reading } = read(docFromText("The Old Mill restaurant review\nOverall rating: Good\nThe food was lovely and the staff were kind."));
    expectNothingRead(report);
    expect(reading.passages()).toEqual([]);
  });

  it("a bare ratings table pasted on its own is recognised from its ratings; a table row read as one line gives all five", () => {
    const { report } = read(
      docFromText("Overall rating: Good\nSafe Good Effective Requires improvement Caring Outstanding Responsive Good Well-led Inadequate"),
    );
    expect(report.format).toBe("inspection_report");
    expect(report.formatNote).toMatch(/from its ratings/);
    expect(ratings(report)).toEqual({
      overall: "Good",
      safe: "Good",
      effective: "Requires improvement",
      caring: "Outstanding",
      responsive: "Good",
      wellLed: "Inadequate",
    });
    expect(report.keyQuestions.caring.evidence?.quote).toBe("Caring Outstanding");
  });

  it("non-ratings and scores: 'Not rated', 'Insufficient evidence to rate', a percentage score", () => {
    const { report } = read(
      docFromText(
        "Care Quality Commission\nOverall rating: Not rated\nSafe: Insufficient evidence to rate\nEffective: Good 72%\nCaring: Inspected but not rated",
      ),
    );
    expect(report.overallRating.value).toEqual({ rating: "Not rated", asWritten: "Not rated", score: null });
    expect(report.keyQuestions.safe.value?.rating).toBe("Insufficient evidence to rate");
    expect(report.keyQuestions.effective.value).toEqual({ rating: "Good", asWritten: "Good", score: 72 });
    expect(report.keyQuestions.caring.value?.rating).toBe("Inspected but not rated");
  });

  it("an earlier rating is not this report's: 'Overall rating at last inspection', 'previously rated'", () => {
    const { report } = read(
      docFromText(
        "CQC inspection report\nPrevious overall rating: Outstanding\nAt our last inspection the service was rated Outstanding.\nOverall rating for this service: Good\nIs the service safe? Good\nThe service was previously rated Outstanding overall.",
      ),
    );
    expect(report.overallRating.value?.rating).toBe("Good");
    expect(report.overallRating.note).toBeNull();
    expect(report.ratingChange.value).toMatchObject({ previous: "Outstanding", current: "Good", direction: "declined" });
  });

  it("the first inspection: no previous rating, and the note says why", () => {
    const { report } = read(
      docFromText(
        "Overall rating for this service: Good\nIs the service safe? Good\nThis service was registered with us on 1 May 2018 and this is the first inspection.",
      ),
    );
    expect(report.ratingChange).toMatchObject({ value: null, note: expect.stringMatching(/first inspection/) });
  });

  it("enforcement at an earlier inspection is marked previous; hypotheticals and the legend are not enforcement", () => {
    const { report } = read(
      docFromText(`Overall rating for this service: Requires improvement
Is the service safe? Requires improvement
We carried out this focused inspection to check whether the provider had met the requirements of the warning notice we served in January 2019 for regulation 12.
The service is no longer rated as inadequate overall and is no longer in special measures.
If we do not see improvement we may cancel the provider's registration.
Inadequate – the service is performing badly and we've taken enforcement action against the provider of the service.
We have imposed a condition on the provider's registration requiring monthly audits of medicines.`),
    );
    expect(report.enforcement.map((e) => [e.kind, e.regulation, e.previous])).toEqual([
      ["warning_notice", "12", true],
      ["special_measures", null, true],
      ["condition", null, false],
    ]);
    expect(report.facts).toContain("Earlier enforcement mentioned: a warning notice; special measures.");
  });

  it("action in a sentence that also says what may follow is still taken; urgent powers, a fixed penalty, a prosecution", () => {
    const { report } = read(
      docFromText(`Overall rating for this service: Inadequate
Is the service safe? Inadequate
We issued a warning notice for regulation 17 and will take further action if the provider does not improve.
We used our urgent powers to impose conditions on the provider's registration.
The provider paid a fixed penalty for failing to display their rating.
In 2021 the provider was successfully prosecuted for failing to provide safe care and treatment.`),
    );
    expect(report.enforcement.map((e) => [e.kind, e.regulation])).toEqual([
      ["warning_notice", "17"],
      ["condition", null],
      ["fixed_penalty", null],
      ["prosecution", null],
    ]);
  });

  it("a key question split over lines; an unlabelled quality statement score at a line's end", () => {
    const { report } = read(docFromText("CQC assessment report\nIs the service\nsafe?\nGood\nQuality statements\nLearning culture 3\nSafeguarding\n2"));
    expect(report.keyQuestions.safe).toMatchObject({ value: { rating: "Good" }, evidence: { quote: "Is the service safe? Good" } });
    expect(report.qualityStatements.map((q) => [q.name, q.score])).toEqual([
      ["Learning culture", 3],
      ["Safeguarding", 2],
    ]);
  });

  it("the last inspection's date is not this inspection's; a 'risk assessment report' is not a CQC report", () => {
    const { report } = read(
      docFromText("Overall rating for this service: Good\nIs the service safe? Good\nAt our last inspection on 10 May 2016 the service was rated Good."),
    );
    expect(report.inspectionDates).toMatchObject({ value: null, evidence: null });
    expect(report.ratingChange.value).toMatchObject({ previous: "Good", direction: "unchanged" });
    expectNothingRead(
      read(docFromText("Fire risk assessment report\nThe assessment report covers the ground floor.\nPublished: 3 June 2024\n14 Elm Grove, Ashford TN23 4QX"))
        .report,
    );
  });

  it("a breach put right is not a breach; one still not met is", () => {
    const { report } = read(
      docFromText(`Overall rating for this service: Requires improvement
Is the service safe? Requires improvement
At our last inspection the provider was in breach of regulation 18. Enough improvement had been made and the provider was no longer in breach of regulation 18.
At our last inspection we found a breach of regulation 12. At this inspection the provider remained in breach of regulation 12 (Safe care and treatment).`),
    );
    expect(report.breaches.map((b) => b.regulation)).toEqual(["12"]);
    expect(report.breaches[0].evidence.quote).toMatch(/remained in breach of regulation 12/);
  });

  it("a provider who is an individual is not named; a date after today is flagged", () => {
    const { report } = read(
      docFromText(
        "Provided and run by: Dr Amrit Kaur Sandhu\nOverall rating: Good\nSafe: Good\nDate of inspection visit: 3 March 2027\nDate of publication: 1 May 2027",
      ),
    );
    expect(report.provider.name).toMatchObject({ value: "[name]", note: expect.stringMatching(/named after a person/) });
    expect(JSON.stringify(report)).not.toMatch(/Amrit|Sandhu/);
    expect(report.inspectionDates.note).toMatch(/after today/);
    expect(report.publicationDate.note).toMatch(/After today/);
    expect(report.reportAgeMonths).toBeNull();
  });
});

describe("the www.cqc.test fixture host (for the operations' by-URL tests)", () => {
  it("serves the same location page, and the 2019 report as the PDF its 'Read the latest report' link points at", async () => {
    const page = await (await fetch("http://files.test/hosts/www.cqc.test/location/1-123456789")).text();
    expect(page).toBe(await fixture("location-1-123456789.html"));
    expect(page).toContain('href="/sites/default/files/new_reports/AAAH1234.pdf"');
    const served = new Uint8Array(await (await fetch("http://files.test/hosts/www.cqc.test/sites/default/files/new_reports/AAAH1234.pdf")).arrayBuffer());
    const pages = (await fixture("oakwood-house-2019.pages.txt")).split(/\n--- page break ---\n/).map((p) => p.replace(/\n$/, "").split("\n"));
    expect(served).toEqual(makePdf(pages));
  });
});

describe("helpers", () => {
  it("daysIn: lists and ranges that give the month and year once", () => {
    expect(daysIn("12 and 13 March 2019")).toEqual(["2019-03-12", "2019-03-13"]);
    expect(daysIn("28 November, 1 and 4 December 2017")).toEqual(["2017-11-28", "2017-12-01", "2017-12-04"]);
    expect(daysIn("30 December to 2 January 2020")).toEqual(["2019-12-30", "2020-01-02"]);
    expect(daysIn("15/01/2018")).toEqual(["2018-01-15"]);
    expect(daysIn("regulations 12 and 17 of the 2014 Regulations")).toEqual([]);
  });

  it("redactNames: a name after a role label, an honorific or before 'Chief Inspector' — and nothing else", () => {
    expect(redactNames("Registered manager: Helen Carver")).toBe("Registered manager: [name]");
    expect(redactNames("Signed: John Smith, Director")).toBe("Signed: [name], Director");
    expect(redactNames("The previous registered manager, Mrs Gail Hartley, left in August.")).toBe("The previous registered manager, [name], left in August.");
    expect(redactNames("Andrea Sutcliffe Chief Inspector of Adult Social Care")).toBe("[name] Chief Inspector of Adult Social Care");
    expect(redactNames("Professor Sir Mike Richards Chief Inspector of Hospitals")).toBe("[name] Chief Inspector of Hospitals");
    expect(redactNames("Provided and run by: Dr A Patel & Partners")).toBe("Provided and run by: [name] & Partners");
    for (const keep of [
      "Staff said the registered manager was approachable.",
      "Registered manager Requires Improvement",
      "Name of service: Oakwood House",
      "The Chief Inspector of Hospitals",
      "Dementia care was good.",
    ])
      expect(redactNames(keep)).toBe(keep);
  });
});
