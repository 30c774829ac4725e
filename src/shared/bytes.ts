/**
 * A stream's bytes in one buffer, refused with `tooLarge()` as soon as more than `maxBytes` have arrived (the stream is
 * cancelled, the rest never read). The buffer starts at `sizeHint` when that is within the cap (a declared length is
 * only where to start: a body decompressed on the way, or a sender that lies, differs) and doubles up to the cap
 * otherwise. Chunks are not kept, so the bytes are held once, not twice. `read` wraps each read (a time limit, an
 * abort signal). Imports nothing.
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  opts: { maxBytes: number; sizeHint?: number; tooLarge: () => Error; read?: <T>(next: Promise<T>) => Promise<T> },
): Promise<Uint8Array> {
  const { maxBytes, sizeHint } = opts;
  const reader = stream.getReader();
  let buf = new Uint8Array(
    sizeHint !== undefined && Number.isInteger(sizeHint) && sizeHint > 0 && sizeHint <= maxBytes ? sizeHint : Math.min(maxBytes, 64 * 1024),
  );
  let at = 0;
  try {
    for (;;) {
      const { done, value } = await (opts.read ? opts.read(reader.read()) : reader.read());
      if (done) break;
      if (at + value.byteLength > maxBytes) throw opts.tooLarge();
      if (at + value.byteLength > buf.length) {
        const grown = new Uint8Array(Math.min(maxBytes, Math.max(at + value.byteLength, buf.length * 2)));
        grown.set(buf.subarray(0, at));
        buf = grown;
      }
      buf.set(value, at);
      at += value.byteLength;
    }
  } catch (e) {
    reader.cancel().catch(() => {});
    throw e;
  }
  return at === buf.length ? buf : buf.slice(0, at);
}

/** Bytes as base64 (in chunks: spreading a large array into String.fromCharCode would overflow the stack). */
export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Standard base64 (padding optional) back to bytes; null when it is not base64. */
export function fromBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.replace(/=+$/, "").length % 4 === 1) return null;
  try {
    const s = atob(text);
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** Bytes as lower-case hex. */
export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** The SHA-256 of bytes, as hex. */
export async function sha256HexOfBytes(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}
