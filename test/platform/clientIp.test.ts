import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { SIGNUP_LIMITS } from "../../src/operations/account/startSignup";
import { LOGO_IP_LIMIT } from "../../src/operations/web/companyLogo";
import { buildApp } from "../../src/platform/app";
import { call, json, uniqueContact } from "../helpers";

/**
 * Issue 29 §3: per-IP limits can't be walked around. The caller's address comes only from the header the configuration
 * trusts (TRUST_CLIENT_IP_HEADER: cf-connecting-ip in wrangler.toml, as on Cloudflare; empty under npm start), and an
 * address is limited by its bucket: one per IPv4 address in any notation, one per IPv6 /64 (sign-up: /48).
 */

const app = buildApp();

// The "log" message provider prints every code sent; nothing here reads them.
beforeAll(() => {
  vi.spyOn(console, "log").mockImplementation(() => {});
});

/** Calls the Worker as a deployment that trusts no header (npm start, a self-hosted workerd). */
async function untrusted(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const r = await app.fetch(new Request(`http://api.test${path}`, init), { ...env, TRUST_CLIENT_IP_HEADER: "" }, ctx);
  await waitOnExecutionContext(ctx);
  return r;
}

const signupBody = () => {
  const c = uniqueContact();
  return JSON.stringify({ email: c.email, mobile: c.mobile });
};

const random16 = () => crypto.getRandomValues(new Uint16Array(1))[0].toString(16);

/** The limit counts in fixed one-minute windows: start early in a window so a burst cannot straddle two. */
async function earlyInMinute() {
  const into = Date.now() % 60_000;
  if (into > 45_000) await new Promise((r) => setTimeout(r, 60_000 - into + 50));
}

describe("issue 29 §3: no header is believed unless the configuration names it", () => {
  // Each test starts with an empty shared `unknown` allowance.
  beforeEach(async () => {
    await env.DB.prepare("DELETE FROM upstream_budget WHERE source LIKE '%:unknown'").run();
  });

  it(`untrusted: ${SIGNUP_LIMITS.perIp} sign-ups, then a fresh cf-connecting-ip, x-real-ip or x-forwarded-for each time → 429 all the same`, async () => {
    const post = (headers: Record<string, string>) =>
      untrusted("/api/v1/signup", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: signupBody() });
    const spoofs = (i: number): Record<string, string>[] => [
      { "cf-connecting-ip": `203.0.113.${i}` },
      { "x-real-ip": `198.51.100.${i}` },
      { "x-forwarded-for": `192.0.2.${i}` },
      { "cf-connecting-ip": `2001:db8:${i}::1`, "x-real-ip": `2001:db8:${i}::2` },
    ];
    const statuses: number[] = [];
    for (let i = 0; i < SIGNUP_LIMITS.perIp + 4; i++) statuses.push((await post(spoofs(i + 1)[i % 4])).status);
    expect(statuses).toEqual([...Array(SIGNUP_LIMITS.perIp).fill(201), 429, 429, 429, 429]);
  });

  it("untrusted: company-logo past its limit stays limited whatever address header is sent", async () => {
    await earlyInMinute();
    const logo = (headers: HeadersInit = {}) => untrusted("/api/v1/company-logo?domain=logo.test", { headers });
    for (let i = 0; i < LOGO_IP_LIMIT.limit; i++) {
      const r = await logo({ "cf-connecting-ip": `203.0.113.${i + 1}` });
      expect(r.status, `call ${i + 1}`).toBe(200);
      await r.body?.cancel();
    }
    const headers: Record<string, string>[] = [
      {},
      { "cf-connecting-ip": "203.0.113.200" },
      { "x-real-ip": "198.51.100.200" },
      { "x-forwarded-for": "192.0.2.200" },
    ];
    for (const h of headers) {
      const r = await logo(h);
      expect(r.status, JSON.stringify(h)).toBe(429);
      expect((await json(r)).code).toBe("rate_limited");
    }
  });

  it("trusted cf-connecting-ip (wrangler.toml): x-real-ip is not read in its place", async () => {
    // No cf-connecting-ip: the caller's address is unknown, whatever x-real-ip says; the unknown bucket fills.
    const statuses: number[] = [];
    for (let i = 0; i < SIGNUP_LIMITS.perIp + 2; i++)
      statuses.push(
        (
          await call("/api/v1/signup", {
            method: "POST",
            headers: { "content-type": "application/json", "x-real-ip": `198.51.100.${i + 1}` },
            body: signupBody(),
          })
        ).status,
      );
    expect(statuses).toEqual([...Array(SIGNUP_LIMITS.perIp).fill(201), 429, 429]);
  });
});

describe("issue 29 §3: an address is limited by its bucket (trusted header, as in production)", () => {
  const logo = (ip: string) => call("/api/v1/company-logo?domain=logo.test", { headers: { "cf-connecting-ip": ip } });

  it(`company-logo: ${LOGO_IP_LIMIT.limit} lookups from addresses of one IPv6 /64, then any other address of it → 429; the next /64 is served`, async () => {
    await earlyInMinute();
    const net = `2001:db8:${random16()}:${random16()}`;
    for (let i = 0; i < LOGO_IP_LIMIT.limit; i++) {
      const r = await logo(`${net}::${(i + 1).toString(16)}`);
      expect(r.status, `call ${i + 1}`).toBe(200);
      await r.body?.cancel();
    }
    for (const ip of [`${net}::ffff`, `${net}:ffff:ffff:ffff:ffff`, `[${net}::1]`, `${net.toUpperCase()}:0:0:0:99`])
      expect((await logo(ip)).status, ip).toBe(429);
    const next = `2001:db8:${random16()}:${random16()}::1`;
    expect((await logo(next)).status).toBe(200);
  });

  it("company-logo: every notation of one IPv4 address is one allowance (mapped IPv6, hex, one number, spaces)", async () => {
    await earlyInMinute();
    const last = crypto.getRandomValues(new Uint8Array(1))[0];
    const ip = `198.18.7.${last}`;
    const notations = [
      ip,
      ` ${ip}`,
      `::ffff:${ip}`,
      `::ffff:c612:7${last.toString(16).padStart(2, "0")}`,
      `0xc6.0x12.0x7.${last}`,
      String(((198 << 24) | (18 << 16) | (7 << 8) | last) >>> 0),
    ];
    for (let i = 0; i < LOGO_IP_LIMIT.limit; i++) {
      const r = await logo(notations[i % notations.length]);
      expect(r.status, `call ${i + 1} as ${notations[i % notations.length]}`).toBe(200);
      await r.body?.cancel();
    }
    for (const n of notations) expect((await logo(n)).status, n).toBe(429);
  });

  it(`sign-up: ${SIGNUP_LIMITS.perIp} from one IPv6 /48 (different /64s), then a 6th from it → 429; another /48 → 201`, async () => {
    const net = `2001:db8:${random16()}`;
    const post = (ip: string) =>
      call("/api/v1/signup", { method: "POST", headers: { "content-type": "application/json", "cf-connecting-ip": ip }, body: signupBody() });
    const statuses: number[] = [];
    for (let i = 0; i < SIGNUP_LIMITS.perIp + 1; i++) statuses.push((await post(`${net}:${(i + 1).toString(16)}::1`)).status);
    expect(statuses).toEqual([...Array(SIGNUP_LIMITS.perIp).fill(201), 429]);
    expect((await post(`2001:db8:${random16()}::1`)).status).toBe(201);
  });
});
