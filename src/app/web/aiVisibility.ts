import { z } from "@hono/zod-openapi";
import type { OpContext } from "../../platform/registry";
import type { Services } from "../../platform/services";
import { OGL } from "../../services/registers/catalogue";
import {
  CHECKS,
  DESCRIPTION_MAX,
  DESCRIPTION_MIN,
  type FetchedPage,
  type FileAnswer,
  type RenderAnswer,
  TITLE_MAX,
  assessAiVisibility,
  childSitemaps,
  companyNumberToCheck,
  readPage,
  robotsSection,
  sitemapFileOf,
  sitemapsToRead,
} from "../../services/web/aiVisibility";
import { ORGANISATION_TYPES } from "../../services/web/jsonLd";
import { MAX_ROBOTS_BYTES } from "../../services/web/robots";
import { MAX_SITEMAP_BYTES, MAX_SITEMAP_FILES } from "../../services/web/sitemap";
import { InputError } from "../../shared/errors";
import { domainOrUrl, fetchHtmlPage, pageOf, renderOrReason } from "./page";

/**
 * ai-visibility (SPEC §4.8, the enrichment family's `business` with `companyNumber`, SPEC §2.1): fetches the page,
 * then robots.txt, llms.txt, llms-full.txt, the sitemaps, a browser rendering and the company's register entry in
 * parallel, and hands everything to services/web/aiVisibility.ts, which reads it.
 */

const PAGE_MAX_BYTES = 3 * 1024 * 1024;
/** robots.txt: read up to twice what crawlers must parse (RFC 9309 §2.5); the reading itself stops at 500 KiB. */
const ROBOTS_FETCH_BYTES = 2 * MAX_ROBOTS_BYTES;
/** llms.txt and llms-full.txt: only presence and a first reading; an answer larger than this still means present. */
const LLMS_FETCH_BYTES = 256 * 1024;
const SIDE_TIMEOUT_MS = 6_000;

const Input = domainOrUrl({
  domain: "The business's website domain, e.g. `example.co.uk`: its home page is checked (a full URL is accepted; only its host is used). Give this or `url`.",
  url: "A page of the business's site, e.g. `https://example.co.uk/services`: that page is checked, and its origin is the site (robots.txt, llms.txt, sitemap). Give this or `domain`.",
});

// ---------------------------------------------------------------------------------------------------------------
// The reply
// ---------------------------------------------------------------------------------------------------------------

const Severity = z.enum(["high", "medium", "low", "info"]);
const DecidedBy = z
  .object({ line: z.number().int().describe("Line number in robots.txt (1-based)."), text: z.string().describe("The line, quoted.") })
  .nullable()
  .describe(
    "The robots.txt line that decides the crawler's access (the longest matching rule); null when no rule matched (allowed by default) or the file was not read.",
  );
const Access = z.object({ allowed: z.boolean().describe("Whether the crawler may fetch the path."), decidedBy: DecidedBy });

const Finding = z
  .object({
    id: z
      .string()
      .describe(
        "The kind of finding, stable across calls, e.g. `robots-blocks-search`, `noindex`, `client-rendered`, `jsonld-invalid`, `company-name-disagrees`, `llms-txt-missing`.",
      ),
    severity: Severity.describe(
      "high: the business is largely invisible to search or AI crawlers, or its identity is wrong; medium: a real loss; low: worth fixing; info: for the record.",
    ),
    check: z.enum(CHECKS).describe("The part of the reply it comes from."),
    message: z.string().describe("What was found and what it means, in words."),
    evidence: z
      .object({
        quote: z.string().describe("The evidence, quoted: a robots.txt line, a tag, a header, a JSON-LD excerpt, an HTTP status line, or what was counted."),
        where: z.string().describe("Where it is: the file and line, the page's <head>, the HTTP header, the JSON-LD block and line, or the register entry."),
      })
      .describe("The evidence the finding rests on."),
    fix: z.string().describe("What to change."),
  })
  .openapi("AiVisibilityFinding");

const Crawler = z.object({
  token: z.string().describe("The user-agent token robots.txt names it by."),
  operator: z.string().describe("Who runs it."),
  use: z.string().describe("What it fetches pages for."),
  role: z
    .enum(["search", "assistant", "training"])
    .describe(
      "search: a search engine's crawler; assistant: an AI assistant's live fetcher or search index; training: a crawler (or control token) for training AI models.",
    ),
  group: z.enum(["own", "*", "none"]).describe("The robots.txt group it follows: one naming it, the `*` group, or none (no rules for it)."),
  page: Access.describe("Its access to the page checked."),
  home: Access.describe("Its access to the home page `/`."),
});

