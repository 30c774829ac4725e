import { afterEach, describe, expect, it, vi } from "vitest";
import { balanceOf, call, createTestKey, json } from "../../helpers";

/** Issue 12 §2 charges: GET /api/v1/charges?company= (fixtures: test/fixtures/hosts/ch.test/company/01234567/charges). */

const charges = async (company: string, verified = false) => {
  const { key, keyId } = await createTestKey({ verified });
  const r = await call(`/api/v1/charges?company=${encodeURIComponent(company)}`, { key });
  return { r, body: await json(r), keyId };
};

afterEach(() => vi.restoreAllMocks());

describe("SPEC §4.8 charges", () => {
  it("SPEC §4.8 every charge with status, dates, classification and flags, newest first; summary counts; the company object and provenance; 1 credit", async () => {
    const { r, body, keyId } = await charges("1234567"); // unpadded: padded to 01234567
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(99);
    expect(body.company).toMatchObject({ name: "HARBOURSIDE LEGAL LIMITED", number: "01234567" });
    expect(body.query).toEqual({ company: "1234567" });
    expect(body.provenance).toMatchObject({ source: "Companies House public data API", licence: expect.stringContaining("Open Government Licence") });
    expect(body.summary).toEqual({ total: 4, outstanding: 2, partSatisfied: 1, satisfied: 1, withIndividualLenders: 2 });
    expect(body.charges.map((c: { chargeNumber: number }) => c.chargeNumber)).toEqual([5, 4, 3, 2]);
    expect(body.charges[1]).toEqual({
      chargeCode: "012345670004",
      chargeNumber: 4,
      status: "outstanding",
      registerStatus: "outstanding",
      classification: "A registered charge",
      createdOn: "2023-03-14",
      deliveredOn: "2023-03-17",
      satisfiedOn: null,
      fixedCharge: true,
      floatingCharge: true,
      floatingChargeCoversAll: true,
      negativePledge: true,
      lenders: ["Lloyds Bank PLC"],
      individualsEntitled: 0,
    });
    expect(body.charges[3]).toMatchObject({
      status: "satisfied",
      registerStatus: "fully-satisfied",
      satisfiedOn: "2018-11-02",
      classification: "Debenture",
      lenders: ["Barclays Bank PLC"],
    });
  });

  it("SPEC §1 rule 7 a lender who is an individual is counted, never named, even for a verified account", async () => {
    for (const verified of [false, true]) {
      const { body } = await charges("01234567", verified);
      const text = JSON.stringify(body);
      for (const person of ["Margaret", "Whitfield", "David Robert Okafor", "Okafor"]) expect(text, `${person} (verified ${verified})`).not.toContain(person);
      expect(body.charges.find((c: { chargeNumber: number }) => c.chargeNumber === 3)).toMatchObject({
        lenders: ["Harbour Property Finance Limited"],
        individualsEntitled: 1,
      });
      expect(body.charges.find((c: { chargeNumber: number }) => c.chargeNumber === 5)).toMatchObject({ lenders: [], individualsEntitled: 1 });
    }
  });

  it("SPEC §7 a company with no charges answers an empty list; an unknown company is 404 with query and costs nothing; a bad number is 400", async () => {
    const none = await charges("03712548");
    expect(none.r.status).toBe(200);
    expect(none.body).toMatchObject({ summary: { total: 0, outstanding: 0, partSatisfied: 0, satisfied: 0, withIndividualLenders: 0 }, charges: [] });
    const missing = await charges("99999999");
    expect(missing.r.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "not_found", query: "99999999" });
    expect(await balanceOf(missing.keyId)).toBe(100);
    const bad = await charges("not a company");
    expect(bad.r.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "bad_request", field: "company" });
  });

  it("SPEC §7 Companies House answering 429 on the charges is 503 with the credit back, never an empty list", async () => {
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/charges")) return new Response("", { status: 429 });
      return real(input, init);
    });
    const { r, body, keyId } = await charges("04712345");
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(r.headers.get("x-credits-refunded")).toBe("1");
    expect(await balanceOf(keyId)).toBe(100);
  });
});
