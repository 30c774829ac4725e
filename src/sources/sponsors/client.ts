/**
 * Finds and downloads the current sponsors register edition. The attachment URL changes every
 * edition, so it is discovered each time through the GOV.UK Content API page record.
 */
import type { FetchedEdition } from "../edition";
import { RegisterFormatError } from "../format-error";
import { fetchGovukPage, getOk, hasExtension } from "../govuk/contentApi";
import { sponsorsEditionDateFromFileName } from "./parse";

/**
 * `GET {contentApiBase}{pagePath}` (e.g. `https://www.gov.uk/api/content` +
 * `/government/publications/register-of-licensed-sponsors-workers`), then the CSV attachment.
 * When a page lists several CSVs, the one with the latest date in its name wins.
 */
export async function fetchSponsorsEdition(cfg: { contentApiBase: string; pagePath: string; fetchImpl?: typeof fetch }): Promise<FetchedEdition> {
  const page = await fetchGovukPage(cfg, "sponsors");
  const csvs = page.attachments
    .filter((a) => a.contentType.startsWith("text/csv") || hasExtension(a, ".csv"))
    .map((a) => ({
      url: a.url,
      fileName: a.fileName,
      editionDate: (a.fileName && sponsorsEditionDateFromFileName(a.fileName)) || sponsorsEditionDateFromFileName(a.url),
    }))
    .sort((a, b) => (b.editionDate ?? "").localeCompare(a.editionDate ?? ""));
  const pick = csvs[0];
  if (!pick) throw new RegisterFormatError("sponsors: the content API page lists no CSV attachment");
  const bytes = new Uint8Array(await (await getOk(cfg.fetchImpl ?? fetch, pick.url, "sponsors", "CSV attachment", "text/csv, */*")).arrayBuffer());
  return { ...pick, bytes };
}
