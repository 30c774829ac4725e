import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { WEBSITE_LEGAL_NOTICE } from "../../../src/app/web/websiteLegal";
import { checkWebsiteLegal } from "../../../src/operations/web/checkWebsiteLegal";
import { type CallMeta, execute } from "../../../src/platform/gateway";
import type { Services } from "../../../src/platform/services";
import type { Browser, RenderedPage } from "../../../src/services/web/rendered";
import { InputError, UpstreamError } from "../../../src/shared/errors";
import { balanceOf, call, createTestKey, json, unverifiedReplies } from "../../helpers";

const meta = (apiKey: string, extra: Partial<CallMeta> = {}): CallMeta => ({
  requestId: "req_website_legal",
  headers: new Headers(),
  ip: "192.0.2.44",
  apiKey,
  waitUntil: () => {},
  ...extra,
});

/** A rendered page as the browser would give it, with these cookies and requests. */
function renderedPage(
  url: string,
  cookies: { name: string; domain?: string; thirdParty?: boolean }[],
  requests: { url: string; refused?: string }[] = [],
): RenderedPage {
  return {
    url,
    finalUrl: url,
    status: 200,
    title: "",
    cookies: cookies.map((c) => ({
      name: c.name,
      domain: c.domain ?? new URL(url).hostname,
      path: "/",
      expires: null,
      httpOnly: false,
      secure: true,
      sameSite: "Lax",
      thirdParty: c.thirdParty ?? false,
    })),
    storageKeys: [],
    requests: [
      { url, type: "document", thirdParty: false, status: 200, bytes: 4000 },
      ...requests.map((r) => ({
        url: r.url,
        type: "script",
        thirdParty: true,
        status: r.refused ? null : 200,
        bytes: r.refused ? 0 : 1000,
        ...(r.refused ? { refused: r.refused } : {}),
      })),
    ],
    cut: [],
    timings: { browserMs: 1, loadMs: 1, axeMs: null, totalMs: 2 },
  };
}

const fakeBrowser = (render: Browser["render"]): Partial<Services> => ({ browser: { available: true, render } });
const noBrowser: Partial<Services> = {
  browser: {
    available: false,
    render: async () => {
      throw new UpstreamError("browser", "not_configured", "not configured");
    },
  },
};

async function run(url: string, services: Partial<Services> = noBrowser) {
  const { key } = await createTestKey();
  const r = await execute(env, checkWebsiteLegal as never, { url }, meta(key, { services }));
  // Replies of execute() are not seen by test/setup.ts's scan: keep them for it (the caller is unverified).
  unverifiedReplies.push({ path: "/api/v1/website-legal", text: JSON.stringify(r.body) });
  return r as { status: number; body: Record<string, any> };
}

