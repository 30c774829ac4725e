import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { entriesByCompanyNumber, keysByNames } from "../../../src/db/registers";
import { contractsWindowStart, sliceOf } from "../../../src/jobs/ingest/adapters/contracts";
import { handleIngestJob, ingestEdition } from "../../../src/jobs/ingest/job";
import type { IngestJob } from "../../../src/jobs/ingest/message";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { normaliseName } from "../../../src/services/matching/names";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * Issue 14 §1: public contract awards (Contracts Finder and Find a Tender OCDS) as a register, through the ingest
 * pipeline, the run log and the change history. A changes source: the daily job reads the awards published or
 * updated since the last complete window (FTS `updatedFrom`, CF `publishedFrom`), and nothing absent from a
 * window is removed.
 */

const SAMPLE = "http://files.test/contracts/award-release-package.json";
const REAL = "http://shared.test/data/contracts-finder-fts";
const bytesOf = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const load = (bytes: Uint8Array, fileName: string | null = "awards.json", editionDate: string | null = null) =>
  ingestEdition(ingestPortsFor(env), { source: "contracts", bytes, fileName, url: null, editionDate });
const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : String(input));

const listed = async () =>
  (
    await env.DB.prepare(`SELECT key FROM register_entries WHERE source = 'contracts' AND valid_to_run IS NULL ORDER BY key`).all<{ key: string }>()
  ).results.map((r) => r.key);
const changes = async () =>
  (
    await env.DB.prepare(`SELECT change_date, kind, key FROM register_changes WHERE source = 'contracts' ORDER BY id`).all<{
      change_date: string;
      kind: string;
      key: string;
    }>()
  ).results.map((r) => `${r.change_date} ${r.kind} ${r.key}`);
const runs = async () =>
  (
    await env.DB.prepare(
      `SELECT outcome, edition_date, mode, rows_read, window_start, window_end, window_complete, reason FROM register_runs WHERE source = 'contracts' ORDER BY id`,
    ).all<{
      outcome: string;
      edition_date: string;
      mode: string;
      rows_read: number;
      window_start: string | null;
      window_end: string | null;
      window_complete: number | null;
      reason: string | null;
    }>()
  ).results;

/** Messages the consumer sends to the ingest queue, captured instead of sent. */
function captureSends(): IngestJob[] {
  const sent: IngestJob[] = [];
  vi.spyOn(env.INGEST, "sendBatch").mockImplementation(async (msgs) => {
    for (const m of msgs) sent.push(m.body);
    return undefined as never;
  });
  return sent;
}

/** Upstream asks recorded; `answer` may replace any answer (else the fixture hosts answer). */
function upstream(answer: (url: URL) => Response | null = () => null): string[] {
  const asked: string[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(urlOf(input));
    if (url.hostname === "fts.test" || url.hostname === "cf.test") asked.push(url.href);
    return answer(url) ?? realFetch(input, init);
  });
  return asked;
}
const paramsOf = (u: string) => Object.fromEntries(new URL(u).searchParams);

/** A later FTS page: the Wessex award cancelled (an update of a known award) and a new award. */
async function laterFtsPage(): Promise<Response> {
  const page = await (await fetch("http://files.test/hosts/fts.test/api/1.0/ocdsReleasePackages/index.json")).json<{ releases: Record<string, any>[] }>();
  const wessex = page.releases[1];
  const cancelled = {
    ...wessex,
    id: "031611-2026",
    date: "2026-10-08T09:00:00Z",
    tag: ["awardUpdate"],
    awards: [{ ...wessex.awards[0], status: "cancelled" }],
  };
  const added = {
    ...page.releases[0],
    ocid: "ocds-h6vhtk-04b001",
    id: "031702-2026",
    date: "2026-10-08T12:00:00Z",
    awards: [{ ...page.releases[0].awards[0], id: "1", value: { amount: 90000, currency: "GBP" } }],
  };
  return Response.json({ ...page, publishedDate: "2026-10-09T04:00:02Z", releases: [cancelled, added], links: {} });
}
const emptyPage = () => Response.json({ publishedDate: "2026-10-09T04:00:02Z", releases: [], links: {} });

beforeEach(async () => {
  await storeOf("contracts").reset(ingestPortsFor(env), "contracts");
});
afterEach(() => vi.restoreAllMocks());

