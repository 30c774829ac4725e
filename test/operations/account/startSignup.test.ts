import { describe, expect, it } from "vitest";
import { SIGNUP_LIMITS } from "../../../src/operations/account/startSignup";
import { json, startSignup, uniqueContact } from "../../helpers";

describe("SPEC §5.3 sign-up limits: startSignup", () => {
  it(`SPEC §5.3 sign-up limit per address: the ${SIGNUP_LIMITS.perAddress + 1}th sign-up for one email in an hour → 429`, async () => {
    const { email } = uniqueContact();
    for (let i = 0; i < SIGNUP_LIMITS.perAddress; i++) expect((await startSignup({ ...uniqueContact(), email })).reply.status).toBe(201);
    const r = (await startSignup({ ...uniqueContact(), email })).reply;
    expect([r.status, (await json(r)).code]).toEqual([429, "rate_limited"]);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it(`SPEC §5.3 sign-up limit per mobile number: the ${SIGNUP_LIMITS.perAddress + 1}th for one number in an hour → 429`, async () => {
    const { mobile } = uniqueContact();
    for (let i = 0; i < SIGNUP_LIMITS.perAddress; i++) expect((await startSignup({ ...uniqueContact(), mobile })).reply.status).toBe(201);
    expect((await startSignup({ ...uniqueContact(), mobile })).reply.status).toBe(429);
  });

  it(`SPEC §5.3 sign-up limit per IP: the ${SIGNUP_LIMITS.perIp + 1}th from one address in an hour → 429`, async () => {
    const { ip } = uniqueContact();
    for (let i = 0; i < SIGNUP_LIMITS.perIp; i++) expect((await startSignup({ ...uniqueContact(), ip })).reply.status).toBe(201);
    expect((await startSignup({ ...uniqueContact(), ip })).reply.status).toBe(429);
  });
});
