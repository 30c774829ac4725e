/**
 * The one wiring module: builds every client and store an operation uses from `env`, per request, and
 * hands them to handlers as `ctx.services` (as Unkey's API does). An operation never reads `env` to build
 * a client, and never touches D1 or an upstream except through these. Tests swap in in-memory versions
 * (`execute(..., { services: { ... } })`).
 */
import { accountByContact, attemptChallenge, createChallenge, issueKey, useChallenge } from "../db/accounts";
import { type storedBankRate, storedBankRateCached } from "../db/bankRate";
import { companiesEdition, companiesMatching, companyByNumber, companyChangesOf, sicDescriptions } from "../db/companies";
import { sicIndexState, sicListDescriptions, sicModel } from "../db/sicIndex";
import { feedByToken, feedTokenFor, revokeFeed } from "../db/calendarFeeds";
import { contractAwardsOf, contractTotals } from "../db/contracts";
import { openTenderCandidates, openTenderCount, tenderEdition } from "../db/tenders";
import { d1HttpCache } from "../db/httpCache";
import { activeKeyCount, revokeAccountKey } from "../db/keys";
import { type RegisterReads, firstDateKept, registerReads } from "../db/registers";
import type { ReadSessions } from "../db/sessions";
import { d1RequestBudget } from "../db/upstreamBudget";
import { releaseWindow, takeWindow } from "../db/windowCounter";
import {
  addWatch,
  deliveryCounts,
  eventsSince,
  forgetNewWatch,
  listWatches,
  markPaid,
  removeWatch,
  removeWebhook,
  setLabel,
  setWebhook,
  watchCount,
  watchListRow,
  watchOf,
  webhookOf,
} from "../db/watch";
import type { PostOutcome } from "../services/watch/feed";
import { DELIVERY_TIMEOUT_MS } from "../services/watch/delivery";
import type { Env } from "../env";
import type { HttpCache } from "../shared/ports";
import type { Ledgers } from "../shared/ledger";
import { durableLedgers } from "../ledger/durableLedgers";
import { type CompaniesHouse, createCompaniesHouseClient } from "../sources/companies-house/client";
import { type CompaniesHouseDocuments, createDocumentClient } from "../sources/companies-house/documents";
import { dohResolverFor } from "../sources/dns/doh";
import { type Gazette, createGazetteClient } from "../sources/gazette/client";
import { type Messenger, messengerFor } from "../sources/messaging/messenger";
import { type SafeFetchOptions, type SafeFetchResult, checkAddress, decodeText, postWebhook, safeFetch } from "../sources/web/safeFetch";
import { fixtureOriginFetch, testHostsOf } from "../shared/testHosts";
import { workersAiPhraser } from "../sources/ai/workersAi";
import type { PdfText } from "../sources/documents/pdf";
import { type ImageMaker, readersBrowser, readersImages, readersPdf } from "../sources/readers/client";
import { logoCompany, logoFile, logoImage, putLogoCompany, putLogoFile, putLogoImage } from "../db/logos";
import { createPublishableKey, publishableKeysOf, revokePublishableKey } from "../db/publishableKeys";
import { receiptOf } from "../db/receipts";
import type { Phraser } from "../services/documents/summary";
import type { Browser } from "../services/web/rendered";
import { InputError } from "../shared/errors";
import { forgetKey, forgetPublishableKey } from "./keyCache";
import { type SanctionsList, currentSanctionsList } from "./sanctionsList";

/** The Cache API's default cache, or null where the runtime has none (Node, some tests). Failures read as a miss. */
function defaultEdgeCache(): Services["edgeCache"] {
  const cache = (globalThis as { caches?: { default?: Cache } }).caches?.default;
  if (!cache) return null;
  return {
    match: (key) => cache.match(new Request(key)).catch(() => undefined),
    put: (key, res) => cache.put(new Request(key), res).catch(() => {}),
  };
}

/** Functions of a db module with their first argument (the database) bound. */
type Bound<T> = { [K in keyof T]: T[K] extends (db: D1Database, ...args: infer A) => infer R ? (...args: A) => R : never };
function bindDb<T extends Record<string, (db: D1Database, ...args: never[]) => unknown>>(db: D1Database | (() => D1Database), fns: T): Bound<T> {
  const get = typeof db === "function" ? db : () => db;
  return Object.fromEntries(Object.entries(fns).map(([k, f]) => [k, (...a: never[]) => f(get(), ...a)])) as Bound<T>;
}

