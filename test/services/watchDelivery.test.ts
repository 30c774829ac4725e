import { describe, expect, it } from "vitest";
import {
  DELIVERY_DOC,
  DELIVERY_TIMEOUT_MS,
  DELIVERY_WINDOW_MS,
  MAX_RETRIES,
  RETRY_OFFSETS_SECONDS,
  RETRY_SCHEDULE_SECONDS,
  type AttemptResult,
  type DeliveryOutcome,
  deliveredAfter,
  outcomeOf,
  retryAfterAt,
} from "../../src/services/watch/delivery";

const T0 = Date.UTC(2026, 10, 3, 6, 15, 0); // 2026-11-03T06:15:00Z: the first attempt
const MIN = 60_000;
const HOUR = 3_600_000;

/**
 * Plays one event's deliveries: each attempt gets the next result, made at the time the previous outcome asked for
 * (plus `lagMs`). Returns every outcome, in order, and when each attempt was made.
 */
function play(results: AttemptResult[], lagMs = 0): { outcomes: DeliveryOutcome[]; times: number[] } {
  const outcomes: DeliveryOutcome[] = [];
  const times: number[] = [];
  let now = T0;
  for (let attempt = 0; attempt < results.length; attempt++) {
    times.push(now);
    const o = outcomeOf({ ...results[attempt], attempt, now, firstAttemptAt: T0 });
    outcomes.push(o);
    if (o.kind !== "retry") break;
    expect(o.at).toBeGreaterThan(now);
    now = o.at + lagMs;
  }
  return { outcomes, times };
}

describe("the retry schedule: five retries over at most two days", () => {
  it("is 5 min, 30 min, 2 h, 8 h, 37 h; the last retry is 47 h 35 min after the first attempt, within 48 h", () => {
    expect(RETRY_SCHEDULE_SECONDS).toEqual([300, 1800, 7200, 28_800, 133_200]);
    expect(MAX_RETRIES).toBe(5);
    expect(RETRY_OFFSETS_SECONDS).toEqual([300, 2100, 9300, 38_100, 171_300]);
    const total = RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0);
    expect(total).toBe(47 * 3600 + 35 * 60);
    // Even with every attempt taking the full 15 s timeout, the last retry starts within two days.
    expect(total * 1000 + (MAX_RETRIES + 1) * DELIVERY_TIMEOUT_MS).toBeLessThanOrEqual(48 * HOUR);
    expect(DELIVERY_WINDOW_MS).toBe(48 * HOUR);
    // Increasing gaps.
    for (let i = 1; i < RETRY_SCHEDULE_SECONDS.length; i++) expect(RETRY_SCHEDULE_SECONDS[i]).toBeGreaterThan(RETRY_SCHEDULE_SECONDS[i - 1]);
    expect(DELIVERY_DOC).toContain("5 minutes after the first attempt, then 30 minutes, 2 hours, 8 hours and 37 hours");
  });

  it("DELIVERY_TIMEOUT_MS is 15 s", () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(15_000);
  });

  it("six failures in a row: five retries at the scheduled times, then give-up on the sixth failure", () => {
    const { outcomes, times } = play(Array.from({ length: 6 }, () => ({ status: 500 })));
    expect(outcomes.map((o) => o.kind)).toEqual(["retry", "retry", "retry", "retry", "retry", "give-up"]);
    expect(times.slice(1).map((t) => (t - T0) / 1000)).toEqual(RETRY_OFFSETS_SECONDS);
    expect(times[5] - T0).toBeLessThanOrEqual(48 * HOUR);
    expect(outcomes[5]).toEqual({ kind: "give-up", reason: "HTTP 500; all 5 retries used" });
    expect(deliveredAfter(outcomes[5])).toBe(false);
  });

  it("the sixth failure gives up whatever it was (timeout, network, refused address, 429 with Retry-After)", () => {
    for (const r of [
      { error: "timeout" as const },
      { error: "network" as const },
      { error: "refused-address" as const },
      { status: 429, headers: { "retry-after": "1" } },
    ]) {
      expect(outcomeOf({ ...r, attempt: 5, now: T0 + 47 * HOUR, firstAttemptAt: T0 }).kind).toBe("give-up");
    }
  });

  it("attempts are counted 0…5; a retry needs the first attempt's time", () => {
    expect(() => outcomeOf({ status: 500, attempt: 6, now: T0, firstAttemptAt: T0 })).toThrow();
    expect(() => outcomeOf({ status: 500, attempt: -1, now: T0 })).toThrow();
    expect(() => outcomeOf({ status: 500, attempt: 1, now: T0 })).toThrow(/firstAttemptAt/);
    expect(outcomeOf({ status: 500, attempt: 0, now: T0 })).toEqual({ kind: "retry", at: T0 + 5 * MIN, reason: "HTTP 500" });
  });
});

