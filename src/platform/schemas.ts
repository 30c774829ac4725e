import { z } from "@hono/zod-openapi";

/** A real calendar date `YYYY-MM-DD` (2026-02-30 is refused at validation, before anything is charged). */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
  }, "is not a real calendar date");
