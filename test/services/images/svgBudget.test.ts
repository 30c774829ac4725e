import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { SVG_LIMITS, checkSvgBudget } from "../../../src/services/images/svgBudget";
import { InputError } from "../../../src/shared/errors";
import { rasteriseSvg } from "../../../src/sources/images/svg";
import { cpuNow } from "../../support/cpuClock";
import { SHARED_DIR, SHARED_PRESENT, sharedBytes } from "../../support/shared";

/**
 * Issue 32: an SVG logo is checked against its budget before resvg draws it (src/services/images/svgBudget.ts). First
 * the real SVGs of ../shared (the W3C ACT rules' assets and test cases), then SVGs made here: a normal logo, too many
 * elements, reference bombs and cycles, embedded images good and bad, a file over the byte limit.
 */

const svg = (body: string, attrs = 'width="100" height="100"') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${attrs}>${body}</svg>`;

/** The refusal's sentence (the test fails, showing the result, when it passed). */
function refusal(text: string): string {
  const r = checkSvgBudget(text);
  expect(r.ok, JSON.stringify(r)).toBe(false);
  return r.ok ? "" : r.message;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** A real PNG, w × h of one colour, encoded by Photon. */
function pngOf(w: number, h: number): Uint8Array {
  const px = new Uint8Array(w * h * 4);
  for (let i = 0; i < px.length; i += 4) px.set([20, 120, 200, 255], i);
  const img = new PhotonImage(px, w, h);
  try {
    return img.get_bytes();
  } finally {
    img.free();
  }
}

/** A PNG header that states w × h pixels and holds none (as the probe's tests make it). */
function pngHeader(w: number, h: number): Uint8Array {
  const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  const chunk = (type: string, data: number[]) => [...be32(data.length), ...[...type].map((c) => c.charCodeAt(0)), ...data, 0, 0, 0, 0];
  return Uint8Array.from([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...chunk("IHDR", [...be32(w), ...be32(h), 8, 6, 0, 0, 0]),
    ...chunk("IDAT", []),
    ...chunk("IEND", []),
  ]);
}

/** Levels of groups, each using the one below `fan` times: `fan`^levels elements drawn from a file of levels × fan. */
function useBomb(levels: number, fan: number, attr = "href"): string {
  let defs = '<rect id="l0" width="1" height="1"/>';
  for (let l = 1; l <= levels; l++) defs += `<g id="l${l}">${`<use ${attr}="#l${l - 1}"/>`.repeat(fan)}</g>`;
  return svg(`<defs>${defs}</defs><use ${attr}="#l${levels}"/>`);
}

describe.skipIf(!SHARED_PRESENT)("issue 32 SVG budget: the real SVGs of ../shared (the W3C ACT rules' corpus)", () => {
  it("every .svg there passes the budget and is drawn, or is refused with a sentence (never another kind of error)", () => {
    const root = join(SHARED_DIR, "corpora/act-rules");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.toLowerCase().endsWith(".svg"));
    expect(files.length).toBeGreaterThan(3);
    let drawn = 0;
    for (const f of files) {
      const bytes = sharedBytes(relative(SHARED_DIR, join(root, f)));
      const text = new TextDecoder().decode(bytes);
      const budget = checkSvgBudget(text);
      expect(budget, f).toMatchObject({ ok: true });
      expect(budget.ok && budget.elements, f).toBeGreaterThan(0);
      try {
        const r = rasteriseSvg(bytes, 64);
        expect(Math.max(r.width, r.height), f).toBe(64);
        expect(r.pixels.length, f).toBe(r.width * r.height * 4);
        drawn++;
      } catch (e) {
        // An SVG with nothing to size it by (no width, height, viewBox or content) is refused by resvg, with a sentence.
        expect(e, f).toBeInstanceOf(InputError);
        expect(e, f).toMatchObject({ code: "unreadable_input", message: expect.stringMatching(/^The SVG .+\.$/) });
      }
    }
    expect(drawn).toBeGreaterThan(1);
  });
});

describe("issue 32 SVG budget: made here", () => {
  it("a normal logo passes, its elements counted; references within the limits pass", () => {
    const logo = svg(
      `<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient>` +
        `<path id="leaf" d="M0 0 L10 10 Z"/></defs>` +
        `<rect width="100" height="100" fill="url(#g)"/><use href="#leaf"/><use xlink:href="#leaf" x="20"/>` +
        `<image href="logo.png" width="10" height="10"/><text>Acme</text>`,
    );
    expect(checkSvgBudget(logo)).toEqual({ ok: true, elements: 11 });
    // A BOM, an XML declaration, a comment, a doctype with plain-text entities (as Illustrator writes them), CDATA.
    const illustrator = `\uFEFF<?xml version="1.0"?><!-- made by hand --><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
      <!ENTITY ns_svg "http://www.w3.org/2000/svg"> <!ENTITY ns_xlink "http://www.w3.org/1999/xlink"> <!-- > -->
    ]><svg xmlns="&ns_svg;" xmlns:xlink="&ns_xlink;" width="10" height="10"><style><![CDATA[ rect > g { fill: red } ]]></style><rect data-x="a > b" width="10" height="10"/></svg>`;
    expect(checkSvgBudget(illustrator)).toEqual({ ok: true, elements: 3 });
  });

  it("20,000 elements pass; 20,001 are refused", () => {
    expect(checkSvgBudget(svg("<rect/>".repeat(SVG_LIMITS.maxElements - 1)))).toEqual({ ok: true, elements: SVG_LIMITS.maxElements });
    expect(refusal(svg("<rect/>".repeat(SVG_LIMITS.maxElements)))).toBe("The SVG has more than 20,000 elements, the limit for a logo; it was not drawn.");
  });

  it("a <use> bomb (10 levels of 10 uses: ten billion elements from 111) is refused quickly, with href or xlink:href", () => {
    for (const attr of ["href", "xlink:href"]) {
      const t0 = cpuNow();
      expect(refusal(useBomb(10, 10, attr))).toMatch(/^The SVG's references \(<use> and others\) expand to more than 100,000 elements, the limit for a logo/);
      expect(cpuNow() - t0).toBeLessThan(500);
    }
    // The same shape, small: 3 levels of 10 is 1,111 drawn.
    expect(checkSvgBudget(useBomb(3, 10))).toMatchObject({ ok: true });
    // Through other references: clip paths, each clipping with the one below.
    let clips = '<clipPath id="c0"><rect width="1" height="1"/></clipPath>';
    for (let l = 1; l <= 10; l++) clips += `<clipPath id="c${l}">${`<rect width="1" height="1" clip-path="url(#c${l - 1})"/>`.repeat(10)}</clipPath>`;
    expect(refusal(svg(`<defs>${clips}</defs><rect width="9" height="9" clip-path="url(#c10)"/>`))).toMatch(/expand to more than 100,000/);
  });

  it("the worst shapes for the checker itself stay linear: 6,000 nested groups each used once, 6,000 uses at the bottom; a chain of 9,990 references", () => {
    const k = 6_000;
    const nest = `${Array.from({ length: k }, (_, i) => `<g id="d${i}">`).join("")}${'<use href="#x"/>'.repeat(k)}${"</g>".repeat(k)}`;
    const outer = Array.from({ length: k }, (_, i) => `<use href="#d${i}"/>`).join("");
    let t0 = cpuNow();
    expect(refusal(svg(`<defs>${nest}<rect id="x"/></defs>${outer}`))).toMatch(/expand to more than 100,000 elements/);
    expect(cpuNow() - t0).toBeLessThan(500);
    // Each group uses the next: 9,990 deep, too deep for a recursive walk; 40,000 drawn.
    let chain = "";
    for (let i = 0; i < 9_990; i++) chain += `<g id="c${i}"><use href="#c${i + 1}"/></g>`;
    t0 = cpuNow();
    expect(checkSvgBudget(svg(`<defs>${chain}<rect id="c9990"/></defs><use href="#c0"/>`))).toEqual({ ok: true, elements: 19_984 });
    expect(cpuNow() - t0).toBeLessThan(500);
  });

  it("a cycle is refused: two groups that use each other, an element that uses itself, a group that uses its ancestor", () => {
    const cycle = /^The SVG's references form a cycle/;
    expect(refusal(svg('<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>'))).toMatch(cycle);
    expect(refusal(svg('<use id="u" href="#u"/>'))).toMatch(cycle);
    expect(refusal(svg('<g id="top"><g><use xlink:href="#top"/></g></g>'))).toMatch(cycle);
    // A reference to an id that is not there adds nothing.
    expect(checkSvgBudget(svg('<use href="#nowhere"/><use href="other.svg#x"/>'))).toEqual({ ok: true, elements: 3 });
  });

  it("a forward reference (the use before its id) is counted: six uses of a group of 19,000 defined after them are refused, four pass", () => {
    const group = `<defs><g id="big">${"<rect/>".repeat(18_999)}</g></defs>`;
    const uses = (k: number) => '<use href="#big"/>'.repeat(k);
    expect(refusal(svg(uses(6) + group))).toMatch(/expand to more than 100,000 elements/);
    expect(refusal(svg(group + uses(6)))).toMatch(/expand to more than 100,000 elements/);
    expect(checkSvgBudget(svg(uses(4) + group))).toMatchObject({ ok: true });
    // The id spelled with a character reference is the same id.
    expect(refusal(svg(`${'<use href="&#35;big"/>'.repeat(6)}<defs><g id="b&#105;g">${"<rect/>".repeat(18_999)}</g></defs>`))).toMatch(/expand/);
  });

  it("an embedded PNG that declares 50,000 × 50,000 pixels is refused, naming why; a small real PNG is accepted", () => {
    const bomb = svg(`<image width="10" height="10" href="data:image/png;base64,${b64(pngHeader(50_000, 50_000))}"/>`);
    expect(refusal(bomb)).toMatch(
      /^The SVG embeds an image that was refused \(The png image is 50000 × 50000 pixels, over the limit .*\); it was not drawn\.$/,
    );
    const small = pngOf(8, 8);
    const ok = svg(`<image width="10" height="10" xlink:href="data:image/png;base64,\n${b64(small).replace(/(.{20})/g, "$1\n")}"/>`);
    expect(checkSvgBudget(ok)).toEqual({ ok: true, elements: 2 });
    expect(rasteriseSvg(new TextEncoder().encode(ok), 32)).toMatchObject({ width: 32, height: 32 });
  });

  it("other embedded images: an SVG inside, HTML, malformed base64; drawn too often by references", () => {
    const inner = Buffer.from(svg("<rect/>")).toString("base64");
    expect(refusal(svg(`<image href="data:image/svg+xml;base64,${inner}"/>`))).toMatch(/embeds an image of format svg; only PNG, JPEG, GIF and WebP/);
    expect(refusal(svg(`<image href="data:image/svg+xml;utf8,${encodeURIComponent(svg("<rect/>"))}"/>`))).toMatch(/format svg/);
    expect(refusal(svg(`<image href="data:text/html;base64,${b64(new TextEncoder().encode("<p>hi</p>"))}"/>`))).toMatch(/not a PNG, JPEG/);
    expect(refusal(svg('<image href="data:image/png;base64,iVBO!!!"/>'))).toMatch(/base64 data is malformed/);
    // A 2048 × 2048 header (4 Mpx) is within the probe's limits; drawn five times through uses, 20 Mpx are too many.
    const big = `<defs><image id="i" href="data:image/png;base64,${b64(pngHeader(2048, 2048))}"/></defs>`;
    expect(checkSvgBudget(svg(big + '<use href="#i"/>'.repeat(3)))).toMatchObject({ ok: true });
    expect(refusal(svg(big + '<use href="#i"/>'.repeat(5)))).toMatch(
      /embedded images, drawn as often as its references draw them, are more than 16,777,216 pixels/,
    );
  });

  it("entities: one that holds markup or another entity, a parameter entity, or plain text repeated past the byte limit is refused", () => {
    const dtd = (decl: string, body: string) => `<!DOCTYPE svg [ ${decl} ]>${svg(body)}`;
    expect(refusal(dtd('<!ENTITY r "<rect/><rect/>">', "&r;&r;"))).toMatch(/declares an entity \("r"\) that holds markup/);
    expect(refusal(dtd('<!ENTITY a "x"><!ENTITY b "&a;&a;">', "&b;"))).toMatch(/holds markup or other references/);
    expect(refusal(dtd('<!ENTITY % p "x">', ""))).toMatch(/parameter entity/);
    expect(refusal(dtd(`<!ENTITY t "${"x".repeat(1000)}">`, "<text>&t;</text>".repeat(1100)))).toMatch(/entities expand to more than 1 MiB/);
    expect(checkSvgBudget(dtd('<!ENTITY t "Acme">', "<text>&t;</text>"))).toMatchObject({ ok: true });
  });

  it("markup cut short or malformed is refused; 1 MiB passes the byte limit, 1 MiB + 1 byte does not", () => {
    for (const bad of [
      '<svg xmlns="http://www.w3.org/2000/svg" width="1',
      "<svg><!-- never closed",
      '<svg><rect width=1 height="1"/></svg>',
      "<svg><!DOCTYPE [ </svg>",
    ])
      expect(refusal(bad), bad).toMatch(/cut short or malformed/);
    const at = (bytes: number) => {
      const head = svg("<text>");
      const tail = "</text></svg>";
      return head + "x".repeat(bytes - head.length - tail.length) + tail;
    };
    expect(checkSvgBudget(at(SVG_LIMITS.maxBytes))).toMatchObject({ ok: true });
    expect(refusal(at(SVG_LIMITS.maxBytes + 1))).toBe("The SVG is more than 1 MiB of text, the limit for a logo; it was not drawn.");
    // Counted in UTF-8 bytes, not characters: 600,000 "é" are 1.2 MB.
    expect(refusal(svg(`<text>${"é".repeat(600_000)}</text>`))).toMatch(/more than 1 MiB/);
  });
});
