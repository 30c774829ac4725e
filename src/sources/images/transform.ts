/**
 * Logo images made to the asked size and format (issue 32), with Photon (@cf-wasm/photon: Rust's `image` crate and
 * Photon's filters in WebAssembly; the `workerd` build in a Worker, the `node` build in Node's tests). It belongs to the
 * readers Worker (src/readers.ts), beside the other heavy readers: its WebAssembly is 1.5 MB.
 *
 * A file is decoded only after the probe (src/services/images/probe.ts) has read its format and size from its header
 * and found both within the limits, so a decompression bomb never reaches the decoder; the decoded size must be the
 * one the header stated. An SVG (a document, not pixels: see probe's notes) is drawn as pixels by resvg (./svg.ts), after
 * its markup is checked against its own budget (src/services/images/svgBudget.ts), so a third party's SVG is never
 * served as active content: its scripts never run and nothing it links to is loaded.
 *
 * Output: a square of `size` pixels, the image scaled to fit inside it (its aspect ratio kept) and centred on a
 * transparent background, optionally greyscale, as PNG or WebP (lossless).
 */
import { PhotonImage, Rgba, SamplingFilter, draw_text_with_color, grayscale, resize, watermark } from "@cf-wasm/photon";
import { type ImageProbe, probeImage } from "../../services/images/probe";
import { InputError } from "../../shared/errors";
import { rasteriseSvg } from "./svg";

import type { LogoFormat, LogoSize } from "../../services/images/sizes";
export { LOGO_SIZES, type LogoFormat, type LogoSize } from "../../services/images/sizes";

export interface MadeImage {
  bytes: Uint8Array;
  mime: "image/png" | "image/webp";
  width: number;
  height: number;
}

export interface MakeOptions {
  size: LogoSize;
  format: LogoFormat;
  greyscale?: boolean;
}

const unreadable = (message: string) => new InputError("unreadable_input", message);

/** Everything Photon allocates lives in WebAssembly memory until freed: every image made here is freed on the way out. */
function using<T>(fn: (keep: <I extends { free(): void }>(x: I) => I) => T): T {
  const made: { free(): void }[] = [];
  try {
    return fn((x) => {
      made.push(x);
      return x;
    });
  } finally {
    for (const x of made.reverse()) x.free();
  }
}

const encode = (img: PhotonImage, format: LogoFormat, size: number): MadeImage => ({
  bytes: format === "webp" ? img.get_bytes_webp() : img.get_bytes(),
  mime: format === "webp" ? "image/webp" : "image/png",
  width: size,
  height: size,
});

/** A transparent square, or one filled with `rgb`. */
function square(size: number, rgb?: readonly [number, number, number]): PhotonImage {
  const pixels = new Uint8Array(size * size * 4);
  if (rgb) for (let i = 0; i < pixels.length; i += 4) pixels.set([rgb[0], rgb[1], rgb[2], 255], i);
  return new PhotonImage(pixels, size, size);
}

/**
 * The logo file as a `size` square of the asked format; throws unreadable_input for what is not an image it can read.
 * A raster image is decoded by Photon; an SVG is drawn by resvg (./svg.ts), its longer side `size` pixels, after its
 * markup has been checked against its own budget. Both then go the same way: fitted and centred on the square.
 */
export function makeLogo(file: Uint8Array, opts: MakeOptions): MadeImage & { source: ImageProbe } {
  const probe = probeImage(file);
  if (!probe.ok) throw unreadable(probe.message);
  const source = probe.image;
  return using((keep) => {
    let img: PhotonImage;
    if (source.format === "svg") {
      const drawn = rasteriseSvg(file, opts.size);
      img = keep(new PhotonImage(drawn.pixels, drawn.width, drawn.height));
    } else {
      try {
        img = keep(PhotonImage.new_from_byteslice(file));
      } catch (e) {
        throw unreadable(`The ${source.format} image could not be decoded (${String((e as Error)?.message ?? e).slice(0, 120)}).`);
      }
      const [w, h] = [img.get_width(), img.get_height()];
      // An ICO's header lists its images; the decoder picks one. Any other format must decode to the size it stated.
      if (source.format !== "ico" && (w !== source.width || h !== source.height))
        throw unreadable(`The ${source.format} image states ${source.width} × ${source.height} pixels but holds ${w} × ${h}.`);
    }
    return { ...onSquare(img, opts, keep), source };
  });
}

/** The image scaled to fit inside the `size` square (its aspect ratio kept), centred on transparency, greyscale if asked, encoded. */
function onSquare(img: PhotonImage, opts: MakeOptions, keep: <I extends { free(): void }>(x: I) => I): MadeImage {
  const [w, h] = [img.get_width(), img.get_height()];
  const scale = Math.min(opts.size / w, opts.size / h);
  const [nw, nh] = [Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale))];
  const fitted = nw === w && nh === h ? img : keep(resize(img, nw, nh, SamplingFilter.Lanczos3));
  const canvas = keep(square(opts.size));
  watermark(canvas, fitted, BigInt((opts.size - nw) >> 1), BigInt((opts.size - nh) >> 1));
  if (opts.greyscale) grayscale(canvas);
  return encode(canvas, opts.format, opts.size);
}

const rgbOf = (hex: string): [number, number, number] => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

/**
 * The monogram (src/services/images/monogram.ts gives its initials and colour, the grey for greyscale) as pixels: white initials centred on a
 * square of the colour. Photon's text has no measure, so the initials are drawn once on a scratch square and their
 * drawn pixels' bounds give the offset that centres them.
 */
export function makeMonogram(initials: string, colourHex: string, opts: Omit<MakeOptions, "greyscale">): MadeImage {
  const size = opts.size;
  const fontSize = Math.max(6, Math.round(size * (initials.length > 1 ? 0.4 : 0.5)));
  return using((keep) => {
    // The colour is moved into each call (Photon takes it over): a new one each time, never freed here.
    const white = () => new Rgba(255, 255, 255, 255);
    const scratch = keep(square(size * 2));
    draw_text_with_color(scratch, initials, 0, 0, fontSize, white());
    const px = scratch.get_raw_pixels();
    let [x0, y0, x1, y1] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1, -1];
    for (let y = 0; y < size * 2; y++)
      for (let x = 0; x < size * 2; x++)
        if (px[(y * size * 2 + x) * 4 + 3] > 0) {
          x0 = Math.min(x0, x);
          x1 = Math.max(x1, x);
          y0 = Math.min(y0, y);
          y1 = Math.max(y1, y);
        }
    const canvas = keep(square(size, rgbOf(colourHex)));
    if (x1 >= 0)
      draw_text_with_color(canvas, initials, Math.round((size - (x1 - x0 + 1)) / 2 - x0), Math.round((size - (y1 - y0 + 1)) / 2 - y0), fontSize, white());
    return encode(canvas, opts.format, size);
  });
}
