import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import { UpstreamError } from "../../src/shared/errors";
import { apiTimestamp, fetchCfAwards, fetchFtsAwards, fetchOcdsUrl } from "../../src/sources/contracts/client";
import { type SupplierAward, contractRecord, escapeControlCharacters, parseContracts, postcodeOf } from "../../src/sources/contracts/parse";
import { RegisterFormatError } from "../../src/sources/format-error";

/**
 * Issue 14 §1: Contracts Finder and Find a Tender OCDS award releases → one register record per award and supplier.
 * First the real Contracts Finder releases in ../shared (skipped without it), then our own fixtures in the FTS and CF
 * formats (test/fixtures/hosts/fts.test, cf.test): GB-PPON suppliers with GB-COH among their additional identifiers,
 * an unpadded GB-COH id, suppliers with no number, a multi-supplier award, an award without value, cursor paging,
 * and 429 with Retry-After.
 */

const REAL = "http://shared.test/data/contracts-finder-fts";
const text = async (url: string) => (await fetch(url)).text();
const realRelease = async (n: number) => text(`${REAL}/cf-ocds-release-release${n}.json`);
const FTS_PAGE_1 = "https://fts.test/api/1.0/ocdsReleasePackages";
const FTS_PAGE_2 = "https://fts.test/api/1.0/ocdsReleasePackages?cursor=c2";
const CF_PAGE = "https://cf.test/Published/Notices/OCDS/Search";
const bySupplier = (awards: SupplierAward[]) => new Map(awards.map((a) => [a.award.supplier.name, a]));
const cfg = (fetchImpl: typeof fetch = fetch, sleep = async (_ms: number) => {}) => ({
  ftsUrl: "https://fts.test",
  cfUrl: "https://cf.test",
  fetchImpl,
  sleep,
});
const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : String(input));

