/**
 * Workbooks as hostile input (issue 29 §1, issue 30 §2). The service reads no XLSX any more: the sanctions list, the
 * only register that came as one (the OFSI Consolidated List, retired on 28 January 2026), is read from its CSV, and
 * a workbook given in its place is refused by its first bytes, before anything in it is inflated, so a zip bomb
 * costs nothing. The XLSX reader that is left is test support (test/support/xlsxSheet.ts, reading the real historic
 * list in ../shared for the tests and the bench); it is bounded as the service's own readers are, and held to that
 * here: what it inflates, its entries, its cells and a cell's characters, each refused naming its limit.
 */
import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { Zip, ZipDeflate, strToU8, zipSync } from "fflate";
import { zipBomb } from "../../../scripts/hostile/binary.mjs";
import { RegisterFormatError } from "../../../src/sources/format-error";
import { parseUkSanctionsFile } from "../../../src/sources/sanctions/parse";
import { OFSI_CONLIST_2025_04_10 } from "../../support/ofsiConList";
import { MAX_XLSX_CELLS, MAX_XLSX_CELL_CHARS, MAX_XLSX_ENTRIES, MAX_XLSX_INFLATED_BYTES, XlsxSheetError, readXlsxSheet, xlsxOf } from "../../support/xlsxSheet";
import { cpuNow } from "../../support/cpuClock";

const MiB = 1024 * 1024;

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("not refused");
};

/** A workbook whose sheet part is `xml` (and the parts around it as xlsxOf writes them). */
function withSheetXml(xml: string): Uint8Array {
  const files: Record<string, Uint8Array> = {
    "xl/workbook.xml": strToU8(`<workbook xmlns:r="r"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    "xl/_rels/workbook.xml.rels": strToU8(`<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    "xl/worksheets/sheet1.xml": strToU8(xml),
  };
  return zipSync(files);
}

/** A workbook whose sheet inflates to about `bytes` of rows of spaces, written a block at a time (never held whole). */
function sheetBomb(bytes: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    parts.push(data);
  });
  const add = (name: string, push: (e: ZipDeflate) => void) => {
    const e = new ZipDeflate(name, { level: 9, mem: 8 });
    zip.add(e);
    push(e);
  };
  const whole = (text: string) => (e: ZipDeflate) => e.push(strToU8(text), true);
  add("xl/workbook.xml", whole(`<workbook xmlns:r="r"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`));
  add("xl/_rels/workbook.xml.rels", whole(`<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`));
  add("xl/worksheets/sheet1.xml", (e) => {
    e.push(strToU8("<worksheet><sheetData>"), false);
    const block = strToU8(`<row>${" ".repeat(1000)}</row>`.repeat(1000));
    for (let n = 0; n < bytes; n += block.length) e.push(block, false);
    e.push(strToU8("</sheetData></worksheet>"), true);
  });
  zip.end();
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
}

let bomb96: Uint8Array | undefined;
const bombOf96MiB = () => (bomb96 ??= sheetBomb(96 * MiB));

describe("the service refuses a workbook given as the sanctions list, without reading it", () => {
  it("a workbook whose sheet inflates to 96 MiB (under 1 MB on the wire) is refused at once, saying to give the CSV", () => {
    const bomb = bombOf96MiB();
    expect(bomb.length).toBeLessThan(MiB);
    const t0 = cpuNow();
    const e = refusal(() => parseUkSanctionsFile(bomb));
    expect(e).toBeInstanceOf(RegisterFormatError);
    expect(e.message).toMatch(
      /^UK sanctions list: this file is a zip \(an XLSX or ODS workbook\), not the CSV\. The OFSI Consolidated List \(XLSX\), retired on 28 January 2026, is no longer read; give the FCDO UK Sanctions List as CSV/,
    );
    expect(cpuNow() - t0).toBeLessThan(100); // nothing inflated
  }, 60_000);

  it.skipIf(!SHARED_PRESENT)("the real OFSI list of 10 April 2025 is refused the same way", async () => {
    const b = new Uint8Array(await (await fetch(`http://shared.test/${OFSI_CONLIST_2025_04_10}`)).arrayBuffer());
    expect(() => parseUkSanctionsFile(b)).toThrow(/is no longer read; give the FCDO UK Sanctions List as CSV/);
  });
});

