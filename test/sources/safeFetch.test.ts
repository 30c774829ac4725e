import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type ErrorCode, InputError, UpstreamError, toApiError } from "../../src/platform/errors";
import { checkUrl, decodeText, safeFetch, type SafeFetchResult } from "../../src/sources/web/safeFetch";

const testHosts = (env.SAFE_FETCH_TEST_HOSTS ?? "").split(",");

/** The error-table code of what a call throws (sync or async), as the one mapper gives it, or "none". */
async function codeOf(f: () => unknown): Promise<ErrorCode | "none"> {
  try {
    await f();
    return "none";
  } catch (e) {
    if (e instanceof InputError || e instanceof UpstreamError) return toApiError(e).code;
    throw e;
  }
}

/** A fetch stand-in serving a fixed table of URL -> Response factory; records the URLs it was asked for. */
function fakeFetch(routes: Record<string, () => Response>) {
  const calls: string[] = [];
  const impl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push(url);
    expect(init?.redirect).toBe("manual");
    const route = routes[url];
    return route ? route() : new Response("missing", { status: 404 });
  }) as typeof fetch;
  return { impl, calls };
}

const redirect =
  (location: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location } });

describe("issue: safe fetcher: checkUrl refusals", () => {
  it.each([
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.0.0.1/",
    "http://0x7f000001/",
    "http://127.1/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://224.0.0.1/",
    "http://10.0.0.1/",
    "http://172.31.255.255/",
    "http://192.168.0.1/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://localhost/",
    "http://localhost.:8080/",
    "http://foo.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "https://0.0.0.0/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
    "https://logo.test/",
    "https://example.com:22/",
    "https://example.com:6379/",
  ])("blocked_address (422) for %s", async (url) => {
    const e = (() => {
      try {
        checkUrl(url);
      } catch (err) {
        return toApiError(err);
      }
    })();
    expect(e?.code).toBe("blocked_address");
    expect(e?.status).toBe(422);
  });

  it.each([
    "http://user:pass@example.com/",
    "https://user@example.com/",
    "ftp://example.com/file",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "data:text/html,<b>x</b>",
    "gopher://example.com/",
    "example.com",
    "not a url",
    `https://example.com/${"a".repeat(489)}`,
  ])("invalid_url (400) for %s", async (url) => {
    expect(await codeOf(() => checkUrl(url))).toBe("invalid_url");
    expect(toApiError(new InputError("invalid_url", "")).status).toBe(400);
  });

  it("allows public addresses and names on the default and common web ports", () => {
    expect(checkUrl("http://8.8.8.8/").hostname).toBe("8.8.8.8");
    expect(checkUrl("https://[2606:4700::1111]/").hostname).toBe("[2606:4700::1111]");
    expect(checkUrl(" https://www.example.com:8443/a?b#c ").href).toBe("https://www.example.com:8443/a?b#c");
    expect(checkUrl("http://example.com:8080/").port).toBe("8080");
    expect(checkUrl(`https://example.com/${"a".repeat(480)}`).href).toHaveLength(500);
    // 500 characters as the caller gave them, and the https:// the service puts before an address without a scheme.
    expect(checkUrl(`https://example.com/${"a".repeat(488)}`).href).toHaveLength(508);
  });

  it("lets documented test hosts through the name and port checks, but never an IP literal", async () => {
    expect(checkUrl("https://logo.test:9999/", { testHosts }).hostname).toBe("logo.test");
    expect(await codeOf(() => checkUrl("http://127.0.0.1/", { testHosts: ["127.0.0.1"] }))).toBe("blocked_address");
    expect(await codeOf(() => checkUrl("http://printer.local/", { testHosts }))).toBe("blocked_address");
  });
});

