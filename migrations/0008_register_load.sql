-- A register edition loads faster with fewer indexes to maintain on register_entries (every new entry
-- version is inserted into each of them). Name lookups go through register_names and its FTS5 table,
-- never through register_entries' name columns, and no query selects entries by entity: those three
-- indexes are dropped. The open-entries index takes the key as well, so the ingest reads the published
-- entries of a source/scope in key order from the index (openEntries pages by key) instead of sorting
-- them for every page.
DROP INDEX IF EXISTS register_entries_norm;
DROP INDEX IF EXISTS register_entries_core;
DROP INDEX IF EXISTS register_entries_entity;
DROP INDEX IF EXISTS register_entries_open;
CREATE INDEX register_entries_open ON register_entries(source, scope, valid_to_run, key);
