import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { REGISTER_CATALOGUE } from "../../../src/services/registers/catalogue";
import { balanceOf, call, createTestKey } from "../../helpers";
import { bytesOf, enc, ingest, load } from "../registers/registerData";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * licences-and-registers: GET /api/v1/licences-and-registers?company= (SPEC §4.5, §1 rules 6–7). Every register loaded
 * as its own check's tests load it (registerData.ts), plus, for this file only:
 * - an HMRC edition of 2026-12-07 (the 2026-11-07 file with two rows more: HARBOURSIDE LEGAL LIMITED, the registered
 *   name of 01234567, and QUAYSIDE PRINT WORKS LTD, 00123456), and one of 2027-01-07 without the Quayside row;
 * - a workers sponsors edition of 2026-10-07 (the 2026-10-06 file and "Harbourside & Co Solicitors Ltd", a former
 *   name of 01234567);
 * - test/fixtures/sanctions/UK-Sanctions-List-registers.csv (list of 2026-03-02): HARBOURSIDE NEW VENTURES LTD
 *   listed with its company number 15550001, two near misses (a near name at a UK address; an identical name once
 *   legal forms are unified, listed in Russia) and an individual at the same address as the listed company.
 * Companies House profiles come from test/fixtures/hosts/ch.test/company/<number>/index.json.
 */

