import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseBookmarks, readSessions } from "../../src/db/sessions";
import { InputError } from "../../src/shared/errors";

describe("issue 30 §6: register reads through D1 sessions, with a bookmark the caller carries", () => {
  it("parses one bookmark per database; ignores databases it does not know; refuses what is not a bookmark", () => {
    expect(parseBookmarks(null)).toEqual({});
    expect(parseBookmarks("")).toEqual({});
    expect(parseBookmarks("ukbi=0000005a-00000004-00004fd8-4ad1c0de, ukbi-companies=00000001-00000002")).toEqual({
      ukbi: "0000005a-00000004-00004fd8-4ad1c0de",
      "ukbi-companies": "00000001-00000002",
    });
    expect(parseBookmarks("other=00000001")).toEqual({});
    for (const bad of ["ukbi", "ukbi=", "ukbi=not a bookmark", "=00000001", "ukbi=0000'; DROP TABLE x", `ukbi=${"0".repeat(2000)}`])
      expect(() => parseBookmarks(bad), bad).toThrow(InputError);
  });

  it("reads through a session on each database and gives back a bookmark for each database read (and the caller's for the other)", async () => {
    const reads = readSessions({ ukbi: env.DB, "ukbi-companies": env.COMPANIES_DB }, { "ukbi-companies": "00000001-00000002" });
    expect(reads.header()).toBe("ukbi-companies=00000001-00000002");
    const row = await reads.main.prepare("SELECT 1 AS one").first<{ one: number }>();
    expect(row?.one).toBe(1);
    const header = reads.header();
    expect(header).toMatch(/^ukbi=[0-9a-f-]+, ukbi-companies=00000001-00000002$/);
    // The bookmark given back is one the next request may send.
    expect(parseBookmarks(header).ukbi).toBeTruthy();
    const next = readSessions({ ukbi: env.DB, "ukbi-companies": env.COMPANIES_DB }, parseBookmarks(header));
    expect((await next.main.prepare("SELECT 2 AS two").first<{ two: number }>())?.two).toBe(2);
  });

  it("a session is for reads: what would write or dump through it is refused", async () => {
    const reads = readSessions({ ukbi: env.DB, "ukbi-companies": env.COMPANIES_DB }, {});
    expect(() => reads.main.exec("DELETE FROM api_keys")).toThrow(/not available on a read session/);
  });

  it("a binding without the Sessions API is read directly (no bookmark to give)", async () => {
    const plain = { prepare: env.DB.prepare.bind(env.DB), batch: env.DB.batch.bind(env.DB) } as unknown as D1Database;
    const reads = readSessions({ ukbi: plain, "ukbi-companies": plain }, {});
    expect((await reads.main.prepare("SELECT 3 AS three").first<{ three: number }>())?.three).toBe(3);
    expect(reads.header()).toBeNull();
  });
});
