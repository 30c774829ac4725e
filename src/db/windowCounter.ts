/**
 * Fixed-window counters in D1 (table upstream_budget): upstream request budgets and per-IP limits.
 * One upsert both counts and refuses, so concurrent isolates can never overspend a window.
 */
export async function takeWindow(
  db: D1Database,
  bucket: string,
  limit: number,
  windowSeconds: number,
  now: number,
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  const nowSeconds = now / 1000;
  const windowStart = Math.floor(nowSeconds / windowSeconds) * windowSeconds;
  const row = await db
    .prepare(
      `INSERT INTO upstream_budget(source, window_start, used) VALUES (?, ?, 1)
       ON CONFLICT(source, window_start) DO UPDATE SET used = used + 1 WHERE used < ?
       RETURNING used`,
    )
    .bind(bucket, windowStart, limit)
    .first<{ used: number }>();
  if (!row) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(windowStart + windowSeconds - nowSeconds)) };
  // First request of a new window: drop this bucket's earlier windows.
  if (row.used === 1) await db.prepare("DELETE FROM upstream_budget WHERE source = ? AND window_start < ?").bind(bucket, windowStart).run();
  return { ok: true };
}

/** Gives back one use of the current window (a call that failed on our side); never below zero. */
export async function releaseWindow(db: D1Database, bucket: string, windowSeconds: number, now: number): Promise<void> {
  const windowStart = Math.floor(now / 1000 / windowSeconds) * windowSeconds;
  await db.prepare("UPDATE upstream_budget SET used = used - 1 WHERE source = ? AND window_start = ? AND used > 0").bind(bucket, windowStart).run();
}
