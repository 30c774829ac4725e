import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { deliverEvent } from "../../../src/jobs/watch/deliver";
import { handleWatchJob } from "../../../src/jobs/watch/job";
import { readWatchedCompany } from "../../../src/jobs/watch/read";
import { watchTick } from "../../../src/jobs/watch/tick";
import { buildServices } from "../../../src/platform/services";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { ingestPortsFor, watchPortsFor } from "../../../src/platform/jobPorts";
import { readWatchedCompany as readSources } from "../../../src/platform/watchReader";
import type { CompanyRead, PostOutcome, WatchJob, WatchPorts } from "../../../src/services/watch/feed";
import { verifyServiceSignature } from "../../../src/services/watch/signing";
import { call, createTestKey, ledgerOf } from "../../helpers";

/**
 * Issue 15 §2–§4: the daily read, the state table of SPEC §3.1, events, duplicates, a source down, webhook delivery
 * and the order of writes that loses no event. The companies are the Companies House fixtures (ch.test): every read
 * goes through the real reader of every source; a day's change is made on top of what the fixtures say.
 */

const DAY1 = Date.parse("2026-11-24T09:00:00Z");
const DAY = 86_400_000;
const json = { "content-type": "application/json" };

interface Received {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** Ports over the test database and ledger, with a clock, a scripted receiver, a read hook and captured queue sends. */
function testPorts(
  opts: { change?: (company: string, r: CompanyRead, at: number) => CompanyRead; replies?: (PostOutcome | ((r: Received) => PostOutcome))[] } = {},
) {
  const clock = { now: DAY1 };
  const sent: { jobs: WatchJob[]; delaySeconds?: number }[] = [];
  const received: Received[] = [];
  const replies = opts.replies ?? [];
  const reads: string[] = [];
  const base = watchPortsFor(env);
  const ports: WatchPorts = {
    ...base,
    now: () => clock.now,
    read: async (company, now) => {
      reads.push(company);
      const r = await readSources(buildServices(env), company, now);
      return opts.change ? opts.change(company, r, clock.now) : r;
    },
    send: async (jobs, delaySeconds) => {
      sent.push({ jobs, delaySeconds });
    },
    post: async (url, body, headers) => {
      const r = { url, body, headers };
      received.push(r);
      const next = replies.length > 1 ? replies.shift()! : (replies[0] ?? { status: 204, headers: new Headers() });
      return typeof next === "function" ? next(r) : next;
    },
  };
  return { ports, clock, sent, received, reads };
}

const post = (key: string, path: string, body: unknown, method = "POST") => call(path, { method, key, headers: json, body: JSON.stringify(body) });
const watch = (key: string, company: string, label?: string) => post(key, "/api/v1/watch", { company, ...(label ? { label } : {}) });
const events = async (key: string, since = 0, limit?: number) =>
  (await (await call(`/api/v1/watch/events?since=${since}${limit ? `&limit=${limit}` : ""}`, { key })).json()) as {
    events: {
      id: number;
      company: string;
      kind: string;
      summary: string;
      before: Record<string, unknown>;
      after: Record<string, unknown>;
      deliveredToWebhook: boolean;
      seenAt: string;
    }[];
    lastId: number;
    more: boolean;
  };
const watches = async (key: string) =>
  (
    (await (await call("/api/v1/watch", { key })).json()) as {
      watches: { company: string; state: string; paidFor: string | null; paused: { reason: string } | null; lastReadAt: string | null; lastSeen: unknown }[];
    }
  ).watches;
const row = (company: string) =>
  env.DB.prepare(`SELECT * FROM watches WHERE company = ?`)
    .bind(company)
    .all<{ state: string; paid_period: string | null; paused_reason: string | null; account_id: string }>();

/** A status change on top of the fixture (the register says liquidation from `from` on). */
const liquidationFrom =
  (from: number) =>
  (company: string, r: CompanyRead, at: number): CompanyRead => {
    if (at < from || r.input.profile instanceof Error || !r.input.profile) return r;
    return { ...r, input: { ...r.input, profile: { ...r.input.profile, status: "liquidation" } } };
  };

/** Companies House down at `day` (the profile read failed). */
const downOn =
  (day: number, inner?: (c: string, r: CompanyRead, at: number) => CompanyRead) =>
  (company: string, r: CompanyRead, at: number): CompanyRead => {
    const x = inner ? inner(company, r, at) : r;
    if (Math.floor(at / DAY) !== Math.floor(day / DAY)) return x;
    return { ...x, input: { ...x.input, profile: new Error("Companies House answered HTTP 503") } };
  };

beforeEach(async () => {
  await env.DB.batch(["watches", "watch_companies", "watch_events", "watch_webhooks"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
});
afterEach(() => vi.restoreAllMocks());

describe("issue 15 §2 the daily read", () => {
  it("the first read of a new watch is its baseline (no events); a change the next day is one event per watching account, with no person named", async () => {
    const a = await createTestKey();
    const b = await createTestKey();
    expect((await watch(a.key, "01234567", "supplier-1")).status).toBe(201);
    expect((await watch(b.key, "01234567")).status).toBe(201);
    const t = testPorts({ change: liquidationFrom(DAY1 + DAY) });
    const day1 = await readWatchedCompany(t.ports, "01234567");
    expect(day1).toMatchObject({ read: true, events: 0 });
    expect((await events(a.key)).events).toEqual([]);
    const listed = await watches(a.key);
    expect(listed[0]).toMatchObject({ company: "01234567", state: "watched", lastReadAt: new Date(DAY1).toISOString() });
    expect(listed[0].lastSeen).toMatchObject({ register: { status: "active", directors: expect.any(Number), pscs: expect.any(Number) } });

    t.clock.now += DAY;
    const day2 = await readWatchedCompany(t.ports, "01234567");
    expect(day2.events).toBe(2); // one status event for each of the two accounts
    for (const k of [a.key, b.key]) {
      const feed = await events(k);
      expect(feed.events).toHaveLength(1);
      expect(feed.events[0]).toMatchObject({
        company: "01234567",
        kind: "status",
        before: { status: "active" },
        after: { status: "liquidation" },
        deliveredToWebhook: false,
        seenAt: new Date(DAY1 + DAY).toISOString(),
      });
      expect(feed.events[0].summary).toMatch(/^HARBOURSIDE LEGAL LIMITED's status on the companies register changed from active to liquidation\.$/);
    }
    // No person the fixtures name appears in any event (test/setup.ts scans every reply too).
    const names = JSON.parse(env.PERSON_NAMES) as string[];
    const all = JSON.stringify(await env.DB.prepare(`SELECT summary, before, after FROM watch_events`).all());
    expect(names.filter((n) => all.toLowerCase().includes(n.toLowerCase()))).toEqual([]);
  });

  it("reading twice in a day writes no duplicate events; read again the next day, an unchanged company writes none", async () => {
    const a = await createTestKey();
    await watch(a.key, "01234567");
    const t = testPorts({ change: liquidationFrom(DAY1 + DAY) });
    await readWatchedCompany(t.ports, "01234567");
    t.clock.now += DAY;
    await readWatchedCompany(t.ports, "01234567");
    // The same read again the same day (a retried message), its reading put back as it was before: the same events, refused.
    await env.DB.prepare(`UPDATE watch_companies SET reading = (SELECT reading FROM watch_companies) `).run();
    const stored = await env.DB.prepare(`SELECT reading FROM watch_companies`).first<{ reading: string }>();
    const before = JSON.parse(stored!.reading);
    before.register.status = "active";
    await env.DB.prepare(`UPDATE watch_companies SET reading = ?`).bind(JSON.stringify(before)).run();
    const again = await readWatchedCompany(t.ports, "01234567");
    expect(again.pending).toEqual([]);
    expect((await events(a.key)).events).toHaveLength(1);
    t.clock.now += DAY;
    await readWatchedCompany(t.ports, "01234567");
    expect((await events(a.key)).events).toHaveLength(1);
  });

  it("a source down for a day keeps the previous reading and is no change; back the next day, the change is reported then", async () => {
    const a = await createTestKey();
    await watch(a.key, "01234567");
    const t = testPorts({ change: downOn(DAY1 + DAY, liquidationFrom(DAY1 + DAY)) });
    await readWatchedCompany(t.ports, "01234567");
    t.clock.now += DAY; // Companies House down: nothing from the register, no "change" to unknown
    await readWatchedCompany(t.ports, "01234567");
    expect((await events(a.key)).events).toEqual([]);
    const seen = (await watches(a.key))[0].lastSeen as { register: { status: string }; notRead: { source: string }[] };
    expect(seen.register.status).toBe("active"); // the previous reading, kept
    expect(seen.notRead.map((n) => n.source)).toEqual(expect.arrayContaining(["register", "distress"]));
    t.clock.now += DAY; // back: compared with the last good reading
    await readWatchedCompany(t.ports, "01234567");
    const feed = await events(a.key);
    expect(feed.events.map((e) => [e.kind, e.after.status, e.seenAt])).toEqual([["status", "liquidation", new Date(DAY1 + 2 * DAY).toISOString()]]);
  });

  it("events are oldest first and paged: since, limit, lastId and more", async () => {
    const a = await createTestKey();
    for (const c of ["01234567", "12300001", "12300002"]) expect((await watch(a.key, c)).status).toBe(201);
    const t = testPorts({ change: liquidationFrom(DAY1 + DAY) });
    for (const c of ["01234567", "12300001", "12300002"]) await readWatchedCompany(t.ports, c);
    t.clock.now += DAY;
    for (const c of ["01234567", "12300002", "12300001"]) await readWatchedCompany(t.ports, c);
    const all = await events(a.key);
    expect(all.events.length).toBeGreaterThanOrEqual(2);
    const ids = all.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(all).toMatchObject({ lastId: ids.at(-1), more: false });
    const page1 = await events(a.key, 0, 1);
    expect(page1).toMatchObject({ lastId: ids[0], more: true });
    const page2 = await events(a.key, page1.lastId, 1);
    expect(page2.events[0].id).toBe(ids[1]);
    const end = await events(a.key, ids.at(-1));
    expect(end).toEqual({ events: [], lastId: ids.at(-1), more: false });
    // Removing a watch leaves its events in the feed.
    expect((await call("/api/v1/watch?company=01234567", { method: "DELETE", key: a.key })).status).toBe(200);
    expect((await events(a.key)).events.map((e) => e.id)).toEqual(ids);
  });

  it("the five-minute tick sends new companies at once and others at their minute of the day, and due deliveries", async () => {
    const a = await createTestKey();
    await watch(a.key, "01234567");
    await watch(a.key, "12300001");
    const t = testPorts();
    await watchTick(t.ports);
    const reads = t.sent.flatMap((s) => s.jobs).filter((j) => j.kind === "read");
    expect(reads.flatMap((j) => (j.kind === "read" ? j.companies : [])).sort()).toEqual(["01234567", "12300001"]);
    for (const j of reads) await handleWatchJob(t.ports, j);
    t.sent.length = 0;
    await watchTick(t.ports); // read today: not due again
    expect(t.sent.flatMap((s) => s.jobs)).toEqual([]);
    // The next day each is due at its own minute: at 23:59 both have been.
    t.clock.now = Date.parse("2026-11-25T23:59:00Z");
    await watchTick(t.ports);
    expect(
      t.sent
        .flatMap((s) => s.jobs)
        .flatMap((j) => (j.kind === "read" ? j.companies : []))
        .sort(),
    ).toEqual(["01234567", "12300001"]);
  });
});

describe("issue 15 §4 the state table of SPEC §3.1", () => {
  it("not watched → watched: 2 credits now; again: idempotent, free, the label replaced; an unknown company is 404 with query and free", async () => {
    const a = await createTestKey({ credits: 10 });
    const r = await watch(a.key, "1234567", "first");
    expect(r.status).toBe(201);
    expect(r.headers.get("x-credits-remaining")).toBe("8");
    expect(await r.json()).toMatchObject({ created: true, charged: 2, watch: { company: "01234567", state: "watched", label: "first", paidFor: "2026-11" } });
    const again = await watch(a.key, "01234567", "renamed");
    expect(again.status).toBe(200);
    expect(again.headers.get("x-credits-remaining")).toBeNull();
    expect(await again.json()).toMatchObject({ created: false, charged: 0, watch: { label: "renamed" } });
    expect(await (await post(a.key, "/api/v1/watch", { company: "01234567", label: "" })).json()).toMatchObject({ charged: 0, watch: { label: null } });
    const bad = await watch(a.key, "01234567", "x".repeat(101));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "bad_request", field: "label" });
    const notANumber = await watch(a.key, "ACME LTD");
    expect(notANumber.status).toBe(400);
    expect(await notANumber.json()).toMatchObject({ code: "bad_request", field: "company" });
    const unknown = await watch(a.key, "99999999");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "not_found", query: "99999999" });
    expect((await ledgerOf(`acct:${a.accountId}`).peek("2026-11", 100, 10)).remaining).toBe(8);
  });

  it("without enough credits nothing is added (429) and nothing is charged", async () => {
    const a = await createTestKey({ credits: 1 });
    const r = await watch(a.key, "01234567");
    expect(r.status).toBe(429);
    expect(await r.json()).toMatchObject({ code: "quota_exhausted" });
    expect((await row("01234567")).results).toEqual([]);
  });

  it("watched → watched at the first read of a month with credits (2 taken, once however often it reads); → paused without; → watched again when credits are there", async () => {
    const a = await createTestKey({ credits: 10 });
    await watch(a.key, "01234567");
    const ledger = ledgerOf(`acct:${a.accountId}`);
    const t = testPorts({ change: liquidationFrom(Date.parse("2026-12-02T00:00:00Z")) });
    await readWatchedCompany(t.ports, "01234567"); // November: paid already, nothing charged
    expect((await ledger.peek("2026-11", 100, 10)).remaining).toBe(8);

    // 1 December, with credits (the new month opens at the plan's 100): 2 taken at the first read, not again.
    t.clock.now = Date.parse("2026-12-01T08:00:00Z");
    const dec1 = await readWatchedCompany(t.ports, "01234567");
    expect(dec1).toMatchObject({ charged: 2, paused: 0, read: true });
    expect((await ledger.peek("2026-12", 100, null)).remaining).toBe(98);
    await readWatchedCompany(t.ports, "01234567");
    expect((await ledger.peek("2026-12", 100, null)).remaining).toBe(98);
    expect((await row("01234567")).results[0]).toMatchObject({ state: "watched", paid_period: "2026-12" });

    // 1 January without credits (a starting balance of 1 for the month): paused, said so, kept; not read.
    await env.DB.prepare(`UPDATE api_keys SET credits_override = 1, credits_override_period = '2027-01' WHERE id = ?`).bind(a.keyId).run();
    t.clock.now = Date.parse("2027-01-01T08:00:00Z");
    const jan1 = await readWatchedCompany(t.ports, "01234567");
    expect(jan1).toMatchObject({ charged: 0, paused: 1, read: false });
    const paused = (await watches(a.key))[0];
    expect(paused).toMatchObject({ state: "paused", paidFor: "2026-12" });
    expect(paused.paused!.reason).toMatch(/2 credits could not be taken on 2027-01-01 \(1 left\).*resumes/);
    expect((await ledger.peek("2027-01", 100, 1)).remaining).toBe(1);
    // The next day, still short: still paused, nothing read, nothing charged.
    t.clock.now += DAY;
    expect(await readWatchedCompany(t.ports, "01234567")).toMatchObject({ paused: 0, read: false, charged: 0 });

    // Credits there again (the month's balance raised to 6): the next daily read resumes it, charged then, from a
    // fresh baseline (no events for that read).
    await env.DB.prepare(`UPDATE api_keys SET credits_override = 6 WHERE id = ?`).bind(a.keyId).run();
    t.clock.now += DAY;
    const back = await readWatchedCompany(t.ports, "01234567");
    expect(back).toMatchObject({ charged: 2, resumed: 1, read: true, events: 0 });
    expect((await ledger.peek("2027-01", 100, 6)).remaining).toBe(4);
    expect((await watches(a.key))[0]).toMatchObject({ state: "watched", paidFor: "2027-01", paused: null });
  });

  it("paused → watched at once with POST /api/v1/watch (2 credits); watched or paused → not watched with DELETE", async () => {
    const a = await createTestKey({ credits: 10 });
    // Paused at this month's first read (its credits were not there then).
    await env.DB.batch([
      env.DB.prepare(`INSERT INTO watch_companies (company, slot) VALUES ('01234567', 1)`),
      env.DB.prepare(
        `INSERT INTO watches (account_id, company, state, added_at, paid_period, paused_at, paused_reason) VALUES (?, '01234567', 'paused', '2026-10-01T00:00:00Z', '2026-10', '2026-11-01T00:00:00Z', 'short')`,
      ).bind(a.accountId),
    ]);
    const r = await watch(a.key, "01234567");
    expect(r.status).toBe(201);
    expect(await r.json()).toMatchObject({ resumed: true, charged: 2, watch: { state: "watched", paidFor: "2026-11", paused: null } });
    expect(r.headers.get("x-credits-remaining")).toBe("8");
    await env.DB.prepare(`UPDATE watches SET state = 'paused'`).run();
    const del = await call("/api/v1/watch?company=01234567", { method: "DELETE", key: a.key });
    expect(await del.json()).toEqual({ company: "01234567", removed: true });
    expect((await call("/api/v1/watch?company=01234567", { method: "DELETE", key: a.key })).status).toBe(404);
    expect(await watches(a.key)).toEqual([]);
  });

  it("the plan's most watches (free: 25) answers 409 watch_limit_reached, charged nothing", async () => {
    const a = await createTestKey({ credits: 100 });
    await env.DB.batch(
      Array.from({ length: 25 }, (_, i) =>
        env.DB.prepare(`INSERT INTO watches (account_id, company, added_at, paid_period) VALUES (?, ?, '2026-11-01T00:00:00Z', '2026-11')`).bind(
          a.accountId,
          `900000${String(i).padStart(2, "0")}`,
        ),
      ),
    );
    const r = await watch(a.key, "01234567");
    expect(r.status).toBe(409);
    expect(await r.json()).toMatchObject({ code: "watch_limit_reached" });
    expect((await ledgerOf(`acct:${a.accountId}`).peek("2026-11", 100, 100)).remaining).toBe(100);
  });
});

