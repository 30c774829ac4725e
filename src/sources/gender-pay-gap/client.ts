/**
 * Downloads one reporting year of gender pay gap data: `${GENDER_PAY_GAP_URL}/${year}` (the service's
 * `/viewing/download-data/2021` is the 2021 to 2022 file, a few MB of CSV), read whole.
 */
import type { FetchedEdition } from "../edition";
import { answeredBadly, unreachable } from "../upstream";

const SOURCE = "gender-pay-gap";

/** The name the service gives a year's file when downloaded from its page. */
export const yearFileName = (year: number) => `UK Gender Pay Gap Data - ${year} to ${year + 1}.csv`;

/**
 * One year's CSV. A year the service does not have yet (404, as a reporting year that has only just
 * begun may be) is null when `optional`, else an error like any other answer but 200.
 */
export async function fetchGenderPayGapYear(cfg: {
  baseUrl: string;
  year: number;
  optional?: boolean;
  fetchImpl?: typeof fetch;
}): Promise<FetchedEdition | null> {
  const url = `${cfg.baseUrl.replace(/\/+$/, "")}/${cfg.year}`;
  let res: Response;
  try {
    res = await (cfg.fetchImpl ?? fetch)(url, { headers: { accept: "text/csv, */*" } });
  } catch (e) {
    throw unreachable(SOURCE, `gender-pay-gap: ${url} could not be fetched (${(e as Error).message})`, e);
  }
  if (!res.ok) {
    await res.body?.cancel();
    if (res.status === 404 && cfg.optional) return null;
    throw answeredBadly(SOURCE, res.status, `gender-pay-gap: the ${cfg.year} to ${cfg.year + 1} file answered HTTP ${res.status}`);
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { url, fileName: yearFileName(cfg.year), editionDate: null, bytes };
}
