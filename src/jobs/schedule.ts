/**
 * What the Cron Triggers and the queues run, once (issue 31, one wiring): src/index.ts hands each cron run and queue
 * batch here with the ports of src/platform/jobPorts.ts, and `npm run job` (src/cli/jobs.ts) runs the same daily
 * list (DAILY) with its own queue.
 *
 * - Every five minutes (TICK_CRON): the watch list's tick (the companies due for their daily read, the deliveries due).
 * - Daily (every other cron): one ingest message per register, the Bank Rate series, the tender notices.
 */
import { REGISTER_SOURCES, type RegisterSource } from "../services/registers/types";
import type { WatchJob } from "../services/watch/feed";
import { refreshBankRate } from "./bankRate";
import { handleIngestJob } from "./ingest/job";
import type { IngestJob } from "./ingest/message";
import type { IngestPorts, JobPorts } from "./ports";
import { refreshTenders } from "./tenders";
import { handleWatchJob } from "./watch/job";
import { TICK_CRON, watchTick } from "./watch/tick";

export { TICK_CRON };

/** Sends one ingest message per register named (the queue consumer reads each register's current edition). */
export async function startRegisterReads(ports: IngestPorts, sources: readonly RegisterSource[] = REGISTER_SOURCES): Promise<{ sent: RegisterSource[] }> {
  await ports.enqueue(sources.map((source) => ({ source })));
  return { sent: [...sources] };
}

/** The daily jobs, in the order they start; each says, when it fails, what the service keeps meanwhile. */
export const DAILY = [
  { name: "registers", run: (p: JobPorts, _now: Date) => startRegisterReads(p.ingest), keeps: "each register keeps its published edition" },
  { name: "bank-rate", run: (p: JobPorts, now: Date) => refreshBankRate(p.bankRate, now), keeps: "late-payment keeps the rates it holds" },
  // Open tenders (tender-match): the notices published or updated since the last complete read; a failure is read again next time.
  { name: "tenders", run: (p: JobPorts, now: Date) => refreshTenders(p.tenders, now), keeps: "tender-match keeps the notices it holds" },
] as const;

export type DailyJobName = (typeof DAILY)[number]["name"];

const messageOf = (e: unknown) => String((e as Error)?.message ?? e);

/** One cron run: its jobs are handed to `waitUntil`, each logging its outcome as one JSON line. */
export function runScheduled(ports: JobPorts, cron: string, scheduledTime: number, waitUntil: (p: Promise<unknown>) => void): void {
  if (cron === TICK_CRON) {
    waitUntil(
      watchTick(ports.watch).then(
        (r) => console.log(JSON.stringify({ watchTick: r })),
        (e) => console.error(JSON.stringify({ watchTick: "not run; the next tick finds what is due", error: messageOf(e) })),
      ),
    );
    return;
  }
  const now = new Date(scheduledTime);
  for (const job of DAILY)
    waitUntil(
      (job.run(ports, now) as Promise<unknown>).then(
        (r) => console.log(JSON.stringify({ [job.name]: r })),
        (e) => console.error(JSON.stringify({ [job.name]: `not read; ${job.keeps}`, error: messageOf(e) })),
      ),
    );
}

/** A queue batch's messages, each handled in turn: acked when done, retried after a delay when it threw. */
export async function runQueue(ports: JobPorts, batch: MessageBatch<IngestJob | WatchJob>): Promise<void> {
  if (batch.queue === "watch") await consume(batch as MessageBatch<WatchJob>, "watchJob", 60, (job) => handleWatchJob(ports.watch, job));
  else await consume(batch as MessageBatch<IngestJob>, "ingestJob", 600, (job) => handleIngestJob(ports.ingest, job));
}

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
