/**
 * Webhook delivery policy (SPEC §6.2; issue 15 §3): what one attempt's result means for the event. Pure: no I/O,
 * no clock (the caller passes `now`). The sender posts, then asks outcomeOf what to do next.
 *
 * - 2xx within DELIVERY_TIMEOUT_MS (15 s) is success; only then does the event's `deliveredToWebhook` become true.
 * - 3xx is a failure: redirects are never followed (post with `redirect: "manual"`), so a receiver that moved must
 *   set its new URL.
 * - 410 Gone disables the webhook (the receiver says the endpoint is gone for good).
 * - 429 and 503 with `Retry-After` (delta-seconds or an HTTP date): the retry waits for the later of the schedule and
 *   Retry-After, but never past the two-day window; a Retry-After beyond it ends the event's deliveries (give-up).
 * - Any other status, a timeout, a network error, or a refused address: retried per RETRY_SCHEDULE_SECONDS.
 * - After the fifth retry fails: give-up. The event stays in the pull feed either way.
 */

/** Delays before retry 1…5, each counted from the failure of the attempt before it (seconds). */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = Object.freeze([
  5 * 60, //       retry 1:  5 min after the first attempt
  30 * 60, //      retry 2: 30 min after retry 1  ( 35 min in)
  2 * 3600, //     retry 3:  2 h after retry 2    (  2 h 35 min in)
  8 * 3600, //     retry 4:  8 h after retry 3    ( 10 h 35 min in)
  37 * 3600, //    retry 5: 37 h after retry 4    ( 47 h 35 min in)
]);
/** Retries after the first attempt (SPEC §6.2: five). */
export const MAX_RETRIES = RETRY_SCHEDULE_SECONDS.length;
/** Each retry's time from the first attempt when every attempt fails at once (seconds): 5 min … 47 h 35 min. */
export const RETRY_OFFSETS_SECONDS: readonly number[] = Object.freeze(
  RETRY_SCHEDULE_SECONDS.map((_, i) => RETRY_SCHEDULE_SECONDS.slice(0, i + 1).reduce((a, b) => a + b, 0)),
);
/** A reply (status line and headers) must arrive within this; the reply body is not read. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** No attempt is made later than this after the first attempt ("five times over two days"). */
export const DELIVERY_WINDOW_MS = 48 * 3600 * 1000;

/** The text for the API description (Markdown), as-is. */
export const DELIVERY_DOC = `### Webhook delivery and retries

An event is posted to your webhook when it is detected. A reply with a 2xx status within 15 seconds is success, and only then does the event's \`deliveredToWebhook\` become true. The reply body is ignored.

Anything else is a failed attempt: another status, no reply within 15 seconds, a network error, or a URL whose host resolves to a private or otherwise non-public address at delivery time (we never post there; DNS may change, so it is retried like any failure). Redirects (3xx) are not followed and count as failures: set the new URL instead.

A failed attempt is retried five times, over at most two days: 5 minutes after the first attempt, then 30 minutes, 2 hours, 8 hours and 37 hours after each failed retry (about 5 min, 35 min, 2 h 35 min, 10 h 35 min and 47 h 35 min after the first attempt). Each retry has the same \`webhook-id\` and a fresh timestamp and signature.

On 429 or 503 with a \`Retry-After\` header (seconds or an HTTP date), the next retry waits at least that long. If that is later than two days after the first attempt, delivery of that event stops.

A 410 Gone reply disables the webhook: no further deliveries are made until you set it again.

Every event stays in the event feed whether or not it was delivered.
`;

/** What a delivery attempt came to, as the sender saw it. */
export type AttemptResult =
  | { status: number; headers?: Headers | Readonly<Record<string, string | undefined>>; error?: undefined }
  /**
   * `timeout`: no status and headers within DELIVERY_TIMEOUT_MS. `network`: the connection failed.
   * `refused-address`: the URL's host resolved to a private, loopback or otherwise non-public address at delivery
   * time, so nothing was sent.
   */
  | { error: "timeout" | "network" | "refused-address"; status?: undefined; headers?: undefined };

export type AttemptInput = AttemptResult & {
  /** 0 for the first attempt, 1…5 for the retries. */
  attempt: number;
  /** When the attempt ended, epoch ms. */
  now: number;
  /** When the first attempt was made, epoch ms (the two-day window counts from it); defaults to `now` on attempt 0. */
  firstAttemptAt?: number;
};

export type DeliveryOutcome =
  | { kind: "delivered" }
  | { kind: "retry"; at: number; reason: string }
  | { kind: "give-up"; reason: string }
  | { kind: "disable-webhook"; reason: string };

