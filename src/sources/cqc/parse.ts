/**
 * CQC (Care Quality Commission) locations and providers (SPEC §4.8, §6.3), from the syndication
 * API's detail objects or the monthly HSCA Active Locations ODS (joined to CQC's ratings file,
 * ./ratings.ts, for the key questions and the date of each rating). SPEC §1 rule 7: providers that are
 * a person registered under their own name (ownershipType "Individual") are not loaded, a location
 * of such a provider carries no provider name, and no contact, nominated individual, registered
 * manager, partner name or phone number is ever read.
 */
import { companyLevelName } from "../../services/matching/people";
import type { CqcAddress, CqcKeyQuestions, CqcProviderData } from "../../services/registers/catalogue";
import type { RegisterRecord } from "../../services/registers/types";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { RegisterFormatError } from "../format-error";
import { readOdsRows } from "../ods";

/** The five key questions' ratings (the register's shape, services/registers/catalogue.ts, its rows). */
export type KeyQuestions = CqcKeyQuestions;
export type { CqcAddress };

/** CQC's ratings file as read (src/sources/cqc/ratings.ts reads it; the types live here so that file depends on this one, not both ways). */
/** One location's or provider's own rating in the file. */
export interface CqcRating {
  /** The overall rating (key question `Overall`), verbatim; null when the file gives none. */
  overall: string | null;
  /** When the overall rating was published. */
  overallDate: string | null;
  keyQuestions: KeyQuestions;
  /** The date of the rating: the overall rating's publication date, else the latest key question's. */
  ratingDate: string | null;
  /** The latest publication date among its rows (overall and key questions). */
  latestDate: string | null;
  /** `Inherited Rating (Y/N)` (locations only): the rating was given to a previous provider. */
  inherited: boolean | null;
}

/** What the run log is told about the file (counts only). */
export interface CqcRatingsNotes {
  /** Rows published after the edition's date: not part of that edition, not used. */
  ratingsPublishedAfterEdition: number;
  /** The file has no Providers sheet: no provider is rated from it. */
  ratingsProvidersSheetMissing: number;
}

export interface CqcRatings {
  /** By location id. */
  locations: Map<string, CqcRating>;
  /** By provider id. */
  providers: Map<string, CqcRating>;
  notes: CqcRatingsNotes;
}

type Obj = Record<string, unknown>;

export const KEY_QUESTION: Record<string, keyof KeyQuestions> = {
  safe: "safe",
  effective: "effective",
  caring: "caring",
  responsive: "responsive",
  "well-led": "wellLed",
  "well led": "wellLed",
};
const DMY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
/** A trimmed non-empty string (numbers accepted, as ODS cells and loose JSON give them), else null. */
export const str = (v: unknown): string | null => {
  const s = typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "";
  return s || null;
};
/** ISO date/timestamp or dd/mm/yyyy → YYYY-MM-DD. */
export const date = (v: unknown): string | null => {
  const s = str(v);
  if (!s) return null;
  if (ISO_DATE.test(s)) return s.slice(0, 10);
  const m = DMY.exec(s);
  return m ? `${m[3]}-${m[2].padStart(2, "0")}-${m[1].padStart(2, "0")}` : null;
};
export const yesNo = (v: unknown): boolean | null => {
  const s = str(v)?.toUpperCase();
  return s === "Y" || s === "YES" ? true : s === "N" || s === "NO" ? false : null;
};
const int = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : NaN;
  return Number.isInteger(n) ? n : null;
};
const isIndividual = (ownershipType: unknown) => str(ownershipType)?.toLowerCase() === "individual";

export const noKeyQuestions = (): KeyQuestions => ({ safe: null, effective: null, caring: null, responsive: null, wellLed: null });

