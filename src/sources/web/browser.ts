/**
 * The browser (Browser Rendering through @cloudflare/puppeteer), at the edge. Every request the page makes (the
 * document, subresources, redirects, iframes, fetches from scripts) is intercepted and answered by the Worker through
 * the safe fetcher: http(s) only, public addresses only (every host resolved first), redirects handed back to the
 * browser so each hop is checked again. The browser itself never reaches the network:
 * - in production the session is launched with guardrails that allow no outbound domain at all, so only the
 *   Worker's answers reach the page;
 * - locally (npm start, the tests, a self-hosted wrangler) Debian's chromium has no network of its own: no host or
 *   address resolves and its only proxy does not exist (scripts/browser-prep.mjs NO_NETWORK), so the sockets Chromium
 *   opens by itself before a request is intercepted (a preconnect to a navigation's target, DNS prefetch) go nowhere;
 * - in the page, before its own scripts, WebSocket, WebTransport, WebRTC and workers are refused (they are not
 *   requests the interception sees).
 * Limits: one time limit for the whole render, a wait for the load event after which what has rendered is read, a
 * page-weight cap over every response together and a request cap. The page and its browser context are always
 * closed; the browser is closed, or, when BROWSER_KEEP_ALIVE_MS is set, a session that rendered cleanly is left for the
 * next render to connect to (Browser Rendering closes it after that long idle).
 */
import puppeteer, { type Browser as PuppeteerBrowser, type HTTPRequest, type Page } from "@cloudflare/puppeteer";
import { AXE_SOURCE } from "./axeSource.generated";
import { siteOf } from "../../services/net/site";
import type { AxeResults, Browser, RenderOptions, RenderedCookie, RenderedPage, RenderedRequest } from "../../services/web/rendered";
import { InputError, UpstreamError } from "../../shared/errors";
import { LOCK_DOWN, READ_COLOURS, READ_FONTS, READ_HTML, READ_STORAGE, READ_TEXT, runAxe } from "./inPage";
import { checkUrl, safeFetch } from "./safeFetch";

const DEFAULTS = { timeoutMs: 20_000, loadTimeoutMs: 10_000, maxBytes: 8 * 1024 * 1024, maxRequests: 150 };
/** A single response served to the page: at most this, or what is left of the page weight. */
const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** Each subresource fetch: at most this, or what is left of the render's time. */
const RESOURCE_TIMEOUT_MS = 8_000;
/** After the load event, how long requests already under way may take to finish before the page is read. */
const SETTLE_MS = 1_500;
/** Examples kept per axe rule. */
const AXE_NODES_KEPT = 10;
/** Response headers passed to the browser (a page's CSP is not: it could stop the audit's own script). */
const PASSED_HEADERS = new Set([
  "content-type",
  "location",
  "set-cookie",
  "cache-control",
  "expires",
  "last-modified",
  "etag",
  "content-language",
  "x-robots-tag",
  "link",
  "refresh",
]);

interface Deps {
  testHosts: string[];
  resolve: (host: string) => Promise<string[]>;
  /** Keep a session this long after a clean render for the next one to reuse (BROWSER_KEEP_ALIVE_MS); 0 closes it every time. */
  keepAliveMs?: number;
}

export function createBrowser(binding: Fetcher | undefined, deps: Deps): Browser {
  if (!binding)
    return {
      available: false,
      render: async () => {
        throw new UpstreamError("browser", "not_configured", "Browser Rendering is not configured on this server.");
      },
    };
  return { available: true, render: (url, opts = {}) => render(binding, url, opts, deps) };
}

