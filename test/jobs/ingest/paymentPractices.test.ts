import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ingestFile } from "../../../src/cli/ingest";
import { entriesByCompanyNumber } from "../../../src/db/registers";
import { ADAPTERS } from "../../../src/jobs/ingest/adapters";
import { handleIngestJob, ingestEdition } from "../../../src/jobs/ingest/job";
import type { IngestJob } from "../../../src/jobs/ingest/message";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import type { PaymentReport } from "../../../src/services/payments/types";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/** Issue 14 §1: the Payment Practices reports loaded as a register through the ingest pipeline, with a run log and a change history. */

const bytesOf = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const fixture = (name: string) => bytesOf(`http://files.test/payment-practices/${name}`);
const load = (bytes: Uint8Array, editionDate: string | null, opts: { chunkRows?: number } = {}) =>
  ingestEdition(ingestPortsFor(env), { source: "payment-practices", bytes, fileName: "export.csv", url: null, editionDate }, opts);

async function changes() {
  const rows = await env.DB.prepare(`SELECT change_date, kind, key, name FROM register_changes WHERE source = 'payment-practices' ORDER BY id`).all<{
    change_date: string;
    kind: string;
    key: string;
    name: string;
  }>();
  return rows.results.map((r) => `${r.change_date} ${r.kind} ${r.key} ${r.name}`);
}
const reportsOf = async (number: string) =>
  (await entriesByCompanyNumber(env.DB, "payment-practices", [number]))
    .map((e) => ({ key: e.key, ...(e.data as unknown as PaymentReport) }))
    .sort((a, b) => a.key.localeCompare(b.key));

/** The fixture export a fortnight later: one new report for ACME, and Bayside's period resubmitted (plausible figures now). */
async function laterEdition(): Promise<Uint8Array> {
  const text = new TextDecoder().decode(await fixture("export.csv"));
  const lines = text.split("\r\n");
  const acme = lines.find((l) => l.startsWith("1002,"))!;
  const bayside = lines.find((l) => l.startsWith("1150,"))!;
  const newAcme = acme
    .replace("1002,", "1210,")
    .replace("01/07/2025,31/12/2025,28/01/2026", "01/01/2026,30/06/2026,20/10/2026")
    .replace(",27,,,,85,12,3,,8,", ",29,,,,83,13,4,,9,")
    .replace("/report/1002", "/report/1210");
  const resubmitted = bayside
    .replace("1150,", "1211,")
    .replace("05/10/2026", "19/10/2026")
    .replace(",4323394,,,,90,40,20,,112,", ",44,,,,60,30,10,,21,")
    .replace(",999,", ",60,")
    .replace("/report/1150", "/report/1211");
  return new TextEncoder().encode(`\uFEFF${[...lines.slice(0, -1), newAcme, resubmitted, ""].join("\r\n")}`);
}

beforeEach(() => storeOf("payment-practices").reset(ingestPortsFor(env), "payment-practices"));
afterEach(() => vi.restoreAllMocks());

