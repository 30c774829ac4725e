/**
 * GOV.UK publications whose attachment URL changes every edition (the sponsors registers, the HMRC
 * MLR register) are found through the GOV.UK Content API page record: `details.attachments[]`.
 */
import { answeredBadly, unreachable } from "../upstream";
import { RegisterFormatError } from "../format-error";

export interface GovukAttachment {
  /** Absolute URL. */
  url: string;
  fileName: string | null;
  contentType: string;
  updatedAt: string | null;
}

export interface GovukPage {
  pageUrl: string;
  publicUpdatedAt: string | null;
  attachments: GovukAttachment[];
}

interface RawAttachment {
  url?: string;
  filename?: string;
  content_type?: string;
  updated_at?: string;
}

/** A GET that answers 2xx, or `upstream_unavailable` naming the source and what was fetched. */
export async function getOk(fetchImpl: typeof fetch, url: string, source: string, what: string, accept = "*/*"): Promise<Response> {
  let res: Response;
  try {
    res = await fetchImpl(url, { headers: { accept } });
  } catch (e) {
    throw unreachable(source, `${source}: ${what} (GET ${url}) could not be fetched (${(e as Error).message})`, e);
  }
  if (!res.ok) throw answeredBadly(source, res.status, `${source}: ${what} (GET ${url}) answered HTTP ${res.status}`);
  return res;
}

/** `GET {contentApiBase}{pagePath}`: the page's attachments with absolute URLs. A reply that is not JSON is malformed. */
export async function fetchGovukPage(cfg: { contentApiBase: string; pagePath: string; fetchImpl?: typeof fetch }, source: string): Promise<GovukPage> {
  const f = cfg.fetchImpl ?? fetch;
  const pageUrl = `${cfg.contentApiBase.replace(/\/+$/, "")}${cfg.pagePath}`;
  const res = await getOk(f, pageUrl, source, "content API page", "application/json");
  let page: { public_updated_at?: string; details?: { attachments?: RawAttachment[] } };
  try {
    page = await res.json();
  } catch {
    throw new RegisterFormatError(`${source}: the content API page is not JSON`);
  }
  const attachments = (page?.details?.attachments ?? [])
    .filter((a): a is RawAttachment & { url: string } => typeof a?.url === "string" && a.url !== "")
    .map((a) => {
      const url = new URL(a.url, pageUrl).href;
      return {
        url,
        fileName: a.filename || decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "") || null,
        contentType: (a.content_type ?? "").toLowerCase(),
        updatedAt: a.updated_at ?? null,
      };
    });
  return { pageUrl, publicUpdatedAt: page.public_updated_at ?? null, attachments };
}

/** Whether an attachment's file name or URL ends with `ext` (e.g. ".csv"). */
export const hasExtension = (a: GovukAttachment, ext: string) => [a.fileName ?? "", a.url].some((s) => s.toLowerCase().split(/[?#]/)[0].endsWith(ext));