const calendarFeedStore = { feedTokenFor, feedByToken, revokeFeed };
const contractReads = { contractAwardsOf, contractTotals, openTenderCandidates, openTenderCount, tenderEdition };
const companiesRegisterReads = {
  companiesEdition,
  companyByNumber,
  companiesMatching,
  sicDescriptions,
  companyChangesOf,
  sicModel,
  sicIndexState,
  sicListDescriptions,
};
const watchStore = {
  watchOf,
  watchListRow,
  watchCount,
  addWatch,
  forgetNewWatch,
  setLabel,
  markPaid,
  removeWatch,
  listWatches,
  eventsSince,
  webhookOf,
  setWebhook,
  removeWebhook,
  deliveryCounts,
};
const logoStore = { logoImage, putLogoImage, logoFile, putLogoFile, logoCompany, putLogoCompany };
const receiptStore = { receiptOf };
const publishableKeyStore = { createPublishableKey, publishableKeysOf, revokePublishableKey };
const accountStore = { createChallenge, attemptChallenge, useChallenge, accountByContact, issueKey, activeKeyCount, revokeAccountKey };

export interface Services {
  /** Companies House (company profiles), with the D1 cache and the shared request budget. */
  companiesHouse: CompaniesHouse;
  /** Companies House Document API: filings' metadata and iXBRL. */
  companiesHouseDocuments: CompaniesHouseDocuments;
  /** Reads of the companies register (Basic Company Data and its name index, in COMPANIES_DB). */
  companiesRegister: Bound<typeof companiesRegisterReads>;
  /** The Gazette's corporate insolvency notices, matched to a company. */
  gazette: Gazette;
  /** The published UK sanctions list, indexed for definite matching; null before the list is first loaded. */
  sanctions: { current(): Promise<SanctionsList | null> };
  /** Reads of the published registers. */
  registers: RegisterReads;
  /**
   * The registers as they stood on a date (issue 33 §1): the same reads, each part at its newest edition kept on or
   * before `asOf` (YYYY-MM-DD); `firstDate` is the first date a register can be read as of.
   */
  registersAsOf: { at(asOf: string): RegisterReads; firstDate(source: string): Promise<string | null> };
  /** Reads of the contracts register: a company's awards, paged, and their totals. */
  contracts: Bound<typeof contractReads>;
  /** The watch list, its event feed and the webhook (db/watch.ts). */
  watch: Bound<typeof watchStore>;
  /** Webhooks: the address check at PUT, a signed post (the test event), and the key secrets are sealed with (null: not configured). */
  webhooks: {
    secretsKey: string | null;
    /** Throws InputError (invalid_url, blocked_address, unreadable_input) unless the URL is https and every address it resolves to is public. */
    check(url: string): Promise<URL>;
    post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome>;
  };
  /** Sign-up challenges, accounts and keys. */
  accounts: Bound<typeof accountStore>;
  /** Calendar feed capability tokens (deadlines.ics). */
  calendarFeeds: Bound<typeof calendarFeedStore>;
  /** Fixed-window counters (per-IP and per-address limits). */
  limits: {
    take(bucket: string, limit: number, windowSeconds: number, now: number): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
    /** Gives back one use taken in the same window (a call that failed on our side). */
    release(bucket: string, windowSeconds: number, now: number): Promise<void>;
  };
  /** The Bank Rate series the daily cron stored, if any. */
  bankRates: { stored: () => ReturnType<typeof storedBankRate> };
  /** The caller's credit ledger, read without charging. */
  ledger: { peek(name: string, period: string, allowance: number, startingBalance: number | null): Promise<{ remaining: number }> };
  /** Sign-up codes by email and SMS. */
  messenger: Messenger;
  /** Fetches a URL a caller gave: every host resolved through the DoH resolver and refused unless public; `text` is the body decoded by its charset. */
  web: { fetch(url: string, opts?: Omit<SafeFetchOptions, "resolve" | "testHosts">): Promise<SafeFetchResult & { text: string }> };
  /** A real browser (Browser Rendering, in the readers Worker) whose every request goes through the safe fetcher's rules; `available` false where unbound. */
  browser: Browser;
  /** A cache of answers this service computed from upstreams (e.g. logos), in D1. */
  cache: HttpCache;
  /** PDFs' text page by page (unpdf, in the readers Worker); `read` refuses a scan (422 unreadable_input). */
  pdf: { isPdf(bytes: Uint8Array): boolean; read(bytes: Uint8Array): Promise<PdfText> };
  /** The optional language model that words the document readers' summaries from their facts (Workers AI); `available` false where unbound. */
  phraser: Phraser;
  /** Logos made into images (the logo image route): the resizer and converter, in the readers Worker; `available` false where unbound. */
  images: ImageMaker;
  /** The logo files fetched and the images made from them, and companies' confirmed websites for them (db/logos.ts). */
  logos: Bound<typeof logoStore>;
  /** Signed receipts of checks and the replies they cover (db/receipts.ts; the gateway writes them). */
  receipts: Bound<typeof receiptStore>;
  /** Publishable keys (pk_…): made, listed and revoked by their account. */
  publishableKeys: Bound<typeof publishableKeyStore>;
  /**
   * The data centre's HTTP cache (the Cache API's default cache), for replies the same for every caller (the logo
   * images): null where the runtime has none. Keyed by a URL this service makes.
   */
  edgeCache: { match(key: string): Promise<Response | undefined>; put(key: string, res: Response): Promise<void> } | null;
  /** Enrichment settings: the suffixes of the domains a company's name suggests (ENRICH_DOMAIN_SUFFIXES; default co.uk, com, uk). */
  enrichment: { domainSuffixes: string[] };
}