const lr = async (company: string) => {
  const { key, keyId } = await createTestKey();
  const r = await call(`/api/v1/licences-and-registers?company=${encodeURIComponent(company)}`, { key });
  const text = await r.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { r, text, body: JSON.parse(text) as Record<string, any>, keyId };
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const registerOf = (body: Record<string, any>, id: string) => body.registers.find((x: { register: string }) => x.register === id);

const SANCTIONS_CSV = "sanctions/UK-Sanctions-List-registers.csv";
const loadSanctions = async () => {
  const r = await ingestEdition(ingestPortsFor(env), {
    source: "sanctions",
    bytes: await bytesOf(SANCTIONS_CSV),
    fileName: "UK-Sanctions-List.csv",
    url: null,
    editionDate: null,
  });
  if (r.outcome !== "loaded" && r.outcome !== "unchanged") throw new Error(`sanctions: ${r.outcome} ${r.reason}`);
};
const resetSanctions = () => storeOf("sanctions").reset(ingestPortsFor(env), "sanctions");

/** Names of people in the data this file loads: a director and PSCs of 01234567, a sole trader on HMRC's register, a listed individual. */
const PEOPLE = ["HARPER", "OKONJO", "PEEL", "Jane Elizabeth", "John Smith", "WHITCOMBE", "Peregrine"];

beforeAll(async () => {
  for (const s of ["aml", "sra", "sponsors", "cqc", "charity"] as const) await load(s);
  // The files' rows end with CRLF: rows added end the same way, or the parser reads them into the row before.
  const text = async (path: string) =>
    new TextDecoder()
      .decode(await bytesOf(path))
      .replace(/\s+$/, "")
      .split(/\r?\n/);
  const aml = await text("hmrc-mlr/register-edition-2026-11-07.csv");
  const oakhill = aml.find((l) => l.startsWith("XEML00000111222"))!;
  const row = (mlr: string, name: string, trading: string) =>
    oakhill.replace("XEML00000111222", mlr).replace("OAKHILL HOMES LIMITED", name).replace("Oakhill Estates & Lettings", trading).replace("CF14", "BS1");
  const harbourside = row("XEML00000424242", "HARBOURSIDE LEGAL LIMITED", "Harbourside Lettings");
  const quayside = row("XEML00000313131", "QUAYSIDE PRINT WORKS LTD", "Quayside Lettings");
  const csv = (lines: string[]) => enc(`${lines.join("\r\n")}\r\n`);
  await ingest("aml", csv([...aml, harbourside, quayside]), "2026-12-07");
  await ingest("aml", csv([...aml, harbourside]), "2027-01-07");
  const workers = await text("sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-10-06.csv");
  await ingest("sponsors", csv([...workers, "Harbourside & Co Solicitors Ltd,Bristol,,Worker (A rating),Skilled Worker"]), "2026-10-07");
});

afterEach(() => vi.restoreAllMocks());

describe("licences-and-registers: every register, one call (SPEC §4.5)", () => {
  it("finds the company on several registers, each with its status, date and how it matched; 2 credits", async () => {
    await resetSanctions();
    const { r, body, keyId } = await lr("1234567");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(98);
    expect(body.query).toEqual({ company: "1234567" });
    expect(body.company).toMatchObject({ name: "HARBOURSIDE LEGAL LIMITED", number: "01234567", status: "active" });
    expect(body.registers.map((x: { register: string }) => x.register)).toEqual(["aml", "sra", "sponsors", "cqc", "charity"]);
    // Issue 28 §1: the sponsors register matched only through a former name, so it is not among the registers found.
    expect(body.foundOn).toEqual(["aml", "sra"]);

    // SRA: its own record carries the company number.
    expect(registerOf(body, "sra")).toMatchObject({
      name: REGISTER_CATALOGUE.sra.title,
      checked: true,
      found: true,
      formerlyListed: false,
      status: "authorised",
      registerDate: "2026-10-08",
      matchedBy: "company number on the register's own record",
      possibleMatch: false,
      matchesTotal: 1,
      provenance: { source: REGISTER_CATALOGUE.sra.title, registerDate: "2026-10-08", attribution: REGISTER_CATALOGUE.sra.attribution },
    });
    expect(registerOf(body, "sra").matches).toEqual([
      {
        name: "Harbourside Legal Limited",
        registerNumber: { type: "SRA number", value: "570654" },
        companyNumber: "01234567",
        status: "authorised",
        listed: true,
        removedOn: null,
        entries: 1,
        town: expect.any(String),
        matchedBy: "company-number",
        matchedCompanyName: null,
        definite: true,
        formerNameUntil: null,
        contradictions: [],
        match: { score: 1, matchedName: "Harbourside Legal Limited", reasons: ["company number"], basis: "company-number", definite: true },
      },
    ]);

    // HMRC: no company numbers; the registered name, exactly.
    expect(registerOf(body, "aml")).toMatchObject({
      found: true,
      status: "Approved",
      registerDate: "2027-01-07",
      matchedBy: "registered and former company names from Companies House",
      possibleMatch: false,
      matches: [
        {
          name: "HARBOURSIDE LEGAL LIMITED",
          registerNumber: { type: "MLR number", value: "XEML00000424242" },
          companyNumber: null,
          status: "Approved",
          listed: true,
          matchedBy: "registered-name",
          matchedCompanyName: "HARBOURSIDE LEGAL LIMITED",
          match: { score: 1 },
        },
      ],
    });

    // Sponsors: through a former name only, so a possible match (not found); the status is the licence type and rating.
    const sponsors = registerOf(body, "sponsors");
    expect(sponsors).toMatchObject({
      found: false,
      status: "Worker (A rating)",
      registerDate: "2026-10-07",
      possibleMatch: true,
      matches: [
        {
          name: "Harbourside & Co Solicitors Ltd",
          registerNumber: null,
          town: "Bristol",
          matchedBy: "former-name",
          matchedCompanyName: "HARBOURSIDE & CO SOLICITORS LIMITED",
          definite: false,
          match: { score: 1, basis: "former-name", definite: false },
        },
      ],
    });
    expect(sponsors.note).toMatch(
      /^Possible match only: Confirm with the organisation's town and address on the register \(it has no numbers\) that this is the same organisation: the register may not have caught up with the change of name.* Harbourside & Co Solicitors Ltd matched through the company's former name HARBOURSIDE & CO SOLICITORS LIMITED/,
    );

    expect(body.summary).toContain(
      "HARBOURSIDE LEGAL LIMITED (01234567) is on the HMRC money-laundering supervision register (Approved), the SRA register (authorised). Possible match only on the Home Office register of licensed sponsors (Harbourside & Co Solicitors Ltd, Worker (A rating); through the former name HARBOURSIDE & CO SOLICITORS LIMITED): confirm before relying on it.",
    );
    expect(body.summary).not.toMatch(/is on [^.]*register of licensed sponsors/);
    expect(body.provenance).toMatchObject({ source: "Companies House public data API", attribution: "Source: Companies House." });
  });

  it("a register the company is not on says so, with the register's date; HMRC's says another body may supervise it", async () => {
    const { body } = await lr("04712345"); // RIVERSIDE COMMUNITY TRUST: a charitable company
    expect(body.foundOn).toEqual(["charity"]);
    expect(registerOf(body, "charity")).toMatchObject({
      found: true,
      status: "Registered",
      matches: [{ registerNumber: { type: "charity number", value: "1100001" }, matchedBy: "company-number" }],
    });
    const cqc = registerOf(body, "cqc");
    expect(cqc).toEqual({
      register: "cqc",
      name: REGISTER_CATALOGUE.cqc.title,
      checked: true,
      found: false,
      formerlyListed: false,
      status: null,
      registerDate: "2026-10-03",
      matchedBy: null,
      possibleMatch: false,
      matches: [],
      matchesTotal: 0,
      note: `Not on this register (edition of 2026-10-03) under its company number or its registered or former names. ${REGISTER_CATALOGUE.cqc.notFound}`,
      provenance: expect.objectContaining({ registerDate: "2026-10-03" }),
    });
    const aml = registerOf(body, "aml");
    expect(aml).toMatchObject({ checked: true, found: false, registerDate: "2027-01-07" });
    expect(aml.note).toContain("Not on this register (edition of 2027-01-07) under its registered or former names (the register carries no company numbers).");
    expect(aml.note).toContain("does not mean the business is unsupervised: another body, such as the FCA or a professional body");
    expect(body.summary).toContain(
      "Not found on the HMRC money-laundering supervision register (edition of 2027-01-07), the SRA register (edition of 2026-10-08), the Home Office register of licensed sponsors (edition of 2026-10-07), the CQC register (edition of 2026-10-03).",
    );
    expect(body.summary).toContain("another body, such as the FCA or a professional body");
  });

  it("a CQC provider's own status stands for it; its locations are listed after it", async () => {
    const { body } = await lr("03712548"); // MEADOW CARE HOMES LIMITED
    const cqc = registerOf(body, "cqc");
    expect(cqc).toMatchObject({ found: true, status: "Registered", matchedBy: "company number on the register's own record" });
    expect(cqc.matches[0]).toMatchObject({ name: "Meadow Care Homes Limited", registerNumber: { type: "CQC provider id" }, matchedBy: "company-number" });
    expect(cqc.matches.slice(1).every((m: { registerNumber: { type: string } }) => m.registerNumber.type === "CQC location id")).toBe(true);
  });

  it("a company gone from a register is not found there, and the reply says it was listed before and when it went", async () => {
    const { body } = await lr("00123456"); // QUAYSIDE PRINT WORKS LIMITED: in HMRC's edition of 2026-12-07 only
    const aml = registerOf(body, "aml");
    expect(aml).toMatchObject({
      found: false,
      formerlyListed: true,
      status: null,
      matches: [
        { name: "QUAYSIDE PRINT WORKS LTD", status: "Approved", listed: false, removedOn: "2027-01-07", matchedBy: "registered-name", match: { score: 1 } },
      ],
    });
    expect(aml.note).toContain("no longer listed");
    expect(aml.note).toContain("another body, such as the FCA or a professional body");
    expect(body.foundOn).toEqual([]);
    expect(body.summary).toContain("It is no longer listed on the HMRC money-laundering supervision register.");
  });
});

describe("licences-and-registers: the UK sanctions list (SPEC §1 rule 6)", () => {
  it("before the list is loaded, the reply says it was not checked, never a clearance", async () => {
    await resetSanctions();
    const { body } = await lr("15550001");
    expect(body.sanctions).toEqual({
      checked: false,
      listDate: null,
      definiteMatches: [],
      note: "The UK sanctions list has not been loaded on this service yet, so it was not checked; this is not a clearance.",
    });
    expect(body.sanctionsProvenance).toBeNull();
    expect(body.summary).toContain("so it was not checked; this is not a clearance.");
  });

  it("a definite match by UK company number: the list entry, its regimes, the name type and the reasons", async () => {
    await loadSanctions();
    const { r, text, body } = await lr("15550001"); // HARBOURSIDE NEW VENTURES LTD
    expect(r.status).toBe(200);
    expect(body.sanctions).toEqual({
      checked: true,
      listDate: "2026-03-02",
      definiteMatches: [
        {
          listId: "RUS9901",
          ofsiGroupId: "99901",
          regimes: ["Russia"],
          nameType: "primary",
          matchedName: "HARBOURSIDE NEW VENTURES LTD",
          reasons: expect.arrayContaining(["same UK company number 15550001"]),
        },
      ],
      note: "Definite match on the UK sanctions list (list of 2026-03-02).",
    });
    expect(body.sanctionsProvenance).toMatchObject({
      source: REGISTER_CATALOGUE.sanctions.title,
      registerDate: "2026-03-02",
      attribution: REGISTER_CATALOGUE.sanctions.attribution,
    });
    expect(body.summary).toContain("Definite match on the UK sanctions list (list of 2026-03-02). Entry RUS9901 (Russia; same UK company number 15550001");
    // The individual listed at the same address is never named.
    for (const name of PEOPLE) expect(text).not.toContain(name);
  });

  it("no definite match: the sentence with the list's date; near misses (a near name, a contradicted identical name) are not reported", async () => {
    await loadSanctions();
    for (const company of ["01234567", "05550123"]) {
      const { body } = await lr(company);
      expect(body.sanctions, company).toEqual({
        checked: true,
        listDate: "2026-03-02",
        definiteMatches: [],
        note: "No definite match on the UK sanctions list (list of 2026-03-02); this is not a clearance.",
      });
      expect(body.summary).toContain("No definite match on the UK sanctions list (list of 2026-03-02); this is not a clearance.");
      expect(JSON.stringify(body)).not.toMatch(/RUS990[23]|GREYSTONE ENGINEERING LLC|HARBOURSIDE LEGAL SERVICES/);
    }
  });
});

describe("licences-and-registers: errors, privacy", () => {
  it("SPEC §1 rule 7 no person's name in the reply: not the company's officers or PSCs, not a sole trader on a register, not a listed individual", async () => {
    await loadSanctions();
    for (const company of ["01234567", "15550001"]) {
      const { text } = await lr(company);
      for (const name of PEOPLE) expect(text, `${company}: ${name}`).not.toContain(name);
    }
  });

  it("SPEC §7 an unknown company number answers 404 with query, credits given back", async () => {
    const { r, body, keyId } = await lr("07000001");
    expect(r.status).toBe(404);
    expect(body).toMatchObject({ code: "not_found", query: "07000001", requestId: r.headers.get("x-request-id") });
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 Companies House cannot be read: 503 upstream_unavailable, credits given back", async () => {
    await env.DB.prepare(`DELETE FROM http_cache`).run(); // earlier tests cached the profile
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      /\/company\/01234567$/.test(String(input instanceof Request ? input.url : input)) ? new Response("{}", { status: 429 }) : real(input, init),
    );
    const { r, body, keyId } = await lr("01234567");
    expect(r.status).toBe(503);
    expect(body.code).toBe("upstream_unavailable");
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7 a value that is no company number is 400 naming company, never charged", async () => {
    for (const q of ["acme", "", "00000000"]) {
      const { r, body, keyId } = await lr(q);
      expect(r.status, q).toBe(400);
      expect(body).toMatchObject({ code: "bad_request" });
      expect(body.message).toMatch(/company/);
      expect(await balanceOf(keyId)).toBe(100);
    }
  });

  it("a register not loaded yet is marked not checked, and found false says nothing", async () => {
    await storeOf("cqc").reset(ingestPortsFor(env), "cqc");
    const { body } = await lr("03712548");
    expect(registerOf(body, "cqc")).toMatchObject({ checked: false, found: false, registerDate: null, matches: [] });
    expect(registerOf(body, "cqc").note).toMatch(/not loaded this register yet/);
    expect(body.summary).toContain("Not checked (not loaded yet): the CQC register.");
  });
});
