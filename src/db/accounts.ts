import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { accounts, apiKeys, orm, signupChallenges } from "./schema";

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
  await orm(db).insert(signupChallenges).values(c).run();
}

/**
 * Counts one attempt at a challenge, atomically (so guesses are limited even when sent in parallel), and
 * returns it; null when it is unknown, expired, used or out of attempts.
 */
export async function attemptChallenge(db: D1Database, id: string, now: number, maxAttempts: number) {
  const t = signupChallenges;
  const row = await orm(db)
    .update(t)
    .set({ attempts: sql`${t.attempts} + 1` })
    .where(and(eq(t.id, id), isNull(t.usedAt), gt(t.expiresAt, now), lt(t.attempts, maxAttempts)))
    .returning({ email: t.email, mobile: t.mobile, email_code_hash: t.emailCodeHash, mobile_code_hash: t.mobileCodeHash })
    .get();
  return row ?? null;
}

/** Marks a challenge used; false when another request used it first. */
export async function useChallenge(db: D1Database, id: string, now: number): Promise<boolean> {
  const t = signupChallenges;
  const r = await orm(db)
    .update(t)
    .set({ usedAt: now })
    .where(and(eq(t.id, id), isNull(t.usedAt)))
    .run();
  return r.meta.changes > 0;
}

/** The account that already holds this email or mobile, if any (one person, one account). */
export const accountByContact = (db: D1Database, email: string, mobile: string) =>
  orm(db)
    .select({ id: accounts.id, plan: accounts.plan })
    .from(accounts)
    .where(or(eq(accounts.email, email), eq(accounts.mobile, mobile)))
    .get();

/** Issues a key: to the existing account (re-marking its contacts verified) or to a new verified account, in one batch. */
export async function issueKey(
  db: D1Database,
  k: { accountId: string; existing: boolean; email: string; mobile: string; now: number; keyId: string; keyHash: string; prefix: string },
): Promise<void> {
  const d = orm(db);
  await d.batch([
    k.existing
      ? d.update(accounts).set({ emailVerifiedAt: k.now, mobileVerifiedAt: k.now }).where(eq(accounts.id, k.accountId))
      : d.insert(accounts).values({ id: k.accountId, email: k.email, mobile: k.mobile, emailVerifiedAt: k.now, mobileVerifiedAt: k.now }),
    d.insert(apiKeys).values({ id: k.keyId, accountId: k.accountId, keyHash: k.keyHash, prefix: k.prefix }),
  ]);
}