describe("issue 14 §1 contract awards through the ingest pipeline", () => {
  it.skipIf(!env.SHARED_PRESENT)(
    "real data: the five real Contracts Finder releases load as a partial edition: 14 entries, found by their normalised company numbers",
    async () => {
      const parts = await Promise.all([117, 122, 124, 17, 75].map(async (n) => (await fetch(`${REAL}/cf-ocds-release-release${n}.json`)).text()));
      const r = await load(new TextEncoder().encode(`[${parts.join(",")}]`), "cf-releases.json");
      expect(r).toMatchObject({
        outcome: "loaded",
        editionDate: "2025-03-11",
        rowsRead: 14,
        changes: 0,
        notes: { releasesWithoutAwards: 1, personOnlySuppliers: 1 },
      });
      const [taxi] = await entriesByCompanyNumber(env.DB, "contracts", ["04142000"]);
      expect(taxi).toMatchObject({
        name: "24x7",
        part: "GB-COH-4142000",
        status: "active",
        data: { source: "CF", supplier: { companyNumber: "04142000", postcode: "CM6 2JN" } },
      });
      // A supplier without a number is found by its exact name (its postcode is kept beside it).
      const keys = await keysByNames(env.DB, "contracts", [normaliseName("BA Taxis Ltd")], null);
      expect(keys).toEqual(["ocds-b5fd17-d1441223-b3e7-45a9-9ff6-88fcdad59f37/ocds-b5fd17-d1441223-b3e7-45a9-9ff6-88fcdad59f37-1/GB-CFS-307558"]);
    },
  );

  it("the sample package loads one entry per award and supplier, dated by the package; the run is partial", async () => {
    const r = await load(await bytesOf(SAMPLE), "award-release-package.json");
    expect(r).toMatchObject({
      outcome: "loaded",
      editionDate: "2026-10-08",
      rowsRead: 7,
      changes: 0,
      notes: { releasesWithoutAwards: 1, personOnlySuppliers: 1 },
    });
    expect((await runs())[0]).toMatchObject({ mode: "partial" });
    const [harbour] = await entriesByCompanyNumber(env.DB, "contracts", ["09876543"]);
    expect(harbour).toMatchObject({
      entity: "ocds-h6vhtk-04a1b2/1",
      data: { supplier: { ppon: "PQRD-7312-HVTN", companyNumber: "09876543" }, value: { amount: 1250000 } },
    });
  });

  it("a second file adds awards and records a status change, and removes none of the earlier ones", async () => {
    await load(await bytesOf(SAMPLE), "award-release-package.json");
    const before = await listed();
    const later = await laterFtsPage();
    const r = await load(new Uint8Array(await later.arrayBuffer()), "later.json");
    expect(r).toMatchObject({ outcome: "loaded", editionDate: "2026-10-09", rowsRead: 2, byKind: { added: 1, status: 1 } });
    const now = await listed();
    expect(now).toEqual([...before, "ocds-h6vhtk-04b001/1/GB-PPON-PQRD-7312-HVTN"].sort());
    expect(await changes()).toEqual(["2026-10-09 added ocds-h6vhtk-04b001/1", "2026-10-09 status ocds-h6vhtk-04a1c7/1"]);
    const [wessex] = await entriesByCompanyNumber(env.DB, "contracts", ["04142000"]);
    expect(wessex).toMatchObject({ status: "cancelled", data: { releaseId: "031611-2026" } });
  });

  it("what is not OCDS JSON is refused and the published awards stay", async () => {
    await load(await bytesOf(SAMPLE), "award-release-package.json");
    const r = await load(new TextEncoder().encode("<html>maintenance</html>"), "awards.json");
    expect(r.outcome).toBe("refused");
    expect(await listed()).toHaveLength(7);
  });
});

