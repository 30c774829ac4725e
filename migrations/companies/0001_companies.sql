-- The companies register (Companies House Basic Company Data: every live company, monthly), in a D1
-- database of its own (binding COMPANIES_DB; README "Databases"). The run log stays in the main
-- database's register_runs, like every register's.
--
-- Versioned like register_entries: a run writes new versions (valid_from_run = its id) of the companies
-- that are new or changed and closes the versions they replace (valid_to_run = its id); readers see the
-- run named in company_state, so publishing is one UPDATE and a failed run deletes what it wrote.
CREATE TABLE companies (
  id INTEGER PRIMARY KEY,
  number TEXT NOT NULL,
  valid_from_run INTEGER NOT NULL,
  valid_to_run INTEGER,
  name TEXT NOT NULL,
  -- normaliseNameCore(name): the words the name index holds (no legal form), for exact comparison
  norm_core TEXT NOT NULL,
  -- the register's own words: "Active", "Active - Proposal to Strike off", "Liquidation", ...
  status TEXT NOT NULL,
  category TEXT NOT NULL,
  incorporated_on TEXT,
  -- SIC codes, space-separated, in the register's order (descriptions in sic_codes)
  sic TEXT NOT NULL DEFAULT '',
  locality TEXT,
  postcode TEXT,
  country_of_origin TEXT,
  accounts_due TEXT,
  accounts_made_up_to TEXT,
  accounts_category TEXT,
  confirmation_due TEXT,
  confirmation_made_up_to TEXT,
  -- JSON array of {name, until} (most recent first), or NULL when the company was never renamed
  previous_names TEXT,
  -- JSON: charges counts and the rest of the row a reply may show
  extra TEXT,
  -- hash of every field above: a company whose fingerprint is unchanged gets no new version
  fp TEXT NOT NULL
);
CREATE INDEX companies_number ON companies(number, valid_from_run);
CREATE INDEX companies_run ON companies(valid_from_run);
CREATE INDEX companies_closed ON companies(valid_to_run) WHERE valid_to_run IS NOT NULL;

-- Name search: the words of each version's name without its legal form (unicode61 folds case and accents).
-- External content: rows are added when a version is written and deleted only when a run is discarded.
CREATE VIRTUAL TABLE companies_fts USING fts5(norm_core, content = 'companies', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');

-- SIC 2007 (and older SIC 2003) codes with the descriptions the bulk file gives them.
CREATE TABLE sic_codes (
  code TEXT PRIMARY KEY,
  description TEXT NOT NULL
) WITHOUT ROWID;

-- The published run (one row): what readers see.
CREATE TABLE company_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  published_run INTEGER NOT NULL,
  edition_date TEXT,
  sample INTEGER NOT NULL DEFAULT 0
);

-- What each monthly edition changed, per company: added, removed, renamed, status, moved.
CREATE TABLE company_changes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id INTEGER NOT NULL,
  change_date TEXT NOT NULL,
  number TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  before TEXT,
  after TEXT
);
CREATE INDEX company_changes_feed ON company_changes(change_date, id);
CREATE INDEX company_changes_number ON company_changes(number, id);
CREATE INDEX company_changes_run ON company_changes(run_id);

-- The rows of a run in progress, one per company, staged chunk by chunk (the first row of a number counts).
CREATE TABLE company_staging (
  run_id INTEGER NOT NULL,
  number TEXT NOT NULL,
  name TEXT NOT NULL,
  norm_core TEXT NOT NULL,
  status TEXT NOT NULL,
  category TEXT NOT NULL,
  incorporated_on TEXT,
  sic TEXT NOT NULL,
  locality TEXT,
  postcode TEXT,
  country_of_origin TEXT,
  accounts_due TEXT,
  accounts_made_up_to TEXT,
  accounts_category TEXT,
  confirmation_due TEXT,
  confirmation_made_up_to TEXT,
  previous_names TEXT,
  extra TEXT,
  fp TEXT NOT NULL,
  PRIMARY KEY (run_id, number)
) WITHOUT ROWID;
