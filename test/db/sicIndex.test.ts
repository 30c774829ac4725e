import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { type SicFile, loadSic, sortSicFiles } from "../../src/cli/sic";
import { replaceSicIndex, sicIndexState, sicListDescriptions, sicLists, sicModel } from "../../src/db/sicIndex";
import { classifyText } from "../../src/services/enrich/sicClassifier";

/**
 * The SIC 2007 lists in COMPANIES_DB (issue 18, industry-classifier; migrations/companies/0002_sic_index.sql): loaded
 * by the CLI's code (src/cli/sic.ts, run here in the Workers runtime as `npm run ingest -- sic` runs it in Node),
 * read back whole, and turned into the classifier's model once per load.
 */
const db = env.COMPANIES_DB;
const NAMES = ["SIC07_CH_condensed_list_en.csv", "ons_economic_activities_alphabetic_index.csv", "ch_created_activity_sic_codes.csv"];
const filesAt = async (base: string): Promise<SicFile[]> =>
  Promise.all(
    NAMES.map(async (name) => {
      const r = await fetch(`${base}/${name}`);
      if (!r.ok) throw new Error(`missing ${base}/${name}`);
      return { name, text: new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(await r.arrayBuffer()) };
    }),
  );
const SAMPLE = "http://files.test/sic-2007";
const REAL = "http://shared.test/data/sic-2007";

beforeEach(async () => {
  await db.batch([db.prepare(`DELETE FROM sic_index`), db.prepare(`DELETE FROM sic_index_state`)]);
});

describe("SIC lists in the database (issue 18)", () => {
  it("before any load: no state, no rows, no model (the classifier then says no list is loaded)", async () => {
    expect(await sicIndexState(db)).toBeNull();
    expect(await sicLists(db)).toEqual({ list: [], index: [], ch: [] });
    expect(await sicModel(db)).toBeNull();
    expect(classifyText("Solicitors in Leeds", (await sicModel(db))?.model ?? null).reason).toContain("no SIC 2007 list is loaded");
  });

  it("loads our sample files (any order), reads them back in the files' order, and builds the model once per load", async () => {
    const files = await filesAt(SAMPLE);
    const r = await loadSic(env, [files[2], files[1], files[0]], { sample: true });
    expect(r).toMatchObject({ outcome: "loaded", reason: null, chRows: 1, blankLines: 1 });
    expect(r.listRows).toBeGreaterThan(60);
    expect(r.indexRows).toBeGreaterThan(500);
    const state = await sicIndexState(db);
    expect(state).toMatchObject({ listRows: r.listRows, indexRows: r.indexRows + 1, files: NAMES, sample: true });

    const lists = await sicLists(db);
    expect(lists.list.length).toBe(r.listRows);
    expect(lists.index.length).toBe(r.indexRows);
    expect(lists.ch).toEqual([{ code: "47910", phrase: "Selling on Amazon" }]);
    expect(lists.list[0]).toEqual({ code: "01110", description: "Growing of cereals (except rice), leguminous crops and oil seeds" });
    expect(lists.index.every((x) => x.code === x.code.trim() && x.phrase === x.phrase.trim())).toBe(true);

    expect(await sicListDescriptions(db, ["62012", " 69102", "00000", "62012"])).toEqual(
      new Map([
        ["62012", "Business and domestic software development"],
        ["69102", "Solicitors"],
      ]),
    );

    const loaded = await sicModel(db);
    expect(loaded!.state).toEqual(state);
    expect(loaded!.model.stats).toMatchObject({ codes: r.listRows - 3, indexRows: r.indexRows + 1 });
    expect(await sicModel(db)).toBe(loaded); // cached: the same model while the load is the same
    expect(classifyText("Our solicitors advise on conveyancing, wills and probate.", loaded!.model).candidates[0].code).toBe("69102");

    // Loaded again: the rows are replaced (not added to), and a new model is built.
    const again = await loadSic(env, files, { sample: true });
    expect(again.outcome).toBe("loaded");
    expect((await sicLists(db)).index.length).toBe(r.indexRows);
    const rebuilt = await sicModel(db);
    expect(rebuilt).not.toBe(loaded);
  });

  it("writes more rows than one statement takes, in one transaction", async () => {
    const list = Array.from({ length: 2500 }, (_, i) => ({ code: String(10000 + i), description: `Activity number ${i}, with a comma` }));
    const index = Array.from({ length: 4100 }, (_, i) => ({ code: String(10000 + (i % 2500)), phrase: `Phrase ${i} (manufacture)` }));
    const r = await replaceSicIndex(db, { list, index, ch: [] }, { files: ["a.csv", "b.csv"], loadedAt: "2026-01-01T00:00:00.000Z" });
    expect(r.state).toMatchObject({ listRows: 2500, indexRows: 4100, sample: false });
    const back = await sicLists(db);
    expect(back.list.length).toBe(2500);
    expect(back.index.length).toBe(4100);
    expect(back.index[4099]).toEqual({ code: String(10000 + (4099 % 2500)), phrase: "Phrase 4099 (manufacture)" });
    expect((await db.prepare(`SELECT max(id) AS m FROM sic_index`).first<{ m: number }>())!.m).toBe(6600);
  });

  it("refuses empty lists, and files that are not the lists", async () => {
    await expect(replaceSicIndex(db, { list: [], index: [{ code: "01110", phrase: "Wheat" }], ch: [] }, { files: [] })).rejects.toThrow(/must both have rows/);
    const files = await filesAt(SAMPLE);
    expect(() => sortSicFiles([files[0]])).toThrow(/give one condensed list/);
    expect(() => sortSicFiles([...files, { name: "notes.txt", text: "hello" }])).toThrow(/notes.txt is neither/);
    expect(() => sortSicFiles([files[0], files[1], { ...files[1], name: "copy.csv" }])).toThrow(/give one condensed list/);
    expect(sortSicFiles([files[1], files[0]])).toMatchObject({ list: { name: NAMES[0] }, index: { name: NAMES[1] }, ch: null });
    expect(await sicIndexState(db)).toBeNull();
  });

  it.skipIf(!env.SHARED_PRESENT)("loads the real lists (731 codes, 15,954 + 1 phrases), and never puts the sample over them", async () => {
    const r = await loadSic(env, await filesAt(REAL));
    expect(r).toMatchObject({ outcome: "loaded", listRows: 731, indexRows: 15_954, chRows: 1, blankLines: 2 });
    const counts = await db.prepare(`SELECT kind, count(*) AS n, count(DISTINCT code) AS codes FROM sic_index GROUP BY kind ORDER BY kind`).all();
    expect(counts.results).toEqual([
      { kind: "ch", n: 1, codes: 1 },
      { kind: "index", n: 15_954, codes: 729 },
      { kind: "list", n: 731, codes: 731 },
    ]);
    const t = performance.now();
    const loaded = await sicModel(db);
    console.log(`SIC model from D1 (real lists): read and built in ${(performance.now() - t).toFixed(0)} ms (workerd)`);
    expect(loaded!.model.stats.codes).toBe(728);

    const sample = await loadSic(env, await filesAt(SAMPLE), { sample: true });
    expect(sample).toMatchObject({ outcome: "refused", reason: expect.stringContaining("not loaded over them") });
    expect(await sicIndexState(db)).toMatchObject({ listRows: 731, sample: false });
    expect(await sicModel(db)).toBe(loaded);
  });
});
