import type { Env } from "./env";
import type { IngestJob } from "./jobs/ingest/message";
import { buildApp } from "./platform/app";
import type { WatchJob } from "./services/watch/feed";

export { KeyLedger } from "./ledger/KeyLedger";

const app = buildApp();

/**
 * Background work (the cron and the queue consumers) is imported when it runs, never by a request: the bulk-file
 * readers, the ingest pipeline and the watch list's jobs stay out of the global scope every HTTP isolate starts with
 * (issue 30 §2; esbuild keeps a dynamically imported module's code in the bundle, evaluated on first import). What
 * runs is src/jobs/schedule.ts's; what it runs with is src/platform/jobPorts.ts's, the jobs' composition root.
 */
const jobs = async () => {
  const [schedule, ports] = await Promise.all([import("./jobs/schedule"), import("./platform/jobPorts")]);
  return { ...schedule, jobPortsFor: ports.jobPortsFor };
};

export default {
  fetch: app.fetch,

  /** Every five minutes: the watch list's tick. Daily: one ingest message per register, the Bank Rate series, the tender notices. */
  async scheduled(controller, env, ctx) {
    const { runScheduled, jobPortsFor } = await jobs();
    runScheduled(jobPortsFor(env), controller.cron, controller.scheduledTime, (p) => ctx.waitUntil(p));
  },

  /** Queue consumers: the register ingest, one source (or one chunk of a large file) per message; the watch list's reads and deliveries. */
  async queue(batch, env) {
    const { runQueue, jobPortsFor } = await jobs();
    await runQueue(jobPortsFor(env), batch);
  },
} satisfies ExportedHandler<Env, IngestJob | WatchJob>;
