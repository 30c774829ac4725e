/**
 * Webhook deliveries (issue 15 §3; SPEC §6.2). An event to deliver is recorded as pending with its first attempt
 * due (db/watch.ts recordRead, the outbox). Each attempt:
 *
 * 1. leases the event for LEASE_MS (claimDelivery: only one attempt in flight, even with duplicate messages);
 * 2. posts the Event, signed (services/watch/signing.ts), through the safe fetcher's address rules, checked again at
 *    this attempt, redirects not followed, 15 s for the reply;
 * 3. records the outcome (services/watch/delivery.ts outcomeOf): delivered (deliveredToWebhook true), a retry at its
 *    time, failed after the fifth retry, or the webhook disabled on 410.
 *
 * A Worker that dies between 2 and 3 leaves the lease to expire: the sweep posts again with the same `webhook-id`
 * (at-least-once; receivers drop repeats by it). Every event stays in the pull feed whatever happens.
 */
import { claimDelivery, disableWebhook, recordAttempt, webhookOf } from "../../db/watch";
import { outcomeOf } from "../../services/watch/delivery";
import { type WatchPorts, deliveryIdOf, eventOf } from "../../services/watch/feed";
import { signingSecretsOf } from "../../services/watch/seal";
import { signDelivery } from "../../services/watch/signing";

/** An attempt holds its event this long; past it the sweep may try again (longer than the 15 s reply limit). */
export const LEASE_MS = 60_000;
/** Queue messages can be delayed by at most 12 hours; later retries are found by the sweep. */
const MAX_QUEUE_DELAY_S = 12 * 3600;

export type DeliveryResult = "delivered" | "retry" | "failed" | "disabled" | "cancelled" | "skipped";

const secretsKeyOf = (ports: WatchPorts): string => {
  if (!ports.secretsKey) throw new Error("WEBHOOK_SECRETS_KEY is not configured");
  return ports.secretsKey;
};

/** One attempt at delivering one event. */
export async function deliverEvent(ports: WatchPorts, id: number): Promise<DeliveryResult> {
  const started = ports.now();
  const row = await claimDelivery(ports.db, id, started, LEASE_MS);
  if (!row) return "skipped";
  const hook = await webhookOf(ports.db, row.account_id);
  if (!hook || hook.disabled_at) {
    await recordAttempt(ports.db, id, { kind: "cancelled", error: hook ? "the webhook is disabled" : "the webhook was removed" });
    return "cancelled";
  }
  const body = JSON.stringify(eventOf({ ...row, delivered: 0 }));
  const ts = Math.floor(started / 1000);
  let result: Awaited<ReturnType<typeof ports.post>>;
  try {
    const headers = await signDelivery({ id: deliveryIdOf(row.id), timestamp: ts, body, secret: await signingSecretsOf(hook, secretsKeyOf(ports), ts) });
    result = await ports.post(hook.url, body, { ...headers });
  } catch (e) {
    // Our side could not sign (the sealing key missing or changed): nothing was sent; retried like a failure.
    console.error(JSON.stringify({ webhookDelivery: id, error: String(e) }));
    result = { error: "network" as const, reason: "the delivery could not be signed" };
  }
  const now = ports.now();
  const outcome = outcomeOf({ ...result, attempt: row.attempts, now, firstAttemptAt: row.first_attempt_at ?? started });
  const reason = (r: string) => (result.error ? `${r} (${result.reason})` : r).slice(0, 300);
  switch (outcome.kind) {
    case "delivered":
      await recordAttempt(ports.db, id, { kind: "delivered" });
      return "delivered";
    case "retry":
      await recordAttempt(ports.db, id, { kind: "retry", at: outcome.at, error: reason(outcome.reason) });
      if (outcome.at - now <= MAX_QUEUE_DELAY_S * 1000)
        await ports.send([{ kind: "deliver", ids: [id] }], Math.max(0, Math.ceil((outcome.at - now) / 1000))).catch(() => {});
      return "retry";
    case "give-up":
      await recordAttempt(ports.db, id, { kind: "failed", error: reason(outcome.reason) });
      return "failed";
    case "disable-webhook":
      await recordAttempt(ports.db, id, { kind: "failed", error: outcome.reason });
      await disableWebhook(ports.db, row.account_id, outcome.reason, new Date(now).toISOString());
      return "disabled";
  }
}

/** The same for several events, one after another. */
export async function deliverEvents(ports: WatchPorts, ids: number[]): Promise<DeliveryResult[]> {
  const out: DeliveryResult[] = [];
  for (const id of ids) out.push(await deliverEvent(ports, id));
  return out;
}
