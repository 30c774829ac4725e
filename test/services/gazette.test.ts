import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import { CORPORATE_INSOLVENCY_CODES, gazetteSignals, matchNotices, noticeCompanyName } from "../../src/services/risk/gazette";
import { parseNoticeFeed } from "../../src/sources/gazette/parse";

/** Issue 13 §1 and §4: the Gazette notice feed, the category 24 codes, and a petition then its dismissal. */

const feed = async (name: string) => parseNoticeFeed(await (await fetch(`http://files.test/gazette/${name}`)).text());

describe("issue 13 the Gazette notice feed", () => {
  it("reads notices: id, code, title, date, page, company number when the notice gives one; an entry object is one notice", async () => {
    const f = await feed("insolvency-feed-greystone.json");
    expect(f).toMatchObject({ total: 3, nextPage: true });
    expect(f!.notices[0]).toEqual({
      id: "5122793",
      code: "2450",
      title: "GREYSTONE ENGINEERING LIMITED",
      publishedOn: "2026-09-01",
      url: "https://www.thegazette.co.uk/notice/5122793",
      companyNumber: "05550123",
      text: "A Petition to wind up the above-named Company, Company Number: 05550123 ...",
    });
    expect(f!.notices[2].companyNumber).toBeNull();
    const one = await feed("insolvency-feed-single.json");
    expect(one!.notices.map((n) => [n.id, n.code, n.publishedOn])).toEqual([["L-60768-1986497", "2441", "2016-03-02"]]);
    expect(parseNoticeFeed("<html>not a feed</html>")).toBeNull();
  });

  it("a petition to wind up then its dismissal: the petition is reported cleared; a later winding-up order stands", async () => {
    const signals = gazetteSignals((await feed("insolvency-feed-greystone.json"))!.notices);
    expect(signals.map((s) => [s.code, s.meaning, s.severity, s.date, s.clearedBy?.noticeId ?? null])).toEqual([
      ["2452", "Winding-up order", "high", "2026-10-20", null],
      ["2461", "Dismissal of winding-up petition", "info", "2026-09-22", null],
      ["2450", "Petition to wind up", "info", "2026-09-01", "5129001"],
    ]);
    // Without the dismissal the petition is a live, high-severity signal.
    const petitionOnly = gazetteSignals((await feed("insolvency-feed-greystone.json"))!.notices.filter((n) => n.code === "2450"));
    expect(petitionOnly[0]).toMatchObject({ severity: "high" });
    expect(petitionOnly[0].clearedBy).toBeUndefined();
  });

  it.skipIf(!SHARED_PRESENT)("every code the service reads is in the Gazette's category 24 taxonomy with the same section (../shared)", async () => {
    const csv = await (await fetch("http://shared.test/data/gazette/corporate-insolvency-notice-codes.csv")).text();
    // notice_code,label,section,category_code (no label holds a comma)
    const real = new Map(
      csv
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => {
          const cells = l.split(",");
          return [cells[0], cells[cells.length - 2]] as const;
        }),
    );
    expect(real.size).toBe(46);
    for (const [code, c] of Object.entries(CORPORATE_INSOLVENCY_CODES)) expect({ code, section: real.get(code) }).toEqual({ code, section: c.section });
  });
});

describe("issue 13 §1 which notices are the company's", () => {
  const notice = (id: string, title: string, text: string, companyNumber: string | null = null) => ({
    id,
    code: "2450",
    title,
    publishedOn: "2026-03-09",
    url: null,
    companyNumber,
    text,
  });
  const company = { number: "12300002", name: "Kestrel Couriers Ltd", previousNames: ["Kestrel Parcels Limited"], postcode: "LS1 4AB" };

  it("by company number (linked data or stated in the notice); a notice stating another number never matches, whatever its name", () => {
    const m = matchNotices(
      [
        notice("1", "SOMETHING ELSE LIMITED", "", "12300002"),
        notice("2", "KESTREL COURIERS LTD", "KESTREL COURIERS LTD (Company Number 12300002)"),
        notice("3", "KESTREL COURIERS LTD", "Company Number: 09999999. Registered office: 4 Mill Lane, Leeds LS1 4AB"),
      ],
      company,
    );
    expect(m.map((x) => [x.notice.id, x.matchedBy])).toEqual([
      ["1", "company number"],
      ["2", "company number"],
    ]);
  });

  it("by the identical normalised name (current or previous, legal form and '(In Liquidation)' aside) and the registered office's postcode written before or after those words", () => {
    const m = matchNotices(
      [
        notice("4", "Kestrel Couriers Limited (In Liquidation)", "Registered office: 4 Mill Lane, Leeds, LS1 4AB."),
        notice("5", "KESTREL PARCELS LIMITED", "of 4 Mill Lane, Leeds ls14ab (registered office)"),
        notice("6", "KESTREL COURIERS (NORTH) LTD", "Registered office: 4 Mill Lane, Leeds LS1 4AB"), // another name
        notice("7", "KESTREL COURIERS LTD", "Registered office: 77 Harbour Way, Poole BH15 1AA"), // another office
        notice("8", "KESTREL COURIERS LTD", "A petition ..."), // nothing to corroborate the name
      ],
      company,
    );
    expect(m.map((x) => [x.notice.id, x.matchedBy])).toEqual([
      ["4", "name and registered-office postcode"],
      ["5", "name and registered-office postcode"],
    ]);
    expect(noticeCompanyName("ACME LIMITED (formerly ACME HOLDINGS LIMITED)")).toBe(noticeCompanyName("Acme Ltd"));
  });

  it("a company with no registered-office postcode is matched by number only", () => {
    expect(matchNotices([notice("4", "KESTREL COURIERS LTD", "Registered office: 4 Mill Lane, Leeds LS1 4AB")], { ...company, postcode: null })).toEqual([]);
  });
});
