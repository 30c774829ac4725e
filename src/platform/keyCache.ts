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

/**
 * Rows read by a key as presented, kept in the isolate for KEY_CACHE_MS, each read shared by the calls that arrive
 * while it is under way; a row not found, or a read that failed, is not kept once it is answered. `idOf` names a row
 * for `forget` (a read still under way has no id yet, and is dropped by `forget` too: it may have begun before the change).
 */
function sharedReads<R>(idOf: (row: R) => string) {
  const cache = new Map<string, { row: Promise<R | null>; id: string | null; at: number }>();
  return {
    read(presented: string, now: number, load: () => Promise<R | null>): Promise<R | null> {
      const hit = cache.get(presented);
      if (hit && now - hit.at < KEY_CACHE_MS && now >= hit.at) return hit.row;
      if (cache.size > 10_000) cache.clear();
      const entry = { row: load(), id: null as string | null, at: now };
      cache.set(presented, entry);
      entry.row.then(
        (row) => {
          // Unknown keys are not kept: a key issued a moment ago must work at once.
          if (row) entry.id = idOf(row);
          else if (cache.get(presented) === entry) cache.delete(presented);
        },
        () => {
          if (cache.get(presented) === entry) cache.delete(presented);
        },
      );
      return entry.row;
    },
    forget(id: string): void {
      for (const [k, v] of cache) if (v.id === id || v.id === null) cache.delete(k);
    },
  };
}

const keys = sharedReads<KeyRow>((r) => r.keyId);

/** Drops a key from this isolate's cache (a key revoked through the API stops working at once here, within KEY_CACHE_MS elsewhere). */
export const forgetKey = (keyId: string): void => keys.forget(keyId);

export const keyRow = (db: D1Database, apiKey: string, now: number): Promise<KeyRow | null> =>
  keys.read(apiKey, now, async () => (await keyByHash(db, await sha256Hex(apiKey))) ?? null);

/**
 * Publishable keys (issue 32) are cached the same way, for the same few seconds: a page of 60 logos with one key costs
 * one read. A key revoked through the API stops at once in this isolate (forgetPublishableKey).
 */
const publishable = sharedReads<PublishableKeyRow>((r) => r.key);

export const publishableKeyRow = (db: D1Database, key: string, now: number): Promise<PublishableKeyRow | null> =>
  publishable.read(key, now, () => livePublishableKey(db, key));

export const forgetPublishableKey = (key: string): void => publishable.forget(key);
