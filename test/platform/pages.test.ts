import { describe, expect, it, vi } from "vitest";
import { wantsHtml } from "../../src/platform/pages";
import { call, uniqueContact } from "../helpers";

/** Issue 11: the pages for people, checked without a browser (scripts/test-browser.mjs checks them in one). */

const form = (fields: Record<string, string>, ip: string) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": ip },
  body: new URLSearchParams(fields).toString(),
});

function expectPageHeaders(r: Response) {
  expect(r.headers.get("content-type")).toMatch(/^text\/html/);
  const csp = r.headers.get("content-security-policy") ?? "";
  const scripts = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
  expect(scripts).toBe("'self'"); // no inline script, no other origin
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'none'");
  expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  expect(r.headers.get("referrer-policy")).toBe("no-referrer");
}

describe("issue 11 the front door: / by content negotiation", () => {
  it("a browser gets the landing page; an API client keeps the JSON", async () => {
    const page = await call("/", { headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" } });
    expect(page.status).toBe(200);
    expectPageHeaders(page);
    const text = await page.text();
    expect(text).toContain("<h1>UK company checks as an API</h1>");
    for (const href of ['href="/docs"', 'href="/signup"', 'href="/status"', 'href="/changelog"', 'href="/#licences"']) expect(text).toContain(href);
    expect(text).toContain("100 credits a month");
    expect(text).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
    for (const accept of [undefined, "*/*", "application/json", "application/json, text/html"]) {
      const api = await call("/", accept ? { headers: { accept } } : {});
      expect(api.headers.get("content-type"), String(accept)).toMatch(/^application\/json/);
      expect(((await api.json()) as { pages: { signup: string } }).pages.signup).toBe("/signup");
    }
    expect([wantsHtml("text/html"), wantsHtml("*/*"), wantsHtml(undefined), wantsHtml("application/json;q=1, text/html;q=0.5")]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it("/docs, /status and /signup are HTML with the security headers; the stylesheet is served from this origin", async () => {
    for (const path of ["/docs", "/status", "/signup"]) {
      const r = await call(path);
      expect(r.status, path).toBe(200);
      expectPageHeaders(r);
    }
    const docs = await (await call("/docs")).text();
    expect(docs).toContain('data-url="/openapi.json"');
    expect(docs).toContain('<script src="/vendor/scalar/standalone.js"></script>\n<script src="/assets/docs-a11y.js"></script>');
    const css = await call("/assets/site.css");
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
  });
});

describe("issue 11 the sign-up page works without JavaScript (SPEC §5.3)", () => {
  it("email and mobile → the codes form → a wrong code is said beside its field → the right codes show the key once", async () => {
    const c = uniqueContact();
    const logged = vi.spyOn(console, "log").mockImplementation(() => {});
    const step2 = await call("/signup", form({ email: c.email, mobile: c.mobile }, c.ip));
    expect(step2.status).toBe(200);
    const codesPage = await step2.text();
    expect(codesPage).toContain("Enter the two codes");
    expect(codesPage).toContain("npm start"); // the "log" provider: the codes are in the server log
    const challengeId = /name="challengeId" value="([^"]+)"/.exec(codesPage)![1];
    const codes = Object.fromEntries(
      logged.mock.calls.map(([l]) => JSON.parse(String(l)) as { message: string; text: string }).map((m) => [m.message, /\b(\d{6})\b/.exec(m.text)![1]]),
    );
    logged.mockRestore();
    const wrong = String((Number(codes.sms) + 1) % 1_000_000).padStart(6, "0");
    const bad = await call(
      "/signup/verify",
      form({ challengeId, emailCode: codes.email, mobileCode: wrong, sentEmail: "d***@example.co.uk", sentMobile: "07*** ***123" }, c.ip),
    );
    expect(bad.status).toBe(403);
    const badPage = await bad.text();
    expect(badPage).toContain('role="alert"');
    expect(badPage).toContain("mobile code does not match");
    expect(badPage).toMatch(/id="mobileCode"[^>]*aria-invalid="true"/);
    const ok = await call("/signup/verify", form({ challengeId, emailCode: codes.email, mobileCode: codes.sms }, c.ip));
    expect(ok.status).toBe(201);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const keyPage = await ok.text();
    const key = /<output class="key" id="api-key">([^<]+)<\/output>/.exec(keyPage)![1];
    expect(keyPage).toContain("will not be shown again");
    const r = await call("/api/v1/late-payment?amount=2400&due=2026-01-15&paid=2026-02-05", { key });
    expect(r.status).toBe(200);
  });

  it("a bad address is said beside the field, with what was typed kept; too many attempts say when to try again", async () => {
    const c = uniqueContact();
    const bad = await call("/signup", form({ email: "not-an-address", mobile: c.mobile }, c.ip));
    expect(bad.status).toBe(400);
    const page = await bad.text();
    expect(page).toMatch(/id="email"[^>]*aria-invalid="true"/);
    expect(page).toContain(`value="${c.mobile}"`);
    vi.spyOn(console, "log").mockImplementation(() => {});
    let last: Response | null = null;
    for (let i = 0; i < 4; i++) last = await call("/signup", form({ email: c.email, mobile: `07700${String(900000 + i)}` }, `203.0.113.${i + 20}`));
    vi.restoreAllMocks();
    expect(last!.status).toBe(429);
    expect(await last!.text()).toMatch(/Too many sign-up attempts[^<]*Try again in about \d+ minutes?/);
  });
});

describe("issue 11 the status page", () => {
  it("shows the same facts as /api/status", async () => {
    const r = await call("/status");
    const text = await r.text();
    expect(text).toContain("<h1>Service status</h1>");
    expect(text).toContain('href="/api/status"');
    expect(text).toContain("companies-house");
  });
});

describe("issue 32 the landing page's logo form: a domain or a company number, shown as <img> tags of the logo image", () => {
  const page = (logo: string) => call(`/?${new URLSearchParams({ logo })}`, { headers: { accept: "text/html", "cf-connecting-ip": "2001:db8:77::1" } });

  it("a domain: three <img> tags of the logo image (128, 64 greyscale, 32) whose addresses answer the image, and the snippet with it", async () => {
    const r = await page("logos.test");
    expect(r.status).toBe(200);
    expectPageHeaders(r);
    const text = await r.text();
    const srcs = [...text.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1].replaceAll("&amp;", "&"));
    expect(srcs).toEqual([
      "/api/v1/company-logo/image?domain=logos.test&size=128",
      "/api/v1/company-logo/image?domain=logos.test&size=64&greyscale=true",
      "/api/v1/company-logo/image?domain=logos.test&size=32",
    ]);
    expect(text).toContain('alt="Logo of logos.test"');
    expect(text).toContain("http://api.test/api/v1/company-logo/image?domain=logos.test&amp;size=64&amp;key=pk_…");
    // What the page shows is what the route answers (the page's own CSP allows images from 'self').
    const img = await call(srcs[0], { headers: { "cf-connecting-ip": "2001:db8:77::1" } });
    expect([img.status, img.headers.get("content-type")]).toEqual([200, "image/png"]);
    await img.body?.cancel();
  });

  it("a company number (spaces and missing zeros allowed) is asked as company=; anything else is said plainly, escaped, with no image", async () => {
    const byNumber = await (await page(" 445790 ")).text();
    expect(byNumber).toContain('<img src="/api/v1/company-logo/image?company=00445790&amp;size=128"');
    const bad = await (await page("<script>alert(1)</script>")).text();
    expect(bad).toContain('role="alert"');
    expect(bad).toContain("neither a website domain");
    expect(bad).not.toContain("<script>alert");
    expect(bad).toContain('aria-invalid="true"');
    expect(bad).not.toMatch(/<img src="\/api/);
    const plain = await (await page("")).text();
    expect(plain).toContain('id="logos"');
    expect(plain).not.toMatch(/<img src="\/api/);
  });
});
