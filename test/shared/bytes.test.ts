import { describe, expect, it } from "vitest";
import { readCapped } from "../../src/shared/bytes";

/** The one capped reader of a stream into one buffer (safeFetch's bodies, the readers Worker's PDFs, request bodies). */
const streamOf = (parts: number[], onCancel?: () => void) => {
  let i = 0;
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (i >= parts.length) return c.close();
      const n = parts[i++];
      c.enqueue(new Uint8Array(n).map((_, k) => (pulled + k) % 251));
      pulled += n;
    },
    cancel: () => onCancel?.(),
  });
  return { stream, pulled: () => pulled };
};
const tooLarge = () => new Error("too large");

describe("readCapped", () => {
  it("the bytes whole and in order, whatever the size hint says (right, short, long, missing, nonsense)", async () => {
    const parts = [1, 70_000, 3, 100_000, 29_996];
    const total = parts.reduce((a, b) => a + b, 0);
    for (const sizeHint of [total, 10, total - 1, total + 500, undefined, Number.NaN, -5]) {
      const out = await readCapped(streamOf(parts).stream, { maxBytes: 300_000, sizeHint, tooLarge });
      expect(out.length, String(sizeHint)).toBe(total);
      expect(out.buffer.byteLength, String(sizeHint)).toBe(total); // not a view of a larger buffer
      expect(
        out.every((b, k) => b === k % 251),
        String(sizeHint),
      ).toBe(true);
    }
  });

  it("past the cap: refused with the caller's error, the stream cancelled and not read on", async () => {
    let cancelled = false;
    const s = streamOf([60_000, 60_000, 60_000, 60_000], () => (cancelled = true));
    await expect(readCapped(s.stream, { maxBytes: 100_000, tooLarge })).rejects.toThrow("too large");
    expect(cancelled).toBe(true);
    expect(s.pulled()).toBeLessThanOrEqual(180_000);
    // exactly at the cap is within it
    expect((await readCapped(streamOf([50_000, 50_000]).stream, { maxBytes: 100_000, tooLarge })).length).toBe(100_000);
  });

  it("each read goes through `read` (a time limit), and its failure cancels the stream", async () => {
    let cancelled = false;
    let reads = 0;
    const s = streamOf([10, 10, 10], () => (cancelled = true));
    const failing = <T>(next: Promise<T>) => (++reads === 2 ? Promise.reject(new Error("timed out")) : next);
    await expect(readCapped(s.stream, { maxBytes: 1000, tooLarge, read: failing })).rejects.toThrow("timed out");
    expect(cancelled).toBe(true);
  });
});
