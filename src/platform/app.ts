import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Env } from "../env";
import { routes } from "./routes";
import { catalogLinkHeader, catalogLinkset, apisJson } from "./catalog";
import { changelogResponse } from "./changelog";
import { apiIndexMarkdown, operationMarkdown } from "./docs";
import { bodyText } from "./body";
import { ApiError } from "./errors";
import { type CallMeta, type Outcome, errorOutcome, execute, newRequestId, requestIdHeader } from "./gateway";
import { registerPages } from "./pages";
import { API_VERSION, openApiDocument, registerOperations, toYaml } from "./openapi";
import { lazy } from "../shared/lazy";
import { type AnyOperation, type OperationRoute, slugOf } from "./registry";
import { statusResponse } from "./status";
import { UNKNOWN_CLIENT, clientAddress } from "../services/net/clientBucket";

type AppEnv = { Bindings: Env; Variables: { requestId: string } };

const MAX_BODY_BYTES = 256 * 1024;

/**
 * The caller's address for per-IP limits. Only the header the deployment's front proxy sets is read, and only when the
 * configuration names it (TRUST_CLIENT_IP_HEADER: `cf-connecting-ip` on Cloudflare, where the edge always sets it and a
 * caller cannot); without it, no header is believed, since any caller can send one: a Worker is told nothing else
 * about its peer, so the address is `unknown` and such callers share one allowance (docs/operating.md "Deploying to Cloudflare", limits per IP address).
 */
const clientIp = (c: Context<AppEnv>) => {
  const trusted = c.env?.TRUST_CLIENT_IP_HEADER?.trim();
  return trusted ? clientAddress(c.req.header(trusted)) : UNKNOWN_CLIENT;
};

const waitUntilOf = (c: Context<AppEnv>) => (p: Promise<unknown>) => {
  try {
    c.executionCtx.waitUntil(p);
  } catch {
    void p; // no execution context (some tests): let it run
  }
};

function send(c: Context<AppEnv>, o: Outcome): Response {
  const headers = new Headers(o.headers);
  if (o.image) {
    headers.set("content-type", o.image.contentType);
    headers.set(requestIdHeader, c.get("requestId"));
    // A browser or cache that holds this image already (its ETag) is told so, without the bytes.
    const etag = headers.get("etag");
    if (etag && ifNoneMatch(c.req.header("if-none-match"), etag)) {
      headers.delete("content-type");
      return new Response(null, { status: 304, headers });
    }
    return new Response(o.image.bytes, { status: o.status, headers });
  }
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set(requestIdHeader, c.get("requestId"));
  return new Response(o.text ?? JSON.stringify(o.body), { status: o.status, headers });
}

/** Whether an If-None-Match header names the ETag (weak comparison, as RFC 9110 asks of GET). */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return header.trim() === "*" || header.split(",").some((t) => bare(t) === bare(etag));
}

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-expose-headers": "x-request-id, retry-after, etag, x-logo-source, x-receipt-id, x-receipt",
  "access-control-max-age": "86400",
};

/** Reads the raw input of a call: query parameters for GET/DELETE, the JSON body otherwise. */
async function rawInput(c: Context<AppEnv>, op: AnyOperation): Promise<unknown> {
  // Path parameters (`/api/v1/receipts/:id`) are part of the input, beside the query.
  if (op.method === "get" || op.method === "delete") return { ...c.req.query(), ...c.req.param() };
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type))
    throw new ApiError("unsupported_media_type", "Send the body as JSON with `content-type: application/json`.", { field: "body" });
  const text = await bodyText(c.req.raw, op.maxBodyBytes ?? MAX_BODY_BYTES);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The body is not valid JSON.", { field: "body" });
  }
}

/** Every operation, loaded when first needed (the documents, MCP, the landing page): never at a cold start. */
const loadOperations = lazy(async (): Promise<readonly AnyOperation[]> => (await import("../operations")).operations, "operations");

/** A route of an operation already in hand (the tests' apps). */
const routeOf = (op: AnyOperation): OperationRoute => ({
  operationId: op.operationId,
  method: op.method,
  path: op.path,
  cors: Boolean(op.cors),
  load: async () => op,
});

/**
 * The app. Without `ops` it serves the service's operations from the route table (src/platform/routes.ts): each
 * operation's module is imported when its route is first called (issue 30 §1). With `ops` (tests), just those.
 */
