/**
 * Zip bombs in the retired OFSI workbook format (issue 29 §1): `XLSX.read` inflates every entry of the zip in memory
 * before it reads a cell, so parseOfsiConList measures the entries first, as SheetJS will walk them, and refuses a
 * workbook past MAX_XLSX_INFLATED_BYTES or MAX_XLSX_ENTRIES before SheetJS sees it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import { zipBomb } from "../../../scripts/hostile/binary.mjs";
import { RegisterFormatError } from "../../../src/sources/format-error";
import { MAX_XLSX_ENTRIES, MAX_XLSX_INFLATED_BYTES, checkXlsxBudget, parseOfsiConList } from "../../../src/sources/sanctions/parse";

const MiB = 1024 * 1024;

/** A small ConList-shaped workbook as SheetJS writes it. */
function workbook(): Uint8Array {
  const wb = XLSX.utils.book_new();
  const rows = [
    ["Last Updated", "10/04/2025"],
    ["Name 6", "Name 1", "Group ID", "Group Type", "Alias Type", "Regime", "Other Information"],
    ["ACME TRADING LLC", "", "90001", "Entity", "Primary Name", "Russia", "(UK Sanctions List Ref):RUS0001"],
  ];
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), "Data");
  return new Uint8Array(XLSX.write(wb, { type: "array", bookType: "xlsx", compression: true }) as ArrayBuffer);
}

const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const eocdOf = (b: Uint8Array) => {
  for (let i = b.length - 22; i >= 0; i--) if (dv(b).getUint32(i, true) === 0x06054b50) return i;
  throw new Error("no end of central directory");
};

/** The central directory records of a zip, each as its raw bytes, with the name it gives. */
function directory(b: Uint8Array): { name: string; record: Uint8Array }[] {
  const v = dv(b), eocd = eocdOf(b), out: { name: string; record: Uint8Array }[] = [];
  let p = v.getUint32(eocd + 16, true);
  for (let i = 0; i < v.getUint16(eocd + 10, true); i++) {
    const n = v.getUint16(p + 28, true), len = 46 + n + v.getUint16(p + 30, true) + v.getUint16(p + 32, true);
    out.push({ name: new TextDecoder().decode(b.subarray(p + 46, p + 46 + n)), record: b.slice(p, p + len) });
    p += len;
  }
  return out;
}

/** The same zip with its central directory replaced by `records` (the entries' data untouched). */
function withDirectory(b: Uint8Array, records: Uint8Array[]): Uint8Array {
  const v = dv(b), eocd = eocdOf(b), start = v.getUint32(eocd + 16, true);
  const size = records.reduce((n, r) => n + r.length, 0);
  const out = new Uint8Array(start + size + 22);
  out.set(b.subarray(0, start));
  let at = start;
  for (const r of records) out.set(r, at), (at += r.length);
  out.set(b.subarray(eocd, eocd + 22), at);
  const o = dv(out);
  o.setUint16(at + 8, records.length, true);
  o.setUint16(at + 10, records.length, true);
  o.setUint32(at + 12, size, true);
  o.setUint32(at + 16, start, true);
  o.setUint16(at + 20, 0, true);
  return out;
}

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("not refused");
};

describe("OFSI workbook zip bombs", () => {
  it("a workbook as SheetJS writes it is measured and read", () => {
    const b = workbook();
    expect(() => checkXlsxBudget(b)).not.toThrow();
    const read = parseOfsiConList(b);
    expect(read.designations.map((d) => [d.ofsiGroupId, d.ukslRef])).toEqual([["90001", "RUS0001"]]);
  });

  it.skipIf(!env.SHARED_PRESENT)("the real OFSI list of 10 April 2025 (17.0 MB inflated in 7 entries) is within the budget", async () => {
    const b = new Uint8Array(await (await fetch("http://shared.test/data/uk-sanctions/ofsi-conlist_2025-04-10.xlsx")).arrayBuffer());
    expect(() => checkXlsxBudget(b)).not.toThrow();
  });

  it("a sheet that inflates to 256 MiB (under 1 MB on the wire) is refused before SheetJS inflates it, naming the budget", () => {
    const bomb = zipBomb(256 * MiB, { name: "xl/worksheets/sheet1.xml" });
    expect(bomb.length).toBeLessThan(MiB);
    const t0 = Date.now();
    const e = refusal(() => parseOfsiConList(bomb));
    expect(e).toBeInstanceOf(RegisterFormatError);
    expect(e.message).toBe(`OFSI ConList: the workbook inflates to more than ${MAX_XLSX_INFLATED_BYTES / MiB} MiB`);
    // Measuring stops at the budget: far less than inflating 256 MiB takes.
    expect(Date.now() - t0).toBeLessThan(5_000);
  }, 60_000);

  it("one 40 MiB entry listed 100 times in the central directory (each under the budget, 4 GiB together) is refused", () => {
    const one = zipBomb(40 * MiB, { name: "xl/worksheets/sheet1.xml" });
    const [entry] = directory(one);
    const bomb = withDirectory(one, Array.from({ length: 100 }, () => entry.record));
    const e = refusal(() => parseOfsiConList(bomb));
    expect(e).toBeInstanceOf(RegisterFormatError);
    expect(e.message).toBe("OFSI ConList: unreadable XLSX (its entries claim more bytes than the file holds)");
  }, 60_000);

  it("a local header stating a 2 GiB entry (SheetJS allocates what it states) is refused", () => {
    const b = workbook();
    const sheet = directory(b).find((d) => d.name === "xl/worksheets/sheet1.xml")!;
    const local = dv(sheet.record).getUint32(42, true);
    dv(b).setUint32(local + 22, 0x7fffffff, true);
    const e = refusal(() => parseOfsiConList(b));
    expect(e).toBeInstanceOf(RegisterFormatError);
    expect(e.message).toMatch(/inflates to more than 64 MiB/);
  });

  it(`a workbook of more than ${MAX_XLSX_ENTRIES} entries is refused`, () => {
    const e = refusal(() => parseOfsiConList(zipBomb(1000, { name: "xl/worksheets/sheet1.xml", entries: MAX_XLSX_ENTRIES })));
    expect(e).toBeInstanceOf(RegisterFormatError);
    expect(e.message).toBe(`OFSI ConList: the workbook has ${MAX_XLSX_ENTRIES + 1} entries, more than ${MAX_XLSX_ENTRIES}`);
  });

  it("an entry whose deflate stream runs past its compressed size is refused as unreadable", () => {
    const b = workbook();
    const records = directory(b).map((d) => {
      if (d.name !== "xl/worksheets/sheet1.xml") return d.record;
      const r = d.record.slice();
      dv(r).setUint32(20, Math.max(1, dv(r).getUint32(20, true) - 8), true);
      return r;
    });
    const e = refusal(() => parseOfsiConList(withDirectory(b, records)));
    expect(e).toBeInstanceOf(RegisterFormatError);
    expect(e.message).toMatch(/^OFSI ConList: unreadable XLSX \(an entry does not inflate/);
  });
});
