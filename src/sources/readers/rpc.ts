/**
 * What the readers Worker (src/readers.ts) answers over its service binding, as the API Worker's env types READERS.
 * Failures come back as data (shared/wireError.ts): Workers RPC keeps an error's message only.
 */
import type { PdfText } from "../documents/pdf";
import type { Browser, RenderedPage } from "../../services/web/rendered";
import type { Wired } from "../../shared/wireError";

/** What the API Worker sends with a render: its own settings for the safe fetcher and the browser session. */
export interface RenderSettings {
  testHosts: string[];
  resolverUrl: string;
  keepAliveMs: number;
}

export interface ReadersRpc {
  /** A PDF's text, page by page (at most `maxPages`); a scan, a password or a budget passed is an unreadable_input error. */
  readPdf(bytes: Uint8Array, opts?: { maxPages?: number }): Promise<Wired<PdfText>>;
  /** A page rendered in the browser (see services/web/rendered.ts for what is read and the limits). */
  render(url: string, opts: Parameters<Browser["render"]>[1], settings: RenderSettings): Promise<Wired<RenderedPage>>;
  /** For the status page: the Worker answers, and whether it has a browser to render with. */
  ping(): Promise<{ browser: boolean }>;
}
