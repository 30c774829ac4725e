import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { AssessmentFields } from "../../../src/app/enrichment/assessSchema";
import type { Phraser } from "../../../src/services/documents/summary";
import {
  AUDIENCES,
  type AssessInput,
  type Fact,
  REGIONS,
  assessFit,
  draftOpener,
  readOffer,
  receptivenessWords,
  stem,
} from "../../../src/services/enrich/assess";
import { baseSignals, registerSourceOfFacts } from "../../../src/services/enrich/profile";
import type { BusinessProfile, RegisterFacts, SiteFacts } from "../../../src/services/enrich/types";

/**
 * The fit assessment (issue 18 §2 "assess", SPEC §4.1 `assessFit`): profiles built by hand in the shapes the
 * enrichment gives (services/enrich/profile.ts: its signal codes, labels and sources, its sizeSignal wording), offers
 * read deterministically, every reason citing a fact that is really in the profile, no word forecasting the
 * business's reaction, and the opener draft with and without a model. The audience table is checked against the real
 * SIC 2007 condensed list where ../shared is present.
 */

const TODAY = "2026-05-20";
const accuracy = (score: number, confidence: "high" | "medium" | "low") => ({
  score,
  confidence,
  breakdown: [{ label: "company number stated on the site", points: score, max: 100, evidence: null }],
});

const register = (r: Partial<RegisterFacts> & Pick<RegisterFacts, "number" | "name" | "sicCodes">): RegisterFacts => ({
  status: "active",
  statusDetail: null,
  type: "ltd",
  incorporationDate: null,
  sicDescriptions: {},
  registeredOffice: { text: "", postcode: null, locality: null },
  accountsOverdue: false,
  confirmationStatementOverdue: false,
  lastAccountsType: null,
  activeOfficers: null,
  record: { source: "live", asOf: TODAY, bulkFileDate: null, fromBulkFile: [], liveNote: null },
  ...r,
});

const site = (s: Partial<SiteFacts> & Pick<SiteFacts, "url" | "title">): SiteFacts => ({
  description: null,
  siteName: null,
  headings: [],
  offerings: [],
  text: "",
  careersUrl: null,
  pagesRead: [{ url: s.url, kind: "homepage" }],
  ...s,
});

/** A profile from its register and site facts, the way services/enrich/profile.ts fills the fields. */
function profileOf(reg: RegisterFacts | null, web: SiteFacts | null, extra: Partial<BusinessProfile> = {}): BusinessProfile {
  return {
    found: true,
    ...(reg ? { name: reg.name, companyNumber: reg.number, status: reg.status, sicCodes: reg.sicCodes } : web?.siteName ? { name: web.siteName } : {}),
    ...(web ? { website: web.url } : {}),
    ...(reg?.incorporationDate ? { incorporationDate: reg.incorporationDate } : {}),
    ...(web?.description
      ? { whatTheyDo: web.description }
      : reg
        ? { whatTheyDo: `Registered activities: ${reg.sicCodes.map((c) => reg.sicDescriptions[c]).join("; ")}.` }
        : {}),
    services: web?.offerings.length ? web.offerings : reg ? reg.sicCodes.map((c) => reg.sicDescriptions[c]).filter(Boolean) : [],
    signals: [],
    accuracy: accuracy(reg ? 92 : 55, reg ? "high" : "medium"),
    confidence: reg ? "high" : "medium",
    sources: [...(web ? [`website: ${web.url}`] : []), ...(reg ? [`companies register: ${reg.number}`] : [])],
    attribution: "Contains public sector information licensed under the Open Government Licence v3.0.",
    ...extra,
  };
}

// --- The businesses -------------------------------------------------------------------------------------------------

const lawReg = register({
  number: "07214463",
  name: "HARBOURSIDE LAW LIMITED",
  sicCodes: ["69102"],
  sicDescriptions: { "69102": "Solicitors" },
  incorporationDate: "2010-04-07",
  registeredOffice: { text: "12 Queen Square, Bristol, BS1 4NT", postcode: "BS1 4NT", locality: "Bristol" },
  lastAccountsType: "total-exemption-full",
  activeOfficers: 4,
});
const lawSite = site({
  url: "https://www.harboursidelaw.co.uk/",
  title: "Harbourside Law | Solicitors in Bristol",
  siteName: "Harbourside Law",
  description: "Solicitors in Bristol offering legal services for families and businesses: conveyancing, wills and probate, employment law.",
  headings: ["Solicitors in Bristol", "How we can help", "Meet the team"],
  offerings: ["Residential conveyancing", "Wills and probate", "Employment law", "Family law"],
  careersUrl: "https://www.harboursidelaw.co.uk/careers",
});
const lawFirm: AssessInput["profile"] = profileOf(lawReg, lawSite, {
  sizeSignal: "small: total-exemption-full accounts; 4 active officers",
  signals: [
    { code: "hiring", label: "The website has a careers or jobs page", kind: "opportunity", source: "website: https://www.harboursidelaw.co.uk/careers" },
  ],
});

