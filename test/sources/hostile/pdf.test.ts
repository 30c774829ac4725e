/**
 * Hostile PDFs (issue 29 §1) through readPdf: each is refused with 422 unreadable_input naming the budget it passed,
 * quickly, or read with a cut; PDFs just under a budget still read. The inputs come from scripts/hostile/binary.mjs,
 * the generators the fixture script and the live-server harness use too.
 */
import { describe, expect, it } from "vitest";
import { flateBombPdf, hugePagePdf, manyPagesPdf, plainPdf } from "../../../scripts/hostile/binary.mjs";
import { InputError } from "../../../src/shared/errors";
import {
  MAX_PDF_DECODED_BYTES,
  MAX_PDF_ITEMS_PER_PAGE,
  MAX_PDF_PAGES,
  MAX_PDF_READ_MS,
  MAX_PDF_STREAM_BYTES,
  measureStreams,
  readPdf,
} from "../../../src/sources/documents/pdf";
import { cpuNow } from "../../support/cpuClock";

const MiB = 1024 * 1024;

/** Where the ASCII text `s` first occurs in `b` at or after `from`. */
function indexOf(b: Uint8Array, s: string, from = 0): number {
  const k = [...s].map((c) => c.charCodeAt(0));
  for (let i = b.indexOf(k[0], from); i >= 0; i = b.indexOf(k[0], i + 1)) if (k.every((c, j) => b[i + j] === c)) return i;
  return -1;
}

/** Runs `f`, returning what it threw (or null) and the seconds it took. */
async function timed<T>(f: () => Promise<T>): Promise<{ value: T | null; error: unknown; s: number }> {
  const t = cpuNow();
  try {
    const value = await f();
    return { value, error: null, s: (cpuNow() - t) / 1000 };
  } catch (error) {
    return { value: null, error, s: (cpuNow() - t) / 1000 };
  }
}

const refusal = (e: unknown) => {
  expect(e).toBeInstanceOf(InputError);
  expect((e as InputError).code).toBe("unreadable_input");
  return (e as InputError).message;
};

