import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";

it("worker answers", async () => {
  const r = await exports.default.fetch("http://x/");
  expect(r.status).toBe(200);
});
