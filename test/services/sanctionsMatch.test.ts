import { SHARED_PRESENT } from "../support/shared";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildSanctionsIndex,
  findByRegistrationNumber,
  matchCompany,
  noDefiniteMatchSentence,
  normaliseSanctionsName,
  SANCTIONS_NOT_A_CLEARANCE,
} from "../../src/services/sanctions/match";
import type { SanctionsDesignation, SanctionsName } from "../../src/services/sanctions/types";
import { parseUkSanctionsListCsv } from "../../src/sources/sanctions/parse";
import { OFSI_CONLIST_2025_04_10, conListAsUkslCsv } from "../support/ofsiConList";
import { cpuNow } from "../support/cpuClock";

const n = (name: string, type: SanctionsName["type"] = "primary", nonLatin = false): SanctionsName => ({ name, type, quality: null, nonLatin });

function designation(p: Partial<SanctionsDesignation> & Pick<SanctionsDesignation, "id" | "names">): SanctionsDesignation {
  return {
    ukslRef: p.id,
    ofsiGroupId: null,
    kind: "entity",
    regimes: ["Russia"],
    designatedOn: null,
    lastUpdated: null,
    registrationNumbers: [],
    ukCompanyNumbers: [],
    countries: [],
    postcodes: [],
    sanctions: ["Asset freeze"],
    ...p,
  };
}

// Names, numbers, countries and postcodes below are copied from the real OFSI consolidated list of 2025-04-10
// (shared/data/uk-sanctions/ofsi-conlist_2025-04-10.xlsx); only the designations' shape is simplified. The last
// describe checks the copies against that list and matches against the whole of it.
const BNK = designation({
  id: "BEL0107",
  ofsiGroupId: "14124",
  regimes: ["Belarus"],
  names: [
    n("BNK (UK) LTD"),
    n("BNK (UK)", "alias"),
    n("BNK (UK) LIMITED", "alias"),
    n("BNK UK", "alias"),
    n("BNK UK LIMITED", "alias"),
    n("BNK UK LTD", "alias"),
  ],
  registrationNumbers: ["UK Company no. 06527449"],
  ukCompanyNumbers: ["06527449"],
  countries: ["United Kingdom", "United Kingdom"],
  postcodes: ["W6 7BA", "SM2 5DA"],
});
const PHOTON = designation({
  id: "RUS1116",
  ofsiGroupId: "15065",
  names: [n("PHOTON PRO LLP"), n("FOTON PRO", "variation")],
  registrationNumbers: ["OC425116"],
  ukCompanyNumbers: [],
  countries: ["United Kingdom"],
  postcodes: ["EC1Y 1AA"],
});
const CURZON = designation({
  id: "RUS1826",
  ofsiGroupId: "15883",
  names: [n("CURZON SQUARE LIMITED")],
  registrationNumbers: ["5742647"],
  countries: ["United Kingdom"],
  postcodes: ["W1J 7FW"],
});
const TECH_DEV = designation({
  id: "IRQ0060",
  ofsiGroupId: "7817",
  regimes: ["Iraq"],
  names: [n("TECHNOLOGY AND DEVELOPMENT GROUP LIMITED"), n("TDG LTD.", "alias")],
  countries: ["United Kingdom"],
  postcodes: ["WC2A 1QU"],
});
const INTERVESP = designation({
  id: "RUS2440",
  ofsiGroupId: "16804",
  names: [
    n("LLC INTERVESP"),
    n("ООО «ИНТЕРВЕСП»", "primary", true),
    n("COMPANY INTERVESP", "variation"),
    n('LIMITED LIABILITY COMPANY "COMPANY INTERVESP"', "variation"),
    n("LIMITED LIABILITY COMPANY INTERVESP COMPANY", "variation"),
    n("OBSHCHESTVO S OGRANICHENNOI OTVETSTVENNOSTYU KOMPANIYA INTERVESP", "variation"),
  ],
  registrationNumbers: ["(1) INN: 9723038796 (2) OGRN: 5177746268530"],
  countries: ["Russia"],
});
const ZENIT = designation({
  id: "RUS2241",
  ofsiGroupId: "16634",
  names: [n("OOO ZENIT FINANCE"), n('LIMITED LIABILITY COMPANY "ZENITH FINANCE"', "variation"), n("LIMITED LIABILITY COMPANY ZENIT FINANS", "variation")],
  registrationNumbers: ["1187746040910"],
  countries: ["Russia"],
  postcodes: ["117638"],
});
const SALYUT = designation({
  id: "RUS2416",
  ofsiGroupId: "16767",
  names: [
    n("JOINT-STOCK COMPANY SCIENTIFIC AND PRODUCTION ENTERPRISE SALYUT"),
    n("AO NPP SALYUT", "variation"),
    n("JSC NPP SALYUT", "variation"),
    n('OPEN JOINT-STOCK COMPANY "SCIENTIFIC AND PRODUCTION ENTERPRISE "SALYUT"', "variation"),
    n("NPP SALUT", "variation"),
  ],
  countries: ["Russia"],
  postcodes: ["(1) 603950 (2) 603107"],
});
// Hand-made entries (not on the list) for the legal-form and generic-name rules, given a UK address.
const ROMASHKA = designation({
  id: "TST0001",
  names: [n("OOO «ROMASHKA HOLDINGS»"), n("ООО «РОМАШКА ХОЛДИНГС»", "primary", true)],
  countries: ["United Kingdom"],
  postcodes: ["EC1A 1BB"],
});
const GENERIC = designation({
  id: "TST0002",
  names: [n("GLOBAL TRADING LLC"), n("INVESTMENTS LIMITED", "alias"), n("EVRAZ PLC", "alias")],
  countries: ["United Kingdom"],
});
// A real individual's name (OFSI group 15672, GHR0086) and a company given the same name.
const MITHOO = designation({
  id: "GHR0086",
  ofsiGroupId: "15672",
  kind: "individual",
  regimes: ["Global Human Rights"],
  names: [n("Mian MITHOO", "variation"), n("Mian Abdul HAQ")],
  countries: ["United Kingdom"],
});

