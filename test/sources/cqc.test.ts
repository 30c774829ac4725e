import { describe, expect, it } from "vitest";
import { SHARED_PRESENT } from "../support/shared";
import { parseCqcJson, parseCqcLocation, parseCqcProvider, parseHscaActiveLocations } from "../../src/sources/cqc/parse";
import { fetchCqcChanges, fetchCqcLocation, fetchCqcProvider } from "../../src/sources/cqc/client";
import { RegisterFormatError } from "../../src/sources/format-error";
import type { RegisterRecord } from "../../src/services/registers/types";

const bytes = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const json = async (file: string): Promise<Record<string, any>> => (await fetch(`http://files.test/cqc/${file}`)).json();
async function all(gen: AsyncGenerator<RegisterRecord<"cqc">>): Promise<RegisterRecord<"cqc">[]> {
  const out: RegisterRecord<"cqc">[] = [];
  for await (const r of gen) out.push(r);
  return out;
}
/** People named in the fixtures (registered managers, nominated individual, an individual provider) and their phones. */
const PEOPLE = ["Evelyn", "Marchbanks", "Harriet", "Example-Manager", "Gregory", "Nominee", "Thomas", "Wakefield", "07700900123", "1632960123", "01632960123"];
const expectNoPerson = (value: unknown) => {
  const text = JSON.stringify(value);
  for (const p of PEOPLE) expect(text).not.toContain(p);
};

describe("parseCqcLocation (SPEC §4.8 cqc-check, §1 rule 7)", () => {
  it("maps a care home with ratings, key questions and its provider's company number; never the registered manager", async () => {
    const rec = parseCqcLocation(await json("location-care-home.json"), await json("provider-organisation.json"));
    expect(rec).toEqual({
      source: "cqc",
      key: "1-125856395",
      entity: "1-125856395",
      part: null,
      name: "Meadowbank House",
      companyNumber: "03712548",
      altNames: ["Meadowbank Nursing Home"],
      status: "Registered",
      rating: "Good",
      town: "Burnham-on-Sea",
      data: {
        kind: "location",
        locationId: "1-125856395",
        providerId: "1-102642955",
        providerName: "Meadow Care Homes Limited",
        name: "Meadowbank House",
        type: "Social Care Org",
        registrationStatus: "Registered",
        registrationDate: "2011-02-15",
        deregistrationDate: null,
        careHome: true,
        numberOfBeds: 64,
        address: { line1: "12 Mill Lane", line2: "Highbridge", town: "Burnham-on-Sea", county: "Somerset", postcode: "TA9 3AB" },
        localAuthority: "Somerset",
        region: "South West",
        inspectionDirectorate: "Adult social care",
        overallRating: "Good",
        ratingDate: "2024-05-25",
        keyQuestions: { safe: "Requires improvement", effective: "Good", caring: "Outstanding", responsive: "Good", wellLed: "Good" },
        lastInspectionDate: "2024-03-12",
        lastReportDate: "2024-05-25",
        inheritedRating: null,
      },
    });
    expectNoPerson(rec);
  });

  it("a deregistered location keeps its last rating and says when it left", async () => {
    const rec = parseCqcLocation(await json("location-deregistered.json"))!;
    expect(rec.status).toBe("Deregistered");
    expect(rec.rating).toBe("Inadequate");
    expect(rec.companyNumber).toBeNull(); // provider not given
    expect(rec.data).toMatchObject({
      deregistrationDate: "2024-06-28",
      providerName: null,
      keyQuestions: { safe: "Inadequate", effective: null, caring: null, responsive: null, wellLed: "Inadequate" },
    });
  });

  it("a dentist with no overall rating, run by an individual: no rating, no provider name, no person anywhere", async () => {
    const rec = parseCqcLocation(await json("location-dentist.json"), await json("provider-individual.json"))!;
    expect(rec.rating).toBeNull();
    expect(rec.companyNumber).toBeNull();
    expect(rec.data).toMatchObject({
      providerId: "1-145550000",
      providerName: null,
      careHome: false,
      numberOfBeds: null,
      overallRating: null,
      ratingDate: null,
      keyQuestions: { safe: null, effective: null, caring: null, responsive: null, wellLed: null },
      lastInspectionDate: "2019-02-04",
      lastReportDate: null,
    });
    expectNoPerson(rec);
  });

  it("SPEC §1 rule 7 a location named only after a person is not loaded; '<person> t/a <practice>' keeps the practice", async () => {
    const dentist = await json("location-dentist.json");
    expect(parseCqcLocation({ ...dentist, name: "Dr Thomas Wakefield-Example" })).toBeNull();
    expect(parseCqcLocation({ ...dentist, name: "Dr Thomas Wakefield-Example t/a Harbourside Smiles" })?.name).toBe("Harbourside Smiles");
    const recs: RegisterRecord<"cqc">[] = [];
    for await (const r of parseCqcJson(JSON.stringify([{ ...dentist, name: "Mrs Jane Placeholder" }, dentist]))) recs.push(r);
    expect(recs.map((r) => r.name)).toEqual([dentist.name]);
  });

  it("rejects an object that is not a location", () => {
    expect(() => parseCqcLocation({ name: "x" })).toThrow(RegisterFormatError);
    expect(() => parseCqcLocation([1, 2])).toThrow(RegisterFormatError);
  });
});

