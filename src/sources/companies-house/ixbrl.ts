/**
 * Companies House accounts as filed in iXBRL (XHTML with inline XBRL facts) or as a plain XBRL instance: string in,
 * typed record out. Pure (no I/O). Format note: shared/formats/ch-ixbrl-accounts.md.
 *
 * How it reads:
 * - Markup is read with a parser, never with patterns: saxes (streaming, namespace-aware) first, matching elements by
 *   namespace URI and local name, so any prefix (ns5:, core:, uk-core:) and un-prefixed default-namespace ix elements
 *   all work. A document that is not well-formed XML is read again with htmlparser2's tolerant HTML parser, where names
 *   are lower-cased and namespaces unknown: elements are matched on their local names there.
 * - Facts: `ix:nonFraction` (displayed text read per `format`, × 10^`scale`, negated by `sign="-"`; brackets are
 *   presentation only; `xsi:nil` is no value), `ix:nonNumeric` (text, dates in the ixt date formats, booleans);
 *   `ix:exclude` text is left out; `ix:continuation` is not followed (no figure needs it). A plain XBRL instance
 *   (root `xbrli:xbrl`) has its facts as elements with a contextRef, read the same way.
 * - Contexts (entity identifier, instant or start/end, explicit and typed dimension members) and units.
 * - Figures for the current and the prior period, told apart by dates only (never by context ids), each from a table
 *   of concepts (local names; FRC 2014+ and the 2009 UK GAAP / 2004 names) in priority order; a total is a fact with no
 *   dimension, or only the dimension its field requires. A concept counts only when its namespace URI is one of the
 *   accounts taxonomies (ACCOUNTS_TAXONOMIES): prefixes are resolved in the scope they are declared in, never taken
 *   literally (IRIS writes ns5: for core); so are unit measures (ISO 4217 by its namespace). Each figure keeps its
 *   evidence (concept as written, contextRef, displayed text).
 * - Net assets: the tagged net assets line, else total equity, else total assets less current liabilities less the
 *   lines below it (deriveNetAssets), with the concept they came from (`netAssetsFrom`).
 * - What cannot be read (a number in an unknown format, a date that is not one, a context the document never defines,
 *   duplicate facts that disagree) is a warning, never a throw. Only a document with no facts at all throws
 *   (InputError `unreadable_input`, 422).
 * - Bounded (issue 29 §1: accounts are written by the company that files them, so a filing can be crafted): elements
 *   open at once (both parsers keep a stack of them), attributes on one element, facts, contexts and units, and facts
 *   inside facts (each text goes to every fact open around it) are counted as read, and a document past one is refused
 *   with 422 `unreadable_input` naming it. Text kept per fact and per context part is capped; namespace scopes are
 *   undone on close, never copied per element.
 */
import { Parser } from "htmlparser2";
import { SaxesParser } from "saxes";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { InputError } from "../../shared/errors";
import { addDays } from "../../shared/dates";

// ---- Namespaces ----

const IX_NS = new Set(["http://www.xbrl.org/2013/inlineXBRL", "http://www.xbrl.org/2008/inlineXBRL"]);
const XBRLI_NS = "http://www.xbrl.org/2003/instance";
const XBRLDI_NS = "http://xbrl.org/2006/xbrldi";
const ISO4217_NS = "http://www.xbrl.org/2003/iso4217";

/**
 * The taxonomies whose concepts the figures are read from, matched on the namespace URI the document binds (never on
 * the prefix: core:, uk-core:, ns5: and un-prefixed names are all the document's own choice). A fact in any other
 * namespace (business, reports, a software house's own, the tax computation's) is not a figure, whatever its local
 * name. A fact whose prefix the document never declares (tag soup) has no namespace, and is matched on its local
 * name alone.
 */
const ACCOUNTS_TAXONOMIES = [
  /^https?:\/\/xbrl\.frc\.org\.uk\/fr\/\d{4}-\d{2}-\d{2}\/core$/, // FRC core, FRS 101/102/105, 2014-09-01 onwards
  /^http:\/\/www\.xbrl\.org\/uk\/gaap\/core\/2009-09-01$/, // UK GAAP 2009 (uk-gaap-pt)
  /^http:\/\/www\.xbrl\.org\/uk\/fr\/gaap\/pt\/2004-12-01$/, // UK GAAP 2004 (pt)
  /^http:\/\/www\.companieshouse\.gov\.uk\/ef\/xbrl\/uk\/fr\/gaap\/ae\/2009-06-21$/, // Companies House's 2009 "ae" instances
  /^https?:\/\/xbrl\.ifrs\.org\/taxonomy\/\d{4}-\d{2}-\d{2}\/ifrs-full$/, // IFRS: Equity, CurrentAssets, ProfitLoss mean the same
];

// ---- Public types ----

/** The figures read for one period; null when the document does not tag it. */
export const FIGURE_NAMES = [
  "fixedAssets",
  "currentAssets",
  "cash",
  "debtors",
  "creditorsWithinOneYear",
  "creditorsAfterOneYear",
  "netCurrentAssets",
  "totalAssetsLessCurrentLiabilities",
  "provisions",
  "accrualsDeferredIncome",
  "netAssets",
  "shareCapital",
  "reserves",
  "equity",
  "turnover",
  "grossProfit",
  "operatingProfit",
  "profitBeforeTax",
  "profitAfterTax",
  "averageEmployees",
] as const;
export type FigureName = (typeof FIGURE_NAMES)[number];
export type Figures = Record<FigureName, number | null>;

/** Where a figure came from in the document. */
export interface FigureEvidence {
  /** The concept as the document writes it (prefix:localName), e.g. `uk-core:Creditors`. */
  concept: string;
  contextRef: string;
  /** The text the document displays (whitespace collapsed), e.g. `6,719` or `-`. */
  text: string;
  /** `-` when the document tags the figure as negative (`sign="-"`; brackets on the page are presentation only). */
  sign: "-" | null;
  /** The power of ten the displayed text is multiplied by (`scale="3"`: thousands). */
  scale: number;
  /** The unit's measure, e.g. `iso4217:GBP`, `xbrli:pure`; null when the fact names no unit the document defines. */
  unit: string | null;
  /** The context's dimensions (local names), e.g. `{ MaturitiesOrExpirationPeriodsDimension: "WithinOneYear" }`. */
  dimensions: Record<string, string>;
}

