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

export async function recordPublished(
  db: D1Database,
  run: PublishedRun,
  publish: { editionDate: string; sample: boolean; replacesSample: boolean; changes: number; note: string | null; finishedAt: string },
): Promise<void> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO register_state (source, scope, published_run, edition_date, history_since, sample) VALUES (?1, ?2, ?3, ?4, ?4, ?5)
         ON CONFLICT(source, scope) DO UPDATE SET published_run = excluded.published_run, edition_date = excluded.edition_date,
           history_since = CASE WHEN ?6 THEN excluded.history_since ELSE register_state.history_since END, sample = excluded.sample`,
      )
      .bind(run.source, run.scope, run.runId, publish.editionDate, publish.sample ? 1 : 0, publish.replacesSample ? 1 : 0),
    db
      .prepare(`UPDATE register_runs SET outcome = 'loaded', finished_at = ?1, changes = ?2, edition_date = ?3, reason = ?4 WHERE id = ?5`)
      .bind(publish.finishedAt, publish.changes, publish.editionDate, publish.note, run.runId),
  ]);
}

export async function recordUnchanged(db: D1Database, run: PublishedRun, editionDate: string, finishedAt: string): Promise<void> {
  await db.batch([
    db
      .prepare(`UPDATE register_state SET edition_date = ?1 WHERE source = ?2 AND scope = ?3 AND (edition_date IS NULL OR edition_date < ?1)`)
      .bind(editionDate, run.source, run.scope),
    db.prepare(`UPDATE register_runs SET outcome = 'unchanged', finished_at = ?1, changes = 0 WHERE id = ?2`).bind(finishedAt, run.runId),
  ]);
}
