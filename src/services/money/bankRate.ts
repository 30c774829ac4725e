/**
 * Bank of England Bank Rate: every change since operational independence (6 May 1997), so the
 * rate in force on any statutory reference date from 30 June 1997 onwards can be read off.
 * Later changes are MPC decisions; the table is complete up to BANK_RATE_KNOWN_THROUGH.
 */
import { InputError } from "../../shared/errors";

export const BANK_RATE_SOURCE = "Bank of England Bank Rate history (IADB series IUDBEDR)";
export const BANK_RATE_SOURCE_RECENT = "Bank of England Bank Rate series IUDBEDR, read daily";
/** Last MPC decision confirmed (held at 3.75%). Dates after this are past the table. */
export const BANK_RATE_KNOWN_THROUGH = "2026-02-05";

/** [date the new rate took effect, Bank Rate %], sorted by date, real changes only. */
export const BANK_RATE_CHANGES: readonly (readonly [string, number])[] = [
  ["1997-05-06", 6.25],
  ["1997-06-06", 6.5],
  ["1997-07-10", 6.75],
  ["1997-08-07", 7],
  ["1997-11-06", 7.25],
  ["1998-06-04", 7.5],
  ["1998-10-08", 7.25],
  ["1998-11-05", 6.75],
  ["1998-12-10", 6.25],
  ["1999-01-07", 6],
  ["1999-02-04", 5.5],
  ["1999-04-08", 5.25],
  ["1999-06-10", 5],
  ["1999-09-08", 5.25],
  ["1999-11-04", 5.5],
  ["2000-01-13", 5.75],
  ["2000-02-10", 6],
  ["2001-02-08", 5.75],
  ["2001-04-05", 5.5],
  ["2001-05-10", 5.25],
  ["2001-08-02", 5],
  ["2001-09-18", 4.75],
  ["2001-10-04", 4.5],
  ["2001-11-08", 4],
  ["2003-02-06", 3.75],
  ["2003-07-10", 3.5],
  ["2003-11-06", 3.75],
  ["2004-02-05", 4],
  ["2004-05-06", 4.25],
  ["2004-06-10", 4.5],
  ["2004-08-05", 4.75],
  ["2005-08-04", 4.5],
  ["2006-08-03", 4.75],
  ["2006-11-09", 5],
  ["2007-01-11", 5.25],
  ["2007-05-10", 5.5],
  ["2007-07-05", 5.75],
  ["2007-12-06", 5.5],
  ["2008-02-07", 5.25],
  ["2008-04-10", 5],
  ["2008-10-08", 4.5],
  ["2008-11-06", 3],
  ["2008-12-04", 2],
  ["2009-01-08", 1.5],
  ["2009-02-05", 1],
  ["2009-03-05", 0.5],
  ["2016-08-04", 0.25],
  ["2017-11-02", 0.5],
  ["2018-08-02", 0.75],
  ["2020-03-11", 0.25],
  ["2020-03-19", 0.1],
  ["2021-12-16", 0.25],
  ["2022-02-03", 0.5],
  ["2022-03-17", 0.75],
  ["2022-05-05", 1],
  ["2022-06-16", 1.25],
  ["2022-08-04", 1.75],
  ["2022-09-22", 2.25],
  ["2022-11-03", 3],
  ["2022-12-15", 3.5],
  ["2023-02-02", 4],
  ["2023-03-23", 4.25],
  ["2023-05-11", 4.5],
  ["2023-06-22", 5],
  ["2023-08-03", 5.25],
  ["2024-08-01", 5],
  ["2024-11-07", 4.75],
  ["2025-02-06", 4.5],
  ["2025-05-08", 4.25],
  ["2025-08-07", 4],
  ["2025-12-18", 3.75],
];

export const BANK_RATE_FROM = BANK_RATE_CHANGES[0][0];

/** One source of Bank Rate: its changes and the span it knows (from its first change to `knownThrough`). */
export interface BankRateTable {
  changes: readonly (readonly [string, number])[];
  knownThrough: string;
  source: string;
}

/** The table kept in the repo: the seed, and the fallback when the daily read of the Bank's series is not there. */
export const REPO_BANK_RATE: BankRateTable = { changes: BANK_RATE_CHANGES, knownThrough: BANK_RATE_KNOWN_THROUGH, source: BANK_RATE_SOURCE };

/** The changes of rate in a series of observations (sorted by date): repeated rates are no change. */
export function changesOf(observations: readonly { date: string; rate: number }[]): [string, number][] {
  const out: [string, number][] = [];
  for (const o of observations) if (!out.length || out[out.length - 1][1] !== o.rate) out.push([o.date, o.rate]);
  return out;
}

/** The rate in force on `date` from the first table that knows it, with that table's source; null when none does. */
export function rateFrom(tables: readonly BankRateTable[], date: string): { rate: number; source: string } | null {
  for (const t of tables) {
    if (!t.changes.length || date < t.changes[0][0] || date > t.knownThrough) continue;
    let rate = t.changes[0][1];
    for (const [from, pct] of t.changes) {
      if (from > date) break;
      rate = pct;
    }
    return { rate, source: t.source };
  }
  return null;
}

/** Bank Rate % in force on `date` (YYYY-MM-DD); a change takes effect on its own date. */
export function bankRateOn(date: string): number {
  if (date < BANK_RATE_FROM || date > BANK_RATE_KNOWN_THROUGH) {
    throw new InputError("date_out_of_range", `Bank Rate on ${date} is not held: the table runs from ${BANK_RATE_FROM} to ${BANK_RATE_KNOWN_THROUGH}.`);
  }
  let rate = BANK_RATE_CHANGES[0][1];
  for (const [from, pct] of BANK_RATE_CHANGES) {
    if (from > date) break;
    rate = pct;
  }
  return rate;
}
