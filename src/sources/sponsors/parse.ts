/**
 * Home Office register of licensed sponsors (workers; students) CSV → RegisterRecord (SPEC §4.8, §6.3).
 * The file has one row per (organisation, route) and no licence or company number: sponsors are
 * identified by register and normalised name (see parseSponsors), routes by their current names.
 */
import { normaliseName, splitTradingName } from "../../services/matching/names";
import { companyLevelName } from "../../services/matching/people";
import type { SponsorsData, SponsorsRegister } from "../../services/registers/catalogue";
import type { RegisterRecord } from "../../services/registers/types";
import { delimitedRowBatches, firstRow } from "../delimited";
import { RegisterFormatError } from "../format-error";
import { currentRouteName } from "../../services/registers/sponsorRoutes";

export type { SponsorsRegister };

const SPACES = /\s+/g;
/** Cheap key normalisation: lower-case, trimmed, inner whitespace collapsed. Matching has its own. */
const norm = (s: string) => s.toLowerCase().trim().replace(SPACES, " ");

/** FNV-1a, 30 bits (a small integer: no allocation when stored in a Map). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0) & 0x3fffffff;
}

const DATE_IN_NAME = /(\d{4})-(\d{2})-(\d{2})/;

/**
 * Edition date from a register file name or URL: `2021-09-30_-_Worker_and_Temporary_Worker.csv`
 * (until mid-2026) or `SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv` (after).
 */
