import { env } from "cloudflare:workers";
import { zipSync } from "fflate";
import { beforeEach, describe, expect, it } from "vitest";
import { companiesMatching, companyByNumber, sicDescriptions } from "../../../src/db/companies";
import { type IngestOptions, ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { type BulkParseStats, parseBasicCompanyData } from "../../../src/sources/companies-house/bulk";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/** Issue "Companies House family" §1: the Basic Company Data file through the register ingest pipeline, into its own database. */

const bytesOf = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());
const OCT = "companies-house/bulk/BasicCompanyData-2026-10-01.csv";
const NOV = "companies-house/bulk/BasicCompanyData-2026-11-01.csv";
const load = async (path: string, opts: IngestOptions = {}, extra: { bytes?: Uint8Array; sample?: boolean; fileName?: string } = {}) =>
  ingestEdition(
    ingestPortsFor(env),
    {
      source: "companies",
      bytes: extra.bytes ?? (await bytesOf(path)),
      fileName: extra.fileName ?? path.split("/").pop()!,
      url: null,
      editionDate: null,
      sample: extra.sample,
    },
    opts,
  );

async function changes() {
  const rows = await env.COMPANIES_DB.prepare(`SELECT change_date, number, kind, name, before, after FROM company_changes ORDER BY number, kind`).all<{
    change_date: string;
    number: string;
    kind: string;
    name: string;
    before: string | null;
    after: string | null;
  }>();
  return rows.results.map((r) => ({ ...r, before: r.before && JSON.parse(r.before), after: r.after && JSON.parse(r.after) }));
}
const ftsNumbers = async (q: string) => (await companiesMatching(env.COMPANIES_DB, q, 50)).map((c) => c.number).sort();

beforeEach(async () => {
  await storeOf("companies").reset(ingestPortsFor(env), "companies");
});

describe("issue §1 Basic Company Data: parser", () => {
  it("reads the format's mess: trimmed header names, quoted blanks, DD/MM/YYYY, SIC text, runs of spaces, a 53-column row, a number it cannot use", async () => {
    const stats: BulkParseStats = { badNumberRows: 0, namelessRows: 0, shortRows: 0 };
    const records = [];
    for await (const r of parseBasicCompanyData(await bytesOf(OCT), { stats })) records.push(r);
    expect(records).toHaveLength(17);
    expect(stats).toEqual({ badNumberRows: 1, namelessRows: 0, shortRows: 1 });
    const by = new Map(records.map((r) => [r.key, r]));
    expect(by.get("05550123")).toMatchObject({
      name: "GREYSTONE ENGINEERING LIMITED",
      status: "Liquidation",
      town: "ROTHERHAM",
      data: {
        category: "Private Limited Company",
        incorporatedOn: "2005-09-01",
        sic: [{ code: "25620", description: "Machining" }],
        postcode: "S62 6JJ",
        extra: { addressLine1: "UNIT 9 BERRY COURT", chargesTotal: 3, chargesOutstanding: 2, chargesSatisfied: 1 },
      },
    });
    // doubled quotes, an impossible date (31/02) read as no date, "None Supplied" dropped
    expect(by.get("NI612345")).toMatchObject({
      name: 'THE "ORIGINAL" PIE COMPANY LIMITED',
      status: "ADMINISTRATION ORDER",
      data: { incorporatedOn: null, sic: [{ code: "47110" }] },
    });
    // the 53-column row: no confirmation-statement columns, read as none; a 4-digit SIC 2003 code
    expect(by.get("00045678")).toMatchObject({ data: { confirmationDue: null, sic: [{ code: "7499", description: "Non-trading company" }] } });
    // a number of no known shape is kept when it is 8 letters and digits
    expect(by.get("IP10067R")).toMatchObject({ name: "ABBEYFIELD HOUSING SOCIETY", data: { incorporatedOn: null, sic: [] } });
    expect(by.get("01234567")!.altNames).toEqual(["HARBOURSIDE SOLICITORS LIMITED", "HARBOURSIDE & CO LIMITED"]);
    expect((by.get("01234567")!.data as { previousNames: unknown }).previousNames).toEqual([
      { name: "HARBOURSIDE SOLICITORS LIMITED", until: "1999-05-11" },
      { name: "HARBOURSIDE & CO LIMITED", until: "1985-02-14" },
    ]);
  });

  it("skips records before `from` without parsing them, so a resumed chunk starts exactly there", async () => {
    const all = [];
    for await (const r of parseBasicCompanyData(await bytesOf(OCT))) all.push(r.key);
    const tail = [];
    for await (const r of parseBasicCompanyData(await bytesOf(OCT), { from: 5 })) tail.push(r.key);
    // `from` counts data rows of the file (the row without a number among them), not records yielded
    expect(tail).toEqual(all.slice(5));
  });

  it("refuses a file that is not Basic Company Data", async () => {
    await expect(async () => {
      for await (const _ of parseBasicCompanyData(new TextEncoder().encode("Organisation Name,Town/City\nAcme,Leeds\n")));
    }).rejects.toThrow(/not a Basic Company Data file: no CompanyName or CompanyNumber column/);
  });
});

