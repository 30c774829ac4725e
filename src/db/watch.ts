/**
 * The watch list, its event feed and webhooks (migrations/0009_watch.sql): every SQL statement of issue 15.
 * The operations reach these through ctx.services.watch; the daily read and the deliveries (src/jobs/watch)
 * call them directly.
 */

import type { EventRow, WatchListRow, WatchRow, WebhookRow } from "../services/watch/records";

export type { EventRow, WatchListRow, WatchRow, WatchState, WebhookRow } from "../services/watch/records";

/** A day's minute (0–1439) for a company: its reads are spread over the day by its number. */
export function slotOf(company: string): number {
  let h = 2166136261;
  for (let i = 0; i < company.length; i++) h = Math.imul(h ^ company.charCodeAt(i), 16777619);
  return (h >>> 0) % 1440;
}

// ---- the watch list (operations) -------------------------------------------------------------------------

export const watchOf = (db: D1Database, accountId: string, company: string) =>
  db.prepare(`SELECT * FROM watches WHERE account_id = ? AND company = ?`).bind(accountId, company).first<WatchRow>();

export async function watchCount(db: D1Database, accountId: string): Promise<number> {
  return (await db.prepare(`SELECT COUNT(*) AS n FROM watches WHERE account_id = ?`).bind(accountId).first<{ n: number }>())?.n ?? 0;
}

/** What adding a watch did: added (the new row), or not, because the company was already watched or the cap was reached. */
export type AddWatchResult = { added: WatchRow } | { added: null; reason: "already_watched" | "limit_reached" };

/**
 * Adds a watch unless the account already watches the company or already has `maxWatches` watches; the cap is decided
 * by SQLite in the insert itself (`INSERT … SELECT … WHERE (SELECT COUNT(*) …) < max`), so concurrent adds can never
 * pass it together (D1 runs one statement at a time per database).
 * The company gets its row in watch_companies (read at the next five-minute tick when it is new) only when the watch
 * was added. A company read yesterday or today already has a reading: it is the new watch's baseline; otherwise its
 * first read is.
 */
export async function addWatch(
  db: D1Database,
  w: { accountId: string; company: string; name: string | null; label: string | null; now: string; freshSince: string; maxWatches: number },
): Promise<AddWatchResult> {
  // Not paid for until the caller's credits are taken (markPaid): a Worker that dies in between leaves a watch the
  // daily read charges (at most once per month, by its charge id).
  const [inserted] = await db.batch<WatchRow>([
    db
      .prepare(
        `INSERT OR IGNORE INTO watches (account_id, company, label, state, added_at, paid_period, baseline_at)
         SELECT ?1, ?2, ?3, 'watched', ?4, NULL,
           (SELECT CASE WHEN reading IS NOT NULL AND read_day >= ?5 THEN ?4 END FROM watch_companies WHERE company = ?2)
         WHERE (SELECT COUNT(*) FROM watches WHERE account_id = ?1) < ?6
         RETURNING *`,
      )
      .bind(w.accountId, w.company, w.label, w.now, w.freshSince, w.maxWatches),
    db
      .prepare(
        `INSERT INTO watch_companies (company, slot, name) SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM watches WHERE company = ?1)
         ON CONFLICT(company) DO UPDATE SET name = COALESCE(watch_companies.name, excluded.name)`,
      )
      .bind(w.company, slotOf(w.company), w.name),
  ]);
  const row = inserted.results[0];
  if (row) return { added: row };
  return { added: null, reason: (await watchOf(db, w.accountId, w.company)) ? "already_watched" : "limit_reached" };
}

/** Takes back a watch just added whose credits could not be taken. */
export async function forgetNewWatch(db: D1Database, id: number): Promise<void> {
  await db.prepare(`DELETE FROM watches WHERE id = ? AND last_read_at IS NULL`).bind(id).run();
}

export async function setLabel(db: D1Database, id: number, label: string | null): Promise<void> {
  await db.prepare(`UPDATE watches SET label = ? WHERE id = ?`).bind(label, id).run();
}

