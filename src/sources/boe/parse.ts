/**
 * Bank of England Bank Rate observations (the daily series IUDBEDR), as published:
 * - the Bank's IADB CSV (`DATE,IUDBEDR`, dates written `02 Jan 25` or `02 Jan 2025`, one row a business day);
 * - or a plain `date,rate` file with ISO dates (the public-domain mirror of the same series, whose rows
 *   may be out of order and repeat a rate: see shared/formats/late-payment-interest.md).
 * Parsed by header, never by position. Pure: no I/O.
 */
import { RegisterFormatError } from "../format-error";

export interface RateObservation {
  date: string;
  rate: number;
}

const MONTHS: Record<string, string> = {
  jan: "01",
  feb: "02",
  mar: "03",
  apr: "04",
  may: "05",
  jun: "06",
  jul: "07",
  aug: "08",
  sep: "09",
  oct: "10",
  nov: "11",
  dec: "12",
};

/** `02 Jan 25`, `02 Jan 2025`, `2025-01-02` → `2025-01-02`; anything else → null. */
export function iadbDate(raw: string): string | null {
  const s = raw.trim().replace(/^"|"$/g, "");
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const m = /^(\d{1,2})[\s-]([A-Za-z]{3})[a-z]*[\s-](\d{2}|\d{4})$/.exec(s);
  const month = m && MONTHS[m[2].toLowerCase()];
  if (!m || !month) return null;
  // Two-digit years: the series starts in 1975, so 75–99 are 19xx and the rest 20xx.
  const year = m[3].length === 4 ? m[3] : `${Number(m[3]) >= 75 ? "19" : "20"}${m[3]}`;
  const iso = `${year}-${month}-${m[1].padStart(2, "0")}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : null;
}

/** Every observation of the file, sorted by date (the last row of a date wins). */
export function parseBankRateCsv(text: string): RateObservation[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const header = (lines[0] ?? "").split(",").map((h) => h.trim().replace(/^"|"$/g, "").toLowerCase());
  const dateCol = header.findIndex((h) => h === "date");
  const rateCol = header.findIndex((h) => h === "iudbedr" || h === "rate" || h === "bank rate");
  if (dateCol < 0 || rateCol < 0) throw new RegisterFormatError("Bank Rate: the header has no DATE and IUDBEDR (or date and rate) columns");
  const byDate = new Map<string, number>();
  for (const line of lines.slice(1)) {
    const cells = line.split(",");
    const date = iadbDate(cells[dateCol] ?? "");
    const rate = Number((cells[rateCol] ?? "").trim().replace(/^"|"$/g, ""));
    if (!date || cells[rateCol] === undefined || cells[rateCol].trim() === "" || !Number.isFinite(rate) || rate < 0 || rate > 30) continue;
    byDate.set(date, rate);
  }
  if (!byDate.size) throw new RegisterFormatError("Bank Rate: the file holds no dated rates");
  return [...byDate].map(([date, rate]) => ({ date, rate })).sort((a, b) => (a.date < b.date ? -1 : 1));
}
