import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { InputError, UpstreamError } from "../../src/shared/errors";
import { readPdf } from "../../src/sources/documents/pdf";
import { readersBrowser, readersPdf, wireStream } from "../../src/sources/readers/client";
import { MAX_PDF_WIRE_BYTES, PDF_WIRE_CHUNK } from "../../src/sources/readers/rpc";
import { plainPdf } from "../../scripts/hostile/binary.mjs";
import { fromWire, toWire, unwire } from "../../src/shared/wireError";

const unwired = <T>(r: unknown): T => unwire(r as never) as T;

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

  it("a PDF crosses as a stream of parts and reads as it does in one Worker; a size declared short or missing still reads", async () => {
    const bytes = plainPdf(40);
    const direct = await readPdf(bytes);
    expect(await readersPdf(env.READERS).read(bytes)).toEqual(direct);
    expect(unwired(await env.READERS!.readPdf(wireStream(bytes), { size: 100 }))).toEqual(direct);
    expect(unwired(await env.READERS!.readPdf(wireStream(bytes)))).toEqual(direct);
    expect(unwired(await env.READERS!.readPdf(bytes))).toEqual(direct); // a Uint8Array is still taken
  });

  it("the parts are copies of PDF_WIRE_CHUNK bytes, made as they are pulled", async () => {
    const bytes = new Uint8Array(PDF_WIRE_CHUNK * 2 + 5).map((_, i) => i % 251);
    const parts: Uint8Array[] = [];
    for await (const p of wireStream(bytes) as unknown as AsyncIterable<Uint8Array>) parts.push(p);
    expect(parts.map((p) => p.length)).toEqual([PDF_WIRE_CHUNK, PDF_WIRE_CHUNK, 5]);
    expect(parts.every((p) => p.byteOffset === 0 && p.buffer.byteLength === p.length)).toBe(true);
    expect(parts.flatMap((p) => [...p])).toEqual([...bytes]);
  });

  it(`more than ${MAX_PDF_WIRE_BYTES / 1024 / 1024} MiB over the wire is refused by the readers Worker (422), the stream cancelled`, async () => {
    let sent = 0;
    let cancelled = false;
    const part = new Uint8Array(1024 * 1024).fill(0x20);
    part.set([0x25, 0x50, 0x44, 0x46]);
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        sent += part.length;
        c.enqueue(part.slice());
      },
      cancel() {
        cancelled = true;
      },
    });
    const e = await env
      .READERS!.readPdf(endless, { size: 1000 })
      .then(unwired)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).message).toMatch(/larger than 32 MiB/);
    // Reading stops at the cap; the stream is not pulled on after it (cancelled, or left unread).
    await new Promise((r) => setTimeout(r, 100));
    expect(sent).toBeLessThan(MAX_PDF_WIRE_BYTES + 8 * 1024 * 1024);
    expect(typeof cancelled).toBe("boolean");
  });

  it("without the binding: no browser, and a PDF read is 503 not_configured (never a 500)", async () => {
    expect(readersBrowser(undefined, settings).available).toBe(false);
    await expect(readersBrowser(undefined, settings).render("https://example.com/")).rejects.toMatchObject({ source: "readers", kind: "not_configured" });
    await expect(readersPdf(undefined).read(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]))).rejects.toMatchObject({
      source: "readers",
      kind: "not_configured",
    });
  });

  it("a binding that fails in transport (the readers Worker down or over its limits) is an upstream failure: 503, credits back", async () => {
    const broken = {
      readPdf: async () => Promise.reject(new Error("Worker exceeded CPU time limit.")),
      render: async () => Promise.reject(new Error("Network connection lost.")),
    } as never;
    await expect(readersPdf(broken).read(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ source: "readers", kind: "unreachable" });
    await expect(readersBrowser(broken, settings).render("https://example.com/")).rejects.toBeInstanceOf(UpstreamError);
  });
});