describe("issue 14 §1 the daily job reads awards as changes, window by window", () => {
  it("the first run reads the last day of both publishers, following FTS cursors; the next starts where it ended and adds without removing", async () => {
    const asked = upstream();
    const day1 = new Date("2026-10-08T04:00:00Z");
    const [first] = await handleIngestJob(ingestPortsFor(env), { source: "contracts" }, { now: day1 });
    expect(first).toMatchObject({ outcome: "loaded", editionDate: "2026-10-08", rowsRead: 7 });
    expect(asked.map((u) => `${new URL(u).hostname}${new URL(u).search.includes("cursor") ? " cursor" : ""}`)).toEqual([
      "fts.test",
      "fts.test cursor",
      "cf.test",
    ]);
    expect(paramsOf(asked[0])).toEqual({ updatedFrom: "2026-10-07T04:00:00", updatedTo: "2026-10-08T04:00:00", stages: "award", limit: "100" });
    expect(paramsOf(asked[2])).toEqual({ publishedFrom: "2026-10-07T04:00:00", publishedTo: "2026-10-08T04:00:00", stages: "award", limit: "100" });
    expect((await runs())[0]).toMatchObject({
      mode: "partial",
      window_start: "2026-10-07T04:00:00.000Z",
      window_end: "2026-10-08T04:00:00.000Z",
      window_complete: 1,
    });

    vi.restoreAllMocks();
    const later = await laterFtsPage();
    const asked2 = upstream((u) => (u.hostname === "fts.test" ? later.clone() : u.hostname === "cf.test" ? emptyPage() : null));
    const [second] = await handleIngestJob(ingestPortsFor(env), { source: "contracts" }, { now: new Date("2026-10-09T04:00:00Z") });
    expect(second).toMatchObject({ outcome: "loaded", editionDate: "2026-10-09", rowsRead: 2, byKind: { added: 1, status: 1 } });
    expect(paramsOf(asked2[0])).toMatchObject({ updatedFrom: "2026-10-08T04:00:00", updatedTo: "2026-10-09T04:00:00" });
    expect(await listed()).toHaveLength(8); // the 7 of the first day stay
  });

  it("a 429 whose Retry-After is longer than the run may wait fails the run (no awards taken as none); the next run reads the same window again", async () => {
    const day1 = new Date("2026-10-08T04:00:00Z");
    upstream();
    await handleIngestJob(ingestPortsFor(env), { source: "contracts" }, { now: day1 });
    vi.restoreAllMocks();
    upstream((u) => (u.hostname === "fts.test" ? new Response("Too Many Requests", { status: 429, headers: { "Retry-After": "3600" } }) : null));
    const [failed] = await handleIngestJob(ingestPortsFor(env), { source: "contracts" }, { now: new Date("2026-10-09T04:00:00Z") });
    expect(failed).toMatchObject({ outcome: "failed" });
    expect(failed.reason).toMatch(/Find a Tender answered 429 asking to wait 3600 s, beyond the 60 s this run may wait/);
    expect(await listed()).toHaveLength(7);
    vi.restoreAllMocks();
    const sent = captureSends();
    const asked = upstream();
    expect(await contractsWindowStart(env.DB, new Date("2026-10-10T04:00:00Z"))).toBe("2026-10-08T04:00:00.000Z");
    const [third] = await handleIngestJob(ingestPortsFor(env), { source: "contracts" }, { now: new Date("2026-10-10T04:00:00Z") });
    expect(third.outcome).toBe("unchanged");
    // Two days (the failed one and today) in two messages: this one read the first.
    expect(paramsOf(asked[0])).toMatchObject({ updatedFrom: "2026-10-08T04:00:00", updatedTo: "2026-10-09T04:00:00" });
    expect(sent).toEqual([{ source: "contracts", window: { start: "2026-10-08T04:00:00.000Z", end: "2026-10-10T04:00:00.000Z" }, from: 1 }]);
  });

  it("a 429 with a short Retry-After is waited for and the same page asked again", async () => {
    let refused = 0;
    const asked = upstream((u) =>
      u.hostname === "fts.test" && refused++ === 0 ? new Response("slow down", { status: 429, headers: { "Retry-After": "1" } }) : null,
    );
    const [r] = await handleIngestJob(ingestPortsFor(env), { source: "contracts" }, { now: new Date("2026-10-08T04:00:00Z") });
    expect(r).toMatchObject({ outcome: "loaded", rowsRead: 7 });
    expect(asked.filter((u) => new URL(u).hostname === "fts.test" && !u.includes("cursor"))).toHaveLength(2);
  });

  it("after an outage the window is read a day per message until its end; the window is complete only then", async () => {
    upstream();
    await handleIngestJob(ingestPortsFor(env), { source: "contracts" }, { now: new Date("2026-10-08T04:00:00Z") });
    vi.restoreAllMocks();
    const sent = captureSends();
    const asked = upstream();
    const now = new Date("2026-10-11T04:00:00Z");
    const [first] = await handleIngestJob(ingestPortsFor(env), { source: "contracts" }, { now });
    expect(first).toMatchObject({ outcome: "unchanged" });
    const window = { start: "2026-10-08T04:00:00.000Z", end: "2026-10-11T04:00:00.000Z" };
    expect(sent).toEqual([{ source: "contracts", window, from: 1 }]);
    // Until the last day is read, the next run would start again at the window's start.
    expect(await contractsWindowStart(env.DB, new Date("2026-10-12T04:00:00Z"))).toBe(window.start);
    await handleIngestJob(ingestPortsFor(env), sent[0], { now });
    await handleIngestJob(ingestPortsFor(env), sent[1], { now });
    expect(sent).toHaveLength(2);
    const froms = asked.filter((u) => new URL(u).hostname === "fts.test" && !u.includes("cursor")).map((u) => paramsOf(u).updatedFrom);
    expect(froms).toEqual(["2026-10-08T04:00:00", "2026-10-09T04:00:00", "2026-10-10T04:00:00"]);
    expect((await runs()).map((r) => [r.outcome, r.window_complete])).toEqual([
      ["loaded", 1],
      ["unchanged", 0],
      ["unchanged", 0],
      ["unchanged", 1],
    ]);
    expect(await contractsWindowStart(env.DB, new Date("2026-10-12T04:00:00Z"))).toBe(window.end);
  });

  it("a window of a day and a few seconds is one slice; a longer one is cut into days, the last taking the rest", () => {
    expect(sliceOf("2026-10-07T04:00:00.000Z", "2026-10-08T04:00:09.000Z", 0)).toEqual({
      from: "2026-10-07T04:00:00.000Z",
      to: "2026-10-08T04:00:09.000Z",
      total: 1,
    });
    expect(sliceOf("2026-10-07T04:00:00.000Z", "2026-10-09T12:00:00.000Z", 1)).toEqual({
      from: "2026-10-08T04:00:00.000Z",
      to: "2026-10-09T12:00:00.000Z",
      total: 2,
    });
  });
});
