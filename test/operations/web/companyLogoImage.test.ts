import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LOGO_IMAGE_LIMITS, SVG_HEADERS } from "../../../src/app/web/logoImage";
import { putLogoCompany } from "../../../src/db/logos";
import { probeImage } from "../../../src/services/images/probe";
import { monogramColour } from "../../../src/services/images/monogram";
import { call, createTestKey, json } from "../../helpers";
import { decodePng, pixelAt } from "../../support/png";

/**
 * Issue 32: GET /api/v1/company-logo/image answers the logo itself, for <img> tags. Fixture sites: logos.test (a
 * 200 × 100 PNG logo, a dark-scheme variant, an SVG icon with a script), svglogo.test (an SVG logo with a script,
 * an onload, a foreignObject and an external image), badlogos.test (a PNG decompression bomb, HTML served as a PNG, an
 * SVG of 30,000 elements), nologo.test (no logo at all).
 */

/** An address of a /64 of its own (the limit counts IPv6 per /64). */
const freshIp = () => `2001:db8:${crypto.getRandomValues(new Uint16Array(1))[0].toString(16)}:${crypto.getRandomValues(new Uint16Array(1))[0].toString(16)}::1`;

const image = (query: Record<string, string>, init: RequestInit & { key?: string; ip?: string } = {}) =>
  call(`/api/v1/company-logo/image?${new URLSearchParams(query)}`, {
    ...init,
    headers: { "cf-connecting-ip": init.ip ?? freshIp(), ...(init.headers as Record<string, string> | undefined) },
  });

const bytesOf = async (r: Response) => new Uint8Array(await r.arrayBuffer());

/** Requests that reached a host, as seen by a spy on fetch. */
const spyFetch = () => vi.spyOn(globalThis, "fetch");
const callsTo = (spy: { mock: { calls: unknown[][] } }, host: string) =>
  spy.mock.calls.filter(([input]) => new URL(input instanceof Request ? input.url : String(input)).hostname === host).length;

afterEach(() => vi.restoreAllMocks());