describe.skipIf(!env.SHARED_PRESENT)("issue §1 Basic Company Data: the real sample rows (../shared)", () => {
  it("reads the four real rows exactly as the file has them", async () => {
    const bytes = new Uint8Array(await (await fetch("http://shared.test/data/ch-bulk-basic-company-data/BasicCompanyData-sample.csv")).arrayBuffer());
    const stats: BulkParseStats = { badNumberRows: 0, namelessRows: 0, shortRows: 0 };
    const rows = [];
    for await (const r of parseBasicCompanyData(bytes, { stats })) rows.push(r);
    expect(stats).toEqual({ badNumberRows: 0, namelessRows: 0, shortRows: 0 });
    expect(rows.map((r) => [r.key, r.name, r.status, r.town])).toEqual([
      ["12778855", "! LIMITED", "Active", "SHEFFIELD"],
      ["08209948", "! LTD", "Active", "LEEDS"],
      ["11399177", "!? LTD", "Active", "ROMILEY"],
      ["07687209", "!OBAC UK LIMITED", "Active", "TADLEY"],
    ]);
    expect(rows[3].data).toMatchObject({
      category: "Private Limited Company",
      incorporatedOn: "2011-06-29",
      postcode: "RG26 5AT",
      accountsDue: "2022-09-29",
      accountsMadeUpTo: "2020-12-31",
      accountsCategory: "TOTAL EXEMPTION FULL",
      sic: [{ code: "70229", description: "Management consultancy activities other than financial management" }],
      extra: { addressLine1: "UNIT 9 BERRY COURT FARM BRAMLEY ROAD", addressLine2: "LITTLE LONDON", county: "HAMPSHIRE", chargesTotal: 1, chargesSatisfied: 1 },
    });
    expect(rows[1].data).toMatchObject({
      accountsCategory: "DORMANT",
      sic: [{ code: "99999", description: "Dormant Company" }],
      accountsMadeUpTo: "2020-09-30",
    });
    expect(rows[0].data).toMatchObject({ accountsMadeUpTo: null, confirmationDue: "2021-08-11", confirmationMadeUpTo: null });
  });
});

