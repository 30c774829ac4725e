import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makePdf } from "../../../scripts/fixtures/make-pdf.mjs";
import { MODERN_SLAVERY } from "../../../src/app/documents/readers";
import { TEXT_MAX } from "../../../src/app/documents/reader";
import { scoreModernSlaveryStatement } from "../../../src/operations/documents/scoreModernSlaveryStatement";
import { type CallMeta, execute } from "../../../src/platform/gateway";
import type { Phraser } from "../../../src/services/documents/summary";
import { balanceOf, call, createTestKey, json } from "../../helpers";

/**
 * Issue 17 §1–2, what the four readers share (the modern slavery reader stands for them): the GET and POST inputs,
 * text before url, the document fetched through the safe fetcher as HTML, PDF or text, a scan refused without charge,
 * the `read` object, and the summary (a model only words the facts).
 */
const post = (body: unknown, key: string, init: RequestInit = {}) =>
  call("/api/v1/modern-slavery", {
    method: "POST",
    key,
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json" },
    ...init,
  });
const get = (url: string, key: string) => call(`/api/v1/modern-slavery?${new URLSearchParams({ url })}`, { key });

/** PDFs made in the test, served at https://pdf.test/<name>. */
function servePdfs(files: Record<string, Uint8Array>) {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname === "pdf.test") {
      const f = files[url.pathname.slice(1)];
      return f ? new Response(f, { headers: { "content-type": "application/pdf" } }) : new Response("not found", { status: 404 });
    }
    return real(input, init);
  });
}
afterEach(() => vi.restoreAllMocks());

const STATEMENT = MODERN_SLAVERY.exampleText;

