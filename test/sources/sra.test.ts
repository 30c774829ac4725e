import { describe, expect, it } from "vitest";
import type { RegisterRecord } from "../../src/services/registers/types";
import { RegisterFormatError } from "../../src/sources/format-error";
import { fetchSraOrganisations } from "../../src/sources/sra/client";
import { parseSraOrganisations } from "../../src/sources/sra/parse";

const getAll = async () => new Uint8Array(await (await fetch("http://files.test/sra/GetAll.json")).arrayBuffer());
async function collect<T>(g: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of g) out.push(x);
  return out;
}
const byKey = (recs: RegisterRecord<"sra">[]) => new Map(recs.map((r) => [r.key, r]));

describe("SPEC §2.6 SRA organisation parser", () => {
  it("SPEC §2.6 maps a sole practice (the note's real record)", async () => {
    const r = byKey(await collect(parseSraOrganisations(await getAll()))).get("8005864")!;
    expect(r).toMatchObject({
      source: "sra",
      name: "Riverine Solicitors",
      companyNumber: null,
      altNames: [],
      status: "authorised",
      rating: null,
      town: "London",
    });
    expect(r.data).toEqual({
      sraNumber: 8005864,
      name: "Riverine Solicitors",
      companyNumber: null,
      authorised: true,
      status: "authorised",
      statusCode: "YES",
      authorisedSince: "2023-12-18",
      statusDate: "2023-12-18",
      kind: "sole practice",
      constitution: "sole practice",
      offices: 1,
      headOffice: { name: "Riverine Solicitors", town: "London", county: null, country: "England", website: null, postcode: "E1 6LP" },
      workAreas: ["Family / Matrimonial", "Immigration", "Litigation - Other"],
      tradingNames: [],
      previousNames: [],
      regulator: "SRA",
      reservedActivities: [],
    });
  });

  it("SPEC §2.6 recognised body: padded company number, head office by type, names, full work areas", async () => {
    const r = byKey(await collect(parseSraOrganisations(await getAll()))).get("570654")!;
    expect(r.companyNumber).toBe("01234567");
    expect(r.altNames).toEqual(["Harbourside Law", "Harbourside Conveyancing", "Harbourside & Co Solicitors", "HL Law LLP"]);
    expect(r.town).toBe("Bristol");
    expect(r.data).toMatchObject({
      kind: "recognised body",
      constitution: "company",
      offices: 3,
      authorisedSince: "2009-07-01",
      statusDate: "2019-04-01",
      headOffice: {
        name: "Harbourside Legal Limited",
        town: "Bristol",
        county: "Avon",
        country: "England",
        website: "www.harbourside-legal.example",
        postcode: "BS1 4QA",
      },
      tradingNames: ["Harbourside Law", "Harbourside Conveyancing"],
      previousNames: ["Harbourside & Co Solicitors", "HL Law LLP"],
    });
    const areas = r.data.workAreas as string[];
    expect(areas).toHaveLength(18);
    expect(areas[0]).toBe("Commercial Property");
    expect(areas[17]).toBe("Tax Planning");
    expect(r.data.reservedActivities).toEqual([
      "Reserved instrument activities",
      "Probate activities",
      "Conduct of litigation",
      "Exercise of a right of audience",
    ]);
  });

  it("SPEC §3.2 statuses, kinds and constitutions, including Closed types and nulls everywhere", async () => {
    const m = byKey(await collect(parseSraOrganisations(await getAll())));
    const pick = (k: string) => {
      const d = m.get(k)!.data;
      return [m.get(k)!.status, d.authorised, d.statusCode, d.kind, d.constitution, m.get(k)!.companyNumber, d.offices];
    };
    expect(pick("623310")).toEqual(["authorised", true, "YES", "licensed body", "limited liability partnership", "OC301234", 1]);
    expect(pick("598877")).toEqual(["authorised with conditions", true, "CONDITION", "recognised body", "partnership", null, 1]);
    expect(pick("540021")).toEqual(["intervened", false, "INTERVENE", "recognised body", "unlimited company", "SC123456", 0]);
    expect(pick("401122")).toEqual(["ceased", false, "CEASE", "sole practice", null, null, 0]);
    const castle = m.get("598877")!;
    expect([castle.town, castle.data.headOffice, castle.data.workAreas, castle.data.regulator]).toEqual([null, null, [], "SRA"]);
    const meridian = m.get("540021")!;
    expect(meridian.data.headOffice).toEqual({ name: null, town: "Edinburgh", county: null, country: "Scotland", website: null, postcode: "EH2 2PF" });
    expect([meridian.data.regulator, meridian.altNames]).toEqual([null, ["Meridian Law"]]);
    expect([m.get("401122")!.data.authorisedSince, m.get("401122")!.data.statusDate]).toEqual([null, "2022-03-31"]);
  });

  it("SPEC §1 rule 7: freelance solicitors are not loaded; phone numbers and emails are never copied", async () => {
    const recs = await collect(parseSraOrganisations(await getAll()));
    expect(recs.map((r) => r.key)).toEqual(["8005864", "570654", "623310", "598877", "540021", "401122"]);
    const json = JSON.stringify(recs);
    expect(json).not.toContain("020 7946");
    expect(json).not.toContain("@example");
    expect(json).not.toContain("Freelance");
  });

  it("SPEC §2.6 accepts a bare array and unknown status codes; rejects anything else", async () => {
    const recs = await collect(
      parseSraOrganisations(
        JSON.stringify([
          { SraNumber: "12", PracticeName: " A & B Law ", AuthorisationStatus: "SUSPENDED" },
          { SraNumber: 13, PracticeName: "C Law", AuthorisationStatus: "REVOKED" },
        ]),
      ),
    );
    expect(recs.map((r) => [r.key, r.name, r.status, r.data.authorised, r.data.kind])).toEqual([
      ["12", "A & B Law", "suspended", false, null],
      ["13", "C Law", "revoked", false, null],
    ]);
    for (const bad of ["{}", '{"Organisations":{}}', "not json", "null", "\u0000\u0001\u0002"]) {
      await expect(collect(parseSraOrganisations(bad))).rejects.toBeInstanceOf(RegisterFormatError);
    }
  });
});

