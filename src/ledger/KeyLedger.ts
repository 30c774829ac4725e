import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

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
}

export type ChargeResult =
  | { ok: true; remaining: number; charged: number }
  | { ok: false; reason: "burst"; retryAfterSeconds: number; remaining: number }
  | { ok: false; reason: "credits"; remaining: number };

/**
 * KeyLedger: one Durable Object per API key, or per organisation pool where keys share one balance.
 * It holds the month's balance and each key's recent call times. A Durable Object runs one call at a
 * time and nothing below awaits between reading and writing, so every charge is atomic: the balance
 * never goes negative, however many calls arrive at once (SPEC §5.4, §7.4, §8).
 */
export class KeyLedger extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Burst window per key: a ring of the last `burstLimit` call times. The slot about to be overwritten
    // holds the oldest of them; if it is less than a window old, the ceiling is reached. O(1) per call.
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS balance (id INTEGER PRIMARY KEY CHECK (id = 1), period TEXT NOT NULL, credits INTEGER NOT NULL);
       CREATE TABLE IF NOT EXISTS ring (key_id TEXT NOT NULL, slot INTEGER NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (key_id, slot));
       CREATE TABLE IF NOT EXISTS ring_head (key_id TEXT PRIMARY KEY, next INTEGER NOT NULL, size INTEGER NOT NULL);`,
    );
  }

  /** The balance for `period`, opening the period (monthly reset) when it is new. */
  private balanceFor(period: string, allowance: number, startingBalance?: number | null): number {
    const row = this.ctx.storage.sql.exec<{ period: string; credits: number }>(`SELECT period, credits FROM balance WHERE id = 1`).toArray()[0];
    if (row && row.period === period) return row.credits;
    const opening = startingBalance ?? allowance;
    this.ctx.storage.sql.exec(
      `INSERT INTO balance (id, period, credits) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET period = excluded.period, credits = excluded.credits`,
      period,
      opening,
    );
    return opening;
  }

  charge(req: ChargeRequest): ChargeResult {
    // One synchronous transaction: nothing else runs in this object meanwhile, and its writes commit together.
    return this.ctx.storage.transactionSync(() => {
      const sql = this.ctx.storage.sql;
      const head = sql.exec<{ next: number; size: number }>(`SELECT next, size FROM ring_head WHERE key_id = ?`, req.keyId).toArray()[0] ?? { next: 0, size: 0 };
      const next = head.next % req.burstLimit; // the plan's limit may have changed
      const credits = this.balanceFor(req.period, req.allowance, req.startingBalance);
      if (head.size >= req.burstLimit) {
        const oldest = sql.exec<{ at: number }>(`SELECT at FROM ring WHERE key_id = ? AND slot = ?`, req.keyId, next).toArray()[0]?.at ?? 0;
        if (req.now - oldest < req.burstWindowMs)
          return { ok: false as const, reason: "burst" as const, retryAfterSeconds: Math.max(1, Math.ceil((oldest + req.burstWindowMs - req.now) / 1000)), remaining: credits };
      }
      if (credits < req.cost) return { ok: false as const, reason: "credits" as const, remaining: credits };
      sql.exec(`INSERT INTO ring (key_id, slot, at) VALUES (?, ?, ?) ON CONFLICT(key_id, slot) DO UPDATE SET at = excluded.at`, req.keyId, next, req.now);
      sql.exec(
        `INSERT INTO ring_head (key_id, next, size) VALUES (?, ?, ?) ON CONFLICT(key_id) DO UPDATE SET next = excluded.next, size = excluded.size`,
        req.keyId,
        (next + 1) % req.burstLimit,
        Math.min(head.size + 1, req.burstLimit),
      );
      const remaining = credits - req.cost;
      if (req.cost) sql.exec(`UPDATE balance SET credits = ? WHERE id = 1`, remaining);
      return { ok: true as const, remaining, charged: req.cost };
    });
  }

  /**
   * Gives credits back (a 5xx, a time-out, items of a batch that could not be read). A refund for a
   * month that has already closed is dropped: the new month opened with a full allowance.
   */
  refund(amount: number, period: string): { remaining: number; refunded: number } {
    const row = this.ctx.storage.sql.exec<{ period: string; credits: number }>(`SELECT period, credits FROM balance WHERE id = 1`).toArray()[0];
    if (!row || row.period !== period || amount <= 0) return { remaining: row?.credits ?? 0, refunded: 0 };
    const remaining = row.credits + amount;
    this.ctx.storage.sql.exec(`UPDATE balance SET credits = ? WHERE id = 1`, remaining);
    return { remaining, refunded: amount };
  }

  /** Current balance without charging (GET /api/v1/account). */
  peek(period: string, allowance: number, startingBalance?: number | null): { remaining: number } {
    return { remaining: this.balanceFor(period, allowance, startingBalance) };
  }
}