const index = buildSanctionsIndex([BNK, PHOTON, CURZON, TECH_DEV, INTERVESP, ZENIT, SALYUT, ROMASHKA, GENERIC, MITHOO]);
const ids = (r: { definite: { id: string }[] }) => r.definite.map((m) => m.id);

describe("SPEC §1 rule 6: definite sanctions matches by company number", () => {
  it("matches on the listed UK company number, whatever the name", () => {
    const r = matchCompany(index, { name: "Something Else Entirely Ltd", number: "6527449" });
    expect(r.definite).toHaveLength(1);
    expect(r.definite[0]).toMatchObject({
      id: "BEL0107",
      ukslRef: "BEL0107",
      ofsiGroupId: "14124",
      regimes: ["Belarus"],
      kind: "entity",
      matchedName: "BNK (UK) LTD",
      nameType: "primary",
    });
    expect(r.definite[0].reasons).toEqual(["same UK company number 06527449"]);
  });

  it("matches on a listed registration number that normalises to a UK company number", () => {
    expect(matchCompany(index, { name: "X", number: "OC425116" }).definite[0].reasons).toEqual([
      'listed registration number "OC425116" is UK company number OC425116',
    ]);
    expect(ids(matchCompany(index, { name: "X", number: "05742647" }))).toEqual(["RUS1826"]);
    expect(findByRegistrationNumber(index, "oc 425116").map((d) => d.id)).toEqual(["RUS1116"]);
  });

  it("never takes a foreign registration number (OGRN, INN) for a UK company number", () => {
    expect(index.byNumber.size).toBe(3);
    expect(matchCompany(index, { name: "X", number: "12345678" }).definite).toEqual([]);
  });
});

