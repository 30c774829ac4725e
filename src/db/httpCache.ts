import { and, eq, gt, lte } from "drizzle-orm";
import type { HttpCache } from "../shared/ports";
import { excluded, httpCache, orm } from "./schema";

const c = httpCache;

/**
 * D1 HttpCache (table http_cache, migrations/0003_upstream_cache.sql). Expiry uses the wall clock;
 * callers that inject a clock also check fetchedAt themselves.
 */
export function d1HttpCache(db: D1Database): HttpCache {
  return {
    async get(key) {
      const row = await orm(db)
        .select({ status: c.status, body: c.body, fetchedAt: c.fetchedAt })
        .from(c)
        .where(and(eq(c.key, key), gt(c.expiresAt, Date.now())))
        .get();
      return row ?? null;
    },
    async put(key, v, ttlSeconds) {
      const now = Date.now();
      const d = orm(db);
      // Puts follow budgeted upstream calls, so pruning expired rows here stays cheap (index http_cache_expires).
      // An upsert on the key replaces the whole row, as INSERT OR REPLACE did (the key is the table's only unique constraint).
      await d.batch([
        d
          .insert(c)
          .values({ key, status: v.status, body: v.body, fetchedAt: v.fetchedAt, expiresAt: now + ttlSeconds * 1000 })
          .onConflictDoUpdate({
            target: c.key,
            set: { status: excluded(c.status), body: excluded(c.body), fetchedAt: excluded(c.fetchedAt), expiresAt: excluded(c.expiresAt) },
          }),
        d.delete(c).where(lte(c.expiresAt, now)),
      ]);
    },
  };
}
