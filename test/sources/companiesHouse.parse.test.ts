import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import {
  parseChargeList,
  parseFilingHistory,
  parseInsolvency,
  parseOfficerList,
  parsePsc,
  parsePscList,
  parsePscStatements,
  parseSearchResults,
} from "../../src/sources/companies-house/parse";

/**
 * Parsers for Companies House Public Data API replies other than the profile.
 *
 * Real replies first: ../shared/data/companies-house-api/fixtures (served at http://shared.test). The expected
 * values below were read by hand from those files. Provenance (see shared/formats/companies-house-api.md):
 * - herrbert74__*: real replies (c. 2020-23), raw JSON bodies. One deliberate edit found in the search file:
 *   its second item carries "title_will_be_null" instead of "title" (a test-author's change, not a real reply);
 *   we expect name null for it.
 * - kevbite__*: real 2025 replies cut from test-code strings: the Tesco officer list says items_per_page 5 and
 *   total_results 74 but holds only 2 items (shortened by the cut), otherwise raw bodies.
 * - ch-psc-data-api-synthetic__*: Companies House's own service test outputs, synthetic values ("string"),
 *   official shapes. They are not real replies: notified_on carries ISO date-times, the list envelope has
 *   total_results/active_count/ceased_count null and a stray notified_on, the super-secure item has "ceased": "0".
 *   The get_* files are single-PSC bodies (GET .../persons-with-significant-control/{kind}/{id}): parsePscList
 *   gives null for them and parsePsc reads them.
 */
const real = (file: string) =>
  fetch(`http://shared.test/data/companies-house-api/fixtures/${file}`).then((r) => {
    if (!r.ok) throw new Error(`missing fixture ${file}`);
    return r.text();
  });

const NOT_THE_RESOURCE = [
  "",
  "not json",
  "<html><body>Service unavailable</body></html>",
  "null",
  "[]",
  '"officer-list"',
  "42",
  '{"errors":[{"error":"company-profile-not-found","type":"ch:service"}]}',
  '{"error":"not-found"}',
  '{"items":"none"}',
  '{"cases":{}}',
];
const ALL = {
  parseOfficerList,
  parsePscList,
  parsePscStatements,
  parseChargeList,
  parseFilingHistory,
  parseInsolvency,
  parseSearchResults,
};

