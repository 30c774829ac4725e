import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import type { RegisterRecord } from "../../src/services/registers/types";
import { UpstreamError } from "../../src/shared/errors";
import { delimitedRowBatches } from "../../src/sources/delimited";
import { RegisterFormatError } from "../../src/sources/format-error";
import { fetchGenderPayGapYear } from "../../src/sources/gender-pay-gap/client";
import {
  type GenderPayGapParseNotes,
  latestSubmissionOf,
  parseGenderPayGap,
  reportingYearOfName,
  reportingYearOn,
  sicCodesOf,
} from "../../src/sources/gender-pay-gap/parse";

/** Issue 14 §1: the gender pay gap CSV (one file per reporting year) read into register records. */

const bytesOf = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const textOf = async (url: string) => new TextDecoder().decode(await bytesOf(url));
async function collect<T>(g: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of g) out.push(x);
  return out;
}
async function parse(input: Uint8Array | string, fileName: string | null = null) {
  const notes: Partial<GenderPayGapParseNotes> = {};
  const p = parseGenderPayGap(input, { fileName, notes });
  const recs = await collect(p.records);
  return { year: p.year, recs, notes, byId: new Map(recs.map((r) => [r.entity, r])) };
}
const report = (r: RegisterRecord<"gender-pay-gap"> | undefined) => r?.data;

