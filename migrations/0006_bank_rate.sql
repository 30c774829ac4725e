-- Bank of England Bank Rate, read daily from the Bank's series (src/sources/boe): the changes of rate and
-- the last date the series was read for. The repo's table (src/services/money/bankRate.ts) is the seed and
-- the fallback; late-payment uses whichever knows the date asked about.
CREATE TABLE bank_rate_changes (
  -- the date a new Bank Rate took effect
  date TEXT PRIMARY KEY NOT NULL,
  rate REAL NOT NULL
);
CREATE TABLE bank_rate_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  -- the last date of the series read: the rate is known up to here
  known_through TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  source TEXT NOT NULL
);
