/**
 * The Event as the feed and the webhook give it (SPEC §2.7): exactly id, company, seenAt, kind, summary, before,
 * after, deliveredToWebhook. Pure. Also the ports the daily read and the deliveries are given (src/jobs/watch),
 * built by the platform (src/platform/jobPorts.ts) or by a test.
 */
import type { ReadingInput } from "./reading";
import type { EventRow } from "./records";

export interface Event {
  id: number;
  company: string;
  seenAt: string;
  kind: string;
  summary: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  deliveredToWebhook: boolean;
}

/** An event as stored (db/watch.ts; records.ts EventRow). */
export type StoredEvent = Pick<EventRow, "id" | "company" | "seen_at" | "kind" | "summary" | "before" | "after" | "delivered">;

export const eventOf = (r: StoredEvent): Event => ({
  id: r.id,
  company: r.company,
  seenAt: r.seen_at,
  kind: r.kind,
  summary: r.summary,
  before: JSON.parse(r.before) as Record<string, unknown>,
  after: JSON.parse(r.after) as Record<string, unknown>,
  deliveredToWebhook: r.delivered === 1,
});

/** Credits a watch costs when it starts or resumes, and in each calendar month (SPEC §4.6, §8). */
export const WATCH_MONTHLY_CREDITS = 2;

/** The ledger's charge-once id of a watch's month: the month is charged at most once, however often it is asked. */
export const monthChargeId = (watchId: number, period: string) => `watch:${watchId}:${period}`;

/** The `webhook-id` of an event's deliveries: the same on every retry. */
export const deliveryIdOf = (eventId: number) => `evt_${eventId}`;

/** A test delivery (POST /api/v1/watch/webhook/test): kind `test`, id 0, never in the feed. */
export function testEvent(now: Date): Event {
  return {
    id: 0,
    company: "00000000",
    seenAt: now.toISOString(),
    kind: "test",
    summary: "A test event from the watch list: your webhook received and verified it.",
    before: {},
    after: {},
    deliveredToWebhook: false,
  };
}

/** One watched company as the daily read found it: its name and what each source said (reading.ts). */
export interface CompanyRead {
  name: string | null;
  input: ReadingInput;
}

/** What one webhook post came to (the safe poster's result). */
export type PostOutcome =
  | { status: number; headers: Headers; error?: undefined }
  | { error: "timeout" | "network" | "refused-address"; reason: string; status?: undefined; headers?: undefined };

/** A ledger's charge made at most once per id (the KeyLedger's chargeOnce). */
export type ChargeOnce = (
  ledger: string,
  req: { id: string; cost: number; period: string; allowance: number; startingBalance: number | null },
) => Promise<{ ok: true; remaining: number; charged: number; repeated: boolean } | { ok: false; reason: "credits"; remaining: number }>;

/** A message of the watch queue. */
export type WatchJob = { kind: "read"; companies: string[] } | { kind: "deliver"; ids: number[] };

/** Everything the daily read and the deliveries touch, given to them (tests give their own). */
export interface WatchPorts {
  db: D1Database;
  /** Reads one company from every source; a source that fails is an Error in its field, never a throw. */
  read(company: string, now: Date): Promise<CompanyRead>;
  chargeOnce: ChargeOnce;
  /** Sends messages to the watch queue (delaySeconds at most 12 hours). */
  send(jobs: WatchJob[], delaySeconds?: number): Promise<void>;
  /** Posts a delivery through the safe fetcher's address rules; no redirect followed. */
  post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome>;
  /** The key material webhook secrets are sealed with; null when not configured (nothing can be signed). */
  secretsKey: string | null;
  now(): number;
}
