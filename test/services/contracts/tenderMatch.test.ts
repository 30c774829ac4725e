import { describe, expect, it } from "vitest";
import { cpvForSicCodes } from "../../../src/services/contracts/cpvForSic";
import {
  type TenderMatchInput,
  type TenderNotice,
  isOpen,
  keywordsFrom,
  ownKeywords,
  rankTenders,
  regionOfPostcode,
  regionsOfTender,
  stem,
  ukDay,
} from "../../../src/services/contracts/tenderMatch";

/**
 * Issue 18 §2 tender-match ranking (pure): CPV prefixes from SIC codes, keywords, region, with reasons; closed
 * tenders (by status, by deadline, to the minute on the day itself, no deadline and published long ago) never
 * offered; deterministic order with tie-breaks.
 */

const NOW = "2026-11-20T10:00:00Z";
const TODAY = "2026-11-20";

let n = 0;
function tender(over: Partial<TenderNotice>): TenderNotice {
  n++;
  return {
    source: "FTS",
    ocid: `ocds-h6vhtk-${String(n).padStart(6, "0")}`,
    noticeId: `0000${n}-2026`,
    releaseDate: "2026-11-01T09:00:00Z",
    noticeUrl: `https://www.find-tender.service.gov.uk/Notice/0000${n}-2026`,
    title: "Untitled",
    description: null,
    buyer: "Northfield Borough Council",
    cpv: [],
    value: null,
    status: "active",
    deadline: "2027-01-15T12:00:00Z",
    suitability: { sme: null, vcse: null },
    regions: [],
    published: "2026-11-01T09:00:00Z",
    category: "services",
    closedBy: null,
    ...over,
  };
}

/** HEDGEROW ANALYTICS (62020 Information technology consultancy activities) at NR2 4PX. */
const sought = (sic: Record<string, string>) =>
  cpvForSicCodes(Object.keys(sic)).map((t) => ({ prefix: t.prefix, description: t.description, fromSic: t.fromSic, sicDescription: sic[t.fromSic] ?? null }));
const it62020 = { "62020": "Information technology consultancy activities" };
const base = (tenders: TenderNotice[], over: Partial<TenderMatchInput> = {}): TenderMatchInput => ({
  cpv: sought(it62020),
  keywords: keywordsFrom(Object.values(it62020)),
  postcode: "NR2 4PX",
  today: TODAY,
  now: NOW,
  tenders,
  ...over,
});

describe("issue 18 §2 tender-match: which tenders are open", () => {
  it("closed by status: cancelled, complete, unsuccessful, withdrawn, unknown; planned and active are open", () => {
    for (const status of ["cancelled", "complete", "unsuccessful", "withdrawn", "unknown"])
      expect(isOpen(tender({ status }), TODAY, NOW).open, status).toBe(false);
    expect(isOpen(tender({ status: "active" }), TODAY, NOW).open).toBe(true);
    expect(isOpen(tender({ status: "planned", deadline: null, published: "2026-11-10" }), TODAY, NOW).open).toBe(true);
  });

  it("the today boundary: a deadline later today is open (0 days left), one earlier today or yesterday is closed; a date-only deadline is open all of its day", () => {
    expect(isOpen(tender({ deadline: "2026-11-20T16:00:00Z" }), TODAY, NOW)).toEqual({ open: true, why: "deadline 2026-11-20T16:00:00Z" });
    expect(isOpen(tender({ deadline: "2026-11-20T09:59:59Z" }), TODAY, NOW).open).toBe(false);
    expect(isOpen(tender({ deadline: "2026-11-19T23:00:00Z" }), TODAY, NOW).open).toBe(false);
    expect(isOpen(tender({ deadline: "2026-11-20" }), TODAY, "2026-11-20T23:30:00Z").open).toBe(true);
    expect(isOpen(tender({ deadline: "2026-11-19" }), TODAY, NOW).open).toBe(false);
    // Offsets: 10:30 at +01:00 is 09:30Z, before now.
    expect(isOpen(tender({ deadline: "2026-11-20T10:30:00+01:00" }), TODAY, NOW).open).toBe(false);
    expect(isOpen(tender({ deadline: "not a date" }), TODAY, NOW).open).toBe(false);
  });

  it("no deadline: open for 60 days after publication, then closed; never dated is closed", () => {
    expect(isOpen(tender({ deadline: null, published: "2026-09-21T08:00:00Z" }), TODAY, NOW).open).toBe(true);
    expect(isOpen(tender({ deadline: null, published: "2026-09-20T08:00:00Z" }), TODAY, NOW)).toEqual({
      open: false,
      why: "no deadline, published 2026-09-20, more than 60 days ago",
    });
    expect(isOpen(tender({ deadline: null, published: null }), TODAY, NOW).open).toBe(false);
  });

  it("ukDay: the UK calendar day of an instant (BST and GMT)", () => {
    expect(ukDay("2026-07-01T23:30:00Z")).toBe("2026-07-02");
    expect(ukDay("2026-12-01T23:30:00Z")).toBe("2026-12-01");
    expect(ukDay("2027-03-31")).toBe("2027-03-31");
    expect(ukDay("soon")).toBeNull();
  });
});

