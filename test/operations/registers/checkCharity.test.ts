import { beforeAll, describe, expect, it } from "vitest";
import { checkCharity as charityCheck } from "../../../src/operations/registers/checkCharity";
import { OGL } from "../../../src/services/registers/catalogue";
import { load, check, expectNotFound } from "./registerData";

beforeAll(() => load("charity"));

describe("SPEC §4.8 charity-check", () => {
  const TRUSTEES = ["Alice Examplewood", "Bernard Samplesby", "Carys Placeholder"];

  it("SPEC §4.8 by charity number: status with dates, type, flags, reporting, accounts, six years, classification, areas, trustee count (no names), objects, regulators", async () => {
    const { r, body, text } = await check("charity-check", "1100001");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-credits-remaining")).toBe("99");
    charityCheck.output.parse(body);
    expect(body).toMatchObject({
      matchedBy: "charity number",
      registered: true,
      company: { name: "RIVERSIDE COMMUNITY TRUST", number: "04712345" },
      registerDate: "2026-10-07",
      provenance: { licence: OGL, attribution: "Source: Charity Commission for England and Wales." },
    });
    const [c] = body.charities;
    expect(c).toMatchObject({
      charityNumber: "1100001",
      name: "RIVERSIDE COMMUNITY TRUST",
      type: "Charitable company",
      registrationStatus: "Registered",
      registeredOn: "2003-05-12",
      removedOn: null,
      flags: { insolvent: false, inAdministration: false, interimManager: null },
      reportingStatus: "Submission Received",
      latestAccounts: { periodStart: "2024-04-01", periodEnd: "2025-03-31", income: 245310, spend: 231004.5 },
      classification: {
        what: ["The Prevention Or Relief Of Poverty", "Other Charitable Purposes"],
        how: ["Provides Buildings/facilities/open Space"],
        who: ["Elderly/old People", "The General Public/mankind"],
      },
      areasOfOperation: ["Riverside City", "Millbrook"],
      trusteeCount: 3,
      otherRegulators: ["Care Quality Commission", "Regulator of Social Housing"],
      companyNumber: "04712345",
      linkedCharities: 2,
    });
    expect(c.financialHistory).toHaveLength(6);
    expect(c.financialHistory[0].periodEnd > c.financialHistory[5].periodEnd).toBe(true);
    expect(c.objects).toMatch(/^TO PROMOTE FOR THE BENEFIT OF THE INHABITANTS OF RIVERSIDE/);
    for (const name of TRUSTEES) expect(text).not.toContain(name);
    expect(text.toLowerCase()).not.toContain("examplewood");
  });

  it("SPEC §4.8 by company number and by name; a removed charity shows the removal date and reason; interim manager flagged", async () => {
    const byNumber = await check("charity-check", "04712345");
    expect(byNumber.body).toMatchObject({ matchedBy: "company number on the register's own record", charities: [{ charityNumber: "1100001" }] });
    const byName = await check("charity-check", "Hilltop Youth Music CIO");
    expect(byName.body).toMatchObject({ matchedBy: "name", charities: [{ charityNumber: "1150002", type: "CIO", trusteeCount: 1 }] });
    expect(byName.body.summary).toContain("Its annual return or accounts are overdue at the Charity Commission (Submission Overdue).");
    expect(byName.text).not.toContain("Carys");
    const removed = await check("charity-check", "250003");
    expect(removed.body).toMatchObject({
      registered: false,
      charities: [{ registrationStatus: "Removed", removedOn: "2019-08-31", removalReason: "Amalgamated" }],
    });
    const rescue = await check("charity-check", "1160004");
    expect(rescue.body.charities[0].flags.interimManager).toBe(true);
    expect(rescue.body.summary).toMatch(/interim manager/);
  });

  it("SPEC §4.8 issue 28 §1 a similar or alternative name is a possible match: never 'registered', never the positive sentence", async () => {
    // "Riverside Trust" is near RIVERSIDE COMMUNITY TRUST and its working name RIVERSIDE CENTRE, equal to neither.
    const near = await check("charity-check", "Riverside Trust");
    expect(near.r.status).toBe(200);
    expect(near.body).toMatchObject({
      registered: false,
      possibleMatch: true,
      matchCertainty: { definite: false },
      charities: [{ charityNumber: "1100001", registrationStatus: "Registered" }],
    });
    expect(["similar-name", "alternative-name"]).toContain(near.body.matchCertainty.basis);
    expect(near.body.summary).toMatch(/^Possible match only: RIVERSIDE COMMUNITY TRUST \(charity 1100001, listed as registered\) matches "Riverside Trust"/);
    expect(near.body.summary).toMatch(/Confirm with the charity number/);
    expect(near.body.summary).not.toMatch(/is registered with the Charity Commission/);
    // Its working name asked exactly is still an alternative name: possible.
    const working = await check("charity-check", "Riverside Centre");
    expect(working.body).toMatchObject({ registered: false, possibleMatch: true, matchCertainty: { basis: "alternative-name" } });
    // The register's own name asked exactly is definite.
    const exact = await check("charity-check", "Riverside Community Trust");
    expect(exact.body).toMatchObject({ registered: true, possibleMatch: false, matchCertainty: { basis: "name-asked", definite: true } });
  });

  it("SPEC §7 unknown charity number or name → 404 with query, not charged", async () => {
    await expectNotFound("charity-check", "1999999");
    await expectNotFound("charity-check", "Imaginary Otter Sanctuary");
  });
});
