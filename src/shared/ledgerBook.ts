/**
 * The credit ledger's rules, once: one ledger's book (its month's balance, each key's burst window, charges by id and
 * charge-once ids) over a small synchronous store. The KeyLedger Durable Object runs a LedgerBook over its SQLite
 * storage (src/ledger/KeyLedger.ts); `memoryLedger()` runs the same LedgerBook over maps in memory. Imports nothing
 * from src/ but the port's types.
 *
 * Every charge is atomic: every decision below is made without awaiting between reading and deciding, and a Durable
 * Object (like a single isolate's memory) runs one call at a time up to its first await, so the balance never goes
 * negative however many calls arrive at once (SPEC §5.4, §7.4, §8).
 *
 * State lives in memory, loaded from the store when the book opens. Changes are written with group commit: the
 * charges decided while a write is being prepared are written together in one `write` (a few milliseconds at most
 * under load; at once when the ledger is idle), and no charge answers before its write has committed. If a write
 * fails, every charge waiting on it fails (the gateway answers 503 and charges nothing) and memory is reloaded from
 * the store, so memory never runs ahead of what was stored.
 *
 * Charges by id (issue 29 §2). The gateway gives up on a ledger call after a time limit, but a call it gave up on may
 * still arrive, or may have arrived and only its answer be late. So every charge the gateway makes carries an id, and
 * the ledger records each charge that moved credits (month, cost, how much was given back, the charge-once id it was
 * made under) for a day (CHARGE_MEMORY_MS). `refund` works by id and is idempotent (`upTo`: the total to have been
 * given back, never more than the cost). After a time-out the gateway cancels the charge by id: if it arrived, it is
 * given back in full; if not, a tombstone is recorded and the charge, arriving late, is refused before it touches the
 * balance or the burst window. Either way the cancel's answer tells the gateway which, so its reply can say what
 * happened. A repeated charge id charges nothing again.
 *
 * The burst window: a call counts toward the ceiling once the ledger admitted it, whatever happens to the call later
 * (as a call that fails upstream and is refunded keeps its place). A cancelled charge that had arrived keeps its place
 * too: it reached the ledger (the slowness was somewhere between), and handing the place back would invite immediate
 * retries against a ledger that is already slow. A charge refused by its tombstone never takes a place.
 */
import type { ChargeOnceRequest, ChargeOnceResult, ChargeRequest, ChargeResult, Ledger, Ledgers, RefundRequest, RefundResult } from "./ledger";

/**
 * How long charge ids are remembered. A charge's id matters only while the call that made it may still be cancelling
 * or giving it back (the gateway's retries end within its 30 s of background time) or a late copy of it may still
 * arrive: a day is far beyond either.
 */
export const CHARGE_MEMORY_MS = 86_400_000;

/** Charge ids older than CHARGE_MEMORY_MS are dropped at most this often (at a write that records charges). */
const CHARGE_PRUNE_EVERY_MS = 600_000;

/** A write scheduled this long ago and not yet run is presumed lost: another is scheduled. */
const WRITE_PRESUMED_LOST_MS = 1_000;

/** The month's balance (one row). */
export type LedgerBalance = { period: string; credits: number };

/** One call in a key's burst window: its slot in the ring (`seq % limit`), its sequence number and its time. */
export type BurstCall = { slot: number; seq: number; at: number };

/** A charge made once by id (a watch's month): its month and cost. */
export type OnceCharge = { period: string; cost: number };

/** A charge recorded by id: its month, cost and what was given back; `landed` false is a tombstone (cancelled before it arrived). */
export type ChargeRow = {
  period: string;
  cost: number;
  refunded: number;
  onceId: string | null;
  landed: boolean;
  cancelled: boolean;
  /** When it was recorded (the ledger's clock), for pruning. */
  at: number;
};

/** Everything decided since the last write, written together (all or nothing), in this order. */
export interface LedgerWrite {
  /** Burst window slots to set (insert or overwrite the key's slot). */
  slots: (BurstCall & { keyId: string })[];
  /** The balance to store, or null when it did not change. */
  balance: LedgerBalance | null;
  /** Charge-once ids to store (null: forget the id). */
  once: [string, OnceCharge | null][];
  /** Charges by id to store (insert or replace). */
  charges: [string, ChargeRow][];
  /** Then: drop the charges recorded before this time (null: not this time). */
  dropChargesBefore: number | null;
  /** Then: drop the charge-once ids of months before this one (null: not this time). */
  dropOnceBefore: string | null;
}

/**
 * Where a ledger keeps what it decided: a Durable Object's SQLite storage, or maps in memory. Synchronous, so a
 * decision never awaits between reading and deciding.
 */