/**
 * Where `netAssets` came from: the rule of deriveNetAssets' order that gave it. Net assets equal total equity on every
 * balance sheet, so a filing that does not tag its net assets line still states them, through the concepts it does tag.
 */
export interface NetAssetsSource {
  /** 1: the net assets line as tagged; 2: total equity; 3: total assets less current liabilities less what is below it. */
  rule: 1 | 2 | 3;
  /**
   * The concept the value came from, by local name (the prefix is each document's own choice):
   * NetAssetsLiabilities or NetAssetsLiabilitiesIncludingPensionAssetLiability (rule 1), Equity or ShareholderFunds
   * (rule 2), TotalAssetsLessCurrentLiabilities (rule 3).
   */
  concept: string;
  /** Rule 3: the figures taken away (those the document tags for the period), in balance sheet order. */
  deducted: FigureName[];
  /** Rule 3: the lines below total assets less current liabilities the document does not tag for the period, counted as nil. */
  notTagged: FigureName[];
}

export interface PeriodFigures {
  /** The period's first day (durations), when known. */
  startDate: string | null;
  /** The period's last day: the balance sheet date for instants, the end of the profit and loss period. */
  endDate: string | null;
  figures: Figures;
  evidence: Partial<Record<FigureName, FigureEvidence>>;
  /** How `figures.netAssets` was found (deriveNetAssets' order); null when it could not be. */
  netAssetsFrom: NetAssetsSource | null;
}

export interface AccountsDocument {
  /** `ixbrl` for inline XBRL (XHTML), `xbrl` for a plain XBRL instance. */
  format: "ixbrl" | "xbrl";
  /** `xml` when the document is well-formed XML; `html` when it was read with the tolerant HTML parser. */
  parsedAs: "xml" | "html";
  /** From the contexts' entity identifier, else the UKCompaniesHouseRegisteredNumber fact; normalised. */
  companyNumber: string | null;
  companyName: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  balanceSheetDate: string | null;
  /** Member of the AccountingStandardsDimension (e.g. `Micro-entities` = FRS 105, `SmallEntities` = FRS 102 s1A). */
  accountingStandard: string | null;
  /** Member of the AccountsTypeDimension (e.g. `FullAccounts`, `AbridgedAccounts`). */
  accountsType: string | null;
  /** Member of the AccountsStatusDimension (e.g. `AuditExempt-NoAccountantsReport`). */
  accountsStatus: string | null;
  dormant: boolean | null;
  /** ISO currency of the monetary figures (from their unit), e.g. GBP. */
  currency: string | null;
  /** Namespaces of the concepts the facts use, in order of first use (e.g. http://xbrl.frc.org.uk/fr/2014-09-01/core). */
  taxonomies: string[];
  current: PeriodFigures;
  /** Comparatives for the previous period; null when the document has no earlier period. */
  prior: PeriodFigures | null;
  /** Facts read (numeric and text). */
  factCount: number;
  warnings: string[];
}

/** A fact as read from the document (low level; `readAccounts` builds the record above from these). */
export interface Fact {
  /** As written: prefix:localName (ix `name`), or the element's qualified name in plain XBRL. */
  concept: string;
  localName: string;
  namespace: string | null;
  contextRef: string | null;
  unitRef: string | null;
  numeric: boolean;
  format: string | null;
  /** Parsed number (numeric facts; null when nil or unreadable) or the collapsed text (text facts). */
  value: number | string | null;
  /** Displayed text, whitespace collapsed. */
  text: string;
  sign: "-" | null;
  scale: number;
  nil: boolean;
}

export interface Context {
  id: string;
  identifier: string | null;
  scheme: string | null;
  instant: string | null;
  startDate: string | null;
  endDate: string | null;
  /** Dimension local name → member local name (typed members: their text). */
  dimensions: Record<string, string>;
}

export interface FactSet {
  format: "ixbrl" | "xbrl";
  parsedAs: "xml" | "html";
  facts: Fact[];
  contexts: Map<string, Context>;
  /** Unit id → measure(s) as written, e.g. `iso4217:GBP`. */
  units: Map<string, string>;
  /** Unit id → ISO currency code, for units whose one measure is in the ISO 4217 namespace (by URI, whatever its prefix). */
  currencies: Map<string, string>;
  /** Prefix → namespace URI, as declared in the document. */
  namespaces: Map<string, string>;
  warnings: string[];
}

// ---- Small helpers ----

const collapse = (s: string) => s.replace(/[\s\u00a0]+/g, " ").trim();
const localOf = (qname: string) => qname.slice(qname.indexOf(":") + 1);
const prefixOf = (qname: string) => (qname.includes(":") ? qname.slice(0, qname.indexOf(":")) : "");
/** A format's local name, lower-cased and without hyphens: `ixt2:numdotdecimal` → `numdotdecimal`, `ixt4:fixed-zero` → `fixedzero`. */
const formatKey = (format: string | null) => (format ? localOf(format.trim()).toLowerCase().replace(/-/g, "") : "");
const MAX_TEXT = 4000;
const MAX_WARNINGS = 50;
/** Elements open at once (real filings nest a few dozen deep). */
export const MAX_IXBRL_DEPTH = 1_000;
/** Attributes on one element (an ix fact has about ten; an html root a few dozen namespace declarations). */
export const MAX_IXBRL_ATTRIBUTES = 1_000;
/** Facts in a document (a large group's full accounts have some thousands). */
export const MAX_IXBRL_FACTS = 50_000;
/** Contexts and units together. */
export const MAX_IXBRL_CONTEXTS = 50_000;
/** Facts open inside one another at once (a text block holding a figure: two or three). */
export const MAX_IXBRL_NESTED_FACTS = 32;

const refuse = (what: string): never => {
  throw new InputError("unreadable_input", `The accounts document is past a reading limit: ${what}.`);
};

// ---- Transformations (ixt / ixt2 / ixt4) ----

