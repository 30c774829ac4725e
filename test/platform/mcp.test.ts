import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { operations } from "../../src/operations";
import { balanceOf, call, createTestKey, json } from "../helpers";
import { probeImage } from "../../src/services/images/probe";

const ARGS = { amount: 999.99, due: "2026-01-15", paid: "2026-10-08" };
const clients: Client[] = [];

/** The official SDK client, talking to the Worker in-process over streamable HTTP (SPEC §5.5: Bearer key). */
async function connect(key?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("http://api.test/mcp"), {
    fetch: (input, init) => exports.default.fetch(new Request(input, init)),
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
  });
  const client = new Client({ name: "conformance-tests", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** The JSON error body a failed tool call carries in its text content. */
function errorOf(result: Awaited<ReturnType<Client["callTool"]>>): Record<string, unknown> {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const [content] = result.content as { type: string; text: string }[];
  expect(content.type).toBe("text");
  return JSON.parse(content.text) as Record<string, unknown>;
}

describe("SPEC §1 /mcp: one tool per operation", () => {
  it("SPEC §1 tools/list names are exactly the registry's operationIds, each with a title and readOnlyHint", async () => {
    const { key } = await createTestKey();
    const { tools } = await (await connect(key)).listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(operations.map((o) => o.operationId).sort());
    for (const op of operations) {
      const tool = tools.find((t) => t.name === op.operationId)!;
      expect(tool.annotations?.title).toBe(op.title);
      expect(tool.annotations?.readOnlyHint).toBe(op.readOnly);
      expect(tool.inputSchema.type).toBe("object");
    }
  });

  // BUG (reported): `.describe()` before `.openapi()` is lost in z.toJSONSchema (same cause as the Markdown
  // parameter table in docs.test.ts), so tool arguments reach the model without their descriptions.
  it("SPEC §1 tool arguments carry the descriptions the OpenAPI parameters have", async () => {
    const { tools } = await (await connect()).listTools();
    const props = tools.find((t) => t.name === "calculateLatePayment")!.inputSchema.properties as Record<string, { description?: string }>;
    for (const name of ["amount", "due", "paid"]) expect(props[name].description, name).toBeTruthy();
  });

  it("SPEC §5.5 tools/list needs no key (listing is free; calls need one)", async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools).toHaveLength(operations.length);
  });
});

describe("SPEC §1 a tool call is the same call as over HTTP", () => {
  it("SPEC §1 calculateLatePayment: 1 credit, structuredContent deep-equal to the HTTP reply", async () => {
    const { key, keyId } = await createTestKey();
    const client = await connect(key);
    const result = await client.callTool({ name: "calculateLatePayment", arguments: ARGS });
    expect(result.isError).toBeFalsy();
    expect(await balanceOf(keyId)).toBe(99);

    const http = await call(`/api/v1/late-payment?${new URLSearchParams({ amount: "999.99", due: ARGS.due, paid: ARGS.paid })}`, { key });
    expect(http.headers.get("x-credits-remaining")).toBe("98");
    const body = await json(http);
    expect(result.structuredContent).toEqual(body);
    expect(body).toMatchObject({ daysLate: 266, interest: 85.63, claimTotal: 125.63 });
    // The text content is the same JSON, for clients that ignore structuredContent.
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(body);
  });

  it("SPEC §5.2 a call without a key → isError with code missing_key", async () => {
    const client = await connect();
    const err = errorOf(await client.callTool({ name: "calculateLatePayment", arguments: ARGS }));
    expect(err).toMatchObject({ code: "missing_key" });
    expect(err.requestId).toMatch(/^req_/);
  });

  it("SPEC §5.2 a wrong Bearer key → isError invalid_key", async () => {
    const err = errorOf(await (await connect("ukbi_not-a-real-key")).callTool({ name: "calculateLatePayment", arguments: ARGS }));
    expect(err.code).toBe("invalid_key");
  });

  it("SPEC §8 a call on an exhausted key → isError quota_exhausted, balance stays 0", async () => {
    const { key, keyId } = await createTestKey({ credits: 0 });
    const err = errorOf(await (await connect(key)).callTool({ name: "calculateLatePayment", arguments: ARGS }));
    expect(err.code).toBe("quota_exhausted");
    expect(await balanceOf(keyId, { credits: 0 })).toBe(0);
  });

  it("SPEC §7.4 a domain error over MCP is refunded like over HTTP (422 date_out_of_range)", async () => {
    const { key, keyId } = await createTestKey();
    const err = errorOf(
      await (await connect(key)).callTool({ name: "calculateLatePayment", arguments: { amount: 100, due: "2026-07-15", paid: "2026-08-01" } }),
    );
    expect(err).toMatchObject({ code: "date_out_of_range", field: "due" });
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7.1 bad arguments over MCP come back as the same JSON envelope as HTTP ({ code, message, requestId, field }), not charged", async () => {
    const { key, keyId } = await createTestKey();
    const client = await connect(key);
    for (const [args, field] of [
      [{ amount: "0x10", due: "2026-01-15" }, "amount"],
      [{ amount: 100, due: "2026-02-30" }, "due"],
      [{ due: "2026-01-15" }, "amount"],
    ] as const) {
      const err = errorOf(await client.callTool({ name: "calculateLatePayment", arguments: args }));
      expect(err).toMatchObject({ code: "bad_request", field });
      expect(err.requestId).toMatch(/^req_/);
      expect(String(err.message)).toContain(field);
    }
    const feed = errorOf(await client.callTool({ name: "listAmlRegisterChanges", arguments: { since: "2026-01-01", kind: "bogus" } }));
    expect(feed).toMatchObject({ code: "bad_request", field: "kind" });
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §4.7 the keyless companyLogo tool needs no key", async () => {
    const result = await (await connect()).callTool({ name: "companyLogo", arguments: { domain: "logo.test" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ domain: "logo.test", source: "logo-image" });
  });

  it("issue 32 the companyLogoImage tool answers image content (base64 PNG of the asked size), with the caller's secret key or none", async () => {
    const { key } = await createTestKey();
    for (const client of [await connect(key), await connect()]) {
      const result = await client.callTool({ name: "companyLogoImage", arguments: { domain: "logos.test", size: "32" } });
      expect(result.isError).toBeFalsy();
      const [content] = result.content as { type: string; data: string; mimeType: string }[];
      expect([content.type, content.mimeType]).toEqual(["image", "image/png"]);
      const bytes = Uint8Array.from(atob(content.data), (c) => c.charCodeAt(0));
      const probe = probeImage(bytes);
      expect(probe.ok && [probe.image.width, probe.image.height]).toEqual([32, 32]);
    }
  });
});
