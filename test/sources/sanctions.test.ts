import { SHARED_PRESENT } from "../support/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import {
  parseUkSanctionsFile,
  parseUkSanctionsListCsv,
  sanctionsDate,
  splitRegistrationNumbers,
  ukCompanyNumberOf,
  type SanctionsParse,
} from "../../src/sources/sanctions/parse";
import { RegisterFormatError } from "../../src/sources/format-error";
import type { SanctionsDesignation } from "../../src/services/sanctions/types";
import { OFSI_CONLIST_2025_04_10, conListAsUkslCsv } from "../support/ofsiConList";
import { xlsxOf } from "../support/xlsxSheet";

/**
 * UK sanctions list parsers (shared/formats/uk-sanctions.md).
 *
 * The real list is the OFSI ConList export of 10 April 2025 (../shared/data/uk-sanctions, served at
 * http://shared.test; an XLSX, the list retired on 28 January 2026). The service reads no XLSX (issue 30 §2), so the
 * test support reads the workbook and writes its rows as the UK Sanctions List CSV (test/support/ofsiConList.ts),
 * and the production CSV parser reads that: about 4,700 real designations through the code that reads the live list.
 * Every expected value below was read by hand from the workbook (sheet "Data").
 *
 * test/fixtures/sanctions/UK-Sanctions-List.csv is written for this repo in the 2026 UKSL CSV shape: the header
 * is the real one from the format note (with odd spacing added: " Unique ID", "Business registration number  (s) "),
 * the rows are taken from the ConList entries below but partly synthetic (the ship, the individual's D.O.B /
 * passport columns, the sanctions imposed).
 */
const bytesOf = async (url: string) => {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`missing ${url}`);
  return new Uint8Array(await r.arrayBuffer());
};
const byGroup = (p: SanctionsParse) => new Map(p.designations.map((d) => [d.ofsiGroupId, d]));
const byId = (p: SanctionsParse) => new Map(p.designations.map((d) => [d.id, d]));

