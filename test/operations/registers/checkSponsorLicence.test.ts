import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { checkSponsorLicence as sponsorLicence } from "../../../src/operations/registers/checkSponsorLicence";
import { OGL } from "../../../src/services/registers/catalogue";
import { load, check, expectNotFound } from "./registerData";

beforeAll(() => load("sponsors"));

describe("SPEC §4.8 sponsor-licence", () => {
  it("SPEC §4.8 issue 28 §1 by company number through a former name: a possible match, never 'licensed'; routes, rating and town check still shown", async () => {
    const { r, body } = await check("sponsor-licence", "07654321");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-credits-remaining")).toBe("99");
    sponsorLicence.output.parse(body);
    expect(body).toMatchObject({
      company: { name: "BAYSIDE HOSPITALITY LIMITED", number: "07654321", status: "active", statusDetail: "active-proposal-to-strike-off" },
      matchedBy: "registered and former company names from Companies House",
      matchedOn: ["Bayside Hotel Group Ltd"],
      // Matched only through the name the company stopped using on 2025-01-09: possible, so not licensed.
      licensed: false,
      possibleMatch: true,
      matchCertainty: {
        definite: false,
        basis: "former-name",
        nameKind: "former",
        matchedCompanyName: "BAYSIDE HOTEL GROUP LTD",
        formerNameUntil: "2025-01-09",
      },
      ratings: [],
      townCheck: { registeredOfficeTown: "Brighton", registerTowns: ["Brighton"], agrees: true },
      historySince: "2026-06-26",
      provenance: { licence: OGL, attribution: "Source: Home Office, register of licensed sponsors." },
    });
    expect(body.sponsors).toHaveLength(1);
    expect(body.sponsors[0].routes.map((x: { route: string; rating: string }) => `${x.route}: ${x.rating}`).sort()).toEqual([
      "Seasonal Worker: A rating",
      "Skilled Worker: A rating",
    ]);
    expect(body.sponsors[0].county).toBeNull(); // "Select a State" is a placeholder
    expect(body.sponsors[0].match).toMatchObject({ basis: "former-name", definite: false });
    expect(body.summary).toMatch(
      /^Possible match only: Bayside Hotel Group Ltd, listed as a sponsor \(workers; A rating\) matches BAYSIDE HOSPITALITY LIMITED \(07654321\) through the company's former name "BAYSIDE HOTEL GROUP LTD" \(used until 2025-01-09\)\./,
    );
    expect(body.summary).not.toMatch(/is a licensed sponsor/);
    expect(body.matchCertainty.toConfirm).toMatch(/change of name/);
  });

  it("SPEC §4.8 issue 28 §1 by the exact name on the register: definite, licensed", async () => {
    const { body } = await check("sponsor-licence", "Bayside Hotel Group Ltd");
    expect(body).toMatchObject({ licensed: true, possibleMatch: false, matchCertainty: { definite: true, basis: "name-asked" }, ratings: ["A rating"] });
    expect(body.summary).toMatch(/^Bayside Hotel Group Ltd is a licensed sponsor/);
  });

  it("SPEC §4.8 town check disagrees when the registered office is elsewhere; the company's overdue filings show", async () => {
    const { body } = await check("sponsor-licence", "05550123");
    expect(body).toMatchObject({
      company: { name: "GREYSTONE ENGINEERING LIMITED", filingsOverdue: true },
      townCheck: { registeredOfficeTown: "Rotherham", registerTowns: ["Sheffield"], agrees: false },
    });
    expect(body.history).toEqual([]); // SHEFFIELD → Sheffield was not a move
    // Issue 28 §1: the current name agrees, but the register's town contradicts the registered office: possible only.
    expect(body).toMatchObject({ licensed: false, possibleMatch: true, matchCertainty: { basis: "registered-name", definite: false } });
    expect(body.matchCertainty.contradictions).toEqual(["the register places the organisation at Sheffield, the registered office is in Rotherham S60 1AA"]);
    expect(body.summary).toMatch(/^Possible match only: .*by name, but the register places the organisation at Sheffield/);
    // SPEC §2.1: the warning is in the summary, not only in a field.
    expect(body.summary).toContain("GREYSTONE ENGINEERING LIMITED has filings overdue at Companies House.");
    const bayside = await check("sponsor-licence", "07654321");
    expect(bayside.body.summary).toContain(
      "Companies House shows a proposal to strike BAYSIDE HOSPITALITY LIMITED off the register (active-proposal-to-strike-off).",
    );
  });

  it("SPEC §4.8 by name: recent changes (re-rated, moved), a B rating explained; a removed sponsor is not licensed", async () => {
    const abbey = await check("sponsor-licence", "Abbeyfield Care Homes Limited");
    expect(abbey.r.status).toBe(200);
    sponsorLicence.output.parse(abbey.body);
    // The company number written in the register's name is an identifier, not part of the name: the name asked is exact.
    expect(abbey.body).toMatchObject({
      licensed: true,
      ratings: ["B rating"],
      townCheck: { agrees: null },
      matchCertainty: { basis: "name-asked", definite: true },
    });
    expect(abbey.body.summary).toMatch(/action plan/);
    expect(abbey.body.history).toEqual([
      {
        date: "2026-06-29",
        kind: "re-rated",
        name: "Abbeyfield  Care  Homes (12345678) Limited",
        before: { rating: "A rating", ratings: { "Skilled Worker": "A rating" } },
        after: { rating: "B rating", ratings: { "Skilled Worker": "B rating" } },
      },
    ]);

    const northgate = await check("sponsor-licence", "Northgate Property Solutions Ltd");
    expect(northgate.body.history.map((h: { kind: string; after: unknown }) => [h.kind, h.after])).toEqual([["moved", { town: "Watford" }]]);

    const gone = await check("sponsor-licence", "£1 Bargain Stores Ltd");
    expect(gone.r.status).toBe(200);
    expect(gone.body).toMatchObject({ licensed: false, ratings: [], sponsors: [{ listed: false, removedOn: "2026-06-29" }] });
    expect(gone.body.summary).toMatch(/no longer on the register/);
  });

  // Once a bug (completeRun's "unchanged" branch, now in src/jobs/ingest/pipeline.ts): an edition that changed nothing
  // was not published, so every reply dated the data to the last edition that changed something (2026-06-29, not 2026-10-06).
  it("SPEC §2.5 registerDate is the newest edition read, also when it changed nothing", async () => {
    const { body } = await check("sponsor-licence", "Bayside Hotel Group Ltd");
    expect(body.registerDate).toBe("2026-10-06");
  });

  it("SPEC §1 rule 7: 'Mrs Jane Smith T/A Corner Shop' is kept as Corner Shop only; 'Dr Priya Raman' is not loaded", async () => {
    for (const q of ["Jane Smith", "Mrs Jane Smith", "Dr Priya Raman", "Priya Raman"]) await expectNotFound("sponsor-licence", q);
    const shop = await check("sponsor-licence", "Corner Shop");
    expect(shop.r.status).toBe(200);
    expect(shop.body.sponsors.map((s: { name: string }) => s.name)).toEqual(["Corner Shop"]);
    expect(JSON.stringify(shop.body)).not.toMatch(/Smith/i);
    const rows = await env.DB.prepare(`SELECT COUNT(*) AS n FROM register_entries WHERE name LIKE '%Smith%' OR name LIKE '%Raman%'`).first("n");
    expect(rows).toBe(0);
  });
});