const Robots = z
  .object({
    url: z.string().describe("The robots.txt address read."),
    file: z
      .enum(["found", "absent", "unreachable"])
      .describe(
        "found (2xx: its rules apply); absent (4xx: every crawler may fetch everything); unreachable (5xx or no answer: under RFC 9309 crawlers must assume everything is disallowed).",
      ),
    status: z.number().int().nullable().describe("The HTTP status; null when nothing came back."),
    meaning: z.string().describe("What the file's state means for crawlers, in words."),
    truncated: z.boolean().describe("The file is longer than 500 KiB and only its start was read, as crawlers do."),
    path: z.string().describe("The page's path (and query) checked against the rules."),
    crawlers: z
      .array(Crawler)
      .describe(
        "Twelve crawlers: Googlebot, Bingbot, ChatGPT-User, OAI-SearchBot, Claude-User, PerplexityBot, GPTBot, ClaudeBot, CCBot, Bytespider, Google-Extended and Applebot-Extended.",
      ),
    sitemaps: z.array(z.string()).describe("The `Sitemap:` lines, as written."),
  })
  .describe("robots.txt, read as RFC 9309 crawlers read it (through the robots-parser library).");

const LlmsTxt = z
  .object({
    url: z.string().describe("The /llms.txt address asked."),
    present: z
      .boolean()
      .describe("A text file answered with 2xx (an HTML page, such as a catch-all route, is not one); an answer larger than 256 KiB counts as present."),
    status: z.number().int().nullable().describe("The HTTP status; null when nothing came back."),
    bytes: z.number().int().nullable().describe("Size of the answer read; null when nothing came back."),
    tooLarge: z.boolean().describe("The answer was larger than 256 KiB and was not read."),
    title: z.string().nullable().describe("The file's title: its first `# ` line."),
    summary: z.string().nullable().describe("Its summary: the first `> ` blockquote."),
    links: z.number().int().describe("Markdown links `[text](url)` in the file."),
    sections: z.number().int().describe("`## ` sections in the file."),
    full: z
      .object({
        url: z.string(),
        present: z.boolean().describe("A text file answered with 2xx, or an answer larger than 256 KiB."),
        status: z.number().int().nullable(),
        tooLarge: z.boolean(),
      })
      .describe("/llms-full.txt: the whole site's text in one file (only its presence is checked)."),
    note: z.string().describe("What llms.txt is: an emerging convention, so its absence weighs little."),
  })
  .describe("/llms.txt and /llms-full.txt (llmstxt.org).");

const Address = z.object({
  street: z.string().nullable(),
  locality: z.string().nullable(),
  region: z.string().nullable(),
  postcode: z.string().nullable().describe("The postcode as given (or found in a one-line address)."),
  country: z.string().nullable(),
  text: z.string().describe("The address on one line."),
});

const Organisation = z.object({
  block: z.number().int().describe("The JSON-LD block it is in (1-based, page order)."),
  types: z.array(z.string()).describe(`Its @type(s). Read as organisations: ${ORGANISATION_TYPES.join(", ")}.`),
  name: z.string().nullable(),
  legalName: z.string().nullable(),
  url: z.string().nullable(),
  logo: z.string().nullable().describe("The logo URL (a string or an ImageObject's url)."),
  sameAs: z.array(z.string()).describe("Profiles elsewhere (social networks, directories)."),
  address: Address.nullable().describe("The first address given."),
  telephone: z.string().nullable(),
  identifiers: z
    .array(
      z.object({
        property: z.string().describe("identifier, companyRegistrationNumber, registrationNumber, leiCode, taxID or vatID."),
        name: z.string().nullable().describe("A PropertyValue's name or propertyID."),
        value: z.string(),
      }),
    )
    .describe("Every identifier stated."),
  companyNumber: z
    .string()
    .nullable()
    .describe(
      'The Companies House number among the identifiers (a PropertyValue named like "Company Number", companyRegistrationNumber, or an 8-character identifier/taxID), normalised.',
    ),
  companyNumberQuote: z.string().nullable().describe("The identifier it came from, quoted."),
});

