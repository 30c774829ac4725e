import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PhotonImage } from "@cf-wasm/photon";
import { decoded } from "../../support/photon";
import { describe, expect, it } from "vitest";
import { monogramColour } from "../../../src/services/images/monogram";
import { probeImage } from "../../../src/services/images/probe";
import { LOGO_SIZES, makeLogo, makeMonogram } from "../../../src/sources/images/transform";
import { SHARED_DIR, SHARED_PRESENT } from "../../support/shared";

/**
 * Issue 32: logos made to a size and format. The outputs are decoded again (Photon, and the probe for their headers)
 * and measured: their size, that greyscale is grey, that the image is centred, that hostile files never decode.
 */

const ACT_ASSETS = join(SHARED_DIR, "corpora/act-rules/test-assets");
const real = (name: string) => new Uint8Array(readFileSync(join(ACT_ASSETS, name)));

/** An image made here: a w × h PNG of one colour. */
function pngOf(w: number, h: number, rgba: [number, number, number, number]) {
  const px = new Uint8Array(w * h * 4);
  for (let i = 0; i < px.length; i += 4) px.set(rgba, i);
  const img = new PhotonImage(px, w, h);
  try {
    return img.get_bytes();
  } finally {
    img.free();
  }
}

describe.skipIf(!SHARED_PRESENT)("issue 32 logos made from the real images of ../shared (the ACT rules' assets)", () => {
  it("every size, as PNG and WebP: a square of that size, read back as the format asked", () => {
    for (const file of ["shared/act-logo.png", "shared/w3c-logo.png", "contrast/example.png"]) {
      for (const size of LOGO_SIZES)
        for (const format of ["png", "webp"] as const) {
          const out = makeLogo(real(file), { size, format });
          const probe = probeImage(out.bytes);
          expect(probe, `${file} ${size} ${format}`).toMatchObject({ ok: true, image: { format, width: size, height: size } });
          expect(out.mime).toBe(`image/${format}`);
          const d = decoded(out.bytes);
          expect([d.width, d.height]).toEqual([size, size]);
        }
    }
  });

  it("greyscale is grey: every visible pixel has equal red, green and blue; the colour logo has colour", () => {
    const grey = decoded(makeLogo(real("shared/w3c-logo.png"), { size: 64, format: "png", greyscale: true }).bytes).px;
    const colour = decoded(makeLogo(real("shared/w3c-logo.png"), { size: 64, format: "png" }).bytes).px;
    let visible = 0;
    let coloured = 0;
    for (let i = 0; i < grey.length; i += 4) {
      if (grey[i + 3] === 0) continue;
      visible++;
      expect(Math.max(Math.abs(grey[i] - grey[i + 1]), Math.abs(grey[i + 1] - grey[i + 2])), `pixel ${i / 4}`).toBeLessThanOrEqual(1);
    }
    for (let i = 0; i < colour.length; i += 4) if (colour[i + 3] > 0 && (colour[i] !== colour[i + 1] || colour[i + 1] !== colour[i + 2])) coloured++;
    expect(visible).toBeGreaterThan(100);
    expect(coloured).toBeGreaterThan(100);
  });

  it("a wide image keeps its shape: scaled to the square's width, centred, transparent above and below", () => {
    // background.png is 300 × 6.
    const d = decoded(makeLogo(real("shared/background.png"), { size: 128, format: "png" }).bytes);
    const alphaAt = (x: number, y: number) => d.px[(y * 128 + x) * 4 + 3];
    expect(alphaAt(64, 0)).toBe(0);
    expect(alphaAt(64, 127)).toBe(0);
    expect(alphaAt(64, 64)).toBeGreaterThan(0);
  });
});

describe("issue 32 logos: what is refused before or while decoding", () => {
  it("an image made here, 200 × 100, becomes a centred 64 square", () => {
    const d = decoded(makeLogo(pngOf(200, 100, [200, 30, 30, 255]), { size: 64, format: "png" }).bytes);
    expect([d.width, d.height]).toEqual([64, 64]);
    expect(d.px[(8 * 64 + 32) * 4 + 3]).toBe(0); // above the 64 × 32 band
    expect(d.px[(32 * 64 + 32) * 4 + 3]).toBe(255);
  });

  it("a decompression bomb, HTML served as an image, an SVG over its budget and a PNG whose data is garbage: unreadable_input, with the reason", () => {
    const header = pngOf(4, 4, [0, 0, 0, 255]).slice(0, 33);
    const bomb = new Uint8Array([...header.slice(0, 16), 0, 0, 0xc3, 0x50, 0, 0, 0xc3, 0x50, ...header.slice(24)]);
    const garbage = new Uint8Array([...header, 0, 0, 0, 8, 73, 68, 65, 84, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0]);
    const cases: [string, Uint8Array, RegExp][] = [
      ["bomb", bomb, /50000 × 50000 pixels, over the limit/],
      ["html", new TextEncoder().encode("<!doctype html><p>404</p>"), /not a PNG, JPEG, GIF, WebP, ICO or SVG/],
      [
        "svg",
        new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${"<rect/>".repeat(20_000)}</svg>`),
        /more than 20,000 elements/,
      ],
      ["garbage", garbage, /could not be decoded/],
    ];
    for (const [name, bytes, message] of cases) {
      let thrown: unknown;
      try {
        makeLogo(bytes, { size: 64, format: "png" });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, name).toMatchObject({ code: "unreadable_input" });
      expect((thrown as Error).message, name).toMatch(message);
    }
  });
});

describe("issue 32 monogram as pixels", () => {
  it("a square of the name's colour with white initials centred; other initials, other pixels", () => {
    const colour = monogramColour("Acme Widgets Ltd");
    for (const size of [32, 128, 512] as const) {
      const out = makeMonogram("AW", colour, { size, format: "png" });
      const d = decoded(out.bytes);
      expect([d.width, d.height]).toEqual([size, size]);
      const at = (x: number, y: number) => [...d.px.subarray((y * size + x) * 4, (y * size + x) * 4 + 3)];
      const hex = `#${at(0, 0)
        .map((c) => c.toString(16).padStart(2, "0"))
        .join("")}`;
      expect(hex).toBe(colour);
      // White pixels, and their bounds centred within a pixel or two.
      let [x0, y0, x1, y1]: number[] = [size, size, -1, -1];
      for (let y = 0; y < size; y++)
        for (let x = 0; x < size; x++) {
          const [r, g, b] = at(x, y);
          if (r > 240 && g > 240 && b > 240) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
        }
      expect(x1, `size ${size}`).toBeGreaterThan(x0);
      expect(Math.abs(x0 - (size - 1 - x1)), `size ${size}: left and right margins`).toBeLessThanOrEqual(Math.max(2, size / 32));
      expect(Math.abs(y0 - (size - 1 - y1)), `size ${size}: top and bottom margins`).toBeLessThanOrEqual(Math.max(2, size / 32));
    }
    const a = makeMonogram("AW", colour, { size: 64, format: "png" }).bytes;
    const b = makeMonogram("BX", colour, { size: 64, format: "png" }).bytes;
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(Buffer.from(a).equals(Buffer.from(makeMonogram("AW", colour, { size: 64, format: "png" }).bytes))).toBe(true);
  });
});
