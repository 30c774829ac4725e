/**
 * A receipt of a check (issue 33 §2): what the service states it answered, to whom, when and on what evidence, in a
 * form a compliance file can keep and anyone can verify offline (a JWS signed with the service's Ed25519 key, its
 * public keys at /.well-known/jwks.json). Pure: the claims only; signing is src/sources/receipts/signer.ts.
 *
 * A receipt names the caller's account (never its key), the request as the service read it (the caller's own input),
 * a digest of the reply's body (not the body: the receipt carries no name the reply did not), and the evidence the
 * answer rests on.
 */

/** How long receipts and the replies they cover are kept (at least: nothing deletes them). */
export const RECEIPT_RETENTION_YEARS = 5;
/** The JWS `typ` of a receipt. */
export const RECEIPT_TYP = "ukbi-receipt+jws";

/** One thing an answer rests on: a register's edition (its file and the file's SHA-256), or an upstream read. */
export interface Evidence {
  /** The source, as the reply's provenance names it (e.g. "Home Office register of licensed sponsors"). */
  source: string;
  kind: "register-edition" | "upstream-read";
  /** A register's part (the sponsors' workers or students register), where it has parts. */
  part?: string | null;
  editionDate?: string | null;
  /** The file the edition was loaded from, where the publisher's file was loaded. */
  file?: string | null;
  url?: string | null;
  /** The SHA-256 (hex) of that file as loaded. */
  sha256?: string | null;
  /** When the edition was loaded, or the upstream read. */
  fetchedAt?: string | null;
}

export interface ReceiptClaims {
  /** The receipt's id (`rcpt_…`), for GET /api/v1/receipts/{id}. */
  jti: string;
  /** The issuer: the service's origin. */
  iss: string;
  /** Issued at, seconds since the epoch (JWT's iat), and the same as an ISO time. */
  iat: number;
  issuedAt: string;
  /** The caller's account id (never a key). */
  sub: string;
  operation: string;
  request: { method: string; path: string; input: unknown };
  reply: { status: number; contentType: string; digest: { alg: "SHA-256"; hex: string }; requestId: string };
  evidence: Evidence[];
  retention: string;
}

export function receiptClaims(a: {
  id: string;
  origin: string;
  now: Date;
  accountId: string;
  operation: string;
  method: string;
  path: string;
  input: unknown;
  status: number;
  contentType: string;
  bodySha256: string;
  requestId: string;
  evidence: Evidence[];
}): ReceiptClaims {
  // The same evidence named twice (two lookups of one edition) is listed once.
  const seen = new Set<string>();
  const evidence = a.evidence.filter((e) => {
    const k = JSON.stringify(e);
    return !seen.has(k) && !!seen.add(k);
  });
  return {
    jti: a.id,
    iss: a.origin,
    iat: Math.floor(a.now.getTime() / 1000),
    issuedAt: a.now.toISOString(),
    sub: a.accountId,
    operation: a.operation,
    request: { method: a.method.toUpperCase(), path: a.path, input: a.input },
    reply: { status: a.status, contentType: a.contentType, digest: { alg: "SHA-256", hex: a.bodySha256 }, requestId: a.requestId },
    evidence,
    retention: `The receipt and the reply it covers are kept for at least ${RECEIPT_RETENTION_YEARS} years (GET /api/v1/receipts/${a.id}, the same account only).`,
  };
}
