import { BANK_RATE_SOURCE_RECENT, type BankRateTable } from "../services/money/bankRate";

/**
 * Bank Rate read from the Bank of England's series by the daily cron (migrations/0006_bank_rate.sql):
 * the changes of rate, and the last date read.
 */
export async function storedBankRate(db: D1Database): Promise<BankRateTable | null> {
  const [changes, meta] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT date, rate FROM bank_rate_changes ORDER BY date`),
    db.prepare(`SELECT known_through, source FROM bank_rate_meta WHERE id = 1`),
  ]);
  const m = meta.results[0] as { known_through: string; source: string } | undefined;
  if (!m || !changes.results.length) return null;
  return {
    changes: (changes.results as { date: string; rate: number }[]).map((c) => [c.date, c.rate] as const),
    knownThrough: m.known_through,
    source: m.source,
  };
}

/**
 * How long the calls that read the table (late-payment, customer-payment) keep it in the isolate (issue 30 §3). It
 * changes once a day, when the cron reads the series; a call a minute after that read may still use the table of the
 * day before (the reference rates it already held do not change; a date only the new read knows answers 422 for at
 * most this long). Without it every such call paid a D1 round trip.
 */
export const BANK_RATE_CACHE_MS = 60_000;
let cached: { at: number; table: Promise<BankRateTable | null> } | null = null;

/**
 * storedBankRate kept per isolate for BANK_RATE_CACHE_MS: one read at a time (calls arriving meanwhile share it), a
 * failed read not kept, and a store in this isolate drops it at once. The daily read itself reads storedBankRate.
 */
export function storedBankRateCached(db: D1Database, now = Date.now()): Promise<BankRateTable | null> {
  if (cached && now - cached.at < BANK_RATE_CACHE_MS && now >= cached.at) return cached.table;
  const entry = { at: now, table: storedBankRate(db) };
  cached = entry;
  entry.table.catch(() => {
    if (cached === entry) cached = null;
  });
  return entry.table;
}

/** Stores what a read of the series gave: every change in it (replacing those it covers) and how far it runs. */
export async function storeBankRate(
  db: D1Database,
  changes: readonly (readonly [string, number])[],
  knownThrough: string,
  source = BANK_RATE_SOURCE_RECENT,
): Promise<void> {
  if (!changes.length) return;
  cached = null;
  const stmts = [db.prepare(`DELETE FROM bank_rate_changes WHERE date >= ?`).bind(changes[0][0])];
  for (let i = 0; i < changes.length; i += 45)
    stmts.push(
      db
        .prepare(
          `INSERT OR REPLACE INTO bank_rate_changes (date, rate) VALUES ${changes
            .slice(i, i + 45)
            .map(() => "(?, ?)")
            .join(", ")}`,
        )
        .bind(...changes.slice(i, i + 45).flat()),
    );
  stmts.push(
    db
      .prepare(
        `INSERT INTO bank_rate_meta (id, known_through, fetched_at, source) VALUES (1, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET known_through = MAX(known_through, excluded.known_through), fetched_at = excluded.fetched_at, source = excluded.source`,
      )
      .bind(knownThrough, new Date().toISOString(), source),
  );
  await db.batch(stmts);
  cached = null; // and again once written: a read begun meanwhile may hold the table as it was
}
