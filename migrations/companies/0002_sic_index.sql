-- SIC 2007 for the industry classifier (issue 18, enrichment: industry-classifier): the Companies House condensed
-- list (one description per code) and the ONS alphabetical index of activity phrases with CH's own row, as loaded by
-- `npm run ingest -- sic <folder or files>` (npm start loads our sample files). The Worker reads it whole and builds
-- the classifier's model once per isolate (src/db/sicIndex.ts). Replaced whole by each load, in one transaction.
CREATE TABLE sic_index (
  -- the files' order: the condensed list first, then the index, then CH's row
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL,
  -- the description (kind 'list') or the activity phrase (kinds 'index', 'ch'), trimmed, as published
  text TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('list', 'index', 'ch'))
);
CREATE INDEX sic_index_code ON sic_index(code, kind);

-- What is loaded (one row; none before the first load): when, from which files, how many rows, and whether it is
-- our sample (a sample is never loaded over the real lists).
CREATE TABLE sic_index_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  loaded_at TEXT NOT NULL,
  list_rows INTEGER NOT NULL,
  index_rows INTEGER NOT NULL,
  files TEXT NOT NULL,
  sample INTEGER NOT NULL DEFAULT 0
);
