import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { resetRegister } from "../../../src/db/registers";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import type { RegisterSource } from "../../../src/services/registers/types";
import { call, createTestKey, json } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/** Issue "change feeds right on real editions" §6: sample data never mixes with real data. */

const TABLES = ["register_runs", "register_state", "register_entries", "register_names", "register_names_fts", "register_changes", "register_staging"];
const clear = () => env.DB.batch(TABLES.map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
const bytesOf = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());
const load = async (source: RegisterSource, path: string, editionDate: string, sample = false) =>
  ingestEdition(ingestPortsFor(env), { source, bytes: await bytesOf(path), fileName: path.split("/").pop()!, url: null, editionDate, sample });

const SAMPLE_A = "sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv";
const SAMPLE_B = "sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-29.csv";
/** Stands in for a real edition here: an older file, not marked as a sample. */
const REAL_2021 = "sponsors/2021-09-30_-_Worker_and_Temporary_Worker.csv";

const count = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;

beforeEach(clear);

describe("issue §6 sample editions never mix with real ones", () => {
  it("SPEC §6.3 the first real edition replaces the sample lineage as a baseline: no events, the run log says so", async () => {
    expect(await load("sponsors", SAMPLE_A, "2026-06-26", true)).toMatchObject({ outcome: "loaded", changes: 0 });
    const sampleDiff = await load("sponsors", SAMPLE_B, "2026-06-29", true);
    expect(sampleDiff.changes).toBeGreaterThan(0); // sample history among samples is kept while they are all there is
    expect(await count(`SELECT sample AS n FROM register_state WHERE source = 'sponsors'`)).toBe(1);

    // A real edition, even one older than the samples, is the new baseline.
    const real = await load("sponsors", REAL_2021, "2021-09-30");
    expect(real).toMatchObject({ outcome: "loaded", changes: 0, editionDate: "2021-09-30" });
    expect(real.reason).toBe("baseline: the first real edition of sponsors/workers replaced the sample data; history starts 2021-09-30; no changes recorded");
    const run = await env.DB.prepare(`SELECT outcome, reason, sample FROM register_runs WHERE id = ?`).bind(real.runId).first();
    expect(run).toEqual({ outcome: "loaded", reason: real.reason, sample: 0 });
    expect(
      await env.DB.prepare(`SELECT edition_date, history_since, sample FROM register_state WHERE source = 'sponsors' AND scope = 'workers'`).first(),
    ).toEqual({
      edition_date: "2021-09-30",
      history_since: "2021-09-30",
      sample: 0,
    });

    // Nothing of the sample lineage is left: no entries, names or changes.
    expect(await count(`SELECT COUNT(*) AS n FROM register_changes WHERE source = 'sponsors'`)).toBe(0);
    expect(await count(`SELECT COUNT(*) AS n FROM register_entries WHERE source = 'sponsors' AND valid_from_run <> ${real.runId}`)).toBe(0);
    expect(await count(`SELECT COUNT(*) AS n FROM register_names WHERE source = 'sponsors' AND valid_from_run <> ${real.runId}`)).toBe(0);
    const { key } = await createTestKey({ plan: "enterprise", credits: 100 });
    const feed = await json(await call("/api/v1/sponsor-licence/changes?since=2000-01-01", { key }));
    expect(feed.changes).toEqual([]);
    expect(feed.historySince).toBe("2021-09-30");
    // A business only the samples had is gone; one of the real edition is found.
    expect((await call(`/api/v1/sponsor-licence?company=${encodeURIComponent("Ivy Lane Bakery Ltd")}`, { key })).status).toBe(404);
    expect((await call(`/api/v1/sponsor-licence?company=${encodeURIComponent("Atlas Removals Ltd")}`, { key })).status).toBe(200);
  });

  it("SPEC §6.3 sample data is never loaded over real data", async () => {
    await load("sponsors", REAL_2021, "2021-09-30");
    const r = await load("sponsors", SAMPLE_A, "2026-06-26", true);
    expect(r.outcome).toBe("refused");
    expect(r.reason).toMatch(/sample data is never loaded over real data.*npm run reset -- sponsors/);
    expect(await count(`SELECT COUNT(*) AS n FROM register_entries WHERE source = 'sponsors' AND valid_from_run = ${r.runId}`)).toBe(0);
  });

  it("SPEC §6.3 an edition older than the published one is refused, and the message says how to load history", async () => {
    await load("sponsors", SAMPLE_B, "2026-06-29");
    const r = await load("sponsors", SAMPLE_A, "2026-06-26");
    expect(r.outcome).toBe("refused");
    expect(r.reason).toBe(
      "edition 2026-06-26 is older than the published edition 2026-06-29; editions are diffed in date order. To load history, empty the register (npm run reset -- sponsors) and load its editions oldest first.",
    );
  });

  it("SPEC §4.8 historySince and registerDate are kept per register (workers, students)", async () => {
    await load("sponsors", "sponsors/2026-01-02_-_Student_and_Child_Student.csv", "2026-01-02");
    await load("sponsors", SAMPLE_A, "2026-06-26");
    const { key } = await createTestKey({ plan: "enterprise", credits: 100 });
    const worker = await json(await call(`/api/v1/sponsor-licence?company=${encodeURIComponent("Bayside Hotel Group Ltd")}`, { key }));
    expect([worker.historySince, worker.registerDate]).toEqual(["2026-06-26", "2026-06-26"]);
    const student = await json(await call(`/api/v1/sponsor-licence?company=${encodeURIComponent("Abbotsford College Cambridge")}`, { key }));
    expect([student.historySince, student.registerDate]).toEqual(["2026-01-02", "2026-01-02"]);
    // SPEC §4.8: a student sponsor under an action plan says so in the summary (the column used to be dropped).
    const beacon = await json(await call(`/api/v1/sponsor-licence?company=${encodeURIComponent("Beacon Language Centre Ltd")}`, { key }));
    expect(beacon.sponsors[0].immigrationCompliance).toBe("Subject to Action Plan");
    expect(beacon.summary).toContain("As a student sponsor it is Subject to Action Plan: the Home Office has put it under an action plan.");
  });

  it("SPEC §4.8 CQC from the HSCA file: the report date comes from the file, inherited ratings are in the summary, a name-only match says so", async () => {
    await load("cqc", "cqc/hsca-active-locations.ods", "2026-10-02");
    const { key } = await createTestKey({ plan: "enterprise", credits: 100 });
    const meadow = await json(await call(`/api/v1/cqc-check?company=${encodeURIComponent("Meadow Care Homes Limited")}`, { key }));
    expect(meadow.locations.find((l: { locationId: string }) => l.locationId === "1-125856395")).toMatchObject({
      lastReportDate: "2024-05-25",
      deregistrationDate: null,
      noticedGoneOn: null,
    });
    expect(meadow.locations.find((l: { locationId: string }) => l.locationId === "1-130000002")).toMatchObject({ inheritedRating: true });
    expect(meadow.summary).toContain("1 location rating is inherited from a previous provider, not from an inspection of this one.");
    const near = await json(await call(`/api/v1/cqc-check?company=${encodeURIComponent("Meadow Care Homes Group")}`, { key }));
    // Issue 28 §1: a similar name is a possible match, never "registered".
    expect(near).toMatchObject({ registered: false, possibleMatch: true, matchCertainty: { basis: "similar-name" } });
    expect(near.summary).toMatch(/^Possible match only: .* by a similar name .*Confirm with the CQC provider or location id/);
  });

  it("SPEC §2.5 the AML summary follows the data: Expired is listed (not removed), Applied is not approved, supervisedByHmrc only for Approved", async () => {
    const head = (await (await fetch("http://files.test/hmrc-mlr/register-edition-2026-10-07.csv")).text()).split(/\r?\n/)[0];
    const row = (mlr: string, name: string, status: string) => `${mlr},01/02/2020,${name},,${name},LS1,,,X,,,,,,,,,,,,,${status}`;
    const csv = [
      head,
      row("XAML00000000001", "EXPIRY ACCOUNTANTS LTD", "EXPIRED"),
      row("XAML00000000002", "PENDING BOOKKEEPING LTD", "APPLIED"),
      row("XAML00000000003", "APPROVED AUDIT LTD", "APPROVED"),
    ].join("\r\n");
    await ingestEdition(ingestPortsFor(env), { source: "aml", bytes: new TextEncoder().encode(csv), fileName: null, url: null, editionDate: "2026-11-01" });
    const { key } = await createTestKey({ plan: "enterprise", credits: 100 });
    const ask = async (q: string) => json(await call(`/api/v1/aml-register?company=${encodeURIComponent(q)}`, { key }));
    const expired = await ask("Expiry Accountants Ltd");
    expect(expired).toMatchObject({ supervisedByHmrc: false, registrations: [{ status: "Expired", removedOn: null }] });
    expect(expired.summary).toContain("is on HMRC's supervised business register (XAML00000000001: Expired (listed, but the registration has expired))");
    expect(expired.summary).not.toMatch(/removed/);
    expect(expired.summary).toMatch(/may supervise it/);
    const applied = await ask("Pending Bookkeeping Ltd");
    expect(applied).toMatchObject({ supervisedByHmrc: false, registrations: [{ status: "Applied" }] });
    expect(applied.summary).toContain("Applied (being considered, not yet approved)");
    expect(applied.summary).toContain("No registration found is Approved.");
    const approved = await ask("Approved Audit Ltd");
    expect(approved).toMatchObject({ supervisedByHmrc: true, registrations: [{ status: "Approved" }] });
    expect(approved.summary).not.toContain("No registration found is Approved");
  });

  it("SPEC §6.3 npm run reset empties one register and leaves the others", async () => {
    await load("sponsors", SAMPLE_A, "2026-06-26");
    await load("aml", "hmrc-mlr/register-edition-2026-10-07.csv", "2026-10-07");
    expect(await resetRegister(env.DB, "sponsors")).toBeGreaterThan(0);
    for (const t of ["register_entries", "register_changes", "register_runs", "register_state", "register_names"])
      expect(await count(`SELECT COUNT(*) AS n FROM ${t} WHERE source = 'sponsors'`)).toBe(0);
    expect(await count(`SELECT COUNT(*) AS n FROM register_entries WHERE source = 'aml'`)).toBeGreaterThan(0);
    // Loading history oldest first then works.
    expect(await load("sponsors", SAMPLE_A, "2026-06-26")).toMatchObject({ outcome: "loaded", changes: 0 });
    expect((await load("sponsors", SAMPLE_B, "2026-06-29")).outcome).toBe("loaded");
  });
});
