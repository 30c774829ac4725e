import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { type EntryVersion, publishRun, writeEntryVersions, writeRemovalsAndChanges } from "../../../src/db/registers";
import { stageBatches, stagedRecords } from "../../../src/db/runs";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { ingestPortsFor } from "../../../src/platform/jobPorts";
import type { Env } from "../../../src/env";
import { buildLargeSponsorsCsv } from "../../../scripts/bench/sponsors-synthetic";

/**
 * The register ingest's D1 load: many rows a statement (one JSON array a statement, not 100 bound
 * parameters), few statements and batches for a large edition, and every value stored exactly as a
 * bound parameter would store it.
 */

const TABLES = ["register_runs", "register_state", "register_entries", "register_names", "register_names_fts", "register_changes", "register_staging"];
beforeEach(() => env.DB.batch(TABLES.map((t) => env.DB.prepare(`DELETE FROM ${t}`))));

/** env.DB, counting the batches sent and the statements in them. */
function counted() {
  const db = env.DB;
  const count = { batches: 0, statements: 0 };
  const wrapped = {
    prepare: (sql: string) => db.prepare(sql),
    batch: (stmts: D1PreparedStatement[]) => {
      count.batches++;
      count.statements += stmts.length;
      return db.batch(stmts);
    },
    exec: (sql: string) => db.exec(sql),
    dump: () => db.dump(),
    withSession: (c?: string) => db.withSession(c),
  } as unknown as D1Database;
  return { db: wrapped, count };
}

/** Values that a JSON round trip could change: quotes, backslashes, controls, NUL, unicode, a lone surrogate, numbers as text. */
const AWKWARD = [
  'q"uo\\te',
  "line\nbreak\ttab",
  "nul\u0000char",
  "é漢字😀",
  "lone \ud800 surrogate",
  "0123",
  "1e5",
  "  spaced  ",
  "",
  "\u2028\u2029",
  "null",
  "[1,2]",
];

const version = (i: number, s: string): EntryVersion => ({
  key: `k${String(i).padStart(6, "0")}`,
  entity: `e${i}`,
  part: i % 2 ? null : s,
  name: s || "x",
  normName: s,
  normCore: s,
  companyNumber: i % 3 ? null : s,
  status: "listed",
  rating: s,
  town: i % 2 ? s : null,
  altNames: [s, "other"],
  data: { s, n: i, f: 0.1 + 0.2, neg: -1.5e-7, big: 2 ** 53 - 1, nested: { a: [s, null, true, false] }, none: null },
  fp: `fp${i}`,
  firstSeen: "2026-01-02",
});

/** What a bound parameter stores for a string. */
const asBound = async (s: string) => (await env.DB.prepare(`SELECT ? AS v`).bind(s).first<{ v: string }>())!.v;

