import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { KeyLedger } from "../../src/ledger/KeyLedger";
import type { ChargeRequest } from "../../src/shared/ledger";
import { CHARGE_MEMORY_MS } from "../../src/shared/ledgerBook";
import { execute } from "../../src/platform/gateway";
import { BURST_WINDOW_MS, PLANS, periodOf } from "../../src/platform/plans";
import { calculateLatePayment as latePayment } from "../../src/operations/money/calculateLatePayment";
import type { AnyOperation } from "../../src/platform/registry";
import { balanceOf, call, createTestKey, json, ledgerOf } from "../helpers";

const LATE = "/api/v1/late-payment?amount=100&due=2026-01-15&paid=2026-02-05";

/** A fresh ledger and a charge request against it, as the gateway would send. */
function freshLedger(allowance: number) {
  const name = `test:${crypto.randomUUID()}`;
  const stub = ledgerOf(name);
  const req = (now: number, over: Partial<ChargeRequest> = {}): ChargeRequest => ({
    cost: 1,
    keyId: "key_a",
    period: periodOf(now),
    allowance,
    startingBalance: null,
    burstLimit: 60,
    burstWindowMs: BURST_WINDOW_MS,
    now,
    ...over,
  });
  return { stub, req };
}

describe("SPEC §8 credits are atomic under concurrency", () => {
  it("SPEC §8 30 parallel calls on a 10-credit key: exactly 10 answered, 20 quota_exhausted, balance 0", async () => {
    const { key, keyId } = await createTestKey({ credits: 10 });
    const replies = await Promise.all(Array.from({ length: 30 }, () => call(LATE, { key })));
    const ok = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 429);
    expect([ok.length, refused.length]).toEqual([10, 20]);
    // Each remaining balance 9..0 was handed out exactly once.
    expect(ok.map((r) => Number(r.headers.get("x-credits-remaining"))).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const r of refused) expect((await json(r)).code).toBe("quota_exhausted");
    for (const r of ok) await r.body?.cancel();
    expect(await balanceOf(keyId, { credits: 10 })).toBe(0);
  });
});

