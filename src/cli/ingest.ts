/**
 * Node entry for `npm run ingest` (bundled by scripts/lib.mjs): the same pipeline the Worker's queue
 * consumer runs, pointed at the local D1 database that `npm start` serves.
 */
import { resetRegister } from "../db/registers";
import type { Env } from "../env";
import { ingestEdition } from "../registers/ingest";
import type { EditionFile } from "../registers/sources";
import { REGISTER_SOURCES, type RegisterSource } from "../services/registers/types";
import { type CharityTable, type CharityTableInput, extractDateOf } from "../sources/charity-commission/parse";

export { REGISTER_SOURCES };
export { unzipMember } from "../sources/charity-commission/client";

export async function ingestFile(
  env: Env,
  source: RegisterSource,
  bytes: Uint8Array | null,
  opts: {
    fileName: string | null;
    url: string | null;
    editionDate: string | null;
    /** Charity: the extract's tables, as streams opened on demand (the files are large). */
    tables?: Partial<Record<CharityTable, CharityTableInput>>;
    onProgress?: (m: string) => void;
    /** Our own sample data (npm start). */
    sample?: boolean;
  },
) {
  let editionDate = opts.editionDate;
  if (source === "charity" && !editionDate) {
    const main = opts.tables?.charity ?? bytes;
    if (main) editionDate = await extractDateOf(main);
  }
  const file: EditionFile = { source, bytes: bytes ?? undefined, tables: opts.tables, fileName: opts.fileName, url: opts.url, editionDate, sample: opts.sample };
  return ingestEdition(env, file, { chunkRows: 50_000, onProgress: opts.onProgress });
}

/** Empties registers (`npm run reset`): each source's entries, changes and runs. */
export async function resetRegisters(env: Env, sources: RegisterSource[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const s of sources) out[s] = await resetRegister(env.DB, s);
  return out;
}
