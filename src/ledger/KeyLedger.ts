import { DurableObject } from "cloudflare:workers";

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

export interface ChargeOnceRequest {
  /** The charge's id: a second charge with the same id (in the same month) charges nothing. */
  id: string;
  cost: number;
  period: string;
  allowance: number;
  startingBalance?: number | null;
}

export type ChargeOnceResult = { ok: true; remaining: number; charged: number; repeated: boolean } | { ok: false; reason: "credits"; remaining: number };

export type ChargeResult =
  | { ok: true; remaining: number; charged: number }
  | { ok: false; reason: "burst"; retryAfterSeconds: number; remaining: number }
  | { ok: false; reason: "credits"; remaining: number };

/** One key's burst window: the times of its last `limit` calls, in a ring, with a running call sequence. */
interface BurstRing {
  limit: number;
  /** Sequence number the next call will take; its slot is `seq % limit`. */
  seq: number;
  times: number[];
}

/**
 * KeyLedger: one Durable Object per API key, or per organisation pool where keys share one balance.
 * It holds the month's balance and each key's recent call times. A Durable Object runs one call at a
 * time and every decision below is made without awaiting between reading and deciding, so every
 * charge is atomic: the balance never goes negative, however many calls arrive at once (SPEC §5.4, §7.4, §8).
 *
 * State lives in memory, loaded from the object's SQLite storage when the object starts. Changes are
 * written with group commit: the charges decided while a write is being prepared are written together
 * in one transaction (a few milliseconds at most under load; at once when the object is idle), and no
 * charge answers before its write has committed (the output gate also holds every reply until the
 * write is durable). If a write fails, every charge waiting on it fails (the gateway answers 503 and
 * charges nothing) and memory is reloaded from storage, so memory never runs ahead of what was stored.
 */
/** The ledger needs no binding or setting: it keeps everything in its own storage (and so does not import env.ts). */
type NoBindings = object;

export class KeyLedger extends DurableObject<NoBindings> {
  private balance: { period: string; credits: number } | null = null;
  private readonly rings = new Map<string, BurstRing>();
  /** Changes decided but not yet written. */
  private dirtySlots = new Map<string, { keyId: string; slot: number; seq: number; at: number }>();
  private balanceDirty = false;
  /** Charges made once by id (a watch's month) decided but not yet written: id → period (null: forget the id). */
  private dirtyOnce = new Map<string, { period: string; cost: number } | null>();
  /** The month whose older charge-once ids were last dropped. */
  private prunedPeriod: string | null = null;
  /** Calls waiting for the next write, and when that write was scheduled (0: none scheduled). */
  private waiting: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private writeScheduledAt = 0;

