-- Registers (HMRC AML, SRA, sponsors, CQC, charities): current entries, their history of changes, and a run log.
--
-- Entries are versioned so that readers never see a half-written edition: a run writes new versions
-- (valid_from_run = its id) and closes old ones (valid_to_run = its id) while readers keep reading the
-- published run (register_state.published_run); publishing is one UPDATE. A failed run deletes its versions.

CREATE TABLE register_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source TEXT NOT NULL,
  -- part of a source that is a snapshot of its own (sponsors: workers | students); '' otherwise
  scope TEXT NOT NULL DEFAULT '',
  edition_date TEXT,
  file_name TEXT,
  url TEXT,
  -- 'snapshot' (whole register) or 'partial' (only changed entries, e.g. CQC's change API)
  mode TEXT NOT NULL DEFAULT 'snapshot',
  started_at TEXT NOT NULL,
  finished_at TEXT,
  rows_read INTEGER NOT NULL DEFAULT 0,
  -- running | loaded | unchanged | failed | refused
  outcome TEXT NOT NULL DEFAULT 'running',
  reason TEXT,
  changes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX register_runs_source ON register_runs(source, scope, id);

CREATE TABLE register_state (
  source TEXT NOT NULL,
  scope TEXT NOT NULL DEFAULT '',
  published_run INTEGER NOT NULL,
  edition_date TEXT,
  -- date of the first edition this installation loaded: history is kept from here
  history_since TEXT NOT NULL,
  PRIMARY KEY (source, scope)
);

CREATE TABLE register_entries (
  source TEXT NOT NULL,
  key TEXT NOT NULL,
  valid_from_run INTEGER NOT NULL,
  valid_to_run INTEGER,
  scope TEXT NOT NULL DEFAULT '',
  name TEXT NOT NULL,
  norm_name TEXT NOT NULL,
  norm_core TEXT NOT NULL,
  company_number TEXT,
  status TEXT NOT NULL,
  rating TEXT,
  town TEXT,
  -- JSON: alternative names (trading, previous, working)
  alt_names TEXT NOT NULL DEFAULT '[]',
  -- JSON: the record's data as the endpoints show it
  data TEXT NOT NULL,
  -- cheap hash of the whole record, to notice changes no change kind names
  fp TEXT NOT NULL,
  first_seen TEXT NOT NULL,
  -- edition date of the run that found the entry missing (null while listed)
  removed_on TEXT,
  -- last edition the entry was listed in, recorded on removal
  last_listed TEXT,
  PRIMARY KEY (source, key, valid_from_run)
);
CREATE INDEX register_entries_open ON register_entries(source, scope, valid_to_run);
CREATE INDEX register_entries_norm ON register_entries(source, norm_name);
CREATE INDEX register_entries_core ON register_entries(source, norm_core);
CREATE INDEX register_entries_company ON register_entries(source, company_number);

-- Every name of every entry version (name and alternative names), normalised: exact lookups here,
-- token candidates in the FTS table beside it.
CREATE TABLE register_names (
  source TEXT NOT NULL,
  norm TEXT NOT NULL,
  key TEXT NOT NULL,
  valid_from_run INTEGER NOT NULL
);
CREATE INDEX register_names_norm ON register_names(source, norm);
CREATE INDEX register_names_run ON register_names(valid_from_run);
CREATE VIRTUAL TABLE register_names_fts USING fts5(norm, source UNINDEXED, key UNINDEXED, valid_from_run UNINDEXED, tokenize = 'unicode61');

CREATE TABLE register_changes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source TEXT NOT NULL,
  scope TEXT NOT NULL DEFAULT '',
  run_id INTEGER NOT NULL,
  change_date TEXT NOT NULL,
  key TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  before TEXT,
  after TEXT
);
CREATE INDEX register_changes_feed ON register_changes(source, change_date, id);
CREATE INDEX register_changes_key ON register_changes(source, key, id);

-- Parsed rows of a run in progress, staged chunk by chunk (a file too big for one invocation).
CREATE TABLE register_staging (
  run_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
);
