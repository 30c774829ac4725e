import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { accounts, apiKeys, orgs } from "./schema";

/** API keys: the gateway's lookup by hash (the database only ever holds a key's hash), and revoking a key. */

/** The key row the gateway authenticates with: the key, its account and the account's organisation. */
export const keyByHash = (db: D1Database, hash: string) =>
  drizzle(db)
    .select({
      keyId: apiKeys.id,
      active: apiKeys.active,
      creditsOverride: apiKeys.creditsOverride,
      creditsOverridePeriod: apiKeys.creditsOverridePeriod,
      accountId: accounts.id,
      plan: accounts.plan,
      emailVerifiedAt: accounts.emailVerifiedAt,
      mobileVerifiedAt: accounts.mobileVerifiedAt,
      orgId: accounts.orgId,
      orgPlan: orgs.plan,
      pooled: orgs.pooled,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .leftJoin(orgs, eq(orgs.id, accounts.orgId))
    .where(eq(apiKeys.keyHash, hash))
    .get();

export type KeyRow = NonNullable<Awaited<ReturnType<typeof keyByHash>>>;

/** Revokes one key of the account; returns how many active keys the account has left, or null when it has no key with that id. */
export async function revokeAccountKey(db: D1Database, accountId: string, keyId: string): Promise<number | null> {
  const [updated, left] = await db.batch<{ id: string } | { n: number }>([
    db.prepare(`UPDATE api_keys SET active = 0 WHERE id = ? AND account_id = ? RETURNING id`).bind(keyId, accountId),
    db.prepare(`SELECT COUNT(*) AS n FROM api_keys WHERE account_id = ? AND active = 1`).bind(accountId),
  ]);
  if (!updated.results.length) return null;
  return (left.results[0] as { n: number }).n;
}

/** Active keys an account holds. */
export async function activeKeyCount(db: D1Database, accountId: string): Promise<number> {
  const r = await db.prepare(`SELECT COUNT(*) AS n FROM api_keys WHERE account_id = ? AND active = 1`).bind(accountId).first<{ n: number }>();
  return r?.n ?? 0;
}
