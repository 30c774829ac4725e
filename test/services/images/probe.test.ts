import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { unzlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { IMAGE_LIMITS, probeImage } from "../../../src/services/images/probe";
import { cpuNow } from "../../support/cpuClock";
import { SHARED_DIR, SHARED_PRESENT } from "../../support/shared";

/**
 * Issue 32: an image is what its own bytes say, of a size the limits allow, before anything decodes it. First the real
 * images of ../shared (the W3C ACT rules' test assets and cases) and this repository's fixture sites, then files made
 * here for each format's header and for the hostile cases: a decompression bomb, HTML served as an image, a header cut
 * short, a JPEG of endless segments.
 */

const FIXTURES = join(import.meta.dirname, "../../fixtures/hosts");
const EXT: Record<string, string> = { png: "png", jpg: "jpeg", jpeg: "jpeg", gif: "gif", webp: "webp", ico: "ico", svg: "svg" };

/** Every image file under a folder, by extension. */
function imagesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => (f.split(".").pop() ?? "").toLowerCase() in EXT)
    .map((f) => join(dir, f));
}

/**
 * A PNG's pixel rows, inflated from its IDAT chunks: a non-interlaced image holds height rows of 1 + ceil(width × bits
 * / 8) bytes. Checks the header's size against the image data itself, independently of the probe.
 */
function pngDataMatches(b: Uint8Array, width: number, height: number): boolean {
  const depth = b[24];
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[b[25]] ?? 0;
  if (b[28] !== 0) return true; // interlaced: rows per pass, not checked here
  const parts: Uint8Array[] = [];
  for (let at = 8; at + 8 <= b.length; ) {
    const len = new DataView(b.buffer, b.byteOffset + at).getUint32(0);
    if (String.fromCharCode(...b.subarray(at + 4, at + 8)) === "IDAT") parts.push(b.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    all.set(p, o);
    o += p.length;
  }
  return unzlibSync(all).length === height * (1 + Math.ceil((width * depth * channels) / 8));
}

describe("issue 32 image probe: real images", () => {
  it.skipIf(!SHARED_PRESENT)(
    "every image of the W3C ACT rules' corpus in ../shared: its format as its name says, a size, and PNG sizes matching their pixel data",
    () => {
      const files = imagesUnder(join(SHARED_DIR, "corpora/act-rules"));
      expect(files.length).toBeGreaterThan(10);
      let pngs = 0;
      for (const f of files) {
        const bytes = new Uint8Array(readFileSync(f));
        const r = probeImage(bytes);
        expect(r.ok, `${f}: ${r.ok ? "" : r.message}`).toBe(true);
        if (!r.ok) continue;
        expect(r.image.format, f).toBe(EXT[(f.split(".").pop() ?? "").toLowerCase()]);
        if (r.image.format === "png") {
          pngs++;
          expect(pngDataMatches(bytes, r.image.width!, r.image.height!), f).toBe(true);
        }
        if (r.image.format !== "svg") expect(r.image.width! * r.image.height!, f).toBeGreaterThan(0);
      }
      expect(pngs).toBeGreaterThan(3);
    },
  );

  it("the fixture sites' stand-in images: a PNG header alone is read for its size (a decoder would find no pixels); a bare PNG signature, also named .jpg, is malformed", () => {
    // The logo image's own fixture sites (real logos, and hostile ones) are read in the test after this one.
    const files = imagesUnder(FIXTURES).filter((f) => !LOGO_SITES.some((site) => f.includes(`/${site}/`)));
    expect(files.length).toBeGreaterThan(2);
    for (const f of files) {
      const bytes = new Uint8Array(readFileSync(f));
      const r = probeImage(bytes);
      if (bytes.length <= 8) expect(r, f).toMatchObject({ ok: false, reason: "malformed" });
      else expect(r, f).toMatchObject({ ok: true, image: { format: "png", width: 1, height: 1 } });
    }
  });
});

const LOGO_SITES = ["logos.test", "svglogo.test", "badlogos.test"];

describe("the logo image's fixture sites (test/operations/web/companyLogoImage.test.ts)", () => {
  it("logos are read for their format and size; the hostile ones are refused with their reason", () => {
    const probe = (path: string) => probeImage(new Uint8Array(readFileSync(join(FIXTURES, path))));
    expect(probe("logos.test/logo.png")).toMatchObject({ ok: true, image: { format: "png", width: 200, height: 100 } });
    expect(probe("logos.test/logo-dark.png")).toMatchObject({ ok: true, image: { format: "png", width: 200, height: 100 } });
    expect(probe("logos.test/icon.svg")).toMatchObject({ ok: true, image: { format: "svg", width: 64, height: 64 } });
    expect(probe("svglogo.test/logo.svg")).toMatchObject({ ok: true, image: { format: "svg", width: 200, height: 100 } });
    expect(probe("badlogos.test/bomb.png")).toMatchObject({ ok: false, reason: "too_many_pixels" });
    expect(probe("badlogos.test/fake.png")).toMatchObject({ ok: false, reason: "not_an_image" });
  });
});

// ---- files made here ---------------------------------------------------------------------------------------------

const bytes = (...parts: (number[] | string | Uint8Array)[]) => {
  const out: number[] = [];
  for (const p of parts) for (const x of typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p) out.push(x);
  return new Uint8Array(out);
};
const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le24 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];
const chunk = (type: string, data: number[]) => [...be32(data.length), ...[...type].map((c) => c.charCodeAt(0)), ...data, 0, 0, 0, 0];
const pngOf = (w: number, h: number, extra: number[] = []) =>
  bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], chunk("IHDR", [...be32(w), ...be32(h), 8, 6, 0, 0, 0]), extra, chunk("IDAT", []), chunk("IEND", []));

