import { and, count, eq, isNull } from "drizzle-orm";
import { apiKeys, orm, publishableKeys } from "./schema";

/**
 * Publishable keys (migrations/0011_logos.sql, issue 32): keys for page source, usable only on the logo image route,
 * only from the origins their account named. Times are epoch milliseconds.
 */

const p = publishableKeys;

export interface PublishableKeyRow {
  key: string;
  accountId: string;
  origins: string[];
  label: string | null;
  createdAt: number;
  revokedAt: number | null;
}

const rowOf = (r: typeof p.$inferSelect): PublishableKeyRow => ({ ...r, origins: JSON.parse(r.origins) as string[] });

/**
 * A live publishable key and its account, or null when unknown, revoked, or its account has no active secret key
 * left (an account whose keys are all revoked is closed: its publishable keys stop with it).
 */
export async function livePublishableKey(db: D1Database, key: string): Promise<PublishableKeyRow | null> {
  const d = orm(db);
  const row = await d
    .select()
    .from(p)
    .where(and(eq(p.key, key), isNull(p.revokedAt)))
    .get();
  if (!row) return null;
  const active = await d
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, row.accountId), eq(apiKeys.active, 1)))
    .get();
  return (active?.n ?? 0) > 0 ? rowOf(row) : null;
}

export async function createPublishableKey(db: D1Database, row: Omit<PublishableKeyRow, "revokedAt">): Promise<void> {
  await orm(db)
    .insert(p)
    .values({ ...row, origins: JSON.stringify(row.origins), revokedAt: null })
    .run();
}

/** The account's publishable keys, live first, newest first. */
export async function publishableKeysOf(db: D1Database, accountId: string): Promise<PublishableKeyRow[]> {
  const rows = await orm(db).select().from(p).where(eq(p.accountId, accountId)).all();
  return rows.map(rowOf).sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || b.createdAt - a.createdAt);
}

/** Revokes one of the account's live publishable keys; whether there was one. */
export async function revokePublishableKey(db: D1Database, accountId: string, key: string, now: number): Promise<boolean> {
  const r = await orm(db)
    .update(p)
    .set({ revokedAt: now })
    .where(and(eq(p.key, key), eq(p.accountId, accountId), isNull(p.revokedAt)))
    .run();
  return r.meta.changes > 0;
}