/** Overall rating, its date and the five key questions from `currentRatings.overall`. */
function ratings(o: Obj): { overall: string | null; date: string | null; keyQuestions: KeyQuestions } {
  const overall = isObj(o.currentRatings) && isObj(o.currentRatings.overall) ? o.currentRatings.overall : null;
  const keyQuestions = noKeyQuestions();
  if (overall && Array.isArray(overall.keyQuestionRatings)) {
    for (const kq of overall.keyQuestionRatings) {
      const field = isObj(kq) ? KEY_QUESTION[str(kq.name)?.toLowerCase() ?? ""] : undefined;
      if (field) keyQuestions[field] = str((kq as Obj).rating);
    }
  }
  return { overall: overall ? str(overall.rating) : null, date: overall ? date(overall.reportDate) : null, keyQuestions };
}

const apiAddress = (o: Obj): CqcAddress => ({
  line1: str(o.postalAddressLine1),
  line2: str(o.postalAddressLine2),
  town: str(o.postalAddressTownCity),
  county: str(o.postalAddressCounty),
  postcode: str(o.postalCode),
});

const dateField = (o: Obj, field: string, sub: string) => (isObj(o[field]) ? date((o[field] as Obj)[sub]) : null);

function altNames(alsoKnownAs: unknown, name: string): string[] {
  const aka = str(alsoKnownAs);
  return aka && aka.toLowerCase() !== name.toLowerCase() ? [aka] : [];
}

function requireId(o: unknown, field: "locationId" | "providerId"): asserts o is Obj {
  if (!isObj(o) || !str(o[field])) throw new RegisterFormatError(`CQC: expected a ${field.slice(0, -2)} object with ${field}`);
}

/**
 * A location detail object (`GET /locations/{id}`). The location object names its provider only by
 * id; pass the provider detail object, when known, for the company number and provider name.
 */
export function parseCqcLocation(json: unknown, provider?: unknown): RegisterRecord<"cqc"> | null {
  requireId(json, "locationId");
  const o = json;
  const locationId = str(o.locationId)!;
  const p = isObj(provider) && str(provider.providerId) === str(o.providerId) ? provider : null;
  // SPEC §1 rule 7: a location named only after a person is not loaded; "<person> t/a <practice>" keeps the practice.
  const kept = companyLevelName(str(o.name) ?? str(o.locationName) ?? "");
  if (!kept) return null;
  const name = kept.name;
  const r = ratings(o);
  const deregistrationDate = date(o.deregistrationDate);
  const registrationStatus = str(o.registrationStatus) ?? (deregistrationDate ? "Deregistered" : "Registered");
  const address = apiAddress(o);
  return {
    source: "cqc",
    key: locationId,
    entity: locationId,
    part: null,
    name,
    companyNumber: p ? normaliseCompanyNumber(str(p.companiesHouseNumber)) : null,
    altNames: altNames(o.alsoKnownAs, name),
    status: registrationStatus,
    rating: r.overall,
    town: address.town,
    data: {
      kind: "location",
      locationId,
      providerId: str(o.providerId),
      providerName: p && !isIndividual(p.ownershipType) ? str(p.name) : null,
      name,
      type: str(o.type),
      registrationStatus,
      registrationDate: date(o.registrationDate),
      deregistrationDate,
      careHome: yesNo(o.careHome),
      numberOfBeds: int(o.numberOfBeds),
      address,
      localAuthority: str(o.localAuthority),
      region: str(o.region),
      inspectionDirectorate: str(o.inspectionDirectorate),
      overallRating: r.overall,
      ratingDate: r.date,
      keyQuestions: r.keyQuestions,
      lastInspectionDate: dateField(o, "lastInspection", "date"),
      lastReportDate: dateField(o, "lastReport", "publicationDate"),
      inheritedRating: null, // only the HSCA bulk file says whether a rating was inherited
    },
  };
}

