import { z } from "@hono/zod-openapi";
import { LOGO_IMAGE_LIMITS } from "../web/logoImage";
import { MAX_ORIGINS, ORIGIN_PATTERN, parseOriginPattern } from "../../services/net/origins";

/** Publishable keys (issue 32): what their operations share. */

/** Live publishable keys an account may hold. */
export const MAX_PUBLISHABLE_KEYS = 10;
/** The one route a publishable key works on. */
export const PUBLISHABLE_ROUTES = ["/api/v1/company-logo/image"];

export const PublishableKeyPattern = /^pk_[A-Za-z0-9_-]{10,60}$/;

export const Origins = z
  .array(
    z
      .string()
      .max(300, "must be at most 300 characters")
      .regex(ORIGIN_PATTERN, "must be an origin: scheme and host, with a port if any (https://www.example.co.uk, http://localhost:3000), no path"),
  )
  .min(1, "name at least one origin")
  .max(MAX_ORIGINS, `must name at most ${MAX_ORIGINS} origins`)
  // Each has passed ORIGIN_PATTERN, which is what parseOriginPattern accepts: here only put in its normal form, once.
  .transform((list) => [
    ...new Set(
      list.map((text) => {
        const p = parseOriginPattern(text);
        return p.ok ? p.origin : text;
      }),
    ),
  ])
  .describe(
    "The origins of the pages that may use the key, as a browser sends them: `https://www.example.co.uk`, `http://localhost:3000`; `https://*.example.co.uk` for every subdomain (not the domain itself).",
  );

export const PublishableKey = z
  .object({
    key: z.string().describe("The publishable key (`pk_…`): public, for page source."),
    origins: z.array(z.string()),
    label: z.string().nullable(),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
    usableOn: z.array(z.string()).describe("The routes it works on."),
    limit: z.string().describe("Its own limit."),
  })
  .openapi("PublishableKey");

export const publishableKeyReply = (row: { key: string; origins: string[]; label: string | null; createdAt: number; revokedAt: number | null }) => ({
  key: row.key,
  origins: row.origins,
  label: row.label,
  createdAt: new Date(row.createdAt).toISOString(),
  revokedAt: row.revokedAt === null ? null : new Date(row.revokedAt).toISOString(),
  usableOn: PUBLISHABLE_ROUTES,
  limit: `${LOGO_IMAGE_LIMITS.publishable.limit} logos not yet cached a minute (logos already made are not counted)`,
});
