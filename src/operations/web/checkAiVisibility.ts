import { defineOperation } from "../../platform/registry";
import { AiVisibilityInput, AiVisibilityOutput, AiVisibilityPrice, aiVisibility } from "../../app/web/aiVisibility";
import { PAGE_ERRORS } from "../../app/web/page";
import { HTML_LIMITS_TEXT } from "../../services/html/parse";
import { DESCRIPTION_MAX, DESCRIPTION_MIN, SCORING_FORMULA, TITLE_MAX } from "../../services/web/aiVisibility";
import { MAX_SITEMAP_BYTES, MAX_SITEMAP_FILES } from "../../services/web/sitemap";

export const checkAiVisibility = defineOperation({
  operationId: "checkAiVisibility",
  method: "get",
  path: "/api/v1/ai-visibility",
  family: "web",
  title: "AI visibility",
  summary:
    "How readable a business's website is to AI assistants and search crawlers: robots.txt per crawler, llms.txt, schema.org data checked against Companies House, sitemap, indexing directives, JavaScript rendering and meta tags, scored 0–100 with quoted findings.",
  description: [
    "Checks one page of a business's site (`domain`: its home page; or `url`: any page, whose origin is the site) the way AI assistants and search crawlers read it (SPEC §4.8; the enrichment family's `business` with `companyNumber`, SPEC §2.1). Give exactly one of `domain` and `url`; neither or both answers 400 naming the field.",
    "",
    "- **robots**: `/robots.txt` read as RFC 9309 crawlers read it, for twelve crawlers (search: Googlebot, Bingbot; assistants' live fetchers and indexes: ChatGPT-User, OAI-SearchBot, Claude-User, PerplexityBot; training: GPTBot, ClaudeBot, CCBot, Bytespider, Google-Extended, Applebot-Extended): each one's access to the page and to `/`, the deciding line quoted, its own group or `*`, and the sitemaps listed. A 4xx means no file (everything allowed); a 5xx or no answer is `unreachable`, which RFC 9309 tells crawlers to treat as everything disallowed.",
    "- **llmsTxt**: whether `/llms.txt` exists (title, summary, links, sections, size) and whether `/llms-full.txt` does. It is an emerging convention, so its absence is a low finding.",
    "- **structuredData**: schema.org JSON-LD blocks (`@graph` arrays, arrays and nested nodes included; invalid JSON reported as a finding), and the Organization or LocalBusiness nodes (and subtypes such as Corporation, ProfessionalService, Store, Restaurant) with name, legal name, url, logo, sameAs, address, telephone and identifiers.",
    "- **business**: the company number the JSON-LD gives (else the first the page's text states) looked up at Companies House, saying whether the JSON-LD name and postcode agree with the register.",
    `- **sitemap**: the sitemaps robots.txt lists, else \`/sitemap.xml\` (gzip too; at most ${MAX_SITEMAP_FILES} files of up to ${MAX_SITEMAP_BYTES / 1024 / 1024} MiB, an index's children included): urlset or sitemapindex, URLs, whether the page is listed, the lastmod range.`,
    "- **indexing**: robots meta tags (robots, googlebot, bingbot and the crawlers' own), the `X-Robots-Tag` header and the canonical link; noindex, nosnippet, noai and noimageai flagged.",
    "- **rendering**: the visible text of the HTML as served against the page rendered in a browser: the share that exists without JavaScript. Most AI crawlers run no JavaScript. When no browser is available or the render fails, `judged` is false with the reason, and the rest still answers.",
    `- **meta**: title (at most ${TITLE_MAX} characters), meta description (${DESCRIPTION_MIN}–${DESCRIPTION_MAX}), OpenGraph title and description, \`<html lang>\`, h1 count.`,
    "",
    `**score** 0–100: ${SCORING_FORMULA} **findings** are ordered high, medium, low, info; each has an \`id\`, the \`check\` it belongs to, a message, its \`evidence\` (a quoted line, tag, header or status, and where it is) and a \`fix\`. The same site read twice gives the same reply apart from \`checkedAt\`.`,
    "",
    `A page that cannot be fetched (blocked address, time-out, too large, an error status, not HTML) answers 422 (400 for an invalid URL) and is not charged. ${HTML_LIMITS_TEXT} If Companies House cannot be read the call answers 503 and gives its credits back, never a disagreement. Price: 2 credits.`,
  ].join("\n"),
  input: AiVisibilityInput,
  output: AiVisibilityOutput,
  price: AiVisibilityPrice,
  auth: "key",
  errors: [...PAGE_ERRORS],
  readOnly: true,
  timeoutMs: 45_000,
  example: { domain: "example.co.uk" },
  handler: (input, ctx) => aiVisibility(input, ctx),
});
