import type { Env } from "../env";
import type { Ledgers } from "../shared/ledger";

/**
 * The `Ledger` port's Durable Object version: each ledger name is a KeyLedger object of `env.LEDGER` (`idFromName`),
 * and each of the port's calls is one call to its stub. The gateway (charges and refunds), the account read (peek)
 * and the watch job (a watch's month, charged once) all reach their ledgers through this; tests give the gateway
 * `memoryLedgers()` (shared/ledgerBook.ts) instead, the same rules without a Durable Object.
 */
export function durableLedgers(env: Pick<Env, "LEDGER">): Ledgers {
  return {
    get(name) {
      const stub = env.LEDGER.get(env.LEDGER.idFromName(name));
      return {
        charge: (req) => stub.charge(req),
        chargeOnce: (req) => stub.chargeOnce(req),
        refund: (req) => stub.refund(req),
        peek: (period, allowance, startingBalance) => stub.peek(period, allowance, startingBalance),
      };
    },
  };
}
