import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { listAmlRegisterChanges as amlRegisterChanges } from "../../../src/operations/registers/listAmlRegisterChanges";
import { listCqcChanges as cqcCheckChanges } from "../../../src/operations/registers/listCqcChanges";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import type { RegisterSource } from "../../../src/services/registers/types";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/** Issue "Register checks with daily change feeds" §2 feeds; SPEC §4.5, §4.8, §6.3: pull only, oldest first, paged, 1 credit a page. */

const bytesOf = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());
const enc = (s: string) => new TextEncoder().encode(s);
const ingest = async (source: RegisterSource, bytes: Uint8Array, editionDate: string) => {
  const r = await ingestEdition(ingestPortsFor(env), { source, bytes, fileName: null, url: null, editionDate });
  if (r.outcome !== "loaded") throw new Error(`${source} ${editionDate}: ${r.outcome} ${r.reason}`);
};

interface Change {
  id: number;
  date: string;
  kind: string;
  name: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

beforeAll(async () => {
  for (const d of ["2026-10-07", "2026-11-07", "2026-12-07"]) await ingest("aml", await bytesOf(`hmrc-mlr/register-edition-${d}.csv`), d);
  const sponsors = (d: string) => bytesOf(`sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_${d}.csv`);
  await ingest("sponsors", await sponsors("2026-06-26"), "2026-10-06");
  await ingest("sponsors", await sponsors("2026-06-29"), "2026-10-07");
  const cqc = async (n: string) => (await (await fetch(`http://files.test/cqc/${n}.json`)).json()) as Record<string, any>;
  const [home, dentist] = await Promise.all([cqc("location-care-home"), cqc("location-dentist")]);
  await ingest("cqc", enc(JSON.stringify([home, dentist])), "2026-10-02");
  const bad = structuredClone(home);
  bad.currentRatings.overall.rating = "Inadequate";
  const better = structuredClone(dentist);
  better.currentRatings = { overall: { rating: "Outstanding", reportDate: "2026-09-30", keyQuestionRatings: [] } };
  await ingest("cqc", enc(JSON.stringify([bad, better])), "2026-10-03");
  const good = structuredClone(home);
  good.currentRatings.overall.rating = "Requires improvement";
  await ingest("cqc", enc(JSON.stringify([good])), "2026-10-04");
});

async function feed(path: string, q: Record<string, string>, key?: string) {
  key ??= (await createTestKey()).key;
  const r = await call(`${path}?${new URLSearchParams(q)}`, { key });
  return { r, body: await json(r) };
}

describe("SPEC §4.5 aml-register/changes", () => {
  it("SPEC §6.3 every change since the date, oldest first, with before/after; 1 credit; parses with the output schema", async () => {
    const { key, keyId } = await createTestKey();
    const { r, body } = await feed("/api/v1/aml-register/changes", { since: "2026-10-01" }, key);
    expect(r.status).toBe(200);
    expect(r.headers.get("x-credits-remaining")).toBe("99");
    expect(await balanceOf(keyId)).toBe(99);
    amlRegisterChanges.output.parse(body);
    expect(body).toMatchObject({
      source: "aml",
      since: "2026-10-01",
      kinds: ["added", "removed", "returned", "status", "premises"],
      more: false,
      nextCursor: null,
      historySince: "2026-10-07",
      registerDate: "2026-12-07",
    });
    expect(body.provenance).toMatchObject({ registerDate: "2026-12-07", licence: expect.stringContaining("Open Government Licence") });
    const changes = body.changes as Change[];
    expect(changes.map((c) => `${c.date} ${c.kind} ${c.name}`)).toEqual([
      "2026-11-07 added WILLOW FINE ART DEALERS LTD",
      "2026-11-07 status HARBOUR FORMATIONS LTD",
      "2026-11-07 removed QUAYSIDE CURRENCY LIMITED", // one registration, two premises: one removal
      "2026-12-07 returned QUAYSIDE CURRENCY LIMITED",
    ]);
    expect(changes.map((c) => c.id)).toEqual([...changes.map((c) => c.id)].sort((a, b) => a - b));
    expect(changes[1]).toMatchObject({ before: { status: "Applied" }, after: { status: "Approved" } });
    // Each record carries the registration's MLR number, so it can be acted on; the request is echoed under `query`.
    expect(changes.map((c) => (c as Change & { mlrNumber: string }).mlrNumber)).toEqual(["XAML00000999000", "XJML00000123456", "12137999", "12137999"]);
    expect(body.query).toEqual({ since: "2026-10-01", limit: 100 });
    expect(JSON.stringify(body)).not.toMatch(/John Smith/); // SPEC §1 rule 7
  });

  it("SPEC §4.5 `since` filters by the edition date; in the future → empty; filter `kind` (comma-separated)", async () => {
    const dec = await feed("/api/v1/aml-register/changes", { since: "2026-12-01" });
    expect(dec.body.changes.map((c: Change) => c.kind)).toEqual(["returned"]);
    const future = await feed("/api/v1/aml-register/changes", { since: "2099-01-01" });
    expect(future.r.status).toBe(200);
    expect(future.body).toMatchObject({ changes: [], more: false, nextCursor: null });
    const removed = await feed("/api/v1/aml-register/changes", { since: "2026-01-01", kind: "removed" });
    expect(removed.body).toMatchObject({ kinds: ["removed"] });
    expect(removed.body.changes.map((c: Change) => `${c.date} ${c.kind}`)).toEqual(["2026-11-07 removed"]);
    const two = await feed("/api/v1/aml-register/changes", { since: "2026-01-01", kind: "added,Status" });
    expect(two.body.changes.map((c: Change) => c.kind)).toEqual(["added", "status"]);
  });

  it("SPEC §7 an unknown kind → 400 naming `kind`; a bad `since` → 400 naming `since`; neither is charged", async () => {
    for (const [q, field] of [
      [{ since: "2026-01-01", kind: "moved" }, "kind"],
      [{ since: "2026-01-01", kind: "added,bogus" }, "kind"],
      [{ since: "2026-13-01" }, "since"],
      [{ since: "2026-02-30" }, "since"],
      [{ since: "yesterday" }, "since"],
      [{}, "since"],
    ] as const) {
      const { key, keyId } = await createTestKey();
      const { r, body } = await feed("/api/v1/aml-register/changes", q, key);
      expect(r.status, JSON.stringify(q)).toBe(400);
      expect(body).toMatchObject({ code: "bad_request", field });
      expect(body.message).toContain(field);
      expect(await balanceOf(keyId)).toBe(100);
    }
  });

  it("SPEC §7 a bad `kind` or `cursor` is refused before the ledger is asked: 400, not 429, with no credits left", async () => {
    for (const [q, field] of [
      [{ since: "2026-01-01", kind: "bogus" }, "kind"],
      [{ since: "2026-01-01", cursor: "not-a-cursor" }, "cursor"],
      [{ since: "2026-01-01", cursor: btoa("x:12") }, "cursor"],
    ] as const) {
      const { key } = await createTestKey({ credits: 0 });
      const { r, body } = await feed("/api/v1/aml-register/changes", q, key);
      expect([JSON.stringify(q), r.status]).toEqual([JSON.stringify(q), 400]);
      expect(body).toMatchObject({ code: "bad_request", field });
    }
  });

  it("SPEC §4.5 `limit` + `cursor` paging gives every change exactly once, 1 credit a page", async () => {
    const { key, keyId } = await createTestKey();
    const all = (await feed("/api/v1/aml-register/changes", { since: "2026-01-01" })).body.changes as Change[];
    const pages: Change[][] = [];
    let cursor: string | null = null;
    do {
      const { r, body } = await feed("/api/v1/aml-register/changes", { since: "2026-01-01", limit: "3", ...(cursor ? { cursor } : {}) }, key);
      expect(r.status).toBe(200);
      pages.push(body.changes);
      expect(body.more).toBe(body.nextCursor !== null);
      cursor = body.nextCursor;
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([3, 1]);
    expect(pages.flat()).toEqual(all);
    expect(new Set(pages.flat().map((c) => c.id)).size).toBe(4);
    expect(await balanceOf(keyId)).toBe(98);

    const bad = await feed("/api/v1/aml-register/changes", { since: "2026-01-01", cursor: "not-a-cursor" });
    expect(bad.r.status).toBe(400);
    expect(bad.body.field).toBe("cursor");
    const tooMany = await feed("/api/v1/aml-register/changes", { since: "2026-01-01", limit: "501" });
    expect(tooMany.body).toMatchObject({ code: "bad_request", field: "limit" });
  });
});

describe("SPEC §4.8 sponsor-licence/changes and cqc-check/changes", () => {
  it("SPEC §4.8 sponsors feed: added, re-rated, moved, removed; a re-cased town is not a move", async () => {
    const { r, body } = await feed("/api/v1/sponsor-licence/changes", { since: "2026-10-01" });
    expect(r.status).toBe(200);
    expect(body.changes.map((c: Change) => `${c.kind}: ${c.name}`)).toEqual([
      "added: Ivy Lane Bakery Ltd",
      "re-rated: Abbeyfield  Care  Homes (12345678) Limited",
      "moved: NORTHGATE PROPERTY SOLUTIONS LTD",
      "removed: £1 Bargain Stores Ltd",
    ]);
    const moved = await feed("/api/v1/sponsor-licence/changes", { since: "2026-10-01", kind: "moved" });
    expect(moved.body.changes).toEqual([expect.objectContaining({ before: { town: "Hertfordshire, United Kingdom" }, after: { town: "Watford" } })]);
    // SPEC §6.3: every feed takes `status` (on the sponsors register it is a student sponsor's action plan).
    const status = await feed("/api/v1/sponsor-licence/changes", { since: "2026-10-01", kind: "status" });
    expect([status.r.status, status.body.changes]).toEqual([200, []]);
    expect((await feed("/api/v1/sponsor-licence/changes", { since: "2026-10-01", kind: "deregistered" })).r.status).toBe(400);
  });

  it("SPEC §4.8 CQC feed filtered with rating=Inadequate: only changes to or from Inadequate", async () => {
    const all = await feed("/api/v1/cqc-check/changes", { since: "2026-10-01" });
    expect(all.body.changes.map((c: Change) => `${c.date} ${c.kind} ${c.name}: ${c.before?.rating} → ${c.after?.rating}`)).toEqual([
      "2026-10-03 re-rated Meadowbank House: Good → Inadequate",
      "2026-10-03 re-rated Quayside Dental Surgery: null → Outstanding",
      "2026-10-04 re-rated Meadowbank House: Inadequate → Requires improvement",
    ]);
    const inadequate = await feed("/api/v1/cqc-check/changes", { since: "2026-10-01", rating: "inadequate" });
    expect(inadequate.r.status).toBe(200);
    expect(inadequate.body.changes.map((c: Change) => `${c.date} ${c.name}`)).toEqual(["2026-10-03 Meadowbank House", "2026-10-04 Meadowbank House"]);
    const none = await feed("/api/v1/cqc-check/changes", { since: "2026-10-01", rating: "Inadequate", kind: "deregistered" });
    expect(none.body.changes).toEqual([]);
    // The filter is echoed as read, and every record names the CQC location or provider it is about.
    expect(inadequate.body.query).toEqual({ since: "2026-10-01", rating: "Inadequate", limit: 100 });
    expect(inadequate.body.changes.map((c: Change & { locationId?: string }) => c.locationId)).toEqual(["1-125856395", "1-125856395"]);
  });

  it("SPEC §7 an invalid `rating` → 400 naming `rating`, not charged", async () => {
    for (const rating of ["Terrible", "Good!", "x".repeat(41)]) {
      const { key, keyId } = await createTestKey();
      const { r, body } = await feed("/api/v1/cqc-check/changes", { since: "2026-10-01", rating }, key);
      expect(r.status, rating).toBe(400);
      expect(body).toMatchObject({ code: "bad_request", field: "rating" });
      expect(body.message).toContain("rating");
      expect(await balanceOf(keyId)).toBe(100);
    }
  });

  it("SPEC §6.3 every feed takes added, removed, returned and status; a kind that cannot occur is accepted, matches nothing and is documented", async () => {
    for (const [path, kind] of [
      ["/api/v1/cqc-check/changes", "removed"],
      ["/api/v1/sponsor-licence/changes", "status"],
      ["/api/v1/sra-check/changes", "returned"],
    ]) {
      const { r, body } = await feed(path, { since: "2026-01-01", kind });
      expect([path, r.status]).toEqual([path, 200]);
      expect(body.changes).toEqual([]);
    }
    expect(cqcCheckChanges.description).toMatch(
      /`removed` is accepted but matches nothing: a provider or location that leaves the CQC register is reported as `deregistered`/,
    );
  });

  it("SPEC §6.3 each register has its own feed: SRA and charity feeds are empty when nothing was loaded", async () => {
    for (const path of ["/api/v1/sra-check/changes", "/api/v1/charity-check/changes"]) {
      const { r, body } = await feed(path, { since: "2026-01-01" });
      expect(r.status).toBe(200);
      expect(body).toMatchObject({ changes: [], historySince: null, registerDate: null });
    }
  });
});
