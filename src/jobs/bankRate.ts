import { storeBankRate, storedBankRate } from "../db/bankRate";
import { REPO_BANK_RATE, changesOf } from "../services/money/bankRate";
import { fetchBankRate } from "../sources/boe/client";
import type { BankRatePorts } from "./ports";

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * The daily read of the Bank of England's Bank Rate series into D1 (from the cron). It reads back a year
 * before the last date known, so a late correction is picked up too. The series has business days only:
 * the rate of its last day holds through the days after it that have passed (a weekend, a bank holiday),
 * up to three of them.
 */
export async function refreshBankRate(ports: BankRatePorts, now = new Date()): Promise<{ changes: number; knownThrough: string }> {
  const stored = await storedBankRate(ports.db);
  const known = stored && stored.knownThrough > REPO_BANK_RATE.knownThrough ? stored.knownThrough : REPO_BANK_RATE.knownThrough;
  const from = iso(Date.parse(known) - 365 * DAY);
  const observations = await fetchBankRate({ url: ports.iadbUrl, from });
  const last = observations[observations.length - 1].date;
  const yesterday = iso(now.getTime() - DAY);
  const through = iso(Math.min(Date.parse(last) + 3 * DAY, Date.parse(yesterday)));
  const changes = changesOf(observations);
  await storeBankRate(ports.db, changes, through > last ? through : last);
  return { changes: changes.length, knownThrough: through > last ? through : last };
}
