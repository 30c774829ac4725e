/**
 * The page tree followed ahead of PDF.js (src/sources/documents/pdfPageTree.ts). PDF.js holds every page dictionary of
 * a flat /Kids array (and of any node on the way to a page) once it has looked a page up, so a 5 MB PDF of 20,000
 * pages took the readers' workerd past 128 MB of growth; such a tree, or one whose /Count is wrong, is regrouped in an
 * incremental update before PDF.js opens the file. Real PDFs first: every node of each (object streams,
 * cross-reference streams and earlier updates among them) regrouped to two kids a node reads exactly as the file does.
 */
import { SHARED_PRESENT } from "../../support/shared";
import { getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { encryptedPdf, manyPagesPdf } from "../../../scripts/hostile/binary.mjs";
import { InputError } from "../../../src/shared/errors";
import { MAX_PDF_PAGES, measureStreams, readPdf } from "../../../src/sources/documents/pdf";
import { MAX_UNFOLLOWED_KIDS } from "../../../src/services/documents/document";
import { MAX_PAGE_TREE_KIDS, PdfObjectIndex, regroupPageTree } from "../../../src/sources/documents/pdfPageTree";

const REAL = [
  "carbon-reduction-plans/edan-uk-crp-2023.pdf",
  "carbon-reduction-plans/apexiar-crp.pdf",
  "modern-slavery/statements/edan-uk-mss-older-no-text-layer.pdf",
  "modern-slavery/statements/ridgestone-developments-mss.pdf",
  "modern-slavery/statements/edan-uk-mss-2024.pdf",
  "charity/ukpa-cc16a-receipts-payments-latest.pdf",
  "charity/ukpa-cc16a-receipts-payments-2022-23.pdf",
  "ofsted/farnham-heath-end-school-2016-s5.pdf",
];
const real = async (p: string) => new Uint8Array(await (await fetch(`http://shared.test/corpora/${p}`)).arrayBuffer());
const latin1 = new TextDecoder("latin1");
const fromLatin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** PDF.js's own text of every page, read with nothing measured or regrouped. */
async function pdfjsPages(bytes: Uint8Array): Promise<{ numPages: number; pages: string[] }> {
  const pdf = await getDocumentProxy(bytes.slice());
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((i) => ("str" in i ? i.str : "")).join("|"));
  }
  const numPages = pdf.numPages;
  await pdf.destroy();
  return { numPages, pages };
}

async function treeOf(bytes: Uint8Array, opts?: { maxKids?: number; group?: number }) {
  const copy = bytes.slice();
  const { objects } = await measureStreams(copy);
  return { copy, objects, tree: regroupPageTree(copy, objects, opts) };
}

const refusal = (e: unknown) => {
  expect(e).toBeInstanceOf(InputError);
  expect((e as InputError).code).toBe("unreadable_input");
  return (e as InputError).message;
};

describe.skipIf(!SHARED_PRESENT)("real PDFs (../shared/corpora)", () => {
  for (const p of REAL) {
    it(`${p}: the tree is followed and left alone; regrouped to two kids a node, it reads page for page the same`, async () => {
      const bytes = await real(p);
      const plain = await treeOf(bytes);
      expect(plain.tree.followed).toBe(true);
      expect(plain.tree.bytes).toBeNull(); // nothing too wide, no /Count wrong: the file is given to PDF.js as it is
      const before = await pdfjsPages(plain.copy);
      expect(plain.tree.pages).toBe(before.numPages);

      const forced = await treeOf(bytes, { maxKids: 1, group: 2 });
      expect(forced.tree.followed).toBe(true);
      if (before.numPages > 1) {
        expect(forced.tree.bytes).not.toBeNull();
        expect(forced.tree.regrouped).toBeGreaterThan(0);
      }
      const after = await pdfjsPages(forced.tree.bytes ?? forced.copy);
      expect(after).toEqual(before);
    });
  }
});

