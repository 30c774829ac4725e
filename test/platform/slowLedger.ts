import type { LedgerPort } from "../../src/platform/gateway";
import type { Ledgers } from "../../src/shared/ledger";

/**
 * A slow ledger for tests (issue 29 §2): wraps the ledgers the gateway is given (CallMeta.ledgers: the KeyLedger Durable Objects, or memoryLedgers()) and makes
 * chosen calls late. `before`: the call waits, then reaches the Durable Object (it lands after the gateway gave up);
 * `after`: it runs at once and its answer waits (it landed, the answer comes late); `lost`: it never reaches the object
 * (a failed connection). Nothing else is faked: the real KeyLedger decides every charge and refund.
 */
export type Slowness = { mode: "fast" } | { mode: "before" | "after"; ms: number } | { mode: "lost" };

export type LedgerMethod = "charge" | "chargeOnce" | "refund";

export interface SlowLedger {
  /** For CallMeta.ledgers: `base` with its charges, charges-once and refunds slowed as `choose` says (peek as it is). */
  over: (base: Ledgers) => Ledgers;
  /** For CallMeta.waitUntil: the gateway's background work, kept to be awaited. */
  waitUntil: (p: Promise<unknown>) => void;
  /** Waits for every ledger call still on its way and every background task (including those they start). */
  drain: () => Promise<void>;
  /** What each ledger call was made to do and what the ledger answered (undefined when it failed or never reached it). */
  log: { method: LedgerMethod; mode: Slowness["mode"]; answer?: unknown }[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `choose` decides per call; `attempt` counts the calls made with the same arguments (a retry of a refund is attempt 1, 2, …). */
export function slowLedger(choose: (method: LedgerMethod, args: unknown[], attempt: number) => Slowness): SlowLedger {
  const inflight = new Set<Promise<unknown>>();
  const attempts = new Map<string, number>();
  const log: SlowLedger["log"] = [];
  const track = (p: Promise<unknown>) => {
    inflight.add(p);
    p.then(
      () => inflight.delete(p),
      () => inflight.delete(p),
    );
  };
  const wrapMethod =
    (real: LedgerPort, method: LedgerMethod) =>
    (...args: unknown[]): Promise<unknown> => {
      const key = `${method} ${JSON.stringify(args)}`;
      const attempt = attempts.get(key) ?? 0;
      attempts.set(key, attempt + 1);
      const how = choose(method, args, attempt);
      const entry: SlowLedger["log"][number] = { method, mode: how.mode };
      log.push(entry);
      const send = () => (real[method] as (...a: unknown[]) => Promise<unknown>)(...args);
      const p = (async () => {
        if (how.mode === "lost") throw new Error("network connection lost (test)");
        if (how.mode === "before") await sleep(how.ms);
        const answer = await send();
        entry.answer = answer;
        if (how.mode === "after") await sleep(how.ms);
        return answer;
      })();
      track(p);
      return p;
    };
  return {
    over: (base) => ({
      get(name) {
        const real = base.get(name);
        return {
          charge: wrapMethod(real, "charge"),
          chargeOnce: wrapMethod(real, "chargeOnce"),
          refund: wrapMethod(real, "refund"),
          peek: (...args) => real.peek(...args),
        } as ReturnType<Ledgers["get"]>;
      },
    }),
    waitUntil: (p) => track(p),
    drain: async () => {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
    log,
  };
}

/** A deterministic pseudo-random number in [0, 1) from a string (FNV-1a, then a mix): the same call is slowed the same way on every run. */
export function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 2 ** 32;
}

/** A charge id without its random part (`<requestId>.<random>.<n>` → `<requestId>.<n>`), to decide by. */
export const stableText = (args: unknown[]) => JSON.stringify(args).replace(/(req_[\w-]+)\.[\w-]+\.(\d+)/g, "$1.$2");
