/**
 * Companies House Document API: a filing's document metadata (from filing history `links.document_metadata`)
 * and its iXBRL (`application/xhtml+xml`) content. The register's links name their own host; only their path is
 * kept and asked of the configured Document API (`COMPANIES_HOUSE_DOCUMENT_URL`), so no link the register returns
 * leads anywhere else. Same key and the same shared budget as the public data API.
 */
import { InputError, UpstreamError } from "../../shared/errors";
import { notConfigured } from "../upstream";
import { CH_BUDGET_SOURCE, type CompaniesHouseConfig, companiesHouseUpstream, malformed } from "./client";
import { type AccountsDocument, readAccounts } from "./ixbrl";

export interface DocumentMetadata {
  /** Content types the document is held in, e.g. application/pdf, application/xhtml+xml. */
  contentTypes: string[];
  /** The path of the document's content on the Document API. */
  contentPath: string | null;
  pages: number | null;
  createdAt: string | null;
}

export interface CompaniesHouseDocuments {
  /** The metadata behind a filing's `document_metadata` link, or null when the Document API has none. */
  getMetadata(link: string): Promise<DocumentMetadata | null>;
  /** The document as iXBRL (XHTML), or null when it is held only in other forms (a PDF). */
  getXhtml(meta: DocumentMetadata): Promise<string | null>;
  /** The accounts in the document's iXBRL, read (./ixbrl.ts), or null when it is held only in other forms (a PDF). */
  getAccounts(meta: DocumentMetadata): Promise<AccountsDocument | null>;
}

export const XHTML = "application/xhtml+xml";
const METADATA_TTL = 24 * 3600;

/**
 * The most bytes of one accounts document read from the Document API. The filing company writes the document, so its
 * size is not ours to trust: the body is counted as it arrives (after the transport's own decompression) and the read
 * stops past this. The real filings sampled (../shared/data/ch-ixbrl-accounts) are 24 to 129 KB; accounts with images
 * inlined as base64 run larger, and 30 MiB leaves room for them (over 200 times the largest sampled). The reader's own
 * limits (./ixbrl.ts) bound what is read inside it.
 */
export const MAX_DOCUMENT_BYTES = 30 * 1024 * 1024;

/** The body of a document answer was longer than MAX_DOCUMENT_BYTES (carried as the cause of the upstream's error). */
class DocumentTooLarge extends Error {
  name = "DocumentTooLarge";
}

/**
 * `fetchImpl` whose answers' bodies fail with DocumentTooLarge once more than `maxBytes` have been read (at once when
 * Content-Length says so), the rest of the body cancelled unread. The shared upstream GET reads the body inside its
 * time limit and keeps the failure as the cause of its UpstreamError.
 */
function cappedFetch(fetchImpl: typeof fetch, maxBytes: number): typeof fetch {
  return async (input, init) => {
    const res = await fetchImpl(input, init);
    if (!res.body) return res;
    const declared = Number(res.headers.get("content-length"));
    const reader = res.body.getReader();
    let total = 0;
    const tooLarge = () => new DocumentTooLarge(`the document is larger than ${maxBytes} bytes`);
    const body = new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        if (declared > maxBytes) {
          await reader.cancel().catch(() => {});
          return ctrl.error(tooLarge());
        }
        const { done, value } = await reader.read();
        if (done) return ctrl.close();
        total += value.byteLength;
        if (total > maxBytes) {
          await reader.cancel().catch(() => {});
          return ctrl.error(tooLarge());
        }
        ctrl.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** The path (and query) of a link the register returned, whatever host it names; null when it is not a link. */
export function documentPath(link: string): string | null {
  try {
    const u = new URL(link, "https://document-api.invalid");
    return u.pathname.startsWith("/") && u.pathname.length > 1 ? `${u.pathname}${u.search}` : null;
  } catch {
    return null;
  }
}

export function parseDocumentMetadata(body: string): DocumentMetadata | null {
  let d: unknown;
  try {
    d = JSON.parse(body);
  } catch {
    return null;
  }
  if (!d || typeof d !== "object" || Array.isArray(d)) return null;
  const o = d as Record<string, unknown>;
  const resources = o.resources && typeof o.resources === "object" ? Object.keys(o.resources as object) : [];
  const links = o.links && typeof o.links === "object" ? (o.links as Record<string, unknown>) : {};
  const document = typeof links.document === "string" ? documentPath(links.document) : null;
  if (!resources.length && !document) return null;
  return {
    contentTypes: resources,
    contentPath: document,
    pages: typeof o.pages === "number" ? o.pages : null,
    createdAt: typeof o.created_at === "string" ? o.created_at : null,
  };
}

export function createDocumentClient(cfg: CompaniesHouseConfig): CompaniesHouseDocuments {
  const upstream = companiesHouseUpstream(cfg, "Companies House Document API", cfg.timeoutMs ?? 15_000);
  // The documents themselves, read with a counted body (the metadata is the register's own JSON).
  const content = companiesHouseUpstream(
    { ...cfg, fetchImpl: cappedFetch(cfg.fetchImpl ?? ((input, init) => fetch(input, init)), MAX_DOCUMENT_BYTES) },
    "Companies House Document API",
    cfg.timeoutMs ?? 15_000,
  );
  const client: CompaniesHouseDocuments = {
    async getMetadata(link) {
      if (!cfg.apiKey) throw notConfigured(CH_BUDGET_SOURCE, "Companies House API key");
      const path = documentPath(link);
      if (!path) throw malformed(`Companies House gave a document link that is not one: ${link}`);
      const r = await upstream.cachedGet(path, {
        cacheKey: `ch:document-metadata:${path}`,
        ttlSeconds: (s) => (s === 200 ? METADATA_TTL : 3600),
        answers: [404],
        check: (s, body) => {
          if (s === 200 && !parseDocumentMetadata(body)) throw malformed("the Document API returned unreadable metadata");
        },
      });
      return r.status === 404 ? null : parseDocumentMetadata(r.body);
    },
    async getXhtml(meta) {
      if (!meta.contentTypes.includes(XHTML) || !meta.contentPath) return null;
      // Not cached: an accounts document can be larger than a cache row may hold.
      let r: Awaited<ReturnType<typeof content.cachedGet>>;
      try {
        r = await content.cachedGet(meta.contentPath, { headers: { Accept: XHTML }, answers: [406] });
      } catch (e) {
        // Too large is the document's fault (its filer wrote it), not the Document API's: unreadable, as a document
        // the reader cannot read is.
        if (e instanceof UpstreamError && e.cause instanceof DocumentTooLarge)
          throw new InputError("unreadable_input", `The accounts document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB, the most read of one document.`);
        throw e;
      }
      return r.status === 406 ? null : r.body;
    },
    async getAccounts(meta) {
      const xhtml = await client.getXhtml(meta);
      return xhtml === null ? null : readAccounts(xhtml);
    },
  };
  return client;
}
