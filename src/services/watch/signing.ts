/**
 * Webhook delivery signatures (SPEC §6.2; issue 15 §3). Pure: Web Crypto only (`crypto.subtle`,
 * `crypto.getRandomValues`), so it runs in Workers and in Node alike; no I/O, no clock (the caller passes times).
 *
 * Each delivery carries two signatures over the same raw body, keyed with the same key bytes:
 *
 * - `X-Service-Signature` (SPEC §6.2): `t=<timestamp>,v1=<hex>` where hex is the lower-case hex
 *   HMAC-SHA256 of `"<timestamp>.<body>"`.
 * - The Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`
 *   (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`), so any Standard Webhooks library verifies a delivery
 *   with the secret exactly as we returned it.
 *
 * The secret is `whsec_` + base64 of 32 random bytes; the KEY is the base64-decoded bytes after `whsec_`, never the
 * text of the secret. `<timestamp>` is Unix seconds in decimal; `<body>` is the exact string posted, hashed as UTF-8.
 *
 * Rotation (ROTATION below): for 24 h after a new secret is issued, deliveries are signed with both the new and the
 * previous secret. SIGNING_DOC is the text for the API description, as-is.
 */
import { fromBase64, toHex } from "../../shared/bytes";

/** The Standard Webhooks secret prefix. */
export const SECRET_PREFIX = "whsec_";
/** Random bytes in a new secret (Standard Webhooks allows keys of 24 to 64 bytes). */
export const SECRET_BYTES = 32;
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
/** A receiver rejects a signature whose timestamp is further than this from its clock (either way). */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

/** Header names exactly as sent (HTTP header names are case-insensitive; receivers should not rely on case). */
export const HEADER = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
  service: "X-Service-Signature",
  contentType: "content-type",
} as const;

/**
 * Rotation decision: a grace period with both signatures. Setting the webhook again (PUT /api/v1/watch/webhook)
 * issues a new secret; for `graceSeconds` after that, every delivery is signed with the new secret AND the previous
 * one: `webhook-signature` carries `v1,<new> v1,<old>` (space-separated, as Standard Webhooks allows) and
 * `X-Service-Signature` carries `t=<ts>,v1=<new>,v1=<old>`. Only the immediately previous secret is kept; a second
 * rotation within the grace drops the older one.
 *
 * Why a grace and not a hard switch: the secret is shown once, and the receiver needs time to deploy it; without a
 * grace every delivery in between fails their check (and burns retries, or is silently dropped by a receiver that
 * answers 2xx and discards). It costs no security: anyone holding the old secret can already forge messages the
 * receiver accepts for as long as the receiver trusts that secret; our signing with it reveals nothing new. The
 * receiver decides when to stop accepting the old secret. The grace is measured against the delivery's own
 * timestamp (the moment the attempt is signed), from the moment the new secret was issued.
 */
export const ROTATION = { policy: "dual-sign-grace", graceSeconds: 24 * 60 * 60 } as const;

