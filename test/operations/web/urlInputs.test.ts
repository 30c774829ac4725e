import { afterEach, describe, expect, it, vi } from "vitest";
import { operations } from "../../../src/operations";
import { INPUT_LIMITS } from "../../../src/platform/schemas";
import { balanceOf, call, createTestKey, json } from "../../helpers";

/**
 * Issue 29 §3: a URL's scheme and address are checked in validation, before the ledger. They were checked by the safe
 * fetcher after charging: on a 0-credit key `url=ftp://…` or `url=http://127.0.0.1/` answered 429, and with credits
 * the call was charged and refunded. And every URL input says its rules in the description (maxLength 500 included).
 */

/** Every operation taking a caller's URL (`url`, in its query or its body). */
const withUrl = operations.filter((op) => "url" in (op.input as unknown as { shape: Record<string, unknown> }).shape);
/** Those that fetch it for a price (the webhook is free and checked by its own rules: https only, at setting and at every delivery). */
const charged = withUrl.filter((op) => op.operationId !== "setWatchWebhook");

const request = (op: (typeof operations)[number], url: string, key: string) =>
  op.method === "get" || op.method === "delete"
    ? call(`${op.path}?${new URLSearchParams({ url })}`, { key, method: op.method.toUpperCase() })
    : call(op.path, { key, method: op.method.toUpperCase(), headers: { "content-type": "application/json" }, body: JSON.stringify({ url }) });

const REFUSED: [string, RegExp][] = [
  ["ftp://files.example.co.uk/report.pdf", /http or https.*not ftp/],
  ["file:///etc/passwd", /http or https.*not file/],
  ["http://127.0.0.1/", /127\.0\.0\.1.*private, loopback/],
  ["http://[::1]:8080/x", /\[::1\].*loopback/],
  ["https://10.0.0.8/report.pdf", /10\.0\.0\.8.*private/],
  ["169.254.169.254/latest/meta-data", /169\.254\.169\.254.*link-local/],
  ["http://0x7f.1/", /127\.0\.0\.1/],
  ["http://[::ffff:192.168.0.1]/", /private/],
  ["https://user:pass@www.example.co.uk/", /user name or password/],
];

afterEach(() => vi.restoreAllMocks());

describe("issue 29 §3: URL inputs are checked before the ledger", () => {
  it("every operation taking a URL is found (the web tools, the document readers, the carbon plan check, the webhook)", () => {
    expect(withUrl.length).toBeGreaterThanOrEqual(10);
    expect(charged.every((op) => op.price !== 0)).toBe(true);
  });

  it.each(REFUSED)(
    "on a 0-credit key, url=%s → 400 bad_request naming url and saying why, on every priced URL operation, nothing fetched",
    async (url, why) => {
      const { key } = await createTestKey({ credits: 0 });
      const spy = vi.spyOn(globalThis, "fetch");
      for (const op of charged) {
        const r = await request(op, url, key);
        const body = await json(r);
        expect([op.operationId, r.status, body.code, body.field]).toEqual([op.operationId, 400, "bad_request", "url"]);
        expect(body.message, op.operationId).toMatch(why);
        expect(body.message).toContain("url");
      }
      expect(spy).not.toHaveBeenCalled();
    },
  );

  it("with credits: refused the same way and never charged (no credit header, the balance untouched)", async () => {
    const { key, keyId } = await createTestKey({ credits: 50 });
    for (const op of charged)
      for (const [url] of REFUSED.slice(0, 3)) {
        const r = await request(op, url, key);
        expect([op.operationId, url, r.status]).toEqual([op.operationId, url, 400]);
        expect(r.headers.get("x-credits-remaining"), op.operationId).toBeNull();
        await r.body?.cancel();
      }
    expect(await balanceOf(keyId, { credits: 50 })).toBe(50);
  });

  it("a public address, or a name, passes validation (names are checked by the safe fetcher when fetched)", async () => {
    const { key } = await createTestKey({ credits: 0 });
    for (const url of ["https://www.example.co.uk/", "www.example.co.uk/statement", "http://93.184.215.14/", "https://[2606:4700::1111]/"]) {
      const r = await request(charged[0], url, key);
      expect([url, r.status]).toEqual([url, 429]); // past validation: refused by the ledger (no credits)
      await r.body?.cancel();
    }
  });
});

describe("issue 29 §3 / §4: every URL input's description says its validation", () => {
  it("maxLength 500 and the rules in the description, on every URL parameter and body field of /openapi.json", async () => {
    const doc = await json(await call("/openapi.json"));
    const resolve = (s: Record<string, any>): Record<string, any> => (s?.$ref ? resolve(doc.components.schemas[s.$ref.split("/").pop()]) : s);
    const found: string[] = [];
    const problems: string[] = [];
    for (const op of withUrl) {
      const item = doc.paths[op.path.replace(/:(\w+)/g, "{$1}")][op.method];
      const schemas: Record<string, any>[] = [];
      for (const p of item.parameters ?? []) if (p.name === "url") schemas.push({ ...p.schema, description: p.description ?? p.schema?.description });
      const body = item.requestBody?.content?.["application/json"]?.schema;
      if (body) {
        const b = resolve(body);
        for (const part of [b, ...(b.allOf ?? []), ...(b.anyOf ?? [])].map(resolve)) if (part.properties?.url) schemas.push(resolve(part.properties.url));
      }
      if (!schemas.length) problems.push(`${op.operationId}: no url field in the description`);
      for (const s of schemas) {
        found.push(op.operationId);
        const say = (what: string) => problems.push(`${op.operationId}: ${what} (${JSON.stringify(s)})`);
        if (s.type !== "string" || s.maxLength !== INPUT_LIMITS.url.max) say(`type ${s.type}, maxLength ${s.maxLength}`);
        if (!/https?\b/.test(s.description ?? "")) say("the description does not say http(s)");
        if (!/500 characters/.test(s.description ?? "")) say("the description does not say 500 characters");
        if (op.operationId !== "setWatchWebhook" && !/public/.test(s.description ?? "")) say("the description does not say only public addresses");
        if (s.pattern && !/^\^/.test(s.pattern)) say("a pattern not anchored");
      }
    }
    expect(problems).toEqual([]);
    expect(new Set(found).size).toBe(withUrl.length);
  });
});

describe("a configured fixture host (SAFE_FETCH_TEST_HOSTS, local runs only) is taken by validation though it is not a public host name", () => {
  afterEach(async () => (await import("../../../src/shared/testHosts")).configureTestHosts(undefined));
  it("localhost is refused as a URL and as a domain unless it is a configured test host; other names and addresses stay refused", async () => {
    const { configureTestHosts } = await import("../../../src/shared/testHosts");
    const { PageUrl, Domain } = await import("../../../src/app/web/page");
    configureTestHosts(undefined);
    expect(PageUrl.safeParse("http://localhost:9612/deep.html").success).toBe(false);
    expect(Domain.safeParse("localhost").success).toBe(false);
    configureTestHosts("fixture.test,localhost");
    expect(PageUrl.safeParse("http://localhost:9612/deep.html").success).toBe(true);
    expect(PageUrl.safeParse("http://LOCALHOST./x").success).toBe(true);
    expect(Domain.safeParse("localhost").success).toBe(true);
    // Only the configured names: another single-label name, a loopback address and a scheme other than http(s) stay refused.
    expect(PageUrl.safeParse("http://intranet/").success).toBe(false);
    expect(PageUrl.safeParse("http://127.0.0.1:9612/").success).toBe(false);
    expect(PageUrl.safeParse("ftp://localhost/").success).toBe(false);
  });
});
