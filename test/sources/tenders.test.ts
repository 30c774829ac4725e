import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import { RegisterFormatError } from "../../src/sources/format-error";
import { fetchCfTenders, fetchFtsTenders, foldText, parseTenders, slimTenderRelease } from "../../src/sources/contracts/tenders";

/**
 * Issue 18 §2 tender-match, tender notices in: Find a Tender and Contracts Finder OCDS tender-stage releases → one
 * TenderNotice per process. First the real Contracts Finder releases in ../shared (release75 is a tender; the others
 * awards), skipped without it; then our own package (test/fixtures/contracts/tender-release-package.json): a notice
 * updated by a later release, one cancelled by a later release, one closed by an award in the same file, an award
 * for a process not in the file, a planning notice, another publisher, `\r\n` in texts, a missing value, a missing
 * deadline, a deadline given as a date alone, CPV ids with a check digit, lots.
 */

const REAL = "http://shared.test/data/contracts-finder-fts";
const SAMPLE = "http://files.test/contracts/tender-release-package.json";
const text = async (url: string) => (await fetch(url)).text();
const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : String(input));

describe.skipIf(!SHARED_PRESENT)("issue 18 §2 real Contracts Finder releases (../shared) read as tender notices", () => {
  it("real data: release75 (a tender) gives every field: CPV main and additional, value with its minimum, deadline, suitability, region, the notice page by the notice's guid", async () => {
    const { notices, closures, editionDate } = parseTenders(await text(`${REAL}/cf-ocds-release-release75.json`));
    expect(editionDate).toBe("2025-01-23");
    expect(closures).toEqual([]);
    expect(notices).toHaveLength(1);
    const n = notices[0];
    expect(n).toMatchObject({
      source: "CF",
      ocid: "ocds-b5fd17-eaea1515-019b-4af4-8c76-96405e39f126",
      noticeId: "c5b3ac8e-052e-42c3-a16d-45c9fa0cd925-819877",
      // The notice page is the release's guid, not the ocid's (the tender document's link agrees).
      noticeUrl: "https://www.contractsfinder.service.gov.uk/Notice/c5b3ac8e-052e-42c3-a16d-45c9fa0cd925",
      title: "Design Lead for Russell-Cotes Art Gallery and Museum Conservation",
      buyer: "Bournemouth Christchurch and Poole Council",
      status: "active",
      deadline: "2025-02-28T14:00:00Z",
      value: { amount: 359000, min: 350000, max: null, currency: "GBP" },
      suitability: { sme: true, vcse: false },
      regions: ["South West"],
      published: "2025-01-23T15:42:26Z",
      category: "services",
      closedBy: null,
    });
    expect(n.cpv.map((c) => c.id)).toEqual(["71200000", "71530000", "71310000", "45212350", "71315200", "71315210"]);
    expect(n.cpv[0].description).toBe("Architectural and related services");
    // Runs of spaces folded; at most 1000 characters.
    expect(n.description).toMatch(/^Russell-Cotes Art Gallery and Museum \(RCAGM\) is a Grade II\* listed building/);
    expect(n.description).not.toMatch(/\s{2}/);
    expect(n.description!.length).toBeLessThanOrEqual(1000);
  });

  it("real data: award releases create no notice: alone they are closures of processes not in the file", async () => {
    const parts = await Promise.all([117, 122, 124, 17].map((n) => text(`${REAL}/cf-ocds-release-release${n}.json`)));
    const { notices, closures } = parseTenders(`[${parts.join(",")}]`);
    expect(notices).toEqual([]);
    expect(closures.map((c) => [c.ocid, c.status, c.closedBy])).toEqual([
      ["ocds-b5fd17-10324e00-eced-4957-97bd-a3f004dc90f6", "complete", "award"],
      ["ocds-b5fd17-959e5680-1f24-4409-958e-07b6ad933acb", "complete", "award"],
      ["ocds-b5fd17-e94eba77-3792-42e5-97fd-01b97f5ced98", "complete", "award"],
      ["ocds-b5fd17-d1441223-b3e7-45a9-9ff6-88fcdad59f37", "complete", "award"],
    ]);
  });

  it("real data: the tender release followed by an award release of the same process is closed", async () => {
    const tender = JSON.parse((await text(`${REAL}/cf-ocds-release-release75.json`)).replace(/[\u0000-\u001f]/g, " "));
    const award = JSON.parse((await text(`${REAL}/cf-ocds-release-release117.json`)).replace(/[\u0000-\u001f]/g, " "));
    const later = { ...award, ocid: tender.ocid, date: "2025-03-11T13:09:16Z" };
    const { notices, closures, notes } = parseTenders(JSON.stringify([later, tender]));
    expect(closures).toEqual([]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      ocid: tender.ocid,
      status: "complete",
      closedBy: "award",
      releaseDate: "2025-03-11T13:09:16Z",
      title: tender.tender.title,
    });
    expect(notes.noticesClosedByAward).toBe(1);
  });
});

