/**
 * The watch list's background work (src/jobs/watch) gets its ports from here: the database, the reader of a
 * company (every source, through the same services as the operations), the ledger's charge-once, the watch
 * queue, the safe webhook poster and the key webhook secrets are sealed with. src/index.ts hands them over.
 */
import type { Env } from "../env";
import type { WatchPorts } from "../services/watch/feed";
import { buildServices, webhookSecretsKey } from "./services";
import { readWatchedCompany } from "./watchReader";

export function watchPortsFor(env: Env): WatchPorts {
  const services = buildServices(env);
  return {
    db: env.DB,
    read: (company, now) => readWatchedCompany(services, company, now),
    chargeOnce: (ledger, req) => env.LEDGER.get(env.LEDGER.idFromName(ledger)).chargeOnce(req) as ReturnType<WatchPorts["chargeOnce"]>,
    send: async (jobs, delaySeconds) => {
      if (jobs.length) await env.WATCH.sendBatch(jobs.map((body) => ({ body, delaySeconds })));
    },
    post: (url, body, headers) => services.webhooks.post(url, body, headers),
    secretsKey: webhookSecretsKey(env),
    now: () => Date.now(),
  };
}
