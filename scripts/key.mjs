// npm run key -- create [--plan free] [--credits N] [--verified] [--email ADDRESS]
// npm run key -- disable <key>
// Works on the local database that `npm start` serves. The key is printed alone on the last line.
import { createHash, randomBytes } from "node:crypto";
import { basename } from "node:path";
import { openLocal } from "./lib.mjs";

export const PLANS = ["free", "starter", "growth", "scale", "team", "enterprise"];
const hash = (k) => createHash("sha256").update(k).digest("hex");
const id = (p) => `${p}_${randomBytes(12).toString("base64url")}`;

/**
 * A new account and key in the local database `db` (a D1 binding: openLocal's env.DB). `credits`: this month's
 * allowance instead of the plan's; `verified`: email and mobile verified (the account may see people's names).
 */
export async function createLocalKey(db, { plan = "free", credits = null, verified = false, email = null } = {}) {
  const key = `ukbi_${randomBytes(24).toString("base64url")}`;
  const accountId = id("acc");
  const keyId = id("key");
  const now = Math.floor(Date.now() / 1000);
  const period = new Date().toISOString().slice(0, 7);
  await db.batch([
    db
      .prepare(`INSERT INTO accounts (id, email, mobile, email_verified_at, mobile_verified_at, plan) VALUES (?, ?, ?, ?, ?, ?)`)
      .bind(accountId, email ?? `${accountId}@local.invalid`, verified ? "+447700900000" : null, verified ? now : null, verified ? now : null, plan),
    db
      .prepare(`INSERT INTO api_keys (id, account_id, key_hash, prefix, label, credits_override, credits_override_period) VALUES (?, ?, ?, ?, 'local', ?, ?)`)
      .bind(keyId, accountId, hash(key), key.slice(0, 9), credits, credits === null ? null : period),
  ]);
  return { key, keyId, accountId };
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  const [cmd, ...rest] = process.argv.slice(2);
  const flag = (name) => rest.includes(`--${name}`);
  const value = (name) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const usage = (msg) => {
    if (msg) console.error(msg);
    console.error("usage: npm run key -- create [--plan free] [--credits N] [--verified] [--email ADDRESS]\n       npm run key -- disable <key>");
    process.exit(2);
  };
  if (cmd !== "create" && cmd !== "disable") usage();
  // The arguments are checked before the databases are opened (a usage error leaves no local runtime behind).
  const plan = value("plan") ?? "free";
  if (!PLANS.includes(plan)) usage(`unknown plan ${plan}; plans: ${PLANS.join(", ")}`);
  const creditsRaw = value("credits");
  const credits = creditsRaw === undefined ? null : Number(creditsRaw);
  if (credits !== null && (!Number.isInteger(credits) || credits < 0)) usage("--credits must be a whole number ≥ 0");
  if (cmd === "disable" && !rest[0]) usage("disable needs the key");
  const local = await openLocal();
  const db = local.env.DB;
  try {
    if (cmd === "create") {
      const verified = flag("verified");
      const { key, keyId } = await createLocalKey(db, { plan, credits, verified, email: value("email") ?? null });
      console.log(
        `Created ${plan} key ${keyId}${credits === null ? "" : ` with ${credits} credits this month`}${verified ? " (email and mobile verified)" : ""}. Send it as x-api-key:`,
      );
      console.log(key);
    } else {
      const key = rest[0];
      const r = await db
        .prepare(`UPDATE api_keys SET active = 0, disabled_at = ? WHERE key_hash = ?`)
        .bind(Math.floor(Date.now() / 1000), hash(key))
        .run();
      if (!r.meta.changes) {
        console.error("No such key in the local database.");
        process.exitCode = 1;
      } else console.log("Key disabled.");
    }
  } finally {
    await local.dispose();
  }
}
