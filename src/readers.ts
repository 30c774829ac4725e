/**
 * The readers Worker: the heavy readers the API Worker calls through a service binding (READERS), so that its own
 * bundle and global scope carry neither (docs/architecture.md "Workers"):
 * - the PDF engine (unpdf, pdf.js): a PDF's text page by page, within the budgets of src/sources/documents/pdf.ts;
 * - the browser client (@cloudflare/puppeteer) and axe-core's source: a page rendered in Browser Rendering, every
 *   request it makes answered through the safe fetcher (src/sources/web/browser.ts);
 * - the image maker (Photon, WebAssembly): a logo made to a size and format, a monogram's pixels (src/sources/images/).
 * It has no route of its own (its fetch answers 404) and no state: the API Worker sends, with each call, the settings
 * the call needs from its own configuration (the DoH resolver, test hosts, how long a browser session is kept), so the
 * API's configuration is the one place they are set. Failures come back as data (shared/wireError.ts) and are thrown
 * again on the API's side as the same kind of error.
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { dohResolverFor } from "./sources/dns/doh";
import type { PdfText } from "./sources/documents/pdf";
import type { MadeImage, MakeOptions } from "./sources/images/transform";
import type { ImageProbe } from "./services/images/probe";
import { MAX_PDF_WIRE_BYTES, type ReadersRpc, type RenderSettings } from "./sources/readers/rpc";
import { readCapped } from "./shared/bytes";
import { InputError } from "./shared/errors";
import type { Browser, RenderedPage } from "./services/web/rendered";
import { type Wired, wired } from "./shared/wireError";

/**
 * The PDF engine (pdf.js), the browser client (puppeteer, axe-core's source) and the image maker (Photon's WebAssembly)
 * are evaluated on the first call that needs each, not when an isolate starts: a ping (the status page) needs none. Both
 * stay in this Worker's bundle (esbuild keeps a dynamically imported module's code in it).
 */
const pdfEngine = () => import("./sources/documents/pdf");
const browserClient = () => import("./sources/web/browser");
const imageMaker = () => import("./sources/images/transform");

export interface ReadersEnv {
  /** Browser Rendering; absent where it is not configured (renders then fail with 503 not_configured). */
  BROWSER?: Fetcher;
}

export class Readers extends WorkerEntrypoint<ReadersEnv> implements ReadersRpc {
  /** A PDF's text, page by page (at most `maxPages`); a scan, a password or a budget passed is an unreadable_input error. */
  async readPdf(bytes: Uint8Array | ReadableStream<Uint8Array>, opts: { maxPages?: number; size?: number } = {}): Promise<Wired<PdfText>> {
    return wired(async () => {
      const { readPdf } = await pdfEngine();
      return bytes instanceof Uint8Array
        ? readPdf(bytes, { maxPages: opts.maxPages })
        : readPdf(
            await readCapped(bytes, {
              maxBytes: MAX_PDF_WIRE_BYTES,
              sizeHint: opts.size,
              tooLarge: () =>
                new InputError("unreadable_input", `The PDF is larger than ${MAX_PDF_WIRE_BYTES / 1024 / 1024} MiB, the most the PDF reader takes.`),
            }),
            { maxPages: opts.maxPages, owned: true },
          );
    });
  }

  /** A logo made to a size and format (src/sources/images/transform.ts). */
  async makeLogo(bytes: Uint8Array, opts: MakeOptions): Promise<Wired<MadeImage & { source: ImageProbe }>> {
    return wired(async () => (await imageMaker()).makeLogo(bytes, opts));
  }

  /** The monogram's pixels. */
  async makeMonogram(initials: string, colourHex: string, opts: Omit<MakeOptions, "greyscale">): Promise<Wired<MadeImage>> {
    return wired(async () => (await imageMaker()).makeMonogram(initials, colourHex, opts));
  }

  /** For the status page: this Worker answers, and whether it has a browser to render with. */
  async ping(): Promise<{ browser: boolean }> {
    return { browser: Boolean(this.env.BROWSER) };
  }

  /** A page rendered in the browser (see services/web/rendered.ts for what is read and the limits). */
  async render(url: string, opts: Parameters<Browser["render"]>[1], settings: RenderSettings): Promise<Wired<RenderedPage>> {
    return wired(async () => {
      const { createBrowser } = await browserClient();
      const browser = createBrowser(this.env.BROWSER, {
        testHosts: settings.testHosts,
        resolve: dohResolverFor(settings.resolverUrl),
        keepAliveMs: settings.keepAliveMs,
      });
      return browser.render(url, opts);
    });
  }
}

export default {
  fetch: () => Response.json({ error: { code: "not_found", message: "This Worker serves the API Worker through a service binding only." } }, { status: 404 }),
} satisfies ExportedHandler<ReadersEnv>;
