import type { RegisterSource } from "../../services/registers/types";

/**
 * The INGEST queue's message type, apart from the job that handles it: src/env.ts types the queue
 * binding with it, so this module imports nothing that imports src/env.ts.
 */

/** A window of upstream changes, ISO timestamps. */
export interface ChangeWindow {
  start: string;
  end: string;
}

/** A message on the INGEST queue: read one source's current edition, or resume a run in chunks. */
export interface IngestJob {
  source: RegisterSource;
  /** Set when resuming a run that was split into chunks. */
  runId?: number;
  /** Rows already staged by earlier chunks of this run. */
  offset?: number;
  /** CQC: the change window being read (ISO timestamps), when a window has more changes than one message reads. */
  window?: ChangeWindow;
  /** CQC: changed ids of the window already read by earlier messages. */
  from?: number;
}
