-- Changes are reported per entity (the organisation), not per row: src/services/registers/diff.ts.
--
-- entity: the register's own number where it has one (MLR, SRA, charity number, CQC location or
-- provider id); on the sponsors register, register and normalised organisation name.
-- part: what the row is a part of its entity (sponsors: route under its current name; HMRC: the
-- premises' postcode district); NULL where an entity is one row.
ALTER TABLE register_entries ADD COLUMN entity TEXT NOT NULL DEFAULT '';
ALTER TABLE register_entries ADD COLUMN part TEXT;
CREATE INDEX register_entries_entity ON register_entries(source, entity);

-- Sample editions (npm start's fictional data) are marked, so the first real edition of a register
-- replaces them as its baseline instead of being diffed against them.
ALTER TABLE register_runs ADD COLUMN sample INTEGER NOT NULL DEFAULT 0;
ALTER TABLE register_state ADD COLUMN sample INTEGER NOT NULL DEFAULT 0;
-- What a run's parse left out, as JSON counts (e.g. rows naming only a person, SPEC §1 rule 7); never names.
ALTER TABLE register_runs ADD COLUMN notes TEXT;

-- Keys changed meaning for the sponsors register (one entity per organisation, routes under their
-- current names), the HMRC register (registrations by MLR number) and charities (charity number, was
-- the Commission's organisation number). Their earlier rows cannot be carried over by SQL alone, so
-- those registers start again from their next edition, which is their new baseline (no changes).
-- SRA and CQC keep their rows: their keys already were their own numbers.
DELETE FROM register_names_fts WHERE source IN ('sponsors', 'aml', 'charity');
DELETE FROM register_names WHERE source IN ('sponsors', 'aml', 'charity');
DELETE FROM register_changes WHERE source IN ('sponsors', 'aml', 'charity');
DELETE FROM register_entries WHERE source IN ('sponsors', 'aml', 'charity');
DELETE FROM register_state WHERE source IN ('sponsors', 'aml', 'charity');
DELETE FROM register_staging WHERE run_id IN (SELECT id FROM register_runs WHERE source IN ('sponsors', 'aml', 'charity'));
DELETE FROM register_runs WHERE source IN ('sponsors', 'aml', 'charity');
UPDATE register_entries SET entity = key WHERE entity = '';
