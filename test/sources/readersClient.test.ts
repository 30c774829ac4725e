import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { InputError, UpstreamError } from "../../src/shared/errors";
import { readersBrowser, readersPdf } from "../../src/sources/readers/client";
import { fromWire, toWire } from "../../src/shared/wireError";

const settings = { testHosts: [], resolverUrl: "https://dns.test/dns-query", keepAliveMs: 0 };

describe("issue 30 §2: the PDF engine and the browser behind the readers Worker's binding", () => {
  it("an error crosses the boundary as the same kind, with its code, field, source and kind", () => {
    const input = fromWire(toWire(new InputError("unreadable_input", "The PDF could not be opened.", { field: "url" })));
    expect(input).toBeInstanceOf(InputError);
    expect(input).toMatchObject({ code: "unreadable_input", field: "url", message: "The PDF could not be opened." });
    const up = fromWire(toWire(new UpstreamError("browser", "rate_limited", "Too many browsers.", { retryAfter: 30, status: 429 })));
    expect(up).toBeInstanceOf(UpstreamError);
    expect(up).toMatchObject({ source: "browser", kind: "rate_limited", retryAfter: 30, status: 429 });
    const other = fromWire(toWire(new TypeError("boom")));
    expect(other).not.toBeInstanceOf(InputError);
    expect(other).not.toBeInstanceOf(UpstreamError);
    expect(other.message).toBe("boom");
  });

  it("a PDF that is not one is refused by the readers Worker (through the real binding) as 422 unreadable_input", async () => {
    const pdf = readersPdf(env.READERS);
    const bytes = new TextEncoder().encode("%PDF-1.7\nnot really a pdf");
    expect(pdf.isPdf(bytes)).toBe(true);
    await expect(pdf.read(bytes)).rejects.toBeInstanceOf(InputError);
    await expect(pdf.read(bytes)).rejects.toMatchObject({ code: "unreadable_input" });
  });

  it("without the binding: no browser, and a PDF read is 503 not_configured (never a 500)", async () => {
    expect(readersBrowser(undefined, settings).available).toBe(false);
    await expect(readersBrowser(undefined, settings).render("https://example.com/")).rejects.toMatchObject({ source: "readers", kind: "not_configured" });
    await expect(readersPdf(undefined).read(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]))).rejects.toMatchObject({ source: "readers", kind: "not_configured" });
  });

  it("a binding that fails in transport (the readers Worker down or over its limits) is an upstream failure: 503, credits back", async () => {
    const broken = { readPdf: async () => Promise.reject(new Error("Worker exceeded CPU time limit.")), render: async () => Promise.reject(new Error("Network connection lost.")) } as never;
    await expect(readersPdf(broken).read(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ source: "readers", kind: "unreachable" });
    await expect(readersBrowser(broken, settings).render("https://example.com/")).rejects.toBeInstanceOf(UpstreamError);
  });
});