describe.skipIf(!SHARED_PRESENT)("issue 14 §1 real Contracts Finder releases (../shared): parse into awards", () => {
  it("real data: an award to an LLP: the GB-COH number kept (OC325346), the postcode found in a one-line street address, the notice page by the notice's guid", async () => {
    const { awards, editionDate } = parseContracts(await realRelease(117));
    expect(editionDate).toBe("2025-03-11");
    expect(awards).toHaveLength(1);
    const r = contractRecord(awards[0]);
    expect(r).toMatchObject({
      source: "contracts",
      key: "ocds-b5fd17-10324e00-eced-4957-97bd-a3f004dc90f6/ocds-b5fd17-10324e00-eced-4957-97bd-a3f004dc90f6-1/GB-COH-OC325346",
      entity: "ocds-b5fd17-10324e00-eced-4957-97bd-a3f004dc90f6/ocds-b5fd17-10324e00-eced-4957-97bd-a3f004dc90f6-1",
      part: "GB-COH-OC325346",
      name: "RSM UK Ltd",
      companyNumber: "OC325346",
      status: "active",
    });
    expect(r.data).toEqual({
      source: "CF",
      ocid: "ocds-b5fd17-10324e00-eced-4957-97bd-a3f004dc90f6",
      releaseId: "a757e07c-1dee-4fc2-821f-24eea86ae447-833022",
      awardId: "ocds-b5fd17-10324e00-eced-4957-97bd-a3f004dc90f6-1",
      noticeUrl: "https://www.contractsfinder.service.gov.uk/Notice/a757e07c-1dee-4fc2-821f-24eea86ae447",
      buyer: { name: "West Northamptonshire Council", id: "GB-SRS-supplierregistration.cabinetoffice.gov.uk/Ghxe296B" },
      title: "WNC PFI Finance Remodelling",
      description: "To undertake a remodelling of a PFI financial model",
      value: { amount: 35000, currency: "GBP" },
      awardDate: "2025-02-26T00:00:00Z",
      datePublished: "2025-03-11T13:09:16Z",
      contractPeriod: { start: "2025-02-27T00:00:00Z", end: "2025-06-01T23:59:59+01:00" },
      cpv: { id: "66170000", description: "Financial consultancy, financial transaction processing and clearing-house services" },
      // The saved copy lost "\r\n" to "rn": "25 Farringdon StreetrnLondonrnEC4A 4AB".
      supplier: { name: "RSM UK Ltd", companyNumber: "OC325346", ppon: null, postcode: "EC4A 4AB", scale: "large", identifiers: ["GB-COH-OC325346"] },
      supplierCount: 1,
      status: "active",
      updatedAt: "2025-03-11T13:09:16Z",
    });
  });

  it("real data: GB-COH numbers normalised to 8 characters (00975677, 00845310); a buyer with only a GB-CFS id", async () => {
    const [hays] = parseContracts(await realRelease(122)).awards;
    expect(hays.award.supplier).toMatchObject({ name: "Hays Specialist Recruitment Limited", companyNumber: "00975677", postcode: "NW1 3BF", scale: "large" });
    expect(hays.award.value).toEqual({ amount: 25_755_000, currency: "GBP" });
    const [draken] = parseContracts(await realRelease(124)).awards;
    // A supplier with a company number is a company: its name is kept as given, "t/a" and all.
    expect(draken.award.supplier).toMatchObject({ name: "Fr Aviation t/a Draken Europe", companyNumber: "00845310", postcode: "BH23 6NE" });
    expect(draken.award.buyer).toEqual({ name: "Ministry of Defence", id: "GB-CFS-209532" });
  });

  it("real data: the DPS call-off award to twelve suppliers: one entity, an entry per supplier; GB-COH-4142000 → 04142000; GB-CFS suppliers without a number keep name and postcode", async () => {
    const { awards, notes } = parseContracts(await realRelease(17));
    const entity = "ocds-b5fd17-d1441223-b3e7-45a9-9ff6-88fcdad59f37/ocds-b5fd17-d1441223-b3e7-45a9-9ff6-88fcdad59f37-1";
    expect(new Set(awards.map((a) => a.entity))).toEqual(new Set([entity]));
    // "Corby Jet Carz" (GB-CFS, no number) reads like a person's name to the shared rule (a given name and two words): left out, counted.
    expect(awards).toHaveLength(11);
    expect(notes).toEqual({ personOnlySuppliers: 1 });
    expect(awards.every((a) => a.award.supplierCount === 12 && a.award.value?.amount === 776888.48)).toBe(true);
    const s = bySupplier(awards);
    expect(s.get("24x7")!.award.supplier).toEqual({
      name: "24x7",
      companyNumber: "04142000",
      ppon: null,
      postcode: "CM6 2JN",
      scale: "sme",
      identifiers: ["GB-COH-4142000"],
    });
    expect(s.get("24x7")!.key).toBe(`${entity}/GB-COH-4142000`);
    expect(s.get("BA Taxis Ltd")!.award.supplier).toEqual({
      name: "BA Taxis Ltd",
      companyNumber: null,
      ppon: null,
      postcode: "LE2 0DP",
      scale: "sme",
      identifiers: ["GB-CFS-307558"],
    });
    expect(s.get("Take Me")!.award.supplier).toMatchObject({ companyNumber: null, postcode: "LE11 1TH" });
    expect(s.get("NMI Taxis")!.award.supplier).toMatchObject({ companyNumber: "12308679", postcode: "LE5 4PD" });
    expect(awards.filter((a) => a.award.supplier.companyNumber === null).map((a) => a.award.supplier.name)).toEqual(["BA Taxis Ltd", "Starline", "Take Me"]);
  });

  it("real data: a tender release gives no award; the five releases as one JSON array give 14 entries, dated by the newest release", async () => {
    expect(parseContracts(await realRelease(75))).toEqual({ editionDate: "2025-01-23", awards: [], notes: { releasesWithoutAwards: 1 } });
    const all = await Promise.all([117, 122, 124, 17, 75].map(realRelease));
    const parsed = parseContracts(`[${all.join(",")}]`);
    expect(parsed.awards).toHaveLength(14);
    expect(parsed.editionDate).toBe("2025-03-11");
  });

  it("real data: a copy with raw line breaks inside strings (not strict JSON) is read: control characters are escaped only when the strict parse fails", async () => {
    const raw = (await realRelease(117)).replace("StreetrnLondonrnEC4A", "Street\r\nLondon\r\nEC4A");
    expect(() => JSON.parse(raw)).toThrow();
    const [a] = parseContracts(raw).awards;
    expect(a.award.supplier.postcode).toBe("EC4A 4AB");
    expect(a.award.supplier.companyNumber).toBe("OC325346");
  });
});

