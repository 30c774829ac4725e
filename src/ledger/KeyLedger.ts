import { DurableObject } from "cloudflare:workers";
import type { ChargeOnceRequest, ChargeOnceResult, ChargeRequest, ChargeResult, RefundRequest, RefundResult } from "../shared/ledger";
import { type BurstCall, type ChargeRow, type LedgerBalance, LedgerBook, type LedgerStore } from "../shared/ledgerBook";

/**
 * The ledger's tables in the object's SQLite storage. The format is the one the ledger has always stored: a ledger
 * written before the rules moved to shared/ledgerBook.ts reads the same (test/platform/ledgerParity.test.ts).
 */
const SCHEMA = `CREATE TABLE IF NOT EXISTS balance (id INTEGER PRIMARY KEY CHECK (id = 1), period TEXT NOT NULL, credits INTEGER NOT NULL);
       CREATE TABLE IF NOT EXISTS burst (key_id TEXT NOT NULL, slot INTEGER NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (key_id, slot));
       CREATE TABLE IF NOT EXISTS once (id TEXT PRIMARY KEY, period TEXT NOT NULL, cost INTEGER NOT NULL);
       CREATE TABLE IF NOT EXISTS charges (id TEXT PRIMARY KEY, period TEXT NOT NULL, cost INTEGER NOT NULL, refunded INTEGER NOT NULL,
         once_id TEXT, landed INTEGER NOT NULL, cancelled INTEGER NOT NULL, at INTEGER NOT NULL);
       CREATE INDEX IF NOT EXISTS charges_at ON charges (at);`;

/**
 * The LedgerStore over a Durable Object's SQLite storage: every write is one transaction (transactionSync, looked up
 * at each write), so a write that fails stores nothing.
 */
export function sqliteLedgerStore(storage: DurableObjectStorage): LedgerStore {
  const sql = storage.sql;
  return {
    balance: () => sql.exec<LedgerBalance>(`SELECT period, credits FROM balance WHERE id = 1`).toArray()[0] ?? null,
    burst: (keyId) => sql.exec<BurstCall>(`SELECT slot, seq, at FROM burst WHERE key_id = ? ORDER BY seq`, keyId).toArray(),
    reslot(keyId, calls) {
      sql.exec(`DELETE FROM burst WHERE key_id = ?`, keyId);
      for (const c of calls) sql.exec(`INSERT INTO burst (key_id, slot, seq, at) VALUES (?, ?, ?, ?)`, keyId, c.slot, c.seq, c.at);
    },
    charge(id): ChargeRow | null {
      const r = sql
        .exec<{ period: string; cost: number; refunded: number; once_id: string | null; landed: number; cancelled: number; at: number }>(
          `SELECT period, cost, refunded, once_id, landed, cancelled, at FROM charges WHERE id = ?`,
          id,
        )
        .toArray()[0];
      return r
        ? { period: r.period, cost: r.cost, refunded: r.refunded, onceId: r.once_id, landed: r.landed === 1, cancelled: r.cancelled === 1, at: r.at }
        : null;
    },
    hasOnce: (id) => sql.exec(`SELECT 1 FROM once WHERE id = ?`, id).toArray().length > 0,
    write(w) {
      storage.transactionSync(() => {
        for (const r of w.slots)
          sql.exec(
            `INSERT INTO burst (key_id, slot, seq, at) VALUES (?, ?, ?, ?) ON CONFLICT(key_id, slot) DO UPDATE SET seq = excluded.seq, at = excluded.at`,
            r.keyId,
            r.slot,
            r.seq,
            r.at,
          );
        if (w.balance)
          sql.exec(
            `INSERT INTO balance (id, period, credits) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET period = excluded.period, credits = excluded.credits`,
            w.balance.period,
            w.balance.credits,
          );
        for (const [id, o] of w.once) {
          if (o) sql.exec(`INSERT OR REPLACE INTO once (id, period, cost) VALUES (?, ?, ?)`, id, o.period, o.cost);
          else sql.exec(`DELETE FROM once WHERE id = ?`, id);
        }
        for (const [id, c] of w.charges)
          sql.exec(
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
        if (w.dropChargesBefore !== null) sql.exec(`DELETE FROM charges WHERE at < ?`, w.dropChargesBefore);
        if (w.dropOnceBefore !== null) sql.exec(`DELETE FROM once WHERE period < ?`, w.dropOnceBefore);
      });
    },
  };
}

/** The ledger needs no binding or setting: it keeps everything in its own storage (and so does not import env.ts). */
type NoBindings = object;

/**
 * KeyLedger: one Durable Object per API key, or per organisation pool where keys share one balance (the `Ledger`
 * port's Durable Object version; src/ledger/durableLedgers.ts reaches it from `env`). It holds the month's balance,
 * each key's recent call times and the charges it recorded by id, in its SQLite storage. The rules (charging, the
 * burst window, charging once, refunds by id, group commit) are shared/ledgerBook.ts's LedgerBook, the same as the
 * in-memory ledger's; this class gives them the object's storage. A Durable Object runs one call at a time and the
 * book decides without awaiting between reading and deciding, so every charge is atomic (SPEC §5.4, §7.4, §8); no
 * call answers before its write has committed (the output gate also holds every reply until the write is durable).
 */
export class KeyLedger extends DurableObject<NoBindings> {
  private readonly book: LedgerBook;

  constructor(ctx: DurableObjectState, env: NoBindings) {
    super(ctx, env);
    ctx.storage.sql.exec(SCHEMA);
    this.book = new LedgerBook(sqliteLedgerStore(ctx.storage));
  }

  charge(req: ChargeRequest): Promise<ChargeResult> {
    return this.book.charge(req);
  }

  /** A charge made at most once per id (a watch's month): see LedgerBook.chargeOnce. */
  chargeOnce(req: ChargeOnceRequest): Promise<ChargeOnceResult> {
    return this.book.chargeOnce(req);
  }

  /** Gives charges back by id, or cancels them: see LedgerBook.refund. */
  refund(req: RefundRequest): Promise<RefundResult> {
    return this.book.refund(req);
  }

  /** Current balance without charging (GET /api/v1/account). */
  peek(period: string, allowance: number, startingBalance?: number | null): { remaining: number } {
    return this.book.peek(period, allowance, startingBalance);
  }
}
