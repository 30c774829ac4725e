/**
 * Ports: what a source needs from the runtime, as interfaces. Each has a D1 implementation in src/db/
 * (d1HttpCache, d1RequestBudget) and an in-memory one here for tests and for code that runs without D1.
 * Imports nothing.
 */

/** A cached upstream answer (status and body, as received) and when it was fetched (epoch ms). */
export interface CachedAnswer {
  status: number;
  body: string;
  fetchedAt: number;
}

/** A cache of upstream answers, keyed by the source's own key (e.g. `ch:profile:00445790`). */
export interface HttpCache {
  get(key: string): Promise<CachedAnswer | null>;
  put(key: string, v: CachedAnswer, ttlSeconds: number): Promise<void>;
}

/** A shared request budget per upstream (Companies House allows 600 requests per 5 minutes per key). */
export interface RequestBudget {
  take(source: string, now: number): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
}

/** Epoch milliseconds. Injected so tests can move time. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

/** In-memory HttpCache: expiry by the injected clock. */
export function memoryHttpCache(clock: Clock = systemClock): HttpCache & { size(): number } {
  const rows = new Map<string, CachedAnswer & { expiresAt: number }>();
  return {
    async get(key) {
      const r = rows.get(key);
      if (!r || r.expiresAt <= clock()) return null;
      return { status: r.status, body: r.body, fetchedAt: r.fetchedAt };
    },
    async put(key, v, ttlSeconds) {
      rows.set(key, { ...v, expiresAt: clock() + ttlSeconds * 1000 });
    },
    size: () => rows.size,
  };
}

/** In-memory RequestBudget: a fixed window per source, as the D1 one counts. */
export function memoryRequestBudget(limits: Record<string, { limit: number; windowSeconds: number }>): RequestBudget {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    async take(source, now) {
      const cfg = limits[source];
      if (!cfg) throw new Error(`no request budget configured for ${source}`);
      const ms = cfg.windowSeconds * 1000;
      const start = Math.floor(now / ms) * ms;
      const w = windows.get(source);
      const cur = w && w.start === start ? w : { start, count: 0 };
      if (cur.count >= cfg.limit) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((start + ms - now) / 1000)) };
      cur.count++;
      windows.set(source, cur);
      return { ok: true };
    },
  };
}
