import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { checkSraRegister as sraCheck } from "../../../src/operations/registers/checkSraRegister";
import { OGL } from "../../../src/services/registers/catalogue";
import { load, check, expectNotFound, SRA_ATTRIBUTION } from "./registerData";

beforeAll(() => load("sra"));

describe("SPEC §2.6 / §4.5 sra-check", () => {
  it("SPEC §2.1 §1 rule 3: company data read from Companies House names its licence; when Companies House cannot be read the reply says so plainly", async () => {
    const ok = await check("sra-check", "01234567");
    expect(ok.body.companyLookup).toEqual({ state: "read", licence: OGL });
    // Companies House down (and nothing cached for this number): the register's answer stands, the company object is the register's own.
    await env.DB.prepare("DELETE FROM http_cache").run();
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      if (String(input instanceof Request ? input.url : input).startsWith("https://ch.test/")) throw new TypeError("Network connection lost.");
      return realFetch(input, init);
    });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { r, body } = await check("sra-check", "01234567");
      expect(r.status).toBe(200);
      sraCheck.output.parse(body);
      expect(body.companyLookup).toEqual({ state: "unavailable", licence: null });
      expect(body.company).toEqual({
        name: body.firms[0].name,
        number: "01234567",
        status: "unknown",
        statusDetail: "Companies House could not be read just now; name and number are the register's own.",
      });
      expect(body.summary).toMatch(
        /Companies House could not be read just now, so the company's status and filings \(company 01234567\) are not shown; retry shortly\.$/,
      );
    } finally {
      spy.mockRestore();
      errors.mockRestore();
    }
  });

  it("SPEC §2.6 by company number on the register's own record: company, workAreas cut to 10, statusCode YES, register entry URL, attribution", async () => {
    const { r, body, text } = await check("sra-check", "01234567");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-credits-remaining")).toBe("99");
    sraCheck.output.parse(body);
    expect(body).toMatchObject({
      query: "01234567",
      company: { name: "HARBOURSIDE LEGAL LIMITED", number: "01234567", status: "active", registeredOffice: "10 Quay Road, Bristol, BS1 4QA, England" },
      matchedBy: "company number on the register's own record",
      authorised: true,
      attribution: SRA_ATTRIBUTION,
      registerDate: "2026-10-08",
      provenance: { attribution: SRA_ATTRIBUTION, licence: null },
    });
    const [firm] = body.firms;
    expect(firm).toMatchObject({
      sraNumber: 570654,
      name: "Harbourside Legal Limited",
      companyNumber: "01234567",
      status: "authorised",
      statusCode: "YES",
      kind: "recognised body",
      offices: 3,
      headOffice: { town: "Bristol", postcode: "BS1 4QA", website: "www.harbourside-legal.example" },
    });
    expect(firm.workAreas).toHaveLength(10);
    expect(firm.workAreas[9]).toBe("and 9 more"); // 18 areas: nine shown, the tenth counts the rest
    expect(new URL(firm.sraRegisterEntry).searchParams.get("sraNumber")).toBe("570654");
    expect(text).not.toMatch(/enquiries@|020 7946/); // no office email or phone copied
  });

  it("SPEC §4.5 by SRA number and by firm name", async () => {
    const bySra = await check("sra-check", "570654");
    expect(bySra.r.status).toBe(200);
    expect(bySra.body).toMatchObject({ matchedBy: "SRA number", firms: [{ sraNumber: 570654 }] });
    const byName = await check("sra-check", "Riverine Solicitors");
    expect(byName.r.status).toBe(200);
    sraCheck.output.parse(byName.body);
    expect(byName.body).toMatchObject({
      matchedBy: "name",
      authorised: true,
      firms: [{ sraNumber: 8005864, kind: "sole practice", statusCode: "YES", workAreas: ["Family / Matrimonial", "Immigration", "Litigation - Other"] }],
    });
  });

  it("SPEC §4.5 by company number through a former name: a possible match, never stated as authorisation of the queried company", async () => {
    // CASTLE BROOK LEGAL LIMITED was CASTLE & BROOK SOLICITORS LIMITED; the SRA lists the partnership "Castle & Brook
    // Solicitors" with no company number: the same name apart from legal form, possibly another firm.
    const { r, body } = await check("sra-check", "08112233");
    expect(r.status).toBe(200);
    sraCheck.output.parse(body);
    expect(body).toMatchObject({
      company: { name: "CASTLE BROOK LEGAL LIMITED", number: "08112233" },
      matchedBy: "registered and former company names from Companies House",
      authorised: false,
      possibleMatch: true,
      firms: [{ sraNumber: 598877, status: "authorised with conditions", statusCode: "CONDITION", authorised: true }],
    });
    expect(body.summary).toMatch(
      /^Possible match only: Castle & Brook Solicitors \(SRA 598877, authorised with conditions\) matches CASTLE BROOK LEGAL LIMITED \(08112233\)/,
    );
    expect(body.summary).toMatch(/through the company's former name "CASTLE & BROOK SOLICITORS LIMITED"/);
    expect(body.summary).toMatch(/Confirm with the SRA number that this is the same organisation.* The SRA lists no company number for it\./);
    expect(body.matchCertainty).toMatchObject({ basis: "former-name", definite: false, nameKind: "former" });
    expect(body.summary).not.toMatch(/is authorised/);
    // Near-name pairs: the exact name is certain; a near name is only possible.
    const exact = await check("sra-check", "Castle & Brook Solicitors");
    expect(exact.body).toMatchObject({ authorised: true, possibleMatch: false });
    const near = await check("sra-check", "Castle Brook Legal Services");
    expect(near.r.status).toBe(200);
    expect(near.body).toMatchObject({ authorised: false, possibleMatch: true, firms: [{ sraNumber: 598877 }] });
    expect(near.body.summary).toMatch(/^Possible match only/);
    const meridian = await check("sra-check", "Meridian Law Associates Ltd");
    expect(meridian.body).toMatchObject({ authorised: false, firms: [{ status: "intervened", authorised: false, companyNumber: "SC123456" }] });
    expect(meridian.body.summary).toMatch(
      /not currently authorised: intervened since \d{4}-\d{2}-\d{2}\. The SRA has intervened: it has closed the practice and taken its client files and client money\./,
    );
    expect(meridian.body.firms[0]).toMatchObject({
      statusDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      statusMeaning: expect.stringContaining("taken its client files"),
    });
  });

  it("SPEC §1 rule 7: a freelance solicitor (a person) is not loaded; unknown SRA number → 404", async () => {
    await expectNotFound("sra-check", "A. Freelance-Solicitor");
    await expectNotFound("sra-check", "8012345");
  });
});
