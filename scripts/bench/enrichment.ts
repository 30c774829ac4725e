// Enrichment (issue 18 §4), part of `npm run bench` (alone: node scripts/bench/enrichment.mjs). The enrichment core
// and the batch operation run in Node against stand-ins with a simulated latency (BENCH_UPSTREAM_MS, default 80 ms a
// request): the businesses' websites are the fixture sites of test/fixtures/hosts (a host without a folder does not
// resolve, as a domain a name suggests usually does not), Companies House answers from its fixtures
// (test/fixtures/hosts/ch.test), no companies file is loaded (so names go to Companies House's search), and the
// answers cache is in memory. Measured: enrich p50 cold (a new cache each run) and warm (the same cache), upstream
// requests per enrichment, and a batch of 25 items: wall time and the peak of requests in flight at once.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { enrich } from "../../src/app/enrichment/enrich";
import { enrichBatch } from "../../src/operations/enrichment/enrichBatch";
import type { OpContext } from "../../src/platform/registry";
import type { Services } from "../../src/platform/services";
import { type DocumentMetadata, parseDocumentMetadata } from "../../src/sources/companies-house/documents";
import { readAccounts } from "../../src/sources/companies-house/ixbrl";
import { parseCompanyProfile, parseFilingHistory, parseOfficerList, parseSearchResults } from "../../src/sources/companies-house/parse";
import { InputError } from "../../src/shared/errors";
import { memoryHttpCache } from "../../src/shared/ports";

const ROOT = join(import.meta.dirname ?? ".", "..", "..");
const HOSTS = join(process.cwd(), "test/fixtures/hosts");
const DELAY = Number(process.env.BENCH_UPSTREAM_MS ?? 80);
const RUNS = Number(process.env.BENCH_ENRICH_RUNS ?? 15);
void ROOT;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Meter {
  calls: number;
  inFlight: number;
  peak: number;
}

async function upstream<T>(m: Meter, f: () => T): Promise<T> {
  m.calls++;
  m.inFlight++;
  m.peak = Math.max(m.peak, m.inFlight);
  try {
    await sleep(DELAY);
    return f();
  } finally {
    m.inFlight--;
  }
}

const file = (p: string): string | null => {
  try {
    const st = statSync(p);
    return readFileSync(st.isDirectory() ? join(p, "index.json") : p, "utf8");
  } catch {
    return null;
  }
};

function servicesOf(m: Meter, cache = memoryHttpCache()): Services {
  const page = (url: string) => {
    const u = new URL(url);
    const text = file(join(HOSTS, u.hostname, u.pathname === "/" ? "index.html" : u.pathname));
    if (text === null) {
      if (!statSync(join(HOSTS, u.hostname), { throwIfNoEntry: false }))
        throw new InputError("unreadable_input", `The host ${u.hostname} could not be resolved.`);
      throw new InputError("unreadable_input", "The page answered with HTTP status 404.");
    }
    return { url, status: 200, contentType: "text/html", text, body: new TextEncoder().encode(text), headers: new Headers(), redirects: [] };
  };
  const ch = (p: string) => file(join(HOSTS, "ch.test", p));
  return {
    web: { fetch: (url: string) => upstream(m, () => page(url)) },
    companiesHouse: {
      getProfile: (n: string) => upstream(m, () => (ch(`company/${n}`) ? parseCompanyProfile(ch(`company/${n}`)!) : null)),
      getOfficers: (n: string) => upstream(m, () => (ch(`company/${n}/officers`) ? parseOfficerList(ch(`company/${n}/officers`)!) : null)),
      searchCompanies: () => upstream(m, () => parseSearchResults(ch("search/companies")!)!),
      getFilingHistory: (n: string) => upstream(m, () => (ch(`company/${n}/filing-history`) ? parseFilingHistory(ch(`company/${n}/filing-history`)!) : null)),
    },
    // The Document API: metadata and the tagged accounts from test/fixtures/hosts/chdoc.test (their paths as the register links them).
    companiesHouseDocuments: {
      getMetadata: (link: string) =>
        upstream(m, () => {
          const body = file(join(HOSTS, "chdoc.test", new URL(link).pathname));
          return body ? parseDocumentMetadata(body) : null;
        }),
      getAccounts: (meta: DocumentMetadata) =>
        upstream(m, () => {
          const body =
            meta.contentPath && meta.contentTypes.includes("application/xhtml+xml")
              ? file(join(HOSTS, "chdoc.test", meta.contentPath.replace(/\?.*$/, "")))
              : null;
          return body ? readAccounts(body) : null;
        }),
    },
    // The Gazette's insolvency notices (enrichment reads them since issue 28 §2): one search of the feed by name, with no
    // notice found (a company with notices costs one more request per notice's linked data).
    gazette: { insolvencyNotices: () => upstream(m, () => ({ matched: [], read: 0, truncated: false })) },
    companiesRegister: {
      companiesEdition: async () => null,
      companyByNumber: async () => null,
      companiesMatching: async () => [],
      sicDescriptions: async () => new Map(),
    },
    contracts: { contractAwardsOf: async () => [] },
    registers: { editionInfo: async () => ({ editionDate: null }) },
    cache,
    enrichment: { domainSuffixes: ["test"] },
  } as unknown as Services;
}