/** Removes a watch (its events stay in the feed); a company nobody watches any more is no longer read. */
export async function removeWatch(db: D1Database, accountId: string, company: string): Promise<WatchRow | null> {
  const [removed] = await db.batch<WatchRow>([
    db.prepare(`DELETE FROM watches WHERE account_id = ? AND company = ? RETURNING *`).bind(accountId, company),
    db.prepare(`DELETE FROM watch_companies WHERE company = ?1 AND NOT EXISTS (SELECT 1 FROM watches WHERE company = ?1)`).bind(company),
  ]);
  return removed.results[0] ?? null;
}

/** One watch with its company's name and last reading. */
export const watchListRow = (db: D1Database, accountId: string, company: string) =>
  db
    .prepare(
      `SELECT w.*, c.name, c.reading, c.unread, c.read_at FROM watches w LEFT JOIN watch_companies c ON c.company = w.company WHERE w.account_id = ? AND w.company = ?`,
    )
    .bind(accountId, company)
    .first<WatchListRow>();

/** The account's watches in company-number order after `after`, with the company's name and last reading. */
export async function listWatches(db: D1Database, accountId: string, after: string, limit: number): Promise<WatchListRow[]> {
  const r = await db
    .prepare(
      `SELECT w.*, c.name, c.reading, c.unread, c.read_at FROM watches w LEFT JOIN watch_companies c ON c.company = w.company
       WHERE w.account_id = ? AND w.company > ? ORDER BY w.company LIMIT ?`,
    )
    .bind(accountId, after, limit)
    .all<WatchListRow>();
  return r.results;
}

// ---- the event feed --------------------------------------------------------------------------------------

/** The account's events after `since`, oldest first: `limit` of them, and one more to tell whether there are more. */
export async function eventsSince(db: D1Database, accountId: string, since: number, limit: number): Promise<EventRow[]> {
  const r = await db
    .prepare(`SELECT * FROM watch_events WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?`)
    .bind(accountId, since, limit + 1)
    .all<EventRow>();
  return r.results;
}

// ---- the webhook -----------------------------------------------------------------------------------------

export const webhookOf = (db: D1Database, accountId: string) =>
  db.prepare(`SELECT * FROM watch_webhooks WHERE account_id = ?`).bind(accountId).first<WebhookRow>();

/** Sets the webhook with a new (sealed) secret; the one it replaces (`previous_secret`) keeps signing for the grace period. */
export async function setWebhook(db: D1Database, w: { accountId: string; url: string; secret: string; rotatedAt: number; now: string }): Promise<WebhookRow> {
  const row = await db
    .prepare(
      `INSERT INTO watch_webhooks (account_id, url, secret, previous_secret, rotated_at, set_at) VALUES (?, ?, ?, NULL, ?, ?)
       ON CONFLICT(account_id) DO UPDATE SET url = excluded.url, previous_secret = watch_webhooks.secret, secret = excluded.secret,
         rotated_at = excluded.rotated_at, set_at = excluded.set_at, disabled_at = NULL, disabled_reason = NULL
       RETURNING *`,
    )
    .bind(w.accountId, w.url, w.secret, w.rotatedAt, w.now)
    .first<WebhookRow>();
  if (!row) throw new Error("the webhook was not stored");
  return row;
}

const CANCEL_PENDING = `UPDATE watch_events SET delivery = 'cancelled', next_attempt_at = NULL, last_error = ? WHERE account_id = ? AND delivery = 'pending'`;

/** Removes the webhook; deliveries not yet made are cancelled (the events stay in the feed). */
export async function removeWebhook(db: D1Database, accountId: string): Promise<boolean> {
  const [removed] = await db.batch([
    db.prepare(`DELETE FROM watch_webhooks WHERE account_id = ? RETURNING account_id`).bind(accountId),
    db.prepare(CANCEL_PENDING).bind("the webhook was removed", accountId),
  ]);
  return removed.results.length > 0;
}

/** Disables the webhook (a 410 from the receiver); deliveries not yet made are cancelled. */
export async function disableWebhook(db: D1Database, accountId: string, reason: string, now: string): Promise<void> {
  await db.batch([
    db.prepare(`UPDATE watch_webhooks SET disabled_at = ?, disabled_reason = ? WHERE account_id = ?`).bind(now, reason, accountId),
    db.prepare(CANCEL_PENDING).bind(`the webhook was disabled: ${reason}`, accountId),
  ]);
}

export interface DeliveryCounts {
  pending: number;
  delivered: number;
  failed: number;
  cancelled: number;
}