describe("issue 32 image probe: each format's header", () => {
  it("PNG: size from IHDR; an acTL chunk before the image data is an animated PNG", () => {
    expect(probeImage(pngOf(120, 60))).toEqual({ ok: true, image: { format: "png", mime: "image/png", width: 120, height: 60, animated: false } });
    expect(probeImage(pngOf(120, 60, chunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0])))).toMatchObject({ ok: true, image: { animated: true } });
  });

  it("JPEG: the frame header after APP segments and fill bytes, height before width", () => {
    const app0 = [0xff, 0xe0, 0, 16, ...bytes("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0];
    const sof2 = [0xff, 0xff, 0xff, 0xc2, 0, 17, 8, ...[0, 90].slice(), ...[1, 44], 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
    const r = probeImage(bytes([0xff, 0xd8], app0, sof2, [0xff, 0xd9]));
    expect(r).toEqual({ ok: true, image: { format: "jpeg", mime: "image/jpeg", width: 300, height: 90, animated: false } });
  });

  it("GIF: the logical screen's size; two image descriptors make it animated", () => {
    const frame = [0x2c, 0, 0, 0, 0, 2, 0, 2, 0, 0, 2, 2, 0x44, 0x01, 0];
    const one = bytes("GIF89a", le16(32), le16(16), [0, 0, 0], frame, [0x3b]);
    const two = bytes("GIF89a", le16(32), le16(16), [0, 0, 0], [0x21, 0xf9, 4, 0, 10, 0, 0, 0], frame, frame, [0x3b]);
    expect(probeImage(one)).toMatchObject({ ok: true, image: { format: "gif", width: 32, height: 16, animated: false } });
    expect(probeImage(two)).toMatchObject({ ok: true, image: { animated: true } });
  });

  it("WebP: lossy (VP8), lossless (VP8L) and extended (VP8X, with its animation flag)", () => {
    const riff = (c: number[]) => bytes("RIFF", [0, 0, 0, 0], "WEBP", c);
    const vp8 = riff([...bytes("VP8 "), 0, 0, 0, 0, 0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(640), ...le16(480), 0, 0]);
    const bits = (200 - 1) | ((100 - 1) << 14);
    const vp8l = riff([...bytes("VP8L"), 0, 0, 0, 0, 0x2f, bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, (bits >>> 24) & 255]);
    const vp8x = riff([...bytes("VP8X"), 10, 0, 0, 0, 0x02, 0, 0, 0, ...le24(511), ...le24(255)]);
    expect(probeImage(vp8)).toMatchObject({ ok: true, image: { format: "webp", width: 640, height: 480 } });
    expect(probeImage(vp8l)).toMatchObject({ ok: true, image: { format: "webp", width: 200, height: 100 } });
    expect(probeImage(vp8x)).toMatchObject({ ok: true, image: { format: "webp", width: 512, height: 256, animated: true } });
  });

  it("ICO: the largest image of its directory (a 0 byte is 256)", () => {
    const entry = (w: number, h: number) => [w, h, 0, 0, 1, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    expect(probeImage(bytes([0, 0, 1, 0, 2, 0], entry(16, 16), entry(0, 0)))).toMatchObject({ ok: true, image: { format: "ico", width: 256, height: 256 } });
  });

  it("SVG: its stated size in pixels, or its viewBox's; after a declaration, a comment and a doctype", () => {
    const doc = (root: string) => new TextEncoder().encode(`\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg>\n${root}<rect/></svg>`);
    expect(probeImage(doc('<svg xmlns="http://www.w3.org/2000/svg" width="120px" height="40">'))).toMatchObject({
      ok: true,
      image: { format: "svg", width: 120, height: 40 },
    });
    expect(probeImage(doc('<svg viewBox="0 0 300 100">'))).toMatchObject({ ok: true, image: { width: 300, height: 100 } });
    expect(probeImage(doc('<svg width="150" viewBox="0 0 300 100">'))).toMatchObject({ ok: true, image: { width: 150, height: 50 } });
    expect(probeImage(doc('<svg width="100%">'))).toMatchObject({ ok: true, image: { format: "svg", width: null, height: null } });
  });
});

describe("issue 32 image probe: hostile files are refused before anything decodes them", () => {
  it("a decompression bomb: a 70-byte PNG declaring 50,000 × 50,000 pixels", () => {
    const r = probeImage(pngOf(50_000, 50_000));
    expect(r).toMatchObject({ ok: false, reason: "too_many_pixels" });
    expect(probeImage(pngOf(IMAGE_LIMITS.maxSide + 1, 10))).toMatchObject({ ok: false, reason: "too_many_pixels" });
    expect(probeImage(pngOf(4096, 4096))).toMatchObject({ ok: true });
    expect(probeImage(pngOf(4097, 4096))).toMatchObject({ ok: false, reason: "too_many_pixels" });
  });

  it("a GIF and an SVG that state huge sizes are refused too (an SVG with no size is left to the renderer's own limits)", () => {
    expect(probeImage(bytes("GIF89a", le16(65535), le16(65535), [0, 0, 0, 0x3b]))).toMatchObject({ ok: false, reason: "too_many_pixels" });
    expect(probeImage(new TextEncoder().encode('<svg width="100000" height="100000"></svg>'))).toMatchObject({ ok: false, reason: "too_many_pixels" });
  });

  it("a page of HTML, a JSON error and an empty body served as image/png are not images", () => {
    for (const body of ["<!doctype html><html><body>Not found</body></html>", '{"error":"forbidden"}', "", "<html><svg></svg></html>"])
      expect(probeImage(new TextEncoder().encode(body)), body).toMatchObject({ ok: false, reason: "not_an_image" });
  });

  it("headers cut short or wrong: malformed, never a size read past the end", () => {
    expect(probeImage(pngOf(10, 10).subarray(0, 20))).toMatchObject({ ok: false, reason: "malformed" });
    expect(probeImage(bytes("RIFF", [0, 0, 0, 0], "WEBP", "VP8 ", [0, 0]))).toMatchObject({ ok: false, reason: "malformed" });
    expect(probeImage(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 1]))).toMatchObject({ ok: false, reason: "malformed" });
    expect(probeImage(pngOf(0, 10))).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("a JPEG of endless small segments is given up within the scan budget", () => {
    const segments = Array.from({ length: 200_000 }, () => [0xff, 0xfe, 0, 2]).flat();
    const r = probeImage(bytes([0xff, 0xd8], segments));
    expect(r).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("an SVG's prolog read in linear time: 256 KiB of spaces, unclosed comments, a doctype without its end, many comments", () => {
    const head = IMAGE_LIMITS.maxScanBytes;
    const hostile = [
      `${" ".repeat(head)}x`,
      `${"<!-- ".repeat(head / 5)}`,
      `<!DOCTYPE svg${" ".repeat(head)}`,
      `${"<!-- a --><!-- b -->".repeat(head / 20)}<html>`,
      `${"<?pi ".repeat(head / 5)}`,
    ];
    for (const text of hostile) {
      const t0 = cpuNow();
      expect(probeImage(new TextEncoder().encode(text))).toMatchObject({ ok: false, reason: "not_an_image" });
      expect(cpuNow() - t0, text.slice(0, 20)).toBeLessThan(1_000);
    }
    // And the prolog it allows still finds the root.
    expect(
      probeImage(new TextEncoder().encode('<?xml version="1.0"?><!-- a - b --><!DOCTYPE svg [<!ENTITY x "y">]><svg width="8" height="8"/>')),
    ).toMatchObject({
      ok: true,
      image: { format: "svg", width: 8, height: 8 },
    });
  });

  it("a file over the byte limit is refused by its length alone", () => {
    expect(probeImage(new Uint8Array(IMAGE_LIMITS.maxBytes + 1))).toMatchObject({ ok: false, reason: "too_large" });
  });
});
