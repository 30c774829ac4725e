import { describe, expect, it } from "vitest";
import { MONOGRAM_GREY, MONOGRAM_PALETTE, initialsOf, monogramColour, monogramSvg } from "../../../src/services/images/monogram";
import { SHARED_PRESENT, sharedText } from "../../support/shared";

/** Issue 32 `fallback=monogram`: initials and a stable colour from an organisation's name, white text readable on it. */

/** WCAG 2.2 relative luminance of an sRGB colour, and the contrast ratio of two. */
const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

/** The sponsor names of a real register file (its first column, quoted CSV). */
const sponsorNames = (path: string) =>
  sharedText(path)
    .split("\n")
    .slice(1)
    .map((l) => /^"([^"]*)"/.exec(l)?.[1] ?? l.split(",")[0])
    .filter(Boolean);

describe("issue 32 monogram", () => {
  it("every colour of the palette, and the grey, carries white text at 4.5:1 or more (WCAG 2.2 AA)", () => {
    for (const { name, hex } of [...MONOGRAM_PALETTE, { name: "grey", hex: MONOGRAM_GREY }]) expect(contrast(hex, "#ffffff"), name).toBeGreaterThanOrEqual(4.5);
  });

  it("initials: the first letters of the first two words of the name, legal forms and filler left out", () => {
    expect(initialsOf("Acme Widgets Ltd")).toBe("AW");
    expect(initialsOf("The Co-operative Group Limited")).toBe("CG");
    expect(initialsOf("TESCO PLC")).toBe("T");
    expect(initialsOf("3M United Kingdom Public Limited Company")).toBe("3U");
    expect(initialsOf("Marks and Spencer Group p.l.c.")).toBe("MS");
    expect(initialsOf("Société Générale")).toBe("SG");
    expect(initialsOf("shopify.com")).toBe("S");
    expect(initialsOf("www.bbc.co.uk")).toBe("B");
    expect(initialsOf("! LIMITED")).toBe("?");
  });

  it.skipIf(!SHARED_PRESENT)(
    "on the real sponsors register (4,161 names): initials are one or two letters or digits, and the names spread over every colour, none taking more than twice its share",
    () => {
      const names = sponsorNames("data/home-office-sponsors/workers_2021-11-02_rows-to-A.csv");
      expect(names.length).toBeGreaterThan(4000);
      const counts = new Map<string, number>();
      for (const n of names) {
        expect(initialsOf(n), n).toMatch(/^(?:[\p{Lu}\p{Lt}\p{Lo}\p{N}]{1,2}|\?)$/u);
        const c = monogramColour(n);
        counts.set(c, (counts.get(c) ?? 0) + 1);
      }
      expect(counts.size).toBe(MONOGRAM_PALETTE.length);
      for (const [c, n] of counts) expect(n, c).toBeLessThan((2 * names.length) / MONOGRAM_PALETTE.length);
    },
  );

  it("stable for one name however it is written, different between names; greyscale is the grey", () => {
    expect(monogramColour("Acme Widgets Ltd")).toBe(monogramColour("ACME WIDGETS LIMITED"));
    expect(monogramSvg("Acme Widgets Ltd", { size: 128 })).toBe(monogramSvg("Acme Widgets Ltd", { size: 128 }));
    const colours = new Set(
      ["Acme Widgets", "Bayside Care", "Northgate Bakery", "Castle Brook Legal", "Pixel Harbour", "Meadow Care", "Sunny Days"].map((n) => monogramColour(n)),
    );
    expect(colours.size).toBeGreaterThan(3);
    expect(monogramColour("Acme Widgets", { greyscale: true })).toBe(MONOGRAM_GREY);
  });

  it("the SVG: the asked size, the colour, the initials, and nothing else of the caller's", () => {
    const svg = monogramSvg("Acme <script>alert(1)</script> Widgets", { size: 64 });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="64" height="64" /);
    expect(svg).toContain(`fill="${monogramColour("Acme <script>alert(1)</script> Widgets")}"`);
    expect(svg).toContain(">AS</text>");
    expect(svg).not.toMatch(/script|alert/i);
  });
});
