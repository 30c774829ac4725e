/**
 * Calendar dates as the registers give them ("YYYY-MM-DD"), in one place: what counts as a date, and the days between
 * two. Companies House writes "9999-12-31" for a date that is open (an appointment's verification with no end), which
 * is never a date of an event.
 */
const DAY_MS = 86_400_000;
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date "YYYY-MM-DD" (2026-02-29 is not one), other than Companies House's open date in year 9999. */
export function isDate(d: string | null | undefined): d is string {
  const m = d ? SHAPE.exec(d) : null;
  if (!m || m[1] === "9999") return false;
  const t = new Date(0);
  t.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3])); // Date.UTC would read years 0–99 as 1900–1999
  return t.getUTCFullYear() === Number(m[1]) && t.getUTCMonth() === Number(m[2]) - 1 && t.getUTCDate() === Number(m[3]);
}

/**
 * Whole calendar days from `from` to `to` (negative when `to` is earlier). Each is a date "YYYY-MM-DD" or a timestamp
 * that starts with one, whose date is taken (so "2026-01-01T23:00:00Z" to "2026-01-02" is one day). NaN when either
 * does not start with a date.
 */
export function daysBetween(from: string, to: string): number {
  const day = (s: string) => (/^\d{4}-\d{2}-\d{2}/.test(s) ? Date.parse(`${s.slice(0, 10)}T00:00:00Z`) : Number.NaN);
  return Math.round((day(to) - day(from)) / DAY_MS);
}

/** The date `days` after the date `iso` ("YYYY-MM-DD"; `days` may be negative). */
export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