describe("SPEC §1 rule 6: definite only on an identical name with a corroborating fact", () => {
  it("matches an identical name with a UK address on the list", () => {
    const r = matchCompany(index, { name: "BNK (UK) LIMITED", number: null });
    expect(ids(r)).toEqual(["BEL0107"]);
    expect(r.definite[0].reasons).toEqual([
      expect.stringMatching(/^name ".+" identical to the listed name "BNK \(UK\) LTD" after normalisation$/),
      "address country United Kingdom matches",
    ]);
    const t = matchCompany(index, { name: "Technology and Development Group Limited", country: "England", postcode: "wc2a1qu" });
    expect(t.definite[0].reasons).toEqual([
      expect.stringMatching(/^name ".+" identical to the listed name ".+" after normalisation$/),
      "address country United Kingdom matches",
      "same postcode WC2A 1QU",
    ]);
  });

  it("matches on a previous name and says so", () => {
    const r = matchCompany(index, { name: "Brand New Name Ltd", previousNames: ["PHOTON PRO LLP"] });
    expect(ids(r)).toEqual(["RUS1116"]);
    expect(r.definite[0].reasons[0]).toBe('previous name "PHOTON PRO LLP" identical to the listed name "PHOTON PRO LLP" after normalisation');
  });

  it("does not match the same name without a corroborating fact", () => {
    // The company is not in the UK and the list gives no postcode it shares.
    expect(matchCompany(index, { name: "BNK (UK) LTD", country: "France" }).definite).toEqual([]);
  });

  it("does not match when the list's countries contradict (Russia vs a UK company)", () => {
    expect(matchCompany(index, { name: "Company Intervesp LLC" }).definite).toEqual([]);
    expect(matchCompany(index, { name: "Zenit Finance Ltd", country: "United Kingdom" }).definite).toEqual([]);
    // Even a shared postcode does not outweigh the contradiction.
    expect(matchCompany(index, { name: "NPP Salyut JSC", postcode: "603950" }).definite).toEqual([]);
    // The same names do match a company in the listed country.
    expect(ids(matchCompany(index, { name: "Company Intervesp LLC", country: "Russian Federation" }))).toEqual(["RUS2440"]);
    expect(ids(matchCompany(index, { name: "NPP Salyut JSC", country: "Russia" }))).toEqual(["RUS2416"]);
  });

  it("does not match when the list gives a different UK company number", () => {
    expect(matchCompany(index, { name: "BNK UK Limited", number: "01234567" }).definite).toEqual([]);
    expect(ids(matchCompany(index, { name: "BNK UK Limited", number: "06527449" }))).toEqual(["BEL0107"]);
  });
});

describe("SPEC §1 rule 6: legal forms and transliterations are unified, but only match with corroboration", () => {
  it('normalises OOO «X», OOO "X", X LLC, X Ltd and Obshchestvo s Ogranichennoi Otvetstvennostyu X alike', () => {
    const key = normaliseSanctionsName("Romashka LLC").key;
    expect(key).toBe("romashka llc");
    for (const v of [
      'OOO "ROMASHKA"',
      "OOO «Romashka»",
      "Romashka Limited",
      "Limited Liability Company Romashka",
      "Obshchestvo s Ogranichennoi Otvetstvennostyu Romashka",
      "ROMASHKA L.L.C.",
      "ООО Romashka",
    ]) {
      expect(normaliseSanctionsName(v).key, v).toBe(key);
    }
    for (const v of [
      "AO NPP SALYUT",
      "JSC NPP SALYUT",
      "NPP SALYUT PJSC",
      "Open Joint-Stock Company NPP Salyut",
      "ZAO NPP Salyut",
      "Aktsionernoe Obshchestvo NPP Salyut",
    ]) {
      expect(normaliseSanctionsName(v).key, v).toBe("npp salyut jsc");
    }
    expect(normaliseSanctionsName("MONOLINK GROUP - FZCO").key).toBe("monolink group fzco");
    expect(normaliseSanctionsName("T.M.G. ENGINEERING LIMITED").key).toBe("tmg engineering llc");
  });

  it("matches OOO «X» on the list to X Ltd / X LLC in the UK only with a corroborating fact", () => {
    for (const name of ["Romashka Holdings Ltd", "ROMASHKA HOLDINGS LLC", 'OOO "Romashka Holdings"']) {
      expect(ids(matchCompany(index, { name })), name).toEqual(["TST0001"]);
      expect(matchCompany(index, { name, country: "Germany" }).definite, name).toEqual([]);
    }
    // Postcode alone corroborates too (spaces and case ignored).
    const r = matchCompany(index, { name: "Romashka Holdings Limited", postcode: "ec1a 1bb" });
    expect(r.definite[0].reasons).toContain("same postcode EC1A 1BB");
    // A different legal form (a joint-stock company) is a different name.
    expect(matchCompany(index, { name: "Romashka Holdings JSC" }).definite).toEqual([]);
  });

  it("matches a non-Latin name only exactly", () => {
    expect(ids(matchCompany(index, { name: "ООО «РОМАШКА ХОЛДИНГС»" }))).toEqual(["TST0001"]);
    expect(matchCompany(index, { name: "ООО «РОМАШКА ХОЛДИНГ»" }).definite).toEqual([]);
  });
});