describe("issue 32 GET /api/v1/company-logo/image: the logo as an image", () => {
  it("answers a PNG of the asked size, the logo fitted and centred on transparency, with a long Cache-Control, an ETag and nosniff", async () => {
    const r = await image({ domain: "logos.test", size: "64" });
    expect(r.status, await r.clone().text()).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/png");
    expect(r.headers.get("cache-control")).toMatch(/^public, max-age=604800\b/);
    expect(r.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("x-logo-source")).toBe("logo-image");
    expect(r.headers.get("x-cache")).toBe("miss");
    expect(r.headers.get("x-credits-remaining")).toBeNull();
    const png = decodePng(await bytesOf(r));
    expect([png.width, png.height]).toEqual([64, 64]);
    // 200 × 100 fitted into 64: 64 × 32, rows 16 to 47. The bar (teal) is in the middle; the top rows are transparent.
    expect(pixelAt(png, 32, 2)[3]).toBe(0);
    const [red, green, blue, alpha] = pixelAt(png, 50, 32);
    expect(alpha).toBe(255);
    expect(green).toBeGreaterThan(80);
    expect(red).toBeLessThan(40);
    expect(blue).toBeGreaterThan(80);
  });

  it.each(["16", "32", "128", "256", "512"])("size %s: the asked dimensions, read from the file the reply holds", async (size) => {
    const r = await image({ domain: "logos.test", size });
    expect(r.status).toBe(200);
    const png = decodePng(await bytesOf(r));
    expect([png.width, png.height]).toEqual([Number(size), Number(size)]);
  });

  it("format=webp answers WebP of the asked size; greyscale=true is grey in every pixel", async () => {
    const webp = await image({ domain: "logos.test", size: "128", format: "webp" });
    expect(webp.headers.get("content-type")).toBe("image/webp");
    const probe = probeImage(await bytesOf(webp));
    expect(probe.ok && [probe.image.format, probe.image.width, probe.image.height]).toEqual(["webp", 128, 128]);

    const grey = decodePng(await bytesOf(await image({ domain: "logos.test", size: "64", greyscale: "true" })));
    let coloured = 0;
    for (let i = 0; i < grey.rgba.length; i += 4)
      if (grey.rgba[i + 3] > 0 && (grey.rgba[i] !== grey.rgba[i + 1] || grey.rgba[i + 1] !== grey.rgba[i + 2])) coloured++;
    expect(coloured).toBe(0);
    expect(pixelAt(grey, 50, 32)[3]).toBe(255);
  });

  it("theme=dark: the site's dark-scheme logo (its <picture> source), which differs from the default", async () => {
    const dark = decodePng(await bytesOf(await image({ domain: "logos.test", size: "32", theme: "dark" })));
    const [r, g, b] = pixelAt(dark, 25, 16);
    // logo-dark.png is amber (240, 200, 60); logo.png is teal (0, 110, 110).
    expect(r).toBeGreaterThan(180);
    expect(g).toBeGreaterThan(150);
    expect(b).toBeLessThan(110);
  });

  it("a repeat is answered from what was kept: no request to the site, no count against the limit, and If-None-Match answers 304", async () => {
    const first = await image({ domain: "logos.test", size: "256", greyscale: "true", theme: "dark" });
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    const bytes = await bytesOf(first);
    const spy = spyFetch();
    const ip = freshIp();
    for (let i = 0; i < LOGO_IMAGE_LIMITS.keyless.limit + 5; i++) {
      const again = await image({ domain: "logos.test", size: "256", greyscale: "true", theme: "dark" }, { ip });
      expect(again.status).toBe(200);
      expect(["hit", "stored"]).toContain(again.headers.get("x-cache"));
      expect(again.headers.get("etag")).toBe(etag);
      expect(await bytesOf(again)).toEqual(bytes);
    }
    expect(callsTo(spy, "logos.test")).toBe(0);
    const not = await image({ domain: "logos.test", size: "256", greyscale: "true", theme: "dark" }, { headers: { "if-none-match": etag } });
    expect(not.status).toBe(304);
    expect(await not.text()).toBe("");
    expect(not.headers.get("etag")).toBe(etag);
  });

  it(`lookups not yet cached count against ${LOGO_IMAGE_LIMITS.keyless.limit} a minute per IP address: past them 429 with Retry-After, while cached logos still answer`, async () => {
    const ip = freshIp();
    const variants = ["16", "32", "64", "128", "256", "512"].flatMap((size) =>
      ["png", "webp"].flatMap((format) => ["true", "false"].flatMap((greyscale) => ["light", "dark"].map((theme) => ({ size, format, greyscale, theme })))),
    );
    // nologo.test: each variant is a monogram made once (nothing cached yet for this domain and variant).
    let made = 0;
    for (const v of variants.slice(0, LOGO_IMAGE_LIMITS.keyless.limit)) {
      const r = await image({ domain: "nologo.test", ...v }, { ip });
      expect(r.status, await r.clone().text()).toBe(200);
      if (r.headers.get("x-cache") === "miss") made++;
    }
    expect(made).toBeGreaterThan(0);
    const over = await image({ domain: "nologo.test", ...variants[LOGO_IMAGE_LIMITS.keyless.limit + 1] }, { ip });
    if (made === LOGO_IMAGE_LIMITS.keyless.limit) {
      expect(over.status).toBe(429);
      expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await json(over)).code).toBe("rate_limited");
    }
    const cached = await image({ domain: "nologo.test", ...variants[0] }, { ip });
    expect(cached.status).toBe(200);
  });

  it("fallback: no logo on the site gives the monogram (the name's colour, stable), or 404 with fallback=404", async () => {
    const r = await image({ domain: "nologo.test", size: "64", greyscale: "false" });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-logo-source")).toBe("monogram");
    expect(r.headers.get("cache-control")).toMatch(/^public, max-age=86400\b/);
    const png = decodePng(await bytesOf(r));
    const hex = monogramColour("nologo.test");
    const rgb = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
    expect(pixelAt(png, 1, 1).slice(0, 3)).toEqual(rgb);
    const again = decodePng(await bytesOf(await image({ domain: "nologo.test", size: "64", greyscale: "false" })));
    expect(again.rgba).toEqual(png.rgba);

    const none = await image({ domain: "nologo.test", size: "64", fallback: "404" });
    expect(none.status).toBe(404);
    expect(none.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await json(none)).code).toBe("not_found");
  });

  it("a homepage that does not answer: the monogram for an hour, not kept; with fallback=404 the site's own failure (422), never 'not found'", async () => {
    const monogram = await image({ domain: "down.test", size: "64" });
    expect(monogram.status).toBe(200);
    expect(monogram.headers.get("x-logo-source")).toBe("monogram");
    expect(monogram.headers.get("cache-control")).toMatch(/^public, max-age=3600\b/);
    await monogram.body?.cancel();
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM logo_images WHERE domain = 'd:down.test'").first<{ n: number }>()).toEqual({ n: 0 });
    const refused = await image({ domain: "down.test", size: "32", fallback: "404" });
    const body = await json(refused);
    expect(refused.status).toBe(422);
    expect(body.code).not.toBe("not_found");
    expect(body.message).toMatch(/down\.test's homepage could not be read/);
  });

  it("hostile images: a decompression bomb PNG, HTML served as a PNG and an SVG of 30,000 elements are refused, never served raw: the monogram instead", async () => {
    const real = globalThis.fetch;
    const huge = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">${'<rect width="1" height="1"/>'.repeat(30_000)}</svg>`;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.hostname === "badlogos.test" && url.pathname === "/huge.svg") return new Response(huge, { headers: { "content-type": "image/svg+xml" } });
      return real(input, init);
    });
    for (const format of ["png", "svg"]) {
      const r = await image({ domain: "badlogos.test", size: "64", format });
      expect(r.status, await r.clone().text()).toBe(200);
      expect(r.headers.get("x-logo-source")).toBe("monogram");
      const body = await bytesOf(r);
      const text = new TextDecoder().decode(body);
      expect(text).not.toContain("<script");
      expect(text).not.toContain('<rect width="1"');
      const probe = probeImage(body);
      expect(probe.ok && probe.image.format).toBe(format);
    }
    const none = await image({ domain: "badlogos.test", size: "32", fallback: "404" });
    expect(none.status).toBe(404);
    const why = (await json(none)).message as string;
    expect(why).toMatch(/50000|50,000|pixels/);
    expect(why).toMatch(/not an image|not a|HTML/i);
  });

  it("an SVG logo: format=svg serves it as published under CSP sandbox and nosniff; png draws it into pixels with nothing of it run or loaded", async () => {
    const spy = spyFetch();
    const svg = await image({ domain: "svglogo.test", size: "128", format: "svg" });
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    for (const [k, v] of Object.entries(SVG_HEADERS)) expect(svg.headers.get(k)).toBe(v);
    expect(svg.headers.get("content-security-policy")).toContain("sandbox");
    await svg.body?.cancel();
    const png = await image({ domain: "svglogo.test", size: "128", format: "png" });
    expect(png.status, await png.clone().text()).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    const px = decodePng(await bytesOf(png));
    expect([px.width, px.height]).toEqual([128, 128]);
    const [r, g, b, a] = pixelAt(px, 64, 64);
    expect([a, r > 150, g < 100, b < 100]).toEqual([255, true, true, true]); // the red rectangle
    expect(callsTo(spy, "canary.invalid")).toBe(0);
  });

  it("by company number: the website enrichment confirmed for it (kept), or the monogram of the company's registered name", async () => {
    // 01234567 (Harbourside Legal) is confirmed by harbourside-legal.test, which shows no logo: its monogram, "HL".
    const r = await image({ company: "1234567", size: "64", format: "svg" });
    expect(r.status, await r.clone().text()).toBe(200);
    expect(r.headers.get("x-logo-source")).toBe("monogram");
    expect(await r.text()).toMatch(/>HL<\/text>/);
    // A company whose confirmed website is logos.test (kept from an earlier enrichment): its logo.
    await putLogoCompany(env.DB, { companyNumber: "09999901", domain: "logos.test", name: "Logos Test Ltd", resolvedAt: Date.now() });
    const logo = await image({ company: "09999901", size: "64" });
    expect(logo.status).toBe(200);
    expect(logo.headers.get("x-logo-source")).toBe("logo-image");
    await logo.body?.cancel();
  });

  it("400 naming the field: neither or both of domain and company, a size not offered, a bad domain; no 500", async () => {
    for (const [q, field] of [
      [{}, "domain"],
      [{ domain: "logos.test", company: "01234567" }, "company"],
      [{ domain: "logos.test", size: "100" }, "size"],
      [{ domain: "not a domain" }, "domain"],
      [{ domain: "logos.test", format: "gif" }, "format"],
      [{ domain: "logos.test", colour: "red" }, "colour"],
    ] as const) {
      const r = await image(q as Record<string, string>);
      expect(r.status, JSON.stringify(q)).toBe(400);
      const body = await json(r);
      expect(body.code).toBe("bad_request");
      expect(body.field ?? body.message).toContain(field);
    }
  });
});

