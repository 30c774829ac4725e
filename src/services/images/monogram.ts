/**
 * The fallback logo (issue 32, `fallback=monogram`): a square with the organisation's initials on a colour chosen
 * from its name, the same for one name every time and spread across names. Pure: the SVG is text this service
 * writes (no caller's text but the initials, which are letters and digits only).
 *
 * Every colour of the palette carries white text at a contrast of at least 4.5:1 (WCAG 2.2 AA for normal text),
 * greyscale included; test/services/images/monogram.test.ts checks each.
 */
import { normaliseNameCore } from "../matching/names";

/** Words that name a company's legal form or are filler, not its name: left out of the initials. */
const NOT_NAME = new Set([
  "the",
  "and",
  "of",
  "limited",
  "ltd",
  "llp",
  "lp",
  "plc",
  "public",
  "company",
  "co",
  "cic",
  "cio",
  "uk",
  "inc",
  "llc",
  "gmbh",
  "sa",
  "bv",
]);

/** "Acme Widgets Ltd" → "AW"; "The Co-operative Group Limited" → "CG"; "tesco.com" → "T"; "3M United Kingdom PLC" → "3U". */
export function initialsOf(nameOrDomain: string): string {
  const text = nameOrDomain.trim();
  // A domain (no space, a dot): its first label after www.
  const source = /^[^\s]+\.[a-z]{2,}$/i.test(text) ? text.replace(/^www\./i, "").split(".")[0] : text;
  const words = source
    .normalize("NFKC")
    .split(/[\s–—_/&+.,()'’"]+/u)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ""))
    .filter((w) => w && !NOT_NAME.has(w.toLowerCase()));
  const letters = words.slice(0, 2).map((w) => [...w][0].toLocaleUpperCase("en-GB"));
  return letters.join("") || "?";
}

/**
 * The palette: twelve hues, each dark enough for white text at 4.5:1 or more. Named for the test's messages; the
 * order is fixed (a name's colour is an index into it), so a colour is only ever added at the end.
 */
export const MONOGRAM_PALETTE: readonly { name: string; hex: string }[] = [
  { name: "blue", hex: "#1d4ed8" },
  { name: "teal", hex: "#0f766e" },
  { name: "green", hex: "#15803d" },
  { name: "olive", hex: "#4d7c0f" },
  { name: "amber", hex: "#a16207" },
  { name: "orange", hex: "#c2410c" },
  { name: "red", hex: "#b91c1c" },
  { name: "rose", hex: "#be123c" },
  { name: "pink", hex: "#a21caf" },
  { name: "purple", hex: "#7e22ce" },
  { name: "indigo", hex: "#4338ca" },
  { name: "slate", hex: "#334155" },
];

/** The grey every greyscale monogram has (white text at 7.5:1). */
export const MONOGRAM_GREY = "#4b5563";

/** FNV-1a, 32 bits: a stable spread of names over the palette (not a secret). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The key a name's colour is chosen by: the name as matching normalises it, so case, spacing and legal form do not change it ("ACME LTD" = "Acme Limited"). */
const colourKey = (nameOrDomain: string) => normaliseNameCore(nameOrDomain);

export function monogramColour(nameOrDomain: string, opts: { greyscale?: boolean } = {}): string {
  if (opts.greyscale) return MONOGRAM_GREY;
  return MONOGRAM_PALETTE[fnv1a(colourKey(nameOrDomain)) % MONOGRAM_PALETTE.length].hex;
}

export interface MonogramOptions {
  /** Pixels a side. */
  size: number;
  greyscale?: boolean;
}

/** The monogram as an SVG document: a square of the name's colour, its initials in white, centred. */
export function monogramSvg(nameOrDomain: string, opts: MonogramOptions): string {
  const initials = initialsOf(nameOrDomain);
  const fill = monogramColour(nameOrDomain, opts);
  // One letter fills more of the square than two.
  const fontSize = initials.length > 1 ? 40 : 50;
  const size = Math.round(opts.size);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100" role="img" aria-label="${initials}">`,
    `<rect width="100" height="100" fill="${fill}"/>`,
    `<text x="50" y="50" dy="0.35em" text-anchor="middle" fill="#ffffff" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" font-weight="600" font-size="${fontSize}">${initials}</text>`,
    "</svg>",
  ].join("");
}
