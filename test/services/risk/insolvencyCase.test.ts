import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { InsolvencyCase } from "../../../src/services/companies/records";
import { CASE_PROCEDURE, INSOLVENCY_CASE_RULE, LOOKBACK_YEARS, gradeInsolvencyCase, procedureOf } from "../../../src/services/risk/distress";
import { parseInsolvency } from "../../../src/sources/companies-house/parse";

/**
 * SPEC §4.8 distress-signals, issue 28 §3: an insolvency case is graded by whether it is open, how it ended and how
 * long ago (INSOLVENCY_CASE_RULE). Case and date types are Companies House's (constants.yml insolvency_case_type and
 * insolvency_case_date_type); the real ones are read from ../shared when it is present.
 */

const TODAY = "2026-11-28";

type D = [type: string, date: string];
const kase = (
  type: string,
  dates: D[],
  opts: { number?: string; practitioners?: { appointedOn?: string; ceasedToActOn?: string | null }[] } = {},
): InsolvencyCase => ({
  number: opts.number ?? "1",
  type,
  dates: dates.map(([t, d]) => ({ type: t, date: d })),
  practitioners: (opts.practitioners ?? []).map((p) => ({
    name: "A Practitioner",
    role: "practitioner",
    appointedOn: p.appointedOn ?? null,
    ceasedToActOn: p.ceasedToActOn ?? null,
  })),
  notes: [],
});
const grade = (c: InsolvencyCase, companyStatus: string, opts: { others?: InsolvencyCase[]; ceasedOn?: string | null; today?: string } = {}) =>
  gradeInsolvencyCase(c, { cases: [c, ...(opts.others ?? [])], companyStatus, companyCeasedOn: opts.ceasedOn ?? null, today: opts.today ?? TODAY });

describe("SPEC §4.8 distress-signals: an open insolvency case (issue 28 §3)", () => {
  it.each([
    [
      "compulsory-liquidation",
      [
        ["petitioned-on", "2026-05-11"],
        ["wound-up-on", "2026-07-02"],
      ],
      "liquidation",
      "high",
    ],
    ["creditors-voluntary-liquidation", [["wound-up-on", "2026-03-02"]], "liquidation", "high"],
    [
      "members-voluntary-liquidation",
      [
        ["declaration-solvent-on", "2026-01-05"],
        ["wound-up-on", "2026-01-12"],
      ],
      "liquidation",
      "low",
    ],
    ["in-administration", [["administration-started-on", "2026-04-01"]], "administration", "high"],
    ["administration-order", [["administration-started-on", "2025-02-01"]], "administration", "high"],
    ["corporate-voluntary-arrangement", [["voluntary-arrangement-started-on", "2024-06-10"]], "voluntary-arrangement", "high"],
    ["order-of-court-restructuring-plan", [["instrumented-on", "2026-02-20"]], "active", "high"],
    ["corporate-voluntary-arrangement-moratorium", [["moratorium-started-on", "2026-10-01"]], "active", "medium"],
    ["liquidation-moratorium-commencement-of-moratorium", [["moratorium-started-on", "2026-10-01"]], "active", "medium"],
    ["foreign-insolvency", [], "active", "high"],
    ["a-type-not-yet-known", [["petitioned-on", "2026-09-01"]], "active", "high"],
  ] as [string, D[], string, string][])("%s with no end on record (company %s): %s", (type, dates, status, severity) => {
    const g = grade(kase(type, dates), status);
    expect(g).toMatchObject({ state: "open", outcome: "in-progress", endedOn: null, yearsSinceEnd: null, severity });
    expect(g.reading).toContain("no end");
  });

  it("a receivership is open while a receiver still acts, ended once every one has ceased to act", () => {
    const open = grade(
      kase("administrative-receiver", [["instrumented-on", "2024-05-01"]], {
        practitioners: [{ appointedOn: "2024-05-01", ceasedToActOn: "2025-01-01" }, { appointedOn: "2024-05-01" }],
      }),
      "receivership",
    );
    expect(open).toMatchObject({ state: "open", outcome: "in-progress", severity: "high" });
    const ended = grade(
      kase("receiver-manager", [["instrumented-on", "2011-05-01"]], { practitioners: [{ ceasedToActOn: "2012-03-01" }, { ceasedToActOn: "2012-04-30" }] }),
      "active",
    );
    expect(ended).toMatchObject({ state: "ended", outcome: "ended", endedOn: "2012-04-30", yearsSinceEnd: 14, severity: "info" });
  });

  it(`a case the record never closed, last dated over ${LOOKBACK_YEARS} years ago, on an active company: no-end-recorded, low, never high`, () => {
    const g = grade(kase("receiver-manager", [["instrumented-on", "1995-06-01"]], { practitioners: [{ appointedOn: "1995-06-01" }] }), "active");
    expect(g).toMatchObject({ state: "open", outcome: "no-end-recorded", severity: "low" });
    expect(g.reading).toContain("1995-06-01");
    // The same case on a company in receivership today is open and high; a recent one on an active company too.
    expect(grade(kase("receiver-manager", [["instrumented-on", "1995-06-01"]]), "receivership").severity).toBe("high");
    expect(grade(kase("receiver-manager", [["instrumented-on", "2021-06-01"]]), "active").severity).toBe("high");
  });
});