export function buildApp(given?: readonly AnyOperation[]) {
  const app = new OpenAPIHono<AppEnv>();
  const table: readonly OperationRoute[] = given ? given.map(routeOf) : routes;
  const allOps: () => Promise<readonly AnyOperation[]> = given ? async () => given : loadOperations;

  // Every reply carries x-request-id (SPEC §7.2).
  app.use("*", async (c, next) => {
    const id = newRequestId();
    c.set("requestId", id);
    await next();
    c.res.headers.set(requestIdHeader, id);
  });

  app.onError((err, c) => send(c, errorOutcome(err, c.get("requestId") ?? newRequestId())));

  // HEAD is not served on operations: Hono would run (and charge) the GET. 405 with the Allow header, like any other method.
  app.use("*", async (c, next) => {
    if (c.req.method !== "HEAD") return next();
    const path = new URL(c.req.url).pathname;
    const methods = table.filter((o) => matchesPath(o.path, path)).map((o) => o.method.toUpperCase());
    if (!methods.length) return next();
    const o = errorOutcome(new ApiError("method_not_allowed", `HEAD is not allowed on ${path}; use ${[...new Set(methods)].join(", ")}.`), c.get("requestId"));
    o.headers.allow = [...new Set(methods)].join(", ");
    return send(c, o);
  });

  for (const route of table) {
    const method = route.method.toUpperCase();
    let loaded: AnyOperation | undefined;
    app.on(method, route.path, async (c) => {
      const op = (loaded ??= await route.load());
      const meta: CallMeta = {
        requestId: c.get("requestId"),
        origin: new URL(c.req.url).origin,
        headers: c.req.raw.headers,
        ip: clientIp(c),
        apiKey: c.req.header("x-api-key") ?? null,
        idempotencyKey: c.req.header("idempotency-key") ?? null,
        waitUntil: waitUntilOf(c),
      };
      let input: unknown;
      try {
        input = await rawInput(c, op);
      } catch (e) {
        return send(c, errorOutcome(e, meta.requestId));
      }
      const res = send(c, await execute(c.env, op, input, meta));
      if (op.cors) for (const [k, v] of Object.entries(CORS_HEADERS)) res.headers.set(k, v);
      return res;
    });
    if (route.cors) app.options(route.path, () => new Response(null, { status: 204, headers: CORS_HEADERS }));
  }

  const baseUrl = (c: Context<AppEnv>) => new URL(c.req.url).origin;
  const docs = documents(app, allOps);

  app.get("/openapi.json", (c) => edgeCached(c, async () => c.body(await docs.openApiJson(baseUrl(c)), 200, { "content-type": "application/json" })));
  app.get("/openapi.yaml", (c) =>
    edgeCached(c, async () => c.body(await docs.openApiYaml(baseUrl(c)), 200, { "content-type": "application/yaml; charset=utf-8" })),
  );
  app.get("/apis.md", (c) => edgeCached(c, async () => c.body(await docs.markdown("", baseUrl(c)), 200, { "content-type": "text/markdown; charset=utf-8" })));
  app.get("/apis/:slug{[a-z0-9-]+\\.md}", (c) => {
    const slug = c.req.param("slug").replace(/\.md$/, "");
    if (!table.some((o) => slugOf(o) === slug))
      return send(c, errorOutcome(new ApiError("not_found", `No API page named ${slug}.`, { query: slug }), c.get("requestId")));
    return edgeCached(c, async () => c.body(await docs.markdown(slug, baseUrl(c)), 200, { "content-type": "text/markdown; charset=utf-8" }));
  });
  app.on(["GET", "HEAD"], "/.well-known/api-catalog", (c) => {
    const headers = { "content-type": "application/linkset+json", link: catalogLinkHeader(baseUrl(c)) };
    if (c.req.method === "HEAD") return c.body(null, 200, headers);
    return c.body(JSON.stringify(catalogLinkset(baseUrl(c))), 200, headers);
  });
  app.get("/apis.json", (c) => edgeCached(c, async () => c.json(apisJson(await allOps(), baseUrl(c)))));
  app.get("/changelog", (c) => changelogResponse(c.req.header("accept")));
  // The public keys receipts are signed with (issue 33 §2): the current one and every retired one, by kid.
  // Loaded when first asked for (with jose), as MCP is: never at a cold start.
  app.get("/.well-known/jwks.json", async (c) => {
    try {
      const { jwks } = (await import("../sources/receipts/signer")).receiptKeys(c.env);
      return c.body(JSON.stringify(jwks), 200, { "content-type": "application/jwk-set+json", "cache-control": "public, max-age=300" });
    } catch (e) {
      // A misconfigured key (RECEIPT_SIGNING_KEY or RECEIPT_RETIRED_KEYS not a JWK): our failure, said as JSON.
      return send(c, errorOutcome(e, c.get("requestId")));
    }
  });
  // Loaded when first called (with ical.js), as /mcp is (with the MCP SDK): esbuild wraps a module reached only by
  // import() in an initialiser it runs on that first call, so neither's top level runs at a cold start (issue 30 §1).
  app.get("/api/v1/deadlines.ics", async (c) => (await import("./calendarFeed")).calendarFeedResponse(c));
  app.get("/api/status", async (c) => c.json(await statusResponse(c.env, (p) => waitUntilOf(c)(p))));
  app.all("/mcp", async (c) =>
    (await import("./mcp")).handleMcp(c.req.raw, c.env, await allOps(), { requestId: c.get("requestId"), ip: clientIp(c), waitUntil: waitUntilOf(c) }),
  );
  // Pages for people (a browser asking for `/` gets the landing page; API clients keep the JSON below).
  registerPages(app, {
    ops: allOps,
    meta: (c) => ({
      requestId: c.get("requestId"),
      origin: new URL(c.req.url).origin,
      headers: c.req.raw.headers,
      ip: clientIp(c),
      apiKey: null,
      waitUntil: waitUntilOf(c),
    }),
  });
  app.get("/", (c) =>
    c.json({
      name: "UK Business Intelligence API",
      version: API_VERSION,
      docs: ["/openapi.yaml", "/openapi.json", "/apis.md", "/.well-known/api-catalog", "/apis.json", "/changelog"],
      mcp: "/mcp",
      status: "/api/status",
      pages: { home: "/", reference: "/docs", signup: "/signup", status: "/status" },
    }),
  );

  // Unknown path under /api/v1 → 404 JSON; a known path with the wrong method → 405 JSON (SPEC §7.6).
  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const methods = table.filter((o) => matchesPath(o.path, path)).map((o) => o.method.toUpperCase());
    if (methods.length) {
      const o = errorOutcome(new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${path}; use ${methods.join(", ")}.`), c.get("requestId"));
      o.headers.allow = [...new Set(methods)].join(", ");
      return send(c, o);
    }
    return send(
      c,
      errorOutcome(new ApiError("not_found", `There is no endpoint at ${path}. See /openapi.yaml for the list.`, { query: path }), c.get("requestId")),
    );
  });

  return app;
}

/** Stands for the service's origin in a cached document; each reply puts the caller's origin in its place. */
const ORIGIN = "https://origin.invalid";

/**
 * The documents made from the operations' schemas (OpenAPI as JSON and YAML, the Markdown pages), built when first
 * asked for and kept for the isolate's life (issue 30 §1): never at import, where every cold start would pay for them.
 * They are built once with a stand-in origin, which each reply replaces with the one the caller reached.
 */
export function documents(app: OpenAPIHono<AppEnv>, getOps: () => Promise<readonly AnyOperation[]>) {
  const openApi = lazy(async () => {
    registerOperations(app, await getOps());
    return openApiDocument(app, ORIGIN);
  }, "openapi document");
  const openApiJson = lazy(async () => JSON.stringify(await openApi()), "openapi.json");
  const openApiYaml = lazy(async () => toYaml(await openApi()), "openapi.yaml");
  const pages = new Map<string, string>();
  /** The Markdown index (slug "") or one API's page. Only slugs of an operation are kept (a bounded set). */
  const markdown = async (slug: string, base: string): Promise<string> => {
    let page = pages.get(slug);
    if (page === undefined) {
      const ops = await getOps();
      page =
        slug === ""
          ? apiIndexMarkdown(ops, ORIGIN)
          : operationMarkdown(
              ops.filter((o) => slugOf(o) === slug),
              ORIGIN,
            );
      pages.set(slug, page);
    }
    return page.replaceAll(ORIGIN, base);
  };
  return {
    openApiJson: async (base: string) => (await openApiJson()).replaceAll(JSON.stringify(ORIGIN), JSON.stringify(base)),
    // An origin is a plain YAML scalar (scheme, host, port; no spaces, no `: `), written as the stand-in is.
    openApiYaml: async (base: string) => (await openApiYaml()).replaceAll(ORIGIN, base),
    markdown,
  };
}

/** How long the edge cache keeps a document (and a browser or proxy may): a deploy changes API_VERSION or waits this long. */
const DOCUMENT_MAX_AGE_S = 300;

/**
 * Keyless documents that are the same for every caller of an origin (the OpenAPI description, the Markdown pages, the
 * catalog): answered from the data centre's edge cache (Cache API) when there, so a new isolate need not build them
 * (issue 30 §6); `x-cache: hit` says so. The key is the origin, the path and the API version (a query is not part of
 * these documents). Where the runtime has no default cache, or the reply is not a 200, nothing is cached.
 */
async function edgeCached(c: Context<AppEnv>, build: () => Response | Promise<Response>): Promise<Response> {
  const cache = (globalThis as { caches?: { default?: Cache } }).caches?.default;
  if (!cache) return build();
  const url = new URL(c.req.url);
  const key = new Request(`${url.origin}${url.pathname}?api-version=${encodeURIComponent(API_VERSION)}`);
  const hit = await cache.match(key).catch(() => undefined);
  if (hit) {
    const res = new Response(hit.body, hit);
    res.headers.set("x-cache", "hit");
    return res;
  }
  const res = await build();
  if (res.status !== 200) return res;
  res.headers.set("cache-control", `public, max-age=${DOCUMENT_MAX_AGE_S}`);
  await cache.put(key, res.clone()).catch(() => {});
  return res;
}

/** The operation path, exactly: a trailing slash is another path (404), not the same one with the wrong method. */
function matchesPath(pattern: string, path: string): boolean {
  const re = new RegExp(`^${pattern.replace(/:[^/]+/g, "[^/]+")}$`);
  return re.test(path);
}
