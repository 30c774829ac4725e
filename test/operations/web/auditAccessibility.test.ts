import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AUDIT_NOTICE } from "../../../src/services/web/accessibility/audit";
import { auditAccessibility } from "../../../src/operations/web/auditAccessibility";
import { type CallMeta, execute } from "../../../src/platform/gateway";
import type { Browser } from "../../../src/services/web/rendered";
import { UpstreamError } from "../../../src/shared/errors";
import { balanceOf, call, createTestKey, json } from "../../helpers";

const audit = (url: string, key: string) => call(`/api/v1/accessibility-audit?${new URLSearchParams({ url })}`, { key });
const meta = (apiKey: string, extra: Partial<CallMeta> = {}): CallMeta => ({
  requestId: "req_audit",
  headers: new Headers(),
  ip: "192.0.2.1",
  apiKey,
  waitUntil: () => {},
  ...extra,
});

afterEach(() => vi.restoreAllMocks());

describe("SPEC §4.2 accessibility-audit: input and charging without a browser", () => {
  it("400 names the field for a missing or unparsable url; 400/422 for a private address; none is charged", async () => {
    const { key, keyId } = await createTestKey({ credits: 100 });
    for (const [url, status] of [
      ["", 400],
      ["not a url", 400],
      ["ftp://a11y.test/", 400],
      ["http://169.254.169.254/latest/meta-data/", 400],
      ["http://127.0.0.1/", 400],
    ] as const) {
      const r = await audit(url, key);
      const body = await json(r);
      expect([status, 422], `${url}: ${JSON.stringify(body)}`).toContain(r.status);
      expect(body.code).toBeTruthy();
      expect(body.requestId).toBeTruthy();
      expect(body.field ?? body.message, JSON.stringify(body)).toMatch(/url/i);
    }
    expect(await balanceOf(keyId, { credits: 100 })).toBe(100);
  });

  it("a page that is not HTML is 422 unreadable_input and not charged", async () => {
    const { key, keyId } = await createTestKey({ credits: 100 });
    const r = await audit("https://a11y.test/site.css", key);
    expect(r.status).toBe(422);
    expect((await json(r)).code).toBe("unreadable_input");
    expect(await balanceOf(keyId, { credits: 100 })).toBe(100);
  });

  it("503 with credits back when the browser is unavailable (never a made-up result)", async () => {
    const { key, keyId } = await createTestKey({ credits: 100 });
    const down: Browser = {
      available: false,
      render: async () => {
        throw new UpstreamError("browser", "not_configured", "Browser Rendering is not configured on this server.");
      },
    };
    const out = await execute(env, auditAccessibility as never, { url: "https://a11y.test/" }, meta(key, { services: { browser: down } }));
    expect(out.status).toBe(503);
    expect(await balanceOf(keyId, { credits: 100 })).toBe(100);
  });
});

describe.skipIf(!env.BROWSER_PRESENT)("SPEC §4.2 accessibility-audit in the real browser (issue 16 §1)", () => {
  it("findings tied to WCAG criteria with impact, counts, examples and a fix; passed and needs-review listed apart; the notice; 3 credits", async () => {
    const { key, keyId } = await createTestKey({ credits: 100 });
    const r = await audit("https://a11y.test/", key);
    const body = await json(r);
    expect(r.status, JSON.stringify(body).slice(0, 500)).toBe(200);
    expect(await balanceOf(keyId, { credits: 100 })).toBe(97);
    const rules = body.findings.map((f: { rule: string }) => f.rule);
    // The fixture's faults: images without alt, an unlabelled input and select, a nameless button and link, no lang,
    // zoom blocked, low contrast.
    for (const rule of ["image-alt", "label", "select-name", "button-name", "link-name", "html-has-lang", "meta-viewport", "color-contrast"])
      expect(rules, rule).toContain(rule);
    const img = body.findings.find((f: { rule: string }) => f.rule === "image-alt");
    expect(img).toMatchObject({ impact: "critical", elements: 2, wcag: [{ sc: "1.1.1", name: "Non-text Content", level: "A" }] });
    expect(img.examples[0]).toMatchObject({ selector: expect.stringContaining("img"), snippet: expect.stringContaining("<img") });
    expect(img.fix.length).toBeGreaterThan(20);
    const zoom = body.findings.find((f: { rule: string }) => f.rule === "meta-viewport");
    expect(zoom.wcag.map((w: { sc: string }) => w.sc)).toContain("1.4.4");
    // Gravest first.
    const order = ["critical", "serious", "moderate", "minor"];
    const impacts = body.findings.map((f: { impact: string }) => order.indexOf(f.impact));
    expect([...impacts].sort((a, b) => a - b)).toEqual(impacts);
    expect(body.passed.map((p: { rule: string }) => p.rule)).toContain("document-title");
    expect(body.passed.map((p: { rule: string }) => p.rule)).not.toContain("image-alt");
    expect(body.score).toBeGreaterThan(0);
    expect(body.score).toBeLessThan(70);
    expect(body.engine).toMatchObject({
      name: "axe-core",
      version: expect.stringMatching(/^4\.\d+\.\d+$/),
      ruleSet: { tags: expect.arrayContaining(["wcag2a", "wcag22aa"]) },
    });
    expect(body.notice).toBe(AUDIT_NOTICE);
    expect(body.notice).toMatch(/minority/);
    expect(body.notice).toMatch(/never a compliance certification/);
    expect(body.page).toMatchObject({ status: 200, refused: [], cut: [] });
    expect(body.summary.sentence).toMatch(/^Score \d+\/100\./);
  });

  it("a clean page scores 100 with no findings, and the score formula is in the reply", async () => {
    const { key } = await createTestKey({ credits: 100 });
    const body = await json(await audit("https://a11y2.test/", key));
    expect(body.findings).toEqual([]);
    expect(body.score).toBe(100);
    expect(body.scoring).toMatch(/critical 10, serious 7, moderate 3, minor 1/);
    expect(body.passed.length).toBeGreaterThan(5);
  });

  it("the same page twice gives the same reply, timestamps and timings aside", async () => {
    const { key } = await createTestKey({ credits: 100 });
    const strip = (b: Record<string, any>) => ({ ...b, auditedAt: null, page: { ...b.page, renderMs: null } });
    const a = strip(await json(await audit("https://a11y.test/", key)));
    const b = strip(await json(await audit("https://a11y.test/", key)));
    expect(a).toEqual(b);
  });

  it("a hostile page is audited with its private requests refused and listed, none sent", async () => {
    const { key } = await createTestKey({ credits: 100 });
    const real = globalThis.fetch;
    const hosts: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      hosts.push(new URL(input instanceof Request ? input.url : String(input)).hostname);
      return real(input, init);
    });
    const body = await json(await audit("https://hostile.test/metadata-image.html", key));
    expect(body.page.refused.map((r: { url: string }) => r.url)).toEqual(expect.arrayContaining([expect.stringContaining("169.254.169.254")]));
    expect(hosts.filter((h) => /^(127\.|169\.254\.|10\.|\[)/.test(h))).toEqual([]);
    const canary = (await (await real("http://canary.test/log")).json()) as { hits: string[] };
    expect(canary.hits).toEqual([]);
  });

  it("a page that redirects to a private address is 422 and not charged", async () => {
    const { key, keyId } = await createTestKey({ credits: 100 });
    const r = await audit("https://hostile.test/redirect/1", key);
    expect([400, 422]).toContain(r.status);
    expect(await balanceOf(keyId, { credits: 100 })).toBe(100);
  });
});
