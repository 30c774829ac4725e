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

/** A charge recorded by id: its month, cost and what was given back; `landed` false is a tombstone (cancelled before it arrived). */
interface ChargeRow {
  period: string;
  cost: number;
  refunded: number;
  onceId: string | null;
  landed: boolean;
  cancelled: boolean;
  /** When it was recorded (the object's clock), for pruning. */
  at: number;
}

/**
 * How long charge ids are remembered. A charge's id matters only while the call that made it may still be cancelling
 * or giving it back (the gateway's retries end within its 30 s of background time) or a late copy of it may still
 * arrive: a day is far beyond either.
 */
export const CHARGE_MEMORY_MS = 86_400_000;

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
 *
 * Charges by id (issue 29 §2). The gateway gives up on a ledger call after a time limit, but a call it gave up on may
 * still arrive, or may have arrived and only its answer be late. So every charge the gateway makes carries an id, and
 * the ledger records each charge that moved credits (table `charges`: month, cost, how much was given back, the
 * charge-once id it was made under) for a day (CHARGE_MEMORY_MS). `refund` works by id and is idempotent (`upTo`: the
 * total to have been given back, never more than the cost). After a time-out the gateway cancels the charge by id: if it
 * arrived, it is given back in full; if not, a tombstone is recorded and the charge, arriving late, is refused before it
 * touches the balance or the burst window. Either way the cancel's answer tells the gateway which, so its reply can say
 * what happened. A repeated charge id charges nothing again.
 *
 * The burst window: a call counts toward the ceiling once the ledger admitted it, whatever happens to the call later
 * (as a call that fails upstream and is refunded keeps its place). A cancelled charge that had arrived keeps its place
 * too: it reached the ledger (the slowness was somewhere between), and handing the place back would invite immediate
 * retries against a ledger that is already slow. A charge refused by its tombstone never takes a place.
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
  /** Charges by id decided but not yet written. */
  private dirtyCharges = new Map<string, ChargeRow>();
  /** When charge ids older than CHARGE_MEMORY_MS were last dropped (the object's clock). */
  private chargesPrunedAt = 0;
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
       CREATE TABLE IF NOT EXISTS once (id TEXT PRIMARY KEY, period TEXT NOT NULL, cost INTEGER NOT NULL);
       CREATE TABLE IF NOT EXISTS charges (id TEXT PRIMARY KEY, period TEXT NOT NULL, cost INTEGER NOT NULL, refunded INTEGER NOT NULL,
         once_id TEXT, landed INTEGER NOT NULL, cancelled INTEGER NOT NULL, at INTEGER NOT NULL);
       CREATE INDEX IF NOT EXISTS charges_at ON charges (at);`,
    );
    this.load();
  }

  /** Memory from storage: at start, and after a failed write. */
  private load(): void {
    this.balance = this.ctx.storage.sql.exec<{ period: string; credits: number }>(`SELECT period, credits FROM balance WHERE id = 1`).toArray()[0] ?? null;
    this.rings.clear();
    this.dirtySlots.clear();
    this.dirtyOnce.clear();
    this.dirtyCharges.clear();
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
    const charges = [...this.dirtyCharges];
    if (!slots.length && !balance && !once.length && !charges.length) return;
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
      for (const [id, c] of charges)
        this.ctx.storage.sql.exec(
          `INSERT OR REPLACE INTO charges (id, period, cost, refunded, once_id, landed, cancelled, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          id,
          c.period,
          c.cost,
          c.refunded,
          c.onceId,
          c.landed ? 1 : 0,
          c.cancelled ? 1 : 0,
          c.at,
        );
      // Charge ids older than CHARGE_MEMORY_MS are no longer needed: dropped at most every ten minutes.
      const clock = Date.now();
      if (charges.length && clock - this.chargesPrunedAt > 600_000) {
        this.ctx.storage.sql.exec(`DELETE FROM charges WHERE at < ?`, clock - CHARGE_MEMORY_MS);
        this.chargesPrunedAt = clock;
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
    this.dirtyCharges.clear();
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

  /** A charge recorded under this id (decided, written or not), or null. */
  private chargeRow(id: string): ChargeRow | null {
    const d = this.dirtyCharges.get(id);
    if (d) return d;
    const r = this.ctx.storage.sql
      .exec<{ period: string; cost: number; refunded: number; once_id: string | null; landed: number; cancelled: number; at: number }>(
        `SELECT period, cost, refunded, once_id, landed, cancelled, at FROM charges WHERE id = ?`,
        id,
      )
      .toArray()[0];
    return r
      ? { period: r.period, cost: r.cost, refunded: r.refunded, onceId: r.once_id, landed: r.landed === 1, cancelled: r.cancelled === 1, at: r.at }
      : null;
  }

  private recordCharge(id: string | undefined, period: string, cost: number, onceId: string | null): void {
    if (id && cost > 0) this.dirtyCharges.set(id, { period, cost, refunded: 0, onceId, landed: true, cancelled: false, at: Date.now() });
  }

  async charge(req: ChargeRequest): Promise<ChargeResult> {
    const credits = this.creditsFor(req.period, req.allowance, req.startingBalance);
    const known = req.id ? this.chargeRow(req.id) : null;
    if (known) {
      // Cancelled before it arrived (or after): refused, nothing charged, no place in the burst window. Arrived before
      // under this id: charged once, not again.
      if (!known.landed || known.cancelled) return { ok: false, reason: "cancelled", remaining: credits };
      await this.committed();
      return { ok: true, remaining: credits, charged: known.cost };
    }
    const ring = this.ringOf(req.keyId, req.burstLimit);
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
    this.recordCharge(req.id, req.period, req.cost, null);
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
    const known = req.chargeId ? this.chargeRow(req.chargeId) : null;
    if (known && (!known.landed || known.cancelled)) return { ok: false, reason: "cancelled", remaining: credits };
    if (known) {
      await this.committed();
      return { ok: true, remaining: credits, charged: known.cost, repeated: false };
    }
    if (this.hasOnce(req.id)) {
      await this.committed(); // the charge that made the id may not be written yet
      return { ok: true, remaining: credits, charged: 0, repeated: true };
    }
    if (credits < req.cost) return { ok: false, reason: "credits", remaining: credits };
    const remaining = credits - req.cost;
    this.balance = { period: req.period, credits: remaining };
    this.balanceDirty = true;
    this.dirtyOnce.set(req.id, { period: req.period, cost: req.cost });
    this.recordCharge(req.chargeId, req.period, req.cost, req.id);
    await this.committed();
    return { ok: true, remaining, charged: req.cost, repeated: false };
  }

  /**
   * Gives charges back by id (a 5xx, a time-out, items of a batch that could not be read), or cancels them (`cancel`):
   * see RefundRequest. Idempotent: the same request twice gives back once. A charge of a month that has already closed
   * gives nothing back (the new month opened with a full allowance). Answers only once every change it made, or that an
   * earlier call made to these charges, is written.
   */
  async refund(req: RefundRequest): Promise<RefundResult> {
    const out: RefundResult["charges"] = [];
    for (const item of req.charges) {
      const row = this.chargeRow(item.id);
      if (!row) {
        // Not arrived (or never made): a cancel leaves a tombstone, so that it is refused if it arrives later.
        if (item.cancel)
          this.dirtyCharges.set(item.id, { period: req.period, cost: 0, refunded: 0, onceId: null, landed: false, cancelled: true, at: Date.now() });
        out.push({ id: item.id, landed: false, refunded: 0 });
        continue;
      }
      const next = { ...row };
      const target = item.cancel ? row.cost : Math.min(row.cost, Math.max(row.refunded, Math.floor(item.upTo ?? row.cost)));
      if (target > row.refunded && this.balance && this.balance.period === row.period) {
        this.balance = { period: row.period, credits: this.balance.credits + (target - row.refunded) };
        this.balanceDirty = true;
        next.refunded = target;
      }
      if (item.cancel && !row.cancelled) {
        next.cancelled = true;
        if (row.onceId) this.dirtyOnce.set(row.onceId, null);
      }
      if (next.refunded !== row.refunded || next.cancelled !== row.cancelled) this.dirtyCharges.set(item.id, next);
      out.push({ id: item.id, landed: row.landed, refunded: next.refunded });
    }
    const remaining = this.balance?.credits ?? 0; // as decided here, not as later calls may change it while this is written
    await this.committed();
    return { remaining, charges: out };
  }

  /** Current balance without charging (GET /api/v1/account). */
  peek(period: string, allowance: number, startingBalance?: number | null): { remaining: number } {
    return { remaining: this.creditsFor(period, allowance, startingBalance) };
  }
}
