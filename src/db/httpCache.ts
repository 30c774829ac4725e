import type { HttpCache } from "../shared/ports";

/**
 * D1 HttpCache (table http_cache, migrations/0003_upstream_cache.sql). Expiry uses the wall clock;
 * callers that inject a clock also check fetchedAt themselves.
 */
export function d1HttpCache(db: D1Database): HttpCache {
  return {
    async get(key) {
      const row = await db
        .prepare("SELECT status, body, fetched_at FROM http_cache WHERE key = ? AND expires_at > ?")
        .bind(key, Date.now())
        .first<{ status: number; body: string; fetched_at: number }>();
      return row ? { status: row.status, body: row.body, fetchedAt: row.fetched_at } : null;
    },
    async put(key, v, ttlSeconds) {
      const now = Date.now();
      // Puts follow budgeted upstream calls, so pruning expired rows here stays cheap.
      await db.batch([
        db
          .prepare("INSERT OR REPLACE INTO http_cache(key, status, body, fetched_at, expires_at) VALUES (?, ?, ?, ?, ?)")
          .bind(key, v.status, v.body, v.fetchedAt, now + ttlSeconds * 1000),
        db.prepare("DELETE FROM http_cache WHERE expires_at <= ?").bind(now),
      ]);
    },
  };
}
