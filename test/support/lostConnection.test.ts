import { env } from "cloudflare:workers";
import { expect, it } from "vitest";

/**
 * "Network connection lost." (docs/testing.md): workerd reuses its connection to the Node process that answers the
 * fixture hosts, and Node used to close one left idle for 5 s (vitest.config.ts turns that off). A fetch sent after the
 * isolate has been busy for over 5 s, with no I/O (a big parse on a loaded machine), went out on a connection Node had
 * closed meanwhile, and was lost: every time. It must arrive.
 */
let sink = 0;
const spin = (n: number) => {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x + i * 31) % 1_000_003;
  sink += x;
};
const fixture = async () => (await fetch("http://files.test/sponsors/govuk-content-workers.json")).arrayBuffer();

it("a fixture fetch after the isolate has been busy for over 5 s arrives", async () => {
  expect(env.ENVIRONMENT).toBe("test");
  await fixture();
  // workerd's clock stands still while JavaScript runs: a busy spell is timed across the fetch that ends it.
  let iterations = 5e7;
  for (;;) {
    const started = Date.now();
    spin(iterations);
    await expect(fixture()).resolves.toBeInstanceOf(ArrayBuffer);
    const busy = Date.now() - started;
    if (busy > 5_500) break;
    iterations = Math.ceil((iterations * 6_000) / Math.max(busy, 1));
  }
  expect(sink).toBeGreaterThan(0);
}, 120_000);
