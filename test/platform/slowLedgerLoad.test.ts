import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { enrichBatch } from "../../src/operations/enrichment/enrichBatch";
import { calculateLatePayment } from "../../src/operations/money/calculateLatePayment";
import { ApiError } from "../../src/platform/errors";
import { durableLedgers } from "../../src/ledger/durableLedgers";
import { type Outcome, execute } from "../../src/platform/gateway";
import type { PlanId } from "../../src/platform/plans";
import type { AnyOperation } from "../../src/platform/registry";
import { balanceOf, createTestKey, ledgerOf } from "../helpers";
import { loadEnrichRegister } from "../operations/enrichment/register";
import { type Slowness, slowLedger, stableText, unitHash } from "./slowLedger";
import { testOperation } from "../support/testOperation";

/**
 * Issue 29 §2: billing stays exact when the ledger is slow. Hundreds of concurrent calls through the gateway, on one key
 * with a known balance, with the real KeyLedger behind a wrapper that makes about a third of the ledger calls (charges,
 * handler charges, refunds, cancels) late by longer than the gateway's time limit (100 ms here: delays of 150–300 ms
 * before the call reaches the object, or after it answered) or lost on the way. Once every late call has landed and
 * the gateway's background work is done:
 * - the balance dropped by exactly the sum of the credits the replies say they used: for a success, what it was charged
 *   less `x-credits-refunded` and `x-credits-refund-pending` (a batch's body says the same in `creditsUsed`); for an error, 0;
 * - reply by reply, what the ledger kept under the reply's charge ids is what the reply says it used (so no reply says
 *   nothing was charged when something was);
 * - no `x-credits-remaining` is negative or above the starting balance.
 */

const T = 100;
const START = 150;

const testOp = (operationId: string, price: number, handler: (input: unknown, ctx: Parameters<AnyOperation["handler"]>[1]) => Promise<{ ok: boolean }>) =>
  testOperation(operationId, price, handler as AnyOperation["handler"]);

/** The call's price, then 2 more charged from the handler (ctx.charge). */
const handlerCharges = testOp("handlerCharges", 1, async (_i, ctx) => {
  const r = await ctx.charge(2);
  return { ok: r.charged === 2 };
});
/** Charged, then fails: everything comes back. */
const failing = testOp("failing", 2, async () => {
  throw new ApiError("upstream_unavailable", "The register could not be read.");
});

interface Call {
  op: AnyOperation;
  input: unknown;
  /** Charged on success (before refunds), from the reply. */
  price: (o: Outcome) => number;
}
const LATE: Call = { op: calculateLatePayment as unknown as AnyOperation, input: { amount: "100", due: "2026-01-15", paid: "2026-02-05" }, price: () => 1 };
const BATCH: Call = {
  op: enrichBatch as unknown as AnyOperation,
  // One found, one miss (given back): charged 4, refunded 2.
  input: { items: ["bayside.test", "Northgate Bakery"] },
  price: (o) => (o.body as { creditsCharged: number }).creditsCharged,
};
const HANDLER: Call = { op: handlerCharges, input: {}, price: () => 3 };
const FAILING: Call = { op: failing, input: {}, price: () => 2 };

/** About a third of the ledger calls late or lost, decided by the call itself (not by timing), on its first three attempts. */
const choose = (method: string, args: unknown[], attempt: number): Slowness => {
  if (attempt >= 3) return { mode: "fast" };
  const u = unitHash(`${method} ${stableText(args)} #${attempt}`);
  const ms = 150 + Math.floor(unitHash(`ms ${stableText(args)} #${attempt}`) * 150);
  if (u < 0.14) return { mode: "before", ms };
  if (u < 0.28) return { mode: "after", ms };
  if (u < 0.33) return { mode: "lost" };
  return { mode: "fast" };
};

async function runLoad(calls: Call[], plan: PlanId) {
  const { key, keyId, accountId } = await createTestKey({ plan, credits: START });
  const slow = slowLedger(choose);
  const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
  const replies = await Promise.all(
    calls.map(async (c, i) => {
      const requestId = `req_load${i}`;
      const o = await execute(env, c.op, c.input, {
        requestId,
        headers: new Headers(),
        ip: "192.0.2.1",
        apiKey: key,
        waitUntil: slow.waitUntil,
        ledgers: slow.over(durableLedgers(env)),
        ledgerTimeoutMs: T,
      });
      return { c, o, requestId };
    }),
  );
  await slow.drain();
  quiet.mockRestore();
  const rows = await runInDurableObject(ledgerOf(`acct:${accountId}`), (_o: unknown, state) => ({
    charges: state.storage.sql
      .exec<{ id: string; cost: number; refunded: number; landed: number; cancelled: number }>(`SELECT id, cost, refunded, landed, cancelled FROM charges`)
      .toArray(),
    admitted: (state.storage.sql.exec<{ n: number | null }>(`SELECT MAX(seq) + 1 AS n FROM burst WHERE key_id = ?`, keyId).toArray()[0]?.n ?? 0) as number,
  }));
  const after = await balanceOf(keyId, { plan, credits: START });
  return { replies, rows, after, slow };
}

