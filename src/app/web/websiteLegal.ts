import { z } from "@hono/zod-openapi";
import type { OpContext } from "../../platform/registry";
import type { CompanyProfile } from "../../services/companies/profile";
import { siteOf } from "../../services/net/site";
import {
  type LegalReport,
  type PageNotRead,
  type PageRead,
  type RegisterAnswer,
  type RenderOutcome,
  assessLegal,
  numbersToCheck,
} from "../../services/web/legal";
import { type LinkKind, legalPagesToFollow, readPage } from "../../services/web/siteLinks";
import { InputError, UpstreamError } from "../../shared/errors";
import { mapLimited } from "../../shared/concurrency";
import { describedUrl, fetchHtmlPage, isHtmlPage, pageOf, renderOrReason } from "./page";

/**
 * website-legal (SPEC §4.8): the legal basics of a UK business website. The homepage is read through the safe
 * fetcher, then up to 5 of the legal pages it links to on the same site (contact, legal, privacy, terms, about,
 * cookies), in parallel; the company number it states is checked at Companies House; the homepage is rendered in
 * a browser to see the cookies and tracker requests made before any consent. The judging is pure
 * (services/web/legal.ts). No person is named: quotes are short and people's names are taken out (SPEC §1 rule 7).
 */

export const WEBSITE_LEGAL_NOTICE =
  "An automated reading of the pages listed in `pagesRead`, not legal advice: results come from public sources and may be incomplete, inaccurate or out of date (SPEC §1 rule 2). Whether a rule applies can depend on facts the site does not show (VAT registration, turnover, consumer sales, public sector status). Take professional advice before relying on it.";

/** Legal pages read besides the homepage. */
export const MAX_PAGES = 5;
/** Pages fetched at once. */
const CONCURRENCY = 3;
const HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1";

const Status = z
  .enum(["found", "not_found", "unknown"])
  .describe(
    "`found`: what the check looks for was found on the pages read; `not_found`: it was not; `unknown`: couldn't tell (e.g. no browser to watch cookies). For `cookiesBeforeConsent`, `found` means non-essential cookies or trackers WERE found before consent (a problem).",
  );

const Evidence = z
  .object({
    quote: z
      .string()
      .describe("A short quote (at most about 200 characters) of the sentence or link, centred on what was matched; people's names are removed."),
    url: z.string().describe("The page the quote is from."),
  })
  .openapi("WebsiteLegalEvidence");

const Rule = z
  .object({ law: z.string().describe("The regulation or Act."), section: z.string().describe("The regulation, section or article, and what it requires.") })
  .openapi("WebsiteLegalRule");

const checkFields = {
  status: Status,
  ok: z
    .boolean()
    .nullable()
    .describe(
      "Whether this point is in order as far as the pages read show: true, false, or null where it depends on facts the site does not show (VAT registration, turnover, public sector) or could not be told.",
    ),
  requirement: z
    .enum(["required", "required_if", "good_practice"])
    .describe("`required` of every UK business website; `required_if` only in some cases (see `note`); `good_practice` otherwise."),
  rules: z.array(Rule).describe("The rules cited."),
  evidence: z.array(Evidence).describe("What was found, quoted, with the page it was on."),
  findings: z.array(z.string()).describe("What is missing or wrong, in words."),
  note: z.string().describe("What the check looks at and when the rule applies."),
};

const LinkFound = z
  .object({ url: z.string(), text: z.string().describe("The link's words."), page: z.string().describe("The page the link is on.") })
  .nullable()
  .describe("The link found; null when none.");

