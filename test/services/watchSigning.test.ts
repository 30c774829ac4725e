import { describe, expect, it } from "vitest";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { ROTATION, SIGNING_DOC, keyBytesOf, newSigningSecret, secretsForSigning, signDelivery, verifyServiceSignature } from "../../src/services/watch/signing";

/** A real delivery body: an Event (SPEC §2.7) of kind payment_report, with a non-ASCII character (UTF-8 bytes ≠ chars). */
const EVENT = {
  id: 1842,
  company: "09446231",
  seenAt: "2026-11-03T06:12:09Z",
  kind: "payment_report",
  summary: "A new payment practices report: average time to pay rose from 31 to 44 days; 18% paid late (was 9%) — report 2614.",
  before: { reportId: 2431, avgDays: 31, pctLate: 9 },
  after: { reportId: 2614, avgDays: 44, pctLate: 18 },
  deliveredToWebhook: false,
};
const BODY = JSON.stringify(EVENT);
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** An independent HMAC-SHA256, straight from crypto.subtle, over `input` with the decoded bytes of a whsec_ secret. */
async function independentHmac(secret: string, input: string): Promise<Uint8Array> {
  const raw = Uint8Array.from(atob(secret.slice("whsec_".length)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(input)));
}
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

describe("newSigningSecret: Standard Webhooks format", () => {
  it("is whsec_ + base64 of 32 random bytes, different each time, accepted by the Standard Webhooks library", () => {
    const a = newSigningSecret();
    const b = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(b);
    expect(keyBytesOf(a)).toHaveLength(32);
    expect(atob(a.slice(6))).toHaveLength(32);
    expect(() => new Webhook(a)).not.toThrow();
  });

  it("rejects a secret that is not whsec_ + base64 of 24–64 bytes", () => {
    expect(() => keyBytesOf("sk_abc")).toThrow(/whsec_/);
    expect(() => keyBytesOf("whsec_not base64!")).toThrow();
    expect(() => keyBytesOf(`whsec_${btoa("short")}`)).toThrow();
  });
});

describe("signDelivery: headers a Standard Webhooks library verifies", () => {
  it("the standardwebhooks Webhook class verifies a real delivery and returns the event", async () => {
    const secret = newSigningSecret();
    const headers = await signDelivery({ id: "evt_1842", timestamp: nowSeconds(), body: BODY, secret });
    expect(Object.keys(headers).sort()).toEqual(["X-Service-Signature", "content-type", "webhook-id", "webhook-signature", "webhook-timestamp"]);
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["webhook-id"]).toBe("evt_1842");
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(BODY, { ...headers })).toEqual(EVENT);
    // Header names are case-insensitive for the library too (a framework may lower-case or capitalise them).
    const shouted = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(new Webhook(secret).verify(BODY, shouted)).toEqual(EVENT);
  });

  it("the library throws when the body is changed by one character", async () => {
    const secret = newSigningSecret();
    const headers = await signDelivery({ id: "evt_1842", timestamp: nowSeconds(), body: BODY, secret });
    const changed = BODY.replace('"avgDays":44', '"avgDays":45');
    expect(changed).not.toBe(BODY);
    expect(changed).toHaveLength(BODY.length);
    expect(() => new Webhook(secret).verify(changed, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(changed, headers)).toThrow(/No matching signature/);
    // And with the id or the timestamp changed (both are signed).
    expect(() => new Webhook(secret).verify(BODY, { ...headers, "webhook-id": "evt_1843" })).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(BODY, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 1) })).toThrow(
      /No matching signature/,
    );
    // And with another secret.
    expect(() => new Webhook(newSigningSecret()).verify(BODY, headers)).toThrow(/No matching signature/);
  });

  it("the library throws on a stale timestamp (older than its 5-minute tolerance), and on one from the future", async () => {
    const secret = newSigningSecret();
    const stale = await signDelivery({ id: "evt_1842", timestamp: nowSeconds() - 6 * 60, body: BODY, secret });
    expect(() => new Webhook(secret).verify(BODY, stale)).toThrow(/timestamp too old/);
    const future = await signDelivery({ id: "evt_1842", timestamp: nowSeconds() + 6 * 60, body: BODY, secret });
    expect(() => new Webhook(secret).verify(BODY, future)).toThrow(/timestamp too new/);
    // Just inside the tolerance still verifies (a retry is signed afresh, so it is never stale when sent).
    const recent = await signDelivery({ id: "evt_1842", timestamp: nowSeconds() - 4 * 60, body: BODY, secret });
    expect(new Webhook(secret).verify(BODY, recent)).toEqual(EVENT);
  });

  it("the Standard Webhooks test vector, and the example in SIGNING_DOC", async () => {
    // From the Standard Webhooks reference libraries' tests.
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const headers = await signDelivery({ id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1614265330, body: '{"test": 2432232314}', secret });
    expect(headers["webhook-signature"]).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    expect(headers["X-Service-Signature"]).toBe("t=1614265330,v1=e96203c6de850e7dc1fde7489ef6140b402d3a5a64fe250cd2eef9830fac1cef");
    expect(SIGNING_DOC).toContain(`webhook-signature: ${headers["webhook-signature"]}`);
    expect(SIGNING_DOC).toContain(`X-Service-Signature: ${headers["X-Service-Signature"]}`);
  });

  it("webhook-signature is base64 HMAC-SHA256 of `id.timestamp.body` with the decoded key (independent HMAC)", async () => {
    const secret = newSigningSecret();
    const headers = await signDelivery({ id: "evt_7", timestamp: 1793000000, body: BODY, secret });
    expect(headers["webhook-signature"]).toBe(`v1,${b64(await independentHmac(secret, `evt_7.1793000000.${BODY}`))}`);
    expect(headers["webhook-timestamp"]).toBe("1793000000");
  });

  it("refuses an id that is not 1–128 of [A-Za-z0-9_-], and a timestamp that is not whole seconds", async () => {
    const secret = newSigningSecret();
    await expect(signDelivery({ id: "", timestamp: 1, body: "{}", secret })).rejects.toThrow();
    await expect(signDelivery({ id: "a.b", timestamp: 1, body: "{}", secret })).rejects.toThrow();
    await expect(signDelivery({ id: "a b", timestamp: 1, body: "{}", secret })).rejects.toThrow();
    await expect(signDelivery({ id: "a", timestamp: 1.5, body: "{}", secret })).rejects.toThrow();
    await expect(signDelivery({ id: "a", timestamp: -1, body: "{}", secret })).rejects.toThrow();
    await expect(signDelivery({ id: "a", timestamp: Date.now(), body: "{}", secret })).rejects.toThrow(/not milliseconds/);
  });
});

