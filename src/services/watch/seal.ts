/**
 * Webhook signing secrets at rest (issue 15 §1): we must sign with a secret, so it is kept, but never in the
 * clear. Each is sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the Worker secret
 * WEBHOOK_SECRETS_KEY; a database copy alone gives no secret. Pure: Web Crypto only.
 *
 * Sealed form: `v1.<base64 12-byte IV>.<base64 ciphertext and tag>`.
 */

import type { WebhookRow } from "./records";
import { secretsForSigning } from "./signing";
import { fromBase64, toBase64 } from "../../shared/bytes";

const utf8 = new TextEncoder();
/** Base64 of a sealed part, or an error (a sealed secret altered). */
const unb64 = (s: string): Uint8Array => {
  const bytes = fromBase64(s);
  if (!bytes) throw new Error("not a sealed webhook secret");
  return bytes;
};

const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(material: string): Promise<CryptoKey> {
  let k = keys.get(material);
  if (!k) {
    k = crypto.subtle
      .importKey("raw", utf8.encode(material), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: utf8.encode("uk-bi-webhook-secrets"), info: utf8.encode("v1") },
          base,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(material, k);
  }
  return k;
}

/** Seals a secret under the key material (WEBHOOK_SECRETS_KEY). */
export async function sealSecret(secret: string, material: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyOf(material), utf8.encode(secret)));
  return `v1.${toBase64(iv)}.${toBase64(ct)}`;
}

/**
 * The secrets that sign a delivery attempt at `ts` (Unix seconds), opened from a stored webhook's sealed secrets:
 * the current one, and the one it replaced while the rotation's grace lasts (signing.ts secretsForSigning).
 */
export async function signingSecretsOf(hook: Pick<WebhookRow, "secret" | "previous_secret" | "rotated_at">, material: string, ts: number): Promise<string[]> {
  const current = await openSecret(hook.secret, material);
  const previous = hook.previous_secret ? { secret: await openSecret(hook.previous_secret, material), rotatedAt: hook.rotated_at } : null;
  return secretsForSigning({ current, previous }, ts);
}

/** Opens a sealed secret; throws when the key material is not the one it was sealed with, or the text was altered. */
export async function openSecret(sealed: string, material: string): Promise<string> {
  const [v, iv, ct] = sealed.split(".");
  if (v !== "v1" || !iv || !ct) throw new Error("not a sealed webhook secret");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: unb64(iv) }, await keyOf(material), unb64(ct));
  return new TextDecoder().decode(plain);
}
