import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkAiVisibility } from "../../../src/operations/web/checkAiVisibility";
import { type CallMeta, execute } from "../../../src/platform/gateway";
import type { Services } from "../../../src/platform/services";
import type { Browser, RenderedPage } from "../../../src/services/web/rendered";
import { UpstreamError } from "../../../src/shared/errors";
import { balanceOf, call, createTestKey, json } from "../../helpers";

/**
 * GET /api/v1/ai-visibility (SPEC §4.8) over HTTP and through execute() with a stand-in browser. The sites are the
 * fixture hosts aiv.test … aiv5.test (test/fixtures/hosts); Companies House is ch.test.
 */

const CREDITS = 100;
/** Calls over HTTP render the page in the real browser where there is one (a few seconds each). */
const RENDER_TIMEOUT_MS = 60_000;
const visibility = (q: Record<string, string>, key?: string) => call(`/api/v1/ai-visibility?${new URLSearchParams(q)}`, { key });

const meta = (apiKey: string, extra: Partial<CallMeta> = {}): CallMeta => ({
  requestId: "req_ai_visibility",
  headers: new Headers(),
  ip: "192.0.2.1",
  apiKey,
  waitUntil: () => {},
  ...extra,
});

/** A browser that answers every render with `text` (or throws `fail`), and records what it was asked. */
function fakeBrowser(text: string | Error, calls: { url: string; opts: Record<string, unknown> }[] = []): Browser {
  return {
    available: true,
    render: async (url, opts = {}) => {
      calls.push({ url, opts: opts as Record<string, unknown> });
      if (text instanceof Error) throw text;
      return {
        url,
        finalUrl: url,
        status: 200,
        title: "",
        text,
        cookies: [],
        storageKeys: [],
        requests: [],
        cut: [],
        timings: { browserMs: 1, loadMs: 1, axeMs: null, totalMs: 2 },
      } satisfies RenderedPage;
    },
  };
}
const noBrowser: Browser = { available: false, render: async () => Promise.reject(new Error("not called")) };

/** Fixture files answered as they are, except the ones given, each with its status and headers. */
function serveWith(overrides: Record<string, { status?: number; body?: string; headers?: Record<string, string> }>) {
  const real = globalThis.fetch;
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const u = input instanceof Request ? input.url : String(input);
    const o = overrides[u];
    if (!o) return real(input, init);
    const base = o.body === undefined ? await real(u) : null;
    const body = o.body ?? (await base!.text());
    return new Response(body, { status: o.status ?? base?.status ?? 200, headers: o.headers });
  });
}

const withoutTime = (b: Record<string, unknown>) => ({ ...b, checkedAt: undefined });

afterEach(() => vi.restoreAllMocks());

