// A fresh local state for one benchmark: migrated databases under .bench/<name> and an enterprise key (its burst
// ceiling does not limit a benchmark). Returns the folder and the raw key.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, localEnv, migrateLocal } from "../lib.mjs";

export async function benchState(name) {
  const state = join(ROOT, ".bench", name);
  rmSync(state, { recursive: true, force: true });
  mkdirSync(state, { recursive: true });
  migrateLocal(state);
  const key = `ukbi_${randomBytes(24).toString("base64url")}`;
  const proxy = await localEnv(state);
  const db = proxy.env.DB;
  await db.batch([
    db.prepare(`INSERT OR IGNORE INTO accounts (id, email, plan) VALUES ('acc_bench', 'bench@local.invalid', 'enterprise')`),
    db.prepare(`INSERT INTO api_keys (id, account_id, key_hash, prefix) VALUES ('key_bench', 'acc_bench', ?, ?)`).bind(createHash("sha256").update(key).digest("hex"), key.slice(0, 9)),
  ]);
  await proxy.dispose();
  return { state, key };
}
