import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountByContact, attemptChallenge, createChallenge, issueKey, useChallenge } from "../../src/db/accounts";
import { feedByToken, feedTokenFor, revokeFeed } from "../../src/db/calendarFeeds";
import { d1HttpCache } from "../../src/db/httpCache";
import { claimIdempotencyKey, forgetReply, saveReply, storedReply } from "../../src/db/idempotency";
import { activeKeyCount, keyByHash, revokeAccountKey } from "../../src/db/keys";
import { recordPublished, recordUnchanged } from "../../src/db/runLog";
import { releaseWindow, takeWindow } from "../../src/db/windowCounter";

/**
 * Issue 31: the statements written with drizzle (src/db/schema.ts says when drizzle, when raw SQL). Each call's
 * SQL is recorded as D1 receives it, to show it is one statement of the same shape as the hand-written SQL it
 * replaced (the same keys, so the same indexes; the same ON CONFLICT, RETURNING and atomic increments), and what
 * it does is checked against the database.
 */

/** env.DB, recording the SQL of every statement prepared through it. */
function recording() {
  const sql: string[] = [];
  const db = new Proxy(env.DB, {
    get: (target, p) => {
      if (p === "prepare") return (q: string) => (sql.push(q), target.prepare(q));
      const v = Reflect.get(target, p);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { db, sql };
}

const uid = () => crypto.randomUUID().slice(0, 8);
const row = <T>(q: string, ...args: unknown[]) =>
  env.DB.prepare(q)
    .bind(...args)
    .first<T>();

describe("accounts (src/db/accounts.ts)", () => {
  it("a challenge: created with its defaults, attempts counted atomically up to the limit, used once", async () => {
    const { db, sql } = recording();
    const id = `ch_${uid()}`;
    await createChallenge(db, { id, email: "a@example.test", mobile: "07700900001", emailCodeHash: "e", mobileCodeHash: "m", expiresAt: 2_000_000_000 });
    expect(sql).toEqual([
      `insert into "signup_challenges" ("id", "email", "mobile", "email_code_hash", "mobile_code_hash", "attempts", "expires_at", "used_at", "created_at") values (?, ?, ?, ?, ?, ?, ?, null, (unixepoch()))`,
    ]);
    expect(await row(`SELECT attempts, used_at, created_at > 0 AS dated FROM signup_challenges WHERE id = ?`, id)).toEqual({
      attempts: 0,
      used_at: null,
      dated: 1,
    });

    sql.length = 0;
    expect(await attemptChallenge(db, id, 1000, 2)).toEqual({ email: "a@example.test", mobile: "07700900001", email_code_hash: "e", mobile_code_hash: "m" });
    expect(sql).toEqual([
      `update "signup_challenges" set "attempts" = "signup_challenges"."attempts" + 1 where ("signup_challenges"."id" = ? and "signup_challenges"."used_at" is null and "signup_challenges"."expires_at" > ? and "signup_challenges"."attempts" < ?) returning "email", "mobile", "email_code_hash", "mobile_code_hash"`,
    ]);
    expect(await attemptChallenge(db, id, 1000, 2)).not.toBeNull();
    expect(await attemptChallenge(db, id, 1000, 2)).toBeNull(); // out of attempts
    expect(await attemptChallenge(db, id, 1000, 5)).not.toBeNull();
    expect(await attemptChallenge(db, id, 2_000_000_000, 5)).toBeNull(); // expired
    expect(await attemptChallenge(db, "ch_unknown", 1000, 5)).toBeNull();

    sql.length = 0;
    expect(await useChallenge(db, id, 1001)).toBe(true);
    expect(sql).toEqual([`update "signup_challenges" set "used_at" = ? where ("signup_challenges"."id" = ? and "signup_challenges"."used_at" is null)`]);
    expect(await useChallenge(db, id, 1002)).toBe(false);
    expect(await attemptChallenge(db, id, 1000, 9)).toBeNull(); // used
  });

  it("issuing keys: a new account, then another key to it; the account found by either contact", async () => {
    const { db, sql } = recording();
    const acc = `acc_${uid()}`;
    const email = `${acc}@example.test`;
    await issueKey(db, { accountId: acc, existing: false, email, mobile: "07700900002", now: 100, keyId: `key_${acc}1`, keyHash: `h_${acc}1`, prefix: "p" });
    expect(sql).toEqual([
      `insert into "accounts" ("id", "email", "mobile", "email_verified_at", "mobile_verified_at", "plan", "org_id", "created_at") values (?, ?, ?, ?, ?, ?, null, (unixepoch()))`,
      `insert into "api_keys" ("id", "account_id", "key_hash", "prefix", "label", "active", "created_at", "disabled_at", "credits_override", "credits_override_period") values (?, ?, ?, ?, null, ?, (unixepoch()), null, null, null)`,
    ]);
    sql.length = 0;
    await issueKey(db, { accountId: acc, existing: true, email, mobile: "07700900002", now: 200, keyId: `key_${acc}2`, keyHash: `h_${acc}2`, prefix: "p" });
    expect(sql[0]).toBe(`update "accounts" set "email_verified_at" = ?, "mobile_verified_at" = ? where "accounts"."id" = ?`);
    expect(await row(`SELECT plan, org_id, email_verified_at, mobile_verified_at FROM accounts WHERE id = ?`, acc)).toEqual({
      plan: "free",
      org_id: null,
      email_verified_at: 200,
      mobile_verified_at: 200,
    });
    expect(await accountByContact(db, email, "none")).toEqual({ id: acc, plan: "free" });
    expect(await accountByContact(db, "none@example.test", "07700900002")).toMatchObject({ plan: "free" });
    expect(await accountByContact(db, "none@example.test", "none")).toBeUndefined();
  });
});

describe("keys (src/db/keys.ts)", () => {
  it("by hash with its account; revoking one key counts the active keys left in the same batch", async () => {
    const { db, sql } = recording();
    const acc = `acc_${uid()}`;
    await issueKey(db, {
      accountId: acc,
      existing: false,
      email: `${acc}@example.test`,
      mobile: "1",
      now: 100,
      keyId: `${acc}_k1`,
      keyHash: `${acc}_h1`,
      prefix: "p",
    });
    await issueKey(db, {
      accountId: acc,
      existing: true,
      email: `${acc}@example.test`,
      mobile: "1",
      now: 100,
      keyId: `${acc}_k2`,
      keyHash: `${acc}_h2`,
      prefix: "p",
    });
    expect(await keyByHash(db, `${acc}_h1`)).toEqual({
      keyId: `${acc}_k1`,
      active: 1,
      creditsOverride: null,
      creditsOverridePeriod: null,
      accountId: acc,
      plan: "free",
      emailVerifiedAt: 100,
      mobileVerifiedAt: 100,
      orgId: null,
      orgPlan: null,
      pooled: null,
    });
    expect(await keyByHash(db, "no such hash")).toBeUndefined();

    sql.length = 0;
    expect(await activeKeyCount(db, acc)).toBe(2);
    expect(sql).toEqual([`select count(*) from "api_keys" where ("api_keys"."account_id" = ? and "api_keys"."active" = ?)`]);
    sql.length = 0;
    expect(await revokeAccountKey(db, acc, `${acc}_k2`)).toBe(1);
    expect(sql).toEqual([
      `update "api_keys" set "active" = ? where ("api_keys"."id" = ? and "api_keys"."account_id" = ?) returning "id"`,
      `select count(*) from "api_keys" where ("api_keys"."account_id" = ? and "api_keys"."active" = ?)`,
    ]);
    expect(await revokeAccountKey(db, acc, "not_its_key")).toBeNull();
    expect(await revokeAccountKey(db, "another_account", `${acc}_k1`)).toBeNull();
    expect(await activeKeyCount(db, acc)).toBe(1);
    expect(await activeKeyCount(db, "acc_without_keys")).toBe(0);
  });
});

describe("calendar feeds (src/db/calendarFeeds.ts)", () => {
  it("one live token per key and company; revoked, it answers no more and the next is new", async () => {
    const { db, sql } = recording();
    const acc = `acc_${uid()}`;
    const keyId = `${acc}_k`;
    await issueKey(env.DB, { accountId: acc, existing: false, email: `${acc}@example.test`, mobile: "1", now: 1, keyId, keyHash: `${acc}_h`, prefix: "p" });
    expect(await feedTokenFor(db, keyId, "00000001", `${acc}_t1`, 10)).toBe(`${acc}_t1`);
    expect(sql).toEqual([
      `insert into "calendar_feeds" ("token", "key_id", "company_number", "created_at", "revoked_at") values (?, ?, ?, ?, null) on conflict do nothing`,
      `select "token" from "calendar_feeds" where ("calendar_feeds"."key_id" = ? and "calendar_feeds"."company_number" = ? and "calendar_feeds"."revoked_at" is null)`,
    ]);
    expect(await feedTokenFor(db, keyId, "00000001", `${acc}_t2`, 11)).toBe(`${acc}_t1`);
    expect(await feedByToken(db, `${acc}_t1`)).toEqual({ keyId, company: "00000001" });
    expect(await feedByToken(db, `${acc}_t2`)).toBeNull();

    expect(await revokeFeed(db, keyId, "00000001", 12)).toBe(true);
    expect(await revokeFeed(db, keyId, "00000001", 13)).toBe(false);
    expect(await feedByToken(db, `${acc}_t1`)).toBeNull();
    expect(await feedTokenFor(db, keyId, "00000001", `${acc}_t3`, 14)).toBe(`${acc}_t3`);
    // A disabled key's feeds answer nothing.
    await env.DB.prepare(`UPDATE api_keys SET active = 0 WHERE id = ?`).bind(keyId).run();
    expect(await feedByToken(db, `${acc}_t3`)).toBeNull();
  });
});

describe("idempotent replies (src/db/idempotency.ts)", () => {
  it("claimed once, saved, read back and forgotten", async () => {
    const { db, sql } = recording();
    const key = `idem_${uid()}`;
    expect(await claimIdempotencyKey(db, "key_1", key, "hash")).toBe(true);
    expect(sql).toEqual([
      `insert into "idempotent_replies" ("key_id", "idempotency_key", "request_hash", "status", "body", "headers", "created_at") values (?, ?, ?, ?, null, null, (unixepoch())) on conflict do nothing returning "key_id"`,
    ]);
    expect(await claimIdempotencyKey(db, "key_1", key, "other")).toBe(false);
    expect(await claimIdempotencyKey(db, "key_2", key, "hash")).toBe(true);
    expect(await storedReply(db, "key_1", key)).toEqual({ requestHash: "hash", status: 0, body: null, headers: null });
    await saveReply(db, "key_1", key, 201, `{"ok":true}`, `[["x","y"]]`);
    expect(await storedReply(db, "key_1", key)).toEqual({ requestHash: "hash", status: 201, body: `{"ok":true}`, headers: `[["x","y"]]` });
    sql.length = 0;
    await forgetReply(db, "key_1", key);
    expect(sql).toEqual([`delete from "idempotent_replies" where ("idempotent_replies"."key_id" = ? and "idempotent_replies"."idempotency_key" = ?)`]);
    expect(await storedReply(db, "key_1", key)).toBeNull();
    expect(await storedReply(db, "key_2", key)).not.toBeNull();
  });
});

describe("window counters (src/db/windowCounter.ts)", () => {
  it("one upsert counts and refuses; a new window drops the old; a release never goes below zero", async () => {
    const { db, sql } = recording();
    const bucket = `b_${uid()}`;
    const t0 = 600_000; // window [600, 660) s
    expect(await takeWindow(db, bucket, 2, 60, t0)).toEqual({ ok: true });
    expect(sql).toEqual([
      `insert into "upstream_budget" ("source", "window_start", "used") values (?, ?, ?) on conflict ("upstream_budget"."source", "upstream_budget"."window_start") do update set "used" = "upstream_budget"."used" + 1 where "upstream_budget"."used" < ? returning "used"`,
      `delete from "upstream_budget" where ("upstream_budget"."source" = ? and "upstream_budget"."window_start" < ?)`,
    ]);
    sql.length = 0;
    expect(await takeWindow(db, bucket, 2, 60, t0 + 1000)).toEqual({ ok: true });
    expect(sql).toHaveLength(1); // not the first of its window: no prune
    expect(await takeWindow(db, bucket, 2, 60, t0 + 20_000)).toEqual({ ok: false, retryAfterSeconds: 40 });
    const used = () => env.DB.prepare(`SELECT window_start, used FROM upstream_budget WHERE source = ? ORDER BY window_start`).bind(bucket).all();
    expect((await used()).results).toEqual([{ window_start: 600, used: 2 }]);

    sql.length = 0;
    await releaseWindow(db, bucket, 60, t0 + 30_000);
    expect(sql).toEqual([
      `update "upstream_budget" set "used" = "upstream_budget"."used" - 1 where ("upstream_budget"."source" = ? and "upstream_budget"."window_start" = ? and "upstream_budget"."used" > ?)`,
    ]);
    expect(await takeWindow(db, bucket, 2, 60, t0 + 40_000)).toEqual({ ok: true });
    for (let i = 0; i < 3; i++) await releaseWindow(db, bucket, 60, t0 + 50_000);
    expect((await used()).results).toEqual([{ window_start: 600, used: 0 }]);

    expect(await takeWindow(db, bucket, 2, 60, t0 + 60_000)).toEqual({ ok: true });
    expect((await used()).results).toEqual([{ window_start: 660, used: 1 }]);
  });
});

describe("HTTP cache (src/db/httpCache.ts)", () => {
  it("a put replaces the key's row and prunes expired rows in one batch; a get sees only unexpired rows", async () => {
    const { db, sql } = recording();
    const cache = d1HttpCache(db);
    const key = `k_${uid()}`;
    await env.DB.prepare(`INSERT INTO http_cache (key, status, body, fetched_at, expires_at) VALUES (?, 200, 'old', 1, 1)`).bind(`${key}_expired`).run();
    await cache.put(key, { status: 200, body: "first", fetchedAt: 5 }, 60);
    expect(sql).toEqual([
      `insert into "http_cache" ("key", "status", "body", "fetched_at", "expires_at") values (?, ?, ?, ?, ?) on conflict ("http_cache"."key") do update set "status" = excluded."status", "body" = excluded."body", "fetched_at" = excluded."fetched_at", "expires_at" = excluded."expires_at"`,
      `delete from "http_cache" where "http_cache"."expires_at" <= ?`,
    ]);
    expect(await row(`SELECT COUNT(*) AS n FROM http_cache WHERE key = ?`, `${key}_expired`)).toEqual({ n: 0 });
    expect(await cache.get(key)).toEqual({ status: 200, body: "first", fetchedAt: 5 });
    await cache.put(key, { status: 404, body: "gone", fetchedAt: 6 }, 120);
    expect(await cache.get(key)).toEqual({ status: 404, body: "gone", fetchedAt: 6 });
    const stored = await row<{ expires_at: number }>(`SELECT expires_at FROM http_cache WHERE key = ?`, key);
    expect(stored!.expires_at).toBeGreaterThan(Date.now() + 100_000);
    await env.DB.prepare(`UPDATE http_cache SET expires_at = ? WHERE key = ?`)
      .bind(Date.now() - 1, key)
      .run();
    expect(await cache.get(key)).toBeNull();
  });
});

describe("run log (src/db/runLog.ts)", () => {
  it("published: the state upserted (history kept from the first edition, or restarted after a sample); unchanged: the edition moves only forward", async () => {
    const { db, sql } = recording();
    const source = `src_${uid()}`;
    const run = async (edition: string) =>
      (await env.DB.prepare(`INSERT INTO register_runs (source, started_at, edition_date) VALUES (?, 't0', ?) RETURNING id`)
        .bind(source, edition)
        .first<{ id: number }>())!.id;
    const state = () => row(`SELECT published_run, edition_date, history_since, sample FROM register_state WHERE source = ? AND scope = ''`, source);
    const runRow = (id: number) => row(`SELECT outcome, finished_at, changes, edition_date, reason FROM register_runs WHERE id = ?`, id);

    const r1 = await run("2026-01-01");
    await recordPublished(
      db,
      { runId: r1, source, scope: "" },
      { editionDate: "2026-01-01", sample: true, replacesSample: false, changes: 0, note: null, finishedAt: "t1" },
    );
    expect(sql).toEqual([
      `insert into "register_state" ("source", "scope", "published_run", "edition_date", "history_since", "sample") values (?, ?, ?, ?, ?, ?) on conflict ("register_state"."source", "register_state"."scope") do update set "published_run" = excluded."published_run", "edition_date" = excluded."edition_date", "sample" = excluded."sample"`,
      `update "register_runs" set "edition_date" = ?, "finished_at" = ?, "outcome" = ?, "reason" = ?, "changes" = ? where "register_runs"."id" = ?`,
    ]);
    expect(await state()).toEqual({ published_run: r1, edition_date: "2026-01-01", history_since: "2026-01-01", sample: 1 });
    expect(await runRow(r1)).toEqual({ outcome: "loaded", finished_at: "t1", changes: 0, edition_date: "2026-01-01", reason: null });

    // The first real edition after a sample is the new baseline: history restarts from it.
    const r2 = await run("2026-02-01");
    sql.length = 0;
    await recordPublished(
      db,
      { runId: r2, source, scope: "" },
      { editionDate: "2026-02-01", sample: false, replacesSample: true, changes: 5, note: "n", finishedAt: "t2" },
    );
    expect(sql[0]).toContain(`"history_since" = excluded."history_since"`);
    expect(await state()).toEqual({ published_run: r2, edition_date: "2026-02-01", history_since: "2026-02-01", sample: 0 });
    expect(await runRow(r2)).toEqual({ outcome: "loaded", finished_at: "t2", changes: 5, edition_date: "2026-02-01", reason: "n" });

    const r3 = await run("2026-03-01");
    await recordPublished(
      db,
      { runId: r3, source, scope: "" },
      { editionDate: "2026-03-01", sample: false, replacesSample: false, changes: 2, note: null, finishedAt: "t3" },
    );
    expect(await state()).toEqual({ published_run: r3, edition_date: "2026-03-01", history_since: "2026-02-01", sample: 0 });

    const r4 = await run("2026-04-01");
    sql.length = 0;
    await recordUnchanged(db, { runId: r4, source, scope: "" }, "2026-04-01", "t4");
    expect(sql).toEqual([
      `update "register_state" set "edition_date" = ? where ("register_state"."source" = ? and "register_state"."scope" = ? and ("register_state"."edition_date" is null or "register_state"."edition_date" < ?))`,
      `update "register_runs" set "finished_at" = ?, "outcome" = ?, "changes" = ? where "register_runs"."id" = ?`,
    ]);
    expect(await state()).toEqual({ published_run: r3, edition_date: "2026-04-01", history_since: "2026-02-01", sample: 0 });
    expect(await runRow(r4)).toMatchObject({ outcome: "unchanged", finished_at: "t4", changes: 0 });
    const r5 = await run("2026-03-15");
    await recordUnchanged(db, { runId: r5, source, scope: "" }, "2026-03-15", "t5");
    expect(await state()).toMatchObject({ edition_date: "2026-04-01" });
  });
});