/** A provider detail object (`GET /providers/{id}`); null for a person registered under their own name. */
export function parseCqcProvider(json: unknown): RegisterRecord<"cqc"> | null {
  requireId(json, "providerId");
  const o = json;
  const providerId = str(o.providerId)!;
  if (isIndividual(o.ownershipType)) return null;
  const name = str(o.name) ?? "";
  const r = ratings(o);
  const companyNumber = normaliseCompanyNumber(str(o.companiesHouseNumber));
  const deregistrationDate = date(o.deregistrationDate);
  const registrationStatus = str(o.registrationStatus) ?? (deregistrationDate ? "Deregistered" : "Registered");
  const address = apiAddress(o);
  return {
    source: "cqc",
    key: `provider:${providerId}`,
    entity: `provider:${providerId}`,
    part: null,
    name,
    companyNumber,
    altNames: altNames(o.alsoKnownAs, name),
    status: registrationStatus,
    rating: r.overall,
    town: address.town,
    data: {
      kind: "provider",
      providerId,
      name,
      companyNumber,
      charityNumber: str(o.charityNumber),
      ownershipType: str(o.ownershipType),
      type: str(o.type),
      registrationStatus,
      registrationDate: date(o.registrationDate),
      deregistrationDate,
      locationIds: Array.isArray(o.locationIds) ? o.locationIds.map(str).filter((s): s is string => s !== null) : [],
      overallRating: r.overall,
      keyQuestions: r.keyQuestions,
      address,
      lastInspectionDate: dateField(o, "lastInspection", "date"),
    },
  };
}

/**
 * Records from a JSON file of detail objects: an array mixing locations and providers, or
 * `{ locations: [...], providers: [...] }`. Locations are joined to their provider (by providerId)
 * when it is in the same file. Order: the array's order, or locations then providers.
 */
export async function* parseCqcJson(bytes: Uint8Array | string): AsyncGenerator<RegisterRecord<"cqc">> {
  let json: unknown;
  try {
    json = JSON.parse(typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes));
  } catch {
    throw new RegisterFormatError("CQC: not a JSON file");
  }
  const items = Array.isArray(json)
    ? json
    : isObj(json) && (Array.isArray(json.locations) || Array.isArray(json.providers))
      ? [...(Array.isArray(json.locations) ? json.locations : []), ...(Array.isArray(json.providers) ? json.providers : [])]
      : null;
  if (!items) throw new RegisterFormatError("CQC: expected an array of detail objects or { locations, providers }");
  const providers = new Map<string, Obj>();
  for (const it of items) if (isObj(it) && !str(it.locationId) && str(it.providerId)) providers.set(str(it.providerId)!, it);
  for (const it of items) {
    if (isObj(it) && str(it.locationId)) {
      const rec = parseCqcLocation(it, providers.get(str(it.providerId) ?? ""));
      if (rec) yield rec;
    } else {
      const rec = parseCqcProvider(it); // throws RegisterFormatError on an item that is neither
      if (rec) yield rec;
    }
  }
}

/** HSCA Active Locations columns, matched by prefix of the lower-cased header (two headers carry long notes). */
const HSCA = {
  locationId: "location id",
  startDate: "location hsca start date",
  careHome: "care home?",
  name: "location name",
  beds: "care homes beds",
  type: "location type/sector",
  directorate: "location inspection directorate",
  rating: "location latest overall rating",
  publicationDate: "publication date",
  inherited: "inherited rating",
  region: "location region",
  localAuthority: "location local authority",
  line1: "location street address",
  line2: "location address line 2",
  town: "location city",
  county: "location county",
  postcode: "location postal code",
  companyNumber: "provider companies house number",
  charityNumber: "provider charity number",
  providerId: "provider id",
  providerName: "provider name",
  providerStart: "provider hsca start date",
  providerType: "provider type/sector",
  ownershipType: "provider ownership type",
  pLine1: "provider street address",
  pLine2: "provider address line 2",
  pTown: "provider city",
  pCounty: "provider county",
  pPostcode: "provider postal code",
} as const;
type HscaField = keyof typeof HSCA;

