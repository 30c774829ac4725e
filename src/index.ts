import type { Env } from "./env";
import type { IngestJob } from "./jobs/ingest/message";
import { buildApp } from "./platform/app";
import type { WatchJob } from "./services/watch/feed";

export { KeyLedger } from "./ledger/KeyLedger";

const app = buildApp();

/**
 * Background work (the cron and the queue consumers) is imported when it runs, never by a request: the bulk-file
 * readers, the ingest pipeline and the watch list's jobs stay out of the global scope every HTTP isolate starts with
 * (issue 30 §2; esbuild keeps a dynamically imported module's code in the bundle, evaluated on first import).
 */
const jobs = async () => {
  const [bankRate, tenders, ingest, watchJob, tick, watchDeps, registers] = await Promise.all([
    import("./jobs/bankRate"),
    import("./jobs/tenders"),
    import("./jobs/ingest/job"),
    import("./jobs/watch/job"),
    import("./jobs/watch/tick"),
    import("./platform/watchDeps"),
    import("./services/registers/types"),
  ]);
  return {
    refreshBankRate: bankRate.refreshBankRate,
    refreshTenders: tenders.refreshTenders,
    handleIngestJob: ingest.handleIngestJob,
    handleWatchJob: watchJob.handleWatchJob,
    TICK_CRON: tick.TICK_CRON,
    watchTick: tick.watchTick,
    watchPortsFor: watchDeps.watchPortsFor,
    REGISTER_SOURCES: registers.REGISTER_SOURCES,
  };
};

/** Each message handled in turn: acked when done, retried after `retrySeconds` when it threw. */
async function consume<T>(batch: MessageBatch<T>, what: string, retrySeconds: number, handle: (body: T) => Promise<unknown>): Promise<void> {
  for (const msg of batch.messages) {
    try {
      await handle(msg.body);
      msg.ack();
    } catch (e) {
      console.error(JSON.stringify({ [what]: msg.body, error: String(e) }));
      msg.retry({ delaySeconds: retrySeconds });
    }
  }
}

export default {
  fetch: app.fetch,

  /**
   * Every five minutes: the watch list's tick (companies due for their daily read, deliveries due).
   * Daily: one ingest job per register source, and the Bank Rate series for late-payment interest.
   */
  async scheduled(controller, env, ctx) {
    const { REGISTER_SOURCES, TICK_CRON, refreshBankRate, refreshTenders, watchPortsFor, watchTick } = await jobs();
    if (controller.cron === TICK_CRON) {
      ctx.waitUntil(watchTick(watchPortsFor(env)).then((r) => console.log(JSON.stringify({ watchTick: r }))));
      return;
    }
    ctx.waitUntil(env.INGEST.sendBatch(REGISTER_SOURCES.map((source) => ({ body: { source } }))));
    ctx.waitUntil(
      refreshBankRate(env, new Date(controller.scheduledTime)).then(
        (r) => console.log(JSON.stringify({ bankRate: r })),
        (e) => console.error(JSON.stringify({ bankRate: "not read; late-payment keeps the rates it holds", error: String((e as Error)?.message ?? e) })),
      ),
    );
    // Open tenders (tender-match): the notices published or updated since the last complete read; a failure is read again next time.
    ctx.waitUntil(
      refreshTenders(env, new Date(controller.scheduledTime)).then(
        (r) => console.log(JSON.stringify({ tenders: r })),
        (e) => console.error(JSON.stringify({ tenders: "not read; tender-match keeps the notices it holds", error: String((e as Error)?.message ?? e) })),
      ),
    );
  },

  /** Queue consumers: the register ingest, one source (or one chunk of a large file) per message; the watch list's reads and deliveries. */
  async queue(batch, env) {
    const { handleIngestJob, handleWatchJob, watchPortsFor } = await jobs();
    if (batch.queue === "watch") {
      const ports = watchPortsFor(env);
      await consume(batch as MessageBatch<WatchJob>, "watchJob", 60, (job) => handleWatchJob(ports, job));
    } else await consume(batch as MessageBatch<IngestJob>, "ingestJob", 600, (job) => handleIngestJob(env, job));
  },
} satisfies ExportedHandler<Env, IngestJob | WatchJob>;
