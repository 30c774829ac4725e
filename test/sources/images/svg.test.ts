import { decoded } from "../../support/photon";
import { afterEach, describe, expect, it, vi } from "vitest";
import { probeImage } from "../../../src/services/images/probe";
import { InputError } from "../../../src/shared/errors";
import { rasteriseSvg } from "../../../src/sources/images/svg";
import { makeLogo } from "../../../src/sources/images/transform";

/**
 * Issue 32: an SVG logo drawn as pixels by resvg (src/sources/images/svg.ts), then made a square like any raster logo
 * (src/sources/images/transform.ts). The outputs are decoded again with Photon and measured; a hostile SVG's scripts,
 * HTML and links do nothing.
 */

const utf8 = (s: string) => new TextEncoder().encode(s);
const RED_RECT = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect width="100" height="50" fill="#ff0000"/></svg>';

/** The error a call throws (the test fails if it throws none). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  expect.fail("it threw nothing");
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("issue 32 SVG drawn as pixels", () => {
  it("a red 100 × 50 rectangle drawn to 64: 64 × 32 pixels, every one red; a tall one is 64 high; a UTF-8 BOM is skipped", () => {
    const r = rasteriseSvg(utf8(RED_RECT), 64);
    expect([r.width, r.height]).toEqual([64, 32]);
    expect(r.pixels.length).toBe(64 * 32 * 4);
    for (let i = 0; i < r.pixels.length; i += 4) expect([...r.pixels.subarray(i, i + 4)], `pixel ${i / 4}`).toEqual([255, 0, 0, 255]);
    const tall = rasteriseSvg(utf8('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 40"><rect width="10" height="40"/></svg>'), 64);
    expect([tall.width, tall.height]).toEqual([16, 64]);
    const bom = rasteriseSvg(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(RED_RECT)]), 32);
    expect([bom.width, bom.height]).toEqual([32, 16]);
  });

  it("made a 128 logo: a PNG of 128 × 128, the rectangle in the middle rows, transparent rows above and below", () => {
    const out = makeLogo(utf8(RED_RECT), { size: 128, format: "png" });
    expect(out).toMatchObject({ mime: "image/png", width: 128, height: 128, source: { format: "svg", width: 100, height: 50 } });
    expect(probeImage(out.bytes)).toMatchObject({ ok: true, image: { format: "png", width: 128, height: 128 } });
    const d = decoded(out.bytes);
    expect([d.width, d.height]).toEqual([128, 128]);
    const at = (x: number, y: number) => [...d.px.subarray((y * 128 + x) * 4, (y * 128 + x) * 4 + 4)];
    for (const y of [0, 16, 31, 96, 111, 127]) for (const x of [0, 64, 127]) expect(at(x, y)[3], `(${x}, ${y})`).toBe(0);
    for (const y of [32, 64, 95]) for (const x of [0, 64, 127]) expect(at(x, y), `(${x}, ${y})`).toEqual([255, 0, 0, 255]);
    // And as WebP.
    expect(probeImage(makeLogo(utf8(RED_RECT), { size: 32, format: "webp" }).bytes)).toMatchObject({ ok: true, image: { format: "webp", width: 32 } });
  });

  it("greyscale: every visible pixel grey", () => {
    const logo = utf8(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 10"><rect width="10" height="10" fill="red"/><rect x="10" width="10" height="10" fill="lime"/><rect x="20" width="10" height="10" fill="blue"/></svg>',
    );
    const d = decoded(makeLogo(logo, { size: 64, format: "png", greyscale: true }).bytes);
    let visible = 0;
    for (let i = 0; i < d.px.length; i += 4) {
      if (d.px[i + 3] === 0) continue;
      visible++;
      expect(Math.max(Math.abs(d.px[i] - d.px[i + 1]), Math.abs(d.px[i + 1] - d.px[i + 2])), `pixel ${i / 4}`).toBeLessThanOrEqual(1);
    }
    expect(visible).toBeGreaterThan(64 * 20);
  });

  it("a hostile SVG: its script, event handlers, HTML in a foreignObject and links to other resources do nothing; no request is made", () => {
    const fetchStub = vi.fn(() => {
      throw new Error("the SVG renderer made a request");
    });
    vi.stubGlobal("fetch", fetchStub);
    const hostile = utf8(`<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100" onload="fetch('http://127.0.0.1:1/onload')">
  <script type="text/javascript"><![CDATA[ fetch("http://127.0.0.1:1/script"); document.querySelector("rect").setAttribute("fill", "red"); ]]></script>
  <script href="http://127.0.0.1:1/x.js"/>
  <style>@import url("http://127.0.0.1:1/x.css");</style>
  <rect x="0" y="0" width="50" height="50" fill="#0000ff" onclick="alert(1)"/>
  <circle cx="0" cy="0" r="1" fill="url(http://127.0.0.1:1/paint.svg#p)"/>
  <foreignObject x="50" y="0" width="50" height="50">
    <div xmlns="http://www.w3.org/1999/xhtml" style="background:#ff0000;width:50px;height:50px"><img src="http://127.0.0.1:1/html.png"/><iframe src="http://127.0.0.1:1/"></iframe></div>
  </foreignObject>
  <image x="0" y="50" width="50" height="50" href="http://127.0.0.1:1/x.png"/>
  <image x="50" y="50" width="50" height="50" xlink:href="file:///etc/hostname"/>
  <use href="http://127.0.0.1:1/sprite.svg#icon"/>
  <a href="javascript:alert(1)"><text x="10" y="90">click</text></a>
</svg>`);
    const r = rasteriseSvg(hostile, 100);
    expect([r.width, r.height]).toEqual([100, 100]);
    const at = (x: number, y: number) => [...r.pixels.subarray((y * 100 + x) * 4, (y * 100 + x) * 4 + 4)];
    // The blue square is drawn (the stylesheet it imports is not loaded, nor is the script run that would make it
    // red); the foreignObject's red HTML and the images are not drawn: transparent.
    expect(at(25, 25), "the blue square").toEqual([0, 0, 255, 255]);
    expect(at(75, 25), "the foreignObject").toEqual([0, 0, 0, 0]);
    expect(at(25, 75), "the image at 127.0.0.1").toEqual([0, 0, 0, 0]);
    expect(at(75, 75), "the image at file:///").toEqual([0, 0, 0, 0]);
    // Through the logo maker too.
    expect(probeImage(makeLogo(hostile, { size: 64, format: "png" }).bytes)).toMatchObject({ ok: true, image: { format: "png", width: 64 } });
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it("a malformed SVG is unreadable_input: cut off, tags that do not match, not UTF-8", () => {
    const cutOff = utf8('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/><svg');
    const cases: [string, () => unknown, RegExp][] = [
      ["cut off", () => rasteriseSvg(cutOff, 64), /cut short or malformed/],
      ["cut off, as a logo", () => makeLogo(cutOff, { size: 64, format: "png" }), /cut short or malformed/],
      ["root cut off, as a logo", () => makeLogo(utf8('<svg xmlns="http://www.w3.org/2000/svg" width="10'), { size: 64, format: "png" }), /not a PNG, JPEG/],
      [
        "mismatched",
        () => rasteriseSvg(utf8('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g><rect/></svg>'), 64),
        /^The SVG could not be drawn \(.+\)\.$/,
      ],
      [
        "latin-1",
        () => rasteriseSvg(new Uint8Array([...utf8('<svg xmlns="http://www.w3.org/2000/svg"><text>'), 0xe9, ...utf8("</text></svg>")]), 64),
        /not valid UTF-8/,
      ],
    ];
    for (const [name, fn, message] of cases) {
      const e = thrown(fn);
      expect(e, name).toBeInstanceOf(InputError);
      expect(e, name).toMatchObject({ code: "unreadable_input" });
      expect((e as Error).message, name).toMatch(message);
    }
  });

  it("a <use> bomb is refused before resvg draws it", () => {
    let defs = '<rect id="l0" width="1" height="1"/>';
    for (let l = 1; l <= 10; l++) defs += `<g id="l${l}">${`<use href="#l${l - 1}"/>`.repeat(10)}</g>`;
    const e = thrown(() =>
      makeLogo(utf8(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs>${defs}</defs><use href="#l10"/></svg>`), {
        size: 64,
        format: "png",
      }),
    );
    expect(e).toMatchObject({ code: "unreadable_input", message: expect.stringMatching(/expand to more than 100,000 elements/) });
  });
});
