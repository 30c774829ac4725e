import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createTestKey, json, startSignup, uniqueContact, verifySignup } from "../../helpers";

/** A six-digit code that is certainly not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("SPEC §5.3 sign-up with a verified email and mobile: verifySignup", () => {
  it("SPEC §5.3 signup → codes → verify → a key on the free plan with 100 credits that may see names", async () => {
    const contact = uniqueContact();
    const s = await startSignup(contact);
    expect(s.reply.status).toBe(201);
    expect(await s.reply.json()).toMatchObject({
      challengeId: expect.stringMatching(/^chl_/),
      sentTo: { email: `d***@example.co.uk`, mobile: `+44******${contact.mobile.slice(-3)}` },
    });
    expect(s.emailCode).toMatch(/^\d{6}$/);
    expect(s.mobileCode).toMatch(/^\d{6}$/);

    const v = await verifySignup(s);
    expect(v.status).toBe(201);
    const issued = await json(v);
    expect(issued).toMatchObject({ plan: "free", monthlyCredits: 100, verified: { email: true, mobile: true }, newAccount: true });
    expect(issued.apiKey).toMatch(/^ukbi_/);

    const account = await json(await call("/api/v1/account", { key: issued.apiKey }));
    expect(account).toMatchObject({
      keyId: issued.keyId,
      accountId: issued.accountId,
      plan: "free",
      monthlyCredits: 100,
      creditsRemaining: 100,
      pooled: false,
      canSeeNames: true,
    });
    const paid = await call("/api/v1/late-payment?amount=10&due=2026-01-15&paid=2026-02-01", { key: issued.apiKey });
    expect([paid.status, paid.headers.get("x-credits-remaining")]).toEqual([200, "99"]);

    // A challenge is used once.
    expect((await json(await verifySignup(s))).code).toBe("unverified");
  });

  it("SPEC §5.3 one allowance per person: further sign-ups with the same email or mobile add keys that share the one balance; at most 5 keys; a key can be revoked", async () => {
    const contact = uniqueContact();
    const signUp = async (c: { email: string; mobile: string; ip?: string }) => {
      const s = await startSignup(c);
      return verifySignup(s);
    };
    const first = await json(await signUp(contact));
    const second = await json(await signUp({ ...contact, ip: "2001:db8::2" }));
    expect(second.accountId).toBe(first.accountId);
    expect(second.apiKey).not.toBe(first.apiKey);
    expect([first.newAccount, second.newAccount]).toEqual([true, false]);
    // The same mobile with another email is the same person too.
    const third = await json(await signUp({ ...contact, email: `other.${contact.email}`, ip: "2001:db8::3" }));
    expect(third.accountId).toBe(first.accountId);
    for (const k of [first, second])
      expect(
        (await call("/api/v1/late-payment?amount=10&due=2026-01-15&paid=2026-02-01", { key: k.apiKey })).headers.get("x-credits-remaining"),
      ).not.toBeNull();
    // Two calls, one from each key, came off one balance of 100; the third sign-up added nothing.
    for (const k of [first, second, third]) expect((await json(await call("/api/v1/account", { key: k.apiKey }))).creditsRemaining).toBe(98);
    // At most five active keys (two more are added directly: sign-up itself is limited to 3 an hour per address).
    for (const id of ["key_extra1", "key_extra2"])
      await env.DB.prepare(`INSERT INTO api_keys (id, account_id, key_hash, prefix, active) VALUES (?, ?, ?, 'ukbi_x', 1)`)
        .bind(id, first.accountId, `hash-${id}-${first.accountId}`)
        .run();
    const sixth = await signUp({ email: contact.email, mobile: uniqueContact().mobile, ip: "2001:db8::6" });
    expect(sixth.status).toBe(409);
    expect((await json(sixth)).code).toBe("key_limit_reached");
    // Revoke: the second key disables the first; the first stops working; then a new key may be added.
    const revoked = await call(`/api/v1/account/keys?keyId=${first.keyId}`, { key: second.apiKey, method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(await json(revoked)).toEqual({ keyId: first.keyId, revoked: true, activeKeysLeft: 4 });
    expect((await json(await call("/api/v1/account", { key: first.apiKey }))).code).toBe("inactive_key");
    // A key of another account is not found.
    const stranger = await createTestKey();
    expect((await call(`/api/v1/account/keys?keyId=${stranger.keyId}`, { key: second.apiKey, method: "DELETE" })).status).toBe(404);
  });

  it("SPEC §5.3 a wrong code → 403 unverified naming the code; after 5 attempts even the right codes are refused", async () => {
    const s = await startSignup(uniqueContact());
    const first = await verifySignup({ ...s, emailCode: wrong(s.emailCode) });
    expect(first.status).toBe(403);
    expect(await json(first)).toMatchObject({ code: "unverified", field: "emailCode" });
    expect(await json(await verifySignup({ ...s, mobileCode: wrong(s.mobileCode) }))).toMatchObject({ code: "unverified", field: "mobileCode" });
    for (let i = 3; i <= 5; i++) expect((await verifySignup({ ...s, emailCode: wrong(s.emailCode) })).status).toBe(403);
    const sixth = await verifySignup(s);
    expect(sixth.status).toBe(403);
    expect((await json(sixth)).message).toMatch(/out of attempts/);
  });

  it.each([
    ["email", { email: "not-an-email", mobile: "07700900123" }],
    ["mobile", { email: "ok@example.co.uk", mobile: "12345" }],
    ["email", { mobile: "07700900123" }],
    ["mobile", { email: "ok@example.co.uk" }],
  ])("SPEC §7.3 bad or missing %s → 400 bad_request naming the field", async (field, body) => {
    const r = await call("/api/v1/signup", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const err = await json(r);
    expect([r.status, err.code, err.field]).toEqual([400, "bad_request", field]);
    expect(err.message).toContain(`\`${field}\``);
  });

  it.each([
    ["no content-type", {}, "{}", 415, "unsupported_media_type"],
    ["broken JSON", { "content-type": "application/json" }, "{", 400, "bad_request"],
    ["an array", { "content-type": "application/json" }, "[]", 400, "bad_request"],
  ])("SPEC §7.3 a POST body with %s is refused", async (_name, headers, body, status, code) => {
    const r = await call("/api/v1/signup", { method: "POST", headers, body });
    expect([r.status, (await json(r)).code]).toEqual([status, code]);
  });
});
