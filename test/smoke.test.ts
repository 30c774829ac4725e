import { env, exports } from "cloudflare:workers";
import { expect, it } from "vitest";

it("worker answers", async () => {
  const r = await exports.default.fetch("http://x/");
  expect(r.status).toBe(200);
});

it.skipIf(!env.SHARED_PRESENT)("shared samples are served to tests when present", async () => {
  const r = await fetch("http://shared.test/data/home-office-sponsors/students_2026-01-02.csv");
  expect(r.status).toBe(200);
  expect((await r.text()).startsWith('"Sponsor Name"')).toBe(true);
});
