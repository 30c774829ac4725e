/**
 * Bank of England Bank Rate (IADB series IUDBEDR), read by the daily cron into D1 so the late-payment
 * calculation knows rates decided after the repo's table was written. Base URL is configuration
 * (`BOE_IADB_URL`); the query asks for the series from a start date to now, as CSV.
 */
import { answeredBadly, unreachable } from "../upstream";
import { parseBankRateCsv, type RateObservation } from "./parse";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const iadbFrom = (iso: string) => `${iso.slice(8, 10)}/${MONTHS[Number(iso.slice(5, 7)) - 1]}/${iso.slice(0, 4)}`;

export async function fetchBankRate(cfg: { url: string; from: string; fetchImpl?: typeof fetch; timeoutMs?: number }): Promise<RateObservation[]> {
  const u = new URL(cfg.url);
  u.searchParams.set("csv.x", "yes");
  u.searchParams.set("SeriesCodes", "IUDBEDR");
  u.searchParams.set("Datefrom", iadbFrom(cfg.from));
  u.searchParams.set("Dateto", "now");
  u.searchParams.set("CSVF", "TN");
  u.searchParams.set("UsingCodes", "Y");
  let res: Response;
  try {
    res = await (cfg.fetchImpl ?? fetch)(u.href, { headers: { Accept: "text/csv, */*" }, signal: AbortSignal.timeout(cfg.timeoutMs ?? 20_000) });
  } catch (e) {
    throw unreachable("boe", `Bank of England could not be reached: ${String(e)}`, e);
  }
  if (!res.ok) throw answeredBadly("boe", res.status, `Bank of England answered HTTP ${res.status}`);
  return parseBankRateCsv(await res.text());
}
