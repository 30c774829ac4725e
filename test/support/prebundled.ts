/**
 * The packages the Workers lane pre-bundles once per run (vitest.config.ts, `deps.optimizer.ssr.include`; docs/testing.md
 * "The Workers lane"): the API Worker's runtime dependencies, and every package that imports zod, so that all of them
 * share the one pre-bundled copy of zod (a second copy, loaded raw beside it, keeps its own schema registry, and the
 * OpenAPI document then came out wrong: test/platform/openapiNullable.test.ts failed). test/support/prebundled.test.ts
 * checks the list against the packages themselves.
 */
export const ZOD_ENTRIES = ["zod", "zod/v4", "zod/v4/core", "zod/v3"] as const;

export const PREBUNDLED: readonly string[] = [
  "@hono/zod-openapi",
  "hono",
  ...ZOD_ENTRIES,
  "@asteasolutions/zod-to-openapi",
  "@hono/zod-validator",
  "@modelcontextprotocol/core",
  "@modelcontextprotocol/server",
  "drizzle-orm",
  "linkedom",
  "htmlparser2",
  "papaparse",
  "fflate",
  "yaml",
  "ipaddr.js",
  "robots-parser",
  "saxes",
  "ical.js",
  "@streamparser/json",
  "@cfworker/json-schema",
];