/** A number's digits with the decimal point moved `scale` places right (string arithmetic: no float drift). */
function scaled(intPart: string, fracPart: string, scale: number): number {
  let i = intPart.replace(/^0+(?=\d)/, "");
  let f = fracPart;
  if (scale > 0) {
    f = f.padEnd(scale, "0");
    i += f.slice(0, scale);
    f = f.slice(scale);
  } else if (scale < 0) {
    i = i.padStart(-scale + 1, "0");
    f = i.slice(i.length + scale) + f;
    i = i.slice(0, i.length + scale);
  }
  return Number(`${i || "0"}.${f || "0"}`);
}

const DASH = /^[-\u2010-\u2015\u2212]$/;

/** The value of a numeric fact's displayed text, or a reason it cannot be read. */
export function parseNumber(raw: string, format: string | null, scale = 0): { value: number } | { error: string } {
  const key = formatKey(format);
  let t = collapse(raw);
  if (key === "zerodash" || key === "fixedzero" || key === "numzerodash") return { value: 0 };
  // Brackets (and a trailing negative mark) are presentation: the sign is the `sign` attribute.
  if (t.startsWith("(") && t.endsWith(")")) t = t.slice(1, -1).trim();
  if (DASH.test(t)) return { value: 0 };
  let negative = false;
  if (/^[-\u2212]/.test(t)) {
    negative = true;
    t = t.slice(1).trim();
  }
  let decimal: "." | ",";
  if (key === "" || key === "numdotdecimal" || key === "numcommadot" || key === "numspacedot") decimal = ".";
  else if (key === "numcommadecimal" || key === "numdotcomma" || key === "numspacecomma") decimal = ",";
  else return { error: `format ${format} is not one this reader knows` };
  const thousands = decimal === "." ? /[,\s'\u00a0\u202f]/g : /[.\s'\u00a0\u202f]/g;
  const plain = t.replace(thousands, "");
  const m = decimal === "." ? /^(\d*)(?:\.(\d*))?$/.exec(plain) : /^(\d*)(?:,(\d*))?$/.exec(plain);
  if (!m || (m[1] === "" && !m[2])) return { error: `"${collapse(raw)}" is not a number${format ? ` in format ${format}` : ""}` };
  const v = scaled(m[1], m[2] ?? "", scale);
  return { value: negative && v !== 0 ? -v : v };
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** Day, month, year order of each ixt date format (local names, lower-cased, hyphens removed). */
function dateOrder(key: string): "dmy" | "mdy" | "ymd" | null {
  if (key === "") return "ymd";
  if (/^date(daymonth(name)?year|longuk|shortuk|slasheu|doteu)/.test(key)) return "dmy";
  if (/^date(month(name)?dayyear|longus|shortus|slashus|dotus)/.test(key)) return "mdy";
  if (/^dateyearmonth(name)?day/.test(key)) return "ymd";
  return null;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** A real calendar date between 1900 and 2100 as YYYY-MM-DD, else null. */
function isoDate(y: number, m: number, d: number): string | null {
  if (!(y >= 1900 && y <= 2100 && m >= 1 && m <= 12 && d >= 1)) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days ? `${y}-${pad2(m)}-${pad2(d)}` : null;
}

/** A date fact's displayed text read per its ixt format (no format: an ISO date), or a reason it cannot be read. */
export function parseDate(raw: string, format: string | null): { value: string } | { error: string } {
  const t = collapse(raw);
  const key = formatKey(format);
  const order = dateOrder(key);
  if (!order) return { error: `date format ${format} is not one this reader knows` };
  const bad = { error: `"${t}" is not a date${format ? ` in format ${format}` : ""}` };
  if (key === "") {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[TZ+\-\s])/.exec(t);
    const v = m && isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
    return v ? { value: v } : bad;
  }
  const numbers: number[] = [];
  let month: number | null = null;
  for (const token of t.split(/[^0-9A-Za-z]+/).filter(Boolean)) {
    const n = /^(\d+)(?:st|nd|rd|th)?$/i.exec(token);
    if (n) numbers.push(Number(n[1]));
    else if (month === null && /^[a-z]{3,}$/i.test(token)) {
      const i = MONTHS.indexOf(token.slice(0, 3).toLowerCase());
      if (i >= 0) month = i + 1;
    }
  }
  const fields = month === null ? order.split("") : order.replace("m", "").split("");
  if (numbers.length !== fields.length) return bad;
  const at = (f: string) => numbers[fields.indexOf(f)];
  let y = at("y");
  if (y < 100) y += 2000;
  const v = isoDate(y, month ?? at("m"), at("d"));
  return v ? { value: v } : bad;
}

/** A boolean fact (ixt booleantrue/booleanfalse, or the text true/false). */
function parseBoolean(fact: Fact): boolean | null {
  const key = formatKey(fact.format);
  if (key === "booleantrue") return true;
  if (key === "booleanfalse") return false;
  const t = fact.text.toLowerCase();
  return t === "true" || t === "1" ? true : t === "false" || t === "0" ? false : null;
}

// ---- Reading the markup into facts, contexts and units ----

interface El {
  /** Local name (lower-cased when read as HTML). */
  local: string;
  /** Namespace URI; null when read as HTML or when the document does not declare the prefix (matched by local name then). */
  uri: string | null;
  /** The name as written (prefix:local). */
  qname: string;
  /** Attribute local name, lower-cased → value. */
  attr(name: string): string | undefined;
}

interface OpenFact {
  fact: Fact;
  text: string;
}

/** Turns element/text events (from either parser) into facts, contexts and units. */
class Collector {
  readonly facts: Fact[] = [];
  readonly contexts = new Map<string, Context>();
  readonly units = new Map<string, string>();
  readonly currencies = new Map<string, string>();
  readonly namespaces = new Map<string, string>();
  readonly warnings: string[] = [];
  format: "ixbrl" | "xbrl" = "ixbrl";
  private root = true;
  /** Per open element: what to do when it closes. */
  private closers: ((() => void) | null)[] = [];
  private excludeDepth = 0;
  private open: OpenFact[] = [];
  private context: Context | null = null;
  private unit: { id: string; measures: string[]; currency: string | null } | null = null;
  /** Text of a context or unit part being read (identifier, instant, member, measure). */
  private leaf: string | null = null;

  constructor(private readonly html: boolean) {}

  warn(message: string) {
    if (this.warnings.length < MAX_WARNINGS && !this.warnings.includes(message)) this.warnings.push(message);
  }

  private is(el: El, local: string, ns: string | Set<string>): boolean {
    if (el.local !== (this.html ? local.toLowerCase() : local)) return false;
    if (el.uri === null) return true;
    return typeof ns === "string" ? el.uri === ns : ns.has(el.uri);
  }

  openTag(el: El, resolve: (prefix: string) => string | undefined) {
    if (this.closers.length >= MAX_IXBRL_DEPTH) refuse(`more than ${MAX_IXBRL_DEPTH.toLocaleString("en-GB")} elements are open inside one another`);
    let closer: (() => void) | null = null;
    if (this.root) {
      this.root = false;
      if (this.is(el, "xbrl", XBRLI_NS)) this.format = "xbrl";
    }
    if (this.is(el, "nonFraction", IX_NS) || this.is(el, "nonNumeric", IX_NS)) {
      closer = this.startFact(el, el.local.toLowerCase() === "nonfraction", el.attr("name") ?? null, resolve);
    } else if (this.format === "xbrl" && el.attr("contextref") !== undefined) {
      // Any element with a contextRef is a fact (CH's 2009 "ae" instances even put theirs in the xbrli namespace).
      closer = this.startFact(el, el.attr("unitref") !== undefined, el.qname, () => el.uri ?? resolve(prefixOf(el.qname)));
    } else if (this.is(el, "exclude", IX_NS)) {
      this.excludeDepth++;
      closer = () => void this.excludeDepth--;
    } else if (this.is(el, "context", XBRLI_NS)) {
      const id = el.attr("id");
      if (id === undefined) this.warn("a context without an id cannot be referred to; it is left out");
      this.countContext();
      this.context = { id: id ?? "", identifier: null, scheme: null, instant: null, startDate: null, endDate: null, dimensions: {} };
      closer = () => {
        const c = this.context!;
        this.context = null;
        if (!c.id) return;
        if (this.contexts.has(c.id)) this.warn(`context ${c.id} is defined twice; the first is used`);
        else this.contexts.set(c.id, c);
      };
    } else if (this.context) {
      closer = this.contextPart(el);
    } else if (this.is(el, "unit", XBRLI_NS)) {
      this.countContext();
      this.unit = { id: el.attr("id") ?? "", measures: [], currency: null };
      closer = () => {
        const u = this.unit!;
        this.unit = null;
        if (!u.id) return;
        this.units.set(u.id, u.measures.join(""));
        if (u.measures.length === 1 && u.currency) this.currencies.set(u.id, u.currency);
      };
    } else if (this.unit) {
      if (this.is(el, "unitDenominator", XBRLI_NS)) {
        this.unit.measures.push("/");
      } else if (this.is(el, "measure", XBRLI_NS)) {
        this.leaf = "";
        closer = () => {
          // A measure is a QName: ISO 4217 by its namespace URI (in scope here), whatever the prefix; only a prefix the
          // document never declares is taken at its word.
          const measure = collapse(this.leaf ?? "");
          const uri = resolve(prefixOf(measure));
          const iso = uri === undefined ? prefixOf(measure).toLowerCase() === "iso4217" : uri === ISO4217_NS;
          if (this.unit && iso && /^[A-Za-z]{3}$/.test(localOf(measure))) this.unit.currency = localOf(measure).toUpperCase();
          this.unit?.measures.push(measure);
          this.leaf = null;
        };
      }
    }
    this.closers.push(closer);
  }

  private contextsRead = 0;
  private countContext() {
    if (++this.contextsRead > MAX_IXBRL_CONTEXTS) refuse(`it has more than ${MAX_IXBRL_CONTEXTS.toLocaleString("en-GB")} contexts and units`);
  }

  /** Called per attribute as the parser reads them (before the element's open event). */
  attribute(count: number) {
    if (count > MAX_IXBRL_ATTRIBUTES) refuse(`an element has more than ${MAX_IXBRL_ATTRIBUTES.toLocaleString("en-GB")} attributes`);
  }

  private contextPart(el: El): (() => void) | null {
    const c = this.context!;
    const read = (set: (text: string) => void) => {
      this.leaf = "";
      return () => {
        set(collapse(this.leaf ?? ""));
        this.leaf = null;
      };
    };
    if (this.is(el, "identifier", XBRLI_NS)) {
      c.scheme = el.attr("scheme") ?? null;
      return read((t) => (c.identifier = t));
    }
    if (this.is(el, "instant", XBRLI_NS)) return read((t) => (c.instant = this.contextDate(c, t)));
    if (this.is(el, "startDate", XBRLI_NS)) return read((t) => (c.startDate = this.contextDate(c, t)));
    if (this.is(el, "endDate", XBRLI_NS)) return read((t) => (c.endDate = this.contextDate(c, t)));
    const explicit = this.is(el, "explicitMember", XBRLDI_NS);
    if (explicit || this.is(el, "typedMember", XBRLDI_NS)) {
      // An explicit member is a QName (its local name is kept); a typed member's value is its text.
      const dimension = el.attr("dimension");
      return read((t) => {
        if (dimension) c.dimensions[localOf(dimension)] = explicit ? localOf(t) : t;
      });
    }
    return null;
  }

  private contextDate(c: Context, text: string): string | null {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[TZ+-])/.exec(text);
    const v = m && isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
    if (!v) this.warn(`context ${c.id || "(no id)"} has a period date that is not a plausible date ("${text}"); that date is left out`);
    return v;
  }

  private startFact(el: El, numeric: boolean, concept: string | null, resolve: (prefix: string) => string | undefined): () => void {
    const contextRef = el.attr("contextref") ?? null;
    const fact: Fact = {
      concept: concept ?? "",
      localName: concept ? localOf(concept) : "",
      namespace: concept ? (resolve(prefixOf(concept)) ?? null) : null,
      contextRef,
      unitRef: el.attr("unitref") ?? null,
      numeric,
      format: el.attr("format") ?? null,
      value: null,
      text: "",
      sign: el.attr("sign") === "-" ? "-" : null,
      scale: 0,
      nil: el.attr("nil") === "true",
    };
    const scaleAttr = el.attr("scale");
    if (scaleAttr !== undefined) {
      const scale = Number(scaleAttr);
      if (Number.isInteger(scale) && Math.abs(scale) <= 30) fact.scale = scale;
      else this.warn(`${fact.concept || "a fact"} in context ${contextRef}: scale "${scaleAttr}" is not a whole number; 0 is used`);
    }
    if (this.facts.length >= MAX_IXBRL_FACTS) refuse(`it has more than ${MAX_IXBRL_FACTS.toLocaleString("en-GB")} facts`);
    if (this.open.length >= MAX_IXBRL_NESTED_FACTS) refuse(`more than ${MAX_IXBRL_NESTED_FACTS} facts are open inside one another`);
    const open: OpenFact = { fact, text: "" };
    const index = this.facts.length;
    this.facts.push(fact);
    this.open.push(open);
    return () => {
      this.open.pop();
      fact.text = collapse(open.text).slice(0, 500);
      if (!concept || !contextRef) {
        this.facts[index] = null as unknown as Fact; // dropped below
        this.warn(`a fact without a name or a contextRef ("${fact.text.slice(0, 60)}") is left out`);
        return;
      }
      if (fact.nil) return;
      if (numeric) {
        const r = parseNumber(open.text, fact.format, fact.scale);
        if ("error" in r) this.warn(`${fact.concept} in context ${contextRef}: ${r.error}; left out`);
        else fact.value = fact.sign === "-" && r.value !== 0 ? -r.value : r.value;
      } else {
        fact.value = formatKey(fact.format) === "nocontent" ? "" : fact.text;
      }
    };
  }

  text(t: string) {
    if (this.leaf !== null && this.leaf.length < MAX_TEXT) this.leaf += t;
    if (this.excludeDepth > 0 || this.open.length === 0) return;
    for (const o of this.open) if (o.text.length < MAX_TEXT) o.text += t;
  }

  closeTag() {
    this.closers.pop()?.();
  }

  finish(parsedAs: "xml" | "html"): FactSet {
    // Elements never closed (a truncated document): close them so their facts are kept.
    while (this.closers.length) this.closeTag();
    return {
      format: this.format,
      parsedAs,
      facts: this.facts.filter((f) => f !== null),
      contexts: this.contexts,
      units: this.units,
      currencies: this.currencies,
      namespaces: this.namespaces,
      warnings: this.warnings,
    };
  }
}

