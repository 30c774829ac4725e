-- Upstream HTTP cache and shared request budgets (src/db/httpCache.ts, src/db/upstreamBudget.ts).

-- One cached upstream answer per key (e.g. ch:profile:08957400); 404s are cached too (negative cache).
CREATE TABLE http_cache (
  key TEXT PRIMARY KEY NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  -- epoch milliseconds
  fetched_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX http_cache_expires ON http_cache(expires_at);

-- Fixed-window counters (src/db/windowCounter.ts): requests spent per upstream (Companies House: 600 per
-- 5 minutes per key) and per-IP limits (sign-up, company-logo); `source` is the bucket name.
CREATE TABLE upstream_budget (
  source TEXT NOT NULL,
  -- epoch seconds, a multiple of the window length
  window_start INTEGER NOT NULL,
  used INTEGER NOT NULL,
  PRIMARY KEY (source, window_start)
);
