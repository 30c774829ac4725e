/**
 * Downloads the Charity Commission register extract (TXT flavour): one zip per table,
 * `publicextract.<table>.zip` holding `publicextract.<table>.txt`.
 *
 * Tables are streamed: the zip is inflated as it arrives and the text handed on in pieces, so a table
 * far bigger than a Worker's memory (the `charity` table is ~160 MB unzipped) is never held whole.
 */
import { answeredBadly, unreachable } from "../upstream";
import { unzipMember } from "../zip";
import { type CharityTable, extractDateOf } from "./parse";

export { unzipMember };

export interface CharityClientConfig {
  baseUrl: string;
  fetchImpl?: typeof fetch;
}

export const charityTableUrl = (cfg: CharityClientConfig, table: CharityTable) => `${cfg.baseUrl.replace(/\/+$/, "")}/publicextract.${table}.zip`;

async function download(cfg: CharityClientConfig, table: CharityTable): Promise<ReadableStream<Uint8Array>> {
  let res: Response;
  try {
    res = await (cfg.fetchImpl ?? fetch)(charityTableUrl(cfg, table));
  } catch (e) {
    throw unreachable("charity", `charity: ${table} could not be fetched (${(e as Error).message})`, e);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw answeredBadly("charity", res.status, `charity: ${table} answered HTTP ${res.status}`);
  }
  return res.body;
}

/** Opens a fresh stream of one table's unzipped text. Each call downloads the table again. */
export function charityTableStream(cfg: CharityClientConfig, table: CharityTable): () => AsyncGenerator<Uint8Array> {
  return async function* () {
    yield* unzipMember(await download(cfg, table), `publicextract.${table}.txt`, `charity: ${table}`);
  };
}

/** The extract's date (`date_of_extract` of the first row of `charity`); reads only the start of the download. */
export const charityExtractDate = (cfg: CharityClientConfig): Promise<string | null> => extractDateOf(charityTableStream(cfg, "charity"));
