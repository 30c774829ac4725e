import { SHARED_PRESENT } from "../support/shared";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { companyLevelName, companyLevelNames, looksLikePerson } from "../../src/services/matching/people";

/** SPEC §1 rule 7: people registered under their own names are not loaded; "<person> t/a <business>" keeps the business only. */

const FILES: Array<[string, string]> = [
  ["workers_2021-09-30_rows-to-A.csv", "Organisation Name"],
  ["workers_2021-11-02_rows-to-A.csv", "Organisation Name"],
  ["workers_2026-06-26_head.csv", "Organisation Name"],
  ["students_2026-01-02.csv", "Sponsor Name"],
];

/** Every name in the real files the rule changes or drops, and what it keeps (null: not loaded). */
const CHANGED_IN_REAL_FILES: Record<string, string | null> = {
  "A A Rahman t/a Visage Dental Laboratory": "Visage Dental Laboratory",
  "Aingaran Somasuntharam T/A Acwin Enterprise": "Acwin Enterprise",
  "AS, BS & PS Nandhra T/As Elm Lodge Residential and Nursing Home": "Elm Lodge Residential and Nursing Home",
  "Ashish Bhutani t/as Omphysio": "Omphysio",
  "Alexander J MacNeil": null,
  "Andrew Burke": null,
  "Andrew J. Dechet": null,
  // Businesses named exactly like a person, with no other word: left out (the price of never naming a person).
  "Anderson Shaw": null,
  "Archer Humphryes": null,
  "Arthur D. Little": null,
  "Ian Tappin t/a Lovat House Residential Care Home": "Lovat House Residential Care Home",
  "Mahadevan Vikneswaran T/A Easebourne Village Store": "Easebourne Village Store",
  "Mr D A J HODGE": null,
  "Mrs Prashanthy Shathyakaran T/A Manor News": "Manor News",
  "MRS SATHTHIYA SRIKUMAR  T/A MAIDSTONE FOOD AND WINE": "MAIDSTONE FOOD AND WINE",
  "Nirmalan Vinayagamoorthy T/A": null,
  "PINAL DAYA, T/A LONDIS": "LONDIS",
  "RAVEENTHIRAN KOGULARAJ, T/A K.L.M CONVENIENCE STORE": "K.L.M CONVENIENCE STORE",
};

describe.skipIf(!SHARED_PRESENT)("SPEC §1 rule 7 people on the real sponsor registers (../shared)", () => {
  it("SPEC §1 rule 7 every name the rule changes or drops in the real files is exactly the expected list; the person's name survives nowhere", async () => {
    const changed: Record<string, string | null> = {};
    for (const [file, column] of FILES) {
      const csv = await (await fetch(`http://shared.test/data/home-office-sponsors/${file}`)).text();
      for (const row of Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data) {
        const raw = row[column].trim();
        const kept = companyLevelName(raw);
        if (!kept || kept.personRemoved) changed[raw] = kept?.name ?? null;
      }
    }
    expect(changed).toEqual(CHANGED_IN_REAL_FILES);
    for (const [raw, kept] of Object.entries(changed)) {
      const person = raw
        .split(/\s+t\s*\/\s*as?\b/i)[0]
        .replace(/^(mrs?|ms|miss|mr|dr)\s+/i, "")
        .replace(/,$/, "");
      if (kept) expect(kept.toLowerCase()).not.toContain(person.toLowerCase().split(/\s+/).pop());
    }
  });
});