describe("parseCqcProvider (SPEC §4.8, §1 rule 7)", () => {
  it("maps an organisation with its normalised company number and location ids; no nominated individual", async () => {
    const rec = parseCqcProvider(await json("provider-organisation.json"));
    expect(rec).toEqual({
      source: "cqc",
      key: "provider:1-102642955",
      entity: "provider:1-102642955",
      part: null,
      name: "Meadow Care Homes Limited",
      companyNumber: "03712548",
      altNames: ["Meadow Care"],
      status: "Registered",
      rating: "Good",
      town: "Bristol",
      data: {
        kind: "provider",
        providerId: "1-102642955",
        name: "Meadow Care Homes Limited",
        companyNumber: "03712548",
        charityNumber: null,
        ownershipType: "Organisation",
        type: "Social Care Org",
        registrationStatus: "Registered",
        registrationDate: "2010-10-01",
        deregistrationDate: null,
        locationIds: ["1-125856395", "1-119990001", "1-130000002"],
        overallRating: "Good",
        keyQuestions: { safe: null, effective: null, caring: null, responsive: null, wellLed: null },
        address: { line1: "1 Quay Street", line2: null, town: "Bristol", county: "Avon", postcode: "BS1 4DJ" },
        lastInspectionDate: "2024-03-12",
      },
    });
    expectNoPerson(rec);
  });

  it("an NHS trust: no company number, rating and five key questions", async () => {
    const rec = parseCqcProvider(await json("provider-nhs-trust.json"))!;
    expect(rec.companyNumber).toBeNull();
    expect(rec.rating).toBe("Outstanding");
    expect(rec.data).toMatchObject({
      ownershipType: "NHS Body",
      locationIds: ["RX1AB", "RX1CD"],
      keyQuestions: { safe: "Good", effective: "Outstanding", caring: "Outstanding", responsive: "Good", wellLed: "Outstanding" },
    });
  });

  it("a person registered under their own name is not loaded", async () => {
    expect(parseCqcProvider(await json("provider-individual.json"))).toBeNull();
  });
});

describe("parseCqcJson (SPEC §4.8)", () => {
  it("reads { locations, providers }, joins locations to providers, skips individual providers", async () => {
    const file = {
      locations: [await json("location-care-home.json"), await json("location-dentist.json")],
      providers: [await json("provider-organisation.json"), await json("provider-individual.json"), await json("provider-nhs-trust.json")],
    };
    const recs = await all(parseCqcJson(new TextEncoder().encode(JSON.stringify(file))));
    expect(recs.map((r) => r.key)).toEqual(["1-125856395", "1-145550001", "provider:1-102642955", "provider:RX1"]);
    expect(recs[0].companyNumber).toBe("03712548");
    expect(recs[0].data).toMatchObject({ kind: "location", providerName: "Meadow Care Homes Limited" });
    expect(recs[1].data).toMatchObject({ kind: "location", providerName: null });
    expectNoPerson(recs);
  });

  it("reads a plain array in its own order", async () => {
    const arr = [await json("provider-nhs-trust.json"), await json("location-deregistered.json"), await json("provider-organisation.json")];
    const recs = await all(parseCqcJson(JSON.stringify(arr)));
    expect(recs.map((r) => r.key)).toEqual(["provider:RX1", "1-119990001", "provider:1-102642955"]);
    expect(recs[1].companyNumber).toBe("03712548"); // joined to a provider listed after it
  });

  it("malformed JSON or the wrong shape is a RegisterFormatError", async () => {
    await expect(all(parseCqcJson("{not json"))).rejects.toThrow(RegisterFormatError);
    await expect(all(parseCqcJson('{"items": []}'))).rejects.toThrow(RegisterFormatError);
    await expect(all(parseCqcJson('[{"name": "neither"}]'))).rejects.toThrow(RegisterFormatError);
    await expect(all(parseCqcJson(new Uint8Array([0xff, 0x00, 0x13])))).rejects.toThrow(RegisterFormatError);
  });
});

