/**
 * Contracts Finder and Find a Tender OCDS (issue 14 §1): release packages, record packages, a JSON array of
 * releases (or of packages, as the daily job assembles its pages), or one release → one register record per
 * award and supplier. The format is ../shared/formats/contracts-finder-fts.md.
 *
 * - Suppliers are tied to a company by their Companies House number: an identifier of scheme `GB-COH` (the
 *   party's `identifier`, or one of its `additionalIdentifiers` beside a `GB-PPON`), else a party id written
 *   `GB-COH-<number>`. Numbers are normalised (`GB-COH-4142000` → `04142000`). Suppliers with neither (Contracts
 *   Finder's own `GB-CFS-*` ids) keep their name and postcode, for matching by exact name and postcode later.
 * - An award published again (an update) is read from its newest release in the file; older ones are counted.
 * - A supplier without a company number named only as a person is not loaded ("<person> t/a <business>" keeps the
 *   business): SPEC §1 rule 7. The shared rule (services/matching/people.ts) errs on privacy's side.
 * - Contact points are never read.
 * - Releases of other publishers (OCID prefixes other than Contracts Finder's and Find a Tender's) are counted and skipped.
 *
 * JSON is parsed strictly; only when that fails are raw control characters inside strings escaped and the
 * parse tried again (copies of real releases carry raw line breaks in addresses; the live API escapes them).
 */
import type { ContractAward, ContractSource } from "../../services/contracts/types";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { companyLevelName } from "../../services/matching/people";
import type { RegisterRecord } from "../../services/registers/types";
import { RegisterFormatError } from "../format-error";

/** Public notice pages (never the configured API hosts: the links are for people). */
export const CF_NOTICE_PAGE = "https://www.contractsfinder.service.gov.uk/Notice/";
export const FTS_NOTICE_PAGE = "https://www.find-tender.service.gov.uk/Notice/";

/** OCID prefixes of the two publishers this register reads (also the tender notices' reader, ./tenders.ts). */
export const PUBLISHERS: Record<string, ContractSource> = { "ocds-h6vhtk": "FTS", "ocds-b5fd17": "CF" };

export const DESCRIPTION_MAX = 500;

/** Readers of untyped OCDS JSON (shared with tenders.ts). */
export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const objs = (v: unknown): Obj[] => arr(v).filter(isObj);
export const str = (v: unknown): string | null => (typeof v === "string" ? v.trim() || null : typeof v === "number" && Number.isFinite(v) ? String(v) : null);
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});

// ---------------------------------------------------------------------------------------------- JSON

const ESCAPES: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };

/** Raw control characters (U+0000–U+001F) inside JSON strings written as escapes; everything else untouched. */
export function escapeControlCharacters(text: string): string {
  let out = "";
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!inString) {
      if (c === 0x22) inString = true;
    } else if (c === 0x5c)
      i++; // an escape: its next character is part of it
    else if (c === 0x22) inString = false;
    else if (c < 0x20) {
      out += text.slice(last, i) + (ESCAPES[c] ?? `\\u${c.toString(16).padStart(4, "0")}`);
      last = i + 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/** OCDS JSON: strict first; if that fails, once more with raw control characters inside strings escaped. */
export function parseOcdsJson(text: string): unknown {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(t);
  } catch (strict) {
    const escaped = escapeControlCharacters(t);
    if (escaped === t) throw strict;
    return JSON.parse(escaped);
  }
}

// ---------------------------------------------------------------------------------------------- packages

export interface OcdsInput {
  releases: Obj[];
  /** The newest `publishedDate` of the packages read, if any. */
  publishedDate: string | null;
}

/** A record's releases: the full ones it embeds, else its compiled release (linked releases carry only a URL). */
function recordReleases(rec: Obj): Obj[] {
  const full = objs(rec.releases).filter((r) => str(r.ocid) && ("awards" in r || "parties" in r || "tender" in r));
  if (full.length) return full;
  return isObj(rec.compiledRelease) ? [rec.compiledRelease] : [];
}

