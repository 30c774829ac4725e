import { env, exports } from "cloudflare:workers";
import { vi } from "vitest";
import { newApiKey, newId, sha256Hex } from "../src/platform/crypto";
import { PLANS, type PlanId, periodOf } from "../src/platform/plans";

export interface TestKeyOptions {
  plan?: string;
  /** Starting balance for the current month instead of the plan's allowance. */
  credits?: number;
  /** Account's email and mobile verified (may see names, SPEC §1 rule 7). */
  verified?: boolean;
  active?: boolean;
  /** Put the account in a pooled organisation with this id (created if new). */
  orgId?: string;
  orgPlan?: string;
}

/** Creates an account and key directly in D1, as `npm run key -- create` does. Returns the raw key. */
export async function createTestKey(opts: TestKeyOptions = {}): Promise<{ key: string; keyId: string; accountId: string }> {
  const key = newApiKey();
  const keyId = newId("key");
  const accountId = newId("acc");
  const now = Math.floor(Date.now() / 1000);
  if (opts.orgId)
    await env.DB.prepare(`INSERT OR IGNORE INTO orgs (id, name, plan, pooled) VALUES (?, ?, ?, 1)`)
      .bind(opts.orgId, opts.orgId, opts.orgPlan ?? "team")
      .run();
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO accounts (id, email, mobile, email_verified_at, mobile_verified_at, plan, org_id) VALUES (?, ?, ?, ?, ?, ?, ?)`).bind(
      accountId,
      `${accountId}@example.test`,
      "+447700900000",
      opts.verified ? now : null,
      opts.verified ? now : null,
      opts.plan ?? "free",
      opts.orgId ?? null,
    ),
    env.DB.prepare(
      `INSERT INTO api_keys (id, account_id, key_hash, prefix, active, credits_override, credits_override_period) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).bind(
      keyId,
      accountId,
      await sha256Hex(key),
      key.slice(0, 9),
      opts.active === false ? 0 : 1,
      opts.credits ?? null,
      opts.credits === undefined ? null : periodOf(Date.now()),
    ),
  ]);
  if (opts.verified) verifiedKeys.add(key);
  return { key, keyId, accountId };
}

/** Every (method, path, status) a test received through `call`: test/setup.ts checks each is documented. */
export const received: { method: string; path: string; status: number }[] = [];

/** Keys of accounts with a verified email and mobile: the only callers who may see people's names (SPEC §1 rule 7). */
export const verifiedKeys = new Set<string>();
/** The text of every JSON reply a caller without such a key received through `call`: test/setup.ts scans it for people's names. */
export const unverifiedReplies: { path: string; text: string }[] = [];

/** Calls the Worker in-process. */
export const call = async (path: string, init: RequestInit & { key?: string } = {}) => {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("x-api-key", init.key);
  const r = await exports.default.fetch(new Request(`http://api.test${path}`, { ...init, headers }));
  received.push({ method: (init.method ?? "GET").toLowerCase(), path: new URL(`http://api.test${path}`).pathname, status: r.status });
  if (!(init.key && verifiedKeys.has(init.key)) && /json/.test(r.headers.get("content-type") ?? ""))
    unverifiedReplies.push({ path, text: await r.clone().text() });
  return r;
};

/** The KeyLedger Durable Object behind a ledger name (`acct:<accountId>` or `org:<orgId>`). */
export const ledgerOf = (name: string) => env.LEDGER.get(env.LEDGER.idFromName(name));

/**
 * A key's balance this month, read from its KeyLedger without charging or counting toward the burst ceiling.
 * Pass the same plan and credits as to createTestKey: a ledger not yet opened this month opens with them.
 */
export async function balanceOf(keyId: string, opts: { plan?: PlanId; credits?: number } = {}): Promise<number> {
  const row = await env.DB.prepare(`SELECT account_id FROM api_keys WHERE id = ?`).bind(keyId).first<{ account_id: string }>();
  const r = await ledgerOf(`acct:${row!.account_id}`).peek(periodOf(Date.now()), PLANS[opts.plan ?? "free"].monthlyCredits, opts.credits ?? null);
  return r.remaining;
}

/** The JSON body of a reply, typed loosely for assertions. */
export const json = async (r: Response) => (await r.json()) as Record<string, any>;

/** A contact nobody else in the run uses (sign-up limits are per address, per number and per IPv6 /48: the ip is a /48 of its own). */
export function uniqueContact(): { email: string; mobile: string; ip: string } {
  const n = crypto.getRandomValues(new Uint32Array(1))[0];
  return {
    email: `dev${n}@example.co.uk`,
    mobile: `07700${String(n % 1_000_000).padStart(6, "0")}`,
    ip: `3fff:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}::1`,
  };
}

/**
 * POST /api/v1/signup and read the two codes the "log" message provider prints to console.log.
 * Returns the reply and, when it was accepted, the challenge id and both codes.
 */
export async function startSignup(contact: { email: string; mobile: string; ip?: string }) {
  const spy = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    const reply = await call("/api/v1/signup", {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": contact.ip ?? "198.51.100.1" },
      body: JSON.stringify({ email: contact.email, mobile: contact.mobile }),
    });
    const code = (kind: string) => {
      for (const [line] of spy.mock.calls) {
        try {
          const m = JSON.parse(String(line)) as { message?: string; text?: string };
          if (m.message === kind) return /\b(\d{6})\b/.exec(m.text ?? "")?.[1] ?? "";
        } catch {
          // not a message line
        }
      }
      return "";
    };
    const body = (await reply.clone().json()) as { challengeId?: string };
    return { reply, challengeId: body.challengeId ?? "", emailCode: code("email"), mobileCode: code("sms") };
  } finally {
    spy.mockRestore();
  }
}

/** POST /api/v1/signup/verify. */
export const verifySignup = ({ challengeId, emailCode, mobileCode }: { challengeId: string; emailCode: string; mobileCode: string }) =>
  // Only the three fields verify takes: callers spread startSignup's result, whose `reply` (the sign-up's Response) is
  // not a parameter, and a parameter an operation does not take is refused (issue 29 §4).
  call("/api/v1/signup/verify", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ challengeId, emailCode, mobileCode }),
  });
