/**
 * A page rendered in a real browser (Browser Rendering), as the web tools see it. The browser itself lives at the
 * edge (src/sources/web/browser.ts); the services read only these plain objects, so they are tested without one.
 *
 * Every request the page makes is answered by the Worker through request interception and the safe fetcher's address
 * rules: a request to a private, loopback, link-local or metadata address is refused before anything is sent, and is
 * listed in `requests` with `refused`.
 */

export interface RenderOptions {
  /** The whole render: the browser, the page and everything asked of it. Default 20 s. */
  timeoutMs?: number;
  /** How long to wait for the page's load event before reading what has rendered (the rest is `cut`). Default 10 s. */
  loadTimeoutMs?: number;
  /** Page weight: bytes of every response served to the page together. Default 8 MiB. */
  maxBytes?: number;
  /** Requests the page may make (the document included). Default 150. */
  maxRequests?: number;
  /** Run axe-core in the page with these options (see services/web/accessibility/axeOptions.ts). */
  axe?: Record<string, unknown>;
  /** What to read from the rendered page besides title, URL, requests and cookies. */
  read?: {
    /** The rendered document's visible text (innerText of body), at most 200,000 characters. */
    text?: boolean;
    /** The rendered document's HTML (outerHTML), at most 2,000,000 characters. */
    html?: boolean;
    /** The colours painted on the page, by area (backgrounds, text, borders, buttons and links). */
    colours?: boolean;
    /** The font families used by visible text, by amount of text. */
    fonts?: boolean;
    /** Cookies (every domain) and web storage keys after the load and before any interaction. */
    cookies?: boolean;
  };
}

export interface RenderedRequest {
  url: string;
  /** The browser's resource type: document, stylesheet, image, media, font, script, xhr, fetch, other… */
  type: string;
  /** Whether the request went to a host other than the page's own site (registrable domain). */
  thirdParty: boolean;
  /** The HTTP status the Worker served to the browser; null when refused or cut. */
  status: number | null;
  /** Bytes served to the browser. */
  bytes: number;
  /** Why it was not fetched: a private or otherwise blocked address, a non-web scheme, the page-weight or request cap, the time limit. */
  refused?: string;
}

export interface RenderedCookie {
  name: string;
  domain: string;
  path: string;
  /** Seconds since the epoch; null for a session cookie. */
  expires: number | null;
  httpOnly: boolean;
  secure: boolean;
  sameSite: string | null;
  /** Set for a host other than the page's own site. */
  thirdParty: boolean;
}

export interface RenderedColour {
  /** #rrggbb, lower case. */
  hex: string;
  /** Where the colour is painted most: background, text, border, button or link. */
  use: "background" | "text" | "border" | "button" | "link";
  /** Share of the weighted painted area, 0–1. */
  share: number;
}

export interface RenderedFont {
  /** The computed font-family stack. */
  family: string;
  /** Share of the visible text's characters, 0–1. */
  share: number;
}

export interface RenderedPage {
  /** The URL asked for, and the URL the browser ended on (after redirects). */
  url: string;
  finalUrl: string;
  /** The document's HTTP status. */
  status: number;
  title: string;
  /** Present when asked for in `read`. */
  text?: string;
  html?: string;
  colours?: RenderedColour[];
  fonts?: RenderedFont[];
  /** With `read.cookies`: cookies present after the load and before any interaction (scripts' and Set-Cookie, every domain). */
  cookies?: RenderedCookie[];
  /** With `read.cookies`: keys in localStorage and sessionStorage after the load (names only). */
  storageKeys?: string[];
  /** Every request the page made, in order. */
  requests: RenderedRequest[];
  /** What was cut short, in words: "the page did not finish loading within 10 s", "page weight over 8 MiB: 3 requests refused"… */
  cut: string[];
  /** axe-core's results (violations, incomplete, passes, inapplicable), when `axe` was given. */
  axe?: AxeResults;
  /** Milliseconds: connecting to the browser, loading the page, running axe, all together. */
  timings: { browserMs: number; loadMs: number; axeMs: number | null; totalMs: number };
}

/** The parts of axe-core's result this service reads (axe.run's resolved value). */
export interface AxeResults {
  testEngine: { name: string; version: string };
  /** Frames in the page axe did not enter (it runs in the top document only). */
  framesNotAudited: number;
  violations: AxeRuleResult[];
  incomplete: AxeRuleResult[];
  passes: AxeRuleResult[];
  inapplicable: AxeRuleResult[];
}

export interface AxeRuleResult {
  id: string;
  impact: "minor" | "moderate" | "serious" | "critical" | null;
  tags: string[];
  description: string;
  help: string;
  helpUrl: string;
  /** Every element the rule matched. */
  nodeCount: number;
  /** The first few of them (the browser trims the rest). */
  nodes: { target: unknown[]; html: string; impact?: string | null; failureSummary?: string }[];
}

/** The browser, as the services see it. `available` is false where Browser Rendering is not configured. */
export interface Browser {
  available: boolean;
  /**
   * Renders a page. `document`, when given, is the page's HTML already fetched through the safe fetcher (served to
   * the browser for `url` instead of fetching it again). Throws InputError (422 unreadable_input or a safe-fetch
   * code) when the page itself cannot be fetched or rendered; UpstreamError (503) when the browser is unavailable.
   */
  render(
    url: string,
    opts?: RenderOptions & { document?: { body: Uint8Array; contentType: string; status: number; headers?: Record<string, string> } },
  ): Promise<RenderedPage>;
}
