import { and, eq, isNull } from "drizzle-orm";
import { apiKeys, calendarFeeds, orm } from "./schema";

/** Calendar feed capability tokens (migrations/0007_calendar_feeds.sql). Times are epoch seconds. */

const f = calendarFeeds;
/** A key's live feed for a company: the partial unique index calendar_feeds_live (key_id, company_number) WHERE revoked_at IS NULL. */
const liveFeed = (keyId: string, company: string) => and(eq(f.keyId, keyId), eq(f.companyNumber, company), isNull(f.revokedAt));

/** The live feed of a key for a company, made on first use: asking again gives the same token. */
export async function feedTokenFor(db: D1Database, keyId: string, company: string, newToken: string, now: number): Promise<string> {
  const d = orm(db);
  await d.insert(f).values({ token: newToken, keyId, companyNumber: company, createdAt: now }).onConflictDoNothing().run();
  const row = await d.select({ token: f.token }).from(f).where(liveFeed(keyId, company)).get();
  return row!.token;
}

/** The company a live feed is for (and the key it belongs to), or null when unknown, revoked, or its key is disabled. */
export async function feedByToken(db: D1Database, token: string): Promise<{ keyId: string; company: string } | null> {
  const row = await orm(db)
    .select({ keyId: f.keyId, company: f.companyNumber })
    .from(f)
    .innerJoin(apiKeys, eq(apiKeys.id, f.keyId))
    .where(and(eq(f.token, token), isNull(f.revokedAt), eq(apiKeys.active, 1)))
    .get();
  return row ?? null;
}

/** Revokes the key's feed for a company; whether there was one. */
export async function revokeFeed(db: D1Database, keyId: string, company: string, now: number): Promise<boolean> {
  const r = await orm(db).update(f).set({ revokedAt: now }).where(liveFeed(keyId, company)).run();
  return r.meta.changes > 0;
}
