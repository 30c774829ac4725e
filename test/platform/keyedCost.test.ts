import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { buildApp } from "../../src/platform/app";
import { BANK_RATE_CACHE_MS, storeBankRate, storedBankRateCached } from "../../src/db/bankRate";
import { KEY_CACHE_MS } from "../../src/platform/keyCache";
import { createTestKey } from "../helpers";
import { testOperation } from "../support/testOperation";

/**
 * Issue 30 §3: a keyed, charged call costs one Durable Object round trip (the charge) and nothing else. The bindings
 * are wrapped and every round trip counted: D1 (each statement run on its own, each batch, each exec) on both
 * databases, and every call to a Durable Object stub.
 */
interface Counts {
  d1: string[];
  ledger: string[];
}

/** A D1 database that records each round trip it makes (the SQL, or `batch(n)`). */
function countingD1(real: D1Database, log: string[]): D1Database {
  const real_ = new WeakMap<object, D1PreparedStatement>();
  const wrapStmt = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...args: unknown[]) => wrapStmt(target.bind(...args), sql);
        if (prop === "first" || prop === "all" || prop === "run" || prop === "raw")
          return (...args: unknown[]) => {
            log.push(sql);
            return (target[prop] as (...a: unknown[]) => unknown)(...args);
          };
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    real_.set(proxy, stmt);
    return proxy;
  };
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrapStmt(target.prepare(sql), sql);
      if (prop === "batch")
        return (stmts: D1PreparedStatement[]) => {
          log.push(`batch(${stmts.length})`);
          return target.batch(stmts.map((s) => real_.get(s) ?? s));
        };
      if (prop === "exec")
        return (sql: string) => {
          log.push(sql);
          return target.exec(sql);
        };
      // Reads through a session (D1's Sessions API, db/sessions.ts) are counted the same way.
      if (prop === "withSession") return (...args: unknown[]) => countingD1((target.withSession as unknown as (...a: unknown[]) => D1Database)(...args), log);
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** A Durable Object namespace whose stubs record each method called on them (`<name>.<method>`). */
function countingNamespace(real: DurableObjectNamespace, log: string[]): DurableObjectNamespace {
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "get")
        return (id: DurableObjectId) => {
          const stub = target.get(id);
          return new Proxy(stub, {
            get(s, p) {
              if (typeof p !== "string" || !["charge", "chargeOnce", "refund", "peek"].includes(p)) return Reflect.get(s, p);
              return (...args: unknown[]) => {
                log.push(p);
                return (s as unknown as Record<string, (...a: unknown[]) => unknown>)[p](...args);
              };
            },
          });
        };
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

function countingEnv(): { env: Env; counts: Counts; reset(): void } {
  const counts: Counts = { d1: [], ledger: [] };
  const wrapped = {
    ...env,
    DB: countingD1(env.DB, counts.d1),
    COMPANIES_DB: countingD1(env.COMPANIES_DB, counts.d1),
    LEDGER: countingNamespace(env.LEDGER as unknown as DurableObjectNamespace, counts.ledger),
  } as unknown as Env;
  return {
    env: wrapped,
    counts,
    reset() {
      counts.d1.length = 0;
      counts.ledger.length = 0;
    },
  };
}

/** One HTTP call through the whole app (middleware, routing, gateway), its background work awaited. */
async function fetchApp(
  app: ReturnType<typeof buildApp>,
  e: Env,
  path: string,
  key: string,
): Promise<{ status: number; headers: Headers; body: Record<string, any> }> {
  const background: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => background.push(p), passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  const r = await app.fetch(new Request(`http://api.test${path}`, { headers: { "x-api-key": key } }), e, ctx);
  const body = (await r.json()) as Record<string, any>;
  await Promise.all(background);
  return { status: r.status, headers: r.headers, body };
}

/** Free, keyed, does nothing: what remains is the gateway's own cost. */
const noop = testOperation("keyedCostNoop", 1, async () => ({ ok: true }));

describe("issue 30 §3 a keyed call costs one Durable Object round trip", () => {
  it("a charged call with a key seen within the key cache's lifetime: one ledger call (the charge), no D1 statement", async () => {
    const { key } = await createTestKey();
    const { env: e, counts, reset } = countingEnv();
    const app = buildApp([noop]);
    // The first call of a key in an isolate reads the key row once (one statement: key, account and organisation joined).
    expect((await fetchApp(app, e, noop.path, key)).status).toBe(200);
    expect(counts).toEqual({ d1: [expect.stringMatching(/from "api_keys" inner join "accounts".* left join "orgs"/)], ledger: ["charge"] });
    reset();
    for (let i = 0; i < 5; i++) {
      const r = await fetchApp(app, e, noop.path, key);
      expect(r.status).toBe(200);
      expect(r.headers.get("x-credits-remaining")).toBe(String(100 - 2 - i));
    }
    expect(counts).toEqual({ d1: [], ledger: ["charge", "charge", "charge", "charge", "charge"] });
  });

  it("late-payment (the bench's keyed call): one ledger call; the Bank Rate table is read once per isolate and lifetime, not per call", async () => {
    const { key } = await createTestKey();
    const { env: e, counts, reset } = countingEnv();
    const app = buildApp();
    const path = "/api/v1/late-payment?amount=2400&due=2026-01-15&paid=2026-02-05";
    const first = await fetchApp(app, e, path, key);
    expect(first.status).toBe(200);
    expect((await fetchApp(app, e, path, key)).body.interest).toBeGreaterThan(0);
    reset();
    for (let i = 0; i < 5; i++) expect((await fetchApp(app, e, path, key)).status).toBe(200);
    expect(counts).toEqual({ d1: [], ledger: ["charge", "charge", "charge", "charge", "charge"] });
  });

  it("an error after the charge adds exactly one more ledger call (the refund), still no D1 statement", async () => {
    const { key } = await createTestKey();
    const failing = testOperation("keyedCostFailing", 1, async () => {
      throw new Error("boom");
    });
    const { env: e, counts, reset } = countingEnv();
    const app = buildApp([failing]);
    await fetchApp(app, e, failing.path, key);
    reset();
    const r = await fetchApp(app, e, failing.path, key);
    expect(r.status).toBe(500);
    expect(r.headers.get("x-credits-refunded")).toBe("1");
    expect(counts).toEqual({ d1: [], ledger: ["charge", "refund"] });
  });
});

