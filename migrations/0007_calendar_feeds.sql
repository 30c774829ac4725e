-- Calendar feeds of company deadlines (GET /api/v1/deadlines.ics?token=…): a capability URL bound to one key
-- and one company, for calendar apps, which cannot send a key header. The token is random (24 bytes); it only
-- reveals dates the companies register publishes. Revoked feeds answer 404.
CREATE TABLE calendar_feeds (
  token TEXT PRIMARY KEY NOT NULL,
  key_id TEXT NOT NULL,
  company_number TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
-- One live feed per key and company: asking again returns the same address.
CREATE UNIQUE INDEX calendar_feeds_live ON calendar_feeds (key_id, company_number) WHERE revoked_at IS NULL;