describe("issue 15 §3 webhook delivery", () => {
  /** A watch with a webhook at hooks.test (a test host), and an event recorded as pending delivery. */
  async function withPendingEvent(replies?: NonNullable<Parameters<typeof testPorts>[0]>["replies"]) {
    const a = await createTestKey();
    await watch(a.key, "01234567");
    const set = await post(a.key, "/api/v1/watch/webhook", { url: "https://hooks.test/ok" }, "PUT");
    expect(set.status).toBe(200);
    const { secret } = (await set.json()) as { secret: string };
    const t = testPorts({ change: liquidationFrom(DAY1 + DAY), replies });
    await readWatchedCompany(t.ports, "01234567");
    t.clock.now += DAY;
    await handleWatchJob(t.ports, { kind: "read", companies: ["01234567"] });
    const wake = t.sent.flatMap((s) => s.jobs).find((j) => j.kind === "deliver");
    expect(wake).toBeDefined();
    const id = wake!.kind === "deliver" ? wake!.ids[0] : 0;
    return { a, t, id, secret };
  }
  const stateOf = (id: number) =>
    env.DB.prepare(`SELECT delivery, delivered, attempts, next_attempt_at, last_error FROM watch_events WHERE id = ?`)
      .bind(id)
      .first<{ delivery: string; delivered: number; attempts: number; next_attempt_at: number | null; last_error: string | null }>();

  it("success: the body is the event, signed; the standardwebhooks library verifies it, and rejects it with the body changed or a stale timestamp; deliveredToWebhook becomes true", async () => {
    const { a, t, id, secret } = await withPendingEvent();
    expect(await deliverEvent(t.ports, id)).toBe("delivered");
    const got = t.received[0];
    expect(got.url).toBe("https://hooks.test/ok");
    const body = JSON.parse(got.body);
    expect(Object.keys(body).sort()).toEqual(["after", "before", "company", "deliveredToWebhook", "id", "kind", "seenAt", "summary"]);
    expect(body).toMatchObject({ id, kind: "status", company: "01234567" });
    expect(got.headers["webhook-id"]).toBe(`evt_${id}`);
    vi.useFakeTimers({ toFake: ["Date"], now: t.clock.now });
    try {
      const wh = new Webhook(secret);
      expect(wh.verify(got.body, got.headers)).toMatchObject({ id });
      expect(() => wh.verify(got.body.replace("liquidation", "dissolved"), got.headers)).toThrow();
      vi.setSystemTime(t.clock.now + 10 * 60_000);
      expect(() => wh.verify(got.body, got.headers)).toThrow(/timestamp/i);
    } finally {
      vi.useRealTimers();
    }
    expect(
      await verifyServiceSignature({ header: got.headers["X-Service-Signature"], body: got.body, secret, now: Math.floor(t.clock.now / 1000) }),
    ).toMatchObject({ ok: true });
    expect((await events(a.key)).events[0].deliveredToWebhook).toBe(true);
    expect(await stateOf(id)).toMatchObject({ delivery: "delivered", delivered: 1, attempts: 1 });
  });

  it("a 500 then success: retried at its time (5 minutes), delivered on the retry; not before", async () => {
    const { t, id } = await withPendingEvent([
      { status: 500, headers: new Headers() },
      { status: 200, headers: new Headers() },
    ]);
    expect(await deliverEvent(t.ports, id)).toBe("retry");
    expect(await stateOf(id)).toMatchObject({
      delivery: "pending",
      delivered: 0,
      attempts: 1,
      next_attempt_at: t.clock.now + 5 * 60_000,
      last_error: "HTTP 500",
    });
    expect(t.sent.at(-1)).toEqual({ jobs: [{ kind: "deliver", ids: [id] }], delaySeconds: 300 });
    expect(await deliverEvent(t.ports, id)).toBe("skipped"); // not yet due
    t.clock.now += 5 * 60_000;
    expect(await deliverEvent(t.ports, id)).toBe("delivered");
    expect(await stateOf(id)).toMatchObject({ delivery: "delivered", delivered: 1, attempts: 2 });
    expect(t.received.map((r) => r.headers["webhook-id"])).toEqual([`evt_${id}`, `evt_${id}`]);
  });

  it("a 410 disables the webhook: no further deliveries, and GET /api/v1/watch/webhook says so", async () => {
    const { a, t, id } = await withPendingEvent([{ status: 410, headers: new Headers() }]);
    expect(await deliverEvent(t.ports, id)).toBe("disabled");
    expect(await stateOf(id)).toMatchObject({ delivery: "failed", delivered: 0 });
    const hook = (await (await call("/api/v1/watch/webhook", { key: a.key })).json()) as {
      disabled: { reason: string } | null;
      deliveries: Record<string, number>;
    };
    expect(hook.disabled!.reason).toMatch(/410/);
    expect(hook.deliveries).toMatchObject({ failed: 1, pending: 0 });
    expect((await events(a.key)).events).toHaveLength(1); // still in the feed
  });

  it("a timeout and a redirect (to a private address, never followed) are failures, retried; five retries over two days, then failed", async () => {
    const { t, id } = await withPendingEvent([
      { error: "timeout", reason: "no reply within 15 s" },
      { status: 302, headers: new Headers({ location: "http://127.0.0.1/admin" }) },
    ]);
    expect(await deliverEvent(t.ports, id)).toBe("retry");
    expect((await stateOf(id))!.last_error).toMatch(/timeout/);
    const first = t.clock.now;
    for (let i = 0; i < 5; i++) {
      t.clock.now = (await stateOf(id))!.next_attempt_at!;
      const r = await deliverEvent(t.ports, id);
      expect(r).toBe(i < 4 ? "retry" : "failed");
    }
    expect(t.received).toHaveLength(6);
    expect(t.received.every((r) => r.url === "https://hooks.test/ok")).toBe(true); // the Location was never fetched
    expect(await stateOf(id)).toMatchObject({ delivery: "failed", delivered: 0, attempts: 6 });
    expect((await stateOf(id))!.last_error).toMatch(/HTTP 302: redirects are not followed/);
    expect(t.clock.now - first).toBeLessThanOrEqual(48 * 3600_000);
  });

  it("the real poster refuses a webhook whose address is private, at delivery time, and posts nothing", async () => {
    const services = buildServices(env);
    const r = await services.webhooks.post("https://127.0.0.1/hook", "{}", {});
    expect(r).toMatchObject({ error: "refused-address" });
    const http = await services.webhooks.post("http://example.co.uk/hook", "{}", {});
    expect(http).toMatchObject({ error: "refused-address" });
    const redirect = await services.webhooks.post("https://hooks.test/status/302", "{}", {});
    expect(redirect).toMatchObject({ status: 302 });
  });
});

