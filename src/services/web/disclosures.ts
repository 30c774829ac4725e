/**
 * What a UK business website states about the company behind it, read from the page's visible text: company
 * numbers, the place of registration, the registered office, VAT numbers, email addresses, charity numbers and
 * PO boxes. Pure: no fetching, no register look-ups (callers compare with Companies House themselves).
 *
 * Built for real footers and "legal" pages: labels are matched loosely ("Company No.", "Co. Reg. No:",
 * "Registered in England & Wales No 1234567", "Registered number 09876543"), numbers belonging to other schemes
 * (VAT, charity, ICO, FCA, phone numbers) are left out, and every finding carries a short quote of the text
 * around it so a reader can see what was read. Quotes are cut before words that introduce a person
 * ("Director: …"), so a name in a footer is not echoed.
 */
import { normaliseCompanyNumber } from "../matching/companyNumber";
import { looksLikePerson } from "../matching/people";

export interface StatedNumber {
  number: string;
  quote: string;
}

/** Longest quote returned, in characters. */
export const QUOTE_MAX = 200;

// ---------------------------------------------------------------------------------------------------------------
// Quotes
// ---------------------------------------------------------------------------------------------------------------

/** Words after which a footer usually gives a person's name: the quote stops before them. */
const PERSON_LEAD =
  /\b(?:(?:managing\s+|company\s+|non[- ]executive\s+)?directors?|proprietors?|owners?|founders?|co-founders?|partners?\s*:|principal|sole\s+trader|ceo|cfo|coo|chair(?:man|woman|person)?|secretary|contact\s+name|designated\s+member|members?\s*:)(?![a-z])/i;

const collapse = (s: string) => s.replace(/[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]+/g, " ");

/**
 * A short quote of `text` around [start, end): at most `max` characters, kept to the line the match is on,
 * widened to sentence boundaries where there is room, and cut before any word that introduces a person.
 */
