import { env } from "cloudflare:workers";
import { z } from "@hono/zod-openapi";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ingestEdition } from "../src/jobs/ingest/job";
import { operations } from "../src/operations";
import type { AnyOperation } from "../src/platform/registry";
import type { RegisterSource } from "../src/services/registers/types";
import { CHARITY_EXTRA_TABLES } from "../src/sources/charity-commission/parse";
import { EXAMPLE_PLAN } from "../src/operations/documents/checkCarbonReductionPlan";
import { CHARITY, CQC, MODERN_SLAVERY, OFSTED } from "../src/operations/documents/common/readers";
import { call, createTestKey, startSignup, uniqueContact } from "./helpers";

/**
 * The contract test (DESIGN.md, after openstatus): every operation of the registry is called over HTTP with its
 * own `example`, and its reply must parse with its own zod `output` schema. A new operation is in this test by
 * being in `operations`; one without an example fails here.
 *
 * Data: the sample registers (our files in each upstream's format, test/fixtures/<source>/, the ones npm start
 * loads), two editions where there are two so the change feeds have changes, through the real ingest pipeline.
 * Upstreams called during a request (Companies House, …) are the fixture hosts of vitest.config.ts.
 */

/**
 * Operations whose example cannot succeed as it stands, because it names state made earlier (a challenge id
 * and the codes sent). Its set-up takes that step and returns the fields to put in place of the example's own:
 * only fields the example has, so the request keeps the example's shape.
 */
const SETUP: Record<string, (key: string | undefined) => Promise<Record<string, unknown>>> = {
  // POST /api/v1/signup first: the challenge and the two codes the "log" provider printed.
  verifySignup: async () => {
    const s = await startSignup(uniqueContact());
    expect(s.reply.status, "sign-up before verify").toBe(201);
    return { challengeId: s.challengeId, emailCode: s.emailCode, mobileCode: s.mobileCode };
  },
  // A feed to switch off: asking for the company's deadlines makes it.
  revokeDeadlinesFeed: async (key) => {
    const r = await call("/api/v1/deadlines?company=01234567", { key });
    expect(r.status, "deadlines before revoking the feed").toBe(200);
    return {};
  },
  // A watch to remove.
  unwatchCompany: async (key) => {
    const r = await call("/api/v1/watch", { method: "POST", key, headers: { "content-type": "application/json" }, body: JSON.stringify({ company: "12300001" }) });
    expect(r.status, "watch before unwatching").toBe(201);
    return {};
  },
  // A webhook to read, remove or test (a fixture receiver that answers 204).
  getWatchWebhook: async (key) => setHook(key),
  removeWatchWebhook: async (key) => setHook(key),
  testWatchWebhook: async (key) => setHook(key),
};

async function setHook(key: string | undefined): Promise<Record<string, unknown>> {
  const r = await call("/api/v1/watch/webhook", { method: "PUT", key, headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "https://hooks.test/ok" }) });
  expect(r.status, "webhook set first").toBe(200);
  return {};
}

/** The DoH resolver (dns.test) says every name is at a public address. */
function publicDns(): void {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname === "dns.test") return Response.json({ Status: 0, Answer: url.searchParams.get("type") === "A" ? [{ type: 1, data: "151.101.0.1", TTL: 60 }] : [] });
    return real(input, init);
  });
}

/**
 * Upstreams an example reaches that the fixture hosts cannot stand for (the example names a real domain): stood in
 * for with a stubbed fetch, the way the operation's own tests do. Everything else goes to vitest.config.ts's hosts.
 */
/**
 * A document reader's GET example names a document on www.example.co.uk: the DoH resolver says the name is public,
 * and the document is served as the reader's documented example text (the carbon reduction plan check: its example
 * plan page).
 */
function exampleDocument(body: string, contentType: string): () => void {
  return () => {
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.hostname === "dns.test")
        return Response.json({ Status: 0, Answer: url.searchParams.get("type") === "A" ? [{ type: 1, data: "151.101.0.1", TTL: 60 }] : [] });
      if (url.hostname === "www.example.co.uk") return new Response(body, { headers: { "content-type": contentType } });
      return real(input, init);
    });
  };
}

/** A real-looking domain stood in for by a fixture site, path for path (the DoH resolver says every name is public). */
function siteAs(domain: string, fixtureHost: string): () => void {
  return () => {
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.hostname === "dns.test")
        return Response.json({ Status: 0, Answer: url.searchParams.get("type") === "A" ? [{ type: 1, data: "151.101.0.1", TTL: 60 }] : [] });
      if (url.hostname === domain) return real(`https://${fixtureHost}${url.pathname}${url.search}`);
      return real(input, init);
    });
  };
}

