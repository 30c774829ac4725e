import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { RegisterRecord } from "../../src/services/registers/types";
import { charityExtractDate, charityTableStream, unzipMember } from "../../src/sources/charity-commission/client";
import { CHARITY_TABLES, type CharityTable, type CharityTableInput, parseCharityExtract } from "../../src/sources/charity-commission/parse";
import { RegisterFormatError } from "../../src/sources/format-error";

const table = async (t: CharityTable) => new Uint8Array(await (await fetch(`http://files.test/charity-commission/publicextract.${t}.txt`)).arrayBuffer());
async function allTables(): Promise<Record<CharityTable, Uint8Array>> {
  const out = {} as Record<CharityTable, Uint8Array>;
  for (const t of CHARITY_TABLES) out[t] = await table(t);
  return out;
}
async function collect<T>(g: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of g) out.push(x);
  return out;
}
const byKey = (recs: RegisterRecord<"charity">[]) => new Map(recs.map((r) => [r.key, r]));

describe("SPEC §4.8 charity register extract parser", () => {
  it("SPEC §4.8 one record per main charity, with every table folded in", async () => {
    const recs = await collect(parseCharityExtract(await allTables()));
    // Keyed by the register's own number (the charity number); the Commission's organisation number stays in data.
    expect(recs.map((r) => r.key)).toEqual(["1100001", "1150002", "250003", "1160004"]);
    expect(recs.map((r) => r.entity)).toEqual(["1100001", "1150002", "250003", "1160004"]);
    const r = recs[0];
    expect(r).toMatchObject({
      source: "charity",
      name: "RIVERSIDE COMMUNITY TRUST",
      companyNumber: "04712345",
      altNames: ["RIVERSIDE CENTRE", "RIVERSIDE COMMUNITY ASSOCIATION"],
      status: "Registered",
      rating: null,
      town: null,
    });
    const { objects, financialHistory, ...rest } = r.data;
    if (!objects || !financialHistory) throw new Error("the governing document and the annual returns were given: objects and financial history are read");
    expect(rest).toEqual({
      charityNumber: "1100001",
      organisationNumber: "5001001",
      name: "RIVERSIDE COMMUNITY TRUST",
      type: "Charitable company",
      registrationStatus: "Registered",
      registeredOn: "2003-05-12",
      removedOn: null,
      removalReason: null,
      reportingStatus: "Submission Received",
      flags: { insolvent: false, inAdministration: false, interimManager: null },
      isCio: false,
      latestAccounts: { periodStart: "2024-04-01", periodEnd: "2025-03-31", income: 245310, spend: 231004.5 },
      classification: {
        what: ["The Prevention Or Relief Of Poverty", "Other Charitable Purposes"],
        how: ["Provides Buildings/facilities/open Space"],
        who: ["Elderly/old People", "The General Public/mankind"],
      },
      areasOfOperation: ["Riverside City", "Millbrook"],
      trusteeCount: 3,
      otherRegulators: ["Care Quality Commission", "Regulator of Social Housing"],
      website: "https://www.riverside-trust.example",
      linkedCharities: 2,
      extractDate: "2026-07-09",
    });
    expect(financialHistory.map((f) => f.periodEnd)).toEqual(["2025-03-31", "2024-03-31", "2023-03-31", "2022-03-31", "2021-03-31", "2020-03-31"]);
    expect(financialHistory[0]).toEqual({ periodStart: "2024-04-01", periodEnd: "2025-03-31", income: 245310, spend: 231004.5 });
    expect(financialHistory[4]).toMatchObject({ periodEnd: "2021-03-31", income: 120500, spend: 140000 });
    expect(financialHistory[5]).toEqual({ periodStart: "2019-04-01", periodEnd: "2020-03-31", income: 171000, spend: 170000 });
    expect(objects.length).toBeLessThanOrEqual(1000);
    expect(objects.length).toBeGreaterThan(990);
    expect(objects.startsWith('TO PROMOTE FOR THE BENEFIT OF THE INHABITANTS OF RIVERSIDE AND THE SURROUNDING AREA ("THE AREA OF BENEFIT")')).toBe(true);
    expect(objects.endsWith("…")).toBe(true);
  });

  it("SPEC §4.8 CIO, removed charity with reason, flags and interim manager", async () => {
    const m = byKey(await collect(parseCharityExtract(await allTables())));
    const cio = m.get("1150002")!;
    expect(cio.companyNumber).toBeNull();
    expect(cio.altNames).toEqual(["Hilltop Music"]);
    expect(cio.data).toMatchObject({
      type: "CIO",
      isCio: true,
      registeredOn: "2013-01-07",
      reportingStatus: "Submission Overdue",
      latestAccounts: { periodStart: "2023-09-01", periodEnd: "2024-08-31", income: 18200, spend: null },
      financialHistory: [
        { periodStart: "2023-09-01", periodEnd: "2024-08-31", income: 18200, spend: null },
        { periodStart: "2022-09-01", periodEnd: "2023-08-31", income: null, spend: null },
      ],
      areasOfOperation: ["Wales"],
      classification: { what: ["Arts/culture/heritage/science"], how: [], who: [] },
      trusteeCount: 1,
      objects: "TO ADVANCE THE EDUCATION OF YOUNG PEOPLE IN MUSIC.",
      otherRegulators: [],
      website: null,
      linkedCharities: 0,
    });
    const removed = m.get("250003")!;
    expect(removed.status).toBe("Removed");
    expect(removed.data).toMatchObject({
      registrationStatus: "Removed",
      removedOn: "2019-08-31",
      removalReason: "Amalgamated",
      trusteeCount: 0,
      latestAccounts: null,
      financialHistory: [],
      objects: null,
    });
    const rescue = m.get("1160004")!;
    expect(rescue.companyNumber).toBe("SC412345");
    expect(rescue.data.flags).toEqual({ insolvent: true, inAdministration: true, interimManager: true });
  });

  it("SPEC §1 rule 7: trustees are counted, never named; contact phone, email and address are not copied", async () => {
    const json = JSON.stringify(await collect(parseCharityExtract(await allTables())));
    for (const s of ["Examplewood", "Samplesby", "Placeholder", "RIVERSIDE HOUSING ASSOCIATION", "01632", "office@", "The Boathouse", "RV1 2AB"])
      expect(json).not.toContain(s);
  });

  it("SPEC §4.8 the charity table alone is enough; missing tables leave their fields null", async () => {
    const recs = await collect(parseCharityExtract({ charity: await table("charity") }));
    expect(recs).toHaveLength(4);
    expect(recs[0].altNames).toEqual([]);
    expect(recs[0].data).toMatchObject({
      financialHistory: null,
      classification: null,
      areasOfOperation: null,
      trusteeCount: null,
      objects: null,
      otherRegulators: null,
      removalReason: null,
      linkedCharities: 2,
    });
    expect(recs[3].data.flags).toEqual({ insolvent: true, inAdministration: true, interimManager: null });
  });

  it("SPEC §4.8 parses by header name: reordered and extra columns, string input, LF or CRLF", async () => {
    const text = new TextDecoder().decode(await table("charity"));
    const lines = text
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));
    const order = lines[0].map((_, i) => i).reverse();
    const shuffled = lines.map((cells) => [...order.map((i) => cells[i]), "extra"].join("\t")).join("\r\n");
    const a = await collect(parseCharityExtract({ charity: text }));
    const b = await collect(parseCharityExtract({ charity: shuffled }));
    expect(b).toEqual(a);
  });

  it("SPEC §4.8 malformed input throws RegisterFormatError", async () => {
    await expect(collect(parseCharityExtract({}))).rejects.toBeInstanceOf(RegisterFormatError);
    await expect(collect(parseCharityExtract({ charity: "date_of_extract\tcharity_name\n2026-07-09\tX\n" }))).rejects.toThrow(/organisation_number/);
    await expect(collect(parseCharityExtract({ charity: await table("charity"), charity_trustee: "name\tid\nx\t1\n" }))).rejects.toThrow(/charity_trustee/);
    await expect(collect(parseCharityExtract({ charity: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x08]) }))).rejects.toBeInstanceOf(
      RegisterFormatError,
    );
  });

  it("SPEC §4.8 records can be taken in chunks: stop after N, resume by skipping N", async () => {
    const tables = await allTables();
    const all = await collect(parseCharityExtract(tables));
    const head: RegisterRecord<"charity">[] = [];
    for await (const r of parseCharityExtract(tables)) {
      head.push(r);
      if (head.length === 2) break;
    }
    expect([...head, ...(await collect(parseCharityExtract(tables))).slice(2)]).toEqual(all);
  });

  it("SPEC §4.8 in buckets of organisation numbers (bounded memory): the same records, and a resume at any index reads only the buckets left", async () => {
    const tables = await allTables();
    const whole = await collect(parseCharityExtract(tables));
    const sortByKey = (rs: RegisterRecord<"charity">[]) => [...rs].sort((a, b) => a.key.localeCompare(b.key));
    /** The tables as streams, counting how often each is opened. */
    const counted = () => {
      const opened: Partial<Record<CharityTable, number>> = {};
      const inputs: Partial<Record<CharityTable, CharityTableInput>> = {};
      for (const t of CHARITY_TABLES)
        inputs[t] = async function* () {
          opened[t] = (opened[t] ?? 0) + 1;
          yield tables[t];
        };
      return { opened, inputs };
    };
    for (const size of [1, 2, 3]) {
      const { opened, inputs: counting } = counted();
      const bucketed = await collect(parseCharityExtract(counting, { bucketRecords: size }));
      expect(sortByKey(bucketed)).toEqual(sortByKey(whole));
      const buckets = Math.ceil(whole.length / size);
      // One pass to index `charity`, then each table once per bucket.
      expect(opened).toMatchObject({ charity: 1 + buckets, charity_trustee: buckets, charity_annual_return_history: buckets });
      for (let from = 0; from <= whole.length; from++) {
        const { opened: seen, inputs: resumed } = counted();
        expect(await collect(parseCharityExtract(resumed, { bucketRecords: size, from }))).toEqual(bucketed.slice(from));
        expect(seen.charity_trustee ?? 0).toBe(from >= whole.length ? 0 : buckets - Math.floor(from / size));
      }
    }
  });
});

