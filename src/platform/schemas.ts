import { z } from "@hono/zod-openapi";

/** A real calendar date `YYYY-MM-DD` (2026-02-30 is refused at validation, before anything is charged). */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
  }, "is not a real calendar date");

/**
 * The one table of input limits (SPEC §8). Where the SPEC says "not shown" the maximum is ours; the
 * API description in OpenAPI, the Markdown pages and MCP tool descriptions are generated from here.
 */
export const INPUT_LIMITS = {
  q: { max: 200, appliesTo: "enrich, score, company-search, industry-classifier", spec: true },
  location: { max: 120, appliesTo: "enrich, score (and batch, ours)", spec: true },
  url: { max: 500, appliesTo: "accessibility-audit, document readers, crp-check", spec: true },
  domain: { max: 200, appliesTo: "company-logo", spec: true },
  company: { max: 160, appliesTo: "register checks (a company number, register number or name)", spec: false },
  limit: { max: 50, appliesTo: "company-search: 1 to 50, default 10", spec: true },
  items: { max: 25, appliesTo: "batch: 1 to 25 entries", spec: true },
  text: { max: 200_000, appliesTo: "document readers (POST): characters of text", spec: false },
  target: { max: 200, appliesTo: "assess: company name or domain", spec: false },
  offer: { max: 1_000, appliesTo: "assess: what is sold and to whom", spec: false },
  label: { max: 100, appliesTo: "watch label", spec: false },
  feedLimit: { max: 500, appliesTo: "register change feeds: changes per page, default 100", spec: false, param: "limit" },
  rating: { max: 40, appliesTo: "cqc-check/changes: one of the CQC ratings (Outstanding, Good, Requires improvement, Inadequate)", spec: false },
} as const;

/** The query parameter a limit applies to (a table key that is not itself the parameter's name says so). */
export const limitParam = (name: keyof typeof INPUT_LIMITS): string => ("param" in INPUT_LIMITS[name] ? (INPUT_LIMITS[name] as { param: string }).param : name);
