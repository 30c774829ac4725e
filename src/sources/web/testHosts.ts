/** The safe fetcher's test-only switch: fixture hosts let through (SAFE_FETCH_TEST_HOSTS, comma-separated; never set in production). */
export const testHostsOf = (list: string | undefined): string[] =>
  (list ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