describe("parseHscaActiveLocations (SPEC §4.8, HSCA Active Locations ODS)", () => {
  it("gives a record per location, then each non-individual provider with its locations; no people", async () => {
    const recs = await all(parseHscaActiveLocations(await bytes("http://files.test/cqc/hsca-active-locations.ods")));
    expect(recs.map((r) => r.key)).toEqual(["1-125856395", "1-130000002", "1-145550001", "RX1AB", "provider:1-102642955", "provider:RX1"]);
    expect(recs[0]).toEqual({
      source: "cqc",
      key: "1-125856395",
      entity: "1-125856395",
      part: null,
      name: "Meadowbank House",
      companyNumber: "03712548", // a float cell 3712548 in the file
      altNames: [],
      status: "Registered",
      rating: "Good",
      town: "Burnham-on-Sea",
      data: {
        kind: "location",
        locationId: "1-125856395",
        providerId: "1-102642955",
        providerName: "Meadow Care Homes Limited",
        name: "Meadowbank House",
        type: "Social Care Org",
        registrationStatus: "Registered",
        registrationDate: "2011-02-15",
        deregistrationDate: null,
        careHome: true,
        numberOfBeds: 64,
        address: { line1: "12 Mill Lane", line2: "Highbridge", town: "Burnham-on-Sea", county: "Somerset", postcode: "TA9 3AB" },
        localAuthority: "Somerset",
        region: "South West",
        inspectionDirectorate: "Adult social care",
        overallRating: "Good",
        ratingDate: "2024-05-25",
        keyQuestions: { safe: null, effective: null, caring: null, responsive: null, wellLed: null },
        lastInspectionDate: null,
        lastReportDate: "2024-05-25", // the file's Publication Date
        inheritedRating: false,
      },
    });
    expect(recs[1].data).toMatchObject({ registrationDate: "2023-04-03", ratingDate: "2025-01-12", inheritedRating: true, careHome: false });
    expect(recs[2]).toMatchObject({ rating: null, companyNumber: null, data: { providerName: null, providerId: "1-145550000" } });
    expect(recs[4]).toMatchObject({
      name: "Meadow Care Homes Limited",
      companyNumber: "03712548",
      town: "Bristol",
      data: { kind: "provider", locationIds: ["1-125856395", "1-130000002"], registrationDate: "2010-10-01", ownershipType: "Organisation" },
    });
    expect(recs[5]).toMatchObject({ companyNumber: null, data: { ownershipType: "NHS Body", locationIds: ["RX1AB"] } });
    expectNoPerson(recs);
  });

  it("a file without the HSCA sheet or its columns is a RegisterFormatError", async () => {
    const hmrc = await bytes("http://files.test/hmrc-mlr/supervised-business-register-2026-09.ods");
    await expect(all(parseHscaActiveLocations(hmrc))).rejects.toThrow(RegisterFormatError);
    await expect(all(parseHscaActiveLocations(new TextEncoder().encode("Location ID,Location Name\n")))).rejects.toThrow(RegisterFormatError);
  });

  it.skipIf(!SHARED_PRESENT)("reads the real HSCA header (long-note columns) with its synthetic rows", async () => {
    const recs = await all(parseHscaActiveLocations(await bytes("http://shared.test/data/cqc/hsca-active-locations_real-header_SYNTHETIC-ROWS.ods")));
    // The sample holds 13 data rows; none names a provider id, so there are no provider records.
    expect(recs).toHaveLength(13);
    expect(recs.every((r) => r.data.kind === "location")).toBe(true);
    expect(recs[0]).toMatchObject({
      key: "11111",
      entity: "11111",
      part: null,
      name: "TEST LOCATION NAME",
      rating: "Good",
      data: { registrationDate: "2020-12-11", careHome: true, numberOfBeds: 66, providerId: null },
    });
    expect(recs[2].rating).toBe("Bad"); // kept verbatim
    expect(recs.map((r) => r.key)).toContain("8889999");
    expect(JSON.stringify(recs)).not.toContain("TEST NAME"); // the registered manager column
  });
});

