import { describe, expect, it } from "vitest";
import { ORIGIN_PATTERN, originAllowed, pageOrigin, parseOriginPattern } from "../../../src/services/net/origins";

/** Issue 32: the origins a publishable key may be used from, and the origin of the page a browser request came from. */
describe("publishable keys' origins", () => {
  it("reads an origin as a browser sends it, in its normal form: lower case, the default port left out, no trailing slash", () => {
    expect(parseOriginPattern("HTTPS://Shop.Example.co.uk/")).toEqual({ ok: true, origin: "https://shop.example.co.uk" });
    expect(parseOriginPattern("https://shop.example.co.uk:443")).toEqual({ ok: true, origin: "https://shop.example.co.uk" });
    expect(parseOriginPattern("http://localhost:3000")).toEqual({ ok: true, origin: "http://localhost:3000" });
    expect(parseOriginPattern("http://localhost:80")).toEqual({ ok: true, origin: "http://localhost" });
    expect(parseOriginPattern("https://*.Example.co.uk")).toEqual({ ok: true, origin: "https://*.example.co.uk" });
  });

  it.each([
    "https://shop.example.co.uk/page",
    "https://shop.example.co.uk?x=1",
    "ftp://shop.example.co.uk",
    "shop.example.co.uk",
    "https://*",
    "https://*.uk",
    "https://a.*.example.co.uk",
    "https://-bad.example",
    "https://shop.example.co.uk:0",
    "https://shop.example.co.uk:65536",
    "https://user@shop.example.co.uk",
    "*",
    "",
  ])("refuses %j, saying why", (text) => {
    const r = parseOriginPattern(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/origin/);
    // What the API description states (the pattern) agrees with what is accepted.
    expect(ORIGIN_PATTERN.test(text.trim())).toBe(false);
  });

  it("a page's origin matches exactly, or as a subdomain of a wildcard (never the bare domain), with scheme and port", () => {
    const allowed = ["https://shop.example.co.uk", "https://*.suppliers.example", "http://localhost:3000"];
    expect(originAllowed(allowed, "https://shop.example.co.uk")).toBe(true);
    expect(originAllowed(allowed, "https://a.b.suppliers.example")).toBe(true);
    expect(originAllowed(allowed, "http://localhost:3000")).toBe(true);
    expect(originAllowed(allowed, "https://suppliers.example")).toBe(false);
    expect(originAllowed(allowed, "https://evilsuppliers.example")).toBe(false);
    expect(originAllowed(allowed, "http://shop.example.co.uk")).toBe(false);
    expect(originAllowed(allowed, "https://shop.example.co.uk:8443")).toBe(false);
    expect(originAllowed(allowed, "http://localhost:3001")).toBe(false);
    expect(originAllowed(allowed, "https://shop.example.co.uk.evil.example")).toBe(false);
    expect(originAllowed(allowed, "not a url")).toBe(false);
  });

  it("the page's origin: Origin first, else the Referer's origin; none for 'null', another scheme or nothing", () => {
    expect(pageOrigin(new Headers({ origin: "https://a.example", referer: "https://b.example/x" }))).toBe("https://a.example");
    expect(pageOrigin(new Headers({ referer: "https://b.example/page?q=1#top" }))).toBe("https://b.example");
    expect(pageOrigin(new Headers({ origin: "null", referer: "https://b.example/" }))).toBe("https://b.example");
    expect(pageOrigin(new Headers({ origin: "null" }))).toBeNull();
    expect(pageOrigin(new Headers({ referer: "file:///home/me/page.html" }))).toBeNull();
    expect(pageOrigin(new Headers({ referer: "not a url" }))).toBeNull();
    expect(pageOrigin(new Headers())).toBeNull();
  });
});
