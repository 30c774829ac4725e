import { eq, or } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { accounts, apiKeys } from "./schema";

/** Sign-up challenges and accounts (the sign-up and verify operations). Times are epoch seconds. */

export interface NewChallenge {
  id: string;
  email: string;
  mobile: string;
  emailCodeHash: string;
  mobileCodeHash: string;
  expiresAt: number;
}

export async function createChallenge(db: D1Database, c: NewChallenge): Promise<void> {
  await db
    .prepare(`INSERT INTO signup_challenges (id, email, mobile, email_code_hash, mobile_code_hash, expires_at) VALUES (?, ?, ?, ?, ?, ?)`)
    .bind(c.id, c.email, c.mobile, c.emailCodeHash, c.mobileCodeHash, c.expiresAt)
    .run();
}

/**
 * Counts one attempt at a challenge, atomically (so guesses are limited even when sent in parallel), and
 * returns it; null when it is unknown, expired, used or out of attempts.
 */
export async function attemptChallenge(db: D1Database, id: string, now: number, maxAttempts: number) {
  return db
    .prepare(
      `UPDATE signup_challenges SET attempts = attempts + 1
        WHERE id = ? AND used_at IS NULL AND expires_at > ? AND attempts < ?
        RETURNING email, mobile, email_code_hash, mobile_code_hash`,
    )
    .bind(id, now, maxAttempts)
    .first<{ email: string; mobile: string; email_code_hash: string; mobile_code_hash: string }>();
}

/** Marks a challenge used; false when another request used it first. */
export async function useChallenge(db: D1Database, id: string, now: number): Promise<boolean> {
  const r = await db.prepare(`UPDATE signup_challenges SET used_at = ? WHERE id = ? AND used_at IS NULL`).bind(now, id).run();
  return r.meta.changes > 0;
}

/** The account that already holds this email or mobile, if any (one person, one account). */
export const accountByContact = (db: D1Database, email: string, mobile: string) =>
  drizzle(db)
    .select({ id: accounts.id, plan: accounts.plan })
    .from(accounts)
    .where(or(eq(accounts.email, email), eq(accounts.mobile, mobile)))
    .get();

/** Issues a key: to the existing account (re-marking its contacts verified) or to a new verified account, in one batch. */
export async function issueKey(
  db: D1Database,
  k: { accountId: string; existing: boolean; email: string; mobile: string; now: number; keyId: string; keyHash: string; prefix: string },
): Promise<void> {
  const orm = drizzle(db);
  await orm.batch([
    k.existing
      ? orm.update(accounts).set({ emailVerifiedAt: k.now, mobileVerifiedAt: k.now }).where(eq(accounts.id, k.accountId))
      : orm.insert(accounts).values({ id: k.accountId, email: k.email, mobile: k.mobile, emailVerifiedAt: k.now, mobileVerifiedAt: k.now }),
    orm.insert(apiKeys).values({ id: k.keyId, accountId: k.accountId, keyHash: k.keyHash, prefix: k.prefix }),
  ]);
}
