import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { chargeRequestFor } from "../support/chargeRequest";
import { describe, expect, it } from "vitest";
import { KeyLedger } from "../../src/ledger/KeyLedger";
import { durableLedgers } from "../../src/ledger/durableLedgers";
import type { Ledger } from "../../src/shared/ledger";
import { type StoredLedger, memoryLedger, memoryLedgerStore } from "../../src/shared/ledgerBook";
import { periodOf } from "../../src/shared/plans";
import { ledgerOf } from "../helpers";

/**
 * Issue 31 "one wiring": the ledger port's two versions, the KeyLedger Durable Object (reached through
 * durableLedgers(env), as the gateway, the account read and the watch job reach it) and memoryLedger(), give the same
 * answers to the same calls, and store the same rows (the Durable Object's tables, the memory store's maps). Both
 * run shared/ledgerBook.ts's rules; this checks the storage each gives them.
 */

const t0 = Date.UTC(2026, 2, 31, 23, 59, 0); // a minute before April
const MARCH = periodOf(t0);
const APRIL = periodOf(t0 + 60_000);

const charge = chargeRequestFor(10, 3);

/** A sequence of calls, each step's answer kept (a concurrent step's answers sorted: their order is not the point). */
const SCRIPT: [string, (l: Ledger) => Promise<unknown>][] = [
  ["peek before anything", (l) => l.peek(MARCH, 10, null)],
  ["charge 4", (l) => l.charge(charge(t0, { id: "c1", cost: 4 }))],
  ["charge 4 more", (l) => l.charge(charge(t0 + 1, { id: "c2", cost: 4 }))],
  ["charge past the balance", (l) => l.charge(charge(t0 + 2, { id: "c3", cost: 4 }))],
  ["charge the last credits", (l) => l.charge(charge(t0 + 3, { id: "c4", cost: 2 }))],
  ["a free call over the burst ceiling", (l) => l.charge(charge(t0 + 4, { cost: 0 }))],
  ["another key's free call", (l) => l.charge(charge(t0 + 4, { cost: 0, keyId: "key_b" }))],
  ["out of credits", (l) => l.charge(charge(t0 + 5, { keyId: "key_b" }))],
  ["refund part of c1", (l) => l.refund({ period: MARCH, charges: [{ id: "c1", upTo: 1 }] })],
  ["the same refund again", (l) => l.refund({ period: MARCH, charges: [{ id: "c1", upTo: 1 }] })],
  [
    "cancel c1, refund c2 beyond its cost, cancel a charge not yet arrived, refund one never made",
    (l) =>
      l.refund({
        period: MARCH,
        charges: [{ id: "c1", cancel: true }, { id: "c2", upTo: 10 }, { id: "ghost", cancel: true }, { id: "never" }],
      }),
  ],
  ["the late charge under the cancelled id", (l) => l.charge(charge(t0 + 6, { id: "ghost", cost: 3, keyId: "key_b" }))],
  ["c1 again (cancelled)", (l) => l.charge(charge(t0 + 7, { id: "c1", cost: 4, keyId: "key_b" }))],
  ["c2 again (charged once)", (l) => l.charge(charge(t0 + 7, { id: "c2", cost: 4, keyId: "key_b" }))],
  ["peek", (l) => l.peek(MARCH, 10, null)],
  ["charge once", (l) => l.chargeOnce({ id: "watch:1", cost: 2, period: MARCH, allowance: 10 })],
  ["charge once again", (l) => l.chargeOnce({ id: "watch:1", cost: 2, period: MARCH, allowance: 10 })],
  [
    "charge once, three at once",
    async (l) =>
      (await Promise.all([1, 2, 3].map(() => l.chargeOnce({ id: "watch:2", cost: 1, period: MARCH, allowance: 10 })))).map((r) => JSON.stringify(r)).sort(),
  ],
  ["charge once under a charge id", (l) => l.chargeOnce({ id: "watch:3", chargeId: "h1", cost: 1, period: MARCH, allowance: 10 })],
  ["cancel it: the once id is forgotten", (l) => l.refund({ period: MARCH, charges: [{ id: "h1", cancel: true }] })],
  ["charge once again under another charge id", (l) => l.chargeOnce({ id: "watch:3", chargeId: "h2", cost: 1, period: MARCH, allowance: 10 })],
  ["charge once short of credits", (l) => l.chargeOnce({ id: "watch:4", cost: 50, period: MARCH, allowance: 10 })],
  ["a lower ceiling", (l) => l.charge(charge(t0 + 8, { keyId: "key_b", cost: 0, burstLimit: 1 }))],
  ["a higher ceiling", (l) => l.charge(charge(t0 + 9, { keyId: "key_b", cost: 0, burstLimit: 5 }))],
  ["April: a fresh allowance", (l) => l.charge(charge(t0 + 60_000, { id: "a1", cost: 3 }))],
  ["a March refund in April gives nothing back", (l) => l.refund({ period: APRIL, charges: [{ id: "c2" }, { id: "c4" }] })],
  ["a March once id charges again in April", (l) => l.chargeOnce({ id: "watch:1", cost: 2, period: APRIL, allowance: 10 })],
  ["the burst window has moved on", (l) => l.charge(charge(t0 + 60_005, { id: "a2" }))],
  ["peek March from April", (l) => l.peek(MARCH, 10, null)],
  ["peek April", (l) => l.peek(APRIL, 10, null)],
  ["May opens at a starting balance", (l) => l.charge(charge(Date.UTC(2026, 4, 1), { id: "m1", startingBalance: 1, cost: 1 }))],
  ["and is then spent", (l) => l.charge(charge(Date.UTC(2026, 4, 1, 0, 0, 1), { id: "m2", startingBalance: 1, cost: 1 }))],
];

