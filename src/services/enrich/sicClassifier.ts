/**
 * The deterministic SIC 2007 text classifier of `industry-classifier` (issue 18, enrichment): what a website says it
 * does, matched against the ONS alphabetical index (15,954 activity phrases, with CH's own row), the condensed list's
 * descriptions and a small supplement of our own (SUPPLEMENT: everyday words the 2007 index lacks, such as "pub" or
 * "gym"; evidence from it is marked). Pure and deterministic: the same text and model give the same answer, ties
 * broken by code.
 *
 * How it works:
 * - Words are folded (case, accents), function words and the lists' filler dropped (and, from the text only, the
 *   words every website uses: menus, footers, sales talk), and stemmed (Porter 1980 plus a step joining agent and
 *   activity nouns: plumber/plumbing, dentist/dental, electrician/electrical).
 * - Each phrase is a rule: its words outside parentheses are its core, weighted by how rare each word is across codes
 *   (idf over codes: "haulage", used by one code, weighs far more than "building"); words in parentheses are a bonus,
 *   never required; "(manufacture)", "(retail)", "(wholesale)", "(commission agent)" and the descriptions' "Manufacture
 *   of", "Retail sale of", "Wholesale of" set the phrase's mode instead.
 * - A phrase fires when 60% of its core weight, and two of its words when it has two or more, stand within a few words
 *   of one line of the text (so "Home" in the menu and "nursing" in a paragraph do not make a nursing home). Its score
 *   grows with the words' rarity, how often the text repeats them (the title line counting a little more, a line
 *   naming a regulator or registration much less), and whether two stand side by side in order ("web design").
 * - The text's mode cues (shop, visit us / factory, we make, handmade / wholesale, trade enquiries / broker) weigh the
 *   phrases' modes: a bakery shop is retail (47240), a bakery baking for the trade from its production site is
 *   manufacture (10710). Install, repair and servicing cues lower the modes the text has no cue of.
 * - A code scores its best phrase, half of what its other phrases add, and half of its words' own evidence (its rare
 *   words met anywhere in the text); candidates are ranked by score, then code. Confidence comes from the top score
 *   and its margin over the best candidate outside its group.
 * - Empty text, text without activity words, a holding page ("coming soon", a parked domain) or text that does not
 *   read as English gives no candidates and says why.
 */
import type { Confidence } from "./types";
import { type SicCodeRow, type SicIndexRow, type SicLevel, plainLabel, sharedLevel, sicHierarchy, tidyDescription } from "./sic";

// ---- words ----------------------------------------------------------------------------------------------------

const setOf = (words: string) => new Set(words.trim().split(/\s+/));

/** Function words, dropped from phrases and text alike. */
const FUNCTION = setOf(`
  a an and or the of for in on at to by with without from as its it their than which whose be is are was were been being has have had do does
  done we our ours us you your yours i my me he she they them his her this that these those there here what who whom how when where why all any
  each more most very so if but also into onto over under up down out off only just can could will would should may might must shall per via
  not no nor such`);
/** The lists' own filler ("n.e.c.", "other", "activities"), dropped from phrases and text alike. */
const FILLER = setOf("etc nec elsewhere classified except excluding including includes include main mainly activity activities related similar other others");
/**
 * Words every business website uses (menus, footers, sales talk), dropped from the text only: a phrase holding one
 * ("Reading room", "Free port") then needs its other words to fire, and "Read more" or "Join us" never fires it.
 */
const WEB = setOf(`
  about contact page pages click read menu cookie cookies privacy policy terms conditions copyright rights reserved website websites site
  ltd limited plc llp lp co company companies registered number vat england wales scotland uk united kingdom britain british email mail
  phone tel telephone call calls today now get touch free quote quotes years year experience experienced team welcome new best quality
  professional friendly local help need needs offer offers provide provides providing provided range wide high customer customers client
  clients established since based area areas across around near within throughout monday tuesday wednesday thursday friday saturday sunday
  mon tue wed thu fri sat sun am pm open opening hours info enquiry enquiries book booking online follow facebook instagram twitter
  linkedin youtube tiktok find like make makes one two three first work working works well way ways time times great every
  week weeks month months always ever reliable trusted affordable competitive prices price value join visit news blog latest view
  see more us here please`);

