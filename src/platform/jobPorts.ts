/**
 * The composition root of background work (issue 31, one wiring): every job's ports built from `env`, as
 * services.ts builds `ctx.services` for requests. The cron, the queue consumers (src/index.ts) and `npm run job`
 * (scripts/job-worker.ts) run with `jobPortsFor(env)`; the jobs themselves (src/jobs) never read `env`. The watch
 * list's ports reuse the request services: a watched company is read through the same clients and caches as the
 * operations read it (watchReader.ts), its webhooks are posted by the same safe poster.
 */
import type { Env } from "../env";
import type { BankRatePorts, IngestPorts, JobPorts, TendersPorts } from "../jobs/ports";
import { durableLedgers } from "../ledger/durableLedgers";
import type { WatchPorts } from "../services/watch/feed";
import type { Ledgers } from "../shared/ledger";
import { buildServices, webhookSecretsKey } from "./services";
import { readWatchedCompany } from "./watchReader";

/** `ledgers`: where the watches' months are charged (default: the KeyLedger Durable Objects of `env.LEDGER`). */
export function jobPortsFor(env: Env, ledgers: Ledgers = durableLedgers(env)): JobPorts {
  return { ingest: ingestPortsFor(env), bankRate: bankRatePortsFor(env), tenders: tendersPortsFor(env), watch: watchPortsFor(env, ledgers) };
}

/** The register reads: the two databases, the INGEST queue, and the upstreams' variables as configured. */
export const ingestPortsFor = (env: Env): IngestPorts => ({
  db: env.DB,
  companiesDb: env.COMPANIES_DB,
  upstreams: env,
  enqueue: async (jobs) => {
    if (jobs.length) await env.INGEST.sendBatch(jobs.map((body) => ({ body })));
  },
});

export const bankRatePortsFor = (env: Env): BankRatePorts => ({ db: env.DB, iadbUrl: env.BOE_IADB_URL });

export const tendersPortsFor = (env: Env): TendersPorts => ({
  db: env.DB,
  findATenderUrl: env.FIND_A_TENDER_URL,
  contractsFinderUrl: env.CONTRACTS_FINDER_URL,
});

/** The watch list: the database, the company reader, the ledger's charge-once, the watch queue, the webhook poster. */
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
