import { beforeAll, describe, expect, it } from "vitest";
import { checkAmlRegister as amlRegister } from "../../../src/operations/registers/checkAmlRegister";
import { OGL } from "../../../src/services/registers/catalogue";
import { load, check, expectNotFound } from "./registerData";

beforeAll(() => load("aml"));

describe("SPEC §2.5 / §4.5 aml-register", () => {
  it("SPEC §2.5 by name: the reply parses with the output schema, 1 credit, registration, history and provenance under OGL", async () => {
    const { r, body } = await check("aml-register", "Harbour Formations Ltd");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-credits-remaining")).toBe("99");
    amlRegister.output.parse(body);
    expect(body).toMatchObject({
      query: "Harbour Formations Ltd",
      matchedBy: "name",
      matchedOn: ["HARBOUR FORMATIONS LTD"],
      supervisedByHmrc: true,
      entriesTotal: 1,
      registerDate: "2026-11-07",
      historySince: "2026-10-07",
      provenance: { registerDate: "2026-11-07", licence: OGL, attribution: expect.stringContaining("HM Revenue & Customs") },
    });
    expect(body.company).toBeUndefined(); // a name query on a register without company numbers
    expect(body.registrations).toEqual([
      {
        mlrNumber: "XJML00000123456",
        name: "HARBOUR FORMATIONS LTD",
        businessName: "HARBOUR FORMATIONS LTD",
        status: "Approved",
        sectors: ["trust or company service provider"],
        registeredSince: "2025-02-03",
        seenSince: "2026-10-07",
        removedOn: null,
        premises: 1,
        districts: ["SW1A"],
        definite: true,
      },
    ]);
    expect(body.entries[0]).toMatchObject({ tradingName: "Harbour Company Secretaries", postcodeDistrict: "SW1A", lastSeen: "2026-11-07", removedOn: null });
    expect(body.history).toEqual([
      { date: "2026-11-07", kind: "status", name: "HARBOUR FORMATIONS LTD", before: { status: "Applied" }, after: { status: "Approved" } },
    ]);
  });

  it("SPEC §4.5 issue 28 §1 by company number: matched only on a former name from Companies House: a possible match, never 'supervised'", async () => {
    const { r, body } = await check("aml-register", "9876543");
    expect(r.status).toBe(200);
    amlRegister.output.parse(body);
    expect(body).toMatchObject({
      query: "9876543",
      company: { name: "OAKHILL PROPERTY GROUP LIMITED", number: "09876543", status: "active", filingsOverdue: false },
      matchedBy: "registered and former company names from Companies House",
      matchedOn: ["OAKHILL HOMES LIMITED"],
      supervisedByHmrc: false,
      possibleMatch: true,
      matchCertainty: { definite: false, basis: "former-name", matchedCompanyName: "OAKHILL HOMES LIMITED" },
      registrations: [{ mlrNumber: "XEML00000111222", status: "Approved", definite: false }],
    });
    expect(body.summary).toMatch(
      /^Possible match only: OAKHILL HOMES LIMITED \(XEML00000111222: Approved\) matches OAKHILL PROPERTY GROUP LIMITED \(09876543\) through the company's former name "OAKHILL HOMES LIMITED"/,
    );
    expect(body.summary).toMatch(/Confirm with the MLR number/);
    expect(body.summary).not.toMatch(/is on HMRC's supervised business register/);
    expect(body.registrations.map((g: { mlrNumber: string }) => g.mlrNumber)).toEqual(["XEML00000111222"]);
    expect(body.registrations[0].sectors).toEqual(["estate agency", "letting agency"]);
  });

  it("SPEC §4.5 by the register's own number: MLR numbers in both forms; an 8-digit one is also tried as a company number and the reply says which matched", async () => {
    const modern = await check("aml-register", "xaml00000654321");
    expect(modern.r.status).toBe(200);
    amlRegister.output.parse(modern.body);
    expect(modern.body).toMatchObject({ matchedBy: "MLR number", matchedOn: ["XAML00000654321"], registrations: [{ mlrNumber: "XAML00000654321" }] });
    const legacy = await check("aml-register", "12137999");
    expect(legacy.r.status).toBe(200);
    expect(legacy.body.matchedBy).toBe("MLR number (the value is also the form of a company number; it matched the register's own number)");
    expect(legacy.body.registrations.map((g: { mlrNumber: string }) => g.mlrNumber)).toEqual(["12137999"]);
    expect(legacy.body.company).toBeUndefined(); // no company is claimed for a register number
  });

  it("SPEC §2.5 entries removed from the register: supervisedByHmrc false, and the summary says another body may supervise", async () => {
    const { r, body } = await check("aml-register", "Quayside Currency Limited");
    expect(r.status).toBe(200);
    amlRegister.output.parse(body);
    expect(body.supervisedByHmrc).toBe(false);
    expect(body.summary).toMatch(/may supervise/);
    expect(body.entries.map((e: { removedOn: string; lastSeen: string }) => [e.removedOn, e.lastSeen])).toEqual([
      ["2026-11-07", "2026-10-07"],
      ["2026-11-07", "2026-10-07"],
    ]);
    // One registration (one MLR number) with two premises: one removal.
    expect(body.history.map((h: { kind: string }) => h.kind)).toEqual(["removed"]);
    expect(body.registrations).toMatchObject([{ removedOn: "2026-11-07", premises: 0 }]);
  });

  it("SPEC §7 nothing found → 404 with query, not charged; a company number Companies House does not know → 404", async () => {
    await expectNotFound("aml-register", "Zephyr Quantum Widgets Ltd");
    const body = await expectNotFound("aml-register", "99999999");
    expect(body.message).toMatch(/No company 99999999/);
    // SPEC §4.5: every AML "not found", the 404 included, says another body may supervise; SPEC §1 rule 7: sole traders are not covered.
    for (const q of ["Zephyr Quantum Widgets Ltd", "99999999", "Mr John Smith"]) {
      const b = await expectNotFound("aml-register", q);
      if (q === "Mr John Smith") expect(b.message).not.toContain("Smith"); // echoed once, under query
      expect(b.message).toMatch(/does not mean the business is unsupervised: another body, such as the FCA or a professional body/);
      expect(b.message).toMatch(/Individuals registered under their own names \(sole traders\) are not covered/);
      expect(b.message).not.toMatch(/\bunsupervised\.$/);
    }
  });

  it("SPEC §1 rule 7: a person registered under their own name (Mr John Smith) is not loaded", async () => {
    await expectNotFound("aml-register", "Mr John Smith");
    await expectNotFound("aml-register", "John Smith Lettings");
  });
});