describe("SPEC §8 burst ceiling: 60 a minute per key, over it 429 with Retry-After and no credit used", () => {
  it("SPEC §8 on the ledger: the 61st call inside the minute is refused until the first leaves the window", async () => {
    const { stub, req } = freshLedger(1000);
    const t0 = Date.UTC(2026, 2, 10, 12, 0, 0);
    for (let i = 0; i < 60; i++) expect(await stub.charge(req(t0 + i * 100))).toMatchObject({ ok: true, remaining: 999 - i });
    expect(await stub.charge(req(t0 + 6_000))).toEqual({ ok: false, reason: "burst", retryAfterSeconds: 54, remaining: 940 });
    // 1 ms before the first call leaves the window: still refused, Retry-After rounds up to 1.
    expect(await stub.charge(req(t0 + 59_999))).toEqual({ ok: false, reason: "burst", retryAfterSeconds: 1, remaining: 940 });
    expect((await stub.peek(periodOf(t0), 1000)).remaining).toBe(940);
    // Exactly one minute after the first call, one slot is free again.
    expect(await stub.charge(req(t0 + 60_000))).toEqual({ ok: true, remaining: 939, charged: 1 });
    expect(await stub.charge(req(t0 + 60_001))).toMatchObject({ ok: false, reason: "burst" });
  });

  it("SPEC §8 the ceiling is per key even on a shared ledger; free (0-credit) calls count toward it", async () => {
    const { stub, req } = freshLedger(1000);
    const t0 = Date.UTC(2026, 2, 10, 12, 0, 0);
    for (let i = 0; i < 60; i++) expect(await stub.charge(req(t0 + i, { cost: 0 }))).toMatchObject({ ok: true, remaining: 1000 });
    expect(await stub.charge(req(t0 + 100))).toMatchObject({ ok: false, reason: "burst" });
    expect(await stub.charge(req(t0 + 100, { keyId: "key_b" }))).toEqual({ ok: true, remaining: 999, charged: 1 });
  });

  it("SPEC §8 the balance and the burst window survive the object restarting (state is written through before each reply)", async () => {
    const { stub, req } = freshLedger(1000);
    const t0 = Date.UTC(2026, 2, 10, 12, 0, 0);
    for (let i = 0; i < 60; i++) await stub.charge(req(t0 + i * 10, { id: `c${i}` }));
    await stub.refund({ period: periodOf(t0), charges: [{ id: "c0" }, { id: "c1" }, { id: "c2" }] });
    // A second instance over the same storage is what the object looks like after an eviction or a restart.
    const after = await runInDurableObject(stub, async (_o: unknown, state) => {
      const restarted = new KeyLedger(state, env);
      return [restarted.peek(periodOf(t0), 1000).remaining, await restarted.charge(req(t0 + 1_000)), await restarted.charge(req(t0 + 60_000))];
    });
    expect(after).toEqual([943, { ok: false, reason: "burst", retryAfterSeconds: 59, remaining: 943 }, { ok: true, remaining: 942, charged: 1 }]);
  });

  it("SPEC §8 group commit: charges arriving together are written together, each answered only once stored; a failed write fails them all and stores nothing", async () => {
    const { stub, req } = freshLedger(1000);
    const t0 = Date.UTC(2026, 2, 10, 12, 0, 0);
    const outcome = await runInDurableObject(stub, async (instance: unknown, state) => {
      const ledger = instance as KeyLedger;
      const inner = ledger as unknown as { ctx: DurableObjectState };
      let transactions = 0;
      const real = inner.ctx.storage.transactionSync.bind(inner.ctx.storage);
      let failNext = false;
      inner.ctx.storage.transactionSync = (<T>(fn: () => T): T => {
        transactions++;
        return real(() => {
          const r = fn();
          if (failNext) throw new Error("disk full");
          return r;
        });
      }) as typeof inner.ctx.storage.transactionSync;
      const ten = await Promise.all(Array.from({ length: 10 }, (_, i) => ledger.charge(req(t0 + i))));
      const afterTen = transactions;
      failNext = true;
      const failed = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => ledger.charge(req(t0 + 100 + i))));
      failNext = false;
      const next = await ledger.charge(req(t0 + 200));
      const stored = new KeyLedger(state, env).peek(periodOf(t0), 1000).remaining;
      return { remaining: ten.map((r) => r.remaining), afterTen, failed: failed.map((f) => f.status), next, stored };
    });
    expect(outcome.remaining).toEqual([999, 998, 997, 996, 995, 994, 993, 992, 991, 990]);
    expect(outcome.afterTen).toBe(1); // ten charges, one transaction
    expect(outcome.failed).toEqual(["rejected", "rejected", "rejected", "rejected", "rejected"]);
    // The failed five were taken back out of memory: the next charge starts from what was stored.
    expect(outcome.next).toEqual({ ok: true, remaining: 989, charged: 1 });
    expect(outcome.stored).toBe(989);
  });

  it("SPEC §8 a ledger write that fails answers 503 ledger_unavailable through the gateway, and nothing is charged", async () => {
    const { key, keyId, accountId } = await createTestKey({ credits: 10 });
    await runInDurableObject(ledgerOf(`acct:${accountId}`), (ledger: unknown) => {
      const inner = ledger as { ctx: DurableObjectState };
      inner.ctx.storage.transactionSync = (() => {
        throw new Error("disk full");
      }) as typeof inner.ctx.storage.transactionSync;
    });
    const res = await call(LATE, { key });
    expect(res.status).toBe(503);
    expect((await json(res)).code).toBe("ledger_unavailable");
    expect(await balanceOf(keyId, { credits: 10 })).toBe(10);
  });

  it("SPEC §8 a plan change that lowers or raises the ceiling keeps the most recent calls (up to the lower ceiling) in the window", async () => {
    const { stub, req } = freshLedger(1000);
    const t0 = Date.UTC(2026, 2, 10, 12, 0, 0);
    for (let i = 0; i < 30; i++) expect(await stub.charge(req(t0 + i))).toMatchObject({ ok: true });
    // Down to 20 a minute: the last 20 calls fill the window.
    expect(await stub.charge(req(t0 + 100, { burstLimit: 20 }))).toMatchObject({ ok: false, reason: "burst" });
    // Back up to 40: the window kept the 20 most recent calls when the ceiling fell, so exactly 20 more fit, in storage too.
    for (let i = 0; i < 20; i++) expect(await stub.charge(req(t0 + 200 + i, { burstLimit: 40 }))).toMatchObject({ ok: true });
    expect(await stub.charge(req(t0 + 300, { burstLimit: 40 }))).toMatchObject({ ok: false, reason: "burst" });
    const restarted = await runInDurableObject(stub, (_o: unknown, state) => new KeyLedger(state, env).charge(req(t0 + 301, { burstLimit: 40 })));
    expect(restarted).toMatchObject({ ok: false, reason: "burst" });
    // The oldest call kept (the 11th, at t0 + 10 ms) leaves the window one minute after it was made.
    expect(await stub.charge(req(t0 + 60_009, { burstLimit: 40 }))).toMatchObject({ ok: false, reason: "burst" });
    expect(await stub.charge(req(t0 + 60_010, { burstLimit: 40 }))).toMatchObject({ ok: true });
  });

  it("SPEC §8 over HTTP: 60 calls succeed, the 61st → 429 rate_limited with Retry-After 1..60 and no credit used", async () => {
    const { key, keyId } = await createTestKey({ plan: "growth" });
    for (let i = 0; i < 60; i++) {
      const r = await call(LATE, { key });
      expect(r.status).toBe(200);
      await r.body?.cancel();
    }
    const before = await balanceOf(keyId, { plan: "growth" });
    expect(before).toBe(PLANS.growth.monthlyCredits - 60);
    const r = await call(LATE, { key });
    const body = await json(r);
    expect([r.status, body.code]).toEqual([429, "rate_limited"]);
    const retryAfter = r.headers.get("retry-after") ?? "";
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(r.headers.get("x-credits-remaining")).toBeNull();
    expect(await balanceOf(keyId, { plan: "growth" })).toBe(before);
  });
});

