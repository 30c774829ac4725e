/** The watch list's stored records (migrations/0009_watch.sql), as db/watch.ts returns them. Types only. */

export type WatchState = "watched" | "paused";

export interface WatchRow {
  id: number;
  account_id: string;
  company: string;
  label: string | null;
  state: WatchState;
  added_at: string;
  paid_period: string | null;
  paused_at: string | null;
  paused_reason: string | null;
  baseline_at: string | null;
  last_read_at: string | null;
}

export interface WatchListRow extends WatchRow {
  name: string | null;
  reading: string | null;
  /** JSON [{ source, since, reason }]: sources not read at the last read. */
  unread: string | null;
  read_at: string | null;
}

export interface EventRow {
  id: number;
  account_id: string;
  company: string;
  seen_at: string;
  kind: string;
  summary: string;
  before: string;
  after: string;
  delivered: number;
  delivery: string;
  attempts: number;
  next_attempt_at: number | null;
  first_attempt_at: number | null;
  last_error: string | null;
}

export interface WebhookRow {
  account_id: string;
  url: string;
  /** Sealed (seal.ts). */
  secret: string;
  previous_secret: string | null;
  /** Unix seconds. */
  rotated_at: number;
  set_at: string;
  disabled_at: string | null;
  disabled_reason: string | null;
}