describe("SPEC §1 rule 7 telling a person from an organisation", () => {
  it("SPEC §1 rule 7 organisations that look like names stay", () => {
    for (const n of [
      "John Lewis plc",
      "Marks and Spencer",
      "Dr. Martens",
      "Atkinson McLeod",
      "Aukett Swanke",
      "Mander Portman Woodward",
      "ASKONAS HOLT",
      "Abel & Imray",
      "Alan Bearman Music",
      "Anglo Beef Processors",
      "Action for Children",
      "Christ's Hospital",
      "St Leonards",
      "Port Regis",
      "Mount Kelly",
      "Trinity Laban",
      "KHYBER BAKERY",
      "M Y Fishmongers",
      "AIDA S.r.l.",
      "Agfa NV",
      "Advokatfirmaet Thommessen AS",
      "Allen Archaeology",
      "Athena Advisors",
      "Newton Prep",
      "Alexander Grace Law",
      "Smith & Co",
      "Rose Hill Care Home",
      "Victoria Park Ltd",
      "Lady Eleanor Holles",
      "Sir John Cass Redcoat",
    ])
      expect(companyLevelName(n), n).toEqual({ name: n, personRemoved: false });
  });

  it("SPEC §1 rule 7 the part before t/a, in every spelling, is dropped when it is a person", () => {
    const cases: Array<[string, string]> = [
      ["Mrs A Smith T/A Corner Shop", "Corner Shop"],
      ["mr. john smith t/as The Pantry", "The Pantry"],
      ["JANE DOE-SMITH TRADING AS THE DELI", "THE DELI"],
      ["J. O'Brien, T/A Harbour Plumbing", "Harbour Plumbing"],
      ["Dr Priya Raman t / a Riverside Dental", "Riverside Dental"],
      ["  Ian  Tappin   t/a  Lovat House  ", "Lovat House"],
      ["Sam Jones (t/a Oak Joinery)", "Oak Joinery"],
    ];
    for (const [raw, kept] of cases) expect(companyLevelName(raw), raw).toEqual({ name: kept, personRemoved: true });
    // An organisation before t/a keeps the whole name.
    for (const raw of [
      "10 PIXEL LTD  T/A THE PIXEL GROUP",
      " MARKET ROW STORES, T/A LONDIS",
      "Animade (Trading as)",
      "(A1F1 Limited T/A ) Ultrasound Direct London",
      "Windlesham House School t/a (The Malden Trust Ltd)",
    ])
      expect(companyLevelName(raw)?.personRemoved, raw).toBe(false);
  });

  it("SPEC §1 rule 7 a name that is only a person's is not loaded", () => {
    // ... and so is a trading name that carries the person's own name.
    for (const n of [
      "Mrs Jane Smith",
      "Dr Priya Raman",
      "MR D A J HODGE",
      "Andrew Burke",
      "J Smith",
      "Nirmalan Vinayagamoorthy T/A",
      "Mrs Jane Smith T/A Mrs Jane Smith",
      "Mr John",
      "JANE DOE-SMITH TRADING AS DOE'S DELI",
      "J. O'Brien, T/A O'Brien Plumbing",
      "Sam Jones (t/a Jones Joinery)",
    ])
      expect(companyLevelName(n), n).toBeNull();
    expect(looksLikePerson("Dr. Martens", "standalone")).toBe(false);
    expect(looksLikePerson("PINAL DAYA", "beforeTradingAs")).toBe(true);
    expect(looksLikePerson("PINAL DAYA", "standalone")).toBe(false); // a name outside the given-name lists, alone: kept (documented limit)
  });

  it("SPEC §1 rule 7 HMRC's two columns: a sole practitioner's name is replaced by the trading name", () => {
    expect(companyLevelNames("John Smith", "Riverside Lettings")).toEqual({ name: "Riverside Lettings", tradingName: null, personRemoved: true });
    expect(companyLevelNames("Mr John Smith", "John Smith Lettings")).toBeNull();
    expect(companyLevelNames("RAVI PATEL", "PATEL ACCOUNTANCY SERVICES")).toBeNull();
    expect(companyLevelNames("John Smith", "John Smith")).toBeNull();
    expect(companyLevelNames("John Smith", null)).toBeNull();
    expect(companyLevelNames("POST OFFICE LIMITED", "ABBERLEY")).toEqual({ name: "POST OFFICE LIMITED", tradingName: "ABBERLEY", personRemoved: false });
    expect(companyLevelNames("Mrs A Jones T/A Oak Estates", "Oak Estates")).toEqual({ name: "Oak Estates", tradingName: null, personRemoved: true });
    expect(companyLevelNames("Mrs A Jones T/A Jones Estates", "Jones Estates")).toBeNull();
  });
});