const TradingDisclosures = z
  .object({
    ...checkFields,
    stated: z
      .object({
        companyNumber: z.string().nullable().describe("The company number the site states (8 characters), the one checked at Companies House."),
        otherNumbers: z.array(z.string()).describe("Other company numbers stated on the pages read (a parent, a subsidiary)."),
        registeredName: z.string().nullable().describe("The company name the site gives (the registered name where it is there)."),
        placeOfRegistration: z.string().nullable().describe('As written: "England and Wales", "Scotland", "Northern Ireland", "England"…'),
        registeredOffice: z
          .string()
          .nullable()
          .describe("The registered office address the site gives (or the register's address where the site gives it unlabelled)."),
      })
      .describe("What the site states."),
    register: z
      .object({
        checked: z.boolean().describe("A number was stated and looked up at Companies House."),
        found: z.boolean().nullable().describe("The number is on the register; null when not checked."),
        number: z.string().nullable(),
        name: z.string().nullable().describe("The registered name."),
        status: z.string().nullable().describe("The company's status on the register (active, dissolved…)."),
        registeredOffice: z.string().nullable().describe("The registered office on the register, on one line."),
        nameMatches: z.boolean().nullable().describe("The site gives the registered name (case, punctuation, '&'/'and' and Ltd/Limited aside)."),
        officeMatches: z
          .enum(["postcode_and_first_line", "postcode_only", "different", "not_stated"])
          .nullable()
          .describe(
            "The site's registered office against the register's: same postcode and first line, same postcode only, different, or not stated on the site.",
          ),
        placeMatches: z.boolean().nullable().describe("The part of the UK the site states is the register's."),
      })
      .describe("The register's answer (Companies House company profile)."),
  })
  .openapi("WebsiteLegalTradingDisclosures");

const ContactDetails = z
  .object({
    ...checkFields,
    email: z.boolean().describe("An email address was found (an address naming a person is not quoted)."),
    geographicAddress: z.boolean().describe("A street address with a UK postcode was found."),
    poBoxOnly: z.boolean().describe("The only address found is a PO Box, which is not a geographic address."),
  })
  .openapi("WebsiteLegalContactDetails");

const VatNumber = z
  .object({
    ...checkFields,
    numbers: z
      .array(
        z.object({
          stated: z.string().describe("As written."),
          number: z.string().describe("Normalised, e.g. GB123456789."),
          format: z
            .enum(["standard", "branch", "government", "health", "invalid"])
            .describe("standard: GB + 9 digits; branch: GB + 12; government: GBGD + 3; health: GBHA + 3; invalid: none of these."),
          checkDigits: z
            .enum(["pass", "fail", "not_applicable"])
            .describe("HMRC's check-digit test on the 9 digits: `pass` (format valid, check digits pass), `fail` (format valid, check digits fail)."),
          scheme: z.enum(["mod97", "mod9755"]).nullable().describe("The check-digit scheme the number passes."),
        }),
      )
      .describe("The VAT numbers stated."),
  })
  .openapi("WebsiteLegalVatNumber");

const LinkCheck = z.object({ ...checkFields, link: LinkFound }).openapi("WebsiteLegalLinkCheck");

const Terms = z
  .object({
    ...checkFields,
    link: LinkFound,
    kind: z
      .enum(["terms_of_business", "website_terms", "terms"])
      .nullable()
      .describe("terms_of_business: terms of sale, supply or business; website_terms: terms of use of the website only; terms: the link does not say which."),
  })
  .openapi("WebsiteLegalTerms");

const Cookies = z
  .object({
    ...checkFields,
    cookies: z
      .array(
        z.object({
          name: z.string(),
          domain: z.string(),
          thirdParty: z.boolean(),
          category: z
            .enum(["necessary", "consent", "analytics", "advertising", "unknown"])
            .describe("By the cookie's name; `consent` is the consent tool's own cookie."),
          counted: z.boolean().describe("Counted against the site: analytics, advertising, or an unknown third-party cookie set before consent."),
        }),
      )
      .describe("Every cookie present after the homepage loaded, before any click."),
    trackers: z
      .array(
        z.object({
          service: z.string(),
          host: z.string(),
          refused: z.boolean().describe("This service's browser did not let the request through; the page still made it."),
        }),
      )
      .describe(
        "Requests the page made during load to known tracker hosts (Google Analytics and Tag Manager, Meta Pixel, Hotjar, Microsoft Clarity, LinkedIn, TikTok, X, Bing…).",
      ),
    consentTool: z.string().nullable().describe("The consent tool recognised (by its script's host or its cookie), if any."),
  })
  .openapi("WebsiteLegalCookies");

const PageReadOut = z
  .object({
    url: z.string(),
    kind: z
      .enum(["home", "privacy", "cookies", "terms", "contact", "about", "accessibility", "modernSlavery", "careers", "legal"])
      .describe("Why it was read: the homepage, or the kind of legal page the link named."),
    read: z.boolean(),
    reason: z.string().optional().describe("Why it could not be read."),
  })
  .openapi("WebsiteLegalPage");

