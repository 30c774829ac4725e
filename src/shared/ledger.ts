/**
 * The credit ledger's port: what the gateway (a call's charge, a handler's charge-once, refunds by id), the account read
 * (the balance) and the watch job (a watch's month, charged once) ask of a ledger, as interfaces. One ledger per name
 * (`acct:<accountId>`, or `org:<orgId>` for an organisation's pool) holds the month's balance and each key's burst
 * window. Two versions share one set of rules (shared/ledgerBook.ts): the KeyLedger Durable Object
 * (src/ledger/KeyLedger.ts, reached through src/ledger/durableLedgers.ts) and `memoryLedger()` / `memoryLedgers()` for
 * tests and code that runs without a Durable Object. Imports nothing.
 */

/** What the gateway tells the ledger about the caller's plan on every charge. */
export interface ChargeRequest {
  /** Credits this call costs (0 for free keyed calls, which still count toward the burst ceiling). */
  cost: number;
  /** Key making the call: the burst ceiling is per key even when credits are pooled. */
  keyId: string;
  /** Calendar month the call falls in, `YYYY-MM` (UTC). A new month resets the balance to the allowance. */
  period: string;
  /** The plan's monthly allowance. */
  allowance: number;
  /** Balance to start this period with instead of the allowance (set by `npm run key -- create --credits N`). */
  startingBalance?: number | null;
  burstLimit: number;
  burstWindowMs: number;
  now: number;
  /**
   * The charge's id, made by the gateway (unique per charge). With it the charge is recorded (see `refund`): it can be
   * given back by id, and a charge arriving after it was cancelled under this id is refused and charges nothing.
   */
  id?: string;
}

export interface ChargeOnceRequest {
  /** The once id: a second charge with the same id (in the same month) charges nothing. */
  id: string;
  cost: number;
  period: string;
  allowance: number;
  startingBalance?: number | null;
  /** As ChargeRequest's `id`: this attempt's own id (the gateway's), to give it back or cancel it by. */
  chargeId?: string;
}

/** `cancelled`: a charge under this charge id was cancelled before it arrived; nothing was charged. */
export type ChargeOnceResult =
  | { ok: true; remaining: number; charged: number; repeated: boolean }
  | { ok: false; reason: "credits"; remaining: number }
  | { ok: false; reason: "cancelled"; remaining: number };

export type ChargeResult =
  | { ok: true; remaining: number; charged: number }
  | { ok: false; reason: "burst"; retryAfterSeconds: number; remaining: number }
  | { ok: false; reason: "credits"; remaining: number }
  | { ok: false; reason: "cancelled"; remaining: number };

/**
 * Gives back charges by id. `upTo`: at least this much of the charge is given back in all (its whole cost when
 * omitted), so asking again gives nothing more: a refund repeated after a time-out gives back once. `cancel`: the
 * call is over and failed: the whole charge is given back, a charge-once id it was made under is forgotten (a retry
 * charges again), and if the charge has not arrived yet a tombstone is left so that it is refused when it does.
 */
export interface RefundRequest {
  /** The month of the call (a charge's own month is recorded with it; a refund to a month gone by gives nothing back). */
  period: string;
  charges: { id: string; upTo?: number; cancel?: boolean }[];
}

export interface RefundResult {
  remaining: number;
  /** Per charge asked, in order: whether it had arrived, and how much of it has been given back in all. */
  charges: { id: string; landed: boolean; refunded: number }[];
}

/** One credit ledger (an account's, or an organisation's pool). Every answer comes once what it decided is stored. */
export interface Ledger {
  /** A call's price, under the key's burst ceiling; the balance never goes below 0. */
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** A charge made at most once per id within its month (a watch's month, a handler's own charge), outside the burst ceiling. */
  chargeOnce(req: ChargeOnceRequest): Promise<ChargeOnceResult>;
  /** Gives charges back, or cancels them, by id: idempotent. */
  refund(req: RefundRequest): Promise<RefundResult>;
  /** The balance of `period` without charging (a month not yet opened answers its allowance, or the starting balance). */
  peek(period: string, allowance: number, startingBalance?: number | null): Promise<{ remaining: number }>;
}

/** Every ledger, by name (`acct:<accountId>`, `org:<orgId>`). */
export interface Ledgers {
  get(name: string): Ledger;
}
