import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { entriesByCompanyNumber, entriesByKeys } from "../../../src/db/registers";
import type { EditionFile } from "../../../src/jobs/ingest/adapter";
import { ADAPTERS } from "../../../src/jobs/ingest/adapters";
import { handleIngestJob, ingestEdition } from "../../../src/jobs/ingest/job";
import type { IngestJob } from "../../../src/jobs/ingest/message";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { delimitedRowBatches } from "../../../src/sources/delimited";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * Issue 14 §1: gender pay gap data loaded as a register through the ingest pipeline, the run log and the
 * change history; each reporting year is its own scope, so a file of one year replaces only that year.
 */

const bytesOf = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const fixtureText = async (year: string) => new TextDecoder().decode(await bytesOf(`http://files.test/gender-pay-gap/${year}`));
const encode = (s: string) => new TextEncoder().encode(s);
/** A fixture's records (a SIC list spans lines inside its quotes; a record starts with a quote at a line's start). */
const recordsOf = (text: string, nl: string) => text.split(new RegExp(`${nl}(?=")`));
const file = (bytes: Uint8Array, fileName: string, editionDate: string | null): EditionFile => ({
  source: "gender-pay-gap",
  bytes,
  fileName,
  url: null,
  editionDate,
});
const load = (bytes: Uint8Array, fileName: string, editionDate: string | null, chunkRows?: number) =>
  ingestEdition(ingestPortsFor(env), file(bytes, fileName, editionDate), { chunkRows });

const openEntries = (scope?: string) =>
  env.DB.prepare(
    `SELECT key, scope, status, data FROM register_entries WHERE source = 'gender-pay-gap' AND valid_to_run IS NULL AND removed_on IS NULL${scope ? ` AND scope = '${scope}'` : ""} ORDER BY scope, key`,
  )
    .all<{ key: string; scope: string; status: string; data: string }>()
    .then((r) => r.results);
const changes = () =>
  env.DB.prepare(`SELECT scope, change_date, kind, key, before, after FROM register_changes WHERE source = 'gender-pay-gap' ORDER BY id`)
    .all<{ scope: string; change_date: string; kind: string; key: string; before: string | null; after: string | null }>()
    .then((r) => r.results.map((c) => ({ ...c, before: c.before && JSON.parse(c.before), after: c.after && JSON.parse(c.after) })));

/** The ResponsiblePerson values of a file (the person's name with their job title). */
async function responsiblePersons(input: Uint8Array | string): Promise<string[]> {
  const out: string[] = [];
  let col = -1;
  for await (const rows of delimitedRowBatches(input, ","))
    for (const row of rows) {
      if (col < 0) col = row.indexOf("ResponsiblePerson");
      else if (row[col]?.trim()) out.push(row[col].trim());
    }
  return out;
}