  constructor(ctx: DurableObjectState, env: NoBindings) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS balance (id INTEGER PRIMARY KEY CHECK (id = 1), period TEXT NOT NULL, credits INTEGER NOT NULL);
       CREATE TABLE IF NOT EXISTS burst (key_id TEXT NOT NULL, slot INTEGER NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (key_id, slot));
       CREATE TABLE IF NOT EXISTS once (id TEXT PRIMARY KEY, period TEXT NOT NULL, cost INTEGER NOT NULL);`,
    );
    this.load();
  }

  /** Memory from storage: at start, and after a failed write. */
  private load(): void {
    this.balance = this.ctx.storage.sql.exec<{ period: string; credits: number }>(`SELECT period, credits FROM balance WHERE id = 1`).toArray()[0] ?? null;
    this.rings.clear();
    this.dirtySlots.clear();
    this.dirtyOnce.clear();
    this.balanceDirty = false;
  }

  /** The balance for `period`: a new month opens at the allowance (or the key's starting balance). */
  private creditsFor(period: string, allowance: number, startingBalance?: number | null): number {
    return this.balance && this.balance.period === period ? this.balance.credits : (startingBalance ?? allowance);
  }

  /** Writes every change decided so far, in one transaction. */
  private writeDirty(): void {
    const slots = [...this.dirtySlots.values()];
    const balance = this.balanceDirty ? this.balance : null;
    const once = [...this.dirtyOnce];
    if (!slots.length && !balance && !once.length) return;
    this.ctx.storage.transactionSync(() => {
      for (const r of slots)
        this.ctx.storage.sql.exec(
          `INSERT INTO burst (key_id, slot, seq, at) VALUES (?, ?, ?, ?) ON CONFLICT(key_id, slot) DO UPDATE SET seq = excluded.seq, at = excluded.at`,
          r.keyId,
          r.slot,
          r.seq,
          r.at,
        );
      if (balance)
        this.ctx.storage.sql.exec(
          `INSERT INTO balance (id, period, credits) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET period = excluded.period, credits = excluded.credits`,
          balance.period,
          balance.credits,
        );
      for (const [id, o] of once) {
        if (o) this.ctx.storage.sql.exec(`INSERT OR REPLACE INTO once (id, period, cost) VALUES (?, ?, ?)`, id, o.period, o.cost);
        else this.ctx.storage.sql.exec(`DELETE FROM once WHERE id = ?`, id);
      }
      // Ids of months gone by are no longer needed (a charge is made once within its month): dropped once a month,
      // at the first write of a new one, not on every charge.
      if (balance && balance.period !== this.prunedPeriod) {
        this.ctx.storage.sql.exec(`DELETE FROM once WHERE period < ?`, balance.period);
        this.prunedPeriod = balance.period;
      }
    });
    this.dirtySlots.clear();
    this.dirtyOnce.clear();
    this.balanceDirty = false;
  }

  /** Waits until the changes decided so far are written (group commit: one write for all waiting calls). */
  private committed(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    // A write scheduled long ago and not yet run is presumed lost: schedule another (it answers every waiting call).
    if (!this.writeScheduledAt || Date.now() - this.writeScheduledAt > 1_000) {
      this.writeScheduledAt = Date.now();
      setTimeout(() => this.commit(), 0);
    }
    return done;
  }

  private commit(): void {
    this.writeScheduledAt = 0;
    const waiting = this.waiting;
    this.waiting = [];
    try {
      this.writeDirty();
    } catch (e) {
      this.load();
      for (const w of waiting) w.reject(e);
      return;
    }
    for (const w of waiting) w.resolve();
  }

  /** The caller's ring, loaded from storage on first use, and again when the plan's limit changes. */
  private ringOf(keyId: string, limit: number): BurstRing {
    const known = this.rings.get(keyId);
    if (known && known.limit === limit) return known;
    this.writeDirty(); // storage must hold every call before the ring is rebuilt from it
    const sql = this.ctx.storage.sql;
    const rows = sql.exec<{ slot: number; seq: number; at: number }>(`SELECT slot, seq, at FROM burst WHERE key_id = ? ORDER BY seq`, keyId).toArray();
    const kept = rows.slice(-limit);
    if (rows.length > limit || kept.some((r) => r.slot !== r.seq % limit)) {
      // The limit changed: re-slot the most recent calls under the new one.
      sql.exec(`DELETE FROM burst WHERE key_id = ?`, keyId);
      for (const r of kept) sql.exec(`INSERT INTO burst (key_id, slot, seq, at) VALUES (?, ?, ?, ?)`, keyId, r.seq % limit, r.seq, r.at);
    }
    const ring: BurstRing = { limit, seq: rows.length ? rows[rows.length - 1].seq + 1 : 0, times: new Array<number>(limit).fill(0) };
    for (const r of kept) ring.times[r.seq % limit] = r.at;
    this.rings.set(keyId, ring);
    return ring;
  }

  async charge(req: ChargeRequest): Promise<ChargeResult> {
    const ring = this.ringOf(req.keyId, req.burstLimit);
    const credits = this.creditsFor(req.period, req.allowance, req.startingBalance);
    // The slot about to be overwritten holds the oldest of the last `limit` calls: if it is less than a
    // window old, the ceiling is reached. O(1) per call.
    const slot = ring.seq % ring.limit;
    const oldest = ring.times[slot];
    if (ring.seq >= ring.limit && req.now - oldest < req.burstWindowMs)
      return { ok: false, reason: "burst", retryAfterSeconds: Math.max(1, Math.ceil((oldest + req.burstWindowMs - req.now) / 1000)), remaining: credits };
    if (credits < req.cost) return { ok: false, reason: "credits", remaining: credits };
    const remaining = credits - req.cost;
    this.dirtySlots.set(`${req.keyId}\u0000${slot}`, { keyId: req.keyId, slot, seq: ring.seq, at: req.now });
    if (req.cost || !this.balance || this.balance.period !== req.period) this.balanceDirty = true;
    ring.times[slot] = req.now;
    ring.seq += 1;
    this.balance = { period: req.period, credits: remaining };
    await this.committed();
    return { ok: true, remaining, charged: req.cost };
  }

  /** Whether a charge with this id was made (decided, written or not). */
  private hasOnce(id: string): boolean {
    const d = this.dirtyOnce.get(id);
    if (d !== undefined) return d !== null;
    return this.ctx.storage.sql.exec(`SELECT 1 FROM once WHERE id = ?`, id).toArray().length > 0;
  }

  /**
   * A charge made at most once per id (a watch's month: `watch:<id>:<YYYY-MM>`), outside any call and so outside
   * the burst ceiling: the daily read takes a watch's monthly credits with it, and a read repeated after a crash
   * (the charge made, the watch not yet marked paid) charges nothing the second time (`repeated`).
   */
  async chargeOnce(req: ChargeOnceRequest): Promise<ChargeOnceResult> {
    const credits = this.creditsFor(req.period, req.allowance, req.startingBalance);
    if (this.hasOnce(req.id)) return { ok: true, remaining: credits, charged: 0, repeated: true };
    if (credits < req.cost) return { ok: false, reason: "credits", remaining: credits };
    const remaining = credits - req.cost;
    this.balance = { period: req.period, credits: remaining };
    this.balanceDirty = true;
    this.dirtyOnce.set(req.id, { period: req.period, cost: req.cost });
    await this.committed();
    return { ok: true, remaining, charged: req.cost, repeated: false };
  }

  /**
   * Gives credits back (a 5xx, a time-out, items of a batch that could not be read). A refund for a
   * month that has already closed is dropped: the new month opened with a full allowance. `onceIds`: the
   * charge-once ids the refunded charges were made under, forgotten so a retry charges again.
   */
  async refund(amount: number, period: string, onceIds: string[] = []): Promise<{ remaining: number; refunded: number }> {
    for (const id of onceIds) this.dirtyOnce.set(id, null);
    if (!this.balance || this.balance.period !== period || amount <= 0) {
      if (onceIds.length) await this.committed();
      return { remaining: this.balance?.credits ?? 0, refunded: 0 };
    }
    const remaining = this.balance.credits + amount;
    this.balance = { period, credits: remaining };
    this.balanceDirty = true;
    await this.committed();
    return { remaining, refunded: amount };
  }

  /** Current balance without charging (GET /api/v1/account). */
  peek(period: string, allowance: number, startingBalance?: number | null): { remaining: number } {
    return { remaining: this.creditsFor(period, allowance, startingBalance) };
  }
}
