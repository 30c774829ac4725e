import { z } from "@hono/zod-openapi";
import type { OpContext } from "../../platform/registry";
import { type LogoCandidate, extractLogos } from "../../services/logo/extractLogos";
import { NotFoundError } from "../../shared/errors";
import { LOGO_NOTICE } from "./logoNotice";

/**
 * A domain's logo candidates, found on its homepage (SPEC §4.7): what company-logo answers as JSON and the logo image
 * (company-logo/image) makes into pixels, read once and cached for both.
 */

/** How long a domain's candidates are kept. */
export const LOGO_CACHE_SECONDS = 24 * 3600;

export const LogoCandidateSchema = z.object({
  url: z.string().describe("Absolute URL of the image."),
  source: z.enum(["logo-image", "app-icon", "icon", "social-image"]),
  type: z.string().optional(),
  sizes: z.string().optional(),
  theme: z
    .enum(["dark"])
    .optional()
    .describe("`dark` when the site offers this image for a dark colour scheme (`prefers-color-scheme: dark`); such images come last."),
});

export interface LogoLookup {
  query: { domain: string };
  domain: string;
  logo: string;
  source: LogoCandidate["source"];
  logos: LogoCandidate[];
  page: string;
  fetchedAt: string;
  notice: string;
}

/**
 * The domain's logos, best first, from the cache or its homepage. Throws NotFoundError when the homepage has none, the
 * safe fetcher's InputError when the site cannot be read (its own failure: not answering, too large, a blocked
 * address), and UpstreamError when ours fails (the DNS resolver).
 */
export async function lookupLogos(ctx: OpContext, domain: string): Promise<{ reply: LogoLookup; cached: boolean }> {
  const cache = ctx.services.cache;
  const key = `logo:${domain}`;
  const hit = await cache.get(key);
  if (hit) return { reply: JSON.parse(hit.body) as LogoLookup, cached: true };

  // Every host (redirects too) is resolved first and refused unless all its addresses are public; no resolver, no fetch.
  const page = await ctx.services.web.fetch(`https://${domain}/`, {
    accept: "text/html,application/xhtml+xml",
    timeoutMs: 10_000,
    maxBytes: 3 * 1024 * 1024,
  });
  const logos = extractLogos(page.text, page.url);
  if (!logos.length) throw new NotFoundError(`No logo, app icon or share image was found on ${domain}'s homepage.`, domain);
  const reply: LogoLookup = {
    query: { domain },
    domain,
    logo: logos[0].url,
    source: logos[0].source,
    logos,
    page: page.url,
    fetchedAt: ctx.now.toISOString(),
    notice: LOGO_NOTICE,
  };
  ctx.waitUntil(cache.put(key, { status: 200, body: JSON.stringify(reply), fetchedAt: ctx.now.getTime() }, LOGO_CACHE_SECONDS));
  return { reply, cached: false };
}