/** SPEC §1 rule 7: no responsible person (name or "name (job title)") anywhere the register is stored. */
async function expectNoPeopleStored(people: string[]) {
  expect(people.length).toBeGreaterThan(0);
  const tables = await env.DB.batch([
    env.DB.prepare(`SELECT key, name, alt_names, data FROM register_entries WHERE source = 'gender-pay-gap'`),
    env.DB.prepare(`SELECT norm FROM register_names WHERE source = 'gender-pay-gap'`),
    env.DB.prepare(`SELECT key, name, before, after FROM register_changes WHERE source = 'gender-pay-gap'`),
    env.DB.prepare(`SELECT file_name, reason, notes FROM register_runs WHERE source = 'gender-pay-gap'`),
  ]);
  const stored = JSON.stringify(tables.map((t) => t.results)).toLowerCase();
  expect(stored).toContain("gender"); // something was read
  for (const p of people) {
    expect(stored).not.toContain(p.toLowerCase());
    expect(stored).not.toContain(p.replace(/\s*\(.*$/s, "").toLowerCase()); // the name alone
  }
}

beforeEach(async () => {
  await storeOf("gender-pay-gap").reset(ingestPortsFor(env), "gender-pay-gap");
  vi.spyOn(console, "log").mockImplementation(() => {}); // the job logs each run
});
afterEach(() => vi.restoreAllMocks());

describe("issue 14 §1 gender pay gap reports as a register", () => {
  it.skipIf(!env.SHARED_PRESENT)("real-data: the 2021 to 2022 sample rows (../shared) load as the 2021 scope, no responsible person stored", async () => {
    const input = await bytesOf("http://shared.test/data/gender-pay-gap/gpg-2021-22-sample.csv");
    const r = await load(input, "gpg-2021-22-sample.csv", null);
    expect(r).toMatchObject({ outcome: "loaded", scope: "2021", rowsRead: 10, changes: 0, notes: { responsiblePersonsNotStored: 9 } });
    const [three] = await entriesByCompanyNumber(env.DB, "gender-pay-gap", ["01123045"]);
    expect(three).toMatchObject({
      key: "293:2021",
      entity: "293",
      part: "2021",
      scope: "2021",
      status: "reported-late",
      data: { sicCodes: ["20301", "23910", "32990"] },
    });
    const [agri] = await entriesByKeys(env.DB, "gender-pay-gap", ["14399:2021"]);
    expect(agri).toMatchObject({ companyNumber: "SC156515", data: { sicCodes: ["01470", "10910"], diffMedianBonusPct: -69.3 } });
    await expectNoPeopleStored(await responsiblePersons(input));
  });

  it("issue 14 §1 two reporting years load as two scopes; a later file of one year leaves the other as it was", async () => {
    const [y2025, y2026] = [await fixtureText("2025"), await fixtureText("2026")];
    expect(await load(encode(y2025), "2025", "2026-05-01")).toMatchObject({
      outcome: "loaded",
      scope: "2025",
      rowsRead: 6,
      changes: 0,
      notes: { personOnlyRows: 1, responsiblePersonsNotStored: 6 },
    });
    expect(await load(encode(y2026), "UK Gender Pay Gap Data - 2026 to 2027.csv", "2026-11-01")).toMatchObject({
      outcome: "loaded",
      scope: "2026",
      rowsRead: 4,
      changes: 0,
    });
    expect((await openEntries()).map((e) => `${e.scope} ${e.key}`)).toEqual([
      "2025 20001:2025",
      "2025 20002:2025",
      "2025 20003:2025",
      "2025 20004:2025",
      "2025 20006:2025",
      "2025 20007:2025",
      "2026 20001:2026",
      "2026 20003:2026",
      "2026 20008:2026",
      "2026 20009:2026",
    ]);
    // One employer, two years: one entity, an entry per year.
    const pie = await entriesByCompanyNumber(env.DB, "gender-pay-gap", ["NI612345"]);
    expect(pie.map((e) => `${e.entity} ${e.part} ${(e.data as { diffMeanHourlyPct: number }).diffMeanHourlyPct}`).sort()).toEqual([
      "20001 2025 12",
      "20001 2026 11.2",
    ]);

    // A later 2025 file: ACME's report withdrawn, a new late report from another employer. 2026 is untouched.
    const before2026 = await openEntries("2026");
    const lines = recordsOf(y2025, "\r\n");
    const later = [
      ...lines.filter((l) => !l.includes('"20007"')),
      lines
        .find((l) => l.includes('"20007"'))!
        .replace('"20007"', '"20010"')
        .replace("ACME WIDGETS LIMITED", "ACME GADGETS LIMITED")
        .replace("ACME WIDGETS LIMITED", "ACME GADGETS LIMITED")
        .replace('"6543210"', '"06543299"'),
    ].join("\r\n");
    const r = await load(encode(later), "UK Gender Pay Gap Data - 2025 to 2026.csv", "2026-11-20");
    expect(r).toMatchObject({ outcome: "loaded", scope: "2025", editionDate: "2026-11-20", byKind: { added: 1, removed: 1 } });
    expect((await changes()).map((c) => `${c.scope} ${c.change_date} ${c.kind} ${c.key} ${(c.after ?? c.before).status}`)).toEqual([
      "2025 2026-11-20 added 20010 reported-late",
      "2025 2026-11-20 removed 20007 reported-late",
    ]);
    expect(await openEntries("2026")).toEqual(before2026);
    // The 2026 file again: nothing changes.
    expect(await load(encode(y2026), "2026", "2026-11-21")).toMatchObject({ outcome: "unchanged", scope: "2026", changes: 0 });
    await expectNoPeopleStored([...(await responsiblePersons(y2025)), ...(await responsiblePersons(y2026)), "Mrs Harriet Lindqvist", "Tobias Wren"]);
  });

  it("issue 14 §1 a late resubmission changes the entry: new figures as a new version, and a status change to reported-late", async () => {
    const y2025 = await fixtureText("2025");
    await load(encode(y2025), "2025", "2026-05-01");
    const line = recordsOf(y2025, "\r\n").find((l) => l.includes('"20004"'))!;
    const resubmitted = line
      .replace('"17","30","16","-100"', '"15.5","28","16","-100"')
      .replace('"False","2026/04/05 00:00:00","2026/04/04 14:05:25"', '"True","2026/04/05 00:00:00","2026/06/01 09:00:00"');
    expect(resubmitted).not.toBe(line);
    const r = await load(encode(y2025.replace(line, resubmitted)), "2025", "2026-06-02");
    expect(r).toMatchObject({ outcome: "loaded", changes: 1, byKind: { status: 1 } });
    expect(await changes()).toEqual([
      { scope: "2025", change_date: "2026-06-02", kind: "status", key: "20004", before: { status: "reported" }, after: { status: "reported-late" } },
    ]);
    const [entry] = await entriesByKeys(env.DB, "gender-pay-gap", ["20004:2025"]);
    expect(entry).toMatchObject({
      status: "reported-late",
      firstSeen: "2026-05-01",
      data: { diffMeanHourlyPct: 15.5, diffMedianHourlyPct: 28, submittedLate: true, submittedOn: "2026-06-01T09:00:00" },
    });
    const versions = await env.DB.prepare(
      `SELECT valid_to_run IS NULL AS open, json_extract(data, '$.diffMeanHourlyPct') AS mean FROM register_entries WHERE source = 'gender-pay-gap' AND key = '20004:2025' ORDER BY valid_from_run`,
    ).all();
    expect(versions.results).toEqual([
      { open: 0, mean: 17 },
      { open: 1, mean: 15.5 },
    ]);
  });

  it("issue 14 §1 loaded in chunks, the result is the same and the run log counts the file once", async () => {
    const bytes = await bytesOf("http://files.test/gender-pay-gap/2025");
    const r = await load(bytes, "2025", "2026-05-01", 2);
    expect(r).toMatchObject({ outcome: "loaded", rowsRead: 6, notes: { personOnlyRows: 1, personNamesRemoved: 1, responsiblePersonsNotStored: 6 } });
    expect((await openEntries()).map((e) => e.key)).toEqual(["20001:2025", "20002:2025", "20003:2025", "20004:2025", "20006:2025", "20007:2025"]);
  });

  it("issue 14 §1 a file given without a date is dated by its newest submission; a file that is not one is refused and the year stays", async () => {
    const bytes = await bytesOf("http://files.test/gender-pay-gap/2025");
    const f = file(bytes, "2025", null);
    f.editionDate = await ADAPTERS["gender-pay-gap"].dateOf!(f);
    expect(await ingestEdition(ingestPortsFor(env), f)).toMatchObject({ outcome: "loaded", editionDate: "2026-04-07", scope: "2025" });
    expect(await ADAPTERS["gender-pay-gap"].dateOf!(file(encode("<html>maintenance</html>"), "2025", null))).toBeNull();
    const bad = await load(encode("<html>maintenance</html>"), "2025", "2026-11-20");
    expect(bad.outcome).toBe("refused");
    expect(await openEntries("2025")).toHaveLength(6);
  });

  it("issue 14 §1 the daily job reads the year before and the current one, each its own scope, dated the day of the fetch", async () => {
    const results = await handleIngestJob(ingestPortsFor(env), { source: "gender-pay-gap" }, { now: new Date("2026-11-24T04:00:00Z") });
    expect(results.map((r) => [r.scope, r.outcome, r.editionDate, r.rowsRead])).toEqual([
      ["2025", "loaded", "2026-11-24", 6],
      ["2026", "loaded", "2026-11-24", 4],
    ]);
    const runs = await env.DB.prepare(`SELECT scope, url, file_name FROM register_runs WHERE source = 'gender-pay-gap' ORDER BY id`).all();
    expect(runs.results).toEqual([
      { scope: "2025", url: "http://files.test/gender-pay-gap/2025", file_name: "UK Gender Pay Gap Data - 2025 to 2026.csv" },
      { scope: "2026", url: "http://files.test/gender-pay-gap/2026", file_name: "UK Gender Pay Gap Data - 2026 to 2027.csv" },
    ]);
    // The next day, the same files: nothing changed.
    const again = await handleIngestJob(ingestPortsFor(env), { source: "gender-pay-gap" }, { now: new Date("2026-11-25T04:00:00Z") });
    expect(again.map((r) => `${r.scope}: ${r.outcome}`)).toEqual(["2025: unchanged", "2026: unchanged"]);
  });

  it("issue 14 §1 a reporting year just begun with no file (or a header only) is skipped; the year before must be there", async () => {
    // 10 April 2027: 2027 to 2028 has no file yet; 2026 to 2027 is read.
    const april = await handleIngestJob(ingestPortsFor(env), { source: "gender-pay-gap" }, { now: new Date("2027-04-10T04:00:00Z") });
    expect(april.map((r) => `${r.scope}: ${r.outcome}`)).toEqual(["2026: loaded"]);
    // A header only for the current year.
    const header = (await fixtureText("2026")).split("\n")[0];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      String(input).endsWith("/2027") ? new Response(`${header}\n`) : realFetch(input as RequestInfo, init),
    );
    expect((await handleIngestJob(ingestPortsFor(env), { source: "gender-pay-gap" }, { now: new Date("2027-04-11T04:00:00Z") })).map((r) => r.scope)).toEqual([
      "2026",
    ]);
    vi.mocked(globalThis.fetch).mockRestore();
    // 1 March 2026: the year before (2024 to 2025) has no file: the run fails and nothing is loaded.
    const march = await handleIngestJob(ingestPortsFor(env), { source: "gender-pay-gap" }, { now: new Date("2026-03-01T04:00:00Z") });
    expect(march).toMatchObject([{ outcome: "failed", reason: expect.stringContaining("2024 to 2025 file answered HTTP 404") }]);
  });

  it("issue 14 §1 the queue loads a year bigger than one invocation in chunks, resuming where it stopped", async () => {
    const sent: IngestJob[] = [];
    vi.spyOn(env.INGEST, "sendBatch").mockImplementation(async (msgs) => {
      for (const m of msgs) sent.push(m.body);
      return undefined as never;
    });
    const now = new Date("2026-11-24T04:00:00Z");
    const first = await handleIngestJob(ingestPortsFor(env), { source: "gender-pay-gap" }, { now, chunkRows: 4 });
    // 2026 (4 rows) fits in one chunk; 2025 (6 rows) goes on in a second message.
    expect(first.map((r) => `${r.scope}: ${r.outcome}`)).toEqual(["2026: loaded"]);
    expect(sent).toEqual([{ source: "gender-pay-gap", runId: expect.any(Number), offset: 4 }]);
    const rest = await handleIngestJob(ingestPortsFor(env), sent[0], { now, chunkRows: 4 });
    expect(rest).toMatchObject([{ scope: "2025", outcome: "loaded", rowsRead: 6, notes: { personOnlyRows: 1 } }]);
    expect(await openEntries()).toHaveLength(10);
  });
});