describe("SPEC §4.8 GET /api/v1/ai-visibility over HTTP", () => {
  it(
    "a good site: 200, 2 credits, every check answered, the register agreeing, and a reply the schema parses",
    async () => {
      const { key, keyId } = await createTestKey({ credits: CREDITS });
      const r = await visibility({ domain: "aiv.test" }, key);
      const body = await json(r);
      expect(r.status, JSON.stringify(body).slice(0, 400)).toBe(200);
      expect(r.headers.get("x-credits-remaining")).toBe(String(CREDITS - 2));
      expect(await balanceOf(keyId, { credits: CREDITS })).toBe(CREDITS - 2);
      expect(checkAiVisibility.output.safeParse(body).success).toBe(true);
      expect(body).toMatchObject({
        query: { domain: "aiv.test" },
        site: "https://aiv.test",
        page: { url: "https://aiv.test/", status: 200, redirects: [] },
        robots: { file: "found", sitemaps: ["https://aiv.test/sitemap.xml"] },
        llmsTxt: { present: true, title: "Hartwell Joinery", full: { present: true } },
        business: { companyNumber: "14725836", onRegister: true, registeredName: "HARTWELL JOINERY LIMITED", nameAgrees: true, postcodeAgrees: true },
        sitemap: { found: true, pageListed: true },
        indexing: { noindex: false, canonical: { pointsHere: true } },
        meta: { title: { verdict: "ok" }, description: { verdict: "ok" } },
        attribution: expect.stringContaining("Open Government Licence"),
      });
      expect(body.findings.filter((f: { severity: string }) => f.severity !== "info")).toEqual([]);
      expect(body.score).toBe(100);
      expect(body.scoring.formula).toContain("robots 30");
      expect(Date.parse(body.checkedAt)).not.toBeNaN();
    },
    RENDER_TIMEOUT_MS,
  );

  it(
    "deterministic: the same site twice gives the same reply apart from the timestamp",
    async () => {
      const { key } = await createTestKey({ credits: CREDITS });
      const a = await json(await visibility({ url: "https://aiv4.test/" }, key));
      const b = await json(await visibility({ url: "https://aiv4.test/" }, key));
      expect(a.findings.length).toBeGreaterThan(0);
      expect(withoutTime(b)).toEqual(withoutTime(a));
    },
    RENDER_TIMEOUT_MS,
  );

  it.each([
    [{}, "domain"],
    [{ domain: "aiv.test", url: "https://aiv.test/" }, "url"],
    [{ domain: "not a domain" }, "domain"],
    [{ url: "ftp://aiv.test/file" }, "url"],
    [{ url: "http://127.0.0.1/" }, "url"],
  ])("SPEC §7 %j → 400 naming the field, nothing fetched or charged", async (q, field) => {
    const { key, keyId } = await createTestKey({ credits: CREDITS });
    const spy = vi.spyOn(globalThis, "fetch");
    const r = await visibility(q as Record<string, string>, key);
    expect(r.status).toBe(400);
    expect(await json(r)).toMatchObject({ code: "bad_request", field });
    expect(spy.mock.calls.filter(([i]) => /aiv\.test/.test(i instanceof Request ? i.url : String(i)))).toEqual([]);
    expect(await balanceOf(keyId, { credits: CREDITS })).toBe(CREDITS);
  });

  it("SPEC §7 a page that cannot be fetched → 422 from the safe fetcher, no credit used", async () => {
    const { key, keyId } = await createTestKey({ credits: CREDITS });
    const r = await visibility({ url: "https://aiv.test/no-such-page" }, key);
    expect(r.status).toBe(422);
    expect(await json(r)).toMatchObject({ code: "unreadable_input" });
    expect(await balanceOf(keyId, { credits: CREDITS })).toBe(CREDITS);
  });

  it(
    "a site blocking AI crawlers with its own groups, noindex in the meta tag and in the X-Robots-Tag header (read from the page's answer)",
    async () => {
      serveWith({ "https://aiv2.test/": { headers: { "content-type": "text/html; charset=utf-8", "x-robots-tag": "noindex, noai" } } });
      const { key } = await createTestKey({ credits: CREDITS });
      const body = await json(await visibility({ domain: "aiv2.test" }, key));
      expect(body.indexing).toMatchObject({ xRobotsTag: "noindex, noai", noindex: true, noai: true });
      const noindex = body.findings.find((f: { id: string }) => f.id === "noindex");
      expect(noindex.evidence).toEqual({
        quote: '<meta name="robots" content="noindex, nofollow">; X-Robots-Tag: noindex, noai',
        where: "<head> of https://aiv2.test/; HTTP header of https://aiv2.test/",
      });
      const blocked = body.robots.crawlers
        .filter((c: { page: { allowed: boolean } }) => !c.page.allowed)
        .map((c: { token: string; group: string }) => `${c.token}:${c.group}`);
      expect(blocked).toEqual(["GPTBot:own", "ClaudeBot:own", "CCBot:own"]);
      expect(body.findings.map((f: { id: string }) => f.id)).toContain("robots-blocks-training");
      expect(body.business).toMatchObject({ companyNumber: "09990001", onRegister: false });
    },
    RENDER_TIMEOUT_MS,
  );

  it(
    "robots.txt answering 500 is unreachable: every crawler disallowed (RFC 9309), a high finding, and the rest still answers",
    async () => {
      serveWith({ "https://aiv5.test/robots.txt": { status: 500, body: "Internal Server Error" } });
      const { key } = await createTestKey({ credits: CREDITS });
      const r = await visibility({ domain: "aiv5.test" }, key);
      const body = await json(r);
      expect(r.status).toBe(200);
      expect(body.robots).toMatchObject({ file: "unreachable", status: 500 });
      expect(body.findings[0]).toMatchObject({ id: "robots-unreachable", severity: "high" });
      expect(body.structuredData.invalidBlocks).toHaveLength(1);
      expect(body.sitemap).toMatchObject({ from: "default", found: true, pageListed: true });
    },
    RENDER_TIMEOUT_MS,
  );
});

