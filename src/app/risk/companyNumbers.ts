import { z } from "@hono/zod-openapi";
import { INPUT_LIMITS, companyNumbersPattern } from "../../platform/schemas";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";

/** Shared by the risk operations that take many companies a call (idv-check, distress-signals). */
export const MAX = INPUT_LIMITS.companies.max;
/** Companies read at a time (SPEC §8: four at a time). */
export const AT_A_TIME = 4;

/** `company`: up to 50 company numbers, comma-separated; each normalised (unpadded and prefixed ones too), repeats once. */
export const CompanyNumbers = z
  .string()
  .trim()
  .min(1, "is required")
  .max(600, "must be at most 600 characters")
  .regex(companyNumbersPattern(MAX), `must be 1 to ${MAX} Companies House company numbers separated by commas, e.g. 01234567,SC612345`)
  .transform((raw, ctx) => {
    const parts = raw
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    const bad = parts.filter((p) => !normaliseCompanyNumber(p));
    if (bad.length) {
      ctx.addIssue({ code: "custom", message: `must be company numbers separated by commas; not a company number: ${bad.slice(0, 3).join(", ")}` });
      return z.NEVER;
    }
    if (!parts.length) {
      ctx.addIssue({ code: "custom", message: "is required" });
      return z.NEVER;
    }
    if (parts.length > MAX) {
      ctx.addIssue({ code: "custom", message: `must be at most ${MAX} company numbers` });
      return z.NEVER;
    }
    const seen = new Set<string>();
    return parts.map((asked) => ({ asked, number: normaliseCompanyNumber(asked)! })).filter((p) => !seen.has(p.number) && seen.add(p.number));
  })
  .openapi({ type: "string", minLength: 1, maxLength: 600, pattern: companyNumbersPattern(MAX).source, example: "01234567,SC612345" })
  .describe(`Up to ${MAX} Companies House company numbers, comma-separated (unpadded numbers are padded; a number given twice is read once).`);
