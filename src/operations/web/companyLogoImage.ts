import { z } from "@hono/zod-openapi";
import { PublishableKeyPattern } from "../../app/account/publishableKeys";
import { CompanyNumberQuery } from "../../app/companies/company";
import { LOGO_IMAGE_LIMITS, LOGO_MAX_AGE_S, MONOGRAM_MAX_AGE_S, logoImage } from "../../app/web/logoImage";
import { Domain, PAGE_ERRORS } from "../../app/web/page";
import { defineOperation, imageOutput } from "../../platform/registry";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { LOGO_SIZES } from "../../services/images/sizes";

const SIZES = LOGO_SIZES.map(String) as [string, ...string[]];

export const companyLogoImage = defineOperation({
  operationId: "companyLogoImage",
  method: "get",
  path: "/api/v1/company-logo/image",
  family: "web",
  title: "Company logo image",
  summary: "A company's logo as an image for an `<img>` tag, by website domain or UK company number, with a monogram fallback.",
  description: `Answers the image itself (not JSON), made for the \`src\` of an \`<img>\` tag: \`/api/v1/company-logo/image?domain=monzo.com&size=64&key=pk_…\`, or \`?company=00445790\` for a company by its number.

- **Which logo:** company-logo's first choice for the domain (the page's own logo, then the app icon, an SVG or PNG icon, the share image), or the next candidate when that one is not a usable image. By \`company\` number, the website is the one enrichment confirms for that company (SPEC §2.2: the site states the number, or the name and postcode); with none confirmed, the fallback.
- **The file** is fetched once through the same safe fetcher as every URL (public addresses only), checked to be a real image of a sane size (PNG, JPEG, GIF, WebP, ICO or SVG; at most 5 MiB, 8,192 pixels a side and 16.7 megapixels, read from its header before anything decodes it), then made into a square of \`size\` pixels (the logo fitted inside, centred on transparency) as PNG or WebP. An SVG is drawn into pixels; with \`format=svg\` an SVG logo is served as the site published it, under \`Content-Security-Policy: sandbox\` and \`nosniff\`, so nothing in it runs or loads.
- **Fallback:** \`fallback=monogram\` (the default) answers a square with the organisation's initials on a colour fixed by its name (\`x-logo-source: monogram\`); \`fallback=404\` answers 404 \`not_found\` instead, or, when the site could not be read just now, 422 with the fetch's own code (\`fetch_timeout\`, \`unreadable_input\`, …), as company-logo does.
- **Caching:** replies carry \`Cache-Control: public, max-age=${LOGO_MAX_AGE_S}\` (a monogram ${MONOGRAM_MAX_AGE_S}: the site may publish a logo), an \`ETag\` (If-None-Match answers 304) and \`x-cache\` (hit, stored, miss). Each image made is kept and served from the data centre's cache.
- **Limits:** only lookups not already cached count: ${LOGO_IMAGE_LIMITS.keyless.limit} a minute per IP address without a key (IPv6: per /64), ${LOGO_IMAGE_LIMITS.publishable.limit} a minute per publishable key; 429 \`rate_limited\` with \`Retry-After\`. A page of logos already made never reaches a limit.
- **Keys:** none needed. A publishable key (\`key=pk_…\`, POST /api/v1/account/publishable-keys) raises the limit and works only from the pages of the origins its account named (the browser's Origin or Referer); from another origin it is refused (403 \`origin_not_allowed\`). A secret key is refused here (403 \`secret_key_refused\`): an image address is public.

Logos remain their owners' marks; show them only to identify the company. Free.`,
  input: z
    .object({
      domain: Domain.optional().describe(
        "The company's website domain (e.g. `monzo.com`; a full URL is accepted, only its host is used). Give this or `company`.",
      ),
      company: CompanyNumberQuery.optional()
        .transform((v) => (v === undefined ? undefined : (normaliseCompanyNumber(v) ?? v)))
        .describe("A Companies House company number (e.g. 00445790); the logo of the website enrichment confirms for it. Give this or `domain`."),
      size: z
        .enum(SIZES)
        .default("128")
        .describe(`Pixels a side: ${LOGO_SIZES.join(", ")} (default 128). Ask for twice the displayed size on high-density screens.`),
      format: z
        .enum(["png", "webp", "svg"])
        .default("png")
        .describe("png (default) or webp; svg answers an SVG logo as the site published it (sandboxed), and PNG when the logo is not an SVG."),
      theme: z
        .enum(["light", "dark"])
        .default("light")
        .describe("dark: the site's logo for a dark colour scheme where it offers one (`prefers-color-scheme: dark`), else its default logo."),
      greyscale: z.enum(["true", "false"]).default("false").describe("true: the logo (or monogram) in shades of grey."),
      fallback: z.enum(["monogram", "404"]).default("monogram").describe("What to answer when there is no usable logo: the monogram (default) or 404."),
      key: z
        .string()
        .regex(PublishableKeyPattern, "must be a publishable key (pk_…); never a secret key")
        .optional()
        .describe("A publishable key (`pk_…`); optional. Never a secret key: one is refused (403 `secret_key_refused`)."),
    })
    .superRefine((v, ctx) => {
      if ((v.domain === undefined) === (v.company === undefined))
        ctx.addIssue({ code: "custom", path: [v.domain === undefined ? "domain" : "company"], message: "give exactly one of `domain` and `company`" });
    }),
  output: imageOutput(["image/png", "image/webp", "image/svg+xml"]),
  price: 0,
  auth: "publishable",
  errors: ["rate_limited", "not_found", ...PAGE_ERRORS],
  readOnly: true,
  cors: true,
  timeoutMs: 20_000,
  example: { domain: "example.co.uk", size: "64" },
  async handler(input, ctx) {
    return logoImage(ctx, {
      domain: input.domain,
      company: input.company,
      size: Number(input.size) as (typeof LOGO_SIZES)[number],
      format: input.format,
      theme: input.theme,
      greyscale: input.greyscale === "true",
      fallback: input.fallback,
    });
  },
});