/**
 * The key webhook secrets are sealed with: the Worker secret WEBHOOK_SECRETS_KEY. Outside production a fixed local
 * key stands in (the local server and the tests); in production without it no webhook can be set (503).
 */
export const webhookSecretsKey = (env: Pick<Env, "WEBHOOK_SECRETS_KEY" | "ENVIRONMENT">): string | null =>
  env.WEBHOOK_SECRETS_KEY || (env.ENVIRONMENT === "production" ? null : "local-development-only-webhook-secrets-key");

/** ENRICH_DOMAIN_SUFFIXES: comma-separated domain suffixes tried for a company known by its name (a var; tests use their fixture hosts'). */
export const domainSuffixesOf = (v: string | undefined): string[] => {
  const list = (v ?? "")
    .split(",")
    .map((x) => x.trim().toLowerCase().replace(/^\./, ""))
    .filter((x) => /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/.test(x));
  return list.length ? list : ["co.uk", "com", "uk"];
};

/** The ledger reads an operation makes (the balance, without charging), of the given ledgers. */
export const ledgerReads = (ledgers: Ledgers): Services["ledger"] => ({
  peek: (name, period, allowance, startingBalance) => ledgers.get(name).peek(period, allowance, startingBalance),
});

/**
 * `reads`: the request's read sessions (db/sessions.ts; the gateway makes them from the caller's bookmark): the
 * registers, the companies register, contracts and tenders, the SIC lists and the Bank Rate are read through them, on
 * the nearest copy of the database. Without them (the cron, the queues, a test) those reads go to the databases.
 */