describe("issue 18 §2 tender-match: ranking and reasons", () => {
  it("CPV by specificity, main classification, keywords in title and description, region; reasons in words", () => {
    const group = tender({
      title: "IT consultancy for digital services",
      cpv: [{ id: "72220000", description: "Systems and technical consultancy services" }],
      regions: ["UKH15"],
    });
    const division = tender({
      title: "Data platform",
      cpv: [
        { id: "30200000", description: "Computer equipment and supplies" },
        { id: "72300000", description: "Data services" },
      ],
    });
    const [first, second] = rankTenders(base([division, group]));
    expect(first.tender.ocid).toBe(group.ocid);
    // 50 (group 722) + 5 (main) + 5 (also 72) + 12 (title: consultancy) + 5 (region).
    expect(first.score).toBe(77);
    expect(first.reasons).toEqual([
      "CPV 72220000 Systems and technical consultancy services (within CPV 72200000 Software programming and consultancy services) matches SIC 62020 Information technology consultancy activities (the notice's main classification)",
      "also CPV 72000000 IT services: consulting, software development, Internet and support (from SIC 62020)",
      "title mentions 'consultancy'",
      "to be delivered in East of England, the region of the registered office (NR postcode area)",
    ]);
    expect(first.matchedCpv).toEqual(["72", "722"]);
    // 40 (division 72, not the main classification); nothing else.
    expect(second.score).toBe(40);
    expect(second.reasons).toEqual([
      "CPV 72300000 Data services (within CPV 72000000 IT services: consulting, software development, Internet and support) matches SIC 62020 Information technology consultancy activities",
    ]);
  });

  it("keywords: whole words, singular and plural alike, phrases as phrases; one description mention alone is not enough, two are", () => {
    const input = (t: TenderNotice) => base([t], { cpv: [], keywords: ["school", "web design", "accessibility"], postcode: null });
    expect(rankTenders(input(tender({ title: "Schools web design framework" })))[0].reasons).toEqual(["title mentions 'school', 'web design'"]);
    expect(rankTenders(input(tender({ title: "Websites", description: "Design of the school web pages" })))).toEqual([]); // "web design" not as a phrase; one word
    expect(rankTenders(input(tender({ title: "Websites", description: "Accessibility review of school pages" })))[0]).toMatchObject({
      score: 12,
      reasons: ["description mentions 'school', 'accessibility'"],
    });
    expect(rankTenders(input(tender({ title: "Preschooling" })))).toEqual([]);
  });

  it("closed tenders are never offered, however well they fit", () => {
    const fit = { title: "IT consultancy", cpv: [{ id: "72220000", description: null }] };
    const offered = rankTenders(
      base([
        tender({ ...fit, status: "cancelled", closedBy: "cancelled" }),
        tender({ ...fit, status: "complete", closedBy: "award" }),
        tender({ ...fit, deadline: "2026-11-19T12:00:00Z" }),
        tender({ ...fit, deadline: "2026-11-20T09:00:00Z" }),
        tender({ ...fit, deadline: null, published: "2026-08-01" }),
        tender({ ...fit, deadline: "2026-11-20T17:00:00Z", ocid: "ocds-h6vhtk-open01" }),
      ]),
    );
    expect(offered.map((m) => [m.tender.ocid, m.daysLeft])).toEqual([["ocds-h6vhtk-open01", 0]]);
  });

  it("nothing in common: not offered; no SIC, keywords only", () => {
    expect(rankTenders(base([tender({ title: "Road gritting", cpv: [{ id: "90620000", description: "Snow-clearing services" }] })]))).toEqual([]);
    const r = rankTenders(base([tender({ title: "Road gritting" })], { cpv: [], keywords: ownKeywords("gritting, snow") }));
    expect(r.map((m) => m.score)).toEqual([12]);
  });

  it("deterministic: ties broken by the sooner deadline (none last), then the larger value, then ocid; limit cuts after ranking", () => {
    const same = { title: "Data", cpv: [{ id: "72300000", description: null }] };
    const a = tender({ ...same, ocid: "ocds-h6vhtk-00000b", deadline: "2027-02-01T12:00:00Z" });
    const b = tender({ ...same, ocid: "ocds-h6vhtk-00000a", deadline: "2027-02-01T12:00:00Z" });
    const c = tender({ ...same, ocid: "ocds-h6vhtk-00000c", deadline: "2027-01-01T12:00:00Z" });
    const d = tender({ ...same, ocid: "ocds-h6vhtk-00000d", deadline: "2027-02-01T12:00:00Z", value: { amount: 5000, min: null, max: null, currency: "GBP" } });
    const e = tender({ ...same, ocid: "ocds-h6vhtk-00000e", deadline: null, published: "2026-11-15" });
    const order = (ts: TenderNotice[]) => rankTenders(base(ts)).map((m) => m.tender.ocid.slice(-1));
    expect(order([a, b, c, d, e])).toEqual(["c", "d", "a", "b", "e"]);
    expect(order([e, d, c, b, a])).toEqual(["c", "d", "a", "b", "e"]);
    expect(rankTenders(base([a, b, c, d, e], { limit: 2 })).map((m) => m.tender.ocid.slice(-1))).toEqual(["c", "d"]);
  });

  it("scores stay within 0 to 100", () => {
    const t = tender({
      title: "Information technology consultancy, software and data",
      cpv: ["72220000", "72600000", "72000000", "48000000"].map((id) => ({ id, description: null })),
      regions: ["East of England"],
    });
    const [m] = rankTenders(
      base([t], { cpv: sought({ "62020": "x", "62012": "y" }), keywords: ["information", "technology", "consultancy", "software", "data"] }),
    );
    expect(m.score).toBe(100);
  });
});

