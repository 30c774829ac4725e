import { describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import { parseHmrcMlr, postcodeDistrict } from "../../src/sources/hmrc-mlr/parse";
import { fetchHmrcMlrEdition } from "../../src/sources/hmrc-mlr/client";
import { RegisterFormatError } from "../../src/sources/format-error";
import { UpstreamError } from "../../src/shared/errors";
import type { RegisterRecord } from "../../src/services/registers/types";

const fixture = async (file: string) => new Uint8Array(await (await fetch(`http://files.test/hmrc-mlr/${file}`)).arrayBuffer());
const EDITION_1 = "supervised-business-register-2026-09.ods";
const EDITION_2 = "supervised-business-register-2026-10.ods";

async function parse(bytes: Uint8Array): Promise<RegisterRecord<"aml">[]> {
  const out: RegisterRecord<"aml">[] = [];
  for await (const r of parseHmrcMlr(bytes)) out.push(r);
  return out;
}
const byKey = (records: RegisterRecord<"aml">[]) => new Map(records.map((r) => [r.key, r]));

describe("parseHmrcMlr — ODS (SPEC §2.5 aml-register entries)", () => {
  it("gives one record per premises row, keyed by MLR number, trading name and district", async () => {
    const records = await parse(await fixture(EDITION_1));
    expect(records.map((r) => r.key)).toEqual([
      "12137104||EC1A",
      "12137104|abberley|WR6",
      "12137104|acle|NR13",
      "12137104|acle|NR13|2", // the same premises key twice in one file
      "12137104|zeals|BA12",
      "XJML00000123456|harbour company secretaries|SW1A",
      "XAML00000654321|brook & co accountants llp|LS1",
      "XEML00000111222|oakhill estates & lettings|CF14",
      "XKML00000246810|northgate exchange|M1",
      "NONUM:goldleaf bullion traders ltd|goldleaf|B18",
    ]);
    expect(records.every((r) => r.source === "aml" && r.companyNumber === null && r.rating === null && r.town === null)).toBe(true);
  });

  it("maps an agent row of a money service business in full", async () => {
    const rec = byKey(await parse(await fixture(EDITION_1))).get("12137104|abberley|WR6");
    expect(rec).toEqual({
      source: "aml",
      key: "12137104|abberley|WR6",
      entity: "12137104",
      part: "WR6",
      name: "COUNTERLINE POST LIMITED",
      companyNumber: null,
      altNames: ["ABBERLEY"],
      status: "Approved",
      rating: null,
      town: null,
      data: {
        mlrNumber: "12137104",
        businessName: "COUNTERLINE POST LIMITED",
        tradingName: "ABBERLEY",
        postcodeDistrict: "WR6",
        status: "Approved",
        sectors: ["money service business", "bill payment service provider"],
        msbActivities: ["money transmitter", "currency exchange"],
        registeredSince: "2002-06-01", // typed date cell
        agentSince: "2011-03-15", // dd/mm/yyyy text
      },
    });
  });

  it("reads statuses, sectors, dates and raw display values (SPEC §3.2 Approved, Applied, Expired)", async () => {
    const m = byKey(await parse(await fixture(EDITION_1)));
    const principal = m.get("12137104||EC1A")!;
    expect(principal.altNames).toEqual([]);
    expect(principal.data).toMatchObject({ tradingName: null, agentSince: null });
    expect(m.get("12137104|acle|NR13")!.data.agentSince).toBe("2014-09-02");

    const tcsp = m.get("XJML00000123456|harbour company secretaries|SW1A")!;
    expect(tcsp.status).toBe("Applied");
    expect(tcsp.altNames).toEqual(["Harbour Company  Secretaries"]); // display value kept, spaces from <text:s>
    expect(tcsp.data).toMatchObject({ sectors: ["trust or company service provider"], msbActivities: [], registeredSince: "2025-02-03" });

    const asp = m.get("XAML00000654321|brook & co accountants llp|LS1")!;
    expect(asp.altNames).toEqual([]); // trading name equals the business name
    expect(asp.data).toMatchObject({ tradingName: "BROOK & CO ACCOUNTANTS LLP", sectors: ["accountancy service provider"] });

    const estate = m.get("XEML00000111222|oakhill estates & lettings|CF14")!;
    expect(estate.data).toMatchObject({ postcodeDistrict: "CF14", sectors: ["estate agency", "letting agency"], registeredSince: "2020-08-21" });

    expect(m.get("XKML00000246810|northgate exchange|M1")!.data).toMatchObject({
      sectors: ["money service business", "IT and digital payment service provider"],
      msbActivities: ["foreign exchange", "cheque casher"],
    });

    const hvd = m.get("NONUM:goldleaf bullion traders ltd|goldleaf|B18")!;
    expect(hvd.status).toBe("Expired");
    expect(hvd.data).toMatchObject({ mlrNumber: null, sectors: ["high value dealer"] });
  });

  it("second edition: one agent gone, one status Applied → Approved, one business added (for the diff)", async () => {
    const [a, b] = [byKey(await parse(await fixture(EDITION_1))), byKey(await parse(await fixture(EDITION_2)))];
    expect([...a.keys()].filter((k) => !b.has(k))).toEqual(["12137104|zeals|BA12"]);
    expect([...b.keys()].filter((k) => !a.has(k))).toEqual(["XMML00000777888|gallery north|NE1"]);
    const changed = [...a.keys()].filter((k) => b.has(k) && a.get(k)!.status !== b.get(k)!.status);
    expect(changed).toEqual(["XJML00000123456|harbour company secretaries|SW1A"]);
    expect(b.get("XJML00000123456|harbour company secretaries|SW1A")!.status).toBe("Approved");
    expect(b.get("XMML00000777888|gallery north|NE1")!.data).toMatchObject({ sectors: ["art market participant"], status: "Applied" });
  });

  it("streams: the caller can stop after N records", async () => {
    const keys: string[] = [];
    for await (const r of parseHmrcMlr(await fixture(EDITION_1))) {
      keys.push(r.key);
      if (keys.length === 2) break;
    }
    expect(keys).toEqual(["12137104||EC1A", "12137104|abberley|WR6"]);
  });
});

describe("parseHmrcMlr — CSV-era flavour (SPEC §2.5)", () => {
  it("reads MLR_REG/BUSINESS_NAME/TRADING_NAME/POS/STATUS1 headers, X flags, BOM, CRLF and quoted fields", async () => {
    const records = await parse(await fixture("supervised-business-register-csv-era.csv"));
    expect(records).toHaveLength(5);
    const m = byKey(records);
    // same premises, same key as in the ODS flavour
    expect(m.get("12137104|abberley|WR6")!.data).toEqual({
      mlrNumber: "12137104",
      businessName: "COUNTERLINE POST LIMITED",
      tradingName: "ABBERLEY",
      postcodeDistrict: "WR6",
      status: "Approved",
      sectors: ["money service business", "bill payment service provider"],
      msbActivities: ["money transmitter", "currency exchange"],
      registeredSince: "2002-06-01",
      agentSince: "2011-03-15",
    });
    const asp = m.get('XAML00000654321|alder birch "the accountants"|LS1')!;
    expect(asp.name).toBe("ALDER, BIRCH & CO LTD");
    expect(asp.altNames).toEqual(['Alder Birch "The Accountants"']);
    expect(asp.data.sectors).toEqual(["accountancy service provider"]);
    expect(m.get("XEML00000111222|oakhill estates & lettings|CF14")!.data.sectors).toEqual(["estate agency", "letting agency"]);
    expect(m.get("XJML00000123456|harbour company secretaries|SW1A")!.status).toBe("Applied");
  });

  it("parses by header name: reordered and extra columns, LF, minimal quoting, trailing commas, unknown status verbatim", async () => {
    const csv =
      "Status,Extra,Postcode,Trading Name,Business Name,MLR Registration Number,High Value Dealer,Agent Start Date,Business Start Date,\n" +
      " Suspended ,x,sw1a 1aa,Acme Gold, ACME  METALS LTD ,XHML00000000001,Yes,,5/4/2021,\n" +
      "APPROVED,,M1,,BETA LTD,XHML00000000002,No Data,,2021-04-05,\n\n";
    const [a, b] = await parse(strToU8(csv));
    expect(a.key).toBe("XHML00000000001|acme gold|SW1A");
    expect(a.name).toBe("ACME  METALS LTD");
    expect(a.status).toBe("Suspended");
    expect(a.data).toMatchObject({ postcodeDistrict: "SW1A", sectors: ["high value dealer"], registeredSince: "2021-04-05" });
    expect(b.status).toBe("Approved");
    expect(b.data).toMatchObject({ sectors: [], registeredSince: "2021-04-05", tradingName: null });
  });

  it("a file over the 1 MB batch size, with quoted line breaks, keeps every row, unique keys and file order", async () => {
    const lines = ["MLR_REG,BUSINESS_NAME,TRADING_NAME,POS,STATUS1"];
    for (let i = 0; i < 30_000; i++) lines.push(`${10000000 + (i % 50)},"NAME, ${i % 50}","BRANCH\n${i % 7}",AB${i % 3},APPROVED`);
    const bytes = strToU8(lines.join("\r\n"));
    expect(bytes.length).toBeGreaterThan(1_200_000); // two parse batches
    const records = await parse(bytes);
    expect(records).toHaveLength(30_000);
    expect(records.every((r) => (r.data.tradingName as string).startsWith("BRANCH\n"))).toBe(true);
    expect(new Set(records.map((r) => r.key)).size).toBe(30_000);
    // (i % 50, i % 7, i % 3) repeats every 1050 rows: row 29,999 is the 29th of its combination
    expect(records[29_999].key).toBe("10000049|branch 4|AB2|29");
    expect(records[29_999].name).toBe("NAME, 49");
  });
});

describe("parseHmrcMlr — malformed input is a RegisterFormatError", () => {
  it("missing required columns, binary garbage, and a zip that is not an ODS", async () => {
    await expect(parse(strToU8("MLR_REG,BUSINESS_NAME\n123,ACME\n"))).rejects.toThrow(RegisterFormatError);
    await expect(parse(new Uint8Array([0, 1, 2, 3, 255, 0, 7]))).rejects.toThrow(RegisterFormatError);
    await expect(parse(new Uint8Array(0))).rejects.toThrow(RegisterFormatError);
    await expect(parse(zipSync({ "word/document.xml": strToU8("<w/>") }))).rejects.toThrow(RegisterFormatError);
  });
});

describe("postcodeDistrict", () => {
  it("takes the outward code of a district or a full postcode", () => {
    expect(["wr6", " SW1A ", "SW1A 1AA", "SW1A1AA", "M11AE", "B18"].map(postcodeDistrict)).toEqual(["WR6", "SW1A", "SW1A", "SW1A", "M1", "B18"]);
  });
});

describe("fetchHmrcMlrEdition (SPEC §2.5 registerDate)", () => {
  const page = async () => (await fetch("http://files.test/hmrc-mlr/govuk-content-api-page.json")).json() as Promise<Record<string, any>>;
  /** Serves the Content API page at the configured path and the fixture ODS at any assets URL. */
  const stub = (body: unknown, calls: string[], fileStatus = 200): typeof fetch =>
    (async (input: RequestInfo | URL) => {
      const url = String(input);
      calls.push(url);
      if (url === "https://www.gov.uk/api/content/guidance/money-laundering-regulations-supervised-business-register") return Response.json(body);
      if (url.startsWith("https://assets.publishing.service.gov.uk/")) return new Response(await fixture(EDITION_1), { status: fileStatus });
      return new Response("not found", { status: 404 });
    }) as typeof fetch;
  const cfg = (fetchImpl: typeof fetch) => ({
    contentApiBase: "https://www.gov.uk/api/content",
    pagePath: "/guidance/money-laundering-regulations-supervised-business-register",
    fetchImpl,
  });

  it("finds the ODS attachment and dates the edition by the page's public_updated_at", async () => {
    const calls: string[] = [];
    const ed = await fetchHmrcMlrEdition(cfg(stub(await page(), calls)));
    expect(ed.url).toBe("https://assets.publishing.service.gov.uk/media/66f00000000000000000aaaa/Supervised_Business_Register.ods");
    expect(ed.fileName).toBe("Supervised_Business_Register.ods");
    expect(ed.editionDate).toBe("2026-09-30");
    expect(ed.bytes).toEqual(await fixture(EDITION_1));
    expect(calls).toHaveLength(2);
  });

  it("falls back to a CSV attachment, an attachment's updated_at, or a date in the file name", async () => {
    const p = await page();
    p.details.attachments = [
      {
        attachment_type: "file",
        content_type: "text/csv",
        filename: "MLR_register_2024-03-31.csv",
        url: "https://assets.publishing.service.gov.uk/media/x/MLR_register_2024-03-31.csv",
      },
    ];
    delete p.public_updated_at;
    let ed = await fetchHmrcMlrEdition(cfg(stub(p, [])));
    expect(ed.fileName).toBe("MLR_register_2024-03-31.csv");
    expect(ed.editionDate).toBe("2024-03-31");
    p.details.attachments[0].updated_at = "2024-04-02T08:00:00.000+01:00";
    ed = await fetchHmrcMlrEdition(cfg(stub(p, [])));
    expect(ed.editionDate).toBe("2024-04-02");
  });

  it("non-2xx or network failure → UpstreamError; a page without the file → RegisterFormatError", async () => {
    const p = await page();
    const down = (async () => new Response("busy", { status: 503 })) as unknown as typeof fetch;
    await expect(fetchHmrcMlrEdition(cfg(down))).rejects.toMatchObject({ name: "UpstreamError", kind: "unreachable", status: 503 });
    await expect(fetchHmrcMlrEdition(cfg(stub(p, [], 500)))).rejects.toThrow(/hmrc-mlr: register attachment \(GET .*\) answered HTTP 500/);
    const offline = (async () => {
      throw new TypeError("network down");
    }) as unknown as typeof fetch;
    await expect(fetchHmrcMlrEdition(cfg(offline))).rejects.toBeInstanceOf(UpstreamError);
    p.details.attachments = [];
    await expect(fetchHmrcMlrEdition(cfg(stub(p, [])))).rejects.toThrow(/no ODS or CSV attachment/);
    await expect(fetchHmrcMlrEdition(cfg(stub(p, [])))).rejects.toBeInstanceOf(RegisterFormatError);
  });
});
