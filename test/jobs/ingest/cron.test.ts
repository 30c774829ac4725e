import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../../src/index";
import { CQC_MAX_DETAILS, cqcWindowStart } from "../../../src/jobs/ingest/adapters/cqc";
import { handleIngestJob } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { candidateEditions } from "../../../src/sources/companies-house/bulkDownload";
import { reportingYearOn } from "../../../src/sources/gender-pay-gap/parse";
import type { IngestJob } from "../../../src/jobs/ingest/message";
import { REGISTER_SOURCES } from "../../../src/services/registers/types";
import { call, createTestKey, json } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * Issue "Register checks with daily change feeds" §1: a Cron Trigger enqueues one job per source; the Queue
 * consumer fetches each source's current edition from its upstream (fixture hosts govuk.test, assets.test,
 * sra.test, cqc.test, charity.test) and loads it.
 */

const TABLES = ["register_runs", "register_state", "register_entries", "register_names", "register_names_fts", "register_changes", "register_staging"];
const clearRegisters = async () => {
  await env.DB.batch(TABLES.map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
  await storeOf("companies").reset(ingestPortsFor(env), "companies");
};
const runs = () =>
  env.DB.prepare(`SELECT source, scope, edition_date, outcome, rows_read, changes, reason FROM register_runs ORDER BY id`)
    .all<{ source: string; scope: string; edition_date: string | null; outcome: string; rows_read: number; changes: number; reason: string | null }>()
    .then((r) => r.results);
const today = () => new Date().toISOString().slice(0, 10);
/** Gender pay gap: the fixture years (test/fixtures/gender-pay-gap/<year>) and their rows; the daily job reads the year before the current one and the current one. */
const GPG_FIXTURES: Record<string, number> = { "2025": 6, "2026": 4 };
const gpgYears = () => [reportingYearOn(new Date()) - 1, reportingYearOn(new Date())].map(String);
const batchOf = (jobs: IngestJob[]) =>
  createMessageBatch<IngestJob>(
    "register-ingest",
    jobs.map((body, i) => ({ id: `msg-${i}`, timestamp: new Date(), attempts: 1, body })),
  );

/** Messages the consumer sends to the ingest queue, captured instead of sent. */
function captureSends(): IngestJob[] {
  const sent: IngestJob[] = [];
  vi.spyOn(env.INGEST, "sendBatch").mockImplementation(async (msgs) => {
    for (const m of msgs) sent.push(m.body);
    return undefined as never;
  });
  return sent;
}

// A fixed day, so the gender pay gap's "year before and current year" are always the fixture years 2025 and 2026.
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-24T12:00:00Z") });
  await clearRegisters();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("issue §1 cron and queue", () => {
  it("issue §1 the daily cron sends one ingest message per register source", async () => {
    const sendBatch = vi.spyOn(env.INGEST, "sendBatch").mockResolvedValue(undefined as never);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.parse("2026-10-08T04:00:00Z"), cron: "0 4 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(sendBatch).toHaveBeenCalledTimes(1);
    expect(sendBatch.mock.calls[0][0]).toEqual([
      { body: { source: "aml" } },
      { body: { source: "sra" } },
      { body: { source: "sponsors" } },
      { body: { source: "cqc" } },
      { body: { source: "charity" } },
      { body: { source: "companies" } },
      { body: { source: "sanctions" } },
      { body: { source: "gender-pay-gap" } },
      { body: { source: "contracts" } },
      { body: { source: "payment-practices" } },
    ]);
    expect([...sendBatch.mock.calls[0][0]].map((m) => m.body.source).sort()).toEqual([...REGISTER_SOURCES].sort());
  });

  it("issue §1 the queue consumer loads every source from its upstream and acks each message; the same editions again record nothing", async () => {
    const jobs = REGISTER_SOURCES.map((source) => ({ source }));
    const batch = batchOf(jobs);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(jobs.map((_, i) => `msg-${i}`));
    expect(result.retryMessages).toEqual([]);
    const loaded = (await runs()).map((r) => [r.source, r.scope, r.edition_date, r.outcome, r.rows_read]);
    expect(loaded).toEqual([
      ["aml", "", "2026-10-07", "loaded", 10], // edition date from the page's public_updated_at
      ["sra", "", today(), "loaded", 6], // the API has no edition date: the day of the fetch
      ["sponsors", "workers", "2026-10-06", "loaded", 17], // date from the attachment's file name; "Dr Priya Raman" not loaded, "Mrs … T/A Corner Shop" kept as Corner Shop
      ["sponsors", "students", "2026-10-05", "loaded", 6],
      ["cqc", "", today(), "loaded", 3],
      ["charity", "", "2026-07-09", "loaded", 4], // date_of_extract of the tables
      ["companies", "", candidateEditions(new Date())[0], "loaded", 17], // this month's Basic Company Data file (the fixture host serves every month)
      ["sanctions", "", "2026-02-13", "loaded", 4], // the list's own Report Date
      ...gpgYears().map((y) => ["gender-pay-gap", y, today(), "loaded", GPG_FIXTURES[y]]), // one scope per reporting year, dated the day of the fetch
      ["contracts", "", today(), "loaded", 7], // the awards of the last day (FTS two pages by cursor, then CF), dated by the window's end
      ["payment-practices", "", today(), "loaded", 8], // the whole export, one report per company and period, dated the day of the fetch
    ]);
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_changes`).first("n")).toBe(0);

    // Answers come from what the queue loaded.
    const { key } = await createTestKey();
    const body = await json(await call("/api/v1/cqc-check?company=Meadow%20Care%20Homes%20Limited", { key }));
    expect(body.locations.map((l: { name: string; registrationStatus: string }) => `${l.name}: ${l.registrationStatus}`)).toEqual([
      "The Old Rectory Care Home: Deregistered",
      "Meadowbank House: Registered",
    ]);

    const again = batchOf(jobs);
    const ctx2 = createExecutionContext();
    await worker.queue(again, env);
    expect((await getQueueResult(again, ctx2)).explicitAcks).toHaveLength(jobs.length);
    // The companies register is monthly: with no newer file than the one loaded, its job reads nothing.
    expect((await runs()).slice(loaded.length).map((r) => `${r.source}/${r.scope}: ${r.outcome}`)).toEqual([
      "aml/: unchanged",
      "sra/: unchanged",
      "sponsors/workers: unchanged",
      "sponsors/students: unchanged",
      "cqc/: unchanged",
      "charity/: unchanged",
      "sanctions/: unchanged",
      ...gpgYears().map((y) => `gender-pay-gap/${y}: unchanged`),
      "contracts/: unchanged",
      "payment-practices/: unchanged",
    ]);
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_changes`).first("n")).toBe(0);
  });

  it("issue §1 a job that throws (D1 unavailable) is retried, not acked", async () => {
    vi.spyOn(env.DB, "prepare").mockImplementation(() => {
      throw new Error("D1_ERROR: database unavailable");
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const batch = batchOf([{ source: "sra" }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([expect.objectContaining({ msgId: "msg-0" })]);
  });

  it("issue §1 a file too big for one invocation: the consumer stages a chunk, enqueues the rest, and resumed jobs complete the run", async () => {
    const sent = captureSends();
    expect(await handleIngestJob(ingestPortsFor(env), { source: "sra" }, { chunkRows: 2 })).toEqual([]);
    const runId = sent[0].runId;
    expect(sent).toEqual([{ source: "sra", runId, offset: 2 }]);
    expect(await env.DB.prepare(`SELECT outcome, rows_read FROM register_runs WHERE id = ?`).bind(runId).first()).toEqual({ outcome: "running", rows_read: 2 });
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_state`).first("n")).toBe(0); // nothing published yet
    // The SRA publishes no edition date (a run is dated the day it is fetched): a run resumed after midnight is still the same edition.
    await env.DB.prepare(`UPDATE register_runs SET edition_date = '2026-10-07' WHERE id = ?`).bind(runId).run();

    expect(await handleIngestJob(ingestPortsFor(env), sent[0], { chunkRows: 2 })).toEqual([]);
    expect(sent[1]).toEqual({ source: "sra", runId, offset: 4 });
    const [done] = await handleIngestJob(ingestPortsFor(env), sent[1], { chunkRows: 2 });
    expect(done).toMatchObject({ runId, outcome: "loaded", rowsRead: 6 });
    expect(sent).toHaveLength(2);
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_entries WHERE source = 'sra'`).first("n")).toBe(6);
  });

  it("issue §1 the charity extract, streamed from upstream, loads in resumable chunks; a new edition between chunks fails the run and keeps the published one", async () => {
    const sent = captureSends();
    expect(await handleIngestJob(ingestPortsFor(env), { source: "charity" }, { chunkRows: 3 })).toEqual([]);
    const [done] = await handleIngestJob(ingestPortsFor(env), sent[0], { chunkRows: 3 });
    expect(done).toMatchObject({ outcome: "loaded", rowsRead: 4, editionDate: "2026-07-09" });
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_entries WHERE source = 'charity' AND valid_to_run IS NULL`).first("n")).toBe(4);

    // Next day: the first chunk is read from the 2026-07-09 files, then upstream publishes 2026-07-10.
    const realFetch = globalThis.fetch;
    expect(await handleIngestJob(ingestPortsFor(env), { source: "charity" }, { chunkRows: 3 })).toEqual([]);
    const running = sent[1];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const res = await realFetch(input, init);
      if (!String(input).endsWith("/publicextract.charity.zip")) return res;
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      const txt = strFromU8(files["publicextract.charity.txt"]).replaceAll("2026-07-09", "2026-07-10");
      return new Response(zipSync({ "publicextract.charity.txt": strToU8(txt) }));
    });
    const [failed] = await handleIngestJob(ingestPortsFor(env), running, { chunkRows: 3 });
    expect(failed).toMatchObject({ outcome: "failed", runId: running.runId });
    expect(failed.reason).toMatch(/edition changed while the run was in progress \(2026-07-09 → 2026-07-10\)/);
    expect((await runs()).filter((r) => r.source === "charity").map((r) => r.outcome)).toEqual(["loaded", "failed"]);
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_entries WHERE source = 'charity' AND valid_to_run IS NULL`).first("n")).toBe(4);
  });

  it("issue §1 CQC: the change window starts where the last complete one ended, so a day lost to an outage is read the next day", async () => {
    const realFetch = globalThis.fetch;
    const asked: string[] = [];
    let down = false;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/changes/")) asked.push(url);
      return down ? new Response("busy", { status: 500 }) : realFetch(input, init);
    });
    const window = () => {
      const q = new URL(asked.at(-1)!).searchParams;
      return [q.get("startTimestamp"), q.get("endTimestamp")];
    };
    const day1 = new Date("2026-10-08T04:00:00Z");
    expect((await handleIngestJob(ingestPortsFor(env), { source: "cqc" }, { now: day1 }))[0]).toMatchObject({ outcome: "loaded" });
    expect(window()).toEqual(["2026-10-07T04:00:00.000Z", "2026-10-08T04:00:00.000Z"]); // first ever: the last day
    down = true;
    expect((await handleIngestJob(ingestPortsFor(env), { source: "cqc" }, { now: new Date("2026-10-09T04:00:00Z") }))[0]).toMatchObject({ outcome: "failed" });
    down = false;
    await handleIngestJob(ingestPortsFor(env), { source: "cqc" }, { now: new Date("2026-10-10T04:00:00Z") });
    expect(window()).toEqual(["2026-10-08T04:00:00.000Z", "2026-10-10T04:00:00.000Z"]);
    // After a long outage the window reaches back at most 31 days.
    await handleIngestJob(ingestPortsFor(env), { source: "cqc" }, { now: new Date("2026-12-31T04:00:00Z") });
    expect(window()).toEqual(["2026-11-30T04:00:00.000Z", "2026-12-31T04:00:00.000Z"]);
  });

  it("issue §1 CQC: a window with more changes than one message may read goes on in further messages until every change is read", async () => {
    const sent = captureSends();
    const realFetch = globalThis.fetch;
    const template = await (await realFetch("https://cqc.test/public/v1/locations/1-125856395")).json<Record<string, unknown>>();
    const ids = Array.from({ length: CQC_MAX_DETAILS + 50 }, (_, i) => `1-9${String(i).padStart(8, "0")}`);
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      if (url.pathname.endsWith("/changes/location")) return Response.json({ total: ids.length, page: 1, totalPages: 1, changes: ids });
      if (url.pathname.endsWith("/changes/provider")) return Response.json({ total: 0, page: 1, totalPages: 1, changes: [] });
      const loc = /\/locations\/(.+)$/.exec(url.pathname)?.[1];
      if (loc) return Response.json({ ...template, locationId: loc, name: `Care Home ${loc}` });
      return realFetch(input, init);
    });
    const now = new Date("2026-10-08T04:00:00Z");
    const [first] = await handleIngestJob(ingestPortsFor(env), { source: "cqc" }, { now });
    expect(first).toMatchObject({ outcome: "loaded", rowsRead: CQC_MAX_DETAILS });
    expect(sent).toEqual([{ source: "cqc", window: { start: "2026-10-07T04:00:00.000Z", end: "2026-10-08T04:00:00.000Z" }, from: CQC_MAX_DETAILS }]);
    // Until the window is read to its end, the next day's window still starts at its start.
    expect(await cqcWindowStart(env.DB, new Date("2026-10-09T04:00:00Z"))).toBe("2026-10-07T04:00:00.000Z");
    const [second] = await handleIngestJob(ingestPortsFor(env), sent[0], { now });
    expect(second).toMatchObject({ outcome: "loaded", rowsRead: 50 });
    expect(sent).toHaveLength(1);
    expect(
      await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_entries WHERE source = 'cqc' AND valid_to_run IS NULL AND key LIKE '1-9%'`).first("n"),
    ).toBe(ids.length);
    expect((await runs()).map((r) => [r.outcome, r.rows_read])).toEqual([
      ["loaded", CQC_MAX_DETAILS],
      ["loaded", 50],
    ]);
    expect(await cqcWindowStart(env.DB, new Date("2026-10-09T04:00:00Z"))).toBe("2026-10-08T04:00:00.000Z");
  });

  it("SPEC §7 a malformed upstream reply found while staging is logged as refused with its reason", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("<html><body>Maintenance</body></html>", { status: 200 }));
    const [r] = await handleIngestJob(ingestPortsFor(env), { source: "sra" });
    expect(r.reason).toBe("malformed file: sra: the reply is not JSON (it starts with neither [ nor {)");
    expect((await runs()).map((x) => [x.outcome, x.reason])).toEqual([["refused", r.reason]]);
  });

  // BUG (src/jobs/ingest/job.ts handleIngestJob, the catch after stageRecords): the run log says "refused"
  // but the result returned (and logged) says "failed".
  it("SPEC §7 the result of a refused run says refused, as its run log does", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("<html><body>Maintenance</body></html>", { status: 200 }));
    const [r] = await handleIngestJob(ingestPortsFor(env), { source: "sra" });
    expect(r.outcome).toBe("refused");
  });
});
