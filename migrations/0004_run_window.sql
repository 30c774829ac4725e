-- A run that read a window of changes (the CQC change API) records the window and whether it read it
-- to its end; the next daily run starts where the last complete window ended (src/registers/ingest.ts).
ALTER TABLE register_runs ADD COLUMN window_start TEXT;
ALTER TABLE register_runs ADD COLUMN window_end TEXT;
ALTER TABLE register_runs ADD COLUMN window_complete INTEGER;
