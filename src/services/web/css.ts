/**
 * Reading a site's stylesheets for its brand (brand-kit): colours written in CSS (hex, rgb(), hsl(), and named
 * colours where a custom property holds one), custom properties, font-family stacks counted by use, @font-face rules,
 * @import targets, and web-font URLs (Google Fonts, Bunny Fonts, Adobe Fonts). Pure: text in, plain objects out.
 * A regular-expression reading, not a CSS engine: it reads what stylesheets commonly say and ignores the rest.
 */

/** The CSS Color 4 named colours (148, with both spellings of grey), as #rrggbb. */
const NAMED = Object.fromEntries(
  (
    "aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc bisque ffe4c4 black 000000 " +
    "blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00 " +
    "chocolate d2691e coral ff7f50 cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b " +
    "darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9 darkkhaki bdb76b " +
    "darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000 darksalmon e9967a " +
    "darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f darkslategrey 2f4f4f darkturquoise 00ced1 " +
    "darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff dimgray 696969 dimgrey 696969 dodgerblue 1e90ff " +
    "firebrick b22222 floralwhite fffaf0 forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc ghostwhite f8f8ff gold ffd700 " +
    "goldenrod daa520 gray 808080 green 008000 greenyellow adff2f grey 808080 honeydew f0fff0 hotpink ff69b4 " +
    "indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa lavenderblush fff0f5 lawngreen 7cfc00 " +
    "lemonchiffon fffacd lightblue add8e6 lightcoral f08080 lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 " +
    "lightgreen 90ee90 lightgrey d3d3d3 lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa " +
    "lightslategray 778899 lightslategrey 778899 lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 " +
    "linen faf0e6 magenta ff00ff maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 " +
    "mediumpurple 9370db mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc " +
    "mediumvioletred c71585 midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 navajowhite ffdead " +
    "navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500 orangered ff4500 orchid da70d6 " +
    "palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 " +
    "peru cd853f pink ffc0cb plum dda0dd powderblue b0e0e6 purple 800080 rebeccapurple 663399 red ff0000 " +
    "rosybrown bc8f8f royalblue 4169e1 saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 " +
    "seashell fff5ee sienna a0522d silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 " +
    "snow fffafa springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347 " +
    "turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00 yellowgreen 9acd32"
  )
    .match(/[a-z]+ [0-9a-f]{6}/g)!
    .map((pair) => {
      const [name, hex] = pair.split(" ");
      return [name, `#${hex}`];
    }),
) as Record<string, string>;

/** The named colours (tests read the count). */
export const NAMED_COLOURS: Readonly<Record<string, string>> = NAMED;

const hex2 = (n: number) =>
  Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, "0");

/** A number, or a percentage of `full` ("50%" → full / 2); "none" is 0; null when unreadable. */
function channel(raw: string, full: number): number | null {
  const s = raw.trim().toLowerCase();
  if (s === "none") return 0;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(%?)$/.exec(s);
  if (!m) return null;
  const n = Number(m[1]);
  return m[2] ? (n / 100) * full : n;
}

/** An angle in degrees: deg (default), rad, grad, turn. */
function hue(raw: string): number | null {
  const s = raw.trim().toLowerCase();
  if (s === "none") return 0;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(deg|rad|grad|turn)?$/.exec(s);
  if (!m) return null;
  const n = Number(m[1]);
  const deg = m[2] === "rad" ? (n * 180) / Math.PI : m[2] === "grad" ? n * 0.9 : m[2] === "turn" ? n * 360 : n;
  return ((deg % 360) + 360) % 360;
}

/** The arguments of rgb()/hsl(): commas or spaces, with an optional "/ alpha". */
function argsOf(inner: string): { parts: string[]; alpha: string | null } | null {
  const [main, alphaPart, extra] = inner.split("/");
  if (extra !== undefined) return null;
  const parts = main.includes(",") ? main.split(",").map((p) => p.trim()) : main.trim().split(/\s+/);
  let alpha = alphaPart?.trim() ?? null;
  if (main.includes(",") && parts.length === 4 && alpha === null) alpha = parts.pop()!;
  return parts.length === 3 && parts.every(Boolean) ? { parts, alpha } : null;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const a = s * Math.min(l, 1 - l);
    return 255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return [f(0), f(8), f(4)];
}

export interface ParsedColour {
  /** #rrggbb, lower case (alpha dropped). */
  hex: string;
  /** 0–1. */
  alpha: number;
}

/**
 * A CSS colour value as #rrggbb: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba(), hsl()/hsla() (comma or space syntax,
 * percentages, angle units), and, with `named`, the CSS named colours. `!important` is ignored. A fully transparent
 * colour, `transparent`, `currentColor`, keywords and anything else → null.
 */
