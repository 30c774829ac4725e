import type { Env } from "./env";
import { refreshBankRate } from "./jobs/bankRate";
import { handleIngestJob } from "./jobs/ingest/job";
import type { IngestJob } from "./jobs/ingest/message";
import { buildApp } from "./platform/app";
import { REGISTER_SOURCES } from "./services/registers/types";

export { KeyLedger } from "./ledger/KeyLedger";

const app = buildApp();

export default {
  fetch: app.fetch,

  /** Daily cron: one ingest job per register source, and the Bank Rate series for late-payment interest. */
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(env.INGEST.sendBatch(REGISTER_SOURCES.map((source) => ({ body: { source } }))));
    ctx.waitUntil(
      refreshBankRate(env, new Date(controller.scheduledTime)).then(
        (r) => console.log(JSON.stringify({ bankRate: r })),
        (e) => console.error(JSON.stringify({ bankRate: "not read; late-payment keeps the rates it holds", error: String((e as Error)?.message ?? e) })),
      ),
    );
  },

  /** Queue consumer: one source (or one chunk of a large file) per message. */
  async queue(batch, env) {
    for (const msg of batch.messages) {
      try {
        await handleIngestJob(env, msg.body);
        msg.ack();
      } catch (e) {
        console.error(JSON.stringify({ ingestJob: msg.body, error: String(e) }));
        msg.retry({ delaySeconds: 600 });
      }
    }
  },
} satisfies ExportedHandler<Env, IngestJob>;