/** Named character references XHTML filings use without declaring them (XML knows only five). */
const HTML_ENTITIES: Record<string, string> = {
  nbsp: "\u00a0",
  pound: "£",
  euro: "€",
  copy: "©",
  reg: "®",
  trade: "™",
  ndash: "–",
  mdash: "—",
  minus: "−",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  hellip: "…",
  bull: "•",
  middot: "·",
  deg: "°",
  times: "×",
  shy: "\u00ad",
  ensp: "\u2002",
  emsp: "\u2003",
  thinsp: "\u2009",
  zwnj: "\u200c",
  zwj: "\u200d",
  sect: "§",
  para: "¶",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  laquo: "«",
  raquo: "»",
  cent: "¢",
  yen: "¥",
  eacute: "é",
  egrave: "è",
  acute: "´",
};

/**
 * Well-formed XML, read with saxes. Namespaces are resolved here rather than by saxes (its namespace mode is about
 * twice as slow): each element's declarations open a new scope. A prefix the document never declares resolves to
 * nothing, and such an element is then matched on its local name alone, as in the HTML reading.
 */
function readXml(text: string): FactSet {
  const c = new Collector(false);
  const parser = new SaxesParser({ position: false });
  Object.assign(parser.ENTITIES, HTML_ENTITIES);
  // Prefix → the URIs declared for it, innermost last; each element's declarations are undone when it closes (a
  // copy of the scope per element would cost the depth times the declarations).
  const scope = new Map<string, string[]>([["xml", ["http://www.w3.org/XML/1998/namespace"]]]);
  const declared: string[][] = [];
  const resolve = (prefix: string) => scope.get(prefix)?.at(-1);
  let attributeCount = 0;
  parser.on("attribute", () => c.attribute(++attributeCount));
  parser.on("opentag", (tag) => {
    attributeCount = 0;
    const attributes = tag.attributes as Record<string, string>;
    const mine: string[] = [];
    for (const name in attributes) {
      if (name !== "xmlns" && !name.startsWith("xmlns:")) continue;
      const prefix = name === "xmlns" ? "" : name.slice(6);
      const uris = scope.get(prefix);
      if (uris) uris.push(attributes[name]);
      else scope.set(prefix, [attributes[name]]);
      mine.push(prefix);
      if (prefix && !c.namespaces.has(prefix)) c.namespaces.set(prefix, attributes[name]);
    }
    declared.push(mine);
    const qname = tag.name;
    const colon = qname.indexOf(":");
    const uri = resolve(colon < 0 ? "" : qname.slice(0, colon));
    c.openTag(
      {
        local: colon < 0 ? qname : qname.slice(colon + 1),
        uri: uri === undefined || uri === "" ? null : uri,
        qname,
        attr: (want) => {
          for (const name in attributes) if (localOf(name).toLowerCase() === want) return attributes[name];
          return undefined;
        },
      },
      resolve,
    );
  });
  parser.on("closetag", () => {
    c.closeTag();
    for (const prefix of declared.pop() ?? []) scope.get(prefix)?.pop();
  });
  parser.on("text", (t) => c.text(t));
  parser.on("cdata", (t) => c.text(t));
  parser.on("error", (e) => {
    throw e;
  });
  parser.write(text).close();
  return c.finish("xml");
}