describe("issue 15 §3 no event is lost", () => {
  /** A watch with a webhook, read once (its baseline); the clock on the next day, when the company has changed. */
  async function watchedWithWebhook() {
    const a = await createTestKey();
    await watch(a.key, "01234567");
    await post(a.key, "/api/v1/watch/webhook", { url: "https://hooks.test/ok" }, "PUT");
    const t = testPorts({ change: liquidationFrom(DAY1 + DAY) });
    await readWatchedCompany(t.ports, "01234567");
    t.clock.now += DAY;
    return { a, t };
  }

  it("the Worker dies between reading and recording: nothing is written, and the next read records the same events", async () => {
    const a = await createTestKey();
    await watch(a.key, "01234567");
    const t = testPorts({ change: liquidationFrom(DAY1 + DAY) });
    await readWatchedCompany(t.ports, "01234567");
    t.clock.now += DAY;
    const db = env.DB;
    const dying: WatchPorts = {
      ...t.ports,
      db: new Proxy(db, {
        get: (o, p) => (p === "batch" ? () => Promise.reject(new Error("the isolate died")) : (Reflect.get(o, p).bind?.(o) ?? Reflect.get(o, p))),
      }),
    };
    await expect(readWatchedCompany(dying, "01234567")).rejects.toThrow(/died/);
    expect((await events(a.key)).events).toEqual([]);
    const kept = await env.DB.prepare(`SELECT reading FROM watch_companies`).first<{ reading: string }>();
    expect(JSON.parse(kept!.reading).register.status).toBe("active"); // the reading did not move on
    await readWatchedCompany(t.ports, "01234567"); // the queue's retry
    expect((await events(a.key)).events.map((e) => e.kind)).toEqual(["status"]);
  });

  it("the Worker dies between recording and delivering (the wake-up never sent): the sweep finds the event pending and it is delivered", async () => {
    const { a, t } = await watchedWithWebhook();
    const lost: WatchPorts = { ...t.ports, send: () => Promise.reject(new Error("the isolate died")) };
    await handleWatchJob(lost, { kind: "read", companies: ["01234567"] }); // recorded; the wake-up lost
    const [e] = (await events(a.key)).events;
    expect(e.deliveredToWebhook).toBe(false);
    t.sent.length = 0;
    await watchTick(t.ports);
    const sweep = t.sent.flatMap((s) => s.jobs).find((j) => j.kind === "deliver");
    expect(sweep).toEqual({ kind: "deliver", ids: [e.id] });
    await handleWatchJob(t.ports, sweep!);
    expect((await events(a.key)).events[0].deliveredToWebhook).toBe(true);
  });

  it("the Worker dies after posting but before recording: the lease runs out and the event is posted again with the same webhook-id", async () => {
    const { a, t } = await watchedWithWebhook();
    await readWatchedCompany(t.ports, "01234567");
    const [e] = (await events(a.key)).events;
    const db = env.DB;
    let posted = false;
    const dying: WatchPorts = {
      ...t.ports,
      post: async (...args) => {
        posted = true;
        return t.ports.post(...args);
      },
      db: new Proxy(db, {
        get: (o, p) =>
          p === "prepare"
            ? (sql: string) =>
                posted && /SET delivered = 1/.test(sql) ? { bind: () => ({ run: () => Promise.reject(new Error("the isolate died")) }) } : o.prepare(sql)
            : (Reflect.get(o, p).bind?.(o) ?? Reflect.get(o, p)),
      }),
    };
    await expect(deliverEvent(dying, e.id)).rejects.toThrow(/died/);
    await watchTick(t.ports);
    expect(t.sent.flatMap((s) => s.jobs).some((j) => j.kind === "deliver")).toBe(false); // leased
    t.clock.now += 61_000;
    t.sent.length = 0;
    await watchTick(t.ports);
    expect(t.sent.flatMap((s) => s.jobs)).toContainEqual({ kind: "deliver", ids: [e.id] });
    expect(await deliverEvent(t.ports, e.id)).toBe("delivered");
    expect(t.received.map((r) => r.headers["webhook-id"])).toEqual([`evt_${e.id}`, `evt_${e.id}`]);
    expect((await events(a.key)).events[0].deliveredToWebhook).toBe(true);
  });
});

