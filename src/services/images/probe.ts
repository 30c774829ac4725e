/**
 * What an image file is, read from its first bytes only (issue 32: a logo is "checked to be a real image of a sane
 * size" before anything decodes it). Pure: no decoding, no I/O. The format comes from the file's own signature, never
 * from the Content-Type it was served with (a page of HTML served as image/png is not an image), and the dimensions
 * from the format's header, so a decompression bomb (a tiny PNG that declares 50,000 × 50,000 pixels) is refused
 * before a decoder allocates anything.
 *
 * Formats: PNG (and APNG), JPEG, GIF, WebP (lossy, lossless, extended), ICO (its largest image) and SVG (vector: its
 * width and height when it states them in pixels, else its viewBox's). Anything else is not an image here.
 *
 * Budget: a JPEG's dimensions are in a frame header after any number of other segments; the scan reads segment
 * headers only (never their contents) and stops after IMAGE_LIMITS.maxScanBytes or maxSegments, whichever comes
 * first. An SVG's root element is looked for in its first maxScanBytes.
 */

export type ImageFormat = "png" | "jpeg" | "gif" | "webp" | "ico" | "svg";

export const IMAGE_MIME: Record<ImageFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  ico: "image/x-icon",
  svg: "image/svg+xml",
};

export const IMAGE_LIMITS = {
  /** The largest file taken (a logo is rarely over 1 MB). */
  maxBytes: 5 * 1024 * 1024,
  /** The longest side, in pixels. */
  maxSide: 8192,
  /** Pixels in all (width × height): 4096 × 4096, 64 MiB decoded as RGBA, within a Worker's 128 MB. */
  maxPixels: 4096 * 4096,
  /** Bytes a header scan reads at most (JPEG segments, the start of an SVG). */
  maxScanBytes: 256 * 1024,
  /** JPEG segments looked at, at most, before its frame header. */
  maxSegments: 1000,
} as const;

export interface ImageProbe {
  format: ImageFormat;
  mime: string;
  /** Pixels; for an SVG, as it states them (null when it states neither a size nor a viewBox). */
  width: number | null;
  height: number | null;
  /** Raster formats only: the image has frames after the first (an animated GIF, PNG or WebP). */
  animated: boolean;
}

export type ProbeResult = { ok: true; image: ImageProbe } | { ok: false; reason: ProbeRefusal; message: string };

/**
 * Why a file was refused: not an image at all, a header cut short or malformed, too many bytes, or dimensions past
 * the limits (or zero).
 */
export type ProbeRefusal = "not_an_image" | "malformed" | "too_large" | "too_many_pixels";

const refuse = (reason: ProbeRefusal, message: string): ProbeResult => ({ ok: false, reason, message });

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));
const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => sig.every((x, k) => b[at + k] === x);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** Checks the bytes of an image file: its format, its size in pixels, and the limits. */
export function probeImage(bytes: Uint8Array): ProbeResult {
  if (bytes.length > IMAGE_LIMITS.maxBytes)
    return refuse("too_large", `The image is ${bytes.length} bytes, over the ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MiB taken.`);
  const found = raster(bytes) ?? svg(bytes);
  if (!found) return refuse("not_an_image", "The file is not a PNG, JPEG, GIF, WebP, ICO or SVG image (whatever its Content-Type said).");
  if ("reason" in found) return refuse(found.reason, found.message);
  const { width, height } = found;
  if (found.format !== "svg" || (width !== null && height !== null)) {
    if (width === null || height === null || width <= 0 || height <= 0) return refuse("malformed", `The ${found.format} image states no size.`);
    if (width > IMAGE_LIMITS.maxSide || height > IMAGE_LIMITS.maxSide || width * height > IMAGE_LIMITS.maxPixels)
      return refuse(
        "too_many_pixels",
        `The ${found.format} image is ${width} × ${height} pixels, over the limit (${IMAGE_LIMITS.maxSide} a side, ${IMAGE_LIMITS.maxPixels} pixels in all).`,
      );
  }
  return { ok: true, image: { format: found.format, mime: IMAGE_MIME[found.format], width, height, animated: found.animated ?? false } };
}

type Found = { format: ImageFormat; width: number | null; height: number | null; animated?: boolean } | { reason: ProbeRefusal; message: string };

const malformed = (format: string, what: string): Found => ({ reason: "malformed", message: `The ${format} file is malformed: ${what}.` });

function raster(b: Uint8Array): Found | null {
  if (startsWith(b, PNG)) return png(b);
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a") return gif(b);
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return webp(b);
  if (startsWith(b, [0, 0, 1, 0]) && b.length >= 6 && u16le(b, 4) > 0) return ico(b);
  return null;
}

function png(b: Uint8Array): Found {
  // The IHDR chunk comes first: length 13, "IHDR", width, height (big-endian).
  if (b.length < 33 || ascii(b, 12, 4) !== "IHDR") return malformed("PNG", "its first chunk is not IHDR");
  // An acTL chunk before the first IDAT makes it an animated PNG.
  let animated = false;
  for (let at = 8, n = 0; at + 8 <= b.length && at < IMAGE_LIMITS.maxScanBytes && n < IMAGE_LIMITS.maxSegments; n++) {
    const type = ascii(b, at + 4, 4);
    if (type === "acTL") animated = true;
    if (type === "IDAT" || type === "IEND") break;
    at += 12 + u32be(b, at);
  }
  return { format: "png", width: u32be(b, 16), height: u32be(b, 20), animated };
}