export function quoteAround(text: string, start: number, end: number, max = QUOTE_MAX): string {
  // The line (block) the match is on, within a window: a page of text with no line breaks is not scanned whole.
  const WINDOW = 4 * max;
  // Searched for within the window only (a text with no line breaks would be scanned whole, once per quote).
  let lineStart = Math.max(0, start - WINDOW);
  for (let i = Math.max(0, start - 1); i >= lineStart; i--)
    if (text.charCodeAt(i) === 10) {
      lineStart = i + 1;
      break;
    }
  let lineEnd = Math.min(text.length, end + WINDOW);
  for (let i = end; i < lineEnd; i++)
    if (text.charCodeAt(i) === 10) {
      lineEnd = i;
      break;
    }
  // Within it, the sentence holding the match: from after the last sentence break before it, to the first after it.
  const before = text.slice(lineStart, start);
  const breaks = [...before.matchAll(/[.!?;|•·]\s+(?=[A-Z©\d(]|$)/g)];
  let from = breaks.length ? lineStart + breaks.at(-1)!.index! + breaks.at(-1)![0].length : lineStart;
  // The sentence ends at a full stop (kept) or a separator such as "|" or "·" (dropped).
  const stop = /[.!?](?=\s+[A-Z©(]|\s*$)|\s*[;|•·]/.exec(text.slice(end, lineEnd));
  let to = stop ? end + stop.index + (/^[.!?]/.test(stop[0]) ? 1 : 0) : lineEnd;
  let clean = !!stop;
  // A person's name after the match is never quoted: stop before the word that introduces it.
  const lead = PERSON_LEAD.exec(text.slice(end, to));
  if (lead) {
    to = end + lead.index;
    clean = false;
  }
  // One before the match: start after the separator that ends the name, or at the match itself.
  const leadBefore = [...text.slice(from, start).matchAll(new RegExp(PERSON_LEAD.source, "gi"))].at(-1);
  if (leadBefore) {
    const after = from + leadBefore.index! + leadBefore[0].length;
    const sep = /[.,;|•·]\s/.exec(text.slice(after, start));
    from = sep ? after + sep.index + sep[0].length : start;
  }
  // Centre on the match within `max`.
  if (to - from > max) {
    const room = Math.max(0, max - (end - start));
    const left = Math.min(start - from, Math.floor(room / 2));
    const right = Math.min(to - end, room - left);
    from = Math.max(from, start - (room - right));
    to = end + right;
    clean = false;
  }
  let q = collapse(text.slice(from, to)).trim();
  // Mark a cut made inside a sentence, dropping the part-word it left.
  if (from > lineStart && !/[.!?;|•·:]\s*$/.test(text.slice(lineStart, from))) q = `…${/\w/.test(text[from - 1]) ? q.replace(/^\S*\s*/, "") : q}`;
  if (to < lineEnd && !clean && !/[.!?]$/.test(q)) q = `${/\w/.test(text[to] ?? "") ? q.replace(/\s*\S*$/, "") : q}…`;
  return scrubPeople(q.replace(/[\s,;:]+$/, ""));
}

// ---------------------------------------------------------------------------------------------------------------
// Company numbers
// ---------------------------------------------------------------------------------------------------------------

/** "number", "no.", "No:", "num", "nr", "#". */
const NUM_WORD = String.raw`(?:number|numb\.?|num\b\.?|no\b\.?|nr\b\.?|n[oº°]\.|#)`;
const REG_WORD = String.raw`(?:registration|registered|registry|regn?\b\.?|reg'd|regd\b\.?)`;
const PLACE = String.raw`(?:england(?:\s*(?:and|&|\+)\s*wales)?|wales|scotland|northern\s+ireland|the\s+uk|the\s+united\s+kingdom|uk|united\s+kingdom|great\s+britain|gb)`;

/** Labels that introduce a company number. Each alternative ends where the number (after separators) begins. */
const LABELS = [
  // Company number, Company No., Company Reg. No, Company registration number, Companies House number, Company's registered number
  String.raw`\bcompan(?:y|ies)(?:\s+house)?(?:['’]s)?\s*(?:${REG_WORD}\s*)?${NUM_WORD}`,
  // Company registration: 01234567 / Company reg: …
  String.raw`\bcompany\s+${REG_WORD}(?=\s*[:#]|\s+(?:is\s+)?(?:[a-z]{2}\s?)?\d)`,
  // Co. No., Co Reg No, Co. Reg. Number
  String.raw`\bco\b\.?\s*(?:${REG_WORD}\s*)?${NUM_WORD}`,
  String.raw`\bco\b\.?\s*${REG_WORD}(?=\s*[:#])`,
  // Registered number, Registration No., Reg. No., Registered company number
  String.raw`\b${REG_WORD}\s*(?:company\s+|in\s+${PLACE}\s+)?${NUM_WORD}`,
  // LLP number OC123456, Partnership No.
  String.raw`\b(?:llp|limited\s+liability\s+partnership)\s*(?:${REG_WORD}\s*)?${NUM_WORD}`,
  // CRN 01234567
  String.raw`\bcrn\b`,
].join("|");

/** "Registered in England and Wales", optionally followed by a few linking words before the number. */
const REGISTERED_IN = String.raw`\b(?:registered|incorporated)\s+in\s+${PLACE}\b`;
const LINK_WORDS = String.raw`(?:as|a|an|private|public|limited|company|companies|house|by|shares|guarantee|with|under|the|liability|partnership|llp|plc|ltd|and|is|its|our|registered|registration|reg|number|no|nr|num|crn)`;

/** The number itself: a 2-character prefix + digits, or up to 8 digits possibly grouped with spaces. */
const NUMBER = String.raw`((?:[a-z]{2}|r0)[ -]?\d{1,6}(?![\d])|\d{1,8}(?:[ \u00a0]\d{1,7}){0,2})`;

const SEP = String.raw`[\s:#.,\-–—=()\[\]]*(?:(?:is|of)\b[\s:]*)?`;

const LABELLED_RE = new RegExp(String.raw`(?:${LABELS})${SEP}${NUMBER}`, "gi");
// Each repetition consumes a linking word, so a long run of spaces or punctuation cannot be split many ways.
const REGISTERED_IN_RE = new RegExp(String.raw`${REGISTERED_IN}(?:[\s,.:;()\-–—]+${LINK_WORDS}\b\.?){0,8}?[\s,.:;()\-–—#]*${NUMBER}`, "gi");

/** Other schemes' numbers: a label preceded by one of these words is not a company number's. */
const OTHER_SCHEME =
  /(?:\bvat|\bv\.a\.t\.?|\bcharit(?:y|ies|able)|\boscr|\bico|\binformation\s+commissioner(?:['’]s\s+office)?|\bdata\s+protection|\bfca|\bfirm|\bfrn|\bfinancial\s+conduct\s+authority|\bsra|\bcqc|\bofsted|\bgas\s+safe|\bniceic|\bukprn|\burn|\beori|\butr|\btax|\btrade\s*mark|\bpatent|\bdesign|\bvehicle|\blicen[cs]e|\bconsumer\s+credit|\bpra|\bofgem|\bofcom|\bhmrc|\bmlr|\baml|\bd-?u-?n-?s|\bsia|\bchas|\bcscs|\binterim\s+permission|\bpermission|\bmembership|\bmember|\bipo|\bhcpc|\bgmc|\bgdc|\bnmc|\bgphc|\bfsb|\babta|\batol|\bcitb|\bhousing|\bsocial\s+housing|\bregulator|\bfriendly\s+society|\bmutuals?|\bcooperative|\bco-operative|\bindustrial\s+and\s+provident|\bsociety|\bcommunity\s+benefit)\W{0,4}(?:[a-z]+\W{1,4})?$/i;

/** Words after the number that show it belongs to another scheme ("… 1234567 (charity)"). */
const OTHER_AFTER = /^\s*\(?\s*(?:charity|scottish\s+charity|vat\b)/i;

/**
 * Turns a captured number token into a company number, or null. Digit groups separated by spaces are joined
 * when they make at most 8 digits; more (a phone number) is refused unless the first group is itself a number.
 */
function numberOf(token: string, bare: boolean): string | null {
  const t = token.trim();
  if (/^\d/.test(t)) {
    const groups = t.split(/[ \u00a0]+/);
    const all = groups.join("");
    // "0123 4567" is one number; more than 8 digits in all is a phone number ("020 7946 0000") unless the first
    // group is a number on its own ("1234567 2019").
    const digits = all.length <= 8 ? all : groups[0].length >= 6 ? groups[0] : null;
    if (!digits) return null;
    if (digits.length < (bare ? 6 : 4)) return null;
    return normaliseCompanyNumber(digits);
  }
  const m = /^([a-z]{2}|r0)[ -]?(\d{1,6})$/i.exec(t);
  if (!m) return null;
  // A prefix with a short number is accepted only when labelled, and only for the prefixes Companies House uses.
  const n = normaliseCompanyNumber(m[1] + m[2]);
  if (!n) return null;
  if (m[2].length < (bare ? 6 : 4)) return null;
  return n;
}

/**
 * Company numbers the text states ("Company No. 01234567", "Registered in England and Wales No: 1234567",
 * "Company registration number SC123456", "Registered number: 09876543", with or without spaces/colons),
 * normalised to 8 characters (zero-padded; prefixes SC, NI, OC, SO, NC, R0, etc. kept). Never a phone number,
 * VAT number or charity number. Each number once, in the order first stated, with a short quote around it.
 */
export function statedCompanyNumbers(text: string): StatedNumber[] {
  const found: { number: string; at: number; quote: string }[] = [];
  const seen = new Set<string>();
  const consider = (m: RegExpExecArray, bare: boolean) => {
    const token = m[m.length - 1];
    if (!token) return;
    const start = m.index;
    const end = start + m[0].length;
    if (OTHER_SCHEME.test(text.slice(Math.max(0, start - 60), start))) return;
    const tail = text.slice(end, end + 40);
    if (OTHER_AFTER.test(tail)) return;
    if (/^\d/.test(tail)) return; // longer than any company number
    // A prefixed number directly followed by letters is a word, not a number ("SC123456ABC").
    if (/^[a-z]/i.test(tail) && /^[a-z]/i.test(token)) return;
    const number = numberOf(token, bare);
    if (!number || seen.has(number)) return;
    seen.add(number);
    found.push({ number, at: start, quote: quoteAround(text, start, end) });
  };
  for (const m of text.matchAll(LABELLED_RE)) consider(m as RegExpExecArray, false);
  for (const m of text.matchAll(REGISTERED_IN_RE)) {
    // With no number word among the linking words the number stands bare: full length only.
    const bare = !new RegExp(NUM_WORD, "i").test(m[0].slice(0, m[0].length - m[m.length - 1].length)) && !/\bcrn\b/i.test(m[0]);
    consider(m as RegExpExecArray, bare);
  }
  return found.sort((a, b) => a.at - b.at).map(({ number, quote }) => ({ number, quote }));
}

// ---------------------------------------------------------------------------------------------------------------
// Postcodes and addresses
// ---------------------------------------------------------------------------------------------------------------

/**
 * A UK postcode in any valid format (A9 9AA, A99 9AA, A9A 9AA, AA9 9AA, AA99 9AA, AA9A 9AA, and GIR 0AA), with or
 * without its space, in capitals. The letters each position may hold are Royal Mail's: a first letter never Q, V
 * or X; a second never I, J or Z; the inward code's letters never C, I, K, M, O or V.
 */
export const POSTCODE =
  /(?<![A-Za-z0-9])((?:[A-PR-UWYZ](?:\d{1,2}|[A-HK-Y]\d{1,2}|\d[A-HJKPSTUW]|[A-HK-Y]\d[ABEHMNPRVWXY]))|GIR)[ \u00a0]?(\d[ABD-HJLNP-UW-Z]{2}|0AA)(?![A-Za-z0-9])/g;

/** "bs1 4qa", "BS14QA" → "BS1 4QA"; null when it is not a postcode. */
export function normalisePostcode(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const s = raw.toUpperCase().replace(/\s+/g, "");
  const m = new RegExp(`^${POSTCODE.source}$`).exec(s.replace(/^(.+)(.{3})$/, "$1 $2"));
  return m ? `${m[1]} ${m[2]}` : null;
}

export interface StatedAddress {
  /** The address as written, on one line ("10 Quay Road, Bristol BS1 4QA"). */
  address: string;
  postcode: string;
  /** Labelled as the registered office ("Registered office: …", "… registered office at …"). */
  registeredOffice: boolean;
  /** Has a PO Box (or Freepost) and no street line: not a geographic address. */
  poBoxOnly: boolean;
  quote: string;
}

const PO_BOX = /\b(?:p\.?\s*o\.?\s*box|post\s+office\s+box|freepost)\b[\s.:#-]*(?:no\.?\s*)?[A-Z0-9-]*/gi;
const OFFICE_LABEL =
  /\b(?:registered\s+(?:office|address|office\s+address)|reg(?:istered)?\.?\s+off(?:ice)?\.?|registered\s+at|head\s+office|office\s+address|postal\s+address|trading\s+address|business\s+address|address|located\s+at|based\s+at|find\s+us\s+at|visit\s+us\s+at|write\s+to\s+us\s+at)\b\s*(?:is|at|address)?\s*[:\-–—]?\s*/gi;
const STREETISH =
  /\d+[A-Za-z]?(?:[-–]\d+[A-Za-z]?)?,?\s+[A-Za-z]|\b(?:street|road|lane|avenue|way|square|place|park|house|court|drive|close|crescent|terrace|row|hill|gardens|building|buildings|centre|center|estate|yard|quay|wharf|mews|walk|parade|green|business\s+park|industrial\s+estate|floor|suite|unit|chambers|tower|works|mill|barn|farm|cottage|lodge|hall|st|rd|ave)\b/i;

/** Whether an address is only a PO Box (no street line once the box and the postcode are taken out). */
export function isPoBoxOnly(address: string): boolean {
  if (!new RegExp(PO_BOX.source, "i").test(address)) return false;
  const rest = address.replace(new RegExp(PO_BOX.source, "gi"), " ").replace(new RegExp(POSTCODE.source, "g"), " ");
  return !STREETISH.test(rest);
}

/** Postcodes read from one text at most (a store locator may list hundreds). */
const MAX_ADDRESSES = 100;

/** Whether a line reads like part of an address (short, no sentence in it). */
const addressLike = (line: string) => line.length <= 70 && line.split(/\s+/).length <= 9 && !/[.!?]\s+[A-Z]/.test(line) && !/[:]$/.test(line.trim());

/**
 * Addresses the text gives, one per UK postcode, each with the words before the postcode back to its label
 * ("Registered office:") or the start of its line, and for a postcode alone on its line the address-like lines
 * above it (an <address> block). Whether it is labelled the registered office, and whether it is a PO Box only.
 */
export function statedAddresses(text: string): StatedAddress[] {
  const out: StatedAddress[] = [];
  const seen = new Set<string>();
  let seenPostcodes = 0;
  for (const m of text.matchAll(POSTCODE)) {
    if (++seenPostcodes > MAX_ADDRESSES) break;
    const pcEnd = m.index! + m[0].length;
    // The address is on the postcode's line, within 300 characters before it.
    const lineStart = Math.max(text.lastIndexOf("\n", m.index! - 1) + 1, m.index! - 300);
    let start = lineStart;
    // Back to the last sentence break or separator on the line ("… Ltd. Registered office: 1 High St, …").
    const head = text.slice(lineStart, m.index!);
    const brk = [...head.matchAll(/(?:[.!?](?=\s+[A-Z])|[|•·;])\s*/g)].filter((b) => !/\b(?:st|rd|no|ave)\.$/i.test(head.slice(0, b.index! + 1))).at(-1);
    if (brk) start = lineStart + brk.index! + brk[0].length;
    // After the last label on the line, when there is one.
    let labelled = false;
    const labels = [...text.slice(start, m.index!).matchAll(new RegExp(OFFICE_LABEL.source, "gi"))];
    const lastLabel = labels.at(-1);
    let registeredOffice = labels.some((l) => /registered|reg\.?\s+off/i.test(l[0]));
    if (lastLabel) {
      start += lastLabel.index! + lastLabel[0].length;
      labelled = true;
    }
    // A short heading of the segment's own ("Showroom:", "Post:", "Head office:") is not part of the address.
    const heading = /^\s*(\p{Lu}[\p{L}'’ ]{0,30}):\s+/u.exec(text.slice(start, m.index!));
    if (heading) {
      if (/registered/i.test(heading[1])) registeredOffice = true;
      start += heading[0].length;
      labelled = true;
    }
    // A postcode with little before it on its line: the address-like lines above it belong to the address.
    let from = start;
    if (!labelled && text.slice(start, m.index!).replace(/[\s,]/g, "").length < 25) {
      let lines = 0;
      let p = lineStart;
      while (p > 0 && lines < 5) {
        const prevStart = text.lastIndexOf("\n", p - 2) + 1;
        const line = text.slice(prevStart, p - 1);
        const label = new RegExp(`^\\s*(?:${OFFICE_LABEL.source})$`, "i").exec(line) ?? new RegExp(`(?:${OFFICE_LABEL.source})$`, "i").exec(line);
        if (label) {
          if (/registered|reg\.?\s+off/i.test(label[0])) registeredOffice = true;
          const rest = line.slice(label.index + label[0].length);
          if (rest.trim()) from = prevStart + label.index + label[0].length;
          break;
        }
        if (!addressLike(line)) break;
        from = prevStart;
        p = prevStart;
        lines++;
      }
    }
    // "… registered office" just before (on the previous line or the start of the sentence).
    if (!registeredOffice) {
      const before = text.slice(Math.max(0, from - 80), from);
      registeredOffice = /registered\s+(?:office|address)[^.\n]{0,30}$|reg(?:istered)?\.?\s+off(?:ice)?\.?[^.\n]{0,30}$/i.test(before);
    }
    const address = collapse(text.slice(from, pcEnd).replace(/\n+/g, ", "))
      .replace(/^[\s,:;\-–—]+/, "")
      .replace(/\s*,\s*(?:,\s*)+/g, ", ")
      .trim();
    const postcode = `${m[1]} ${m[2]}`;
    const key = `${postcode}|${address.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ address: scrubPeople(address), postcode, registeredOffice, poBoxOnly: isPoBoxOnly(address), quote: quoteAround(text, from, pcEnd) });
  }
  return out;
}

/** The PO Boxes (and Freepost addresses) the text mentions, with a quote each. */
export function poBoxes(text: string): { text: string; quote: string }[] {
  return [...text.matchAll(new RegExp(PO_BOX.source, "gi"))].map((m) => ({ text: m[0].trim(), quote: quoteAround(text, m.index!, m.index! + m[0].length) }));
}

/** Address words compared loosely: case, punctuation and the usual abbreviations (St, Rd, Ave…) aside. */
export function normaliseAddressText(s: string): string {
  const ABBR: Record<string, string> = {
    st: "street",
    rd: "road",
    ave: "avenue",
    av: "avenue",
    ln: "lane",
    sq: "square",
    pl: "place",
    dr: "drive",
    cl: "close",
    cres: "crescent",
    ct: "court",
    gdns: "gardens",
    ter: "terrace",
    terr: "terrace",
    pde: "parade",
    bldg: "building",
    bldgs: "buildings",
    ho: "house",
    hse: "house",
    ind: "industrial",
    est: "estate",
    bus: "business",
    pk: "park",
    fl: "floor",
    flr: "floor",
    ste: "suite",
    nth: "north",
    sth: "south",
    "1st": "first",
    "2nd": "second",
    "3rd": "third",
    "4th": "fourth",
    "5th": "fifth",
  };
  return s
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .map((w) => ABBR[w] ?? w)
    .join(" ");
}

// ---------------------------------------------------------------------------------------------------------------
// Place of registration
// ---------------------------------------------------------------------------------------------------------------

export type UkPart = "england-wales" | "scotland" | "northern-ireland";

export interface StatedPlace {
  /** As written: "England and Wales", "England", "Scotland"… */
  place: string;
  /** The part of the UK it means (England or Wales alone is the England and Wales register). */
  part: UkPart;
  quote: string;
}

const PLACE_RE =
  /\b(?:registered|incorporated|registration)\s+(?:(?:as\s+an?\s+|as\s+)?(?:private|public)?\s*(?:limited\s+)?(?:company|llp|partnership)?\s*)?(?:in|under\s+the\s+laws\s+of)\s+(England\s*(?:and|&|\+)\s*Wales|England|Wales|Scotland|Northern\s+Ireland)\b/gi;

/** Where the text says the company is registered ("Registered in England and Wales", "incorporated in Scotland"). */
export function statedPlaces(text: string): StatedPlace[] {
  const out: StatedPlace[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(PLACE_RE)) {
    if (OTHER_SCHEME.test(text.slice(Math.max(0, m.index! - 40), m.index!))) continue; // "charity registered in Scotland"
    const place = m[1].replace(/\s+/g, " ").replace(/\s*(?:&|\+)\s*/, " and ");
    const lower = place.toLowerCase();
    const part: UkPart = lower.startsWith("scotland") ? "scotland" : lower.startsWith("northern") ? "northern-ireland" : "england-wales";
    if (seen.has(lower)) continue;
    seen.add(lower);
    out.push({
      place: place.replace(/\b\w/g, (c) => c.toUpperCase()).replace(/\bAnd\b/, "and"),
      part,
      quote: quoteAround(text, m.index!, m.index! + m[0].length),
    });
  }
  return out;
}

/** The part of the UK a Companies House jurisdiction means; null for one outside the UK registers ("european-union"…). */
export function ukPartOfJurisdiction(jurisdiction: string | null | undefined): UkPart | null {
  switch ((jurisdiction ?? "").toLowerCase()) {
    case "england-wales":
    case "england":
    case "wales":
      return "england-wales";
    case "scotland":
      return "scotland";
    case "northern-ireland":
      return "northern-ireland";
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Registered names
// ---------------------------------------------------------------------------------------------------------------

const LEGAL_FORM_WORDS = String.raw`(?:Limited|LIMITED|Ltd\.?|LTD\.?|ltd\.?|PLC|Plc|plc|P\.L\.C\.|LLP|L\.L\.P\.|CIC|C\.I\.C\.|Cyfyngedig|CYFYNGEDIG|Cyf|CYF|CCC|Public\s+Limited\s+Company|PUBLIC\s+LIMITED\s+COMPANY|Community\s+Interest\s+Company|COMMUNITY\s+INTEREST\s+COMPANY|Limited\s+Liability\s+Partnership|LIMITED\s+LIABILITY\s+PARTNERSHIP)`;
const NAME_WORD = String.raw`(?:[A-Z0-9][\p{L}\p{N}'’.\-]*|&|\+|and|of|the|for|de|la|du|in|on|at)`;
const COMPANY_NAME_RE = new RegExp(String.raw`(?<![\p{L}\p{N}])((?:${NAME_WORD}[ \u00a0]+){1,7}?${LEGAL_FORM_WORDS})(?![\p{L}\p{N}])`, "gu");
/** Words that open a sentence or a footer line, not a name: dropped from the front of a candidate. */
const LEADING_NOISE =
  /^(?:(?:copyright|©|\(c\)|all|rights|reserved|by|is|a|an|the|and|of|for|in|on|at|to|from|with|\d{4}(?:\s*[-–]\s*\d{4})?|registered|trading|name|company|our|we|are|this|website|site|operated|owned|run|part|member|group|where|when|whereas|if|as|so|but|also|because|since|while|whilst|although|that|which|then|thus|today|currently|however|here|there|both|each|every|any|supplier|client|customer|contact|about|welcome|dear|thank|thanks|please|why|how|what|who|at|join|choose|meet|visit|call|email|write|ask|see|read|find|about|unlike|like|only|not|no|yes|note|scope|nil|none)\b[\s.,:©]*)+/i;

/** Names ending in a legal form the text gives ("Acme Widgets Ltd", "HARBOURSIDE LEGAL LIMITED"), each once with a quote. */
export function statedCompanyNames(text: string): { name: string; quote: string }[] {
  const out: { name: string; quote: string }[] = [];
  const seen = new Set<string>();
  for (const m of text.replace(/©/g, " ").matchAll(COMPANY_NAME_RE)) {
    let name = m[1];
    const trimmed = name.replace(LEADING_NOISE, "");
    const start = m.index! + (name.length - trimmed.length);
    name = trimmed.replace(/\s+/g, " ").replace(/\.$/, "");
    if (!/[\p{L}\p{N}]/u.test(name.replace(new RegExp(`${LEGAL_FORM_WORDS}$`, "u"), ""))) continue;
    const parts = nameParts(name);
    const key = `${parts.core}|${parts.form}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name, quote: quoteAround(text, start, m.index! + m[0].replace(/\.$/, "").length) });
  }
  return out;
}

const LEGAL_FORM_NORMAL: [RegExp, string][] = [
  [/^public limited company\b/, "plc"],
  [/^limited liability partnership\b/, "llp"],
  [/^community interest company\b/, "cic"],
  [/^(?:limited|ltd|cyfyngedig|cyf)\b/, "ltd"],
  [/^(?:plc|p l c|ccc)\b/, "plc"],
  [/^(?:llp|l l p)\b/, "llp"],
  [/^(?:cic|c i c)\b/, "cic"],
];

/** Lower case, accents and apostrophes dropped, "&"/"+" → "and", other punctuation a space; with each character's source index. */
function normaliseWithMap(text: string): { norm: string; at: number[] } {
  let norm = "";
  const at: number[] = [];
  let space = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const base = ch
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase();
    if (/['’‘`´ʼ]/.test(ch)) continue;
    if (ch === "&" || ch === "+") {
      if (!space) {
        norm += " ";
        at.push(i);
      }
      for (const c of "and ") {
        norm += c;
        at.push(i);
      }
      space = true;
      continue;
    }
    if (/^[\p{L}\p{N}]+$/u.test(base)) {
      for (const c of base) {
        norm += c;
        at.push(i);
      }
      space = false;
    } else if (!space) {
      norm += " ";
      at.push(i);
      space = true;
    }
  }
  return { norm, at };
}

/** A name's words and its legal form, compared as normaliseName does: `The Acme & Co. Ltd` → core "acme and co", form "ltd". */
function nameParts(name: string): { core: string; form: string | null } {
  let core = normaliseWithMap(name).norm.trim();
  let form: string | null = null;
  for (const [re, f] of LEGAL_FORM_NORMAL) {
    const endRe = new RegExp(`(?:^|\\s)(${re.source.slice(1).replace(/\\b$/, "")})$`);
    const m = endRe.exec(core);
    if (m && m.index > 0) {
      form = f;
      core = core.slice(0, m.index).trim();
      break;
    }
  }
  if (core.startsWith("the ") && core.split(" ").length > 1) core = core.slice(4);
  return { core, form };
}

export interface NameFound {
  /** The text gives the name with the register's legal form (Ltd = Limited; "&" = "and"; case and punctuation aside). */
  exact: boolean;
  quote: string;
}

/**
 * Where the text gives a registered name: its words in order (case, punctuation, "&"/"and" and the legal form's
 * spelling aside). `exact` false when the words are there but not with the legal form (a trading name, "Acme
 * Widgets", is not the registered name "ACME WIDGETS LIMITED"). The exact use first; null when the words are absent.
 */
export function findName(text: string, name: string): NameFound | null {
  const { core, form } = nameParts(name);
  if (!core) return null;
  const { norm, at } = normaliseWithMap(text);
  let partial: NameFound | null = null;
  let from = 0;
  for (;;) {
    const i = norm.indexOf(core, from);
    if (i < 0) break;
    from = i + 1;
    const beforeOk = i === 0 || norm[i - 1] === " ";
    const afterOk = i + core.length === norm.length || norm[i + core.length] === " ";
    if (!beforeOk || !afterOk) continue;
    const rest = norm.slice(i + core.length).trimStart();
    const restStart = norm.length - rest.length;
    const formHere = LEGAL_FORM_NORMAL.find(([re]) => re.test(rest));
    const formLen = formHere ? (formHere[0].exec(rest)?.[0].length ?? 0) : 0;
    const srcStart = at[i];
    const srcEnd = (formHere && form ? at[restStart + formLen - 1] : at[i + core.length - 1]) + 1;
    const found = { quote: quoteAround(text, srcStart, srcEnd) };
    if (form ? formHere?.[1] === form : !formHere) return { exact: true, ...found };
    partial ??= { exact: false, ...found };
  }
  return partial;
}

/** Whether two company names are the same registered name (case, punctuation, "&"/"and", Ltd/Limited aside). */
export function sameCompanyName(a: string, b: string): boolean {
  const x = nameParts(a);
  const y = nameParts(b);
  return !!x.core && x.core === y.core && x.form === y.form;
}

// ---------------------------------------------------------------------------------------------------------------
// VAT numbers
// ---------------------------------------------------------------------------------------------------------------

export type VatFormat = "standard" | "branch" | "government" | "health" | "invalid";

export interface StatedVat {
  /** As written after its label ("GB 503 6384 07"). */
  stated: string;
  /** Normalised: "GB503638407", "GB503638407001", "GBGD123", "GBHA599"; the digits as given when the format is invalid. */
  number: string;
  /** standard: GB + 9 digits; branch: GB + 12 (9 + a 3-digit branch); government: GBGD + 000–499; health: GBHA + 500–999. */
  format: VatFormat;
  /** HMRC's check-digit test on the 9-digit number: pass (by `scheme`), fail, or not applicable (GD, HA, invalid format). */
  checkDigits: "pass" | "fail" | "not_applicable";
  /** mod97: the original scheme; mod9755: the scheme for numbers issued since 2010 (55 added before the mod-97 test). */
  scheme: "mod97" | "mod9755" | null;
  quote: string;
}

/** HMRC's check on a 9-digit VAT number: which scheme it passes, or null when it fails both. */
export function vatCheckDigits(nine: string): "mod97" | "mod9755" | null {
  if (!/^\d{9}$/.test(nine)) return null;
  const d = [...nine].map(Number);
  const sum = d.slice(0, 7).reduce((s, x, i) => s + x * (8 - i), 0);
  const check = d[7] * 10 + d[8];
  if ((sum + check) % 97 === 0) return "mod97";
  if ((sum + 55 + check) % 97 === 0) return "mod9755";
  return null;
}

/** Classifies one VAT number as written (with or without GB/XI). */
export function classifyVat(raw: string): Omit<StatedVat, "stated" | "quote"> {
  const s = raw.toUpperCase().replace(/[\s.\-\u00a0]/g, "");
  const m = /^(GB|XI)?(GD|HA)?(\d+)$/.exec(s);
  if (!m) return { number: s, format: "invalid", checkDigits: "not_applicable", scheme: null };
  const country = m[1] ?? "GB";
  const digits = m[3];
  if (m[2]) {
    const n = Number(digits);
    const ok = digits.length === 3 && (m[2] === "GD" ? n <= 499 : n >= 500);
    return {
      number: `${country}${m[2]}${digits}`,
      format: ok ? (m[2] === "GD" ? "government" : "health") : "invalid",
      checkDigits: "not_applicable",
      scheme: null,
    };
  }
  if (digits.length !== 9 && digits.length !== 12) return { number: `${country}${digits}`, format: "invalid", checkDigits: "not_applicable", scheme: null };
  const scheme = vatCheckDigits(digits.slice(0, 9));
  return { number: `${country}${digits}`, format: digits.length === 9 ? "standard" : "branch", checkDigits: scheme ? "pass" : "fail", scheme };
}

const VAT_LABELLED =
  /\bV\.?A\.?T\.?(?![\p{L}])(?:[\s.:#\-–—]*(?:reg(?:istration|istered|n)?\.?|no\.?|num(?:ber)?\.?|id(?:entification)?|is)(?![\p{L}])){0,4}[\s.:#\-–—]*((?:(?:GB|XI)[ \u00a0]?)?(?:(?:GD|HA)[ \u00a0]?\d{3}(?!\d)|\d[\d \u00a0]{3,18}\d))(?![\d])/giu;
const VAT_BARE = /(?<![\p{L}\p{N}])((?:GB|XI)[ \u00a0]?(?:\d{3}[ \u00a0]?\d{4}[ \u00a0]?\d{2}(?:[ \u00a0]?\d{3})?|(?:GD|HA)\d{3}))(?![\p{L}\p{N}])/gu;

/**
 * VAT numbers the text states: after a VAT label ("VAT Reg No: GB 123 4567 89", "VAT Registration: 503 6384 07"),
 * and GB/XI numbers of the right length anywhere. Each once, with its format and check-digit result.
 */
export function statedVatNumbers(text: string): StatedVat[] {
  const found: (StatedVat & { at: number })[] = [];
  const seen = new Set<string>();
  const add = (m: RegExpMatchArray, labelled: boolean) => {
    let stated = m[1].trim();
    // Digit groups after a labelled number may run into the next figure ("… 123 4567 89 Tel 0117"): keep 9 or 12.
    if (labelled && !/^(?:GB|XI)?\s?(?:GD|HA)/i.test(stated)) {
      const digits = stated.replace(/\D/g, "");
      if (digits.length > 12) {
        const groups = stated.split(/[ \u00a0]+/);
        let acc = "";
        const kept: string[] = [];
        for (const g of groups) {
          if ((acc + g.replace(/\D/g, "")).length > 12) break;
          acc += g.replace(/\D/g, "");
          kept.push(g);
          if (acc.length === 9 && groups.length > kept.length && (acc + groups[kept.length]).length !== 12) break;
        }
        stated = kept.join(" ");
      }
      if (stated.replace(/\D/g, "").length < 5) return;
    }
    const c = classifyVat(stated);
    if (seen.has(c.number)) return;
    seen.add(c.number);
    const at = m.index!;
    found.push({ stated, ...c, quote: quoteAround(text, at, at + m[0].length), at });
  };
  for (const m of text.matchAll(VAT_LABELLED)) add(m, true);
  for (const m of text.matchAll(VAT_BARE)) add(m, false);
  return found.sort((a, b) => a.at - b.at).map(({ at: _at, ...v }) => v);
}

// ---------------------------------------------------------------------------------------------------------------
// Emails, charity numbers
// ---------------------------------------------------------------------------------------------------------------

const EMAIL =
  /(?<![\w.+-])([A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?)@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24})(?![\w-])/g;
const DOT = String.raw`(?:\s*(?:\[\s*dot\s*\]|\(\s*dot\s*\)|\{\s*dot\s*\})\s*|\s+dot\s+|\.)`;
const EMAIL_OBFUSCATED = new RegExp(
  String.raw`(?<![\w.+-])([A-Za-z0-9][A-Za-z0-9._+-]{0,62})(?:\s*(?:\[\s*at\s*\]|\(\s*at\s*\)|\{\s*at\s*\})\s*|\s+at\s+(?=[\w-]+(?:\s*(?:\[\s*dot\s*\]|\(\s*dot\s*\))|\s+dot\s+)))((?:[A-Za-z0-9-]+${DOT})+[A-Za-z]{2,24})(?![\w-])`,
  "gi",
);
/** "Domains" that are file names (logo@2x.png). */
const FILE_TLD = /\.(?:png|jpe?g|gif|svg|webp|avif|ico|css|js|json|xml|pdf|mp4|woff2?)$/i;

/** Addresses that name a role, not a person: shown in full; any other is shown by its domain only. */
const ROLE_LOCAL =
  /^(?:info|information|hello|hi|contact|contactus|contact-us|enquiries|enquiry|enquire|inquiries|inquiry|sales|office|admin|administration|support|help|helpdesk|accounts|accounting|finance|billing|invoices|payments|privacy|dpo|data|dataprotection|data-protection|gdpr|team|mail|post|customerservice|customerservices|customer-service|customer\.service|customercare|care|service|services|bookings|booking|reservations|reception|press|media|marketing|pr|careers|jobs|recruitment|hr|legal|compliance|complaints|feedback|orders|order|shop|store|studio|general|webmaster|web|website|noreply|no-reply|newsletter|events|partners|partnerships|business|trade|wholesale|returns|operations|ops|it|tech|security|abuse|safeguarding|accessibility|membership|members|volunteer|volunteers|donations|fundraising|ask|talk|studio|workshop|quotes|quote|estimates|projects|design|agency|team\d*|[a-z]*info|[a-z]*enquiries|[a-z]*sales|[a-z]*support|[a-z]*office)$/i;

export interface StatedEmail {
  /** The address when it names a role (info@, hello@…); otherwise null (a personal address is never echoed). */
  email: string | null;
  domain: string;
  /** True for a role address. */
  role: boolean;
  /** The address as it may be shown: in full for a role, `…@domain` otherwise. */
  shown: string;
}

export function describeEmail(local: string, domain: string): StatedEmail {
  const d = domain.toLowerCase();
  const role = ROLE_LOCAL.test(local);
  return { email: role ? `${local.toLowerCase()}@${d}` : null, domain: d, role, shown: role ? `${local.toLowerCase()}@${d}` : `…@${d}` };
}

/** Email addresses the text gives, also written "name [at] domain [dot] co [dot] uk"; each once. */
export function statedEmails(text: string): StatedEmail[] {
  const out = new Map<string, StatedEmail>();
  const add = (local: string, domain: string) => {
    if (FILE_TLD.test(domain) || /^(?:example|sentry|wixpress)\./i.test(domain)) return;
    const key = `${local.toLowerCase()}@${domain.toLowerCase()}`;
    if (!out.has(key)) out.set(key, describeEmail(local, domain));
  };
  for (const m of text.matchAll(EMAIL)) add(m[1], m[2]);
  for (const m of text.matchAll(EMAIL_OBFUSCATED)) add(m[1], m[2].replace(new RegExp(DOT, "gi"), "."));
  return [...out.values()];
}

/**
 * Charity numbers the text states: England and Wales (6–7 digits, "Registered charity no. 1098765"), Scotland
 * (SC0 + 5 digits) and Northern Ireland (NIC + 6 digits, or 1xxxxx). Kept apart so they are never taken for a company number.
 */
export function statedCharityNumbers(text: string): { number: string; quote: string }[] {
  const out: { number: string; quote: string }[] = [];
  const re =
    /\bcharit(?:y|able)(?:\s+(?:registration|registered|reg\.?|commission))?\s*(?:number|no\.?|num\.?|#)?[\s:.#-]*((?:SC|NIC|NI)\s?\d{5,6}|\d{6,7})\b|\b(SC0\d{5})\b/gi;
  const seen = new Set<string>();
  for (const m of text.matchAll(re)) {
    const raw = (m[1] ?? m[2]).toUpperCase().replace(/\s+/g, "");
    if (m[2] && !/charit|oscr/i.test(text.slice(Math.max(0, m.index! - 60), m.index!))) continue; // SC0xxxxx is also a Scottish company number
    if (seen.has(raw)) continue;
    seen.add(raw);
    out.push({ number: raw, quote: quoteAround(text, m.index!, m.index! + m[0].length) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// People in quotes
// ---------------------------------------------------------------------------------------------------------------

/**
 * Takes people's names out of a short quote: any comma-, pipe- or bullet-separated part that reads as a person's
 * name ("Jane Example", "Mr J Smith") is replaced by "[name removed]". Conservative in the other direction from a
 * register: a false positive costs a word of the quote, never a person's privacy.
 */
export function scrubPeople(quote: string): string {
  return quote
    .split(/(\s*[,|•·;]\s*|\s+[-–—]\s+|\s*:\s+)/)
    .map((part, i) => (i % 2 === 1 ? part : scrubPart(part)))
    .join("");
}

function scrubPart(part: string): string {
  const t = part.trim();
  if (!t) return part;
  if (looksLikePerson(t.replace(/[.…]+$/, ""), "standalone")) return part.replace(t, "[name removed]");
  // "… by Jane Example" / "Contact Jane Example" at the end of a part.
  const tail = /^(.*\b(?:by|from|contact|ask|call|email|to|with)\s+)((?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+)?(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){1,3})$/u.exec(
    t,
  );
  if (tail && looksLikePerson(`${tail[2] ?? ""}${tail[3]}`, "standalone")) return part.replace(t, `${tail[1]}[name removed]`);
  return part;
}
