/**
 * Finds and downloads the current edition of the HMRC MLR supervised business register: the
 * GOV.UK guidance page's Content API record lists the attachment (ODS since ~2024, CSV before).
 */
import type { FetchedEdition } from "../edition";
import { RegisterFormatError } from "../format-error";
import { fetchGovukPage, getOk, hasExtension } from "../govuk/contentApi";

export interface HmrcMlrClientConfig {
  /** GOV.UK Content API base, e.g. `https://www.gov.uk/api/content`. */
  contentApiBase: string;
  /** The guidance page path, e.g. `/guidance/money-laundering-regulations-supervised-business-register`. */
  pagePath: string;
  fetchImpl?: typeof fetch;
}

const ODS_TYPE = "application/vnd.oasis.opendocument.spreadsheet";
/** A date written into a file name: 2026-09-30, 2026_09_30 or 20260930. */
const NAME_DATE = /(20\d{2})[-_]?(0[1-9]|1[0-2])[-_]?(0[1-9]|[12]\d|3[01])/;

export async function fetchHmrcMlrEdition(cfg: HmrcMlrClientConfig): Promise<FetchedEdition> {
  const page = await fetchGovukPage(cfg, "hmrc-mlr");
  const att =
    page.attachments.find((a) => a.contentType === ODS_TYPE || hasExtension(a, ".ods")) ??
    page.attachments.find((a) => a.contentType === "text/csv" || hasExtension(a, ".csv"));
  if (!att) throw new RegisterFormatError(`hmrc-mlr: no ODS or CSV attachment on ${cfg.pagePath}`);
  const bytes = new Uint8Array(await (await getOk(cfg.fetchImpl ?? fetch, att.url, "hmrc-mlr", "register attachment")).arrayBuffer());
  // Edition date, most specific first: the attachment's own updated_at (when GOV.UK gives one), else the
  // page's public_updated_at (bumped when the monthly file is replaced), else a date in the file name.
  // GOV.UK timestamps carry the London offset (e.g. 2026-09-30T09:15:00.000+01:00), so their first ten
  // characters are the London date.
  const stamp = att.updatedAt ?? page.publicUpdatedAt;
  const m = att.fileName ? NAME_DATE.exec(att.fileName) : null;
  const editionDate = stamp && /^\d{4}-\d{2}-\d{2}/.test(stamp) ? stamp.slice(0, 10) : m ? `${m[1]}-${m[2]}-${m[3]}` : null;
  return { url: att.url, fileName: att.fileName, editionDate, bytes };
}
