/**
 * The readers Worker (src/readers.ts) as the API Worker's services see it: the PDF engine, the browser and the image
 * maker behind the READERS service binding, with the same interfaces they had in one Worker (Services["pdf"], Services["browser"]).
 * Only types come from the readers' modules: the API Worker's bundle holds none of unpdf, puppeteer, axe-core or Photon.
 */
import { PDF_WIRE_CHUNK, type ReadersRpc, type RenderSettings } from "./rpc";
import type { PdfText } from "../documents/pdf";
import type { MadeImage, MakeOptions } from "../images/transform";
import { IMAGE_LIMITS, type ImageProbe } from "../../services/images/probe";
import type { Browser, RenderedPage } from "../../services/web/rendered";
import { InputError, UpstreamError } from "../../shared/errors";
import { type Wired, unwire } from "../../shared/wireError";

export type ReadersBinding = ReadersRpc;

/** %PDF: the magic bytes, checked here so that telling a PDF from a page needs no PDF engine. */
export const isPdf = (bytes: Uint8Array): boolean => bytes.length > 4 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46;

const notConfigured = (what: string) => new UpstreamError("readers", "not_configured", `The readers Worker (${what}) is not bound to this server (READERS).`);

/** A binding call that failed in transport (the readers Worker down or over a limit) is an upstream failure: 503, credits back. */
async function call<T>(f: () => Promise<unknown>): Promise<T> {
  let r: Wired<T>;
  try {
    r = (await f()) as Wired<T>;
  } catch (e) {
    throw new UpstreamError(
      "readers",
      "unreachable",
      `The readers Worker could not be reached (${e instanceof Error ? e.message.slice(0, 200) : String(e)}).`,
      { cause: e },
    );
  }
  return unwire(r);
}

/** `bytes` as a stream of copies of PDF_WIRE_CHUNK bytes, made as the binding pulls them (a view would send its whole buffer). */
export function wireStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, (at += PDF_WIRE_CHUNK)));
    },
  });
}

export function readersPdf(binding: ReadersBinding | undefined): { isPdf(bytes: Uint8Array): boolean; read(bytes: Uint8Array): Promise<PdfText> } {
  return {
    isPdf,
    read: async (bytes) => {
      if (!binding) throw notConfigured("the PDF reader");
      return call<PdfText>(() => binding.readPdf(wireStream(bytes), { size: bytes.length }));
    },
  };
}

/**
 * The browser through the readers Worker. `available` is false without the binding; whether the readers Worker itself
 * has Browser Rendering is known only there: a render then fails with 503 not_configured, which the web tools that can
 * answer without a browser turn into a reason (app/web/page.ts renderOrReason).
 */
export function readersBrowser(binding: ReadersBinding | undefined, settings: RenderSettings): Browser {
  if (!binding)
    return {
      available: false,
      render: async () => {
        throw notConfigured("the browser");
      },
    };
  return { available: true, render: (url, opts) => call<RenderedPage>(() => binding.render(url, opts, settings)) };
}

/** Logos made to a size and format, and monograms' pixels, by the readers Worker (its image maker: Photon). */
export interface ImageMaker {
  available: boolean;
  makeLogo(bytes: Uint8Array, opts: MakeOptions): Promise<MadeImage & { source: ImageProbe }>;
  makeMonogram(initials: string, colourHex: string, opts: Omit<MakeOptions, "greyscale">): Promise<MadeImage>;
}

export function readersImages(binding: ReadersBinding | undefined): ImageMaker {
  if (!binding)
    return {
      available: false,
      makeLogo: async () => {
        throw notConfigured("the image maker");
      },
      makeMonogram: async () => {
        throw notConfigured("the image maker");
      },
    };
  return {
    available: true,
    makeLogo: async (bytes, opts) => {
      // Refused here, before Workers RPC copies the file across: the readers Worker's probe would refuse it anyway.
      if (bytes.length > IMAGE_LIMITS.maxBytes)
        throw new InputError("unreadable_input", `The image is ${bytes.length} bytes, over the ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MiB taken.`);
      return call(() => binding.makeLogo(bytes, opts));
    },
    makeMonogram: (initials, colourHex, opts) => call(() => binding.makeMonogram(initials, colourHex, opts)),
  };
}