describe.skipIf(!SHARED_PRESENT)("parseUkSanctionsListCsv on the real OFSI ConList (2025-04-10) written as the UKSL CSV", () => {
  let conlist: SanctionsParse;
  let groups: Map<string | null, SanctionsDesignation>;
  beforeAll(async () => {
    conlist = parseUkSanctionsListCsv(conListAsUkslCsv(await bytesOf(`http://shared.test/${OFSI_CONLIST_2025_04_10}`)));
    groups = byGroup(conlist);
  }, 60_000);

  it("reads the list date, every row, and one designation per Group ID", () => {
    expect(conlist.listDate).toBe("2025-04-10");
    expect(conlist.notes).toEqual({
      rows: 18_796,
      groups: 4_686,
      individual: 3_662,
      entity: 1_009,
      ship: 15,
      repeatedNames: 6_013, // the same name repeated once per address
      withRegistrationNumbers: 255,
      withUkCompanyNumbers: 1,
    });
    expect(conlist.designations).toHaveLength(4_686);
    expect(new Set(conlist.designations.map((d) => d.id)).size).toBe(4_686);
    expect(conlist.designations.every((d) => d.names.length > 0 && d.regimes.length > 0 && d.designatedOn && d.lastUpdated)).toBe(true);
    // Registration numbers are for entities only.
    expect(conlist.designations.filter((d) => d.kind !== "entity" && d.registrationNumbers.length)).toEqual([]);
    // Group 15878 (SAMOFAL) has no "(UK Sanctions List Ref)": the conversion gives it its group id as Unique ID.
    expect(groups.get("15878")).toMatchObject({
      id: "15878",
      ukslRef: "15878",
      names: [{ name: "Alexander SAMOFAL" }, { name: "Александр Самофал", nonLatin: true }],
    });
  });

  it("the UK Company no. case: BNK (UK) LTD (BEL0107, group 14124), names once each despite two addresses", () => {
    expect(groups.get("14124")).toEqual({
      id: "BEL0107",
      ukslRef: "BEL0107",
      ofsiGroupId: "14124",
      kind: "entity",
      names: [
        { name: "BNK (UK)", type: "alias", quality: null, nonLatin: false },
        { name: "BNK (UK) LIMITED", type: "alias", quality: null, nonLatin: false },
        { name: "BNK (UK) LTD", type: "primary", quality: null, nonLatin: false },
        { name: "BNK UK", type: "alias", quality: null, nonLatin: false },
        { name: "BNK UK LIMITED", type: "alias", quality: null, nonLatin: false },
        { name: "BNK UK LTD", type: "alias", quality: null, nonLatin: false },
      ],
      regimes: ["Belarus"],
      designatedOn: "2021-06-21",
      lastUpdated: "2022-03-18",
      registrationNumbers: ["UK Company no. 06527449"],
      ukCompanyNumbers: ["06527449"],
      countries: ["United Kingdom"],
      postcodes: ["W6 7BA", "SM2 5DA"],
      sanctions: ["Asset freeze"],
    });
    // The only designation with a UK company number.
    expect(conlist.designations.filter((d) => d.ukCompanyNumbers.length).map((d) => d.id)).toEqual(["BEL0107"]);
  });

  it("an entity with a business reg no: ZAPCHASTTRADE LLP (RUS2305), Cyrillic name, trust services", () => {
    expect(groups.get("16636")).toEqual({
      id: "RUS2305",
      ukslRef: "RUS2305",
      ofsiGroupId: "16636",
      kind: "entity",
      names: [
        { name: '"ZAPCHAST TRADE" LLP', type: "variation", quality: null, nonLatin: false },
        { name: '"ZAPCHASTRAYD" LLP', type: "variation", quality: null, nonLatin: false },
        { name: 'LLC "ZAPCHASTTRADE"', type: "variation", quality: null, nonLatin: false },
        { name: "ZAPCHASTTRADE LLP", type: "primary", quality: null, nonLatin: false },
        { name: "ТОО ЗАПЧАСТЬ ТРЕЙД", type: "primary", quality: null, nonLatin: true },
      ],
      regimes: ["Russia"],
      designatedOn: "2024-11-07",
      lastUpdated: "2025-01-09",
      registrationNumbers: ["Kazakhstan BIN - 170440031562"],
      ukCompanyNumbers: [],
      countries: ["Kazakhstan"],
      postcodes: [],
      sanctions: ["Asset freeze", "Trust services"],
    });
  });

  it("a transliterated Russian entity with LLC / OOO names: LLC IMPEX-DON (RUS2470), numbered INN/OGRN/KPP list", () => {
    expect(groups.get("16827")).toMatchObject({
      id: "RUS2470",
      kind: "entity",
      names: [
        { name: "LIMITED LIABILITY COMPANY IMPEX-DON", type: "variation", quality: null, nonLatin: false },
        { name: "LLC IMPEX-DON", type: "primary", quality: null, nonLatin: false },
        { name: "ООО ИМПЕКС-ДОН", type: "primary", quality: null, nonLatin: true },
        { name: 'OOO "IMPEKS-DON"', type: "variation", quality: null, nonLatin: false },
        { name: "ООО «ИМПЭКС-ДОН»", type: "variation", quality: null, nonLatin: true },
      ],
      registrationNumbers: ["Russia INN – 6167128827", "Russia OGRN – 1156196039152", "Russia KPP – 616601001", "Russia KPP - 930401001"],
      ukCompanyNumbers: [],
      countries: ["Ukraine"], // Torez City, "Donetsk Peoples Republic"
      postcodes: ["286600"],
      designatedOn: "2025-02-24",
    });
  });

  it("registration numbers outside the Business Reg No tag; a UK-registered company number not called UK stays out of ukCompanyNumbers", () => {
    expect(groups.get("15305")).toMatchObject({ id: "RUS1356", registrationNumbers: ["Registration ID: 1111832003018"] });
    expect(groups.get("7817")).toMatchObject({
      id: "IRQ0060",
      names: [
        { name: "TDG LTD.", type: "alias", quality: null, nonLatin: false },
        { name: "TECHNOLOGY AND DEVELOPMENT GROUP LIMITED", type: "primary", quality: null, nonLatin: false },
      ],
      registrationNumbers: ["Registered company number: 02150590"],
      ukCompanyNumbers: [],
      countries: ["United Kingdom"],
      postcodes: ["WC2A 1QU"],
      designatedOn: "2006-05-12", // UK Sanctions List Date Designated (Listed On is 02/07/2003)
    });
  });

  it("a group under two regimes keeps both, the earliest designation and the latest update (IRGC-QF, group 11241)", () => {
    expect(groups.get("11241")).toMatchObject({ id: "INU0082", regimes: ["Iran (Nuclear)", "Syria"], designatedOn: "2020-12-31", lastUpdated: "2022-05-13" });
  });

  it("an individual keeps names, ids, regime, dates and address country only (EL HABHAB, AQD0294)", () => {
    const d = groups.get("10753")!;
    expect(d).toEqual({
      id: "AQD0294",
      ukslRef: "AQD0294",
      ofsiGroupId: "10753",
      kind: "individual",
      names: [
        { name: "ABDELRAHMAN", type: "alias", quality: "good", nonLatin: false },
        { name: "Redouane EL HABHAB", type: "primary", quality: null, nonLatin: false },
      ],
      regimes: ["ISIL (Da'esh) and Al-Qaida"],
      designatedOn: "2008-11-12",
      lastUpdated: "2022-01-12",
      registrationNumbers: [],
      ukCompanyNumbers: [],
      countries: ["Germany"],
      postcodes: [], // kept for entities only
      sanctions: ["Asset freeze"],
    });
    // The file gives DOB 20/12/1969, passport 1005552350, ID card 1007850441, born Casablanca, Morocco, nationality
    // "(1) Germany. (2) Morocco", Kiel address: none of it is kept.
    const json = JSON.stringify(d);
    for (const s of ["1969", "1005552350", "1007850441", "Casablanca", "Morocco", "Kiel", "24143", "QDi.262"]) expect(json).not.toContain(s);
  });

  it("no individual anywhere carries a postcode or registration number", () => {
    const inds = conlist.designations.filter((d) => d.kind === "individual");
    expect(inds).toHaveLength(3_662);
    expect(inds.some((d) => d.postcodes.length || d.registrationNumbers.length)).toBe(false);
  });
});

