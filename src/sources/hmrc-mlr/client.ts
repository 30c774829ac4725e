/**
 * Finds and downloads the current edition of the HMRC MLR supervised business register: the
 * GOV.UK guidance page's Content API record lists the attachment (ODS since ~2024, CSV before).
 */
import { ApiError } from "../../platform/errors";
import type { FetchedEdition } from "../edition";

export interface HmrcMlrClientConfig {
  /** GOV.UK Content API base, e.g. `https://www.gov.uk/api/content`. */
  contentApiBase: string;
  /** The guidance page path, e.g. `/guidance/money-laundering-regulations-supervised-business-register`. */
  pagePath: string;
  fetchImpl?: typeof fetch;
}

interface Attachment {
  url?: string;
  filename?: string;
  content_type?: string;
  updated_at?: string;
}

const ODS_TYPE = "application/vnd.oasis.opendocument.spreadsheet";
/** A date written into a file name: 2026-09-30, 2026_09_30 or 20260930. */
const NAME_DATE = /(20\d{2})[-_]?(0[1-9]|1[0-2])[-_]?(0[1-9]|[12]\d|3[01])/;

const fail = (what: string): never => {
  throw new ApiError("upstream_unavailable", `hmrc-mlr: ${what}`);
};

async function get(fetchImpl: typeof fetch, url: string): Promise<Response> {
  const res = await fetchImpl(url).catch((e: unknown) => fail(`GET ${url} failed (${e instanceof Error ? e.message : String(e)})`));
  if (!res.ok) fail(`GET ${url} answered ${res.status}`);
  return res;
}

export async function fetchHmrcMlrEdition(cfg: HmrcMlrClientConfig): Promise<FetchedEdition> {
  const fetchImpl = cfg.fetchImpl ?? fetch;
  const pageUrl = cfg.contentApiBase.replace(/\/+$/, "") + cfg.pagePath;
  const page = (await (await get(fetchImpl, pageUrl)).json().catch(() => fail("the Content API answer is not JSON"))) as {
    public_updated_at?: string;
    details?: { attachments?: Attachment[] };
  };
  const attachments = (page.details?.attachments ?? []).filter((a) => a.url);
  const ext = (a: Attachment, e: string) => (a.filename ?? a.url ?? "").toLowerCase().split("?")[0].endsWith(e);
  const att =
    attachments.find((a) => a.content_type === ODS_TYPE || ext(a, ".ods")) ??
    attachments.find((a) => a.content_type === "text/csv" || ext(a, ".csv")) ??
    fail(`no ODS or CSV attachment on ${cfg.pagePath}`);
  const url = new URL(att.url!, pageUrl).href;
  const bytes = new Uint8Array(await (await get(fetchImpl, url)).arrayBuffer());
  const fileName = att.filename ?? (decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "") || null);
  // Edition date, most specific first: the attachment's own updated_at (when GOV.UK gives one), else the
  // page's public_updated_at (bumped when the monthly file is replaced), else a date in the file name.
  // GOV.UK timestamps carry the London offset (e.g. 2026-09-30T09:15:00.000+01:00), so their first ten
  // characters are the London date.
  const stamp = att.updated_at ?? page.public_updated_at;
  const m = fileName ? NAME_DATE.exec(fileName) : null;
  const editionDate = stamp && /^\d{4}-\d{2}-\d{2}/.test(stamp) ? stamp.slice(0, 10) : m ? `${m[1]}-${m[2]}-${m[3]}` : null;
  return { url, fileName, editionDate, bytes };
}
