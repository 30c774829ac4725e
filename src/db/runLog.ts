import { and, eq, isNull, lt, or } from "drizzle-orm";
import { excluded, orm, registerRuns, registerState } from "./schema";

/**
 * The run log's side of publishing, for a register whose entries live in a database of their own (the
 * companies register): once that database has switched its readers to the run, the main database
 * records the register's published state and ends the run "loaded" (or "unchanged").
 */

export interface PublishedRun {
  runId: number;
  source: string;
  scope: string;
}

const s = registerState;
const runs = registerRuns;

export async function recordPublished(
  db: D1Database,
  run: PublishedRun,
  publish: { editionDate: string; sample: boolean; replacesSample: boolean; changes: number; note: string | null; finishedAt: string },
): Promise<void> {
  const d = orm(db);
  await d.batch([
    // The register's published state; history is kept from its first edition, or from the first real one after a sample.
    d
      .insert(s)
      .values({
        source: run.source,
        scope: run.scope,
        publishedRun: run.runId,
        editionDate: publish.editionDate,
        historySince: publish.editionDate,
        sample: publish.sample ? 1 : 0,
      })
      .onConflictDoUpdate({
        target: [s.source, s.scope],
        set: {
          publishedRun: excluded(s.publishedRun),
          editionDate: excluded(s.editionDate),
          ...(publish.replacesSample ? { historySince: excluded(s.historySince) } : {}),
          sample: excluded(s.sample),
        },
      }),
    d
      .update(runs)
      .set({ outcome: "loaded", finishedAt: publish.finishedAt, changes: publish.changes, editionDate: publish.editionDate, reason: publish.note })
      .where(eq(runs.id, run.runId)),
  ]);
}

export async function recordUnchanged(db: D1Database, run: PublishedRun, editionDate: string, finishedAt: string): Promise<void> {
  const d = orm(db);
  await d.batch([
    d
      .update(s)
      .set({ editionDate })
      .where(and(eq(s.source, run.source), eq(s.scope, run.scope), or(isNull(s.editionDate), lt(s.editionDate, editionDate)))),
    d.update(runs).set({ outcome: "unchanged", finishedAt, changes: 0 }).where(eq(runs.id, run.runId)),
  ]);
}