export function sponsorsEditionDateFromFileName(name: string): string | null {
  const base = decodeURIComponent(name.split(/[?#]/)[0].split("/").pop() ?? "");
  const m = DATE_IN_NAME.exec(base);
  if (!m) return null;
  const d = new Date(`${m[0]}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === m[0] ? m[0] : null;
}

/** Free-text county values that mean "none given". */
const COUNTY_PLACEHOLDERS = new Set(["select a state", "choose county", "select county", "not set", "none", "n/a", "na", "-"]);
const TRADING_AS = /\b(?:t\/as?|trading\s+as)\b/i;
const ALT_EDGE_START = /^[\s:.,\-(]+/;

/** The trading name after `T/A`, `t/as` or `trading as`, without stray brackets: "(t/a GIA London)" → "GIA London". */
function tradingName(name: string): string | null {
  const m = TRADING_AS.exec(name);
  if (!m) return null;
  let alt = name
    .slice(m.index + m[0].length)
    .replace(ALT_EDGE_START, "")
    .trimEnd();
  // Drop closing brackets that close something opened before the T/A.
  while (alt.endsWith(")") && alt.split(")").length > alt.split("(").length) alt = alt.slice(0, -1).trimEnd();
  return alt || null;
}

const blankToNull = (s: string | undefined) => {
  const t = s?.trim();
  return t ? t : null;
};

/** "Worker (A (Premium))" → "A (Premium)"; "Worker (UK Expansion Worker: Provisional )" → "UK Expansion Worker: Provisional". */
function ratingInBrackets(typeAndRating: string): string | null {
  const open = typeAndRating.indexOf("(");
  const close = typeAndRating.lastIndexOf(")");
  return open >= 0 && close > open ? typeAndRating.slice(open + 1, close).trim() || null : null;
}

interface Columns {
  name: number;
  town: number;
  route: number;
  county: number;
  typeAndRating: number;
  additionalLocations: number;
  sponsorType: number;
  status: number;
  compliance: number;
}

function columns(header: string[]): { register: SponsorsRegister; cols: Columns } {
  const at = (n: string) => header.findIndex((h) => h.toLowerCase() === n);
  const register: SponsorsRegister | null = at("organisation name") >= 0 ? "workers" : at("sponsor name") >= 0 ? "students" : null;
  if (!register) throw new RegisterFormatError("sponsors: header has neither 'Organisation Name' nor 'Sponsor Name'");
  const cols: Columns = {
    name: at(register === "workers" ? "organisation name" : "sponsor name"),
    town: at("town/city"),
    route: at("route"),
    county: at("county"),
    typeAndRating: at("type & rating"),
    additionalLocations: at("additional locations"),
    sponsorType: at("sponsor type"),
    status: at("status"),
    compliance: at("immigration compliance"),
  };
  const required =
    register === "workers" ? { town: "Town/City", route: "Route", typeAndRating: "Type & Rating" } : { town: "Town/City", route: "Route", status: "Status" };
  for (const [k, label] of Object.entries(required)) {
    if (cols[k as keyof Columns] < 0) throw new RegisterFormatError(`sponsors: ${register} header lacks '${label}'`);
  }
  return { register, cols };
}

/** What a parse left out, for the run log (never the left-out names themselves: SPEC §1 rule 7). */
export interface SponsorsParseStats {
  /** Rows that name only a person (a sole trader under their own name): not loaded. */
  personOnlyRows: number;
  /** Rows "<person> t/a <business>" kept under the trading name only. */
  personNamesRemoved: number;
  /** Rows repeating an earlier row of the same sponsor (same route, town and rating). */
  duplicateRows: number;
}

/**
 * Parses a workers or students register file (told apart by its header).
 *
 * One record per row that says something new about a sponsor. The register has no sponsor number,
 * so a sponsor (the record's `entity`) is `${register}|${normalised name}`, where the name is the legal
 * name before any "T/A" (a trading name changed is the same sponsor) — and a sponsor listed in several
 * towns, or under a name re-cased or re-spaced, is one sponsor with several rows and towns. (Distinct
 * organisations that share a name exactly, e.g. two churches called "All Saints Church", cannot be told
 * apart by the register and are one sponsor here; the reply lists every town.) A row's `part` is its
 * route under the route's current name (renames: ./routes.ts). Rows repeating an earlier row of the
 * same sponsor exactly (route, town, rating) are dropped.
 *
 * Keys: `${entity}|${route}`; when the same sponsor and route come again (another town or rating),
 * `|${town}` is appended, then `|2`, `|3`…
 *
 * SPEC §1 rule 7: a person registered under their own name is not loaded; "<person> t/a <business>"
 * is kept under the business's trading name only, and the person's name is kept nowhere.
 */
export function parseSponsors(
  bytes: Uint8Array | string,
  opts: { fileName?: string; stats?: SponsorsParseStats } = {},
): { register: SponsorsRegister; editionDate: string | null; records: AsyncGenerator<RegisterRecord<"sponsors">> } {
  const { register, cols } = columns(firstRow(bytes, ","));
  const editionDate = opts.fileName ? sponsorsEditionDateFromFileName(opts.fileName) : null;
  return { register, editionDate, records: sponsorRecords(bytes, register, cols, opts.stats) };
}

/** The sponsor's identity from its (company-level) name: the legal name before any T/A, normalised. */
function sponsorEntity(register: SponsorsRegister, name: string): string {
  const legal = splitTradingName(name).name;
  return `${register}|${normaliseName(legal) || norm(legal) || norm(name)}`;
}

async function* sponsorRecords(
  bytes: Uint8Array | string,
  register: SponsorsRegister,
  c: Columns,
  stats?: SponsorsParseStats,
): AsyncGenerator<RegisterRecord<"sponsors">> {
  // Key → a hash of the town and rating of its row, to tell a repeated row from the same route in another town
  // (a number, not the text: this map holds every row of the register).
  const seenKeys = new Map<string, number>();
  const seenRows = new Set<string>();
  // Rows of one sponsor come together: the last name's reading is reused.
  let lastRaw = "";
  let last: { kept: ReturnType<typeof companyLevelName>; entity: string; alt: string | null } | null = null;
  let header = true;
  for await (const rows of delimitedRowBatches(bytes, ",")) {
    for (const row of rows) {
      if (header) {
        header = false;
        continue;
      }
      const raw = row[c.name]?.trim();
      if (!raw) continue;
      if (raw !== lastRaw || !last) {
        const k = companyLevelName(raw);
        last = { kept: k, entity: k ? sponsorEntity(register, k.name) : "", alt: k ? tradingName(k.name) : null };
        lastRaw = raw;
      }
      const kept = last.kept;
      if (!kept) {
        if (stats) stats.personOnlyRows++;
        continue;
      }
      if (kept.personRemoved && stats) stats.personNamesRemoved++;
      const name = kept.name;
      const town = blankToNull(row[c.town]);
      const route = (row[c.route] ?? "").trim().replace(SPACES, " ");
      const currentRoute = currentRouteName(route);
      const typeAndRating = blankToNull(register === "workers" ? row[c.typeAndRating] : row[c.status]);
      const entity = last.entity;
      let key = `${entity}|${norm(currentRoute)}`;
      const sig = `${town ? norm(town) : ""}|${typeAndRating ? norm(typeAndRating) : ""}`;
      const first = seenKeys.get(key);
      if (first !== undefined) {
        // Only rows sharing a sponsor and route can repeat one another: those few are remembered whole.
        const rowId = `${key}|${sig}`;
        // A repeat of the key's first row is known by its hash (30 bits: a false match needs the same sponsor, route and hash).
        if (seenRows.has(rowId) || first === hash(sig)) {
          if (stats) stats.duplicateRows++;
          continue;
        }
        seenRows.add(rowId);
        key += `|${town ? norm(town) : ""}`;
        for (let n = 2, base = key; seenKeys.has(key); n++) key = `${base}|${n}`;
      }
      if (first === undefined) seenKeys.set(key, hash(sig));
      else seenKeys.set(key, -1);
      const alt = last.alt;
      let status = "listed";
      let data: SponsorsData;
      if (register === "workers") {
        const county = blankToNull(c.county >= 0 ? row[c.county] : undefined);
        data = {
          name,
          town,
          register,
          route,
          currentRoute,
          county: county && !COUNTY_PLACEHOLDERS.has(county.toLowerCase()) ? county : null,
          typeAndRating,
          rating: typeAndRating ? ratingInBrackets(typeAndRating) : null,
        };
      } else {
        const locations = c.additionalLocations >= 0 ? row[c.additionalLocations]?.trim() : "";
        const compliance = blankToNull(c.compliance >= 0 ? row[c.compliance] : undefined);
        // "Subject to Action Plan": the student sponsor's status on the register (a `status` change when it comes or goes).
        if (compliance) status = compliance;
        data = {
          name,
          town,
          register,
          route,
          currentRoute,
          county: null,
          sponsorType: blankToNull(c.sponsorType >= 0 ? row[c.sponsorType] : undefined),
          status: typeAndRating,
          immigrationCompliance: compliance,
          additionalLocations: locations
            ? locations
                .split("/")
                .map((l) => l.trim())
                .filter(Boolean)
            : [],
          rating: typeAndRating,
        };
      }
      // Workers: the rating proper ("A rating", "B rating", "A (Premium)"), whatever the licence type before it.
      const rating = register === "workers" ? (typeAndRating ? ratingInBrackets(typeAndRating) : null) : typeAndRating;
      yield { source: "sponsors", key, entity, part: currentRoute, name, companyNumber: null, altNames: alt ? [alt] : [], status, rating, town, data };
    }
  }
}