/** The location's rating fields as the HSCA file alone gives them: the overall rating and its publication date. */
function hscaRating(rating: string | null, published: string | null) {
  return {
    overallRating: rating,
    ratingDate: published,
    keyQuestions: noKeyQuestions(), // the HSCA file gives the overall rating only
    lastReportDate: published, // the file's Publication Date: the latest rating's report
    fromRatingsFile: null as CqcRating | null,
  };
}

/**
 * A location's rating fields from the HSCA row and the ratings file (joined by location id). The file's rating
 * is used unless the HSCA file's is newer (its key questions would then belong to an older rating, so none are
 * given); the file's overall rating goes with its own date, else the HSCA file's with its date.
 */
function joinedRating(rating: string | null, published: string | null, r: CqcRating | undefined, notes: Record<string, number>) {
  if (!r) return hscaRating(rating, published);
  if (published && r.ratingDate && published > r.ratingDate) {
    notes.hscaRatingNewerThanRatingsFile = (notes.hscaRatingNewerThanRatingsFile ?? 0) + 1;
    return hscaRating(rating, published);
  }
  notes.ratedFromRatingsFile = (notes.ratedFromRatingsFile ?? 0) + 1;
  if (r.overall && rating && r.overall.toLowerCase() !== rating.toLowerCase())
    notes.overallRatingDiffersFromHsca = (notes.overallRatingDiffersFromHsca ?? 0) + 1; // the ratings file's is taken
  return {
    overallRating: r.overall ?? rating,
    ratingDate: r.overall ? r.overallDate : rating ? published : r.ratingDate,
    keyQuestions: r.keyQuestions,
    lastReportDate: [r.latestDate, published].reduce<string | null>((m, d) => (d && (!m || d > m) ? d : m), null),
    fromRatingsFile: r,
  };
}

/**
 * The monthly HSCA Active Locations ODS (sheet `HSCA_Active_Locations`): one location record per
 * row, then one record per (non-individual) provider seen, with the ids of its listed locations.
 * The file gives a location's overall rating only; with `ratings` (CQC's ratings file of the same
 * edition, ./ratings.ts) each location is joined to its own rating by location id (the five key
 * questions and the date of the rating) and each provider to its own by provider id (the file rates
 * few providers: NHS trusts and some independent healthcare). Neither file gives an inspection date.
 * `notes` counts, for the run log, what the join used and left (no names).
 */