describe("issue 32 publishable keys on the logo image", () => {
  const makePk = async (key: string, origins: string[]) => {
    const r = await call("/api/v1/account/publishable-keys", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ origins }),
    });
    expect(r.status, await r.clone().text()).toBe(201);
    return json(r);
  };

  it("a publishable key works from its origins' pages (Referer or Origin), is refused from another origin or none, and a secret key is refused", async () => {
    const { key } = await createTestKey({ verified: true });
    const made = await makePk(key, ["https://shop.example.co.uk", "https://*.suppliers.example", "http://localhost:3000"]);
    expect(made.key).toMatch(/^pk_[A-Za-z0-9_-]{20,}$/);
    expect(made.origins).toEqual(["https://shop.example.co.uk", "https://*.suppliers.example", "http://localhost:3000"]);
    const pk = made.key as string;
    const allowed: Record<string, string>[] = [
      { referer: "https://shop.example.co.uk/table?page=2" },
      { origin: "https://a.b.suppliers.example" },
      { referer: "http://localhost:3000/" },
    ];
    for (const headers of allowed) {
      const r = await image({ domain: "logos.test", size: "64", key: pk }, { headers });
      expect(r.status, JSON.stringify(headers)).toBe(200);
      await r.body?.cancel();
    }
    const refused: Record<string, string>[] = [
      { referer: "https://evil.example/" },
      { referer: "https://suppliers.example/" },
      { referer: "http://shop.example.co.uk/" },
      { referer: "http://localhost:3001/" },
      {},
    ];
    for (const headers of refused) {
      const r = await image({ domain: "logos.test", size: "64", key: pk }, { headers });
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect((await json(r)).code).toBe("origin_not_allowed");
    }
    const secret = await image({ domain: "logos.test", size: "64", key }, { headers: { referer: "https://shop.example.co.uk/" } });
    expect(secret.status).toBe(403);
    const body = await json(secret);
    expect(body.code).toBe("secret_key_refused");
    expect(body.message).toMatch(/publishable key/);
    expect(body.message).not.toContain(key);
    const inHeader = await image({ domain: "logos.test", size: "64" }, { headers: { "x-api-key": key } });
    expect(inHeader.status).toBe(403);
    await inHeader.body?.cancel();
  });

  it("listed and revoked by its account; revoked, it answers 401 invalid_key", async () => {
    const { key } = await createTestKey({ verified: true });
    const { key: pk } = await makePk(key, ["https://shop.example.co.uk"]);
    const list = await json(await call("/api/v1/account/publishable-keys", { key }));
    expect(list.keys.map((k: { key: string }) => k.key)).toEqual([pk]);
    const other = await createTestKey({ verified: true });
    const notTheirs = await call(`/api/v1/account/publishable-keys?key=${pk}`, { method: "DELETE", key: other.key });
    expect(notTheirs.status).toBe(404);
    await notTheirs.body?.cancel();
    const revoked = await call(`/api/v1/account/publishable-keys?key=${pk}`, { method: "DELETE", key });
    expect(revoked.status).toBe(200);
    await revoked.body?.cancel();
    const r = await image({ domain: "logos.test", size: "64", key: pk }, { headers: { referer: "https://shop.example.co.uk/" } });
    expect(r.status).toBe(401);
    expect((await json(r)).code).toBe("invalid_key");
  });

  it("origins are checked when made: a path, a bare wildcard or a non-http scheme is a 400 naming origins", async () => {
    const { key } = await createTestKey({ verified: true });
    for (const origins of [["https://shop.example.co.uk/page"], ["https://*"], ["ftp://shop.example.co.uk"], [], ["*"]]) {
      const r = await call("/api/v1/account/publishable-keys", {
        method: "POST",
        key,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ origins }),
      });
      expect(r.status, JSON.stringify(origins)).toBe(400);
      expect((await json(r)).field).toMatch(/^origins/);
    }
  });
});
