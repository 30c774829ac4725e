/** Small Web Crypto helpers shared by keys, sign-up codes and idempotency. */
import { sha256HexOfBytes } from "../shared/bytes";

const b64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

export const sha256Hex = (text: string): Promise<string> => sha256HexOfBytes(new TextEncoder().encode(text));

/** A new API key: `ukbi_` + 192 random bits, base64url. */
export function newApiKey(): string {
  return `ukbi_${b64url(crypto.getRandomValues(new Uint8Array(24)))}`;
}

/** A publishable key (issue 32): `pk_` + 144 random bits, base64url. Public by design: it sits in page source. */
export function newPublishableKey(): string {
  return `pk_${b64url(crypto.getRandomValues(new Uint8Array(18)))}`;
}

/** The SHA-256 of bytes, as hex (the shared kernel's). */
export { sha256HexOfBytes as sha256HexOf };

/** A capability token (a calendar feed's address): 192 random bits, base64url, 32 characters. */
export function newCapabilityToken(): string {
  return b64url(crypto.getRandomValues(new Uint8Array(24)));
}

/** An opaque id with 96 random bits. */
export function newId(prefix: string): string {
  return `${prefix}_${b64url(crypto.getRandomValues(new Uint8Array(12)))}`;
}

/** A six-digit code for sign-up verification, uniform over 000000–999999. */
export function newCode(): string {
  const buf = new Uint32Array(1);
  let n: number;
  do n = crypto.getRandomValues(buf)[0];
  while (n >= 4_294_000_000); // drop the biased tail
  return String(n % 1_000_000).padStart(6, "0");
}

/** Constant-time comparison of two equal-length hex strings. */
export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
