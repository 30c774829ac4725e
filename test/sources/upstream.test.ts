import { describe, expect, it } from "vitest";
import type { UpstreamError } from "../../src/shared/errors";
import { memoryHttpCache, memoryRequestBudget } from "../../src/shared/ports";
import { createUpstream, kindOfStatus, retryAfterOf } from "../../src/sources/upstream";

/** A fetch stand-in answering from a list, one per call; records the URLs asked for. */
function scripted(answers: (() => Response | Promise<Response>)[]) {
  const urls: string[] = [];
  const f = (async (input: RequestInfo | URL) => {
    urls.push(String(input));
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    return next();
  }) as typeof fetch;
  return { f, urls };
}

const thrown = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: UpstreamError) => e,
  );

describe("issue 10 §2: the shared upstream GET (cache, budget, time limit, retry, 429)", () => {
  it("caches an answer for its TTL by the injected clock, and serves it without a fetch until it expires", async () => {
    let now = 1_000_000;
    const clock = () => now;
    const { f, urls } = scripted([() => new Response("one"), () => new Response("two")]);
    const up = createUpstream({ source: "x", label: "X", baseUrl: "https://x.test/", cache: memoryHttpCache(clock), clock, fetchImpl: f });
    const opts = { cacheKey: "k", ttlSeconds: () => 60 };
    expect((await up.cachedGet("/a", opts)).body).toBe("one");
    now += 59_000;
    expect(await up.cachedGet("/a", opts)).toMatchObject({ body: "one", fromCache: true });
    now += 2_000;
    expect(await up.cachedGet("/a", opts)).toMatchObject({ body: "two", fromCache: false });
    expect(urls).toEqual(["https://x.test/a", "https://x.test/a"]);
  });

  it("takes the budget before fetching; a spent budget is rate_limited with its wait, and nothing is fetched", async () => {
    const { f, urls } = scripted([() => new Response("ok")]);
    const up = createUpstream({
      source: "x",
      label: "X",
      baseUrl: "https://x.test",
      budget: memoryRequestBudget({ x: { limit: 1, windowSeconds: 300 } }),
      clock: () => 0,
      fetchImpl: f,
    });
    await up.cachedGet("/a");
    const e = await thrown(up.cachedGet("/b"));
    expect(e).toMatchObject({ name: "UpstreamError", source: "x", kind: "rate_limited", retryAfter: 300 });
    expect(urls).toHaveLength(1);
  });

  it("429 says when to retry (Retry-After, or X-Ratelimit-Reset in epoch seconds); 5xx, 401 and an unexpected 404 have their kinds; none is cached", async () => {
    const cache = memoryHttpCache();
    const { f } = scripted([
      () => new Response("", { status: 429, headers: { "retry-after": "17" } }),
      () => new Response("", { status: 502 }),
      () => new Response("", { status: 401 }),
      () => new Response("", { status: 404 }),
    ]);
    const up = createUpstream({ source: "x", label: "X", baseUrl: "https://x.test", cache, fetchImpl: f });
    const opts = { cacheKey: "k", ttlSeconds: () => 60 };
    expect(await thrown(up.cachedGet("/a", opts))).toMatchObject({ kind: "rate_limited", status: 429, retryAfter: 17 });
    expect(await thrown(up.cachedGet("/a", opts))).toMatchObject({ kind: "unreachable", status: 502 });
    expect(await thrown(up.cachedGet("/a", opts))).toMatchObject({ kind: "refused", status: 401 });
    expect(await thrown(up.cachedGet("/a", opts))).toMatchObject({ kind: "not_found", status: 404 });
    expect(cache.size()).toBe(0);
    expect(retryAfterOf(new Headers({ "x-ratelimit-reset": "1000120" }), 1_000_000_000)).toBe(120);
    expect([kindOfStatus(429), kindOfStatus(503), kindOfStatus(403), kindOfStatus(410)]).toEqual(["rate_limited", "unreachable", "refused", "not_found"]);
  });

  it("a status listed in `answers` is an answer (cached with its own TTL); `check` can refuse an answer, which is then not cached", async () => {
    const cache = memoryHttpCache();
    const { f } = scripted([() => new Response("gone", { status: 404 }), () => new Response("garbage")]);
    const up = createUpstream({ source: "x", label: "X", baseUrl: "https://x.test", cache, fetchImpl: f });
    expect(await up.cachedGet("/a", { cacheKey: "a", answers: [404], ttlSeconds: (s) => (s === 404 ? 10 : 60) })).toMatchObject({ status: 404, body: "gone" });
    expect(cache.size()).toBe(1);
    const bad = await thrown(
      up.cachedGet("/b", {
        cacheKey: "b",
        ttlSeconds: () => 60,
        check: () => {
          throw new Error("unreadable");
        },
      }),
    );
    expect(String(bad)).toMatch(/unreadable/);
    expect(cache.size()).toBe(1);
  });

  it("a connection lost before any answer is tried once more; lost twice is unreachable; a stalled answer is a time-out", async () => {
    const lost = () => {
      throw new TypeError("Network connection lost.");
    };
    const once = scripted([lost, () => new Response("ok")]);
    expect((await createUpstream({ source: "x", label: "X", baseUrl: "https://x.test", fetchImpl: once.f }).cachedGet("/a")).body).toBe("ok");
    const twice = scripted([lost, lost]);
    expect(await thrown(createUpstream({ source: "x", label: "X", baseUrl: "https://x.test", fetchImpl: twice.f }).cachedGet("/a"))).toMatchObject({
      kind: "unreachable",
    });
    const stall = (async (_: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))))) as typeof fetch;
    expect(await thrown(createUpstream({ source: "x", label: "X", baseUrl: "https://x.test", fetchImpl: stall, timeoutMs: 30 }).cachedGet("/a"))).toMatchObject(
      { kind: "timeout" },
    );
  });
});

