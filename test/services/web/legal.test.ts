import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CompanyProfile } from "../../../src/services/companies/profile";
import {
  CHECK_LABELS,
  type LegalChecks,
  type PageRead,
  assessLegal,
  cookieCategory,
  numbersToCheck,
  summaryOf,
  trackerOf,
} from "../../../src/services/web/legal";
import { readPage } from "../../../src/services/web/siteLinks";

const page = (url: string, body: string, kind: PageRead["kind"] = "home"): PageRead => ({ ...readPage(`<html><body>${body}</body></html>`, url), url, kind });

const profile = (over: Partial<CompanyProfile> = {}): CompanyProfile => ({
  number: "01234567",
  name: "HARBOURSIDE LEGAL LIMITED",
  status: "active",
  statusDetail: null,
  type: "ltd",
  incorporatedOn: "1978-02-14",
  ceasedOn: null,
  jurisdiction: "england-wales",
  registeredOffice: {
    line1: "10 Quay Road",
    line2: null,
    locality: "Bristol",
    region: null,
    postcode: "BS1 4QA",
    country: "England",
    text: "10 Quay Road, Bristol, BS1 4QA, England",
  },
  previousNames: [{ name: "HARBOURSIDE & CO SOLICITORS LIMITED", from: "1978-02-14", until: "2009-07-01" }],
  sicCodes: [],
  accountsOverdue: false,
  confirmationStatementOverdue: false,
  filingDates: { accountsDueOn: null, accountsMadeUpTo: null, confirmationStatementDueOn: null, confirmationStatementMadeUpTo: null },
  hasFilingDeadlines: false,
  ...over,
});

const NO_BROWSER = { reason: "no browser" };

describe("assessLegal", () => {
  it("a former name is reported as such; an office with the register's postcode but another first line is postcode_only", () => {
    const home = page(
      "https://harbourside.co.uk/",
      `<footer><p>© Harbourside &amp; Co Solicitors Ltd. Registered in England and Wales No. 1234567. Registered office: 12 Quay Road, Bristol BS1 4QA.</p></footer>`,
    );
    const r = assessLegal({ pages: [home], notRead: [], register: [{ number: "01234567", profile: profile() }], rendered: NO_BROWSER });
    const t = r.checks.tradingDisclosures;
    expect(t.register).toMatchObject({ nameMatches: false, officeMatches: "postcode_only", placeMatches: true });
    expect(t.findings).toEqual([
      'The site gives a former name of the company ("HARBOURSIDE & CO SOLICITORS LIMITED", changed on 2009-07-01); its registered name is "HARBOURSIDE LEGAL LIMITED".',
      'The registered office the site gives has the register\'s postcode (BS1 4QA) but not its first line ("10 Quay Road").',
    ]);
  });

  it("a Scottish company said to be registered in England and Wales; a dissolved company", () => {
    const home = page(
      "https://ropes.co.uk/",
      `<footer>Harbourside Ropeworks Ltd, registered in England and Wales, company number SC612345. Registered office: 12 Commercial Street, Edinburgh EH6 6JA.</footer>`,
    );
    const p = profile({
      number: "SC612345",
      name: "HARBOURSIDE ROPEWORKS LTD",
      jurisdiction: "scotland",
      status: "dissolved",
      previousNames: [],
      registeredOffice: {
        line1: "12 Commercial Street",
        line2: null,
        locality: "Edinburgh",
        region: null,
        postcode: "EH6 6JA",
        country: "Scotland",
        text: "12 Commercial Street, Edinburgh, EH6 6JA",
      },
    });
    const t = assessLegal({ pages: [home], notRead: [], register: [{ number: "SC612345", profile: p }], rendered: NO_BROWSER }).checks.tradingDisclosures;
    expect(t.register.placeMatches).toBe(false);
    expect(t.findings).toEqual([
      "The site says the company is registered in England and Wales; the register has it in Scotland.",
      "The register shows the company as dissolved.",
    ]);
  });

  it("the registered office shown unlabelled counts; the name without its legal form does not", () => {
    const home = page(
      "https://harbourside.co.uk/",
      `<p>Harbourside Legal, 10 Quay Road, Bristol BS1 4QA</p><footer>Company no. 01234567, registered in England &amp; Wales.</footer>`,
    );
    const t = assessLegal({ pages: [home], notRead: [], register: [{ number: "01234567", profile: profile({ previousNames: [] }) }], rendered: NO_BROWSER })
      .checks.tradingDisclosures;
    expect(t.register.officeMatches).toBe("postcode_and_first_line");
    expect(t.register.nameMatches).toBe(false);
    expect(t.findings).toEqual(['The site uses the name without its legal form; the registered name, "HARBOURSIDE LEGAL LIMITED", was not found in full.']);
  });

  it("numbersToCheck ranks the footer's number first and never takes a charity number", () => {
    const home = page(
      "https://x.org.uk/",
      `<main>Our parent, Big Group plc (company number 00123456), …</main><footer>Registered charity no. 1098765. Company no. 04712345.</footer>`,
    );
    expect(numbersToCheck([home])).toEqual(["04712345", "00123456"]);
  });

  it("an accessibility statement is required of a public sector site", () => {
    const home = page("https://www.somewhere.gov.uk/", `<footer><a href="/privacy">Privacy</a></footer>`);
    const a = assessLegal({ pages: [home], notRead: [], register: null, rendered: NO_BROWSER }).checks.accessibilityStatement;
    expect(a).toMatchObject({ status: "not_found", ok: false, requirement: "required" });
  });

  it("the summary names what is missing first after a check that could not run, and is the same for the same findings", () => {
    const home = page("https://bare.co.uk/", `<p>Hello</p>`);
    const input = { pages: [home], notRead: [], register: null, rendered: NO_BROWSER };
    const a = assessLegal(input);
    expect(a.summary).toBe(assessLegal(input).summary);
    expect(a.summary).toMatch(
      /^1 check could not run on bare\.co\.uk: cookies or trackers before consent \(no browser\)\. Missing on bare\.co\.uk: contact details .*; privacy notice \(No link to a privacy notice was found\)\. Not found, required only in some cases: trading disclosures/,
    );
    expect(a.checks.tradingDisclosures.ok).toBeNull(); // no sign of a company: a sole trader may have no number
  });
});