describe("SPEC §8 monthly quota resets on the 1st (UTC)", () => {
  it("SPEC §8 January exhausted; 1 February 00:00 UTC opens a fresh allowance; a January refund arriving in February is dropped", async () => {
    const { stub, req } = freshLedger(5);
    const jan = Date.UTC(2026, 0, 31, 23, 58, 0);
    const feb = Date.UTC(2026, 1, 1, 0, 0, 0);
    expect([periodOf(feb - 1), periodOf(feb)]).toEqual(["2026-01", "2026-02"]);
    for (let i = 0; i < 5; i++) expect(await stub.charge(req(jan + i * 1000, { id: `jan-${i}` }))).toMatchObject({ ok: true, remaining: 4 - i });
    expect(await stub.charge(req(feb - 1))).toEqual({ ok: false, reason: "credits", remaining: 0 });
    expect(await stub.charge(req(feb, { id: "feb-1" }))).toEqual({ ok: true, remaining: 4, charged: 1 });
    // A January charge given back in February gives nothing back; February's own does.
    expect(await stub.refund({ period: "2026-01", charges: [{ id: "jan-4" }] })).toEqual({
      remaining: 4,
      charges: [{ id: "jan-4", landed: true, refunded: 0 }],
    });
    expect(await stub.refund({ period: "2026-02", charges: [{ id: "feb-1" }] })).toEqual({
      remaining: 5,
      charges: [{ id: "feb-1", landed: true, refunded: 1 }],
    });
  });

  it("SPEC §8 through the gateway: a key out of credits this month is served next month on the plan's allowance", async () => {
    const { key } = await createTestKey({ credits: 1 });
    const op = latePayment as unknown as AnyOperation;
    const input = { amount: "100", due: "2026-01-15", paid: "2026-02-05" };
    const meta = (now: number) => ({ requestId: "req_test", headers: new Headers(), ip: "192.0.2.1", apiKey: key, waitUntil: () => {}, now });
    const now = Date.now();
    expect((await execute(env, op, input, meta(now))).headers["x-credits-remaining"]).toBe("0");
    expect((await execute(env, op, input, meta(now + 1))).body).toMatchObject({ code: "quota_exhausted" });
    const d = new Date(now);
    const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    const o = await execute(env, op, input, meta(next));
    expect(o.status).toBe(200);
    expect(o.headers["x-credits-remaining"]).toBe(String(PLANS.free.monthlyCredits - 1));
  });
});

