import { CompactSign, type JWK, compactVerify, createLocalJWKSet, exportJWK, generateKeyPair, importJWK } from "jose";
import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { checkSraRegister } from "../../../src/operations/registers/checkSraRegister";
import { buildApp } from "../../../src/platform/app";
import { execute } from "../../../src/platform/gateway";
import { RECEIPT_TYP, receiptClaims } from "../../../src/services/receipts/claims";
import { receiptKeys } from "../../../src/sources/receipts/signer";
import { call, createTestKey, json } from "../../helpers";
import { loadSampleRegisters } from "../../support/everyOperation";

/**
 * Issue 33 §2: every charged reply of a check carries a receipt (a JWS the service signed), verifiable offline with a
 * standard JOSE library against /.well-known/jwks.json; a changed byte of the reply or of the receipt fails; keys rotate
 * and old receipts still verify; GET /api/v1/receipts/{id} gives the receipt and the reply back, to its account only.
 */

beforeAll(loadSampleRegisters);

const sha256 = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))].map((b) => b.toString(16).padStart(2, "0")).join("");

const jwks = async () => createLocalJWKSet((await json(await call("/.well-known/jwks.json"))) as { keys: JWK[] });

describe("issue 33 §2 signed receipts", () => {
  it("a charged check's reply carries a receipt that verifies with jose against /.well-known/jwks.json and covers the body byte for byte", async () => {
    const { key, accountId } = await createTestKey({ credits: 100 });
    const r = await call("/api/v1/sra-check?company=Riverine%20Solicitors", { key });
    expect(r.status).toBe(200);
    const body = await r.text();
    const id = r.headers.get("x-receipt-id")!;
    const receipt = r.headers.get("x-receipt")!;
    expect(id).toMatch(/^rcpt_/);
    const keysDoc = await json(await call("/.well-known/jwks.json"));
    expect(keysDoc.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
    expect(keysDoc.keys[0].d).toBeUndefined(); // public keys only
    const { payload, protectedHeader } = await compactVerify(receipt, await jwks());
    expect(protectedHeader).toMatchObject({ alg: "EdDSA", typ: RECEIPT_TYP, kid: keysDoc.keys[0].kid });
    const claims = JSON.parse(new TextDecoder().decode(payload));
    expect(claims).toMatchObject({
      jti: id,
      sub: accountId,
      operation: "checkSraRegister",
      request: { method: "GET", path: "/api/v1/sra-check", input: { company: "Riverine Solicitors" } },
      reply: { status: 200, digest: { alg: "SHA-256", hex: await sha256(body) } },
    });
    // The key itself is never in a receipt; the evidence names the SRA register's edition and its file's SHA-256.
    expect(receipt.includes(key) || new TextDecoder().decode(payload).includes(key)).toBe(false);
    expect(claims.evidence).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "register-edition", source: expect.stringMatching(/SRA|Solicitors/), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }),
      ]),
    );
    expect(claims.retention).toMatch(/5 years/);

    // One changed byte of the reply: its digest no longer matches. One changed byte of the receipt: it no longer verifies.
    expect(await sha256(body.replace("Riverine", "Riverinf"))).not.toBe(claims.reply.digest.hex);
    const [h, p, sig] = receipt.split(".");
    const flipped = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    for (const bad of [`${h}.${flipped(p, 10)}.${sig}`, `${h}.${p}.${flipped(sig, 5)}`, `${flipped(h, 3)}.${p}.${sig}`])
      await expect(compactVerify(bad, await jwks())).rejects.toThrow();
  });

  it("GET /api/v1/receipts/{id}: the receipt and the reply exactly as sent, kept five years; another account's is not found; uncharged errors have none", async () => {
    const { key } = await createTestKey({ credits: 100 });
    const r = await call("/api/v1/sponsor-licence?company=Riverine%20Solicitors", { key });
    const body = await r.text();
    const id = r.headers.get("x-receipt-id");
    if (r.status !== 200) expect(id).toBeNull();
    const check = r.status === 200 ? r : await call("/api/v1/sra-check?company=Riverine%20Solicitors", { key });
    const sent = r.status === 200 ? body : await check.text();
    const rid = check.headers.get("x-receipt-id")!;
    const got = await call(`/api/v1/receipts/${rid}`, { key });
    expect(got.status).toBe(200);
    const kept = await json(got);
    expect(kept).toMatchObject({ id: rid, receipt: check.headers.get("x-receipt"), reply: { body: sent } });
    expect(Date.parse(kept.keptUntil) - Date.parse(kept.createdAt)).toBeGreaterThanOrEqual(5 * 365 * 86_400_000);
    expect(got.headers.get("x-receipt")).toBeNull(); // reading a receipt is free: no receipt of a receipt
    const other = await createTestKey({ credits: 100 });
    const theirs = await call(`/api/v1/receipts/${rid}`, { key: other.key });
    expect([theirs.status, (await json(theirs)).code]).toEqual([404, "not_found"]);
    // A check that finds nothing is a 404, uncharged: no receipt.
    const none = await call("/api/v1/sra-check?company=Nobody%20At%20All%20Zzzq", { key });
    expect(none.status).toBe(404);
    expect(none.headers.get("x-receipt")).toBeNull();
    await none.body?.cancel();
    expect((await call("/api/v1/receipts/not-an-id", { key })).status).toBe(400);
  });

  it("idv-check, public-record, the company reports and distress-signals carry receipts too, naming Companies House (and for the public record the registers read) as their evidence", async () => {
    const { key } = await createTestKey({ plan: "enterprise", credits: 1000 });
    for (const path of [
      "/api/v1/idv-check?company=01234567",
      "/api/v1/public-record?company=01234567",
      "/api/v1/charges?company=01234567",
      "/api/v1/distress-signals?company=01234567",
    ]) {
      const r = await call(path, { key });
      expect(r.status, path).toBe(200);
      const body = await r.text();
      const { payload } = await compactVerify(r.headers.get("x-receipt")!, await jwks());
      const claims = JSON.parse(new TextDecoder().decode(payload));
      expect(claims.reply.digest.hex, path).toBe(await sha256(body));
      expect(claims.evidence.map((e: { source: string }) => e.source).join(" | "), path).toMatch(/Companies House public data API/);
    }
  });

  it("SPEC §1 rule 7: a receipt names no person the caller could not see (an unverified account's idv-check and public record)", async () => {
    const { key } = await createTestKey({ plan: "enterprise", credits: 1000, verified: false });
    const names = JSON.parse(env.PERSON_NAMES) as string[];
    for (const path of ["/api/v1/idv-check?company=01234567", "/api/v1/public-record?company=01234567"]) {
      const r = await call(path, { key });
      expect(r.status, path).toBe(200);
      await r.body?.cancel();
      const payload = new TextDecoder().decode((await compactVerify(r.headers.get("x-receipt")!, await jwks())).payload).toLowerCase();
      expect(
        names.filter((n) => payload.includes(n.toLowerCase())),
        path,
      ).toEqual([]);
    }
  });

  it("a misconfigured signing key: the check still answers (x-receipt-unavailable, logged), and /.well-known/jwks.json is a JSON 500, never a crash", async () => {
    const bad = { ...env, ENVIRONMENT: "production", RECEIPT_SIGNING_KEY: "not a JSON Web Key" } as typeof env;
    expect(() => receiptKeys(bad)).toThrow(/not a JSON Web Key/);
    const { key } = await createTestKey({ credits: 100 });
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const o = await execute(
      bad,
      checkSraRegister,
      { company: "Riverine Solicitors" },
      { requestId: "req_badkey", headers: new Headers(), ip: "192.0.2.9", apiKey: key, waitUntil: () => {} },
    );
    expect(o.status).toBe(200);
    expect(o.headers["x-receipt"]).toBeUndefined();
    expect(o.headers["x-receipt-unavailable"]).toMatch(/could not be made/);
    expect(log.mock.calls.join(" ")).toMatch(/receipt/);
    log.mockRestore();
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const r = await buildApp().fetch(new Request("http://api.test/.well-known/jwks.json"), bad, createExecutionContext());
    quiet.mockRestore();
    expect(r.status).toBe(500);
    expect(await r.json()).toMatchObject({ code: "our_failure", requestId: expect.stringMatching(/^req_/) });
  });

  it("after a key rotation, a receipt signed with the old key still verifies against the published set (the old public key stays in it)", async () => {
    const make = async (kid: string) => {
      const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
      return { ...(await exportJWK(privateKey)), kid } as JWK;
    };
    const [oldKey, newKey] = await Promise.all([make("2026-a"), make("2026-b")]);
    const before = receiptKeys({ RECEIPT_SIGNING_KEY: JSON.stringify(oldKey), ENVIRONMENT: "production" });
    const claims = receiptClaims({
      id: "rcpt_rotation_0001",
      origin: "https://api.example",
      now: new Date("2026-11-29T10:00:00Z"),
      accountId: "acc_1",
      operation: "checkSraRegister",
      method: "get",
      path: "/api/v1/sra-check",
      input: { company: "Riverine Solicitors" },
      status: 200,
      contentType: "application/json; charset=utf-8",
      bodySha256: "0".repeat(64),
      requestId: "req_1",
      evidence: [],
    });
    const receipt = await before.signer!.sign(claims);
    const { d: _d, ...oldPublic } = oldKey;
    const after = receiptKeys({ RECEIPT_SIGNING_KEY: JSON.stringify(newKey), RECEIPT_RETIRED_KEYS: JSON.stringify([oldPublic]), ENVIRONMENT: "production" });
    expect(after.jwks.keys.map((k) => k.kid)).toEqual(["2026-b", "2026-a"]);
    const { payload } = await compactVerify(receipt, createLocalJWKSet(after.jwks));
    expect(JSON.parse(new TextDecoder().decode(payload)).jti).toBe("rcpt_rotation_0001");
    // A receipt "signed" by a key that is not published fails.
    const stranger = await make("2026-a");
    const forged = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: "EdDSA", kid: "2026-a", typ: RECEIPT_TYP })
      .sign(await importJWK(stranger, "EdDSA"));
    await expect(compactVerify(forged, createLocalJWKSet(after.jwks))).rejects.toThrow();
    // Production without a key signs nothing (the reply says so); outside production the local key stands in.
    expect(receiptKeys({ ENVIRONMENT: "production" }).signer).toBeNull();
    expect(receiptKeys({ ENVIRONMENT: "development" }).signer?.kid).toBe("local-development-only");
  });
});