function gif(b: Uint8Array): Found {
  if (b.length < 10) return malformed("GIF", "its header is cut short");
  return { format: "gif", width: u16le(b, 6), height: u16le(b, 8), animated: gifFrames(b) > 1 };
}

/** Image descriptors (0x2C) counted as far as the scan budget, skipping extension and image data sub-blocks. */
function gifFrames(b: Uint8Array): number {
  let at = 13;
  if (b[10] & 0x80) at += 3 * 2 ** ((b[10] & 7) + 1); // the global colour table
  let frames = 0;
  const end = Math.min(b.length, IMAGE_LIMITS.maxScanBytes * 16);
  const skipBlocks = () => {
    while (at < end && b[at] !== 0) at += b[at] + 1;
    at++;
  };
  for (let n = 0; at < end && n < IMAGE_LIMITS.maxSegments * 10 && frames < 2; n++) {
    const marker = b[at];
    if (marker === 0x3b) break; // trailer
    if (marker === 0x21) {
      at += 2;
      skipBlocks();
    } else if (marker === 0x2c) {
      frames++;
      const packed = b[at + 9];
      at += 10;
      if (packed & 0x80) at += 3 * 2 ** ((packed & 7) + 1); // a local colour table
      at++; // LZW minimum code size
      skipBlocks();
    } else break;
  }
  return frames;
}

/** Start-of-frame markers: every SOFn but DHT (C4), JPG (C8) and DAC (CC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Uint8Array): Found {
  let at = 2;
  const end = Math.min(b.length, IMAGE_LIMITS.maxScanBytes);
  for (let n = 0; n < IMAGE_LIMITS.maxSegments; n++) {
    while (at < end && b[at] === 0xff && b[at + 1] === 0xff) at++; // fill bytes
    if (at + 4 > end) break;
    if (b[at] !== 0xff) return malformed("JPEG", `no marker at byte ${at}`);
    const marker = b[at + 1];
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // the end, or the scan data before any frame header
    const length = u16be(b, at + 2);
    if (length < 2) return malformed("JPEG", `a segment of length ${length}`);
    if (SOF.has(marker)) {
      if (at + 9 > b.length) break;
      return { format: "jpeg", width: u16be(b, at + 7), height: u16be(b, at + 5) };
    }
    at += 2 + length;
  }
  return at >= IMAGE_LIMITS.maxScanBytes
    ? malformed("JPEG", `no frame header in its first ${IMAGE_LIMITS.maxScanBytes / 1024} KiB`)
    : malformed("JPEG", "no frame header");
}

function webp(b: Uint8Array): Found {
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 ") {
    // A key frame's start code, then 14-bit width and height (little-endian; the top two bits are scaling).
    if (b.length < 30 || !startsWith(b, [0x9d, 0x01, 0x2a], 23)) return malformed("WebP", "its VP8 frame header is missing");
    return { format: "webp", width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (b.length < 25 || b[20] !== 0x2f) return malformed("WebP", "its lossless signature is missing");
    const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
    return { format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    if (b.length < 30) return malformed("WebP", "its extended header is cut short");
    return { format: "webp", width: u24le(b, 24) + 1, height: u24le(b, 27) + 1, animated: (b[20] & 0x02) !== 0 };
  }
  return malformed("WebP", `an unknown first chunk "${chunk}"`);
}

function ico(b: Uint8Array): Found {
  const count = u16le(b, 4);
  if (b.length < 6 + 16 * count) return malformed("ICO", `${count} images listed but the directory is cut short`);
  let width = 0;
  let height = 0;
  for (let i = 0; i < count; i++) {
    const w = b[6 + 16 * i] || 256;
    const h = b[7 + 16 * i] || 256;
    if (w * h > width * height) [width, height] = [w, h];
  }
  return { format: "ico", width, height };
}

/** Pixels from an SVG length ("120", "120px"); null for other units (%, em) or none. */
const pixels = (v: string | undefined): number | null => {
  const m = v ? /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/i.exec(v) : null;
  return m ? Math.round(Number(m[1])) : null;
};

function svg(b: Uint8Array): Found | null {
  const head = new TextDecoder().decode(b.subarray(0, Math.min(b.length, IMAGE_LIMITS.maxScanBytes)));
  // Before the root element only a BOM, white space, an XML declaration or other processing instruction, comments and a
  // doctype. Each alternative starts differently and can end in one place only (a comment at its first "-->"), so a
  // hostile prolog (spaces, unclosed comments, a doctype without its ">") is read in linear time, never backtracked into.
  const m = /^\uFEFF?(?:\s|<\?[^>]*>|<!--(?:[^-]|-(?!->))*-->|<!DOCTYPE[^>[]*(?:\[[^\]]*\][^>]*)?>)*<svg\b([^>]*)>/i.exec(head);
  if (!m) return null;
  const attrs = new Map([...m[1].matchAll(/([\w:-]+)\s*=\s*("([^"]*)"|'([^']*)')/g)].map((a) => [a[1].toLowerCase(), a[3] ?? a[4]]));
  let width = pixels(attrs.get("width"));
  let height = pixels(attrs.get("height"));
  const box = attrs
    .get("viewbox")
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box && box.length === 4 && box.every(Number.isFinite) && box[2] > 0 && box[3] > 0) {
    if (width === null && height === null) [width, height] = [Math.round(box[2]), Math.round(box[3])];
    else if (width === null && height !== null) width = Math.round((height * box[2]) / box[3]);
    else if (height === null && width !== null) height = Math.round((width * box[3]) / box[2]);
  }
  return { format: "svg", width, height };
}