/**
 * Tag soup, read with htmlparser2 (the tolerant streaming parser linkedom itself is built on): events, never a
 * DOM, so a large filing costs little more than the XML reading. Names are lower-cased; a self-closing element
 * (`<ix:nonNumeric ... />`) closes at once; implied closes arrive as close events, so opens and closes pair up.
 */
function readHtml(text: string): FactSet {
  const c = new Collector(true);
  const ns = c.namespaces;
  const resolve = (prefix: string) => ns.get(prefix.toLowerCase());
  let attributeCount = 0;
  const parser = new Parser(
    {
      onattribute: () => c.attribute(++attributeCount),
      onopentag(qname, attributes) {
        attributeCount = 0;
        const attrs = new Map<string, string>();
        for (const name in attributes) {
          if (name.startsWith("xmlns:") && !ns.has(name.slice(6))) ns.set(name.slice(6), attributes[name]);
          attrs.set(localOf(name), attributes[name]);
        }
        c.openTag({ local: localOf(qname), uri: null, qname, attr: (want) => attrs.get(want) }, resolve);
      },
      ontext: (t) => c.text(t),
      onclosetag: () => c.closeTag(),
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true, decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  return c.finish("html");
}

/**
 * Every fact, context and unit of an iXBRL or XBRL document. Well-formed XML is read with saxes; anything else with
 * htmlparser2's tolerant HTML parser. Never throws on content; `readAccounts` decides what an empty result means.
 */
export function readFacts(document: string): FactSet {
  try {
    return readXml(document);
  } catch (e) {
    if (e instanceof InputError) throw e; // a reading limit, not a document that is not XML
    const set = readHtml(document);
    set.warnings.unshift("the document is not well-formed XML; it was read with a tolerant HTML parser");
    return set;
  }
}

// ---- From facts to the accounts record ----

interface Alternative {
  concept: string;
  /** Dimension → member the field allows (local names). Absent: the fact's context must have no dimension. */
  allow?: Record<string, string>;
}

const CURRENT_CREDITORS = {
  MaturitiesOrExpirationPeriodsDimension: "WithinOneYear",
  "FinancialInstrumentCurrentNon-currentDimension": "CurrentFinancialInstruments",
};
const NONCURRENT_CREDITORS = {
  MaturitiesOrExpirationPeriodsDimension: "AfterOneYear",
  "FinancialInstrumentCurrentNon-currentDimension": "Non-currentFinancialInstruments",
};

/**
 * Concept → field, alternatives in priority order (the first that has a fact for the period wins). FRC 2014+ names
 * (core) first, then the 2009 UK GAAP / 2004 names. Creditors carry the maturity dimension (or, in some software,
 * the current/non-current financial-instrument dimension, or both); equity components the EquityClassesDimension.
 */
export const CONCEPTS: Record<FigureName, Alternative[]> = {
  fixedAssets: [{ concept: "FixedAssets" }, { concept: "PropertyPlantEquipment" }, { concept: "TangibleFixedAssets" }],
  currentAssets: [{ concept: "CurrentAssets" }],
  cash: [{ concept: "CashBankOnHand" }, { concept: "CashBankInHand" }],
  debtors: [{ concept: "Debtors" }, { concept: "TradeDebtorsTradeReceivables" }],
  creditorsWithinOneYear: [{ concept: "Creditors", allow: CURRENT_CREDITORS }, { concept: "CreditorsDueWithinOneYear" }],
  creditorsAfterOneYear: [{ concept: "Creditors", allow: NONCURRENT_CREDITORS }, { concept: "CreditorsDueAfterOneYear" }],
  netCurrentAssets: [{ concept: "NetCurrentAssetsLiabilities" }],
  totalAssetsLessCurrentLiabilities: [{ concept: "TotalAssetsLessCurrentLiabilities" }],
  provisions: [{ concept: "ProvisionsForLiabilitiesBalanceSheetSubtotal" }, { concept: "ProvisionsForLiabilitiesCharges" }],
  // The balance sheet line after provisions (FRS 105 format, Companies Act format 1 J), never accruals within creditors.
  accrualsDeferredIncome: [{ concept: "AccruedLiabilitiesNotExpressedWithinCreditorsSubtotal" }, { concept: "AccrualsDeferredIncome" }],
  netAssets: [{ concept: "NetAssetsLiabilities" }, { concept: "NetAssetsLiabilitiesIncludingPensionAssetLiability" }],
  shareCapital: [{ concept: "Equity", allow: { EquityClassesDimension: "ShareCapital" } }, { concept: "CalledUpShareCapital" }],
  reserves: [{ concept: "Equity", allow: { EquityClassesDimension: "RetainedEarningsAccumulatedLosses" } }, { concept: "ProfitLossAccountReserve" }],
  equity: [{ concept: "Equity" }, { concept: "ShareholderFunds" }],
  turnover: [{ concept: "TurnoverRevenue" }, { concept: "TurnoverGrossOperatingRevenue" }],
  grossProfit: [{ concept: "GrossProfitLoss" }],
  operatingProfit: [{ concept: "OperatingProfitLoss" }],
  profitBeforeTax: [{ concept: "ProfitLossOnOrdinaryActivitiesBeforeTax" }],
  profitAfterTax: [{ concept: "ProfitLoss" }, { concept: "ProfitLossForPeriod" }],
  averageEmployees: [{ concept: "AverageNumberEmployeesDuringPeriod" }, { concept: "EmployeesTotal" }],
};

/** Report metadata, by local name (FRC `bus:` names first, then the 2009 / 2004 ones). */
const META = {
  start: ["StartDateForPeriodCoveredByReport"],
  end: ["EndDateForPeriodCoveredByReport"],
  balanceSheetDate: ["BalanceSheetDate"],
  number: ["UKCompaniesHouseRegisteredNumber", "CompaniesHouseRegisteredNumber"],
  name: ["EntityCurrentLegalOrRegisteredName", "EntityCurrentLegalName"],
  dormant: ["EntityDormantTruefalse", "EntityDormant", "CompanyDormant"],
  standard: ["AccountingStandardsApplied"],
  type: ["AccountsTypeFullOrAbbreviated"],
  status: ["AccountsStatusAuditedOrUnaudited"],
};

function dimensionsMatch(dims: Record<string, string>, allow: Record<string, string> | undefined): boolean {
  const entries = Object.entries(dims);
  if (!allow) return entries.length === 0;
  return entries.length > 0 && entries.every(([d, m]) => allow[d] === m);
}

const yearBefore = (iso: string) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - 1);
  return d.toISOString().slice(0, 10);
};

