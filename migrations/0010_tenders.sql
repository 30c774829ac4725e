-- Public tender notices (issue 18 §2 tender-match): one row per contracting process (OCDS ocid) whose tender
-- notice was read from Find a Tender or Contracts Finder (src/sources/contracts/tenders.ts), as its newest
-- release left it; `data` is the TenderNotice (src/services/contracts/tenderMatch.ts). Written by the daily read
-- and the CLI (src/jobs/tenders.ts), read by tender-match (src/db/tenders.ts). Not a register: a notice is
-- updated in place, and notices closed long ago are pruned.
CREATE TABLE tenders (
  ocid TEXT PRIMARY KEY NOT NULL,
  -- FTS or CF
  source TEXT NOT NULL,
  -- date of the newest release applied (a release older than it changes nothing)
  release_date TEXT,
  -- tender.status in lower case: active, planned, complete, cancelled, unsuccessful, withdrawn, unknown
  status TEXT NOT NULL,
  -- the instant bids close (UTC ISO; a deadline given as a date alone closes at the end of that day), or null
  closes_at TEXT,
  -- UK day the notice was first published (YYYY-MM-DD), or null
  published_day TEXT,
  -- every CPV code between spaces (' 72000000 48000000 '), for prefix search: cpv LIKE '% 72%'
  cpv TEXT NOT NULL DEFAULT ' ',
  -- the title's and description's words, lower case, singular, between spaces, for keyword search
  words TEXT NOT NULL DEFAULT ' ',
  data TEXT NOT NULL,
  -- our own sample notices (npm start): replaced by the first real read
  sample INTEGER NOT NULL DEFAULT 0,
  loaded_at TEXT NOT NULL
);
CREATE INDEX tenders_open ON tenders(status, closes_at);

-- Each read of tender notices: a window of the daily job (window_start/window_end) or a file given to the CLI.
CREATE TABLE tender_reads (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  window_start TEXT,
  window_end TEXT,
  file_name TEXT,
  url TEXT,
  -- loaded, failed or refused
  outcome TEXT NOT NULL,
  releases INTEGER NOT NULL DEFAULT 0,
  -- notices written (new or updated) and closed by a later release
  written INTEGER NOT NULL DEFAULT 0,
  closed INTEGER NOT NULL DEFAULT 0,
  sample INTEGER NOT NULL DEFAULT 0,
  reason TEXT,
  -- JSON: counts of what the parse left out or folded
  notes TEXT
);
CREATE INDEX tender_reads_window ON tender_reads(outcome, window_end);