/** Porter (1980) stemmer, the published algorithm. */
function porter(w: string): string {
  if (w.length <= 2) return w;
  const isCons = (s: string, i: number): boolean => {
    const c = s[i];
    if ("aeiou".includes(c)) return false;
    if (c === "y") return i === 0 ? true : !isCons(s, i - 1);
    return true;
  };
  /** The measure m of a stem: the number of VC sequences. */
  const m = (s: string): number => {
    let n = 0;
    let i = 0;
    while (i < s.length && isCons(s, i)) i++;
    while (i < s.length) {
      while (i < s.length && !isCons(s, i)) i++;
      if (i >= s.length) break;
      while (i < s.length && isCons(s, i)) i++;
      n++;
    }
    return n;
  };
  const hasVowel = (s: string) => [...s].some((_, i) => !isCons(s, i));
  const doubleCons = (s: string) => s.length >= 2 && s[s.length - 1] === s[s.length - 2] && isCons(s, s.length - 1);
  const cvc = (s: string) => {
    const n = s.length;
    return n >= 3 && isCons(s, n - 3) && !isCons(s, n - 2) && isCons(s, n - 1) && !"wxy".includes(s[n - 1]);
  };
  /** Replaces suffix `from` by `to` when the stem before it satisfies `cond`; returns null when `w` does not end in `from`. */
  const rule = (s: string, from: string, to: string, cond: (stem: string) => boolean): string | null => {
    if (!s.endsWith(from)) return null;
    const stem = s.slice(0, s.length - from.length);
    return cond(stem) ? stem + to : s;
  };
  // Step 1a
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (w.endsWith("ss")) {
    // "ss" stays (Porter step 1a)
  } else if (w.endsWith("s")) w = w.slice(0, -1);
  // Step 1b
  let again = false;
  if (w.endsWith("eed")) {
    if (m(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else if (w.endsWith("ed") && hasVowel(w.slice(0, -2))) {
    w = w.slice(0, -2);
    again = true;
  } else if (w.endsWith("ing") && hasVowel(w.slice(0, -3))) {
    w = w.slice(0, -3);
    again = true;
  }
  if (again) {
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
    else if (doubleCons(w) && !"lsz".includes(w[w.length - 1])) w = w.slice(0, -1);
    else if (m(w) === 1 && cvc(w)) w += "e";
  }
  // Step 1c
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = w.slice(0, -1) + "i";
  // Step 2
  const step2: [string, string][] = [
    ["ational", "ate"],
    ["tional", "tion"],
    ["enci", "ence"],
    ["anci", "ance"],
    ["izer", "ize"],
    ["bli", "ble"],
    ["alli", "al"],
    ["entli", "ent"],
    ["eli", "e"],
    ["ousli", "ous"],
    ["ization", "ize"],
    ["ation", "ate"],
    ["ator", "ate"],
    ["alism", "al"],
    ["iveness", "ive"],
    ["fulness", "ful"],
    ["ousness", "ous"],
    ["aliti", "al"],
    ["iviti", "ive"],
    ["biliti", "ble"],
    ["logi", "log"],
  ];
  for (const [from, to] of step2) {
    const r = rule(w, from, to, (s) => m(s) > 0);
    if (r !== null) {
      w = r;
      break;
    }
  }
  // Step 3
  const step3: [string, string][] = [
    ["icate", "ic"],
    ["ative", ""],
    ["alize", "al"],
    ["iciti", "ic"],
    ["ical", "ic"],
    ["ful", ""],
    ["ness", ""],
  ];
  for (const [from, to] of step3) {
    const r = rule(w, from, to, (s) => m(s) > 0);
    if (r !== null) {
      w = r;
      break;
    }
  }
  // Step 4
  const step4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];
  for (const from of step4) {
    if (!w.endsWith(from)) continue;
    const stem = w.slice(0, w.length - from.length);
    if (from === "ion") {
      if (m(stem) > 1 && (stem.endsWith("s") || stem.endsWith("t"))) w = stem;
    } else if (m(stem) > 1) w = stem;
    break;
  }
  // Step 5a, 5b
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    if (m(stem) > 1 || (m(stem) === 1 && !cvc(stem))) w = stem;
  }
  if (m(w) > 1 && doubleCons(w) && w.endsWith("l")) w = w.slice(0, -1);
  return w;
}

/** Agent and adjective endings Porter leaves: plumber→plumb (plumbing), dentist/dental→dent, electrician→electr (electrical). */
const AGENT = ["istri", "ian", "ist", "er", "al", "ic", "ur"];

const STEMS = new Map<string, string>();

/** The stem of a folded word: Porter, then agent endings off while at least 4 letters stay (memoised: a pure function). */
export function stem(word: string): string {
  let s = STEMS.get(word);
  if (s !== undefined) return s;
  s = porter(word);
  for (let i = 0; i < 2; i++) {
    const end = AGENT.find((e) => s!.endsWith(e) && s!.length - e.length >= 4);
    if (!end) break;
    s = s.slice(0, s.length - end.length);
  }
  if (STEMS.size < 200_000) STEMS.set(word, s);
  return s;
}

/** Lower case, accents off, apostrophes joined ("children's" → "children"). */
const fold = (s: string) =>
  (/[^\x00-\x7f]/.test(s) ? s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "") : s)
    .toLowerCase()
    .replace(/['’‘]s\b/g, "")
    .replace(/['’‘]/g, "");

interface Word {
  /** As folded, before stemming. */
  word: string;
  stem: string;
}

/** The content words of a phrase or (`web`) of a website's text, in order: numbers, single letters and dropped words left out. */
function words(text: string, web = false): Word[] {
  const out: Word[] = [];
  for (const w of fold(text).split(/[^a-z0-9]+/)) {
    if (w.length < 2 || /^\d/.test(w) || FUNCTION.has(w) || FILLER.has(w) || (web && WEB.has(w))) continue;
    out.push({ word: w, stem: stem(w) });
  }
  return out;
}

// ---- model ----------------------------------------------------------------------------------------------------

/** How an activity is carried on, when the phrase says so. */
export type Mode = "manufacture" | "retail" | "wholesale" | "agent";
const MODES: Mode[] = ["manufacture", "retail", "wholesale", "agent"];

const MODE_OF_QUALIFIER: Record<string, Mode> = {
  manufacture: "manufacture",
  manufacturing: "manufacture",
  retail: "retail",
  wholesale: "wholesale",
  "commission agent": "agent",
};

/** Parenthesised words that say nothing about the activity ("(charitable)", "(own account)", "(public sector)"). */
const EMPTY_QUALIFIER =
  /^(non-?charitable|charitable|own account|public sector|private sector|private|independent|managed|tenanted|fee or contract basis|on a fee or contract basis)$/;

/** A phrase's flags. */
const IS_DESCRIPTION = 1;
const IS_SUPPLEMENT = 2;

/**
 * The classifier's model, in flat typed arrays (about 2 MB for the real lists): phrase i's core terms are
 * `coreTerms[coreOff[i] .. coreOff[i+1])`, term t's phrases `postPhrases[postOff[t] .. postOff[t+1])`, and so on.
 */
export interface SicModel {
  /** The codes that can be answered (the condensed list's, less 74990, 99999 and 98000), sorted; a code's number is its index here. */
  codes: string[];
  /** Code → its condensed-list description (every code of the list). */
  descriptions: ReadonlyMap<string, string>;
  /** Stem → term id. */
  terms: Map<string, number>;
  /** Term id → idf over codes: ln(1 + codes / codes whose phrases use the term). */
  idf: Float64Array;
  /** Per phrase: its code number, the text as published, Σ idf of its core terms, its mode (index in MODES + 1, 0 for none), its flags. */
  phraseCode: Int32Array;
  phraseText: string[];
  phraseWeight: Float64Array;
  phraseMode: Uint8Array;
  phraseFlags: Uint8Array;
  /** Per phrase: its core terms (the words outside parentheses, distinct, in order) and bonus terms (the words in parentheses). */
  coreOff: Int32Array;
  coreTerms: Int32Array;
  extraOff: Int32Array;
  extraTerms: Int32Array;
  /** Per term: the phrases whose core holds it. */
  postOff: Int32Array;
  postPhrases: Int32Array;
  /** Per term: the codes whose phrases hold it, with the share of the code's phrases that do. */
  tcOff: Int32Array;
  tcCode: Int32Array;
  tcShare: Float32Array;
  /** Per code: the mode of its description ("Manufacture of …"), as phraseMode. */
  codeMode: Uint8Array;
  stats: { codes: number; phrases: number; terms: number; indexRows: number; supplementRows: number; unlistedCodes: string[] };
}

/**
 * Our own additions to the index, in its format: everyday words a UK business uses of itself for activities the 2007
 * index names only in older terms (it has "Public houses" and "Taverns" but not "pub", "Health clubs" but not "gym",
 * "Home help service" but not "domiciliary care"). Each row is a phrase the index lacks (none repeats the words of an index
 * phrase of the same code; where the index has the same words for another code, it is another sense: "Courier (travel)",
 * "Taxi (manufacture)"); evidence from one is marked
 * `supplement`. Built in by default; `buildSicModel(…, { supplement: false })` leaves it out.
 */
export const SUPPLEMENT: readonly SicIndexRow[] = [
  ["56302", "Pub"],
  ["56302", "Gastropub"],
  ["56302", "Freehouse"],
  ["56301", "Nightclub"],
  ["56102", "Café (unlicensed)"],
  ["56102", "Coffee shop (unlicensed)"],
  ["56102", "Tea room"],
  ["56103", "Takeaway"],
  ["56103", "Food truck"],
  ["93130", "Gym"],
  ["93130", "Fitness centre"],
  ["93130", "Personal training"],
  ["93130", "Yoga studio"],
  ["93130", "Pilates studio"],
  ["88100", "Domiciliary care"],
  ["88100", "Home care agency"],
  ["88100", "Care at home"],
  ["88100", "Live-in care"],
  ["88100", "Supported living"],
  ["87300", "Care home"],
  ["87300", "Residential care home"],
  ["88910", "Childminder"],
  ["88910", "Pre-school"],
  ["78109", "Recruitment agency"],
  ["78109", "Recruitment consultancy"],
  ["78109", "Headhunting"],
  ["78200", "Temporary staffing agency"],
  ["73110", "Digital marketing agency"],
  ["73110", "Social media marketing"],
  ["73110", "Search engine optimisation"],
  ["70210", "PR agency"],
  ["62012", "Web design"],
  ["62012", "Web development"],
  ["62012", "App development"],
  ["62090", "IT support"],
  ["62020", "IT consultancy"],
  ["62020", "Cyber security consultancy"],
  ["63110", "Cloud hosting"],
  ["68310", "Letting agent"],
  ["66190", "Mortgage adviser"],
  ["66190", "Financial adviser"],
  ["69202", "Bookkeeping services"],
  ["69203", "Tax adviser"],
  ["82110", "Virtual assistant"],
  ["96020", "Hair salon"],
  ["96020", "Nail bar"],
  ["96020", "Barbershop"],
  ["96090", "Tattoo studio"],
  ["96090", "Dog grooming"],
  ["96090", "Dog walking"],
  ["86900", "Physiotherapy"],
  ["86900", "Chiropractor"],
  ["86900", "Counselling"],
  ["86900", "Podiatry"],
  ["86210", "GP surgery"],
  ["45200", "MOT and servicing"],
  ["45200", "Car servicing"],
  ["45200", "Garage repairs"],
  ["45320", "Car parts (retail)"],
  ["43999", "Handyman"],
  ["43341", "Painter and decorator"],
  ["43320", "Kitchen fitter"],
  ["43320", "Bathroom fitter"],
  ["43290", "Solar panel installation"],
  ["43210", "EV charger installation"],
  ["39000", "Asbestos removal"],
  ["38110", "Waste removal"],
  ["49410", "Man and van"],
  ["53202", "Courier"],
  ["53202", "Same day courier"],
  ["49320", "Taxi"],
  ["49320", "Minicab"],
  ["49390", "Coach hire"],
  ["55201", "Holiday cottage"],
  ["55201", "Holiday let"],
  ["55300", "Glamping"],
  ["85590", "Tutoring"],
  ["85590", "Tuition centre"],
  ["85510", "Swimming lessons"],
  ["93290", "Escape room"],
  ["93290", "Soft play"],
  ["68209", "Coworking space"],
  ["74201", "Wedding photographer"],
  ["82301", "Event planner"],
  ["82301", "Wedding planner"],
  ["47910", "Online shop (retail)"],
  ["47910", "Ecommerce (retail)"],
  ["47260", "Vape shop (retail)"],
  ["45111", "Car dealership (retail)"],
  ["45112", "Used cars (retail)"],
  ["45112", "Used car dealer (retail)"],
  ["47640", "Bike shop (retail)"],
  ["47640", "Bikes and e-bikes (retail)"],
].map(([code, phrase]) => ({ code, phrase }));

/** The parenthesised qualifiers of a phrase split off: "Bakery (selling main activity) (retail)" → core "Bakery", mode retail, extra "selling main activity". */
function splitPhrase(phrase: string): { core: string; extra: string[]; mode: Mode | null } {
  const extra: string[] = [];
  let mode: Mode | null = null;
  const core = phrase.replace(/\(([^()]*)\)/g, (_, inner: string) => {
    const q = inner.trim().toLowerCase();
    if (MODE_OF_QUALIFIER[q]) mode = MODE_OF_QUALIFIER[q];
    else if (!EMPTY_QUALIFIER.test(q)) extra.push(inner);
    return " ";
  });
  return { core, extra, mode };
}

const OPENING = new RegExp(
  `^\\s*(${[
    "manufacture of",
    "retail sale of",
    "retail sale via",
    "retail sale in",
    "retail trade",
    "wholesale of",
    "wholesale trade of",
    "wholesale on a fee or contract basis",
    "sale of",
    "agents involved in the sale of",
    "agents specialised in the sale of",
    "agents",
  ].join("|")})\\b`,
  "i",
);
/** A phrase's mode from its opening words ("Manufacture of …", "Retail sale of …", "Wholesale of …", "Sale of …", "Agents …"). */
function openingMode(d: string): { core: string; mode: Mode | null } {
  const m = OPENING.exec(d);
  if (!m) return { core: d, mode: null };
  const k = m[1].toLowerCase();
  const mode: Mode = k.startsWith("manufacture")
    ? "manufacture"
    : k.startsWith("retail") || k.startsWith("sale")
      ? "retail"
      : k.startsWith("wholesale")
        ? "wholesale"
        : "agent";
  return { core: d.slice(m[0].length), mode };
}

/** Words that say the activity's mode; never part of a phrase's core (a mode is weighed on its own, from the text's cues). */
const MODE_WORDS = new Set(["manufacture", "manufacturing", "retail", "wholesale", "sale", "sales", "selling"].map(stem));

export interface BuildOptions {
  /** Add SUPPLEMENT to the index (default true). */
  supplement?: boolean;
}

/** Codes a website is never classified as: they say the company does nothing (74990, 99999) or is a residents' company (98000). */
const NO_MATCH_CODES = new Set(["74990", "99999", "98000"]);

/** Growable int list → Int32Array offsets + values (CSR). */
function csr(lists: number[][]): { off: Int32Array; values: Int32Array } {
  const off = new Int32Array(lists.length + 1);
  lists.forEach((l, i) => (off[i + 1] = off[i] + l.length));
  const values = new Int32Array(off[lists.length]);
  lists.forEach((l, i) => values.set(l, off[i]));
  return { off, values };
}

/**
 * The model, from the condensed list and the index rows (the ONS index and CH's own row). Index codes that are not
 * in the condensed list (the index's 43990, a class CH splits into 43991/43999) go to the class's "other" code
 * (43999) when the list has one, else are left out. Deterministic: the same rows give the same model.
 */
export function buildSicModel(list: readonly SicCodeRow[], index: readonly SicIndexRow[], { supplement = true }: BuildOptions = {}): SicModel {
  const descriptions = new Map(list.map((c) => [c.code, c.description]));
  const codes = [...descriptions.keys()].filter((c) => !NO_MATCH_CODES.has(c)).sort();
  const codeIdx = new Map(codes.map((c, i) => [c, i]));
  const otherOfClass = new Map<string, number>();
  codes.forEach((c, i) => c.endsWith("9") && otherOfClass.set(c.slice(0, 4), i));
  const unlisted = new Set<string>();
  const listed = (code: string): number | undefined => {
    if (descriptions.has(code)) return codeIdx.get(code);
    unlisted.add(code);
    return otherOfClass.get(code.slice(0, 4));
  };

  const terms = new Map<string, number>();
  const idOf = (s: string) => {
    let id = terms.get(s);
    if (id === undefined) terms.set(s, (id = terms.size));
    return id;
  };
  const termIds = (text: string, into: number[] = []) => {
    for (const w of words(text)) {
      if (MODE_WORDS.has(w.stem)) continue;
      const id = idOf(w.stem);
      if (!into.includes(id)) into.push(id);
    }
    return into;
  };

  const pCode: number[] = [];
  const pText: string[] = [];
  const pMode: number[] = [];
  const pFlags: number[] = [];
  const pCore: number[][] = [];
  const pExtra: number[][] = [];
  const seen = new Set<string>();
  const add = (code: number | undefined, text: string, flags: number) => {
    if (code === undefined) return;
    const key = `${code}|${text.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    const split = splitPhrase(text);
    const opening = openingMode(split.core);
    const core = termIds(opening.core);
    if (!core.length) return;
    const extra: number[] = [];
    for (const e of split.extra) for (const t of termIds(e)) if (!core.includes(t) && !extra.includes(t)) extra.push(t);
    const mode = split.mode ?? opening.mode;
    pCode.push(code);
    pText.push(text);
    pMode.push(mode ? MODES.indexOf(mode) + 1 : 0);
    pFlags.push(flags);
    pCore.push(core);
    pExtra.push(extra);
  };
  for (const c of list) add(codeIdx.get(c.code), c.description, IS_DESCRIPTION);
  for (const r of index) add(listed(r.code), r.phrase, 0);
  // Our own rows only for codes the list has (a sample list may lack them).
  if (supplement) for (const r of SUPPLEMENT) add(codeIdx.get(r.code), r.phrase, IS_SUPPLEMENT);
  const n = pCode.length;
  const nTerms = terms.size;

  // Per code: how many phrases, and how many of them use each term.
  const phrasesOfCode = new Int32Array(codes.length);
  const codeTerms: Map<number, number>[] = codes.map(() => new Map());
  for (let i = 0; i < n; i++) {
    phrasesOfCode[pCode[i]]++;
    for (const t of pCore[i]) codeTerms[pCode[i]].set(t, (codeTerms[pCode[i]].get(t) ?? 0) + 1);
  }
  const tcLists: number[][] = Array.from({ length: nTerms }, () => []);
  codeTerms.forEach((m, code) => m.forEach((_, t) => tcLists[t].push(code)));
  const tc = csr(tcLists);
  const tcShare = new Float32Array(tc.values.length);
  for (let t = 0; t < nTerms; t++) for (let k = tc.off[t]; k < tc.off[t + 1]; k++) tcShare[k] = codeTerms[tc.values[k]].get(t)! / phrasesOfCode[tc.values[k]];

  // idf over codes: a word used by one code's phrases is strong evidence for it, one used by a hundred codes is not.
  let used = 0;
  for (const c of phrasesOfCode) if (c) used++;
  const idf = new Float64Array(nTerms);
  for (let t = 0; t < nTerms; t++) idf[t] = Math.log(1 + Math.max(1, used) / Math.max(1, tc.off[t + 1] - tc.off[t]));

  const core = csr(pCore);
  const extra = csr(pExtra);
  const postLists: number[][] = Array.from({ length: nTerms }, () => []);
  pCore.forEach((ts, i) => ts.forEach((t) => postLists[t].push(i)));
  const post = csr(postLists);
  const phraseWeight = new Float64Array(n);
  for (let i = 0; i < n; i++) for (const t of pCore[i]) phraseWeight[i] += idf[t];
  const codeMode = new Uint8Array(codes.length);
  for (let i = 0; i < n; i++) if (pFlags[i] & IS_DESCRIPTION) codeMode[pCode[i]] = pMode[i];
  return {
    codes,
    descriptions,
    terms,
    idf,
    phraseCode: Int32Array.from(pCode),
    phraseText: pText,
    phraseWeight,
    phraseMode: Uint8Array.from(pMode),
    phraseFlags: Uint8Array.from(pFlags),
    coreOff: core.off,
    coreTerms: core.values,
    extraOff: extra.off,
    extraTerms: extra.values,
    postOff: post.off,
    postPhrases: post.values,
    tcOff: tc.off,
    tcCode: tc.values,
    tcShare,
    codeMode,
    stats: {
      codes: codes.length,
      phrases: n,
      terms: nTerms,
      indexRows: index.length,
      supplementRows: supplement ? SUPPLEMENT.length : 0,
      unlistedCodes: [...unlisted].sort(),
    },
  };
}

// ---- classifying ----------------------------------------------------------------------------------------------

export interface SicCandidate {
  code: string;
  /** The condensed list's description, tidied. */
  description: string;
  /** Plain English ("Software development"). */
  label: string;
  score: number;
  /** The evidence: the phrases that matched (best first; `supplement` when it is one of ours, not the ONS index's), each with the text's words that matched it. */
  matched: { phrase: string; words: string[]; supplement?: true }[];
  /** The text's words, rarest first, that this code's phrases use (evidence even where no whole phrase matched). */
  words: string[];
}

export interface SicClassification {
  /** Best first; empty when the text gives too little (see `reason`). */
  candidates: SicCandidate[];
  confidence: Confidence;
  /** Why there are no candidates, or why confidence is not high; null when confident. */
  reason: string | null;
  /** How the text read: its content words, and the cues of each mode found (shop, factory, wholesale, broker). */
  reading: { words: number; modes: Partial<Record<Mode, number>> };
}

/** Phrases' words must fall within this many content words of one line. */
const WINDOW = 8;
/** A phrase fires when at least this share of its core weight is found (and two of its words, when it has two or more). */
const MIN_COVERAGE = 0.6;
/** The words' own evidence (a code's vocabulary met in the text) counts this much beside its phrases. */
const TERM_WEIGHT = 0.5;
/** Words used by this many codes or more (idf under 2: about a tenth of the codes) say little on their own. */
const MIN_TERM_IDF = 2;
/** The first line of a page (its title) says what the business is: its words count a little more (more did worse on the fixtures). */
const TITLE_WEIGHT = 1.2;
/** A line stating a registration, regulator or membership counts this much (see REGULATORY). */
const REGULATORY_WEIGHT = 0.3;
/** Confidence: high from this score with the nearest rival (outside the group) at most HIGH_RATIO of it; medium from MEDIUM_SCORE and MEDIUM_RATIO. */
const HIGH_SCORE = 15;
const HIGH_RATIO = 0.6;
const MEDIUM_SCORE = 8;
const MEDIUM_RATIO = 0.85;

/** A regular expression matching any of these alternatives as whole words. */
const anyOf = (alternatives: string[], flags = "") => new RegExp(`\\b(${alternatives.join("|")})\\b`, flags);

/** Text cues of each mode, on the folded text. */
const MODE_CUES: Record<Mode, RegExp> = {
  retail: anyOf(
    [
      "shops?",
      "stores?",
      "retail\\w*",
      "showrooms?",
      "boutiques?",
      "basket",
      "checkout",
      "high street",
      "visit (us|our shop|the shop|our store)",
      "pop (in|into)",
      "in[ -]store",
      "shop online",
      "buy online",
      "order online",
      "click and collect",
    ],
    "g",
  ),
  manufacture: anyOf(
    [
      "manufactur\\w*",
      "factory",
      "factories",
      "production (site|line|lines|facility|facilities|unit|plant)",
      "own[ -]label",
      "contract (packing|manufacturing)",
      "fabricat\\w*",
      "assembly line",
      "we (design and )?(make|manufacture|produce|fabricate)",
      "hand[ -]?made",
      "made by hand",
      "hand[ -](built|crafted)",
      "handcrafted",
      "our (own )?(workshop|works|factory|mill|foundry)",
    ],
    "g",
  ),
  wholesale: anyOf(
    [
      "wholesal\\w*",
      "trade (customers|enquiries|accounts|counter|only|prices)",
      "distributors?",
      "stockists?",
      "cash and carry",
      "importers?",
      "exporters?",
      "supply the trade",
    ],
    "g",
  ),
  agent: anyOf(["commission agents?", "brokers?", "brokerage", "on behalf of (our )?(principals|suppliers|manufacturers)"], "g"),
};
/** Cues that the business installs, repairs or services things rather than making or selling them. */
const SERVICE_CUES = anyOf(["install\\w*", "repair\\w*", "servicing", "fitting", "fitters?", "maintenance", "maintain\\w*"]);
/** How much a phrase of a mode counts when the text has no cue of that mode (less when it has service cues); with cues it rises towards 1 by the mode's share of them. */
const MODE_WITHOUT_CUE: Record<Mode, number> = { manufacture: 0.35, retail: 0.5, wholesale: 0.3, agent: 0.15 };

/** Lines that state a registration, regulator or membership: they name other bodies' activities ("regulated by the Solicitors Regulation Authority", "member of the Institute of …"). */
const REGULATORY = anyOf(
  [
    "registered",
    "regulated",
    "authori[sz]ed",
    "accredited",
    "approved",
    "certified",
    "members? of",
    "membership of",
    "company (no|number|registration)",
    "rated",
    "licensed by",
    "registration",
  ],
  "i",
);

export interface ClassifyOptions {
  /** How many candidates to return (default 5). */
  limit?: number;
}

/** Words that say the site is a holding page, not a business describing itself. */
const HOLDING = anyOf(
  [
    "coming soon",
    "under construction",
    "launching soon",
    "site is being (built|updated)",
    "new website (is )?on its way",
    "domain (name )?(is )?(for sale|parked)",
    "this domain (may be|is) for sale",
    "parked (free|domain)",
    "default (web )?page",
    "website (is )?coming",
    "be back soon",
    "under maintenance",
  ],
  "i",
);
/**
 * English function words: a text of 25 words or more with fewer than MIN_ENGLISH_SHARE of them is not in English (the
 * fixture sites have 15% or more, German and Welsh pages about 5%).
 */
const MIN_ENGLISH_SHARE = 0.08;
const ENGLISH = setOf("the and of to in for with our we is are you your a on at by from as that this it be or");

interface Occurrence {
  line: number;
  pos: number;
  /** The line's weight: the title TITLE_WEIGHT, a registration or regulator line REGULATORY_WEIGHT, else 1. */
  weight: number;
}

interface Fired {
  phrase: number;
  score: number;
  /** Core terms found in the window, then bonus terms found anywhere. */
  matched: number[];
}

/**
 * The SIC 2007 codes a text (a website's headings, offerings and visible text) reads as, best first, with the
 * evidence. `model` is null when no SIC list is loaded: then there are no candidates and the reason says so.
 */
export function classifyText(text: string, model: SicModel | null, { limit = 5 }: ClassifyOptions = {}): SicClassification {
  const empty = (reason: string, n = 0): SicClassification => ({ candidates: [], confidence: "low", reason, reading: { words: n, modes: {} } });
  if (!model) return empty("no SIC 2007 list is loaded: the text could not be classified");
  const clean = String(text ?? "").replace(/\u00a0/g, " ");
  if (!clean.trim()) return empty("the text is empty");
  // Lines: the text's own lines, its sentences, and menu items ("Home | About | Services").
  const rawLines = clean.split(/\r?\n|(?<=[.!?;:|•·])\s+|\s[|•·–—-]\s/).filter((l) => l.trim());
  const lines = rawLines.map((l, i) => ({ words: words(l, true), weight: REGULATORY.test(l) ? REGULATORY_WEIGHT : i === 0 ? TITLE_WEIGHT : 1 }));
  const nWords = lines.reduce((n, l) => n + l.words.length, 0);
  if (!nWords) return empty("the text has no words that describe an activity", nWords);
  const folded = fold(clean);
  const all = folded.split(/[^a-z]+/).filter(Boolean);
  if (all.length >= 25 && all.filter((w) => ENGLISH.has(w)).length / all.length < MIN_ENGLISH_SHARE)
    return empty("the text does not read as English: it was not classified", nWords);
  if (HOLDING.test(clean) && nWords < 60)
    return empty("the page is a holding page (coming soon, under construction or parked): it says nothing of the business", nWords);

  // Where each known term occurs (line, position, line weight), and its weighted count.
  const occurrences = new Map<number, Occurrence[]>();
  const surface = new Map<number, string>();
  lines.forEach((l, li) =>
    l.words.forEach((w, pos) => {
      const t = model.terms.get(w.stem);
      if (t === undefined) return;
      const list = occurrences.get(t);
      if (list) list.push({ line: li, pos, weight: l.weight });
      else occurrences.set(t, [{ line: li, pos, weight: l.weight }]);
      if (!surface.has(t)) surface.set(t, w.word);
    }),
  );
  const tfw = new Map<number, number>();
  for (const [t, os] of occurrences) tfw.set(t, Math.max(0.3, 1 + Math.log(os.reduce((s, o) => s + o.weight, 0))));

  // Mode cues: how many distinct cue words of each mode the text uses.
  const modes: Partial<Record<Mode, number>> = {};
  for (const mode of MODES) {
    const found = new Set([...folded.matchAll(MODE_CUES[mode])].map((m) => m[0]));
    if (found.size) modes[mode] = found.size;
  }
  const cueTotal = Object.values(modes).reduce((a, b) => a + b, 0);
  const serviceCue = SERVICE_CUES.test(folded);
  const modeFactor = (m: number): number => {
    if (!m) return 1;
    const mode = MODES[m - 1];
    const base = MODE_WITHOUT_CUE[mode] * (serviceCue && !modes[mode] ? 0.6 : 1);
    return base + ((1 - base) * (modes[mode] ?? 0)) / Math.max(1, cueTotal);
  };

  // Phrases: every phrase sharing a term with the text, fired when enough of it stands together in one line.
  const candidates = new Set<number>();
  for (const t of occurrences.keys()) for (let k = model.postOff[t]; k < model.postOff[t + 1]; k++) candidates.add(model.postPhrases[k]);
  const byCode = new Map<number, Fired[]>();
  for (const p of [...candidates].sort((a, b) => a - b)) {
    const core = model.coreTerms.subarray(model.coreOff[p], model.coreOff[p + 1]);
    // Cheap bound first: the weight of the phrase's terms found anywhere in the text.
    let present = 0;
    let found = 0;
    for (const t of core) if (occurrences.has(t)) (present += model.idf[t]), found++;
    if (present / model.phraseWeight[p] < MIN_COVERAGE || found < Math.min(2, core.length)) continue;
    const best = bestWindow(core, occurrences, model.idf);
    // A phrase of several words needs two of them at least: "Construction of workshops" is not read from "workshop".
    if (!best || best.weight / model.phraseWeight[p] < MIN_COVERAGE || best.terms.length < Math.min(2, core.length)) continue;
    const coverage = best.weight / model.phraseWeight[p];
    let score = 0;
    for (const t of best.terms) score += model.idf[t] * tfw.get(t)!;
    score *= coverage * coverage * best.lineWeight;
    if (best.adjacent) score *= 1.25;
    const extra = [...model.extraTerms.subarray(model.extraOff[p], model.extraOff[p + 1])].filter((t) => occurrences.has(t));
    for (const t of extra) score += 0.25 * model.idf[t];
    score *= modeFactor(model.phraseMode[p]);
    if (model.phraseFlags[p] & IS_DESCRIPTION) score *= 1.1;
    const code = model.phraseCode[p];
    const list = byCode.get(code);
    const fired = { phrase: p, score, matched: [...best.terms, ...extra] };
    if (list) list.push(fired);
    else byCode.set(code, [fired]);
  }

  // The words' own evidence: each rare text term a code's phrases use, by its rarity, how often the text says it, and
  // the share of the code's phrases that use it.
  const termScore = new Map<number, number>();
  const termWords = new Map<number, number[]>();
  for (const t of [...occurrences.keys()].sort((a, b) => model.idf[b] - model.idf[a] || a - b)) {
    if (model.idf[t] < MIN_TERM_IDF) continue;
    for (let k = model.tcOff[t]; k < model.tcOff[t + 1]; k++) {
      const code = model.tcCode[k];
      termScore.set(code, (termScore.get(code) ?? 0) + model.idf[t] * tfw.get(t)! * Math.sqrt(model.tcShare[k]));
      const ws = termWords.get(code);
      if (ws) ws.push(t);
      else termWords.set(code, [t]);
    }
  }

  const weightOf = (ts: number[]) => ts.reduce((s, t) => s + model.idf[t], 0);
  const scored: { code: number; score: number; fired: Fired[] }[] = [];
  for (const code of new Set([...byCode.keys(), ...termScore.keys()])) {
    const fired = byCode.get(code) ?? [];
    fired.sort((a, b) => b.score - a.score || a.phrase - b.phrase);
    // The best phrase, plus half of what the other phrases' new words add (each word counted once per code).
    let score = fired[0]?.score ?? 0;
    const seen = new Set(fired[0]?.matched ?? []);
    for (const f of fired.slice(1)) {
      const fresh = f.matched.filter((t) => !seen.has(t));
      if (!fresh.length) continue;
      score += (0.5 * f.score * weightOf(fresh)) / weightOf(f.matched);
      fresh.forEach((t) => seen.add(t));
    }
    score += TERM_WEIGHT * (termScore.get(code) ?? 0) * modeFactor(model.codeMode[code]);
    scored.push({ code, score, fired });
  }
  scored.sort((a, b) => b.score - a.score || a.code - b.code);
  if (!scored.length) return empty("no activity in the SIC 2007 index matched the text", nWords);

  // The margin is taken over the best candidate outside the top one's group: two subclasses of one class competing
  // (licensed / unlicensed restaurant) do not make the industry uncertain.
  const top = scored[0];
  const topGroup = model.codes[top.code].slice(0, 3);
  const rival = scored.find((s) => model.codes[s.code].slice(0, 3) !== topGroup);
  const ratio = rival ? rival.score / top.score : 0;
  const confidence: Confidence =
    top.score >= HIGH_SCORE && ratio <= HIGH_RATIO ? "high" : top.score >= MEDIUM_SCORE && ratio <= MEDIUM_RATIO ? "medium" : "low";
  const rivalCode = rival ? model.codes[rival.code] : "";
  const reason =
    confidence === "high"
      ? null
      : top.score < MEDIUM_SCORE
        ? "little of the text matches an activity: the evidence is thin"
        : rival && ratio > HIGH_RATIO
          ? `the text also reads as ${rivalCode} (${plainLabel(rivalCode, model.descriptions.get(rivalCode) ?? "")}), close behind`
          : "few words of the text match the activity: the evidence is moderate";

  const said = (ts: Iterable<number>) => [...ts].map((t) => surface.get(t) ?? "").filter(Boolean);
  return {
    candidates: scored.slice(0, limit).map((s) => {
      const code = model.codes[s.code];
      const d = model.descriptions.get(code) ?? "";
      return {
        code,
        description: tidyDescription(d),
        label: plainLabel(code, d),
        score: Math.round(s.score * 100) / 100,
        matched: s.fired.slice(0, 4).map((f) => ({
          phrase: tidyDescription(model.phraseText[f.phrase]),
          words: said(f.matched),
          ...(model.phraseFlags[f.phrase] & IS_SUPPLEMENT ? { supplement: true as const } : {}),
        })),
        words: said((termWords.get(s.code) ?? []).slice(0, 8)),
      };
    }),
    confidence,
    reason,
    reading: { words: nWords, modes },
  };
}

/**
 * The best window of one line holding the phrase's core terms: their weight, the terms (in the phrase's order), the
 * line's weight, and whether two of them stand side by side in the phrase's order ("web design", "care home").
 */
function bestWindow(
  core: Int32Array,
  occurrences: Map<number, Occurrence[]>,
  idf: Float64Array,
): { weight: number; terms: number[]; adjacent: boolean; lineWeight: number } | null {
  const hits: (Occurrence & { term: number; order: number })[] = [];
  core.forEach((t, order) => {
    for (const o of occurrences.get(t) ?? []) hits.push({ ...o, term: t, order });
  });
  if (!hits.length) return null;
  if (core.length === 1) return { weight: idf[core[0]], terms: [core[0]], adjacent: false, lineWeight: Math.max(...hits.map((h) => h.weight)) };
  hits.sort((a, b) => a.line - b.line || a.pos - b.pos || a.order - b.order);
  let best: { weight: number; terms: number[]; adjacent: boolean; lineWeight: number } | null = null;
  let start = 0;
  const count = new Map<number, number>();
  for (let end = 0; end < hits.length; end++) {
    count.set(hits[end].term, (count.get(hits[end].term) ?? 0) + 1);
    while (hits[start].line !== hits[end].line || hits[end].pos - hits[start].pos >= WINDOW) {
      const c = count.get(hits[start].term)! - 1;
      if (c) count.set(hits[start].term, c);
      else count.delete(hits[start].term);
      start++;
    }
    let weight = 0;
    for (const t of count.keys()) weight += idf[t];
    const lineWeight = hits[end].weight;
    if (!best || weight * lineWeight > best.weight * best.lineWeight) {
      let adjacent = false;
      for (let i = start; i < end && !adjacent; i++) adjacent = hits[i + 1].pos === hits[i].pos + 1 && hits[i + 1].order === hits[i].order + 1;
      const order = [...core];
      best = { weight, terms: [...count.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b)), adjacent, lineWeight };
    }
  }
  return best;
}

// ---- checking registered codes ---------------------------------------------------------------------------------

export interface RegisteredCodeCheck {
  code: string;
  /** The deepest level at which one of the text's top candidates agrees with the code ("none" when none does). */
  agreement: SicLevel;
  /** The candidate that agrees best (its rank, 1-based), or null. */
  candidate: { code: string; rank: number } | null;
  /** In words: "The website reads as 62012 (Software development), the registered code itself." */
  words: string;
}

const LEVEL_WORDS: Record<SicLevel, string> = {
  code: "the registered code itself",
  class: "the same class",
  group: "the same group",
  division: "the same division",
  section: "the same section only",
  none: "",
};

/**
 * Whether the text agrees with each registered code: the deepest level (code, class, group, division, section) at
 * which one of the top `within` candidates shares the code's hierarchy, in words. Codes that say the company does
 * nothing (74990, 99999) and 98000 are said as such; an empty ranking says the text could not be checked.
 */
export function checkRegisteredCodes(
  registered: readonly string[],
  ranked: readonly Pick<SicCandidate, "code" | "label">[],
  within = 5,
): RegisteredCodeCheck[] {
  const top = ranked.slice(0, within);
  const order: SicLevel[] = ["code", "class", "group", "division", "section"];
  return [...new Set(registered.map((c) => c.trim()).filter(Boolean))].map((code) => {
    const h = sicHierarchy(code);
    if (!h) return { code, agreement: "none", candidate: null, words: `${code} is not a SIC 2007 code: it could not be checked against the text` };
    if (h.note) return { code, agreement: "none", candidate: null, words: `${h.note}; the text was not checked against it` };
    if (!top.length) return { code, agreement: "none", candidate: null, words: `The text gave no activity to check ${code} against` };
    let best: { level: SicLevel; rank: number } | null = null;
    top.forEach((c, i) => {
      const level = sharedLevel(code, c.code);
      if (level !== "none" && (!best || order.indexOf(level) < order.indexOf(best.level))) best = { level, rank: i + 1 };
    });
    const b = best as { level: SicLevel; rank: number } | null;
    if (!b) {
      return {
        code,
        agreement: "none",
        candidate: null,
        words: `The text does not read as ${code} (${h.section.name.toLowerCase()}): it reads as ${top[0].code} (${top[0].label})`,
      };
    }
    const c = top[b.rank - 1];
    const where = b.rank === 1 ? "reads first as" : `reads as (choice ${b.rank})`;
    return {
      code,
      agreement: b.level,
      candidate: { code: c.code, rank: b.rank },
      words: `The text ${where} ${c.code} (${c.label}), ${b.level === "code" ? LEVEL_WORDS.code : `${LEVEL_WORDS[b.level]} as ${code}`}`,
    };
  });
}
