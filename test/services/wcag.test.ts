import { describe, expect, it } from "vitest";
import { CLAIMED_ACT_RULES } from "../../src/services/web/accessibility/actRules";
import { criteriaOfTags, criterion, criterionOfTag, FIXES, fixFor, WCAG_CRITERIA } from "../../src/services/web/accessibility/wcag";

/**
 * The WCAG table the accessibility audit ties its findings to, axe-core's tags read into it, and the plain fixes.
 * That every rule axe-core runs with the audit's tags has a fix and a criterion is checked from Node by
 * scripts/act.mjs (axe-core cannot be loaded in workerd); here, the table itself and the tag reading.
 */

const sc = (tags: string[]) => criteriaOfTags(tags).map((x) => x.sc);

describe("WCAG 2.2 success criteria table", () => {
  it("holds the 87 criteria of WCAG 2.0, 2.1 and 2.2, each number once, levels and versions valid", () => {
    expect(WCAG_CRITERIA).toHaveLength(87);
    expect(new Set(WCAG_CRITERIA.map((x) => x.sc)).size).toBe(87);
    for (const x of WCAG_CRITERIA) {
      expect(x.sc).toMatch(/^[1-4]\.[1-5]\.\d{1,2}$/);
      expect(["A", "AA", "AAA"]).toContain(x.level);
      expect(["2.0", "2.1", "2.2"]).toContain(x.version);
      expect(x.name.trim()).toBe(x.name);
      expect(x.name.length).toBeGreaterThan(2);
    }
  });

  it("counts per version and level as WCAG publishes them (2.0: 61, 2.1: +17, 2.2: +9; 4.1.1 obsolete)", () => {
    const count = (f: (x: (typeof WCAG_CRITERIA)[number]) => boolean) => WCAG_CRITERIA.filter(f).length;
    expect(count((x) => x.version === "2.0")).toBe(61);
    expect(count((x) => x.version === "2.1")).toBe(17);
    expect(count((x) => x.version === "2.2")).toBe(9);
    // WCAG 2.2 proper (without 4.1.1): 31 A, 24 AA, 31 AAA.
    const current = WCAG_CRITERIA.filter((x) => !x.obsolete);
    expect(current).toHaveLength(86);
    expect(current.filter((x) => x.level === "A")).toHaveLength(31);
    expect(current.filter((x) => x.level === "AA")).toHaveLength(24);
    expect(current.filter((x) => x.level === "AAA")).toHaveLength(31);
    expect(WCAG_CRITERIA.filter((x) => x.obsolete).map((x) => x.sc)).toEqual(["4.1.1"]);
  });

  it("is in document order, principle by guideline by number", () => {
    const key = (s: string) => s.split(".").map(Number);
    for (let i = 1; i < WCAG_CRITERIA.length; i++) {
      const [a, b] = [key(WCAG_CRITERIA[i - 1].sc), key(WCAG_CRITERIA[i].sc)];
      expect(a[0] * 10_000 + a[1] * 100 + a[2]).toBeLessThan(b[0] * 10_000 + b[1] * 100 + b[2]);
    }
  });

  it("names and levels of criteria that are easy to get wrong", () => {
    expect(criterion("1.4.10")).toMatchObject({ name: "Reflow", level: "AA", version: "2.1" });
    expect(criterion("1.4.11")).toMatchObject({ name: "Non-text Contrast", level: "AA", version: "2.1" });
    expect(criterion("2.4.11")).toMatchObject({ name: "Focus Not Obscured (Minimum)", level: "AA", version: "2.2" });
    expect(criterion("2.4.13")).toMatchObject({ name: "Focus Appearance", level: "AAA", version: "2.2" });
    expect(criterion("2.5.8")).toMatchObject({ name: "Target Size (Minimum)", level: "AA", version: "2.2" });
    expect(criterion("2.5.5")).toMatchObject({ name: "Target Size (Enhanced)", level: "AAA", version: "2.1" });
    expect(criterion("3.2.6")).toMatchObject({ name: "Consistent Help", level: "A", version: "2.2" });
    expect(criterion("3.3.8")).toMatchObject({ name: "Accessible Authentication (Minimum)", level: "AA", version: "2.2" });
    expect(criterion("2.1.4")).toMatchObject({ name: "Character Key Shortcuts", level: "A", version: "2.1" });
    expect(criterion("1.3.1")).toMatchObject({ name: "Info and Relationships", level: "A" });
    expect(criterion("4.1.2")).toMatchObject({ name: "Name, Role, Value", level: "A", version: "2.0" });
    expect(criterion("4.1.1")).toMatchObject({ name: "Parsing", obsolete: true });
    expect(criterion("2.4.14")).toBeUndefined();
  });
});

