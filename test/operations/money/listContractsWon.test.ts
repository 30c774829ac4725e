import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * Issue 14 §2 contracts-won on test/fixtures/contracts/operations-awards.json: awards to HARBOURSIDE LEGAL LIMITED
 * (01234567; registered office BS1 4QA) by GB-COH (unpadded), by GB-COH inside additionalIdentifiers next to a
 * GB-PPON, a framework shared with two other suppliers, a Contracts Finder award to "Harbourside Legal Ltd" with
 * no number at BS1 4QA (name and postcode), and one to "Harbourside Legal Limited" at another postcode (not it).
 */

const get = async (path: string) => {
  const { key, keyId } = await createTestKey();
  const r = await call(path, { key });
  return { r, body: await json(r), keyId };
};
type Award = { title: string; awardDate: string; matchedBy: string; source: string; supplierCount: number; value: { amount: number } | null };

beforeAll(async () => {
  await storeOf("contracts").reset(ingestPortsFor(env), "contracts");
  const bytes = new Uint8Array(await (await fetch("http://files.test/contracts/operations-awards.json")).arrayBuffer());
  const r = await ingestEdition(ingestPortsFor(env), { source: "contracts", bytes, fileName: "operations-awards.json", url: null, editionDate: null });
  expect(r.outcome).toBe("loaded");
});

describe("issue 14 §2 contracts-won", () => {
  it("every award newest first, by number (also beside a GB-PPON) and by exact name and postcode; totals by year and buyer; 1 credit", async () => {
    const { r, body, keyId } = await get("/api/v1/contracts-won?company=01234567");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(99);
    expect(body.company).toMatchObject({ number: "01234567", name: "HARBOURSIDE LEGAL LIMITED" });
    expect(body.awards.map((a: Award) => [a.awardDate.slice(0, 10), a.matchedBy, a.source])).toEqual([
      ["2026-10-15", "company number", "FTS"],
      ["2026-09-10", "company number", "FTS"],
      ["2026-02-27", "name and postcode", "CF"],
      ["2025-05-28", "company number", "FTS"],
    ]);
    expect(body.awards[1]).toMatchObject({
      buyer: { name: "Northfield Borough Council" },
      value: { amount: 180000, currency: "GBP" },
      cpv: { id: "79100000" },
      noticeUrl: expect.stringContaining("find-tender"),
    });
    expect(body.awards[3].supplierCount).toBe(3);
    const y2026 = body.totals.byYear.find((t: { group: string }) => t.group === "2026");
    expect(y2026).toMatchObject({ awards: 3, soleValue: 287000, shared: 0 });
    const y2025 = body.totals.byYear.find((t: { group: string }) => t.group === "2025");
    expect(y2025).toMatchObject({ awards: 1, soleValue: 0, shared: 1, sharedValue: 600000 });
    expect(body.totals.byBuyer[0]).toMatchObject({ group: "Northfield Borough Council", awards: 2 });
    expect(body.provenance.licence).toMatch(/Open Government Licence/);
  });

  it("pages with a cursor, and since keeps later awards only", async () => {
    const first = await get("/api/v1/contracts-won?company=01234567&limit=2");
    expect(first.body).toMatchObject({ more: true, nextCursor: expect.any(String) });
    const second = await get(`/api/v1/contracts-won?company=01234567&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.awards.map((a: Award) => a.awardDate.slice(0, 10))).toEqual(["2026-02-27", "2025-05-28"]);
    expect(second.body.more).toBe(false);
    const since = await get("/api/v1/contracts-won?company=01234567&since=2026-03-01");
    expect(since.body.awards).toHaveLength(2);
  });

  it("404 with query for a number that is no company; 400 naming the field for a bad cursor or date; both free", async () => {
    const none = await get("/api/v1/contracts-won?company=07000001");
    expect(none.r.status).toBe(404);
    expect(none.body.query).toBe("07000001");
    expect(await balanceOf(none.keyId)).toBe(100);
    for (const [q, field] of [
      ["company=01234567&cursor=zzz", "cursor"],
      ["company=01234567&since=2026-13-01", "since"],
      ["company=01234567&limit=0", "limit"],
    ]) {
      const bad = await get(`/api/v1/contracts-won?${q}`);
      expect(bad.r.status, q).toBe(400);
      expect(bad.body.field).toBe(field);
      expect(await balanceOf(bad.keyId)).toBe(100);
    }
  });
});
