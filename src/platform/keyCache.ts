import { type KeyRow, keyByHash } from "../db/keys";
import { type PublishableKeyRow, livePublishableKey } from "../db/publishableKeys";
import { sha256Hex } from "./crypto";

/**
 * Key rows are cached in the isolate for a few seconds, by the key as presented, so a busy key costs
 * neither a D1 read nor a hash per call. A key disabled (or a plan changed) takes effect within
 * KEY_CACHE_MS. The database only ever holds the key's hash.
 *
 * The read itself is shared: calls with the same key that arrive while its row is being read (a busy key at the
 * start of an isolate, or when its entry has just expired) wait for that one read instead of each making their own
 * (issue 30 §3). The lifetime counts from when the read began, so a row is never used past KEY_CACHE_MS after it was
 * asked for. An unknown key, or a read that failed, is not kept once it is answered.
 */
export const KEY_CACHE_MS = 5_000;
const keyCache = new Map<string, { row: Promise<KeyRow | null>; keyId: string | null; at: number }>();

/** Drops a key from this isolate's cache (a key revoked through the API stops working at once here, within KEY_CACHE_MS elsewhere). */
export function forgetKey(keyId: string): void {
  // A read still under way (its key not known yet) is dropped too: it may have begun before the change.
  for (const [k, v] of keyCache) if (v.keyId === keyId || v.keyId === null) keyCache.delete(k);
}

export function keyRow(db: D1Database, apiKey: string, now: number): Promise<KeyRow | null> {
  const hit = keyCache.get(apiKey);
  if (hit && now - hit.at < KEY_CACHE_MS && now >= hit.at) return hit.row;
  if (keyCache.size > 10_000) keyCache.clear();
  const entry = {
    row: sha256Hex(apiKey)
      .then((hash) => keyByHash(db, hash))
      .then((r) => r ?? null),
    keyId: null as string | null,
    at: now,
  };
  keyCache.set(apiKey, entry);
  entry.row.then(
    (row) => {
      // Unknown keys are not kept: a key issued a moment ago must work at once.
      if (row) entry.keyId = row.keyId;
      else if (keyCache.get(apiKey) === entry) keyCache.delete(apiKey);
    },
    () => {
      if (keyCache.get(apiKey) === entry) keyCache.delete(apiKey);
    },
  );
  return entry.row;
}

/**
 * Publishable keys (issue 32) are cached the same way, for the same few seconds: a page of 60 logos with one key costs
 * one read. A key revoked through the API stops at once in this isolate (forgetPublishableKey).
 */
const publishableCache = new Map<string, { row: Promise<PublishableKeyRow | null>; at: number }>();

export function publishableKeyRow(db: D1Database, key: string, now: number): Promise<PublishableKeyRow | null> {
  const hit = publishableCache.get(key);
  if (hit && now - hit.at < KEY_CACHE_MS && now >= hit.at) return hit.row;
  if (publishableCache.size > 10_000) publishableCache.clear();
  const entry = { row: livePublishableKey(db, key), at: now };
  publishableCache.set(key, entry);
  entry.row.then(
    (row) => {
      if (!row && publishableCache.get(key) === entry) publishableCache.delete(key);
    },
    () => {
      if (publishableCache.get(key) === entry) publishableCache.delete(key);
    },
  );
  return entry.row;
}

export const forgetPublishableKey = (key: string): void => void publishableCache.delete(key);