describe("axe-core tags to success criteria", () => {
  it("reads the multi-digit criterion numbers: 1.4.10, 1.4.11, 1.4.12, 2.4.11, 2.5.8, 4.1.2", () => {
    expect(criterionOfTag("wcag1410")?.sc).toBe("1.4.10");
    expect(criterionOfTag("wcag1411")?.sc).toBe("1.4.11");
    expect(criterionOfTag("wcag1412")?.sc).toBe("1.4.12");
    expect(criterionOfTag("wcag2411")?.sc).toBe("2.4.11");
    expect(criterionOfTag("wcag258")?.sc).toBe("2.5.8");
    expect(criterionOfTag("wcag412")?.sc).toBe("4.1.2");
    expect(criterionOfTag("wcag111")).toMatchObject({ sc: "1.1.1", name: "Non-text Content", level: "A" });
    expect(criterionOfTag("wcag141")?.sc).toBe("1.4.1");
    expect(criterionOfTag("WCAG143")?.sc).toBe("1.4.3");
  });

  it("ignores conformance-level tags, other standards' tags and numbers WCAG does not have", () => {
    for (const t of [
      "wcag2a",
      "wcag2aa",
      "wcag21a",
      "wcag21aa",
      "wcag22aa",
      "wcag2aaa",
      "best-practice",
      "cat.aria",
      "EN-9.4.1.2",
      "TT5.c",
      "ACT",
      "wcag199",
      "wcag61",
      "wcag1414",
      "wcag",
    ]) {
      expect(criterionOfTag(t)).toBeUndefined();
    }
  });

  it("a rule's tags give its criteria in table order, each once", () => {
    // axe-core 4.11.0 tags of real rules.
    expect(sc(["cat.text-alternatives", "wcag2a", "wcag244", "wcag412", "section508", "TTv5", "EN-301-549", "EN-9.2.4.4", "ACT"])).toEqual(["2.4.4", "4.1.2"]);
    expect(sc(["cat.color", "wcag2aa", "wcag143", "TTv5", "TT13.c", "EN-301-549", "EN-9.1.4.3", "ACT"])).toEqual(["1.4.3"]);
    expect(sc(["cat.sensory-and-visual-cues", "wcag22aa", "wcag258"])).toEqual(["2.5.8"]);
    expect(sc(["cat.structure", "wcag21aa", "wcag1412", "EN-301-549", "EN-9.1.4.12"])).toEqual(["1.4.12"]);
    expect(sc(["cat.keyboard", "wcag2a", "wcag211", "wcag213", "TTv5", "TT4.a", "EN-301-549", "EN-9.2.1.1", "EN-9.2.1.3"])).toEqual(["2.1.1", "2.1.3"]);
    expect(sc(["wcag412", "wcag131", "wcag412"])).toEqual(["1.3.1", "4.1.2"]);
    expect(sc(["best-practice", "cat.semantics"])).toEqual([]);
  });
});

describe("plain fixes", () => {
  it("one or two plain sentences per rule", () => {
    expect(Object.keys(FIXES).length).toBeGreaterThanOrEqual(69);
    for (const [rule, fix] of Object.entries(FIXES)) {
      expect(rule).toMatch(/^[a-z0-9-]+$/);
      expect(fix, rule).toMatch(/^[A-Z].*\.$/s);
      expect(fix.length, rule).toBeLessThan(260);
      expect(fix.split(/\.\s+(?=[A-Z])/).length, rule).toBeLessThanOrEqual(2);
    }
  });

  it("covers the rules that the claimed ACT rules rely on", () => {
    for (const claim of CLAIMED_ACT_RULES) for (const rule of claim.axeRules) expect(Object.hasOwn(FIXES, rule), `${claim.act} ${rule}`).toBe(true);
  });

  it("falls back to axe's own help text for a rule it does not know", () => {
    expect(fixFor("image-alt", "Images must have alternative text")).toBe(FIXES["image-alt"]);
    expect(fixFor("some-future-rule", "Things must be accessible")).toBe("Things must be accessible");
    expect(fixFor("toString", "help")).toBe("help");
  });
});

describe("claimed ACT rules", () => {
  it("each once, with an ACT id, a name and the axe rules that implement it", () => {
    expect(new Set(CLAIMED_ACT_RULES.map((x) => x.act)).size).toBe(CLAIMED_ACT_RULES.length);
    for (const x of CLAIMED_ACT_RULES) {
      expect(x.act).toMatch(/^[0-9a-z]{6}$/);
      expect(x.name.length).toBeGreaterThan(5);
      expect(x.axeRules.length).toBeGreaterThan(0);
    }
  });
});
