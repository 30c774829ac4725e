import type { RunMode } from "../../db/runs";
import type { RegisterRecord, RegisterSource } from "../../services/registers/types";
import type { CharityTable, CharityTableInput } from "../../sources/charity-commission/parse";
import { RegisterFormatError } from "../../sources/format-error";
import type { ChangeWindow, IngestJob } from "./message";
import type { IngestPorts, IngestUpstreams } from "../ports";
import type { RegisterStore } from "./store";

/**
 * What the pipeline needs of one register (one file per register in ./adapters/): where its edition
 * is found, how it is parsed and how much of it one queue invocation stages. Everything
 * source-specific lives in the adapter; the pipeline and the job are the same for every register.
 */
export interface RegisterAdapter {
  /** Records one queue invocation stages before handing the rest of the file to the next message. */
  chunkRows: number;
  /** Where its editions are written, when not the entries store most registers share (./store.ts). */
  store?: RegisterStore;
  /**
   * Finds and downloads the current edition(s), the way the source's format note says. `job` is the
   * queue message (CQC: the change window it continues, if any).
   */
  fetch(ports: IngestPorts, job: IngestJob, now: Date): Promise<EditionFile[]>;
  /** Parses one edition file into records; the same function serves the Worker and the CLI. */
  parse(file: EditionFile): ParsedEdition;
  /** The edition's date read from the file itself, for a file given without one (the CLI). */
  dateOf?(file: EditionFile): Promise<string | null>;
  /**
   * A file given to the CLI, completed with what its edition also reads upstream (CQC: an HSCA snapshot's
   * ratings file, downloaded from CQC_RATINGS_URL when none was given); read when the edition is, so a
   * failure is the run's.
   */
  complete?(upstreams: IngestUpstreams, file: EditionFile): EditionFile;
}

/** One file (or assembled payload) of a register edition, as fetched or as given to the CLI. */
export interface EditionFile {
  source: RegisterSource;
  /** The file itself (every source but the charity extract)... */
  bytes?: Uint8Array;
  /** ...or, for a download read as it arrives (SRA), a function that opens a stream of it. */
  open?: () => AsyncIterable<Uint8Array>;
  /** Charity: the extract's tables (`charity` required), as bytes or as streams opened on demand. */
  tables?: Partial<Record<CharityTable, CharityTableInput>>;
  /** CQC: the ratings file joined to an HSCA snapshot (src/sources/cqc/ratings.ts), or a function that downloads it. */
  ratings?: Uint8Array | (() => Promise<Uint8Array>);
  fileName: string | null;
  url: string | null;
  editionDate: string | null;
  /** CQC: the change API gives only changed entries. */
  mode?: RunMode;
  /** The edition date is the day it was fetched (the upstream publishes none), so it says nothing about which edition this is. */
  datedOnFetch?: boolean;
  /** CQC: the window of changes this file holds, and how many of its changed ids have been read (up to this file) of how many. */
  window?: ChangeWindow & { read: number; total: number };
  /** Our own sample data (npm start): never diffed against real editions. */
  sample?: boolean;
}

export interface ParsedEdition {
  scope: string;
  editionDate: string | null;
  mode: RunMode;
  /**
   * The edition's records from record index `from` on, in a fixed order, so a run can stop after any
   * number and a later invocation resume exactly there. Each call reads the file afresh. `notes`
   * collects counts of what the parser left out (e.g. rows naming only a person), for the run log.
   */
  records(from?: number, notes?: ParseNotes): AsyncIterable<RegisterRecord>;
}

/** Counts a parser keeps of rows it left out or changed (never names: SPEC §1 rule 7). */
export type ParseNotes = Record<string, number>;

/** Rows one queue invocation stages before handing the rest of the file to the next message (most registers). */
export const CHUNK_ROWS = 50_000;

/** Upstream reads of the daily job give up after this long, so a hung upstream fails the run instead of holding it. */
export const UPSTREAM_TIMEOUT_MS = 120_000;
export const timedFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });

/** Drops the first `n` records (sources whose parsers cannot seek). */
export async function* skipRecords(records: AsyncIterable<RegisterRecord>, n: number): AsyncGenerator<RegisterRecord> {
  let seen = 0;
  for await (const r of records) if (seen++ >= n) yield r;
}

export function fileOf(f: EditionFile): Uint8Array {
  if (!f.bytes) throw new RegisterFormatError(`${f.source}: no file given`);
  return f.bytes;
}

/** Dates that a file name may carry (the sponsors and HMRC files do). */
const NAME_DATE = /(20\d{2})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/;

/** The edition date given with the file, else the one its name carries. */
export const fileDateOf = (f: EditionFile): string | null => f.editionDate ?? f.fileName?.match(NAME_DATE)?.[0] ?? null;