describe("a flat page tree", () => {
  it(`20,000 pages in one /Kids array: regrouped (a node of at most ${MAX_PAGE_TREE_KIDS} kids), and the first ${MAX_PDF_PAGES} pages read, each its own`, async () => {
    const bytes = manyPagesPdf(20_000);
    const { tree } = await treeOf(bytes);
    expect(tree).toMatchObject({ followed: true, pages: 20_000, regrouped: 1 });
    // The update appended: the top node again (its number, its entries), new nodes, a cross-reference section whose
    // /Prev is the file's own.
    const update = latin1.decode(tree.bytes!.subarray(bytes.length));
    expect(update).toMatch(/\n2 0 obj\n<< \/Type \/Pages \/Kids \[[\d\s R]+\] \/Count 20000 >>\nendobj\n/);
    expect(update).toMatch(/\/Type \/Pages \/Parent 2 0 R \/Kids/);
    const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(latin1.decode(bytes))![1];
    expect(update).toContain(`/Prev ${prev} >>`);
    for (const m of update.matchAll(/\/Kids \[([^\]]*)\]/g)) expect(m[1].match(/R/g)!.length).toBeLessThanOrEqual(32);

    const read = await readPdf(bytes);
    expect(read.totalPages).toBe(20_000);
    expect(read.cut).toBe(true);
    expect(read.pages).toHaveLength(MAX_PDF_PAGES);
    for (const n of [1, 2, 33, 150, 299, 300]) expect(read.pages[n - 1]).toContain(`page ${n}.`);
  });

  it("a tree of 256 kids is left alone; 257 is regrouped, and reads the same", async () => {
    expect((await treeOf(manyPagesPdf(MAX_PAGE_TREE_KIDS))).tree).toMatchObject({ followed: true, bytes: null });
    const bytes = manyPagesPdf(MAX_PAGE_TREE_KIDS + 1);
    const { tree, copy } = await treeOf(bytes);
    expect(tree.regrouped).toBe(1);
    expect(await pdfjsPages(tree.bytes!)).toEqual(await pdfjsPages(copy));
  });

  it("a /Count that is wrong is written again with the pages found, so PDF.js does not fetch every page to recover", async () => {
    const text = latin1.decode(manyPagesPdf(500)).replace("/Count 500", "/Count 900"); // same length: offsets unchanged
    const bytes = fromLatin1(text);
    const { tree } = await treeOf(bytes);
    expect(tree).toMatchObject({ followed: true, pages: 500 });
    const read = await readPdf(bytes);
    expect(read.totalPages).toBe(500);
    expect(read.pages[299]).toContain("page 300.");
  });

  it("an encrypted PDF (AES-256, empty user password) of 600 pages: regrouped in the clear, and reads as the unencrypted one", async () => {
    const text = "Modern slavery statement. We assess our supply chain";
    const bytes = await encryptedPdf({ method: "aes-256", pages: 600, text });
    const { tree } = await treeOf(bytes);
    expect(tree).toMatchObject({ followed: true, pages: 600, regrouped: 1 });
    const plain = await readPdf(await encryptedPdf({ method: "none", pages: 600, text }));
    const read = await readPdf(bytes);
    expect(read.totalPages).toBe(600);
    expect(read.pages).toEqual(plain.pages);
    expect(read.pages[299]).toContain("page 300.");
  });
});

describe("a tree that cannot be followed", () => {
  /** manyPagesPdf with its first kid pointing at object 0 (never an object): same length, same offsets. */
  const broken = (pages: number) =>
    fromLatin1(latin1.decode(manyPagesPdf(pages)).replace(/\/Kids \[\d+ 0 R/, (m) => m.replace(/\d+ 0 R$/, (r) => "0".padStart(r.length - 4, " ") + " 0 R")));

  it(`is refused when one node lists more than ${MAX_UNFOLLOWED_KIDS.toLocaleString("en-GB")} kids, before PDF.js opens it`, async () => {
    const bytes = broken(3_000);
    expect((await treeOf(bytes)).tree.followed).toBe(false);
    expect(refusal(await readPdf(bytes).catch((e: unknown) => e))).toMatch(
      /page tree could not be followed, and one of its nodes lists 3,000 pages \(more than 2,000\)/,
    );
  });

  it("is given to PDF.js as it stands when it is no wider than that; the damaged page refuses the document by name", async () => {
    const bytes = broken(1_000);
    const { tree } = await treeOf(bytes);
    expect(tree.followed).toBe(false);
    expect(refusal(await readPdf(bytes).catch((x: unknown) => x))).toMatch(/^The PDF could not be read: page 1 of [\d,]+ is damaged \(/);
  });

  it("malformed objects cost linear work: 60,000 objects each with a string that never ends", async () => {
    const body = Array.from({ length: 60_000 }, (_, i) => `${i + 1} 0 obj\n<< /A (never ends /Kids [1 0 R] >>\n`).join("");
    const index = new PdfObjectIndex();
    index.addTopLevel(body, false);
    expect(index.get(1)).toMatchObject({ kind: "other" });
    expect(index.get(60_000)).toMatchObject({ kind: "other" });
    expect(regroupPageTree(fromLatin1(body), index).followed).toBe(false);
  });
});
