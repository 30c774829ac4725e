import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { openTenderCandidates, openTenderCount, resetTenders, storedTenders, tenderEdition } from "../../src/db/tenders";
import { ingestEdition } from "../../src/jobs/ingest/job";
import { storeOf } from "../../src/jobs/ingest/pipeline";
import { loadTenderFile, refreshTenders } from "../../src/jobs/tenders";
import { ingestPortsFor, tendersPortsFor } from "../../src/platform/jobPorts";

/**
 * Issue 18 §2 tender-match, notices in: our tender release package through loadTenderFile (the CLI and npm start),
 * updated and closed by later files, closed by an award the contracts register loads, sample data never mixed with
 * real; and the daily read (refreshTenders): the window since the last complete read, both publishers, a failure
 * read again next time, never "no new tenders".
 */

const SAMPLE = "http://files.test/contracts/tender-release-package.json";
const NOW = "2026-11-20T10:00:00Z";
const TODAY = "2026-11-20";
const bytesOf = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const sample = async () => (await (await fetch(SAMPLE)).json()) as { releases: Record<string, any>[] } & Record<string, unknown>;
const openOcids = async (now = NOW, today = TODAY) =>
  (await openTenderCandidates(env.DB, { cpvPrefixes: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"], keywords: [], today, now, limit: 100 }))
    .map((t) => t.ocid)
    .sort();
const reads = async () =>
  (
    await env.DB.prepare(`SELECT outcome, window_start, window_end, releases, written, closed, sample, reason FROM tender_reads ORDER BY id`).all<
      Record<string, unknown>
    >()
  ).results;
const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : String(input));

const OPEN_IN_SAMPLE = [
  "ocds-b5fd17-3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f", // care placements, closes 16:00 today
  "ocds-b5fd17-7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f", // legal services, no deadline, published 10 days ago
  "ocds-h6vhtk-05b1a0",
  "ocds-h6vhtk-05b1c4",
  "ocds-h6vhtk-05b1f3", // planned, no deadline
  "ocds-h6vhtk-05b201", // deadline a date alone
];

beforeEach(async () => {
  await resetTenders(env.DB);
  await storeOf("contracts").reset(ingestPortsFor(env), "contracts");
});

describe("issue 18 §2 tender notices loaded from a file", () => {
  it("our package: every process stored once; only the open ones are offered (cancelled, awarded, past deadline never)", async () => {
    const r = await loadTenderFile(tendersPortsFor(env), await bytesOf(SAMPLE), { fileName: "tender-release-package.json", now: new Date(NOW) });
    expect(r).toMatchObject({
      outcome: "loaded",
      editionDate: "2026-11-19",
      written: 9,
      notes: { otherPublishers: 1, noticesUpdated: 2, noticesClosedByAward: 1 },
    });
    expect(await openOcids()).toEqual(OPEN_IN_SAMPLE);
    expect(await openTenderCount(env.DB, TODAY, NOW)).toBe(6);
    // At 16:00 the care placements close; the day after, a date-only deadline of that day would be past too.
    expect(await openOcids("2026-11-20T16:00:01Z")).toEqual(OPEN_IN_SAMPLE.filter((o) => !o.includes("3c4d5e6f")));
    // The award for a process never stored created nothing.
    expect((await storedTenders(env.DB, ["ocds-h6vhtk-05a0f1"])).size).toBe(0);
    expect(await reads()).toEqual([{ outcome: "loaded", window_start: null, window_end: null, releases: 10, written: 9, closed: 2, sample: 0, reason: null }]);
    expect(await tenderEdition(env.DB)).toMatchObject({ lastReadAt: expect.any(String), readThrough: null, sample: false });
  });

  it("a later file updates a notice, closes one by an award, and an older release changes nothing", async () => {
    await loadTenderFile(tendersPortsFor(env), await bytesOf(SAMPLE), { now: new Date(NOW) });
    const pkg = await sample();
    const analytics = pkg.releases.find((r) => r.ocid === "ocds-h6vhtk-05b1a0")!;
    const joinery = pkg.releases.find((r) => r.ocid === "ocds-h6vhtk-05b201")!;
    const desk = pkg.releases.find((r) => r.id === "034250-2026")!;
    const later = {
      publishedDate: "2026-11-21T04:00:03Z",
      releases: [
        {
          ...analytics,
          id: "035777-2026",
          date: "2026-11-20T15:00:00Z",
          tag: ["tenderUpdate"],
          tender: { ...analytics.tender, description: undefined, tenderPeriod: { endDate: "2027-01-29T12:00:00Z" } },
        },
        {
          ocid: joinery.ocid,
          id: "035800-2026",
          date: "2026-11-20T16:00:00Z",
          tag: ["award"],
          tender: { status: "complete" },
          awards: [{ id: "1", status: "active", suppliers: [{ id: "GB-COH-14725836", name: "Hartwell Joinery" }] }],
        },
        // The first release of the service desk again: older than the update stored.
        desk,
      ],
    };
    const r = await loadTenderFile(tendersPortsFor(env), json(later), { now: new Date("2026-11-21T05:00:00Z") });
    expect(r).toMatchObject({ outcome: "loaded", written: 2, closed: 1 });
    const stored = await storedTenders(env.DB, ["ocds-h6vhtk-05b1a0", "ocds-h6vhtk-05b201", "ocds-h6vhtk-05b1c4"]);
    expect(stored.get("ocds-h6vhtk-05b1a0")!.notice).toMatchObject({
      deadline: "2027-01-29T12:00:00Z",
      noticeId: "035777-2026",
      description: expect.stringContaining("data analytics platform"),
    });
    expect(stored.get("ocds-h6vhtk-05b201")!.notice).toMatchObject({ status: "complete", closedBy: "award" });
    expect(stored.get("ocds-h6vhtk-05b1c4")!.notice).toMatchObject({ noticeId: "035001-2026", deadline: "2027-02-15T17:00:00Z" });
    expect(await openOcids()).not.toContain("ocds-h6vhtk-05b201");
  });

  it("an award the contracts register loads closes the open notice of its process", async () => {
    await loadTenderFile(tendersPortsFor(env), await bytesOf(SAMPLE), { now: new Date(NOW) });
    expect(await openOcids()).toContain("ocds-h6vhtk-05b1a0");
    const award = {
      publishedDate: "2026-11-20T04:00:00Z",
      releases: [
        {
          ocid: "ocds-h6vhtk-05b1a0",
          id: "035900-2026",
          date: "2026-11-19T12:00:00Z",
          tag: ["award"],
          tender: { title: "Data analytics platform and business intelligence support", status: "complete" },
          buyer: { id: "GB-PPON-PWCH-2214-NBVQ", name: "Broadland Vale District Council" },
          parties: [{ id: "GB-COH-16240003", name: "Hedgerow Analytics Ltd", identifier: { scheme: "GB-COH", id: "16240003" }, roles: ["supplier"] }],
          awards: [{ id: "1", status: "active", date: "2026-11-19", suppliers: [{ id: "GB-COH-16240003", name: "Hedgerow Analytics Ltd" }] }],
        },
      ],
    };
    const loaded = await ingestEdition(ingestPortsFor(env), { source: "contracts", bytes: json(award), fileName: "award.json", url: null, editionDate: null });
    expect(loaded.outcome).toBe("loaded");
    expect(await openOcids()).not.toContain("ocds-h6vhtk-05b1a0");
    expect(await openTenderCount(env.DB, TODAY, NOW)).toBe(5);
  });

  it("sample notices are never loaded over real ones; the first real load replaces them; what is not OCDS is refused and changes nothing", async () => {
    const bytes = await bytesOf(SAMPLE);
    expect((await loadTenderFile(tendersPortsFor(env), bytes, { sample: true, now: new Date(NOW) })).outcome).toBe("loaded");
    expect(await tenderEdition(env.DB)).toMatchObject({ sample: true });
    const one = await sample();
    const real = { publishedDate: "2026-11-19T04:00:05Z", releases: one.releases.filter((r) => r.ocid === "ocds-h6vhtk-05b201") };
    expect((await loadTenderFile(tendersPortsFor(env), json(real), { now: new Date(NOW) })).outcome).toBe("loaded");
    expect(await openOcids()).toEqual(["ocds-h6vhtk-05b201"]);
    expect(await tenderEdition(env.DB)).toMatchObject({ sample: false });
    const refused = await loadTenderFile(tendersPortsFor(env), bytes, { sample: true, now: new Date(NOW) });
    expect(refused).toMatchObject({ outcome: "refused", reason: expect.stringMatching(/sample data is never loaded over real data/) });
    const bad = await loadTenderFile(tendersPortsFor(env), new TextEncoder().encode("<html>maintenance</html>"), { now: new Date(NOW) });
    expect(bad).toMatchObject({ outcome: "refused", reason: expect.stringMatching(/^malformed file: tenders: expected OCDS JSON/) });
    expect(await openOcids()).toEqual(["ocds-h6vhtk-05b201"]);
  });
});

describe("issue 18 §2 the daily read of tender notices", () => {
  /** FTS answers with our package's FTS releases, CF with its CF ones (any window); `refuse` answers instead where it returns a response. */
  async function upstream(refuse: (u: URL) => Response | null = () => null) {
    const pkg = await sample();
    const asked: string[] = [];
    const fetchImpl = (async (input: RequestInfo | URL) => {
      const u = new URL(urlOf(input));
      asked.push(u.href);
      const r = refuse(u);
      if (r) return r;
      const prefix = u.hostname === "fts.test" ? "ocds-h6vhtk" : "ocds-b5fd17";
      return Response.json({ ...pkg, releases: pkg.releases.filter((x) => String(x.ocid).startsWith(prefix)), links: {} });
    }) as typeof fetch;
    return { asked, fetchImpl };
  }
  const params = (u: string) => Object.fromEntries(new URL(u).searchParams);

  it("the first run reads the last day from both publishers (stages=tender); the next starts where it ended", async () => {
    const { asked, fetchImpl } = await upstream();
    const r = await refreshTenders(tendersPortsFor(env), new Date("2026-11-20T04:00:00Z"), { fetchImpl });
    expect(r).toMatchObject({ outcome: "loaded", days: 1, written: 9, readThrough: "2026-11-20T04:00:00.000Z" });
    expect(asked.map((u) => new URL(u).hostname)).toEqual(["fts.test", "cf.test"]);
    expect(params(asked[0])).toEqual({ updatedFrom: "2026-11-19T04:00:00", updatedTo: "2026-11-20T04:00:00", stages: "tender", limit: "100" });
    expect(params(asked[1])).toEqual({ publishedFrom: "2026-11-19T04:00:00", publishedTo: "2026-11-20T04:00:00", stages: "tender", limit: "100" });
    expect(await openOcids()).toEqual(OPEN_IN_SAMPLE);
    const next = await upstream();
    await refreshTenders(tendersPortsFor(env), new Date("2026-11-21T04:00:00Z"), { fetchImpl: next.fetchImpl });
    expect(params(next.asked[0])).toMatchObject({ updatedFrom: "2026-11-20T04:00:00", updatedTo: "2026-11-21T04:00:00" });
    expect(await tenderEdition(env.DB)).toMatchObject({ readThrough: "2026-11-21T04:00:00.000Z", sample: false });
  });

  it("a 429 beyond the wait budget fails the run (never 'no new tenders'); the next run reads the same day again, then the days after, a day at a time", async () => {
    await refreshTenders(tendersPortsFor(env), new Date("2026-11-20T04:00:00Z"), { fetchImpl: (await upstream()).fetchImpl });
    const busy = await upstream((u) =>
      u.hostname === "cf.test" ? new Response("Too Many Requests", { status: 429, headers: { "Retry-After": "3600" } }) : null,
    );
    const failed = await refreshTenders(tendersPortsFor(env), new Date("2026-11-21T04:00:00Z"), { fetchImpl: busy.fetchImpl, sleep: async () => {} });
    expect(failed).toMatchObject({ outcome: "failed", days: 0, readThrough: "2026-11-20T04:00:00.000Z" });
    expect(failed.reason).toMatch(/Contracts Finder answered 429 asking to wait 3600 s/);
    const again = await upstream();
    const r = await refreshTenders(tendersPortsFor(env), new Date("2026-11-23T04:00:00Z"), { fetchImpl: again.fetchImpl });
    expect(r).toMatchObject({ outcome: "loaded", days: 3, readThrough: "2026-11-23T04:00:00.000Z" });
    expect(again.asked.filter((u) => u.includes("fts.test")).map((u) => params(u).updatedFrom)).toEqual([
      "2026-11-20T04:00:00",
      "2026-11-21T04:00:00",
      "2026-11-22T04:00:00",
    ]);
    expect((await reads()).map((x) => [x.outcome, x.window_start])).toEqual([
      ["loaded", "2026-11-19T04:00:00.000Z"],
      ["failed", "2026-11-20T04:00:00.000Z"],
      ["loaded", "2026-11-20T04:00:00.000Z"],
      ["loaded", "2026-11-21T04:00:00.000Z"],
      ["loaded", "2026-11-22T04:00:00.000Z"],
    ]);
  });

  it("the first real read removes our sample notices", async () => {
    await loadTenderFile(tendersPortsFor(env), await bytesOf(SAMPLE), { sample: true, now: new Date(NOW) });
    const empty = (async () => Response.json({ releases: [], links: {} })) as unknown as typeof fetch;
    const r = await refreshTenders(tendersPortsFor(env), new Date("2026-11-20T04:00:00Z"), { fetchImpl: empty });
    expect(r).toMatchObject({ outcome: "loaded", days: 1, written: 0 });
    expect(await openOcids()).toEqual([]);
  });

  it("a read that fails leaves our sample notices (tender-match keeps answering offline, e.g. under npm run job)", async () => {
    await loadTenderFile(tendersPortsFor(env), await bytesOf(SAMPLE), { sample: true, now: new Date(NOW) });
    const before = await openOcids();
    expect(before.length).toBeGreaterThan(0);
    const down = (async () => new Response("unavailable", { status: 503 })) as unknown as typeof fetch;
    const r = await refreshTenders(tendersPortsFor(env), new Date("2026-11-20T04:00:00Z"), { fetchImpl: down, sleep: async () => {} });
    expect(r).toMatchObject({ outcome: "failed", days: 0 });
    expect(await openOcids()).toEqual(before);
    expect(await tenderEdition(env.DB)).toMatchObject({ sample: true });
  });
});