describe("SPEC §4.8 charity extract fetch client", () => {
  const BASE = "https://charity.test/data/txt";

  /** All of a stream's bytes, joined. */
  const bytesOfStream = async (g: AsyncIterable<Uint8Array>) => {
    const parts = await collect(g);
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) out.set(p, at), (at += p.length);
    return out;
  };
  /** A response whose body arrives in small pieces, as a large download does. */
  const trickle = (bytes: Uint8Array, piece = 777) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += piece) c.enqueue(bytes.slice(i, i + piece));
        c.close();
      },
    });

  it("SPEC §4.8 streams a table zip as it arrives: the unzipped text, and the extract's date from its first row", async () => {
    const txt = await table("charity_classification");
    const urls: string[] = [];
    const fetchImpl = (async (input: RequestInfo | URL) => {
      urls.push(String(input));
      return new Response(trickle(zipSync({ "readme.txt": strToU8("other"), "publicextract.charity_classification.txt": txt })));
    }) as typeof fetch;
    const open = charityTableStream({ baseUrl: `${BASE}/`, fetchImpl }, "charity_classification");
    expect(await bytesOfStream(open())).toEqual(txt);
    expect(urls).toEqual([`${BASE}/publicextract.charity_classification.zip`]);
    // Each opening downloads afresh (the parser reads a table more than once).
    expect(await bytesOfStream(open())).toEqual(txt);
    expect(urls).toHaveLength(2);
    // The BOM-prefixed charity table is dated, and parses straight from the stream.
    const main = zipSync({ "publicextract.charity.txt": await table("charity") });
    const cfg = { baseUrl: BASE, fetchImpl: (async () => new Response(trickle(main, 100))) as typeof fetch };
    expect(await charityExtractDate(cfg)).toBe("2026-07-09");
    expect(await collect(parseCharityExtract({ charity: charityTableStream(cfg, "charity") }))).toHaveLength(4);
  });

  it("SPEC §4.8 streamed or not, the same records: every table as a download equals every table as bytes", async () => {
    const tables = await allTables();
    const streamed: Partial<Record<CharityTable, CharityTableInput>> = {};
    for (const t of CHARITY_TABLES) {
      const zip = zipSync({ [`publicextract.${t}.txt`]: tables[t] });
      streamed[t] = charityTableStream({ baseUrl: BASE, fetchImpl: (async () => new Response(trickle(zip, 64))) as typeof fetch }, t);
    }
    expect(await collect(parseCharityExtract(streamed))).toEqual(await collect(parseCharityExtract(tables)));
  });

  it("SPEC §4.8 a zip without the table, not a zip, or cut short is a format error; HTTP failure is upstream_unavailable", async () => {
    const open = (body: BodyInit | null, status = 200) =>
      charityTableStream({ baseUrl: BASE, fetchImpl: (async () => new Response(body, { status })) as typeof fetch }, "charity");
    await expect(collect(open(zipSync({ "publicextract.charity_trustee.txt": strToU8("x") }))())).rejects.toThrow(
      /not a zip holding publicextract.charity.txt/,
    );
    await expect(collect(open("<html>not a zip</html>")())).rejects.toBeInstanceOf(RegisterFormatError);
    const whole = zipSync({ "publicextract.charity.txt": await table("charity") });
    await expect(collect(open(whole.slice(0, Math.floor(whole.length * 0.6)))())).rejects.toThrow(/truncated/);
    await expect(collect(open("", 500)())).rejects.toMatchObject({ name: "UpstreamError", source: "charity", kind: "unreachable", status: 500 });
    const throwing = (async () => {
      throw new TypeError("dns failure");
    }) as typeof fetch;
    await expect(collect(charityTableStream({ baseUrl: BASE, fetchImpl: throwing }, "charity_trustee")())).rejects.toThrow(
      /charity: charity_trustee could not be fetched/,
    );
    // A stored (uncompressed) member streams too.
    const stored = zipSync({ "publicextract.charity.txt": [await table("charity"), { level: 0 }] });
    expect(await bytesOfStream(unzipMember(trickle(stored, 50), "publicextract.charity.txt", "t"))).toEqual(await table("charity"));
  });
});