describe("parseUkSanctionsListCsv (fixture in the 2026 UKSL CSV shape)", () => {
  let uksl: SanctionsParse;
  beforeAll(async () => {
    uksl = parseUkSanctionsListCsv(await bytesOf("http://files.test/sanctions/UK-Sanctions-List.csv"));
  });

  it("reads the Report Date, groups rows by Unique ID (multi-line quoted text kept inside its row)", () => {
    expect(uksl.listDate).toBe("2026-02-13");
    expect(uksl.notes).toEqual({ rows: 7, groups: 4, entity: 2, individual: 1, ship: 1, withRegistrationNumbers: 2, withUkCompanyNumbers: 1 });
    expect(uksl.designations.map((d) => d.id)).toEqual(["BEL0107", "RUS2444", "AQD0294", "RUS1900"]);
  });

  it("an entity with two names and a UK company number", () => {
    expect(byId(uksl).get("BEL0107")).toEqual({
      id: "BEL0107",
      ukslRef: "BEL0107",
      ofsiGroupId: "14124",
      kind: "entity",
      names: [
        { name: "BNK (UK) LTD", type: "primary", quality: null, nonLatin: false },
        { name: "BNK UK LIMITED", type: "alias", quality: null, nonLatin: false },
      ],
      regimes: ["Belarus"],
      designatedOn: "2021-06-21",
      lastUpdated: "2022-03-18",
      registrationNumbers: ["UK Company no. 06527449"],
      ukCompanyNumbers: ["06527449"],
      countries: ["United Kingdom"],
      postcodes: ["W6 7BA"],
      sanctions: ["Asset freeze"],
    });
  });

  it("a Russian entity: non-Latin name, numbered registration numbers, sanctions split on |", () => {
    expect(byId(uksl).get("RUS2444")).toMatchObject({
      names: [
        { name: "LLC GRANT-TRADE", type: "primary", quality: null, nonLatin: false },
        { name: "ООО ГРАНТ-ТРЕЙД", type: "primary", quality: null, nonLatin: true },
        { name: "OOO GRANT TREID", type: "variation", quality: null, nonLatin: false },
      ],
      registrationNumbers: ["INN – 7722779734", "OGRN – 1127746497328"],
      ukCompanyNumbers: [],
      sanctions: ["Asset freeze", "Trust services"],
      countries: ["Russia"],
      postcodes: ["109052"],
    });
  });

  it("an individual: alias strength read, no D.O.B / passport / nationality / position / postcode kept", () => {
    const d = byId(uksl).get("AQD0294")!;
    expect(d).toEqual({
      id: "AQD0294",
      ukslRef: "AQD0294",
      ofsiGroupId: "10753",
      kind: "individual",
      names: [
        { name: "Redouane EL HABHAB", type: "primary", quality: null, nonLatin: false },
        { name: "ABDELRAHMAN", type: "alias", quality: "good", nonLatin: false },
      ],
      regimes: ["ISIL (Da'esh) and Al-Qaida"],
      designatedOn: "2008-11-12",
      lastUpdated: "2022-01-12",
      registrationNumbers: [],
      ukCompanyNumbers: [],
      countries: ["Germany"],
      postcodes: [],
      sanctions: ["Asset freeze", "Travel Ban", "Arms Embargo"],
    });
    const json = JSON.stringify(d);
    for (const s of ["1969", "1005552350", "1007850441", "Morocco", "Casablanca", "Male", "Not known", "Kiel"]) expect(json).not.toContain(s);
  });

  it("a ship: no OFSI group id, no registration numbers", () => {
    expect(byId(uksl).get("RUS1900")).toMatchObject({
      kind: "ship",
      ofsiGroupId: null,
      names: [{ name: "SAMPLE TANKER", type: "primary", quality: null, nonLatin: false }],
      registrationNumbers: [],
      sanctions: ["Ship specification", "Port entry ban"],
      designatedOn: "2024-05-09",
    });
  });

  it("takes text as well as bytes, and parseUkSanctionsFile dispatches CSV bytes to it", async () => {
    const bytes = await bytesOf("http://files.test/sanctions/UK-Sanctions-List.csv");
    expect(parseUkSanctionsListCsv(new TextDecoder().decode(bytes))).toEqual(uksl);
    expect(parseUkSanctionsFile(bytes)).toEqual(uksl);
  });
});

