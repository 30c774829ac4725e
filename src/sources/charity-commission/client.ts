/**
 * Downloads one table of the Charity Commission register extract (TXT flavour): one zip per
 * table, `publicextract.<table>.zip` holding `publicextract.<table>.txt`.
 */
import { unzipSync } from "fflate";
import { ApiError } from "../../platform/errors";
import { RegisterFormatError } from "../format-error";
import type { FetchedEdition } from "../edition";
import type { CharityTable } from "./parse";

const EXTRACT_DATE = /^(\d{4}-\d{2}-\d{2})/;

/**
 * `GET {baseUrl}/publicextract.{table}.zip` (baseUrl e.g. `…/data/txt`), unzipped. `bytes` is the
 * TSV text; `editionDate` is the `date_of_extract` of its first data row (the name carries no date).
 */
export async function fetchCharityTable(cfg: { baseUrl: string; fetchImpl?: typeof fetch }, table: CharityTable): Promise<FetchedEdition> {
  const url = `${cfg.baseUrl.replace(/\/+$/, "")}/publicextract.${table}.zip`;
  const fileName = `publicextract.${table}.txt`;
  let res: Response;
  try {
    res = await (cfg.fetchImpl ?? fetch)(url);
  } catch (e) {
    throw new ApiError("upstream_unavailable", `charity: ${table} could not be fetched (${(e as Error).message})`);
  }
  if (!res.ok) throw new ApiError("upstream_unavailable", `charity: ${table} answered HTTP ${res.status}`);
  const zip = new Uint8Array(await res.arrayBuffer());
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (f) => f.name.split("/").pop()?.toLowerCase() === fileName.toLowerCase() });
  } catch {
    throw new RegisterFormatError(`charity: ${table} download is not a zip`);
  }
  const bytes = Object.values(files)[0];
  if (!bytes) throw new RegisterFormatError(`charity: ${table} zip has no ${fileName}`);
  return { url, fileName, editionDate: extractDate(bytes), bytes };
}

/** `date_of_extract` is the first column of every table; read it from the second line. */
function extractDate(bytes: Uint8Array): string | null {
  const lines = new TextDecoder().decode(bytes.subarray(0, 8192)).split("\n", 2);
  return EXTRACT_DATE.exec(lines[1] ?? "")?.[1] ?? null;
}