/** The account's deliveries by state. */
export async function deliveryCounts(db: D1Database, accountId: string): Promise<DeliveryCounts> {
  const r = await db
    .prepare(`SELECT delivery, COUNT(*) AS n FROM watch_events WHERE account_id = ? AND delivery != 'none' GROUP BY delivery`)
    .bind(accountId)
    .all<{ delivery: keyof DeliveryCounts; n: number }>();
  const out: DeliveryCounts = { pending: 0, delivered: 0, failed: 0, cancelled: 0 };
  for (const x of r.results) if (x.delivery in out) out[x.delivery] = x.n;
  return out;
}

// ---- the daily read (jobs) -------------------------------------------------------------------------------

/**
 * Companies due for their daily read at `minute` of `day`: never read yet (at once), not read since before
 * yesterday (a read missed), or not read today and past their slot.
 */
export async function dueCompanies(db: D1Database, day: string, yesterday: string, minute: number, limit: number): Promise<string[]> {
  const r = await db
    .prepare(
      `SELECT company FROM watch_companies
       WHERE read_day IS NULL OR read_day < ?2 OR (read_day < ?1 AND slot <= ?3)
       ORDER BY read_day IS NOT NULL, read_day, slot LIMIT ?4`,
    )
    .bind(day, yesterday, minute, limit)
    .all<{ company: string }>();
  return r.results.map((x) => x.company);
}

/** A watch with what charging its account needs: the plan, the organisation's pool, the month's starting balance. */
export interface WatchToCharge extends WatchRow {
  plan: string;
  org_id: string | null;
  org_plan: string | null;
  pooled: number | null;
  credits_override: number | null;
}

export async function watchesOfCompany(db: D1Database, company: string, period: string): Promise<WatchToCharge[]> {
  const r = await db
    .prepare(
      `SELECT w.*, a.plan, a.org_id, o.plan AS org_plan, o.pooled,
         (SELECT MAX(k.credits_override) FROM api_keys k WHERE k.account_id = w.account_id AND k.active = 1 AND k.credits_override_period = ?2) AS credits_override
       FROM watches w JOIN accounts a ON a.id = w.account_id LEFT JOIN orgs o ON o.id = a.org_id
       WHERE w.company = ?1 ORDER BY w.id`,
    )
    .bind(company, period)
    .all<WatchToCharge>();
  return r.results;
}

export async function markPaid(db: D1Database, id: number, period: string, resumed: boolean): Promise<void> {
  await db
    .prepare(
      resumed
        ? `UPDATE watches SET state = 'watched', paid_period = ?, paused_at = NULL, paused_reason = NULL, baseline_at = NULL WHERE id = ?`
        : `UPDATE watches SET paid_period = ? WHERE id = ?`,
    )
    .bind(period, id)
    .run();
}

export async function pauseWatch(db: D1Database, id: number, now: string, reason: string): Promise<void> {
  await db.prepare(`UPDATE watches SET state = 'paused', paused_at = COALESCE(paused_at, ?), paused_reason = ? WHERE id = ?`).bind(now, reason, id).run();
}

/** A company whose watches are all paused is not read today (nobody pays for the read). */
export async function skipRead(db: D1Database, company: string, day: string): Promise<void> {
  await db.prepare(`UPDATE watch_companies SET read_day = ? WHERE company = ?`).bind(day, company).run();
}

export const storedReading = (db: D1Database, company: string) =>
  db
    .prepare(`SELECT name, reading, read_day FROM watch_companies WHERE company = ?`)
    .bind(company)
    .first<{ name: string | null; reading: string | null; read_day: string | null }>();

export interface NewEvent {
  accountId: string;
  kind: string;
  summary: string;
  before: unknown;
  after: unknown;
  key: string;
}

/**
 * Records one read, in one transaction (D1 batch): the events for every account whose watch was live at the read,
 * each pending delivery when the account has a webhook that is not disabled (the outbox); then the company's kept
 * reading; then the watches' last read (a new watch's baseline). Either all of it is written or none: the reading
 * never moves on without its events. A repeated read of the same day inserts no duplicate (UNIQUE account, key).
 * Returns the ids of the events recorded now with a delivery pending.
 */
