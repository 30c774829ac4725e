/**
 * The Node lane's setup (vitest.config.ts, project `node`; test/setup.ts is the Workers lane's).
 *
 * - Outbound fetch reaches the fixture hosts the Workers lane's outboundService serves (test/support/fixtureHosts.ts)
 *   and never the network: any other address answers 599, as there. Redirects are followed as fetch does, and a
 *   response's `url` and `redirected` are set.
 * - Each test starts with no upstream paused, as in the Workers lane.
 * - The gateway is the Workers lane's to exercise: test/setup.ts checks every reply it gives against the emitted
 *   OpenAPI description, which needs the Worker. A Node-lane test that calls `execute` fails, saying so, rather than
 *   go unchecked.
 */
import { beforeEach, vi } from "vitest";
import { resetUpstreamPauses } from "../../src/sources/upstream";
import { type Canary, fixtureHosts, startCanary } from "./fixtureHosts";
import { ROOT, SHARED_DIR } from "./shared";

let canary: Promise<Canary> | undefined;
const outbound = fixtureHosts({ root: ROOT, shared: SHARED_DIR, canary: () => (canary ??= startCanary()) });

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function fixtureFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let req = new Request(input, init);
  for (let hops = 0; ; hops++) {
    req.signal.throwIfAborted();
    const { signal } = req;
    const res = await new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      outbound(req.clone())
        .then(resolve, reject)
        .finally(() => signal.removeEventListener("abort", onAbort));
    });
    const location = res.headers.get("location");
    if (!REDIRECTS.has(res.status) || location === null || req.redirect === "manual") {
      Object.defineProperties(res, { url: { value: req.url }, redirected: { value: hops > 0 } });
      return res;
    }
    if (req.redirect === "error") throw new TypeError(`fetch failed: redirected to ${location}`);
    if (hops >= 20) throw new TypeError("fetch failed: too many redirects");
    const asGet = res.status === 303 || ((res.status === 301 || res.status === 302) && req.method === "POST");
    req = new Request(new URL(location, req.url), {
      method: asGet ? "GET" : req.method,
      headers: req.headers,
      body: asGet || req.method === "GET" || req.method === "HEAD" ? null : await req.arrayBuffer(),
      redirect: req.redirect,
      signal: req.signal,
    });
  }
}
globalThis.fetch = fixtureFetch as typeof fetch;

beforeEach(() => resetUpstreamPauses());

vi.mock(import("../../src/platform/gateway"), async (importOriginal) => {
  const gateway = await importOriginal();
  return {
    ...gateway,
    execute: () => {
      throw new Error(
        "the gateway's replies are checked against the emitted OpenAPI description in the Workers lane only (test/setup.ts): a test calling execute belongs there (test/support/lanes.ts WORKERS_ONLY)",
      );
    },
  };
});