export function parseColour(value: string, opts: { named?: boolean } = {}): ParsedColour | null {
  const v = value
    .replace(/!\s*important\s*$/i, "")
    .trim()
    .toLowerCase();
  const hexMatch = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v);
  if (hexMatch) {
    let h = hexMatch[1];
    if (h.length <= 4) h = [...h].map((c) => c + c).join("");
    const alpha = h.length === 8 ? parseInt(h.slice(6), 16) / 255 : 1;
    return alpha === 0 ? null : { hex: `#${h.slice(0, 6)}`, alpha };
  }
  const fn = /^(rgba?|hsla?)\(\s*([^()]*)\)$/.exec(v);
  if (fn) {
    const a = argsOf(fn[2]);
    if (!a) return null;
    const alpha = a.alpha === null ? 1 : channel(a.alpha, 1);
    if (alpha === null || alpha <= 0) return null;
    let rgb: [number, number, number];
    if (fn[1].startsWith("rgb")) {
      const c = a.parts.map((p) => channel(p, 255));
      if (c.some((x) => x === null)) return null;
      rgb = c as [number, number, number];
    } else {
      const h = hue(a.parts[0]);
      const s = channel(a.parts[1].replace(/%$/, "") + "%", 1);
      const l = channel(a.parts[2].replace(/%$/, "") + "%", 1);
      if (h === null || s === null || l === null) return null;
      rgb = hslToRgb(h, Math.min(1, Math.max(0, s)), Math.min(1, Math.max(0, l)));
    }
    return { hex: `#${rgb.map(hex2).join("")}`, alpha: Math.min(1, alpha) };
  }
  if (opts.named && NAMED[v]) return { hex: NAMED[v], alpha: 1 };
  return null;
}

/** The stylesheet without comments. */
export const stripComments = (css: string): string => css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, " ");

export interface CustomProperty {
  /** `--brand-primary`. */
  name: string;
  /** The value as written, trimmed (`!important` removed). */
  value: string;
}

/**
 * The declarations of a stylesheet or a block body (`prop: value`), in order: split on `;`, `{` and `}` outside
 * quotes and brackets (a data: URL's `;` does not end a value). Selectors and at-rule preludes are skipped.
 */
export function declarations(css: string): { prop: string; value: string }[] {
  const s = stripComments(css);
  const out: { prop: string; value: string }[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = s[i];
    if (i < s.length) {
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote || c === "\n") quote = "";
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === "(") depth++;
      else if (c === ")") depth = Math.max(0, depth - 1);
      if (depth > 0 || (c !== ";" && c !== "{" && c !== "}")) continue;
    }
    const segment = s.slice(start, i);
    start = i + 1;
    depth = 0;
    if (c === "{") continue; // a selector or an at-rule's prelude
    const m = /^\s*(-?-?[a-z_][a-z0-9_-]*)\s*:([\s\S]*)$/i.exec(segment);
    if (!m) continue;
    const value = m[2].replace(/!\s*important\s*$/i, "").trim();
    if (value) out.push({ prop: m[1].startsWith("--") ? m[1] : m[1].toLowerCase(), value });
  }
  return out;
}

/** Every custom property declaration, in the order written (a property declared twice appears twice). */
export function customProperties(css: string): CustomProperty[] {
  return declarations(css).flatMap((d) => (d.prop.startsWith("--") ? [{ name: d.prop, value: d.value }] : []));
}

/** The first declared value of each custom property (a later one is usually a dark theme or a media query's). */
export function propertyMap(props: CustomProperty[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const p of props) if (!map.has(p.name)) map.set(p.name, p.value);
  return map;
}

