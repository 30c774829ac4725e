/**
 * Downloads the Charity Commission register extract (TXT flavour): one zip per table,
 * `publicextract.<table>.zip` holding `publicextract.<table>.txt`.
 *
 * Tables are streamed: the zip is inflated as it arrives and the text handed on in pieces, so a table
 * far bigger than a Worker's memory (the `charity` table is ~160 MB unzipped) is never held whole.
 */
import { Unzip, UnzipInflate } from "fflate";
import { answeredBadly, unreachable } from "../upstream";
import { RegisterFormatError } from "../format-error";
import { type CharityTable, extractDateOf } from "./parse";

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

/**
 * The unzipped bytes of one member of a zip that arrives as a stream, yielded as they are inflated.
 * At most one input chunk's output is held at a time. Throws RegisterFormatError when the download is
 * not a zip, lacks the member, or ends before the member does (a truncated download).
 */
export async function* unzipMember(body: ReadableStream<Uint8Array>, member: string, label: string): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let found = false;
  let ended = false;
  let failure: unknown = null;
  const unzip = new Unzip((file) => {
    if (found || file.name.split("/").pop()?.toLowerCase() !== member.toLowerCase()) return;
    found = true;
    file.ondata = (err, data, final) => {
      if (err) failure = err;
      else {
        if (data.length) out.push(data);
        if (final) ended = true;
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      try {
        unzip.push(value ?? new Uint8Array(0), done);
      } catch (e) {
        failure = e;
      }
      if (failure && done) throw new RegisterFormatError(`${label}: the download ended before ${member} did (truncated)`);
      if (failure) throw new RegisterFormatError(`${label}: the download is not a readable zip (${(failure as Error).message ?? failure})`);
      while (out.length) yield out.shift()!;
      if (ended || done) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  if (!found) throw new RegisterFormatError(`${label}: the download is not a zip holding ${member}`);
  if (!ended) throw new RegisterFormatError(`${label}: the download ended before ${member} did (truncated)`);
}

/** Opens a fresh stream of one table's unzipped text. Each call downloads the table again. */
export function charityTableStream(cfg: CharityClientConfig, table: CharityTable): () => AsyncGenerator<Uint8Array> {
  return async function* () {
    yield* unzipMember(await download(cfg, table), `publicextract.${table}.txt`, `charity: ${table}`);
  };
}

/** The extract's date (`date_of_extract` of the first row of `charity`); reads only the start of the download. */
export const charityExtractDate = (cfg: CharityClientConfig): Promise<string | null> => extractDateOf(charityTableStream(cfg, "charity"));