describe("issue 18 §2 tender-match: words and regions", () => {
  it("keywords from SIC descriptions drop generic words; own keywords keep phrases", () => {
    expect(keywordsFrom(["Business and domestic software development", "Other information technology service activities"])).toEqual([
      "domestic",
      "software",
      "information",
      "technology",
    ]);
    expect(keywordsFrom(["Manufacture of other builders' carpentry and joinery"])).toEqual(["builders", "carpentry", "joinery"]);
    expect(ownKeywords(" Web Design , accessibility,, web design, a ")).toEqual(["web design", "accessibility"]);
    expect(stem("nurseries")).toBe("nursery");
    expect(stem("boxes")).toBe("box");
    expect(stem("services")).toBe("service");
    expect(stem("business")).toBe("business");
  });

  it("regions: postcode areas to ITL1 regions; tenders' ITL/NUTS codes, region names and postcodes", () => {
    expect(regionOfPostcode("BS1 4QA")).toBe("K");
    expect(regionOfPostcode("LS11 9YJ")).toBe("E");
    expect(regionOfPostcode("EC4A 4AB")).toBe("I");
    expect(regionOfPostcode("EH6 6JA")).toBe("M");
    expect(regionOfPostcode("GY1 1AA")).toBeNull();
    expect(regionsOfTender(["UKH15", "TLK", "South West", "Yorkshire and The Humber", "BS1 4DJ", "United Kingdom", "Any region"])).toEqual(["E", "H", "K"]);
  });
});