const UPSTREAMS: Record<string, () => void> = {
  // The enrichment family's example q=harbourside-legal.co.uk: the site is the harbourside-legal.test fixture.
  enrichCompany: siteAs("harbourside-legal.co.uk", "harbourside-legal.test"),
  enrichDemo: siteAs("harbourside-legal.co.uk", "harbourside-legal.test"),
  businessScore: siteAs("harbourside-legal.co.uk", "harbourside-legal.test"),
  assessFit: siteAs("harbourside-legal.co.uk", "harbourside-legal.test"),
  enrichBatch: siteAs("harbourside-legal.co.uk", "harbourside-legal.test"),
  classifyIndustry: siteAs("harbourside-legal.co.uk", "harbourside-legal.test"),
  scoreModernSlaveryStatementByUrl: exampleDocument(MODERN_SLAVERY.exampleText, "text/plain; charset=utf-8"),
  structureOfstedReportByUrl: exampleDocument(OFSTED.exampleText, "text/plain; charset=utf-8"),
  structureCqcReportByUrl: exampleDocument(CQC.exampleText, "text/plain; charset=utf-8"),
  structureCharityReportByUrl: exampleDocument(CHARITY.exampleText, "text/plain; charset=utf-8"),
  checkCarbonReductionPlan: exampleDocument(EXAMPLE_PLAN, "text/html; charset=utf-8"),
  // brand-kit?domain=example.co.uk: the DoH resolver says the name is public; the site is the brand.test fixture (path for path: its stylesheets and manifest too).
  getBrandKit: siteAs("example.co.uk", "brand.test"),
  // ai-visibility?domain=example.co.uk: the DoH resolver says the name is public; the site is the aiv.test fixture (path for path).
  checkAiVisibility: siteAs("example.co.uk", "aiv.test"),
  // website-legal?url=https://www.example.co.uk/: the DoH resolver says the name is public; the site is the legal.test fixture.
  checkWebsiteLegal: siteAs("www.example.co.uk", "legal.test"),
  // accessibility-audit?url=https://www.example.co.uk/: the DoH resolver says the name is public; the site is a11y.test's
  // fixture (the page and, through the browser's interception, its stylesheet and images).
  auditAccessibility: siteAs("www.example.co.uk", "a11y.test"),
  // The webhook's host (hooks.example.co.uk) is checked to resolve only to public addresses.
  setWatchWebhook: publicDns,
  // company-logo?domain=example.co.uk: the DoH resolver says the name is public; the homepage is a fixture page.
  companyLogo: () => {
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.hostname === "dns.test")
        return Response.json({ Status: 0, Answer: url.searchParams.get("type") === "A" ? [{ type: 1, data: "151.101.0.1", TTL: 60 }] : [] });
      if (url.hostname === "example.co.uk") return real("https://logo.test/index.html");
      return real(input, init);
    });
  },
};

/** `SPEC §5.3`, `SPEC §1 rule 7`: the first SPEC section the operation's description names. */
const specOf = (op: AnyOperation) => /SPEC §\d+(?:\.\d+)*(?: rule \d+)?/.exec(op.description ?? "")?.[0];
const titleOf = (op: AnyOperation) => [op.operationId, `(${op.method.toUpperCase()} ${op.path})`, specOf(op)].filter(Boolean).join(" ");

/** The request for `input`: a query string for GET and DELETE, a JSON body for POST and PUT. */
function requestOf(op: AnyOperation, input: Record<string, unknown>, key?: string): [string, RequestInit & { key?: string }] {
  if (op.method === "get" || op.method === "delete") {
    const q = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)]));
    return [`${op.path}${q.size ? `?${q}` : ""}`, { method: op.method.toUpperCase(), key }];
  }
  return [op.path, { method: op.method.toUpperCase(), key, headers: { "content-type": "application/json" }, body: JSON.stringify(input) }];
}

/** The parse result as a sentence a reader can act on. */
function parses(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  return r.success ? "parses" : z.prettifyError(r.error);
}

const bytesOf = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());

