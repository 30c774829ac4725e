/**
 * Encrypted PDFs inside the decoded-bytes budget (issue 29 §1): a PDF encrypted with an empty user password and an
 * owner password (the usual corporate PDF that restricts printing or copying, which PDF.js opens without a password)
 * has its streams decrypted in the measuring pass, so it reads exactly as an unencrypted one, and a Flate bomb inside
 * it is refused as one is in an unencrypted file. The files come from scripts/hostile/binary.mjs's encryptedPdf,
 * checked while it was written against qpdf (`qpdf --check`, `--decrypt`, both passwords) and against PDF.js here.
 */
import { getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { BOMB_LINE, encryptedPdf } from "../../../scripts/hostile/binary.mjs";
import { InputError } from "../../../src/shared/errors";
import { MAX_PDF_STREAM_BYTES, measureStreams, readPdf } from "../../../src/sources/documents/pdf";
import { openEncryption, rc4 } from "../../../src/sources/documents/pdfCrypt";
import { cpuNow } from "../../support/cpuClock";

const MiB = 1024 * 1024;
const METHODS = ["rc4-40", "rc4-128", "aes-128", "aes-256"] as const;
const enc = new TextEncoder();

const refusal = (e: unknown) => {
  expect(e).toBeInstanceOf(InputError);
  expect((e as InputError).code).toBe("unreadable_input");
  return (e as InputError).message;
};

/** Where the ASCII text `s` first occurs in `b`. */
function indexOf(b: Uint8Array, s: string): number {
  const k = [...s].map((c) => c.charCodeAt(0));
  for (let i = b.indexOf(k[0]); i >= 0; i = b.indexOf(k[0], i + 1)) if (k.every((c, j) => b[i + j] === c)) return i;
  return -1;
}

/** Words that do not repeat, so a page of them compresses to about half: a content stream of tens of KB on the wire. */
function prose(words: number, seed: number): string {
  const out: string[] = [];
  let x = seed;
  for (let i = 0; i < words; i++) {
    let w = "";
    for (let k = 0; k < 3 + (i % 7); k++) {
      x = (x * 1103515245 + 12345) >>> 0;
      w += String.fromCharCode(97 + ((x >>> 16) % 26));
    }
    out.push(w);
  }
  return out.join(" ");
}

/** PDF.js's own text items for each page, read with no measuring at all (what reading was before the budgets). */
async function pdfjsItems(bytes: Uint8Array): Promise<string[][]> {
  const pdf = await getDocumentProxy(bytes.slice());
  const pages: string[][] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((i) => ("str" in i ? i.str : "")).filter((s) => s.trim()));
  }
  await pdf.destroy();
  return pages;
}

describe("PDFs encrypted with an empty user password read as before the budgets", () => {
  for (const method of METHODS) {
    it(`${method}: the text reads, the same as PDF.js gives and as the same document unencrypted`, async () => {
      const text = "Modern slavery statement of Example Trading Limited. We assess our supply chain for risks of forced labour";
      const bytes = await encryptedPdf({ method, pages: 3, text });
      expect(indexOf(bytes, "/Encrypt")).toBeGreaterThan(0);
      expect(indexOf(bytes, "supply chain")).toBe(-1); // the content streams are encrypted, not merely compressed
      const pdf = await readPdf(bytes);
      expect(pdf).toMatchObject({ totalPages: 3, cut: false });
      expect(pdf.pages[2].replace(/\s+/g, " ")).toContain(`${text}, page 3. We train our staff every year.`);
      expect(pdf.pages).toEqual((await readPdf(await encryptedPdf({ method: "none", pages: 3, text }))).pages);
      const items = await pdfjsItems(bytes);
      items.forEach((its, p) => {
        for (const s of its) expect(pdf.pages[p]).toContain(s.trim());
      });
      // Measured by what the streams decode to, exactly as the unencrypted document's (not bounded by a ratio).
      expect((await measureStreams(bytes.slice())).decodedBytes).toBe(
        (await measureStreams(await encryptedPdf({ method: "none", pages: 3, text }))).decodedBytes,
      );
    }, 30_000);

    it(`${method}: content streams of tens of KB on the wire (refused before: raw size × 1,032 passed 16 MiB) read`, async () => {
      const text = prose(6_000, 1);
      const bytes = await encryptedPdf({ method, pages: 1, text });
      const raw = indexOf(bytes, "endstream") - indexOf(bytes, "stream");
      expect(raw * 1032).toBeGreaterThan(MAX_PDF_STREAM_BYTES);
      const pdf = await readPdf(bytes);
      expect(pdf.pages[0].replace(/\s+/g, " ")).toBe(`${text}, page 1. We train our staff every year.`);
    }, 30_000);

    it(`${method}: a stream inflating to 15 MiB (under the stream budget) is measured, not refused`, async () => {
      const bytes = await encryptedPdf({ method, pages: 1, bombBytes: 15 * MiB });
      const { decodedBytes } = await measureStreams(bytes.slice());
      expect(decodedBytes).toBeGreaterThanOrEqual(15 * MiB);
      expect(decodedBytes).toBeLessThan(15 * MiB + 64 * 1024);
    }, 30_000);
  }
});