/** `var(--x)` / `var(--x, fallback)` replaced by the property's value, a few levels deep; unresolved → null. */
export function resolveVars(value: string, vars: Map<string, string>, depth = 0): string | null {
  if (!/var\(/i.test(value)) return value;
  if (depth > 5) return null;
  let failed = false;
  // Innermost var() first, so a fallback holding another var() is read too.
  const once = value.replace(/var\(\s*(--[a-z0-9_-]+)\s*(?:,\s*([^()]*(?:\([^()]*\)[^()]*)*))?\)/gi, (_all, name: string, fallback?: string) => {
    const v = vars.get(name) ?? fallback?.trim();
    if (v === undefined || v === "") {
      failed = true;
      return "";
    }
    return v;
  });
  if (failed || once === value) return null;
  return resolveVars(once, vars, depth + 1);
}

export interface ColourProperty {
  name: string;
  hex: string;
  /** What the property's name says the colour is for. */
  role: ColourRole;
}

export type ColourRole = "brand" | "primary" | "secondary" | "accent" | "background" | "text" | "link" | "border" | "status" | "other";

/** The role a custom property's name gives its colour, most telling first. */
export function roleOf(name: string): ColourRole {
  const n = name.toLowerCase();
  if (/primary/.test(n)) return "primary";
  if (/secondary/.test(n)) return "secondary";
  if (/accent|highlight|tertiary/.test(n)) return "accent";
  if (/success|danger|error|warning|info|alert/.test(n)) return "status";
  if (/brand|main|theme/.test(n)) return "brand";
  if (/(?:^|-)(?:bg|background|surface|canvas|backdrop)(?:-|$)/.test(n)) return "background";
  if (/link/.test(n)) return "link";
  if (/(?:^|-)(?:text|fg|foreground|body-colou?r|heading|ink|copy)(?:-|$)/.test(n)) return "text";
  if (/border|outline|divider|rule|stroke/.test(n)) return "border";
  return "other";
}

/** The custom properties whose value (after var() references) is a colour, named colours included. */
export function colourProperties(props: CustomProperty[]): ColourProperty[] {
  const vars = propertyMap(props);
  const seen = new Set<string>();
  const out: ColourProperty[] = [];
  for (const p of props) {
    const resolved = resolveVars(p.value, vars);
    const c = resolved === null ? null : parseColour(resolved, { named: true });
    if (!c) continue;
    const key = `${p.name} ${c.hex}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: p.name, hex: c.hex, role: roleOf(p.name) });
  }
  return out;
}

/** Generic families and system-font keywords: a stack's fallbacks, never a brand font. */
const GENERIC = new Set([
  "serif",
  "sans-serif",
  "monospace",
  "cursive",
  "fantasy",
  "system-ui",
  "ui-sans-serif",
  "ui-serif",
  "ui-monospace",
  "ui-rounded",
  "math",
  "emoji",
  "fangsong",
  "-apple-system",
  "blinkmacsystemfont",
]);
export const isGenericFamily = (family: string): boolean => GENERIC.has(family.toLowerCase());

/** A stack's first family that is not generic or a system keyword ("-apple-system, Inter, sans-serif" → "Inter"), else its first. */
export const primaryFamily = (families: string[]): string => families.find((f) => !isGenericFamily(f)) ?? families[0] ?? "";

/** Icon fonts are pictures, not typography. */
export const isIconFont = (family: string): boolean =>
  /\b(?:icons?|icofont|awesome|glyphicons|dashicons|fontello|icomoon|feather|remixicon|ionicons)\b|-icons?\b/i.test(family);

const CSS_WIDE = /^(?:inherit|initial|unset|revert|revert-layer|none)$/i;

/** Splits a font-family value into families, unquoted, whitespace collapsed; null when it is not a list of families. */
export function familiesOf(value: string): string[] | null {
  const v = value.replace(/!\s*important\s*$/i, "").trim();
  if (!v || CSS_WIDE.test(v) || /[(){}]/.test(v)) return null;
  const fams = (v.match(/"[^"]*"|'[^']*'|[^,]+/g) ?? [])
    .map((f) =>
      f
        .trim()
        .replace(/^["']|["']$/g, "")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((f) => f && f !== ",");
  return fams.length ? fams : null;
}

/** The font-family part of a `font` shorthand (`700 1rem/1.4 "Inter", sans-serif` → `"Inter", sans-serif`). */
function shorthandFamily(value: string): string | null {
  const m =
    /(?:^|\s)(?:[\d.]+(?:px|r?em|%|pt|pc|vw|vh|vmin|vmax|ex|ch|q|mm|cm|in)|xx-small|x-small|small|medium|large|x-large|xx-large|xxx-large|smaller|larger)(?:\s*\/\s*[\w.%-]+)?\s+(.+)$/i.exec(
      value.replace(/!\s*important\s*$/i, "").trim(),
    );
  return m ? m[1] : null;
}

/**
 * The @font-face blocks, and the stylesheet without them: one forward scan (a block never closed ends the search, as
 * no later one can close either; a pattern would scan to the end again from each).
 */
function splitFontFaces(css: string): { faces: string[]; rest: string } {
  const faces: string[] = [];
  const parts: string[] = [];
  const open = /@font-face\s*\{/gi;
  let from = 0;
  for (let m = open.exec(css); m; m = open.exec(css)) {
    const end = css.indexOf("}", m.index + m[0].length);
    if (end < 0) break;
    faces.push(css.slice(m.index + m[0].length, end));
    parts.push(css.slice(from, m.index), " ");
    from = end + 1;
    open.lastIndex = from;
  }
  parts.push(css.slice(from));
  return { faces, rest: parts.join("") };
}

/** A declaration's value within a block body (`font-weight` in an @font-face). */
const declaration = (body: string, prop: string) => declarations(body).find((d) => d.prop === prop)?.value;

export interface FontStackUse {
  /** The stack as families joined by ", " (quotes removed). */
  stack: string;
  /** Its first family that is not generic or a system keyword. */
  primary: string;
  families: string[];
  /** Declarations using it (font-family and the `font` shorthand). */
  uses: number;
}

/**
 * The font-family stacks of the CSS, most used first (ties: first written first). `var()` is resolved through `vars`;
 * @font-face blocks are not uses; icon fonts and CSS-wide keywords are left out.
 */
export function fontStacks(css: string, vars: Map<string, string> = new Map()): FontStackUse[] {
  const { rest } = splitFontFaces(stripComments(css));
  const found = new Map<string, FontStackUse & { first: number }>();
  let order = 0;
  for (const d of declarations(rest)) {
    if (d.prop !== "font-family" && d.prop !== "font") continue;
    const raw = resolveVars(d.value, vars);
    if (raw === null) continue;
    const value = d.prop === "font" ? shorthandFamily(raw) : raw;
    const families = value ? familiesOf(value) : null;
    if (!families || isIconFont(families[0])) continue;
    const stack = families.join(", ");
    const key = stack.toLowerCase();
    const had = found.get(key);
    if (had) had.uses++;
    else found.set(key, { stack, primary: primaryFamily(families), families, uses: 1, first: order++ });
  }
  return [...found.values()].sort((a, b) => b.uses - a.uses || a.first - b.first).map(({ first: _f, ...s }) => s);
}

export interface FontFace {
  family: string;
  /** font-weight values as written ("400", "700", "100 900"), in numeric order. */
  weights: string[];
  /** font-style values ("normal", "italic"). */
  styles: string[];
  /** Absolute URLs of the font files (woff2 first), data: URIs left out. */
  files: string[];
}

const FILE_RANK: Record<string, number> = { woff2: 0, woff: 1, ttf: 2, otf: 3, eot: 4, svg: 5 };
const fileRank = (url: string) => FILE_RANK[/\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase() ?? ""] ?? 6;
const weightKey = (w: string) => Number(/\d+/.exec(w)?.[0] ?? (/bold/i.test(w) ? 700 : 400));

/** An absolute http(s) URL, or null. */
export function absoluteUrl(raw: string, base: string): string | null {
  try {
    const u = new URL(raw.trim(), base);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/** The @font-face rules, one entry per family (in first-written order), with their weights, styles and files. */
export function fontFaces(css: string, baseUrl: string): FontFace[] {
  const byFamily = new Map<string, FontFace>();
  for (const body of splitFontFaces(stripComments(css)).faces) {
    const family = familiesOf(declaration(body, "font-family") ?? "")?.[0];
    if (!family || isIconFont(family)) continue;
    const face = byFamily.get(family.toLowerCase()) ?? { family, weights: [], styles: [], files: [] };
    byFamily.set(family.toLowerCase(), face);
    const weight = (declaration(body, "font-weight") ?? "400")
      .replace(/\s+/g, " ")
      .replace(/^normal$/i, "400")
      .replace(/^bold$/i, "700");
    const style = (declaration(body, "font-style") ?? "normal").toLowerCase().split(/\s+/)[0];
    if (!face.weights.includes(weight)) face.weights.push(weight);
    if (!face.styles.includes(style)) face.styles.push(style);
    for (const u of urlsIn(declaration(body, "src") ?? "")) {
      const abs = absoluteUrl(u, baseUrl);
      if (abs && !face.files.includes(abs)) face.files.push(abs);
    }
  }
  return [...byFamily.values()].map((f) => ({
    ...f,
    weights: [...f.weights].sort((a, b) => weightKey(a) - weightKey(b) || a.localeCompare(b)),
    files: [...f.files].sort((a, b) => fileRank(a) - fileRank(b)).slice(0, 8),
  }));
}

/** The url(…) targets in a value, data: URIs left out. */
function urlsIn(value: string): string[] {
  return [...value.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)/gi)].map((m) => m[1] ?? m[2] ?? m[3] ?? "").filter((u) => u && !/^data:/i.test(u));
}

/** The stylesheets an @import pulls in, absolute, in order. */
export function importsOf(css: string, baseUrl: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const s = stripComments(css);
  // Each @import is read up to its `;` (the rule cannot cross one), found once: without one, no later rule ends either.
  const start = /@import\s/gi;
  const rule = /^@import\s+(?:url\(\s*)?["']?([^"')\s;]+)["']?\s*\)?[^;]*;$/i;
  for (let m = start.exec(s); m; m = start.exec(s)) {
    const semi = s.indexOf(";", m.index);
    if (semi < 0) break;
    const r = rule.exec(s.slice(m.index, semi + 1));
    if (!r) continue;
    start.lastIndex = semi + 1;
    const abs = absoluteUrl(r[1], baseUrl);
    if (abs && !seen.has(abs)) seen.add(abs), out.push(abs);
  }
  return out;
}

export interface WebFontFamily {
  family: string;
  /** Weights asked for ("400", "700", or a range "100..900"); Google's default is 400. */
  weights: string[];
  italic: boolean;
}

export interface WebFontLink {
  provider: "google-fonts" | "bunny-fonts" | "adobe-fonts";
  url: string;
  /** The families the URL asks for (Google and Bunny); Adobe's kits name none in their URL. */
  families: WebFontFamily[];
  /** Adobe Fonts kit id. */
  kitId?: string;
}

const sortWeights = (ws: Iterable<string>) => [...new Set(ws)].sort((a, b) => weightKey(a) - weightKey(b) || a.localeCompare(b));

/** css2 syntax: `Inter:wght@400;700`, `Roboto Mono:ital,wght@0,400;1,700`, `Lexend`. */
function css2Family(spec: string): WebFontFamily | null {
  const [name, axesSpec] = spec.split(":");
  const family = name.replace(/\s+/g, " ").trim();
  if (!family) return null;
  if (!axesSpec) return { family, weights: ["400"], italic: false };
  const [axesPart, tuplesPart = ""] = axesSpec.split("@");
  const axes = axesPart.split(",").map((a) => a.trim().toLowerCase());
  const tuples = tuplesPart
    .split(";")
    .filter(Boolean)
    .map((t) => t.split(","));
  const wi = axes.indexOf("wght");
  const ii = axes.indexOf("ital");
  const weights = wi < 0 ? ["400"] : sortWeights(tuples.map((t) => t[wi]?.trim()).filter((w): w is string => !!w));
  const italic = ii >= 0 && tuples.some((t) => t[ii]?.trim() === "1");
  return { family, weights: weights.length ? weights : ["400"], italic };
}

/** css (v1) syntax: `Open Sans:400,700italic`, `Lato:300i,b`, `Roboto`. */
function css1Family(spec: string, bunny: boolean): WebFontFamily | null {
  const [name, variants] = spec.split(":");
  // Bunny writes ids ("open-sans"); Google writes names ("Open Sans").
  const family = (bunny ? name.replace(/-/g, " ") : name)
    .replace(/\s+/g, " ")
    .trim()
    .replace(/(^|\s)([a-z])/g, (_m, sp: string, c: string) => sp + c.toUpperCase());
  if (!family) return null;
  const vs = (variants ?? "")
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  const weights = vs.map((v) => (/^(?:bold|b|bolditalic|bi)$/.test(v) ? "700" : /^(?:regular|italic|i|r)$/.test(v) ? "400" : (/^\d{3}/.exec(v)?.[0] ?? "400")));
  return { family, weights: weights.length ? sortWeights(weights) : ["400"], italic: vs.some((v) => /i(?:talic)?$/.test(v) && !/^\d+$/.test(v)) };
}

/** A web-font URL read into its provider and families: Google Fonts (css and css2), Bunny Fonts, Adobe Fonts; else null. */
export function webFontLink(url: string): WebFontLink | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const host = u.hostname.toLowerCase();
  if (host === "fonts.googleapis.com" || host === "fonts.bunny.net") {
    const provider = host === "fonts.bunny.net" ? "bunny-fonts" : "google-fonts";
    const css2 = /\/css2\b/.test(u.pathname);
    if (!/\/css2?\b/.test(u.pathname)) return null;
    const specs = u.searchParams.getAll("family").flatMap((f) => (css2 ? [f] : f.split("|")));
    const families = specs.map((s) => (css2 ? css2Family(s) : css1Family(s, provider === "bunny-fonts"))).filter((f): f is WebFontFamily => !!f);
    return { provider, url: u.href, families };
  }
  if (host === "use.typekit.net" || host === "p.typekit.net") {
    const kitId = /^\/([a-z0-9]+)\.(?:css|js)$/i.exec(u.pathname)?.[1];
    return { provider: "adobe-fonts", url: u.href, families: [], ...(kitId ? { kitId } : {}) };
  }
  return null;
}