/**
 * Net assets: the order in which they are found, the first that applies (getAccounts' OpenAPI description says it too):
 * 1. the net assets line itself: NetAssetsLiabilities (FRC), NetAssetsLiabilitiesIncludingPensionAssetLiability
 *    (UK GAAP 2009 / 2004);
 * 2. total equity: Equity with no dimension at the balance sheet date (FRC; with the EquityClassesDimension it is a
 *    component, never the total), ShareholderFunds (UK GAAP). Capital and reserves equal net assets on every balance
 *    sheet, and the total is one tagged figure, read as displayed: no arithmetic, no line that could be missed. Every
 *    balance sheet format (micro-entity, abridged, full) ends with it, so a filing that leaves its net assets line
 *    untagged (IRIS micro-entity filings) almost always tags it;
 * 3. TotalAssetsLessCurrentLiabilities less creditors due after more than one year, provisions for liabilities, and
 *    accruals and deferred income shown after provisions: the balance sheet's own arithmetic from that subtotal down.
 *    A line the document does not tag for the period is counted as nil and named in `notTagged`; a pension asset or
 *    liability shown separately is not known to this rule. Last, because it depends on every line below the subtotal
 *    being tagged, and on each sign being tagged right (real filings get some wrong).
 * Sums of equity components are never used: a filing may tag only some of its reserves.
 */
