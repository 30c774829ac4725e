-- Signed receipts (issue 33 §2): every charged reply of a check carries a receipt (a JWS the service signed); the
-- receipt and the reply it covers are kept here for at least five years, for GET /api/v1/receipts/{id} (the same
-- account only). Nothing deletes them.
CREATE TABLE receipts (
  id TEXT PRIMARY KEY NOT NULL,
  account_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  operation TEXT NOT NULL,
  kid TEXT NOT NULL,
  jws TEXT NOT NULL,
  content_type TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX receipts_account ON receipts (account_id, created_at);

-- The SHA-256 of each edition file a run loaded (hex), named by the receipts of answers that rest on it.
ALTER TABLE register_runs ADD COLUMN sha256 TEXT;
