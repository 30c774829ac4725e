import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { ingestFile } from "../../../src/cli/ingest";
import type { EditionFile } from "../../../src/jobs/ingest/adapter";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { fetchCqcRatingsFile } from "../../../src/sources/cqc/client";
import { parseHscaActiveLocations } from "../../../src/sources/cqc/parse";
import { type CqcRatings, type CqcRatingsNotes, cqcFileDate, ratingsFileBeside, ratingsOfRows, readCqcRatings } from "../../../src/sources/cqc/ratings";
import { RegisterFormatError } from "../../../src/sources/format-error";
import type { RegisterRecord } from "../../../src/services/registers/types";
import { call, createTestKey, json } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * Issue 28 §3 cqc-check: locations and providers loaded from the HSCA Active Locations file get their five key
 * questions and the date of their rating from CQC's ratings file, joined by location id and provider id (SPEC §4.8).
 */

const RATINGS = "cqc/01_October_2026_Latest_ratings.ods";
const HSCA = "cqc/hsca-active-locations.ods";
const PAGE = "http://files.test/cqc/using-cqc-data.html";
const bytesOf = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());
const TABLES = ["register_runs", "register_state", "register_entries", "register_names", "register_names_fts", "register_changes", "register_staging"];
const clear = () => env.DB.batch(TABLES.map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
const newNotes = (): CqcRatingsNotes => ({ ratingsPublishedAfterEdition: 0, ratingsProvidersSheetMissing: 0 });
async function all<R extends RegisterRecord>(gen: AsyncIterable<R>): Promise<R[]> {
  const out: R[] = [];
  for await (const r of gen) out.push(r);
  return out;
}
const load = async (extra: Partial<EditionFile>, editionDate = "2026-10-02") =>
  ingestEdition(ingestPortsFor(env), { source: "cqc", bytes: await bytesOf(HSCA), fileName: "hsca-active-locations.ods", url: null, editionDate, ...extra });
const entry = (key: string) =>
  env.DB.prepare(`SELECT data, rating FROM register_entries WHERE source = 'cqc' AND key = ? AND valid_to_run IS NULL`)
    .bind(key)
    .first<{ data: string; rating: string | null }>();

/** The file's Locations header (as others read the real file), with rows given by their named fields. */
const HEADER = [
  "Location ID",
  "Location Name",
  "Service / Population Group",
  "Domain",
  "Latest Rating",
  "Publication Date",
  "Report Type",
  "Inherited Rating (Y/N)",
  "Provider ID",
];
const line = (f: Record<string, string>, header = HEADER) => header.map((h) => f[h] ?? "");

describe("SPEC §4.8 CQC's ratings file (Care directory with ratings)", () => {
  it("SPEC §4.8 reads each location's own rating (group Overall) and key questions, and each provider's; service-level rows and names are not read", async () => {
    const r = await readCqcRatings(await bytesOf(RATINGS));
    expect(r.locations.get("1-125856395")).toEqual({
      overall: "Good",
      overallDate: "2024-05-25",
      keyQuestions: { safe: "Requires improvement", effective: "Good", caring: "Outstanding", responsive: "Good", wellLed: "Good" },
      ratingDate: "2024-05-25",
      latestDate: "2024-05-25",
      inherited: false,
    });
    // "Good " in the file; the rating of the hospital's urgent and emergency services is not the hospital's.
    expect(r.locations.get("1-130000002")).toMatchObject({ overall: "Requires improvement", inherited: true, keyQuestions: { caring: "Good" } });
    expect(r.locations.get("RX1AB")).toMatchObject({ overall: "Outstanding", keyQuestions: { safe: "Good", wellLed: "Outstanding" } });
    // A location rated on two key questions only keeps the others null.
    expect(r.locations.get("1-119990001")?.keyQuestions).toEqual({
      safe: "Inadequate",
      effective: null,
      caring: null,
      responsive: null,
      wellLed: "Inadequate",
    });
    expect([...r.locations.keys()].sort()).toEqual(["1-119990001", "1-125856395", "1-130000002", "RX1AB"]);
    // The Providers sheet (dates as dd/mm/yyyy text there) rates the NHS trust.
    expect([...r.providers.keys()]).toEqual(["RX1"]);
    expect(r.providers.get("RX1")).toMatchObject({
      overall: "Outstanding",
      ratingDate: "2023-11-02",
      keyQuestions: { effective: "Outstanding", responsive: "Good" },
    });
    expect(JSON.stringify([...r.locations.values(), ...r.providers.values()])).not.toMatch(/Meadow|Riverside|Mill Lane/);
  });

  it("SPEC §4.8 the format, not the fixture: banner rows, 'Key Question' (older editions), text dates, 'Well led', verbatim non-ratings, blanks, the latest of repeated rows", async () => {
    const older = ["Location ID", "Location Name", "Service / Population Group", "Key Question", "Latest Rating ", "Publication Date", "URL"];
    const rows = [
      ["Care Quality Commission"],
      ["Latest ratings at 01 March 2019"],
      older,
      line(
        {
          "Location ID": "1-1",
          "Service / Population Group": "Overall",
          "Key Question": "Overall",
          "Latest Rating ": "Not rated",
          "Publication Date": "3/2/2019",
        },
        older,
      ),
      line(
        {
          "Location ID": "1-1",
          "Service / Population Group": "Overall",
          "Key Question": "Well led",
          "Latest Rating ": "Insufficient evidence to rate",
          "Publication Date": "03/02/2019",
        },
        older,
      ),
      line(
        { "Location ID": "1-1", "Service / Population Group": "overall ", "Key Question": "SAFE", "Latest Rating ": "Good", "Publication Date": "2019-02-03" },
        older,
      ),
      line(
        { "Location ID": "1-1", "Service / Population Group": "Overall", "Key Question": "Caring", "Latest Rating ": "", "Publication Date": "03/02/2019" },
        older,
      ),
      line({ "Location ID": "1-1", "Service / Population Group": "Older people", "Key Question": "Effective", "Latest Rating ": "Inadequate" }, older),
      // The same key question twice: the later publication counts, whatever the order.
      line(
        {
          "Location ID": "1-2",
          "Service / Population Group": "Overall",
          "Key Question": "Overall",
          "Latest Rating ": "Good",
          "Publication Date": "01/06/2018",
        },
        older,
      ),
      line(
        {
          "Location ID": "1-2",
          "Service / Population Group": "Overall",
          "Key Question": "Overall",
          "Latest Rating ": "Requires improvement",
          "Publication Date": "01/09/2018",
        },
        older,
      ),
      line(
        {
          "Location ID": "1-2",
          "Service / Population Group": "Overall",
          "Key Question": "Overall",
          "Latest Rating ": "Outstanding",
          "Publication Date": "01/01/2018",
        },
        older,
      ),
      line({ "Location ID": "", "Service / Population Group": "Overall", "Key Question": "Overall", "Latest Rating ": "Good" }, older),
    ];
    const m = await ratingsOfRows(rows, "location");
    expect(m.get("1-1")).toEqual({
      overall: "Not rated",
      overallDate: "2019-02-03",
      keyQuestions: { safe: "Good", effective: null, caring: null, responsive: null, wellLed: "Insufficient evidence to rate" },
      ratingDate: "2019-02-03",
      latestDate: "2019-02-03",
      inherited: null,
    });
    expect(m.get("1-2")).toMatchObject({ overall: "Requires improvement", ratingDate: "2018-09-01" });
    expect(m.size).toBe(2);
  });

  it("SPEC §4.8 with an edition date, ratings published after it are not used (an older HSCA edition is never given a later rating), and counted", async () => {
    const rows = [
      HEADER,
      line({ "Location ID": "1-1", "Service / Population Group": "Overall", Domain: "Overall", "Latest Rating": "Good", "Publication Date": "01/02/2026" }),
      line({ "Location ID": "1-1", "Service / Population Group": "Overall", Domain: "Safe", "Latest Rating": "Good", "Publication Date": "01/02/2026" }),
      line({
        "Location ID": "1-2",
        "Service / Population Group": "Overall",
        Domain: "Overall",
        "Latest Rating": "Inadequate",
        "Publication Date": "20/10/2026",
      }),
    ];
    const notes = newNotes();
    const m = await ratingsOfRows(rows, "location", { editionDate: "2026-10-02", notes });
    expect([...m.keys()]).toEqual(["1-1"]);
    expect(notes.ratingsPublishedAfterEdition).toBe(1);
  });

  it("a file that is not the ratings spreadsheet is a RegisterFormatError", async () => {
    await expect(readCqcRatings(new TextEncoder().encode("Location ID,Domain\n"))).rejects.toThrow(RegisterFormatError);
    await expect(readCqcRatings(await bytesOf(HSCA))).rejects.toThrow(/sheet "Locations" not found/);
    await expect(
      ratingsOfRows(
        [
          ["Location ID", "Location Name"],
          ["1-1", "x"],
        ],
        "location",
      ),
    ).rejects.toThrow(/no header row naming "Location ID", "Domain"/);
    await expect(ratingsOfRows([HEADER], "location")).resolves.toEqual(new Map());
  });

  it("the ratings file beside an HSCA file given to the CLI: the only one, or the one of the same date", () => {
    expect(cqcFileDate("01_October_2026_Latest_ratings.ods")).toBe("2026-10-01");
    expect(cqcFileDate("3 April 2023 HSCA Active Locations.ods")).toBe("2023-04-03");
    expect(ratingsFileBeside("hsca-active-locations.ods", ["hsca-active-locations.ods", "01_October_2026_Latest_ratings.ods", "location-care-home.json"])).toBe(
      "01_October_2026_Latest_ratings.ods",
    );
    const both = ["01_September_2026_Latest_ratings.ods", "01_October_2026_latest-ratings.ods"];
    expect(ratingsFileBeside("01_October_2026_HSCA_Active_Locations.ods", both)).toBe("01_October_2026_latest-ratings.ods");
    expect(ratingsFileBeside("HSCA_Active_Locations.ods", both)).toBeNull(); // several, no date to choose by
    expect(ratingsFileBeside("changes.json", ["01_October_2026_Latest_ratings.ods"])).toBeNull(); // API JSON carries its ratings
    expect(ratingsFileBeside("HSCA.ods", ["Latest_ratings.csv"])).toBeNull();
  });

  it("SPEC §4.8 CQC_RATINGS_URL: the page's link to the newest ratings file is followed, or the file's own address read; no file is an upstream failure", async () => {
    const viaPage = await fetchCqcRatingsFile({ url: PAGE });
    expect(viaPage).toMatchObject({ url: "http://files.test/cqc/01_October_2026_Latest_ratings.ods", fileName: "01_October_2026_Latest_ratings.ods" });
    expect(viaPage.bytes).toEqual(await bytesOf(RATINGS));
    expect((await fetchCqcRatingsFile({ url: `http://files.test/${RATINGS}` })).fileName).toBe("01_October_2026_Latest_ratings.ods");
    await expect(fetchCqcRatingsFile({ url: "http://files.test/cqc/no-such-page.html" })).rejects.toMatchObject({ name: "UpstreamError", status: 404 });
    await expect(fetchCqcRatingsFile({ url: "http://files.test/cqc/location-care-home.json" })).rejects.toMatchObject({
      name: "UpstreamError",
      kind: "malformed",
    });
  });
});

describe("SPEC §4.8 the HSCA snapshot joined to the ratings file", () => {
  beforeEach(clear);

  it("SPEC §4.8 joins by location id and provider id: overall rating, five key questions and the date of the rating; no inspection date in either file", async () => {
    const ratings = await readCqcRatings(await bytesOf(RATINGS), { editionDate: "2026-10-02" });
    const notes: Record<string, number> = {};
    const recs = await all(parseHscaActiveLocations(await bytesOf(HSCA), { ratings, notes }));
    const byKey = new Map(recs.map((r) => [r.key, r]));
    expect(byKey.get("1-125856395")).toMatchObject({
      rating: "Good",
      data: {
        overallRating: "Good",
        ratingDate: "2024-05-25",
        lastReportDate: "2024-05-25",
        keyQuestions: { safe: "Requires improvement", effective: "Good", caring: "Outstanding", responsive: "Good", wellLed: "Good" },
        lastInspectionDate: null,
        inheritedRating: false,
      },
    });
    expect(byKey.get("1-130000002")?.data).toMatchObject({ inheritedRating: true, keyQuestions: { wellLed: "Requires improvement" } });
    // The dentist has no rating in either file; the NHS trust is rated as a provider, the care group is not.
    expect(byKey.get("1-145550001")?.data).toMatchObject({ overallRating: null, keyQuestions: { safe: null, wellLed: null } });
    expect(byKey.get("provider:RX1")).toMatchObject({
      rating: "Outstanding",
      data: { overallRating: "Outstanding", ratingDate: "2023-11-02", keyQuestions: { safe: "Good" } },
    });
    expect(byKey.get("provider:1-102642955")?.data).toMatchObject({ overallRating: null, keyQuestions: { safe: null } });
    // Three listed locations and one provider rated from the file; one rated location is not in this edition (deregistered).
    expect(notes).toEqual({ ratedFromRatingsFile: 4, ratedLocationsNotInEdition: 1 });
  });

  it("SPEC §4.8 the newer of the two files' ratings counts: a rating the HSCA file publishes later keeps its date and gives no key questions of the older one", async () => {
    const older: CqcRatings = {
      locations: await ratingsOfRows(
        [
          HEADER,
          ...["Overall", "Safe"].map((d) =>
            line({
              "Location ID": "1-125856395",
              "Service / Population Group": "Overall",
              Domain: d,
              "Latest Rating": "Inadequate",
              "Publication Date": "02/01/2022",
            }),
          ),
        ],
        "location",
      ),
      providers: new Map(),
      notes: newNotes(),
    };
    const notes: Record<string, number> = {};
    const [home] = await all(parseHscaActiveLocations(await bytesOf(HSCA), { ratings: older, notes }));
    expect(home.data).toMatchObject({ overallRating: "Good", ratingDate: "2024-05-25", keyQuestions: { safe: null } });
    expect(notes.hscaRatingNewerThanRatingsFile).toBe(1);
    // Of the same date, the ratings file's rating is taken (it carries the key questions), and the run log counts the difference.
    const same: CqcRatings = {
      ...older,
      locations: await ratingsOfRows(
        [
          HEADER,
          ...["Overall", "Safe"].map((d) =>
            line({
              "Location ID": "1-125856395",
              "Service / Population Group": "Overall",
              Domain: d,
              "Latest Rating": "Requires improvement",
              "Publication Date": "25/05/2024",
            }),
          ),
        ],
        "location",
      ),
    };
    const sameNotes: Record<string, number> = {};
    const [again] = await all(parseHscaActiveLocations(await bytesOf(HSCA), { ratings: same, notes: sameNotes }));
    expect(again).toMatchObject({
      rating: "Requires improvement",
      data: { overallRating: "Requires improvement", ratingDate: "2024-05-25", keyQuestions: { safe: "Requires improvement", caring: null } },
    });
    expect(sameNotes).toMatchObject({ ratedFromRatingsFile: 1, overallRatingDiffersFromHsca: 1 });
  });

  it("SPEC §4.8 cqc-check: a provider loaded from the HSCA file shows its locations' five key questions and the date of each rating", async () => {
    const r = await load({ ratings: await bytesOf(RATINGS) });
    expect(r).toMatchObject({ outcome: "loaded", notes: { ratedFromRatingsFile: 4, ratedLocationsNotInEdition: 1 } });
    const { key } = await createTestKey({ plan: "enterprise", credits: 100 });
    const meadow = await json(await call(`/api/v1/cqc-check?company=${encodeURIComponent("Meadow Care Homes Limited")}`, { key }));
    expect(meadow.locations.find((l: { locationId: string }) => l.locationId === "1-125856395")).toMatchObject({
      overallRating: "Good",
      keyQuestions: { safe: "Requires improvement", effective: "Good", caring: "Outstanding", responsive: "Good", wellLed: "Good" },
      ratingDate: "2024-05-25",
      lastReportDate: "2024-05-25",
      lastInspectionDate: null,
    });
    const trust = await json(await call(`/api/v1/cqc-check?company=${encodeURIComponent("Riverside University Hospitals NHS Foundation Trust")}`, { key }));
    expect(trust.provider).toMatchObject({
      providerId: "RX1",
      overallRating: "Outstanding",
      keyQuestions: { effective: "Outstanding", wellLed: "Outstanding" },
    });
    expect(trust.locations[0]).toMatchObject({ locationId: "RX1AB", ratingDate: "2023-11-02", keyQuestions: { safe: "Good", caring: "Outstanding" } });
  });

  it("SPEC §6.3 a ratings file that cannot be downloaded fails the run: the published edition stays as it was, and the run log says why", async () => {
    expect(await load({ ratings: await bytesOf(RATINGS) })).toMatchObject({ outcome: "loaded" });
    const before = await entry("1-125856395");
    const r = await load({ ratings: () => fetchCqcRatingsFile({ url: "http://files.test/cqc/no-such-file.ods" }).then((d) => d.bytes) }, "2026-11-02");
    expect(r).toMatchObject({ outcome: "failed", reason: "cqc ratings: http://files.test/cqc/no-such-file.ods answered HTTP 404" });
    expect(await env.DB.prepare(`SELECT outcome, reason FROM register_runs WHERE id = ?`).bind(r.runId).first()).toEqual({
      outcome: "failed",
      reason: r.reason,
    });
    expect(await env.DB.prepare(`SELECT edition_date FROM register_state WHERE source = 'cqc'`).first()).toEqual({ edition_date: "2026-10-02" });
    expect(await entry("1-125856395")).toEqual(before);
    expect(JSON.parse(before!.data).keyQuestions.safe).toBe("Requires improvement");
  });

  it("SPEC §6.3 a file that is not the ratings file is refused, never loaded as an edition without key questions", async () => {
    const r = await load({ ratings: await bytesOf(HSCA) });
    expect(r).toMatchObject({ outcome: "refused", reason: expect.stringMatching(/^malformed file: .*sheet "Locations" not found/) });
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_entries WHERE source = 'cqc'`).first()).toEqual({ n: 0 });
  });

  it("SPEC §4.8 npm run ingest: an HSCA file given alone is joined to the current ratings file from CQC_RATINGS_URL; unreadable, the run fails", async () => {
    const hsca = await bytesOf(HSCA);
    const opts = { fileName: "HSCA_Active_Locations.ods", url: null, editionDate: "2026-10-02" };
    const r = await ingestFile({ ...env, CQC_RATINGS_URL: PAGE }, "cqc", hsca, opts);
    expect(r).toMatchObject({ outcome: "loaded", notes: { ratedFromRatingsFile: 4 } });
    expect(JSON.parse((await entry("1-130000002"))!.data)).toMatchObject({
      keyQuestions: { safe: "Requires improvement", caring: "Good" },
      ratingDate: "2025-01-12",
    });
    const down = await ingestFile({ ...env, CQC_RATINGS_URL: "http://files.test/cqc/gone.html" }, "cqc", hsca, { ...opts, editionDate: "2026-11-02" });
    expect(down).toMatchObject({ outcome: "failed", reason: expect.stringContaining("cqc ratings: http://files.test/cqc/gone.html answered HTTP 404") });
    // A ratings file given (found beside the HSCA file by scripts/ingest.mjs) is used as it is.
    const given = await ingestFile({ ...env, CQC_RATINGS_URL: "http://files.test/cqc/gone.html" }, "cqc", hsca, {
      ...opts,
      editionDate: "2026-11-02",
      ratings: await bytesOf(RATINGS),
    });
    expect(given.outcome).toBe("unchanged");
  });

  it.skipIf(!env.SHARED_PRESENT)(
    "real data: the real HSCA header (../shared, synthetic rows) joins each of its locations to a rating given for its id",
    async () => {
      const real = await (await fetch("http://shared.test/data/cqc/hsca-active-locations_real-header_SYNTHETIC-ROWS.ods")).arrayBuffer();
      const bytes = new Uint8Array(real);
      const plain = await all(parseHscaActiveLocations(bytes));
      const ids = plain.filter((r) => r.data.kind === "location").map((r) => r.key);
      expect(ids.length).toBeGreaterThan(0);
      const rows = [
        HEADER,
        ...ids.flatMap((id) =>
          ["Overall", "Safe", "Well-led"].map((d) =>
            line({ "Location ID": id, "Service / Population Group": "Overall", Domain: d, "Latest Rating": "Good", "Publication Date": "01/01/2026" }),
          ),
        ),
      ];
      const ratings: CqcRatings = { locations: await ratingsOfRows(rows, "location"), providers: new Map(), notes: newNotes() };
      const joined = await all(parseHscaActiveLocations(bytes, { ratings }));
      const locations = joined.filter((r) => r.data.kind === "location");
      expect(locations.map((r) => r.key)).toEqual(ids);
      for (const r of locations)
        expect(r.data).toMatchObject({ overallRating: "Good", ratingDate: "2026-01-01", keyQuestions: { safe: "Good", wellLed: "Good", caring: null } });
    },
  );
});