describe("issue 18 §2 our own tender release package", () => {
  it("one notice per process: updates, cancellations and awards in the file applied in date order; another publisher skipped", async () => {
    const { notices, closures, notes, editionDate } = parseTenders(await text(SAMPLE));
    expect(editionDate).toBe("2026-11-19");
    const byOcid = new Map(notices.map((n) => [n.ocid, n]));
    expect([...byOcid.keys()].sort()).toEqual([
      "ocds-b5fd17-2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
      "ocds-b5fd17-3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f",
      "ocds-b5fd17-7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
      "ocds-h6vhtk-05b1a0",
      "ocds-h6vhtk-05b1c4",
      "ocds-h6vhtk-05b1d9",
      "ocds-h6vhtk-05b1e2",
      "ocds-h6vhtk-05b1f3",
      "ocds-h6vhtk-05b201",
    ]);
    expect(notes).toMatchObject({ otherPublishers: 1, noticesUpdated: 2, noticesClosedByAward: 1 });
    // Updated by a later tenderUpdate (listed after it in the file, dated later): deadline moved and value added; the description it leaves out is kept.
    expect(byOcid.get("ocds-h6vhtk-05b1c4")).toMatchObject({
      noticeId: "035001-2026",
      noticeUrl: "https://www.find-tender.service.gov.uk/Notice/035001-2026",
      deadline: "2027-02-15T17:00:00Z",
      value: { amount: 250000, currency: "GBP" },
      description: "First and second line IT service desk, software support and device management for 1,200 users.",
      published: "2026-11-05T10:00:00Z",
      status: "active",
    });
    // Cancelled by a later release; closed by an award in the same file.
    expect(byOcid.get("ocds-h6vhtk-05b1d9")).toMatchObject({
      status: "cancelled",
      closedBy: "cancelled",
      title: "External audit and accounting services",
      deadline: "2027-01-20T12:00:00Z",
    });
    expect(byOcid.get("ocds-h6vhtk-05b1e2")).toMatchObject({ status: "complete", closedBy: "award", releaseDate: "2026-11-16T15:30:00Z" });
    // An award of a process whose tender is not in the file: a closure only.
    expect(closures).toEqual([
      { ocid: "ocds-h6vhtk-05a0f1", noticeId: "035340-2026", releaseDate: "2026-11-17T10:00:00Z", status: "complete", closedBy: "award" },
    ]);
    // A planning notice is `planned`, without a deadline.
    expect(byOcid.get("ocds-h6vhtk-05b1f3")).toMatchObject({ status: "planned", deadline: null, closedBy: null });
  });

  it("the mess: \\r\\n folded, no value, no deadline, a buyer named only among the parties, CPV check digits dropped, a date-only deadline, regions as codes and names", async () => {
    const { notices } = parseTenders(await text(SAMPLE));
    const byOcid = new Map(notices.map((n) => [n.ocid, n]));
    const analytics = byOcid.get("ocds-h6vhtk-05b1a0")!;
    expect(analytics.description).toBe(
      "The Council seeks a supplier to provide a data analytics platform, dashboards and business intelligence support for its housing and waste services. Lot 1: platform licences and hosting. Lot 2: analyst support and training for council staff. The contract is for three years with an option to extend by one year.",
    );
    expect(analytics.cpv.map((c) => c.id)).toEqual(["72300000", "48000000", "80500000"]);
    expect(analytics).toMatchObject({
      value: { amount: 480000, min: null, max: null, currency: "GBP" },
      regions: ["UKH15", "TLH1"],
      suitability: { sme: true, vcse: false },
    });
    const legal = byOcid.get("ocds-b5fd17-7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f")!;
    expect(legal).toMatchObject({
      deadline: null,
      buyer: "Harbour Homes Housing Association",
      value: { amount: 120000, min: 40000 },
      noticeUrl: "https://www.contractsfinder.service.gov.uk/Notice/e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b",
      regions: ["South West"],
      suitability: { sme: true, vcse: true },
    });
    expect(legal.description).toContain("right to buy sales. Additional information");
    expect(byOcid.get("ocds-h6vhtk-05b1c4")!.value).not.toBeNull();
    expect(byOcid.get("ocds-h6vhtk-05b201")).toMatchObject({ deadline: "2027-03-31", regions: ["TLE42"], category: "works" });
    // Contact points are never read.
    expect(JSON.stringify(notices)).not.toMatch(/procurement@|tenders@|Procurement Team/);
  });

  it("what is not OCDS JSON is refused as a format error", () => {
    expect(() => parseTenders("<html>maintenance</html>")).toThrow(RegisterFormatError);
    expect(() => parseTenders(JSON.stringify({ hello: "world" }))).toThrow(RegisterFormatError);
  });

  it("foldText folds line breaks and cuts long text with an ellipsis", () => {
    expect(foldText("a\r\n\r\nb   c")).toBe("a b c");
    expect(foldText(" \r\n ")).toBeNull();
    expect(foldText("x".repeat(20), 10)).toBe(`${"x".repeat(9)}…`);
  });

  it("slim releases keep what the reader needs: a tender's fields without contact points; an award's closure; nothing else", async () => {
    const pkg = JSON.parse(await text(SAMPLE)) as { releases: Record<string, unknown>[] };
    const slim = pkg.releases.map(slimTenderRelease);
    expect(JSON.stringify(slim)).not.toMatch(/contactPoint|procurement@/);
    expect(parseTenders(JSON.stringify({ releases: slim.filter(Boolean) })).notices).toEqual(parseTenders(await text(SAMPLE)).notices);
    expect(slimTenderRelease({ ocid: "ocds-h6vhtk-000001", tag: ["planningUpdate"], tender: {} })).not.toBeNull();
    expect(slimTenderRelease({ ocid: "ocds-h6vhtk-000001", tag: ["compiled"] })).toBeNull();
  });
});