describe("issue 14 §1 OCDS parse on our fixtures (FTS and CF formats)", () => {
  it("an FTS award to a GB-PPON supplier whose GB-COH number is among its additionalIdentifiers", async () => {
    const { awards, editionDate } = parseContracts(await text(FTS_PAGE_1));
    expect(editionDate).toBe("2026-10-08");
    const a = bySupplier(awards).get("Harbourside Facilities Management Limited")!;
    expect(contractRecord(a)).toMatchObject({
      key: "ocds-h6vhtk-04a1b2/1/GB-PPON-PQRD-7312-HVTN",
      entity: "ocds-h6vhtk-04a1b2/1",
      part: "GB-PPON-PQRD-7312-HVTN",
      companyNumber: "09876543",
      altNames: [],
      town: "Bristol",
    });
    expect(a.award).toMatchObject({
      source: "FTS",
      releaseId: "031245-2026",
      noticeUrl: "https://www.find-tender.service.gov.uk/Notice/031245-2026",
      buyer: { name: "Northfield Borough Council", id: "GB-PPON-PMRT-4821-QWLX" },
      value: { amount: 1_250_000, currency: "GBP" },
      cpv: { id: "79993000", description: "Building and facilities management services" },
      supplier: {
        name: "Harbourside Facilities Management Limited",
        companyNumber: "09876543",
        ppon: "PQRD-7312-HVTN",
        postcode: "BS1 6XN",
        scale: "sme",
        identifiers: ["GB-PPON-PQRD-7312-HVTN", "GB-COH-09876543", "VAT-GB123456789"],
      },
    });
  });

  it("an unpadded GB-COH-4142000 is 04142000; an award without value has value null; the CPV code from the tender's items", async () => {
    const a = bySupplier(parseContracts(await text(FTS_PAGE_1)).awards).get("Wessex Fleet Hire Ltd")!;
    expect(a.award).toMatchObject({ value: null, status: "pending", contractPeriod: null, cpv: { id: "34110000", description: "Passenger cars" } });
    expect(a.award.supplier).toMatchObject({ companyNumber: "04142000", postcode: "SP1 2AB", scale: "large" });
  });

  it("a framework award to three suppliers: one with a number, one with only a PPON, one with neither; the contract period from the contract", async () => {
    const { awards, notes } = parseContracts(await text(FTS_PAGE_2));
    expect(notes).toEqual({ releasesWithoutAwards: 1 });
    expect(awards.map((a) => [a.key, a.award.supplier.companyNumber, a.award.supplier.ppon, a.award.supplier.postcode])).toEqual([
      ["ocds-h6vhtk-04a2d0/1/GB-COH-SC412233", "SC412233", null, "EH6 7DL"],
      ["ocds-h6vhtk-04a2d0/1/GB-PPON-PHTR-5521-KKQA", null, "PHTR-5521-KKQA", "RG1 1LX"],
      ["ocds-h6vhtk-04a2d0/1/GB-FTS-88231", null, null, "OX12 8AA"],
    ]);
    expect(awards[2].award.supplier.identifiers).toEqual(["GB-FTS-88231"]);
    expect(awards[0].award).toMatchObject({ supplierCount: 3, contractPeriod: { start: "2026-11-01T00:00:00Z", end: "2028-10-31T23:59:59Z" } });
  });

  it("Contracts Finder: GB-CFS suppliers without a number; an escaped CRLF street address; a supplier named only as a person is left out and counted", async () => {
    const { awards, notes } = parseContracts(await text(CF_PAGE));
    expect(notes).toEqual({ personOnlySuppliers: 1 });
    expect(awards.map((a) => [a.award.source, a.award.supplier.name, a.award.supplier.companyNumber, a.award.supplier.postcode])).toEqual([
      ["CF", "Meadowlark Catering", null, "TA1 4QP"],
      ["CF", "Orchard & Vine Partners LLP", "OC401122", "TA1 1LH"],
    ]);
    expect(JSON.stringify(awards)).not.toContain("Hughes");
    expect(awards[0].award.noticeUrl).toBe("https://www.contractsfinder.service.gov.uk/Notice/b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e");
  });

  it("a record package (compiled release), a single release, an array of packages; an award published again is read from its newest release", async () => {
    const page = JSON.parse(await text(FTS_PAGE_1));
    const [harbour] = page.releases;
    const records = {
      uri: "x",
      publishedDate: "2026-10-09T00:00:00Z",
      records: [{ ocid: harbour.ocid, releases: [{ url: "https://…", date: harbour.date, tag: ["award"] }], compiledRelease: harbour }],
    };
    expect(parseContracts(JSON.stringify(records)).awards.map((a) => a.key)).toEqual(["ocds-h6vhtk-04a1b2/1/GB-PPON-PQRD-7312-HVTN"]);
    expect(parseContracts(JSON.stringify(harbour)).awards).toHaveLength(1);
    // The award cancelled in a later release: the later one counts, wherever it stands in the file.
    const cancelled = {
      ...harbour,
      id: "031500-2026",
      date: "2026-10-09T10:00:00Z",
      tag: ["awardUpdate"],
      awards: [{ ...harbour.awards[0], status: "cancelled" }],
    };
    const both = parseContracts(JSON.stringify([{ releases: [cancelled] }, { releases: [harbour] }]));
    expect(both.awards.map((a) => [a.award.status, a.award.releaseId])).toEqual([["cancelled", "031500-2026"]]);
    expect(both.notes).toEqual({ olderVersionsOfAwards: 1 });
    expect(both.editionDate).toBe("2026-10-09");
  });

  it("releases of other publishers are skipped and counted; descriptions are cut to 500 characters", async () => {
    const [harbour] = JSON.parse(await text(FTS_PAGE_1)).releases;
    const other = { ...harbour, ocid: "ocds-kuma6s-123456" };
    const long = { ...harbour, tender: { ...harbour.tender, description: "x".repeat(2000) } };
    const { awards, notes } = parseContracts(JSON.stringify([other, long]));
    expect(notes).toEqual({ otherPublishers: 1 });
    expect(awards[0].award.description).toHaveLength(500);
  });

  it("what is not OCDS JSON is a format error", () => {
    expect(() => parseContracts("<html>maintenance</html>")).toThrow(RegisterFormatError);
    expect(() => parseContracts('{"releases": [}')).toThrow(RegisterFormatError);
    expect(() => parseContracts('{"hello": 1}')).toThrow(RegisterFormatError);
  });

  it("raw control characters are escaped inside strings only; postcodes from postalCode or the street address", () => {
    expect(escapeControlCharacters('{"a":"x\ny\tz","b":\n1}')).toBe('{"a":"x\\ny\\tz","b":\n1}');
    expect(escapeControlCharacters('{"a":"q\\"\u0001"}')).toBe('{"a":"q\\"\\u0001"}');
    expect(postcodeOf({ postalCode: "NN11ED" })).toBe("NN1 1ED");
    expect(postcodeOf({ postalCode: "75008", streetAddress: "1 Rue de Rivoli, Paris" })).toBeNull();
    expect(postcodeOf({ streetAddress: "187F Greenlane Road, Leicester le5 4pd" })).toBe("LE5 4PD");
  });
});