const careReg = register({
  number: "08834120",
  name: "MEADOWBANK CARE LIMITED",
  sicCodes: ["87100"],
  sicDescriptions: { "87100": "Residential nursing care facilities" },
  incorporationDate: "2014-01-09",
  registeredOffice: { text: "Meadowbank House, 4 Wilmslow Road, Didsbury, Manchester, M20 5PG", postcode: "M20 5PG", locality: "Manchester" },
  lastAccountsType: "small",
  activeOfficers: 3,
});
const careSite = site({
  url: "https://meadowbankcare.co.uk/",
  title: "Meadowbank Care Home, Didsbury",
  siteName: "Meadowbank Care",
  description: "A family-run residential and nursing care home in Didsbury, Manchester, rated by the CQC.",
  headings: ["Welcome to Meadowbank", "Our care", "Join our team"],
  offerings: ["Residential care", "Nursing care", "Respite stays", "Dementia care"],
  careersUrl: "https://meadowbankcare.co.uk/join-our-team",
});
const careHome = profileOf(careReg, careSite, {
  sizeSignal: "small: small accounts; 3 active officers",
  signals: [
    { code: "hiring", label: "The website has a careers or jobs page", kind: "opportunity", source: "website: https://meadowbankcare.co.uk/join-our-team" },
    { code: "licensed-sponsor", label: "On the register of licensed visa sponsors", kind: "info", source: "Home Office register of licensed sponsors" },
    { code: "cqc-registered", label: "Registered with the Care Quality Commission", kind: "info", source: "CQC register of care providers" },
  ],
});

const bakeryReg = register({
  number: "05512873",
  name: "OLD MILL BAKERY LIMITED",
  status: "dissolved",
  sicCodes: ["10710"],
  sicDescriptions: { "10710": "Manufacture of bread; manufacture of fresh pastry goods and cakes" },
  incorporationDate: "2005-07-19",
  registeredOffice: { text: "Unit 3, Mill Lane, Stockport, SK4 2JD", postcode: "SK4 2JD", locality: "Stockport" },
  lastAccountsType: "micro-entity",
});
const dissolved = profileOf(bakeryReg, null, {
  sizeSignal: "micro: micro-entity accounts",
  signals: [{ code: "not-active", label: "Register status: dissolved", kind: "risk", source: "companies register" }],
});

const sparksSite = site({
  url: "https://www.brightsparks-electrical.co.uk/",
  title: "Bright Sparks Electrical - Electrician in Leeds",
  siteName: "Bright Sparks Electrical",
  description: "Domestic electrician in Leeds: rewiring, fuse board upgrades, EV charger installation and electrical safety certificates.",
  headings: ["Electrician in Leeds", "Our services", "Get a quote"],
  offerings: ["Rewiring", "Consumer unit upgrades", "EV charger installation", "EICR certificates"],
});
const noNumber = profileOf(null, sparksSite, {
  registryNote: "The website does not state a company number, registered office or full company name: no registered company is tied to it.",
});

const startupReg = register({
  number: "15890231",
  name: "NORTHLIGHT ANALYTICS LTD",
  sicCodes: ["62012"],
  sicDescriptions: { "62012": "Business and domestic software development" },
  incorporationDate: "2025-09-03",
  registeredOffice: { text: "Floor 2, 18 Blossom Street, Manchester, M4 6AJ", postcode: "M4 6AJ", locality: "Manchester" },
  activeOfficers: 2,
});
const startupSite = site({
  url: "https://northlight.io/",
  title: "Northlight - analytics for independent retailers",
  siteName: "Northlight",
  description: "Data analytics software for independent retailers: sales dashboards, stock forecasts and footfall reports.",
  headings: ["See your shop clearly", "Features", "Pricing"],
  offerings: ["Sales dashboards", "Stock forecasts", "Footfall reports"],
  careersUrl: "https://northlight.io/careers",
});
const startup = profileOf(startupReg, startupSite, {
  sizeSignal: "size not stated in the accounts type: 2 active officers",
  signals: [
    { code: "recently-incorporated", label: "Incorporated 8 months ago (2025-09-03)", kind: "opportunity", source: "companies register" },
    { code: "hiring", label: "The website has a careers or jobs page", kind: "opportunity", source: "website: https://northlight.io/careers" },
  ],
});

interface Business {
  key: string;
  profile: BusinessProfile;
  register: RegisterFacts | null;
  site: SiteFacts | null;
}
const BUSINESSES: Business[] = [
  { key: "lawFirm", profile: lawFirm, register: lawReg, site: lawSite },
  { key: "careHome", profile: careHome, register: careReg, site: careSite },
  { key: "dissolved", profile: dissolved, register: bakeryReg, site: null },
  { key: "noNumber", profile: noNumber, register: null, site: sparksSite },
  { key: "startup", profile: startup, register: startupReg, site: startupSite },
];
const biz = (key: string) => BUSINESSES.find((b) => b.key === key)!;

const OFFERS = {
  legalSoftware: "Legal practice management software for law firms",
  careRecruitment: "Recruitment of care staff for care homes in the North West",
  startupAccounting: "Accounting and bookkeeping for startups",
  noAudience: "Website accessibility audits and fixes",
} as const;

const run = (key: string, offer: string) => assessFit({ ...biz(key), offer, today: TODAY });
const score = (key: string, offer: string) => run(key, offer).fitScore;