const StructuredData = z
  .object({
    blocks: z.number().int().describe('`<script type="application/ld+json">` blocks on the page.'),
    invalidBlocks: z
      .array(
        z.object({
          block: z.number().int(),
          line: z.number().int().describe("Line of the page's HTML."),
          error: z.string().describe("The JSON parser's complaint."),
          excerpt: z.string().describe("The block's start, quoted."),
        }),
      )
      .describe("Blocks that are not valid JSON (crawlers ignore them)."),
    types: z.array(z.string()).describe("Every @type seen, sorted."),
    organisations: z.array(Organisation).describe("The organisations stated, in page order (@graph arrays, arrays and nested nodes included; one per @id)."),
  })
  .describe("schema.org JSON-LD on the page.");

const Business = z
  .object({
    companyNumber: z.string().describe("The company number checked: the JSON-LD's, else the first the page's text states."),
    foundIn: z.enum(["json-ld", "page-text"]),
    quote: z.string().describe("Where it was stated, quoted."),
    onRegister: z.boolean().describe("Companies House has the company."),
    registeredName: z.string().nullable(),
    status: z.string().nullable().describe("Companies House status (active, dissolved, liquidation…)."),
    registeredPostcode: z.string().nullable().describe("The registered office's postcode."),
    jsonLdName: z.string().nullable().describe("The JSON-LD organisation's legalName, else its name."),
    jsonLdAddress: z.string().nullable().describe("That organisation's address, on one line."),
    jsonLdPostcode: z.string().nullable().describe("Its postcode (the postalCode, or one found in a one-line address)."),
    nameAgrees: z
      .boolean()
      .nullable()
      .describe("The JSON-LD legalName or name is the registered name (legal form such as Ltd/Limited aside); null with no JSON-LD organisation."),
    postcodeAgrees: z
      .boolean()
      .nullable()
      .describe("The JSON-LD address's postcode is the registered office's; null when either has none. A trading address may rightly differ."),
    note: z.string(),
  })
  .nullable()
  .describe("The company the site states (SPEC §2.1 `companyNumber`), checked on the Companies House register; null when the page states no company number.");

const Sitemap = z
  .object({
    from: z.enum(["robots.txt", "default"]).describe("robots.txt: the sitemaps its `Sitemap:` lines list; default: /sitemap.xml."),
    listed: z.array(z.string()).describe("The sitemap addresses to read, first ones first."),
    files: z
      .array(
        z.object({
          url: z.string(),
          status: z.number().int().nullable(),
          kind: z
            .enum(["urlset", "sitemapindex", "not-a-sitemap", "absent", "unreachable", "too-large"])
            .describe("What the file was read as; too-large: over 2 MiB."),
          entries: z.number().int().describe("<url> entries (urlset) or <sitemap> entries (sitemapindex)."),
        }),
      )
      .describe(`The files read: at most ${MAX_SITEMAP_FILES}, an index's own-site children after the files listed.`),
    found: z.boolean().describe("At least one file is a urlset or sitemapindex with entries."),
    urls: z.number().int().describe("Page URLs in the urlset files read."),
    pageListed: z
      .boolean()
      .nullable()
      .describe(
        "The page is listed (scheme and trailing slash aside); null when no sitemap was found, or the page is not in the files read and an index lists others not read.",
      ),
    lastmod: z.object({ earliest: z.string(), latest: z.string() }).nullable().describe("The range of <lastmod> dates (YYYY-MM-DD); null when none is given."),
    note: z.string(),
  })
  .describe("The XML sitemap.");