describe("Flate bombs inside encrypted PDFs are refused at the budgets", () => {
  for (const method of METHODS) {
    it(`${method}: a content stream inflating to 512 MiB is refused at the stream budget, in seconds`, async () => {
      const bytes = await encryptedPdf({ method, pages: 1, bombBytes: 512 * MiB });
      expect(bytes.length).toBeLessThan(2 * MiB);
      const t = cpuNow();
      const e = await readPdf(bytes).catch((x: unknown) => x);
      expect(refusal(e)).toMatch(/a stream decodes to more than 16 MiB/);
      expect((cpuNow() - t) / 1000).toBeLessThan(5);
    }, 60_000);

    it(`${method}: a stream just past the stream budget is refused`, async () => {
      const e = await readPdf(await encryptedPdf({ method, pages: 1, bombBytes: MAX_PDF_STREAM_BYTES + BOMB_LINE.length * 1000 })).catch((x: unknown) => x);
      expect(refusal(e)).toMatch(/a stream decodes to more than 16 MiB/);
    }, 60_000);
  }
});

describe("what is not decrypted here", () => {
  for (const method of METHODS) {
    it(`${method} with a user password: refused as encrypted with a password, before any measuring (even with a bomb)`, async () => {
      for (const bombBytes of [undefined, 64 * MiB]) {
        const bytes = await encryptedPdf({ method, pages: 1, userPassword: "secret", bombBytes });
        expect((await openEncryption(bytes)).state).toBe("password");
        expect(refusal(await readPdf(bytes).catch((x: unknown) => x))).toBe("The PDF could not be opened (it is encrypted with a password).");
      }
    }, 30_000);
  }

  it("a stream whose object number is read wrong (so it decrypts to noise) falls back to the largest inflation", async () => {
    const bytes = await encryptedPdf({ method: "rc4-128", pages: 1, bombBytes: 15 * MiB });
    await expect(measureStreams(bytes.slice())).resolves.toBeTruthy();
    // The bomb is object 4; its header made "9 0 obj" (same length, so nothing else moves).
    const at = indexOf(bytes, "\n4 0 obj") + 1;
    bytes[at] = 0x39;
    const e = await measureStreams(bytes).catch((x: unknown) => x);
    expect(refusal(e)).toMatch(
      /stream of an encrypted file that does not decrypt to whole deflate data stream of [\d,]+ bytes could decode to more than 16 MiB/,
    );
  }, 30_000);

  it("a security handler other than Standard (public-key /Adobe.PubSec) keeps the raw size × ratio bound", async () => {
    const swap = (b: Uint8Array) => {
      const at = indexOf(b, "/Filter /Standard");
      b.set(enc.encode("/Filter /PubSecXX"), at); // same length: nothing else moves
      return b;
    };
    const small = swap(await encryptedPdf({ method: "aes-128", pages: 1 }));
    expect(await openEncryption(small)).toEqual({ state: "unsupported", why: "security handler PubSecXX" });
    await expect(measureStreams(small)).resolves.toBeTruthy(); // a few hundred bytes × 1,032 is under the budget
    const big = swap(await encryptedPdf({ method: "aes-128", pages: 1, bombBytes: 15 * MiB }));
    expect(refusal(await measureStreams(big).catch((x: unknown) => x))).toMatch(/its data is encrypted/);
  }, 30_000);

  it("RC4 is RC4 (a published test vector)", () => {
    const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    expect(hex(rc4(enc.encode("Key"), enc.encode("Plaintext")))).toBe("bbf316e8d940af0ad3");
    expect(hex(rc4(enc.encode("Wiki"), enc.encode("pedia")))).toBe("1021bf0420");
  });
});