const ctxOf = (services: Services): OpContext =>
  ({
    services,
    requestId: "bench",
    origin: "http://localhost",
    caller: null,
    ip: "127.0.0.1",
    now: new Date(),
    signal: new AbortController().signal,
    charge: async () => ({ charged: 0, remaining: 0 }),
    refund: () => {},
    waitUntil: (p: Promise<unknown>) => void p.catch(() => {}),
  }) as OpContext;

const QUERIES = [
  "bayside.test",
  "https://meadowcare.test/",
  "brightbakes.test",
  "acme-widgets.test",
  "sunny-days.test",
  "harbourside-legal.test",
  "castlebrooklegal.test",
  "down.test",
];

export async function benchEnrichment() {
  // Cold: a new cache (and new Companies House answers) for every run.
  const cold: number[] = [];
  const calls: Record<string, number> = {};
  for (let i = 0; i < RUNS; i++)
    for (const q of QUERIES) {
      const m: Meter = { calls: 0, inFlight: 0, peak: 0 };
      const t = performance.now();
      await enrich(ctxOf(servicesOf(m)), q, undefined);
      cold.push(performance.now() - t);
      calls[q] = m.calls;
    }
  // Warm: one cache, filled once.
  const m: Meter = { calls: 0, inFlight: 0, peak: 0 };
  const warmServices = servicesOf(m);
  for (const q of QUERIES) await enrich(ctxOf(warmServices), q, undefined);
  const before = m.calls;
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i++)
    for (const q of QUERIES) {
      const t = performance.now();
      await enrich(ctxOf(warmServices), q, undefined);
      warm.push(performance.now() - t);
    }
  // A batch of 25 distinct items (the fixture sites, with paths that make each query its own), cold.
  const bm: Meter = { calls: 0, inFlight: 0, peak: 0 };
  const items = Array.from({ length: 25 }, (_, i) => `https://${QUERIES[i % QUERIES.length].replace(/^https:\/\//, "").replace(/\/$/, "")}/?n=${i}`);
  const t = performance.now();
  const reply = (await enrichBatch.handler({ items }, ctxOf(servicesOf(bm)))) as { results: { found: boolean }[]; creditsUsed: number };
  const batchMs = performance.now() - t;
  const perCall = Object.values(calls);
  return {
    simulatedUpstreamMs: DELAY,
    enrichP50ColdMs: Math.round(median(cold)),
    enrichP50WarmMs: +median(warm).toFixed(2),
    warmUpstreamCalls: m.calls - before,
    upstreamCallsPerEnrichment: { byQuery: calls, median: median(perCall), max: Math.max(...perCall) },
    batch25: {
      wallMs: Math.round(batchMs),
      peakUpstreamInFlight: bm.peak,
      upstreamCalls: bm.calls,
      found: reply.results.filter((r) => r.found).length,
      creditsUsed: reply.creditsUsed,
    },
  };
}