describe("SPEC §1 rule 6: never a match on weak names", () => {
  it("never matches names of common words only, or too short to identify anyone, by name", () => {
    for (const name of ["Global Trading LLC", "GLOBAL TRADING LIMITED", "Investments Limited", "AB Ltd"]) {
      expect(matchCompany(index, { name, postcode: "W1H 6DU" }).definite, name).toEqual([]);
    }
    expect(index.byName.has("global trading llc")).toBe(false);
  });

  it("one distinctive word is a name, but still needs its corroborating fact", () => {
    // "LLC INTERVESP" is on the list with an address in Russia: a UK company of that name is not it.
    expect(matchCompany(index, { name: "Intervesp Ltd" }).definite).toEqual([]);
    expect(matchCompany(index, { name: "Intervesp LLC", country: "Russia" }).definite.map((m) => m.id)).toHaveLength(1);
    // "EVRAZ PLC" (listed here with a UK address): the identical name of a UK company corroborated by its country.
    expect(matchCompany(index, { name: "Evraz plc" }).definite.map((m) => m.id)).toEqual(["TST0002"]);
  });

  it("never matches a company to an individual of the same name", () => {
    expect(matchCompany(index, { name: "Mian Abdul Haq Ltd" }).definite).toEqual([]);
    expect(matchCompany(index, { name: "MIAN MITHOO" }).definite).toEqual([]);
    expect(index.individualsByName.has("mian mithoo")).toBe(true);
  });

  it("never matches near misses: one letter different, an extra word, a missing word", () => {
    for (const name of [
      "BNK (UK) LTDS",
      "BNKK UK LTD",
      "BNK UK TRADING LTD",
      "PHOTON PROS LLP",
      "Curzon Square Two Limited",
      "Curzon Limited",
      "Technology Development Limited",
    ]) {
      expect(matchCompany(index, { name, country: "United Kingdom" }).definite, name).toEqual([]);
    }
  });
});

describe("SPEC §1 rule 6: no match is never a clearance", () => {
  it("says so in the sentence", () => {
    expect(noDefiniteMatchSentence("2025-04-10")).toBe("No definite match on the UK sanctions list (list of 2025-04-10); this is not a clearance.");
    expect(noDefiniteMatchSentence(null)).toContain(SANCTIONS_NOT_A_CLEARANCE);
  });
});

describe("SPEC §1 rule 6: speed", () => {
  it("matches 10,000 companies against an 18,000-name index quickly", () => {
    const many: SanctionsDesignation[] = [];
    for (let i = 0; i < 6000; i++) {
      many.push(
        designation({
          id: `SYN${i}`,
          names: [n(`Synthetic Entity ${i} LLC`), n(`OOO Sintetika ${i}`, "variation"), n(`Synth ${i} Holdings JSC`, "alias")],
          countries: [i % 2 ? "Russia" : "United Kingdom"],
          postcodes: [`E${i % 20} ${i % 9}AA`],
          ukCompanyNumbers: i % 10 ? [] : [String(10000000 + i)],
        }),
      );
    }
    const big = buildSanctionsIndex(many);
    expect(big.size.names).toBe(18000);
    let hits = 0;
    const t0 = cpuNow();
    for (let i = 0; i < 10000; i++) {
      hits += matchCompany(big, {
        name: `Synthetic Entity ${i % 7000} Limited`,
        number: String(20000000 + i),
        previousNames: [`Other Name ${i} Ltd`],
        postcode: "E1 1AA",
      }).definite.length;
    }
    const ms = cpuNow() - t0;
    expect(hits).toBeGreaterThan(0);
    // 10,000 matches take well under 5 s of CPU.
    expect(ms).toBeLessThan(5000);
  });
});

