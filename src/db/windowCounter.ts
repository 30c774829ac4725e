import { and, eq, gt, lt, sql } from "drizzle-orm";
import { orm, upstreamBudget } from "./schema";

const b = upstreamBudget;

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
  const d = orm(db);
  // INSERT … ON CONFLICT (source, window_start) DO UPDATE SET used = used + 1 WHERE used < limit RETURNING used:
  // no row back when the window is full.
  const row = await d
    .insert(b)
    .values({ source: bucket, windowStart, used: 1 })
    .onConflictDoUpdate({ target: [b.source, b.windowStart], set: { used: sql`${b.used} + 1` }, setWhere: lt(b.used, limit) })
    .returning({ used: b.used })
    .get();
  if (!row) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(windowStart + windowSeconds - nowSeconds)) };
  // First request of a new window: drop this bucket's earlier windows.
  if (row.used === 1)
    await d
      .delete(b)
      .where(and(eq(b.source, bucket), lt(b.windowStart, windowStart)))
      .run();
  return { ok: true };
}

/** Gives back one use of the current window (a call that failed on our side); never below zero. */
export async function releaseWindow(db: D1Database, bucket: string, windowSeconds: number, now: number): Promise<void> {
  const windowStart = Math.floor(now / 1000 / windowSeconds) * windowSeconds;
  await orm(db)
    .update(b)
    .set({ used: sql`${b.used} - 1` })
    .where(and(eq(b.source, bucket), eq(b.windowStart, windowStart), gt(b.used, 0)))
    .run();
}