describe("issue 14 §1 OCDS clients: cursor paging, updatedFrom, Retry-After", () => {
  it("FTS: asks updatedFrom/updatedTo of award releases, 100 a page, and follows links.next by cursor; releases without awards are not kept", async () => {
    const asked: string[] = [];
    const spy: typeof fetch = async (input, init) => {
      asked.push(urlOf(input));
      return fetch(input, init);
    };
    const got = await fetchFtsAwards(cfg(spy), "2026-10-07T04:00:00.000Z", "2026-10-08T04:00:00.000Z");
    expect(asked).toEqual([
      "https://fts.test/api/1.0/ocdsReleasePackages?updatedFrom=2026-10-07T04%3A00%3A00&updatedTo=2026-10-08T04%3A00%3A00&stages=award&limit=100",
      "https://fts.test/api/1.0/ocdsReleasePackages?cursor=c2&limit=100&stages=award&updatedFrom=2026-10-07T04:00:00",
    ]);
    expect(got).toMatchObject({ pages: 2, waited: 0, publishedDate: "2026-10-08T04:00:04Z" });
    expect(got.releases.map((r) => r.id)).toEqual(["031245-2026", "031302-2026", "031377-2026"]);
    // Cut down to what the parser reads: no contact points, the same awards.
    expect(JSON.stringify(got.releases)).not.toContain("contactPoint");
    expect(parseContracts(JSON.stringify(got.releases)).awards).toHaveLength(5);
    expect(apiTimestamp("2026-10-08T04:00:00.123Z")).toBe("2026-10-08T04:00:00");
  });

  it("Contracts Finder: asks publishedFrom/publishedTo of award releases", async () => {
    const asked: string[] = [];
    const got = await fetchCfAwards(
      cfg(async (input, init) => (asked.push(urlOf(input)), fetch(input, init))),
      "2026-10-07T04:00:00Z",
      "2026-10-08T04:00:00Z",
    );
    expect(asked).toEqual([
      "https://cf.test/Published/Notices/OCDS/Search?publishedFrom=2026-10-07T04%3A00%3A00&publishedTo=2026-10-08T04%3A00%3A00&stages=award&limit=100",
    ]);
    expect(got.releases).toHaveLength(2);
  });

  it("a 429 with Retry-After is honoured: the client waits the seconds asked, then asks the same page again", async () => {
    const waits: number[] = [];
    const asked: string[] = [];
    let refused = 0;
    const flaky: typeof fetch = async (input, init) => {
      asked.push(urlOf(input));
      if (urlOf(input).includes("cursor=c2") && refused++ === 0) return new Response("Too Many Requests", { status: 429, headers: { "Retry-After": "7" } });
      return fetch(input, init);
    };
    const got = await fetchFtsAwards(
      cfg(flaky, async (ms) => void waits.push(ms)),
      "2026-10-07T04:00:00Z",
      "2026-10-08T04:00:00Z",
    );
    expect(waits).toEqual([7000]);
    expect(asked.filter((u) => u.includes("cursor=c2"))).toHaveLength(2);
    expect(got).toMatchObject({ pages: 2, waited: 7 });
    expect(got.releases).toHaveLength(3);
  });

  it("a 503 with Retry-After is waited for too; waits beyond 60 s in all stop the read with a rate_limited error (never read as no awards)", async () => {
    const waits: number[] = [];
    const busy =
      (status: number, after: string): typeof fetch =>
      async () =>
        new Response("busy", { status, headers: { "Retry-After": after } });
    const err = await fetchFtsAwards(
      cfg(busy(429, "25"), async (ms) => void waits.push(ms)),
      "2026-10-07T04:00:00Z",
      "2026-10-08T04:00:00Z",
    ).catch((e) => e);
    expect(waits).toEqual([25_000, 25_000]); // a third wait would pass 60 s
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ kind: "rate_limited", status: 429, retryAfter: 25 });
    expect(err.message).toMatch(/Find a Tender answered 429 asking to wait 25 s, beyond the 60 s this run may wait \(waited 50 s\)/);
    // One long wait asked for is not waited at all.
    const long: number[] = [];
    await expect(
      fetchFtsAwards(
        cfg(busy(503, "3600"), async (ms) => void long.push(ms)),
        "2026-10-07T04:00:00Z",
        "2026-10-08T04:00:00Z",
      ),
    ).rejects.toMatchObject({ kind: "rate_limited", retryAfter: 3600 });
    expect(long).toEqual([]);
    // A 503 without Retry-After is an upstream failure.
    await expect(
      fetchCfAwards(
        cfg(async () => new Response("down", { status: 503 })),
        "2026-10-07T04:00:00Z",
        "2026-10-08T04:00:00Z",
      ),
    ).rejects.toMatchObject({ kind: "unreachable" });
  });

  it("a cursor link naming another host is asked of the configured host; a URL given to the CLI is followed on its own host", async () => {
    const asked: string[] = [];
    const elsewhere: typeof fetch = async (input, init) => {
      const u = urlOf(input);
      asked.push(u);
      if (!u.includes("cursor")) {
        const page = await (await fetch(input, init)).json<Record<string, unknown>>();
        return Response.json({ ...page, links: { next: "https://evil.example/api/1.0/ocdsReleasePackages?cursor=c2" } });
      }
      return fetch(input, init);
    };
    await fetchFtsAwards(cfg(elsewhere), "2026-10-07T04:00:00Z", "2026-10-08T04:00:00Z");
    expect(asked[1]).toBe("https://fts.test/api/1.0/ocdsReleasePackages?cursor=c2");
    const viaCli = await fetchOcdsUrl("https://fts.test/api/1.0/ocdsReleasePackages?updatedFrom=2026-10-07T04:00:00&stages=award");
    expect(viaCli.pages).toBe(2);
  });
});
