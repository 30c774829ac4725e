import { type KeyRow, keyByHash } from "../db/keys";
import { sha256Hex } from "./crypto";

/**
 * Key rows are cached in the isolate for a few seconds, by the key as presented, so a busy key costs
 * neither a D1 read nor a hash per call. A key disabled (or a plan changed) takes effect within
 * KEY_CACHE_MS. The database only ever holds the key's hash.
 */
export const KEY_CACHE_MS = 5_000;
const keyCache = new Map<string, { row: KeyRow | null; at: number }>();



/** Drops a key from this isolate's cache (a key revoked through the API stops working at once here, within KEY_CACHE_MS elsewhere). */
export function forgetKey(keyId: string): void {
  for (const [k, v] of keyCache) if (v.row?.keyId === keyId) keyCache.delete(k);
}

export async function keyRow(db: D1Database, apiKey: string, now: number): Promise<KeyRow | null> {
  const hit = keyCache.get(apiKey);
  if (hit && now - hit.at < KEY_CACHE_MS && now >= hit.at) return hit.row;
  const row = (await keyByHash(db, await sha256Hex(apiKey))) ?? null;
  if (keyCache.size > 10_000) keyCache.clear();
  // Unknown keys are not cached: a key issued a moment ago must work at once.
  if (row) keyCache.set(apiKey, { row, at: now });
  return row;
}