export interface LedgerStore {
  balance(): LedgerBalance | null;
  /** A key's burst window as stored, oldest call first (by `seq`). */
  burst(keyId: string): BurstCall[];
  /** Replaces a key's burst window (its most recent calls re-slotted under a new limit). */
  reslot(keyId: string, calls: BurstCall[]): void;
  charge(id: string): ChargeRow | null;
  hasOnce(id: string): boolean;
  /** Writes every change at once, all or nothing: a write that throws stored none of them. */
  write(w: LedgerWrite): void;
}

/** One key's burst window: the times of its last `limit` calls, in a ring, with a running call sequence. */
interface BurstRing {
  limit: number;
  /** Sequence number the next call will take; its slot is `seq % limit`. */
  seq: number;
  times: number[];
}

/**
 * One ledger's book: the rules of charging, charging once, refunding and reading the balance, over a store. `clock`
 * is the ledger's own clock (charge rows' times, pruning, write scheduling), not the caller's `now` (the burst window).
 */
export class LedgerBook {
  private balance: LedgerBalance | null = null;
  private readonly rings = new Map<string, BurstRing>();
  /** Changes decided but not yet written. */
  private dirtySlots = new Map<string, BurstCall & { keyId: string }>();
  private balanceDirty = false;
  /** Charges made once by id (a watch's month) decided but not yet written: id → period (null: forget the id). */
  private dirtyOnce = new Map<string, OnceCharge | null>();
  /** Charges by id decided but not yet written. */
  private dirtyCharges = new Map<string, ChargeRow>();
  /** When charge ids older than CHARGE_MEMORY_MS were last dropped (the ledger's clock). */
  private chargesPrunedAt = 0;
  /** The month whose older charge-once ids were last dropped. */
  private prunedPeriod: string | null = null;
  /** Calls waiting for the next write, and when that write was scheduled (0: none scheduled). */
  private waiting: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private writeScheduledAt = 0;

  constructor(
    private readonly store: LedgerStore,
    private readonly clock: () => number = () => Date.now(),
  ) {
    this.load();
  }

