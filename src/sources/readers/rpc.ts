/**
 * What the readers Worker (src/readers.ts) answers over its service binding, as the API Worker's env types READERS.
 * Failures come back as data (shared/wireError.ts): Workers RPC keeps an error's message only.
 */
import type { PdfText } from "../documents/pdf";
import type { MadeImage, MakeOptions } from "../images/transform";
import type { ImageProbe } from "../../services/images/probe";
import type { Browser, RenderedPage } from "../../services/web/rendered";
import type { Wired } from "../../shared/wireError";

/** What the API Worker sends with a render: its own settings for the safe fetcher and the browser session. */
export interface RenderSettings {
  testHosts: string[];
  resolverUrl: string;
  keepAliveMs: number;
}

/** The largest PDF the readers Worker takes over the wire (the API Worker fetches at most 30 MiB, a filing's document). */
export const MAX_PDF_WIRE_BYTES = 32 * 1024 * 1024;
/** The parts a PDF is sent in. */
export const PDF_WIRE_CHUNK = 256 * 1024;

export interface ReadersRpc {
  /**
   * A PDF's text, page by page (at most `maxPages`); a scan, a password or a budget passed is an unreadable_input
   * error. The API Worker sends the file as a stream of PDF_WIRE_CHUNK parts with its `size`: Workers RPC serializes a
   * Uint8Array argument whole, which held several copies of a 15 MiB file in each Worker at once (a Uint8Array is
   * still taken).
   */
  readPdf(bytes: Uint8Array | ReadableStream<Uint8Array>, opts?: { maxPages?: number; size?: number }): Promise<Wired<PdfText>>;
  /** A page rendered in the browser (see services/web/rendered.ts for what is read and the limits). */
  render(url: string, opts: Parameters<Browser["render"]>[1], settings: RenderSettings): Promise<Wired<RenderedPage>>;
  /**
   * A logo file (at most IMAGE_LIMITS.maxBytes, src/services/images/probe.ts) made a square of `opts.size` in
   * `opts.format` (src/sources/images/transform.ts); what is not a raster image it can read is an unreadable_input error.
   */
  makeLogo(bytes: Uint8Array, opts: MakeOptions): Promise<Wired<MadeImage & { source: ImageProbe }>>;
  /** The monogram's pixels: white `initials` centred on a square of `colourHex`. */
  makeMonogram(initials: string, colourHex: string, opts: Omit<MakeOptions, "greyscale">): Promise<Wired<MadeImage>>;
  /** For the status page: the Worker answers, and whether it has a browser to render with. */
  ping(): Promise<{ browser: boolean }>;
}
