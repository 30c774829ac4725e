/**
 * Signing receipts (issue 33 §2) with `jose`: a compact JWS (EdDSA over Ed25519) of the receipt's claims, and the JWK
 * Set of every public key a receipt may have been signed with (/.well-known/jwks.json).
 *
 * Keys: the secret RECEIPT_SIGNING_KEY is the current private key, a JWK with its `kid` (`npm run receipt-key` makes
 * one). Rotating: make a new key, put the old one's public JWK into RECEIPT_RETIRED_KEYS (a JSON array, kept for as
 * long as receipts are: five years), then set the new key. Outside production a fixed key named
 * "local-development-only" stands in when none is set; production without a key signs nothing (replies say so).
 */
import { CompactSign, type JWK, importJWK } from "jose";
import { RECEIPT_TYP, type ReceiptClaims } from "../../services/receipts/claims";

/** Local development and tests only: refused in production (ENVIRONMENT=production). Not a secret: it signs nothing real. */
const LOCAL_KEY: JWK = {
  kty: "OKP",
  crv: "Ed25519",
  kid: "local-development-only",
  d: "iHKgEyo7P_rKbX-wZJC-qDLng-Z5X4pqM47gR2_ChFY",
  x: "Y9e100Lkgkd4SqcaYPWg01bIEDNq06TfWLEVaAJDW6Y",
};

export interface ReceiptSigner {
  kid: string;
  sign(claims: ReceiptClaims): Promise<string>;
}

export interface ReceiptKeys {
  /** Null where no key is configured (production without RECEIPT_SIGNING_KEY). */
  signer: ReceiptSigner | null;
  /** Every public key receipts may be signed with: the current one first, then the retired ones. */
  jwks: { keys: JWK[] };
}

const publicOf = (k: JWK): JWK => ({ kty: k.kty, crv: k.crv, x: k.x, kid: k.kid, alg: "EdDSA", use: "sig" });

function parseKey(text: string, what: string): JWK {
  let k: JWK;
  try {
    k = JSON.parse(text) as JWK;
  } catch {
    throw new Error(`${what} is not a JSON Web Key.`);
  }
  if (k.kty !== "OKP" || k.crv !== "Ed25519" || !k.x || !k.kid) throw new Error(`${what} must be an Ed25519 JWK (kty OKP, crv Ed25519) with x and kid.`);
  return k;
}

/** The keys of a configuration, read once per configuration value in an isolate. */
const cache = new Map<string, ReceiptKeys>();

export function receiptKeys(env: { RECEIPT_SIGNING_KEY?: string; RECEIPT_RETIRED_KEYS?: string; ENVIRONMENT?: string }): ReceiptKeys {
  const id = `${env.ENVIRONMENT}|${env.RECEIPT_SIGNING_KEY ?? ""}|${env.RECEIPT_RETIRED_KEYS ?? ""}`;
  const hit = cache.get(id);
  if (hit) return hit;
  const current = env.RECEIPT_SIGNING_KEY ? parseKey(env.RECEIPT_SIGNING_KEY, "RECEIPT_SIGNING_KEY") : env.ENVIRONMENT === "production" ? null : LOCAL_KEY;
  if (current && !current.d) throw new Error("RECEIPT_SIGNING_KEY must be the private key (with d).");
  const retired = env.RECEIPT_RETIRED_KEYS
    ? (JSON.parse(env.RECEIPT_RETIRED_KEYS) as unknown[]).map((k, i) => parseKey(JSON.stringify(k), `RECEIPT_RETIRED_KEYS[${i}]`))
    : [];
  let key: Promise<CryptoKey | Uint8Array> | null = null;
  const signer: ReceiptSigner | null = current
    ? {
        kid: current.kid!,
        async sign(claims) {
          key ??= importJWK(current, "EdDSA");
          return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
            .setProtectedHeader({ alg: "EdDSA", kid: current.kid!, typ: RECEIPT_TYP })
            .sign(await key);
        },
      }
    : null;
  const keys: ReceiptKeys = {
    signer,
    jwks: { keys: [...(current ? [publicOf(current)] : []), ...retired.map(publicOf).filter((k) => k.kid !== current?.kid)] },
  };
  if (cache.size > 8) cache.clear();
  cache.set(id, keys);
  return keys;
}
