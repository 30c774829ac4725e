/**
 * Zip bombs through the register downloads' unzip (issue 29 §1): the output comes in bounded pieces however large the
 * network's chunks, and a member past its inflated budget, or a zip of too many entries, is refused.
 */
import { describe, expect, it } from "vitest";
import { zipBomb } from "../../../scripts/hostile/binary.mjs";
import { RegisterFormatError } from "../../../src/sources/format-error";
import { unzipMember } from "../../../src/sources/zip";

const MiB = 1024 * 1024;
/** The whole file as one chunk, as a fast network may deliver it. */
const oneChunk = (b: Uint8Array) => new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(b), c.close()) });

describe("zip bombs", () => {
  it("a 64 MiB member arriving in one 0.2 MB chunk is inflated in pieces of at most about 16 MiB", async () => {
    const bomb = zipBomb(64 * MiB);
    let largest = 0;
    let total = 0;
    for await (const piece of unzipMember(oneChunk(bomb), "bomb.csv", "test")) {
      largest = Math.max(largest, piece.length);
      total += piece.length;
    }
    expect(total).toBe(64 * MiB);
    expect(largest).toBeLessThanOrEqual(17 * MiB);
  }, 60_000);

  it("a member past the inflated budget is refused, and reading stops there", async () => {
    let seen = 0;
    const read = async () => {
      for await (const piece of unzipMember(oneChunk(zipBomb(64 * MiB)), "bomb.csv", "test", { maxBytes: 8 * MiB })) seen += piece.length;
    };
    await expect(read()).rejects.toThrow(RegisterFormatError);
    await expect(read()).rejects.toThrow(/inflates to more than 8388608 bytes/);
    expect(seen).toBeLessThanOrEqual(2 * 8 * MiB + 17 * MiB);
  }, 60_000);

  it("a zip of more entries than allowed before the member is refused", async () => {
    const read = async () => {
      for await (const _ of unzipMember(oneChunk(zipBomb(1000, { entries: 50 })), "bomb.csv", "test", { maxEntries: 20 })) void _;
    };
    await expect(read()).rejects.toThrow(/more than 20 entries/);
  });
});
