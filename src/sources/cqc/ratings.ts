/**
 * CQC's ratings file ("Care directory with ratings", monthly, `<d>_<Month>_<yyyy>_Latest_ratings.ods`), read
 * for the HSCA Active Locations snapshot, which gives a location's overall rating only (SPEC §4.8: ratings,
 * the five key questions and their dates).
 *
 * The file as others read it (no edition of it is in ../shared; see ../shared/formats/cqc.md): sheets
 * `Locations` and `Providers`, one row per (location or provider, service / population group, key question),
 * about 300,000 rows and over a gigabyte of XML, so rows are streamed (../ods.ts) and only a location's own
 * rows are kept: those whose `Service / Population Group` is `Overall` (the others rate one service of it, such
 * as "Urgent and emergency services" in a hospital). Their key question is in `Domain` (`Key Question` in
 * older editions): `Overall`, `Safe`, `Effective`, `Caring`, `Responsive`, `Well-led`; `Latest Rating` is kept
 * verbatim ("Not rated", "Insufficient evidence to rate" included); `Publication Date` is a date cell or
 * dd/mm/yyyy text. Some editions put a banner row above the header, so the header is the first row naming the
 * id, the key question and the rating columns. Columns are found by name, never by position (the CCG columns
 * became ICB columns). Nothing else is read: no name, address or provider name (which can be a person's).
 */
import { RegisterFormatError } from "../format-error";
import { readOdsRows } from "../ods";
import { type CqcRating, type CqcRatings, type CqcRatingsNotes, type KeyQuestions, KEY_QUESTION, date, noKeyQuestions, str, yesNo } from "./parse";

export type { CqcRating, CqcRatings, CqcRatingsNotes };

/** Header cells compared lower-cased, spaces collapsed, none around a slash ("Service / Population Group"). */
const norm = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/ ?\/ ?/g, "/");
/** A key question as named in the file, to our field ("Well-led", "Well led" → wellLed); "overall" for Overall. */
const keyQuestionOf = (v: string | null): keyof KeyQuestions | "overall" | null => {
  const k = (v ?? "")
    .toLowerCase()
    .replace(/[^a-z]+/g, " ")
    .trim();
  return k === "overall" ? "overall" : (KEY_QUESTION[k] ?? KEY_QUESTION[k.replace(/ /g, "-")] ?? null);
};

/** Header rows looked at before giving up (a banner row or two precede the header in some editions). */
const HEADER_SEARCH_ROWS = 20;

interface Dated {
  rating: string;
  date: string | null;
}
interface Acc {
  overall?: Dated;
  kq: Partial<Record<keyof KeyQuestions, Dated>>;
  inherited: boolean | null;
}

/** The later of two ratings of the same thing: a dated one over an undated one, else the first read. */
const later = (a: Dated | undefined, b: Dated): Dated => (!a || (b.date !== null && (a.date === null || b.date > a.date)) ? b : a);
const maxDate = (ds: (string | null)[]) => ds.reduce<string | null>((m, d) => (d !== null && (m === null || d > m) ? d : m), null);

/**
 * The own ratings of each location (`kind` "location": sheet Locations, by `Location ID`) or provider
 * ("provider": sheet Providers, by `Provider ID`) from the sheet's rows. Rows published after `editionDate`
 * are left out (counted in `notes`), so an older HSCA edition is never given a later rating.
 */