describe("issue §1 Basic Company Data through the pipeline, into COMPANIES_DB", () => {
  it("the first edition is the baseline: every company loaded and indexed, SIC descriptions kept, no changes", async () => {
    const r = await load(OCT);
    expect(r).toMatchObject({
      outcome: "loaded",
      source: "companies",
      editionDate: "2026-10-01",
      rowsRead: 17,
      changes: 0,
      notes: { badNumberRows: 1, shortRows: 1 },
    });
    expect(await changes()).toEqual([]);
    expect(await companyByNumber(env.COMPANIES_DB, "09876543")).toMatchObject({
      name: "OAKHILL PROPERTY GROUP LIMITED",
      status: "In Administration",
      sicCodes: ["68310", "68320", "41100", "64209"],
      locality: "CARDIFF",
      postcode: "CF10 2BU",
      incorporatedOn: "2015-10-12",
    });
    expect(Object.fromEntries(await sicDescriptions(env.COMPANIES_DB, ["69102", "7499", "00000"]))).toEqual({
      "69102": "Solicitors",
      "7499": "Non-trading company",
    });
    // the name index holds the names without their legal form
    expect(await ftsNumbers(`"harbourside" AND "legal"`)).toEqual(["01234567"]);
    expect(await ftsNumbers(`"smith"`)).toEqual(["02345678", "02345679"]);
    // the run log in the main database says so, like every register's
    expect(await env.DB.prepare(`SELECT edition_date, outcome FROM register_runs WHERE id = ?`).bind(r.runId).first()).toEqual({
      edition_date: "2026-10-01",
      outcome: "loaded",
    });
  });

  it("SPEC §6.3 the next month's differences are recorded per company: added, removed, renamed, status, moved", async () => {
    await load(OCT);
    const r = await load(NOV);
    expect(r).toMatchObject({ outcome: "loaded", editionDate: "2026-11-01", changes: 5, byKind: { added: 1, removed: 1, renamed: 1, status: 1, moved: 1 } });
    const cs = await changes();
    expect(cs.map((c) => `${c.change_date} ${c.kind} ${c.number} ${c.name}`)).toEqual([
      "2026-11-01 removed 05550123 GREYSTONE ENGINEERING LIMITED",
      "2026-11-01 moved 06543210 ACME WIDGETS LIMITED",
      "2026-11-01 status 09876543 OAKHILL PROPERTY GROUP LIMITED",
      "2026-11-01 renamed 11223344 HARBOUR LIGHTS KITCHEN LTD",
      "2026-11-01 added 16012345 BRIGHTWATER ANALYTICS LTD",
    ]);
    expect(cs.find((c) => c.kind === "moved")).toMatchObject({
      before: { postcode: "CV1 2AB", locality: "COVENTRY" },
      after: { postcode: "CV10 7RJ", locality: "NUNEATON" },
    });
    expect(cs.find((c) => c.kind === "status")).toMatchObject({ before: { status: "In Administration" }, after: { status: "Liquidation" } });
    // readers see the new edition: the removed company is gone, the renamed one found by its new name only
    expect(await companyByNumber(env.COMPANIES_DB, "05550123")).toBeNull();
    expect(await ftsNumbers(`"kitchen"`)).toEqual(["11223344"]);
    expect(await ftsNumbers(`"cafe"`)).toEqual([]);
    // a change no kind names (new accounts filed) is a new version without a change record
    expect(await companyByNumber(env.COMPANIES_DB, "03712548")).toMatchObject({ accountsMadeUpTo: "2026-03-31" });
    expect(cs.some((c) => c.number === "03712548")).toBe(false);
    // the versions it replaced are gone (no reader sees them; the changes keep what they said): one row per live company
    expect(
      await env.COMPANIES_DB.prepare(`SELECT COUNT(*) AS n, COUNT(DISTINCT number) AS numbers, SUM(valid_to_run IS NOT NULL) AS closed FROM companies`).first(),
    ).toEqual({ n: 17, numbers: 17, closed: 0 });
    expect(await env.COMPANIES_DB.prepare(`SELECT COUNT(*) AS n FROM companies_fts WHERE companies_fts MATCH '"cafe" OR "greystone"'`).first()).toEqual({
      n: 0,
    });
  });

  it("a company back in the file after it left is `returned`, not added", async () => {
    await load(OCT);
    await load(NOV);
    const dec = new TextDecoder().decode(await bytesOf(OCT)); // Greystone is listed again
    const r = await load("", {}, { bytes: new TextEncoder().encode(dec), fileName: "BasicCompanyData-2026-12-01.csv" });
    expect(r.byKind.returned).toBe(1);
    expect((await changes()).filter((c) => c.kind === "returned").map((c) => c.number)).toEqual(["05550123"]);
  });

  it("the same edition twice changes nothing; an older one is refused; a truncated one is refused and the published edition stays", async () => {
    await load(OCT);
    expect(await load(OCT)).toMatchObject({ outcome: "unchanged", changes: 0 });
    await load(NOV);
    const older = await load(OCT);
    expect(older).toMatchObject({ outcome: "refused" });
    expect(older.reason).toMatch(/older than the published edition 2026-11-01/);
    const lines = new TextDecoder().decode(await bytesOf(NOV)).split("\n");
    const truncated = await load("", {}, { bytes: new TextEncoder().encode(lines.slice(0, 4).join("\n")), fileName: "BasicCompanyData-2026-12-01.csv" });
    expect(truncated).toMatchObject({ outcome: "refused" });
    expect(truncated.reason).toMatch(/looks truncated: 3 rows against 17/);
    expect(await companyByNumber(env.COMPANIES_DB, "16012345")).toMatchObject({ name: "BRIGHTWATER ANALYTICS LTD" });
    expect(await env.COMPANIES_DB.prepare(`SELECT COUNT(*) AS n FROM company_staging`).first()).toEqual({ n: 0 });
  });

  it("a file that is not Basic Company Data (an error page) is refused; a run that fails part-way leaves nothing behind", async () => {
    await load(OCT);
    const page = await load(
      "",
      {},
      { bytes: new TextEncoder().encode("<html><body>Service unavailable</body></html>\n"), fileName: "BasicCompanyData-2026-11-01.csv" },
    );
    expect(page).toMatchObject({ outcome: "refused" });
    expect(page.reason).toMatch(/not a Basic Company Data file/);
    // a run that staged two chunks and then failed (e.g. the download broke): everything it wrote goes
    const { beginRun, stageRecords, failRun } = await import("../../../src/jobs/ingest/pipeline");
    const runId = await beginRun(ingestPortsFor(env), { source: "companies", scope: "", editionDate: "2026-11-01" });
    await stageRecords(ingestPortsFor(env), runId, parseBasicCompanyData(await bytesOf(NOV)), { limit: 8 });
    expect(await env.COMPANIES_DB.prepare(`SELECT COUNT(*) AS n FROM company_staging`).first()).toEqual({ n: 8 });
    await failRun(ingestPortsFor(env), runId, "the download broke");
    expect(await env.COMPANIES_DB.prepare(`SELECT COUNT(*) AS n FROM company_staging`).first()).toEqual({ n: 0 });
    expect(await env.DB.prepare(`SELECT outcome, reason FROM register_runs WHERE id = ?`).bind(runId).first()).toEqual({
      outcome: "failed",
      reason: "the download broke",
    });
    expect(await companyByNumber(env.COMPANIES_DB, "05550123")).toMatchObject({ name: "GREYSTONE ENGINEERING LIMITED" });
    expect(await load(NOV)).toMatchObject({ outcome: "loaded", changes: 5 });
  });

  it("a zip as downloaded, read in resumable chunks of 4 rows, loads the same edition", async () => {
    const zip = zipSync({ "BasicCompanyDataAsOneFile-2026-10-01.csv": await bytesOf(OCT) });
    const r = await load("", { chunkRows: 4 }, { bytes: zip, fileName: "BasicCompanyDataAsOneFile-2026-10-01.zip" });
    expect(r).toMatchObject({ outcome: "loaded", editionDate: "2026-10-01", rowsRead: 17 });
    expect(await env.COMPANIES_DB.prepare(`SELECT COUNT(*) AS n FROM companies`).first()).toEqual({ n: 17 });
  });

  it("sample data is replaced by the first real edition, which is the baseline", async () => {
    await load(OCT, {}, { sample: true });
    const r = await load(NOV);
    expect(r).toMatchObject({ outcome: "loaded", changes: 0 });
    expect(r.reason).toMatch(/replaced the sample data/);
    expect(await changes()).toEqual([]);
    expect(await env.COMPANIES_DB.prepare(`SELECT COUNT(*) AS n FROM companies`).first()).toEqual({ n: 17 });
    expect(await ftsNumbers(`"greystone"`)).toEqual([]);
  });
});