/** The text for the API description (Markdown), as-is. */
export const SIGNING_DOC = `### Webhook deliveries and their signatures

Each delivery is an HTTP \`POST\` to your webhook URL with \`content-type: application/json\`; the body is the Event, as UTF-8 JSON. Verify the signature over the raw body exactly as received, before parsing it (re-serialising the JSON changes the bytes).

The signing secret, returned once by \`PUT /api/v1/watch/webhook\`, looks like \`whsec_<base64>\`. The HMAC key is the base64-decoded bytes after \`whsec_\` (32 bytes), not the text of the secret.

Every delivery carries these headers:

- \`webhook-id\`: the delivery's id. It is the same on every retry of the same event: use it to drop duplicates.
- \`webhook-timestamp\`: when this attempt was signed, in Unix seconds. Every attempt, retries included, is signed afresh.
- \`webhook-signature\`: \`v1,<signature>\`, where signature is the base64 (standard alphabet, padded) HMAC-SHA256, with the key, of the UTF-8 bytes of \`<webhook-id>.<webhook-timestamp>.<body>\`. This is the Standard Webhooks scheme: any Standard Webhooks library verifies a delivery given the secret as returned.
- \`X-Service-Signature\`: \`t=<timestamp>,v1=<signature>\`, where timestamp is the same Unix seconds as \`webhook-timestamp\` (decimal digits) and signature is the lower-case hex (64 characters) HMAC-SHA256, with the key, of the UTF-8 bytes of \`<timestamp>.<body>\`: the timestamp, one full stop, then the raw body.

To check \`X-Service-Signature\`: split the header on \`,\`; take the value of \`t\` and every \`v1\` value; compute HMAC-SHA256 with the key over \`<t>.<body>\`; accept when it equals any \`v1\` value (compare in constant time); reject when \`t\` is more than 5 minutes from your clock. Ignore entries you do not know, for forward compatibility.

Example: secret \`whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\`, webhook-id \`msg_p5jXN8AQM9LWM0D4loKWxJek\`, timestamp \`1614265330\`, body \`{"test": 2432232314}\` give \`webhook-signature: v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=\` and \`X-Service-Signature: t=1614265330,v1=e96203c6de850e7dc1fde7489ef6140b402d3a5a64fe250cd2eef9830fac1cef\`.

Rotation: setting the webhook again issues a new secret. For 24 hours after that, each delivery is signed with both the new and the previous secret: \`webhook-signature\` holds two space-separated signatures (\`v1,<new> v1,<old>\`) and \`X-Service-Signature\` two \`v1\` entries (\`t=<timestamp>,v1=<new>,v1=<old>\`). A receiver holding either secret verifies; switch to the new secret within the 24 hours. After that only the new secret signs.
`;

// --- encodings -----------------------------------------------------------------------------------------

const utf8 = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** Hex of exactly 32 bytes (a SHA-256 MAC), either case, or null. */
function macFromHex(text: string): Uint8Array | null {
  if (!/^[0-9a-fA-F]{64}$/.test(text)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

// --- secrets and keys ----------------------------------------------------------------------------------

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks format). */
export function newSigningSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The key bytes of a `whsec_…` secret; throws on anything else (a programming error: we issue the secrets). */
export function keyBytesOf(secret: string): Uint8Array {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error(`a signing secret starts with ${SECRET_PREFIX}`);
  const key = fromBase64(secret.slice(SECRET_PREFIX.length));
  if (!key || key.length < MIN_KEY_BYTES || key.length > MAX_KEY_BYTES) {
    throw new Error(`a signing secret is ${SECRET_PREFIX} and base64 of ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} bytes`);
  }
  return key;
}

const hmacKey = (secret: string) => crypto.subtle.importKey("raw", keyBytesOf(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);

async function hmac(secret: string, input: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), utf8.encode(input)));
}

// --- signing -------------------------------------------------------------------------------------------

/** The exact input of `X-Service-Signature`: the timestamp, a full stop, the raw body. */
export const serviceSigningInput = (timestamp: number, body: string) => `${timestamp}.${body}`;
/** The exact input of `webhook-signature` (Standard Webhooks): id, timestamp, body, joined by full stops. */
export const standardSigningInput = (id: string, timestamp: number, body: string) => `${id}.${timestamp}.${body}`;

export interface DeliveryToSign {
  /** The delivery id, the same on every retry of one event (`webhook-id`): letters, digits, `_` and `-`. */
  id: string;
  /** When this attempt is signed, Unix seconds (an integer). Sign every attempt afresh. */
  timestamp: number;
  /** The body exactly as it will be posted. */
  body: string;
  /** The current secret, or the secrets to sign with, current first (see secretsForSigning). */
  secret: string | readonly string[];
}

export interface DeliveryHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
  "X-Service-Signature": string;
  "content-type": "application/json";
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Unix seconds below this (year 5138); an epoch-ms value (Date.now()) is far above it. */
const MAX_TIMESTAMP = 1e11;