describe.skipIf(!SHARED_PRESENT)("SPEC §1 rule 6 against the whole real list (OFSI, 2025-04-10, read as the UK Sanctions List CSV)", () => {
  let real: Map<string, SanctionsDesignation>;
  let whole: ReturnType<typeof buildSanctionsIndex>;
  beforeAll(async () => {
    const xlsx = new Uint8Array(await (await fetch(`http://shared.test/${OFSI_CONLIST_2025_04_10}`)).arrayBuffer());
    const list = parseUkSanctionsListCsv(conListAsUkslCsv(xlsx));
    real = new Map(list.designations.map((d) => [d.id, d]));
    whole = buildSanctionsIndex(list.designations);
  }, 60_000);

  it("the designations copied above are on the list as copied", () => {
    for (const copy of [BNK, PHOTON, CURZON, TECH_DEV, INTERVESP, ZENIT, SALYUT, MITHOO]) {
      const d = real.get(copy.id)!;
      expect({ id: d?.id, group: d?.ofsiGroupId, kind: d?.kind, regimes: d?.regimes }, copy.id).toEqual({
        id: copy.id,
        group: copy.ofsiGroupId,
        kind: copy.kind,
        regimes: copy.regimes,
      });
      expect(
        d.names.map((x) => x.name),
        copy.id,
      ).toEqual(expect.arrayContaining(copy.names.map((x) => x.name)));
      if (copy.kind !== "entity") continue; // MITHOO's UK address is made up (the list gives Pakistan)
      expect(new Set(d.countries), copy.id).toEqual(new Set(copy.countries));
      expect(d.postcodes, copy.id).toEqual(expect.arrayContaining(copy.postcodes));
      expect(d.ukCompanyNumbers, copy.id).toEqual(copy.ukCompanyNumbers);
    }
  });

  it("definite matches by number and by name with corroboration, among 4,686 designations", () => {
    expect(whole.size.designations).toBe(4_686);
    const on = (c: Parameters<typeof matchCompany>[1]) => ids(matchCompany(whole, c));
    expect(on({ name: "Something Else Entirely Ltd", number: "6527449" })).toEqual(["BEL0107"]);
    expect(on({ name: "X", number: "OC425116" })).toEqual(["RUS1116"]);
    expect(on({ name: "X", number: "05742647" })).toEqual(["RUS1826"]);
    expect(on({ name: "BNK (UK) LIMITED" })).toEqual(["BEL0107"]);
    expect(on({ name: "Technology and Development Group Limited", country: "England", postcode: "wc2a1qu" })).toEqual(["IRQ0060"]);
    expect(on({ name: "Company Intervesp LLC" })).toEqual([]);
    expect(on({ name: "Company Intervesp LLC", country: "Russian Federation" })).toEqual(["RUS2440"]);
  });

  it("no match for a company named as a listed individual, near misses, or made-up names", () => {
    const none = (c: Parameters<typeof matchCompany>[1]) => expect(matchCompany(whole, c).definite, c.name).toEqual([]);
    none({ name: "Mian Abdul Haq Ltd" });
    none({ name: "Redouane El Habhab Limited", country: "Germany" });
    for (const name of ["BNK (UK) LTDS", "PHOTON PROS LLP", "Curzon Square Two Limited", "Global Trading LLC", "Investments Limited"])
      none({ name, country: "United Kingdom" });
    for (let i = 0; i < 500; i++) none({ name: `Brightwater Analytics ${i} Ltd`, number: String(10_000_000 + i), postcode: "W6 7BA" });
  });
});
