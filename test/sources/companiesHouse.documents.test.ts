import { describe, expect, it } from "vitest";
import type { UpstreamError } from "../../src/shared/errors";
import { memoryHttpCache, memoryRequestBudget } from "../../src/shared/ports";
import { XHTML, createDocumentClient, documentPath, parseDocumentMetadata } from "../../src/sources/companies-house/documents";

/** Issue 12 §1: the Companies House Document API (filing metadata and iXBRL), through the configured host only. */

const META = {
  company_number: "01234567",
  barcode: "XD7K2P9L",
  significant_date: null,
  significant_date_type: "",
  category: "accounts",
  pages: 12,
  created_at: "2025-12-18T10:42:07.512Z",
  etag: "",
  links: {
    self: "https://document-api.company-information.service.gov.uk/document/Ab3dEf6GhIjK9lMnOp2qRsTuV5wXyZ8a",
    document: "https://document-api.company-information.service.gov.uk/document/Ab3dEf6GhIjK9lMnOp2qRsTuV5wXyZ8a/content",
  },
  resources: { "application/pdf": { content_length: 182734 }, "application/xhtml+xml": { content_length: 96412 } },
};

function fake(route: (url: URL, accept: string | null) => Response) {
  const seen: { url: string; accept: string | null }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const accept = new Headers(init?.headers).get("accept");
    seen.push({ url: url.href, accept });
    return route(url, accept);
  }) as typeof fetch;
  return { fetchImpl, seen };
}

const client = (fetchImpl: typeof fetch) =>
  createDocumentClient({
    baseUrl: "https://chdoc.test",
    apiKey: "k",
    cache: memoryHttpCache(),
    budget: memoryRequestBudget({ "companies-house": { limit: 600, windowSeconds: 300 } }),
    fetchImpl,
  });

describe("issue 12 §1 the Document API client", () => {
  it("asks the configured host for every link the register returns, whatever host the link names", async () => {
    expect(documentPath("https://document-api.company-information.service.gov.uk/document/Ab3/content?x=1")).toBe("/document/Ab3/content?x=1");
    expect(documentPath("/document/Ab3")).toBe("/document/Ab3");
    expect(documentPath("http://169.254.169.254/document/Ab3")).toBe("/document/Ab3");
    const f = fake((url, accept) =>
      url.pathname.endsWith("/content")
        ? new Response("<html xmlns:ix='http://www.xbrl.org/2013/inlineXBRL'></html>", { headers: { "content-type": XHTML } })
        : Response.json(META),
    );
    const c = client(f.fetchImpl);
    const meta = await c.getMetadata("https://elsewhere.example/document/Ab3dEf6GhIjK9lMnOp2qRsTuV5wXyZ8a");
    expect(meta).toEqual({
      contentTypes: ["application/pdf", XHTML],
      contentPath: "/document/Ab3dEf6GhIjK9lMnOp2qRsTuV5wXyZ8a/content",
      pages: 12,
      createdAt: "2025-12-18T10:42:07.512Z",
    });
    const xhtml = await c.getXhtml(meta!);
    expect(xhtml).toContain("inlineXBRL");
    expect(f.seen.map((s) => [new URL(s.url).host, s.accept])).toEqual([
      ["chdoc.test", "application/json"],
      ["chdoc.test", XHTML],
    ]);
  });

  it("a filing held only as a PDF has no iXBRL: null, and no request for it", async () => {
    const pdfOnly = parseDocumentMetadata(JSON.stringify({ ...META, resources: { "application/pdf": { content_length: 1 } } }))!;
    const f = fake(() => new Response("never"));
    expect(await client(f.fetchImpl).getXhtml(pdfOnly)).toBeNull();
    expect(f.seen).toHaveLength(0);
    expect(parseDocumentMetadata("not json")).toBeNull();
    expect(parseDocumentMetadata(JSON.stringify({ errors: [{ error: "not-found" }] }))).toBeNull();
  });

  it("SPEC §7 the Document API answering 429 (its header is X-Ratelimit-Remaining) is a rate-limited upstream error; a missing document is null", async () => {
    const limited = fake(() => new Response("", { status: 429, headers: { "X-Ratelimit-Remaining": "0" } }));
    const e = await client(limited.fetchImpl)
      .getMetadata("/document/x")
      .then(
        () => null,
        (x: UpstreamError) => x,
      );
    expect(e).toMatchObject({ name: "UpstreamError", kind: "rate_limited", status: 429 });
    const missing = fake(() => new Response("", { status: 404 }));
    expect(await client(missing.fetchImpl).getMetadata("/document/gone")).toBeNull();
  });
});