describe("the document readers' inputs (SPEC §4.3)", () => {
  it("POST text: read as text, 3 credits, `query` gives the text's length (the text is not echoed), `read` says what was read", async () => {
    const { key, keyId } = await createTestKey();
    const r = await post({ text: STATEMENT }, key);
    const body = await json(r);
    expect(r.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    expect(await balanceOf(keyId)).toBe(97);
    expect(body.query).toEqual({ url: null, textChars: STATEMENT.length });
    expect(JSON.stringify(body)).not.toContain(STATEMENT.slice(0, 200));
    expect(body.read).toMatchObject({ from: "text", url: null, format: "text", pages: null, totalPages: null, cut: false, note: null });
    expect(body.read.chars).toBeGreaterThan(500);
    expect(body.read.sentences).toBeGreaterThan(5);
    expect(body.read.passages.length).toBeGreaterThan(0);
    expect(body.summaryBy).toBe("facts");
    expect(body.summary.length).toBeGreaterThan(40);
    expect(body.notice).toMatch(/not professional advice/);
  });

  it("both text and url: the text is read, the URL not fetched, and `read.note` says so", async () => {
    const { key } = await createTestKey();
    const fetched = vi.spyOn(globalThis, "fetch");
    const r = await post({ text: STATEMENT, url: "https://pdf.test/never-fetched.pdf" }, key);
    const body = await json(r);
    expect(r.status).toBe(200);
    expect(fetched.mock.calls.some(([u]) => String(u instanceof Request ? u.url : u).includes("never-fetched"))).toBe(false);
    expect(body.read).toMatchObject({ from: "text", url: "https://pdf.test/never-fetched.pdf" });
    expect(body.read.note).toMatch(/text was read.*not fetched/);
  });

  it.each([
    ["neither text nor url", {}, "text"],
    ["an empty text", { text: "   " }, "text"],
    ["a text too short to be a document", { text: "Modern slavery statement." }, "text"],
    ["a text over the limit", { text: "a".repeat(TEXT_MAX + 1) }, "text"],
    ["a url that is not a string", { url: 42 }, "url"],
    ["a url over 500 characters", { url: `https://example.co.uk/${"a".repeat(500)}` }, "url"],
  ])("POST with %s: 400 naming the field, nothing charged", async (_what, input, field) => {
    const { key, keyId } = await createTestKey();
    const r = await post(input, key);
    const body = await json(r);
    expect(r.status).toBe(400);
    expect(body.code).toBe("bad_request");
    expect(body.requestId).toBeTruthy();
    expect(body.message).toContain(field);
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("a body over 4 MiB: 413, nothing charged; a text of the full length is taken", async () => {
    const { key, keyId } = await createTestKey();
    const big = await post({ text: "x".repeat(4 * 1024 * 1024 + 10) }, key);
    expect(big.status).toBe(413);
    expect(await balanceOf(keyId)).toBe(100);
    const long = `${STATEMENT}\n\n${"Our suppliers are reviewed each year. ".repeat(Math.floor((TEXT_MAX - STATEMENT.length - 2) / 38))}`;
    expect(long.length).toBeLessThanOrEqual(TEXT_MAX);
    const r = await post({ text: long }, key);
    expect(r.status).toBe(200);
    expect((await json(r)).read.chars).toBeGreaterThan(900_000);
  });

  it("GET without url, or a private address: 400 naming url, nothing charged (issue 29 §3: refused in validation)", async () => {
    const { key, keyId } = await createTestKey();
    const none = await call("/api/v1/modern-slavery", { key });
    expect(none.status).toBe(400);
    expect((await json(none)).message).toContain("url");
    const local = await get("http://127.0.0.1/statement.pdf", key);
    const body = await json(local);
    expect(local.status).toBe(400);
    expect(body).toMatchObject({ code: "bad_request", field: "url" });
    expect(body.message).toBeTruthy();
    expect(await balanceOf(keyId)).toBe(100);
  });
});

describe("the document fetched (GET ?url=, or POST {url})", () => {
  it("a PDF is read page by page: pages counted, every quote from the PDF carries its page", async () => {
    const lines = STATEMENT.split("\n");
    const half = Math.ceil(lines.length / 2);
    servePdfs({ "statement.pdf": makePdf([lines.slice(0, half), lines.slice(half)]) });
    const { key, keyId } = await createTestKey();
    const r = await get("https://pdf.test/statement.pdf", key);
    const body = await json(r);
    expect(r.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    expect(body.read).toMatchObject({ from: "url", url: "https://pdf.test/statement.pdf", format: "pdf", pages: 2, totalPages: 2, cut: false });
    expect(body.read.passages.flatMap((p: { pages: number[] }) => p.pages).every((p: number) => p === 1 || p === 2)).toBe(true);
    const quotes = JSON.stringify(body).match(/"page":(\d+|null)/g) ?? [];
    expect(quotes.length).toBeGreaterThan(0);
    expect(quotes.every((q) => q !== '"page":null')).toBe(true);
    expect(await balanceOf(keyId)).toBe(97);
  });

  it("a PDF with no text layer (a scan): 422 unreadable_input saying it looks scanned, nothing charged", async () => {
    servePdfs({ "scan.pdf": makePdf([[""], [""]]) });
    const { key, keyId } = await createTestKey();
    const r = await get("https://pdf.test/scan.pdf", key);
    const body = await json(r);
    expect(r.status).toBe(422);
    expect(body).toMatchObject({ code: "unreadable_input" });
    expect(body.message).toMatch(/scanned/);
    expect(await balanceOf(keyId)).toBe(100);
  });

  it.skipIf(!env.SHARED_PRESENT)("the real scanned statement (EDAN's older PDF, ../shared): 422, nothing charged", async () => {
    const { key, keyId } = await createTestKey();
    const r = await get("http://shared.test/corpora/modern-slavery/statements/edan-uk-mss-older-no-text-layer.pdf", key);
    expect(r.status).toBe(422);
    expect((await json(r)).message).toMatch(/scanned/);
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("a web page: read without its navigation and footer; its title given; POST {url} reads it the same", async () => {
    const { key } = await createTestKey();
    const r = await get("https://docs.test/modern-slavery-statement.html", key);
    const body = await json(r);
    expect(r.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    expect(body.read).toMatchObject({ from: "url", format: "html", pages: null });
    expect(body.document.title).toBe("Modern Slavery Statement | Harbour Freight Services Ltd");
    expect(JSON.stringify(body)).not.toMatch(/Cookie settings|Sign up to our newsletter/);
    const viaPost = await json(await post({ url: "https://docs.test/modern-slavery-statement.html" }, key));
    expect({ ...viaPost, query: null, checkedAt: null }).toEqual({ ...body, query: null, checkedAt: null });
  });

  it("a page answering 404, an image, a page with almost no text: 422 unreadable_input, nothing charged", async () => {
    const { key, keyId } = await createTestKey();
    for (const path of ["/missing.html", "/logo.png", "/empty.html"]) {
      const r = await get(`https://docs.test${path}`, key);
      const body = await json(r);
      expect(r.status, path).toBe(422);
      expect(body.code, path).toBe("unreadable_input");
    }
    expect(await balanceOf(keyId)).toBe(100);
  });
});

describe("the summary: a model only words the extracted facts (issue 17 §2)", () => {
  const meta = (apiKey: string, phraser: Phraser): CallMeta => ({
    requestId: "req_summary",
    headers: new Headers(),
    ip: "192.0.2.10",
    apiKey,
    waitUntil: () => {},
    services: { phraser },
  });

  it("a model's wording that keeps to the facts is given, with summaryBy model", async () => {
    const { key } = await createTestKey();
    const plain = await execute(env, scoreModernSlaveryStatement as never, { text: STATEMENT }, meta(key, { available: false, phrase: async () => null }));
    const facts = (plain.body as { summary: string }).summary;
    // A "model" that only reorders the facts' own sentences.
    const reworded = facts
      .split(/(?<=\.)\s+/)
      .reverse()
      .join(" ");
    const out = await execute(env, scoreModernSlaveryStatement as never, { text: STATEMENT }, meta(key, { available: true, phrase: async () => reworded }));
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ summary: reworded, summaryBy: "model" });
  });

  it("a model that adds a figure is not given: the facts' own sentences are", async () => {
    const { key } = await createTestKey();
    const out = await execute(
      env,
      scoreModernSlaveryStatement as never,
      { text: STATEMENT },
      meta(key, { available: true, phrase: async () => "The company trained 4,000 suppliers in 2031 and is fully compliant." }),
    );
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ summaryBy: "facts" });
    expect((out.body as { summary: string }).summary).not.toMatch(/4,000|2031/);
  });

  it("a model that fails: the facts' own sentences, no error", async () => {
    const { key } = await createTestKey();
    const out = await execute(env, scoreModernSlaveryStatement as never, { text: STATEMENT }, meta(key, { available: true, phrase: async () => null }));
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ summaryBy: "facts" });
  });
});
