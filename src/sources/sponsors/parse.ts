/**
 * Home Office register of licensed sponsors (workers; students) CSV → RegisterRecord (SPEC §4.8, §6.3).
 * One row per (organisation, route); no licence or company number, so the key is built from the
 * normalised name and route. Town is left out of the key on purpose: a rewritten town is a "moved"
 * change of the same entry, not a removal plus an addition.
 */
import { looksLikePersonalName } from "../../services/matching/names";
import type { RegisterRecord } from "../../services/registers/types";
import { delimitedRowBatches, firstRow } from "../delimited";
import { RegisterFormatError } from "../format-error";

export type SponsorsRegister = "workers" | "students";

const SPACES = /\s+/g;
/** Cheap key normalisation: lower-case, trimmed, inner whitespace collapsed. Matching has its own. */
const norm = (s: string) => s.toLowerCase().trim().replace(SPACES, " ");

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
  let alt = name.slice(m.index + m[0].length).replace(ALT_EDGE_START, "").trimEnd();
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
  const required = register === "workers" ? { town: "Town/City", route: "Route", typeAndRating: "Type & Rating" } : { town: "Town/City", route: "Route", status: "Status" };
  for (const [k, label] of Object.entries(required)) {
    if (cols[k as keyof Columns] < 0) throw new RegisterFormatError(`sponsors: ${register} header lacks '${label}'`);
  }
  return { register, cols };
}

/**
 * Parses a workers or students register file (told apart by its header). Keys are
 * `${register}|${name}|${route}` normalised; when the same key comes again in one edition (same
 * organisation and route in another town), `|${town}` is appended to the later rows, then `|2`, `|3`…
 */
export function parseSponsors(
  bytes: Uint8Array | string,
  opts: { fileName?: string } = {},
): { register: SponsorsRegister; editionDate: string | null; records: AsyncGenerator<RegisterRecord> } {
  const { register, cols } = columns(firstRow(bytes, ","));
  const editionDate = opts.fileName ? sponsorsEditionDateFromFileName(opts.fileName) : null;
  return { register, editionDate, records: sponsorRecords(bytes, register, cols) };
}

async function* sponsorRecords(bytes: Uint8Array | string, register: SponsorsRegister, c: Columns): AsyncGenerator<RegisterRecord> {
  const seen = new Set<string>();
  let header = true;
  for await (const rows of delimitedRowBatches(bytes, ",")) {
    for (const row of rows) {
      if (header) {
        header = false;
        continue;
      }
      const name = row[c.name]?.trim();
      if (!name) continue;
      // SPEC §1 rule 7: a person registered under their own name (a sole trader, "Mrs A Smith T/A ...") is not loaded.
      if (looksLikePersonalName(name)) continue;
      const town = blankToNull(row[c.town]);
      const route = row[c.route]?.trim() ?? "";
      let key = `${register}|${norm(name)}|${norm(route)}`;
      if (seen.has(key)) {
        key += `|${town ? norm(town) : ""}`;
        for (let n = 2, base = key; seen.has(key); n++) key = `${base}|${n}`;
      }
      seen.add(key);
      const alt = tradingName(name);
      let rating: string | null;
      let data: Record<string, unknown>;
      if (register === "workers") {
        const county = blankToNull(c.county >= 0 ? row[c.county] : undefined);
        const typeAndRating = blankToNull(row[c.typeAndRating]);
        rating = typeAndRating;
        data = {
          name,
          town,
          county: county && !COUNTY_PLACEHOLDERS.has(county.toLowerCase()) ? county : null,
          register,
          route,
          typeAndRating,
          rating: typeAndRating ? ratingInBrackets(typeAndRating) : null,
        };
      } else {
        const status = blankToNull(row[c.status]);
        const locations = c.additionalLocations >= 0 ? row[c.additionalLocations]?.trim() : "";
        rating = status;
        data = {
          name,
          town,
          county: null,
          register,
          route,
          sponsorType: blankToNull(c.sponsorType >= 0 ? row[c.sponsorType] : undefined),
          status,
          immigrationCompliance: blankToNull(c.compliance >= 0 ? row[c.compliance] : undefined),
          additionalLocations: locations ? locations.split("/").map((l) => l.trim()).filter(Boolean) : [],
          rating: status,
        };
      }
      yield { source: "sponsors", key, name, companyNumber: null, altNames: alt ? [alt] : [], status: "listed", rating, town, data };
    }
  }
}