describe("issue 14 §1 payment practices as a register", () => {
  it("the export loads one entry per report, dated by its latest filing (the CLI's path); the run log says what was left out, clamped and which encoding was read", async () => {
    const r = await ingestFile(env, "payment-practices", await fixture("export.csv"), { fileName: "export.csv", url: null, editionDate: null });
    expect(r).toMatchObject({
      outcome: "loaded",
      editionDate: "2026-10-05",
      rowsRead: 8,
      changes: 0, // the first edition is the baseline
      notes: {
        encodingUtf8: 1,
        dateFormatDmy: 1,
        duplicateReports: 1,
        rowsWithoutCompanyNumber: 2,
        rowsWithoutPeriod: 1,
        clampedValues: 6,
        reportsWithClampedValues: 2,
        percentagesNotAddingUp: 1,
        standardTermsTextCut: 1,
      },
    });
    const run = await env.DB.prepare(`SELECT rows_read, notes, mode FROM register_runs WHERE id = ?`)
      .bind(r.runId)
      .first<{ rows_read: number; notes: string; mode: string }>();
    expect(run).toMatchObject({ rows_read: 8, mode: "snapshot" });
    expect(JSON.parse(run!.notes)).toMatchObject({ encodingUtf8: 1, duplicateReports: 1 });
    // The resubmitted period is one report: the later filing.
    expect(await reportsOf("09876543")).toMatchObject([{ key: "09876543:2026-01-01:2026-06-30", reportId: 1187, avgDaysToPay: 58 }]);
    // Found by the company number however the export wrote it (7654321 → 07654321).
    expect(await reportsOf("07654321")).toMatchObject([
      { avgDaysToPay: null, clamped: ["avgDaysToPay: 4323394 is not a plausible number of days", expect.any(String), expect.any(String)] },
    ]);
    expect((await reportsOf("06543210")).map((x) => x.periodEnd)).toEqual(["2025-06-30", "2025-12-31"]);
  });

  it("SPEC §6.1 a later edition with a new report for a company records an `added` change for that report; a resubmitted period stays one report", async () => {
    await load(await fixture("export.csv"), "2026-10-05");
    const r = await load(await laterEdition(), "2026-10-20");
    expect(r).toMatchObject({ outcome: "loaded", editionDate: "2026-10-20", rowsRead: 9, changes: 1, byKind: { added: 1 } });
    expect(r.notes).toMatchObject({ duplicateReports: 2, reportsWithClampedValues: 1 });
    expect(await changes()).toEqual(["2026-10-20 added 06543210:2026-01-01:2026-06-30 ACME WIDGETS LIMITED"]);
    expect((await reportsOf("06543210")).map((x) => [x.key, x.reportId, x.avgDaysToPay])).toEqual([
      ["06543210:2025-01-01:2025-06-30", 1001, 24],
      ["06543210:2025-07-01:2025-12-31", 1002, 27],
      ["06543210:2026-01-01:2026-06-30", 1210, 29],
    ]);
    // Bayside's resubmission replaced its report for the period (a new version, no change of its own).
    expect(await reportsOf("07654321")).toMatchObject([
      { key: "07654321:2026-04-01:2026-09-30", reportId: 1211, avgDaysToPay: 44, pctNotPaidWithinTerms: 21, clamped: [], inconsistent: [] },
    ]);
    // The same edition again changes nothing.
    expect((await load(await laterEdition(), "2026-10-20")).outcome).toBe("unchanged");
  });

  it("resumable chunks (chunkRows 3) stage the same reports, and the last chunk's notes count the whole file", async () => {
    const whole = await load(await fixture("export.csv"), "2026-10-05");
    const keys = async () =>
      (await env.DB.prepare(`SELECT key FROM register_entries WHERE source = 'payment-practices' ORDER BY key`).all<{ key: string }>()).results.map(
        (x) => x.key,
      );
    const one = await keys();
    await storeOf("payment-practices").reset(ingestPortsFor(env), "payment-practices");
    const chunked = await load(await fixture("export.csv"), "2026-10-05", { chunkRows: 3 });
    expect(chunked).toMatchObject({ outcome: "loaded", rowsRead: 8, notes: whole.notes });
    expect(await keys()).toEqual(one);
  });

  it("a windows-1252 export with M/D/YYYY dates loads, and the run log says it was read as windows-1252", async () => {
    const file = {
      source: "payment-practices" as const,
      bytes: await fixture("export-mdy-windows-1252.csv"),
      fileName: "export.csv",
      url: null,
      editionDate: null,
    };
    file.editionDate = (await ADAPTERS["payment-practices"].dateOf!(file)) as never;
    const r = await ingestEdition(ingestPortsFor(env), file);
    expect(r).toMatchObject({ outcome: "loaded", editionDate: "2018-04-27", rowsRead: 3, notes: { encodingWindows1252: 1, dateFormatMdy: 1 } });
    const [e] = await entriesByCompanyNumber(env.DB, "payment-practices", ["04712345"]);
    expect(e.name).toBe("BRASSERIE ÉTOILE LIMITED");
  });

  it("a page in place of the export is refused, and the published reports stay", async () => {
    await load(await fixture("export.csv"), "2026-10-05");
    const r = await load(new TextEncoder().encode("<!DOCTYPE html><html><body>Service unavailable</body></html>"), "2026-10-06");
    expect(r).toMatchObject({ outcome: "refused" });
    expect(r.reason).toMatch(/not the Payment Practices export/);
    expect(await reportsOf("09876543")).toHaveLength(1);
  });

  it("the daily job streams the export from PAYMENT_PRACTICES_URL in resumable chunks, dated the day of the fetch", async () => {
    const sent: IngestJob[] = [];
    vi.spyOn(env.INGEST, "sendBatch").mockImplementation(async (msgs) => {
      for (const m of msgs) sent.push(m.body);
      return undefined as never;
    });
    expect(await handleIngestJob(ingestPortsFor(env), { source: "payment-practices" }, { chunkRows: 5 })).toEqual([]);
    expect(sent).toEqual([{ source: "payment-practices", runId: expect.any(Number), offset: 5 }]);
    const [done] = await handleIngestJob(ingestPortsFor(env), sent[0], { chunkRows: 5 });
    expect(done).toMatchObject({
      outcome: "loaded",
      rowsRead: 8,
      editionDate: new Date().toISOString().slice(0, 10),
      notes: { encodingUtf8: 1, duplicateReports: 1 },
    });
    expect(await reportsOf("SC612345")).toHaveLength(1);
  });
});
