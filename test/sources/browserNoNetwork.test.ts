import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createBrowser } from "../../src/sources/web/browser";
import { testHostsOf } from "../../src/shared/testHosts";

/**
 * Issue 29 §3: the audit's browser opened a TCP connection to a private address before refusing a navigation to it
 * (an iframe, a form, a link, `location.href`): the request was intercepted and refused, but Chromium had already
 * preconnected to its target. Locally (and self-hosted) Chromium now has no network of its own
 * (scripts/browser-prep.mjs NO_NETWORK): the canary, a listener on port 80 of a loopback address that logs every TCP
 * connection (vitest.config.ts), must see none. The pages are served over http: from an https page Chromium blocks these as mixed
 * content before it would connect, so https alone would hide the fault.
 */
const browser = createBrowser(env.BROWSER, {
  testHosts: testHostsOf(env.SAFE_FETCH_TEST_HOSTS),
  resolve: async (host) => {
    throw new Error(`no DNS in this test (${host})`);
  },
});
const canary = async () => (await (await fetch("http://canary.test/log")).json()) as { canary: string; canary80: string; hits: string[] };
/** The canary on port 80 (Chromium preconnects to a navigation's target on the default port): "" where port 80 cannot be bound. */
const { canary80 } = await canary();

describe.skipIf(!env.BROWSER_PRESENT || !canary80)("issue 29 §3: the browser never connects anywhere itself", () => {
  it("navigations to a loopback address (iframe, form POST and GET, link click, hover, frame and page location, preconnect, dns-prefetch): refused, and not one TCP connection", async () => {
    const before = (await canary()).hits.length;
    // The page's navigations are staggered over 100 ms after its script runs; on a loaded machine the render may be
    // read before the later ones start. So it is rendered again (at most three times) until at least two were tried:
    // every render's requests to the canary must be refused, and not one connection made by any.
    const toCanary: { url: string; refused?: unknown }[] = [];
    for (let i = 0; i < 3 && toCanary.length < 2; i++) {
      const page = await browser.render("http://hostile.test/navigations.html", { read: { text: true } });
      expect(page.title).toBe("Navigations to the loopback address");
      toCanary.push(...page.requests.filter((r) => r.url.includes(canary80)));
    }
    expect(toCanary.length).toBeGreaterThanOrEqual(2);
    for (const r of toCanary) expect(r.refused, r.url).toBeTruthy();
    // Connections a preconnect would open come within moments; give them time.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await canary()).hits.slice(before)).toEqual([]);
  });
});
