/** The watch queue's consumer: a message reads companies, or delivers events. */
import type { WatchJob, WatchPorts } from "../../services/watch/feed";
import { groupsOf } from "../../shared/concurrency";
import { deliverEvents } from "./deliver";
import { readWatchedCompany } from "./read";
import { DELIVERIES_PER_MESSAGE } from "./tick";

export async function handleWatchJob(ports: WatchPorts, job: WatchJob): Promise<void> {
  if (job.kind === "deliver") {
    await deliverEvents(ports, job.ids);
    return;
  }
  const pending: number[] = [];
  for (const company of job.companies) pending.push(...(await readWatchedCompany(ports, company)).pending);
  // Wake the deliveries now; a lost message is found by the next sweep (the events are recorded as pending).
  if (pending.length)
    await ports
      .send(groupsOf(pending, DELIVERIES_PER_MESSAGE).map((ids) => ({ kind: "deliver", ids })))
      .catch((e) => console.error(JSON.stringify({ watchWake: String(e) })));
}
