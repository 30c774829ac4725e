import { and, count, eq } from "drizzle-orm";
import { accounts, apiKeys, orgs, orm } from "./schema";

/** API keys: the gateway's lookup by hash (the database only ever holds a key's hash), and revoking a key. */

/** The key row the gateway authenticates with: the key, its account and the account's organisation. */
export const keyByHash = (db: D1Database, hash: string) =>
  orm(db)
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

/** The account's active keys (api_keys_account index). */
const activeKeysOf = (db: D1Database, accountId: string) =>
  orm(db)
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.active, 1)));

/** Revokes one key of the account; returns how many active keys the account has left, or null when it has no key with that id. */
export async function revokeAccountKey(db: D1Database, accountId: string, keyId: string): Promise<number | null> {
  const d = orm(db);
  const [updated, left] = await d.batch([
    d
      .update(apiKeys)
      .set({ active: 0 })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId)))
      .returning({ id: apiKeys.id }),
    activeKeysOf(db, accountId),
  ]);
  if (!updated.length) return null;
  return left[0].n;
}

/** Active keys an account holds. */
export async function activeKeyCount(db: D1Database, accountId: string): Promise<number> {
  const r = await activeKeysOf(db, accountId).get();
  return r?.n ?? 0;
}
