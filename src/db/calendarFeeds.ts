/** Calendar feed capability tokens (migrations/0007_calendar_feeds.sql). Times are epoch seconds. */

/** The live feed of a key for a company, made on first use: asking again gives the same token. */
export async function feedTokenFor(db: D1Database, keyId: string, company: string, newToken: string, now: number): Promise<string> {
  await db
    .prepare(`INSERT INTO calendar_feeds (token, key_id, company_number, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`)
    .bind(newToken, keyId, company, now)
    .run();
  const row = await db
    .prepare(`SELECT token FROM calendar_feeds WHERE key_id = ? AND company_number = ? AND revoked_at IS NULL`)
    .bind(keyId, company)
    .first<{ token: string }>();
  return row!.token;
}

/** The company a live feed is for (and the key it belongs to), or null when unknown, revoked, or its key is disabled. */
export async function feedByToken(db: D1Database, token: string): Promise<{ keyId: string; company: string } | null> {
  const row = await db
    .prepare(
      `SELECT f.key_id, f.company_number FROM calendar_feeds f JOIN api_keys k ON k.id = f.key_id
        WHERE f.token = ? AND f.revoked_at IS NULL AND k.active = 1`,
    )
    .bind(token)
    .first<{ key_id: string; company_number: string }>();
  return row ? { keyId: row.key_id, company: row.company_number } : null;
}

/** Revokes the key's feed for a company; whether there was one. */
export async function revokeFeed(db: D1Database, keyId: string, company: string, now: number): Promise<boolean> {
  const r = await db
    .prepare(`UPDATE calendar_feeds SET revoked_at = ? WHERE key_id = ? AND company_number = ? AND revoked_at IS NULL`)
    .bind(now, keyId, company)
    .run();
  return r.meta.changes > 0;
}
