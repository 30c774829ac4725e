/**
 * Finds and downloads the current sponsors register edition. The attachment URL changes every
 * edition, so it is discovered each time through the GOV.UK Content API page record.
 */
import { ApiError } from "../../platform/errors";
import type { FetchedEdition } from "../edition";
import { RegisterFormatError } from "../format-error";
import { sponsorsEditionDateFromFileName } from "./parse";

interface Attachment {
  url?: string;
  filename?: string;
  content_type?: string;
}

async function get(fetchImpl: typeof fetch, url: string, what: string, accept: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetchImpl(url, { headers: { accept } });
  } catch (e) {
    throw new ApiError("upstream_unavailable", `sponsors: ${what} could not be fetched (${(e as Error).message})`);
  }
  if (!res.ok) throw new ApiError("upstream_unavailable", `sponsors: ${what} answered HTTP ${res.status}`);
  return res;
}

/**
 * `GET {contentApiBase}{pagePath}` (e.g. `https://www.gov.uk/api/content` +
 * `/government/publications/register-of-licensed-sponsors-workers`), then the CSV attachment.
 * When a page lists several CSVs, the one with the latest date in its name wins.
 */
export async function fetchSponsorsEdition(cfg: { contentApiBase: string; pagePath: string; fetchImpl?: typeof fetch }): Promise<FetchedEdition> {
  const f = cfg.fetchImpl ?? fetch;
  const pageUrl = `${cfg.contentApiBase.replace(/\/+$/, "")}${cfg.pagePath}`;
  let page: { details?: { attachments?: Attachment[] } };
  try {
    page = await (await get(f, pageUrl, "content API page", "application/json")).json();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new RegisterFormatError("sponsors: the content API page is not JSON");
  }
  const csvs = (page?.details?.attachments ?? [])
    .filter((a) => a?.url && (a.content_type?.toLowerCase().startsWith("text/csv") || /\.csv(?:$|[?#])/i.test(a.url)))
    .map((a) => {
      const url = new URL(a.url as string, pageUrl).href;
      const fileName = a.filename || decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "") || null;
      return { url, fileName, editionDate: (fileName && sponsorsEditionDateFromFileName(fileName)) || sponsorsEditionDateFromFileName(url) };
    })
    .sort((a, b) => (b.editionDate ?? "").localeCompare(a.editionDate ?? ""));
  const pick = csvs[0];
  if (!pick) throw new RegisterFormatError("sponsors: the content API page lists no CSV attachment");
  const bytes = new Uint8Array(await (await get(f, pick.url, "CSV attachment", "text/csv, */*")).arrayBuffer());
  return { ...pick, bytes };
}