describe("hostile PDFs are refused by counted budgets", () => {
  it("a 1.5 MB PDF whose one content stream inflates to 512 MiB: refused at the stream budget, in seconds", async () => {
    const bytes = flateBombPdf(512 * MiB);
    expect(bytes.length).toBeLessThan(2 * MiB);
    const r = await timed(() => readPdf(bytes));
    expect(refusal(r.error)).toMatch(/a stream decodes to more than 16 MiB/);
    expect(r.s).toBeLessThan(5);
  }, 60_000);

  it("a content stream just past the stream budget is refused, whether or not a page uses it", async () => {
    for (const asContents of [true, false]) {
      const r = await timed(() => readPdf(flateBombPdf(MAX_PDF_STREAM_BYTES + 64 * 1024, { asContents })));
      expect(refusal(r.error)).toMatch(/a stream decodes to more than 16 MiB/);
    }
  }, 60_000);

  it("streams that are each under the stream budget but together over the document budget are refused", async () => {
    // The unused 15 MiB stream's object repeated four more times after the file: 75 MiB together. The scan finds
    // streams by their keyword, as PDF.js's recovery does, so objects outside the cross-reference table count too.
    const one = flateBombPdf(15 * MiB, { asContents: false });
    const from = indexOf(one, "6 0 obj");
    const to = indexOf(one, "endobj", from) + 6;
    const parts = [one, ...Array.from({ length: 4 }, () => one.subarray(from, to))];
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    await expect(measureStreams(all)).rejects.toThrow(`decode to more than ${MAX_PDF_DECODED_BYTES / MiB} MiB together`);
  }, 60_000);

  it("a /Length that lies (shorter than the data) does not shorten what is measured", async () => {
    const bytes = flateBombPdf(64 * MiB);
    const at = indexOf(bytes, "/Length ", indexOf(bytes, "5 0 obj")) + 8;
    let end = at;
    while (bytes[end] >= 0x30 && bytes[end] <= 0x39) end++;
    bytes.fill(0x20, at, end - 1); // "/Length      9": the digits but the last made spaces
    bytes[end - 1] = 0x39;
    await expect(measureStreams(bytes)).rejects.toThrow(/a stream decodes to more than 16 MiB/);
  }, 60_000);

  it("a page of 100,000 text items is refused at the per-page item budget, without building the page", async () => {
    const r = await timed(() => readPdf(hugePagePdf(100_000)));
    expect(refusal(r.error)).toMatch(/page 1 has more than 50,000 text items/);
    expect(r.s).toBeLessThan(15);
  }, 60_000);

  it("a 20,000-page PDF is answered (its first pages read and cut, or refused on the time budget) within the time budget and a margin", async () => {
    const bytes = manyPagesPdf(20_000);
    const r = await timed(() => readPdf(bytes));
    console.error(`20,000 pages: ${r.s.toFixed(1)} s, ${r.error ? (r.error as Error).message : `read ${r.value!.pages.length} of ${r.value!.totalPages}`}`);
    if (r.error) expect(refusal(r.error)).toMatch(/reading took more than 10 s/);
    else expect(r.value).toMatchObject({ totalPages: 20_000, cut: true });
    expect(r.s).toBeLessThan(MAX_PDF_READ_MS / 1000 + 5);
  }, 60_000);

  it("a 3,000-page PDF reads its first MAX_PDF_PAGES pages and says it was cut", async () => {
    const r = await timed(() => readPdf(manyPagesPdf(3_000)));
    console.error(`3,000 pages: ${r.s.toFixed(1)} s`);
    expect(r.error).toBeNull();
    expect(r.value).toMatchObject({ totalPages: 3_000, cut: true });
    expect(r.value!.pages).toHaveLength(MAX_PDF_PAGES);
    expect(r.value!.pages[299]).toContain("page 300.");
  }, 60_000);

  it("the time budget is checked between pages (a clock that jumps past it refuses at the next page)", async () => {
    let t = 0;
    const now = () => (t += MAX_PDF_READ_MS / 3);
    const e = await readPdf(plainPdf(5), { now }).catch((x: unknown) => x);
    expect(refusal(e)).toMatch(/reading took more than 10 s \(before page \d of 5/);
  });
});

describe("PDFs under the budgets still read", () => {
  it("an ordinary PDF reads whole", async () => {
    const pdf = await readPdf(plainPdf(3));
    expect(pdf).toMatchObject({ totalPages: 3, cut: false });
    expect(pdf.pages[2]).toContain("Modern slavery statement, page 3.");
  });

  it("a stream just under the stream budget (not a page's contents) is measured and the page reads", async () => {
    const pdf = await readPdf(flateBombPdf(MAX_PDF_STREAM_BYTES - 64 * 1024, { asContents: false }));
    expect(pdf.pages[0]).toContain("We assess our supply chain");
  }, 60_000);

  it("a page just under the per-page item budget reads", async () => {
    const pdf = await readPdf(hugePagePdf(MAX_PDF_ITEMS_PER_PAGE - 1_000));
    expect(pdf.pages[0].split("\n").filter((l) => l === "slavery").length).toBe(MAX_PDF_ITEMS_PER_PAGE - 1_000);
  }, 60_000);

  it("image data is blanked in the copy PDF.js reads, not in the caller's bytes", async () => {
    const enc = new TextEncoder();
    const img = enc.encode("%PDF-1.4\n1 0 obj\n<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /Length 3 >>\nstream\nabc\nendstream\nendobj\n");
    const copy = img.slice();
    expect((await measureStreams(copy)).decodedBytes).toBe(0);
    expect(new TextDecoder().decode(copy)).not.toContain("abc");
    expect(new TextDecoder().decode(img)).toContain("abc");
  });
});
