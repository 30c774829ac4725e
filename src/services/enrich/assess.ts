/**
 * The fit assessment (issue 18 §2 "assess", `assessFit`; SPEC §4.1: "Assess is grounded in the verified profile and
 * never predicts receptiveness"). Pure and deterministic:
 * - `readOffer(offer)`: what the caller sells and to whom, read from their words with fixed tables (audiences mapped
 *   to SIC 2007 code prefixes, size words, places, what the offer is about).
 * - `assessFit(...)`: points from explicit rules, each one citing a fact of the profile (its field, the value there and
 *   the source it came from); watch-outs for risks and for what is not confirmed; the facts an opener may rest on.
 * - `draftOpener(...)`: a short editable opener composed from those facts; a model (the document readers' `Phraser`
 *   port) may only re-word them, and its text is refused with the readers' check (`unsupportedClaims`) and ours.
 * Nothing here guesses what the business thinks, wants or will do: every statement is a recorded fact or the rule
 * that weighed it.
 */
import { type Phraser, unsupportedClaims } from "../documents/summary";
import { monthsBetween } from "../documents/values";
import type { BusinessProfile, RegisterFacts, Signal, SignalKind, SiteFacts } from "./types";

// ---------------------------------------------------------------------------------------------------------------
// Facts and words
// ---------------------------------------------------------------------------------------------------------------

export type FactValue = string | number | boolean | null | string[];

/**
 * A fact the assessment rests on: `field` is a path into `{ profile, register, site }` (`profile.sicCodes[0]`,
 * `profile.signals[2].label`, `register.accountsOverdue`, `site.headings[1]`), `value` is exactly what is there.
 */
export interface Fact {
  field: string;
  value: FactValue;
  source: string;
}

/**
 * Words that would forecast how the business will react. None of the assessment's own text uses them, and a model's
 * draft that uses one is refused.
 */
const RECEPTIVENESS =
  /\b(?:likely|unlikely|likelihood|probabl[ey]|probability|interest(?:ed|s)?|ready|readiness|receptiv\w*|keen|eager|open to|wants?|wanting|looking for|in the market|intend\w*|intent(?:ion)?s?|propensity|will (?:respond|reply|buy|engage|sign|convert|welcome|appreciate|want)|would (?:buy|respond|welcome|appreciate|benefit|love|like to)|benefit from|pain points?|struggl\w*|hot lead|warm lead|motivated|desperate|needs? (?:you|your|help|support|a|an|this|it))\b/gi;

/** The receptiveness words in a text (empty when it has none). */
export const receptivenessWords = (text: string): string[] => [...new Set((text.match(RECEPTIVENESS) ?? []).map((w) => w.toLowerCase()))];

/** A light English stemmer (plural, -ing, -ed, -er, -ment, -ation, -ancy, final e, doubled consonant) for matching words, not for display. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, "");
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/[^su]s$/.test(w) && !/(?:is|us|ss)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ["ation", "ment", "ancy", "ing", "ant", "ed", "er", "ly"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && /[aeiouy]/.test(w.slice(0, -suffix.length))) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (/([^aeiouylszf])\1$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** Words that say nothing about what is sold (sales words, pronouns, connectors), as stems. */
const GENERIC = new Set(
  [
    "a",
    "an",
    "the",
    "and",
    "or",
    "of",
    "for",
    "to",
    "in",
    "on",
    "with",
    "by",
    "at",
    "from",
    "into",
    "across",
    "around",
    "near",
    "our",
    "we",
    "i",
    "you",
    "your",
    "their",
    "them",
    "they",
    "us",
    "my",
    "who",
    "that",
    "which",
    "this",
    "these",
    "those",
    "is",
    "are",
    "be",
    "it",
    "its",
    "as",
    "all",
    "any",
    "more",
    "help",
    "offer",
    "sell",
    "provide",
    "provider",
    "supply",
    "deliver",
    "make",
    "build",
    "do",
    "work",
    "get",
    "let",
    "service",
    "solution",
    "product",
    "business",
    "company",
    "firm",
    "organisation",
    "organization",
    "uk",
    "britain",
    "british",
    "based",
    "local",
    "national",
    "nationwide",
    "best",
    "better",
    "simple",
    "easy",
    "affordable",
    "leading",
    "specialist",
    "expert",
    "team",
    "range",
    "including",
    "include",
    "plus",
    "via",
    "like",
    "such",
    "other",
    "also",
    "so",
    "than",
    "up",
    "out",
  ].map(stem),
);

const tokens = (text: string): string[] => text.toLowerCase().match(/[a-z][a-z0-9&'’-]*[a-z0-9]|[a-z]/g) ?? [];
const stems = (text: string): Set<string> =>
  new Set(
    tokens(text)
      .flatMap((t) => t.split("-"))
      .map(stem),
  );
const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s);

// ---------------------------------------------------------------------------------------------------------------
// The tables
// ---------------------------------------------------------------------------------------------------------------

export type AudienceKind = "sector" | "stage" | "type";

/**
 * One audience an offer may name. `sic`: SIC 2007 code prefixes (division = 2 digits, group = 3, class = 4) of the
 * businesses in it; `self`: how such a business describes itself (its site, its profile's sector); `signals`: the
 * profile signals (code or source) of a register such businesses are on.
 */
interface AudienceRule {
  key: string;
  kind: AudienceKind;
  /** The offer's words for it. */
  words: RegExp;
  sic: string[];
  /** The SIC part in words, for the reasons. */
  sicLabel: string;
  self: RegExp | null;
  signals: RegExp | null;
}

const divisions = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(2, "0"));

/**
 * Audiences → SIC 2007 (our own table; the hierarchy of SIC 2007: division 2 digits, group 3, class 4). Checked
 * against the Companies House condensed list in the tests: every prefix holds real codes.
 */