describe("outcomeOf: one attempt's result", () => {
  it("200 and 204 are delivered, and only a delivery sets deliveredToWebhook", () => {
    for (const status of [200, 201, 202, 204, 299]) {
      const o = outcomeOf({ status, attempt: 0, now: T0 });
      expect(o).toEqual({ kind: "delivered" });
      expect(deliveredAfter(o)).toBe(true);
    }
    expect(outcomeOf({ status: 204, attempt: 5, now: T0 + 47 * HOUR, firstAttemptAt: T0 })).toEqual({ kind: "delivered" });
  });

  it("301 and 302 are failures, retried per schedule: redirects are not followed", () => {
    for (const status of [301, 302, 307, 308]) {
      const o = outcomeOf({ status, headers: { location: "https://elsewhere.example/hook" }, attempt: 0, now: T0 });
      expect(o).toEqual({ kind: "retry", at: T0 + 5 * MIN, reason: `HTTP ${status}: redirects are not followed` });
      expect(deliveredAfter(o)).toBe(false);
    }
  });

  it("410 disables the webhook, at any attempt", () => {
    expect(outcomeOf({ status: 410, attempt: 0, now: T0 })).toEqual({ kind: "disable-webhook", reason: "HTTP 410: the receiver says the endpoint is gone" });
    expect(outcomeOf({ status: 410, attempt: 5, now: T0 + 47 * HOUR, firstAttemptAt: T0 }).kind).toBe("disable-webhook");
  });

  it("429 with Retry-After: 120 is retried no sooner than now + 120 s (here the 5-minute schedule is later still)", () => {
    const o = outcomeOf({ status: 429, headers: new Headers({ "Retry-After": "120" }), attempt: 0, now: T0 });
    expect(o.kind).toBe("retry");
    if (o.kind !== "retry") return;
    expect(o.at).toBeGreaterThanOrEqual(T0 + 120_000);
    expect(o.at).toBe(T0 + 5 * MIN);
  });

  it("429 with a Retry-After longer than the schedule waits for Retry-After (plain-object headers, any case)", () => {
    const o = outcomeOf({ status: 429, headers: { "RETRY-AFTER": "3600" }, attempt: 0, now: T0 });
    expect(o).toMatchObject({ kind: "retry", at: T0 + HOUR });
    // A 2 h Retry-After on retry 1 (next scheduled 30 min away).
    const o2 = outcomeOf({ status: 429, headers: { "retry-after": "7200" }, attempt: 1, now: T0 + 5 * MIN, firstAttemptAt: T0 });
    expect(o2).toMatchObject({ kind: "retry", at: T0 + 5 * MIN + 2 * HOUR });
  });

  it("503 with an HTTP-date Retry-After waits until that date", () => {
    const date = new Date(T0 + 3 * HOUR).toUTCString(); // IMF-fixdate: "Tue, 03 Nov 2026 09:15:00 GMT"
    expect(date).toBe("Tue, 03 Nov 2026 09:15:00 GMT");
    const o = outcomeOf({ status: 503, headers: new Headers({ "retry-after": date }), attempt: 0, now: T0 });
    expect(o).toMatchObject({ kind: "retry", at: T0 + 3 * HOUR });
    if (o.kind === "retry") expect(o.reason).toBe("HTTP 503 (Retry-After 2026-11-03T09:15:00.000Z)");
    // A date in the past, or an unreadable value, leaves the schedule alone.
    expect(outcomeOf({ status: 503, headers: { "retry-after": "Mon, 02 Nov 2026 09:15:00 GMT" }, attempt: 0, now: T0 })).toMatchObject({ at: T0 + 5 * MIN });
    expect(outcomeOf({ status: 503, headers: { "retry-after": "soon" }, attempt: 0, now: T0 })).toMatchObject({ at: T0 + 5 * MIN });
  });

  it("Retry-After is honoured on 429 and 503 only", () => {
    for (const status of [500, 502, 504, 400]) {
      expect(outcomeOf({ status, headers: { "retry-after": "7200" }, attempt: 0, now: T0 })).toEqual({
        kind: "retry",
        at: T0 + 5 * MIN,
        reason: `HTTP ${status}`,
      });
    }
  });

  it("a Retry-After past the two-day window gives up on the event (it stays in the feed)", () => {
    expect(outcomeOf({ status: 429, headers: { "retry-after": String(49 * 3600) }, attempt: 0, now: T0 })).toEqual({
      kind: "give-up",
      reason: `HTTP 429 (Retry-After ${new Date(T0 + 49 * HOUR).toISOString()}); Retry-After is past the two-day window`,
    });
    // Up to the window's end it is honoured.
    expect(outcomeOf({ status: 503, headers: { "retry-after": String(48 * 3600) }, attempt: 0, now: T0 })).toMatchObject({ kind: "retry", at: T0 + 48 * HOUR });
    // Counted from the first attempt, not from this one.
    expect(outcomeOf({ status: 503, headers: { "retry-after": String(40 * 3600) }, attempt: 3, now: T0 + 10 * HOUR, firstAttemptAt: T0 }).kind).toBe("give-up");
  });

  it("500 then success: one retry, then delivered", () => {
    const { outcomes, times } = play([{ status: 500 }, { status: 200 }]);
    expect(outcomes).toEqual([{ kind: "retry", at: T0 + 5 * MIN, reason: "HTTP 500" }, { kind: "delivered" }]);
    expect(times).toEqual([T0, T0 + 5 * MIN]);
    expect(outcomes.map(deliveredAfter)).toEqual([false, true]);
  });

  it("a mixed run: timeout, 302, 429 with Retry-After, 503, then 204", () => {
    const { outcomes } = play([{ error: "timeout" }, { status: 302 }, { status: 429, headers: { "retry-after": "14400" } }, { status: 503 }, { status: 204 }]);
    expect(outcomes.map((o) => o.kind)).toEqual(["retry", "retry", "retry", "retry", "delivered"]);
    expect(outcomes[0]).toEqual({ kind: "retry", at: T0 + 5 * MIN, reason: "timeout: no reply within 15 s" });
    // Retry 3 waited 4 h (Retry-After) instead of the scheduled 2 h.
    expect(outcomes[2]).toMatchObject({ at: T0 + 35 * MIN + 4 * HOUR });
  });

  it("timeout, network error and refused address are retried per schedule", () => {
    expect(outcomeOf({ error: "timeout", attempt: 0, now: T0 })).toEqual({ kind: "retry", at: T0 + 5 * MIN, reason: "timeout: no reply within 15 s" });
    expect(outcomeOf({ error: "network", attempt: 1, now: T0 + 5 * MIN, firstAttemptAt: T0 })).toEqual({
      kind: "retry",
      at: T0 + 35 * MIN,
      reason: "network error",
    });
    expect(outcomeOf({ error: "refused-address", attempt: 2, now: T0 + 35 * MIN, firstAttemptAt: T0 })).toEqual({
      kind: "retry",
      at: T0 + 35 * MIN + 2 * HOUR,
      reason: "refused address: the URL resolved to a non-public address at delivery time",
    });
  });

  it("other 4xx and 5xx are retried per schedule", () => {
    for (const status of [400, 401, 403, 404, 408, 413, 422, 500, 501, 502, 504]) {
      expect(outcomeOf({ status, attempt: 4, now: T0 + 10 * HOUR, firstAttemptAt: T0 })).toEqual({
        kind: "retry",
        at: T0 + 47 * HOUR,
        reason: `HTTP ${status}`,
      });
    }
  });

  it("late attempts (a queue backlog) never push a retry past the window: the last one is pulled back to its end", () => {
    const { outcomes, times } = play(
      Array.from({ length: 6 }, () => ({ error: "network" as const })),
      30 * MIN,
    );
    expect(outcomes.map((o) => o.kind)).toEqual(["retry", "retry", "retry", "retry", "retry", "give-up"]);
    expect(times[5]).toBeLessThanOrEqual(T0 + 48 * HOUR + 30 * MIN); // the 5th retry was asked for at the window's end
    expect(outcomes[4]).toMatchObject({ kind: "retry", at: T0 + 48 * HOUR });
    // Past the window there is nothing left to do.
    expect(outcomeOf({ status: 500, attempt: 4, now: T0 + 48 * HOUR + 1, firstAttemptAt: T0 })).toEqual({
      kind: "give-up",
      reason: "HTTP 500; the two-day window is over",
    });
  });
});

describe("retryAfterAt: delta-seconds or an HTTP date (RFC 9110)", () => {
  it("reads the three date formats, and nothing else", () => {
    const at = Date.UTC(1994, 10, 6, 8, 49, 37);
    const now = Date.UTC(2026, 0, 1);
    expect(retryAfterAt("120", now)).toBe(now + 120_000);
    expect(retryAfterAt(" 0 ", now)).toBe(now);
    expect(retryAfterAt("Sun, 06 Nov 1994 08:49:37 GMT", now)).toBe(at);
    expect(retryAfterAt("Sunday, 06-Nov-94 08:49:37 GMT", now)).toBe(at);
    expect(retryAfterAt("Sun Nov  6 08:49:37 1994", now)).toBe(at);
    expect(retryAfterAt("Thursday, 05-Nov-26 08:49:37 GMT", now)).toBe(Date.UTC(2026, 10, 5, 8, 49, 37));
    for (const bad of [undefined, null, "", "-5", "1.5", "soon", "2026-11-03T09:15:00Z", "Tue, 31 Feb 2026 09:15:00 GMT", "Tue, 03 Nov 2026 09:15:00 BST"]) {
      expect(retryAfterAt(bad, now)).toBeNull();
    }
  });
});