function checkTimestamp(timestamp: number) {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0 || timestamp >= MAX_TIMESTAMP)
    throw new Error("a delivery timestamp is whole Unix seconds (not milliseconds)");
}

/** The headers of one delivery attempt: both signature schemes, over the same body, with every secret given. */
export async function signDelivery({ id, timestamp, body, secret }: DeliveryToSign): Promise<DeliveryHeaders> {
  if (!ID.test(id)) throw new Error("a delivery id is 1 to 128 letters, digits, _ or -");
  checkTimestamp(timestamp);
  const secrets = typeof secret === "string" ? [secret] : [...secret];
  if (!secrets.length) throw new Error("a delivery is signed with at least one secret");
  const standard: string[] = [];
  const service: string[] = [];
  for (const s of secrets) {
    standard.push(`v1,${toBase64(await hmac(s, standardSigningInput(id, timestamp, body)))}`);
    service.push(`v1=${toHex(await hmac(s, serviceSigningInput(timestamp, body)))}`);
  }
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": standard.join(" "),
    "X-Service-Signature": [`t=${timestamp}`, ...service].join(","),
    "content-type": "application/json",
  };
}

// --- rotation ------------------------------------------------------------------------------------------

export interface WebhookSecrets {
  /** The secret issued last. */
  current: string;
  /** The secret it replaced, if any, and when the current one was issued (Unix seconds). */
  previous?: { secret: string; rotatedAt: number } | null;
}

/**
 * The secrets a delivery signed at `timestamp` (Unix seconds) carries, current first: the previous secret too while
 * `timestamp < rotatedAt + ROTATION.graceSeconds`.
 */
export function secretsForSigning(secrets: WebhookSecrets, timestamp: number): string[] {
  const p = secrets.previous;
  if (p && p.secret !== secrets.current && timestamp < p.rotatedAt + ROTATION.graceSeconds) return [secrets.current, p.secret];
  return [secrets.current];
}

// --- verifying (for our tests and docs; receivers do the same) -----------------------------------------

export type ServiceSignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: "malformed" | "too-old" | "too-new" | "mismatch" };

export interface ServiceSignatureToVerify {
  /** The `X-Service-Signature` header value. */
  header: string;
  /** The raw body as received. */
  body: string;
  /** The secret, or several (any one matching is enough). */
  secret: string | readonly string[];
  /** The receiver's clock, Unix seconds. */
  now: number;
  toleranceSeconds?: number;
}

/**
 * Checks an `X-Service-Signature` header: `t=<timestamp>` within the tolerance of `now`, and some `v1=` equal to the
 * HMAC of `<t>.<body>` with some secret. The comparison is `crypto.subtle.verify` (constant time). Unknown entries are
 * ignored.
 */
export async function verifyServiceSignature({
  header,
  body,
  secret,
  now,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
}: ServiceSignatureToVerify): Promise<ServiceSignatureCheck> {
  let t: string | undefined;
  const macs: Uint8Array[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === "t") {
      if (t !== undefined) return { ok: false, reason: "malformed" };
      t = value;
    } else if (name === "v1") {
      const mac = macFromHex(value);
      if (mac) macs.push(mac);
    }
  }
  if (t === undefined || !/^\d{1,15}$/.test(t) || !macs.length) return { ok: false, reason: "malformed" };
  const timestamp = Number(t);
  if (now - timestamp > toleranceSeconds) return { ok: false, reason: "too-old" };
  if (timestamp - now > toleranceSeconds) return { ok: false, reason: "too-new" };
  const input = utf8.encode(`${t}.${body}`); // t as written: the signer's own digits
  for (const s of typeof secret === "string" ? [secret] : secret) {
    const key = await hmacKey(s);
    for (const mac of macs) if (await crypto.subtle.verify("HMAC", key, mac, input)) return { ok: true, timestamp };
  }
  return { ok: false, reason: "mismatch" };
}
