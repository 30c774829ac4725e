/**
 * API keys of an account (write side; the gateway reads keys through drizzle in platform/gateway.ts).
 * Revokes one key of the account; returns how many active keys the account has left, or null when the
 * account has no key with that id.
 */
export async function revokeAccountKey(db: D1Database, accountId: string, keyId: string): Promise<number | null> {
  const [updated, left] = await db.batch<{ id: string } | { n: number }>([
    db.prepare(`UPDATE api_keys SET active = 0 WHERE id = ? AND account_id = ? RETURNING id`).bind(keyId, accountId),
    db.prepare(`SELECT COUNT(*) AS n FROM api_keys WHERE account_id = ? AND active = 1`).bind(accountId),
  ]);
  if (!updated.results.length) return null;
  return (left.results[0] as { n: number }).n;
}