describe("SPEC §4.8 distress-signals: how a case ended and how long ago (issue 28 §3)", () => {
  const cva = (ended: string) =>
    kase("corporate-voluntary-arrangement", [
      ["voluntary-arrangement-started-on", "2016-03-10"],
      ["voluntary-arrangement-ended-on", ended],
    ]);

  it("a voluntary arrangement that ended with nothing after it, the company active: medium within 12 months, low within 6 years, info after; never said to be completed", () => {
    const old = grade(cva("2019-03-11"), "active");
    expect(old).toMatchObject({ state: "ended", outcome: "ended", endedOn: "2019-03-11", yearsSinceEnd: 7, followedBy: null, severity: "info" });
    expect(old.reading).toContain("completion and termination");
    expect(old.reading).not.toMatch(/\bcompleted\b/);
    expect(grade(cva("2024-03-11"), "active")).toMatchObject({ outcome: "ended", yearsSinceEnd: 2, severity: "low" });
    expect(grade(cva("2026-06-01"), "active")).toMatchObject({ outcome: "ended", yearsSinceEnd: 0, severity: "medium" });
    // The bands' edges: twelve months to the day is still recent, a day more is not; six years likewise.
    expect(grade(cva("2025-11-28"), "active").severity).toBe("medium");
    expect(grade(cva("2025-11-27"), "active").severity).toBe("low");
    expect(grade(cva("2020-11-28"), "active").severity).toBe("low");
    expect(grade(cva("2020-11-27"), "active").severity).toBe("info");
  });

  it("a voluntary arrangement followed by a liquidation that started after it failed: high within 12 months, medium within 6 years, low after, naming the case that followed", () => {
    const cvl = kase("creditors-voluntary-liquidation", [["wound-up-on", "2026-01-20"]], { number: "2" });
    const g = grade(cva("2026-01-05"), "liquidation", { others: [cvl] });
    expect(g).toMatchObject({ state: "ended", outcome: "failed", severity: "high", followedBy: "case 2, creditors-voluntary-liquidation from 2026-01-20" });
    expect(g.reading).toContain("followed by creditors voluntary liquidation");
    // The same history, the liquidation since concluded and the company dissolved, graded by the age of the end.
    const concluded = kase(
      "creditors-voluntary-liquidation",
      [
        ["wound-up-on", "2021-01-20"],
        ["dissolved-on", "2022-05-01"],
      ],
      { number: "2" },
    );
    expect(grade(cva("2021-01-05"), "dissolved", { others: [concluded], ceasedOn: "2022-05-01" })).toMatchObject({ outcome: "failed", severity: "medium" });
    expect(grade(cva("2011-01-05"), "dissolved", { others: [{ ...concluded, dates: [{ type: "wound-up-on", date: "2011-02-01" }] }] })).toMatchObject({
      outcome: "failed",
      severity: "low",
    });
    // A liquidation that began before the arrangement does not make it fail.
    const earlier = kase(
      "creditors-voluntary-liquidation",
      [
        ["wound-up-on", "2001-01-20"],
        ["dissolved-on", "2002-01-20"],
      ],
      { number: "0" },
    );
    expect(grade(cva("2019-03-11"), "active", { others: [earlier] })).toMatchObject({ outcome: "ended", followedBy: null, severity: "info" });
  });

  it("an arrangement that ended with the company since dissolved, or now in liquidation with no case recorded yet, failed", () => {
    expect(grade(cva("2024-03-11"), "dissolved", { ceasedOn: "2025-01-07" })).toMatchObject({ outcome: "failed", endedOn: "2024-03-11", severity: "medium" });
    const g = grade(cva("2026-08-01"), "liquidation");
    expect(g).toMatchObject({ outcome: "failed", severity: "high", followedBy: null });
    expect(g.reading).toContain("status is now liquidation");
  });

  it("an administration: ended with the company active (rescued) is graded as ended; followed by a creditors' voluntary liquidation it failed; an old discharged order is info", () => {
    const adm = kase("in-administration", [
      ["administration-started-on", "2025-03-01"],
      ["administration-ended-on", "2026-02-01"],
    ]);
    expect(grade(adm, "active")).toMatchObject({ outcome: "ended", endedOn: "2026-02-01", severity: "medium" });
    const cvl = kase("creditors-voluntary-liquidation", [["wound-up-on", "2026-02-01"]], { number: "2" });
    expect(grade(adm, "liquidation", { others: [cvl] })).toMatchObject({
      outcome: "failed",
      severity: "high",
      followedBy: "case 2, creditors-voluntary-liquidation from 2026-02-01",
    });
    const order = kase("administration-order", [
      ["administration-started-on", "1999-01-01"],
      ["administration-discharged-on", "2001-06-30"],
    ]);
    expect(grade(order, "active")).toMatchObject({ outcome: "ended", yearsSinceEnd: 25, severity: "info" });
  });

  it("a liquidation: wound up (concluded or dissolved) is high within 12 months, medium within 6 years, low after; one with no end on a dissolved company ended with the company", () => {
    expect(
      grade(
        kase("creditors-voluntary-liquidation", [
          ["wound-up-on", "2024-01-10"],
          ["concluded-winding-up-on", "2026-03-01"],
        ]),
        "dissolved",
      ),
    ).toMatchObject({ outcome: "wound-up", endedOn: "2026-03-01", severity: "high" });
    expect(
      grade(
        kase("compulsory-liquidation", [
          ["wound-up-on", "2018-01-10"],
          ["dissolved-on", "2021-03-01"],
        ]),
        "dissolved",
      ),
    ).toMatchObject({ outcome: "wound-up", severity: "medium" });
    expect(
      grade(
        kase("compulsory-liquidation", [
          ["wound-up-on", "2008-01-10"],
          ["dissolved-on", "2010-03-01"],
        ]),
        "active",
      ),
    ).toMatchObject({ outcome: "wound-up", yearsSinceEnd: 16, severity: "low" });
    const withTheCompany = grade(kase("compulsory-liquidation", [["wound-up-on", "2015-01-10"]]), "dissolved", { ceasedOn: "2017-06-01" });
    expect(withTheCompany).toMatchObject({ state: "ended", outcome: "wound-up", endedOn: "2017-06-01", severity: "low" });
    expect(withTheCompany.reading).toContain("dissolution");
  });

  it("a members' (solvent) voluntary liquidation that concluded is info whatever its age; a moratorium that ended with nothing after it is low, then info; one followed by an administration failed", () => {
    expect(
      grade(
        kase("members-voluntary-liquidation", [
          ["declaration-solvent-on", "2026-01-05"],
          ["dissolved-on", "2026-10-01"],
        ]),
        "dissolved",
      ),
    ).toMatchObject({ outcome: "solvent-wound-up", severity: "info" });
    const moratorium = (ended: string) =>
      kase("corporate-voluntary-arrangement-moratorium", [
        ["moratorium-started-on", "2026-06-01"],
        ["moratorium-ended-on", ended],
      ]);
    expect(grade(moratorium("2026-09-01"), "active")).toMatchObject({ outcome: "ended", severity: "low" });
    expect(
      grade(
        {
          ...moratorium("2022-09-01"),
          dates: [
            { type: "moratorium-started-on", date: "2022-06-01" },
            { type: "moratorium-ended-on", date: "2022-09-01" },
          ],
        },
        "active",
      ),
    ).toMatchObject({ outcome: "ended", severity: "info" });
    const adm = kase("in-administration", [["administration-started-on", "2026-09-02"]], { number: "2" });
    expect(grade(moratorium("2026-09-01"), "administration", { others: [adm] })).toMatchObject({ outcome: "failed", severity: "high" });
    // A Part A1 moratorium's end is a case type of its own.
    expect(grade(kase("liquidation-moratorium-end-of-moratorium-by-court", [["moratorium-ended-on", "2026-08-01"]]), "active")).toMatchObject({
      state: "ended",
      outcome: "ended",
      severity: "low",
    });
    expect(grade(kase("liquidation-moratorium-early-end-of-moratorium", [["moratorium-started-on", "2026-08-01"]]), "active")).toMatchObject({
      state: "ended",
      endedOn: "2026-08-01",
    });
  });

  it("the rule is stated once: every outcome, the bands and the CVA caveat are in INSOLVENCY_CASE_RULE", () => {
    const text = INSOLVENCY_CASE_RULE.join("\n");
    for (const w of [
      "Open",
      "no-end-recorded",
      "wound-up",
      "failed",
      "`ended`",
      "solvent-wound-up",
      "12 months",
      `${LOOKBACK_YEARS} years`,
      "completion and termination alike",
    ])
      expect(text).toContain(w);
  });
});

