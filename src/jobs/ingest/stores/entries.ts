import {
  type EntryVersion,
  openEntries,
  publishRun,
  publishUnchanged,
  resetRegister,
  writeEntryVersions,
  writeRemovalsAndChanges,
} from "../../../db/registers";
import { discardEntries, stageBatches, stagedRecords } from "../../../db/runs";
import { normaliseName, normaliseNameCore } from "../../../services/matching/names";
import { EditionDiff } from "../../../services/registers/diff";
import { fingerprint } from "../../../services/registers/fingerprint";
import { indexNamesOf } from "../../../services/registers/indexNames";
import type { RegisterChange, RegisterRecord } from "../../../services/registers/types";
import type { RegisterStore } from "../store";

/**
 * The store most registers share: versioned rows in register_entries (with their names and the FTS5
 * name index) in the main database. The diff runs in the Worker over the published entries' keys and
 * states (services/registers/diff.ts), which suits registers of up to a few hundred thousand rows.
 */
/** New versions written per flush: each flush is a few D1 transactions, and each rewrites index pages, so fewer is faster. */
const FLUSH_VERSIONS = 5_000;

export const entriesStore: RegisterStore = {
  stage: (dbs, runId, batches) => stageBatches(dbs.db, runId, batches),

  async apply(dbs, { runId, source, scope, mode, editionDate, baseline, replacesSample, sample: isSample, lastListed, note, now }) {
    const { db } = dbs;
    const target = { runId, source, scope };
    const run = { source, scope, mode };
    const open = replacesSample ? [] : await openEntries(db, run.source, run.scope);
    const prevByKey = new Map(open.map((p) => [p.key, p]));

    // One pass over the staged edition: the diff keeps only keys and the previous state, and the new
    // versions of changed entries are written as we go (invisible to readers until the run is published).
    const diff = new EditionDiff(
      open.map((p) => ({
        key: p.key,
        entity: p.entity,
        part: p.part,
        name: p.name,
        status: p.status,
        rating: p.rating,
        town: p.town,
        removed: p.removed_on !== null,
      })),
      { source: run.source },
    );
    let versions: EntryVersion[] = [];
    let names: { norm: string; key: string }[] = [];
    let closeKeys: string[] = [];
    let written = 0;
    const flush = async () => {
      await writeEntryVersions(db, target, { closeKeys, versions, names });
      written += versions.length;
      versions = [];
      names = [];
      closeKeys = [];
    };
    for await (const r of stagedRecords<RegisterRecord>(db, runId)) {
      if (diff.has(r.key)) continue; // a key repeated in one edition: the first row counts
      diff.add(r);
      const prev = prevByKey.get(r.key);
      const fp = fingerprint(r);
      if (prev && prev.removed_on === null && prev.fp === fp) continue;
      if (prev) closeKeys.push(r.key);
      versions.push({
        key: r.key,
        entity: r.entity,
        part: r.part,
        name: r.name,
        normName: normaliseName(r.name),
        normCore: normaliseNameCore(r.name),
        companyNumber: r.companyNumber,
        status: r.status,
        rating: r.rating,
        town: r.town,
        altNames: r.altNames,
        data: r.data,
        fp,
        firstSeen: prev?.first_seen ?? editionDate,
      });
      for (const norm of indexNamesOf(r)) names.push({ norm, key: r.key });
      if (versions.length >= FLUSH_VERSIONS) await flush();
    }
    await flush();

    const editionDiff = diff.finish({ partial: run.mode === "partial" });
    const changes: RegisterChange[] = baseline ? [] : editionDiff.changes;
    const removedKeys = run.mode === "snapshot" ? open.filter((p) => p.removed_on === null && !diff.has(p.key)).map((p) => p.key) : [];

    if (!baseline && !changes.length && !written && !removedKeys.length) {
      // Nothing changed, but this edition was read: the register is current as of its date.
      await publishUnchanged(db, target, editionDate, now.toISOString());
      return { outcome: "unchanged", changes: 0, byKind: {} };
    }

    await writeRemovalsAndChanges(db, target, { editionDate, lastListed, removedKeys, changes });
    // Publish: readers switch to this run in one transaction (with the sample lineage it replaces, if any, gone in it).
    await publishRun(db, target, { editionDate, sample: isSample, replacesSample, changes: changes.length, note, finishedAt: now.toISOString() });
    const byKind: Record<string, number> = {};
    for (const c of changes) byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
    return { outcome: "loaded", changes: changes.length, byKind };
  },

  discard: (dbs, runId) => discardEntries(dbs.db, runId),

  reset: (dbs, source) => resetRegister(dbs.db, source),
};