const BELOW_TOTAL_ASSETS_LESS_CURRENT_LIABILITIES: FigureName[] = ["creditorsAfterOneYear", "provisions", "accrualsDeferredIncome"];

/**
 * Net assets from the figures a period tags, in the order above, with the source they came from; null when none of
 * the three applies. Pure: `figures.netAssets` is the tagged net assets line (or null), `evidence` the facts read.
 */
export function deriveNetAssets(period: Pick<PeriodFigures, "figures" | "evidence">): { value: number; from: NetAssetsSource } | null {
  const { figures: f, evidence: e } = period;
  const conceptOf = (field: FigureName, fallback: string) => (e[field] ? localOf(e[field]!.concept) : fallback);
  if (f.netAssets !== null)
    return { value: f.netAssets, from: { rule: 1, concept: conceptOf("netAssets", "NetAssetsLiabilities"), deducted: [], notTagged: [] } };
  if (f.equity !== null) return { value: f.equity, from: { rule: 2, concept: conceptOf("equity", "Equity"), deducted: [], notTagged: [] } };
  if (f.totalAssetsLessCurrentLiabilities === null) return null;
  const deducted = BELOW_TOTAL_ASSETS_LESS_CURRENT_LIABILITIES.filter((n) => f[n] !== null);
  const notTagged = BELOW_TOTAL_ASSETS_LESS_CURRENT_LIABILITIES.filter((n) => f[n] === null);
  // Whole pence are exact in doubles; round to them so 0.1 + 0.2 style drift never shows.
  const value = Math.round((f.totalAssetsLessCurrentLiabilities - deducted.reduce((sum, n) => sum + f[n]!, 0)) * 100) / 100;
  return {
    value: value === 0 ? 0 : value,
    from: { rule: 3, concept: conceptOf("totalAssetsLessCurrentLiabilities", "TotalAssetsLessCurrentLiabilities"), deducted, notTagged },
  };
}

