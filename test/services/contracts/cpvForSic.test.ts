import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { CPV_NAMES, SIC_KEYS, cpvForSic, cpvForSicCodes, cpvPrefix } from "../../../src/services/contracts/cpvForSic";

/**
 * Issue 18 §2 tender-match: our own SIC 2007 → CPV mapping. On the real Companies House condensed SIC list (../shared,
 * skipped without it): every code a company may choose maps to at least one CPV prefix, in all 21 sections, except
 * the non-trading and dormant codes; then the refinements the issue names.
 */

/** SIC 2007 sections by division (ONS): the first division of each section. */
const SECTION_STARTS: [string, number][] = [
  ["A", 1],
  ["B", 5],
  ["C", 10],
  ["D", 35],
  ["E", 36],
  ["F", 41],
  ["G", 45],
  ["H", 49],
  ["I", 55],
  ["J", 58],
  ["K", 64],
  ["L", 68],
  ["M", 69],
  ["N", 77],
  ["O", 84],
  ["P", 85],
  ["Q", 86],
  ["R", 90],
  ["S", 94],
  ["T", 97],
  ["U", 99],
];
const sectionOf = (code: string) => [...SECTION_STARTS].reverse().find(([, d]) => Number(code.slice(0, 2)) >= d)![0];

describe("issue 18 §2 SIC → CPV", () => {
  it.skipIf(!SHARED_PRESENT)(
    "real data: every code of Companies House's SIC list maps to CPV, in all 21 sections; 74990 and 99999 map to nothing",
    async () => {
      const csv = await (await fetch("http://shared.test/data/sic-2007/SIC07_CH_condensed_list_en.csv")).text();
      const codes = csv
        .split(/\r?\n/)
        .slice(1)
        .map((l) => l.split(",")[0].trim())
        .filter((c) => /^\d{5}$/.test(c));
      expect(codes.length).toBeGreaterThan(700);
      const unmapped = codes.filter((c) => !cpvForSic(c).length);
      expect(unmapped).toEqual(["74990", "99999"]);
      const sections = new Set(codes.filter((c) => cpvForSic(c).length).map(sectionOf));
      expect([...sections].sort()).toEqual(SECTION_STARTS.map(([s]) => s));
      for (const c of codes)
        for (const t of cpvForSic(c)) {
          expect(t.prefix, c).toMatch(/^\d{2,8}$/);
          expect(t.code.startsWith(t.prefix), c).toBe(true);
          expect(t.description, c).toBeTruthy();
          expect(t.reason, c).toMatch(/^SIC (division|group|class|subclass) \d+: /);
        }
    },
  );

  it("every key of the mapping is a SIC prefix and every CPV it names has its CPV 2008 name", () => {
    for (const k of SIC_KEYS) expect(k).toMatch(/^\d{2,5}$/);
    for (const [code, name] of Object.entries(CPV_NAMES)) {
      expect(code).toMatch(/^\d{8}$/);
      expect(name.length).toBeGreaterThan(3);
    }
  });

  it("the longest key decides: 62012 software → IT services and software packages; 69102 → legal; 69201 → accounting; 43320 → joinery", () => {
    expect(cpvForSic("62012").map((t) => [t.prefix, t.description])).toEqual([
      ["722", "Software programming and consultancy services"],
      ["48", "Software package and information systems"],
      ["72", "IT services: consulting, software development, Internet and support"],
    ]);
    expect(cpvForSic("62012")[0].reason).toBe("SIC class 6201: computer programming: software programming services and software packages");
    expect(cpvForSic("69102").map((t) => t.code)).toEqual(["79100000"]);
    expect(cpvForSic("69201").map((t) => t.code)).toEqual(["79200000"]);
    expect(cpvForSic("43320").map((t) => t.code)).toEqual(["45400000", "45420000"]);
    expect(cpvForSic("43999").map((t) => t.code)).toEqual(["45260000"]);
    expect(cpvForSic("86101").map((t) => t.code)).toEqual(["85110000"]);
    expect(cpvForSic("87100").map((t) => t.code)).toEqual(["85311000", "85300000"]);
    expect(cpvForSic("81210").map((t) => t.code)).toEqual(["90910000", "90900000"]);
    expect(cpvForSic("81300").map((t) => t.code)).toEqual(["77310000", "77300000"]);
    expect(cpvForSic("56290").map((t) => t.code)).toEqual(["55520000", "55500000"]);
    expect(cpvForSic("85200").map((t) => t.code)).toEqual(["80100000"]);
    expect(cpvForSic("73110").map((t) => t.code)).toEqual(["79340000"]);
    expect(cpvForSic("78200").map((t) => t.code)).toEqual(["79620000"]);
    expect(cpvForSic("49320").map((t) => t.code)).toEqual(["60120000"]);
    expect(cpvForSic("98000").map((t) => t.code)).toEqual(["70330000"]);
  });

  it("a company's codes: each prefix once, from the first code that gives it; non-trading codes add nothing; unknown codes nothing", () => {
    const t = cpvForSicCodes(["62020", "62012", "99999", "00000"]);
    expect(t.map((x) => [x.prefix, x.fromSic])).toEqual([
      ["722", "62020"],
      ["726", "62020"],
      ["72", "62020"],
      ["48", "62012"],
    ]);
    expect(cpvForSicCodes([])).toEqual([]);
  });

  it("cpvPrefix: the code less its trailing zeros, never shorter than the division", () => {
    expect(cpvPrefix("72000000")).toBe("72");
    expect(cpvPrefix("79340000")).toBe("7934");
    expect(cpvPrefix("45331000")).toBe("45331");
    expect(cpvPrefix("03100000")).toBe("031");
    expect(cpvPrefix("30000000")).toBe("30");
    expect(cpvPrefix("72300000-6")).toBe("723");
  });
});
