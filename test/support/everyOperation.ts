import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { ingestEdition } from "../../src/jobs/ingest/job";
import { type AnyOperation, fillPath } from "../../src/platform/registry";
import { REGISTER_CATALOGUE, type SampleFile } from "../../src/services/registers/catalogue";
import { REGISTER_SOURCES } from "../../src/services/registers/types";
import type { EditionFile } from "../../src/jobs/ingest/adapter";
import { ADAPTERS } from "../../src/jobs/ingest/adapters";
import { CHARITY_EXTRA_TABLES } from "../../src/sources/charity-commission/parse";
import { EXAMPLE_PLAN } from "../../src/operations/documents/checkCarbonReductionPlan";
import { CHARITY, CQC, MODERN_SLAVERY, OFSTED } from "../../src/app/documents/readers";
import { call, createTestKey, startSignup, uniqueContact } from "../helpers";
import { ingestPortsFor } from "../../src/platform/jobPorts";

/**
 * What it takes to call any operation of the registry over HTTP with its own `example` (or another input), shared by
 * the contract test (test/contract.test.ts) and the claims test (test/claims.test.ts): the sample registers loaded
 * through the real ingest pipeline, the state some examples name, and stand-ins for the real domains examples name.
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
export const SETUP: Record<string, (key: string | undefined) => Promise<Record<string, unknown>>> = {
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
    const r = await call("/api/v1/watch", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ company: "12300001" }),
    });
    expect(r.status, "watch before unwatching").toBe(201);
    return {};
  },
  // A webhook to read, remove or test (a fixture receiver that answers 204).
  // A publishable key to revoke: made first with the same secret key.
  revokePublishableKey: async (key) => {
    const r = await call("/api/v1/account/publishable-keys", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ origins: ["https://www.example.co.uk"] }),
    });
    expect(r.status, "publishable key made before revoking it").toBe(201);
    return { key: ((await r.json()) as { key: string }).key };
  },
  // A receipt to read: a charged check's reply carries one.
  getReceipt: async (key) => {
    const r = await call("/api/v1/sra-check?company=Riverine%20Solicitors", { key });
    expect(r.status, "a check before reading its receipt").toBe(200);
    await r.body?.cancel();
    return { id: r.headers.get("x-receipt-id") };
  },
  getWatchWebhook: async (key) => setHook(key),
  removeWatchWebhook: async (key) => setHook(key),
  testWatchWebhook: async (key) => setHook(key),
};

async function setHook(key: string | undefined): Promise<Record<string, unknown>> {
  const r = await call("/api/v1/watch/webhook", {
    method: "PUT",
    key,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: "https://hooks.test/ok" }),
  });
  expect(r.status, "webhook set first").toBe(200);
  return {};
}

/**
 * Stands in for fetch: the DoH resolver (dns.test) says every name is at a public address, a host of `routes` is
 * answered by its route (given the URL and the real fetch), and everything else goes to the real fetch.
 */
function stubFetch(routes: Record<string, (url: URL, real: typeof fetch) => Response | Promise<Response>> = {}): void {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname === "dns.test")
      return Response.json({ Status: 0, Answer: url.searchParams.get("type") === "A" ? [{ type: 1, data: "151.101.0.1", TTL: 60 }] : [] });
    const route = Object.hasOwn(routes, url.hostname) ? routes[url.hostname] : undefined;
    return route ? route(url, real) : real(input, init);
  });
}

/** The DoH resolver (dns.test) says every name is at a public address. */
const publicDns = (): void => stubFetch();

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
  return () => stubFetch({ "www.example.co.uk": () => new Response(body, { headers: { "content-type": contentType } }) });
}

/** A real-looking domain stood in for by a fixture site, path for path (the DoH resolver says every name is public). */
function siteAs(domain: string, fixtureHost: string): () => void {
  return () => stubFetch({ [domain]: (url, real) => real(`https://${fixtureHost}${url.pathname}${url.search}`) });
}

export const UPSTREAMS: Record<string, () => void> = {
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
  companyLogo: () => stubFetch({ "example.co.uk": (_url, real) => real("https://logo.test/index.html") }),
  // company-logo/image?domain=example.co.uk: the site is the logos.test fixture (a PNG logo), path for path.
  companyLogoImage: siteAs("example.co.uk", "logos.test"),
};