/** Connects to an idle session this Worker left open (when sessions are kept), or launches one (no outbound domain allowed). */
async function openBrowser(binding: Fetcher, keepAliveMs: number): Promise<{ browser: PuppeteerBrowser; reused: boolean }> {
  const endpoint = binding as never;
  if (keepAliveMs > 0) {
    try {
      const idle = (await puppeteer.sessions(endpoint)).filter((s) => !s.connectionId);
      for (const s of idle) {
        try {
          return { browser: await puppeteer.connect(endpoint, s.sessionId), reused: true };
        } catch {
          // taken by another render meanwhile, or closed: try the next
        }
      }
    } catch {
      // sessions cannot be listed here: launch
    }
  }
  const launch = () => puppeteer.launch(endpoint, { ...(keepAliveMs > 0 ? { keep_alive: keepAliveMs } : {}), guardrails: { allowedDomains: [] } });
  try {
    // One retry: a launch can fail while another session is starting.
    return { browser: await launch().catch(() => launch()), reused: false };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const limited = /429|rate limit|too many/i.test(message);
    throw new UpstreamError("browser", limited ? "rate_limited" : "unreachable", `The browser could not be started (${message.slice(0, 200)}).`, { cause: e });
  }
}

async function render(binding: Fetcher, url: string, opts: Parameters<Browser["render"]>[1] & RenderOptions, deps: Deps): Promise<RenderedPage> {
  const t0 = Date.now();
  const o = { ...DEFAULTS, ...opts };
  const deadline = t0 + o.timeoutMs;
  const left = () => deadline - Date.now();
  const start = checkUrl(url, { testHosts: deps.testHosts });
  const pageSite = siteOf(start.hostname);

  // One DNS answer per host for the whole render.
  const resolved = new Map<string, Promise<string[]>>();
  const resolve = (host: string) => {
    let p = resolved.get(host);
    if (!p) resolved.set(host, (p = deps.resolve(host)));
    return p;
  };

  const requests: RenderedRequest[] = [];
  const cut: string[] = [];
  let bytes = 0;
  let closed = false;
  let weightRefused = 0;
  let countRefused = 0;
  let documentServed = false;
  let documentError: InputError | UpstreamError | null = null;
  let documentStatus = 0;
  let inflight = 0;

  const thirdParty = (u: string) => {
    try {
      return siteOf(new URL(u).hostname) !== pageSite;
    } catch {
      return true;
    }
  };

  async function answer(req: HTTPRequest, page: Page) {
    const u = req.url();
    if (/^(data|blob|about):/i.test(u)) return req.continue();
    // The browser's own requests (a favicon, a prefetch) render nothing: not fetched, not listed, so that when they
    // happen to be made cannot change the reply.
    if (req.resourceType() === "other" && !req.isNavigationRequest()) return req.abort("aborted");
    const isDocument = req.isNavigationRequest() && req.frame() === page.mainFrame();
    const entry: RenderedRequest = { url: u.slice(0, 500), type: req.resourceType(), thirdParty: thirdParty(u), status: null, bytes: 0 };
    requests.push(entry);
    const refuse = (why: string, e?: InputError | UpstreamError) => {
      entry.refused = why;
      if (isDocument && !documentServed) {
        documentError ??= e ?? new InputError("unreadable_input", `The page could not be loaded: ${why}.`);
        return req.abort("blockedbyclient");
      }
      // A navigation refused later (a script or form moving the page or a frame elsewhere) is cancelled, not failed:
      // a failed navigation would replace the page with the browser's error page.
      return req.abort(req.isNavigationRequest() ? "aborted" : "blockedbyclient");
    };
    // The address rules first, so a refused address reads the same whenever the request is made.
    try {
      checkUrl(u, { testHosts: deps.testHosts });
    } catch (e) {
      return refuse(e instanceof Error ? e.message.replace(/\.$/, "") : "refused", e instanceof InputError ? e : undefined);
    }
    if (closed) return refuse("the page had already been read");
    if (requests.length > o.maxRequests) {
      countRefused++;
      return refuse(`over the cap of ${o.maxRequests} requests`);
    }
    if (req.method() !== "GET" && req.method() !== "HEAD") return refuse(`${req.method()} requests are not sent`);
    // The document already fetched by the operation is served as it is, once.
    if (isDocument && opts.document && !documentServed && u === start.href) {
      const d = opts.document;
      documentServed = true;
      documentStatus = d.status;
      bytes += d.body.byteLength;
      entry.status = d.status;
      entry.bytes = d.body.byteLength;
      return req.respond({
        status: d.status,
        headers: { ...(d.headers ?? {}), "content-type": d.contentType || "text/html" },
        body: toBuffer(d.body) as never,
      });
    }
    const budget = o.maxBytes - bytes;
    if (budget <= 0) {
      weightRefused++;
      return refuse(`over the page weight of ${o.maxBytes} bytes`);
    }
    inflight++;
    try {
      const r = await safeFetch(u, {
        testHosts: deps.testHosts,
        resolve,
        manualRedirects: true,
        anyStatus: true,
        maxBytes: Math.min(MAX_RESPONSE_BYTES, budget),
        timeoutMs: Math.max(500, Math.min(RESOURCE_TIMEOUT_MS, left() - 500)),
        accept: req.headers().accept,
      });
      if (closed) return refuse("the page had already been read");
      bytes += r.body.byteLength;
      entry.status = r.status;
      entry.bytes = r.body.byteLength;
      if (isDocument) {
        documentServed = documentServed || !(r.status >= 300 && r.status < 400);
        documentStatus = r.status;
      }
      const headers: Record<string, string> = {};
      r.headers.forEach((v, k) => {
        if (PASSED_HEADERS.has(k) && k !== "set-cookie") headers[k] = v;
      });
      const cookies = r.headers.getAll("set-cookie");
      if (cookies.length) headers["set-cookie"] = cookies.join("\n");
      return req.respond({ status: r.status, headers, body: toBuffer(r.body) as never });
    } catch (e) {
      if (e instanceof InputError) {
        if (e.code === "response_too_large" && budget < MAX_RESPONSE_BYTES) weightRefused++;
        return refuse(e.message.replace(/\.$/, ""), e);
      }
      if (e instanceof UpstreamError) return refuse(`its address could not be checked (${e.message.replace(/\.$/, "")})`, e);
      return refuse("it could not be fetched");
    } finally {
      inflight--;
    }
  }

  let browser: PuppeteerBrowser | null = null;
  let keep = false;
  const timings = { browserMs: 0, loadMs: 0, axeMs: null as number | null, totalMs: 0 };
  const work = (async (): Promise<RenderedPage> => {
    const opened = await openBrowser(binding, deps.keepAliveMs ?? 0);
    browser = opened.browser;
    if (closed) {
      // the time limit passed while the browser was starting
      await opened.browser.close().catch(() => {});
      throw new InputError("fetch_timeout", "The time limit passed before the browser started.");
    }
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      timings.browserMs = Date.now() - t0;
      // Independent set-up steps, sent together (each is a round trip through Browser Rendering's relay).
      await Promise.all([page.evaluateOnNewDocument(LOCK_DOWN), page.setViewport({ width: 1280, height: 800 }), page.setRequestInterception(true)]);
      page.on("request", (req) => {
        answer(req, page).catch(() => {});
      });
      const tLoad = Date.now();
      try {
        await page.goto(start.href, { waitUntil: "load", timeout: Math.max(1000, Math.min(o.loadTimeoutMs, left() - 3000)) });
      } catch (e) {
        if (documentError) throw documentError;
        const name = e instanceof Error ? e.name : "";
        if (name !== "TimeoutError")
          throw new InputError("unreadable_input", `The page could not be rendered (${e instanceof Error ? e.message.slice(0, 200) : "browser error"}).`);
        if (!documentServed) throw new InputError("fetch_timeout", `The page did not arrive within ${Math.round(o.loadTimeoutMs / 1000)} s.`);
        cut.push(`the page did not finish loading within ${Math.round(o.loadTimeoutMs / 1000)} s; what had rendered by then was read`);
      }
      if (documentError && !documentServed) throw documentError;
      // Requests already under way when the load event fired (scripts' fetches, late images) are let finish, up to
      // SETTLE_MS, so the page is read the same each time.
      for (const until = Date.now() + Math.min(SETTLE_MS, Math.max(0, left() - 3000)); inflight > 0 && Date.now() < until; )
        await new Promise((r) => setTimeout(r, 20));
      timings.loadMs = Date.now() - tLoad;
      const read = opts.read ?? {};
      const evaluate = <T>(script: string) => page.evaluate(script) as Promise<T>;
      const title = await page.title().catch(() => "");
      const text = read.text ? await evaluate<string>(READ_TEXT) : undefined;
      const html = read.html ? await evaluate<string>(READ_HTML) : undefined;
      const colours = read.colours ? await evaluate<RenderedPage["colours"]>(READ_COLOURS) : undefined;
      const fonts = read.fonts ? await evaluate<RenderedPage["fonts"]>(READ_FONTS) : undefined;
      let axe: AxeResults | undefined;
      if (opts.axe) {
        const tAxe = Date.now();
        // axe-core, its run and the frame count in one round trip to the page.
        axe = await evaluate<AxeResults>(`${AXE_SOURCE};\n${runAxe(opts.axe, AXE_NODES_KEPT)}`);
        timings.axeMs = Date.now() - tAxe;
      }
      let cookies: RenderedCookie[] | undefined;
      let storageKeys: string[] | undefined;
      if (read.cookies) {
        storageKeys = await evaluate<string[]>(READ_STORAGE).catch(() => []);
        const cdp = await page.createCDPSession();
        const all = ((await cdp.send("Network.getAllCookies")) as { cookies: CdpCookie[] }).cookies;
        await cdp.detach().catch(() => {});
        cookies = all
          .map((c) => ({
            name: c.name,
            domain: c.domain,
            path: c.path,
            expires: c.session || c.expires < 0 ? null : Math.round(c.expires),
            httpOnly: c.httpOnly,
            secure: c.secure,
            sameSite: c.sameSite ?? null,
            thirdParty: siteOf(c.domain.replace(/^\./, "")) !== pageSite,
          }))
          .sort((a, b) => (a.domain + a.name < b.domain + b.name ? -1 : 1));
      }
      closed = true;
      if (weightRefused) cut.push(`page weight over ${o.maxBytes} bytes: ${weightRefused} request(s) refused`);
      if (countRefused) cut.push(`more than ${o.maxRequests} requests: ${countRefused} refused`);
      keep = true;
      return {
        url: start.href,
        finalUrl: page.url(),
        status: documentStatus,
        title,
        ...(text !== undefined ? { text } : {}),
        ...(html !== undefined ? { html } : {}),
        ...(colours ? { colours } : {}),
        ...(fonts ? { fonts } : {}),
        ...(cookies ? { cookies, storageKeys } : {}),
        // As they stood when the page was read: a request still under way then is listed as cut.
        requests: requests.map((r) => (r.status === null && !r.refused ? { ...r, refused: "still loading when the page was read" } : { ...r })),
        cut,
        ...(axe ? { axe } : {}),
        timings,
      };
    } finally {
      closed = true;
      // A kept session is left clean for the next render; a browser about to be closed takes its context with it.
      if ((deps.keepAliveMs ?? 0) > 0) await context.close().catch(() => {});
    }
  })();

  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new InputError("fetch_timeout", `The page could not be rendered and read within ${Math.round(o.timeoutMs / 1000)} s.`)),
      o.timeoutMs,
    );
  });
  try {
    const page = await Promise.race([work, limit]);
    page.timings.totalMs = Date.now() - t0;
    return page;
  } finally {
    clearTimeout(timer);
    closed = true;
    work.catch(() => {}); // after the time limit it may still settle; its outcome is no longer wanted
    const b = browser as PuppeteerBrowser | null;
    // A session that rendered cleanly is left for the next render (Browser Rendering closes it after KEEP_ALIVE_MS idle);
    // after any failure or the time limit it is closed.
    if (b) await (keep && (deps.keepAliveMs ?? 0) > 0 ? b.disconnect() : b.close()).catch(() => {});
  }
}

interface CdpCookie {
  name: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  session: boolean;
  sameSite?: string;
}

const toBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
