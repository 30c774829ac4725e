import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";

/*
 * The Durable Object's own side of the ledger: concurrency through its input gates, its SQLite storage across a
 * restart, a failed write, and the ledger as the gateway and HTTP meet it. The rules themselves (balances, months,
 * the burst ceiling, charges by id, charging once) are tested once, on the in-memory ledger
 * (test/shared/ledgerBook.test.ts); test/platform/ledgerParity.test.ts shows the Durable Object answers and stores
 * the same as it, step for step.
 */
import { KeyLedger } from "../../src/ledger/KeyLedger";
import { CHARGE_MEMORY_MS } from "../../src/shared/ledgerBook";
import { execute } from "../../src/platform/gateway";
import { BURST_WINDOW_MS, PLANS, periodOf } from "../../src/platform/plans";
import { calculateLatePayment as latePayment } from "../../src/operations/money/calculateLatePayment";
import type { AnyOperation } from "../../src/platform/registry";
import { balanceOf, call, createTestKey, json, ledgerOf } from "../helpers";
import { chargeRequestFor } from "../support/chargeRequest";

const LATE = "/api/v1/late-payment?amount=100&due=2026-01-15&paid=2026-02-05";

/** A fresh ledger and a charge request against it, as the gateway would send. */
function freshLedger(allowance: number) {
  const name = `test:${crypto.randomUUID()}`;
  const stub = ledgerOf(name);
  return { stub, req: chargeRequestFor(allowance) };
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

describe("issue 29 §2 charges by id: refunds are idempotent, a cancel before the charge arrives refuses it", () => {
  const t0 = Date.UTC(2026, 2, 10, 12, 0, 0);
  const P = periodOf(t0);

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