describe("format errors and helpers", () => {
  it("throws RegisterFormatError for a file that is not the list", () => {
    const notList = ["", "<html><body>Service unavailable</body></html>", "a,b,c\n1,2,3\n", "Report Date: 13-Feb-2026\nfoo,bar\n"];
    for (const t of notList) {
      expect(() => parseUkSanctionsListCsv(t)).toThrow(RegisterFormatError);
      expect(() => parseUkSanctionsFile(strToU8(t))).toThrow(RegisterFormatError);
    }
  });

  it("a workbook (the retired OFSI list's XLSX, any zip, an .xls) is refused, saying it is no longer read and to give the CSV", () => {
    const conList = xlsxOf({
      Data: [
        ["Last Updated", "10/04/2025"],
        ["Name 6", "Group ID", "Group Type", "Alias Type", "Regime", "Other Information"],
        ["ACME TRADING LLC", "90001", "Entity", "Primary name", "Russia", "(UK Sanctions List Ref):RUS0001"],
      ],
    });
    for (const zip of [conList, zipSync({ "a.txt": strToU8("hello") })]) {
      expect(() => parseUkSanctionsFile(zip)).toThrow(RegisterFormatError);
      expect(() => parseUkSanctionsFile(zip)).toThrow(
        "UK sanctions list: this file is a zip (an XLSX or ODS workbook), not the CSV. The OFSI Consolidated List (XLSX), retired on 28 January 2026, is no longer read; give the FCDO UK Sanctions List as CSV (UK-Sanctions-List.csv, as SANCTIONS_LIST_URL serves it)",
      );
    }
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0)]);
    expect(() => parseUkSanctionsFile(xls)).toThrow(
      /^UK sanctions list: this file is an Excel workbook \(\.xls\), not the CSV\. Workbooks are not read; give the FCDO UK Sanctions List as CSV/,
    );
  });

  it("dates: dd/mm/yyyy, dd-Mon-yyyy, YYYY-MM-DD; nonsense → null", () => {
    expect(sanctionsDate("10/04/2025")).toBe("2025-04-10");
    expect(sanctionsDate("13-Feb-2026")).toBe("2026-02-13");
    expect(sanctionsDate("2025-04-10")).toBe("2025-04-10");
    expect(sanctionsDate("31/02/2025")).toBeNull();
    expect(sanctionsDate("")).toBeNull();
    expect(sanctionsDate(null)).toBeNull();
  });

  it("registration entries and UK company numbers", () => {
    expect(splitRegistrationNumbers("(1) OGRN: 1025403641900 (2) INN/TIN: 5408100018 (3)  KPP: 540801001")).toEqual([
      "OGRN: 1025403641900",
      "INN/TIN: 5408100018",
      "KPP: 540801001",
    ]);
    expect(splitRegistrationNumbers("OGRN: 1027807560186 \nINN: 7814027653")).toEqual(["OGRN: 1027807560186", "INN: 7814027653"]);
    expect(splitRegistrationNumbers("1037739635890 (Russia)")).toEqual(["1037739635890 (Russia)"]);
    expect(ukCompanyNumberOf("UK Company no. 06527449")).toBe("06527449");
    expect(ukCompanyNumberOf("Companies House number SC 12345")).toBe("SC012345");
    expect(ukCompanyNumberOf("United Kingdom company registration number 6527449")).toBe("06527449");
    expect(ukCompanyNumberOf("Registered company number: 02150590")).toBeNull(); // not said to be UK
    expect(ukCompanyNumberOf("Business Registration Number 14850239 (Estonia)")).toBeNull();
    expect(ukCompanyNumberOf("Russia OGRN – 1156196039152")).toBeNull();
  });
});
