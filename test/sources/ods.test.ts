import { describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import { readOdsRows } from "../../src/sources/ods";
import { RegisterFormatError } from "../../src/sources/format-error";

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"';

/** An ODS zip around the given <table:table> elements; `mimetype` stored first as real files have it. */
function buildOds(tables: string, level: 0 | 9 = 9): Uint8Array {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS} office:version="1.3"><office:body><office:spreadsheet>${tables}</office:spreadsheet></office:body></office:document-content>`;
  return zipSync({
    mimetype: [strToU8("application/vnd.oasis.opendocument.spreadsheet"), { level: 0 }],
    "content.xml": [strToU8(xml), { level }],
    "META-INF/manifest.xml": strToU8(
      '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/></manifest:manifest>',
    ),
  });
}

const fixture = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());

async function collect(gen: AsyncGenerator<string[]>): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const r of gen) rows.push(r);
  return rows;
}

/**
 * Each sheet below as SheetJS 0.18.5 read it (cells rendered the way readOdsRows renders them: dates YYYY-MM-DD,
 * numbers as written, trailing empty cells dropped, blank rows skipped), recorded once from the package before it was
 * removed (issue 30 §2: abandoned, with known advisories), so readOdsRows stays held to an independent reader.
 */
let sheetJsReadings: Record<string, string[][]> | undefined;
async function readWithSheetJs(name: string): Promise<string[][]> {
  sheetJsReadings ??= JSON.parse(new TextDecoder().decode(await fixture("ods/sheetjs-0.18.5-readings.json"))) as Record<string, string[][]>;
  const rows = sheetJsReadings[name];
  if (!rows) throw new Error(`no SheetJS reading recorded for ${name}`);
  return rows;
}

const EDGE_TABLE = `<table:table table:name="Edge">
<table:table-row><table:table-cell office:value-type="string"><text:p>first</text:p><text:p>second</text:p></table:table-cell>
<table:table-cell office:value-type="string"><text:p>a<text:line-break/>b</text:p></table:table-cell>
<table:table-cell office:value-type="string"><text:p>x<text:s text:c="3"/>y <text:span>span</text:span><text:s/></text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="float" office:value="3.5"><text:p>3.50</text:p></table:table-cell>
<table:table-cell office:value-type="percentage" office:value="0.25"><text:p>25%</text:p></table:table-cell>
<table:table-cell office:value-type="date" office:date-value="2024-05-25T00:00:00"><text:p>25/05/2024</text:p></table:table-cell>
<table:table-cell table:number-columns-repeated="2"/>
<table:table-cell office:value-type="string" table:number-columns-spanned="2"><text:p>merged</text:p></table:table-cell><table:covered-table-cell/>
<table:table-cell office:value-type="string"><text:p>end</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16000"/></table:table-row>
<table:table-row table:number-rows-repeated="5"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>
<table:table-row table:number-rows-repeated="2"><table:table-cell office:value-type="string" table:number-columns-repeated="2"><text:p>rep</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>noted</text:p><office:annotation><dc:creator>Reviewer</dc:creator><text:p>a comment</text:p></office:annotation></table:table-cell></table:table-row>
<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>
</table:table>`;

describe("readOdsRows (SPEC §4.5 and §4.8 register files)", () => {
  it("reads cell types, paragraphs, spaces, spans, repeats and covered cells", async () => {
    const rows = await collect(readOdsRows(buildOds(EDGE_TABLE)));
    expect(rows).toEqual([
      ["first\nsecond", "a\nb", "x   y span "],
      ["3.5", "0.25", "2024-05-25", "", "", "merged", "", "end"],
      ["rep", "rep"],
      ["rep", "rep"],
      ["noted"],
    ]);
  });

  it("selects a sheet by name, else the first; an unknown sheet is a RegisterFormatError", async () => {
    const ods = buildOds(
      `<table:table table:name="README"><table:table-row><table:table-cell office:value-type="string"><text:p>read me</text:p></table:table-cell></table:table-row></table:table>` +
        `<table:table table:name="Data"><table:table-row><table:table-cell office:value-type="string"><text:p>data</text:p></table:table-cell></table:table-row></table:table>`,
    );
    expect(await collect(readOdsRows(ods))).toEqual([["read me"]]);
    expect(await collect(readOdsRows(ods, { sheet: "Data" }))).toEqual([["data"]]);
    await expect(collect(readOdsRows(ods, { sheet: "Missing" }))).rejects.toBeInstanceOf(RegisterFormatError);
  });

  it("reads a stored (uncompressed) content.xml too", async () => {
    expect(await collect(readOdsRows(buildOds(EDGE_TABLE, 0)))).toHaveLength(5);
  });

  it("streams a large padded sheet without expanding the padding (20,000 rows × 16,000 repeated empty cells)", async () => {
    const rows: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      rows.push(
        `<table:table-row><table:table-cell office:value-type="string"><text:p>ROW ${i}</text:p></table:table-cell>` +
          `<table:table-cell table:number-columns-repeated="2"/><table:table-cell office:value-type="float" office:value="${i}"><text:p>${i}</text:p></table:table-cell>` +
          `<table:table-cell table:number-columns-repeated="${i % 2 ? 1000 : 16000}"/></table:table-row>`,
      );
    }
    const ods = buildOds(
      `<table:table table:name="Big">${rows.join("")}<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>`,
    );
    let n = 0,
      widest = 0,
      last: string[] = [];
    for await (const r of readOdsRows(ods)) {
      n++;
      widest = Math.max(widest, r.length);
      last = r;
    }
    expect(n).toBe(20_000);
    expect(widest).toBe(4);
    expect(last).toEqual(["ROW 19999", "", "", "19999"]);
  });

  it("keeps multi-byte characters split across chunks intact, with two readers interleaved", async () => {
    const value = (i: number) => `Café ‘${i}’ ${"€".repeat(40)}`;
    let rows = "";
    for (let i = 0; i < 3000; i++)
      rows += `<table:table-row><table:table-cell office:value-type="string"><text:p>${value(i)}</text:p></table:table-cell></table:table-row>`;
    const ods = buildOds(`<table:table table:name="U">${rows}</table:table>`, 0); // stored: 16 KB slices cut through '€'
    const [a, b] = [readOdsRows(ods), readOdsRows(ods)];
    for (let i = 0; i < 3000; i++) {
      const [ra, rb] = [await a.next(), await b.next()];
      expect(ra.value).toEqual([value(i)]);
      expect(rb.value).toEqual([value(i)]);
    }
    expect((await a.next()).done).toBe(true);
  });

  it("lets the caller stop early (resumable ingest reads N rows and returns)", async () => {
    const ods = await fixture("hmrc-mlr/supervised-business-register-2026-09.ods");
    const got: string[] = [];
    for await (const r of readOdsRows(ods)) {
      got.push(r[0]);
      if (got.length === 3) break;
    }
    expect(got).toEqual(["MLR Registration Number", "12137104", "12137104"]);
  });

  it("throws RegisterFormatError for a non-zip, a zip without content.xml, corrupt deflate data and broken XML", async () => {
    await expect(collect(readOdsRows(strToU8("MLR_REG,BUSINESS_NAME\n1,A\n")))).rejects.toBeInstanceOf(RegisterFormatError);
    await expect(collect(readOdsRows(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0])))).rejects.toBeInstanceOf(RegisterFormatError);
    const noContent = zipSync({ mimetype: strToU8("application/vnd.oasis.opendocument.spreadsheet"), "styles.xml": strToU8("<x/>") });
    await expect(collect(readOdsRows(noContent))).rejects.toThrow(/no content\.xml/);
    const good = buildOds(EDGE_TABLE);
    const corrupt = good.slice();
    corrupt.fill(0xff, 120, 180); // inside content.xml's deflate stream (after the stored mimetype entry)
    await expect(collect(readOdsRows(corrupt))).rejects.toThrow(/content\.xml unreadable/);
    const broken = buildOds(`<table:table table:name="T"><table:table-row><table:table-cell></table:table-row></table:table>`);
    await expect(collect(readOdsRows(broken))).rejects.toThrow(RegisterFormatError);
    await expect(collect(readOdsRows(broken))).rejects.toThrow(/content\.xml unreadable/);
  });

  describe("agrees with SheetJS (as recorded) on every ODS fixture", () => {
    const cases: Array<[string, string | undefined]> = [
      ["hmrc-mlr/supervised-business-register-2026-09.ods", undefined],
      ["hmrc-mlr/supervised-business-register-2026-10.ods", undefined],
      ["cqc/hsca-active-locations.ods", "HSCA_Active_Locations"],
      ["cqc/hsca-active-locations.ods", "README"],
    ];
    for (const [path, sheet] of cases) {
      it(`${path}${sheet ? ` (${sheet})` : ""}`, async () => {
        const bytes = await fixture(path);
        const ours = await collect(readOdsRows(bytes, sheet ? { sheet } : {}));
        expect(ours.length).toBeGreaterThan(1);
        expect(ours).toEqual(await readWithSheetJs(`${path}${sheet ? ` (${sheet})` : ""}`));
      });
    }
    it("the edge-case sheet (paragraphs, spaces, repeats)", async () => {
      const bytes = buildOds(EDGE_TABLE.replace(/<office:annotation>.*?<\/office:annotation>/, ""));
      const ours = await collect(readOdsRows(bytes));
      const theirs = await readWithSheetJs("the edge-case sheet");
      // SheetJS renders a percentage cell by its number too; covered cells are blank in both
      expect(ours).toEqual(theirs);
    });
  });
});
