import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";
import { addressBucket } from "../../services/net/clientBucket";
import { Domain, PAGE_ERRORS } from "../../app/web/page";
import { LOGO_NOTICE } from "../../app/web/logoNotice";
import { LogoCandidateSchema, lookupLogos } from "../../app/web/logos";

/** Keyless, so limited per IP: 30 lookups a minute (SPEC §4.7 leaves the number to us). */
export const LOGO_IP_LIMIT = { limit: 30, windowSeconds: 60 };
const Logo = LogoCandidateSchema;

const Output = z
  .object({
    query: z.object({ domain: z.string() }).describe("The request, as read (SPEC §2.1): the domain only."),
    domain: z.string(),
    logo: z.string().describe("The best logo URL (the first of `logos`)."),
    source: z
      .enum(["logo-image", "app-icon", "icon", "social-image"])
      .describe("Where the best logo came from; `social-image` when it is the social share image."),
    logos: z.array(Logo).describe("Every candidate, best first: the page's own logo image, the app icon, an SVG or PNG icon, then the social share image."),
    page: z.string().describe("The page read (after redirects)."),
    fetchedAt: z.string(),
    notice: z.string(),
  })
  .openapi("CompanyLogo");

export const companyLogo = defineOperation({
  operationId: "companyLogo",
  method: "get",
  path: "/api/v1/company-logo",
  family: "web",
  title: "Company logo",
  summary: "Logo URLs for a company's website domain, best first.",
  description: `Reads the domain's homepage and returns its logo URLs in this order: the page's own logo image, then the app icon, then an SVG or PNG icon, and the social share image last (\`source: "social-image"\`). Logos in partner, accreditation, client, sponsor, award or footer-badge areas are other organisations' and are left out. URLs are absolute. No key needed; browsers may call it from any origin (CORS). Limited to ${LOGO_IP_LIMIT.limit} lookups a minute per IP address (IPv6: per /64 network; 429 \`rate_limited\` with \`Retry-After\`). Results are cached for 24 hours. A homepage with no logo answers 404 with \`query\`. For the image itself, resized, converted and cached at the edge for \`<img>\` tags, see \`GET /api/v1/company-logo/image\`.`,
  input: z.object({
    domain: Domain.openapi({ example: "monzo.com" }).describe(
      "The company's website domain, e.g. `example.co.uk` (a full URL is accepted; only its host is used).",
    ),
  }),
  output: Output,
  price: 0,
  auth: "keyless",
  errors: ["rate_limited", "not_found", ...PAGE_ERRORS],
  readOnly: true,
  cors: true,
  timeoutMs: 15_000,
  example: { domain: "example.co.uk" },
  exampleReply: () => ({
    query: { domain: "example.co.uk" },
    domain: "example.co.uk",
    logo: "https://example.co.uk/assets/logo.svg",
    source: "logo-image",
    logos: [
      { url: "https://example.co.uk/assets/logo.svg", source: "logo-image", type: "image/svg+xml" },
      { url: "https://example.co.uk/apple-touch-icon.png", source: "app-icon", sizes: "180x180" },
      { url: "https://example.co.uk/og.png", source: "social-image" },
    ],
    page: "https://example.co.uk/",
    fetchedAt: "2026-11-21T09:00:00.000Z",
    notice: LOGO_NOTICE,
  }),
  async handler({ domain }, ctx) {
    const limited = await ctx.services.limits.take(
      `ip:company-logo:${addressBucket(ctx.ip, 64)}`,
      LOGO_IP_LIMIT.limit,
      LOGO_IP_LIMIT.windowSeconds,
      ctx.now.getTime(),
    );
    if (!limited.ok)
      throw new ApiError("rate_limited", `At most ${LOGO_IP_LIMIT.limit} logo lookups a minute per IP address; retry later.`, {
        retryAfter: limited.retryAfterSeconds,
      });

    return (await lookupLogos(ctx, domain)).reply;
  },
});