const Output = z
  .object({
    query: z.object({ url: z.string() }).describe("The request, as read."),
    url: z.string().describe("The page read (after redirects)."),
    site: z.string().describe("The site's registrable domain."),
    company: z
      .object({ name: z.string(), number: z.string(), status: z.string() })
      .nullable()
      .describe("The registered company the site's number is, at Companies House; null when no number was stated or the register does not know it."),
    summary: z
      .string()
      .describe(
        "One paragraph: a check that could not run (status `unknown`) first, with why; then what is missing, what is wrong, what is required only in some cases and what is in order. 'Nothing required was found missing or wrong' is said of the site only when every check ran.",
      ),
    problems: z.array(z.string()).describe("Every finding of the checks that are not in order (`ok` false), in the checks' order."),
    checks: z
      .object({
        tradingDisclosures: TradingDisclosures.describe("Registered name, number, part of the UK and registered office, checked against Companies House."),
        contactDetails: ContactDetails.describe("A geographic postal address and an email address."),
        vatNumber: VatNumber.describe("The VAT number, where shown: format and HMRC check digits."),
        privacyNotice: LinkCheck.describe("A link to a privacy notice, and the page reachable."),
        cookiesBeforeConsent: Cookies.describe("Cookies set and trackers loaded before any consent, seen in a browser."),
        termsOfBusiness: Terms.describe("A link to terms and conditions, and which kind."),
        modernSlaveryStatement: LinkCheck.describe("A modern slavery statement linked from the homepage."),
        accessibilityStatement: LinkCheck.describe("A link to an accessibility statement."),
      })
      .describe("Each check: status, ok, the rule, the evidence quoted and the findings."),
    pagesRead: z.array(PageReadOut).describe("The homepage and each legal page it links to that was asked for, read or not."),
    checkedAt: z.string(),
    notice: z.string(),
  })
  .openapi("WebsiteLegal");

type Reply = z.infer<typeof Output>;

/** The reply from the pure report and what was read. */
function replyOf(url: string, home: PageRead, report: LegalReport, pagesRead: Reply["pagesRead"], now: Date): Reply {
  return {
    query: { url },
    url: home.url,
    site: siteOf(new URL(home.url).hostname),
    company: report.company,
    summary: report.summary,
    problems: report.problems,
    checks: report.checks,
    pagesRead,
    checkedAt: now.toISOString(),
    notice: WEBSITE_LEGAL_NOTICE,
  };
}

// The documented example reply, computed by the real (pure) code from a small page and a register profile.
const EXAMPLE_HTML = `<!doctype html><html><head><title>Example Trading</title></head><body>
<header><a href="/">Example Trading</a><a href="/contact">Contact us</a></header>
<main><h1>Office furniture for UK businesses</h1><p>Email <a href="mailto:sales@example.co.uk">sales@example.co.uk</a>.</p></main>
<footer><p>© 2026 Example Trading Ltd. Registered in England and Wales, company number 01234567.
Registered office: 10 Quay Road, Bristol BS1 4QA. VAT No. GB 123 4567 89.</p>
<a href="/privacy">Privacy notice</a> <a href="/terms-of-sale">Terms of sale</a> <a href="/modern-slavery-statement">Modern slavery statement</a></footer>
</body></html>`;
const EXAMPLE_PROFILE: CompanyProfile = {
  number: "01234567",
  name: "EXAMPLE TRADING LIMITED",
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
  previousNames: [],
  sicCodes: ["47599"],
  accountsOverdue: false,
  confirmationStatementOverdue: false,
  filingDates: { accountsDueOn: null, accountsMadeUpTo: null, confirmationStatementDueOn: null, confirmationStatementMadeUpTo: null },
  hasFilingDeadlines: false,
};

