import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import {
  SicFormatError,
  industryLabel,
  parseActivityIndex,
  parseCondensedList,
  plainLabel,
  sharedLevel,
  sicHierarchy,
  tidyDescription,
} from "../../../src/services/enrich/sic";

/**
 * SIC 2007 lists and hierarchy (issue 18, industry-classifier; ../shared/formats/sic-2007.md).
 * The real files are ../shared/data/sic-2007 (served at http://shared.test); our sample files are
 * test/fixtures/sic-2007 (real rows chosen by scripts/fixtures/build-sic-sample.mjs, with the files' quirks).
 */
/** The file's text with its BOM kept (Response.text() would drop it), so the parsers see the bytes as published. */
const textOf = async (url: string) => {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`missing ${url}`);
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(await r.arrayBuffer());
};
const REAL = "http://shared.test/data/sic-2007";
const SAMPLE = "http://files.test/sic-2007";

describe.skipIf(!SHARED_PRESENT)("the real SIC 2007 files (issue 18)", () => {
  it("parses the condensed list: 731 codes, quotes and commas kept, CRLF and no final newline handled", async () => {
    const text = await textOf(`${REAL}/SIC07_CH_condensed_list_en.csv`);
    expect(text.includes("\r\n")).toBe(true);
    expect(text.endsWith("\n")).toBe(false);
    const rows = parseCondensedList(text);
    expect(rows.length).toBe(731);
    expect(new Set(rows.map((r) => r.code)).size).toBe(731);
    const byCode = new Map(rows.map((r) => [r.code, r.description]));
    expect(byCode.get("01110")).toBe("Growing of cereals (except rice), leguminous crops and oil seeds");
    expect(byCode.get("62012")).toBe("Business and domestic software development");
    expect(byCode.get("99999")).toBe("Dormant Company");
    expect(byCode.get("01450")).toBe("Raising of sheep and  goats"); // double space kept as published
    expect(rows.at(-1)).toEqual({ code: "99999", description: "Dormant Company" });
  });

  it("parses the ONS index: BOM, first comma only, trailing spaces trimmed, two blank lines skipped (15,954 phrases, 729 codes)", async () => {
    const text = await textOf(`${REAL}/ons_economic_activities_alphabetic_index.csv`);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const { rows, blankLines } = parseActivityIndex(text);
    // The format note counts 15,956 rows: the lines after the header, of which two are blank.
    expect(text.split("\n").length - 1).toBe(15_956);
    expect(blankLines).toBe(2);
    expect(rows.length).toBe(15_954);
    const codes = new Set(rows.map((r) => r.code));
    expect(codes.size).toBe(729);
    expect(rows.every((r) => /^\d{5}$/.test(r.code) && r.phrase === r.phrase.trim())).toBe(true);
    expect(rows).toContainEqual({ code: "23910", phrase: "Abrasive bonded disc, wheel and segment (manufacture)" });
    expect(rows.filter((r) => r.code === "23120").length).toBeGreaterThan(0); // "23120 " in the file
    expect(rows.filter((r) => r.code === "52243").length).toBeGreaterThan(0);
    expect(codes.has("43990")).toBe(true); // in the index, not in the condensed list
    const list = new Set(parseCondensedList(await textOf(`${REAL}/SIC07_CH_condensed_list_en.csv`)).map((r) => r.code));
    expect([...codes].filter((c) => !list.has(c))).toEqual(["43990"]);
    expect([...list].filter((c) => !codes.has(c)).sort()).toEqual(["74990", "98000", "99999"]);
  });

  it("parses CH's own row", async () => {
    const { rows, blankLines } = parseActivityIndex(await textOf(`${REAL}/ch_created_activity_sic_codes.csv`));
    expect(rows).toEqual([{ code: "47910", phrase: "Selling on Amazon" }]);
    expect(blankLines).toBe(0);
  });

  it("derives the hierarchy of every real code, and labels them tidily", async () => {
    const rows = parseCondensedList(await textOf(`${REAL}/SIC07_CH_condensed_list_en.csv`));
    const sections = new Map<string, number>();
    for (const r of rows) {
      const h = sicHierarchy(r.code);
      expect(h, r.code).not.toBeNull();
      sections.set(h!.section.letter, (sections.get(h!.section.letter) ?? 0) + 1);
      const label = plainLabel(r.code, r.description);
      expect(label).not.toMatch(/\s{2}|n\.e\.c|^[a-z]/);
    }
    expect([...sections.keys()].sort().join("")).toBe("ABCDEFGHIJKLMNOPQRSTU");
    expect(sections.get("C")).toBeGreaterThan(200);
    const d = new Map(rows.map((r) => [r.code, r.description]));
    expect(industryLabel(["62012"], d)).toMatchObject({ label: "Software development", section: { letter: "J", name: "Information and communication" } });
    expect(industryLabel(["78109"], d)?.label).toBe("Employment placement agencies");
    expect(industryLabel(["13923"], d)?.codes[0].description).toBe("Manufacture of household textiles");
  });
});

