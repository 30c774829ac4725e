import { describe, expect, it } from "vitest";
import { CHARGE_MEMORY_MS, type LedgerStore, memoryLedger, memoryLedgerStore } from "../../src/shared/ledgerBook";
import { periodOf } from "../../src/shared/plans";
import { chargeRequestFor } from "../support/chargeRequest";

/**
 * Issue 31 "one wiring": the credit ledger's rules (shared/ledgerBook.ts), tested once, on the in-memory ledger: no
 * Durable Object, no storage but maps. The KeyLedger Durable Object runs the same LedgerBook over its SQLite storage;
 * test/platform/ledgerParity.test.ts checks that both answer the same, and test/platform/ledger.test.ts what only the
 * Durable Object has (its storage, its restarts, the gateway over HTTP).
 */

const t0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const P = periodOf(t0);

/** A fresh memory ledger (its store kept, to reopen it or look inside) and a charge request as the gateway sends it. */
function fresh(allowance: number, opts: { clock?: () => number } = {}) {
  const store = memoryLedgerStore();
  const ledger = memoryLedger({ store, clock: opts.clock });
  const req = chargeRequestFor(allowance);
  return { ledger, store, req, reopen: () => memoryLedger({ store, clock: opts.clock }) };
}

describe("ledger rules: credits (SPEC §8)", () => {
  it("30 concurrent charges on 10 credits: exactly 10 charged, each balance 9..0 handed out once, 20 refused; never below 0", async () => {
    const { ledger, req } = fresh(1000);
    const r = await Promise.all(Array.from({ length: 30 }, (_, i) => ledger.charge(req(t0 + i, { startingBalance: 10 }))));
    const ok = r.filter((x) => x.ok);
    expect(ok.map((x) => x.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(r.filter((x) => !x.ok)).toEqual(Array(20).fill({ ok: false, reason: "credits", remaining: 0 }));
    expect(await ledger.peek(P, 1000, 10)).toEqual({ remaining: 0 });
  });

  it("a month opens at the allowance, or at the key's starting balance; peek charges nothing and opens nothing", async () => {
    const { ledger, req } = fresh(100);
    expect(await ledger.peek(P, 100)).toEqual({ remaining: 100 });
    expect(await ledger.peek(P, 100, 7)).toEqual({ remaining: 7 });
    expect(await ledger.charge(req(t0, { cost: 3, startingBalance: 7 }))).toEqual({ ok: true, remaining: 4, charged: 3 });
    // Opened: the month's balance stands, whatever allowance or starting balance a later call names.
    expect(await ledger.peek(P, 100)).toEqual({ remaining: 4 });
    expect(await ledger.charge(req(t0 + 1, { cost: 5 }))).toEqual({ ok: false, reason: "credits", remaining: 4 });
  });

  it("January exhausted; 1 February 00:00 UTC opens a fresh allowance; a January refund arriving in February gives nothing back", async () => {
    const { ledger, req } = fresh(5);
    const jan = Date.UTC(2026, 0, 31, 23, 58, 0);
    const feb = Date.UTC(2026, 1, 1);
    for (let i = 0; i < 5; i++) expect(await ledger.charge(req(jan + i * 1000, { id: `jan-${i}` }))).toMatchObject({ ok: true, remaining: 4 - i });
    expect(await ledger.charge(req(feb - 1))).toEqual({ ok: false, reason: "credits", remaining: 0 });
    expect(await ledger.charge(req(feb, { id: "feb-1" }))).toEqual({ ok: true, remaining: 4, charged: 1 });
    expect(await ledger.refund({ period: "2026-01", charges: [{ id: "jan-4" }] })).toEqual({
      remaining: 4,
      charges: [{ id: "jan-4", landed: true, refunded: 0 }],
    });
    expect(await ledger.refund({ period: "2026-02", charges: [{ id: "feb-1" }] })).toEqual({
      remaining: 5,
      charges: [{ id: "feb-1", landed: true, refunded: 1 }],
    });
    expect(await ledger.peek("2026-01", 5)).toEqual({ remaining: 5 }); // a month gone by reads as unopened
  });
});

describe("ledger rules: the burst ceiling (SPEC §8)", () => {
  it("the 61st call inside the minute is refused (no credit used) until the first leaves the window", async () => {
    const { ledger, req } = fresh(1000);
    for (let i = 0; i < 60; i++) expect(await ledger.charge(req(t0 + i * 100))).toMatchObject({ ok: true, remaining: 999 - i });
    expect(await ledger.charge(req(t0 + 6_000))).toEqual({ ok: false, reason: "burst", retryAfterSeconds: 54, remaining: 940 });
    expect(await ledger.charge(req(t0 + 59_999))).toEqual({ ok: false, reason: "burst", retryAfterSeconds: 1, remaining: 940 });
    expect(await ledger.peek(P, 1000)).toEqual({ remaining: 940 });
    expect(await ledger.charge(req(t0 + 60_000))).toEqual({ ok: true, remaining: 939, charged: 1 });
    expect(await ledger.charge(req(t0 + 60_001))).toMatchObject({ ok: false, reason: "burst" });
  });

  it("the ceiling is per key on a shared ledger; free (0-credit) calls count toward it", async () => {
    const { ledger, req } = fresh(1000);
    for (let i = 0; i < 60; i++) expect(await ledger.charge(req(t0 + i, { cost: 0 }))).toEqual({ ok: true, remaining: 1000, charged: 0 });
    expect(await ledger.charge(req(t0 + 100))).toMatchObject({ ok: false, reason: "burst" });
    expect(await ledger.charge(req(t0 + 100, { keyId: "key_b" }))).toEqual({ ok: true, remaining: 999, charged: 1 });
  });

  it("a plan change that lowers or raises the ceiling keeps the most recent calls (up to the lower ceiling), in the store too", async () => {
    const { ledger, req, reopen } = fresh(1000);
    for (let i = 0; i < 30; i++) expect(await ledger.charge(req(t0 + i))).toMatchObject({ ok: true });
    expect(await ledger.charge(req(t0 + 100, { burstLimit: 20 }))).toMatchObject({ ok: false, reason: "burst" });
    for (let i = 0; i < 20; i++) expect(await ledger.charge(req(t0 + 200 + i, { burstLimit: 40 }))).toMatchObject({ ok: true });
    expect(await ledger.charge(req(t0 + 300, { burstLimit: 40 }))).toMatchObject({ ok: false, reason: "burst" });
    expect(await reopen().charge(req(t0 + 301, { burstLimit: 40 }))).toMatchObject({ ok: false, reason: "burst" });
    expect(await ledger.charge(req(t0 + 60_009, { burstLimit: 40 }))).toMatchObject({ ok: false, reason: "burst" });
    expect(await ledger.charge(req(t0 + 60_010, { burstLimit: 40 }))).toMatchObject({ ok: true });
  });

  it("the balance, the burst window and charges by id survive a restart (a new book over the same store)", async () => {
    const { ledger, req, reopen } = fresh(1000);
    for (let i = 0; i < 60; i++) await ledger.charge(req(t0 + i * 10, { id: `c${i}` }));
    await ledger.refund({ period: P, charges: [{ id: "c0" }, { id: "c1" }, { id: "c2" }, { id: "tomb", cancel: true }] });
    const restarted = reopen();
    expect(await restarted.peek(P, 1000)).toEqual({ remaining: 943 });
    expect(await restarted.charge(req(t0 + 1_000))).toEqual({ ok: false, reason: "burst", retryAfterSeconds: 59, remaining: 943 });
    expect(await restarted.charge(req(t0 + 60_000, { id: "tomb" }))).toEqual({ ok: false, reason: "cancelled", remaining: 943 });
    expect(await restarted.refund({ period: P, charges: [{ id: "c0" }, { id: "c3", upTo: 1 }] })).toEqual({
      remaining: 944,
      charges: [
        { id: "c0", landed: true, refunded: 1 },
        { id: "c3", landed: true, refunded: 1 },
      ],
    });
    expect(await restarted.charge(req(t0 + 60_000))).toEqual({ ok: true, remaining: 943, charged: 1 });
  });
});

describe("ledger rules: charges by id (issue 29 §2)", () => {
  it("a refund by id gives back at most the charge, once however often it is asked (concurrently too); a cancel gives back the rest; the id charged again is refused", async () => {
    const { ledger, req } = fresh(100);
    expect(await ledger.charge(req(t0, { id: "r.1", cost: 5 }))).toEqual({ ok: true, remaining: 95, charged: 5 });
    const part = { period: P, charges: [{ id: "r.1", upTo: 2 }] };
    expect(await ledger.refund(part)).toEqual({ remaining: 97, charges: [{ id: "r.1", landed: true, refunded: 2 }] });
    expect(await ledger.refund(part)).toEqual({ remaining: 97, charges: [{ id: "r.1", landed: true, refunded: 2 }] });
    const both = await Promise.all([
      ledger.refund({ period: P, charges: [{ id: "r.1", upTo: 4 }] }),
      ledger.refund({ period: P, charges: [{ id: "r.1", upTo: 4 }] }),
    ]);
    expect(both.map((b) => b.charges[0].refunded)).toEqual([4, 4]);
    expect(await ledger.peek(P, 100)).toEqual({ remaining: 99 });
    // A smaller `upTo` takes nothing back; more than the charge is never given.
    expect(await ledger.refund({ period: P, charges: [{ id: "r.1", upTo: 1 }] })).toMatchObject({ remaining: 99, charges: [{ refunded: 4 }] });
    expect(await ledger.refund({ period: P, charges: [{ id: "r.1", upTo: 50 }] })).toMatchObject({ remaining: 100, charges: [{ refunded: 5 }] });
    expect(await ledger.refund({ period: P, charges: [{ id: "r.1", cancel: true }] })).toMatchObject({
      remaining: 100,
      charges: [{ landed: true, refunded: 5 }],
    });
    expect(await ledger.charge(req(t0 + 1, { id: "r.1", cost: 5 }))).toEqual({ ok: false, reason: "cancelled", remaining: 100 });
    expect(await ledger.peek(P, 100)).toEqual({ remaining: 100 });
  });

  it("a charge id that arrives twice (concurrently) charges once; a free charge is not recorded", async () => {
    const { ledger, req, store } = fresh(100);
    const [a, b] = await Promise.all([ledger.charge(req(t0, { id: "dup", cost: 3 })), ledger.charge(req(t0, { id: "dup", cost: 3 }))]);
    expect([a, b]).toEqual([
      { ok: true, remaining: 97, charged: 3 },
      { ok: true, remaining: 97, charged: 3 },
    ]);
    await ledger.charge(req(t0 + 1, { id: "free", cost: 0 }));
    expect(store.contents().charges.map((c) => c.id)).toEqual(["dup"]);
    expect(await ledger.peek(P, 100)).toEqual({ remaining: 97 });
  });

  it("a cancel before its charge leaves a tombstone: the late charge is refused, charges nothing and takes no place in the burst window", async () => {
    const { ledger, req } = fresh(100);
    expect(await ledger.refund({ period: P, charges: [{ id: "late", cancel: true }] })).toEqual({
      remaining: 0,
      charges: [{ id: "late", landed: false, refunded: 0 }],
    });
    expect(await ledger.charge(req(t0, { id: "late", cost: 7, burstLimit: 2 }))).toEqual({ ok: false, reason: "cancelled", remaining: 100 });
    expect(await ledger.charge(req(t0 + 1, { id: "a", burstLimit: 2 }))).toMatchObject({ ok: true, remaining: 99 });
    expect(await ledger.charge(req(t0 + 2, { id: "b", burstLimit: 2 }))).toMatchObject({ ok: true, remaining: 98 });
    expect(await ledger.charge(req(t0 + 3, { id: "c", burstLimit: 2 }))).toMatchObject({ ok: false, reason: "burst" });
    // A refund (not a cancel) of a charge that never arrived leaves nothing behind: the charge, arriving, is made.
    expect(await ledger.refund({ period: P, charges: [{ id: "d" }] })).toEqual({ remaining: 98, charges: [{ id: "d", landed: false, refunded: 0 }] });
    expect(await ledger.charge(req(t0 + 60_001, { id: "d", burstLimit: 2 }))).toMatchObject({ ok: true, remaining: 97 });
  });

  it("a cancelled charge that had arrived keeps its place in the burst window, and gives its credits back", async () => {
    const { ledger, req } = fresh(100);
    expect(await ledger.charge(req(t0, { id: "x", cost: 4, burstLimit: 2 }))).toMatchObject({ ok: true, remaining: 96 });
    expect(await ledger.refund({ period: P, charges: [{ id: "x", cancel: true }] })).toMatchObject({
      remaining: 100,
      charges: [{ landed: true, refunded: 4 }],
    });
    expect(await ledger.charge(req(t0 + 1, { id: "y", burstLimit: 2 }))).toMatchObject({ ok: true, remaining: 99 });
    expect(await ledger.charge(req(t0 + 2, { id: "z", burstLimit: 2 }))).toMatchObject({ ok: false, reason: "burst" });
  });

  it("charge ids (tombstones too) are dropped CHARGE_MEMORY_MS after they were recorded, by the ledger's own clock", async () => {
    const clock = { now: t0 };
    const { ledger, req, store } = fresh(100, { clock: () => clock.now });
    await ledger.charge(req(t0, { id: "kept", cost: 2 }));
    await ledger.refund({ period: P, charges: [{ id: "tomb", cancel: true }] });
    expect(store.contents().charges.map((c) => [c.id, c.at])).toEqual([
      ["kept", t0],
      ["tomb", t0],
    ]);
    clock.now = t0 + CHARGE_MEMORY_MS; // not yet older than a day
    await ledger.charge(req(t0 + 1, { id: "second" }));
    expect(store.contents().charges.map((c) => c.id)).toEqual(["kept", "second", "tomb"]);
    clock.now = t0 + CHARGE_MEMORY_MS + 600_001; // a day and ten minutes after the first two (and ten minutes since the last pruning)
    await ledger.charge(req(t0 + 2, { id: "third" }));
    expect(store.contents().charges.map((c) => c.id)).toEqual(["second", "third"]);
    clock.now = t0 + 2 * CHARGE_MEMORY_MS + 1; // a day after the second
    await ledger.charge(req(t0 + 3, { id: "fresh" }));
    expect(store.contents().charges.map((c) => c.id)).toEqual(["fresh", "third"]);
  });
});

describe("ledger rules: a charge made once by id (issue 15, a watch's month)", () => {
  it("once per id however often (concurrently too); short of credits nothing, not remembered; a cancel forgets the id; per month, past months' ids dropped", async () => {
    const { ledger, store } = fresh(5);
    const once = (id: string, period = "2026-12", chargeId?: string) =>
      ledger.chargeOnce({ id, cost: 2, period, allowance: 5, startingBalance: null, chargeId });
    const first = await Promise.all([once("watch:1:2026-12"), once("watch:1:2026-12"), once("watch:1:2026-12")]);
    expect(first).toEqual([
      { ok: true, remaining: 3, charged: 2, repeated: false },
      { ok: true, remaining: 3, charged: 0, repeated: true },
      { ok: true, remaining: 3, charged: 0, repeated: true },
    ]);
    expect(await once("watch:2:2026-12", "2026-12", "req_1.a.0")).toEqual({ ok: true, remaining: 1, charged: 2, repeated: false });
    // The same attempt asked again (its answer was late): charged once, answered as charged.
    expect(await once("watch:2:2026-12", "2026-12", "req_1.a.0")).toEqual({ ok: true, remaining: 1, charged: 2, repeated: false });
    expect(await once("watch:3:2026-12")).toEqual({ ok: false, reason: "credits", remaining: 1 });
    expect(await once("watch:3:2026-12")).toEqual({ ok: false, reason: "credits", remaining: 1 });
    expect(await ledger.refund({ period: "2026-12", charges: [{ id: "req_1.a.0", cancel: true }] })).toEqual({
      remaining: 3,
      charges: [{ id: "req_1.a.0", landed: true, refunded: 2 }],
    });
    expect(await once("watch:2:2026-12", "2026-12", "req_1.a.0")).toEqual({ ok: false, reason: "cancelled", remaining: 3 });
    expect(await once("watch:2:2026-12", "2026-12", "req_2.a.0")).toEqual({ ok: true, remaining: 1, charged: 2, repeated: false });
    expect(store.contents().once.map((o) => o.id)).toEqual(["watch:1:2026-12", "watch:2:2026-12"]);
    expect(await once("watch:1:2027-01", "2027-01")).toEqual({ ok: true, remaining: 3, charged: 2, repeated: false });
    expect(store.contents().once).toEqual([{ id: "watch:1:2027-01", period: "2027-01", cost: 2 }]);
  });

  it("outside the burst ceiling: charging once takes no place in any key's window", async () => {
    const { ledger, req } = fresh(100);
    await ledger.chargeOnce({ id: "watch:1", cost: 2, period: P, allowance: 100 });
    expect(await ledger.charge(req(t0, { burstLimit: 1 }))).toEqual({ ok: true, remaining: 97, charged: 1 });
    expect(await ledger.charge(req(t0 + 1, { burstLimit: 1 }))).toMatchObject({ ok: false, reason: "burst" });
  });
});

describe("ledger rules: group commit (written together, answered once stored)", () => {
  /** A store whose writes are counted, and fail while `failing` is set. */
  function countedStore() {
    const inner = memoryLedgerStore();
    const state = { writes: 0, failing: false };
    const store: LedgerStore = {
      ...inner,
      write(w) {
        state.writes++;
        if (state.failing) throw new Error("disk full");
        inner.write(w);
      },
    };
    return { store, inner, state };
  }

  it("charges arriving together are one write; a failed write fails them all, stores nothing and memory starts again from the store", async () => {
    const { store, inner, state } = countedStore();
    const ledger = memoryLedger({ store });
    const { req } = fresh(1000);
    const ten = await Promise.all(Array.from({ length: 10 }, (_, i) => ledger.charge(req(t0 + i))));
    expect(ten.map((r) => r.remaining)).toEqual([999, 998, 997, 996, 995, 994, 993, 992, 991, 990]);
    expect(state.writes).toBe(1);
    state.failing = true;
    const failed = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => ledger.charge(req(t0 + 100 + i, { id: `f${i}` }))));
    expect(failed.map((f) => f.status)).toEqual(Array(5).fill("rejected"));
    state.failing = false;
    expect(inner.contents().balance).toEqual({ period: P, credits: 990 });
    // The failed five were taken back out of memory (balance, burst window, charge ids): the next charge starts from what was stored.
    expect(await ledger.charge(req(t0 + 200, { id: "f0" }))).toEqual({ ok: true, remaining: 989, charged: 1 });
    expect(inner.contents().balance).toEqual({ period: P, credits: 989 });
    expect(inner.contents().burst).toHaveLength(11);
  });

  it("a refund answers only once written, with the balance as it decided it; a refund whose write fails is not given back", async () => {
    const { store, inner, state } = countedStore();
    const ledger = memoryLedger({ store });
    const { req } = fresh(100);
    await ledger.charge(req(t0, { id: "a", cost: 10 }));
    state.failing = true;
    await expect(ledger.refund({ period: P, charges: [{ id: "a" }] })).rejects.toThrow("disk full");
    state.failing = false;
    expect(inner.contents().charges).toMatchObject([{ id: "a", refunded: 0 }]);
    expect(await ledger.refund({ period: P, charges: [{ id: "a" }] })).toEqual({ remaining: 100, charges: [{ id: "a", landed: true, refunded: 10 }] });
  });
});
