/**
 * Values the readers take out of sentences: dates (as written in UK documents) and sums of money. Pure.
 */

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH_RE = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const monthOf = (s: string) => MONTHS.findIndex((m) => m.startsWith(s.toLowerCase().slice(0, 3))) + 1;
const pad = (n: number) => String(n).padStart(2, "0");

export interface DateFound {
  /** `YYYY-MM-DD`, or `YYYY-MM` / `YYYY` when the text gives no day / month. */
  iso: string;
  precision: "day" | "month" | "year";
  /** As written. */
  text: string;
  index: number;
}

const valid = (y: number, m: number, d: number) => {
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
};

/**
 * Dates in a text, in order: "23 February 2026", "23rd Feb. 2026", "February 23, 2026", "23/02/2026", "23.02.26",
 * "2026-02-23", and month-year "February 2026". Day-first for numeric dates (UK). Years alone are not taken (a
 * year is too often a number).
 */
export function datesIn(text: string): DateFound[] {
  const out: DateFound[] = [];
  // The characters already in a date (a date found is never overlapped by another): checked per character of the
  // match, not per date found so far (a sentence of 60,000 dates took minutes).
  const taken = new Uint8Array(text.length);
  const add = (m: RegExpExecArray, iso: string, precision: DateFound["precision"]) => {
    const a = m.index,
      b = m.index + m[0].length;
    for (let i = a; i < b; i++) if (taken[i]) return;
    taken.fill(1, a, b);
    out.push({ iso, precision, text: m[0].trim(), index: a });
  };
  const year = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));
  const patterns: [RegExp, (m: RegExpExecArray) => [number, number, number] | null][] = [
    [/\b(\d{4})-(\d{2})-(\d{2})\b/g, (m) => [Number(m[1]), Number(m[2]), Number(m[3])]],
    [new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+${MONTH_RE}\.?,?\s+(\d{4})\b`, "gi"), (m) => [Number(m[3]), monthOf(m[2]), Number(m[1])]],
    [new RegExp(String.raw`\b${MONTH_RE}\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, "gi"), (m) => [Number(m[3]), monthOf(m[1]), Number(m[2])]],
    [/\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b/g, (m) => [year(m[3]), Number(m[2]), Number(m[1])]],
  ];
  for (const [re, parts] of patterns)
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const p = parts(m);
      if (p && valid(p[0], p[1], p[2])) add(m, `${p[0]}-${pad(p[1])}-${pad(p[2])}`, "day");
    }
  const monthYear = new RegExp(String.raw`\b${MONTH_RE}\.?,?\s+(\d{4})\b`, "gi");
  for (let m = monthYear.exec(text); m; m = monthYear.exec(text)) {
    const y = Number(m[2]);
    if (y >= 1990 && y <= 2100) add(m, `${y}-${pad(monthOf(m[1]))}`, "month");
  }
  return out.sort((a, b) => a.index - b.index);
}

/** The first full date (day precision) in a text, `YYYY-MM-DD`. */
export const firstDate = (text: string): string | null => datesIn(text).find((d) => d.precision === "day")?.iso ?? null;

export interface MoneyFound {
  /** In pounds (negative for a bracketed or minus figure). */
  amount: number;
  text: string;
  index: number;
}

/**
 * Sums of money in a text: "£1,234,567", "£1.2m", "£12k", "£(4,500)", "-£300", "£2.5 million", and, with `thousands`,
 * figures of a table stated in £000 (multiplied by 1,000).
 */
export function moneyIn(text: string, opts: { thousands?: boolean } = {}): MoneyFound[] {
  const out: MoneyFound[] = [];
  const re = /(-|−|\()?\s?£\s?(\()?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(\))?\s?(m\b|mn\b|million\b|bn\b|billion\b|k\b|thousand\b)?/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let amount = Number(m[3].replace(/,/g, "") + (m[4] ?? ""));
    const unit = (m[6] ?? "").toLowerCase();
    if (unit === "m" || unit === "mn" || unit === "million") amount *= 1e6;
    else if (unit === "bn" || unit === "billion") amount *= 1e9;
    else if (unit === "k" || unit === "thousand") amount *= 1e3;
    else if (opts.thousands) amount *= 1e3;
    const negative = m[1] === "-" || m[1] === "−" || ((m[1] === "(" || m[2] === "(") && m[5] === ")");
    out.push({ amount: Math.round((negative ? -amount : amount) * 100) / 100, text: m[0].trim(), index: m.index });
  }
  return out;
}

/** Whole months between two ISO dates (`YYYY-MM-DD` or `YYYY-MM`), b after a. */
export function monthsBetween(a: string, b: string): number {
  const [ya, ma, da = 1] = a.split("-").map(Number);
  const [yb, mb, db = 1] = b.split("-").map(Number);
  return (yb - ya) * 12 + (mb - ma) - (db < da ? 1 : 0);
}
