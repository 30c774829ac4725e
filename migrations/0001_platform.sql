-- Platform: organisations, accounts, API keys, sign-up challenges, idempotent replies.
-- Keys are stored only as SHA-256 hashes; a key is shown once, when it is issued.

CREATE TABLE orgs (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  plan TEXT NOT NULL DEFAULT 'team',
  -- keys of a pooled org draw on one shared balance (one KeyLedger per org)
  pooled INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL DEFAULT (unixepoch())
);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY NOT NULL,
  email TEXT UNIQUE,
  mobile TEXT,
  email_verified_at INTEGER,
  mobile_verified_at INTEGER,
  plan TEXT NOT NULL DEFAULT 'free',
  org_id TEXT REFERENCES orgs(id),
  created_at INTEGER NOT NULL DEFAULT (unixepoch())
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  key_hash TEXT NOT NULL UNIQUE,
  -- first characters of the key, for the owner to recognise it; not enough to use it
  prefix TEXT NOT NULL,
  label TEXT,
  active INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL DEFAULT (unixepoch()),
  disabled_at INTEGER,
  -- optional starting balance for one month (npm run key -- create --credits N)
  credits_override INTEGER,
  credits_override_period TEXT
);
CREATE INDEX api_keys_account ON api_keys(account_id);

CREATE TABLE signup_challenges (
  id TEXT PRIMARY KEY NOT NULL,
  email TEXT NOT NULL,
  mobile TEXT NOT NULL,
  email_code_hash TEXT NOT NULL,
  mobile_code_hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  created_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX signup_challenges_email ON signup_challenges(email);

CREATE TABLE idempotent_replies (
  key_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  -- 0 while the first call runs
  status INTEGER NOT NULL DEFAULT 0,
  body TEXT,
  headers TEXT,
  created_at INTEGER NOT NULL DEFAULT (unixepoch()),
  PRIMARY KEY (key_id, idempotency_key)
);
