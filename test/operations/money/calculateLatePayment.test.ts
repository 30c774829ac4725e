import { describe, expect, it } from "vitest";
import { balanceOf, call, createTestKey, json } from "../../helpers";

const late = (q: Record<string, string>, key: string) => call(`/api/v1/late-payment?${new URLSearchParams(q)}`, { key });

describe("SPEC §4.8 GET /api/v1/late-payment over HTTP", () => {
  it("SPEC §4.8 £999.99 due 2026-01-15 paid 2026-10-08: 266 days at 11.75% → 85.63 + £40 = 125.63, 1 credit", async () => {
    const { key, keyId } = await createTestKey();
    const r = await late({ amount: "999.99", due: "2026-01-15", paid: "2026-10-08" }, key);
    expect(r.status).toBe(200);
    expect(r.headers.get("x-credits-remaining")).toBe("99");
    expect(await json(r)).toMatchObject({
      amount: 999.99,
      due: "2026-01-15",
      paid: "2026-10-08",
      stillUnpaid: false,
      daysLate: 266,
      interestFrom: "2026-01-16",
      referenceDate: "2025-12-31",
      referenceRate: 3.75,
      rateApplied: 11.75,
      dailyInterest: 0.32,
      interest: 85.63,
      compensation: 40,
      claimTotal: 125.63,
      currency: "GBP",
      rateTable: { knownThrough: "2026-02-05" },
    });
    expect(await balanceOf(keyId)).toBe(99);
  });

  it("SPEC §4.8 paid before (or on) the due date → zeros", async () => {
    const { key } = await createTestKey();
    for (const paid of ["2026-01-10", "2026-01-15"]) {
      const body = await json(await late({ amount: "5000", due: "2026-01-15", paid }, key));
      expect(body).toMatchObject({
        daysLate: 0,
        interestFrom: null,
        referenceRate: null,
        rateApplied: null,
        dailyInterest: 0,
        interest: 0,
        compensation: 0,
        claimTotal: 0,
      });
    }
  });

  it("SPEC §7.3 due 2026-07-15 (reference date past the Bank Rate table) → 422 date_out_of_range naming due, not charged", async () => {
    const { key, keyId } = await createTestKey();
    const r = await late({ amount: "100", due: "2026-07-15", paid: "2026-08-01" }, key);
    const body = await json(r);
    expect(r.status).toBe(422);
    expect(body).toMatchObject({ code: "date_out_of_range", field: "due" });
    expect(body.message).toMatch(/^due 2026-07-15/);
    expect(body.requestId).toBe(r.headers.get("x-request-id"));
    expect(r.headers.get("x-credits-refunded")).toBe("1");
    expect(r.headers.get("x-credits-remaining")).toBe("100");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §4.8 paid omitted → worked out to today and stillUnpaid true", async () => {
    const { key } = await createTestKey();
    const today = new Date().toISOString().slice(0, 10);
    const body = await json(await late({ amount: "999.99", due: "2026-01-15" }, key));
    expect(body.stillUnpaid).toBe(true);
    expect(body.paid).toBe(today);
    expect(body.daysLate).toBe(Math.max(0, (Date.parse(today) - Date.parse("2026-01-15")) / 86_400_000));
  });

  it("SPEC §4.8 compensation tiers: £40 under £1,000, £70 from £1,000, £100 from £10,000", async () => {
    const { key } = await createTestKey();
    const tiers: [string, number][] = [
      ["999.99", 40],
      ["1000", 70],
      ["9999.99", 70],
      ["10000", 100],
    ];
    for (const [amount, compensation] of tiers)
      expect((await json(await late({ amount, due: "2026-01-15", paid: "2026-01-20" }, key))).compensation, amount).toBe(compensation);
  });

  it("SPEC §7 numbers are read strictly: only plain decimals with at most two places are money; refused before any charge", async () => {
    for (const amount of ["0x10", "0o17", "0b11", "1e3", " 12 ", "12 ", "+12", "-5", "12.345", "1,000", "Infinity", ""]) {
      const { key, keyId } = await createTestKey({ credits: 0 });
      const r = await late({ amount, due: "2026-01-15", paid: "2026-01-20" }, key);
      const body = await json(r);
      expect([amount, r.status, body.field]).toEqual([amount, 400, "amount"]);
      expect(await balanceOf(keyId, { credits: 0 })).toBe(0);
    }
    const { key } = await createTestKey();
    for (const amount of ["1250", "1250.5", "1250.50", "0.01"])
      expect((await late({ amount, due: "2026-01-15", paid: "2026-01-20" }, key)).status, amount).toBe(200);
    // The same strictness on every numeric input: a feed's page size.
    for (const limit of ["0x10", "1e2", " 5", "5.0"]) {
      const r = await call(`/api/v1/aml-register/changes?since=2026-01-01&limit=${encodeURIComponent(limit)}`, { key });
      expect([limit, r.status, (await json(r)).field]).toEqual([limit, 400, "limit"]);
    }
  });

  it("SPEC §7 a payment date before the Act is refused at validation: 400 naming paid, even with no credits left", async () => {
    const { key } = await createTestKey({ credits: 0 });
    const r = await late({ amount: "100", due: "1998-01-01", paid: "1998-10-31" }, key);
    const body = await json(r);
    expect([r.status, body.code, body.field]).toEqual([400, "bad_request", "paid"]);
    expect(body.message).toMatch(/1998-11-01/);
  });

  it("issue 30: the description states the Act's start as validation applies it (paid's pattern refuses 1998-10-31 and takes 1998-11-01)", async () => {
    const doc = await json(await call("/openapi.json"));
    const param = doc.paths["/api/v1/late-payment"].get.parameters.find((p: { name: string }) => p.name === "paid");
    const pattern = new RegExp(param.schema.pattern, "u");
    const { key } = await createTestKey();
    for (const [paid, taken] of [
      ["1998-10-31", false],
      ["1998-11-01", true],
      ["0723-10-31", false],
      ["2000-02-29", true],
      ["2100-02-29", false],
    ] as const) {
      expect(pattern.test(paid), paid).toBe(taken);
      const r = await late({ amount: "100", due: "1998-11-01", paid }, key);
      await r.body?.cancel();
      expect(r.status === 400, paid).toBe(!taken);
    }
  });
});
