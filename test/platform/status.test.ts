import { beforeEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { resetStatusCache, statusResponse } from "../../src/platform/status";
import { call, json } from "../helpers";
import { API_VERSION } from "../../src/shared/version";

const UPSTREAMS = ["companies-house", "the-gazette", "gov-uk-content", "sra", "cqc", "charity-commission", "find-a-tender", "contracts-finder"];

beforeEach(() => {
  resetStatusCache();
  vi.restoreAllMocks();
});

describe("SPEC §1 /api/status asks the database and the upstream sources", () => {
  it("SPEC §1 200 with database ok and every upstream named, each checked", async () => {
    const r = await call("/api/status");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-request-id")).toMatch(/^req_/);
    const body = await json(r);
    expect(body.version).toBe(API_VERSION);
    expect(body.database).toMatchObject({ name: "d1", state: "ok" });
    expect(Array.isArray(body.sources)).toBe(true);
    const upstream = body.sources.filter((s: { name: string }) => UPSTREAMS.includes(s.name));
    expect(upstream.map((s: { name: string }) => s.name)).toEqual(UPSTREAMS);
    for (const s of upstream) expect(["ok", "down"]).toContain(s.state);
    expect(body.status).toBe(body.sources.some((s: { state: string }) => s.state === "down" || s.state === "degraded") ? "degraded" : "ok");
  });

  it("SPEC §1 upstreams answering 5xx (599 = unreachable in tests) → degraded, never a 500", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 599 }));
    const r = await call("/api/status");
    expect(r.status).toBe(200);
    const body = await json(r);
    for (const s of body.sources.filter((x: { name: string }) => UPSTREAMS.includes(x.name))) expect(s).toMatchObject({ state: "down", detail: "HTTP 599" });
    expect(body.database.state).toBe("ok");
    expect(body.status).toBe("degraded");
  });

  it("SPEC §1 all upstreams answering (even 401/404) → ok", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 401 }));
    const body = await json(await call("/api/status"));
    expect(body.sources.filter((s: { name: string }) => UPSTREAMS.includes(s.name)).map((s: { state: string }) => s.state)).toEqual(UPSTREAMS.map(() => "ok"));
    expect(body.status).toBe("ok");
  });

  it("SPEC §1 a network failure is reported as unreachable, still 200", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("connection refused"));
    const r = await call("/api/status");
    expect(r.status).toBe(200);
    const body = await json(r);
    expect(body.sources[0]).toMatchObject({ name: "companies-house", state: "down", detail: "unreachable" });
    expect(body.status).toBe("degraded");
  });

  it("SPEC §1 upstream checks are cached for a minute: a second call does not ask again", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    await (await call("/api/status")).body?.cancel();
    expect(spy).toHaveBeenCalledTimes(UPSTREAMS.length);
    await (await call("/api/status")).body?.cancel();
    expect(spy).toHaveBeenCalledTimes(UPSTREAMS.length);
  });

  it("issue 30 §2: the readers Worker is asked through its binding (a real RPC call here), and reported not_configured without one", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 401 }));
    const body = await json(await call("/api/status"));
    expect(body.sources.find((s: { name: string }) => s.name === "readers-worker")).toMatchObject({ state: "ok" });
    resetStatusCache();
    const unbound = await statusResponse({ ...env, READERS: undefined }, () => {});
    expect(unbound.sources.find((s) => s.name === "readers-worker")).toMatchObject({ state: "not_configured" });
    resetStatusCache();
    const noBrowser = await statusResponse({ ...env, READERS: { ping: async () => ({ browser: false }) } as never }, () => {});
    expect(noBrowser.sources.find((s) => s.name === "readers-worker")).toMatchObject({ state: "degraded" });
    expect(noBrowser.status).toBe("degraded");
    resetStatusCache();
    const down = await statusResponse({ ...env, READERS: { ping: async () => Promise.reject(new Error("gone")) } as never }, () => {});
    expect(down.sources.find((s) => s.name === "readers-worker")).toMatchObject({ state: "down", detail: "unreachable" });
  });
});
