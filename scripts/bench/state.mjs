// A fresh local state for one benchmark: migrated databases under .bench/<name> and an enterprise key (its burst
// ceiling does not limit a benchmark). Returns the folder and the raw key.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createLocalKey } from "../key.mjs";
import { ROOT, openLocal } from "../lib.mjs";

/** Migrated databases in a fresh wrangler state folder `dir`, and an enterprise key in them; returns the raw key. */
export async function freshBenchState(dir) {
  return (await freshBenchAccount(dir)).key;
}

/** As freshBenchState, with the key's account id too. */
async function freshBenchAccount(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const local = await openLocal(dir);
  try {
    return await createLocalKey(local.env.DB, { plan: "enterprise" });
  } finally {
    await local.dispose();
  }
}

/** A fresh state under .bench/<name>, its key and the key's account. */
export async function benchState(name) {
  const state = join(ROOT, ".bench", name);
  const { key, accountId } = await freshBenchAccount(state);
  return { state, key, accountId };
}
