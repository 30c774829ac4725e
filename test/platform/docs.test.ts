import { Validator } from "@seriousme/openapi-schema-validator";
import schema31 from "@seriousme/openapi-schema-validator/schemas/v3.1/schema.json";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { operations } from "../../src/operations";
import { ERROR_CODES } from "../../src/platform/errors";
import { errorsOf, mediaRange } from "../../src/platform/openapi";
import { mediaTypesOf, slugOf } from "../../src/platform/registry";
import { API_VERSION } from "../../src/shared/version";
import { call, json } from "../helpers";

/**
 * The validator reads its meta-schemas from disk with readFileSync, which workerd cannot do; this subclass
 * hands it the same OpenAPI 3.1 meta-schema, bundled as a JSON import, compiled exactly as the package does.
 */
class BundledValidator extends Validator {
  getAjvValidator() {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addFormat("media-range", true);
    return ajv.compile(schema31);
  }
}

const METHODS = ["get", "post", "put", "delete"] as const;
const registryIds = () => operations.map((o) => o.operationId).sort();
const openApiPath = (p: string) => p.replace(/:(\w+)/g, "{$1}");

async function openApi(): Promise<Record<string, any>> {
  const r = await call("/openapi.json");
  expect(r.status).toBe(200);
  return json(r);
}

describe("SPEC §1 one registry: routes, OpenAPI, MCP and docs list the same operations", () => {
  it("SPEC §1 the OpenAPI operationIds are exactly the registry's", async () => {
    const doc = await openApi();
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap((item) => METHODS.filter((m) => item[m]).map((m) => item[m].operationId))
      .sort();
    expect(ids).toEqual(registryIds());
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of operations) expect(doc.paths[openApiPath(op.path)]?.[op.method]?.operationId).toBe(op.operationId);
  });

  it("SPEC §1 every operation's method and path is mounted (never 404 not_found or 405)", async () => {
    for (const op of operations) {
      // Without key or input a mounted route answers 400/401/415 (or 200 for a free keyless call), never the router's 404/405.
      const r = await call(op.path, { method: op.method.toUpperCase() });
      expect([404, 405], op.operationId).not.toContain(r.status);
      await r.body?.cancel();
    }
  });
});

describe("SPEC §9.2 /openapi.json and /openapi.yaml", () => {
  it("SPEC §9.2 the document passes the OpenAPI 3.1 schema validator", async () => {
    const result = await new BundledValidator().validate(await openApi());
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("SPEC §9.2 the validator does catch a broken document (guards the bundled meta-schema)", async () => {
    const doc = await openApi();
    delete doc.info.title;
    expect((await new BundledValidator().validate(doc)).valid).toBe(false);
  });

  it("SPEC §8 the description's table of input limits names the parameters the service reads (a feed's page size is `limit`)", async () => {
    const doc = await openApi();
    expect(doc.info.description).toContain("| `limit` | 500 | register change feeds");
    expect(doc.info.description).not.toContain("feedLimit");
    const params = doc.paths["/api/v1/cqc-check/changes"].get.parameters.map((p: { name: string }) => p.name).sort();
    expect(params).toEqual(["cursor", "kind", "limit", "rating", "since"]);
  });

  it("SPEC §9.2 the description matches the service: sign-up answers 201, 405/413/415 are documented where they occur, the licence has a url, tags are declared", async () => {
    const doc = await openApi();
    for (const path of ["/api/v1/signup", "/api/v1/signup/verify"]) {
      const responses = doc.paths[path].post.responses;
      expect(Object.keys(responses)).toContain("201");
      expect(Object.keys(responses)).not.toContain("200");
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(["405", "413", "415"]));
    }
    expect(Object.keys(doc.paths["/api/v1/late-payment"].get.responses)).toContain("405");
    expect(doc.info.license.url).toMatch(/^https:\/\/www\.nationalarchives\.gov\.uk\/doc\/open-government-licence\/version\/3\/$/);
    const declared = doc.tags.map((t: { name: string }) => t.name).sort();
    const used = [...new Set(Object.values(doc.paths).flatMap((p: any) => Object.values(p).flatMap((o: any) => o.tags ?? [])))].sort();
    expect(declared).toEqual(used);
  });

  it("SPEC §9.2 info.version is package.json's version (semver) and the x-api-key security scheme is declared", async () => {
    const doc = await openApi();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(API_VERSION);
    expect(API_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: "apiKey", in: "header", name: "x-api-key" });
  });

  it("SPEC §7 every operation has x-credits, the right security, and error responses referencing Error", async () => {
    const doc = await openApi();
    expect(doc.components.schemas.Error.required).toEqual(["code", "message", "requestId"]);
    for (const op of operations) {
      const o = doc.paths[openApiPath(op.path)][op.method];
      expect(o["x-credits"], op.operationId).toBe(typeof op.price === "number" ? op.price : op.price.rule);
      // A publishable operation (the logo image): no key, or a publishable key.
      expect(o.security, op.operationId).toEqual(op.auth === "key" ? [{ ApiKey: [] }] : op.auth === "publishable" ? [{}, { PublishableKey: [] }] : []);
      // An image operation also answers 304 (If-None-Match), with no body.
      const media = mediaTypesOf(op);
      if (media) {
        expect(Object.keys(o.responses[200].content), op.operationId).toEqual([mediaRange(media)]);
        for (const m of media) expect(o.responses[200].content[mediaRange(media)].schema.description, op.operationId).toContain(m);
        expect(o.responses[304].content, op.operationId).toBeUndefined();
      }
      const statuses = Object.keys(o.responses).filter((s) => s !== "200" && s !== "201" && !(media && s === "304"));
      expect(statuses.sort(), op.operationId).toEqual([...new Set(errorsOf(op).map((c) => String(ERROR_CODES[c].status)))].sort());
      for (const s of statuses)
        expect(o.responses[s].content["application/json"].schema, `${op.operationId} ${s}`).toEqual({ $ref: "#/components/schemas/Error" });
      if (op.auth === "key") expect(statuses).toEqual(expect.arrayContaining(["400", "401", "429"]));
    }
  });

  it("SPEC §9.2 /openapi.yaml parses to the same document as /openapi.json", async () => {
    const r = await call("/openapi.yaml");
    expect(r.headers.get("content-type")).toMatch(/^application\/yaml/);
    expect(parse(new TextDecoder().decode(await r.arrayBuffer()))).toEqual(await openApi());
  });
});

