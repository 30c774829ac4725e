/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { API_VERSION } from "../../src/shared/version";
import { USER_AGENT, postWebhook } from "../../src/sources/web/safeFetch";
import { call, json } from "../helpers";

/**
 * SPEC §9 rule 2 (the machine-readable description carries its own version), issue 28 §4: the version is said once,
 * in package.json, and every place that states it reads it from there: the OpenAPI description, GET /, /api/status,
 * the MCP server, and the User-Agent of our page fetches and webhook deliveries. Nothing else in src/ or
 * wrangler.toml states a version of its own (a second copy is how the webhook came to say 1.7 and the Worker's
 * var 1.10.0 while the API was 1.12.0).
 */

const raw = (glob: Record<string, string>) => Object.values(glob)[0];
const PACKAGE = JSON.parse(raw(import.meta.glob<string>("/package.json", { query: "?raw", import: "default", eager: true }))) as { version: string };
const WRANGLER = raw(import.meta.glob<string>("/wrangler.toml", { query: "?raw", import: "default", eager: true }));
const SOURCES = import.meta.glob<string>("/src/**/*.ts", { query: "?raw", import: "default", eager: true });

describe("SPEC §9 rule 2: one version, package.json's, everywhere", () => {
  it("the API version is package.json's version, a semantic version", () => {
    expect(PACKAGE.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(API_VERSION).toBe(PACKAGE.version);
  });

  it("no file in src/ states the version itself, and wrangler.toml has no API_VERSION var", () => {
    const literal = new RegExp(`["'\`/]${PACKAGE.version.replaceAll(".", "\\.")}\\b`);
    expect(
      Object.entries(SOURCES)
        .filter(([, text]) => literal.test(text))
        .map(([path]) => path),
    ).toEqual([]);
    // The crawler's product token carries a version only through API_VERSION.
    expect(
      Object.entries(SOURCES)
        .filter(([, text]) => /UKBusinessIntelligenceAPI\/\d/.test(text))
        .map(([path]) => path),
    ).toEqual([]);
    expect(WRANGLER).not.toMatch(/^\s*API_VERSION\s*=/m);
  });

  it("the OpenAPI description, GET / and /api/status say package.json's version", async () => {
    const doc = await json(await call("/openapi.json"));
    expect(doc.info.version).toBe(PACKAGE.version);
    expect((await json(await call("/", { headers: { accept: "application/json" } }))).version).toBe(PACKAGE.version);
    expect((await json(await call("/api/status"))).version).toBe(PACKAGE.version);
  });

  it("the MCP server introduces itself with package.json's version", async () => {
    const r = await call("/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "version-test", version: "0" } },
      }),
    });
    const text = await r.text();
    const message = JSON.parse(text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}")) as { result?: { serverInfo?: { version?: string } } };
    expect(message.result?.serverInfo?.version, text.slice(0, 300)).toBe(PACKAGE.version);
  });

  it("a webhook delivery's User-Agent names the API with package.json's version", async () => {
    let sent: Headers | undefined;
    const fetchImpl = (async (_url: string, init?: RequestInit) => {
      sent = new Headers(init?.headers);
      return new Response(null, { status: 204 });
    }) as unknown as typeof fetch;
    const r = await postWebhook(
      "https://hooks.test/ok",
      "{}",
      { "content-type": "application/json" },
      { timeoutMs: 5000, testHosts: ["hooks.test"], fetchImpl },
    );
    expect(r).toMatchObject({ status: 204 });
    expect(sent?.get("user-agent")).toBe(`Mozilla/5.0 (compatible; UKBusinessIntelligenceAPI/${PACKAGE.version})`);
    expect(USER_AGENT).toBe(sent?.get("user-agent"));
  });
});