export function exampleReply(): Reply {
  const url = "https://www.example.co.uk/";
  const home: PageRead = { ...readPage(EXAMPLE_HTML, url), url, kind: "home" };
  const report = assessLegal({
    pages: [home],
    notRead: [{ url: "https://www.example.co.uk/contact", kind: "contact", reason: "The page answered with HTTP status 404." }],
    register: [{ number: "01234567", profile: EXAMPLE_PROFILE }],
    rendered: {
      page: {
        url,
        finalUrl: url,
        status: 200,
        title: "Example Trading",
        cookies: [
          { name: "_ga", domain: ".example.co.uk", path: "/", expires: 1_830_000_000, httpOnly: false, secure: false, sameSite: null, thirdParty: false },
        ],
        storageKeys: [],
        requests: [{ url: "https://www.googletagmanager.com/gtag/js?id=G-XXXX", type: "script", thirdParty: true, status: 200, bytes: 90_000 }],
        cut: [],
        timings: { browserMs: 400, loadMs: 1200, axeMs: null, totalMs: 1700 },
      },
    },
  });
  return replyOf(
    url,
    home,
    report,
    [
      { url, kind: "home", read: true },
      { url: "https://www.example.co.uk/contact", kind: "contact", read: false, reason: "The page answered with HTTP status 404." },
    ],
    new Date("2026-11-21T09:00:00.000Z"),
  );
}

/** The tool's input, as its operation takes it (and as the Business Score applies it to a homepage). */
export const WebsiteLegalInput = z.object({
  url: describedUrl("The website's address, usually its homepage (`https://` is assumed when no scheme is given)."),
});
/** The tool's reply. */
export const WebsiteLegalOutput = Output;
/** Its price in credits (the operation's, and a part of the Business Score's). */
export const WebsiteLegalPrice = 4;

/** The tool's work on a parsed input: the operation's handler, and the Business Score's site check. */
export async function websiteLegal({ url }: z.infer<typeof WebsiteLegalInput>, ctx: OpContext) {
  // The page itself: a refusal (bad address, private address, not answering, too large, not HTML) is the caller's 4xx.
  const asked = pageOf({ url });
  const page = await fetchHtmlPage(ctx.services, asked, { field: "url", query: { url: asked }, maxBytes: 3 * 1024 * 1024 });
  const home: PageRead = { ...readPage(page.text, page.url), url: page.url, kind: "home" };

  // The browser, alongside everything else: its failure only makes the cookie check "couldn't tell".
  const rendering: Promise<RenderOutcome> = renderOrReason(ctx.services.browser, page, {
    read: { cookies: true },
    timeoutMs: 15_000,
    loadTimeoutMs: 8_000,
  }).then((r) => ("page" in r ? r : { reason: `${r.reason}, so cookies and trackers were not observed` }));

  // The legal pages it links to, a few at a time; each failure just means that page was not read.
  const follow = legalPagesToFollow(home.links, page.url, MAX_PAGES);
  const fetched = await mapLimited(follow, CONCURRENCY, async (f): Promise<{ read: PageRead } | { notRead: PageNotRead }> => {
    try {
      const p = await ctx.services.web.fetch(f.url, { accept: HTML_ACCEPT, timeoutMs: 8_000, maxBytes: 2 * 1024 * 1024 });
      if (!isHtmlPage(p.contentType, p.text))
        return { notRead: { url: f.url, kind: f.kind, reason: `not an HTML page (${p.contentType || "no content type"})` } };
      return { read: { ...readPage(p.text, p.url), url: p.url, kind: f.kind } };
    } catch (e) {
      const reason = e instanceof InputError || e instanceof UpstreamError ? e.message.replace(/\.$/, "") : "it could not be fetched";
      return { notRead: { url: f.url, kind: f.kind, reason } };
    }
  });
  const pages: PageRead[] = [home, ...fetched.flatMap((x) => ("read" in x ? [x.read] : []))];
  const notRead: PageNotRead[] = fetched.flatMap((x) => ("notRead" in x ? [x.notRead] : []));

  // The numbers stated, at Companies House. An upstream failure propagates (503, not charged): never "not found".
  const numbers = numbersToCheck(pages);
  ctx.waitUntil(rendering); // never rejects; a 503 below need not wait for it
  const register: RegisterAnswer[] | null = numbers.length
    ? await Promise.all(numbers.map(async (n) => ({ number: n, profile: await ctx.services.companiesHouse.getProfile(n) })))
    : null;
  const rendered = await rendering;

  const report = assessLegal({ pages, notRead, register, rendered });
  const pagesRead: Reply["pagesRead"] = [
    { url: page.url, kind: "home", read: true },
    ...fetched.map((x) =>
      "read" in x
        ? { url: x.read.url, kind: x.read.kind as LinkKind, read: true }
        : { url: x.notRead.url, kind: x.notRead.kind, read: false, reason: x.notRead.reason },
    ),
  ];
  return replyOf(asked, home, report, pagesRead, ctx.now);
}
