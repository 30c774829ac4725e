import { describe, expect, it } from "vitest";
import {
  NAMED_COLOURS,
  colourProperties,
  customProperties,
  familiesOf,
  fontFaces,
  fontStacks,
  importsOf,
  parseColour,
  propertyMap,
  resolveVars,
  roleOf,
  webFontLink,
} from "../../src/services/web/css";

const hex = (v: string, named = false) => parseColour(v, { named })?.hex ?? null;

describe("brand-kit css: colours", () => {
  it.each([
    ["#0A3D62", "#0a3d62"],
    ["#fff", "#ffffff"],
    ["#abc8", "#aabbcc"],
    ["#0a3d6280", "#0a3d62"],
    ["  #0a3d62 !important ", "#0a3d62"],
    ["rgb(10, 61, 98)", "#0a3d62"],
    ["rgba(10,61,98,.5)", "#0a3d62"],
    ["rgb(10 61 98 / 50%)", "#0a3d62"],
    ["rgb(100% 0% 0%)", "#ff0000"],
    ["hsl(0, 100%, 50%)", "#ff0000"],
    ["hsl(120deg 100% 25%)", "#008000"],
    ["hsla(0.5turn, 100%, 50%, 0.8)", "#00ffff"],
    ["hsl(210, 30%, 15%)", "#1b2632"],
  ])("%s → %s", (input, out) => {
    expect(hex(input)).toBe(out);
  });

  it.each([
    "transparent",
    "currentColor",
    "inherit",
    "#12",
    "#12345",
    "rgb(1,2)",
    "rgba(0,0,0,0)",
    "#0000",
    "10px",
    "var(--x)",
    "linear-gradient(red, blue)",
    "navy",
  ])("%s is not a colour (named colours only when asked)", (input) => {
    expect(hex(input)).toBeNull();
  });

  it("named colours, lower-cased, only with `named` (as custom properties use them)", () => {
    expect(Object.keys(NAMED_COLOURS)).toHaveLength(148);
    expect(hex("RebeccaPurple", true)).toBe("#663399");
    expect(hex("navy", true)).toBe("#000080");
    expect(hex("grey", true)).toBe(hex("gray", true));
    expect(hex("transparent", true)).toBeNull();
  });
});

describe("brand-kit css: custom properties", () => {
  const css = `/* --commented-out: #ff0000; */
    :root { --brand-primary: #0a3d62; --color-primary: rgb(229 142 38); --link: var(--brand-primary);
      --fallback: var(--nope, #fdf6ec); --nested: var(--nope, var(--brand-primary)); --size: 2rem; --rgb-triplet: 13, 110, 253;
      --named: tomato; --broken: var(--nowhere); }
    [data-theme=dark] { --brand-primary: #061f33 !important; }`;

  it("reads every declaration in order, comments left out", () => {
    const props = customProperties(css);
    expect(props.map((p) => p.name)).toEqual([
      "--brand-primary",
      "--color-primary",
      "--link",
      "--fallback",
      "--nested",
      "--size",
      "--rgb-triplet",
      "--named",
      "--broken",
      "--brand-primary",
    ]);
    expect(props.at(-1)).toEqual({ name: "--brand-primary", value: "#061f33" });
  });

  it("a data: URL's `;` does not end its declaration: what follows is still read", () => {
    const css = `:root { --icon: url("data:image/svg+xml;charset=utf8,%3Csvg fill='%23fff'%3E%3C/svg%3E"); --after: #123456; }`;
    expect(customProperties(css).map((p) => p.name)).toEqual(["--icon", "--after"]);
    expect(colourProperties(customProperties(css))).toEqual([{ name: "--after", hex: "#123456", role: "other" }]);
  });

  it("resolves var() through the first declaration, with fallbacks, nested; unresolvable → null", () => {
    const vars = propertyMap(customProperties(css));
    expect(resolveVars("var(--link)", vars)).toBe("#0a3d62");
    expect(resolveVars("var(--nested)", vars)).toBe("#0a3d62");
    expect(resolveVars("var(--broken)", vars)).toBeNull();
    expect(resolveVars("1px solid var(--brand-primary)", vars)).toBe("1px solid #0a3d62");
  });

  it("keeps the properties that hold a colour, each (name, colour) once, with the role their name gives", () => {
    expect(colourProperties(customProperties(css))).toEqual([
      { name: "--brand-primary", hex: "#0a3d62", role: "primary" },
      { name: "--color-primary", hex: "#e58e26", role: "primary" },
      { name: "--link", hex: "#0a3d62", role: "link" },
      { name: "--fallback", hex: "#fdf6ec", role: "other" },
      { name: "--nested", hex: "#0a3d62", role: "other" },
      { name: "--named", hex: "#ff6347", role: "other" },
      { name: "--brand-primary", hex: "#061f33", role: "primary" },
    ]);
  });

  it.each([
    ["--brand-color", "brand"],
    ["--bs-secondary", "secondary"],
    ["--accent", "accent"],
    ["--color-bg", "background"],
    ["--text-colour", "text"],
    ["--link-hover", "link"],
    ["--border-subtle", "border"],
    ["--bs-danger", "status"],
    ["--kestrel-orange", "other"],
  ])("role of %s is %s", (name, role) => {
    expect(roleOf(name)).toBe(role);
  });
});

