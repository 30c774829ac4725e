/**
 * schema.org JSON-LD as a business's own page states it (ai-visibility, SPEC §4.8): every
 * `<script type="application/ld+json">` block, read tolerantly (a block that is not JSON is reported, never thrown),
 * and the organisations among its nodes (top-level objects, arrays of objects, `@graph` arrays and nested nodes
 * such as a WebPage's `publisher`), with the properties an assistant reads to identify the business: name, url,
 * logo, sameAs, address, telephone and any company number. Pure: the caller fetches the page.
 */
import { normaliseCompanyNumber } from "../matching/companyNumber";

/**
 * The organisation types read, by their schema.org name (a small list: Organization, LocalBusiness and the subtypes
 * UK business sites use most). `schema:Corporation` and `https://schema.org/Corporation` count too.
 */
export const ORGANISATION_TYPES = [
  "Organization",
  "Corporation",
  "LocalBusiness",
  "OnlineBusiness",
  "OnlineStore",
  "ProfessionalService",
  "LegalService",
  "AccountingService",
  "FinancialService",
  "HomeAndConstructionBusiness",
  "Store",
  "Restaurant",
  "FoodEstablishment",
  "LodgingBusiness",
  "Hotel",
  "MedicalBusiness",
  "AutomotiveBusiness",
  "RealEstateAgent",
  "EmploymentAgency",
  "TravelAgency",
  "NGO",
] as const;
const ORG_TYPES = new Map(ORGANISATION_TYPES.map((t) => [t.toLowerCase(), t]));

/** Longest JSON text kept in an invalid block's excerpt. */
const EXCERPT_MAX = 120;

export interface JsonLdBlock {
  /** 1-based, in page order. */
  index: number;
  /** Line of the page's HTML the `<script>` tag is on (1-based). */
  line: number;
  text: string;
}

export interface InvalidBlock {
  block: number;
  line: number;
  /** The JSON parser's complaint. */
  error: string;
  /** The block's first characters, as written. */
  excerpt: string;
}

export interface PostalAddress {
  street: string | null;
  locality: string | null;
  region: string | null;
  postcode: string | null;
  country: string | null;
  /** One line, as stated. */
  text: string;
}

export interface Identifier {
  /** The property it was given in: identifier, leiCode, taxID, vatID, companyRegistrationNumber, registrationNumber. */
  property: string;
  /** A PropertyValue's `name` or `propertyID` ("Company Number"); null for a plain value. */
  name: string | null;
  value: string;
}

export interface JsonLdOrganisation {
  /** The block it is in (1-based). */
  block: number;
  /** Its @type(s), as schema.org names. */
  types: string[];
  name: string | null;
  legalName: string | null;
  url: string | null;
  logo: string | null;
  sameAs: string[];
  address: PostalAddress | null;
  telephone: string | null;
  identifiers: Identifier[];
  /** The Companies House number among the identifiers, normalised to 8 characters; null when none is one. */
  companyNumber: string | null;
  /** The identifier it came from, quoted as written (`"identifier": {"name": "Company Number", "value": "01234567"}`). */
  companyNumberQuote: string | null;
}

export interface JsonLdReading {
  blocks: JsonLdBlock[];
  invalid: InvalidBlock[];
  /** Every @type seen on any node, sorted. */
  types: string[];
  organisations: JsonLdOrganisation[];
}

type Node = Record<string, unknown>;

/**
 * The JSON-LD script blocks of a page's HTML, in order, with the line each starts on. One pass: each `<script` start
 * tag, its end (`>`) and its `</script>` are each found once, scanning forward (a script never closed ends the read:
 * no later one can close either), and lines are counted as the scan goes.
 */
export function jsonLdBlocks(html: string): JsonLdBlock[] {
  const out: JsonLdBlock[] = [];
  const open = /<script\b/gi;
  const close = /<\/script\s*>/gi;
  let line = 1;
  let counted = 0;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const tagEnd = html.indexOf(">", m.index);
    if (tagEnd < 0) break;
    close.lastIndex = tagEnd + 1;
    const end = close.exec(html);
    if (!end) break;
    open.lastIndex = end.index + end[0].length;
    const type = /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(html.slice(m.index + m[0].length, tagEnd));
    const value = (type?.[1] ?? type?.[2] ?? type?.[3] ?? "").trim().toLowerCase().split(";")[0].trim();
    if (value !== "application/ld+json") continue;
    for (let i = counted; i < m.index; i++) if (html.charCodeAt(i) === 10) line++;
    counted = m.index;
    out.push({ index: out.length + 1, line, text: html.slice(tagEnd + 1, end.index) });
  }
  return out;
}