export const AUDIENCES: readonly AudienceRule[] = [
  {
    key: "legal",
    kind: "sector",
    words:
      /\b(?:law firms?|solicitors?(?: firms?| practices?)?|lawyers|legal (?:practices|firms|sector|professionals|services firms)|barristers(?:' chambers)?|barristers? chambers|conveyancers)\b/i,
    sic: ["691"],
    sicLabel: "SIC 691 Legal activities",
    self: /\b(?:solicitors?|law firm|legal services|legal advice|barristers?|conveyancing|lawyers?)\b/i,
    signals: /\bsra\b|solicitors regulation/i,
  },
  {
    key: "accountancy",
    kind: "sector",
    words: /\b(?:accountants|accountancy (?:firms|practices)|accounting firms|bookkeepers|tax advisers|tax advisors)\b/i,
    sic: ["692"],
    sicLabel: "SIC 692 Accounting, bookkeeping, auditing and tax consultancy",
    self: /\b(?:accountants?|accountancy|chartered accountants|bookkeeping|tax returns?)\b/i,
    signals: null,
  },
  {
    key: "care",
    kind: "sector",
    words:
      /\b(?:care homes?|nursing homes?|residential care|care providers?|care agencies|care companies|domiciliary care(?: providers| agencies)?|home care(?: providers| agencies)?|social care(?: providers| sector)?|care sector|supported living(?: providers)?)\b/i,
    sic: ["87", "881"],
    sicLabel: "SIC 87 Residential care and 881 Social work without accommodation for the elderly and disabled",
    self: /\b(?:care homes?|nursing homes?|residential care|domiciliary care|home care|supported living|care services)\b/i,
    signals: /\bcqc\b|care quality commission/i,
  },
  {
    key: "health",
    kind: "sector",
    words:
      /\b(?:gp (?:practices|surgeries)|clinics|dentists|dental (?:practices|surgeries|clinics)|healthcare (?:providers|businesses|sector)|health sector|pharmacies|physiotherapists|opticians)\b/i,
    sic: ["86", "4773", "4778"],
    sicLabel: "SIC 86 Human health activities (and 4773/4778 dispensing chemists and opticians)",
    self: /\b(?:clinic|dental|dentists?|gp practice|surgery|pharmacy|physiotherapy|opticians?|healthcare)\b/i,
    signals: /\bcqc\b|care quality commission/i,
  },
  {
    key: "hospitality",
    kind: "sector",
    words: /\b(?:restaurants?|caf[eé]s|coffee shops|pubs|bars|takeaways|hospitality(?: businesses| sector| venues)?|caterers|hotels|guest houses|b&bs)\b/i,
    sic: ["55", "56"],
    sicLabel: "SIC 55 Accommodation and 56 Food and beverage service activities",
    self: /\b(?:restaurant|caf[eé]|coffee shop|pub|bar|takeaway|catering|hotel|guest house|bed and breakfast|menu|dining)\b/i,
    signals: null,
  },
  {
    key: "construction",
    kind: "sector",
    words:
      /\b(?:construction (?:companies|firms|businesses|sector|industry)|builders|building (?:contractors|firms|companies)|contractors|tradespeople|trades businesses|housebuilders|plumbers|electricians|roofers|joiners)\b/i,
    sic: ["41", "42", "43"],
    sicLabel: "SIC 41–43 Construction",
    self: /\b(?:builders?|building contractors?|construction|plumbing|plumbers?|electricians?|electrical contractors?|roofing|joinery|extensions|renovations?)\b/i,
    signals: null,
  },
  {
    key: "charities",
    kind: "type",
    words: /\b(?:charities|charity sector|not[- ]for[- ]profits?|non[- ]?profits?|third sector|voluntary (?:sector|organisations)|social enterprises)\b/i,
    sic: [],
    sicLabel: "",
    self: /\b(?:registered charity|charity (?:no|number)|charitable|a charity)\b/i,
    signals: /\bcharit/i,
  },
  {
    key: "education",
    kind: "sector",
    words:
      /\b(?:schools|academies|academy trusts|colleges|universities|education (?:sector|providers)|training providers|tutoring (?:companies|businesses))\b/i,
    sic: ["85"],
    sicLabel: "SIC 85 Education",
    self: /\b(?:school|academy|college|university|pupils|students|tuition|tutoring|training courses?)\b/i,
    signals: /\bofsted\b/i,
  },
  {
    key: "childcare",
    kind: "sector",
    words: /\b(?:nurseries|childcare(?: providers)?|early years(?: providers| settings)?|childminders|pre-?schools)\b/i,
    sic: ["8891", "8510"],
    sicLabel: "SIC 8891 Child day-care activities and 8510 Pre-primary education",
    self: /\b(?:nursery|childcare|early years|pre-?school|day nursery)\b/i,
    signals: /\bofsted\b/i,
  },
  {
    key: "retail",
    kind: "sector",
    words:
      /\b(?:retailers|shops|independent stores|high street (?:shops|businesses)|e-?commerce (?:businesses|brands|stores|sellers)|online (?:shops|stores|retailers|sellers))\b/i,
    sic: ["47"],
    sicLabel: "SIC 47 Retail trade",
    self: /\b(?:shop|store|retail|online shop|buy online|basket|checkout)\b/i,
    signals: null,
  },
  {
    key: "wholesale",
    kind: "sector",
    words: /\b(?:wholesalers|distributors|wholesale (?:businesses|companies))\b/i,
    sic: ["46"],
    sicLabel: "SIC 46 Wholesale trade",
    self: /\b(?:wholesale|distributor|trade supplier)\b/i,
    signals: null,
  },
  {
    key: "manufacturing",
    kind: "sector",
    words: /\b(?:manufacturers|manufacturing (?:companies|firms|businesses|sector)|factories|food producers|makers)\b/i,
    sic: divisions(10, 33),
    sicLabel: "SIC 10–33 Manufacturing",
    self: /\b(?:manufactur\w*|factory|fabrication|production facility|engineering works)\b/i,
    signals: null,
  },
  {
    key: "tech",
    kind: "sector",
    words:
      /\b(?:software (?:companies|firms|houses|businesses|developers)|tech (?:companies|firms|startups|start-ups|businesses)|saas (?:companies|businesses)|it (?:companies|firms|providers|consultancies)|digital agencies)\b/i,
    sic: ["62", "63", "582"],
    sicLabel: "SIC 62 Computer programming and consultancy, 63 Information services, 582 Software publishing",
    self: /\b(?:software|saas|app development|web development|it services|it support|cloud|platform)\b/i,
    signals: null,
  },
  {
    key: "marketing",
    kind: "sector",
    words: /\b(?:marketing agencies|creative agencies|advertising agencies|pr agencies|design agencies)\b/i,
    sic: ["731", "732", "7021", "7410"],
    sicLabel: "SIC 731 Advertising, 732 Market research, 7021 Public relations, 7410 Design",
    self: /\b(?:marketing agency|advertising|branding|creative agency|public relations|graphic design)\b/i,
    signals: null,
  },
  {
    key: "property",
    kind: "sector",
    words:
      /\b(?:estate agents?|letting agents?|lettings agencies|landlords|property (?:managers|management companies|companies|firms|investors|developers))\b/i,
    sic: ["68", "411"],
    sicLabel: "SIC 68 Real estate activities and 411 Development of building projects",
    self: /\b(?:estate agents?|lettings?|property management|landlords?|properties for sale|to let)\b/i,
    signals: null,
  },
  {
    key: "transport",
    kind: "sector",
    words:
      /\b(?:hauliers|haulage (?:companies|firms)|logistics (?:companies|firms|businesses|providers)|couriers|transport (?:companies|operators|firms)|fleet operators|removals (?:companies|firms))\b/i,
    sic: ["49", "52", "53"],
    sicLabel: "SIC 49 Land transport, 52 Warehousing, 53 Postal and courier activities",
    self: /\b(?:haulage|logistics|courier|freight|transport services|removals|warehousing|deliveries)\b/i,
    signals: null,
  },
  {
    key: "farming",
    kind: "sector",
    words: /\b(?:farms|farmers|farming businesses|agricultural businesses|growers|estates and farms)\b/i,
    sic: ["01"],
    sicLabel: "SIC 01 Crop and animal production",
    self: /\b(?:farm|farming|livestock|arable|dairy|growers?)\b/i,
    signals: null,
  },
  {
    key: "beauty",
    kind: "sector",
    words: /\b(?:hair(?:dressers| salons)|beauty salons|barbers|salons|spas)\b/i,
    sic: ["9602", "9604"],
    sicLabel: "SIC 9602 Hairdressing and beauty treatment and 9604 Physical well-being activities",
    self: /\b(?:hair ?dress\w*|salon|barber|beauty|nails|spa)\b/i,
    signals: null,
  },
  {
    key: "fitness",
    kind: "sector",
    words: /\b(?:gyms|fitness (?:centres|studios|clubs)|leisure centres|sports clubs)\b/i,
    sic: ["931"],
    sicLabel: "SIC 931 Sports activities",
    self: /\b(?:gym|fitness|personal training|classes|leisure centre|sports club)\b/i,
    signals: null,
  },
  {
    key: "veterinary",
    kind: "sector",
    words: /\b(?:vets|veterinary (?:practices|surgeries|clinics))\b/i,
    sic: ["75"],
    sicLabel: "SIC 75 Veterinary activities",
    self: /\b(?:vets?|veterinary|pet care|animal hospital)\b/i,
    signals: null,
  },
  {
    key: "architecture",
    kind: "sector",
    words: /\b(?:architects|architectural practices|engineering consultancies|surveyors)\b/i,
    sic: ["711"],
    sicLabel: "SIC 711 Architectural and engineering activities",
    self: /\b(?:architects?|architectural|structural engineers?|surveyors?|surveying)\b/i,
    signals: null,
  },
  {
    key: "recruitment",
    kind: "sector",
    words: /\b(?:recruitment (?:agencies|firms|companies|consultancies)|recruiters|staffing agencies|employment agencies)\b/i,
    sic: ["78"],
    sicLabel: "SIC 78 Employment activities",
    self: /\b(?:recruitment agency|recruitment consultants?|staffing|temporary staff|candidates|job seekers)\b/i,
    signals: null,
  },
  {
    key: "finance",
    kind: "sector",
    words:
      /\b(?:financial advisers|financial advisors|ifas|mortgage brokers|insurance brokers|insurers|lenders|fintechs?|financial services (?:firms|companies))\b/i,
    sic: ["64", "65", "66"],
    sicLabel: "SIC 64–66 Financial and insurance activities",
    self: /\b(?:financial advice|financial adviser|mortgages?|insurance|wealth management|pensions|investments?)\b/i,
    signals: /\bfca\b|financial conduct/i,
  },
  {
    key: "motor",
    kind: "sector",
    words: /\b(?:garages|car dealers|car dealerships|dealerships|motor trade|mechanics|body shops)\b/i,
    sic: ["45"],
    sicLabel: "SIC 45 Sale and repair of motor vehicles",
    self: /\b(?:garage|mot|car servicing|vehicle repairs?|car sales|used cars|bodywork)\b/i,
    signals: null,
  },
  {
    key: "cleaning",
    kind: "sector",
    words: /\b(?:cleaning (?:companies|firms|businesses)|facilities management (?:companies|firms)|cleaners)\b/i,
    sic: ["811", "812"],
    sicLabel: "SIC 811 Combined facilities support and 812 Cleaning activities",
    self: /\b(?:cleaning services|commercial cleaning|office cleaning|facilities management|cleaners)\b/i,
    signals: null,
  },
  {
    key: "startups",
    kind: "stage",
    words:
      /\b(?:start-?ups|new(?:ly (?:formed|incorporated|registered))? (?:businesses|companies|limited companies|ventures)|founders|early[- ]stage (?:businesses|companies))\b/i,
    sic: [],
    sicLabel: "",
    self: null,
    signals: null,
  },
];

/** Staff ranges by size word (the Companies Act size thresholds by employees: micro ≤10, small ≤50, medium ≤250). */
type Range = [number, number];
const INF = Number.POSITIVE_INFINITY;
const SIZE_WORDS: { words: RegExp; range: Range; label: string }[] = [
  {
    words: /\b(?:micro[- ]?(?:businesses|enterprises|companies|firms)|sole traders|freelancers|one-person businesses|the self-employed)\b/i,
    range: [0, 10],
    label: "micro businesses (up to 10 staff)",
  },
  {
    words: /\b(?:smes?|small and medium(?:-sized)? (?:businesses|enterprises|companies|firms)|small (?:&|and) medium(?:-sized)? (?:businesses|enterprises))\b/i,
    range: [0, 250],
    label: "SMEs (up to 250 staff)",
  },
  {
    words: /\b(?:small (?:businesses|firms|companies|teams|practices)|smaller (?:businesses|firms|companies))\b/i,
    range: [0, 50],
    label: "small businesses (up to 50 staff)",
  },
  {
    words: /\b(?:mid-?sized?(?: businesses| companies| firms)?|medium-sized (?:businesses|companies|firms)|mid-market)\b/i,
    range: [51, 250],
    label: "medium-sized businesses (51 to 250 staff)",
  },
  {
    words: /\b(?:enterprises|large (?:businesses|companies|organisations|organizations|firms|employers)|corporates|corporations|plcs)\b/i,
    range: [251, INF],
    label: "large businesses (over 250 staff)",
  },
];
const STAFF = "(?:staff|employees|people|workers|team members|headcount)";

/** UK regions → postcode areas (approximate: a few areas straddle a boundary; the registered office's postcode decides). */
export const REGIONS: readonly { name: string; words: RegExp; areas: string[] }[] = [
  {
    name: "London",
    words: /\b(?:greater )?london\b/i,
    areas: ["E", "EC", "N", "NW", "SE", "SW", "W", "WC", "BR", "CR", "EN", "HA", "IG", "KT", "RM", "SM", "TW", "UB", "DA"],
  },
  {
    name: "South East",
    words: /\bsouth[- ]east(?: england| of england)?\b/i,
    areas: ["BN", "CT", "GU", "ME", "MK", "OX", "PO", "RG", "RH", "SL", "SO", "TN", "HP"],
  },
  { name: "South West", words: /\bsouth[- ]west(?: england| of england)?\b/i, areas: ["BA", "BH", "BS", "DT", "EX", "GL", "PL", "SN", "SP", "TA", "TQ", "TR"] },
  { name: "East of England", words: /\b(?:east of england|east anglia)\b/i, areas: ["AL", "CB", "CM", "CO", "IP", "LU", "NR", "PE", "SG", "SS", "WD"] },
  { name: "East Midlands", words: /\beast midlands\b/i, areas: ["DE", "LE", "LN", "NG", "NN"] },
  { name: "West Midlands", words: /\bwest midlands\b/i, areas: ["B", "CV", "DY", "HR", "ST", "TF", "WR", "WS", "WV"] },
  { name: "Midlands", words: /\b(?<!(?:east|west) )midlands\b/i, areas: ["DE", "LE", "LN", "NG", "NN", "B", "CV", "DY", "HR", "ST", "TF", "WR", "WS", "WV"] },
  { name: "Yorkshire and the Humber", words: /\byorkshire(?: and the humber)?\b/i, areas: ["BD", "DN", "HD", "HG", "HU", "HX", "LS", "S", "WF", "YO"] },
  {
    name: "North West",
    words: /\bnorth[- ]west(?: england| of england)?\b/i,
    areas: ["BB", "BL", "CA", "CH", "CW", "FY", "L", "LA", "M", "OL", "PR", "SK", "WA", "WN"],
  },
  { name: "North East", words: /\bnorth[- ]east(?: england| of england)?\b/i, areas: ["DH", "DL", "NE", "SR", "TS"] },
  { name: "Wales", words: /\bwales\b/i, areas: ["CF", "LD", "LL", "NP", "SA"] },
  { name: "Scotland", words: /\bscotland\b/i, areas: ["AB", "DD", "DG", "EH", "FK", "G", "HS", "IV", "KA", "KW", "KY", "ML", "PA", "PH", "TD", "ZE"] },
  { name: "Northern Ireland", words: /\bnorthern ireland\b/i, areas: ["BT"] },
];
/** A region's name in a sentence ("the North West", "Wales"). */
const inRegion = (name: string) => (/^(?:North|South|East|West|Midlands)/.test(name) ? `the ${name}` : name);
const NATIONAL = /^(?:the )?(?:uk|united kingdom|britain|great britain|england|gb)$/i;

export type NeedKey =
  | "hiring"
  | "visas"
  | "accounts"
  | "new-business"
  | "tenders"
  | "care-quality"
  | "accessibility"
  | "website"
  | "cash-flow"
  | "growth"
  | "sustainability"
  | "compliance";

/** What an offer may be about, and the offer's words for it. The evidence each one looks for is in `NEED_EVIDENCE`. */
export const NEEDS: readonly { key: NeedKey; label: string; words: RegExp }[] = [
  {
    key: "hiring",
    label: "hiring",
    words:
      /\b(?:recruit\w*|hiring|hire\s+(?:staff|people|talent|employees|workers|nurses|\w+(?:ists|ers|ors|als|ians))|staffing|talent acquisition|candidates|job (?:ads|adverts|boards|postings)|vacanc\w*|onboarding|applicant tracking)\b/i,
  },
  { key: "visas", label: "visas and sponsorship", words: /\b(?:visas?|sponsor licen[cs]es?|sponsorship|immigration|right to work|skilled worker)\b/i },
  {
    key: "accounts",
    label: "accounts and filings",
    words:
      /\b(?:accounting|accountancy|bookkeeping|book-keeping|year[- ]end accounts|annual accounts|statutory accounts|tax returns?|corporation tax|vat returns?|payroll|company secretar\w*|confirmation statements?|filings?)\b/i,
  },
  {
    key: "new-business",
    label: "setting up a business",
    words:
      /\b(?:company formations?|business formations?|set(?:ting)? up (?:a |your )?(?:company|business)|launch(?:ing)? (?:a |your )?business|business bank accounts?)\b/i,
  },
  {
    key: "tenders",
    label: "public tenders",
    words: /\b(?:tenders?|tendering|bid writing|bids|bidding|procurement|public sector (?:contracts|work|buyers)|government contracts|frameworks)\b/i,
  },
  {
    key: "care-quality",
    label: "care quality (CQC)",
    words: /\b(?:cqc|care quality|care compliance|care planning|care management|emar|care software|care rostering)\b/i,
  },
  { key: "accessibility", label: "website accessibility", words: /\b(?:accessibility|accessible websites?|wcag|inclusive design|screen readers?)\b/i },
  {
    key: "website",
    label: "websites and online marketing",
    words: /\b(?:web ?sites?|web design|seo|search engine|digital marketing|online marketing|social media|google ads|ppc|branding)\b/i,
  },
  {
    key: "cash-flow",
    label: "cash flow and finance",
    words:
      /\b(?:cash ?flow|invoice finance|invoice factoring|factoring|business loans?|funding|lending|credit control|late payments?|debt recovery|working capital)\b/i,
  },
  { key: "growth", label: "growth", words: /\b(?:growth|growing|scale[- ]?ups?|scaling|expansion|expanding)\b/i },
  {
    key: "sustainability",
    label: "sustainability and net zero",
    words: /\b(?:sustainab\w*|net[- ]zero|carbon|esg|emissions|decarboni[sz]\w*|energy efficien\w*)\b/i,
  },
  {
    key: "compliance",
    label: "regulatory compliance",
    words: /\b(?:compliance|regulat\w*|gdpr|data protection|health and safety|anti-money laundering|aml)\b/i,
  },
];

// ---------------------------------------------------------------------------------------------------------------
// readOffer
// ---------------------------------------------------------------------------------------------------------------

export interface OfferAudience {
  key: string;
  kind: AudienceKind;
  /** The offer's own words for it. */
  matched: string;
  /** The SIC 2007 code prefixes it maps to (empty for a stage or type). */
  sic: string[];
}
export interface OfferSize {
  matched: string;
  label: string;
  /** Staff range; `max` null for no upper bound. */
  min: number;
  max: number | null;
}
export interface OfferPlace {
  matched: string;
  /** The place as named ("Bristol", "North West"). */
  name: string;
  /** The region of the table, when the place is one. */
  region: string | null;
}
export interface OfferNeed {
  key: NeedKey;
  label: string;
  matched: string;
}
export interface OfferRead {
  /** What is sold: the offer's words before the audience, size or place it names. */
  what: string;
  /** Key terms (stems) of what is sold. */
  terms: string[];
  audiences: OfferAudience[];
  sizes: OfferSize[];
  places: OfferPlace[];
  /** National words ("across the UK"): no place constraint. */
  national: boolean;
  needs: OfferNeed[];
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

/** What is sold and to whom, read from the offer's words with the tables above. */
export function readOffer(offer: string): OfferRead {
  const text = collapse(offer);
  const spans: { at: number; end: number }[] = [];
  const take = (m: RegExpExecArray | RegExpMatchArray | null) => {
    if (m && m.index !== undefined) spans.push({ at: m.index, end: m.index + m[0].length });
    return m;
  };

  const audiences: OfferAudience[] = [];
  for (const a of AUDIENCES) {
    const all = [...text.matchAll(new RegExp(a.words.source, "gi"))];
    for (const m of all) take(m);
    if (all.length) audiences.push({ key: a.key, kind: a.kind, matched: all[0][0], sic: a.sic });
  }

  const sizes: OfferSize[] = [];
  for (const s of SIZE_WORDS) {
    const m = take(text.match(s.words));
    if (m) sizes.push({ matched: m[0], label: s.label, min: s.range[0], max: s.range[1] === INF ? null : s.range[1] });
  }
  const count = (re: string, min: (a: number, b?: number) => number, max: (a: number, b?: number) => number | null, label: string) => {
    const m = take(text.match(new RegExp(re, "i")));
    if (!m) return;
    const a = Number(m[1].replace(/,/g, ""));
    const b = m[2] ? Number(m[2].replace(/,/g, "")) : undefined;
    sizes.push({ matched: m[0], label: `${label.replace("{a}", String(a)).replace("{b}", String(b))}`, min: min(a, b), max: max(a, b) });
  };
  count(
    `\\b(\\d[\\d,]*)\\s*(?:-|–|to)\\s*(\\d[\\d,]*)\\s*${STAFF}`,
    (a) => a,
    (_a, b) => b ?? null,
    "{a} to {b} staff",
  );
  count(
    `\\b(\\d[\\d,]*)\\s*\\+\\s*${STAFF}`,
    (a) => a,
    () => null,
    "{a} or more staff",
  );
  count(
    `\\b(?:over|more than|at least)\\s+(\\d[\\d,]*)\\s*${STAFF}`,
    (a) => a,
    () => null,
    "{a} or more staff",
  );
  count(
    `\\b(?:under|fewer than|less than|up to)\\s+(\\d[\\d,]*)\\s*${STAFF}`,
    () => 0,
    (a) => a,
    "up to {a} staff",
  );

  const places: OfferPlace[] = [];
  let national = false;
  for (const r of REGIONS) {
    const m = take(text.match(r.words));
    if (m && !(r.name === "Midlands" && places.some((p) => /Midlands/.test(p.name)))) places.push({ matched: m[0], name: r.name, region: r.name });
  }
  const word = "\\p{Lu}[\\p{L}'’-]+(?:[ -](?:upon|on|under|le|by|the|\\p{Lu}[\\p{L}'’-]+))*";
  const placeRe = new RegExp(
    `\\b(?:in|around|across|near|throughout|within|covering|serving)\\s+((?:the\\s+)?${word}(?:\\s+(?:and|&)\\s+${word})*)|\\b(\\p{Lu}[\\p{L}'’-]+)-based\\b`,
    "gu",
  );
  for (const m of text.matchAll(placeRe)) {
    for (const part of (m[1] ?? m[2]).split(/\s+(?:and|&)\s+/)) {
      const name = part.replace(/^the\s+/i, "");
      // A capitalised audience or product word after "in" is not a place ("in Legal", "in SEO").
      if (AUDIENCES.some((a) => a.words.test(name)) || /^(?:SEO|IT|HR|AI|PR|VAT|CQC|WCAG|GDPR)$/.test(name)) continue;
      take(m);
      if (NATIONAL.test(name)) national = true;
      else if (!places.some((p) => p.name.toLowerCase() === name.toLowerCase())) places.push({ matched: m[0], name, region: null });
    }
  }
  if (/\b(?:across|throughout) the (?:uk|united kingdom|country)\b|\bnationwide\b|\buk-wide\b/i.test(text)) national = true;

  const needs: OfferNeed[] = [];
  for (const n of NEEDS) {
    const m = text.match(n.words);
    if (m) needs.push({ key: n.key, label: n.label, matched: m[0] });
  }

  // The offer without its audience, size and place phrases.
  let rest = text;
  for (const s of [...spans].sort((a, b) => b.at - a.at)) rest = rest.slice(0, s.at) + " ".repeat(Math.max(0, s.end - s.at)) + rest.slice(s.end);

  // What is sold: the words before the first audience, size or place phrase (else the words left once those are
  // taken out), without a leading "We help" / "I sell" or trailing connectors.
  const tidy = (s: string) =>
    collapse(s)
      .replace(/[.!]+$/, "")
      .replace(/^(?:we|i)\s+(?:help|offer|sell|provide|supply|build|make|do|deliver|run)(?:\s+|$)/i, "")
      .replace(/^(?:(?:for|to|with|in|across|the|and|who|that|at)\b[\s,]*)+/i, "")
      .replace(/[\s,;:–-]*(?:\b(?:for|to|in|across|aimed at|serving|who|that|with|and|at|the)\b[\s,;:–-]*)*$/i, "")
      .trim();
  const first = spans.length ? Math.min(...spans.map((s) => s.at)) : text.length;
  const head = tidy(text.slice(0, first));
  const what = lowerFirst(head.length >= 3 ? head : tidy(rest).length >= 3 ? tidy(rest) : collapse(text)).slice(0, 160);

  // Terms: the words of the offer outside the audience, size and place phrases, generic words left out.
  const terms = [
    ...new Set(
      tokens(rest)
        .flatMap((t) => t.split("-"))
        .map(stem),
    ),
  ].filter((t) => t.length >= 3 && !GENERIC.has(t) && !/^\d/.test(t));

  return { what, terms, audiences, sizes, places, national, needs };
}

// ---------------------------------------------------------------------------------------------------------------
// assessFit
// ---------------------------------------------------------------------------------------------------------------

export type FitBand = "strong" | "possible" | "weak";

export interface FitReason {
  /** The rule's finding in words, naming the fact. */
  reason: string;
  /** Points added (or taken away, negative). */
  points: number;
  fact: Fact;
}
export interface SignalForYou {
  code: string;
  label: string;
  kind: SignalKind;
  /** How the fact bears on the offer (what the offer is about and the fact), never what the business thinks. */
  whyItMatters: string;
  fact: Fact;
}
export interface WatchOut {
  text: string;
  fact: Fact;
}
export interface FitAssessment {
  fitScore: number;
  fitBand: FitBand;
  fitReasons: FitReason[];
  signalsForYou: SignalForYou[];
  approachAngle: { text: string; facts: Fact[] };
  /** Sentences of fact, in the second person, that an opener may use as they are. */
  openerFacts: string[];
  watchOuts: WatchOut[];
  /** What the rules could not weigh (nothing to compare with), in words. */
  notWeighed: string[];
  offerRead: OfferRead;
  method: string;
}

export interface AssessInput {
  profile: BusinessProfile;
  register: RegisterFacts | null;
  site: SiteFacts | null;
  offer: string;
  /** `YYYY-MM-DD`. */
  today: string;
}

/** Band thresholds on the score. */
export const FIT_BANDS = { strong: 60, possible: 35 } as const;

/** The rules in words (the operation's description and the reply's `method`). */
export const FIT_METHOD = [
  "The score adds fixed points from rules, each resting on one fact of the verified profile (the field, its value and its source), then is held between 0 and 100.",
  "Sector: a registered SIC code under the SIC 2007 code prefixes of an audience the offer names +45; else a register signal of that sector (CQC, SRA, Ofsted) +35, the profile's sector +30, the business's own description +25; an audience named that none of these shows -15 (-10 when only the description could be compared).",
  "Stage: an offer for new businesses +35 when incorporated under 24 months ago, +10 under 36 months, -15 when older. Charities: a charitable company type +40, a description as a charity +30.",
  "What is sold: +6 for each key word of the offer found in what the business says it does (at most +18); not counted, and shown as a watch-out, when two or more are shared and the sector the offer names is not shown.",
  "What the offer is about: +20 for a register or website fact that bears on it (a careers page for hiring, overdue filings for accounts, recent incorporation for setting up, won public contracts for tenders, CQC registration for care quality, a sponsor licence for visas), +10 for an indirect one (a website for web offers); at most +40 in all.",
  "Size words: +10 when the accounts type's staff range overlaps the offer's, -10 when it does not. Place: +10 when the registered office is in the town or region named; -5 when its postcode area is outside the region named; a town the address does not name is not weighed (a county, district or trading address may).",
  "Status: dissolved -60 (score at most 5), in liquidation, receivership or insolvency -50 (at most 15), in administration -40 (at most 20), a proposal to strike off -30 (at most 30), dormant -20 (at most 40), a voluntary arrangement -15, accounts or confirmation statement overdue -5 each (0 when the offer is about accounts and filings).",
  `Bands: strong ${FIT_BANDS.strong}+, possible ${FIT_BANDS.possible}–${FIT_BANDS.strong - 1}, weak below ${FIT_BANDS.possible}.`,
  "The score measures how far the offer matches recorded facts; it makes no forecast of the business's reaction, and no fact outside the profile is used.",
].join(" ");

/** Where a fact comes from, by field. */
function sourceOf(field: string, x: AssessInput): string {
  const { profile, site } = x;
  const web = profile.website ? `website: ${profile.website}` : site ? `website: ${site.url}` : "website";
  const sig = field.match(/^profile\.signals\[(\d+)\]/);
  if (sig) return profile.signals[Number(sig[1])].source;
  if (field === "site.careersUrl") return `website: ${site?.careersUrl}`;
  if (field.startsWith("site.")) return site ? `website: ${site.url}` : "website";
  // A register fact taken from the monthly bulk file says so, with the file's date (issue 28 §2).
  const rec = x.register?.record;
  const key = /^(?:register|profile)\.(\w+)/.exec(field)?.[1] ?? "";
  const fromFile = !!rec && (rec.fromBulkFile.includes(key) || (key === "registerSource" && rec.source === "bulk-file"));
  if (fromFile) return `companies register (the Basic Company Data file${rec!.bulkFileDate ? ` of ${rec!.bulkFileDate}` : ""})`;
  if (field.startsWith("register.")) return "companies register";
  if (/^profile\.(?:sicCodes|status|incorporationDate|companyNumber|registerSource)/.test(field)) return "companies register";
  if (field === "profile.sizeSignal") {
    const e = x.register?.employees;
    return `companies register (accounts type${e?.average != null ? ", average employees in the filed accounts" : ""}, officers counted)${e?.band ? "; gender pay gap report (headcount band)" : ""}`;
  }
  if (field === "profile.whatTheyDo") return profile.whatTheyDo?.startsWith("Registered activit") ? "companies register" : web;
  if (field.startsWith("profile.services")) return site?.offerings.length || !profile.companyNumber ? web : "companies register";
  if (field === "profile.website") return web;
  if (/^profile\.(?:confidence|registryNote|alternatives|accuracy)/.test(field)) return "identity check (enrichment)";
  return "enrichment profile";
}

/** The texts in which the business says what it does, each with its field. */
function selfTexts(x: AssessInput): { field: string; value: string }[] {
  const out: { field: string; value: string }[] = [];
  const { profile, site } = x;
  if (profile.whatTheyDo) out.push({ field: "profile.whatTheyDo", value: profile.whatTheyDo });
  (profile.services ?? []).forEach((s, i) => out.push({ field: `profile.services[${i}]`, value: s }));
  if (site) {
    if (site.description && site.description !== profile.whatTheyDo) out.push({ field: "site.description", value: site.description });
    site.headings.slice(0, 12).forEach((h, i) => out.push({ field: `site.headings[${i}]`, value: h }));
    site.offerings.forEach((o, i) => {
      if (!(profile.services ?? []).includes(o)) out.push({ field: `site.offerings[${i}]`, value: o });
    });
  }
  return out;
}

const fmtCodes = (codes: string[], r: RegisterFacts | null) =>
  codes.map((c) => (r?.sicDescriptions[c] ? `${c} (${collapse(r.sicDescriptions[c])})` : c)).join(", ");

/** Staff range of the profile: from the size signal's band, else the register's accounts type. */
function profileRange(x: AssessInput): { range: Range; fact: Fact; words: string } | null {
  const band = (t: string): Range | null => {
    const s = t.toLowerCase();
    // The first count stated (the accounts' average comes before a gender pay gap band in the size signal).
    const ranged = s.match(/(\d[\d,]*)\s*(?:-|–|to)\s*(\d[\d,]*)\s*(?:staff|employees)/);
    const single = s.match(/(\d[\d,]*)\s*(?:staff|employees)/);
    const n = ranged && (!single || ranged.index! <= single.index!) ? ranged : single;
    if (n) return [Number(n[1].replace(/,/g, "")), Number((n[2] ?? n[1]).replace(/,/g, ""))];
    // The enrichment's sizeSignal starts with its band ("small: …"); the register's accounts type is words.
    const lead = s.match(/^(micro|small|medium or large|medium|large|dormant)\b/)?.[1];
    if (lead)
      return lead === "dormant"
        ? null
        : ({ micro: [0, 10], small: [0, 50], "medium or large": [51, INF], medium: [51, 250], large: [251, INF] } as Record<string, Range>)[lead];
    if (/^dormant|size not stated/.test(s)) return null;
    if (/\bfull\b/.test(s)) return [51, INF];
    if (/micro/.test(s)) return [0, 10];
    if (/^small|small|total exemption|abridged|audit exemption/.test(s)) return [0, 50];
    if (/medium/.test(s)) return [51, 250];
    if (/^large|group/.test(s)) return [251, INF];
    return null;
  };
  const p = x.profile.sizeSignal;
  if (p && band(p))
    return { range: band(p)!, fact: { field: "profile.sizeSignal", value: p, source: sourceOf("profile.sizeSignal", x) }, words: p.split(":")[0] };
  const t = x.register?.lastAccountsType;
  if (t && band(t)) return { range: band(t)!, fact: { field: "register.lastAccountsType", value: t, source: "companies register" }, words: `${t} accounts` };
  return null;
}

interface Evidence {
  code: string;
  label: string;
  kind: SignalKind;
  fact: Fact;
  points: number;
  /** The fact in the second person, for an opener. */
  statement: string;
}

/** The profile's signals whose code (or source) matches. */
function signalsMatching(x: AssessInput, re: RegExp): { s: Signal; i: number }[] {
  return x.profile.signals.map((s, i) => ({ s, i })).filter(({ s }) => re.test(s.code) || re.test(s.source));
}
const signalFact = (x: AssessInput, i: number): Fact => ({
  field: `profile.signals[${i}].label`,
  value: x.profile.signals[i].label,
  source: x.profile.signals[i].source,
});
const fromSignal = (x: AssessInput, i: number, points: number, statement: string): Evidence => {
  const s = x.profile.signals[i];
  return { code: s.code, label: s.label, kind: s.kind, fact: signalFact(x, i), points, statement };
};

/** Months since incorporation, with its fact, when known. */
function incorporated(x: AssessInput): { months: number; fact: Fact } | null {
  const date = x.register?.incorporationDate ?? x.profile.incorporationDate ?? null;
  if (!date || !/^\d{4}-\d{2}-\d{2}/.test(date) || date > x.today) return null;
  const field = x.register?.incorporationDate ? "register.incorporationDate" : "profile.incorporationDate";
  return { months: monthsBetween(date, x.today), fact: { field, value: date, source: "companies register" } };
}

/** The facts each thing an offer may be about rests on (best first). */
const NEED_EVIDENCE: Record<NeedKey, (x: AssessInput) => Evidence[]> = {
  hiring: (x) => {
    const out = signalsMatching(x, /^(?:hiring|careers|vacanc|jobs?\b|recruit)/i).map(({ i }) =>
      fromSignal(x, i, 20, "Your website links a careers or jobs page."),
    );
    if (!out.length && x.site?.careersUrl)
      out.push({
        code: "hiring",
        label: "The website has a careers or jobs page",
        kind: "opportunity",
        points: 20,
        statement: "Your website links a careers or jobs page.",
        fact: { field: "site.careersUrl", value: x.site.careersUrl, source: sourceOf("site.careersUrl", x) },
      });
    return out;
  },
  visas: (x) => signalsMatching(x, /sponsor/i).map(({ i }) => fromSignal(x, i, 20, "Your company is on the Home Office register of licensed sponsors.")),
  accounts: (x) => {
    const out = signalsMatching(x, /accounts-overdue|confirmation-statement-overdue/).map(({ s, i }) =>
      fromSignal(
        x,
        i,
        20,
        s.code === "accounts-overdue"
          ? "The companies register shows your accounts as overdue."
          : "The companies register shows your confirmation statement as overdue.",
      ),
    );
    if (!out.length && x.register?.accountsOverdue)
      out.push({
        code: "accounts-overdue",
        label: "Accounts are overdue at Companies House",
        kind: "risk",
        points: 20,
        statement: "The companies register shows your accounts as overdue.",
        fact: { field: "register.accountsOverdue", value: true, source: "companies register" },
      });
    if (!out.length && x.register?.confirmationStatementOverdue)
      out.push({
        code: "confirmation-statement-overdue",
        label: "The confirmation statement is overdue at Companies House",
        kind: "risk",
        points: 20,
        statement: "The companies register shows your confirmation statement as overdue.",
        fact: { field: "register.confirmationStatementOverdue", value: true, source: "companies register" },
      });
    return out;
  },
  "new-business": (x) => {
    const out = signalsMatching(x, /^recently-incorporated$/).map(({ i }) =>
      fromSignal(x, i, 20, `Your company was incorporated on ${x.register?.incorporationDate ?? x.profile.incorporationDate ?? "a recent date"}.`),
    );
    const inc = incorporated(x);
    if (!out.length && inc && inc.months < 24)
      out.push({
        code: "recently-incorporated",
        label: `Incorporated ${inc.months} months ago (${inc.fact.value})`,
        kind: "opportunity",
        points: 20,
        statement: `Your company was incorporated on ${inc.fact.value}.`,
        fact: inc.fact,
      });
    return out;
  },
  tenders: (x) =>
    signalsMatching(x, /contract|tender|award|procure/i).map(({ i }) => fromSignal(x, i, 20, "Public contract award records list your company as a supplier.")),
  // The registration (a rating below Good, cqc-rating-concern, is a risk: a watch-out, never "registered" twice).
  "care-quality": (x) =>
    signalsMatching(x, /^cqc-registered$/).map(({ i }) => fromSignal(x, i, 20, "Your service is registered with the Care Quality Commission.")),
  accessibility: (x) => [
    ...signalsMatching(x, /accessib|wcag/i).map(({ i }) => fromSignal(x, i, 20, `${x.profile.signals[i].label}.`)),
    ...(x.profile.website
      ? [
          {
            code: "has-website",
            label: `Website: ${x.profile.website}`,
            kind: "info" as const,
            points: 10,
            statement: `Your website is ${x.profile.website}.`,
            fact: { field: "profile.website", value: x.profile.website, source: sourceOf("profile.website", x) },
          },
        ]
      : []),
  ],
  website: (x) =>
    x.profile.website
      ? [
          {
            code: "has-website",
            label: `Website: ${x.profile.website}`,
            kind: "info",
            points: 10,
            statement: `Your website is ${x.profile.website}.`,
            fact: { field: "profile.website", value: x.profile.website, source: sourceOf("profile.website", x) },
          },
        ]
      : [],
  "cash-flow": (x) => [
    // A new report of slow payment weighs more than the figures of one that meets the test.
    ...signalsMatching(x, /late-pay|payment|paid|charge|mortgage/i).map(({ s, i }) =>
      fromSignal(x, i, s.code === "payment-practices-report" ? 10 : 20, `${x.profile.signals[i].label}.`),
    ),
    ...signalsMatching(x, /contract|tender|award/i).map(({ i }) => fromSignal(x, i, 10, "Public contract award records list your company as a supplier.")),
  ],
  growth: (x) => [...NEED_EVIDENCE.hiring(x).map((e) => ({ ...e, points: 10 })), ...NEED_EVIDENCE.tenders(x).map((e) => ({ ...e, points: 10 }))],
  sustainability: (x) => [
    ...signalsMatching(x, /carbon|net-zero|sustainab|esg|emission/i).map(({ i }) => fromSignal(x, i, 20, `${x.profile.signals[i].label}.`)),
    ...NEED_EVIDENCE.tenders(x).map((e) => ({ ...e, points: 10 })),
  ],
  compliance: (x) => [
    // Being listed, never a risk the register gives (a rating concern is a watch-out).
    ...signalsMatching(x, /\bcqc\b|sponsor|\bsra\b|\bfca\b|ofsted|\bico\b|\bmlr\b|money laundering/i)
      .filter(({ s }) => s.kind !== "risk")
      .map(({ s, i }) => fromSignal(x, i, 20, `Your business is listed: ${s.label.replace(/\.$/, "")} (${s.source}).`)),
    ...NEED_EVIDENCE.accounts(x).map((e) => ({ ...e, points: 10 })),
  ],
};

const NEED_WHY: Record<NeedKey, string> = {
  hiring: "Your offer is about hiring, and this fact is about their recruiting.",
  visas: "Your offer is about visas and sponsorship, and they hold a sponsor licence.",
  accounts: "Your offer is about accounts and filings, and the register records this filing as late.",
  "new-business": "Your offer is about setting up a business, and the company is newly incorporated.",
  tenders: "Your offer is about public tenders, and they already supply public buyers.",
  "care-quality": "Your offer is about care quality, and they are on the CQC register.",
  accessibility: "Your offer is about website accessibility, and this is their website.",
  website: "Your offer is about websites or online marketing, and this is their website.",
  "cash-flow": "Your offer is about cash flow or finance, and this fact is about their payments, borrowing or contracts.",
  growth: "Your offer is about growth, and this fact records hiring or new contracts.",
  sustainability:
    "Your offer is about sustainability and net zero, and this fact bears on it (central government buyers ask suppliers on large contracts for a carbon reduction plan).",
  compliance: "Your offer is about compliance, and this fact records a register or filing duty they have.",
};

/** What the rules collect as they run: reasons (each with its fact), signals, watch-outs, caps on the score. */
class Tally {
  reasons: FitReason[] = [];
  signals: SignalForYou[] = [];
  watchOuts: WatchOut[] = [];
  notWeighed: string[] = [];
  /** Facts an opener may use: the positive reasons' facts, as second-person sentences. */
  openers: { points: number; statement: string; fact: Fact }[] = [];
  caps: number[] = [];
  constructor(readonly x: AssessInput) {}
  fact(field: string, value: FactValue): Fact {
    return { field, value, source: sourceOf(field, this.x) };
  }
  add(reason: string, points: number, fact: Fact, statement?: string) {
    this.reasons.push({ reason, points, fact });
    if (statement && points > 0) this.openers.push({ points, statement, fact });
  }
  /** A risk: points (maybe 0), a watch-out, and a cap on the score. */
  risk(text: string, points: number, cap: number | null, fact: Fact) {
    if (points) this.add(text, points, fact);
    this.watchOuts.push({ text, fact });
    if (cap !== null) this.caps.push(cap);
  }
}

type Candidate = { points: number; reason: string; fact: Fact; statement?: string };
const quoted = (audiences: OfferAudience[]) => audiences.map((a) => `"${a.matched}"`).join(", ");

/** Sector audiences: the best of SIC code, sector register, profile sector, own words; a mismatch costs points. Returns whether one matched. */
function weighSector(t: Tally, offer: OfferRead): boolean {
  const { profile, register } = t.x;
  const named = offer.audiences.filter((a) => a.kind === "sector");
  if (!named.length) return false;
  const sicCodes = profile.sicCodes ?? [];
  const texts = selfTexts(t.x);
  const candidates: Candidate[] = [];
  for (const a of named) {
    const rule = AUDIENCES.find((r) => r.key === a.key)!;
    sicCodes.forEach((code, i) => {
      if (!rule.sic.some((p) => code.startsWith(p))) return;
      const desc = register?.sicDescriptions[code] ? ` (${collapse(register.sicDescriptions[code])})` : "";
      candidates.push({
        points: 45,
        reason: `Registered SIC code ${code}${desc} falls under ${rule.sicLabel}, the sector of the audience your offer names ("${a.matched}").`,
        fact: t.fact(`profile.sicCodes[${i}]`, code),
        statement: `Your company is registered under SIC code ${code}${desc}.`,
      });
    });
    if (rule.signals)
      for (const { s, i } of signalsMatching(t.x, rule.signals))
        candidates.push({
          points: 35,
          reason: `${s.label} (${s.source}): a register of the sector your offer names ("${a.matched}").`,
          fact: signalFact(t.x, i),
          statement: `${s.label}.`,
        });
    if (rule.self && profile.sector && rule.self.test(profile.sector))
      candidates.push({
        points: 30,
        reason: `The profile's sector "${profile.sector}" is the audience your offer names ("${a.matched}").`,
        fact: t.fact("profile.sector", profile.sector),
      });
    const own = rule.self ? texts.find((x) => rule.self!.test(x.value)) : undefined;
    if (own)
      candidates.push({
        points: 25,
        reason: `The business describes itself with "${own.value.match(rule.self!)![0]}", the audience your offer names ("${a.matched}").`,
        fact: t.fact(own.field, own.value),
      });
  }
  const best = candidates.reduce<Candidate | null>((b, c) => (!b || c.points > b.points ? c : b), null);
  if (best) {
    t.add(best.reason, best.points, best.fact, best.statement);
    return true;
  }
  const real = sicCodes.filter((c) => c !== "74990" && c !== "99999");
  if (real.length) {
    const plural = real.length > 1;
    t.add(
      `Your offer names ${quoted(named)}; the registered SIC code${plural ? "s" : ""} ${fmtCodes(real, register)} ${plural ? "are" : "is"} outside it.`,
      -15,
      t.fact(`profile.sicCodes[${sicCodes.indexOf(real[0])}]`, real[0]),
    );
  } else if (profile.whatTheyDo)
    t.add(
      `Your offer names ${quoted(named)}; what the business says it does does not name that sector.`,
      -10,
      t.fact("profile.whatTheyDo", profile.whatTheyDo),
    );
  else t.notWeighed.push("Sector: the profile has no SIC code or description to compare with the audience your offer names.");
  return false;
}

/** Stage (new businesses, by the incorporation date) and type (charities) audiences. */
function weighStageAndType(t: Tally, offer: OfferRead) {
  const { register } = t.x;
  for (const a of offer.audiences.filter((a) => a.kind === "stage")) {
    const inc = incorporated(t.x);
    if (!inc) {
      t.notWeighed.push(`Stage: your offer names "${a.matched}", and the profile has no incorporation date.`);
      continue;
    }
    const age = inc.months < 24 ? `${inc.months} month${inc.months === 1 ? "" : "s"}` : `${Math.floor(inc.months / 12)} years`;
    if (inc.months < 24)
      t.add(
        `Incorporated ${inc.fact.value} (${age} ago): a new business, as your offer names ("${a.matched}").`,
        35,
        inc.fact,
        `Your company was incorporated on ${inc.fact.value}.`,
      );
    else if (inc.months < 36) t.add(`Incorporated ${inc.fact.value} (${age} ago): past its second year, your offer names "${a.matched}".`, 10, inc.fact);
    else t.add(`Incorporated ${inc.fact.value} (${age} ago): not a new business, and your offer names "${a.matched}".`, -15, inc.fact);
  }
  for (const a of offer.audiences.filter((a) => a.kind === "type")) {
    const rule = AUDIENCES.find((r) => r.key === a.key)!;
    const sig = rule.signals ? signalsMatching(t.x, rule.signals)[0] : undefined;
    const own = rule.self ? selfTexts(t.x).find((x) => rule.self!.test(x.value)) : undefined;
    if (register?.type && /charit/i.test(register.type))
      t.add(
        `Company type "${register.type}": a charity, as your offer names ("${a.matched}").`,
        40,
        t.fact("register.type", register.type),
        "Your organisation is registered as a charitable company.",
      );
    else if (sig) t.add(`${sig.s.label} (${sig.s.source}): a charity, as your offer names ("${a.matched}").`, 40, signalFact(t.x, sig.i), `${sig.s.label}.`);
    else if (own)
      t.add(
        `The business describes itself as a charity ("${own.value.match(rule.self!)![0]}"), as your offer names ("${a.matched}").`,
        30,
        t.fact(own.field, own.value),
      );
    else t.notWeighed.push(`Type: nothing in the profile says whether it is one of the "${a.matched}" your offer names.`);
  }
  if (!offer.audiences.length) t.notWeighed.push("Audience: your offer names no sector, stage or type of business, so the sector rules were not applied.");
}

/** What is sold ↔ what they say they do: shared key words; a possible competitor when the named sector is not shown. */
function weighTerms(t: Tally, offer: OfferRead, sectorShown: boolean) {
  const texts = selfTexts(t.x);
  const wordOf = new Map<string, string>();
  for (const w of tokens(t.x.offer).flatMap((w) => w.split("-"))) if (!wordOf.has(stem(w))) wordOf.set(stem(w), w);
  const shared = offer.terms.flatMap((term) => {
    const hit = texts.find((x) => stems(x.value).has(term));
    return hit ? [{ word: wordOf.get(term) ?? term, ...hit }] : [];
  });
  if (!offer.terms.length) t.notWeighed.push("What is sold: no key word of the offer was left to compare with what the business does.");
  else if (!texts.length) t.notWeighed.push("What is sold: the profile has no description or services to compare with your offer.");
  if (shared.length >= 2 && offer.audiences.some((a) => a.kind === "sector") && !sectorShown) {
    t.watchOuts.push({
      text: `What they say they do shares ${shared.length} key words with your offer (${shared.map((s) => s.word).join(", ")}) while the sector your offer names is not shown: check they do not sell the same thing.`,
      fact: t.fact(shared[0].field, shared[0].value),
    });
    return;
  }
  for (const s of shared.slice(0, 3)) t.add(`Your offer's word "${s.word}" is in what the business says it does.`, 6, t.fact(s.field, s.value));
}

/** What the offer is about ↔ the profile's signals (one reason each, at most 40 points), and the named sector's registers. */
function weighNeeds(t: Tally, offer: OfferRead) {
  let total = 0;
  const seen = new Set<string>();
  for (const n of offer.needs) {
    const e = NEED_EVIDENCE[n.key](t.x)
      .sort((a, b) => b.points - a.points)
      .find((e) => !seen.has(e.fact.field));
    if (!e) continue;
    seen.add(e.fact.field);
    t.signals.push({ code: e.code, label: e.label, kind: e.kind, whyItMatters: NEED_WHY[n.key], fact: e.fact });
    const points = Math.min(e.points, 40 - total);
    if (points > 0) t.add(`${e.label}: your offer is about ${n.label} ("${n.matched}").`, points, e.fact, e.statement);
    total += Math.max(0, points);
  }
  if (offer.needs.length && !t.signals.length)
    t.notWeighed.push(`What the offer is about (${offer.needs.map((n) => n.label).join(", ")}): no profile fact bears on it.`);
  // Sector registers (CQC, SRA, Ofsted) are signals for an offer to that sector even when the offer names no topic.
  for (const a of offer.audiences.filter((a) => a.kind === "sector")) {
    const rule = AUDIENCES.find((r) => r.key === a.key)!;
    if (!rule.signals) continue;
    for (const { s, i } of signalsMatching(t.x, rule.signals)) {
      // A risk the register gives (a rating concern) is a watch-out, not the register listing them.
      if (s.kind === "risk" || t.signals.some((g) => g.fact.field === `profile.signals[${i}].label`)) continue;
      t.signals.push({
        code: s.code,
        label: s.label,
        kind: s.kind,
        whyItMatters: `Your offer names "${a.matched}", and this register lists businesses of that sector.`,
        fact: signalFact(t.x, i),
      });
    }
  }
}

/** Size words ↔ the accounts type's staff range; places ↔ the registered office (town in its address, region by postcode area). */
function weighSizeAndPlace(t: Tally, offer: OfferRead) {
  if (offer.sizes.length) {
    const mine = profileRange(t.x);
    const fits = mine && offer.sizes.find((s) => mine.range[0] <= (s.max ?? INF) && s.min <= mine.range[1]);
    if (!mine) t.notWeighed.push("Size: the profile has no accounts type or staff count to compare with the size your offer names.");
    else if (fits) t.add(`Size: ${mine.words} is within "${fits.matched}" (${fits.label}).`, 10, mine.fact);
    else t.add(`Size: ${mine.words} is outside ${offer.sizes.map((s) => `"${s.matched}" (${s.label})`).join(", ")}.`, -10, mine.fact);
  }
  if (!offer.places.length) return;
  const office = t.x.register?.registeredOffice ?? null;
  const postcode = office?.postcode ?? null;
  const area = postcode?.toUpperCase().match(/^([A-Z]{1,2})\d/)?.[1] ?? null;
  const towns = offer.places.filter((p) => !p.region);
  const regions = offer.places.filter((p) => p.region);
  const named = offer.places.map((p) => (p.region ? inRegion(p.name) : p.name)).join(", ");
  const inText = (name: string) => {
    const re = new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i");
    return re.test(office?.text ?? "") || re.test(office?.locality ?? "");
  };
  const townHit = towns.find((p) => inText(p.name));
  const regionHit = area ? regions.find((p) => REGIONS.find((r) => r.name === p.region)!.areas.includes(area)) : undefined;
  const textFact = () => t.fact("register.registeredOffice.text", office!.text);
  const postcodeFact = () => t.fact("register.registeredOffice.postcode", postcode);
  if (townHit)
    t.add(
      `The registered office (${office!.text}) is in ${townHit.name}, the place your offer names.`,
      10,
      textFact(),
      `Your registered office is in ${townHit.name}.`,
    );
  else if (regionHit) {
    const where = inRegion(regionHit.name);
    t.add(
      `The registered office's postcode ${postcode} (area ${area}) is in ${where}, the region your offer names.`,
      10,
      postcodeFact(),
      `Your registered office is in ${where}.`,
    );
  } else if (towns.length && office?.text)
    // A place name missing from an address is no proof the business is elsewhere (a county, a district, a trading address): not weighed.
    t.notWeighed.push(
      `Place: the registered office (${office.text}) does not name ${named}; a county, district or trading address may, so it was not weighed.`,
    );
  else if (regions.length && area)
    t.add(
      `The registered office's postcode ${postcode} (area ${area}) is outside ${named}, named in your offer; trading addresses may differ.`,
      -5,
      postcodeFact(),
    );
  else t.notWeighed.push("Place: the registered office was not read, so the place your offer names was not compared.");
}

/** Register status and filings: negative points, caps on the score, watch-outs; other risk signals as watch-outs. */
function weighStatus(t: Tally, offer: OfferRead): string {
  const { profile, register } = t.x;
  const field = register ? "register.status" : "profile.status";
  const status = register?.status ?? profile.status ?? "";
  const st = status.toLowerCase();
  const f = () => t.fact(field, status);
  // The live profile not read: the status is the monthly bulk file's, as of its date, and is said to be (issue 28 §2).
  const rec = register?.record;
  const file = rec ? `the Basic Company Data file${rec.bulkFileDate ? ` of ${rec.bulkFileDate}` : ""}` : "";
  const asOf = rec?.source === "bulk-file" ? ` (as of ${file})` : "";
  let statusRule = true;
  if (/dissolved|closed|removed|converted/.test(st))
    t.risk(`The register shows the company as ${status}${asOf}: it no longer trades as a company.`, -60, 5, f());
  else if (/liquidation|receivership|insolvency/.test(st))
    t.risk(`The register shows the company as ${status}${asOf}: an insolvency practitioner handles its affairs.`, -50, 15, f());
  else if (/administration/.test(st)) t.risk(`The register shows the company in ${status}${asOf}: an administrator runs it.`, -40, 20, f());
  else if (/voluntary.arrangement/.test(st))
    t.risk(`The register shows a company voluntary arrangement (${status})${asOf}: it is paying creditors under an agreed plan.`, -15, null, f());
  else statusRule = false;
  const strike = signalsMatching(t.x, /^proposal-to-strike-off$/)[0];
  if (register?.statusDetail && /strike.?off/i.test(register.statusDetail))
    t.risk(
      `The register shows a proposal to strike the company off (${register.statusDetail})${asOf}.`,
      -30,
      30,
      t.fact("register.statusDetail", register.statusDetail),
    );
  else if (strike) t.risk(`${strike.s.label} (${strike.s.source}).`, -30, 30, signalFact(t.x, strike.i));
  if (rec?.source === "bulk-file")
    t.watchOuts.push({
      text: `Companies House's live record could not be read: the status (${status}${register!.statusDetail ? `, ${register!.statusDetail}` : ""}) is as of ${file}, and a proposal to strike off, an insolvency or a Gazette notice since then would not show. Check the live register before relying on it.`,
      fact: t.fact("profile.registerSource.statusFrom", "bulk-file"),
    });
  if (register?.insolvencyNotices && !register.insolvencyNotices.read)
    t.watchOuts.push({
      text: "The Gazette's corporate insolvency notices could not be read: none is reported, and none is ruled out.",
      fact: t.fact("profile.registerSource.insolvencyNotices", "not-read"),
    });
  const dormant = signalsMatching(t.x, /^dormant$/)[0];
  const dormantCode = (profile.sicCodes ?? []).indexOf("99999");
  if (dormant) t.risk(`${dormant.s.label}.`, -20, 40, signalFact(t.x, dormant.i));
  else if (dormantCode >= 0)
    t.risk("Registered as a dormant company (SIC 99999): no trading activity is reported.", -20, 40, t.fact(`profile.sicCodes[${dormantCode}]`, "99999"));
  // Overdue filings cost 5 points each, none when the offer is about accounts and filings (they are then its signals).
  const aboutFilings = offer.needs.some((n) => n.key === "accounts" || n.key === "compliance");
  const overdue = (code: string, flag: "accountsOverdue" | "confirmationStatementOverdue", text: string) => {
    const s = signalsMatching(t.x, new RegExp(`^${code}$`))[0];
    const fact = s ? signalFact(t.x, s.i) : register?.[flag] ? t.fact(`register.${flag}`, true) : null;
    if (fact) t.risk(text, aboutFilings ? 0 : -5, null, fact);
  };
  overdue("accounts-overdue", "accountsOverdue", "Accounts are overdue at Companies House.");
  overdue(
    "confirmation-statement-overdue",
    "confirmationStatementOverdue",
    "The confirmation statement is overdue: the register's details (officers, shareholders, SIC codes) may be out of date.",
  );
  const handled = new Set(["proposal-to-strike-off", "dormant", "accounts-overdue", "confirmation-statement-overdue", ...(statusRule ? ["not-active"] : [])]);
  profile.signals.forEach((s, i) => {
    if (s.kind === "risk" && !handled.has(s.code)) t.watchOuts.push({ text: `${s.label.replace(/\.$/, "")} (${s.source}).`, fact: signalFact(t.x, i) });
  });
  return status;
}

/** What is not confirmed or not read: no company number (maybe a person trading: never named), confidence, namesakes, no website. */
function identityWatchOuts(t: Tally) {
  const { profile, register, site } = t.x;
  if (!profile.companyNumber)
    t.watchOuts.push({
      text: "No company number: the website does not confirm a registered company, so status, SIC codes and filings were not weighed. It may be a sole trader or a partnership: address the business, not a person.",
      fact: profile.registryNote ? t.fact("profile.registryNote", profile.registryNote) : t.fact("profile.companyNumber", null),
    });
  else if (!register)
    t.watchOuts.push({
      text: "The register's record was not read for this assessment: status, filings and the registered office were not weighed.",
      fact: t.fact("profile.companyNumber", profile.companyNumber),
    });
  if (profile.confidence !== "high")
    t.watchOuts.push({
      text: `Identity confidence is ${profile.confidence} (accuracy ${profile.accuracy.score}): check this is the business you mean.`,
      fact: t.fact("profile.confidence", profile.confidence),
    });
  const others = profile.alternatives?.length ?? 0;
  if (others)
    t.watchOuts.push({
      text: `${others} other registered compan${others === 1 ? "y shares" : "ies share"} the name: make sure the opener reaches this one.`,
      fact: t.fact("profile.alternatives.length", others),
    });
  if (!site && !profile.website)
    t.watchOuts.push({ text: "No website was read: what they do and any careers page come from the register alone.", fact: t.fact("profile.website", null) });
}

/** The fit of an offer to a verified profile: points from explicit rules, each citing a fact. Pure and deterministic. */
export function assessFit(x: AssessInput): FitAssessment {
  const offer = readOffer(x.offer);
  const t = new Tally(x);
  const sectorShown = weighSector(t, offer);
  weighStageAndType(t, offer);
  weighTerms(t, offer, sectorShown);
  weighNeeds(t, offer);
  weighSizeAndPlace(t, offer);
  const status = weighStatus(t, offer);
  identityWatchOuts(t);

  const sum = t.reasons.reduce((s, r) => s + r.points, 0);
  const fitScore = Math.round(Math.max(0, Math.min(100, sum, ...t.caps)));
  const fitBand: FitBand = fitScore >= FIT_BANDS.strong ? "strong" : fitScore >= FIT_BANDS.possible ? "possible" : "weak";
  const fitReasons = [...t.reasons].sort((a, b) => Math.abs(b.points) - Math.abs(a.points) || b.points - a.points);

  // What an opener may rest on: the strongest positive facts (none for a company that is closed or being wound up).
  const closed = t.caps.some((c) => c <= 15);
  const chosen = closed
    ? []
    : [...t.openers]
        .sort((a, b) => b.points - a.points)
        .filter((o, i, all) => all.findIndex((p) => p.statement === o.statement) === i)
        .slice(0, 3);
  const third = (s: string) => s.replace(/\b[Yy]our\b/g, "their").replace(/\.$/, "");
  const about = offer.needs.length ? ` It is about ${offer.needs.map((n) => n.label).join(", ")}.` : "";
  const audience = offer.audiences.length ? ` for ${offer.audiences.map((a) => a.matched).join(", ")}` : "";
  const text = closed
    ? `No opener: the register shows the company as ${status || "closed"}.`
    : chosen.length
      ? `Facts the opener can rest on: ${chosen.map((o) => third(o.statement)).join("; ")}. Your offer: ${offer.what}${audience}.${about}`
      : `No profile fact ties your offer to this business; an opener would rest on your offer alone (${offer.what}${audience}).`;

  return {
    fitScore,
    fitBand,
    fitReasons,
    signalsForYou: t.signals,
    approachAngle: { text, facts: chosen.map((o) => o.fact) },
    openerFacts: chosen.map((o) => o.statement),
    watchOuts: t.watchOuts,
    notWeighed: t.notWeighed,
    offerRead: offer,
    method: FIT_METHOD,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// draftOpener
// ---------------------------------------------------------------------------------------------------------------

/** The longest draft kept (a model's longer text is refused). */
const MAX_OPENER = 700;

export interface OpenerDraft {
  openerDraft: string;
  /** `facts`: composed from the facts; `model`: a model's wording of them, checked. */
  draftBy: "facts" | "model";
  editable: true;
}

/** The lines of the composed opener: greeting, the offer, up to two facts, a question. No name, no claim about them. */
function openerLines(offer: string, facts: string[]): string[] {
  const o = collapse(offer)
    .replace(/[.!?]+$/, "")
    .slice(0, 300);
  const offerLine = /^(?:we|i)\b/i.test(o) ? `${o[0].toUpperCase()}${o.slice(1)}.` : `I provide ${lowerFirst(o)}.`;
  const lines = o ? ["Hello,", offerLine] : ["Hello,"];
  if (facts.length) lines.push(`From public information: ${lowerFirst(facts.slice(0, 2).join(" "))}`);
  lines.push("Would a short conversation about whether this is relevant to you be useful?", "Kind regards,");
  return lines;
}

/**
 * The opener draft: a model's wording of the composed lines when one is available and its text keeps to them (the
 * document readers' `unsupportedClaims` check, no receptiveness word, not too long); else the composed lines.
 */
export async function draftOpener(x: { offer: string; profile: BusinessProfile; facts: string[] }, phraser: Phraser): Promise<OpenerDraft> {
  // No name anywhere: the facts carry none (a business without a company number may be a person trading), nor do the lines.
  const lines = openerLines(x.offer, x.facts);
  const composed: OpenerDraft = { openerDraft: [lines[0], "", lines.slice(1, -1).join(" "), "", lines.at(-1)!].join("\n"), draftBy: "facts", editable: true };
  if (!phraser.available) return composed;
  let phrased: string | null = null;
  try {
    phrased =
      (
        await phraser.phrase({
          document:
            'a short, polite first message from a seller to a business: start with "Hello," and no name, keep every fact as given, end with the question',
          facts: lines,
        })
      )?.trim() ?? null;
  } catch {
    phrased = null;
  }
  // The business's own name is not used either (without a company number it may be a person's).
  const named = !!x.profile.name && phrased !== null && phrased.toLowerCase().includes(x.profile.name.toLowerCase());
  if (!phrased || named || phrased.length > MAX_OPENER || unsupportedClaims(phrased, lines).length || receptivenessWords(phrased).length) return composed;
  return { openerDraft: phrased, draftBy: "model", editable: true };
}
