/**
 * Downloads the FCDO UK Sanctions List (the single authoritative UK list since 28 January 2026; updated
 * whenever designations change) from SANCTIONS_LIST_URL: the CSV (about 10 MB), read whole.
 */
import { answeredBadly, unreachable } from "../upstream";

const SOURCE = "uk-sanctions-list";

export async function fetchUkSanctionsList(cfg: { url: string; fetchImpl?: typeof fetch }): Promise<{ bytes: Uint8Array; fileName: string; url: string }> {
  let res: Response;
  try {
    res = await (cfg.fetchImpl ?? fetch)(cfg.url);
  } catch (e) {
    throw unreachable(SOURCE, `sanctions: ${cfg.url} could not be fetched (${(e as Error).message})`, e);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw answeredBadly(SOURCE, res.status, `sanctions: the UK Sanctions List answered HTTP ${res.status}`);
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { bytes, fileName: new URL(cfg.url).pathname.split("/").pop() || "UK-Sanctions-List.csv", url: cfg.url };
}