const isPackage = (v: Obj) => Array.isArray(v.releases) || Array.isArray(v.records);
const isRelease = (v: Obj) => typeof v.ocid === "string";

/** Every release of a release package, a record package, one release, or an array of any of them. */
export function releasesOf(json: unknown): OcdsInput {
  const releases: Obj[] = [];
  let publishedDate: string | null = null;
  const add = (v: Obj): boolean => {
    if (isPackage(v)) {
      const p = str(v.publishedDate);
      if (p && (!publishedDate || p > publishedDate)) publishedDate = p;
      if (Array.isArray(v.releases)) releases.push(...objs(v.releases));
      else for (const rec of objs(v.records)) releases.push(...recordReleases(rec));
      return true;
    }
    if (isRelease(v)) {
      releases.push(v);
      return true;
    }
    return false;
  };
  const ok = Array.isArray(json) ? json.every((v) => isObj(v) && add(v)) : isObj(json) && add(json);
  if (!ok) throw new RegisterFormatError("contracts: expected OCDS JSON: a release package, a record package, a release, or an array of releases or packages");
  return { releases, publishedDate };
}

// ---------------------------------------------------------------------------------------------- fields

const POSTCODE_SHAPE = /^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})$/;
/** Upper-case postcodes in free text. Letters before one may be lower case: copies of real addresses lost their "\r\n" to "rn" ("StreetrnLondonrnEC4A 4AB"). */
const POSTCODE_IN_TEXT = /(?<![A-Z\d])([A-Z]{1,2}\d[A-Z\d]?) ?(\d[A-Z]{2})(?![A-Za-z\d])/g;
const POSTCODE_ANY_CASE = /\b([A-Z]{1,2}\d[A-Z\d]?) ?(\d[A-Z]{2})\b/gi;

/** A UK postcode written the usual way (`NN11ED` → `NN1 1ED`), or null when the text is not one. */
export function ukPostcode(raw: string | null): string | null {
  const s = raw?.toUpperCase().replace(/[^A-Z\d]/g, "") ?? "";
  const m = POSTCODE_SHAPE.exec(s);
  return m ? `${m[1]} ${m[2]}` : null;
}

/** The address's postcode: its `postalCode`, else the last postcode written in its other lines. */
export function postcodeOf(address: unknown): string | null {
  const a = obj(address);
  const given = ukPostcode(str(a.postalCode));
  if (given) return given;
  const text = [a.streetAddress, a.locality, a.region, a.postalCode].map(str).filter(Boolean).join(", ");
  for (const re of [POSTCODE_IN_TEXT, POSTCODE_ANY_CASE]) {
    const all = [...text.matchAll(re)];
    if (all.length) return `${all[all.length - 1][1]} ${all[all.length - 1][2]}`.toUpperCase();
  }
  return null;
}

const identifierList = (party: Obj): Obj[] => [party.identifier, ...arr(party.additionalIdentifiers)].filter(isObj);
const scheme = (i: Obj) => str(i.scheme)?.toUpperCase() ?? null;

/** The Companies House number: a GB-COH identifier (or additional identifier), else a `GB-COH-<n>` id. */
function companyNumberOf(ids: Obj[], partyIds: (string | null)[]): string | null {
  for (const i of ids)
    if (scheme(i) === "GB-COH") {
      const n = normaliseCompanyNumber(str(i.id));
      if (n) return n;
    }
  for (const id of partyIds) {
    const m = id && /^GB-COH-(.+)$/i.exec(id);
    const n = m ? normaliseCompanyNumber(m[1]) : null;
    if (n) return n;
  }
  return null;
}

function pponOf(ids: Obj[], partyIds: (string | null)[]): string | null {
  for (const i of ids) if (scheme(i) === "GB-PPON" && str(i.id)) return str(i.id);
  for (const id of partyIds) {
    const m = id && /^GB-PPON-(.+)$/i.exec(id);
    if (m) return m[1];
  }
  return null;
}

