import { beforeAll, describe, expect, it } from "vitest";
import { checkCqcProvider as cqcCheck } from "../../../src/operations/registers/checkCqcProvider";
import { load, check, expectNotFound } from "./registerData";

beforeAll(() => load("cqc"));

describe("SPEC §4.8 cqc-check", () => {
  it("SPEC §4.8 by the provider's CQC id (the same form as a location id): the provider and its locations", async () => {
    const { r, body } = await check("cqc-check", "1-102642955");
    expect(r.status).toBe(200);
    expect(body).toMatchObject({ matchedBy: "CQC id", provider: { providerId: "1-102642955" } });
    expect(body.locations.length).toBeGreaterThan(0);
  });

  it("SPEC §4.8 by name: provider with its locations, ratings overall and for the five key questions, inspection dates", async () => {
    const { r, body, text } = await check("cqc-check", "Meadow Care Homes Limited");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-credits-remaining")).toBe("99");
    cqcCheck.output.parse(body);
    expect(body).toMatchObject({
      matchedBy: "name",
      registered: true,
      provider: {
        providerId: "1-102642955",
        name: "Meadow Care Homes Limited",
        companyNumber: "03712548",
        registrationStatus: "Registered",
        ownershipType: "Organisation",
      },
      locationsTotal: 2,
      registerDate: "2026-10-03",
      provenance: { licence: "Open Government Licence v3.0", attribution: expect.stringContaining("Care Quality Commission") },
    });
    const home = body.locations.find((l: { locationId: string }) => l.locationId === "1-125856395");
    expect(home).toMatchObject({
      name: "Meadowbank House",
      registrationStatus: "Registered",
      overallRating: "Inadequate",
      keyQuestions: { safe: "Inadequate", effective: "Good", caring: "Outstanding", responsive: "Good", wellLed: "Good" },
      lastInspectionDate: "2024-03-12",
      lastReportDate: "2024-05-25",
      careHome: true,
    });
    expect(body.locations.find((l: { locationId: string }) => l.locationId === "1-119990001")).toMatchObject({
      registrationStatus: "Deregistered",
      deregistrationDate: "2024-06-28",
    });
    expect(body.summary).toMatch(/1 location is rated Inadequate/);
    expect(body.history).toEqual([
      { date: "2026-10-03", kind: "re-rated", name: "Meadowbank House", before: { rating: "Good" }, after: { rating: "Inadequate" } },
    ]);
    expect(text).not.toMatch(/Marchbanks|Evelyn|01632/); // the registered manager and phone numbers are never shown
  });

  it("SPEC §2.1 by company number on the provider's own record, with the company object; by CQC location id", async () => {
    const byNumber = await check("cqc-check", "03712548");
    expect(byNumber.body).toMatchObject({
      matchedBy: "company number on the register's own record",
      company: { name: "MEADOW CARE HOMES LIMITED", number: "03712548", status: "active" },
      provider: { providerId: "1-102642955" },
    });
    const byId = await check("cqc-check", "1-125856395");
    expect(byId.body).toMatchObject({ matchedBy: "CQC id", provider: { providerId: "1-102642955" }, locationsTotal: 2 });
  });

  it("SPEC §1 rule 7: a provider who is a person is not loaded or named; their location still answers", async () => {
    await expectNotFound("cqc-check", "Dr Thomas Wakefield-Example");
    const { r, body, text } = await check("cqc-check", "Quayside Dental Surgery");
    expect(r.status).toBe(200);
    expect(body.provider).toBeNull();
    expect(body.locations).toHaveLength(1);
    expect(text).not.toMatch(/Wakefield/);
  });
});

describe("SPEC §4.8 cqc-check: the five key questions and the date of each rating", () => {
  it("SPEC §4.8 a location gives the date of its rating (ratingDate) beside its five key questions; the description says where each field comes from", async () => {
    const { body } = await check("cqc-check", "1-125856395");
    expect(body.locations.find((l: { locationId: string }) => l.locationId === "1-125856395")).toMatchObject({
      overallRating: "Inadequate",
      ratingDate: "2024-05-25",
      keyQuestions: { safe: "Inadequate", effective: "Good", caring: "Outstanding", responsive: "Good", wellLed: "Good" },
      lastInspectionDate: "2024-03-12",
    });
    // The ratings file now gives the key questions of locations loaded from the HSCA file (test/jobs/ingest/cqcRatings.test.ts).
    expect(cqcCheck.description).toContain("ratings file");
    expect(cqcCheck.description).not.toMatch(/key questions and inspection date are null/);
  });
});
