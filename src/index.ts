import type { Env } from "./env";
import { refreshBankRate } from "./jobs/bankRate";
import { handleIngestJob } from "./jobs/ingest/job";
import type { IngestJob } from "./jobs/ingest/message";
import { handleWatchJob } from "./jobs/watch/job";
import { TICK_CRON, watchTick } from "./jobs/watch/tick";
import { buildApp } from "./platform/app";
import { watchPortsFor } from "./platform/watchDeps";
import type { WatchJob } from "./services/watch/feed";
import { REGISTER_SOURCES } from "./services/registers/types";

export { KeyLedger } from "./ledger/KeyLedger";

const app = buildApp();

export default {
  fetch: app.fetch,

  /**
   * Every five minutes: the watch list's tick (companies due for their daily read, deliveries due).
   * Daily: one ingest job per register source, and the Bank Rate series for late-payment interest.
   */
  async scheduled(controller, env, ctx) {
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
  },

  /** Queue consumers: the register ingest, one source (or one chunk of a large file) per message; the watch list's reads and deliveries. */
  async queue(batch, env) {
    if (batch.queue === "watch") {
      const ports = watchPortsFor(env);
      for (const msg of (batch as MessageBatch<WatchJob>).messages) {
        try {
          await handleWatchJob(ports, msg.body);
          msg.ack();
        } catch (e) {
          console.error(JSON.stringify({ watchJob: msg.body, error: String(e) }));
          msg.retry({ delaySeconds: 60 });
        }
      }
      return;
    }
    for (const msg of (batch as MessageBatch<IngestJob>).messages) {
      try {
        await handleIngestJob(env, msg.body);
        msg.ack();
      } catch (e) {
        console.error(JSON.stringify({ ingestJob: msg.body, error: String(e) }));
        msg.retry({ delaySeconds: 600 });
      }
    }
  },
} satisfies ExportedHandler<Env, IngestJob | WatchJob>;