function scaleOf(party: Obj): "sme" | "large" | null {
  const s = str(obj(party.details).scale)?.toLowerCase();
  if (s === "large") return "large";
  return s === "sme" || s === "micro" || s === "small" || s === "medium" ? "sme" : null;
}

export function amountOf(v: unknown): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

function awardValueOf(v: unknown): ContractAward["value"] {
  if (!isObj(v)) return null;
  const amount = amountOf(v.amount) ?? amountOf(v.amountGross);
  return amount === null ? null : { amount, currency: str(v.currency) ?? "GBP" };
}

function periodOf(p: unknown): ContractAward["contractPeriod"] {
  if (!isObj(p)) return null;
  const start = str(p.startDate);
  const end = str(p.endDate);
  return start || end ? { start, end } : null;
}

function cpvOf(c: unknown): ContractAward["cpv"] {
  if (!isObj(c)) return null;
  const s = scheme(c);
  const id = str(c.id);
  return id && (!s || s === "CPV") ? { id, description: str(c.description) } : null;
}

function describe(text: string | null): string | null {
  if (!text || text.length <= DESCRIPTION_MAX) return text;
  return `${text.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
}

const GUID = /^([\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12})(?:-\d+)?$/i;

/** The notice page: FTS by release (notice) id; CF by the notice's guid (the release id less its version). `award` (or the tender) lends its documents' CF link. */
export function noticeUrlOf(source: ContractSource, ocid: string, releaseId: string, award: Obj): string {
  if (source === "FTS") return FTS_NOTICE_PAGE + encodeURIComponent(releaseId || ocid);
  const guid = GUID.exec(releaseId)?.[1];
  if (guid) return CF_NOTICE_PAGE + guid.toLowerCase();
  const doc = objs(award.documents)
    .map((d) => str(d.url))
    .find((u) => u?.startsWith(CF_NOTICE_PAGE));
  return doc ?? CF_NOTICE_PAGE + ocid.replace(/^ocds-b5fd17-/, "");
}

const dateValue = (d: string | null) => {
  const t = d ? Date.parse(d) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
};

// ---------------------------------------------------------------------------------------------- awards

/** One award to one supplier, with what its register record needs beside the award itself. */
export interface SupplierAward {
  key: string;
  entity: string;
  part: string;
  town: string | null;
  altNames: string[];
  award: ContractAward;
}

const count = (notes: Record<string, number>, what: string, n = 1) => {
  notes[what] = (notes[what] ?? 0) + n;
};

/** Each award of a release to each of its suppliers. */
function releaseAwards(r: Obj, source: ContractSource, notes: Record<string, number>, keep: (awardId: string) => boolean): SupplierAward[] {
  const ocid = str(r.ocid)!;
  const releaseId = str(r.id) ?? "";
  const tender = obj(r.tender);
  const parties = objs(r.parties);
  const partyById = new Map(parties.filter((p) => str(p.id)).map((p) => [str(p.id)!, p]));
  const buyerParty = parties.find((p) => arr(p.roles).includes("buyer"));
  const buyer = isObj(r.buyer) ? { name: str(r.buyer.name), id: str(r.buyer.id) } : { name: str(buyerParty?.name), id: str(buyerParty?.id) };
  const cpv =
    cpvOf(tender.classification) ??
    objs(tender.items)
      .map((i) => cpvOf(i.classification))
      .find(Boolean) ??
    null;
  const out: SupplierAward[] = [];
  for (const a of objs(r.awards)) {
    const awardId = str(a.id);
    if (!awardId) {
      count(notes, "awardsWithoutId");
      continue;
    }
    if (!keep(awardId)) {
      count(notes, "olderVersionsOfAwards");
      continue;
    }
    const suppliers = objs(a.suppliers);
    if (!suppliers.length) {
      count(notes, "awardsWithoutSuppliers");
      continue;
    }
    const contract = objs(r.contracts).find((c) => str(c.awardID) === awardId);
    const common = {
      source,
      ocid,
      releaseId,
      awardId,
      noticeUrl: noticeUrlOf(source, ocid, releaseId, a),
      buyer,
      title: str(a.title) ?? str(tender.title),
      description: describe(str(a.description) ?? str(tender.description)),
      value: awardValueOf(a.value),
      awardDate: str(a.date),
      datePublished: str(a.datePublished) ?? str(r.date),
      contractPeriod: periodOf(a.contractPeriod) ?? periodOf(contract?.period),
      cpv,
      supplierCount: suppliers.length,
      status: str(a.status)?.toLowerCase() ?? "unknown",
      updatedAt: str(r.date),
    };
    suppliers.forEach((s, i) => {
      const sid = str(s.id);
      const sname = str(s.name);
      const party =
        (sid ? partyById.get(sid) : undefined) ??
        (!sid && sname ? parties.find((p) => str(p.name) === sname && arr(p.roles).includes("supplier")) : undefined) ??
        {};
      const raw = sname ?? str(party.name) ?? str(obj(party.identifier).legalName);
      if (!raw) {
        count(notes, "suppliersWithoutName");
        return;
      }
      const ids = identifierList(party);
      const partyIds = [sid, str(party.id)];
      const companyNumber = companyNumberOf(ids, partyIds);
      // SPEC §1 rule 7: a supplier without a company number named only as a person is never loaded; one with a
      // number is a company, under the name it is registered with, and is kept as the notice names it.
      const kept = companyNumber ? { name: raw, personRemoved: false } : companyLevelName(raw);
      if (!kept) {
        count(notes, "personOnlySuppliers");
        return;
      }
      if (kept.personRemoved) count(notes, "personNamesRemoved");
      const identifiers = [...new Set(ids.filter((x) => scheme(x) && str(x.id)).map((x) => `${scheme(x)}-${str(x.id)}`))];
      const ownId = sid ?? str(party.id);
      if (ownId && !identifiers.includes(ownId)) identifiers.push(ownId);
      const legal = str(obj(party.identifier).legalName);
      const legalKept = legal && legal.toLowerCase() !== raw.toLowerCase() ? companyLevelName(legal) : null;
      const part = ownId ?? `#${i}`;
      out.push({
        key: `${ocid}/${awardId}/${part}`,
        entity: `${ocid}/${awardId}`,
        part,
        town: str(obj(party.address).locality),
        altNames: legalKept && !legalKept.personRemoved && legalKept.name !== kept.name ? [legalKept.name] : [],
        award: {
          ...common,
          supplier: {
            name: kept.name,
            companyNumber,
            ppon: pponOf(ids, partyIds),
            postcode: postcodeOf(party.address),
            scale: scaleOf(party),
            identifiers,
          },
        },
      });
    });
  }
  return out;
}