export async function ratingsOfRows(
  rows: AsyncIterable<string[]> | Iterable<string[]>,
  kind: "location" | "provider",
  opts: { editionDate?: string | null; notes?: CqcRatingsNotes } = {},
): Promise<Map<string, CqcRating>> {
  const idHeader = `${kind} id`;
  let col: { id: number; group: number; kq: number; rating: number; date: number; inherited: number } | null = null;
  let seen = 0;
  const acc = new Map<string, Acc>();
  for await (const row of rows) {
    if (!col) {
      const h = row.map(norm);
      const at = (test: (s: string) => boolean) => h.findIndex(test);
      const found = {
        id: at((s) => s === idHeader),
        group: at((s) => s.startsWith("service/population group")),
        kq: at((s) => s === "domain" || s.startsWith("key question")),
        rating: at((s) => s.startsWith("latest rating")),
        date: at((s) => s.startsWith("publication date")),
        inherited: at((s) => s.startsWith("inherited rating")),
      };
      if (found.id >= 0 && found.kq >= 0 && found.rating >= 0) col = found;
      else if (++seen >= HEADER_SEARCH_ROWS) break;
      continue;
    }
    const c = col;
    const cell = (i: number) => (i >= 0 && i < row.length ? str(row[i]) : null);
    const id = cell(c.id);
    if (!id) continue;
    // A location's own rating: group "Overall" (a blank group, or no such column, is taken as its own too).
    const group = cell(c.group);
    if (group !== null && group.toLowerCase() !== "overall") continue;
    const question = keyQuestionOf(cell(c.kq));
    const rating = cell(c.rating);
    if (!question || !rating) continue;
    const published = date(cell(c.date));
    if (opts.editionDate && published && published > opts.editionDate) {
      if (opts.notes) opts.notes.ratingsPublishedAfterEdition++;
      continue;
    }
    let a = acc.get(id);
    if (!a) acc.set(id, (a = { kq: {}, inherited: null }));
    const dated = { rating, date: published };
    if (question === "overall") {
      a.overall = later(a.overall, dated);
      if (a.overall === dated) a.inherited = yesNo(cell(c.inherited)) ?? a.inherited;
    } else a.kq[question] = later(a.kq[question], dated);
  }
  if (!col) {
    throw new RegisterFormatError(
      `CQC ratings file: no header row naming "${kind === "location" ? "Location ID" : "Provider ID"}", "Domain" (or "Key Question") and "Latest Rating" in the ${kind === "location" ? "Locations" : "Providers"} sheet`,
    );
  }
  const out = new Map<string, CqcRating>();
  for (const [id, a] of acc) {
    const keyQuestions = noKeyQuestions();
    for (const [k, v] of Object.entries(a.kq) as [keyof KeyQuestions, Dated][]) keyQuestions[k] = v.rating;
    const kqDates = Object.values(a.kq).map((v) => v!.date);
    out.set(id, {
      overall: a.overall?.rating ?? null,
      overallDate: a.overall?.date ?? null,
      keyQuestions,
      ratingDate: a.overall ? a.overall.date : maxDate(kqDates),
      latestDate: maxDate([a.overall?.date ?? null, ...kqDates]),
      inherited: a.inherited,
    });
  }
  return out;
}

const isZip = (b: Uint8Array) => b.length > 4 && b[0] === 0x50 && b[1] === 0x4b;

/**
 * The whole ratings file (.ods): every location's and provider's own rating, as of `editionDate` when given.
 * A file that is not the ratings spreadsheet, or rates no location, is a RegisterFormatError (the HSCA edition
 * it was to complete is then not loaded).
 */
export async function readCqcRatings(bytes: Uint8Array, opts: { editionDate?: string | null } = {}): Promise<CqcRatings> {
  if (!isZip(bytes)) throw new RegisterFormatError("CQC ratings file: not an ODS spreadsheet (CQC publishes it as <date>_Latest_ratings.ods)");
  const notes: CqcRatingsNotes = { ratingsPublishedAfterEdition: 0, ratingsProvidersSheetMissing: 0 };
  const locations = await ratingsOfRows(readOdsRows(bytes, { sheet: "Locations" }), "location", { editionDate: opts.editionDate, notes });
  if (!locations.size) throw new RegisterFormatError("CQC ratings file: the Locations sheet rates no location");
  let providers = new Map<string, CqcRating>();
  try {
    providers = await ratingsOfRows(readOdsRows(bytes, { sheet: "Providers" }), "provider", { editionDate: opts.editionDate, notes });
  } catch (e) {
    // Every edition seen has the sheet; one without it still rates every location.
    if (!(e instanceof RegisterFormatError && /sheet "Providers" not found/.test(e.message))) throw e;
    notes.ratingsProvidersSheetMissing = 1;
  }
  return { locations, providers, notes };
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** The date a CQC file name carries: `01_October_2026_…` (CQC's names) or `2026-10-01`; else null. */
export function cqcFileDate(name: string): string | null {
  const iso = /(20\d{2})-(\d{2})-(\d{2})/.exec(name);
  if (iso) return iso[0];
  const m = /(\d{1,2})[ _-]+([a-z]+)[ _-]+(20\d{2})/i.exec(name);
  const month = m ? MONTHS.indexOf(m[2].toLowerCase()) : -1;
  return m && month >= 0 ? `${m[3]}-${String(month + 1).padStart(2, "0")}-${m[1].padStart(2, "0")}` : null;
}

/** A ratings file's name, as CQC gives it (`…_Latest_ratings.ods`, any case, `_`, `-` or spaces). */
export const isRatingsFileName = (name: string) => /latest[ _-]*ratings[^/]*\.ods$/i.test(name);

/**
 * The ratings file to join to an HSCA file given to the CLI, among the files beside it (`siblings`): the only
 * ratings file there, or, of several, the one whose name carries the HSCA file's date. Null when none (or
 * several, none of that date): the CLI then reads the current one from CQC_RATINGS_URL.
 */
export function ratingsFileBeside(hscaName: string, siblings: string[]): string | null {
  if (!/\.ods$/i.test(hscaName)) return null;
  const candidates = siblings.filter((n) => n !== hscaName && isRatingsFileName(n)).sort();
  if (candidates.length === 1) return candidates[0];
  const day = cqcFileDate(hscaName);
  const same = day ? candidates.filter((n) => cqcFileDate(n) === day) : [];
  return same.length === 1 ? same[0] : null;
}