/** How deep into a node's values a property is looked for (a name nested in arrays of arrays is not a name). */
const VALUE_DEPTH = 12;

/** A block's JSON: HTML comment or CDATA wrappers (which browsers and Google ignore) are taken off first. */
function parseBlock(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const body = text
    .trim()
    .replace(/^<!--/, "")
    .replace(/-->$/, "")
    .replace(/^\/\/\s*<!\[CDATA\[/, "")
    .replace(/\/\/\s*\]\]>$/, "")
    .replace(/^<!\[CDATA\[/, "")
    .replace(/\]\]>$/, "")
    .trim();
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : "not JSON" };
  }
}

/** `https://schema.org/Corporation`, `schema:Corporation`, `Corporation` → `Corporation`. */
const typeName = (t: string) => t.trim().replace(/^.*[/#:]/, "");
const typesOf = (n: Node): string[] =>
  [n["@type"]]
    .flat()
    .filter((t): t is string => typeof t === "string")
    .map(typeName);
const isOrganisation = (n: Node) => typesOf(n).some((t) => ORG_TYPES.has(t.toLowerCase()));

/** The first string a property holds (a plain string, the first of an array, or an object's `name`/`@value`). */
function text(v: unknown, depth = 0): string | null {
  if (typeof v === "string") return v.trim() || null;
  if (typeof v === "number") return String(v);
  if (depth > VALUE_DEPTH) return null;
  if (Array.isArray(v)) {
    for (const x of v) {
      const t = text(x, depth + 1);
      if (t) return t;
    }
    return null;
  }
  if (v && typeof v === "object") {
    const o = v as Node;
    return text(o["@value"] ?? o.name, depth + 1);
  }
  return null;
}

/** A URL a property holds: a string, an ImageObject's url/contentUrl, or a node referred to by @id. */
function urlOf(v: unknown, byId: Map<string, Node>, depth = 0): string | null {
  if (typeof v === "string") return v.trim() || null;
  if (Array.isArray(v)) {
    if (depth > VALUE_DEPTH) return null;
    for (const x of v) {
      const u = urlOf(x, byId, depth + 1);
      if (u) return u;
    }
    return null;
  }
  if (!v || typeof v !== "object") return null;
  const o = v as Node;
  const target = typeof o["@id"] === "string" && !o.url && !o.contentUrl ? (byId.get(o["@id"]) ?? o) : o;
  const u = target.url ?? target.contentUrl;
  return typeof u === "string" ? u.trim() || null : null;
}

function addressOf(v: unknown, byId: Map<string, Node>, depth = 0): PostalAddress | null {
  if (Array.isArray(v)) {
    if (depth > VALUE_DEPTH) return null;
    for (const x of v) {
      const a = addressOf(x, byId, depth + 1);
      if (a) return a;
    }
    return null;
  }
  if (typeof v === "string") {
    const s = v.trim();
    return s ? { street: null, locality: null, region: null, postcode: postcodeIn(s), country: null, text: s } : null;
  }
  if (!v || typeof v !== "object") return null;
  let o = v as Node;
  if (typeof o["@id"] === "string" && !o.streetAddress && !o.postalCode && byId.has(o["@id"])) o = byId.get(o["@id"])!;
  const part = (k: string) => text(o[k]);
  const street = part("streetAddress");
  const locality = part("addressLocality");
  const region = part("addressRegion");
  const postcode = part("postalCode");
  const country = part("addressCountry");
  const line = [street, locality, region, postcode, country].filter(Boolean).join(", ");
  if (!line) return null;
  return { street, locality, region, postcode, country, text: line };
}

/** A UK postcode written inside a line of text. */
const POSTCODE = /\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b/i;
export const postcodeIn = (s: string): string | null => {
  const m = POSTCODE.exec(s);
  return m ? `${m[1]} ${m[2]}`.toUpperCase() : null;
};

/** A company number as written on its own: 8 digits, or two letters and 6 digits (SC123456). */
const STRICT_NUMBER = /^(?:[A-Z]{2}\d{6}|\d{8})$/i;
/** A PropertyValue's name that says it is a Companies House number. */
const COMPANY_NUMBER_NAME =
  /compan(?:y|ies)\s*(?:house|reg(?:istration|istered)?\.?)?\s*(?:number|no\b|#)|\bcrn\b|company\s+registration|registered\s+(?:company\s+)?number|registration\s+number|companies\s+house/i;
const IDENTIFIER_PROPS = ["identifier", "companyRegistrationNumber", "registrationNumber", "leiCode", "taxID", "vatID"] as const;

function identifiersOf(n: Node): Identifier[] {
  const out: Identifier[] = [];
  for (const property of IDENTIFIER_PROPS) {
    for (const v of [n[property]].flat()) {
      if (typeof v === "string" || typeof v === "number") {
        const value = String(v).trim();
        if (value) out.push({ property, name: null, value });
      } else if (v && typeof v === "object") {
        const o = v as Node;
        const value = text(o.value ?? o["@value"]);
        if (value) out.push({ property, name: text(o.name) ?? text(o.propertyID), value });
      }
    }
  }
  return out;
}

/** The company number among the identifiers: named as one, in a property for it, or a plain identifier/taxID shaped like one. */
function companyNumberOf(ids: Identifier[]): Identifier | null {
  const named = ids.find((i) => i.name && COMPANY_NUMBER_NAME.test(i.name) && normaliseCompanyNumber(i.value));
  if (named) return named;
  const own = ids.find((i) => (i.property === "companyRegistrationNumber" || i.property === "registrationNumber") && normaliseCompanyNumber(i.value));
  if (own) return own;
  return ids.find((i) => (i.property === "identifier" || i.property === "taxID") && !i.name && STRICT_NUMBER.test(i.value.replace(/\s+/g, ""))) ?? null;
}

const quoteIdentifier = (i: Identifier) =>
  i.name ? `"${i.property}": {"name": ${JSON.stringify(i.name)}, "value": ${JSON.stringify(i.value)}}` : `"${i.property}": ${JSON.stringify(i.value)}`;

/** Every JSON-LD block of the page, the invalid ones reported, and the organisations stated. */
export function readJsonLd(html: string): JsonLdReading {
  const blocks = jsonLdBlocks(html);
  const invalid: InvalidBlock[] = [];
  const types = new Set<string>();
  const found: { node: Node; block: number }[] = [];
  const byId = new Map<string, Node>();
  for (const b of blocks) {
    const parsed = parseBlock(b.text);
    if (!parsed.ok) {
      const excerpt = b.text.trim().replace(/\s+/g, " ");
      invalid.push({
        block: b.index,
        line: b.line,
        error: parsed.error,
        excerpt: excerpt.length > EXCERPT_MAX ? `${excerpt.slice(0, EXCERPT_MAX)}…` : excerpt,
      });
      continue;
    }
    const seen = new Set<unknown>();
    const walk = (v: unknown, depth: number): void => {
      if (depth > 12 || !v || typeof v !== "object" || seen.has(v)) return;
      seen.add(v);
      if (Array.isArray(v)) {
        for (const x of v) walk(x, depth + 1);
        return;
      }
      const node = v as Node;
      for (const t of typesOf(node)) types.add(t);
      if (typeof node["@id"] === "string" && (node["@type"] || Object.keys(node).length > 1))
        byId.set(node["@id"], { ...(byId.get(node["@id"]) ?? {}), ...node });
      if (isOrganisation(node)) found.push({ node, block: b.index });
      for (const [k, x] of Object.entries(node)) if (k !== "@context") walk(x, depth + 1);
    };
    walk(parsed.value, 0);
  }
  // One organisation per @id (a graph may state it twice, or refer back to it): the first statement, completed by the rest.
  const merged: { node: Node; block: number }[] = [];
  const at = new Map<string, number>();
  for (const f of found) {
    const id = typeof f.node["@id"] === "string" ? f.node["@id"] : null;
    if (id && at.has(id)) {
      const m = merged[at.get(id)!];
      m.node = { ...f.node, ...m.node };
      continue;
    }
    if (id) at.set(id, merged.length);
    merged.push({ ...f, node: id ? { ...(byId.get(id) ?? {}), ...f.node } : f.node });
  }
  const organisations = merged.map(({ node, block }): JsonLdOrganisation => {
    const identifiers = identifiersOf(node);
    const number = companyNumberOf(identifiers);
    return {
      block,
      types: typesOf(node).map((t) => ORG_TYPES.get(t.toLowerCase()) ?? t),
      name: text(node.name),
      legalName: text(node.legalName),
      url: urlOf(node.url, byId),
      logo: urlOf(node.logo, byId),
      sameAs: [node.sameAs]
        .flat()
        .filter((s): s is string => typeof s === "string" && !!s.trim())
        .map((s) => s.trim()),
      address: addressOf(node.address, byId),
      telephone: text(node.telephone),
      identifiers,
      companyNumber: number ? normaliseCompanyNumber(number.value) : null,
      companyNumberQuote: number ? quoteIdentifier(number) : null,
    };
  });
  return { blocks, invalid, types: [...types].sort(), organisations };
}