describe.skipIf(!SHARED_PRESENT)("Companies House list parsers on real replies (../shared)", () => {
  it("officers: YOU LIMITED (04475590), envelope, a secretary without dates, corporate and nominee officers", async () => {
    const l = parseOfficerList(await real("herrbert74__officers_you_limited.json"))!;
    expect(l).toMatchObject({ totalResults: 7, activeCount: 3, resignedCount: 4, inactiveCount: 0, itemsPerPage: 35, startIndex: 0 });
    expect(l.items).toHaveLength(7);
    // The counts agree with the items: 3 without resigned_on, 4 with.
    expect(l.items.filter((o) => o.resignedOn === null)).toHaveLength(3);
    expect(l.items[0]).toEqual({
      name: "STEVENSON, Elizabeth Mary",
      role: "secretary",
      appointedOn: null,
      resignedOn: null,
      isCorporate: false,
      identification: null,
      nationality: "British",
      countryOfResidence: null,
      occupation: "Director",
      dateOfBirth: null,
      identityVerification: null,
      appointmentsLink: "/officers/M0nRpSZPlPTwBusql3sNK6Efzr8/appointments",
    });
    expect(l.items[1]).toEqual({
      name: "STEVENSON, Benjamin Thomas",
      role: "director",
      appointedOn: "2017-09-02",
      resignedOn: null,
      isCorporate: false,
      identification: null,
      nationality: "British",
      countryOfResidence: "England",
      occupation: "Company Director",
      dateOfBirth: { month: 7, year: 1985 },
      identityVerification: null,
      appointmentsLink: "/officers/5SU_9GfEsP_Z_H7rb1fNFmEZvKs/appointments",
    });
    expect(l.items[3]).toMatchObject({
      name: "LONDON LAW SECRETARIAL LIMITED",
      role: "corporate-nominee-secretary",
      isCorporate: true,
      identification: null,
      appointedOn: "2002-07-02",
      resignedOn: "2002-07-02",
    });
    // A company acting as nominee director, but its role is not "corporate-..." and it has no identification block.
    expect(l.items[4]).toMatchObject({ name: "LONDON LAW SERVICES LIMITED", role: "nominee-director", isCorporate: false });
    expect(l.items[6]).toMatchObject({ name: "STEVENSON, Leslie Alan", resignedOn: "2012-08-28", dateOfBirth: { month: 4, year: 1950 } });
  });

  it("officers: Tesco (00445790, 2025) with identity_verification_details", async () => {
    const l = parseOfficerList(await real("kevbite__officers_00445790_tesco_idv.json"))!;
    expect(l).toMatchObject({ totalResults: 74, activeCount: 11, resignedCount: 63, inactiveCount: 0, itemsPerPage: 5, startIndex: 0 });
    expect(l.items).toHaveLength(2); // cut from test code: 2 of the page's 5
    expect(l.items[0]).toMatchObject({
      name: "TAYLOR, Christopher Jon",
      role: "secretary",
      appointedOn: "2025-04-14",
      identityVerification: null,
      dateOfBirth: null,
    });
    expect(l.items[1]).toEqual({
      name: "BETHELL, Melissa",
      role: "director",
      appointedOn: "2018-09-24",
      resignedOn: null,
      isCorporate: false,
      identification: null,
      nationality: "British",
      countryOfResidence: "United Kingdom",
      occupation: null,
      dateOfBirth: { month: 9, year: 1974 },
      identityVerification: {
        verifiedOn: "2025-07-29",
        statementDueOn: null,
        statementDate: null,
        appointmentVerificationStartOn: "2026-07-01",
        appointmentVerificationEndOn: "9999-12-31",
      },
      appointmentsLink: "/officers/aqrS_F-2zIvSaMNtl1opqDV4-w0/appointments",
    });
  });

  it("officers: a corporate secretary's identification, registration number verbatim (not zero-padded)", async () => {
    const l = parseOfficerList(await real("kevbite__officers_03610056_corporate_secretary.json"))!;
    expect(l).toMatchObject({ totalResults: 1, activeCount: 1, resignedCount: 0, inactiveCount: 0, itemsPerPage: 1, startIndex: 0 });
    expect(l.items).toEqual([
      {
        name: "INFORMA COSEC LIMITED",
        role: "corporate-secretary",
        appointedOn: "2021-12-31",
        resignedOn: null,
        isCorporate: true,
        identification: { type: "uk-limited-company", registrationNumber: "3849195", placeRegistered: null, legalForm: null, legalAuthority: null },
        nationality: null,
        countryOfResidence: null,
        occupation: null,
        dateOfBirth: null,
        identityVerification: null,
        appointmentsLink: "/officers/YwIOmduyS6PW5axJgQQrsTGyRD0/appointments",
      },
    ]);
  });

  it("PSCs: Yorkshire Air Ambulance (04053514), four ceased individuals (ceased_on only) and a corporate parent", async () => {
    const l = parsePscList(await real("herrbert74__persons_yorkshire_air_ambulance.json"))!;
    // This list reply has no `kind` member.
    expect(l).toMatchObject({ totalResults: 5, activeCount: 1, ceasedCount: 4, itemsPerPage: 25, startIndex: 0 });
    expect(l.items.map((p) => p.name)).toEqual([
      "Mr Peter Sunderland",
      "Mr Bruce Burns",
      "Mr Kevin Hynes",
      "Mr John William Young Strachan Samuel",
      "Yorkshire Air Ambulance Ltd",
    ]);
    // The reply has no `ceased` member: ceased comes from ceased_on, and agrees with ceased_count.
    expect(l.items.filter((p) => p.ceased)).toHaveLength(4);
    expect(l.items[0]).toEqual({
      kind: "individual-person-with-significant-control",
      category: "individual",
      name: "Mr Peter Sunderland",
      notifiedOn: "2016-04-06",
      ceasedOn: "2016-04-06",
      ceased: true,
      naturesOfControl: ["significant-influence-or-control"],
      identification: null,
      nationality: "British",
      countryOfResidence: "United Kingdom",
      isSanctioned: null,
      identityVerification: null,
    });
    expect(l.items[4]).toEqual({
      kind: "corporate-entity-person-with-significant-control",
      category: "corporate",
      name: "Yorkshire Air Ambulance Ltd",
      notifiedOn: "2016-04-06",
      ceasedOn: null,
      ceased: false,
      naturesOfControl: ["ownership-of-shares-75-to-100-percent", "voting-rights-75-to-100-percent", "right-to-appoint-and-remove-directors"],
      // A UK parent with no registration number at all, only form and authority.
      identification: {
        registrationNumber: null,
        placeRegistered: null,
        countryRegistered: null,
        legalForm: "Limited Company",
        legalAuthority: "Limited Company, England And Wales",
      },
      nationality: null,
      countryOfResidence: null,
      isSanctioned: null,
      identityVerification: null,
    });
  });

  it("PSCs: Google UK (03977902), corporate PSC Alphabet, Inc. with its Delaware registration number verbatim", async () => {
    const l = parsePscList(await real("kevbite__psc_03977902_corporate_entity.json"))!;
    expect(l).toMatchObject({ totalResults: 1, activeCount: 1, ceasedCount: 0, itemsPerPage: 10, startIndex: 0 });
    expect(l.items).toHaveLength(1);
    expect(l.items[0]).toMatchObject({
      kind: "corporate-entity-person-with-significant-control",
      category: "corporate",
      name: "Alphabet, Inc.",
      notifiedOn: "2016-04-06",
      ceased: false,
      identification: {
        registrationNumber: "5786925",
        placeRegistered: "Delaware",
        countryRegistered: "Delaware",
        legalForm: "Corporate",
        legalAuthority: "Delaware Secretary Of State",
      },
      isSanctioned: null,
    });
  });

  it("PSCs: CH's synthetic list output (null counts, is_sanctioned, explicit ceased: false)", async () => {
    const l = parsePscList(await real("ch-psc-data-api-synthetic__psc_list_output.json"))!;
    expect(l).toEqual({
      totalResults: null,
      activeCount: null,
      ceasedCount: null,
      itemsPerPage: 25,
      startIndex: 0,
      items: [expect.anything(), expect.anything()],
    });
    for (const p of l.items) {
      expect(p).toEqual({
        kind: "corporate-entity-person-with-significant-control",
        category: "corporate",
        name: "string",
        notifiedOn: null,
        ceasedOn: null,
        ceased: false,
        naturesOfControl: ["part-right-to-share-surplus-assets-75-to-100-percent"],
        identification: { registrationNumber: "string", placeRegistered: "string", countryRegistered: "string", legalForm: "string", legalAuthority: "string" },
        nationality: "British",
        countryOfResidence: null,
        isSanctioned: true,
        identityVerification: null,
      });
    }
  });

  it("PSCs: CH's synthetic single-PSC outputs are not lists; parsePsc reads each (IDV dates, beneficial owner, super-secure)", async () => {
    const files = ["corporate_entity", "individual_bo", "individual", "legal_person", "super_secure"];
    const bodies = Object.fromEntries(await Promise.all(files.map(async (f) => [f, await real(`ch-psc-data-api-synthetic__get_${f}_output.json`)])));
    for (const f of files) expect(parsePscList(bodies[f]), f).toBeNull();

    const individual = parsePsc(bodies.individual)!;
    expect(individual).toMatchObject({
      kind: "individual-person-with-significant-control",
      category: "individual",
      name: "34777771",
      notifiedOn: "2023-11-20T08:47:45.378Z", // kept as given (a date-time in this synthetic file)
      ceasedOn: "2021-11-02T08:47:45",
      ceased: true,
      isSanctioned: null,
    });
    expect(individual.identityVerification).toEqual({
      verifiedOn: "2024-12-16",
      statementDueOn: "2024-12-14",
      statementDate: "2024-12-13",
      appointmentVerificationStartOn: "2024-12-15",
      appointmentVerificationEndOn: "2024-12-12",
    });
    expect(parsePsc(bodies.individual_bo)).toMatchObject({
      kind: "individual-beneficial-owner",
      category: "individual",
      isSanctioned: true,
      nationality: "British",
    });
    expect(parsePsc(bodies.legal_person)).toMatchObject({
      kind: "legal-person-person-with-significant-control",
      category: "legal-person",
      ceased: false,
      isSanctioned: true,
    });
    expect(parsePsc(bodies.corporate_entity)).toMatchObject({
      category: "corporate",
      ceased: true,
      identification: { registrationNumber: "string", countryRegistered: "string" },
    });
    // "ceased": "0" is not a boolean; there is no ceased_on either, so not ceased.
    expect(parsePsc(bodies.super_secure)).toEqual({
      kind: "super-secure-person-with-significant-control",
      category: "super-secure",
      name: null,
      notifiedOn: "2023-11-20T08:47:45.378Z",
      ceasedOn: null,
      ceased: false,
      naturesOfControl: [],
      identification: null,
      nationality: null,
      countryOfResidence: null,
      isSanctioned: null,
      identityVerification: null,
    });
    // And a list is not a single PSC.
    expect(parsePsc(await real("kevbite__psc_03977902_corporate_entity.json"))).toBeNull();
  });

  it("charges: PFB Hire (07310390), counts, flags, persons entitled, the satisfied debenture", async () => {
    const l = parseChargeList(await real("herrbert74__charges_pfb_hire.json"))!;
    expect(l).toMatchObject({ totalCount: 9, satisfiedCount: 1, partSatisfiedCount: 0, unfilteredCount: 9 });
    expect(l.items.map((c) => c.chargeNumber)).toEqual([9, 8, 6, 7, 5, 4, 3, 2, 1]);
    expect(l.items.filter((c) => c.status === "fully-satisfied")).toHaveLength(1);
    // No `id` member in these replies (the spec says required): taken from links.self.
    expect(l.items[0]).toEqual({
      id: "SD7RjrGkkeYRSOMujckmIlQSZu0",
      chargeCode: "073103900009",
      chargeNumber: 9,
      classification: "A registered charge",
      status: "outstanding",
      createdOn: "2015-12-18",
      deliveredOn: "2015-12-21",
      satisfiedOn: null,
      personsEntitled: ["Art Share (Social Help Association for Reinvesting in Enterprise) Limited"],
      containsFixedCharge: true,
      containsFloatingCharge: true,
      floatingChargeCoversAll: true,
      containsNegativePledge: null,
      particularsDescription: null,
    });
    expect(l.items[2]).toMatchObject({
      chargeNumber: 6,
      personsEntitled: ["Liberty Leasing PLC"],
      containsFixedCharge: true,
      containsFloatingCharge: null,
      floatingChargeCoversAll: null,
      containsNegativePledge: true,
    });
    expect(l.items[4].particularsDescription).toMatch(/^To secure payment and performance as provided for in clause 2/);
    expect(l.items[6]).toMatchObject({
      id: "7OT_yCk6NcAWhXZxZ7u5zhUNr6E",
      chargeNumber: 3,
      classification: "Debenture",
      status: "fully-satisfied",
      createdOn: "2012-01-20",
      deliveredOn: "2012-02-08",
      satisfiedOn: "2014-08-07",
      personsEntitled: ["Ultimate Invoice Finance Limited"],
      containsFixedCharge: null,
      containsFloatingCharge: null,
      chargeCode: null,
    });
    expect(l.items[8]).toMatchObject({ chargeNumber: 1, classification: "Deed of assignment", personsEntitled: ["Liberty Leasing PLC"] });
  });

  it("filing history: PFB Hire (07310390), 47 filings, gazette dissolution, structured description_values, an item with no links", async () => {
    const h = parseFilingHistory(await real("herrbert74__filing_pfb_hire.json"))!;
    expect(h.totalCount).toBe(47);
    expect(h.status).toBe("filing-history-available");
    expect(h.items).toHaveLength(47);
    expect(h.items[0]).toEqual({
      transactionId: "MzIyMzYxMzcxN2FkaXF6a2N4",
      date: "2019-01-03",
      actionDate: null,
      category: "gazette",
      subcategory: null,
      type: "GAZ2",
      description: "gazette-dissolved-liquidation",
      descriptionValues: {},
      paperFiled: true,
      pages: 1,
      documentMetadataUrl: "https://frontend-doc-api.company-information.service.gov.uk/document/cTf4tNaMNTbW4Xo3OEjYmpYmFLeQ3zWH4pVZ-2mM0F4",
    });
    const ad01 = h.items.find((f) => f.transactionId === "MzE1MDcyMzgzMWFkaXF6a2N4")!;
    expect(ad01.descriptionValues).toEqual({
      change_date: "2016-06-15",
      new_address: "St Helen's House King Street Derby DE1 3EE",
      old_address: "215 Chester Street Aston Birmingham B6 4AE",
    });
    // SH01: description_values.capital is an array of {figure, currency}; only the string members are kept.
    const sh01 = h.items.find((f) => f.type === "SH01")!;
    expect(sh01).toMatchObject({ description: "capital-allotment-shares", descriptionValues: { date: "2014-07-31" }, paperFiled: null, pages: 3 });
    // An MR01 with no links, no pages, barcode null.
    const bare = h.items.find((f) => f.transactionId === "MzExODg5NzAzOWFkaXF6a2N4")!;
    expect(bare).toMatchObject({
      type: "MR01",
      date: "2015-03-10",
      documentMetadataUrl: null,
      pages: null,
      paperFiled: null,
      description: "mortgage-create-with-deed",
    });
    expect(h.items[46]).toMatchObject({ type: "NEWINC", date: "2010-07-09", pages: 43, description: "incorporation-company" });
  });

  it("filing history: Tell Aldi (14190543), change of name, PSC cessation, incorporation", async () => {
    const h = parseFilingHistory(await real("herrbert74__filing_tell_aldi.json"))!;
    expect(h).toMatchObject({ totalCount: 3, status: "filing-history-available" });
    expect(h.items.map((f) => f.type)).toEqual(["CERTNM", "PSC07", "NEWINC"]);
    expect(h.items[0]).toEqual({
      transactionId: "MzM2NjYwMzgyOGFkaXF6a2N4",
      date: "2023-01-20",
      actionDate: null,
      category: "change-of-name",
      subcategory: "certificate",
      type: "CERTNM",
      description: "certificate-change-of-name-company",
      // The reply holds a literal backslash here ("\\c" in the JSON text).
      descriptionValues: { description: "Company name changed helping hands trust LTD\\certificate issued on 20/01/23" },
      paperFiled: null,
      pages: 3,
      documentMetadataUrl: "https://frontend-doc-api.company-information.service.gov.uk/document/gC-gKYvd4yGueZh5-gLNFV_Xy3jsiEzQ2rhV09MmiFU",
    });
    expect(h.items[1]).toMatchObject({
      actionDate: "2023-01-01",
      category: "persons-with-significant-control",
      subcategory: "termination",
      description: "cessation-of-a-person-with-significant-control",
      descriptionValues: { psc_name: "Taha Ejaz", cessation_date: "2023-01-01" },
    });
    expect(h.items[2]).toMatchObject({ subcategory: null, pages: 26, descriptionValues: {} });
  });

  it("insolvency: London Airways, one compulsory liquidation with its dates and practitioner", async () => {
    expect(parseInsolvency(await real("herrbert74__insolvency_london_airways.json"))).toEqual({
      status: null, // this reply has no `status` member
      cases: [
        {
          number: "1",
          type: "compulsory-liquidation",
          dates: [
            { type: "wound-up-on", date: "1995-01-18" },
            { type: "petitioned-on", date: "1994-12-12" },
          ],
          practitioners: [{ name: "Alan Redvers Price", role: "practitioner", appointedOn: null, ceasedToActOn: null }],
          notes: [],
        },
      ],
    });
  });

  it('search: "you", 15 items, titles verbatim, a dissolved company, the item whose title was removed', async () => {
    const s = parseSearchResults(await real("herrbert74__search_result_you.json"))!;
    expect(s).toMatchObject({ totalResults: 24184, itemsPerPage: 100, startIndex: 0 });
    expect(s.items).toHaveLength(15);
    expect(s.items[0]).toEqual({
      number: "04475590",
      name: "YOU  LIMITED",
      status: "active",
      type: "ltd",
      incorporatedOn: "2002-07-02",
      ceasedOn: null,
      addressSnippet: "74  Lairgate, Beverley, East Yorkshire, United Kingdom, HU17 8EU",
      postcode: "HU17 8EU",
      locality: "Beverley",
      matches: { snippet: [], title: [1, 3] },
    });
    expect(s.items[1]).toMatchObject({ number: "11722385", name: null, matches: { snippet: [1, 3] }, postcode: "HA4 0EJ", locality: "South Ruislip" });
    expect(s.items[4]).toMatchObject({ number: "08051585", name: "YOU & CO.  LTD", status: "dissolved", ceasedOn: "2019-01-15" });
    expect(s.items[14]).toMatchObject({ number: "09195766", name: "YOU & EYE (EDWARDS & WALKER)  LTD" });
  });

  it("each parser gives null on the other resources' real replies that lack its container", async () => {
    expect(parseInsolvency(await real("herrbert74__charges_pfb_hire.json"))).toBeNull();
    expect(parseOfficerList(await real("herrbert74__insolvency_london_airways.json"))).toBeNull();
    expect(parseSearchResults(await real("herrbert74__company_candour.json"))).toBeNull();
  });
});

