import type { RequestBudget } from "../shared/ports";
import { takeWindow } from "./windowCounter";

const DEFAULT_LIMITS: Record<string, { limit: number; windowSeconds: number }> = {
  "companies-house": { limit: 600, windowSeconds: 300 },
  // The Gazette documents no limit; its own clients pace about one page in two seconds. Ours: 300 in 5 minutes.
  gazette: { limit: 300, windowSeconds: 300 },
};

/**
 * D1 RequestBudget: a fixed-window counter per upstream (see windowCounter.ts).
 */
export function d1RequestBudget(db: D1Database, limits: Record<string, { limit: number; windowSeconds: number }> = DEFAULT_LIMITS): RequestBudget {
  return {
    async take(source, now) {
      const cfg = limits[source];
      // A typo must not silently bypass a budget.
      if (!cfg) throw new Error(`no request budget configured for ${source}`);
      return takeWindow(db, source, cfg.limit, cfg.windowSeconds, now);
    },
  };
}