export function buildServices(env: Env, overrides: Partial<Services> = {}, reads?: ReadSessions): Services {
  const mainReads = reads ? () => reads.main : env.DB;
  const companiesReads = reads ? () => reads.companies : env.COMPANIES_DB;
  const cache = d1HttpCache(env.DB);
  const testHosts = testHostsOf(env.SAFE_FETCH_TEST_HOSTS);
  const fixtureOrigin = env.SAFE_FETCH_TEST_ORIGIN?.trim();
  const fixtureFetch = fixtureOrigin && testHosts.length ? fixtureOriginFetch(fixtureOrigin, testHosts) : null;
  let ch: CompaniesHouse | undefined;
  return {
    // Built on first use: most calls never reach Companies House.
    get companiesHouse() {
      return (ch ??= createCompaniesHouseClient({
        baseUrl: env.COMPANIES_HOUSE_URL,
        apiKey: env.COMPANIES_HOUSE_API_KEY,
        cache,
        budget: d1RequestBudget(env.DB),
      }));
    },
    get companiesHouseDocuments() {
      return createDocumentClient({ baseUrl: env.COMPANIES_HOUSE_DOCUMENT_URL, apiKey: env.COMPANIES_HOUSE_API_KEY, cache, budget: d1RequestBudget(env.DB) });
    },
    get gazette() {
      return createGazetteClient({ baseUrl: env.GAZETTE_URL, cache, budget: d1RequestBudget(env.DB) });
    },
    sanctions: { current: () => currentSanctionsList(env.DB) },
    registers: registerReads(mainReads),
    registersAsOf: {
      at: (asOf) => registerReads(mainReads, { asOf }),
      firstDate: (source) => firstDateKept(typeof mainReads === "function" ? mainReads() : mainReads, source),
    },
    contracts: bindDb(mainReads, contractReads),
    companiesRegister: bindDb(companiesReads, companiesRegisterReads),
    accounts: {
      ...bindDb(env.DB, accountStore),
      // A key revoked through the API stops working at once in this isolate (within the key cache's few seconds elsewhere).
      revokeAccountKey: async (accountId: string, keyId: string) => {
        const left = await revokeAccountKey(env.DB, accountId, keyId);
        if (left !== null) forgetKey(keyId);
        return left;
      },
    },
    calendarFeeds: bindDb(env.DB, calendarFeedStore),
    logos: bindDb(env.DB, logoStore),
    receipts: bindDb(env.DB, receiptStore),
    publishableKeys: {
      ...bindDb(env.DB, publishableKeyStore),
      // A publishable key revoked through the API stops at once in this isolate (within the key cache's few seconds elsewhere).
      revokePublishableKey: async (accountId: string, key: string, now: number) => {
        const done = await revokePublishableKey(env.DB, accountId, key, now);
        if (done) forgetPublishableKey(key);
        return done;
      },
    },
    images: readersImages(env.READERS),
    edgeCache: defaultEdgeCache(),
    watch: bindDb(env.DB, watchStore),
    webhooks: {
      secretsKey: webhookSecretsKey(env),
      check: async (url) => {
        try {
          return await checkAddress(url, { testHosts, resolve: dohResolverFor(env.DNS_RESOLVER_URL), httpsOnly: true });
        } catch (e) {
          throw e instanceof InputError ? new InputError(e.code, e.message, { field: "url" }) : e;
        }
      },
      post: (url, body, headers) =>
        postWebhook(url, body, headers, { timeoutMs: DELIVERY_TIMEOUT_MS, testHosts, resolve: dohResolverFor(env.DNS_RESOLVER_URL) }),
    },
    limits: {
      take: (bucket, limit, windowSeconds, now) => takeWindow(env.DB, bucket, limit, windowSeconds, now),
      release: (bucket, windowSeconds, now) => releaseWindow(env.DB, bucket, windowSeconds, now),
    },
    bankRates: { stored: () => storedBankRateCached(reads ? reads.main : env.DB) },
    ledger: ledgerReads(durableLedgers(env)),
    messenger: messengerFor(env),
    web: {
      fetch: async (url, opts = {}) => {
        const page = await safeFetch(url, {
          ...opts,
          testHosts,
          resolve: dohResolverFor(env.DNS_RESOLVER_URL),
          ...(fixtureFetch ? { fetchImpl: fixtureFetch } : {}),
        });
        return { ...page, text: decodeText(page) };
      },
    },
    // The browser and the PDF engine live in the readers Worker (src/readers.ts), behind the READERS binding.
    get browser() {
      return readersBrowser(env.READERS, { testHosts, resolverUrl: env.DNS_RESOLVER_URL, keepAliveMs: Number(env.BROWSER_KEEP_ALIVE_MS) || 0 });
    },
    cache,
    pdf: readersPdf(env.READERS),
    phraser: workersAiPhraser(env.AI, env.SUMMARY_MODEL),
    enrichment: { domainSuffixes: domainSuffixesOf(env.ENRICH_DOMAIN_SUFFIXES) },
    ...overrides,
  };
}
