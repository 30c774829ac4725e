/**
 * Gzip sitemap bombs (issue 29 §1): a caller's site serves `/sitemap.xml.gz`, which ai-visibility inflates itself (the
 * file is sent as is, not with Content-Encoding). The inflating is streamed in small slices and stops past
 * MAX_SITEMAP_BYTES whatever the gzip trailer (ISIZE) says; a sitemap within the cap reads as before.
 */
import { gzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { gzipBomb } from "../../../scripts/hostile/binary.mjs";
import { MAX_SITEMAP_BYTES, readSitemap, sitemapText } from "../../../src/services/web/sitemap";
import { cpuNow } from "../../support/cpuClock";

const MiB = 1024 * 1024;

/** The gzip file with its trailer's ISIZE replaced by `claimed` (as scripts/hostile/index.mjs's lyingGzip). */
function lyingGzip(gz: Uint8Array, claimed: number): Uint8Array {
  const out = new Uint8Array(gz);
  new DataView(out.buffer, out.byteOffset, out.byteLength).setUint32(out.length - 4, claimed, true);
  return out;
}

const enc = new TextEncoder();
const sitemap = (n: number) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
  Array.from(
    { length: n },
    (_, i) => `<url><loc>https://www.example.co.uk/page-${i}</loc><lastmod>2026-01-${String((i % 28) + 1).padStart(2, "0")}</lastmod></url>`,
  ).join("") +
  "</urlset>";
/** Exactly `bytes` of sitemap text (padded with spaces before the closing tag). */
const sitemapOf = (bytes: number) => {
  const s = sitemap(Math.floor((bytes - 200) / 90));
  return s.slice(0, -"</urlset>".length) + " ".repeat(bytes - s.length) + "</urlset>";
};

describe("gzip sitemaps: inflated in slices, counted, stopped at the cap", () => {
  let bomb256: Uint8Array;
  beforeAll(() => {
    bomb256 = gzipBomb(256 * MiB);
  }, 60_000);

  it("a gzip sitemap within the cap reads as its text, also when exactly at the cap and when its trailer lies low", () => {
    const text = sitemap(500);
    const gz = gzipSync(enc.encode(text));
    expect(sitemapText(gz, "")).toEqual({ text });
    expect(readSitemap((sitemapText(gz, "") as { text: string }).text).entries).toHaveLength(500);
    expect(sitemapText(lyingGzip(gz, 0), "")).toEqual({ text });
    const atCap = sitemapOf(MAX_SITEMAP_BYTES);
    expect(atCap.length).toBe(MAX_SITEMAP_BYTES);
    expect(sitemapText(gzipSync(enc.encode(atCap)), "")).toEqual({ text: atCap });
    // Not gzip: the decoded text as given.
    expect(sitemapText(enc.encode(text), text)).toEqual({ text });
  });

  it("one byte past the cap is too large, also when the trailer says 1 KiB", () => {
    const over = gzipSync(enc.encode(sitemapOf(MAX_SITEMAP_BYTES + 1)));
    expect(sitemapText(over, "")).toEqual({ tooLarge: true });
    expect(sitemapText(lyingGzip(over, 1024), "")).toEqual({ tooLarge: true });
  });

  it("a 256 MiB gzip bomb whose trailer says 1 KiB is refused as too large, quickly (the inflating stops near the cap)", () => {
    sitemapText(gzipSync(enc.encode(sitemap(10))), ""); // warm the inflater
    const lying = lyingGzip(bomb256, 1024);
    const t0 = cpuNow();
    const read = sitemapText(lying, "");
    const ms = cpuNow() - t0;
    expect(read).toEqual({ tooLarge: true });
    // Inflating all 256 MiB in one call (the old gunzipSync) takes well over a second and 256 MiB of memory; stopping
    // within ~1 MiB of the 2 MiB cap takes milliseconds.
    expect(ms).toBeLessThan(400);
  });

  it("the honest 256 MiB bomb is refused by its stated size before inflating", () => {
    expect(sitemapText(bomb256, "")).toEqual({ tooLarge: true });
  });

  it("a bomb after a small first member (concatenated gzip members) is counted across members", () => {
    const first = gzipSync(enc.encode(sitemap(5)));
    const both = new Uint8Array(first.length + bomb256.length);
    both.set(first);
    both.set(lyingGzip(bomb256, 1024), first.length);
    const t0 = cpuNow();
    expect(sitemapText(both, "")).toEqual({ tooLarge: true });
    expect(cpuNow() - t0).toBeLessThan(400);
  });

  it("a truncated or corrupt gzip reads as no text (not a sitemap), not an error", () => {
    const gz = gzipSync(enc.encode(sitemap(500)));
    // (a cut file's last four bytes are not a trailer: set them low, or its "stated size" may refuse it first)
    expect(sitemapText(lyingGzip(gz.subarray(0, gz.length >> 1), 0), "")).toEqual({ text: "" });
    expect(sitemapText(Uint8Array.from([0x1f, 0x8b]), "")).toEqual({ text: "" });
    const bad = new Uint8Array(gz);
    bad.fill(0xff, 10, 40);
    expect(sitemapText(bad, "")).toEqual({ text: "" });
  });
});
