import {
  applyCompanySlice,
  discardCompanyRun,
  publishCompanies,
  pruneClosedVersions,
  publishCompaniesUnchanged,
  resetCompanies,
  stageCompanies,
  stagedSlices,
  versionsWritten,
} from "../../../db/companies";
import { resetRegister } from "../../../db/registers";
import { recordPublished, recordUnchanged } from "../../../db/runLog";
import type { RegisterStore } from "../store";

/** Staged companies diffed and written per statement batch (each slice is one D1 transaction). */
export const COMPANY_SLICE = 100_000;

/**
 * The companies register's store: its own database (COMPANIES_DB), rows staged as JSON arrays, and the
 * monthly diff done in SQL slice by slice of company numbers, so the 5.7 million companies never pass
 * through the Worker's memory at once. Readers switch to a run when it publishes (company_state).
 */
export const companiesStore: RegisterStore = {
  // Every batch the pipeline hands over at once goes in one D1 transaction (a few JSON statements).
  stage: (dbs, runId, batches) =>
    stageCompanies(
      dbs.companiesDb,
      runId,
      batches.flatMap((b) => b.records),
    ),

  async apply(dbs, run) {
    const db = dbs.companiesDb;
    const byKind: Record<string, number> = {};
    for (const slice of await stagedSlices(db, run.runId, COMPANY_SLICE)) {
      const kinds = await applyCompanySlice(db, run.runId, slice, { editionDate: run.editionDate, baseline: run.baseline });
      for (const [k, n] of Object.entries(kinds)) byKind[k] = (byKind[k] ?? 0) + n;
    }
    const changes = Object.values(byKind).reduce((a, b) => a + b, 0);
    const target = { runId: run.runId, source: run.source, scope: run.scope };
    const finishedAt = run.now.toISOString();
    if (!run.baseline && !changes) {
      const { written, closed } = await versionsWritten(db, run.runId);
      if (!written && !closed) {
        await publishCompaniesUnchanged(db, run.editionDate);
        await recordUnchanged(dbs.db, target, run.editionDate, finishedAt);
        return { outcome: "unchanged", changes: 0, byKind: {} };
      }
    }
    // Readers switch in the companies database first; the run log then says so.
    await publishCompanies(db, run.runId, { editionDate: run.editionDate, sample: run.sample, replacesSample: run.replacesSample });
    await recordPublished(dbs.db, target, {
      editionDate: run.editionDate,
      sample: run.sample,
      replacesSample: run.replacesSample,
      changes,
      note: run.note,
      finishedAt,
    });
    // The versions this run replaced are now invisible: they go, so the database holds one version per live company.
    await pruneClosedVersions(db, run.runId);
    return { outcome: "loaded", changes, byKind };
  },

  discard: (dbs, runId) => discardCompanyRun(dbs.companiesDb, runId),

  // The companies, their changes and staging; then the register's run log and state in the main database.
  reset: async (dbs, source) => (await resetCompanies(dbs.companiesDb)) + (await resetRegister(dbs.db, source)),
};
