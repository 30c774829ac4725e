import { and, eq } from "drizzle-orm";
import { idempotentReplies, orm } from "./schema";

/** Stored first replies for Idempotency-Key (POST/PUT): a repeat returns the first reply and is charged once. */

export interface StoredReply {
  requestHash: string;
  /** 0 while the first call is still running. */
  status: number;
  body: string | null;
  headers: string | null;
}

const r = idempotentReplies;
/** One key's reply: its primary key (key_id, idempotency_key). */
const byKey = (keyId: string, key: string) => and(eq(r.keyId, keyId), eq(r.idempotencyKey, key));

/** Claims the key for this request; false when a call with this key already exists. */
export async function claimIdempotencyKey(db: D1Database, keyId: string, key: string, requestHash: string): Promise<boolean> {
  const inserted = await orm(db)
    .insert(r)
    .values({ keyId, idempotencyKey: key, requestHash, status: 0 })
    .onConflictDoNothing()
    .returning({ keyId: r.keyId })
    .get();
  return inserted !== undefined;
}

export async function storedReply(db: D1Database, keyId: string, key: string): Promise<StoredReply | null> {
  const row = await orm(db).select({ requestHash: r.requestHash, status: r.status, body: r.body, headers: r.headers }).from(r).where(byKey(keyId, key)).get();
  return row ?? null;
}

export async function saveReply(db: D1Database, keyId: string, key: string, status: number, body: string, headers: string): Promise<void> {
  await orm(db).update(r).set({ status, body, headers }).where(byKey(keyId, key)).run();
}

export async function forgetReply(db: D1Database, keyId: string, key: string): Promise<void> {
  await orm(db).delete(r).where(byKey(keyId, key)).run();
}