describe("issue 33 §3 the registers too: a watched company appearing on or leaving a register is an event", () => {
  it("a new SRA edition without the watched company's firm: register_left naming the edition, in the event feed and delivered to the webhook, signed", async () => {
    const enc = (t: string) => new TextEncoder().encode(t);
    const sra = JSON.parse(await (await fetch("http://files.test/sra/GetAll.json")).text()) as {
      Count: number;
      Organisations: { CompanyRegNo: string | null }[];
    };
    // The SRA's sample lists Harbourside Legal's firm by its company number (1234567: 01234567).
    expect(sra.Organisations.some((o) => o.CompanyRegNo === "1234567")).toBe(true);
    const load = async (orgs: typeof sra.Organisations, editionDate: string) =>
      ingestEdition(ingestPortsFor(env), {
        source: "sra",
        bytes: enc(JSON.stringify({ Count: orgs.length, Organisations: orgs })),
        fileName: "GetAll.json",
        url: null,
        editionDate,
      });
    expect((await load(sra.Organisations, "2026-10-08")).outcome).toMatch(/loaded|unchanged|refused/);

    const a = await createTestKey();
    expect((await watch(a.key, "01234567")).status).toBe(201);
    const set = await post(a.key, "/api/v1/watch/webhook", { url: "https://hooks.test/ok" }, "PUT");
    const { secret } = (await set.json()) as { secret: string };
    const t = testPorts();
    expect(await readWatchedCompany(t.ports, "01234567")).toMatchObject({ read: true, events: 0 }); // the baseline, the firm listed

    expect(
      (
        await load(
          sra.Organisations.filter((o) => o.CompanyRegNo !== "1234567"),
          "2026-10-09",
        )
      ).outcome,
    ).toBe("loaded");
    t.clock.now += DAY;
    await handleWatchJob(t.ports, { kind: "read", companies: ["01234567"] });
    const feed = (await events(a.key)).events.filter((e) => e.kind.startsWith("register_"));
    expect(feed).toHaveLength(1);
    expect(feed[0]).toMatchObject({
      kind: "register_left",
      company: "01234567",
      before: { register: "sra", listed: true },
      after: { register: "sra", listed: false },
    });
    expect(feed[0].summary).toMatch(/^HARBOURSIDE LEGAL LIMITED is no longer listed on the SRA register/);
    // The edition is named: the entry, or the summary, says which edition it was read from.
    expect(JSON.stringify(feed[0])).toMatch(/2026-10-0[89]/);

    const wake = t.sent.flatMap((s) => s.jobs).find((j) => j.kind === "deliver");
    expect(wake).toBeDefined();
    const id = wake!.kind === "deliver" ? (wake!.ids.find((x) => x === feed[0].id) ?? wake!.ids[0]) : 0;
    expect(await deliverEvent(t.ports, feed[0].id)).toBe("delivered");
    const got = t.received.find((r) => JSON.parse(r.body).id === feed[0].id)!;
    expect(JSON.parse(got.body)).toMatchObject({ kind: "register_left", company: "01234567" });
    vi.useFakeTimers({ toFake: ["Date"], now: t.clock.now });
    try {
      expect(new Webhook(secret).verify(got.body, got.headers)).toMatchObject({ id: feed[0].id });
    } finally {
      vi.useRealTimers();
    }
    expect(id).toBeGreaterThan(0);
  });
});