/** What a KeyLedger object's tables hold, in the memory store's shape. */
function storedIn(state: DurableObjectState): StoredLedger {
  const sql = state.storage.sql;
  return {
    balance: sql.exec<{ period: string; credits: number }>(`SELECT period, credits FROM balance`).toArray()[0] ?? null,
    burst: sql
      .exec<{ keyId: string; slot: number; seq: number; at: number }>(`SELECT key_id AS keyId, slot, seq, at FROM burst ORDER BY key_id, slot`)
      .toArray(),
    once: sql.exec<{ id: string; period: string; cost: number }>(`SELECT id, period, cost FROM once ORDER BY id`).toArray(),
    charges: sql
      .exec<{ id: string; period: string; cost: number; refunded: number; once_id: string | null; landed: number; cancelled: number; at: number }>(
        `SELECT * FROM charges ORDER BY id`,
      )
      .toArray()
      .map((r) => ({
        id: r.id,
        period: r.period,
        cost: r.cost,
        refunded: r.refunded,
        onceId: r.once_id,
        landed: r.landed === 1,
        cancelled: r.cancelled === 1,
        at: r.at,
      })),
  };
}

/** Charge rows carry the ledger's own clock (when each was recorded), which two ledgers never share. */
const withoutClock = (s: StoredLedger) => ({ ...s, charges: s.charges.map(({ at: _at, ...c }) => c) });

