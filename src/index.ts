import type { Env } from "./env";
import { buildApp } from "./platform/app";
import { handleIngestJob } from "./registers/ingest";
import type { IngestJob } from "./registers/jobs";
import { REGISTER_SOURCES } from "./services/registers/types";

export { KeyLedger } from "./ledger/KeyLedger";

const app = buildApp();

export default {
  fetch: app.fetch,

  /** Daily cron: one ingest job per register source. */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(env.INGEST.sendBatch(REGISTER_SOURCES.map((source) => ({ body: { source } }))));
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