beforeAll(async () => {
  const load = async (source: RegisterSource, path: string, editionDate: string, extra = {}) => {
    const r = await ingestEdition(env, { source, bytes: await bytesOf(path), fileName: path.split("/").pop()!, url: null, editionDate, ...extra });
    if (r.outcome !== "loaded") throw new Error(`${path}: ${r.outcome} ${r.reason}`);
  };
  await load("sponsors", "sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv", "2026-06-26");
  await load("sponsors", "sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-29.csv", "2026-06-29");
  await load("sponsors", "sponsors/2026-01-02_-_Student_and_Child_Student.csv", "2026-01-02");
  await load("aml", "hmrc-mlr/supervised-business-register-2026-09.ods", "2026-10-07");
  await load("aml", "hmrc-mlr/supervised-business-register-2026-10.ods", "2026-11-07");
  await load("sra", "sra/GetAll.json", "2026-10-08");
  await load("cqc", "cqc/hsca-active-locations.ods", "2026-10-02");
  const tables = Object.fromEntries(await Promise.all(CHARITY_EXTRA_TABLES.map(async (t) => [t, await bytesOf(`charity-commission/publicextract.${t}.txt`)])));
  await load("charity", "charity-commission/publicextract.charity.txt", "2026-10-07", { tables });
});

afterEach(() => vi.restoreAllMocks());

describe("the contract: every operation's example answers its success status, and the reply parses with its output schema", () => {
  it("the registry has operations, each named once", () => {
    expect(operations.length).toBeGreaterThan(0);
    const ids = operations.map((o) => o.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it.each(operations.map((op) => [titleOf(op), op] as const))("%s: its example, called over HTTP, answers its success status and a reply its output schema parses", async (_title, op) => {
    expect(op.example, `${op.operationId} has no \`example\`: give it one (query for GET/DELETE, JSON body for POST/PUT); the docs and this test use it`).toBeTypeOf("object");
    let input: Record<string, unknown> = { ...op.example };
    const key = op.auth === "key" ? (await createTestKey({ verified: true })).key : undefined;
    const setup = SETUP[op.operationId];
    if (setup) {
      const replaced = await setup(key);
      expect(Object.keys(replaced).filter((k) => !(k in input)), `${op.operationId}: the set-up may only fill in fields the example has`).toEqual([]);
      input = { ...input, ...replaced };
    }
    UPSTREAMS[op.operationId]?.();
    vi.spyOn(console, "log").mockImplementation(() => {}); // the sign-up's codes, printed by the "log" provider
    const r = await call(...requestOf(op, input, key));
    const text = await r.text();
    expect(r.status, `${op.operationId} with its example ${JSON.stringify(input)} answered ${r.status}: ${text.slice(0, 600)}`).toBe(op.successStatus ?? 200);
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(parses(op.output, body), `${op.operationId}'s reply does not parse with its output schema; reply: ${text.slice(0, 600)}`).toBe("parses");
    // Nothing undeclared either: parsing drops keys the schema does not name, so the two key lists must agree.
    const declared = op.output.parse(body) as Record<string, unknown>;
    expect(Object.keys(body).filter((k) => !(k in declared)), `${op.operationId}'s reply has keys its output schema does not declare`).toEqual([]);
  });

  it("each operation lives in src/operations/<family>/<operationId>.ts, and every such file is in the registry", () => {
    const modules = import.meta.glob<Record<string, unknown>>("/src/operations/*/*.ts", { eager: true });
    const files = Object.entries(modules).map(([path, mod]) => ({ path, ops: Object.values(mod).filter((v): v is AnyOperation => typeof v === "object" && v !== null && "operationId" in v && "handler" in v) }));
    for (const { path, ops } of files) {
      expect(ops.map((o) => `/src/operations/${o.family}/${o.operationId}.ts`), `${path} must define exactly the operation it is named after`).toEqual([path]);
    }
    expect(files.map((f) => f.ops[0]?.operationId).sort()).toEqual(operations.map((o) => o.operationId).sort());
  });

  const withReply = operations.filter((op) => op.exampleReply !== undefined);
  it.each(withReply.map((op) => [titleOf(op), op] as const))("%s: its documented exampleReply parses with its output schema", (_title, op) => {
    expect(parses(op.output, op.exampleReply), `${op.operationId}.exampleReply (shown in the docs) does not parse with its output schema`).toBe("parses");
    const declared = op.output.parse(op.exampleReply) as Record<string, unknown>;
    expect(Object.keys(op.exampleReply as object).filter((k) => !(k in declared)), `${op.operationId}.exampleReply has keys its output schema does not declare`).toEqual([]);
  });
});
