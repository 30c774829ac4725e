import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.COMPANIES_DB, env.TEST_COMPANIES_MIGRATIONS);

import { afterAll, beforeEach, expect, vi } from "vitest";
import { resetUpstreamPauses } from "../src/sources/upstream";
import { received, unverifiedReplies } from "./helpers";
import { checkReply, nonConforming } from "./support/replyConformance";

// Issue 29 §4: every reply of every operation (HTTP, MCP, and tests that call the gateway directly) is checked against
// the emitted OpenAPI description: its status documented, its body valid by the documented schema (support/replyConformance.ts).
vi.mock(import("../src/platform/gateway"), async (importOriginal) => {
  const gateway = await importOriginal();
  return {
    ...gateway,
    execute: async (...args: Parameters<typeof gateway.execute>) => {
      const out = await gateway.execute(...args);
      await checkReply(args[1].method, args[1].path, out.status, out.body);
      return out;
    },
  };
});
afterAll(() => {
  const found = [...new Set(nonConforming)];
  nonConforming.length = 0;
  expect(found, "replies that do not conform to the emitted OpenAPI description").toEqual([]);
});

// An upstream that said "no requests left" is paused per isolate until its reset: each test starts unpaused.
beforeEach(() => resetUpstreamPauses());

// Issue "hardening" §5: every status a test receives from an operation is documented for that operation.
afterAll(async () => {
  if (!received.length) return;
  const { exports } = await import("cloudflare:workers");
  const doc = (await (await exports.default.fetch(new Request("http://api.test/openapi.json"))).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
  const undocumented = received.filter((r) => {
    const op = doc.paths[r.path]?.[r.method];
    if (!op) return false; // not an operation (docs, status, an unknown path) or another method: covered elsewhere
    return !(String(r.status) in op.responses);
  });
  expect([...new Set(undocumented.map((r) => `${r.method.toUpperCase()} ${r.path} ${r.status}`))]).toEqual([]);
  received.length = 0;
});

// Issue 13 §4 (SPEC §1 rule 7): no person named in the fixtures (officers, PSCs, insolvency practitioners, people
// entitled to charges, sanctioned individuals) appears in any JSON reply to a caller without a verified account.
afterAll(() => {
  const names = JSON.parse(env.PERSON_NAMES || "[]") as string[];
  expect(names.length).toBeGreaterThan(10);
  const found = new Set<string>();
  for (const { path, text } of unverifiedReplies) {
    const lower = text.toLowerCase();
    for (const n of names) if (lower.includes(n.toLowerCase())) found.add(`${path.split("?")[0]}: ${n}`);
  }
  unverifiedReplies.length = 0;
  expect([...found]).toEqual([]);
});
