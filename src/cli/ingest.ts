/**
 * Node entry for `npm run ingest` (bundled by scripts/lib.mjs): the same pipeline the Worker's queue
 * consumer runs, pointed at the local D1 database that `npm start` serves.
 */
import type { Env } from "../env";
import { ingestEdition } from "../registers/ingest";
import type { EditionFile } from "../registers/sources";
import { REGISTER_SOURCES, type RegisterSource } from "../services/registers/types";
import type { CharityTable } from "../sources/charity-commission/parse";

export { REGISTER_SOURCES };

export async function ingestFile(
  env: Env,
  source: RegisterSource,
  bytes: Uint8Array,
  opts: { fileName: string | null; url: string | null; editionDate: string | null; extraTables?: Partial<Record<CharityTable, Uint8Array>>; onProgress?: (m: string) => void },
) {
  const file: EditionFile = { source, bytes, fileName: opts.fileName, url: opts.url, editionDate: opts.editionDate, extraTables: opts.extraTables };
  return ingestEdition(env, file, { chunkRows: 50_000, onProgress: opts.onProgress });
}