describe("issue 10 §2: the in-memory ports behave as the D1 ones", () => {
  it("memoryRequestBudget counts a fixed window per source and refuses an unknown source", async () => {
    const b = memoryRequestBudget({ roll: { limit: 2, windowSeconds: 300 } });
    const t0 = 1_800_000_000_000 - (1_800_000_000_000 % 300_000);
    expect(await b.take("roll", t0)).toEqual({ ok: true });
    expect(await b.take("roll", t0 + 1)).toEqual({ ok: true });
    expect(await b.take("roll", t0 + 299_500)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(await b.take("roll", t0 + 300_000)).toEqual({ ok: true });
    await expect(b.take("rol", t0)).rejects.toThrow(/no request budget/);
  });
});

describe("issue 29 §1: every upstream answer is read within a byte budget", () => {
  it("a body past maxBytes (streamed, or declared by Content-Length) fails as unreachable with BodyTooLarge as its cause, and is not read to its end; within it, the text whole", async () => {
    const { BodyTooLarge, DEFAULT_MAX_BODY_BYTES } = await import("../../src/sources/upstream");
    expect(DEFAULT_MAX_BODY_BYTES).toBe(32 * 1024 * 1024);
    let pulled = 0;
    const endless = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(c) {
            pulled++;
            c.enqueue(new Uint8Array(64 * 1024).fill(0x61));
          },
        }),
      );
    const declared = () => new Response("small", { headers: { "content-length": String(10 * 1024 * 1024) } });
    const { f } = scripted([endless, declared, () => new Response("£ within")]);
    const up = createUpstream({ source: "x", label: "X", baseUrl: "https://x.test", fetchImpl: f });
    const e1 = await thrown(up.cachedGet("/a", { maxBytes: 1024 * 1024 }));
    expect(e1?.kind).toBe("unreachable");
    expect(e1?.cause).toBeInstanceOf(BodyTooLarge);
    expect(pulled).toBeLessThan(40);
    const e2 = await thrown(up.cachedGet("/b", { maxBytes: 1024 * 1024 }));
    expect(e2?.cause).toBeInstanceOf(BodyTooLarge);
    expect((await up.cachedGet("/c", { maxBytes: 1024 * 1024 })).body).toBe("£ within");
  });
});