describe("issue 18 §2 the tender-stage read: stages=tender on both APIs, paged", () => {
  it("asks FTS by updatedFrom/updatedTo and CF by publishedFrom/publishedTo, stages=tender, following cursors", async () => {
    const sample = JSON.parse(await text(SAMPLE));
    const asked: string[] = [];
    const fetchImpl = (async (input: RequestInfo | URL) => {
      const u = urlOf(input);
      asked.push(u);
      if (u.includes("cursor=p2")) return Response.json({ ...sample, releases: sample.releases.slice(6), links: {} });
      if (u.startsWith("https://fts.test"))
        return Response.json({ ...sample, releases: sample.releases.slice(0, 6), links: { next: "https://fts.test/api/1.0/ocdsReleasePackages?cursor=p2" } });
      return Response.json({ ...sample, releases: [], links: {} });
    }) as typeof fetch;
    const cfg = { ftsUrl: "https://fts.test", cfUrl: "https://cf.test", fetchImpl, sleep: async () => {} };
    const fts = await fetchFtsTenders(cfg, "2026-11-18T04:00:00.000Z", "2026-11-19T04:00:00.000Z");
    const cf = await fetchCfTenders(cfg, "2026-11-18T04:00:00.000Z", "2026-11-19T04:00:00.000Z");
    expect(asked).toEqual([
      "https://fts.test/api/1.0/ocdsReleasePackages?updatedFrom=2026-11-18T04%3A00%3A00&updatedTo=2026-11-19T04%3A00%3A00&stages=tender&limit=100",
      "https://fts.test/api/1.0/ocdsReleasePackages?cursor=p2",
      "https://cf.test/Published/Notices/OCDS/Search?publishedFrom=2026-11-18T04%3A00%3A00&publishedTo=2026-11-19T04%3A00%3A00&stages=tender&limit=100",
    ]);
    expect(fts.pages).toBe(2);
    // The other publisher's release is cut like the rest; the parse skips it.
    expect(fts.releases).toHaveLength(sample.releases.length);
    expect(cf.releases).toEqual([]);
  });
});
