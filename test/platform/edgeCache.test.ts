import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers";

describe("issue 30 §6: keyless documents from the edge cache", () => {
  it("the second request for a document is answered from the edge cache, the same bytes, for that origin only", async () => {
    // A path no other test asks for first in this file's isolate: an API page.
    const first = await call("/apis/late-payment.md");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBeNull();
    expect(first.headers.get("cache-control")).toBe("public, max-age=300");
    const text = await first.text();
    const second = await call("/apis/late-payment.md");
    expect(second.status).toBe(200);
    expect(second.headers.get("x-cache")).toBe("hit");
    expect(second.headers.get("x-request-id")).toMatch(/^req_/);
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await second.text()).toBe(text);
    // Another origin is another document (its addresses are its own).
    const other = await exports.default.fetch(new Request("http://other.test/apis/late-payment.md"));
    const otherText = await other.text();
    expect(other.headers.get("x-cache")).toBeNull();
    expect(otherText).toContain("http://other.test");
    expect(otherText).not.toBe(text);
  });

  it("an error is never cached: an unknown page stays a 404", async () => {
    for (let i = 0; i < 2; i++) {
      const r = await call("/apis/no-such-page.md");
      expect(r.status).toBe(404);
      expect(r.headers.get("x-cache")).toBeNull();
      await r.body?.cancel();
    }
  });
});