describe("X-Service-Signature: t=<timestamp>,v1=<hex HMAC-SHA256 of `timestamp.body`>", () => {
  it("equals an HMAC computed independently with crypto.subtle over `${timestamp}.${body}` (UTF-8) with the key bytes", async () => {
    const secret = newSigningSecret();
    const ts = 1793000000;
    const headers = await signDelivery({ id: "evt_1842", timestamp: ts, body: BODY, secret });
    const expected = hex(await independentHmac(secret, `${ts}.${BODY}`));
    expect(headers["X-Service-Signature"]).toBe(`t=${ts},v1=${expected}`);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    // The key is the decoded bytes, not the text of the secret.
    const textKey = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const wrong = hex(new Uint8Array(await crypto.subtle.sign("HMAC", textKey, new TextEncoder().encode(`${ts}.${BODY}`))));
    expect(headers["X-Service-Signature"]).not.toContain(wrong);
  });

  it("verifyServiceSignature accepts a fresh delivery and says why it rejects the others", async () => {
    const secret = newSigningSecret();
    const ts = 1793000000;
    const { "X-Service-Signature": header } = await signDelivery({ id: "evt_1842", timestamp: ts, body: BODY, secret });
    expect(await verifyServiceSignature({ header, body: BODY, secret, now: ts + 299 })).toEqual({ ok: true, timestamp: ts });
    expect(await verifyServiceSignature({ header, body: BODY, secret, now: ts - 299 })).toEqual({ ok: true, timestamp: ts });
    expect(await verifyServiceSignature({ header, body: BODY, secret, now: ts + 301 })).toEqual({ ok: false, reason: "too-old" });
    expect(await verifyServiceSignature({ header, body: BODY, secret, now: ts - 301 })).toEqual({ ok: false, reason: "too-new" });
    expect(await verifyServiceSignature({ header, body: BODY.replace("44", "45"), secret, now: ts })).toEqual({ ok: false, reason: "mismatch" });
    expect(await verifyServiceSignature({ header, body: BODY, secret: newSigningSecret(), now: ts })).toEqual({ ok: false, reason: "mismatch" });
    // The timestamp is signed: moving t breaks the signature.
    expect(await verifyServiceSignature({ header: header.replace(`t=${ts}`, `t=${ts + 1}`), body: BODY, secret, now: ts })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    for (const bad of ["", "v1=abc", `t=${ts}`, `t=${ts},v1=zz`, `t=x,${header.split(",")[1]}`, `t=${ts},t=${ts},${header.split(",")[1]}`]) {
      expect(await verifyServiceSignature({ header: bad, body: BODY, secret, now: ts })).toEqual({ ok: false, reason: "malformed" });
    }
    // Unknown entries are ignored (forward compatibility); upper-case hex is the same MAC.
    expect(await verifyServiceSignature({ header: `${header},v2=whatever`, body: BODY, secret, now: ts })).toMatchObject({ ok: true });
    expect(await verifyServiceSignature({ header: header.toUpperCase().replace("T=", "t=").replace("V1=", "v1="), body: BODY, secret, now: ts })).toMatchObject(
      { ok: true },
    );
  });
});

describe("rotation: both secrets sign for 24 h after a new one is issued", () => {
  it("is a grace, exported as a constant", () => {
    expect(ROTATION).toEqual({ policy: "dual-sign-grace", graceSeconds: 86_400 });
    expect(SIGNING_DOC).toContain("For 24 hours after that, each delivery is signed with both the new and the previous secret");
  });

  it("secretsForSigning: current first, the previous one only inside the grace", () => {
    const rotatedAt = 1793000000;
    const keys = { current: "whsec_new", previous: { secret: "whsec_old", rotatedAt } };
    expect(secretsForSigning(keys, rotatedAt)).toEqual(["whsec_new", "whsec_old"]);
    expect(secretsForSigning(keys, rotatedAt + 86_399)).toEqual(["whsec_new", "whsec_old"]);
    expect(secretsForSigning(keys, rotatedAt + 86_400)).toEqual(["whsec_new"]);
    expect(secretsForSigning({ current: "whsec_new" }, rotatedAt)).toEqual(["whsec_new"]);
    expect(secretsForSigning({ current: "whsec_new", previous: null }, rotatedAt)).toEqual(["whsec_new"]);
    expect(secretsForSigning({ current: "whsec_same", previous: { secret: "whsec_same", rotatedAt } }, rotatedAt)).toEqual(["whsec_same"]);
  });

  it("inside the grace a receiver holding either secret verifies, with the library and with X-Service-Signature", async () => {
    const oldSecret = newSigningSecret();
    const newSecret = newSigningSecret();
    const ts = nowSeconds();
    const secrets = secretsForSigning({ current: newSecret, previous: { secret: oldSecret, rotatedAt: ts - 3600 } }, ts);
    const headers = await signDelivery({ id: "evt_1842", timestamp: ts, body: BODY, secret: secrets });
    const [sigNew, sigOld, ...rest] = headers["webhook-signature"].split(" ");
    expect(rest).toEqual([]);
    expect(sigNew).toBe(`v1,${b64(await independentHmac(newSecret, `evt_1842.${ts}.${BODY}`))}`);
    expect(sigOld).toBe(`v1,${b64(await independentHmac(oldSecret, `evt_1842.${ts}.${BODY}`))}`);
    expect(headers["X-Service-Signature"]).toBe(
      `t=${ts},v1=${hex(await independentHmac(newSecret, `${ts}.${BODY}`))},v1=${hex(await independentHmac(oldSecret, `${ts}.${BODY}`))}`,
    );
    expect(new Webhook(newSecret).verify(BODY, headers)).toEqual(EVENT);
    expect(new Webhook(oldSecret).verify(BODY, headers)).toEqual(EVENT);
    expect(() => new Webhook(newSigningSecret()).verify(BODY, headers)).toThrow(/No matching signature/);
    for (const secret of [newSecret, oldSecret]) {
      expect(await verifyServiceSignature({ header: headers["X-Service-Signature"], body: BODY, secret, now: ts })).toMatchObject({ ok: true });
    }
  });

  it("after the grace only the new secret signs: the old one no longer verifies", async () => {
    const oldSecret = newSigningSecret();
    const newSecret = newSigningSecret();
    const ts = nowSeconds();
    const secrets = secretsForSigning({ current: newSecret, previous: { secret: oldSecret, rotatedAt: ts - 86_400 } }, ts);
    const headers = await signDelivery({ id: "evt_1842", timestamp: ts, body: BODY, secret: secrets });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(new Webhook(newSecret).verify(BODY, headers)).toEqual(EVENT);
    expect(() => new Webhook(oldSecret).verify(BODY, headers)).toThrow(/No matching signature/);
    expect(await verifyServiceSignature({ header: headers["X-Service-Signature"], body: BODY, secret: oldSecret, now: ts })).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });
});