export async function recordRead(
  db: D1Database,
  r: { company: string; name: string | null; reading: string; unread: string; day: string; readAt: string; nowMs: number; events: NewEvent[] },
): Promise<number[]> {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO watch_events (account_id, company, seen_at, kind, summary, before, after, event_key, delivery, next_attempt_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,
       CASE WHEN h.account_id IS NOT NULL THEN 'pending' ELSE 'none' END,
       CASE WHEN h.account_id IS NOT NULL THEN ?9 END
     FROM (SELECT 1) LEFT JOIN watch_webhooks h ON h.account_id = ?1 AND h.disabled_at IS NULL
     RETURNING id, delivery`,
  );
  const statements = [
    ...r.events.map((e) => insert.bind(e.accountId, r.company, r.readAt, e.kind, e.summary, JSON.stringify(e.before), JSON.stringify(e.after), e.key, r.nowMs)),
    db
      .prepare(`UPDATE watch_companies SET name = COALESCE(?, name), reading = ?, unread = ?, read_day = ?, read_at = ? WHERE company = ?`)
      .bind(r.name, r.reading, r.unread, r.day, r.readAt, r.company),
    db
      .prepare(`UPDATE watches SET last_read_at = ?1, baseline_at = COALESCE(baseline_at, ?1) WHERE company = ?2 AND state = 'watched'`)
      .bind(r.readAt, r.company),
  ];
  const results = await db.batch<{ id: number; delivery: string }>(statements);
  return results
    .slice(0, r.events.length)
    .flatMap((x) => x.results)
    .filter((x) => x.delivery === "pending")
    .map((x) => x.id);
}

// ---- deliveries (jobs) -----------------------------------------------------------------------------------

/** Pending deliveries due by `now` and not leased to an attempt in flight (the sweep's work). */
export async function dueDeliveries(db: D1Database, nowMs: number, limit: number): Promise<number[]> {
  const r = await db
    .prepare(
      `SELECT id FROM watch_events WHERE delivery = 'pending' AND next_attempt_at <= ?1 AND (claimed_until IS NULL OR claimed_until < ?1) ORDER BY next_attempt_at, id LIMIT ?2`,
    )
    .bind(nowMs, limit)
    .all<{ id: number }>();
  return r.results.map((x) => x.id);
}

/** Leases a due delivery for one attempt (null when it is not due, already delivered, or leased). */
export async function claimDelivery(db: D1Database, id: number, nowMs: number, leaseMs: number): Promise<EventRow | null> {
  return db
    .prepare(
      `UPDATE watch_events SET claimed_until = ?2 + ?3, first_attempt_at = COALESCE(first_attempt_at, ?2)
       WHERE id = ?1 AND delivery = 'pending' AND next_attempt_at <= ?2 AND (claimed_until IS NULL OR claimed_until < ?2) RETURNING *`,
    )
    .bind(id, nowMs, leaseMs)
    .first<EventRow>();
}

export type DeliveryRecord =
  | { kind: "delivered" }
  | { kind: "retry"; at: number; error: string }
  | { kind: "failed"; error: string }
  | { kind: "cancelled"; error: string };

/** Records one attempt's outcome; `deliveredToWebhook` becomes true only on `delivered`. */
export async function recordAttempt(db: D1Database, id: number, outcome: DeliveryRecord): Promise<void> {
  const stmt =
    outcome.kind === "delivered"
      ? db
          .prepare(
            `UPDATE watch_events SET delivered = 1, delivery = 'delivered', attempts = attempts + 1, next_attempt_at = NULL, claimed_until = NULL, last_error = NULL WHERE id = ?`,
          )
          .bind(id)
      : outcome.kind === "retry"
        ? db
            .prepare(
              `UPDATE watch_events SET attempts = attempts + 1, next_attempt_at = ?, claimed_until = NULL, last_error = ? WHERE id = ? AND delivery = 'pending'`,
            )
            .bind(outcome.at, outcome.error, id)
        : db
            .prepare(
              `UPDATE watch_events SET delivery = ?, attempts = attempts + ?, next_attempt_at = NULL, claimed_until = NULL, last_error = ? WHERE id = ? AND delivery = 'pending'`,
            )
            .bind(outcome.kind, outcome.kind === "failed" ? 1 : 0, outcome.error, id);
  await stmt.run();
}