export interface ContractsParse {
  /** The packages' newest publishedDate, else the newest release date (YYYY-MM-DD); null when neither. */
  editionDate: string | null;
  awards: SupplierAward[];
  /** Counts of what was left out (never names). */
  notes: Record<string, number>;
}

/** Every award to every supplier in an OCDS file, each award from its newest release in the file. */
/** The releases of an OCDS file (bytes or text), refusing anything that is not OCDS JSON; `what` names the reader in the error. */
export function readOcdsFile(input: Uint8Array | string, what: string): OcdsInput {
  const text = typeof input === "string" ? input : new TextDecoder().decode(input);
  if (!/^\s*[[{]/.test(text.slice(0, 1024).replace(/^\uFEFF/, "")))
    throw new RegisterFormatError(`${what}: expected OCDS JSON (it starts with neither [ nor {)`);
  let json: unknown;
  try {
    json = parseOcdsJson(text);
  } catch (e) {
    throw new RegisterFormatError(`${what}: not JSON: ${(e as Error).message}`);
  }
  return releasesOf(json);
}

export function parseContracts(input: Uint8Array | string): ContractsParse {
  const { releases, publishedDate } = readOcdsFile(input, "contracts");
  const notes: Record<string, number> = {};
  // The newest release of each award (by release date; the later in the file on a tie).
  const newest = new Map<string, { at: number; index: number }>();
  releases.forEach((r, index) => {
    const ocid = str(r.ocid);
    if (!ocid) return;
    const at = dateValue(str(r.date));
    for (const a of objs(r.awards)) {
      const id = str(a.id);
      if (!id) continue;
      const k = `${ocid}/${id}`;
      const seen = newest.get(k);
      if (!seen || at >= seen.at) newest.set(k, { at, index });
    }
  });
  const awards: SupplierAward[] = [];
  let latest: string | null = null;
  releases.forEach((r, index) => {
    const ocid = str(r.ocid);
    if (!ocid) return count(notes, "releasesWithoutOcid");
    const date = str(r.date);
    if (date && (!latest || dateValue(date) > dateValue(latest))) latest = date;
    const source = PUBLISHERS[ocid.slice(0, 11).toLowerCase()];
    if (!source) return count(notes, "otherPublishers");
    if (!objs(r.awards).length) return count(notes, "releasesWithoutAwards");
    awards.push(...releaseAwards(r, source, notes, (awardId) => newest.get(`${ocid}/${awardId}`)?.index === index));
  });
  const dated = publishedDate ?? latest;
  return { editionDate: dated ? isoDay(dated) : null, awards, notes };
}

/** The UTC day of a timestamp (`2025-03-11T13:09:16Z` → `2025-03-11`), or its first ten characters. */
function isoDay(t: string): string {
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? t.slice(0, 10) : new Date(ms).toISOString().slice(0, 10);
}

/** The register record of one award to one supplier. */
export function contractRecord(a: SupplierAward): RegisterRecord<"contracts"> {
  return {
    source: "contracts",
    key: a.key,
    entity: a.entity,
    part: a.part,
    name: a.award.supplier.name,
    companyNumber: a.award.supplier.companyNumber,
    altNames: a.altNames,
    status: a.award.status,
    rating: null,
    town: a.town,
    data: a.award,
  };
}

// ---------------------------------------------------------------------------------------------- slim releases

const pick = (o: unknown, keys: string[]): Obj | undefined => {
  if (!isObj(o)) return undefined;
  const out: Obj = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
};

/**
 * A release cut down to what the parser reads (the daily job keeps a day of releases in memory: a Find a Tender
 * release with its lots, items and documents is many times this). Contact points are dropped here. Null for a
 * release without awards, which gives no record.
 */
export function slimRelease(r: unknown): Obj | null {
  if (!isObj(r) || !objs(r.awards).length) return null;
  const awards = objs(r.awards).map((a) => ({
    ...pick(a, ["id", "title", "status", "date", "datePublished", "value", "suppliers", "contractPeriod"]),
    description: describe(str(a.description)) ?? undefined,
    documents: objs(a.documents)
      .filter((d) => d.documentType === "awardNotice")
      .map((d) => pick(d, ["documentType", "url"])),
  }));
  const wanted = new Set([...objs(r.awards).flatMap((a) => objs(a.suppliers).map((s) => str(s.id))), str(obj(r.buyer).id)].filter(Boolean));
  const parties = objs(r.parties)
    .filter((p) => wanted.has(str(p.id)) || arr(p.roles).includes("supplier") || arr(p.roles).includes("buyer"))
    .map((p) => ({
      ...pick(p, ["id", "name", "identifier", "additionalIdentifiers", "roles"]),
      address: pick(p.address, ["streetAddress", "locality", "region", "postalCode", "countryName"]),
      details: pick(p.details, ["scale"]),
    }));
  const tender = obj(r.tender);
  return {
    ...pick(r, ["ocid", "id", "date", "tag", "buyer"]),
    tender: {
      ...pick(tender, ["title", "classification"]),
      description: describe(str(tender.description)) ?? undefined,
      items: objs(tender.items)
        .map((i) => pick(i, ["classification"]))
        .filter((i) => i && i.classification),
    },
    parties,
    awards,
    contracts: objs(r.contracts).map((c) => pick(c, ["awardID", "period"])),
  };
}
