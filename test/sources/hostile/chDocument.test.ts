/**
 * A Companies House accounts document is written by the filing company, so a hostile company can file one of any size
 * (issue 29 §1). The Document API client counts the body as it arrives and stops past MAX_DOCUMENT_BYTES: the document
 * is then unreadable (422 unreadable_input through getAccounts, nothing charged), never a 500 or the whole body in memory.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { InputError } from "../../../src/shared/errors";
import { memoryHttpCache, memoryRequestBudget } from "../../../src/shared/ports";
import { MAX_DOCUMENT_BYTES, XHTML, createDocumentClient, parseDocumentMetadata } from "../../../src/sources/companies-house/documents";
import { balanceOf, call, createTestKey, json } from "../../helpers";

const MiB = 1024 * 1024;
const META = parseDocumentMetadata(
  JSON.stringify({ links: { document: "https://document-api.example/document/Big/content" }, resources: { [XHTML]: {}, "application/pdf": {} } }),
)!;

/** A body of `total` bytes served in 1 MiB chunks as they are asked for; `pulled()` says how many were handed out. */
function endless(total: number) {
  let sent = 0;
  const chunk = new TextEncoder().encode(`<p>${"x".repeat(MiB - 8)}</p>\n`.slice(0, MiB));
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= total) return c.close();
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      c.enqueue(chunk.subarray(0, n));
    },
  });
  return { body, pulled: () => sent };
}

const client = (fetchImpl: typeof fetch) =>
  createDocumentClient({
    baseUrl: "https://chdoc.test",
    apiKey: "k",
    cache: memoryHttpCache(),
    budget: memoryRequestBudget({ "companies-house": { limit: 600, windowSeconds: 300 } }),
    fetchImpl,
  });

afterEach(() => vi.restoreAllMocks());

describe("Companies House documents past the size cap", () => {
  it("a 1 GiB document is refused as unreadable once the cap is passed: the rest is never read", async () => {
    const served = endless(1024 * MiB);
    let requests = 0;
    const c = client((async () => (requests++, new Response(served.body, { headers: { "content-type": XHTML } }))) as typeof fetch);
    const e = await c.getXhtml(META).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(InputError);
    expect(e).toMatchObject({
      code: "unreadable_input",
      message: `The accounts document is larger than ${MAX_DOCUMENT_BYTES / MiB} MiB, the most read of one document.`,
    });
    expect(served.pulled()).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES + 2 * MiB);
    expect(requests).toBe(1); // not asked again
  }, 60_000);

  it("a Content-Length past the cap is refused before the body is read", async () => {
    const served = endless(64 * MiB);
    const c = client((async () => new Response(served.body, { headers: { "content-type": XHTML, "content-length": String(64 * MiB) } })) as typeof fetch);
    await expect(c.getXhtml(META)).rejects.toMatchObject({ name: "InputError", code: "unreadable_input" });
    expect(served.pulled()).toBeLessThanOrEqual(MiB);
  });

  it("a document of exactly the cap is read whole", async () => {
    const served = endless(MAX_DOCUMENT_BYTES);
    const c = client((async () => new Response(served.body, { headers: { "content-type": XHTML } })) as typeof fetch);
    const text = await c.getXhtml(META);
    expect(text?.length).toBe(MAX_DOCUMENT_BYTES);
  }, 60_000);

  it("through getAccounts: 422 unreadable_input saying why, and nothing charged", async () => {
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      return url.startsWith("https://chdoc.test/") && url.endsWith("/content")
        ? new Response(endless(256 * MiB).body, { headers: { "content-type": XHTML } })
        : real(input, init);
    });
    const { key, keyId } = await createTestKey();
    const r = await call("/api/v1/accounts?company=01234567", { key });
    const body = await json(r);
    expect(r.status).toBe(422);
    expect(body).toMatchObject({ code: "unreadable_input", requestId: expect.any(String) });
    expect(body.message).toContain(`larger than ${MAX_DOCUMENT_BYTES / MiB} MiB`);
    expect(await balanceOf(keyId)).toBe(100);
  }, 60_000);
});
