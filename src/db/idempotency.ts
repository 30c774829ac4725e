/** Stored first replies for Idempotency-Key (POST/PUT): a repeat returns the first reply and is charged once. */

export interface StoredReply {
  requestHash: string;
  /** 0 while the first call is still running. */
  status: number;
  body: string | null;
  headers: string | null;
}

/** Claims the key for this request; false when a call with this key already exists. */
export async function claimIdempotencyKey(db: D1Database, keyId: string, key: string, requestHash: string): Promise<boolean> {
  const inserted = await db
    .prepare(`INSERT INTO idempotent_replies (key_id, idempotency_key, request_hash, status) VALUES (?, ?, ?, 0) ON CONFLICT DO NOTHING RETURNING key_id`)
    .bind(keyId, key, requestHash)
    .first();
  return inserted !== null;
}

export async function storedReply(db: D1Database, keyId: string, key: string): Promise<StoredReply | null> {
  const r = await db
    .prepare(`SELECT request_hash, status, body, headers FROM idempotent_replies WHERE key_id = ? AND idempotency_key = ?`)
    .bind(keyId, key)
    .first<{ request_hash: string; status: number; body: string | null; headers: string | null }>();
  return r ? { requestHash: r.request_hash, status: r.status, body: r.body, headers: r.headers } : null;
}

export async function saveReply(db: D1Database, keyId: string, key: string, status: number, body: string, headers: string): Promise<void> {
  await db
    .prepare(`UPDATE idempotent_replies SET status = ?, body = ?, headers = ? WHERE key_id = ? AND idempotency_key = ?`)
    .bind(status, body, headers, keyId, key)
    .run();
}

export async function forgetReply(db: D1Database, keyId: string, key: string): Promise<void> {
  await db.prepare(`DELETE FROM idempotent_replies WHERE key_id = ? AND idempotency_key = ?`).bind(keyId, key).run();
}