describe("our sample files keep the real formats' quirks (issue 18)", () => {
  it("condensed list sample: CRLF, quoted descriptions, no final newline, a double space and a lower-case start", async () => {
    const text = await textOf(`${SAMPLE}/SIC07_CH_condensed_list_en.csv`);
    expect(text.startsWith("SIC Code,Description\r\n")).toBe(true);
    expect(text.endsWith("\n")).toBe(false);
    const rows = parseCondensedList(text);
    expect(rows.length).toBeGreaterThan(60);
    expect(rows.find((r) => r.code === "01110")?.description).toContain("(except rice), leguminous");
    expect(rows.find((r) => r.code === "01450")?.description).toContain("  ");
    expect(rows.some((r) => /^[a-z]/.test(r.description))).toBe(true);
  });

  it("index sample: BOM, unquoted commas, codes and phrases with trailing spaces, a blank line, no final newline", async () => {
    const text = await textOf(`${SAMPLE}/ons_economic_activities_alphabetic_index.csv`);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text).toMatch(/\n\d{5} +,/);
    expect(text).toMatch(/ \n/);
    expect(text.endsWith("\n")).toBe(false);
    const { rows, blankLines } = parseActivityIndex(text);
    expect(blankLines).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeGreaterThan(500);
    expect(rows.some((r) => r.phrase.includes(","))).toBe(true);
    expect(rows.every((r) => /^\d{5}$/.test(r.code) && r.phrase === r.phrase.trim())).toBe(true);
  });
});

describe("parsers refuse what is not the format", () => {
  it("a wrong header, or a row without a code", () => {
    expect(() => parseCondensedList("Code,Text\r\n01110,x")).toThrow(SicFormatError);
    expect(() => parseCondensedList("SIC Code,Description\r\nabc,Something")).toThrow(/row 2/);
    expect(() => parseActivityIndex("code,phrase\n01110,x")).toThrow(SicFormatError);
    expect(() => parseActivityIndex("sic_code.string(),activity_description.string()\n0111,Wheat")).toThrow(/line 2/);
  });

  it("quoted fields with doubled quotes and line breaks; LF files; the plain index header", () => {
    expect(parseCondensedList('SIC Code,Description\n01110,"A ""quoted"", text\nover two lines"\n01120,Plain')).toEqual([
      { code: "01110", description: 'A "quoted", text\nover two lines' },
      { code: "01120", description: "Plain" },
    ]);
    expect(parseActivityIndex("sic_code,activity_description\r\n01110 ,Wheat, durum (growing)  \r\n").rows).toEqual([
      { code: "01110", phrase: "Wheat, durum (growing)" },
    ]);
  });
});