/** The companies register's and the document's accounts, read: see the file's comment. */
export function readAccounts(document: string): AccountsDocument {
  const set = readFacts(document);
  const { facts, contexts, units } = set;
  const warnings = [...set.warnings];
  const warn = (m: string) => {
    if (warnings.length < MAX_WARNINGS && !warnings.includes(m)) warnings.push(m);
  };
  if (facts.length === 0) {
    throw new InputError("unreadable_input", "The document holds no XBRL facts: it is not iXBRL or XBRL accounts, or its tags could not be read.");
  }

  // Facts whose context is not defined: reported once per context id, and left out of the figures.
  const missing = new Map<string, number>();
  for (const f of facts) if (f.contextRef && !contexts.has(f.contextRef)) missing.set(f.contextRef, (missing.get(f.contextRef) ?? 0) + 1);
  for (const [id, n] of missing)
    warn(`${n} fact${n === 1 ? " refers" : "s refer"} to context "${id}", which the document does not define; left out of the figures`);

  const byLocal = new Map<string, Fact[]>();
  for (const f of facts) {
    const list = byLocal.get(f.localName);
    if (list) list.push(f);
    else byLocal.set(f.localName, [f]);
  }
  const firstOf = (names: string[]) => {
    for (const n of names) {
      const f = byLocal.get(n)?.find((x) => !x.nil);
      if (f) return f;
    }
    return null;
  };
  const metaDate = (names: string[]): string | null => {
    const f = firstOf(names);
    if (!f) return null;
    const r = parseDate(f.text, f.format);
    if ("error" in r) {
      warn(`${f.concept}: ${r.error}; left out`);
      return null;
    }
    return r.value;
  };
  /** A tagged choice (accounting standard, accounts type, status): the member of the fact's context, else its text. */
  const metaMember = (names: string[]): string | null => {
    const f = firstOf(names);
    if (!f) return null;
    const dims = f.contextRef ? contexts.get(f.contextRef)?.dimensions : undefined;
    const member = dims ? Object.values(dims)[0] : undefined;
    return member ?? (typeof f.value === "string" && f.value ? f.value : null);
  };

  // ---- Periods, by dates only ----
  const usable = [...contexts.values()];
  const durations = usable.filter((c) => c.startDate && c.endDate && c.startDate <= c.endDate);
  const dates = [...new Set(usable.flatMap((c) => [c.instant, c.endDate]).filter((d): d is string => !!d))].sort();
  let periodEnd = metaDate(META.end);
  const balanceSheetDate = metaDate(META.balanceSheetDate);
  periodEnd ??= balanceSheetDate ?? dates[dates.length - 1] ?? null;
  const startOf = (end: string | null) =>
    end
      ? (durations
          .filter((c) => c.endDate === end)
          .map((c) => c.startDate!)
          .sort()[0] ?? null)
      : null;
  const periodStart = metaDate(META.start) ?? startOf(periodEnd);
  const currentInstant = balanceSheetDate ?? periodEnd;
  // The prior period ends on the latest date the contexts name before the current period starts (when the start is
  // not known: a year before the end, with a week's slack for 52/53-week years).
  const cutoff = periodStart ?? (periodEnd ? addDays(yearBefore(periodEnd), 8) : null);
  const priorEnd = cutoff ? ([...dates].reverse().find((d) => d < cutoff) ?? null) : null;

  // Figures come only from the accounts taxonomies, by namespace URI (see ACCOUNTS_TAXONOMIES). A plain XBRL instance
  // whose facts sit in the instance namespace itself (Companies House's 2009 "ae" samples) is read by local name.
  const accountsConcept = (f: Fact) =>
    f.namespace === null || ACCOUNTS_TAXONOMIES.some((re) => re.test(f.namespace!)) || (set.format === "xbrl" && f.namespace === XBRLI_NS);
  const factsNamed = (name: string) => (byLocal.get(name) ?? []).filter(accountsConcept);
  const currencies = new Set<string>();
  function figuresFor(instantDate: string | null, durationEnd: string | null, label: string): PeriodFigures {
    const figures = Object.fromEntries(FIGURE_NAMES.map((n) => [n, null])) as Figures;
    const evidence: PeriodFigures["evidence"] = {};
    for (const field of FIGURE_NAMES) {
      for (const alt of CONCEPTS[field]) {
        const hits = factsNamed(alt.concept).filter((f) => {
          if (!f.numeric || f.value === null || !f.contextRef) return false;
          const c = contexts.get(f.contextRef);
          if (!c || !dimensionsMatch(c.dimensions, alt.allow)) return false;
          return c.instant ? c.instant === instantDate : c.endDate === durationEnd && !!c.startDate;
        });
        if (!hits.length) continue;
        const first = hits[0];
        const other = hits.find((h) => h.value !== first.value);
        const shown = (f: Fact) => `${f.value} (context ${f.contextRef}, shown "${f.text}"${f.sign ? ', sign="-"' : ""})`;
        if (other) warn(`${first.concept}, ${label}: facts disagree, ${shown(first)} and ${shown(other)}; the first is used`);
        const c = contexts.get(first.contextRef!)!;
        const currency = first.unitRef ? set.currencies.get(first.unitRef) : undefined;
        if (field !== "averageEmployees" && currency) currencies.add(currency);
        figures[field] = first.value as number;
        evidence[field] = {
          concept: first.concept,
          contextRef: first.contextRef!,
          text: first.text,
          sign: first.sign,
          scale: first.scale,
          unit: (first.unitRef && units.get(first.unitRef)) || null,
          dimensions: { ...c.dimensions },
        };
        break;
      }
    }
    // A negative shown in brackets but tagged without sign="-" (seen in real filings): said, not corrected.
    const { currentAssets: ca, creditorsWithinOneYear: cr, netCurrentAssets: nca } = figures;
    if (ca !== null && cr !== null && nca !== null && nca !== 0 && ca - cr === -nca)
      warn(
        `netCurrentAssets, ${label}: tagged ${nca}, but currentAssets − creditorsWithinOneYear is ${ca - cr}; the document seems to show a negative figure without tagging its sign`,
      );
    // Net assets in deriveNetAssets' order. Both totals tagged and different: one of the two tags is wrong; said, not chosen.
    const derived = deriveNetAssets({ figures, evidence });
    if (figures.netAssets !== null && figures.equity !== null && figures.netAssets !== figures.equity)
      warn(
        `netAssets, ${label}: ${evidence.netAssets!.concept} is ${figures.netAssets} but total equity (${evidence.equity!.concept}) is ${figures.equity}; they should be equal; net assets are the tagged ${evidence.netAssets!.concept}`,
      );
    if (derived && derived.from.rule === 2) evidence.netAssets = evidence.equity;
    figures.netAssets = derived?.value ?? null;
    return { startDate: null, endDate: null, figures, evidence, netAssetsFrom: derived?.from ?? null };
  }
  const current = figuresFor(currentInstant, periodEnd, "current period");
  current.startDate = periodStart;
  current.endDate = periodEnd;
  let prior: PeriodFigures | null = null;
  if (priorEnd) {
    prior = figuresFor(priorEnd, priorEnd, "prior period");
    prior.startDate = startOf(priorEnd);
    prior.endDate = priorEnd;
  }

  // ---- Who, what kind, which currency ----
  const identifiers = new Map<string, number>();
  for (const c of contexts.values()) if (c.identifier) identifiers.set(c.identifier, (identifiers.get(c.identifier) ?? 0) + 1);
  const fromContexts =
    [...identifiers.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([id]) => normaliseCompanyNumber(id))
      .find((n) => n !== null) ?? null;
  if (identifiers.size > 1) warn(`the contexts name more than one entity (${[...identifiers.keys()].slice(0, 3).join(", ")})`);
  const numberFact = firstOf(META.number);
  const companyNumber = fromContexts ?? normaliseCompanyNumber(numberFact?.text) ?? null;
  const nameFact = firstOf(META.name);
  const dormantFact = firstOf(META.dormant);

  if (currencies.size > 1) warn(`the figures are in more than one currency (${[...currencies].join(", ")})`);

  const taxonomies = new Set<string>(); // in order of first use
  for (const f of facts) if (f.namespace && f.namespace !== XBRLI_NS) taxonomies.add(f.namespace);

  return {
    format: set.format,
    parsedAs: set.parsedAs,
    companyNumber,
    companyName: nameFact?.text || null,
    periodStart,
    periodEnd,
    balanceSheetDate,
    accountingStandard: metaMember(META.standard),
    accountsType: metaMember(META.type),
    accountsStatus: metaMember(META.status),
    dormant: dormantFact ? parseBoolean(dormantFact) : null,
    currency: [...currencies][0] ?? null,
    taxonomies: [...taxonomies],
    current,
    prior,
    factCount: facts.length,
    warnings,
  };
}