const header = (o: Outcome, name: string) => Number(o.headers[name] ?? 0);

/** What a reply says it used: a success its charge less what it says was (or is being) given back; an error nothing. */
function usedBy(c: Call, o: Outcome): number {
  if (o.status >= 400) return 0;
  return c.price(o) - header(o, "x-credits-refunded") - header(o, "x-credits-refund-pending");
}

function checkReplies(replies: { c: Call; o: Outcome; requestId: string }[], charges: { id: string; cost: number; refunded: number; landed: number }[]) {
  for (const { c, o, requestId } of replies) {
    const body = o.body as Record<string, unknown>;
    // Given back is either confirmed or pending, never both.
    expect(o.headers["x-credits-refunded"] !== undefined && o.headers["x-credits-refund-pending"] !== undefined).toBe(false);
    if (c === BATCH && o.status === 200) {
      // The body and the headers agree: what the body says was refunded is in one header or the other.
      expect(body.creditsRefunded).toBe(header(o, "x-credits-refunded") + header(o, "x-credits-refund-pending"));
      expect(body.creditsUsed).toBe(usedBy(c, o));
    }
    if (o.status >= 400) {
      expect(["ledger_unavailable", "upstream_unavailable", "quota_exhausted", "rate_limited"]).toContain(body.code);
      if (o.headers["x-credits-refund-pending"]) expect(body.message).not.toMatch(/nothing was charged/);
    }
    const remaining = o.headers["x-credits-remaining"];
    if (remaining !== undefined) {
      expect(Number(remaining)).toBeGreaterThanOrEqual(0);
      expect(Number(remaining)).toBeLessThanOrEqual(START);
    }
    // What the ledger kept under this reply's charge ids is what the reply says it used.
    const kept = charges.filter((r) => r.id.startsWith(`${requestId}.`) && r.landed).reduce((s, r) => s + r.cost - r.refunded, 0);
    expect({ requestId, status: o.status, code: body.code, message: body.message, kept }).toEqual({
      requestId,
      status: o.status,
      code: body.code,
      message: body.message,
      kept: usedBy(c, o),
    });
  }
}

beforeAll(loadEnrichRegister);

describe("issue 29 §2 billing stays exact when the ledger is slow", () => {
  it("240 concurrent calls (late-payment, batch, a handler's own charge, a call that fails) with a third of the ledger calls late or lost: the balance drop is exactly Σ creditsUsed of the replies", async () => {
    const calls = Array.from({ length: 240 }, (_, i) => [LATE, BATCH, HANDLER, FAILING][i % 4]);
    const { replies, rows, after, slow } = await runLoad(calls, "enterprise");
    const used = replies.reduce((s, r) => s + usedBy(r.c, r.o), 0);
    expect(START - after).toBe(used);
    checkReplies(replies, rows.charges);

    // The test did exercise what it is about.
    const said = (re: RegExp) => replies.filter((r) => re.test(String((r.o.body as { message?: string }).message))).length;
    const counts = {
      ok: replies.filter((r) => r.o.status === 200).length,
      batchOk: replies.filter((r) => r.c === BATCH && r.o.status === 200).length,
      pending: replies.filter((r) => r.o.headers["x-credits-refund-pending"]).length,
      nothingCharged: said(/nothing was charged/),
      takenAndGivenBack: said(/answered too late/),
      notYetKnown: said(/not yet known/),
      lateChargesRefused: slow.log.filter((l) => (l.answer as { reason?: string } | undefined)?.reason === "cancelled").length,
      quota: replies.filter((r) => (r.o.body as { code?: string }).code === "quota_exhausted").length,
    };
    console.error(JSON.stringify({ ...counts, used, after, ledgerCalls: slow.log.length }));
    for (const [k, n] of Object.entries(counts)) expect(n, k).toBeGreaterThan(0);
  }, 120_000);

  it("the burst ceiling under a slow ledger: a call counts once the ledger admitted it (a cancelled charge that had landed keeps its place), a charge refused by its tombstone takes none", async () => {
    const calls = Array.from({ length: 100 }, () => LATE);
    const { replies, rows, after } = await runLoad(calls, "growth");
    const used = replies.reduce((s, r) => s + usedBy(r.c, r.o), 0);
    expect(START - after).toBe(used);
    checkReplies(replies, rows.charges);
    const ok = replies.filter((r) => r.o.status === 200).length;
    const landedCancelled = rows.charges.filter((r) => r.landed && r.cancelled).length;
    const landed = rows.charges.filter((r) => r.landed).length;
    // Every admitted call is a landed charge (each costs 1), and the other way round: tombstoned charges took no place.
    expect(rows.admitted).toBe(landed);
    expect(rows.admitted).toBe(ok + landedCancelled);
    expect(rows.admitted).toBeLessThanOrEqual(60);
    const codes = new Set(replies.filter((r) => r.o.status !== 200).map((r) => (r.o.body as { code?: string }).code));
    expect([...codes].every((c) => c === "rate_limited" || c === "ledger_unavailable")).toBe(true);
    expect(codes.has("rate_limited")).toBe(true);
  }, 120_000);
});