describe("SPEC §4.8 ai-visibility through execute(), with a stand-in browser", () => {
  it("a client-rendered site: the fetched HTML is handed to the browser, and the ratio of text without JavaScript is near 0", async () => {
    const { key } = await createTestKey({ credits: CREDITS });
    const calls: { url: string; opts: Record<string, unknown> }[] = [];
    const text =
      "Northgate Dental Studio\nWelcome to Northgate Dental Studio, a family and cosmetic dental practice in the heart of Chester.\nTreatments\nInvisalign clear aligners";
    const out = await execute(env, checkAiVisibility as never, { domain: "aiv3.test" }, meta(key, { services: { browser: fakeBrowser(text, calls) } }));
    expect(out.status).toBe(200);
    const body = out.body as Record<string, any>;
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe("https://aiv3.test/");
    expect(calls[0].opts).toMatchObject({ read: { text: true }, document: { status: 200 } });
    expect(new TextDecoder().decode((calls[0].opts.document as { body: Uint8Array }).body)).toContain('<div id="root"></div>');
    expect(body.rendering).toMatchObject({ judged: true, htmlTextLength: 0, ratio: 0, clientRendered: true });
    expect(body.findings[0]).toMatchObject({ id: "client-rendered", severity: "high" });
  });

  it('the browser failing (UpstreamError) or absent: rendering is "couldn\'t tell" with the reason, and the rest answers', async () => {
    const { key } = await createTestKey({ credits: CREDITS });
    const down = fakeBrowser(new UpstreamError("browser", "unreachable", "Browser Rendering could not be reached."));
    const out = await execute(env, checkAiVisibility as never, { domain: "aiv.test" }, meta(key, { services: { browser: down } }));
    expect(out.status).toBe(200);
    const body = out.body as Record<string, any>;
    expect(body.rendering).toMatchObject({ judged: false, reason: "the browser could not be reached just now (Browser Rendering could not be reached)" });
    expect(body.scoring.checks.find((c: { check: string }) => c.check === "rendering").judged).toBe(false);
    expect(body.business.nameAgrees).toBe(true);
    const none = await execute(env, checkAiVisibility as never, { domain: "aiv.test" }, meta(key, { services: { browser: noBrowser } }));
    expect((none.body as Record<string, any>).rendering.reason).toBe("no browser is configured on this server");
  });

  it('SPEC §7.4 Companies House down → 503 upstream_unavailable with the credits given back, never "disagrees"', async () => {
    const { key, keyId } = await createTestKey({ credits: CREDITS });
    const companiesHouse = {
      getProfile: async () => {
        throw new UpstreamError("companies-house", "unreachable", "Companies House could not be reached.");
      },
    } as unknown as Services["companiesHouse"];
    const out = await execute(env, checkAiVisibility as never, { domain: "aiv4.test" }, meta(key, { services: { companiesHouse, browser: noBrowser } }));
    expect(out.status).toBe(503);
    expect(out.body).toMatchObject({ code: "upstream_unavailable" });
    expect(out.headers["x-credits-refunded"]).toBe("2");
    expect(await balanceOf(keyId, { credits: CREDITS })).toBe(CREDITS);
  });

  it.skipIf(!env.BROWSER_PRESENT)(
    "with the real browser: the client-rendered fixture's script runs and its text is counted",
    async () => {
      const { key } = await createTestKey({ credits: CREDITS });
      const out = await execute(env, checkAiVisibility as never, { domain: "aiv3.test" }, meta(key));
      expect(out.status).toBe(200);
      const body = out.body as Record<string, any>;
      expect(body.rendering).toMatchObject({ judged: true, htmlTextLength: 0, clientRendered: true });
      expect(body.rendering.renderedTextLength).toBeGreaterThan(300);
    },
    RENDER_TIMEOUT_MS,
  );
});