describe("SPEC §1 Markdown pages", () => {
  it("SPEC §1 /apis.md links every operation's page, and every page answers", async () => {
    const r = await call("/apis.md");
    expect(r.headers.get("content-type")).toMatch(/^text\/markdown/);
    const md = await r.text();
    for (const op of operations) {
      expect(md).toContain(`(http://api.test/apis/${slugOf(op)}.md)`);
      expect(md).toContain(`\`${op.method.toUpperCase()} ${op.path}\``);
      const page = await call(`/apis/${slugOf(op)}.md`);
      expect(page.status, slugOf(op)).toBe(200);
      expect(await page.text()).toContain(`## ${op.method.toUpperCase()} ${op.path} (\`${op.operationId}\`)`);
    }
  });

  it("SPEC §1 /apis/late-payment.md has the price, parameters, an example request and the errors table", async () => {
    const md = await (await call("/apis/late-payment.md")).text();
    expect(md).toContain("**Price:** 1 credit per call.");
    expect(md).toMatch(/^\| `amount` \| query \| yes \| number \|/m);
    expect(md).toMatch(/^\| `due` \| query \| yes \| string \|/m);
    expect(md).toMatch(/^\| `paid` \| query \| no \| string \|/m);
    expect(md).toContain("### Example request");
    expect(md).toContain('curl "http://api.test/api/v1/late-payment?amount=999.99&due=2026-01-15&paid=2026-02-05"');
    expect(md).toContain('-H "x-api-key: $API_KEY"');
    expect(md).toContain("| status | code | meaning |");
    for (const code of ["bad_request", "missing_key", "invalid_key", "quota_exhausted", "rate_limited", "date_out_of_range"] as const)
      expect(md).toContain(`| ${ERROR_CODES[code].status} | \`${code}\` | ${ERROR_CODES[code].meaning} |`);
  });

  // BUG (reported): src/platform/docs.ts parameterRows reads descriptions with z.toJSONSchema, which loses
  // `.describe()` once `.openapi()` has cloned the schema, so the description column is empty although
  // /openapi.json carries the descriptions.
  it("SPEC §1 the Markdown parameter rows carry the same descriptions as the OpenAPI parameters", async () => {
    const doc = await openApi();
    const md = await (await call("/apis/late-payment.md")).text();
    for (const p of doc.paths["/api/v1/late-payment"].get.parameters as { name: string; description: string }[]) {
      expect(p.description).toBeTruthy();
      expect(md).toMatch(new RegExp(`^\\| \`${p.name}\` \\|.*\\| ${p.description.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\|$`, "m"));
    }
  });

  it("SPEC §7.1 an unknown page → 404 JSON not_found with query", async () => {
    const r = await call("/apis/no-such-api.md");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await json(r)).toMatchObject({ code: "not_found", query: "no-such-api" });
  });
});

