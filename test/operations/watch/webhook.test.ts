import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { deliverEvent } from "../../../src/jobs/watch/deliver";
import { watchPortsFor } from "../../../src/platform/jobPorts";
import type { WatchPorts } from "../../../src/services/watch/feed";
import { call, createTestKey } from "../../helpers";

/**
 * Issue 15 §1 PUT /api/v1/watch/webhook and its companions: https only through the safe fetcher's address rules, the
 * secret returned once, rotation with 24 hours of dual signing, removal (pending deliveries cancelled) and a test event.
 */

const json = { "content-type": "application/json" };
const put = (key: string, url: unknown) => call("/api/v1/watch/webhook", { method: "PUT", key, headers: json, body: JSON.stringify({ url }) });

beforeEach(async () => {
  await env.DB.batch(["watches", "watch_companies", "watch_events", "watch_webhooks"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
});
afterEach(() => vi.restoreAllMocks());

describe("issue 15 §1 setting the webhook", () => {
  it("bad URLs are refused naming the field, before anything is stored: http, not a URL, too long, a private address, a local name", async () => {
    const { key } = await createTestKey();
    const cases: [unknown, number, string][] = [
      ["http://hooks.example.co.uk/x", 400, "invalid_url"],
      ["not a url", 400, "invalid_url"],
      [`https://hooks.example.co.uk/${"x".repeat(500)}`, 400, "bad_request"],
      ["https://127.0.0.1/hook", 422, "blocked_address"],
      ["https://10.0.0.8/hook", 422, "blocked_address"],
      ["https://[::1]/hook", 422, "blocked_address"],
      ["https://localhost/hook", 422, "blocked_address"],
      [42, 400, "bad_request"],
      ["", 400, "bad_request"],
    ];
    for (const [url, status, code] of cases) {
      const r = await put(key, url);
      const body = (await r.json()) as { code: string; requestId: string; message: string };
      expect([url, r.status, body.code]).toEqual([url, status, code]);
      expect(body.requestId).toMatch(/^req_/);
    }
    expect((await call("/api/v1/watch/webhook", { key })).status).toBe(404);
  });

  it("a host that resolves to a private address is refused (DNS checked at PUT)", async () => {
    const { key } = await createTestKey();
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.hostname === "dns.test")
        return Response.json({ Status: 0, Answer: url.searchParams.get("type") === "A" ? [{ type: 1, data: "192.168.1.20", TTL: 60 }] : [] });
      return real(input, init);
    });
    const r = await put(key, "https://rebind.example.co.uk/hook");
    expect(r.status).toBe(422);
    expect(await r.json()).toMatchObject({ code: "blocked_address", field: "url" });
  });

  it("the secret is returned once; GET never shows it; PUT again rotates it and the old one signs alongside for 24 hours; DELETE removes it", async () => {
    const { key, accountId } = await createTestKey();
    const first = await put(key, "https://hooks.test/ok");
    expect(first.status).toBe(200);
    const one = (await first.json()) as { secret: string; url: string; replaced: boolean; previousSecretSignsUntil: string | null };
    expect(one).toMatchObject({ url: "https://hooks.test/ok", replaced: false, previousSecretSignsUntil: null });
    expect(one.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const stored = await env.DB.prepare(`SELECT secret FROM watch_webhooks WHERE account_id = ?`).bind(accountId).first<{ secret: string }>();
    expect(stored!.secret).not.toContain(one.secret.slice(6)); // sealed at rest
    const got = await (await call("/api/v1/watch/webhook", { key })).text();
    expect(got).not.toContain(one.secret.slice(6));
    expect(JSON.parse(got)).toMatchObject({ url: "https://hooks.test/ok", disabled: null, deliveries: { pending: 0, delivered: 0, failed: 0, cancelled: 0 } });

    const second = (await (await put(key, "https://hooks.test/ok")).json()) as { secret: string; replaced: boolean; previousSecretSignsUntil: string };
    expect(second.replaced).toBe(true);
    expect(second.secret).not.toBe(one.secret);
    expect(Date.parse(second.previousSecretSignsUntil) - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    // A delivery now carries both signatures: a receiver holding either secret verifies it.
    await env.DB.prepare(
      `INSERT INTO watch_events (account_id, company, seen_at, kind, summary, before, after, event_key, delivery, next_attempt_at) VALUES (?, '01234567', '2026-11-24T09:00:00.000Z', 'status', 'x', '{}', '{}', 'k1', 'pending', 0)`,
    )
      .bind(accountId)
      .run();
    const id = (await env.DB.prepare(`SELECT id FROM watch_events WHERE event_key = 'k1'`).first<{ id: number }>())!.id;
    const posted: { body: string; headers: Record<string, string> }[] = [];
    const ports: WatchPorts = {
      ...watchPortsFor(env),
      post: async (_u, body, headers) => (posted.push({ body, headers }), { status: 204, headers: new Headers() }),
    };
    expect(await deliverEvent(ports, id)).toBe("delivered");
    expect(posted[0].headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(posted[0].headers["X-Service-Signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const s of [one.secret, second.secret]) expect(new Webhook(s).verify(posted[0].body, posted[0].headers)).toMatchObject({ id });

    // Removing it cancels deliveries not yet made; the events stay in the feed.
    await env.DB.prepare(
      `INSERT INTO watch_events (account_id, company, seen_at, kind, summary, before, after, event_key, delivery, next_attempt_at) VALUES (?, '01234567', '2026-11-24T09:00:00.000Z', 'status', 'y', '{}', '{}', 'k2', 'pending', 0)`,
    )
      .bind(accountId)
      .run();
    expect(await (await call("/api/v1/watch/webhook", { method: "DELETE", key })).json()).toEqual({ removed: true });
    expect((await env.DB.prepare(`SELECT delivery FROM watch_events WHERE event_key = 'k2'`).first<{ delivery: string }>())!.delivery).toBe("cancelled");
    expect((await call("/api/v1/watch/webhook", { method: "DELETE", key })).status).toBe(404);
    expect((await call("/api/v1/watch/webhook/test", { method: "POST", key, headers: json, body: "{}" })).status).toBe(404);
    const feed = (await (await call("/api/v1/watch/events", { key })).json()) as { events: { summary: string; deliveredToWebhook: boolean }[] };
    expect(feed.events.map((e) => [e.summary, e.deliveredToWebhook])).toEqual([
      ["x", true],
      ["y", false],
    ]);
  });

  it("a test event: delivered on a 2xx; a 410, a 500 or a redirect says why, and never disables the webhook", async () => {
    const { key } = await createTestKey();
    const test = async () =>
      (await (await call("/api/v1/watch/webhook/test", { method: "POST", key, headers: json, body: "{}" })).json()) as Record<string, unknown>;
    await put(key, "https://hooks.test/ok");
    expect(await test()).toMatchObject({ delivered: true, status: 204, error: null, webhookId: expect.stringMatching(/^test_/) });
    await put(key, "https://hooks.test/status/410");
    expect(await test()).toMatchObject({ delivered: false, status: 410, error: "HTTP 410" });
    await put(key, "https://hooks.test/status/500");
    expect(await test()).toMatchObject({ delivered: false, status: 500 });
    await put(key, "https://hooks.test/status/302");
    expect(await test()).toMatchObject({ delivered: false, status: 302, error: "HTTP 302: redirects are not followed" });
    expect(await (await call("/api/v1/watch/webhook", { key })).json()).toMatchObject({ disabled: null });
  });
});