/** What the event's `deliveredToWebhook` becomes after an outcome (it never goes back to false). */
export const deliveredAfter = (outcome: DeliveryOutcome): boolean => outcome.kind === "delivered";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF = /^[A-Z][a-z]{2}, (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
/** Obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 9110 §5.6.7: recipients accept it). */
const RFC850 = /^[A-Z][a-z]+, (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
/** Obsolete asctime `Sun Nov  6 08:49:37 1994`. */
const ASCTIME = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

function utc(year: number, month: string, day: number, h: number, m: number, s: number): number | null {
  const mon = MONTHS.indexOf(month);
  if (mon < 0 || day < 1 || day > 31 || h > 23 || m > 59 || s > 60) return null;
  const ms = Date.UTC(year, mon, day, h, m, Math.min(s, 59));
  return new Date(ms).getUTCDate() === day ? ms : null;
}

/**
 * `Retry-After` as an epoch ms, or null when absent or unreadable: delta-seconds from `now`, or an HTTP date
 * (RFC 9110 §10.2.3; the three date formats of §5.6.7).
 */
export function retryAfterAt(value: string | null | undefined, now: number): number | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return now + Number(v) * 1000;
  let m = IMF.exec(v);
  if (m) return utc(+m[3], m[2], +m[1], +m[4], +m[5], +m[6]);
  m = RFC850.exec(v);
  if (m) {
    // A two-digit year more than 50 years in the future is in the past century (RFC 9110 §5.6.7).
    const nowYear = new Date(now).getUTCFullYear();
    let year = Math.floor(nowYear / 100) * 100 + +m[3];
    if (year > nowYear + 50) year -= 100;
    return utc(year, m[2], +m[1], +m[4], +m[5], +m[6]);
  }
  m = ASCTIME.exec(v);
  if (m) return utc(+m[6], m[1], +m[2].trim(), +m[3], +m[4], +m[5]);
  return null;
}

function header(headers: AttemptResult["headers"], name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(headers as Record<string, string | undefined>)) if (k.toLowerCase() === want && v !== undefined) return v;
  return null;
}

const ERROR_REASON = {
  timeout: `timeout: no reply within ${DELIVERY_TIMEOUT_MS / 1000} s`,
  network: "network error",
  "refused-address": "refused address: the URL resolved to a non-public address at delivery time",
} as const;

/** What to do after one delivery attempt (see the file's head for the rules). */
export function outcomeOf(input: AttemptInput): DeliveryOutcome {
  const { attempt, now } = input;
  if (!Number.isInteger(attempt) || attempt < 0 || attempt > MAX_RETRIES) throw new Error(`attempt is 0…${MAX_RETRIES}`);
  if (!Number.isFinite(now)) throw new Error("now is epoch ms");
  const firstAttemptAt = input.firstAttemptAt ?? (attempt === 0 ? now : NaN);
  if (!Number.isFinite(firstAttemptAt)) throw new Error("a retry's outcome needs firstAttemptAt");

  let reason: string;
  let waitUntil: number | null = null;
  if (input.error !== undefined) {
    reason = ERROR_REASON[input.error];
  } else {
    const { status } = input;
    if (status >= 200 && status <= 299) return { kind: "delivered" };
    if (status === 410) return { kind: "disable-webhook", reason: "HTTP 410: the receiver says the endpoint is gone" };
    reason = status >= 300 && status <= 399 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
    if (status === 429 || status === 503) {
      waitUntil = retryAfterAt(header(input.headers, "retry-after"), now);
      if (waitUntil !== null) reason += ` (Retry-After ${new Date(waitUntil).toISOString()})`;
    }
  }

  if (attempt >= MAX_RETRIES) return { kind: "give-up", reason: `${reason}; all ${MAX_RETRIES} retries used` };
  const deadline = firstAttemptAt + DELIVERY_WINDOW_MS;
  if (waitUntil !== null && waitUntil > deadline) return { kind: "give-up", reason: `${reason}; Retry-After is past the two-day window` };
  const at = Math.max(now + RETRY_SCHEDULE_SECONDS[attempt] * 1000, waitUntil ?? 0);
  if (at <= deadline) return { kind: "retry", at, reason };
  // Only late attempts (a queue backlog) push the schedule past the window: the last retry is pulled back to its end.
  if (now < deadline) return { kind: "retry", at: deadline, reason };
  return { kind: "give-up", reason: `${reason}; the two-day window is over` };
}
