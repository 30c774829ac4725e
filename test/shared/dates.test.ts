/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { squashPostcode } from "../../src/services/matching/postcode";
import { mapLimited } from "../../src/shared/concurrency";
import { addDays, daysBetween, isDate } from "../../src/shared/dates";

/**
 * Issue 31, small shared tools: one definition each (dates, postcodes, bounded concurrency), where there were six
 * copies of daysBetween (some rounding, some flooring), three of isDate (disagreeing about year 9999) and three of
 * mapLimited.
 */
describe("dates", () => {
  it("isDate: a real calendar date, never Companies House's open date in year 9999", () => {
    for (const d of ["2026-11-28", "2024-02-29", "2000-02-29", "1900-01-01", "0001-01-01"]) expect(isDate(d), d).toBe(true);
    for (const d of [
      "2026-02-29",
      "1900-02-29",
      "2026-13-01",
      "2026-00-10",
      "2026-04-31",
      "9999-12-31",
      "2026-1-1",
      "2026-11-28T00:00:00Z",
      "",
      null,
      undefined,
    ])
      expect(isDate(d), String(d)).toBe(false);
  });

  it("daysBetween: whole calendar days, negative backwards, the date part of a timestamp", () => {
    expect(daysBetween("2026-01-01", "2026-01-01")).toBe(0);
    expect(daysBetween("2026-01-01", "2027-01-01")).toBe(365);
    expect(daysBetween("2024-01-01", "2025-01-01")).toBe(366);
    expect(daysBetween("2026-03-31", "2026-03-01")).toBe(-30);
    expect(daysBetween("2026-03-28", "2026-03-30")).toBe(2); // over the clocks going forward, in UTC throughout
    expect(daysBetween("2026-01-01T23:59:59Z", "2026-01-02")).toBe(1);
    expect(daysBetween("2025-11-28T10:00:00+01:00", "2026-11-28")).toBe(365);
    expect(daysBetween("not a date", "2026-01-01")).toBeNaN();
  });

  it("addDays: across months, years and leap days, both ways", () => {
    expect(addDays("2026-01-31", 1)).toBe("2026-02-01");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2026-11-28", -365)).toBe("2025-11-28");
    for (let n = -800; n <= 800; n += 37) expect(daysBetween("2026-06-15", addDays("2026-06-15", n))).toBe(n);
  });
});

describe("postcodes and concurrency", () => {
  it("squashPostcode: one form however it is written", () => {
    for (const p of ["sw1a 1aa", "SW1A-1AA", " SW1A  1AA ", "SW1A1AA"]) expect(squashPostcode(p)).toBe("SW1A1AA");
  });

  it("mapLimited: every item, in order, never more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimited([5, 1, 4, 2, 3, 0], 2, async (n, i) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(["0:5", "1:1", "2:4", "3:2", "4:3", "5:0"]);
    expect(most).toBe(2);
    expect(await mapLimited([], 3, async () => 1)).toEqual([]);
  });
});

describe("one definition each", () => {
  const FILES = import.meta.glob<string>("/src/**/*.ts", { query: "?raw", import: "default", eager: true });
  const HOMES: Record<string, string> = {
    daysBetween: "/src/shared/dates.ts",
    isDate: "/src/shared/dates.ts",
    addDays: "/src/shared/dates.ts",
    mapLimited: "/src/shared/concurrency.ts",
    squashPostcode: "/src/services/matching/postcode.ts",
    readCapped: "/src/shared/bytes.ts",
  };
  for (const [name, home] of Object.entries(HOMES))
    it(`${name} is defined only in ${home.slice(1)}`, () => {
      const def = new RegExp(`(?:function\\s+${name}\\b|(?:const|let)\\s+${name}\\s*=)`);
      const where = Object.entries(FILES)
        .filter(([, text]) => def.test(text))
        .map(([file]) => file);
      expect(where).toEqual([home]);
    });
});
