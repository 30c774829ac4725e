import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { storedBankRate } from "../../src/db/bankRate";
import { refreshBankRate } from "../../src/jobs/bankRate";
import { BANK_RATE_CHANGES, REPO_BANK_RATE, changesOf, rateFrom } from "../../src/services/money/bankRate";
import { RegisterFormatError } from "../../src/sources/format-error";
import { iadbDate, parseBankRateCsv } from "../../src/sources/boe/parse";
import { balanceOf, call, createTestKey, json } from "../helpers";
import { bankRatePortsFor } from "../../src/platform/jobPorts";

/** SPEC §4.8 late-payment: the Bank Rate series, read daily, with the repo's table as the seed and fallback. */

const shared = async (file: string) => (await fetch(`http://shared.test/data/boe-bank-rate/${file}`)).text();

describe.skipIf(!env.SHARED_PRESENT)("SPEC §4.8 Bank Rate from the real series files (../shared)", () => {
  it("SPEC §4.8 the public-domain series (rows out of order, repeated rates) gives exactly the repo's changes from 1997 to its last date", async () => {
    const obs = parseBankRateCsv(await shared("datahub-interest-rates-gb-data.csv"));
    expect(obs[0].date).toBe("1694-10-01");
    expect(obs.every((o, i) => i === 0 || obs[i - 1].date < o.date)).toBe(true);
    const last = obs[obs.length - 1].date;
    expect(last).toBe("2025-05-08");
    const fromSeries = changesOf(obs).filter(([d]) => d >= "1997-05-06");
    expect(fromSeries).toEqual(BANK_RATE_CHANGES.filter(([d]) => d <= last));
  });

  it("SPEC §4.8 the repo's table agrees with the derived list of changes to 2025-12-18", async () => {
    const rows = (await shared("bank-rate-changes-1975-2025.csv"))
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(","));
    const derived = rows.map(([d, r]) => [d, Number(r)] as const).filter(([d]) => d >= "1997-05-06");
    expect(derived).toEqual(BANK_RATE_CHANGES);
  });
});

describe("SPEC §4.8 the Bank of England's IADB CSV", () => {
  it("SPEC §4.8 reads IADB dates in both year forms, by header, skipping blank and broken rows", () => {
    expect([iadbDate("02 Jan 25"), iadbDate("02 Jan 2025"), iadbDate("31 Dec 99"), iadbDate("2026-06-30"), iadbDate("31 Feb 2025"), iadbDate("soon")]).toEqual([
      "2025-01-02",
      "2025-01-02",
      "1999-12-31",
      "2026-06-30",
      null,
      null,
    ]);
    const obs = parseBankRateCsv("\uFEFFIUDBEDR,DATE\r\n4.75,02 Jan 25\r\n,03 Jan 25\r\nn/a,06 Jan 25\r\n4.5,06 Feb 25\r\n");
    expect(obs).toEqual([
      { date: "2025-01-02", rate: 4.75 },
      { date: "2025-02-06", rate: 4.5 },
    ]);
    expect(() => parseBankRateCsv("<html>maintenance</html>")).toThrow(RegisterFormatError);
    expect(() => parseBankRateCsv("DATE,IUDBEDR\n")).toThrow(RegisterFormatError);
  });

  it("SPEC §4.8 rateFrom reads the first table that knows the date, else null", () => {
    const recent = {
      changes: [
        ["2026-01-01", 3.75],
        ["2026-11-06", 3.5],
      ] as const,
      knownThrough: "2026-11-20",
      source: "series",
    };
    expect(rateFrom([recent, REPO_BANK_RATE], "2026-06-30")).toEqual({ rate: 3.75, source: "series" });
    expect(rateFrom([recent, REPO_BANK_RATE], "2026-11-10")).toEqual({ rate: 3.5, source: "series" });
    expect(rateFrom([recent, REPO_BANK_RATE], "2025-12-31")).toEqual({ rate: 3.75, source: REPO_BANK_RATE.source });
    expect(rateFrom([recent, REPO_BANK_RATE], "2026-12-31")).toBeNull();
  });
});

describe("SPEC §4.8 the daily read, and late-payment after it", () => {
  beforeEach(() => env.DB.batch([env.DB.prepare("DELETE FROM bank_rate_changes"), env.DB.prepare("DELETE FROM bank_rate_meta")]));

  it("SPEC §4.8 an invoice whose interest starts after the repo's table is answered from the series read into D1; only a date neither knows is 422", async () => {
    const { key, keyId } = await createTestKey();
    // Before the read: the 30 June 2026 rate is past the repo's table.
    const before = await call("/api/v1/late-payment?amount=2400&due=2026-08-31&paid=2026-10-08", { key });
    expect(before.status).toBe(422);
    expect(await balanceOf(keyId)).toBe(100);

    expect(await refreshBankRate(bankRatePortsFor(env), new Date("2026-11-23T04:00:00Z"))).toEqual({ changes: 6, knownThrough: "2026-11-22" });
    const stored = await storedBankRate(env.DB);
    expect(stored?.changes.at(-1)).toEqual(["2026-11-06", 3.5]);

    const r = await call("/api/v1/late-payment?amount=2400&due=2026-08-31&paid=2026-10-08", { key });
    const body = await json(r);
    expect(r.status, JSON.stringify(body)).toBe(200);
    // The third-party vector in the format notes: 11.75%, 38 days, £29.36, +£70.
    expect(body).toMatchObject({
      query: { amount: 2400, due: "2026-08-31", paid: "2026-10-08" },
      referenceDate: "2026-06-30",
      referenceRate: 3.75,
      rateApplied: 11.75,
      daysLate: 38,
      interest: 29.36,
      compensation: 70,
      claimTotal: 99.36,
      debtPlusClaim: 2499.36,
      rateSource: "Bank of England Bank Rate series IUDBEDR, read daily",
      rateTable: { knownThrough: "2026-11-22" },
    });
    // Interest starting in January 2027 needs the 31 December 2026 rate: nobody knows it yet.
    const later = await call("/api/v1/late-payment?amount=2400&due=2027-01-10&paid=2027-02-01", { key });
    expect(later.status).toBe(422);
    expect((await json(later)).message).toMatch(/no source the service holds knows yet/);
  });

  it("SPEC §4.8 the Bank unreachable: the read fails, nothing stored changes, and late-payment keeps the repo's table", async () => {
    const cfg = { ...env, BOE_IADB_URL: "https://boe.test/nowhere" };
    await expect(refreshBankRate(bankRatePortsFor(cfg), new Date("2026-11-23T04:00:00Z"))).rejects.toMatchObject({ name: "UpstreamError", source: "boe" });
    expect(await storedBankRate(env.DB)).toBeNull();
    const { key } = await createTestKey();
    expect((await call("/api/v1/late-payment?amount=999.99&due=2026-01-15&paid=2026-10-08", { key })).status).toBe(200);
  });
});