describe("Companies House list parsers on messy bodies (written in the real shapes)", () => {
  it("error bodies (either shape), non-JSON, non-objects and bodies without the container give null", () => {
    for (const [name, parse] of Object.entries(ALL)) {
      for (const body of NOT_THE_RESOURCE) expect(parse(body), `${name}(${JSON.stringify(body)})`).toBeNull();
    }
    expect(parsePsc('{"errors":[{"error":"psc-not-found","type":"ch:service"}]}')).toBeNull();
    expect(parsePsc("not json")).toBeNull();
  });

  it("officers: unknown members ignored, numeric strings are not numbers, junk items skipped, missing members null", () => {
    const body = JSON.stringify({
      kind: "officer-list",
      total_results: "12",
      active_count: 2,
      resigned_count: null,
      items_per_page: 35.0,
      start_index: "0",
      a_member_added_in_2030: { nested: [1, 2, 3] },
      items: [
        null,
        3,
        "director",
        [],
        {
          name: "SMITH, Jane",
          officer_role: "director",
          date_of_birth: { month: "7", year: 1985 },
          identity_verification_details: {},
          links: { officer: "not-an-object" },
          responsibilities: "a new member",
        },
        {},
        {
          name: "ACME NOMINEES LTD",
          officer_role: "nominee-director",
          identification: { identification_type: "uk-limited-company", registration_number: " 01234567 " },
        },
        { name: "", officer_role: "corporate-llp-designated-member", date_of_birth: { month: 1 } },
      ],
    });
    const l = parseOfficerList(body)!;
    expect(l).toMatchObject({ totalResults: null, activeCount: 2, resignedCount: null, inactiveCount: null, itemsPerPage: 35, startIndex: null });
    expect(l.items).toHaveLength(4);
    expect(l.items[0]).toMatchObject({
      name: "SMITH, Jane",
      role: "director",
      isCorporate: false,
      dateOfBirth: null,
      appointmentsLink: null,
      identityVerification: {
        verifiedOn: null,
        statementDueOn: null,
        statementDate: null,
        appointmentVerificationStartOn: null,
        appointmentVerificationEndOn: null,
      },
    });
    expect(l.items[1]).toEqual({
      name: null,
      role: null,
      appointedOn: null,
      resignedOn: null,
      isCorporate: false,
      identification: null,
      nationality: null,
      countryOfResidence: null,
      occupation: null,
      dateOfBirth: null,
      identityVerification: null,
      appointmentsLink: null,
    });
    expect(l.items[2]).toMatchObject({
      isCorporate: true, // by its identification block
      identification: { type: "uk-limited-company", registrationNumber: "01234567", placeRegistered: null, legalForm: null, legalAuthority: null },
    });
    expect(l.items[3]).toMatchObject({ name: null, isCorporate: true, dateOfBirth: null });
  });

  it("PSCs: kind → category (beneficial owners too), explicit ceased wins, is_sanctioned only as a boolean", () => {
    const items = [
      "individual-person-with-significant-control",
      "corporate-entity-person-with-significant-control",
      "legal-person-person-with-significant-control",
      "super-secure-person-with-significant-control",
      "individual-beneficial-owner",
      "corporate-entity-beneficial-owner",
      "legal-person-beneficial-owner",
      "super-secure-beneficial-owner",
      "exemptions",
      "",
    ].map((kind) => ({ kind }));
    const l = parsePscList(JSON.stringify({ total_results: 10, ceased_count: "0", items }))!;
    expect(l.items.map((p) => p.category)).toEqual([
      "individual",
      "corporate",
      "legal-person",
      "super-secure",
      "individual",
      "corporate",
      "legal-person",
      "super-secure",
      "other",
      "other",
    ]);
    expect(l).toMatchObject({ totalResults: 10, ceasedCount: null, activeCount: null });
    expect(l.items[9].kind).toBeNull();

    const p = parsePscList(
      JSON.stringify({
        items: [
          {
            kind: "individual-person-with-significant-control",
            ceased_on: "2020-01-01",
            ceased: false,
            is_sanctioned: "true",
            natures_of_control: ["voting-rights-25-to-50-percent", 7, null],
          },
          {
            kind: "corporate-entity-person-with-significant-control",
            ceased: true,
            identification: { registration_number: "SC 123 456 (Scotland)" },
            new_member: 1,
          },
        ],
      }),
    )!;
    expect(p.items[0]).toMatchObject({ ceased: false, ceasedOn: "2020-01-01", isSanctioned: null, naturesOfControl: ["voting-rights-25-to-50-percent"] });
    expect(p.items[1]).toMatchObject({ ceased: true, ceasedOn: null, identification: { registrationNumber: "SC 123 456 (Scotland)", legalForm: null } });
  });

  it("PSC statements in the spec's shape", () => {
    const body = JSON.stringify({
      items_per_page: 25,
      start_index: 0,
      total_results: 2,
      active_count: 1,
      ceased_count: 1,
      links: { self: "/company/01234567/persons-with-significant-control-statements" },
      items: [
        {
          kind: "persons-with-significant-control-statement",
          etag: "e1",
          notified_on: "2016-06-30",
          statement: "no-individual-or-entity-with-signficant-control",
          links: { self: "/company/01234567/persons-with-significant-control-statements/abc" },
        },
        {
          kind: "persons-with-significant-control-statement",
          notified_on: "2017-01-01",
          ceased_on: "2018-02-03",
          statement: "psc-has-failed-to-confirm-changed-details",
          linked_psc_name: "Mr John Smith",
          restrictions_notice_withdrawal_reason: "x",
        },
      ],
    });
    expect(parsePscStatements(body)).toEqual({
      totalResults: 2,
      activeCount: 1,
      ceasedCount: 1,
      itemsPerPage: 25,
      startIndex: 0,
      items: [
        { statement: "no-individual-or-entity-with-signficant-control", notifiedOn: "2016-06-30", ceasedOn: null, linkedPscName: null },
        { statement: "psc-has-failed-to-confirm-changed-details", notifiedOn: "2017-01-01", ceasedOn: "2018-02-03", linkedPscName: "Mr John Smith" },
      ],
    });
    expect(parsePscStatements('{"items":[]}')).toEqual({
      totalResults: null,
      activeCount: null,
      ceasedCount: null,
      itemsPerPage: null,
      startIndex: null,
      items: [],
    });
  });

  it('charges: id member preferred, the spec\'s "unfiletered_count" spelling accepted, string flags and numbers → null', () => {
    const l = parseChargeList(
      JSON.stringify({
        total_count: "1",
        unfiletered_count: 1,
        satisfied_count: 0,
        items: [
          {
            id: "abc",
            charge_number: "1",
            classification: "A registered charge",
            status: "part-satisfied",
            links: { self: "/company/01234567/charges/zzz" },
            persons_entitled: [{ name: "Bank PLC" }, { nom: "x" }, "Other Bank"],
            particulars: { contains_fixed_charge: "true", contains_floating_charge: false, description: 12 },
          },
          { links: { self: "/company/01234567/filing-history/zzz" } },
        ],
      }),
    )!;
    expect(l).toMatchObject({ totalCount: null, unfilteredCount: 1, satisfiedCount: 0, partSatisfiedCount: null });
    expect(l.items[0]).toMatchObject({
      id: "abc",
      chargeNumber: null,
      classification: null,
      status: "part-satisfied",
      personsEntitled: ["Bank PLC"],
      containsFixedCharge: null,
      containsFloatingCharge: false,
      particularsDescription: null,
    });
    expect(l.items[1]).toMatchObject({ id: null, personsEntitled: [], containsFixedCharge: null });
  });

  it("filing history: non-string description values dropped, pages as text → null", () => {
    const h = parseFilingHistory(
      JSON.stringify({
        total_count: 1,
        items_per_page: 25,
        items: [
          {
            type: "CS01",
            description: "confirmation-statement-with-no-updates",
            description_values: { made_up_date: "2024-01-01", n: 3, nested: { a: "b" } },
            pages: "3",
            paper_filed: "false",
            links: {},
          },
        ],
      }),
    )!;
    expect(h).toMatchObject({ totalCount: 1, status: null });
    expect(h.items[0]).toMatchObject({
      descriptionValues: { made_up_date: "2024-01-01" },
      pages: null,
      paperFiled: null,
      documentMetadataUrl: null,
      transactionId: null,
    });
  });

  it("insolvency: a numeric case number read as text, notes kept, junk dates skipped, status verbatim", () => {
    const i = parseInsolvency(
      JSON.stringify({
        status: "liquidation",
        cases: [
          {
            number: 2,
            type: "creditors-voluntary-liquidation",
            dates: [{ type: "declaration-solvent-on", date: "2020-05-01" }, "2020"],
            notes: ["Note one", 5],
            practitioners: [
              { name: "A Person", role: "proposed-liquidator", appointed_on: "2020-05-01", ceased_to_act_on: "2021-01-01", address: { locality: "Leeds" } },
            ],
          },
          "junk",
        ],
      }),
    )!;
    expect(i).toEqual({
      status: "liquidation",
      cases: [
        {
          number: "2",
          type: "creditors-voluntary-liquidation",
          dates: [{ type: "declaration-solvent-on", date: "2020-05-01" }],
          notes: ["Note one"],
          practitioners: [{ name: "A Person", role: "proposed-liquidator", appointedOn: "2020-05-01", ceasedToActOn: "2021-01-01" }],
        },
      ],
    });
    expect(parseInsolvency('{"status":"liquidation"}')).toBeNull();
  });

  it("search: items without a company number dropped, missing address and matches → null, counts as text → null", () => {
    const s = parseSearchResults(
      JSON.stringify({
        kind: "search#companies",
        total_results: "2",
        items_per_page: 20,
        page_number: 1,
        items: [{ title: "NO NUMBER LTD" }, { company_number: "SC612345", title: "FOO LIMITED", matches: [1, 2], date_of_cessation: "" }],
      }),
    )!;
    expect(s).toEqual({
      totalResults: null,
      itemsPerPage: 20,
      startIndex: null,
      items: [
        {
          number: "SC612345",
          name: "FOO LIMITED",
          status: null,
          type: null,
          incorporatedOn: null,
          ceasedOn: null,
          addressSnippet: null,
          postcode: null,
          locality: null,
          matches: null,
        },
      ],
    });
  });
});
