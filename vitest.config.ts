import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";

/**
 * Tests run inside the Workers runtime (miniflare). Outbound fetch never reaches the network:
 * hosts ending in `.test` are served from test/fixtures/hosts/<host>/<path>; everything else gets 599.
 * Individual tests may also stub fetch with vi.spyOn(globalThis, "fetch").
 */
const SHARED = resolve(import.meta.dirname, "../shared");

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  const sharedPresent = await stat(SHARED).then(() => true, () => false);
  return {
    plugins: [
      cloudflareTest({
        main: "./src/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            SHARED_PRESENT: sharedPresent ? "1" : "",
            SAFE_FETCH_TEST_HOSTS: "fixtures.test,logo.test,redirect.test,ch.test,govuk.test,assets.test,sra.test,cqc.test,charity.test",
            ENVIRONMENT: "test",
          },
          outboundService: async (req: Request) => {
            const u = new URL(req.url);
            if (u.hostname.endsWith(".test")) {
              const file = join(import.meta.dirname, "test/fixtures/hosts", u.hostname, u.pathname === "/" ? "index.html" : u.pathname);
              try {
                return new Response(await readFile(file));
              } catch {
                return new Response("not found", { status: 404 });
              }
            }
            return new Response(`blocked outbound fetch in tests: ${u.href}`, { status: 599 });
          },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/setup.ts"],
      testTimeout: 20_000,
    },
  };
});