export async function* parseHscaActiveLocations(
  bytes: Uint8Array,
  opts: { ratings?: CqcRatings | null; notes?: Record<string, number> } = {},
): AsyncGenerator<RegisterRecord<"cqc">> {
  const ratings = opts.ratings ?? null;
  const notes = opts.notes ?? {};
  if (ratings) for (const [k, n] of Object.entries(ratings.notes)) if (n) notes[k] = n;
  const listed = new Set<string>();
  let locations = 0;
  let col: Record<HscaField, number> | null = null;
  const providers = new Map<string, RegisterRecord<"cqc"> & { data: CqcProviderData }>();
  for await (const row of readOdsRows(bytes, { sheet: "HSCA_Active_Locations" })) {
    if (!col) {
      const headers = row.map((h) => h.trim().toLowerCase().replace(/\s+/g, " "));
      col = Object.fromEntries(Object.entries(HSCA).map(([k, prefix]) => [k, headers.findIndex((h) => h.startsWith(prefix))])) as Record<HscaField, number>;
      const missing = (["locationId", "name", "providerId"] as const).filter((k) => col![k] < 0);
      if (missing.length) throw new RegisterFormatError(`CQC HSCA file: missing column(s) ${missing.map((k) => HSCA[k]).join(", ")}`);
      continue;
    }
    const c = col;
    const cell = (f: HscaField) => (c[f] >= 0 && c[f] < row.length ? str(row[c[f]]) : null);
    const locationId = cell("locationId");
    if (!locationId) continue;
    const kept = companyLevelName(cell("name") ?? "");
    if (!kept) continue; // SPEC §1 rule 7: a location named only after a person
    const name = kept.name;
    const providerId = cell("providerId");
    const individual = isIndividual(cell("ownershipType"));
    const companyNumber = individual ? null : normaliseCompanyNumber(cell("companyNumber"));
    const r = joinedRating(cell("rating"), date(cell("publicationDate")), ratings?.locations.get(locationId), notes);
    listed.add(locationId);
    locations++;
    const address: CqcAddress = { line1: cell("line1"), line2: cell("line2"), town: cell("town"), county: cell("county"), postcode: cell("postcode") };
    yield {
      source: "cqc",
      key: locationId,
      entity: locationId,
      part: null,
      name,
      companyNumber,
      altNames: [],
      status: "Registered", // the file lists active locations only
      rating: r.overallRating,
      town: address.town,
      data: {
        kind: "location",
        locationId,
        providerId,
        providerName: individual ? null : cell("providerName"),
        name,
        type: cell("type"),
        registrationStatus: "Registered",
        registrationDate: date(cell("startDate")),
        deregistrationDate: null,
        careHome: yesNo(cell("careHome")),
        numberOfBeds: int(cell("beds")),
        address,
        localAuthority: cell("localAuthority"),
        region: cell("region"),
        inspectionDirectorate: cell("directorate"),
        overallRating: r.overallRating,
        ratingDate: r.ratingDate,
        keyQuestions: r.keyQuestions,
        lastInspectionDate: null, // in neither file (CQC's API gives it)
        lastReportDate: r.lastReportDate,
        inheritedRating: yesNo(cell("inherited")) ?? r.fromRatingsFile?.inherited ?? null,
      },
    };
    if (!providerId || individual) continue;
    const known = providers.get(providerId);
    if (known) {
      known.data.locationIds.push(locationId);
      continue;
    }
    const providerName = cell("providerName") ?? "";
    const pTown = cell("pTown");
    providers.set(providerId, {
      source: "cqc",
      key: `provider:${providerId}`,
      entity: `provider:${providerId}`,
      part: null,
      name: providerName,
      companyNumber,
      altNames: [],
      status: "Registered",
      rating: null,
      town: pTown,
      data: {
        kind: "provider",
        providerId,
        name: providerName,
        companyNumber,
        charityNumber: cell("charityNumber"),
        ownershipType: cell("ownershipType"),
        type: cell("providerType"),
        registrationStatus: "Registered",
        registrationDate: date(cell("providerStart")),
        deregistrationDate: null,
        locationIds: [locationId],
        overallRating: null, // the HSCA file rates locations only; the ratings file rates some providers (below)
        keyQuestions: noKeyQuestions(),
        ratingDate: null,
        lastReportDate: null,
        address: { line1: cell("pLine1"), line2: cell("pLine2"), town: pTown, county: cell("pCounty"), postcode: cell("pPostcode") },
        lastInspectionDate: null,
      },
    });
  }
  if (!col) throw new RegisterFormatError("CQC HSCA file: no header row");
  if (!ratings) notes.locationsWithoutRatingsFile = locations;
  else {
    let unlisted = 0;
    for (const id of ratings.locations.keys()) if (!listed.has(id)) unlisted++;
    if (unlisted) notes.ratedLocationsNotInEdition = unlisted;
  }
  for (const p of providers.values()) {
    const r = ratings?.providers.get(p.data.providerId);
    if (!r) {
      yield p;
      continue;
    }
    notes.ratedFromRatingsFile = (notes.ratedFromRatingsFile ?? 0) + 1;
    yield {
      ...p,
      rating: r.overall,
      data: { ...p.data, overallRating: r.overall, keyQuestions: r.keyQuestions, ratingDate: r.ratingDate, lastReportDate: r.latestDate },
    };
  }
}