const Indexing = z
  .object({
    metaRobots: z
      .array(z.object({ name: z.string().describe("robots, googlebot, bingbot or a crawler's token."), content: z.string() }))
      .describe("Robots meta tags."),
    xRobotsTag: z.string().nullable().describe("The page's X-Robots-Tag header; null when absent."),
    directives: z
      .array(
        z.object({
          directive: z.string().describe("noindex, nofollow, none, nosnippet, max-snippet, noai, noimageai…"),
          value: z.string().nullable().describe("Its value (max-snippet: 0)."),
          appliesTo: z.string().describe("`all`, or the crawler it names (googlebot, bingbot…)."),
          source: z.enum(["meta", "header"]),
          quote: z.string().describe("The tag or header, quoted."),
        }),
      )
      .describe("Every directive of the meta tags and the header."),
    noindex: z.boolean().describe("noindex (or none) for any crawler."),
    nosnippet: z.boolean().describe("nosnippet or max-snippet:0."),
    noai: z.boolean().describe("noai: a non-standard request that AI not use the text."),
    noimageai: z.boolean().describe("noimageai: the same for images."),
    canonical: z
      .object({
        href: z.string().nullable().describe("Absolute."),
        pointsHere: z.boolean().describe("It is the page's own URL (scheme and trailing slash aside)."),
      })
      .nullable()
      .describe("The first canonical link; null without one."),
    canonicalLinks: z.number().int(),
  })
  .describe("Indexing directives: robots meta tags, the X-Robots-Tag header and the canonical link.");

const Rendering = z
  .object({
    judged: z.boolean().describe("false: couldn't tell (no browser here, or the page could not be rendered); see `reason`."),
    htmlTextLength: z
      .number()
      .int()
      .describe("Characters of visible text in the HTML as served (no script, style, noscript, template or head; white space runs counted once)."),
    renderedTextLength: z.number().int().nullable().describe("Characters of the rendered page's visible text."),
    ratio: z.number().nullable().describe("htmlTextLength ÷ renderedTextLength, at most 1, two decimals."),
    clientRendered: z.boolean().nullable().describe("Most of the text (ratio under 0.5) needs JavaScript."),
    reason: z.string().nullable().describe("Why it couldn't tell."),
    note: z.string(),
  })
  .describe("How much of the page's text exists without JavaScript.");

const Verdict = z.enum(["ok", "missing", "too-short", "too-long"]);
const Meta = z
  .object({
    title: z.object({
      text: z.string().nullable(),
      length: z.number().int(),
      verdict: Verdict.describe(`too-long: over ${TITLE_MAX} characters; too-short: under 10.`),
    }),
    description: z
      .object({
        text: z.string().nullable(),
        length: z.number().int(),
        verdict: Verdict.describe(`Within ${DESCRIPTION_MIN}–${DESCRIPTION_MAX} characters is ok.`),
      })
      .describe("The meta description."),
    ogTitle: z.string().nullable().describe("OpenGraph og:title."),
    ogDescription: z.string().nullable().describe("OpenGraph og:description."),
    lang: z.string().nullable().describe("`<html lang>`."),
    h1Count: z.number().int().describe("h1 headings in the HTML."),
    guidance: z.string(),
  })
  .describe("Title, description, OpenGraph, language and headings.");

const Output = z
  .object({
    query: z.union([z.object({ domain: z.string() }), z.object({ url: z.string() })]).describe("The request, as read (SPEC §2.1)."),
    site: z.string().describe("The site's origin (of the page after redirects): where robots.txt, llms.txt and the sitemap were read."),
    page: z.object({ url: z.string().describe("The page read, after redirects."), status: z.number().int(), redirects: z.array(z.string()) }),
    score: z.number().int().describe("0–100: see `scoring`."),
    summary: z.string().describe("The score, the findings by severity and the most important one, in words."),
    scoring: z
      .object({
        formula: z.string().describe("How the score is made."),
        checks: z
          .array(
            z.object({
              check: z.string(),
              points: z.number().describe("Points earned."),
              max: z.number().describe("Points available (less a part that could not be judged)."),
              judged: z.boolean().describe("false: left out of the score."),
            }),
          )
          .describe("Points per check."),
      })
      .describe("The score's workings."),
    findings: z.array(Finding).describe("Every finding, high first, then medium, low and info; each quotes its evidence and says where it is."),
    robots: Robots,
    llmsTxt: LlmsTxt,
    structuredData: StructuredData,
    business: Business,
    sitemap: Sitemap,
    indexing: Indexing,
    rendering: Rendering,
    meta: Meta,
    attribution: z.string().optional().describe("Present when Companies House was asked."),
    checkedAt: z.string().describe("When the site was read (timestamp)."),
  })
  .openapi("AiVisibility");

type Reply = z.infer<typeof Output>;

// ---------------------------------------------------------------------------------------------------------------
// Fetching
// ---------------------------------------------------------------------------------------------------------------

