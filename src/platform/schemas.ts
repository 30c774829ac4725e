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
 * Numbers are read strictly (issue: hardening §4): over HTTP a query value is text, and only plain
 * decimal digits are a number ("0x10", "1e3", "0b11", " 12 " are refused); over MCP a JSON number is taken.
 */
const PLAIN_INT = /^\d{1,9}$/;
const PLAIN_POUNDS = /^\d{1,9}(?:\.\d{1,2})?$/;

/** A whole number from min to max (JSON number, or plain digits as text). */
export const strictInt = (min: number, max: number) =>
  z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      if (typeof v === "string" && !PLAIN_INT.test(v)) {
        ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}, written with digits only` });
        return z.NEVER;
      }
      return Number(v);
    })
    .pipe(z.number().int(`must be a whole number from ${min} to ${max}`).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** An amount of money in pounds: a JSON number, or plain digits with at most two decimal places ("1250", "1250.50"). */
export const strictPounds = (max: number) =>
  z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      if (typeof v === "string" && !PLAIN_POUNDS.test(v)) {
        ctx.addIssue({ code: "custom", message: "must be an amount in pounds written with digits, e.g. 1250.00 (at most 2 decimal places; no signs, spaces, exponents or hex)" });
        return z.NEVER;
      }
      return Number(v);
    })
    .pipe(
      z
        .number()
        .positive("must be more than 0")
        .max(max, `must be at most ${max.toLocaleString("en-GB")}`)
        .refine((n) => Number(n.toFixed(2)) === n, "must have at most 2 decimal places (pence)"),
    );

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
  companies: { max: 50, appliesTo: "idv-check: company numbers per call, comma-separated (600 characters at most)", spec: true, param: "company" },
  items: { max: 25, appliesTo: "batch: 1 to 25 entries", spec: true },
  text: { max: 1_000_000, appliesTo: "document readers (POST): characters of text (the JSON body at most 4 MiB)", spec: false },
  target: { max: 200, appliesTo: "assess: company name or domain", spec: false },
  offer: { max: 1_000, appliesTo: "assess: what is sold and to whom", spec: false },
  label: { max: 100, appliesTo: "watch label", spec: false },
  feedLimit: { max: 500, appliesTo: "register change feeds: changes per page, default 100", spec: false, param: "limit" },
  rating: { max: 40, appliesTo: "cqc-check/changes: one of the CQC ratings (Outstanding, Good, Requires improvement, Inadequate)", spec: false },
} as const;

/** The query parameter a limit applies to (a table key that is not itself the parameter's name says so). */
export const limitParam = (name: keyof typeof INPUT_LIMITS): string => ("param" in INPUT_LIMITS[name] ? (INPUT_LIMITS[name] as { param: string }).param : name);
