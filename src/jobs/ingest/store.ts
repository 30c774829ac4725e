import type { RegisterRecord } from "../../services/registers/types";
import type { IngestPorts } from "../ports";

/** The two databases a register is written to (the ingest ports' `db` and `companiesDb`). */
export type IngestDbs = Pick<IngestPorts, "db" | "companiesDb">;

/**
 * Where a register's editions are written. The pipeline (./pipeline.ts) owns the run log and the rules
 * every register shares (one run at a time, resumable staging, the baseline, refusing a truncated or an
 * older edition, sample data never mixed with real data); a store owns the register's own tables: how a
 * run's records are staged, diffed against the published edition, written and published, and how a
 * failed run is undone. Most registers share the entries store (register_entries in the main database,
 * diffed in the Worker); the companies register (5.7 million rows) has its own database and is diffed
 * inside SQLite (./stores/companies.ts).
 */
export interface RegisterStore {
  /** Stages batches of a run's records; `seq` is the index of each batch's first record in the edition. */
  stage(dbs: IngestDbs, runId: number, batches: { seq: number; records: RegisterRecord[] }[]): Promise<void>;
  /** Diffs the staged edition against the published one, writes it and publishes it (run log included). */
  apply(dbs: IngestDbs, run: ApplyContext): Promise<Applied>;
  /** Removes everything a run wrote to the store's tables (the pipeline then ends the run in the log). */
  discard(dbs: IngestDbs, runId: number): Promise<void>;
  /** Empties the register (npm run reset). Returns the number of entries removed. */
  reset(dbs: IngestDbs, source: string): Promise<number>;
}

/** What the pipeline has decided about a run before its store applies it. */
export interface ApplyContext {
  runId: number;
  source: RegisterRecord["source"];
  scope: string;
  mode: "snapshot" | "partial";
  editionDate: string;
  /** The first edition (or the first real one after our sample data): history starts here, no changes recorded. */
  baseline: boolean;
  replacesSample: boolean;
  sample: boolean;
  /** The published edition's date (the last date a removed entry was listed). */
  lastListed: string | null;
  /** The run log's note for a baseline. */
  note: string | null;
  now: Date;
}

export interface Applied {
  outcome: "loaded" | "unchanged";
  changes: number;
  byKind: Record<string, number>;
}
