/**
 * The one list of the registers this service loads (pure data, no I/O). The source ids, the cron's
 * daily jobs and the CLI's accepted sources and files all come from here; how each register is
 * fetched, parsed and chunked is its adapter's (src/jobs/ingest/adapters/<source>.ts). Adding a
 * register is one entry here plus one adapter.
 */
export interface RegisterCatalogueEntry {
  title: string;
  /**
   * A register published as several files read together (the charity extract: one table per file,
   * `charity` first). The CLI reads each one it finds beside the file it is given, named
   * `publicextract.<table>.txt` or `.zip` as downloaded.
   */
  tables?: readonly string[];
}

/** Keyed by source id (the run log, the queue messages, `npm run ingest -- <source>`), in the cron's order. */
export const REGISTER_CATALOGUE = {
  aml: { title: "HMRC Money Laundering Regulations supervised business register" },
  sra: { title: "Solicitors Regulation Authority register of organisations" },
  sponsors: { title: "Home Office register of licensed sponsors (workers; students)" },
  cqc: { title: "Care Quality Commission register (API and HSCA active locations)" },
  charity: {
    title: "Charity Commission for England and Wales register of charities",
    tables: [
      "charity",
      "charity_annual_return_history",
      "charity_area_of_operation",
      "charity_classification",
      "charity_event_history",
      "charity_governing_document",
      "charity_other_names",
      "charity_other_regulators",
      "charity_trustee",
    ],
  },
} as const satisfies Record<string, RegisterCatalogueEntry>;