describe("SPEC §7.3 organisation pool (org_pool_exhausted)", () => {
  it("SPEC §7.3 two keys draw on one pool; when it is used up both answer 429 org_pool_exhausted", async () => {
    const orgId = `org_${crypto.randomUUID()}`;
    const a = await createTestKey({ orgId, orgPlan: "free" });
    const b = await createTestKey({ orgId, orgPlan: "free" });
    const ra = await call(LATE, { key: a.key });
    const rb = await call(LATE, { key: b.key });
    expect([ra.status, ra.headers.get("x-credits-remaining"), rb.status, rb.headers.get("x-credits-remaining")]).toEqual([200, "99", 200, "98"]);
    // Use the rest of the pool directly on its ledger.
    const pool = ledgerOf(`org:${orgId}`);
    const now = Date.now();
    expect(
      await pool.charge({ cost: 98, keyId: "drain", period: periodOf(now), allowance: 100, burstLimit: 60, burstWindowMs: BURST_WINDOW_MS, now }),
    ).toMatchObject({ ok: true, remaining: 0 });
    for (const k of [a, b]) {
      const r = await call(LATE, { key: k.key });
      expect([r.status, (await json(r)).code]).toEqual([429, "org_pool_exhausted"]);
    }
    const acc = await json(await call("/api/v1/account", { key: a.key }));
    expect(acc).toMatchObject({ pooled: true, creditsRemaining: 0, plan: "free" });
    // The keys' own ledgers were never touched.
    expect(await balanceOf(a.keyId)).toBe(100);
  });
});