describe("issue 30 §3 the key cache's lifetime is short and safe", () => {
  it("a key disabled in the database stops within KEY_CACHE_MS; a new key works at once; an unknown key is never cached", async () => {
    const { key, keyId } = await createTestKey();
    const { env: e, counts, reset } = countingEnv();
    const { execute } = await import("../../src/platform/gateway");
    const meta = (apiKey: string, now: number) => ({ requestId: "req_test", headers: new Headers(), ip: "192.0.2.1", apiKey, waitUntil: () => {}, now });
    const t0 = Date.now();
    expect((await execute(e, noop, {}, meta(key, t0))).status).toBe(200);
    await env.DB.prepare(`UPDATE api_keys SET active = 0 WHERE id = ?`).bind(keyId).run();
    // Within the lifetime the cached row answers (no D1 read); past it the key is read again and refused.
    expect((await execute(e, noop, {}, meta(key, t0 + KEY_CACHE_MS - 1))).status).toBe(200);
    const later = await execute(e, noop, {}, meta(key, t0 + KEY_CACHE_MS));
    expect({ status: later.status, code: (later.body as { code: string }).code }).toEqual({ status: 401, code: "inactive_key" });
    expect(KEY_CACHE_MS).toBeLessThanOrEqual(10_000);
    // An unknown key is read every time (a key issued a moment ago must work at once).
    reset();
    for (let i = 0; i < 2; i++) expect((await execute(e, noop, {}, meta("ukbi_unknown-key-for-the-cache", t0))).status).toBe(401);
    expect(counts.d1).toHaveLength(2);
  });
});

describe("issue 30 §3 a busy key is read once", () => {
  it("calls with the same key arriving together share one read of its row; each is charged once", async () => {
    const { key } = await createTestKey({ plan: "starter" });
    const { env: e, counts } = countingEnv();
    const app = buildApp([noop]);
    const replies = await Promise.all(Array.from({ length: 20 }, () => fetchApp(app, e, noop.path, key)));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(counts.d1).toHaveLength(1);
    expect(counts.ledger).toEqual(Array(20).fill("charge"));
    expect(replies.map((r) => Number(r.headers.get("x-credits-remaining"))).sort((a, b) => b - a)).toEqual(Array.from({ length: 20 }, (_, i) => 2000 - 1 - i));
  });

  it("a key revoked through the API stops at once in this isolate, even while its row was being read", async () => {
    const { key, keyId } = await createTestKey();
    const { env: e } = countingEnv();
    const { execute } = await import("../../src/platform/gateway");
    const { forgetKey } = await import("../../src/platform/keyCache");
    const meta = { requestId: "req_test", headers: new Headers(), ip: "192.0.2.1", apiKey: key, waitUntil: () => {} };
    const inFlight = execute(e, noop, {}, meta); // its key read is under way
    await env.DB.prepare(`UPDATE api_keys SET active = 0 WHERE id = ?`).bind(keyId).run();
    forgetKey(keyId);
    await inFlight;
    const after = await execute(e, noop, {}, meta);
    expect({ status: after.status, code: (after.body as { code: string }).code }).toEqual({ status: 401, code: "inactive_key" });
  });
});

describe("issue 30 §3 the Bank Rate table kept per isolate", () => {
  it("read once within BANK_RATE_CACHE_MS (concurrent reads share it); a change made elsewhere is seen after it; a store here drops it at once", async () => {
    const log: string[] = [];
    const db = countingD1(env.DB, log);
    await env.DB.batch([env.DB.prepare("DELETE FROM bank_rate_changes"), env.DB.prepare("DELETE FROM bank_rate_meta")]);
    const t0 = Date.now() + 10 * BANK_RATE_CACHE_MS; // past anything an earlier test kept
    const [a, b] = await Promise.all([storedBankRateCached(db, t0), storedBankRateCached(db, t0 + 1)]);
    expect([a, b, log]).toEqual([null, null, ["batch(2)"]]);
    // Another isolate's daily read (here: written straight to D1) is seen once the lifetime has passed.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO bank_rate_changes (date, rate) VALUES ('2026-11-06', 3.5)"),
      env.DB.prepare("INSERT INTO bank_rate_meta (id, known_through, fetched_at, source) VALUES (1, '2026-11-22', '2026-11-23', 'test')"),
    ]);
    expect(await storedBankRateCached(db, t0 + BANK_RATE_CACHE_MS - 1)).toBeNull();
    expect((await storedBankRateCached(db, t0 + BANK_RATE_CACHE_MS))?.knownThrough).toBe("2026-11-22");
    expect(log).toHaveLength(2);
    // A store in this isolate: the next call reads the new table at once.
    await storeBankRate(env.DB, [["2026-11-06", 3.5]], "2026-11-25");
    expect((await storedBankRateCached(db, t0 + BANK_RATE_CACHE_MS + 1))?.knownThrough).toBe("2026-11-25");
    expect(log).toHaveLength(3);
  });
});
