/**
 * Business-name normalisation shared by every register (sponsors, AML, SRA, CQC, charities).
 * Registers keep raw names for display and diffing; these functions are only for comparing.
 */

/** Legal forms recognised at the END of a name, longest first, with the form they unify to. */
const LEGAL_FORMS: [string[], string][] = [
  [["public", "limited", "company"], "plc"],
  [["limited", "liability", "partnership"], "llp"],
  [["community", "interest", "company"], "cic"],
  [["cwmni", "buddiant", "cymunedol"], "cic"],
  [["limited"], "ltd"],
  [["ltd"], "ltd"],
  [["cyfyngedig"], "ltd"],
  [["cyf"], "ltd"],
  [["plc"], "plc"],
  [["ccc"], "plc"],
  [["llp"], "llp"],
  [["cic"], "cic"],
];

/** Words of no weight at all: never a reason, never a token. */
const STOP_WORDS: ReadonlySet<string> = new Set(["and", "of", "the", "a", "an", "for", "in", "at", "on", "to", "by"]);

/** Words too common in business names to identify one: they never make a match on their own. */
export const GENERIC_WORDS: ReadonlySet<string> = new Set([
  ...STOP_WORDS,
  "ltd",
  "limited",
  "plc",
  "llp",
  "cic",
  "inc",
  "pvt",
  "private",
  "corporation",
  "corp",
  "uk",
  "gb",
  "british",
  "britain",
  "united",
  "kingdom",
  "england",
  "scotland",
  "wales",
  "ireland",
  "northern",
  "london",
  "group",
  "holdings",
  "holding",
  "services",
  "service",
  "solutions",
  "company",
  "co",
  "international",
  "global",
  "trading",
  "enterprises",
  "enterprise",
  "management",
  "consulting",
  "consultancy",
  "consultants",
  "associates",
  "partners",
  "partnership",
  "solicitors",
  "law",
  "legal",
  "care",
  "healthcare",
  "health",
  "home",
  "homes",
  "education",
  "educational",
  "college",
  "school",
  "trust",
  "charity",
  "foundation",
  "association",
  "society",
  "centre",
  "center",
]);

/** Lower-case words of a name: accents stripped, `&`/`+` → and, apostrophes dropped, other punctuation a space. */
function words(raw: string): string[] {
  const s = raw
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\bu\.\s?k\b\.?/g, "uk")
    .replace(/[&+]/g, " and ")
    .replace(/['’‘`´ʼ]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  // "St." and "Saint" are written either way for the same school or church.
  const w = s ? s.split(" ").map((x) => (x === "saint" ? "st" : x)) : [];
  if (w.length > 1 && w[0] === "the") w.shift();
  return w;
}

/**
 * The last few thousand names split, by raw name: an ingest asks for the same name's forms several times per
 * record (its key, its full and core forms, its index names), and a lookup for every candidate's. Never mutated.
 */
const PARTS_CACHE = new Map<string, Readonly<{ core: readonly string[]; form: string | null }>>();
const PARTS_CACHE_SIZE = 4096;

/** Splits a name into its words (without the legal form) and the unified trailing legal form, if any. */
function parts(raw: string): Readonly<{ core: readonly string[]; form: string | null }> {
  let p = PARTS_CACHE.get(raw);
  if (!p) {
    p = splitParts(raw);
    if (PARTS_CACHE.size >= PARTS_CACHE_SIZE) PARTS_CACHE.clear();
    PARTS_CACHE.set(raw, p);
  }
  return p;
}

function splitParts(raw: string): { core: string[]; form: string | null } {
  const w = words(raw);
  for (const [tail, form] of LEGAL_FORMS) {
    const at = w.length - tail.length;
    if (at > 0 && tail.every((t, i) => w[at + i] === t)) return { core: w.slice(0, at), form };
  }
  return { core: w, form: null };
}

/** Normalised name for exact comparison: `The O'Brien & Sons Limited` → `obrien and sons ltd`. */
export function normaliseName(raw: string): string {
  const { core, form } = parts(raw);
  return form ? `${core.join(" ")} ${form}` : core.join(" ");
}

/** normaliseName without its one trailing legal form: `Acme Ltd`, `ACME LIMITED` and `Acme` → `acme`. */
export function normaliseNameCore(raw: string): string {
  return parts(raw).core.join(" ");
}

/**
 * Separators between a legal name and a trading name: T/A, t/as, T / A, t.a., trading as,
 * trading under, and the sponsors register's o/a (operating as). Never inside a word; "t.a."
 * only without a space, so initials such as "T. A. Smith" stay whole.
 */
export const TRADING = /(?<![\p{L}\p{N}])(?:t\s*\/\s*as?|o\s*\/\s*a|t\.a\.|trading\s+(?:as|under)|operating\s+as)(?![\p{L}\p{N}])/iu;
const TRADING_SPLIT = new RegExp(TRADING.source, "giu");
/** "(a trading name of X Ltd)": the bracket holds the legal name, the rest is the trading name. */
const TRADING_NAME_OF = /\(\s*a\s+trading\s+name\s+of\s+([^()]+)\)/i;

const tidy = (s: string) => s.replace(/^[\s,;:\-–]+|[\s,;:\-–]+$/g, "");

/** `Smith Ltd (t/a Smith's Cafe)` → `{ name: "Smith Ltd", tradingAs: ["Smith's Cafe"] }`; raw casing kept. */
export function splitTradingName(raw: string): { name: string; tradingAs: string[] } {
  let text = raw;
  const tradingAs: string[] = [];
  const of = TRADING_NAME_OF.exec(text);
  if (of) {
    const outer = tidy(text.replace(of[0], "").replace(/\s*\.\s*$/, ""));
    text = of[1];
    if (outer) tradingAs.push(outer);
  }
  // Brackets that contain a separator hold trading names: lift their parts out first.
  text = text.replace(/\(([^()]*)\)/g, (whole, inner: string) => {
    if (!TRADING.test(inner)) return whole;
    tradingAs.push(...inner.split(TRADING_SPLIT).map(tidy).filter(Boolean));
    return " ";
  });
  const [name, ...rest] = text.split(TRADING_SPLIT).map(tidy);
  tradingAs.unshift(...rest.filter(Boolean));
  return { name: name || tidy(raw), tradingAs };
}

/** Significant words of the name (no legal form, no generic words), once each, in order; digits kept. */
export function nameTokens(raw: string): string[] {
  return [...new Set(parts(raw).core.filter((w) => !GENERIC_WORDS.has(w)))];
}

/** All words of the name without its legal form and stop words, once each (for scoring and reasons). */
export function nameWords(raw: string): string[] {
  return [...new Set(parts(raw).core.filter((w) => !STOP_WORDS.has(w)))];
}