describe("register ingest: D1 load", () => {
  it("writes entry versions, names and changes from JSON arrays with every value as a bound parameter stores it", async () => {
    const run = { runId: 7, source: "sponsors", scope: "workers" };
    const versions = AWKWARD.map((s, i) => version(i, s));
    await writeEntryVersions(env.DB, run, { closeKeys: [], versions, names: versions.map((v) => ({ norm: v.normName, key: v.key })) });
    const rows = await env.DB.prepare(`SELECT * FROM register_entries WHERE source = 'sponsors' ORDER BY key`).all<Record<string, unknown>>();
    expect(rows.results).toHaveLength(AWKWARD.length);
    for (const [i, v] of versions.entries()) {
      const r = rows.results[i];
      const bound = await asBound(AWKWARD[i]);
      expect(r).toEqual({
        source: "sponsors",
        key: v.key,
        valid_from_run: 7,
        valid_to_run: null,
        scope: "workers",
        name: v.name === AWKWARD[i] ? bound : v.name,
        norm_name: bound,
        norm_core: bound,
        company_number: v.companyNumber === null ? null : bound,
        status: "listed",
        rating: bound,
        town: v.town === null ? null : bound,
        alt_names: JSON.stringify(v.altNames),
        data: JSON.stringify(v.data),
        fp: v.fp,
        first_seen: "2026-01-02",
        removed_on: null,
        last_listed: null,
        entity: v.entity,
        part: v.part === null ? null : bound,
      });
      expect(typeof r.valid_from_run).toBe("number");
      expect(JSON.parse(r.data as string)).toEqual(v.data);
    }
    // Names are indexed for FTS as the run is published, in one statement.
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_names_fts`).first("n")).toBe(0);
    await publishRun(env.DB, run, {
      editionDate: "2026-01-02",
      sample: false,
      replacesSample: false,
      changes: 0,
      note: null,
      finishedAt: "2026-01-02T00:00:00Z",
    });
    const names = await env.DB.prepare(`SELECT norm, source, key, valid_from_run FROM register_names ORDER BY key`).all();
    const fts = await env.DB.prepare(`SELECT norm, source, key, valid_from_run FROM register_names_fts ORDER BY key`).all();
    const expected = await Promise.all(versions.map(async (v, i) => ({ norm: await asBound(AWKWARD[i]), source: "sponsors", key: v.key, valid_from_run: 7 })));
    expect(names.results).toEqual(expected);
    expect(fts.results).toEqual(expected);

    // A later run closes versions by key and records removals and changes, in order.
    const next = { runId: 8, source: "sponsors", scope: "workers" };
    const changes = AWKWARD.map((s, i) => ({
      key: `e${i}`,
      kind: i % 2 ? "added" : "re-rated",
      name: s,
      before: i % 2 ? null : { rating: s },
      after: { rating: s, i },
    }));
    await writeEntryVersions(env.DB, next, { closeKeys: [versions[0].key], versions: [{ ...versions[0], rating: "B rating" }], names: [] });
    await writeRemovalsAndChanges(env.DB, next, {
      editionDate: "2026-02-03",
      lastListed: "2026-01-02",
      removedKeys: [versions[1].key, versions[2].key, "no such key"],
      changes,
    });
    const open = await env.DB.prepare(
      `SELECT key, rating, removed_on, last_listed, valid_from_run FROM register_entries WHERE valid_to_run IS NULL AND key IN (?, ?, ?) ORDER BY key`,
    )
      .bind(versions[0].key, versions[1].key, versions[2].key)
      .all();
    expect(open.results).toEqual([
      { key: versions[0].key, rating: "B rating", removed_on: null, last_listed: null, valid_from_run: 8 },
      { key: versions[1].key, rating: await asBound(AWKWARD[1]), removed_on: "2026-02-03", last_listed: "2026-01-02", valid_from_run: 8 },
      { key: versions[2].key, rating: await asBound(AWKWARD[2]), removed_on: "2026-02-03", last_listed: "2026-01-02", valid_from_run: 8 },
    ]);
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_entries WHERE valid_to_run = 8`).first("n")).toBe(3);
    const stored = await env.DB.prepare(`SELECT source, scope, run_id, change_date, key, kind, name, before, after FROM register_changes ORDER BY id`).all();
    expect(stored.results).toEqual(
      await Promise.all(
        changes.map(async (c) => ({
          source: "sponsors",
          scope: "workers",
          run_id: 8,
          change_date: "2026-02-03",
          key: c.key,
          kind: c.kind,
          name: await asBound(c.name),
          before: c.before ? JSON.stringify(c.before) : null,
          after: JSON.stringify(c.after),
        })),
      ),
    );
  });

  it("writes a large set of versions in few statements and one or two batches; publishing indexes their names", async () => {
    const { db, count } = counted();
    const versions = Array.from({ length: 3000 }, (_, i) => version(i, `Organisation ${i} Ltd`));
    await writeEntryVersions(
      db,
      { runId: 3, source: "sponsors", scope: "workers" },
      {
        closeKeys: versions.map((v) => v.key),
        versions,
        names: versions.flatMap((v) => [
          { norm: v.normName, key: v.key },
          { norm: `${v.normName} alt`, key: v.key },
        ]),
      },
    );
    expect(count.statements).toBeLessThanOrEqual(8);
    expect(count.batches).toBeLessThanOrEqual(2);
    await publishRun(
      db,
      { runId: 3, source: "sponsors", scope: "workers" },
      { editionDate: "2026-01-02", sample: false, replacesSample: false, changes: 0, note: null, finishedAt: "2026-01-02T00:00:00Z" },
    );
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_entries`).first("n")).toBe(3000);
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_names`).first("n")).toBe(6000);
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_names_fts`).first("n")).toBe(6000);
  });

  it("stages records in rows of up to about 512 KB, keyed by their first record's index; staging a chunk again replaces it", async () => {
    const { db, count } = counted();
    const records = Array.from({ length: 6000 }, (_, i) => ({
      key: `k${i}`,
      name: `Organisation ${i} ${"x".repeat(200)}`,
      data: { s: AWKWARD[i % AWKWARD.length] },
    }));
    const batches = (from: number, to: number) => {
      const out: { seq: number; records: unknown[] }[] = [];
      for (let i = from; i < to; i += 500) out.push({ seq: i, records: records.slice(i, Math.min(i + 500, to)) });
      return out;
    };
    await stageBatches(db, 1, batches(0, 4000));
    await stageBatches(db, 1, batches(4000, 6000));
    await stageBatches(db, 1, batches(4000, 6000)); // a chunk staged again (a retried message)
    expect(count.batches).toBe(3);
    const rows = await env.DB.prepare(`SELECT seq, length(record) AS n FROM register_staging WHERE run_id = 1 ORDER BY seq`).all<{ seq: number; n: number }>();
    expect(rows.results.length).toBeLessThan(12); // 12 rows of 500 before
    expect(rows.results[0].seq).toBe(0);
    expect(rows.results.some((r) => r.seq === 4000)).toBe(true); // a chunk starts a row of its own
    for (const r of rows.results) expect(r.n).toBeLessThanOrEqual(512 * 1024);
    const back: unknown[] = [];
    for await (const r of stagedRecords(env.DB, 1)) back.push(r);
    expect(back).toEqual(records);
  });

  it("loads a 6,000-row sponsors edition in a few dozen statements, and the same edition again changes nothing", async () => {
    const sample = await (await fetch("http://files.test/sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv")).text();
    const bytes = new TextEncoder().encode(buildLargeSponsorsCsv(sample, 6000));
    const { db, count } = counted();
    const e = ingestPortsFor({ ...env, DB: db } as unknown as Env);
    const a = await ingestEdition(e, { source: "sponsors", bytes, fileName: null, url: null, editionDate: "2026-06-26" });
    expect(a).toMatchObject({ outcome: "loaded" });
    expect(a.rowsRead).toBeGreaterThan(4000); // rows of one organisation are one entity
    // Before: 3 statements a staging row of 500 records … in all 1,200 statements for 6,000 rows (5 entry rows a statement).
    expect(count.statements).toBeLessThanOrEqual(60);
    const entries = await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_entries WHERE source = 'sponsors'`).first("n");
    expect(entries).toBe(a.rowsRead);
    const b = await ingestEdition(e, { source: "sponsors", bytes, fileName: null, url: null, editionDate: "2026-06-27" });
    expect(b).toMatchObject({ outcome: "unchanged", changes: 0 });
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_entries WHERE source = 'sponsors'`).first("n")).toBe(a.rowsRead);
  });
});