describe("issue: safe fetcher: safeFetch", () => {
  it("fetches a fixture host through the test-only switch", async () => {
    const r = await safeFetch("http://logo.test/", { testHosts, accept: "text/html" });
    expect(r.status).toBe(200);
    expect(r.url).toBe("http://logo.test/");
    expect(r.redirects).toEqual([]);
    expect(decodeText(r)).toContain("Hartley &amp; Finch Joinery Ltd | Bespoke kitchens in Leeds");
  });

  it("refuses the same fixture host without the switch, before any fetch", async () => {
    const f = fakeFetch({});
    expect(await codeOf(() => safeFetch("http://logo.test/", { fetchImpl: f.impl }))).toBe("blocked_address");
    expect(f.calls).toEqual([]);
  });

  it("unreadable_input with the status for a non-2xx answer", async () => {
    const e = await safeFetch("http://logo.test/missing.html", { testHosts }).catch((x) => x);
    expect(e).toBeInstanceOf(InputError);
    expect(e.code).toBe("unreadable_input");
    expect(e.message).toContain("404");
  });

  it("unreadable_input for a network error", async () => {
    const impl = (async () => {
      throw new TypeError("connection reset");
    }) as typeof fetch;
    const e = await safeFetch("https://example.com/", { fetchImpl: impl }).catch((x) => x);
    expect(e.code).toBe("unreadable_input");
    expect(e.message).toContain("connection reset");
  });

  it("follows a chain of 5 redirects (relative and absolute), checking each", async () => {
    const f = fakeFetch({
      "https://example.com/": redirect("/one", 301),
      "https://example.com/one": redirect("two", 308),
      "https://example.com/two": redirect("https://www.example.com/three", 307),
      "https://www.example.com/three": redirect("//www.example.com/four", 303),
      "https://www.example.com/four": redirect("http://www.example.com:8080/five"),
      "http://www.example.com:8080/five": () => new Response("<p>done</p>", { headers: { "content-type": "text/html; charset=utf-8" } }),
    });
    const r = await safeFetch("https://example.com/", { fetchImpl: f.impl });
    expect(r.url).toBe("http://www.example.com:8080/five");
    expect(r.redirects).toEqual([
      "https://example.com/one",
      "https://example.com/two",
      "https://www.example.com/three",
      "https://www.example.com/four",
      "http://www.example.com:8080/five",
    ]);
    expect(r.contentType).toBe("text/html; charset=utf-8");
    expect(decodeText(r)).toBe("<p>done</p>");
  });

  it("too_many_redirects on the 6th redirect, without fetching its target", async () => {
    const routes: Record<string, () => Response> = {};
    for (let i = 0; i < 6; i++) routes[`https://example.com/${i}`] = redirect(`/${i + 1}`);
    routes["https://example.com/6"] = () => new Response("too far");
    const f = fakeFetch(routes);
    expect(await codeOf(() => safeFetch("https://example.com/0", { fetchImpl: f.impl }))).toBe("too_many_redirects");
    expect(f.calls).toHaveLength(6);
    expect(f.calls).not.toContain("https://example.com/6");
  });

  it.each(["http://127.0.0.1/", "http://[::1]/admin", "http://0x7f000001/", "http://localhost/", "http://169.254.169.254/latest/meta-data/"])(
    "refuses a redirect to %s before fetching it",
    async (target) => {
      const f = fakeFetch({ "https://example.com/": redirect(target) });
      expect(await codeOf(() => safeFetch("https://example.com/", { fetchImpl: f.impl }))).toBe("blocked_address");
      expect(f.calls).toEqual(["https://example.com/"]);
    },
  );

  it("refuses a redirect to another scheme", async () => {
    const f = fakeFetch({ "https://example.com/": redirect("file:///etc/passwd") });
    expect(await codeOf(() => safeFetch("https://example.com/", { fetchImpl: f.impl }))).toBe("invalid_url");
  });

  it("fetch_timeout when the fetch never answers (and ignores the abort signal)", async () => {
    const impl = (() => new Promise<Response>(() => {})) as typeof fetch;
    const started = Date.now();
    expect(await codeOf(() => safeFetch("https://example.com/", { fetchImpl: impl, timeoutMs: 50 }))).toBe("fetch_timeout");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("fetch_timeout when the body stalls, and the stream is cancelled", async () => {
    let cancelled = false;
    const impl = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new TextEncoder().encode("<html>"));
          },
          pull: () => new Promise<void>(() => {}),
          cancel() {
            cancelled = true;
          },
        }),
      )) as typeof fetch;
    expect(await codeOf(() => safeFetch("https://example.com/", { fetchImpl: impl, timeoutMs: 50 }))).toBe("fetch_timeout");
    expect(cancelled).toBe(true);
  });

  it("response_too_large: an endless body is cancelled at the cap, not read to the end", async () => {
    let pulled = 0;
    let cancelled = false;
    const impl = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(c) {
            pulled++;
            c.enqueue(new Uint8Array(1024));
          },
          cancel() {
            cancelled = true;
          },
        }),
      )) as typeof fetch;
    expect(await codeOf(() => safeFetch("https://example.com/", { fetchImpl: impl, maxBytes: 10 * 1024 }))).toBe("response_too_large");
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(20);
  });

  it("response_too_large from Content-Length before reading", async () => {
    let pulled = 0;
    const impl = (async () =>
      new Response(new ReadableStream({ pull: (c) => void (pulled++, c.enqueue(new Uint8Array(1))) }), {
        headers: { "content-length": "999999" },
      })) as typeof fetch;
    expect(await codeOf(() => safeFetch("https://example.com/", { fetchImpl: impl, maxBytes: 1000 }))).toBe("response_too_large");
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("counts the decompressed size: a small gzip body that inflates past the cap is refused", async () => {
    // workerd's fetch() hands over the decompressed stream; the stand-in does the same with DecompressionStream.
    const gz = new Uint8Array(await new Response(new Blob([new Uint8Array(1024 * 1024)]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
    expect(gz.byteLength).toBeLessThan(8 * 1024);
    const impl = (async () =>
      new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip")), {
        headers: { "content-encoding": "gzip", "content-length": String(gz.byteLength) },
      })) as typeof fetch;
    expect(await codeOf(() => safeFetch("https://example.com/", { fetchImpl: impl, maxBytes: 64 * 1024 }))).toBe("response_too_large");
    const r = await safeFetch("https://example.com/", { fetchImpl: impl, maxBytes: 2 * 1024 * 1024 });
    expect(r.body.byteLength).toBe(1024 * 1024);
  });

  it("the body is read whole and exact, in one buffer, whether Content-Length is right, short, long or missing", async () => {
    const body = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    const sizes = [1, 65_536, 70_000, 3, 100_000, 64_430];
    const served = (declared: string | null) =>
      (async () => {
        let at = 0;
        let k = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(c) {
            if (at >= body.length) return c.close();
            const n = sizes[k++ % sizes.length];
            c.enqueue(body.slice(at, (at += n)));
          },
        });
        return new Response(stream, { headers: declared === null ? {} : { "content-length": declared } });
      }) as typeof fetch;
    for (const declared of [String(body.length), "1000", "299999", "350000", null]) {
      const r = await safeFetch("https://example.com/", { fetchImpl: served(declared), maxBytes: 400_000 });
      expect(r.body.byteLength, `content-length ${declared}`).toBe(body.length);
      expect(
        r.body.every((b, i) => b === body[i]),
        `content-length ${declared}`,
      ).toBe(true);
    }
  });

  it("checks every resolved address when a resolver is given", async () => {
    const f = fakeFetch({ "https://example.com/": () => new Response("ok") });
    const resolveTo = (addrs: string[]) => async () => addrs;
    expect(await codeOf(() => safeFetch("https://example.com/", { fetchImpl: f.impl, resolve: resolveTo(["93.184.215.14", "10.0.0.1"]) }))).toBe(
      "blocked_address",
    );
    expect(await codeOf(() => safeFetch("https://example.com/", { fetchImpl: f.impl, resolve: resolveTo(["::ffff:169.254.169.254"]) }))).toBe(
      "blocked_address",
    );
    expect(await codeOf(() => safeFetch("https://example.com/", { fetchImpl: f.impl, resolve: resolveTo([]) }))).toBe("unreadable_input");
    expect(f.calls).toEqual([]);
    const r = await safeFetch("https://example.com/", { fetchImpl: f.impl, resolve: resolveTo(["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]) });
    expect(new TextDecoder().decode(r.body)).toBe("ok");
  });
});

describe("issue: safe fetcher: decodeText", () => {
  const result = (body: Uint8Array, contentType = ""): SafeFetchResult => ({
    url: "https://example.com/",
    status: 200,
    headers: new Headers(),
    contentType,
    body,
    redirects: [],
  });

  it("uses <meta charset> when the server names none (windows-1252 fixture)", async () => {
    const r = await safeFetch("http://logo.test/latin1.html", { testHosts });
    expect(decodeText(r)).toContain("<title>Café “Brontë” € prices</title>");
  });

  it("prefers the Content-Type charset, then defaults to utf-8", () => {
    const bytes = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    expect(decodeText(result(bytes, "text/html; charset=ISO-8859-1"))).toBe("café");
    expect(decodeText(result(new TextEncoder().encode("café")))).toBe("café");
    expect(decodeText(result(new TextEncoder().encode("café"), "text/html; charset=no-such-charset"))).toBe("café");
  });
});
