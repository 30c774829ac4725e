import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createBrowser } from "../../src/sources/web/browser";
import { testHostsOf } from "../../src/shared/testHosts";
import { InputError } from "../../src/shared/errors";
import type { RenderedPage } from "../../src/services/web/rendered";

/**
 * Issue 16 §1 browser safety, in the real browser (Debian's chromium under local Browser Rendering). Every hostile page
 * points at a listener on 127.0.0.1 (the canary, vitest.config.ts): it must never be reached, through any kind of
 * request. The Worker's own fetches are watched too: none may go to a private address.
 */
const browser = createBrowser(env.BROWSER, {
  testHosts: testHostsOf(env.SAFE_FETCH_TEST_HOSTS),
  resolve: async (host) => {
    throw new Error(`no DNS in this test (${host})`);
  },
});
const canary = async () => (await (await fetch("http://canary.test/log")).json()) as { canary: string; hits: string[] };
const PRIVATE = /^(127\.|10\.|192\.168\.|169\.254\.|\[|localhost$|2130706433$)/;

/** Worker fetches that went to a private address (there must be none). */
function watchFetches() {
  const real = globalThis.fetch;
  const hosts: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    hosts.push(new URL(input instanceof Request ? input.url : String(input)).hostname);
    return real(input, init);
  });
  return () => hosts.filter((h) => PRIVATE.test(h));
}

afterEach(() => vi.restoreAllMocks());

describe.skipIf(!env.BROWSER_PRESENT)("issue 16 §1 browser safety: no request from the page reaches a private address", () => {
  const refusedTo = (page: RenderedPage, pattern: RegExp) => page.requests.filter((r) => pattern.test(r.url));

  it("an image at 169.254.169.254 (and the IPv6 metadata address) is refused; the page is still read", async () => {
    const privateFetches = watchFetches();
    const page = await browser.render("https://hostile.test/metadata-image.html", { read: { text: true } });
    expect(page.title).toBe("An image at the metadata address");
    const metadata = refusedTo(page, /169\.254\.169\.254|fd00/);
    expect(metadata.length).toBe(2);
    for (const r of metadata) expect(r).toMatchObject({ status: null, bytes: 0, refused: expect.stringMatching(/address|not fetched/i) });
    expect(privateFetches()).toEqual([]);
    expect((await canary()).hits).toEqual([]);
  });

  it("an iframe and an object to 127.0.0.1 and an iframe to localhost are refused", async () => {
    const privateFetches = watchFetches();
    const { canary: at } = await canary();
    const page = await browser.render("https://hostile.test/loopback-iframe.html");
    const loopback = page.requests.filter((r) => r.url.includes(at) || r.url.includes("localhost"));
    expect(loopback.length).toBeGreaterThanOrEqual(3);
    for (const r of loopback) expect(r.refused).toBeTruthy();
    expect(privateFetches()).toEqual([]);
    expect((await canary()).hits).toEqual([]);
  });

  it("scripts fetching private addresses (fetch, XHR, WebSocket, a worker, a beacon, EventSource, WebRTC, CSS, a font, a form) reach nothing", async () => {
    const privateFetches = watchFetches();
    const page = await browser.render("https://hostile.test/script-fetch.html", { read: { text: true }, loadTimeoutMs: 4000 });
    expect(page.text).toMatch(/fetch refused/);
    expect(page.text).toMatch(/private refused/);
    expect(page.text).toMatch(/websocket refused/);
    expect(page.text).toMatch(/worker refused/);
    expect(page.text).not.toMatch(/reached|opened|started/);
    const refused = page.requests.filter((r) => r.refused);
    expect(refused.length).toBeGreaterThanOrEqual(5);
    expect(page.requests.filter((r) => !r.refused && PRIVATE.test(new URL(r.url).hostname))).toEqual([]);
    expect(privateFetches()).toEqual([]);
    // Late requests (after the page was read) are refused too; give them a moment, then look at the canary.
    await new Promise((r) => setTimeout(r, 300));
    expect((await canary()).hits).toEqual([]);
  });

  it("a redirect chain that ends at a private address is followed hop by hop and refused at the last hop", async () => {
    const privateFetches = watchFetches();
    const page = await browser.render("https://hostile.test/redirect-chain.html");
    const hops = page.requests.filter((r) => r.url.includes("/redirect/") || r.url.includes("/redirected"));
    expect(hops.map((r) => r.status)).toEqual([302, 302, null]);
    expect(hops[2].refused).toBeTruthy();
    expect(privateFetches()).toEqual([]);
    expect((await canary()).hits).toEqual([]);
  });

  it("the document itself on a private address is a 422-kind error (blocked_address), and nothing is fetched", async () => {
    const privateFetches = watchFetches();
    const { canary: at } = await canary();
    await expect(browser.render(`http://${at}/`)).rejects.toMatchObject({ code: "blocked_address" });
    await expect(browser.render("http://169.254.169.254/latest/meta-data/")).rejects.toBeInstanceOf(InputError);
    expect(privateFetches()).toEqual([]);
    expect((await canary()).hits).toEqual([]);
  });

  it("an endless document is cut at the size cap (422 response_too_large); an endless image is cut and the page read", async () => {
    await expect(browser.render("https://hostile.test/endless")).rejects.toMatchObject({ code: "response_too_large" });
    const page = await browser.render("https://hostile.test/endless-image.html", { maxBytes: 2 * 1024 * 1024 });
    expect(page.title).toBe("An image that never ends");
    const image = page.requests.find((r) => r.url.endsWith("/endless.png"))!;
    expect(image.refused).toMatch(/larger than/);
    expect(page.cut.join(" ")).toMatch(/page weight/);
  });

  it("a huge document is refused at the size cap", async () => {
    await expect(browser.render("https://hostile.test/huge")).rejects.toMatchObject({ code: "response_too_large" });
  });

  it("a page that never finishes loading is read after the load wait, and says it was cut", async () => {
    const t = Date.now();
    const page = await browser.render("https://hostile.test/never-loads.html", { read: { text: true }, loadTimeoutMs: 2000 });
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(page.text).toMatch(/The text arrives/);
    expect(page.cut.join(" ")).toMatch(/did not finish loading within 2 s/);
  });

  it("a document that never arrives fails within the whole time limit", async () => {
    const t = Date.now();
    await expect(browser.render("https://hostile.test/never", { timeoutMs: 4000, loadTimeoutMs: 2000 })).rejects.toBeInstanceOf(InputError);
    expect(Date.now() - t).toBeLessThan(8000);
  });

  it("the same page twice reads the same, timings aside", async () => {
    const a = await browser.render("https://hostile.test/metadata-image.html", { read: { text: true, colours: true, fonts: true } });
    const b = await browser.render("https://hostile.test/metadata-image.html", { read: { text: true, colours: true, fonts: true } });
    expect({ ...a, timings: null }).toEqual({ ...b, timings: null });
    expect(a.colours![0]).toMatchObject({ hex: "#ffffff", use: "background" });
  });
});
