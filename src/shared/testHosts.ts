/**
 * The test-only switch of the safe fetcher: fixture hosts let through (SAFE_FETCH_TEST_HOSTS, comma-separated; never
 * set in production). The fetcher gets the list through its options; input validation, which runs before any service
 * and has no env, reads the list the gateway configured for this isolate (`configureTestHosts`, at the start of every
 * call: a Worker's vars are the same for every request of an isolate), so that a local fixture host such as
 * `localhost` (the hostile-input harness, the web bench) is not refused by the URL pattern a public host must match.
 */
export const testHostsOf = (list: string | undefined): string[] =>
  (list ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);

let configured: ReadonlySet<string> = new Set();
let configuredFrom: string | undefined;

/** Sets the hosts validation lets through from the configuration's list (cheap when the list is unchanged). */
export function configureTestHosts(list: string | undefined): void {
  if (list === configuredFrom) return;
  configuredFrom = list;
  configured = new Set(testHostsOf(list).map((h) => h.toLowerCase()));
}

/** Whether `host` is one of the configured test hosts (always false in production, where none is configured). */
export const isConfiguredTestHost = (host: string): boolean => configured.size > 0 && configured.has(host.toLowerCase().replace(/\.$/, ""));

/**
 * TEST-ONLY (SAFE_FETCH_TEST_ORIGIN): a fetch that sends a request for one of `hosts` to `origin` instead, the host
 * named in the `x-fixture-host` header, path and query kept. Anything else goes to `fetch` unchanged.
 */
export function fixtureOriginFetch(origin: string, hosts: readonly string[], base: typeof fetch = globalThis.fetch): typeof fetch {
  const set = new Set(hosts.map((h) => h.toLowerCase()));
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!set.has(url.hostname.toLowerCase())) return base(input, init);
    const headers = new Headers(init?.headers);
    headers.set("x-fixture-host", url.hostname.toLowerCase());
    return base(`${origin.replace(/\/$/, "")}${url.pathname}${url.search}`, { ...init, headers });
  };
}