describe("issue 15 a charge made once by id (a watch's month)", () => {
  it("the same id charges once however often it is asked, concurrently too; short of credits it charges nothing; a refund under the id forgets it", async () => {
    const name = `test:${crypto.randomUUID()}`;
    const stub = ledgerOf(name);
    const once = (id: string, period = "2026-12", chargeId?: string) => stub.chargeOnce({ id, cost: 2, period, allowance: 5, startingBalance: null, chargeId });
    const first = await Promise.all([once("watch:1:2026-12"), once("watch:1:2026-12"), once("watch:1:2026-12")]);
    expect(first.filter((r) => r.ok && r.charged === 2)).toHaveLength(1);
    expect(first.filter((r) => r.ok && r.charged === 0 && r.repeated)).toHaveLength(2);
    expect((await stub.peek("2026-12", 5, null)).remaining).toBe(3);
    expect(await once("watch:2:2026-12", "2026-12", "req_1.a.0")).toMatchObject({ ok: true, charged: 2, remaining: 1 });
    expect(await once("watch:3:2026-12")).toEqual({ ok: false, reason: "credits", remaining: 1 });
    expect(await once("watch:3:2026-12")).toMatchObject({ ok: false }); // a refused charge is not remembered
    // Given back (the call failed after charging): the id is forgotten, so a retry charges again.
    expect(await stub.refund({ period: "2026-12", charges: [{ id: "req_1.a.0", cancel: true }] })).toEqual({
      remaining: 3,
      charges: [{ id: "req_1.a.0", landed: true, refunded: 2 }],
    });
    expect(await once("watch:2:2026-12", "2026-12", "req_2.a.0")).toMatchObject({ ok: true, charged: 2, repeated: false, remaining: 1 });
    // Remembered in storage (a fresh instance over the same storage knows it), and per month: a new month's id charges again.
    const again = await runInDurableObject(stub, (_o: unknown, state) =>
      new KeyLedger(state, env).chargeOnce({ id: "watch:1:2026-12", cost: 2, period: "2026-12", allowance: 5, startingBalance: null }),
    );
    expect(again).toMatchObject({ ok: true, charged: 0, repeated: true });
    expect(await once("watch:1:2027-01", "2027-01")).toMatchObject({ ok: true, charged: 2, remaining: 3 });
    const ids = await runInDurableObject(stub, (_o: unknown, state) =>
      state.storage.sql
        .exec<{ id: string }>(`SELECT id FROM once ORDER BY id`)
        .toArray()
        .map((r) => r.id),
    );
    expect(ids).toEqual(["watch:1:2027-01"]); // December's ids dropped with the new month
  });
});

