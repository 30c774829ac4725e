import { SHARED_PRESENT } from "../../support/shared";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { operations } from "../../../src/operations";
import { type Found, type LookupResult, checkReply } from "../../../src/app/registers/lookup";
import { registerCheckSpecs } from "../../../src/app/registers/registerCheck";
import type { Services } from "../../../src/platform/services";
import { type CompanyForMatch, type MatchRoute, matchCertainty, overallCertainty, sameNameNormalised } from "../../../src/services/matching/certainty";
import { matchNames } from "../../../src/services/matching/match";
import { recordFactsOf } from "../../../src/services/registers/places";
import type { AmlData, CqcAddress, CqcLocationData } from "../../../src/services/registers/catalogue";
import type { Entry, RegisterData, RegisterSource } from "../../../src/services/registers/types";

/**
 * Issue 28 §1 (SPEC §1 rules 5–6, §2.5, §2.6, §4.5, §4.8): one match rule for every register check. Whatever the
 * entry, a match that is not definite never yields the check's positive field nor a positive summary sentence.
 * The checks are found by walking the registry: a new register check is covered by being one.
 */

/** A sentence that states the positive of any register check. */
const POSITIVE_SENTENCE =
  /\b(?:is|are) (?:a licensed sponsor|on HMRC's supervised business register|registered with (?:CQC|the Charity Commission)|(?:authorised|authorised with conditions) by the Solicitors Regulation Authority|supervised by HMRC)/i;

const COMPANY: CompanyForMatch = {
  number: "07654321",
  name: "BAYSIDE HOSPITALITY LIMITED",
  previousNames: [{ name: "BAYSIDE HOTEL GROUP LTD", until: "2025-01-09" }],
  office: { town: "Brighton", postcode: "BN1 2FY" },
};

/** A register entry that would read as positive on any register, were the match taken as sure. */
const entryArb = fc.record({
  name: fc.constantFrom("Bayside Hotel Group Ltd", "Bayside Hotels", "Bayside Hospitality Services", "Riverside Trust", "Oakhill Homes Limited"),
  status: fc.constantFrom("Approved", "authorised", "authorised with conditions", "Registered", "listed"),
  kind: fc.constantFrom("provider", "location"),
  town: fc.option(fc.constantFrom("Brighton", "Leeds", "Hove"), { nil: null }),
  companyNumber: fc.option(fc.constantFrom("07654321", "01234567"), { nil: null }),
  rating: fc.constantFrom("A rating", "B rating", "Good", "Outstanding"),
  removed: fc.boolean(),
});

/** A route that the rule must never take as definite: a former, alternative or similar name, or a contradicted exact name. */
const routeArb = fc.constantFrom<"former" | "alternative" | "similar" | "contradicted">("former", "alternative", "similar", "contradicted");

type Generated = typeof entryArb extends fc.Arbitrary<infer T> ? T : never;

const noKeyQuestions = { safe: null, effective: null, caring: null, responsive: null, wellLed: null };
const noAddress: CqcAddress = { line1: null, line2: null, town: null, county: null, postcode: null };

/** An HMRC premises' data, its postcode district the only place in it ("": none). */
const amlData = (postcodeDistrict = ""): AmlData => ({
  mlrNumber: "XAML00000001000",
  businessName: "Bayside Hospitality Ltd",
  tradingName: null,
  postcodeDistrict,
  status: "Approved",
  sectors: [],
  msbActivities: [],
  registeredSince: null,
  agentSince: null,
});

/** A CQC location's data at an address. */
const cqcLocation = (locationId: string, name: string, rating: string | null, address = noAddress): CqcLocationData => ({
  kind: "location",
  locationId,
  providerId: null,
  providerName: null,
  name,
  type: null,
  registrationStatus: "Registered",
  registrationDate: null,
  deregistrationDate: null,
  careHome: null,
  numberOfBeds: null,
  address,
  localAuthority: null,
  region: null,
  inspectionDirectorate: null,
  overallRating: rating,
  ratingDate: null,
  keyQuestions: noKeyQuestions,
  lastInspectionDate: null,
  lastReportDate: null,
  inheritedRating: null,
});

/** The register's own fields of a generated entry, with no place in them (the entry's town is its only place). */
function dataOf(source: RegisterSource, e: Generated, i: number): RegisterData {
  switch (source) {
    case "aml":
      return { ...amlData(), mlrNumber: `XAML0000000${1000 + i}`, businessName: e.name, status: e.status };
    case "sra":
      return {
        sraNumber: 500000 + i,
        name: e.name,
        companyNumber: e.companyNumber,
        authorised: e.status.startsWith("authorised"),
        status: e.status,
        statusCode: "YES",
        authorisedSince: null,
        statusDate: null,
        kind: null,
        constitution: null,
        offices: 1,
        headOffice: null,
        workAreas: [],
        tradingNames: [],
        previousNames: [],
        regulator: null,
        reservedActivities: [],
      };
    case "sponsors":
      // As the first parser wrote it: no currentRoute.
      return {
        name: e.name,
        town: e.town,
        register: "workers",
        route: "Skilled Worker",
        county: null,
        typeAndRating: `Worker (${e.rating})`,
        rating: e.rating,
      };
    case "cqc":
      return e.kind === "location"
        ? { ...cqcLocation(`1-${200000 + i}`, e.name, e.rating), providerId: `1-${100000 + i}` }
        : {
            kind: "provider",
            providerId: `1-${100000 + i}`,
            name: e.name,
            companyNumber: e.companyNumber,
            charityNumber: null,
            ownershipType: "Organisation",
            type: null,
            registrationStatus: e.status,
            registrationDate: null,
            deregistrationDate: null,
            locationIds: [],
            overallRating: e.rating,
            keyQuestions: noKeyQuestions,
            address: noAddress,
            lastInspectionDate: null,
          };
    case "charity":
      return {
        charityNumber: String(1100000 + i),
        organisationNumber: String(5000000 + i),
        name: e.name,
        type: null,
        registrationStatus: e.status,
        registeredOn: null,
        removedOn: null,
        removalReason: null,
        reportingStatus: null,
        flags: { insolvent: null, inAdministration: null, interimManager: null },
        isCio: null,
        latestAccounts: null,
        financialHistory: null,
        classification: null,
        areasOfOperation: null,
        trusteeCount: null,
        objects: null,
        otherRegulators: null,
        website: null,
        linkedCharities: 0,
        extractDate: null,
      };
    default:
      throw new Error(`no register check reads ${source}`);
  }
}

function entryOf(source: RegisterSource, e: Generated, i: number, contradicted: boolean): Entry {
  return {
    key: `k${i}`,
    entity: `e${i}`,
    part: null,
    scope: "",
    name: e.name,
    // A contradicted match states another company's number.
    companyNumber: contradicted ? "01234567" : e.companyNumber === COMPANY.number ? null : e.companyNumber,
    status: e.status,
    rating: e.rating,
    town: e.town,
    altNames: [],
    data: dataOf(source, e, i),
    firstSeen: "2026-06-26",
    removedOn: e.removed ? "2026-10-06" : null,
    lastListed: e.removed ? "2026-06-29" : "2026-10-06",
  };
}

function routeOf(kind: "former" | "alternative" | "similar" | "contradicted", e: Entry): MatchRoute {
  switch (kind) {
    case "former":
      return { by: "name", matchedName: e.name, primary: true, via: COMPANY.previousNames[0].name };
    case "alternative":
      return { by: "name", matchedName: e.name, primary: false, via: COMPANY.name };
    case "similar":
      return { by: "name", matchedName: e.name, primary: true, via: "Bayside Hospitality Group International" };
    case "contradicted":
      return { by: "name", matchedName: COMPANY.name, primary: true, via: COMPANY.name };
  }
}

/** The register reads a check's reply makes, answered with nothing more. */
const quietRegisters = {
  historyOf: async () => [],
  editionInfo: async () => ({ editionDate: "2026-10-06", historySince: "2026-06-26", fetchedAt: "2026-10-06T06:00:00Z" }),
  entriesByKeys: async () => [],
  entriesByDataField: async () => [],
  countByMlr: async () => new Map(),
} as unknown as Services["registers"];
const services = { registers: quietRegisters, companiesHouse: {} } as unknown as Services;

describe("issue 28 §1 one match rule for every register check", () => {
  it("every register check of the registry is built on the rule (registerCheck), with a boolean positive field", () => {
    const checks = operations.filter((o) => o.family === "registers" && !o.path.endsWith("/changes"));
    expect(checks.length).toBeGreaterThanOrEqual(5);
    for (const op of checks) {
      const spec = registerCheckSpecs.get(op.operationId);
      expect(spec, `${op.operationId} is built with registerCheck`).toBeDefined();
      const field = (spec!.output.shape as Record<string, { type?: string; def?: { type?: string } }>)[spec!.positive];
      expect(field?.def?.type ?? field?.type, `${op.operationId}.${spec!.positive} is a boolean`).toBe("boolean");
      expect(op.description, `${op.operationId} documents the rule`).toContain("How sure a match is");
    }
  });

  it("property: whatever the entries, a match that is not definite never gives the positive field or a positive sentence", async () => {
    const specs = [...registerCheckSpecs.values()];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...specs), fc.array(fc.tuple(entryArb, routeArb), { minLength: 1, maxLength: 4 }), async (spec, rows) => {
        const found: Found[] = rows.map(([e, kind], i) => {
          const entry = entryOf(spec.source, e, i, kind === "contradicted");
          const route = routeOf(kind, entry);
          return {
            entry,
            route,
            match: { score: kind === "similar" ? 0.72 : 1, matchedName: route.matchedName, reasons: ["generated"] },
            certainty: matchCertainty(route, recordFactsOf(entry), COMPANY, "register number"),
          };
        });
        expect(found.every((f) => !f.certainty.definite)).toBe(true);
        const o = overallCertainty(found.map((f) => f.certainty));
        const result: LookupResult = {
          query: COMPANY.number,
          matchedBy: "registered and former company names from Companies House",
          matchedOn: found.map((f) => f.match.matchedName),
          found,
          company: { name: COMPANY.name, number: COMPANY.number, status: "active" },
          profile: null,
          possibleMatch: o.possibleMatch,
          certainty: o.best!,
        };
        const source = spec.source as RegisterSource;
        const out = (await spec.reply({
          company: COMPANY.number,
          found: result,
          base: (entities) => checkReply(services, source, result, entities),
          services,
        })) as Record<string, unknown>;
        spec.output.parse(out);
        expect(out[spec.positive], `${spec.operationId}.${spec.positive}`).toBe(false);
        expect(out.possibleMatch).toBe(true);
        expect(out.summary).toMatch(/^Possible match only: /);
        expect(out.summary).not.toMatch(POSITIVE_SENTENCE);
      }),
      { numRuns: 150 },
    );
  });

  it("the rule: numbers and the current or asked name (uncontradicted) are definite; former, alternative and similar names are not", () => {
    const e = { name: "Bayside Hospitality Ltd", companyNumber: null, town: "Brighton", data: amlData() };
    const asIs = (route: Partial<MatchRoute>, company: CompanyForMatch | null = COMPANY, facts = recordFactsOf(e)) =>
      matchCertainty({ by: "name", matchedName: e.name, primary: true, via: COMPANY.name, ...route }, facts, company, "MLR number");
    expect(asIs({})).toMatchObject({ definite: true, basis: "registered-name", contradictions: [] });
    expect(asIs({ by: "register-number", via: null }, null)).toMatchObject({ definite: true, basis: "register-number" });
    expect(asIs({ by: "company-number", via: null })).toMatchObject({ definite: true, basis: "company-number" });
    expect(asIs({ via: "Bayside Hospitality Ltd" }, null)).toMatchObject({ definite: true, basis: "name-asked" });
    expect(asIs({ matchedName: "Bayside Hotel Group", via: "BAYSIDE HOTEL GROUP LTD" })).toMatchObject({
      definite: false,
      basis: "former-name",
      formerNameUntil: "2025-01-09",
    });
    expect(asIs({ primary: false })).toMatchObject({ definite: false, basis: "alternative-name" });
    expect(asIs({ matchedName: "Bayside Hospitality Group" })).toMatchObject({ definite: false, basis: "similar-name" });
    // Ltd vs LLP is another legal form: not the same name.
    expect(asIs({ matchedName: "Bayside Hospitality LLP" })).toMatchObject({ definite: false, basis: "similar-name" });
    // Contradictions: another company number on the record; a town and postcode sharing nothing with the registered office.
    expect(asIs({}, COMPANY, recordFactsOf({ ...e, companyNumber: "01234567" }))).toMatchObject({
      definite: false,
      contradictions: ["the register's record gives company number 01234567, not 07654321"],
    });
    expect(asIs({}, COMPANY, recordFactsOf({ ...e, town: "Leeds" })).definite).toBe(false);
    expect(asIs({}, COMPANY, recordFactsOf({ ...e, town: null, data: amlData("BN1") })).definite).toBe(true);
    expect(asIs({}, COMPANY, recordFactsOf({ ...e, town: null, data: amlData("LS1") })).definite).toBe(false);
    expect(asIs({}, COMPANY, recordFactsOf({ ...e, town: "BRIGHTON AND HOVE" })).definite).toBe(true);
    // A company number written in the register's name is checked as a number and is not part of the name.
    expect(
      asIs({ matchedName: "Bayside Hospitality (07654321) Ltd" }, COMPANY, recordFactsOf({ ...e, name: "Bayside Hospitality (07654321) Ltd" })).definite,
    ).toBe(true);
    expect(
      asIs({ matchedName: "Bayside Hospitality (01234567) Ltd" }, COMPANY, recordFactsOf({ ...e, name: "Bayside Hospitality (01234567) Ltd" })).definite,
    ).toBe(false);
    expect(sameNameNormalised("Bayside Hotel Group", "BAYSIDE HOTEL GROUP LTD")).toBe(true);
  });
});

