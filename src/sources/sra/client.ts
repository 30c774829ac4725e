/** Downloads the whole SRA organisation register (Data Share API `organisation/GetAll`). */
import { ApiError } from "../../platform/errors";
import type { FetchedEdition } from "../edition";

/** The API carries no edition date, so the edition is the UTC day of the fetch. */
export async function fetchSraOrganisations(cfg: { baseUrl: string; apiKey?: string; fetchImpl?: typeof fetch }): Promise<FetchedEdition> {
  if (!cfg.apiKey) throw new ApiError("upstream_unavailable", "SRA API key not configured");
  const url = `${cfg.baseUrl.replace(/\/+$/, "")}/organisation/GetAll`;
  let res: Response;
  try {
    res = await (cfg.fetchImpl ?? fetch)(url, { headers: { "Ocp-Apim-Subscription-Key": cfg.apiKey, accept: "application/json" } });
  } catch (e) {
    throw new ApiError("upstream_unavailable", `sra: GetAll could not be fetched (${(e as Error).message})`);
  }
  if (!res.ok) throw new ApiError("upstream_unavailable", `sra: GetAll answered HTTP ${res.status}`);
  return { url, fileName: null, editionDate: new Date().toISOString().slice(0, 10), bytes: new Uint8Array(await res.arrayBuffer()) };
}