/** A small file of the site: any status answers; a refusal, time-out or network error is a finding, not a failure. */
async function small(web: Services["web"], url: string, maxBytes: number, accept: string): Promise<FileAnswer> {
  try {
    const r = await web.fetch(url, { anyStatus: true, maxBytes, timeoutMs: SIDE_TIMEOUT_MS, accept });
    return { url, status: r.status, contentType: r.contentType, text: r.text, body: r.body, bytes: r.body.byteLength, tooLarge: false, error: null };
  } catch (e) {
    // The DoH resolver failing is ours (UpstreamError, 503), not the site's: it propagates.
    if (!(e instanceof InputError)) throw e;
    return { url, status: null, contentType: "", text: null, bytes: null, tooLarge: e.code === "response_too_large", error: e.message };
  }
}

/** The tool's input, as its operation takes it (and as the Business Score applies it to a homepage). */
export const AiVisibilityInput = Input;
/** The tool's reply. */
export const AiVisibilityOutput = Output;
/** Its price in credits (the operation's, and a part of the Business Score's). */
export const AiVisibilityPrice = 2;

/** The tool's work on a parsed input: the operation's handler, and the Business Score's site check. */
export async function aiVisibility({ domain, url }: z.infer<typeof AiVisibilityInput>, ctx: OpContext): Promise<Reply> {
  const { web, browser, companiesHouse } = ctx.services;
  const asked = pageOf({ domain, url });
  // The page first: one that cannot be fetched is the caller's 4xx, with nothing else fetched and nothing charged.
  const fetched = await fetchHtmlPage(ctx.services, asked, { field: url ? "url" : "domain", maxBytes: PAGE_MAX_BYTES });
  const page: FetchedPage = {
    requestedUrl: asked,
    url: fetched.url,
    status: fetched.status,
    redirects: fetched.redirects,
    html: fetched.text,
    xRobotsTag: fetched.headers.get("x-robots-tag"),
  };
  const origin = new URL(fetched.url).origin;
  const reading = readPage(fetched.text, fetched.url);
  const toCheck = companyNumberToCheck(reading);

  const [robotsAndSitemaps, llmsTxt, llmsFullTxt, rendered, register] = await Promise.all([
    (async () => {
      const robots = await small(web, `${origin}/robots.txt`, ROBOTS_FETCH_BYTES, "text/plain,*/*;q=0.5");
      const plan = sitemapsToRead(robotsSection(robots, fetched.url), origin);
      const sitemapOf = async (u: string) => sitemapFileOf(await small(web, u, MAX_SITEMAP_BYTES, "application/xml,text/xml;q=0.9,*/*;q=0.5"));
      const files = await Promise.all(plan.urls.map(sitemapOf));
      const children = await Promise.all(childSitemaps(files, origin).map(sitemapOf));
      return { robots, sitemaps: { from: plan.from, listed: plan.urls, files: [...files, ...children] } };
    })(),
    small(web, `${origin}/llms.txt`, LLMS_FETCH_BYTES, "text/markdown,text/plain;q=0.9,*/*;q=0.5"),
    small(web, `${origin}/llms-full.txt`, LLMS_FETCH_BYTES, "text/markdown,text/plain;q=0.9,*/*;q=0.5"),
    // "couldn't tell" when there is no browser or it fails.
    renderOrReason(browser, fetched, { read: { text: true }, timeoutMs: 20_000, loadTimeoutMs: 8_000 }).then(
      (r): RenderAnswer => ("page" in r ? { ok: true, text: r.page.text ?? "" } : { ok: false, reason: r.reason }),
    ),
    // A Companies House failure is a 503 with credits back (not caught): never reported as a disagreement.
    toCheck ? companiesHouse.getProfile(toCheck.number).then((profile) => ({ ...toCheck, profile })) : Promise.resolve(null),
  ]);

  const result = assessAiVisibility({
    page,
    reading,
    robots: robotsAndSitemaps.robots,
    llmsTxt,
    llmsFullTxt,
    sitemaps: robotsAndSitemaps.sitemaps,
    rendered,
    register,
  });
  return {
    query: domain ? { domain } : { url: url! },
    site: origin,
    page: { url: page.url, status: page.status, redirects: page.redirects },
    ...result,
    ...(register ? { attribution: `Company details: Companies House. ${OGL}` } : {}),
    checkedAt: ctx.now.toISOString(),
  };
}
