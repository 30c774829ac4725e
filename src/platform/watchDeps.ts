/**
 * The watch list's background work (src/jobs/watch) gets its ports from here: the database, the reader of a
 * company (every source, through the same services as the operations), the ledger's charge-once, the watch
 * queue, the safe webhook poster and the key webhook secrets are sealed with. src/index.ts hands them over.
 */
import type { Env } from "../env";
import { durableLedgers } from "../ledger/durableLedgers";
import type { WatchPorts } from "../services/watch/feed";
import type { Ledgers } from "../shared/ledger";
import { buildServices, webhookSecretsKey } from "./services";
import { readWatchedCompany } from "./watchReader";

/** `ledgers`: where the watches' months are charged (default: the KeyLedger Durable Objects of `env.LEDGER`). */
export function watchPortsFor(env: Env, ledgers: Ledgers = durableLedgers(env)): WatchPorts {
  const services = buildServices(env);
  return {
    db: env.DB,
    read: (company, now) => readWatchedCompany(services, company, now),
    chargeOnce: async (ledger, req) => {
      const r = await ledgers.get(ledger).chargeOnce(req);
      // Only a charge sent with its own charge id can be refused as cancelled, and the watch job sends none.
      if (!r.ok && r.reason === "cancelled") throw new Error(`ledger ${ledger}: the charge-once ${req.id} was refused as cancelled`);
      return r;
    },
    send: async (jobs, delaySeconds) => {
      if (jobs.length) await env.WATCH.sendBatch(jobs.map((body) => ({ body, delaySeconds })));
    },
    post: (url, body, headers) => services.webhooks.post(url, body, headers),
    secretsKey: webhookSecretsKey(env),
    now: () => Date.now(),
  };
}
