import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { LOGO_NOTICE } from "../../../src/app/web/logoNotice";
import { LOGO_IP_LIMIT } from "../../../src/operations/web/companyLogo";
import { call, json } from "../../helpers";

const logo = (domain: string, ip = "203.0.113.10", init: RequestInit = {}) =>
  call(`/api/v1/company-logo?${new URLSearchParams({ domain })}`, { ...init, headers: { "cf-connecting-ip": ip, ...init.headers } });

/** An address of a /64 of its own (the limit counts IPv6 per /64). */
const freshIp = () => `2001:db8:${crypto.getRandomValues(new Uint16Array(1))[0].toString(16)}::1`;

/** Calls that went out to a fixture host, as seen by a spy on globalThis.fetch. */
const callsTo = (spy: { mock: { calls: unknown[][] } }, host: string) =>
  spy.mock.calls.filter(([input]) => new URL(input instanceof Request ? input.url : String(input)).hostname === host).length;

const RANK = { "logo-image": 0, "app-icon": 1, icon: 2, "social-image": 3 } as const;

describe("SPEC §4.7 GET /api/v1/company-logo", () => {
  it("SPEC §4.7 needs no key; logos in order logo image, app icon, icon, social image last; absolute URLs; notice", async () => {
    const r = await logo("logo.test");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-credits-remaining")).toBeNull();
    const body = await json(r);
    const logos = body.logos as { url: string; source: keyof typeof RANK }[];
    // The fixture's partner badge (images/partners/trustmark-logo.png) is not among them.
    expect(logos.map((l) => l.url)).not.toContain("https://logo.test/images/partners/trustmark-logo.png");
    expect(body.query).toEqual({ domain: "logo.test" });
    expect(logos.map((l) => l.source)).toEqual(["logo-image", "logo-image", "app-icon", "app-icon", "icon", "icon", "icon", "social-image", "social-image"]);
    for (let i = 1; i < logos.length; i++) expect(RANK[logos[i].source]).toBeGreaterThanOrEqual(RANK[logos[i - 1].source]);
    for (const l of logos) expect(new URL(l.url).href).toBe(l.url); // absolute, as given
    expect(logos[0].url).toBe("https://logo.test/assets/img/hartley-finch-logo.svg");
    expect(body).toMatchObject({ domain: "logo.test", logo: logos[0].url, source: logos[0].source, page: "https://logo.test/", notice: LOGO_NOTICE });
    expect(body.notice).toMatch(/trademark/i);
  });

  it("SPEC §4.7 a pasted URL or upper-case host is reduced to the domain", async () => {
    const body = await json(await logo("HTTPS://Logo.TEST/about?x=1"));
    expect(body.domain).toBe("logo.test");
  });

  it("SPEC §4.7 CORS: any origin on GET (also on errors), and the OPTIONS preflight answers 204", async () => {
    const ok = await logo("logo.test", freshIp(), { headers: { origin: "https://shop.example" } });
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    await ok.body?.cancel();
    const bad = await logo("not a domain");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("access-control-allow-origin")).toBe("*");
    await bad.body?.cancel();
    const pre = await call("/api/v1/company-logo?domain=logo.test", {
      method: "OPTIONS",
      headers: { origin: "https://shop.example", "access-control-request-method": "GET" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-methods")).toContain("GET");
    expect(await pre.text()).toBe("");
  });

  it.each([
    ["not a domain", 400],
    ["localhost", 400],
    ["http://127.0.0.1", 400],
    [`${"a".repeat(196)}.test`, 400],
    ["", 400],
  ])("SPEC §4.7 invalid domain %j → refused naming domain, nothing fetched", async (domain, status) => {
    const spy = vi.spyOn(globalThis, "fetch");
    const r = await logo(domain, freshIp());
    const body = await json(r);
    expect(r.status).toBe(status);
    expect(body).toMatchObject({ code: "bad_request", field: "domain" });
    expect(body.message).toContain("domain");
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it("SPEC §4.7 201 characters is over the 200 limit", async () => {
    const domain = `${"a".repeat(196)}.test`;
    expect(domain).toHaveLength(201);
    expect((await json(await logo(domain))).message).toMatch(/200/);
  });

  it("SPEC §7.1 a homepage with no logo → 404 not_found with query", async () => {
    const r = await logo("fixtures.test", freshIp());
    expect(r.status).toBe(404);
    expect(await json(r)).toMatchObject({ code: "not_found", query: "fixtures.test" });
  });

  it("SPEC §4.7 IP rate limit: the 31st lookup a minute from one address → 429 rate_limited with Retry-After", async () => {
    // The limit counts in fixed one-minute windows: start early in a window so the burst cannot straddle two.
    const into = Date.now() % 60_000;
    if (into > 50_000) await new Promise((r) => setTimeout(r, 60_000 - into + 50));
    const ip = freshIp();
    for (let i = 0; i < LOGO_IP_LIMIT.limit; i++) {
      const r = await logo("logo.test", ip);
      expect(r.status, `call ${i + 1}`).toBe(200);
      await r.body?.cancel();
    }
    const r = await logo("logo.test", ip);
    expect(r.status).toBe(429);
    expect((await json(r)).code).toBe("rate_limited");
    const retry = Number(r.headers.get("retry-after"));
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 60).toBe(true);
    // Another address is still served.
    expect((await logo("logo.test", freshIp())).status).toBe(200);
  });

  it("SPEC §4.7 results are cached: the second lookup does not fetch the homepage again", async () => {
    await env.DB.prepare("DELETE FROM http_cache WHERE key = 'logo:logo.test'").run();
    const spy = vi.spyOn(globalThis, "fetch");
    const first = await json(await logo("logo.test", freshIp()));
    expect(callsTo(spy, "logo.test")).toBe(1);
    // The cache is written after the reply (waitUntil): wait for it.
    for (let i = 0; i < 50; i++) {
      if (await env.DB.prepare("SELECT 1 FROM http_cache WHERE key = 'logo:logo.test'").first()) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const second = await json(await logo("logo.test", freshIp()));
    expect(callsTo(spy, "logo.test")).toBe(1);
    expect(second).toEqual(first);
    spy.mockRestore();
  });
});