describe("SPEC §4.8 GET /api/v1/website-legal", () => {
  it("SPEC §4.8 a compliant site: disclosures match Companies House, every check found, nothing counted before consent", async () => {
    let asked: { url: string; document?: unknown } | null = null;
    const r = await run(
      "https://legal.test/",
      fakeBrowser(async (url, opts) => {
        asked = { url, document: opts?.document };
        return renderedPage(url, [{ name: "cookieyes-consent" }, { name: "PHPSESSID" }]);
      }),
    );
    expect(r.status).toBe(200);
    const b = r.body;
    expect(asked!.url).toBe("https://legal.test/");
    expect(asked!.document).toBeTruthy(); // the page already fetched is handed to the browser
    expect(b.query).toEqual({ url: "https://legal.test/" });
    expect(b.site).toBe("legal.test");
    expect(b.company).toEqual({ name: "TIDEMARK OFFICE SUPPLIES LIMITED", number: "16240001", status: "active" });
    expect(b.problems).toEqual([]);
    const c = b.checks;
    expect(c.tradingDisclosures).toMatchObject({
      status: "found",
      ok: true,
      stated: { companyNumber: "16240001", placeOfRegistration: "England and Wales", registeredOffice: "7 Anchor Road, Bristol BS1 5DB" },
      register: { checked: true, found: true, nameMatches: true, officeMatches: "postcode_and_first_line", placeMatches: true },
    });
    expect(c.tradingDisclosures.evidence[0]).toEqual({ quote: "Registered in England and Wales, company number 16240001.", url: "https://legal.test/" });
    expect(c.tradingDisclosures.rules.map((x: { section: string }) => x.section).join(" ")).toMatch(/reg\. 24.*reg\. 25/);
    expect(c.contactDetails).toMatchObject({ status: "found", ok: true, email: true, geographicAddress: true, poBoxOnly: false });
    expect(c.vatNumber).toMatchObject({
      status: "found",
      ok: true,
      numbers: [{ number: "GB287456162", format: "standard", checkDigits: "pass", scheme: "mod9755" }],
    });
    expect(c.privacyNotice).toMatchObject({ status: "found", ok: true, link: { url: "https://legal.test/privacy-notice" } });
    expect(c.cookiesBeforeConsent).toMatchObject({ status: "not_found", ok: true, trackers: [], consentTool: "CookieYes" });
    expect(c.cookiesBeforeConsent.cookies).toEqual([
      { name: "cookieyes-consent", domain: "legal.test", thirdParty: false, category: "consent", counted: false },
      { name: "PHPSESSID", domain: "legal.test", thirdParty: false, category: "necessary", counted: false },
    ]);
    expect(c.termsOfBusiness).toMatchObject({ status: "found", kind: "terms_of_business" });
    expect(c.modernSlaveryStatement).toMatchObject({ status: "found", ok: true });
    expect(c.accessibilityStatement).toMatchObject({ status: "found", ok: true, requirement: "good_practice" });
    expect(b.summary).toMatch(/^Nothing required was found missing or wrong on legal\.test\./);
    expect(b.pagesRead).toEqual([
      { url: "https://legal.test/", kind: "home", read: true },
      { url: "https://legal.test/contact", kind: "contact", read: true },
      { url: "https://legal.test/privacy-notice", kind: "privacy", read: true },
      { url: "https://legal.test/terms-of-sale", kind: "terms", read: true },
      { url: "https://legal.test/about", kind: "about", read: true },
      { url: "https://legal.test/cookies", kind: "cookies", read: true },
    ]);
    expect(b.notice).toBe(WEBSITE_LEGAL_NOTICE);
    expect(b.notice).toMatch(/not legal advice/);
  });

  it("SPEC §1 rule 7: the director named in the footer and on the contact page is never echoed, nor a personal email address", async () => {
    const { body } = await run("https://legal.test/");
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/Penelope|Marlowe/i);
    expect(text).toContain("sales@legal.test");
    for (const check of Object.values(body.checks) as { evidence: { quote: string }[] }[])
      for (const e of check.evidence) expect(e.quote.length).toBeLessThanOrEqual(202);
  });

  it("SPEC §4.8 name and registered office that are not the register's are findings", async () => {
    const { status, body } = await run("https://legal2.test/");
    expect(status).toBe(200);
    const t = body.checks.tradingDisclosures;
    expect(t).toMatchObject({
      status: "found",
      ok: false,
      stated: { companyNumber: "16240002", registeredName: "Saltmarsh Digital Ltd", registeredOffice: "5 Harbour Street, Whitby YO21 3PU" },
      register: { found: true, name: "SALTMARSH CREATIVE LIMITED", nameMatches: false, officeMatches: "different", placeMatches: true },
    });
    expect(t.findings).toEqual([
      'The site gives the name "Saltmarsh Digital Ltd", which is not the registered name "SALTMARSH CREATIVE LIMITED".',
      "The registered office the site gives (5 Harbour Street, Whitby YO21 3PU) is not the one on the register (Unit 2, Marina Court, Castle Street, Hull, HU1 1TJ, England): the postcodes differ (YO21 3PU, HU1 1TJ).",
    ]);
    // An email written "hello [at] legal2 [dot] test" and a mailto link both count.
    expect(body.checks.contactDetails).toMatchObject({ status: "found", email: true });
    expect(body.summary).toMatch(/^1 check could not run on legal2\.test: cookies or trackers before consent \(.*?\)\. Trading disclosures/);
  });

  it("SPEC §4.8 a number Companies House does not know is a finding; an unreachable privacy page is not in order", async () => {
    const { body } = await run("https://legal5.test/");
    expect(body.company).toBeNull();
    expect(body.checks.tradingDisclosures).toMatchObject({ status: "found", ok: false, register: { checked: true, found: false, number: "16249999" } });
    expect(body.checks.tradingDisclosures.findings[0]).toBe("The company number the site gives (16249999) is not on the Companies House register.");
    expect(body.checks.privacyNotice).toMatchObject({ status: "found", ok: false });
    expect(body.checks.privacyNotice.findings[0]).toMatch(/^The privacy notice link \(https:\/\/legal5\.test\/privacy\) could not be read: .*404/);
    expect(body.pagesRead).toContainEqual(
      expect.objectContaining({ url: "https://legal5.test/privacy", kind: "privacy", read: false, reason: expect.stringMatching(/404/) }),
    );
    // Linked from the about page, not the homepage.
    expect(body.checks.modernSlaveryStatement).toMatchObject({
      status: "not_found",
      ok: null,
      findings: ["A modern slavery statement is linked from another page, but not from the homepage."],
    });
  });

  it("SPEC §4.8 a site missing things: no number, a PO Box only, no email, a VAT number whose check digits fail, no privacy notice", async () => {
    const { body } = await run("https://legal3.test/");
    const c = body.checks;
    expect(c.tradingDisclosures).toMatchObject({ status: "not_found", ok: false, register: { checked: false } });
    expect(c.contactDetails).toMatchObject({ status: "not_found", ok: false, email: false, geographicAddress: false, poBoxOnly: true });
    expect(c.contactDetails.findings[0]).toBe("Only a PO Box address was found: a PO Box is not a geographic address.");
    expect(c.vatNumber).toMatchObject({
      status: "found",
      ok: false,
      numbers: [{ number: "GB123456789", format: "standard", checkDigits: "fail", scheme: null }],
    });
    expect(c.vatNumber.findings[0]).toMatch(/format valid, check digits fail/);
    expect(c.privacyNotice).toMatchObject({ status: "not_found", ok: false });
    expect(c.termsOfBusiness).toMatchObject({ status: "not_found", ok: null });
    expect(c.modernSlaveryStatement.note).toMatch(/£36m/);
    expect(c.accessibilityStatement.note).toMatch(/public sector/);
    // A check that could not run (no browser here) comes first in the summary, then what is missing (issue 28 §3).
    expect(body.summary).toMatch(
      /^1 check could not run on legal3\.test: cookies or trackers before consent \(.*?\)\. Missing on legal3\.test: trading disclosures .*; contact details .*; privacy notice/,
    );
  });

  it("SPEC §4.8 PECR: analytics cookies and a tracker requested before consent are counted; a refused request still counts", async () => {
    const { body } = await run(
      "https://legal4.test/",
      fakeBrowser(async (url) =>
        renderedPage(
          url,
          [{ name: "_ga" }, { name: "_fbp" }, { name: "PHPSESSID" }, { name: "IDE", domain: ".doubleclick.net", thirdParty: true }, { name: "site_pref" }],
          [
            { url: "https://www.googletagmanager.com/gtag/js?id=G-TEST1234", refused: "the address could not be resolved" },
            { url: "https://www.google-analytics.com/g/collect?v=2" },
          ],
        ),
      ),
    );
    const k = body.checks.cookiesBeforeConsent;
    expect(k).toMatchObject({ status: "found", ok: false });
    expect(k.cookies.filter((x: { counted: boolean }) => x.counted).map((x: { name: string }) => x.name)).toEqual(["_ga", "_fbp", "IDE"]);
    expect(k.cookies.find((x: { name: string }) => x.name === "PHPSESSID")).toMatchObject({ category: "necessary", counted: false });
    expect(k.cookies.find((x: { name: string }) => x.name === "site_pref")).toMatchObject({ category: "unknown", counted: false });
    expect(k.trackers).toEqual([
      { service: "Google Tag Manager", host: "www.googletagmanager.com", refused: true },
      { service: "Google Analytics", host: "www.google-analytics.com", refused: false },
    ]);
    expect(k.findings.join(" ")).toMatch(/3 non-essential cookies were set before any consent: _ga \(analytics\), _fbp \(advertising\), IDE \(advertising\)/);
    expect(body.problems.join(" ")).toMatch(/Google Tag Manager, Google Analytics/);
    expect(body.summary).toMatch(/Cookies or trackers before consent: /);
  });

  it("SPEC §4.8 no browser, or a browser that fails: the cookie check is couldn't tell and the rest still answers", async () => {
    const none = await run("https://legal4.test/", noBrowser);
    expect(none.status).toBe(200);
    expect(none.body.checks.cookiesBeforeConsent).toMatchObject({ status: "unknown", ok: null, cookies: [], trackers: [] });
    expect(none.body.checks.cookiesBeforeConsent.note).toMatch(/^Couldn't tell: no browser is configured/);
    expect(none.body.checks.tradingDisclosures.status).toBe("found");
    // Issue 28 §3: the check that could not run leads the summary; nothing is said to be in order of the whole site.
    expect(none.body.summary).toMatch(/^1 check could not run on legal4\.test: cookies or trackers before consent \(no browser is configured/);
    expect(none.body.summary).not.toContain("Nothing required was found missing or wrong");

    const down = await run(
      "https://legal4.test/",
      fakeBrowser(async () => {
        throw new UpstreamError("browser", "unreachable", "Browser Rendering did not answer");
      }),
    );
    expect(down.status).toBe(200);
    expect(down.body.checks.cookiesBeforeConsent).toMatchObject({ status: "unknown", ok: null });
    expect(down.body.checks.cookiesBeforeConsent.note).toMatch(/could not be reached/);
    expect(down.body.summary).toMatch(/^1 check could not run on legal4\.test: cookies or trackers before consent \([^)]*could not be reached/);

    const unreadable = await run(
      "https://legal4.test/",
      fakeBrowser(async () => {
        throw new InputError("unreadable_input", "The page could not be rendered.");
      }),
    );
    expect(unreadable.status).toBe(200);
    expect(unreadable.body.checks.cookiesBeforeConsent.status).toBe("unknown");
  });

  it("SPEC §4.8 Companies House unreachable: 503, never 'not found', nothing charged", async () => {
    const { key, keyId } = await createTestKey();
    const before = await balanceOf(keyId);
    const r = await execute(
      env,
      checkWebsiteLegal as never,
      { url: "https://legal.test/" },
      meta(key, {
        services: {
          ...noBrowser,
          companiesHouse: {
            getProfile: async () => {
              throw new UpstreamError("companies-house", "unreachable", "Companies House did not answer");
            },
          } as never,
        },
      }),
    );
    expect(r.status).toBe(503);
    expect((r.body as { code: string }).code).toBe("upstream_unavailable");
    expect(await balanceOf(keyId)).toBe(before);
  });

  it("SPEC §4.8 over HTTP with the real services: 4 credits on success; the cookie check answers either way", async () => {
    const { key, keyId } = await createTestKey();
    const before = await balanceOf(keyId);
    const r = await call(`/api/v1/website-legal?${new URLSearchParams({ url: "legal4.test" })}`, { key });
    const body = await json(r);
    expect(r.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    expect(await balanceOf(keyId)).toBe(before - 4);
    expect(body.query).toEqual({ url: "https://legal4.test" });
    expect(body.company).toMatchObject({ number: "16240003", name: "HEDGEROW ANALYTICS LIMITED" });
    const k = body.checks.cookiesBeforeConsent;
    if (env.BROWSER_PRESENT && k.status !== "unknown") {
      // The page sets _ga and _fbp before any choice and asks for Google Tag Manager (refused here: not a fixture host).
      expect(k).toMatchObject({ status: "found", ok: false });
      expect(k.cookies.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(["_ga", "_fbp"]));
      expect(k.trackers).toContainEqual(expect.objectContaining({ service: "Google Tag Manager", host: "www.googletagmanager.com" }));
    } else {
      expect(k).toMatchObject({ status: "unknown", ok: null });
    }
  }, 45_000);

  it.each([
    ["https://legal.test/no-such-page", 422, "unreadable_input"],
    // Issue 29 §3: an address the URL itself shows cannot be fetched is refused in validation.
    ["http://127.0.0.1/", 400, "bad_request"],
    ["not a url at all", 400, "bad_request"],
  ])("SPEC §4.8 %s → %i %s, nothing charged", async (url, status, code) => {
    const { key, keyId } = await createTestKey();
    const before = await balanceOf(keyId);
    const r = await call(`/api/v1/website-legal?${new URLSearchParams({ url })}`, { key });
    const body = await json(r);
    expect(r.status).toBe(status);
    expect(body.code).toBe(code);
    expect(await balanceOf(keyId)).toBe(before);
  });

  it("SPEC §4.8 needs a key and a url", async () => {
    expect((await call("/api/v1/website-legal?url=legal.test")).status).toBe(401);
    const { key } = await createTestKey();
    const r = await call("/api/v1/website-legal", { key });
    expect(r.status).toBe(400);
    expect((await json(r)).field).toBe("url");
  });
});
