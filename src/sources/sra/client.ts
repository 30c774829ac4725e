/** Downloads the whole SRA organisation register (Data Share API `organisation/GetAll`). */
import { answeredBadly, notConfigured, unreachable } from "../upstream";
import { chunksOf } from "../streams";

export interface SraClientConfig {
  baseUrl: string;
  apiKey?: string;
  fetchImpl?: typeof fetch;
}

/** The register as a stream: the reply's body is read as it arrives (it runs to tens of MB). */
export interface SraEdition {
  url: string;
  fileName: null;
  /** The API carries no edition date, so the edition is the UTC day of the fetch. */
  editionDate: string;
  /** The reply's bytes: the first call reads the reply already fetched, later calls fetch again. */
  open(): AsyncGenerator<Uint8Array>;
}

const getAllUrl = (cfg: SraClientConfig) => `${cfg.baseUrl.replace(/\/+$/, "")}/organisation/GetAll`;

async function getAll(cfg: SraClientConfig): Promise<ReadableStream<Uint8Array>> {
  if (!cfg.apiKey) throw notConfigured("sra", "SRA API key");
  let res: Response;
  try {
    res = await (cfg.fetchImpl ?? fetch)(getAllUrl(cfg), { headers: { "Ocp-Apim-Subscription-Key": cfg.apiKey, accept: "application/json" } });
  } catch (e) {
    throw unreachable("sra", `sra: GetAll could not be fetched (${(e as Error).message})`, e);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw answeredBadly("sra", res.status, `sra: GetAll answered HTTP ${res.status}`);
  }
  return res.body;
}

/** Asks for GetAll now (so an upstream failure shows at once) and hands back its body to stream. */
export async function fetchSraOrganisations(cfg: SraClientConfig): Promise<SraEdition> {
  let first: ReadableStream<Uint8Array> | null = await getAll(cfg);
  return {
    url: getAllUrl(cfg),
    fileName: null,
    editionDate: new Date().toISOString().slice(0, 10),
    async *open() {
      const body = first ?? (await getAll(cfg));
      first = null;
      yield* chunksOf(body);
    },
  };
}