/** The people a file names as ResponsiblePerson (the name before the job title in brackets). */
async function responsiblePersons(input: Uint8Array | string): Promise<string[]> {
  const names: string[] = [];
  let col = -1;
  for await (const rows of delimitedRowBatches(input, ","))
    for (const row of rows) {
      if (col < 0) col = row.indexOf("ResponsiblePerson");
      else if (row[col]?.trim()) names.push(row[col].replace(/\s*\(.*$/s, "").trim());
    }
  return names;
}

const HEADER =
  '"EmployerName","EmployerId","Address","PostCode","CompanyNumber","SicCodes","DiffMeanHourlyPercent","DiffMedianHourlyPercent","DiffMeanBonusPercent","DiffMedianBonusPercent","MaleBonusPercent","FemaleBonusPercent","MaleLowerQuartile","FemaleLowerQuartile","MaleLowerMiddleQuartile","FemaleLowerMiddleQuartile","MaleUpperMiddleQuartile","FemaleUpperMiddleQuartile","MaleTopQuartile","FemaleTopQuartile","CompanyLinkToGPGInfo","ResponsiblePerson","EmployerSize","CurrentName","SubmittedAfterTheDeadline","DueDate","DateSubmitted"';
/** One row, every field quoted, with some fields overridden. */
function row(o: Partial<Record<"name" | "id" | "number" | "sic" | "mean" | "person" | "size" | "current" | "late" | "due" | "submitted", string>> = {}) {
  const v = [
    o.name ?? "KESTREL FREIGHT LIMITED",
    o.id ?? "30001",
    "1 Dock Road, Hull, HU1 1AA",
    "HU1 1AA",
    o.number ?? "05555555",
    o.sic ?? "49410",
    o.mean ?? "5",
    "4",
    "",
    "",
    "0",
    "0",
    "60",
    "40",
    "61",
    "39",
    "62",
    "38",
    "70",
    "30",
    "",
    o.person ?? "Alex Kestrel (Director)",
    o.size ?? "250 to 499",
    o.current ?? o.name ?? "KESTREL FREIGHT LIMITED",
    o.late ?? "False",
    o.due ?? "2026/04/05 00:00:00",
    o.submitted ?? "2026/03/01 10:00:00",
  ];
  return v.map((x) => `"${x.replace(/"/g, '""')}"`).join(",");
}
const csv = (...rows: string[]) => [HEADER, ...rows].join("\n") + "\n";

describe("issue 14 §1 gender pay gap parser", () => {
  it.skipIf(!SHARED_PRESENT)("real-data: the 2021 to 2022 sample rows (../shared) read with their quirks", async () => {
    const input = await bytesOf("http://shared.test/data/gender-pay-gap/gpg-2021-22-sample.csv");
    const { year, recs, notes, byId } = await parse(input, "gpg-2021-22-sample.csv");
    expect(year).toBe("2021");
    expect(recs).toHaveLength(10);
    expect(recs.every((r) => r.key === `${r.entity}:2021` && r.part === "2021" && r.source === "gender-pay-gap")).toBe(true);
    // "comma plus newline" SIC lists, leading zeros restored.
    expect(report(byId.get("14399"))).toMatchObject({
      employerName: "2 AGRICULTURE LIMITED",
      companyNumber: "SC156515",
      sicCodes: ["01470", "10910"],
      diffMeanHourlyPct: 12,
      diffMedianHourlyPct: 16.9,
      diffMedianBonusPct: -69.3,
    });
    expect(report(byId.get("19074"))).toMatchObject({ sicCodes: ["01240"], diffMedianBonusPct: -100 });
    expect(report(byId.get("293"))?.sicCodes).toEqual(["20301", "23910", "32990"]);
    // Doubled quotes.
    expect(byId.get("16879")?.name).toBe('"RED BAND" CHEMICAL COMPANY, LIMITED');
    // Submitted after the deadline (True).
    expect(byId.get("293")).toMatchObject({
      status: "reported-late",
      data: { submittedLate: true, dueDate: "2022-04-05T00:00:00", submittedOn: "2022-04-05T13:05:53" },
    });
    expect(byId.get("77")).toMatchObject({ status: "reported", companyNumber: "02826929", data: { sizeBand: "5000 to 19,999", submittedLate: false } });
    // Royal charter number, no SIC codes.
    expect(byId.get("19070")).toMatchObject({ companyNumber: "RC000641", data: { sicCodes: [] } });
    // Bonus gaps of -400; blanks are null, never 0.
    expect(report(byId.get("719"))).toMatchObject({ diffMeanBonusPct: -400, diffMedianBonusPct: -400, diffMedianHourlyPct: 0 });
    expect(report(byId.get("18159"))).toMatchObject({ diffMeanBonusPct: null, diffMedianBonusPct: null, maleBonusPct: 0, dueDate: "2022-03-31T00:00:00" });
    // The year from the first row's DueDate when the name says nothing.
    expect((await parse(input, "download.csv")).year).toBe("2021");
    // SPEC §1 rule 7: nine rows name a responsible person; none of them is in any record.
    expect(notes).toMatchObject({ responsiblePersonsNotStored: 9, personOnlyRows: 0, unreadableValues: 0, duplicateRows: 0 });
    const people = await responsiblePersons(input);
    expect(people).toHaveLength(9);
    const text = JSON.stringify(recs).toLowerCase();
    for (const p of people) expect(text).not.toContain(p.toLowerCase());
    expect(text).not.toContain("director"); // job titles neither
  });

  it("issue 14 §1 a fully quoted CRLF file with a BOM: doubled quotes, multi-line SIC lists, unpadded numbers, True/False, size bands", async () => {
    const input = await bytesOf("http://files.test/gender-pay-gap/2025");
    expect(input.slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    const { year, recs, notes, byId } = await parse(input, "2025");
    expect(year).toBe("2025");
    expect(recs.map((r) => r.key)).toEqual(["20001:2025", "20002:2025", "20003:2025", "20004:2025", "20006:2025", "20007:2025"]);
    expect(byId.get("20001")).toEqual({
      source: "gender-pay-gap",
      key: "20001:2025",
      entity: "20001",
      part: "2025",
      name: 'THE "ORIGINAL" PIE COMPANY LIMITED',
      companyNumber: "NI612345",
      altNames: [],
      status: "reported",
      rating: null,
      town: null,
      data: {
        employerId: "20001",
        year: "2025",
        employerName: 'THE "ORIGINAL" PIE COMPANY LIMITED',
        currentName: 'THE "ORIGINAL" PIE COMPANY LIMITED',
        companyNumber: "NI612345",
        postcode: "BT1 3LG",
        address: "Unit 4, Lagan Quay Works, Belfast, BT1 3LG",
        sicCodes: ["01470", "10710"],
        diffMeanHourlyPct: 12,
        diffMedianHourlyPct: 16.9,
        diffMeanBonusPct: -20.5,
        diffMedianBonusPct: -400,
        maleBonusPct: 86.5,
        femaleBonusPct: 88,
        quartiles: {
          lower: { malePct: 81.7, femalePct: 18.3 },
          lowerMiddle: { malePct: 95.8, femalePct: 4.2 },
          upperMiddle: { malePct: 95.8, femalePct: 4.2 },
          top: { malePct: 91.7, femalePct: 8.3 },
        },
        sizeBand: "250 to 499",
        link: null,
        submittedLate: false,
        dueDate: "2026-04-05T00:00:00",
        submittedOn: "2026-03-12T09:16:08",
      },
    });
    // Unpadded company number; filed after the deadline.
    expect(byId.get("20002")).toMatchObject({
      companyNumber: "03712548",
      status: "reported-late",
      data: { submittedLate: true, diffMeanBonusPct: null, maleBonusPct: 0 },
    });
    // A public body: no company number, the service's public-sector SIC code "1" kept as it is, due 31 March.
    expect(byId.get("20003")).toMatchObject({ companyNumber: null, data: { companyNumber: null, sicCodes: ["1"], dueDate: "2026-03-31T00:00:00" } });
    // A current name that differs is another name to match on; "Not Provided" is no size band.
    expect(byId.get("20004")).toMatchObject({
      altNames: ["BRIGHTWATER ANALYTICS GROUP LTD"],
      data: { sizeBand: null, currentName: "BRIGHTWATER ANALYTICS GROUP LTD", sicCodes: ["62020", "62090", "63110"] },
    });
    expect(report(byId.get("20007"))).toMatchObject({ companyNumber: "06543210", sizeBand: "20,000 or more", submittedLate: true });
    // SPEC §1 rule 7: an employer named only as a person is not loaded; "<person> t/a <business>" is kept as the business.
    expect(byId.has("20005")).toBe(false);
    expect(byId.get("20006")).toMatchObject({
      name: "Hollybrook Garden Nurseries",
      altNames: [],
      data: { employerName: "Hollybrook Garden Nurseries", sicCodes: ["01190", "47760"], diffMedianBonusPct: -291.1 },
    });
    expect(notes).toEqual({
      responsiblePersonsNotStored: 6,
      personOnlyRows: 1,
      personNamesRemoved: 1, // 20006's name (20005's current name is never read: its row is not loaded)
      rowsWithoutEmployerId: 0,
      duplicateRows: 0,
      rowsDueInAnotherYear: 0,
      unreadableValues: 0,
      unreadableCompanyNumbers: 0,
    });
    const text = JSON.stringify(recs);
    for (const p of await responsiblePersons(input)) expect(text).not.toContain(p);
    expect(text).not.toMatch(/Lindqvist|Tobias|Wren\b/);
  });

  it("issue 14 §1 an LF file without a BOM reads the same way", async () => {
    const { year, recs, byId } = await parse(await textOf("http://files.test/gender-pay-gap/2026"), "UK Gender Pay Gap Data - 2026 to 2027.csv");
    expect(year).toBe("2026");
    expect(recs.map((r) => r.key)).toEqual(["20001:2026", "20003:2026", "20008:2026", "20009:2026"]);
    expect(byId.get("20009")).toMatchObject({
      companyNumber: "04712345",
      data: { sicCodes: ["85310", "85200"], diffMeanBonusPct: null, quartiles: { lower: { malePct: 33, femalePct: 67 } } },
    });
    expect(byId.get("20003")).toMatchObject({ companyNumber: null, data: { link: null, dueDate: "2027-03-31T00:00:00" } });
  });

  it("issue 14 §1 the reporting year from the file's name or address", () => {
    expect(reportingYearOfName("UK Gender Pay Gap Data - 2021 to 2022.csv")).toBe("2021");
    expect(reportingYearOfName("https://gender-pay-gap.service.gov.uk/viewing/download-data/2021")).toBe("2021");
    expect(reportingYearOfName("https://gender-pay-gap.service.gov.uk/Viewing/download-data?year=2017")).toBe("2017");
    expect(reportingYearOfName("UK%20Gender%20Pay%20Gap%20Data%20-%202019%20to%202020.csv")).toBe("2019");
    expect(reportingYearOfName("gpg-2021-22-sample.csv")).toBe("2021");
    expect(reportingYearOfName("2024.csv")).toBe("2024");
    expect(reportingYearOfName("gpg_2018_to_2019.csv")).toBe("2018");
    // Not a reporting year: a date, two years that do not follow, nothing.
    expect(reportingYearOfName("export-2026-06-12.csv")).toBeNull();
    expect(reportingYearOfName("gpg 2018 to 2021.csv")).toBeNull();
    expect(reportingYearOfName("download.csv")).toBeNull();
    expect(reportingYearOfName(null)).toBeNull();
  });

  it("issue 14 §1 the current reporting year starts on the first snapshot date (31 March)", () => {
    expect(reportingYearOn(new Date("2026-11-24T12:00:00Z"))).toBe(2026);
    expect(reportingYearOn(new Date("2026-03-30T23:00:00Z"))).toBe(2025);
    expect(reportingYearOn(new Date("2026-03-31T00:00:00Z"))).toBe(2026);
    expect(reportingYearOn(new Date("2027-01-05T00:00:00Z"))).toBe(2026);
  });

  it("issue 14 §1 SIC codes: comma plus newline lists, one lost leading zero restored, nothing else invented", () => {
    expect(sicCodesOf("85200,\n85310")).toEqual(["85200", "85310"]);
    expect(sicCodesOf("1470,\r\n10910")).toEqual(["01470", "10910"]);
    expect(sicCodesOf("1")).toEqual(["1"]);
    expect(sicCodesOf("")).toEqual([]);
    expect(sicCodesOf("99999, 99999")).toEqual(["99999"]);
    expect(sicCodesOf("470")).toEqual(["470"]); // not a SIC 2007 code with one zero lost: kept as given
  });

  it("issue 14 §1 odd rows: no id, a repeated id, unreadable values, a number that is no company number, lower-case true", async () => {
    const { recs, notes, byId } = await parse(
      csv(
        row({ id: "" }),
        row({ id: "30002", number: "N/A", mean: "about 5", late: "true", submitted: "31/03/2026" }),
        row({ id: "30002", name: "SECOND ROW LTD" }),
        row({ id: "30003", number: "sc 1234", due: "2025/04/05 00:00:00", person: "" }),
      ),
      "2025",
    );
    expect(recs.map((r) => r.key)).toEqual(["30002:2025", "30003:2025"]);
    expect(byId.get("30002")).toMatchObject({
      companyNumber: null,
      status: "reported-late",
      data: { diffMeanHourlyPct: null, submittedOn: null, submittedLate: true },
    });
    expect(byId.get("30003")?.companyNumber).toBe("SC001234");
    expect(notes).toMatchObject({
      rowsWithoutEmployerId: 1,
      duplicateRows: 1,
      unreadableValues: 2,
      unreadableCompanyNumbers: 1,
      rowsDueInAnotherYear: 1,
      responsiblePersonsNotStored: 3,
    });
  });

  it("issue 14 §1 a file that is not one, lacks a column, or names another year than its rows is refused", () => {
    expect(() => parseGenderPayGap("<html><body>Service unavailable</body></html>", { fileName: "2025" })).toThrow(RegisterFormatError);
    expect(() => parseGenderPayGap(HEADER.replace(',"DueDate"', "") + "\n", { fileName: "2025" })).toThrow(/lacks DueDate/);
    expect(() => parseGenderPayGap(csv(row()), { fileName: "UK Gender Pay Gap Data - 2021 to 2022.csv" })).toThrow(
      /named for 2021 to 2022 but its first row is due in 2026/,
    );
    expect(() => parseGenderPayGap(HEADER + "\n", { fileName: "export.csv" })).toThrow(/which reporting year/);
    // A header only, with a year in its name: a year with no report yet (the pipeline refuses an empty file).
    expect(parseGenderPayGap(HEADER + "\n", { fileName: "2026" }).year).toBe("2026");
  });

  it("issue 14 §1 the newest submission dates a file given without a date", async () => {
    expect(await latestSubmissionOf(await bytesOf("http://files.test/gender-pay-gap/2025"))).toBe("2026-04-07");
    expect(await latestSubmissionOf(await bytesOf("http://files.test/gender-pay-gap/2026"))).toBe("2026-10-20");
    expect(await latestSubmissionOf(HEADER + "\n")).toBeNull();
  });

  it("issue 14 §1 the client reads `${base}/${year}`; a year not there yet is null only when optional", async () => {
    const e = await fetchGenderPayGapYear({ baseUrl: "http://files.test/gender-pay-gap/", year: 2026 });
    expect(e).toMatchObject({ url: "http://files.test/gender-pay-gap/2026", fileName: "UK Gender Pay Gap Data - 2026 to 2027.csv", editionDate: null });
    expect(e!.bytes.length).toBeGreaterThan(1000);
    expect(await fetchGenderPayGapYear({ baseUrl: "http://files.test/gender-pay-gap", year: 2031, optional: true })).toBeNull();
    await expect(fetchGenderPayGapYear({ baseUrl: "http://files.test/gender-pay-gap", year: 2031 })).rejects.toBeInstanceOf(UpstreamError);
  });
});
