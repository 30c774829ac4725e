import type { KeyLedger } from "./ledger/KeyLedger";
import type { ReadersBinding } from "./sources/readers/client";
import type { IngestJob } from "./jobs/ingest/message";
import type { WatchJob } from "./services/watch/feed";

/** Bindings, configuration (vars) and secrets of the Worker. Upstream base URLs are configuration. */
export interface Env {
  DB: D1Database;
  /** The companies register (Basic Company Data and its name index): a database of its own (docs/operating.md "The companies register"). */
  COMPANIES_DB: D1Database;
  LEDGER: DurableObjectNamespace<KeyLedger>;
  INGEST: Queue<IngestJob>;
  /** The watch list's queue: daily reads of watched companies and webhook deliveries (src/jobs/watch). */
  WATCH: Queue<WatchJob>;
  /**
   * The readers Worker (src/readers.ts, wrangler.readers.toml): the PDF engine and the browser (Browser Rendering),
   * kept out of this Worker's bundle. Absent: PDFs cannot be read and no browser is available (503 not_configured).
   */
  READERS?: ReadersBinding;
  /** Milliseconds a browser session is kept after a render for the next one to reuse; "0" or unset closes it every time. */
  BROWSER_KEEP_ALIVE_MS?: string;
  /** Workers AI, optional: where bound, the document readers' `summary` is worded by SUMMARY_MODEL from the extracted facts (and checked against them). */
  AI?: { run(model: string, input: { messages: { role: string; content: string }[]; max_tokens?: number }): Promise<unknown> };
  /** The Workers AI model that words the readers' summaries (default @cf/meta/llama-3.1-8b-instruct). */
  SUMMARY_MODEL?: string;

  ENVIRONMENT: string;
  /**
   * The request header the deployment's front proxy sets to the caller's address, trusted for per-IP limits:
   * `cf-connecting-ip` on Cloudflare (wrangler.toml). Unset or empty (npm start, a self-hosted workerd with no proxy
   * that sets one): no header is believed and every keyless caller shares one allowance.
   */
  TRUST_CLIENT_IP_HEADER?: string;
  COMPANIES_HOUSE_URL: string;
  /** Companies House bulk products: the monthly Basic Company Data zip is found under this address. */
  COMPANIES_HOUSE_BULK_URL: string;
  /** Companies House Document API (filings' PDFs and iXBRL); every document link the register returns is asked of this host. */
  COMPANIES_HOUSE_DOCUMENT_URL: string;
  /** The Gazette (notices: winding-up petitions, strike-off), for the risk operations. */
  GAZETTE_URL: string;
  GOVUK_CONTENT_URL: string;
  /** DNS-over-HTTPS resolver (JSON API) the safe fetcher checks every host with before connecting. */
  DNS_RESOLVER_URL: string;
  /** Bank of England IADB CSV endpoint (Bank Rate series IUDBEDR). */
  BOE_IADB_URL: string;
  HMRC_MLR_PAGE: string;
  SPONSORS_WORKERS_PAGE: string;
  SPONSORS_STUDENTS_PAGE: string;
  SRA_URL: string;
  CQC_URL: string;
  /** CQC's "Using CQC data" page, whose link to the current ratings file (`…_Latest_ratings.ods`) is followed, or that file's own address. */
  CQC_RATINGS_URL: string;
  CHARITY_EXTRACT_URL: string;
  /** Find a Tender (OCDS release packages of award notices, read by updatedFrom with cursor paging). */
  FIND_A_TENDER_URL: string;
  /** Contracts Finder (OCDS search of award notices, read by publishedFrom with cursor paging). */
  CONTRACTS_FINDER_URL: string;
  /** The FCDO UK Sanctions List, CSV. */
  SANCTIONS_LIST_URL: string;
  /** The Check payment practices service's export of every payment practices report (CSV, about 100 MB). */
  PAYMENT_PRACTICES_URL: string;
  /** Gender pay gap data: one CSV per reporting year at `${GENDER_PAY_GAP_URL}/${year}`. */
  GENDER_PAY_GAP_URL: string;
  /** "log" (codes go to the Worker log) or "http" (POST to EMAIL_ENDPOINT / SMS_ENDPOINT). */
  EMAIL_PROVIDER: string;
  SMS_PROVIDER: string;
  EMAIL_ENDPOINT?: string;
  SMS_ENDPOINT?: string;

  // secrets (wrangler secret put ...)
  COMPANIES_HOUSE_API_KEY?: string;
  SRA_API_KEY?: string;
  CQC_API_KEY?: string;
  EMAIL_API_KEY?: string;
  SMS_API_KEY?: string;
  /** Key material webhook signing secrets are sealed with at rest (AES-GCM); without it in production no webhook can be set. */
  WEBHOOK_SECRETS_KEY?: string;

  /**
   * Test-only switch: comma-separated host names that the safe fetcher lets through even though
   * they resolve to no public address (fixture hosts such as `logo.test`). Never set in production.
   */
  /**
   * Secret: the private key receipts are signed with (issue 33 §2), a JWK of an Ed25519 key with its `kid`
   * (`npm run receipt-key` makes one). Outside production a fixed local-development key stands in.
   */
  RECEIPT_SIGNING_KEY?: string;
  /** The public JWKs of earlier signing keys (a JSON array), still published at /.well-known/jwks.json so old receipts verify. */
  RECEIPT_RETIRED_KEYS?: string;
  SAFE_FETCH_TEST_HOSTS?: string;
  /**
   * TEST-ONLY, with SAFE_FETCH_TEST_HOSTS: the origin (http://127.0.0.1:<port>) a local server of fixture sites listens
   * on. The safe fetcher sends a request for a test host there instead, naming the host in `x-fixture-host`, so that
   * many fixture sites (the logo image's browser test) are served by one local server. Never set in production.
   */
  SAFE_FETCH_TEST_ORIGIN?: string;
  /** Domain suffixes tried when a company known by its name is looked for on the web (comma-separated; default co.uk,com,uk). */
  ENRICH_DOMAIN_SUFFIXES?: string;
}