describe("SPEC §2.6 SRA GetAll read as a stream", () => {
  const pieces = async function* (bytes: Uint8Array, size: number) {
    for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
  };
  it("SPEC §2.6 the same records from a string, from bytes, and from a stream in small pieces (with a BOM)", async () => {
    const bytes = await getAll();
    const whole = await collect(parseSraOrganisations(new TextDecoder().decode(bytes)));
    expect(whole).toHaveLength(6);
    expect(await collect(parseSraOrganisations(bytes))).toEqual(whole);
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, 0x0a, ...bytes]);
    for (const size of [1, 7, 4096]) expect(await collect(parseSraOrganisations(pieces(withBom, size)))).toEqual(whole);
  });

  it("SPEC §2.6 a reply cut short, an empty reply or an empty Organisations list is refused", async () => {
    const bytes = await getAll();
    await expect(collect(parseSraOrganisations(pieces(bytes.slice(0, Math.floor(bytes.length * 0.7)), 512)))).rejects.toThrow(/ends before the JSON does/);
    await expect(collect(parseSraOrganisations(pieces(new Uint8Array(0), 1)))).rejects.toThrow(/empty/);
    await expect(collect(parseSraOrganisations('{"Organisations": []}'))).rejects.toThrow(/no Organisations array/);
    expect(await collect(parseSraOrganisations("[]"))).toEqual([]);
  });
});

describe("SPEC §2.6 SRA fetch client", () => {
  it("SPEC §2.6 sends the subscription key to GetAll and dates the edition today (UTC)", async () => {
    const seen: Request[] = [];
    const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Request(input, init));
      return fetch("http://files.test/sra/GetAll.json");
    }) as typeof fetch;
    const ed = await fetchSraOrganisations({ baseUrl: "https://sra.test/datashare/api/V1/", apiKey: "k-123", fetchImpl });
    expect(seen[0].url).toBe("https://sra.test/datashare/api/V1/organisation/GetAll");
    expect(seen[0].headers.get("Ocp-Apim-Subscription-Key")).toBe("k-123");
    expect([ed.url, ed.fileName, ed.editionDate]).toEqual([
      "https://sra.test/datashare/api/V1/organisation/GetAll",
      null,
      new Date().toISOString().slice(0, 10),
    ]);
    expect(await collect(parseSraOrganisations(ed.open()))).toHaveLength(6);
    // A second reading fetches GetAll again (the first reading used up the first reply).
    expect(await collect(parseSraOrganisations(ed.open()))).toHaveLength(6);
    expect(seen).toHaveLength(2);
  });

  it("SPEC §2.6 missing key or upstream failure → an upstream error (503 upstream_unavailable to callers)", async () => {
    await expect(fetchSraOrganisations({ baseUrl: "https://sra.test" })).rejects.toMatchObject({
      name: "UpstreamError",
      source: "sra",
      kind: "not_configured",
      message: "SRA API key not configured",
    });
    const failing = (async () => new Response("down", { status: 502 })) as typeof fetch;
    await expect(fetchSraOrganisations({ baseUrl: "https://sra.test", apiKey: "k", fetchImpl: failing })).rejects.toMatchObject({
      name: "UpstreamError",
      source: "sra",
      kind: "unreachable",
      status: 502,
    });
    const throwing = (async () => {
      throw new TypeError("connection reset");
    }) as typeof fetch;
    await expect(fetchSraOrganisations({ baseUrl: "https://sra.test", apiKey: "k", fetchImpl: throwing })).rejects.toThrow(/sra: GetAll could not be fetched/);
  });
});
