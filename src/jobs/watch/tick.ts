/**
 * The watch list's five-minute tick (a Cron Trigger): the companies due for their daily read, and the deliveries
 * due (first attempts whose wake-up message was lost, and retries), sent to the watch queue.
 *
 * Reads are spread over the day: each company has a minute of the day (db/watch.ts slotOf) and is read at the
 * first tick past it; a company never read yet (a new watch) is read at the next tick, and one whose read was
 * missed yesterday at once. At most MAX_READS_PER_TICK companies a tick (288 ticks a day: 17,280 a day at most).
 */
import { dueCompanies, dueDeliveries } from "../../db/watch";
import type { WatchJob, WatchPorts } from "../../services/watch/feed";
import { groupsOf } from "../../shared/concurrency";

export const TICK_CRON = "*/5 * * * *";
/**
 * A read costs about 5 Companies House requests (profile, officers, PSCs, insolvency, charges; `npm run bench`):
 * 60 companies a tick is about 300 requests, half the shared budget of 600 per 5 minutes, leaving the other half
 * to callers. That reads 17,280 companies a day; beyond it, the companies read longest ago go first the next day.
 */
export const MAX_READS_PER_TICK = 60;
/** Companies per queue message. */
export const READS_PER_MESSAGE = 5;
export const MAX_DELIVERIES_PER_TICK = 1_000;
export const DELIVERIES_PER_MESSAGE = 25;

export async function watchTick(ports: WatchPorts): Promise<{ reads: number; deliveries: number }> {
  const now = new Date(ports.now());
  const day = now.toISOString().slice(0, 10);
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
  const companies = await dueCompanies(ports.db, day, yesterday, minute, MAX_READS_PER_TICK);
  const ids = await dueDeliveries(ports.db, now.getTime(), MAX_DELIVERIES_PER_TICK);
  const jobs: WatchJob[] = [
    ...groupsOf(companies, READS_PER_MESSAGE).map((c): WatchJob => ({ kind: "read", companies: c })),
    ...groupsOf(ids, DELIVERIES_PER_MESSAGE).map((c): WatchJob => ({ kind: "deliver", ids: c })),
  ];
  for (const batch of groupsOf(jobs, 100)) await ports.send(batch);
  return { reads: companies.length, deliveries: ids.length };
}
