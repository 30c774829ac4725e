import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { type IngestOptions, ingestEdition } from "../../../src/jobs/ingest/job";
import type { EditionFile } from "../../../src/jobs/ingest/adapter";
import type { ChangeRow } from "../../../src/services/registers/types";
import type { RegisterSource } from "../../../src/services/registers/types";
import { buildLargeSponsorsCsv } from "../../../scripts/bench/sponsors-synthetic";
import { CHARITY_EXTRA_TABLES } from "../../../src/sources/charity-commission/parse";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/** Issue "Register checks with daily change feeds" §1: one ingest pipeline, diffed editions, D1 history. */

const TABLES = ["register_runs", "register_state", "register_entries", "register_names", "register_names_fts", "register_changes", "register_staging"];
const clearRegisters = () => env.DB.batch(TABLES.map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
const bytesOf = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());
const textOf = async (path: string) => new TextDecoder().decode(await bytesOf(path));
const enc = (s: string) => new TextEncoder().encode(s);

const ingest = (source: RegisterSource, bytes: Uint8Array, editionDate: string, opts: IngestOptions = {}, extra: Partial<EditionFile> = {}) =>
  ingestEdition(ingestPortsFor(env), { source, bytes, fileName: null, url: null, editionDate, ...extra }, opts);
const load = async (source: RegisterSource, path: string, editionDate: string, opts: IngestOptions = {}) =>
  ingest(source, await bytesOf(path), editionDate, opts, { fileName: path.split("/").pop()! });

type ChangeOut = Omit<ChangeRow, "id">;
async function changesOf(source: RegisterSource): Promise<ChangeOut[]> {
  const rows = await env.DB.prepare(`SELECT change_date, kind, key, name, before, after FROM register_changes WHERE source = ? ORDER BY id`)
    .bind(source)
    .all<{ change_date: string; kind: string; key: string; name: string; before: string | null; after: string | null }>();
  return rows.results.map((r) => ({
    date: r.change_date,
    kind: r.kind,
    key: r.key,
    name: r.name,
    before: r.before && JSON.parse(r.before),
    after: r.after && JSON.parse(r.after),
  }));
}
const kindsOf = (cs: ChangeOut[]) => cs.map((c) => `${c.date} ${c.kind}: ${c.name}`);

/** Open (current) entries of a source: key → status, rating, town, removed_on. */
async function openEntries(source: RegisterSource) {
  const rows = await env.DB.prepare(`SELECT key, status, rating, town, removed_on FROM register_entries WHERE source = ? AND valid_to_run IS NULL ORDER BY key`)
    .bind(source)
    .all<{ key: string; status: string; rating: string | null; town: string | null; removed_on: string | null }>();
  return new Map(rows.results.map((r) => [r.key, r]));
}

const SPONSORS_A = "sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv";
const SPONSORS_B = "sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-29.csv";
const AML = (d: string) => `hmrc-mlr/register-edition-${d}.csv`;

beforeEach(clearRegisters);