describe("issue 31 the ledger port: the Durable Object and the memory ledger answer alike", () => {
  it("the same calls (charges past the balance, refunds, cancels, tombstones, charge-once twice and at once, the burst ceiling up and down, month roll-over, a starting balance) get the same answers, and leave the same rows", async () => {
    const name = `test:${crypto.randomUUID()}`;
    const durable = durableLedgers(env).get(name);
    const store = memoryLedgerStore();
    const memory = memoryLedger({ store });
    const answers: { durable: unknown[]; memory: unknown[] } = { durable: [], memory: [] };
    for (const [step, run] of SCRIPT) {
      const [d, m] = [await run(durable), await run(memory)];
      answers.durable.push([step, d]);
      answers.memory.push([step, m]);
    }
    expect(answers.memory).toEqual(answers.durable);
    // Spot checks, so that the two cannot agree on something wrong.
    const said = Object.fromEntries(answers.memory as [string, unknown][]);
    expect(said["charge past the balance"]).toEqual({ ok: false, reason: "credits", remaining: 2 });
    expect(said["a free call over the burst ceiling"]).toEqual({ ok: false, reason: "burst", retryAfterSeconds: 60, remaining: 0 });
    expect(said["the late charge under the cancelled id"]).toEqual({ ok: false, reason: "cancelled", remaining: 8 });
    expect(said["charge once, three at once"]).toEqual([
      JSON.stringify({ ok: true, remaining: 5, charged: 0, repeated: true }),
      JSON.stringify({ ok: true, remaining: 5, charged: 0, repeated: true }),
      JSON.stringify({ ok: true, remaining: 5, charged: 1, repeated: false }),
    ]);
    expect(said["April: a fresh allowance"]).toEqual({ ok: true, remaining: 7, charged: 3 });
    expect(said["a March refund in April gives nothing back"]).toMatchObject({ remaining: 7 });
    expect(said["and is then spent"]).toEqual({ ok: false, reason: "credits", remaining: 0 });

    const rows = await runInDurableObject(ledgerOf(name), (_o: unknown, state) => storedIn(state));
    expect(withoutClock(rows)).toEqual(withoutClock(store.contents()));
    expect(said["a March once id charges again in April"]).toEqual({ ok: true, remaining: 5, charged: 2, repeated: false }); // March's ids dropped at April's first write
    expect(rows.once).toEqual([]); // and April's at May's
    expect(rows.balance).toEqual({ period: "2026-05", credits: 0 });
  });

  it("a ledger stored in the Durable Object's table format before the port (rows written as the KeyLedger always wrote them) reads the same: balance, burst window, once ids, charges and tombstones", async () => {
    const name = `test:${crypto.randomUUID()}`;
    const stub = ledgerOf(name);
    const now = Date.now();
    const answers = await runInDurableObject(stub, async (_o: unknown, state) => {
      // The rows an earlier KeyLedger left: 7 credits left in March, key_a's ring of 3 full, a watch paid, a charge
      // partly refunded and a tombstone.
      const sql = state.storage.sql;
      sql.exec(`INSERT INTO balance (id, period, credits) VALUES (1, ?, 7)`, MARCH);
      for (let seq = 0; seq < 3; seq++) sql.exec(`INSERT INTO burst (key_id, slot, seq, at) VALUES ('key_a', ?, ?, ?)`, seq % 3, seq, t0 - 30_000 + seq);
      sql.exec(`INSERT INTO once (id, period, cost) VALUES ('watch:1', ?, 2)`, MARCH);
      sql.exec(`INSERT INTO charges VALUES ('c1', ?, 3, 1, NULL, 1, 0, ?)`, MARCH, now);
      sql.exec(`INSERT INTO charges VALUES ('ghost', ?, 0, 0, NULL, 0, 1, ?)`, MARCH, now);
      const seeded = storedIn(state);
      const restarted = new KeyLedger(state, env);
      const run = async (l: Pick<Ledger, "charge" | "chargeOnce" | "refund">) => [
        await l.charge(charge(t0, { cost: 1 })),
        await l.charge(charge(t0, { cost: 1, keyId: "key_b", id: "ghost" })),
        await l.chargeOnce({ id: "watch:1", cost: 2, period: MARCH, allowance: 10 }),
        await l.refund({ period: MARCH, charges: [{ id: "c1" }] }),
        await l.charge(charge(t0 + 30_000, { cost: 1 })),
      ];
      // The same rows in a memory store, and the same calls to both.
      const store = memoryLedgerStore();
      store.write({
        slots: seeded.burst,
        balance: seeded.balance,
        once: seeded.once.map(({ id, ...o }) => [id, o]),
        charges: seeded.charges.map(({ id, ...c }) => [id, c]),
        dropChargesBefore: null,
        dropOnceBefore: null,
      });
      return { durable: await run(restarted), memory: await run(memoryLedger({ store })), peek: restarted.peek(MARCH, 10) };
    });
    expect(answers.durable).toEqual([
      { ok: false, reason: "burst", retryAfterSeconds: 30, remaining: 7 },
      { ok: false, reason: "cancelled", remaining: 7 },
      { ok: true, remaining: 7, charged: 0, repeated: true },
      { remaining: 9, charges: [{ id: "c1", landed: true, refunded: 3 }] },
      { ok: true, remaining: 8, charged: 1 },
    ]);
    expect(answers.memory).toEqual(answers.durable);
    expect(answers.peek).toEqual({ remaining: 8 });
  });
});
