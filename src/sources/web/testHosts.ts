import type { Env } from "../../env";

/** The safe fetcher's test-only switch: fixture hosts let through (env.SAFE_FETCH_TEST_HOSTS, never set in production). */
export const testHostsOf = (env: Pick<Env, "SAFE_FETCH_TEST_HOSTS">): string[] =>
  (env.SAFE_FETCH_TEST_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
