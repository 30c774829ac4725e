-- The watch list, its event feed and webhooks (issue 15; SPEC §2.7, §3.1, §4.6, §6).
--
-- A watch belongs to an account (every key of the account sees the same list). A company watched by any
-- account has one row in watch_companies holding its last kept reading: it is read once a day however many
-- accounts watch it, and each difference becomes one event per account whose watch was live at that read.
--
-- Order of writes (README "Watch list"): the events of a read and the company's new reading are written in
-- one transaction, so the reading never moves on without its events; an event to deliver is recorded as
-- pending in the same transaction (the outbox), so a delivery lost between recording and posting is found
-- again by the five-minute sweep.

CREATE TABLE watches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  company TEXT NOT NULL,
  label TEXT,
  -- watched | paused (SPEC §3.1: paused when a month's credits could not be taken; never dropped)
  state TEXT NOT NULL DEFAULT 'watched' CHECK (state IN ('watched', 'paused')),
  added_at TEXT NOT NULL,
  -- YYYY-MM (UTC) of the last calendar month the watch's credits were taken for
  paid_period TEXT,
  paused_at TEXT,
  paused_reason TEXT,
  -- the reading this watch's events are counted from; null until its first read (its baseline: no events)
  baseline_at TEXT,
  last_read_at TEXT,
  UNIQUE (account_id, company)
);
CREATE INDEX watches_company ON watches(company);

CREATE TABLE watch_companies (
  company TEXT PRIMARY KEY NOT NULL,
  -- the registered name at the last read (events' summaries name the company, never a person)
  name TEXT,
  -- JSON Reading (src/services/watch/reading.ts): the last good reading of every source
  reading TEXT,
  -- JSON [{ source, since, reason }]: the sources that could not be read at the last read (their previous reading is kept)
  unread TEXT,
  -- YYYY-MM-DD of the last daily read, and its time
  read_day TEXT,
  read_at TEXT,
  -- minute of the day (UTC, 0–1439) the company is read at: reads are spread over the day
  slot INTEGER NOT NULL
);
CREATE INDEX watch_companies_due ON watch_companies(read_day, slot);

CREATE TABLE watch_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  company TEXT NOT NULL,
  seen_at TEXT NOT NULL,
  kind TEXT NOT NULL,
  summary TEXT NOT NULL,
  before TEXT NOT NULL,
  after TEXT NOT NULL,
  -- company:day:kind:hash(after): a repeated read of the same day records no duplicate
  event_key TEXT NOT NULL,
  delivered INTEGER NOT NULL DEFAULT 0,
  -- none (no webhook when recorded) | pending | delivered | failed (retries used up) | cancelled (webhook removed or disabled)
  delivery TEXT NOT NULL DEFAULT 'none',
  attempts INTEGER NOT NULL DEFAULT 0,
  -- epoch ms: when the next attempt is due (pending only), when the first attempt was made, and the lease of the attempt in flight
  next_attempt_at INTEGER,
  first_attempt_at INTEGER,
  claimed_until INTEGER,
  last_error TEXT,
  UNIQUE (account_id, event_key)
);
CREATE INDEX watch_events_feed ON watch_events(account_id, id);
CREATE INDEX watch_events_due ON watch_events(delivery, next_attempt_at);

CREATE TABLE watch_webhooks (
  account_id TEXT PRIMARY KEY NOT NULL,
  url TEXT NOT NULL,
  -- the signing secret, and the one before it (signing for 24 h after a rotation), sealed with AES-GCM
  -- under the Worker secret WEBHOOK_SECRETS_KEY (src/services/watch/seal.ts)
  secret TEXT NOT NULL,
  previous_secret TEXT,
  -- Unix seconds the current secret was issued
  rotated_at INTEGER NOT NULL,
  set_at TEXT NOT NULL,
  disabled_at TEXT,
  disabled_reason TEXT
);
