/**
 * Hostile OpenDocument spreadsheets through readOdsRows (issue 29 §1), each built here with fflate's zipSync: a cell's
 * text, the cells a sheet hands out, the elements open at once and what the SAX parser holds between two events are
 * counted as read and refused (RegisterFormatError, the module's error for a bad upstream file) past MAX_CELL_CHARS,
 * MAX_CELLS, MAX_XML_DEPTH and MAX_XML_RUN; files at the limits are read.
 */
import { describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import { RegisterFormatError } from "../../../src/sources/format-error";
import { MAX_CELLS, MAX_CELL_CHARS, MAX_XML_DEPTH, MAX_XML_RUN, readOdsRows } from "../../../src/sources/ods";
import { cpuNow } from "../../support/cpuClock";

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';

/** An ODS of one sheet holding `rows` (the <table:table-row> elements), content.xml deflated as real files have it. */
function ods(rows: string): Uint8Array {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS} office:version="1.3"><office:body><office:spreadsheet><table:table table:name="Sheet1">${rows}</table:table></office:spreadsheet></office:body></office:document-content>`;
  return zipSync({
    mimetype: [strToU8("application/vnd.oasis.opendocument.spreadsheet"), { level: 0 }],
    "content.xml": [strToU8(xml), { level: 9 }],
  });
}

const cell = (inner: string, attrs = "") => `<table:table-cell office:value-type="string"${attrs}>${inner}</table:table-cell>`;
const row = (cells: string, attrs = "") => `<table:table-row${attrs}>${cells}</table:table-row>`;

/** Reads every row, counting; the refusal (if any) with what had been handed out before it. */
async function readAll(bytes: Uint8Array) {
  let rows = 0,
    cells = 0,
    longest = 0;
  const t0 = cpuNow();
  try {
    for await (const r of readOdsRows(bytes)) {
      rows++;
      cells += r.length;
      for (const c of r) longest = Math.max(longest, c.length);
    }
    return { rows, cells, longest, ms: cpuNow() - t0, error: null };
  } catch (e) {
    return { rows, cells, longest, ms: cpuNow() - t0, error: e as Error };
  }
}

const cellLimit = `ODS content.xml is past a reading limit: a cell of more than ${MAX_CELL_CHARS.toLocaleString("en-GB")} characters`;

describe("hostile ODS files", () => {
  it(`a cell of exactly ${MAX_CELL_CHARS} characters is read; one more is refused`, async () => {
    const at = await readAll(ods(row(cell(`<text:p>${"x".repeat(MAX_CELL_CHARS)}</text:p>`))));
    expect(at).toMatchObject({ rows: 1, cells: 1, longest: MAX_CELL_CHARS, error: null });
    const over = await readAll(ods(row(cell(`<text:p>${"x".repeat(MAX_CELL_CHARS + 1)}</text:p>`))));
    expect(over.error).toBeInstanceOf(RegisterFormatError);
    expect(over.error?.message).toBe(cellLimit);
  });

  it("a cell grown without a long text (spaces by <text:s text:c>, spans, paragraphs, a typed value) is refused", async () => {
    const spaces = `<text:p>${'a<text:s text:c="1000"/>'.repeat(40)}</text:p>`; // 40 kB of spaces from 1 kB of XML
    const spans = `<text:p>${"<text:span>abcdefgh</text:span>".repeat(5000)}</text:p>`; // each text event small
    const paragraphs = "<text:p>abcdefgh</text:p>".repeat(5000);
    const typed = `<table:table-cell office:value-type="float" office:value="${"9".repeat(MAX_CELL_CHARS + 1)}"/>`;
    for (const c of [cell(spaces), cell(spans), cell(paragraphs), typed]) {
      const r = await readAll(ods(row(c)));
      expect(r.error?.message).toBe(cellLimit);
      expect(r.error).toBeInstanceOf(RegisterFormatError);
    }
  });

  it("a text of 8 MiB in one piece (the parser would hold it whole) is refused after about a MiB", async () => {
    const r = await readAll(ods(row(cell(`<text:p>${"x".repeat(8 * 1024 * 1024)}</text:p>`))));
    expect(r.error).toBeInstanceOf(RegisterFormatError);
    expect(r.error?.message).toBe(
      `ODS content.xml is past a reading limit: more than ${MAX_XML_RUN.toLocaleString("en-GB")} characters in one text, tag or comment`,
    );
    // An attribute (or a whole tag) alike.
    const attr = await readAll(ods(row(`<table:table-cell office:value-type="float" office:value="${"1".repeat(4 * 1024 * 1024)}"/>`)));
    expect(attr.error?.message).toMatch(/characters in one text, tag or comment$/);
  }, 30_000);

  it("a row of 16,384 cells repeated 1,048,576 times (17 billion cells) is refused before more than MAX_CELLS are handed out", async () => {
    const bomb = ods(row(cell("<text:p>x</text:p>", ' table:number-columns-repeated="16384"'), ' table:number-rows-repeated="1048576"'));
    expect(bomb.length).toBeLessThan(2_000);
    const r = await readAll(bomb);
    expect(r.error).toBeInstanceOf(RegisterFormatError);
    expect(r.error?.message).toBe(`ODS content.xml is past a reading limit: more than ${MAX_CELLS.toLocaleString("en-GB")} cells in the sheet`);
    expect(r.cells).toBeLessThanOrEqual(MAX_CELLS);
    expect(r.ms).toBeLessThan(20_000);
  }, 60_000);

  it(`a sheet of exactly ${MAX_CELLS} cells (2,048 rows of 16,384) is read`, async () => {
    const r = await readAll(ods(row(cell("<text:p>x</text:p>", ' table:number-columns-repeated="16384"'), ' table:number-rows-repeated="2048"')));
    expect(r).toMatchObject({ rows: 2048, cells: MAX_CELLS, error: null });
  }, 60_000);

  it("rows of many cells packed into one compressed slice are refused by the cell count", async () => {
    // 200,000 rows of one 16,384-wide cell each: 28 bytes compressed per thousand rows, 3.3 billion cells.
    const many = ods(row(cell("<text:p>x</text:p>", ' table:number-columns-repeated="16384"')).repeat(200_000));
    const r = await readAll(many);
    expect(r.error?.message).toBe(`ODS content.xml is past a reading limit: more than ${MAX_CELLS.toLocaleString("en-GB")} cells in the sheet`);
    expect(r.rows).toBeLessThanOrEqual(MAX_CELLS / 16_384);
  }, 60_000);

  it(`elements nested more than ${MAX_XML_DEPTH} deep are refused; ${MAX_XML_DEPTH} are read`, async () => {
    // document-content, body, spreadsheet, table, row, cell and paragraph are 7 levels; spans make up the rest.
    const nested = (levels: number) => cell(`<text:p>${"<text:span>".repeat(levels)}deep${"</text:span>".repeat(levels)}</text:p>`);
    expect(await readAll(ods(row(nested(MAX_XML_DEPTH - 7))))).toMatchObject({ rows: 1, cells: 1, error: null });
    const deep = await readAll(ods(row(nested(100_000))));
    expect(deep.error).toBeInstanceOf(RegisterFormatError);
    expect(deep.error?.message).toBe(`ODS content.xml is past a reading limit: elements nested more than ${MAX_XML_DEPTH} deep`);
  });
});
