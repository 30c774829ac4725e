import { beforeAll, describe, expect, it } from "vitest";
import { balanceOf, call, createTestKey, json } from "../helpers";
import { load } from "../operations/registers/registerData";

beforeAll(() => load("sponsors"));

describe("issue 30 §6: register reads on the nearest copy, and a bookmark the caller carries", () => {
  it("a register read gives a bookmark back; sent back, the next call reads at least that new and gives one again", async () => {
    const { key } = await createTestKey();
    const first = await call("/api/v1/sponsor-licence?company=Bayside%20Hotel%20Group%20Ltd", { key });
    expect(first.status).toBe(200);
    await first.body?.cancel();
    const bookmark = first.headers.get("x-d1-bookmark");
    expect(bookmark).toMatch(/^ukbi=[0-9a-f-]+$/);
    const next = await call("/api/v1/sponsor-licence?company=Bayside%20Hotel%20Group%20Ltd", { key, headers: { "x-d1-bookmark": bookmark! } });
    expect(next.status).toBe(200);
    expect((await json(next)).licensed).toBe(true);
    expect(next.headers.get("x-d1-bookmark")).toMatch(/^ukbi=[0-9a-f-]+$/);
  });

  it("a call that reads no register (the account, on the primary) gives no bookmark, or the caller's own back", async () => {
    const { key } = await createTestKey();
    const r = await call("/api/v1/account", { key });
    await r.body?.cancel();
    expect(r.status).toBe(200);
    expect(r.headers.get("x-d1-bookmark")).toBeNull();
    const carried = await call("/api/v1/account", { key, headers: { "x-d1-bookmark": "ukbi=00000001-00000002" } });
    await carried.body?.cancel();
    expect(carried.headers.get("x-d1-bookmark")).toBe("ukbi=00000001-00000002");
  });

  it("a bookmark this service did not give: 400 bad_request naming the header, nothing charged", async () => {
    const { key, keyId } = await createTestKey();
    const before = await balanceOf(keyId);
    const r = await call("/api/v1/sponsor-licence?company=Bayside%20Hotel%20Group%20Ltd", { key, headers: { "x-d1-bookmark": "ukbi=DROP TABLE" } });
    expect(r.status).toBe(400);
    expect(await json(r)).toMatchObject({ code: "bad_request", field: "x-d1-bookmark" });
    expect(await balanceOf(keyId)).toBe(before);
  });
});