/** Real rows (../shared/data): the names real registers and Companies House give, through the same rule. */
describe.skipIf(!SHARED_PRESENT)("issue 28 §1 real data: former, alternative and similar names are possible matches only", () => {
  const text = async (path: string) => (await fetch(`http://shared.test/${path}`)).text();
  const csvNames = (csv: string, column: number) =>
    csv
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(",")[column]?.trim())
      .filter((n): n is string => !!n && !n.startsWith('"'));

  it("Companies House: a real profile's former name (CANDOUR GROUP LIMITED, once LONDON & KENT ESTATES LIMITED) matches only possibly", async () => {
    const p = JSON.parse(await text("data/companies-house-api/fixtures/herrbert74__company_candour.json"));
    const company: CompanyForMatch = {
      number: p.company_number,
      name: p.company_name,
      previousNames: p.previous_company_names.map((n: { name: string; ceased_on: string }) => ({ name: n.name, until: n.ceased_on })),
      office: { town: p.registered_office_address.locality, postcode: p.registered_office_address.postal_code },
    };
    const former = company.previousNames[0];
    // A register entry under the former name, written the way registers write names (no legal form, & for and).
    const entry = { name: "London and Kent Estates", companyNumber: null, town: company.office!.town, data: amlData() };
    const [m] = matchNames(former.name, [{ id: "x", name: entry.name }], { minScore: 0.95 });
    const c = matchCertainty({ by: "name", matchedName: m.matchedName, primary: m.primary, via: former.name }, recordFactsOf(entry), company, "MLR number");
    expect(c).toMatchObject({ definite: false, basis: "former-name", formerNameUntil: "2020-04-20" });
  });

  it("Home Office sponsors: every real name asked exactly is definite; the same name less a word is a similar name, possible only", async () => {
    const names = csvNames(await text("data/home-office-sponsors/workers_2026-06-26_head.csv"), 0).slice(0, 200);
    expect(names.length).toBeGreaterThan(50);
    let similar = 0;
    for (const name of names) {
      const entry = { name, companyNumber: null, town: null, data: amlData() };
      const [m] = matchNames(name, [{ id: "x", name }]);
      expect(matchCertainty({ by: "name", matchedName: m.matchedName, primary: m.primary, via: name }, recordFactsOf(entry), null, null).definite, name).toBe(
        true,
      );
      const words = name.split(/\s+/);
      if (words.length < 3) continue;
      const shorter = words.slice(1).join(" ");
      const [n] = matchNames(shorter, [{ id: "x", name }], { minScore: 0.5 });
      if (!n || sameNameNormalised(shorter, name)) continue;
      similar++;
      const c = matchCertainty({ by: "name", matchedName: n.matchedName, primary: n.primary, via: shorter }, recordFactsOf(entry), null, null);
      expect(c.definite, `${shorter} for ${name}`).toBe(false);
      // Through the register's own name it is a similar name; through its trading name ("… T/A LILO"), an alternative one.
      expect(c.basis).toBe(n.primary ? "similar-name" : "alternative-name");
    }
    expect(similar).toBeGreaterThan(10);
  });

  it("CQC: a real location's 'Also known as' name matches as an alternative name, possible only", async () => {
    const csv = await text("data/cqc/cqc-search-export_care-homes-deactivated_head3000.csv");
    const rows = csv
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, "").replace(/^"|"$/g, "").replace(/""/g, '"').trim()));
    const aka = rows.filter((r) => r[14] && r[0] && !sameNameNormalised(r[14], r[0])).slice(0, 30);
    expect(aka.length).toBeGreaterThan(0);
    for (const r of aka) {
      const entry = { name: r[0], companyNumber: null, town: r[3], data: cqcLocation("1-1", r[0], null, { ...noAddress, town: r[3], postcode: r[5] }) };
      const [m] = matchNames(r[14], [{ id: "x", name: r[0], altNames: [r[14]] }], { minScore: 0.95 });
      if (!m) continue;
      expect(
        matchCertainty({ by: "name", matchedName: m.matchedName, primary: m.primary, via: r[14] }, recordFactsOf(entry), null, "CQC provider or location id"),
      ).toMatchObject({ definite: false, basis: "alternative-name" });
    }
  });
});