  /** Memory from the store: at start, and after a failed write. */
  private load(): void {
    this.balance = this.store.balance();
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

  /** Writes every change decided so far, in one write. Throws (keeping them) when the write fails. */
  private writeDirty(): void {
    const slots = [...this.dirtySlots.values()];
    const balance = this.balanceDirty ? this.balance : null;
    const once = [...this.dirtyOnce];
    const charges = [...this.dirtyCharges];
    if (!slots.length && !balance && !once.length && !charges.length) return;
    const clock = this.clock();
    // Charge ids older than CHARGE_MEMORY_MS are no longer needed: dropped at most every ten minutes.
    const dropChargesBefore = charges.length && clock - this.chargesPrunedAt > CHARGE_PRUNE_EVERY_MS ? clock - CHARGE_MEMORY_MS : null;
    // Ids of months gone by are no longer needed (a charge is made once within its month): dropped once a month, at the
    // first write of a new one, not on every charge.
    const dropOnceBefore = balance && balance.period !== this.prunedPeriod ? balance.period : null;
    this.store.write({ slots, balance, once, charges, dropChargesBefore, dropOnceBefore });
    if (dropChargesBefore !== null) this.chargesPrunedAt = clock;
    if (dropOnceBefore !== null) this.prunedPeriod = dropOnceBefore;
    this.dirtySlots.clear();
    this.dirtyOnce.clear();
    this.dirtyCharges.clear();
    this.balanceDirty = false;
  }

  /** Waits until the changes decided so far are written (group commit: one write for all waiting calls). */
  private committed(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    // A write scheduled long ago and not yet run is presumed lost: schedule another (it answers every waiting call).
    if (!this.writeScheduledAt || this.clock() - this.writeScheduledAt > WRITE_PRESUMED_LOST_MS) {
      this.writeScheduledAt = this.clock();
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

  /** The caller's ring, loaded from the store on first use, and again when the plan's limit changes. */
  private ringOf(keyId: string, limit: number): BurstRing {
    const known = this.rings.get(keyId);
    if (known && known.limit === limit) return known;
    this.writeDirty(); // the store must hold every call before the ring is rebuilt from it
    const rows = this.store.burst(keyId);
    const kept = rows.slice(-limit);
    // The limit changed: re-slot the most recent calls under the new one.
    if (rows.length > limit || kept.some((r) => r.slot !== r.seq % limit))
      this.store.reslot(
        keyId,
        kept.map((r) => ({ slot: r.seq % limit, seq: r.seq, at: r.at })),
      );
    const ring: BurstRing = { limit, seq: rows.length ? rows[rows.length - 1].seq + 1 : 0, times: new Array<number>(limit).fill(0) };
    for (const r of kept) ring.times[r.seq % limit] = r.at;
    this.rings.set(keyId, ring);
    return ring;
  }

  /** A charge recorded under this id (decided, written or not), or null. */
  private chargeRow(id: string): ChargeRow | null {
    return this.dirtyCharges.get(id) ?? this.store.charge(id);
  }

  private recordCharge(id: string | undefined, period: string, cost: number, onceId: string | null): void {
    if (id && cost > 0) this.dirtyCharges.set(id, { period, cost, refunded: 0, onceId, landed: true, cancelled: false, at: this.clock() });
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
    return this.store.hasOnce(id);
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
          this.dirtyCharges.set(item.id, { period: req.period, cost: 0, refunded: 0, onceId: null, landed: false, cancelled: true, at: this.clock() });
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

/** A LedgerBook as the port (its peek answered as a promise, as a Durable Object's is). */
export function ledgerOfBook(book: LedgerBook): Ledger {
  return {
    charge: (req) => book.charge(req),
    chargeOnce: (req) => book.chargeOnce(req),
    refund: (req) => book.refund(req),
    peek: async (period, allowance, startingBalance) => book.peek(period, allowance, startingBalance),
  };
}

/** What a memory store holds, in the shape of the Durable Object's tables (for tests to compare and inspect). */
export interface StoredLedger {
  balance: LedgerBalance | null;
  /** Every key's burst slots, by key then slot. */
  burst: (BurstCall & { keyId: string })[];
  /** Charge-once ids, by id. */
  once: (OnceCharge & { id: string })[];
  /** Charges by id, by id. */
  charges: (ChargeRow & { id: string })[];
}

/** A LedgerStore in memory: what the Durable Object's tables hold, as maps. Every row goes in and out as a copy. */
export function memoryLedgerStore(): LedgerStore & { contents(): StoredLedger } {
  let balance: LedgerBalance | null = null;
  const burst = new Map<string, Map<number, BurstCall>>();
  const once = new Map<string, OnceCharge>();
  const charges = new Map<string, ChargeRow>();
  const byKey = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    balance: () => (balance ? { ...balance } : null),
    burst: (keyId) => [...(burst.get(keyId)?.values() ?? [])].map((c) => ({ ...c })).sort((a, b) => a.seq - b.seq),
    reslot(keyId, calls) {
      burst.set(keyId, new Map(calls.map((c) => [c.slot, { ...c }])));
    },
    charge(id) {
      const c = charges.get(id);
      return c ? { ...c } : null;
    },
    hasOnce: (id) => once.has(id),
    write(w) {
      // Nothing below can fail part-way: the write is all or nothing.
      for (const s of w.slots) {
        const ring = burst.get(s.keyId) ?? new Map<number, BurstCall>();
        ring.set(s.slot, { slot: s.slot, seq: s.seq, at: s.at });
        burst.set(s.keyId, ring);
      }
      if (w.balance) balance = { ...w.balance };
      for (const [id, o] of w.once) {
        if (o) once.set(id, { ...o });
        else once.delete(id);
      }
      for (const [id, c] of w.charges) charges.set(id, { ...c });
      if (w.dropChargesBefore !== null) for (const [id, c] of charges) if (c.at < w.dropChargesBefore) charges.delete(id);
      if (w.dropOnceBefore !== null) for (const [id, o] of once) if (o.period < w.dropOnceBefore) once.delete(id);
    },
    contents: () => ({
      balance: balance ? { ...balance } : null,
      burst: [...burst]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .flatMap(([keyId, ring]) => [...ring.values()].sort((a, b) => a.slot - b.slot).map((c) => ({ keyId, ...c }))),
      once: [...once].map(([id, o]) => ({ id, ...o })).sort(byKey),
      charges: [...charges].map(([id, c]) => ({ id, ...c })).sort(byKey),
    }),
  };
}

export interface MemoryLedgerOptions {
  /** The ledger's clock (charge ids' times and their pruning); default Date.now. */
  clock?: () => number;
}

/** One ledger in memory: the same rules as the KeyLedger Durable Object, over maps. For tests and code without a Durable Object. */
export function memoryLedger(opts: MemoryLedgerOptions & { store?: LedgerStore } = {}): Ledger {
  return ledgerOfBook(new LedgerBook(opts.store ?? memoryLedgerStore(), opts.clock));
}

/** Every ledger in memory, by name (each opened on first use): the port the gateway charges through, without a Durable Object. */
export function memoryLedgers(opts: MemoryLedgerOptions = {}): Ledgers & { stores: Map<string, ReturnType<typeof memoryLedgerStore>> } {
  const open = new Map<string, Ledger>();
  const stores = new Map<string, ReturnType<typeof memoryLedgerStore>>();
  return {
    get(name) {
      let ledger = open.get(name);
      if (!ledger) {
        const store = memoryLedgerStore();
        stores.set(name, store);
        ledger = memoryLedger({ ...opts, store });
        open.set(name, ledger);
      }
      return ledger;
    },
    stores,
  };
}