describe("CQC API client (SPEC §6.3 change feeds)", () => {
  const BASE = "https://api.cqc.test/public/v1";
  /** Serves the two changes pages and the detail fixtures; records every call and its key header. */
  function stub(calls: Array<{ url: string; key: string | null }>, status = 200): typeof fetch {
    return (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      calls.push({ url: url.href, key: new Headers(init?.headers).get("Ocp-Apim-Subscription-Key") });
      if (status !== 200) return new Response("no", { status });
      if (url.pathname === "/public/v1/changes/location") {
        return fetch(`http://files.test/cqc/changes-location-page${url.searchParams.get("page") === "2" ? 2 : 1}.json`);
      }
      if (url.pathname === "/public/v1/locations/1-125856395") return fetch("http://files.test/cqc/location-care-home.json");
      if (url.pathname === "/public/v1/providers/RX1") return fetch("http://files.test/cqc/provider-nhs-trust.json");
      return new Response("not found", { status: 404 });
    }) as typeof fetch;
  }

  it("follows nextPageUri across two pages, sending the subscription key", async () => {
    const calls: Array<{ url: string; key: string | null }> = [];
    const ids = await fetchCqcChanges({ baseUrl: BASE, apiKey: "k-123", fetchImpl: stub(calls) }, "location", "2026-10-01T00:00:00Z", "2026-10-02T00:00:00Z");
    expect(ids).toEqual(["1-125856395", "1-119990001", "1-145550001", "1-130000002", "RX1AB"]);
    expect(calls.map((c) => c.key)).toEqual(["k-123", "k-123"]);
    expect(calls[0].url).toBe(`${BASE}/changes/location?startTimestamp=2026-10-01T00%3A00%3A00Z&endTimestamp=2026-10-02T00%3A00%3A00Z`);
    expect(new URL(calls[1].url).searchParams.get("page")).toBe("2");
  });

  it("accepts a providers array of objects in place of changes", async () => {
    const fetchImpl = (async () =>
      Response.json({ page: 1, totalPages: 1, providers: [{ providerId: "1-1" }, "1-2", { id: "1-3" }] })) as unknown as typeof fetch;
    expect(await fetchCqcChanges({ baseUrl: BASE, apiKey: "k", fetchImpl }, "provider", "a", "b")).toEqual(["1-1", "1-2", "1-3"]);
  });

  it("fetches detail objects raw", async () => {
    const calls: Array<{ url: string; key: string | null }> = [];
    const cfg = { baseUrl: BASE + "/", apiKey: "k", fetchImpl: stub(calls) };
    expect(await fetchCqcLocation(cfg, "1-125856395")).toMatchObject({ locationId: "1-125856395", name: "Meadowbank House" });
    expect(await fetchCqcProvider(cfg, "RX1")).toMatchObject({ providerId: "RX1" });
    expect(calls.map((c) => c.url)).toEqual([`${BASE}/locations/1-125856395`, `${BASE}/providers/RX1`]);
  });

  it("no key, non-2xx or network failure → UpstreamError with its kind", async () => {
    await expect(fetchCqcLocation({ baseUrl: BASE, fetchImpl: stub([]) }, "1-1")).rejects.toMatchObject({
      name: "UpstreamError",
      kind: "not_configured",
      message: "CQC API key not configured",
    });
    await expect(fetchCqcChanges({ baseUrl: BASE, apiKey: "k", fetchImpl: stub([], 403) }, "location", "a", "b")).rejects.toMatchObject({
      name: "UpstreamError",
      kind: "refused",
      status: 403,
    });
    const offline = (async () => {
      throw new TypeError("fetch failed");
    }) as unknown as typeof fetch;
    await expect(fetchCqcProvider({ baseUrl: BASE, apiKey: "k", fetchImpl: offline }, "RX1")).rejects.toThrow(/cqc: GET .* failed/);
  });
});
