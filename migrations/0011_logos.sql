-- Logos as images (issue 32): GET /api/v1/company-logo/image answers the logo itself, for <img> tags.

-- Publishable keys: keys meant for page source (<img src=".../company-logo/image?domain=…&key=pk_…">), usable only on
-- the logo image route and only from the origins their account names (Origin or Referer). Public by design (anyone
-- can read a page's source), so kept as they are; what they protect is the account's higher limit, not a secret.
CREATE TABLE publishable_keys (
  key TEXT PRIMARY KEY NOT NULL,
  account_id TEXT NOT NULL,
  -- A JSON array of origins: https://example.co.uk, https://*.example.co.uk (its subdomains), http://localhost:3000.
  origins TEXT NOT NULL,
  label TEXT,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX publishable_keys_account ON publishable_keys (account_id);

-- The logo file found on a site's homepage (the first choice of company-logo, by theme), fetched once through the safe
-- fetcher. `bytes` (base64) is kept when the file is at most 1 MiB, so another size is made without fetching again.
CREATE TABLE logo_files (
  domain TEXT NOT NULL,
  theme TEXT NOT NULL,
  url TEXT NOT NULL,
  source TEXT NOT NULL,
  mime TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  bytes TEXT,
  fetched_at INTEGER NOT NULL,
  PRIMARY KEY (domain, theme)
);

-- Each image made: one row per domain (or company), theme, size, format and greyscale, the monogram fallback included.
-- `bytes` is base64 (at most 1.4 MB of image, within D1's 2 MB a row); bigger images are served from the edge cache only.
CREATE TABLE logo_images (
  variant TEXT PRIMARY KEY NOT NULL,
  domain TEXT NOT NULL,
  source TEXT NOT NULL,
  mime TEXT NOT NULL,
  etag TEXT NOT NULL,
  bytes TEXT NOT NULL,
  made_at INTEGER NOT NULL
);
CREATE INDEX logo_images_domain ON logo_images (domain);

-- A company number's website as enrichment confirmed it (SPEC §2.2; null when none is confirmed) and its name on the
-- register (for the monogram), so a logo by company number does not enrich again on every uncached size.
CREATE TABLE logo_companies (
  company_number TEXT PRIMARY KEY NOT NULL,
  domain TEXT,
  name TEXT NOT NULL,
  resolved_at INTEGER NOT NULL
);