describe("SPEC §4.8 website-legal: a check that could not run leads the summary (issue 28 §3)", () => {
  const complete = page(
    "https://harbourside.co.uk/",
    `<footer><p>Harbourside Legal Limited. Registered in England and Wales, company number 01234567. Registered office: 10 Quay Road, Bristol BS1 4QA. Email hello@harbourside.co.uk</p><a href="/privacy">Privacy notice</a></footer>`,
  );
  const input = { pages: [complete], notRead: [], register: [{ number: "01234567", profile: profile({ previousNames: [] }) }] };

  it("nothing missing or wrong among the checks that ran, the cookie check not run: the summary says so first, never 'Nothing required was found missing or wrong on …'", () => {
    const r = assessLegal({ ...input, rendered: NO_BROWSER });
    expect(r.problems).toEqual([]);
    expect(r.checks.cookiesBeforeConsent).toMatchObject({ status: "unknown", ok: null });
    expect(r.summary).toMatch(
      /^1 check could not run on harbourside\.co\.uk: cookies or trackers before consent \(no browser\)\. Of the checks that ran, nothing required was found missing or wrong\./,
    );
    expect(r.summary).not.toContain("Nothing required was found missing or wrong");
    // The same site with the cookie check run and clean: only then the plain sentence.
    const rendered = { page: { finalUrl: "https://harbourside.co.uk/", html: "", cookies: [], requests: [], cut: [] } } as never;
    expect(assessLegal({ ...input, rendered }).summary).toMatch(/^Nothing required was found missing or wrong on harbourside\.co\.uk\./);
  });

  it("whatever the checks' statuses, a check that could not run is named before anything else, with how many", () => {
    const base = assessLegal({ ...input, rendered: NO_BROWSER }).checks;
    const keys = Object.keys(base) as (keyof LegalChecks)[];
    fc.assert(
      fc.property(fc.subarray(keys), fc.subarray(keys), (notRun, failing) => {
        const checks = structuredClone(base) as LegalChecks;
        for (const k of keys) Object.assign(checks[k], { status: "found", ok: true, findings: [] });
        for (const k of failing) Object.assign(checks[k], { status: "not_found", ok: false, findings: [`${k} failed.`] });
        for (const k of notRun) Object.assign(checks[k], { status: "unknown", ok: null, findings: [], note: `Couldn't tell: ${k} reason.` });
        const summary = summaryOf(checks, "x.co.uk");
        if (!notRun.length) return !/could not run/.test(summary);
        const lead = `${notRun.length === 1 ? "1 check" : `${notRun.length} checks`} could not run on x.co.uk: `;
        return (
          summary.startsWith(lead) && notRun.every((k) => summary.split(". ")[0].includes(CHECK_LABELS[k])) && !summary.includes("Nothing required was found")
        );
      }),
    );
  });
});

describe("cookies and trackers", () => {
  it.each([
    ["_ga", "analytics"],
    ["_ga_ABC123", "analytics"],
    ["_gid", "analytics"],
    ["_hjSessionUser_123", "analytics"],
    ["_clck", "analytics"],
    ["_fbp", "advertising"],
    ["_gcl_au", "advertising"],
    ["IDE", "advertising"],
    ["_uetvid", "advertising"],
    ["li_fat_id", "advertising"],
    ["CookieConsent", "consent"],
    ["OptanonConsent", "consent"],
    ["cookieyes-consent", "consent"],
    ["cmplz_marketing", "consent"],
    ["PHPSESSID", "necessary"],
    ["laravel_session", "necessary"],
    ["XSRF-TOKEN", "necessary"],
    ["__cf_bm", "necessary"],
    ["__Host-session", "necessary"],
    ["my_pref", "unknown"],
  ])("%s is %s", (name, category) => {
    expect(cookieCategory(name)).toBe(category);
  });

  it("trackerOf: by host, subdomain and path", () => {
    expect(trackerOf("https://www.googletagmanager.com/gtag/js?id=G-1")?.service).toBe("Google Tag Manager");
    expect(trackerOf("https://region1.google-analytics.com/g/collect")?.service).toBe("Google Analytics");
    expect(trackerOf("https://www.facebook.com/tr?id=1")?.service).toBe("Meta (Facebook) Pixel");
    expect(trackerOf("https://www.facebook.com/example")).toBeNull();
    expect(trackerOf("https://static.hotjar.com/c/hotjar-1.js")?.service).toBe("Hotjar");
    expect(trackerOf("https://www.clarity.ms/tag/abc")?.service).toBe("Microsoft Clarity");
    expect(trackerOf("https://snap.licdn.com/li.lms-analytics/insight.min.js")?.service).toBe("LinkedIn Insight Tag");
    expect(trackerOf("https://analytics.tiktok.com/i18n/pixel/events.js")?.service).toBe("TikTok Pixel");
    expect(trackerOf("https://bat.bing.com/bat.js")?.service).toBe("Microsoft Advertising (Bing UET)");
    expect(trackerOf("https://fonts.googleapis.com/css2")).toBeNull();
    expect(trackerOf("https://notgoogletagmanager.com/x")).toBeNull();
  });
});