describe("issue §1 pipeline: baseline, every change kind per source", () => {
  it("SPEC §6.3 the first edition is a baseline: loaded, no changes, history starts at its date", async () => {
    const r = await load("sponsors", SPONSORS_A, "2026-06-26");
    expect(r).toMatchObject({
      outcome: "loaded",
      scope: "workers",
      editionDate: "2026-06-26",
      rowsRead: 16,
      changes: 0,
      reason: "baseline: the first edition of sponsors/workers loaded here; history starts 2026-06-26; no changes recorded",
    });
    expect(await changesOf("sponsors")).toEqual([]);
    expect(await env.DB.prepare(`SELECT published_run, edition_date, history_since FROM register_state WHERE source = 'sponsors'`).first()).toEqual({
      published_run: r.runId,
      edition_date: "2026-06-26",
      history_since: "2026-06-26",
    });
    const run = await env.DB.prepare(`SELECT source, edition_date, rows_read, outcome, reason, finished_at FROM register_runs WHERE id = ?`)
      .bind(r.runId)
      .first();
    expect(run).toMatchObject({
      source: "sponsors",
      edition_date: "2026-06-26",
      rows_read: 16,
      outcome: "loaded",
      reason: "baseline: the first edition of sponsors/workers loaded here; history starts 2026-06-26; no changes recorded",
    });
    expect(run!.finished_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("SPEC §4.8 sponsors: added, removed, re-rated, moved; a town re-cased is not a move; returned on a third edition", async () => {
    await load("sponsors", SPONSORS_A, "2026-06-26");
    const b = await load("sponsors", SPONSORS_B, "2026-06-29");
    expect(b).toMatchObject({ outcome: "loaded", changes: 4, byKind: { added: 1, "re-rated": 1, moved: 1, removed: 1 } });
    // One change per sponsor (entity: register and normalised organisation name), not per row.
    expect(await changesOf("sponsors")).toEqual([
      {
        date: "2026-06-29",
        kind: "added",
        key: "workers|ivy lane bakery ltd",
        name: "Ivy Lane Bakery Ltd",
        before: null,
        after: { name: "Ivy Lane Bakery Ltd", status: "listed", rating: "A rating", town: "York", routes: ["Skilled Worker"] },
      },
      {
        date: "2026-06-29",
        kind: "re-rated",
        key: "workers|abbeyfield care homes 12345678 ltd",
        name: "Abbeyfield  Care  Homes (12345678) Limited",
        before: { rating: "A rating", ratings: { "Skilled Worker": "A rating" } },
        after: { rating: "B rating", ratings: { "Skilled Worker": "B rating" } },
      },
      {
        date: "2026-06-29",
        kind: "moved",
        key: "workers|northgate property solutions ltd",
        name: "NORTHGATE PROPERTY SOLUTIONS LTD",
        before: { town: "Hertfordshire, United Kingdom" },
        after: { town: "Watford" },
      },
      {
        date: "2026-06-29",
        kind: "removed",
        key: "workers|1 bargain stores ltd",
        name: "£1 Bargain Stores Ltd",
        before: { name: "£1 Bargain Stores Ltd", status: "listed", rating: "B rating", town: "Bolton", routes: ["Skilled Worker"] },
        after: null,
      },
    ]);
    // SHEFFIELD → Sheffield: no change recorded, but the register now shows the new spelling.
    expect((await openEntries("sponsors")).get("workers|greystone engineering ltd|skilled worker")?.town).toBe("Sheffield");

    const c = await load("sponsors", SPONSORS_A, "2026-07-01");
    expect(c.byKind).toEqual({ returned: 1, "re-rated": 1, moved: 1, removed: 1 });
    const third = (await changesOf("sponsors")).filter((x) => x.date === "2026-07-01");
    expect(kindsOf(third)).toEqual([
      "2026-07-01 returned: £1 Bargain Stores Ltd",
      "2026-07-01 re-rated: Abbeyfield  Care  Homes (12345678) Limited",
      "2026-07-01 moved: NORTHGATE PROPERTY SOLUTIONS LTD",
      "2026-07-01 removed: Ivy Lane Bakery Ltd",
    ]);
    expect(third[0]).toMatchObject({ before: { town: "Bolton" }, after: { status: "listed", town: "Bolton" } });
    const open = await openEntries("sponsors");
    expect(open.get("workers|1 bargain stores ltd|skilled worker")?.removed_on).toBeNull();
    expect(open.get("workers|ivy lane bakery ltd|skilled worker")?.removed_on).toBe("2026-07-01");
  });

  it("SPEC §3.2 AML: added, removed, status; returned on a third edition", async () => {
    expect((await load("aml", AML("2026-10-07"), "2026-10-07")).changes).toBe(0);
    await load("aml", AML("2026-11-07"), "2026-11-07");
    await load("aml", AML("2026-12-07"), "2026-12-07");
    const all = await changesOf("aml");
    // One change per registration (MLR number): a business's two premises going is one removal, and coming back one return.
    expect(all.map((c) => `${c.date} ${c.kind} ${c.key}`)).toEqual([
      "2026-11-07 added XAML00000999000",
      "2026-11-07 status XJML00000123456",
      "2026-11-07 removed 12137999",
      "2026-12-07 returned 12137999",
    ]);
    expect(all[2]).toMatchObject({ before: { premises: 2, districts: ["M1", "M50"] }, after: null });
    expect(all[1]).toMatchObject({ name: "HARBOUR FORMATIONS LTD", before: { status: "Applied" }, after: { status: "Approved" } });
    expect((await openEntries("aml")).get("12137999|quayside fx|M1")).toMatchObject({ status: "Approved", removed_on: null });
  });

  it("SPEC §6.3 CQC partial (change API) edition: deregistered and re-rated; entries missing from a partial file are never removed", async () => {
    const j = async (name: string) => (await (await fetch(`http://files.test/cqc/${name}.json`)).json()) as Record<string, any>;
    const [provider, trust, individual, careHome, closed, dentist] = await Promise.all(
      ["provider-organisation", "provider-nhs-trust", "provider-individual", "location-care-home", "location-deregistered", "location-dentist"].map(j),
    );
    const first = await ingest("cqc", enc(JSON.stringify({ providers: [provider, trust, individual], locations: [careHome, closed, dentist] })), "2026-10-02");
    expect(first).toMatchObject({ outcome: "loaded", rowsRead: 5, changes: 0 }); // the individual provider is not loaded (rule 7)

    const worse = structuredClone(careHome);
    worse.currentRatings.overall.rating = "Inadequate";
    const gone = { ...structuredClone(dentist), registrationStatus: "Deregistered", deregistrationDate: "2026-10-02" };
    const second = await ingest("cqc", enc(JSON.stringify([worse, gone])), "2026-10-03");
    expect(second).toMatchObject({ outcome: "loaded", rowsRead: 2, changes: 2, byKind: { deregistered: 1, "re-rated": 1 } });
    expect(await changesOf("cqc")).toEqual([
      {
        date: "2026-10-03",
        kind: "deregistered",
        key: "1-145550001",
        name: "Quayside Dental Surgery",
        before: { name: "Quayside Dental Surgery", status: "Registered", rating: null },
        after: { status: "Deregistered" },
      },
      { date: "2026-10-03", kind: "re-rated", key: "1-125856395", name: "Meadowbank House", before: { rating: "Good" }, after: { rating: "Inadequate" } },
    ]);
    const open = await openEntries("cqc");
    expect([...open.values()].every((e) => e.removed_on === null)).toBe(true);
    expect(open.size).toBe(5);
  });

  it("SPEC §3.2 SRA: authorised → intervened is a status change; a firm dropped is removed, a new one added", async () => {
    const base = JSON.parse(await textOf("sra/GetAll.json")) as { Organisations: Record<string, unknown>[] };
    expect((await ingest("sra", enc(JSON.stringify(base)), "2026-10-08")).rowsRead).toBe(6); // the freelance solicitor is not loaded
    const next = structuredClone(base);
    next.Organisations = next.Organisations.filter((o) => o.SraNumber !== 401122);
    for (const o of next.Organisations) if (o.SraNumber === 570654) o.AuthorisationStatus = "INTERVENE";
    next.Organisations.push({
      ...structuredClone(base.Organisations[0]),
      Id: 900001,
      SraNumber: 699001,
      PracticeName: "Lantern Lane Law Ltd",
      Constitution: "COMP",
      Type: "RecognisedBodyAuthorised",
    });
    await ingest("sra", enc(JSON.stringify(next)), "2026-10-09");
    expect((await changesOf("sra")).map((c) => [c.kind, c.key, c.before, c.after])).toEqual([
      ["added", "699001", null, { name: "Lantern Lane Law Ltd", status: "authorised" }],
      ["status", "570654", { status: "authorised" }, { status: "intervened" }],
      ["removed", "401122", { name: "Whitcombe Partners", status: "ceased" }, null],
    ]);
  });

  it("SPEC §4.8 charity: Registered → Removed is a removal (keyed by charity number)", async () => {
    const tables = Object.fromEntries(
      await Promise.all(CHARITY_EXTRA_TABLES.map(async (t) => [t, await bytesOf(`charity-commission/publicextract.${t}.txt`)])),
    );
    const main = await textOf("charity-commission/publicextract.charity.txt");
    const first = await ingest("charity", enc(main), "2026-10-07", {}, { tables });
    expect(first).toMatchObject({ outcome: "loaded", rowsRead: 4, changes: 0 });
    const removedRow = main.replace(
      /(\t5004001\t1160004\t0\tNORTHERN LIGHTS ANIMAL RESCUE\t[^\t]*\t)Registered\t([^\t]*)\t\t/,
      "$1Removed\t$2\t2026-10-20 00:00:00\t",
    );
    expect(removedRow).not.toBe(main);
    await ingest("charity", enc(removedRow), "2026-10-21", {}, { tables });
    expect(await changesOf("charity")).toEqual([
      {
        date: "2026-10-21",
        kind: "removed",
        key: "1160004",
        name: "NORTHERN LIGHTS ANIMAL RESCUE",
        before: { name: "NORTHERN LIGHTS ANIMAL RESCUE", status: "Registered" },
        after: { status: "Removed" },
      },
    ]);
  });
});

describe("issue §1 pipeline: idempotence, resumable chunks, D1 limits", () => {
  it("SPEC §6.3 the same edition twice: outcome unchanged, no new change rows, the published run stays", async () => {
    await load("aml", AML("2026-10-07"), "2026-10-07");
    const b = await load("aml", AML("2026-11-07"), "2026-11-07");
    const before = await changesOf("aml");
    const again = await load("aml", AML("2026-11-07"), "2026-11-07");
    expect(again).toMatchObject({ outcome: "unchanged", changes: 0 });
    expect(await changesOf("aml")).toEqual(before);
    expect(await env.DB.prepare(`SELECT published_run FROM register_state WHERE source = 'aml'`).first("published_run")).toBe(b.runId);
    expect(await env.DB.prepare(`SELECT outcome, changes FROM register_runs WHERE id = ?`).bind(again.runId).first()).toEqual({
      outcome: "unchanged",
      changes: 0,
    });
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_staging`).first("n")).toBe(0);
  });

  it("issue §1 resumable chunks (chunkRows 3) give the same entries and changes as one pass", async () => {
    const snapshot = async () => ({
      entries: (
        await env.DB.prepare(
          `SELECT source, key, scope, name, company_number, status, rating, town, alt_names, data, fp, first_seen, removed_on, valid_to_run IS NULL AS open
           FROM register_entries ORDER BY source, key, valid_from_run`,
        ).all()
      ).results,
      names: (await env.DB.prepare(`SELECT source, norm, key FROM register_names ORDER BY source, key, norm`).all()).results,
      changes: [...(await changesOf("sponsors")), ...(await changesOf("aml"))],
    });
    const run = async (chunkRows?: number) => {
      await clearRegisters();
      for (const [path, date] of [
        [SPONSORS_A, "2026-06-26"],
        [SPONSORS_B, "2026-06-29"],
        [SPONSORS_A, "2026-07-01"],
      ])
        expect((await load("sponsors", path, date, { chunkRows })).outcome).toBe("loaded");
      for (const d of ["2026-10-07", "2026-11-07", "2026-12-07"]) expect((await load("aml", AML(d), d, { chunkRows })).outcome).toBe("loaded");
      return snapshot();
    };
    const chunked = await run(3);
    const whole = await run();
    expect(chunked.changes).toHaveLength(12);
    expect(chunked).toEqual(whole);
  });

  it("issue §1 writes stay within D1's 100 bound parameters: 600-row editions load, with 120 removed, 60 re-rated, then 120 returned and 40 added", async () => {
    // A short register in the real file's style (minimal quoting, LF); buildLargeSponsorsCsv cycles it with numbered names.
    const sample = [
      "Organisation Name,Town/City,County,Type & Rating,Route",
      "Aldgate Bakeries Ltd,London,,Worker (A rating),Skilled Worker",
      '"Brook, Fielding & Co Ltd",Manchester,Greater Manchester,Worker (A rating),Skilled Worker',
      "Cedar Lodge Care Ltd,Swindon,Wiltshire,Worker (A rating),Skilled Worker",
      "Dunmore Farms LLP,Hereford,,Temporary Worker (A rating),Seasonal Worker",
      "Eastgate Software Ltd,Cambridge,Cambridgeshire,Worker (A (Premium)),Global Business Mobility: Senior or Specialist Worker",
      "Fairway Hotels Ltd,Torquay,Devon,Worker (A rating),Skilled Worker",
      "Glenview Dental Care Ltd,Inverness,,Worker (A rating),Skilled Worker",
      "Harlow Precision Engineering Ltd,Harlow,Essex,Worker (B rating),Skilled Worker",
      "",
    ].join("\n");
    const rerated = sample.replace("Cedar Lodge Care Ltd,Swindon,Wiltshire,Worker (A rating)", "Cedar Lodge Care Ltd,Swindon,Wiltshire,Worker (B rating)");
    const csv = (s: string, rows: number) => enc(buildLargeSponsorsCsv(s, rows));

    expect(await ingest("sponsors", csv(sample, 600), "2026-10-06")).toMatchObject({ outcome: "loaded", rowsRead: 600 });
    const second = await ingest("sponsors", csv(rerated, 480), "2026-10-07");
    expect(second).toMatchObject({ outcome: "loaded", rowsRead: 480, changes: 180, byKind: { removed: 120, "re-rated": 60 } });
    const third = await ingest("sponsors", csv(sample, 640), "2026-10-08");
    expect(third).toMatchObject({ outcome: "loaded", changes: 220, byKind: { returned: 120, added: 40, "re-rated": 60 } });
    const counts = await env.DB.prepare(
      `SELECT SUM(removed_on IS NULL) AS listed, SUM(removed_on IS NOT NULL) AS removed FROM register_entries WHERE source = 'sponsors' AND valid_to_run IS NULL`,
    ).first();
    expect(counts).toEqual({ listed: 640, removed: 0 });
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_changes WHERE source = 'sponsors'`).first("n")).toBe(400);
  });
});