describe("the test-support XLSX reader", () => {
  it("reads shared strings, inline strings, numbers, and cell references with gaps; the sheet named, else Data, else the first", () => {
    const sheets = {
      README: [["read me"]],
      Data: [["Last Updated", "10/04/2025"], [], ["Name 6", null, "Group ID"], ["A & B <LTD>", "", 14124, "  spaced  "]],
    };
    for (const inline of [false, true]) {
      const b = xlsxOf(sheets, { inline });
      expect(readXlsxSheet(b)).toEqual({
        name: "Data",
        rows: [
          ["Last Updated", "10/04/2025"],
          ["Name 6", "", "Group ID"],
          ["A & B <LTD>", "", "14124", "  spaced  "],
        ],
      });
      expect(readXlsxSheet(b, { sheet: "README" })).toEqual({ name: "README", rows: [["read me"]] });
    }
    expect(readXlsxSheet(xlsxOf({ First: [["x"]], Second: [["y"]] }))).toEqual({ name: "First", rows: [["x"]] });
    expect(() => readXlsxSheet(xlsxOf({ Data: [["x"]] }), { sheet: "Missing" })).toThrow('no sheet named "Missing"');
  });

  it("rich-text runs are joined, phonetic runs and formulas left out, a column past Z read", () => {
    const xml =
      `<worksheet><sheetData><row r="3"><c r="B3" t="inlineStr"><is><r><t>BNK </t></r><r><rPr/><t>(UK)</t></r><rPh><t>ignored</t></rPh></is></c>` +
      `<c r="AJ3"><f>1+1</f><v>2</v></c></row></sheetData></worksheet>`;
    expect(readXlsxSheet(withSheetXml(xml)).rows).toEqual([["", "BNK (UK)", ...new Array(33).fill(""), "2"]]);
  });

  it.skipIf(!SHARED_PRESENT)(
    "reads the real OFSI list of 10 April 2025 whole: 18,798 rows of up to 36 columns",
    async () => {
      const b = new Uint8Array(await (await fetch(`http://shared.test/${OFSI_CONLIST_2025_04_10}`)).arrayBuffer());
      const { name, rows } = readXlsxSheet(b);
      expect(name).toBe("Data");
      expect(rows).toHaveLength(18_798);
      expect(rows[0]).toEqual(["Last Updated", "10/04/2025"]);
      expect(rows[1]).toHaveLength(36);
      expect(rows[1].slice(-4)).toEqual(["Listed On", "UK Sanctions List Date Designated", "Last Updated", "Group ID"]);
      expect(Math.max(...rows.map((r) => r.length))).toBe(36);
    },
    60_000,
  );

  it(`a sheet that inflates past ${MAX_XLSX_INFLATED_BYTES / MiB} MiB (under 1 MB on the wire) is refused as it is inflated, naming the budget`, () => {
    const bomb = bombOf96MiB();
    const t0 = cpuNow();
    const e = refusal(() => readXlsxSheet(bomb));
    expect(e).toBeInstanceOf(XlsxSheetError);
    expect(e.message).toBe(`the workbook inflates to more than ${MAX_XLSX_INFLATED_BYTES / MiB} MiB`);
    expect(cpuNow() - t0).toBeLessThan(20_000); // stops at the budget: 64 MiB of XML read, not 96
  }, 60_000);

  it("a text, tag or comment of more than 1 MiB is refused before the parser holds more", () => {
    const e = refusal(() => readXlsxSheet(withSheetXml(`<worksheet><sheetData><row>${" ".repeat(2 * MiB)}</row></sheetData></worksheet>`)));
    expect(e).toBeInstanceOf(XlsxSheetError);
    expect(e.message).toBe("more than 1,048,576 characters in one text, tag or comment");
  });

  it(`a workbook of more than ${MAX_XLSX_ENTRIES} entries is refused`, () => {
    const e = refusal(() => readXlsxSheet(zipBomb(1000, { name: "xl/worksheets/sheet1.xml", entries: MAX_XLSX_ENTRIES })));
    expect(e).toBeInstanceOf(XlsxSheetError);
    expect(e.message).toBe(`the workbook has ${MAX_XLSX_ENTRIES + 1} entries, more than ${MAX_XLSX_ENTRIES}`);
  });

  it("a cell at column XFD in each of 400 rows (6.5 million cells with the gaps) is refused by the cell budget", () => {
    const rows = Array.from({ length: 400 }, (_, i) => `<row r="${i + 1}"><c r="XFD${i + 1}"><v>1</v></c></row>`).join("");
    const e = refusal(() => readXlsxSheet(withSheetXml(`<worksheet><sheetData>${rows}</sheetData></worksheet>`)));
    expect(e).toBeInstanceOf(XlsxSheetError);
    expect(e.message).toBe(`more than ${MAX_XLSX_CELLS.toLocaleString("en-GB")} cells in the sheet`);
    expect(() => readXlsxSheet(withSheetXml(`<worksheet><sheetData><row><c r="XFE1"><v>1</v></c></row></sheetData></worksheet>`))).toThrow(
      "a cell reference past column XFD (XFE1)",
    );
  });

  it("a cell of more characters than Excel allows, a shared string that is not there, and broken XML are refused", () => {
    const long = withSheetXml(
      `<worksheet><sheetData><row><c t="inlineStr"><is><t>${"x".repeat(MAX_XLSX_CELL_CHARS + 1)}</t></is></c></row></sheetData></worksheet>`,
    );
    expect(() => readXlsxSheet(long)).toThrow(`a string of more than ${MAX_XLSX_CELL_CHARS.toLocaleString("en-GB")} characters`);
    expect(() => readXlsxSheet(withSheetXml(`<worksheet><sheetData><row><c t="s"><v>7</v></c></row></sheetData></worksheet>`))).toThrow(
      "a cell refers to shared string 7, which the workbook does not hold",
    );
    const broken = refusal(() => readXlsxSheet(withSheetXml(`<worksheet><sheetData><row><c></row></sheetData></worksheet>`)));
    expect(broken).toBeInstanceOf(XlsxSheetError);
    expect(broken.message).toMatch(/^xl\/worksheets\/sheet1\.xml unreadable/);
    const deep = refusal(() => readXlsxSheet(withSheetXml(`${"<a>".repeat(100)}${"</a>".repeat(100)}`)));
    expect(deep.message).toBe("elements nested more than 64 deep");
  });

  it("what is not a workbook is refused", () => {
    expect(() => readXlsxSheet(strToU8("Report Date: 13-Feb-2026\n"))).toThrow("not an XLSX workbook (not a zip archive)");
    expect(() => readXlsxSheet(zipSync({ "a.txt": strToU8("hello") }))).toThrow("not an XLSX workbook (no xl/workbook.xml)");
  });
});