/** `SPEC §5.3`, `SPEC §1 rule 7`: the first SPEC section the operation's description names. */
export const specOf = (op: AnyOperation) => /SPEC §\d+(?:\.\d+)*(?: rule \d+)?/.exec(op.description ?? "")?.[0];
export const titleOf = (op: AnyOperation) => [op.operationId, `(${op.method.toUpperCase()} ${op.path})`, specOf(op)].filter(Boolean).join(" ");

/** The request for `input`: a query string for GET and DELETE, a JSON body for POST and PUT. */
export function requestOf(op: AnyOperation, input: Record<string, unknown>, key?: string): [string, RequestInit & { key?: string }] {
  if (op.method === "get" || op.method === "delete") {
    const { path, rest } = fillPath(op.path, input);
    const q = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)]));
    return [`${path}${q.size ? `?${q}` : ""}`, { method: op.method.toUpperCase(), key }];
  }
  return [op.path, { method: op.method.toUpperCase(), key, headers: { "content-type": "application/json" }, body: JSON.stringify(input) }];
}

const bytesOf = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());

/**
 * The sample registers, loaded through the real ingest pipeline (for a beforeAll): every organisation register's
 * `samples` in the catalogue (src/services/registers/catalogue.ts), in its order, as `npm start` loads them, so a new
 * register's check answers its example here with no line added. An edition's date is the sample's, or the file's own.
 */
export async function loadSampleRegisters(): Promise<void> {
  for (const source of REGISTER_SOURCES.filter((s) => REGISTER_CATALOGUE[s].organisation))
    for (const sample of REGISTER_CATALOGUE[source].samples as readonly SampleFile[]) {
      const path = sample.file.replace(/^test\/fixtures\//, "");
      const file: EditionFile = { source, bytes: await bytesOf(path), fileName: path.split("/").pop()!, url: null, editionDate: sample.date ?? null };
      // The charity extract is several tables: the others are beside the charity table, as npm run ingest finds them.
      if (source === "charity")
        file.tables = Object.fromEntries(
          await Promise.all(CHARITY_EXTRA_TABLES.map(async (t) => [t, await bytesOf(path.replace(/\.charity\.txt$/, `.${t}.txt`))])),
        );
      file.editionDate ??= (await ADAPTERS[source].dateOf?.(file)) ?? null;
      const r = await ingestEdition(ingestPortsFor(env), file);
      if (r.outcome !== "loaded") throw new Error(`${sample.file}: ${r.outcome} ${r.reason}`);
    }
}

export interface OperationCall {
  /** The input sent: the example (or the input given) with the set-up's fields in place. */
  input: Record<string, unknown>;
  status: number;
  text: string;
  /** The reply's bytes and media type (an image operation's reply is not text). */
  bytes: Uint8Array;
  contentType: string;
}

/**
 * Calls `op` over HTTP as its example does (or with `input` instead of the example): a verified key when the
 * operation needs one, its set-up (SETUP) and its upstream stand-ins (UPSTREAMS). The caller restores the mocks
 * (afterEach(() => vi.restoreAllMocks())).
 */
export async function callOperation(op: AnyOperation, input: Record<string, unknown> = { ...op.example }): Promise<OperationCall> {
  const key = op.auth === "key" ? (await createTestKey({ verified: true })).key : undefined;
  const setup = SETUP[op.operationId];
  if (setup) {
    const replaced = await setup(key);
    expect(
      Object.keys(replaced).filter((k) => !(k in input)),
      `${op.operationId}: the set-up may only fill in fields the example has`,
    ).toEqual([]);
    input = { ...input, ...replaced };
  }
  UPSTREAMS[op.operationId]?.();
  vi.spyOn(console, "log").mockImplementation(() => {}); // the sign-up's codes, printed by the "log" provider
  const r = await call(...requestOf(op, input, key));
  const bytes = new Uint8Array(await r.arrayBuffer());
  return { input, status: r.status, text: new TextDecoder().decode(bytes), bytes, contentType: r.headers.get("content-type") ?? "" };
}