describe.skipIf(!SHARED_PRESENT)("SPEC §4.8 distress-signals on Companies House's own data (../shared)", () => {
  it("every case type Companies House publishes has a procedure (none falls to unknown)", async () => {
    const yaml = parseYaml(await (await fetch("http://shared.test/data/ch-enumerations/constants.yml")).text()) as {
      insolvency_case_type: Record<string, string>;
    };
    const types = Object.keys(yaml.insolvency_case_type);
    expect(types.length).toBeGreaterThan(20);
    for (const t of types) expect(procedureOf(t), t).not.toBe("unknown");
    for (const t of Object.keys(CASE_PROCEDURE)) expect(types, t).toContain(t);
  });

  it("a real compulsory liquidation (wound up 1995, no end on record): open and high while the company is in liquidation, wound up once it is dissolved", async () => {
    const body = await (await fetch("http://shared.test/data/companies-house-api/fixtures/herrbert74__insolvency_london_airways.json")).text();
    const [c] = parseInsolvency(body)!.cases;
    expect(grade(c, "liquidation")).toMatchObject({ state: "open", outcome: "in-progress", severity: "high" });
    expect(grade(c, "dissolved", { ceasedOn: "1998-04-14" })).toMatchObject({ state: "ended", outcome: "wound-up", endedOn: "1998-04-14", severity: "low" });
    expect(grade(c, "dissolved")).toMatchObject({ state: "ended", outcome: "wound-up", endedOn: null, severity: "high" });
  });
});
