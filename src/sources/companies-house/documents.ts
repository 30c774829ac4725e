/**
 * Companies House Document API: a filing's document metadata (from filing history `links.document_metadata`)
 * and its iXBRL (`application/xhtml+xml`) content. The register's links name their own host; only their path is
 * kept and asked of the configured Document API (`COMPANIES_HOUSE_DOCUMENT_URL`), so no link the register returns
 * leads anywhere else. Same key and the same shared budget as the public data API.
 */
import { InputError, UpstreamError } from "../../shared/errors";
import { BodyTooLarge, notConfigured } from "../upstream";
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
      let r: Awaited<ReturnType<typeof upstream.cachedGet>>;
      try {
        r = await upstream.cachedGet(meta.contentPath, { headers: { Accept: XHTML }, answers: [406], maxBytes: MAX_DOCUMENT_BYTES });
      } catch (e) {
        // Too large is the document's fault (its filer wrote it), not the Document API's: unreadable, as a document
        // the reader cannot read is.
        if (e instanceof UpstreamError && e.cause instanceof BodyTooLarge)
          throw new InputError(
            "unreadable_input",
            `The accounts document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB, the most read of one document.`,
          );
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