describe("SPEC §1 API catalog (RFC 9727) and apis.json", () => {
  it("SPEC §1 GET /.well-known/api-catalog is a linkset with service-desc, service-doc and status", async () => {
    const r = await call("/.well-known/api-catalog");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/linkset+json");
    const { linkset } = await json(r);
    expect(Array.isArray(linkset)).toBe(true);
    for (const entry of linkset) expect(typeof entry.anchor).toBe("string");
    const api = linkset.find((e: Record<string, unknown>) => e["service-desc"]);
    expect(api["service-desc"].map((l: { href: string }) => l.href)).toContain("http://api.test/openapi.yaml");
    expect(api["service-doc"][0].href).toBe("http://api.test/apis.md");
    expect(api.status[0].href).toBe("http://api.test/api/status");
    // The catalog's own links answer.
    for (const href of [...api["service-desc"], ...api["service-doc"], ...api["service-meta"]].map((l: { href: string }) => l.href)) {
      const res = await call(new URL(href).pathname);
      expect(res.status, href).toBe(200);
      await res.body?.cancel();
    }
  });

  it("SPEC §1 HEAD /.well-known/api-catalog → 200, Link rel=api-catalog, empty body", async () => {
    const r = await call("/.well-known/api-catalog", { method: "HEAD" });
    expect(r.status).toBe(200);
    expect(r.headers.get("link")).toContain('<http://api.test/.well-known/api-catalog>; rel="api-catalog"');
    expect(await r.text()).toBe("");
  });

  it("SPEC §1 /apis.json lists every operation", async () => {
    const doc = await json(await call("/apis.json"));
    expect(doc.version).toBe(API_VERSION);
    expect(doc.apis.map((a: { aid: string }) => a.aid.split(":").pop()).sort()).toEqual(registryIds());
    for (const op of operations) {
      const a = doc.apis.find((x: { aid: string }) => x.aid.endsWith(`:${op.operationId}`));
      expect(a.humanURL).toBe(`http://api.test/apis/${slugOf(op)}.md`);
      expect(a.baseURL).toBe(`http://api.test${op.path}`);
    }
  });
});

describe("SPEC §9.4 /changelog", () => {
  /** Each version heading: its version and the newest date it names. */
  const headings = (md: string) =>
    [...md.matchAll(/^## (\d+\.\d+\.\d+)\b(.*)$/gm)].map((m) => ({ version: m[1], date: (m[2].match(/\d{4}-\d{2}-\d{2}/g) ?? []).pop() ?? null }));
  const semver = (v: string) => v.split(".").map(Number);
  const newer = (a: string, b: string) => {
    const [x, y] = [semver(a), semver(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  };

  it("SPEC §9.4 Markdown, a heading per version, dated, newest first, including 9 and 6 October 2026; the newest is package.json's version", async () => {
    const r = await call("/changelog");
    expect(r.headers.get("content-type")).toMatch(/^text\/markdown/);
    const md = await r.text();
    const hs = headings(md);
    expect(hs[0].version).toBe(API_VERSION);
    for (let i = 1; i < hs.length; i++) {
      expect(newer(hs[i - 1].version, hs[i].version), `${hs[i].version} after ${hs[i - 1].version}`).toBeGreaterThan(0);
      if (hs[i].date && hs[i - 1].date) expect(hs[i].date! <= hs[i - 1].date!, `${hs[i].date} after ${hs[i - 1].date}`).toBe(true);
    }
    expect(hs.slice(0, -1).every((h) => h.date !== null)).toBe(true); // only the first version, before any dated change, has none
    expect(md).toMatch(/^### 2026-10-09\b/m);
    expect(md).toMatch(/^### 2026-10-06\b/m);
  });

  it("SPEC §9.4 with accept: application/json → { entries: [{ version, date, title, changes }] } in the same order", async () => {
    const md = await (await call("/changelog")).text();
    const r = await call("/changelog", { headers: { accept: "application/json" } });
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    const { entries } = await json(r);
    expect(entries.map((e: { version: string; date: string | null }) => ({ version: e.version, date: e.date }))).toEqual(headings(md));
    const v170 = entries.find((e: { version: string }) => e.version === "1.7.0");
    expect(v170.changes.join(" ")).toContain("camelCase"); // the 2026-10-09 response-shape unification
    expect(entries[0].title).toBe(/^## .*\n(.+)$/m.exec(md)![1]); // the line under the newest heading
  });
});
