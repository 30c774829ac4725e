import { afterEach, describe, expect, it, vi } from "vitest";
import { deepHtml, textCases } from "../../../scripts/hostile/html.mjs";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { cpuNow } from "../../support/cpuClock";

/**
 * Issue 29 §1, through the operations: a page of 200,000 nested <div>s given to a reader by URL answered 500 after
 * 76 s; 1,000,000 levels held the whole server for 8 minutes. Now each answers 422 `unreadable_input` naming the limit
 * and the field, at once, and costs nothing; the web tools that read a caller's page refuse it the same way.
 */
const PAGES: Record<string, () => string> = {
  "/deep-200k": () => deepHtml(200_000),
  "/deep-1m": () => deepHtml(1_000_000),
};

/** The hostile pages, served at https://docs.test/<name>. */
function servePages() {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const page = url.hostname === "docs.test" ? PAGES[url.pathname] : undefined;
    return page ? new Response(page(), { headers: { "content-type": "text/html; charset=utf-8" } }) : real(input, init);
  });
}
afterEach(() => vi.restoreAllMocks());

describe("hostile pages given by URL (issue 29 §1)", () => {
  const cases: [string, string, string, RegExp][] = [
    ["modern-slavery", "/api/v1/modern-slavery", "/deep-200k", /nests elements deeper than 1,000 levels/],
    ["ofsted-report", "/api/v1/ofsted-report", "/deep-1m", /longer than 5,000,000 characters/],
    ["cqc-report", "/api/v1/cqc-report", "/deep-200k", /nests elements deeper than 1,000 levels/],
    ["charity-report", "/api/v1/charity-report", "/deep-1m", /longer than 5,000,000 characters/],
    ["crp-check", "/api/v1/crp-check", "/deep-200k", /nests elements deeper than 1,000 levels/],
    ["brand-kit", "/api/v1/brand-kit", "/deep-200k", /nests elements deeper than 1,000 levels/],
    ["ai-visibility", "/api/v1/ai-visibility", "/deep-200k", /nests elements deeper than 1,000 levels/],
    ["website-legal", "/api/v1/website-legal", "/deep-200k", /nests elements deeper than 1,000 levels/],
  ];
  for (const [name, path, page, limit] of cases)
    it(`${name}: ${page.slice(1)} answers 422 unreadable_input naming the limit, at once, and costs nothing`, async () => {
      servePages();
      const { key, keyId } = await createTestKey({ plan: "enterprise", credits: 100 });
      const t0 = cpuNow();
      const r = await call(`${path}?${new URLSearchParams({ url: `https://docs.test${page}` })}`, { key });
      const body = await json(r);
      expect(r.status, JSON.stringify(body).slice(0, 300)).toBe(422);
      expect(body).toMatchObject({ code: "unreadable_input" });
      expect(body.message).toMatch(limit);
      expect(typeof body.requestId).toBe("string");
      if (["modern-slavery", "ofsted-report", "cqc-report", "charity-report", "crp-check"].includes(name)) expect(body.field).toBe("url");
      expect(cpuNow() - t0).toBeLessThan(10_000);
      expect(await balanceOf(keyId, { plan: "enterprise", credits: 100 })).toBe(100);
    });
});

describe("hostile text sent to a reader (issue 29 §1)", () => {
  it("<div> 199,000 times as text is read as text: 200, quickly", async () => {
    const { key } = await createTestKey({ plan: "enterprise", credits: 100 });
    const text = textCases().find((c) => c.name.startsWith("<div>"))!.text;
    const t0 = cpuNow();
    const r = await call("/api/v1/ofsted-report", { method: "POST", key, body: JSON.stringify({ text }), headers: { "content-type": "application/json" } });
    const body = await json(r);
    expect(r.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.read).toMatchObject({ from: "text", format: "text" });
    expect(cpuNow() - t0).toBeLessThan(15_000);
  });
});