describe("issue 29 §2 charges by id: refunds are idempotent, a cancel before the charge arrives refuses it", () => {
  const t0 = Date.UTC(2026, 2, 10, 12, 0, 0);
  const P = periodOf(t0);

  it("a refund by id gives back at most the charge, once however often it is asked; a cancel gives back the rest, once", async () => {
    const { stub, req } = freshLedger(100);
    expect(await stub.charge(req(t0, { id: "r.1", cost: 5 }))).toEqual({ ok: true, remaining: 95, charged: 5 });
    const part = { period: P, charges: [{ id: "r.1", upTo: 2 }] };
    expect(await stub.refund(part)).toEqual({ remaining: 97, charges: [{ id: "r.1", landed: true, refunded: 2 }] });
    expect(await stub.refund(part)).toEqual({ remaining: 97, charges: [{ id: "r.1", landed: true, refunded: 2 }] });
    // Concurrent repeats (a retry racing the first, late answer) give back once too.
    const both = await Promise.all([
      stub.refund({ period: P, charges: [{ id: "r.1", upTo: 4 }] }),
      stub.refund({ period: P, charges: [{ id: "r.1", upTo: 4 }] }),
    ]);
    expect(both.map((b) => b.charges[0].refunded)).toEqual([4, 4]);
    expect((await stub.peek(P, 100)).remaining).toBe(99);
    // More than the charge is never given back.
    expect(await stub.refund({ period: P, charges: [{ id: "r.1", upTo: 50 }] })).toMatchObject({ remaining: 100, charges: [{ refunded: 5 }] });
    expect(await stub.refund({ period: P, charges: [{ id: "r.1", cancel: true }] })).toMatchObject({
      remaining: 100,
      charges: [{ landed: true, refunded: 5 }],
    });
    // The same id charged again (a repeat of the request) charges nothing more: it was cancelled.
    expect(await stub.charge(req(t0 + 1, { id: "r.1", cost: 5 }))).toEqual({ ok: false, reason: "cancelled", remaining: 100 });
    expect((await stub.peek(P, 100)).remaining).toBe(100);
  });

  it("a charge id that arrives twice charges once", async () => {
    const { stub, req } = freshLedger(100);
    const [a, b] = await Promise.all([stub.charge(req(t0, { id: "dup", cost: 3 })), stub.charge(req(t0, { id: "dup", cost: 3 }))]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect((await stub.peek(P, 100)).remaining).toBe(97);
  });

  it("a cancel that arrives before its charge leaves a tombstone: the late charge is refused, charges nothing and takes no place in the burst window", async () => {
    const { stub, req } = freshLedger(100);
    expect(await stub.refund({ period: P, charges: [{ id: "late", cancel: true }] })).toEqual({
      remaining: 0,
      charges: [{ id: "late", landed: false, refunded: 0 }],
    });
    expect(await stub.charge(req(t0, { id: "late", cost: 7, burstLimit: 2 }))).toEqual({ ok: false, reason: "cancelled", remaining: 100 });
    expect((await stub.peek(P, 100)).remaining).toBe(100);
    // Burst ceiling of 2: both places are still free.
    expect(await stub.charge(req(t0 + 1, { id: "a", burstLimit: 2 }))).toMatchObject({ ok: true, remaining: 99 });
    expect(await stub.charge(req(t0 + 2, { id: "b", burstLimit: 2 }))).toMatchObject({ ok: true, remaining: 98 });
    expect(await stub.charge(req(t0 + 3, { id: "c", burstLimit: 2 }))).toMatchObject({ ok: false, reason: "burst" });
    // A handler's charge-once cancelled before it arrived: refused, and its once id is not taken (a retry charges).
    expect(await stub.refund({ period: P, charges: [{ id: "late-once", cancel: true }] })).toMatchObject({ charges: [{ landed: false }] });
    const once = (chargeId: string) => stub.chargeOnce({ id: "watch:9:2026-03", chargeId, cost: 2, period: P, allowance: 100 });
    expect(await once("late-once")).toEqual({ ok: false, reason: "cancelled", remaining: 98 });
    expect(await once("retry")).toEqual({ ok: true, charged: 2, repeated: false, remaining: 96 });
  });

  it("a cancelled charge that had arrived keeps its place in the burst window (it reached the ledger), and gives its credits back", async () => {
    const { stub, req } = freshLedger(100);
    expect(await stub.charge(req(t0, { id: "x", cost: 4, burstLimit: 2 }))).toMatchObject({ ok: true, remaining: 96 });
    expect(await stub.refund({ period: P, charges: [{ id: "x", cancel: true }] })).toMatchObject({ remaining: 100, charges: [{ landed: true, refunded: 4 }] });
    expect(await stub.charge(req(t0 + 1, { id: "y", burstLimit: 2 }))).toMatchObject({ ok: true, remaining: 99 });
    expect(await stub.charge(req(t0 + 2, { id: "z", burstLimit: 2 }))).toMatchObject({ ok: false, reason: "burst" });
  });

  it("charges by id are stored (a restarted object knows them) and dropped after CHARGE_MEMORY_MS", async () => {
    const { stub, req } = freshLedger(100);
    await stub.charge(req(t0, { id: "kept", cost: 2 }));
    await stub.refund({ period: P, charges: [{ id: "tomb", cancel: true }] });
    const after = await runInDurableObject(stub, async (_o: unknown, state) => {
      const restarted = new KeyLedger(state, env);
      return [await restarted.charge(req(t0 + 1, { id: "tomb" })), await restarted.refund({ period: P, charges: [{ id: "kept", upTo: 1 }] })];
    });
    expect(after).toEqual([
      { ok: false, reason: "cancelled", remaining: 98 },
      { remaining: 99, charges: [{ id: "kept", landed: true, refunded: 1 }] },
    ]);
    const ids = await runInDurableObject(stub, async (_o: unknown, state) => {
      state.storage.sql.exec(`UPDATE charges SET at = ?`, Date.now() - CHARGE_MEMORY_MS - 1);
      await new KeyLedger(state, env).charge(req(t0 + 2, { id: "fresh" }));
      return state.storage.sql
        .exec<{ id: string }>(`SELECT id FROM charges ORDER BY id`)
        .toArray()
        .map((r) => r.id);
    });
    expect(ids).toEqual(["fresh"]);
  });
});
