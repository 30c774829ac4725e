/**
 * Node entry for `npm run ingest` and `npm run reset` (bundled by scripts/lib.mjs): the same pipeline
 * the Worker's queue consumer runs, pointed at the local D1 database that `npm start` serves. The
 * scripts take the sources, the charity extract's tables and the sample files from the catalogue re-exported here.
 */
import type { Env } from "../env";
import type { EditionFile } from "../jobs/ingest/adapter";
import type { IngestUpstreams } from "../jobs/ports";
import type { IngestDbs } from "../jobs/ingest/store";
import { ADAPTERS } from "../jobs/ingest/adapters";
import { ingestEdition } from "../jobs/ingest/job";
import { storeOf } from "../jobs/ingest/pipeline";
import { resetSicIndex } from "../db/sicIndex";
import { resetTenders } from "../db/tenders";
import { loadTenderFile } from "../jobs/tenders";
import { REGISTER_CATALOGUE, type SampleFile } from "../services/registers/catalogue";
import { REGISTER_SOURCES, type RegisterSource } from "../services/registers/types";
import type { CharityTable, CharityTableInput } from "../sources/charity-commission/parse";

export { REGISTER_CATALOGUE, REGISTER_SOURCES };

export { unzipMember } from "../sources/charity-commission/client";
export { csvOfZip, isZip } from "../sources/companies-house/bulkDownload";
export { fetchOcdsUrl } from "../sources/contracts/client";
export { fetchTenderUrl } from "../sources/contracts/tenders";
export { ratingsFileBeside } from "../sources/cqc/ratings";

/** The sample files `npm start` loads (scripts/start.mjs): each register's catalogue `samples`, in the catalogue's order. */
export const SAMPLE_FILES = REGISTER_SOURCES.flatMap((source) =>
  REGISTER_CATALOGUE[source].samples.map((s: SampleFile) => ({ source, file: s.file, date: s.date ?? null })),
);

/** The local databases, as the ingest pipeline's ports name them (this CLI has no queue: a file loads in one chunk). */
const dbsOf = (env: Pick<Env, "DB" | "COMPANIES_DB">): IngestDbs => ({ db: env.DB, companiesDb: env.COMPANIES_DB });

export async function ingestFile(
  env: Pick<Env, "DB" | "COMPANIES_DB"> & IngestUpstreams,
  source: RegisterSource,
  bytes: Uint8Array | null,
  opts: {
    /** A file too big to hold (the companies register): a function that opens a stream of it. */
    open?: () => AsyncIterable<Uint8Array>;
    fileName: string | null;
    url: string | null;
    editionDate: string | null;
    /** Charity: the extract's tables, as streams opened on demand (the files are large). */
    tables?: Partial<Record<CharityTable, CharityTableInput>>;
    onProgress?: (m: string) => void;
    /** Our own sample data (npm start). */
    sample?: boolean;
    /** CQC: the ratings file found beside the HSCA file (else the adapter reads CQC_RATINGS_URL). */
    ratings?: Uint8Array;
  },
) {
  const given: EditionFile = {
    source,
    bytes: bytes ?? undefined,
    open: opts.open,
    tables: opts.tables,
    fileName: opts.fileName,
    url: opts.url,
    editionDate: opts.editionDate,
    sample: opts.sample,
    ratings: opts.ratings,
  };
  const file = ADAPTERS[source].complete?.(env, given) ?? given;
  // A file given without a date may carry its own (the charity extract's date_of_extract).
  file.editionDate ??= (await ADAPTERS[source].dateOf?.(file)) ?? null;
  // One chunk: chunks exist for a queue invocation's CPU limit, which Node does not have (the queue's resumed
  // chunks are tested on their own); each further chunk would read the file again from its start.
  return ingestEdition(dbsOf(env), file, { onProgress: opts.onProgress });
}

/** Empties registers (`npm run reset`): each source's entries, changes and runs. */
export async function resetRegisters(env: Env, sources: RegisterSource[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const s of sources) out[s] = await storeOf(s).reset(dbsOf(env), s);
  return out;
}

/**
 * `npm run ingest -- tenders <file-or-url>` (issue 18 §2 tender-match): tender notices from an OCDS file into the
 * tenders table (not a register: src/jobs/tenders.ts), answered in the shape the script prints for a register.
 */
export async function ingestTenders(env: Env, bytes: Uint8Array, opts: { fileName: string | null; url: string | null; sample?: boolean }) {
  const r = await loadTenderFile({ db: env.DB }, bytes, opts);
  return {
    source: "tenders",
    scope: "",
    outcome: r.outcome,
    editionDate: r.editionDate,
    rowsRead: r.releases,
    changes: r.written,
    reason: r.reason,
    byKind: r.closed ? { closed: r.closed } : {},
    notes: r.notes ?? null,
  };
}

/** `npm run reset -- tenders|sic`: the tender notices (and their read log), or the SIC 2007 lists; neither is a register. */
export async function resetTables(env: Env, names: ("tenders" | "sic")[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const n of names) out[n] = n === "tenders" ? await resetTenders(env.DB) : await resetSicIndex(env.COMPANIES_DB);
  return out;
}