describe("brand-kit css: fonts", () => {
  it("font-family stacks counted by use (font shorthand too, var() resolved); @font-face, icon fonts and keywords are not uses", () => {
    const css = `:root { --font-body: "Inter", Arial, sans-serif; }
      body { font-family: var(--font-body); }
      p { font-family: 'Inter',   Arial, sans-serif; }
      h1 { font-family: Fraunces, Georgia, serif; }
      code { font-family: -apple-system, "Mono Sans", monospace; }
      .small { font: italic 600 0.8rem/1.2 "Inter", Arial, sans-serif !important; }
      .inherit { font-family: inherit; }
      .fa { font-family: "Font Awesome 6 Free"; }
      @font-face { font-family: "Inter"; src: url(/inter.woff2); }`;
    expect(fontStacks(css, propertyMap(customProperties(css)))).toEqual([
      { stack: "Inter, Arial, sans-serif", primary: "Inter", families: ["Inter", "Arial", "sans-serif"], uses: 3 },
      { stack: "Fraunces, Georgia, serif", primary: "Fraunces", families: ["Fraunces", "Georgia", "serif"], uses: 1 },
      // The primary family is the first that is not generic or a system keyword.
      { stack: "-apple-system, Mono Sans, monospace", primary: "Mono Sans", families: ["-apple-system", "Mono Sans", "monospace"], uses: 1 },
    ]);
  });

  it("familiesOf unquotes and collapses; keywords and functions are not lists of families", () => {
    expect(familiesOf(`"Helvetica  Neue", 'Segoe UI',sans-serif`)).toEqual(["Helvetica Neue", "Segoe UI", "sans-serif"]);
    expect(familiesOf("inherit")).toBeNull();
    expect(familiesOf("var(--x)")).toBeNull();
  });

  it("@font-face rules grouped by family: weights in order, styles, files absolute against the stylesheet (woff2 first, data: left out)", () => {
    const css = `@font-face { font-family: "Bramble Sans"; src: url(../fonts/b.woff) format("woff"), url('../fonts/b.woff2') format("woff2"); font-weight: bold; }
      @font-face { font-family: 'Bramble Sans'; src: url(data:font/woff2;base64,AAAA) format("woff2"), url(/fonts/b-300.woff2); font-weight: 300; font-style: italic; }
      @font-face { font-family: Inter; src: url(https://cdn.example.org/inter.woff2); font-weight: 100 900; }`;
    expect(fontFaces(css, "https://brand.test/css/type.css")).toEqual([
      {
        family: "Bramble Sans",
        weights: ["300", "700"],
        styles: ["normal", "italic"],
        files: ["https://brand.test/fonts/b.woff2", "https://brand.test/fonts/b-300.woff2", "https://brand.test/fonts/b.woff"],
      },
      { family: "Inter", weights: ["100 900"], styles: ["normal"], files: ["https://cdn.example.org/inter.woff2"] },
    ]);
  });

  it("@import targets, absolute", () => {
    const css = `@import url("/css/type.css"); @import 'print.css' print; @import url(https://fonts.googleapis.com/css2?family=Inter&display=swap);`;
    expect(importsOf(css, "https://brand.test/css/brand.css")).toEqual([
      "https://brand.test/css/type.css",
      "https://brand.test/css/print.css",
      "https://fonts.googleapis.com/css2?family=Inter&display=swap",
    ]);
  });
});

describe("brand-kit css: web-font links", () => {
  it("Google Fonts css2: families, weights (axes in any order), italics", () => {
    expect(
      webFontLink("https://fonts.googleapis.com/css2?family=Fraunces:ital,wght@0,600;1,700&family=Inter:wght@400;500&family=Lexend&display=swap")?.families,
    ).toEqual([
      { family: "Fraunces", weights: ["600", "700"], italic: true },
      { family: "Inter", weights: ["400", "500"], italic: false },
      { family: "Lexend", weights: ["400"], italic: false },
    ]);
    expect(webFontLink("https://fonts.googleapis.com/css2?family=Roboto+Flex:opsz,wght@8..144,100..1000")?.families).toEqual([
      { family: "Roboto Flex", weights: ["100..1000"], italic: false },
    ]);
  });

  it("Google Fonts css (v1) and Bunny Fonts", () => {
    expect(webFontLink("https://fonts.googleapis.com/css?family=Open+Sans:400,700italic|Roboto+Slab:300")).toEqual({
      provider: "google-fonts",
      url: "https://fonts.googleapis.com/css?family=Open+Sans:400,700italic|Roboto+Slab:300",
      families: [
        { family: "Open Sans", weights: ["400", "700"], italic: true },
        { family: "Roboto Slab", weights: ["300"], italic: false },
      ],
    });
    expect(webFontLink("https://fonts.bunny.net/css?family=open-sans:400,600|inter:700")?.families).toEqual([
      { family: "Open Sans", weights: ["400", "600"], italic: false },
      { family: "Inter", weights: ["700"], italic: false },
    ]);
  });

  it("Adobe Fonts kits; anything else is not a web-font link", () => {
    expect(webFontLink("https://use.typekit.net/kqw3brx.css")).toEqual({
      provider: "adobe-fonts",
      url: "https://use.typekit.net/kqw3brx.css",
      families: [],
      kitId: "kqw3brx",
    });
    expect(webFontLink("https://cdn.jsdelivr.net/npm/normalize.css")).toBeNull();
    expect(webFontLink("https://fonts.googleapis.com/icon?family=Material+Icons")).toBeNull();
    expect(webFontLink("not a url")).toBeNull();
  });
});