describe("hierarchy and labels (issue 18)", () => {
  it("section, division, group, class and subclass from the code", () => {
    expect(sicHierarchy("62012")).toMatchObject({
      section: { letter: "J" },
      division: "62",
      group: "620",
      class: "6201",
      subclass: "2",
      noActivity: false,
      note: null,
    });
    expect(sicHierarchy("85200")).toMatchObject({ section: { letter: "P", name: "Education" }, class: "8520", subclass: null });
    expect(sicHierarchy(" 01110 ")?.section).toEqual({ letter: "A", name: "Agriculture, forestry and fishing" });
    expect(sicHierarchy("35110")?.section.letter).toBe("D");
    expect(sicHierarchy("99000")?.section.letter).toBe("U");
    expect(sicHierarchy("7499")).toBeNull(); // SIC 2003
    expect(sicHierarchy("04000")).toBeNull(); // no division 04
  });

  it("74990 and 99999 say there is no activity; 98000 is a residents' company", () => {
    expect(sicHierarchy("74990")).toMatchObject({ noActivity: true, note: expect.stringContaining("non-trading") });
    expect(sicHierarchy("99999")).toMatchObject({ noActivity: true, note: expect.stringContaining("dormant") });
    expect(sicHierarchy("98000")).toMatchObject({ noActivity: false, section: { letter: "T" }, note: expect.stringContaining("residents") });
  });

  it("the level two codes share", () => {
    expect(sharedLevel("62012", "62012")).toBe("code");
    expect(sharedLevel("56101", "56102")).toBe("class");
    expect(sharedLevel("62012", "62020")).toBe("group");
    expect(sharedLevel("10710", "10720")).toBe("group");
    expect(sharedLevel("47240", "47190")).toBe("division");
    expect(sharedLevel("45200", "47240")).toBe("section");
    expect(sharedLevel("47240", "10710")).toBe("none");
    expect(sharedLevel("7499", "74990")).toBe("none");
  });

  it("labels in plain English: tidied, n.e.c. dropped, Other and Activities of dropped, services", () => {
    expect(tidyDescription("Raising of sheep and  goats")).toBe("Raising of sheep and goats");
    expect(tidyDescription("manufacture of household textiles")).toBe("Manufacture of household textiles");
    expect(plainLabel("82990", "Other business support service activities n.e.c.")).toBe("Business support services");
    expect(plainLabel("78109", "Other activities of employment placement agencies")).toBe("Employment placement agencies");
    expect(plainLabel("64209", "Activities of other holding companies n.e.c.")).toBe("Holding company");
    expect(plainLabel("70100", "Activities of head offices")).toBe("Head offices");
    expect(plainLabel("81300", "Landscape service activities")).toBe("Landscape services");
    expect(plainLabel("47240", "Retail sale of bread, cakes, flour confectionery and sugar confectionery in specialised stores")).toBe(
      "Retail sale of bread, cakes, flour confectionery and sugar confectionery in specialist shops",
    );
    expect(plainLabel("62012", "Business and domestic software development")).toBe("Software development");
  });

  it("industryLabel: the first real activity, every code labelled, notes for CH's codes and unknown ones", () => {
    const d = new Map([
      ["62012", "Business and domestic software development"],
      ["62020", "Information technology consultancy activities"],
      ["99999", "Dormant Company"],
      ["98000", "Residents property management"],
    ]);
    const l = industryLabel(["99999", "62012", "62020", "62012", " "], d)!;
    expect(l.label).toBe("Software development");
    expect(l.section).toEqual({ letter: "J", name: "Information and communication" });
    expect(l.codes.map((c) => c.code)).toEqual(["99999", "62012", "62020"]);
    expect(l.codes[0]).toMatchObject({ noActivity: true, label: "Dormant company" });
    expect(l.noActivity).toBe(false);
    expect(l.notes.join(" ")).toContain("dormant");
    expect(industryLabel(["99999"], d)).toMatchObject({ label: "Dormant company", noActivity: true });
    expect(industryLabel(["98000"], d)).toMatchObject({ label: "Residents' property management", section: { letter: "T" } });
    // Not in the list given: labelled by its section; a SIC 2003 code is noted, and alone gives no label.
    expect(industryLabel(["43220"], d)).toMatchObject({ label: "Construction", codes: [{ code: "43220", description: null, label: null }] });
    expect(industryLabel(["7499"], d)).toBeNull();
    expect(industryLabel(["7499", "62020"], d)).toMatchObject({
      label: "Information technology consultancy activities",
      notes: [expect.stringContaining("SIC 2003")],
    });
  });
});