/** The value at a path such as `profile.signals[2].label` or `register.registeredOffice.postcode`. */
function valueAt(root: Record<string, unknown>, path: string): unknown {
  let cur: unknown = root;
  for (const part of path.split(/\.|(?=\[)/)) {
    if (cur === null || cur === undefined) return undefined;
    const index = part.match(/^\[(\d+)\]$/);
    cur = index ? (cur as unknown[])[Number(index[1])] : (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Every string in a value, recursively. */
const strings = (v: unknown): string[] =>
  typeof v === "string" ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === "object" ? Object.values(v).flatMap(strings) : [];

/** The words SPEC §4.1 rules out (our own list, wider than the module's). */
const FORECAST =
  /\b(?:likely|unlikely|likelihood|probabl\w*|interested|interest|ready|readiness|receptiv\w*|will respond|will reply|will buy|would buy|keen|eager|open to|wants?|looking for|in the market|propensity|pain points?|struggling|hot lead|warm lead|needs? your)\b/i;

// ---------------------------------------------------------------------------------------------------------------

describe("readOffer (issue 18 §2 assess: what is sold and to whom)", () => {
  it("reads the audience, what is sold and its key terms", () => {
    const o = readOffer(OFFERS.legalSoftware);
    expect(o.audiences.map((a) => [a.key, a.matched, a.sic])).toEqual([["legal", "law firms", ["691"]]]);
    expect(o.what).toBe("legal practice management software");
    expect(o.terms).toEqual(["legal", "practic", "manag", "softwar"]);
    expect(o.needs).toEqual([]);
  });

  it("reads what the offer is about and a region", () => {
    const o = readOffer(OFFERS.careRecruitment);
    expect(o.audiences.map((a) => a.key)).toEqual(["care"]);
    expect(o.needs.map((n) => n.key)).toEqual(["hiring"]);
    expect(o.places).toEqual([{ matched: "North West", name: "North West", region: "North West" }]);
    expect(o.what).toBe("recruitment of care staff");
  });

  it("reads stage audiences, size words, staff counts, towns and national cover", () => {
    expect(readOffer(OFFERS.startupAccounting).audiences.map((a) => [a.key, a.kind])).toEqual([["startups", "stage"]]);
    const smes = readOffer("We help SMEs with 10-250 staff across the UK win public sector tenders");
    expect(smes.sizes.map((s) => [s.min, s.max])).toEqual([
      [0, 250],
      [10, 250],
    ]);
    expect(smes.national).toBe(true);
    expect(smes.places).toEqual([]);
    expect(smes.needs.map((n) => n.key)).toEqual(["tenders"]);
    expect(smes.what).toBe("win public sector tenders");
    const towns = readOffer("Commercial cleaning in Leeds & Bradford for offices");
    expect(towns.places.map((p) => p.name)).toEqual(["Leeds", "Bradford"]);
    expect(readOffer("Invoice finance for construction companies in Greater London with 50+ employees").sizes).toEqual([
      { matched: "50+ employees", label: "50 or more staff", min: 50, max: null },
    ]);
    expect(readOffer("Bristol-based IT support for small businesses").places.map((p) => p.name)).toEqual(["Bristol"]);
    expect(readOffer("Payroll for enterprises").sizes[0].min).toBe(251);
  });

  it("an offer with no audience words has none, and keeps its terms", () => {
    const o = readOffer(OFFERS.noAudience);
    expect(o.audiences).toEqual([]);
    expect(o.sizes).toEqual([]);
    expect(o.places).toEqual([]);
    expect(o.terms).toEqual(["websit", "accessibility", "audit", "fix"]);
    expect(o.needs.map((n) => n.key)).toEqual(["accessibility", "website"]);
  });

  it("does not take hired equipment or a capitalised product word for hiring or a place", () => {
    expect(readOffer("Tool hire to builders").needs.map((n) => n.key)).not.toContain("hiring");
    expect(readOffer("We help law firms hire paralegals").needs.map((n) => n.key)).toContain("hiring");
    expect(readOffer("Training in SEO for retailers").places).toEqual([]);
  });

  it("stems words to shared roots", () => {
    expect(["recruitment", "recruiting", "recruiters"].map(stem)).toEqual(["recruit", "recruit", "recruit"]);
    expect(["accounting", "accountants", "accountancy", "accounts"].map(stem)).toEqual(["account", "account", "account", "account"]);
    expect(["management", "managing", "manage"].map(stem)).toEqual(["manag", "manag", "manag"]);
    expect(["staff", "business", "businesses", "analysis"].map(stem)).toEqual(["staff", "business", "business", "analysis"]);
  });
});

describe("the audience table (SIC 2007 prefixes)", () => {
  it("every prefix is a SIC division, group or class", () => {
    for (const a of AUDIENCES) for (const p of a.sic) expect(p, a.key).toMatch(/^\d{2,4}$/);
    for (const r of REGIONS) for (const area of r.areas) expect(area).toMatch(/^[A-Z]{1,2}$/);
  });

  it.skipIf(!SHARED_PRESENT)("every prefix holds codes of the real Companies House condensed list, and they say what the audience is", async () => {
    const csv = await (await fetch("http://shared.test/data/sic-2007/SIC07_CH_condensed_list_en.csv")).text();
    const codes = new Map(
      csv
        .split(/\r\n/)
        .slice(1)
        .map((line) => [line.slice(0, 5), line.slice(6).replace(/^"|"$/g, "")] as const),
    );
    expect(codes.size).toBe(731);
    for (const a of AUDIENCES)
      for (const p of a.sic)
        expect(
          [...codes.keys()].some((c) => c.startsWith(p)),
          `${a.key} ${p}`,
        ).toBe(true);
    const under = (key: string) => [...codes].filter(([c]) => AUDIENCES.find((a) => a.key === key)!.sic.some((p) => c.startsWith(p))).map(([, d]) => d);
    expect(under("legal")).toEqual(["Barristers at law", "Solicitors", "Activities of patent and copyright agents; other legal activities n.e.c."]);
    expect(under("care").every((d) => /care|residential|social work|accommodation|welfare/i.test(d))).toBe(true);
    expect(under("hospitality").some((d) => /restaurants/i.test(d))).toBe(true);
    expect(under("childcare")).toContain("Child day-care activities");
    expect(under("accountancy").every((d) => /account|bookkeeping|audit|tax/i.test(d))).toBe(true);
  });
});

describe("assessFit (SPEC §4.1: grounded in the verified profile)", () => {
  it("orders scores sensibly for each offer", () => {
    // Legal software: the law firm is the audience; the rest are not.
    expect(score("lawFirm", OFFERS.legalSoftware)).toBeGreaterThanOrEqual(45);
    for (const other of ["careHome", "dissolved", "noNumber", "startup"])
      expect(score("lawFirm", OFFERS.legalSoftware)).toBeGreaterThan(score(other, OFFERS.legalSoftware));
    // Care recruitment: the care home (hiring, in the North West, CQC) is strong; the law firm and the dissolved bakery are weak.
    expect(run("careHome", OFFERS.careRecruitment).fitBand).toBe("strong");
    expect(score("careHome", OFFERS.careRecruitment)).toBeGreaterThan(score("lawFirm", OFFERS.careRecruitment));
    expect(score("lawFirm", OFFERS.careRecruitment)).toBeLessThan(35);
    // Accounting for startups: the newly incorporated company leads, the 2010 law firm scores nothing.
    expect(score("startup", OFFERS.startupAccounting)).toBeGreaterThanOrEqual(35);
    expect(score("startup", OFFERS.startupAccounting)).toBeGreaterThan(score("lawFirm", OFFERS.startupAccounting));
    expect(score("lawFirm", OFFERS.startupAccounting)).toBe(0);
    // An offer naming no audience can only score on words and topics: lower than a matched audience.
    expect(score("lawFirm", OFFERS.noAudience)).toBeLessThan(score("lawFirm", OFFERS.legalSoftware));
    expect(run("lawFirm", OFFERS.noAudience).notWeighed.some((n) => /names no sector/.test(n))).toBe(true);
    // Dissolved: weak whatever the offer.
    for (const offer of Object.values(OFFERS)) expect(score("dissolved", offer)).toBeLessThanOrEqual(5);
  });

  it("explains the law firm's fit with the SIC code, the shared word and the size, each from the profile", () => {
    const a = run("lawFirm", `${OFFERS.legalSoftware} and other small businesses`);
    const sic = a.fitReasons.find((r) => r.fact.field === "profile.sicCodes[0]")!;
    expect(sic.points).toBe(45);
    expect(sic.reason).toContain("69102 (Solicitors)");
    expect(sic.fact).toEqual({ field: "profile.sicCodes[0]", value: "69102", source: "companies register" });
    expect(a.fitReasons.some((r) => r.reason.includes('"legal"') && r.fact.field === "profile.whatTheyDo" && r.points === 6)).toBe(true);
    expect(a.fitReasons.find((r) => r.fact.field === "profile.sizeSignal")?.points).toBe(10);
    expect(a.fitScore).toBe(a.fitReasons.reduce((s, r) => s + r.points, 0));
    expect(a.approachAngle.text).toContain("their company is registered under SIC code 69102 (Solicitors)");
    expect(a.openerFacts[0]).toBe("Your company is registered under SIC code 69102 (Solicitors).");
  });

  it("size from the accounts' average employees when the signal gives it (before a gender pay gap band), with both sources named", () => {
    const sizeSignal =
      "small: small accounts; average 23 employees (accounts to 2025-03-31); 250 to 499 employees (gender pay gap report 2026 to 2027); 3 active officers";
    const law = {
      ...biz("lawFirm"),
      register: { ...lawReg, employees: { average: 23, periodEnd: "2025-03-31", band: "250 to 499", bandYear: "2026", note: null } },
      profile: { ...lawFirm, sizeSignal },
    };
    // 23 staff fit an offer for small businesses (up to 50) and not one for enterprises: the accounts' count decides, not the band.
    const small = assessFit({ ...law, offer: `${OFFERS.legalSoftware} and other small businesses`, today: TODAY });
    expect(small.fitReasons.find((r) => r.fact.field === "profile.sizeSignal")).toMatchObject({
      points: 10,
      fact: {
        value: sizeSignal,
        source: "companies register (accounts type, average employees in the filed accounts, officers counted); gender pay gap report (headcount band)",
      },
    });
    expect(
      assessFit({ ...law, offer: "Treasury management for enterprises", today: TODAY }).fitReasons.find((r) => r.fact.field === "profile.sizeSignal")?.points,
    ).toBe(-10);
  });

  it("care recruitment: the hiring signal, the CQC register and the North West postcode", () => {
    const a = run("careHome", OFFERS.careRecruitment);
    expect(a.fitReasons.map((r) => [r.points, r.fact.field])).toEqual(
      expect.arrayContaining([
        [45, "profile.sicCodes[0]"],
        [20, "profile.signals[0].label"],
        [10, "register.registeredOffice.postcode"],
      ]),
    );
    expect(a.signalsForYou.map((s) => s.code)).toEqual(["hiring", "cqc-registered"]);
    expect(a.signalsForYou[0].fact.source).toBe("website: https://meadowbankcare.co.uk/join-our-team");
    expect(a.approachAngle.facts.map((f) => f.field)).toEqual(["profile.sicCodes[0]", "profile.signals[0].label", "register.registeredOffice.postcode"]);
    expect(a.watchOuts).toEqual([]);
    // The same offer in the South West: the place now counts against.
    const b = assessFit({ ...biz("careHome"), offer: "Recruitment of care staff for care homes in the South West", today: TODAY });
    expect(b.fitReasons.find((r) => r.fact.field === "register.registeredOffice.postcode")?.points).toBe(-5);
  });

  it("a CQC signal counts for a care offer, and a sponsor licence for a visa offer", () => {
    const care = assessFit({ ...biz("careHome"), offer: "eMAR care software for care providers", today: TODAY });
    expect(care.fitReasons.some((r) => r.fact.field === "profile.signals[2].label" && r.points === 20)).toBe(true);
    const visas = assessFit({ ...biz("careHome"), offer: "Sponsor licence compliance support", today: TODAY });
    expect(visas.signalsForYou.map((s) => s.code)).toContain("licensed-sponsor");
  });

  it("the registers' signals: a CQC rating below Good is a watch-out, never a second 'registered' or 'listed' line; a new report of slow payment weighs more than a report's figures", () => {
    const signals = [
      ...careHome.signals,
      { code: "cqc-rating-concern", label: "CQC ratings: 1 location is rated Inadequate", kind: "risk" as const, source: "CQC register of care providers" },
      {
        code: "slow-payment-report",
        label: "New payment practices report (period ending 2026-06-30, filed 2026-07-21): average 52 days to pay",
        kind: "risk" as const,
        source: "payment practices reports (Department for Business and Trade)",
      },
    ];
    const care = { ...biz("careHome"), profile: { ...careHome, signals } };
    const quality = assessFit({ ...care, offer: "Care quality improvement consultancy for care homes", today: TODAY });
    const byField = (a: ReturnType<typeof assessFit>, i: number) => a.fitReasons.find((r) => r.fact.field === `profile.signals[${i}].label`);
    expect(byField(quality, 2)?.points).toBe(20);
    expect(byField(quality, 3)).toBeUndefined();
    expect(quality.signalsForYou.map((s) => s.code)).not.toContain("cqc-rating-concern");
    expect(quality.watchOuts).toContainEqual({
      text: "CQC ratings: 1 location is rated Inadequate (CQC register of care providers).",
      fact: expect.objectContaining({ field: "profile.signals[3].label" }),
    });
    const compliance = assessFit({ ...care, offer: "Regulatory compliance software for CQC registered providers", today: TODAY });
    expect(strings(compliance).some((t) => /listed: CQC ratings/.test(t))).toBe(false);
    const finance = assessFit({ ...care, offer: "Invoice finance and cash flow funding for care providers", today: TODAY });
    expect(byField(finance, 4)?.points).toBe(20);
    const prompt = {
      ...care,
      profile: { ...careHome, signals: [...careHome.signals, { ...signals[4], code: "payment-practices-report", kind: "info" as const }] },
    };
    expect(byField(assessFit({ ...prompt, offer: "Invoice finance and cash flow funding for care providers", today: TODAY }), 3)?.points).toBe(10);
  });

  it("accounting for startups: recent incorporation, and overdue accounts as a signal rather than a penalty", () => {
    const a = run("startup", OFFERS.startupAccounting);
    expect(a.fitReasons[0]).toMatchObject({ points: 35, fact: { field: "register.incorporationDate", value: "2025-09-03", source: "companies register" } });
    const late = { ...biz("startup"), register: { ...startupReg, accountsOverdue: true } };
    late.profile = {
      ...startup,
      signals: [...startup.signals, { code: "accounts-overdue", label: "Accounts are overdue at Companies House", kind: "risk", source: "companies register" }],
    };
    const b = assessFit({ ...late, offer: OFFERS.startupAccounting, today: TODAY });
    expect(b.fitScore).toBe(a.fitScore + 20);
    expect(b.signalsForYou.map((s) => s.code)).toContain("accounts-overdue");
    expect(b.watchOuts.map((w) => w.text)).toContain("Accounts are overdue at Companies House.");
    // For an offer not about accounts the same fact costs 5 points.
    expect(
      assessFit({ ...late, offer: "Office cleaning for tech companies", today: TODAY }).fitReasons.find((r) => r.fact.field === "profile.signals[2].label")
        ?.points,
    ).toBe(-5);
  });

  it("dissolved, in liquidation, a proposal to strike off: watch-outs and a capped score", () => {
    const d = run("dissolved", "Bakery equipment servicing for manufacturers");
    expect(d.fitReasons.some((r) => r.points === 45)).toBe(true); // the sector matches (SIC 10710) …
    expect(d.fitScore).toBeLessThanOrEqual(5); // … and the status caps it
    expect(d.watchOuts[0]).toEqual({
      text: "The register shows the company as dissolved: it no longer trades as a company.",
      fact: { field: "register.status", value: "dissolved", source: "companies register" },
    });
    expect(d.openerFacts).toEqual([]);
    expect(d.approachAngle.text).toBe("No opener: the register shows the company as dissolved.");

    const inLiquidation = { ...biz("careHome"), register: { ...careReg, status: "liquidation" } };
    const l = assessFit({ ...inLiquidation, offer: OFFERS.careRecruitment, today: TODAY });
    expect(l.fitScore).toBeLessThanOrEqual(15);
    expect(l.watchOuts[0].fact).toEqual({ field: "register.status", value: "liquidation", source: "companies register" });

    const strike = { ...biz("careHome"), register: { ...careReg, statusDetail: "active-proposal-to-strike-off" } };
    const s = assessFit({ ...strike, offer: OFFERS.careRecruitment, today: TODAY });
    expect(s.fitScore).toBe(30);
    expect(s.watchOuts.map((w) => w.fact.field)).toContain("register.statusDetail");
    expect(s.fitBand).toBe("weak");
  });

  it("SPEC §4.1, issue 28 §2: a status read from the bulk file is said to be, as of its date; The Gazette not read is a watch-out; a Gazette notice is one", () => {
    const file = "2026-05-01";
    const fromFile: RegisterFacts = {
      ...careReg,
      statusDetail: "active-proposal-to-strike-off",
      record: {
        source: "bulk-file",
        asOf: file,
        bulkFileDate: file,
        fromBulkFile: ["name", "status", "statusDetail", "registeredOffice"],
        liveNote: "Companies House could not be read just now",
      },
      insolvencyNotices: { read: false, recent: [], note: "The Gazette could not be read just now" },
    };
    const profile = { ...biz("careHome").profile, registerSource: registerSourceOfFacts(fromFile) };
    const a = assessFit({ ...biz("careHome"), profile, register: fromFile, offer: OFFERS.careRecruitment, today: TODAY });
    const strike = a.watchOuts.find((w) => w.fact.field === "register.statusDetail")!;
    expect(strike.text).toBe(
      `The register shows a proposal to strike the company off (active-proposal-to-strike-off) (as of the Basic Company Data file of ${file}).`,
    );
    expect(strike.fact.source).toBe(`companies register (the Basic Company Data file of ${file})`);
    const stale = a.watchOuts.find((w) => w.fact.field === "profile.registerSource.statusFrom")!;
    expect(stale.text).toMatch(
      new RegExp(
        `^Companies House's live record could not be read: the status \\(active, active-proposal-to-strike-off\\) is as of the Basic Company Data file of ${file}`,
      ),
    );
    expect(stale.fact).toEqual({
      field: "profile.registerSource.statusFrom",
      value: "bulk-file",
      source: `companies register (the Basic Company Data file of ${file})`,
    });
    expect(a.watchOuts.find((w) => w.fact.field === "profile.registerSource.insolvencyNotices")!.text).toBe(
      "The Gazette's corporate insolvency notices could not be read: none is reported, and none is ruled out.",
    );
    // Every fact cited is in the reply at its field.
    for (const w of a.watchOuts) expect(valueAt({ profile, register: fromFile, site: biz("careHome").site }, w.fact.field), w.fact.field).toEqual(w.fact.value);

    // Live, with a recent winding-up petition in The Gazette: a risk signal, so a watch-out citing it.
    const live: RegisterFacts = {
      ...careReg,
      insolvencyNotices: {
        read: true,
        recent: [{ noticeId: "1", code: "2450", meaning: "Petition to wind up", severity: "high", date: "2026-04-02", url: null }],
        note: null,
      },
    };
    const signals = baseSignals(live, null, TODAY);
    const withNotice = { ...biz("careHome").profile, signals, registerSource: registerSourceOfFacts(live) };
    const b = assessFit({ ...biz("careHome"), profile: withNotice, register: live, offer: OFFERS.careRecruitment, today: TODAY });
    const i = signals.findIndex((x) => x.code === "gazette-notice");
    expect(b.watchOuts.find((w) => w.fact.field === `profile.signals[${i}].label`)!.text).toBe(
      "1 corporate insolvency notice in The Gazette in the last 12 months: Petition to wind up (notice 2450, 2026-04-02) (The Gazette (corporate insolvency notices)).",
    );
    expect(b.watchOuts.some((w) => /live record could not be read|could not be read/.test(w.text))).toBe(false);
  });

  it("a profile without a company number: says so, weighs no register fact, uses no name", () => {
    const a = run("noNumber", "Electrical wholesale supplies for electricians in Leeds");
    expect(a.watchOuts[0].text).toMatch(/^No company number/);
    expect(a.watchOuts[0].fact).toEqual({ field: "profile.registryNote", value: noNumber.registryNote, source: "identity check (enrichment)" });
    expect(a.watchOuts.some((w) => w.fact.field === "profile.confidence" && w.fact.value === "medium")).toBe(true);
    expect(a.fitReasons.every((r) => !r.fact.field.startsWith("register.") && !r.fact.field.startsWith("profile.sicCodes"))).toBe(true);
    // The sector comes from the site's own words (25 points); the place could not be compared.
    expect(a.fitReasons[0]).toMatchObject({ points: 25, fact: { field: "profile.whatTheyDo" } });
    expect(a.notWeighed.some((n) => /^Place/.test(n))).toBe(true);
    expect(strings(a).some((s) => /Bright Sparks/i.test(s))).toBe(false);
  });

  it("charities by company type, sizes that do not overlap, a town, namesakes, dormancy and other risk signals", () => {
    const cio = { ...biz("careHome"), register: { ...careReg, type: "charitable-incorporated-organisation" } };
    const c = assessFit({ ...cio, offer: "Fundraising software for charities", today: TODAY });
    expect(c.fitReasons[0]).toMatchObject({ points: 40, fact: { field: "register.type", value: "charitable-incorporated-organisation" } });
    // Small accounts (up to 50 staff) against an offer for large businesses: -10, citing the size signal.
    const big = run("lawFirm", "Treasury management for enterprises");
    expect(big.fitReasons.find((r) => r.fact.field === "profile.sizeSignal")?.points).toBe(-10);
    // A town is looked for in the registered office's address.
    const town = run("lawFirm", "Office cleaning in Bristol");
    expect(town.fitReasons.find((r) => r.fact.field === "register.registeredOffice.text")).toMatchObject({
      points: 10,
      fact: { value: "12 Queen Square, Bristol, BS1 4NT" },
    });
    // Namesakes, dormancy and a risk signal the rules do not score are watch-outs, each with its fact.
    const alt = {
      name: "HARBOURSIDE LAW SERVICES LTD",
      companyNumber: "09912345",
      status: "active",
      locality: "Leeds",
      postcode: "LS1 4AP",
      incorporationDate: "2015-02-02",
      needsConfirm: true as const,
      reason: "same name",
    };
    const dormantProfile = {
      ...lawFirm,
      alternatives: [alt],
      signals: [
        ...lawFirm.signals,
        { code: "dormant", label: "Dormant: no trading activity is reported to the register", kind: "info" as const, source: "companies register" },
        { code: "gazette-notice", label: "A winding-up petition notice was published", kind: "risk" as const, source: "The Gazette" },
      ],
    };
    const d = assessFit({ ...biz("lawFirm"), profile: dormantProfile, offer: OFFERS.legalSoftware, today: TODAY });
    expect(d.watchOuts.map((w) => w.fact.field)).toEqual(["profile.signals[1].label", "profile.signals[2].label", "profile.alternatives.length"]);
    expect(d.watchOuts[1].text).toBe("A winding-up petition notice was published (The Gazette).");
    expect(d.fitScore).toBe(run("lawFirm", OFFERS.legalSoftware).fitScore - 20);
    // The register's record not read although the profile has a number: said so.
    const unread = assessFit({ ...biz("lawFirm"), register: null, offer: OFFERS.legalSoftware, today: TODAY });
    expect(unread.watchOuts.map((w) => w.fact.field)).toEqual(["profile.companyNumber"]);
  });

  it("a company that sells what the offer sells is a watch-out, not points", () => {
    const a = run("startup", "Sales dashboards and stock forecasts for restaurants");
    expect(a.fitReasons.some((r) => /Your offer's word/.test(r.reason))).toBe(false);
    expect(a.watchOuts.some((w) => /check they do not sell the same thing/.test(w.text))).toBe(true);
  });

  it("every reason, signal, watch-out and approach fact is really in the profile (value equality)", () => {
    let checked = 0;
    for (const b of BUSINESSES)
      for (const offer of [
        ...Object.values(OFFERS),
        "Invoice finance for small businesses in Manchester",
        "Bid writing for construction companies across Scotland",
      ]) {
        const a = assessFit({ ...b, offer, today: TODAY });
        const facts: Fact[] = [
          ...a.fitReasons.map((r) => r.fact),
          ...a.signalsForYou.map((s) => s.fact),
          ...a.watchOuts.map((w) => w.fact),
          ...a.approachAngle.facts,
        ];
        for (const f of facts) {
          const at = valueAt({ profile: b.profile, register: b.register, site: b.site }, f.field);
          expect(at === undefined ? null : at, `${b.key} / ${offer} / ${f.field}`).toEqual(f.value);
          expect(f.source.length).toBeGreaterThan(0);
          checked++;
        }
        expect(a.fitScore).toBeGreaterThanOrEqual(0);
        expect(a.fitScore).toBeLessThanOrEqual(100);
        expect(Number.isInteger(a.fitScore)).toBe(true);
      }
    expect(checked).toBeGreaterThan(60);
  });

  it("never predicts receptiveness: no forecasting word in anything it produces, across many inputs", async () => {
    const offers = [
      ...Object.values(OFFERS),
      "We help SMEs with 10-250 staff across the UK win public sector tenders",
      "Net zero and carbon reduction plans for manufacturers",
      "Invoice finance for construction companies in Greater London with 50+ employees",
      "SEO and web design for restaurants and cafes in Bristol",
      "Payroll for enterprises",
      "GDPR compliance training for charities",
      "Business bank accounts for new businesses",
      "Sponsor licence applications for care providers",
      "Growth funding for tech companies",
      "Cleaning",
    ];
    const phraser: Phraser = { available: true, phrase: async ({ facts }) => facts.join(" ") };
    let scanned = 0;
    for (const b of BUSINESSES)
      for (const offer of offers) {
        const a = assessFit({ ...b, offer, today: TODAY });
        const d1 = await draftOpener({ offer, profile: b.profile, facts: a.openerFacts }, { available: false, phrase: async () => null });
        const d2 = await draftOpener({ offer, profile: b.profile, facts: a.openerFacts }, phraser);
        for (const s of strings([a, d1, d2])) {
          expect(s, `${b.key} / ${offer}`).not.toMatch(FORECAST);
          expect(receptivenessWords(s)).toEqual([]);
          scanned++;
        }
      }
    expect(scanned).toBeGreaterThan(1000);
  });

  it("is deterministic, and its reply parses with the schema", async () => {
    for (const b of BUSINESSES) {
      const a = assessFit({ ...b, offer: OFFERS.careRecruitment, today: TODAY });
      expect(assessFit({ ...b, offer: OFFERS.careRecruitment, today: TODAY })).toEqual(a);
      const { openerFacts, ...rest } = a;
      const d = await draftOpener({ offer: OFFERS.careRecruitment, profile: b.profile, facts: openerFacts }, { available: false, phrase: async () => null });
      expect(AssessmentFields.safeParse({ ...rest, openerFacts, ...d }).success).toBe(true);
    }
  });
});

describe("draftOpener (the document readers' rules for an optional model)", () => {
  const facts = run("careHome", OFFERS.careRecruitment).openerFacts;
  const input = { offer: OFFERS.careRecruitment, profile: careHome, facts };
  const composed = [
    "Hello,",
    "",
    "I provide recruitment of care staff for care homes in the North West. From public information: your company is registered under SIC code 87100 (Residential nursing care facilities). Your website links a careers or jobs page. Would a short conversation about whether this is relevant to you be useful?",
    "",
    "Kind regards,",
  ].join("\n");

  it("without a model: composed from the facts, greeting without a name, a question", async () => {
    expect(facts).toHaveLength(3);
    const d = await draftOpener(input, { available: false, phrase: async () => null });
    expect(d).toEqual({ openerDraft: composed, draftBy: "facts", editable: true });
    expect(d.openerDraft).not.toContain("Meadowbank");
  });

  it("with a model that keeps to the facts: its wording is used", async () => {
    const asked: string[][] = [];
    const phraser: Phraser = {
      available: true,
      phrase: async (task) => {
        asked.push(task.facts);
        return "Hello,\n\nI provide recruitment of care staff for care homes in the North West. Public records show your company is registered under SIC code 87100 (Residential nursing care facilities), and your website links a careers or jobs page. Would a short conversation about whether this is relevant to you be useful?\n\nKind regards,";
      },
    };
    const d = await draftOpener(input, phraser);
    expect(d.draftBy).toBe("model");
    expect(d.openerDraft).toContain("Public records show your company");
    expect(asked[0][0]).toBe("Hello,");
    expect(asked[0].join(" ")).toContain(facts[1]);
  });

  it("with a model that adds a figure, a name, a forecast or too much: refused, the facts stand", async () => {
    const answers = [
      "Hello,\n\nI provide recruitment of care staff. Your home has 42 beds and your company is registered under SIC code 87100. Would a short conversation be useful?",
      "Hello Sarah,\n\nI provide recruitment of care staff for care homes in the North West. Would a short conversation about whether this is relevant to you be useful?",
      "Hello,\n\nI provide recruitment of care staff for care homes in the North West. As your website links a careers or jobs page you are likely interested in new staff. Would a short conversation be useful?",
      "Hello,\n\nI provide recruitment of care staff for care homes in the North West at Meadowbank Care Limited. Would a short conversation be useful?",
      `Hello,\n\n${"I provide recruitment of care staff for care homes in the North West. ".repeat(12)}`,
    ];
    for (const answer of answers) {
      const d = await draftOpener(input, { available: true, phrase: async () => answer });
      expect(d, answer.slice(0, 40)).toEqual({ openerDraft: composed, draftBy: "facts", editable: true });
    }
  });

  it("with a model that returns nothing or throws: the facts stand", async () => {
    expect((await draftOpener(input, { available: true, phrase: async () => null })).draftBy).toBe("facts");
    expect((await draftOpener(input, { available: true, phrase: async () => "  " })).draftBy).toBe("facts");
    const throwing: Phraser = {
      available: true,
      phrase: async () => {
        throw new Error("model down");
      },
    };
    expect(await draftOpener(input, throwing)).toEqual({ openerDraft: composed, draftBy: "facts", editable: true });
  });

  it("an offer written in the first person is kept as written; no facts, no fact line", async () => {
    const d = await draftOpener({ offer: "We help law firms hire paralegals", profile: noNumber, facts: [] }, { available: false, phrase: async () => null });
    expect(d.openerDraft).toBe(
      "Hello,\n\nWe help law firms hire paralegals. Would a short conversation about whether this is relevant to you be useful?\n\nKind regards,",
    );
  });
});
