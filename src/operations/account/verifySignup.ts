import { z } from "@hono/zod-openapi";
import { newApiKey, newId, safeEqual, sha256Hex } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { PLANS } from "../../platform/plans";
import { Reply, defineOperation } from "../../platform/registry";
import { codeHash } from "../../app/account/signupCodes";

/** Active keys one account may hold; all of them share the account's one balance and burst window. */
export const MAX_KEYS_PER_ACCOUNT = 5;

const MAX_ATTEMPTS = 5;

export const verifySignup = defineOperation({
  operationId: "verifySignup",
  method: "post",
  path: "/api/v1/signup/verify",
  family: "account",
  title: "Verify sign-up",
  summary: "Finish sign-up with both codes; issues your API key and shows it once.",
  description: `Send the challenge id and the two codes from \`POST /api/v1/signup\`. On success the account's email and mobile are recorded as verified and a new key is issued on the free plan (${PLANS.free.monthlyCredits} credits a month). The key is shown only in this reply: store it. A challenge allows ${MAX_ATTEMPTS} attempts. **One person, one allowance:** a verified email or mobile the service already knows signs in to that account and adds a key to it; every key of an account draws on the account's one balance and shares its burst ceiling, so signing up again never adds credits. An account holds at most ${MAX_KEYS_PER_ACCOUNT} active keys (409 \`key_limit_reached\` beyond). Keys do not expire; to rotate one, sign up again with the same email and mobile for a new key, then disable the old one.`,
  input: z.object({
    challengeId: z.string().max(64).openapi({ example: "chl_AbCdEf123456" }),
    emailCode: z
      .string()
      .regex(/^\d{6}$/, "must be the six-digit code")
      .openapi({ example: "123456" }),
    mobileCode: z
      .string()
      .regex(/^\d{6}$/, "must be the six-digit code")
      .openapi({ example: "654321" }),
  }),
  output: z
    .object({
      apiKey: z.string().describe("Shown once. Send it as x-api-key."),
      keyId: z.string(),
      accountId: z.string(),
      plan: z.string(),
      monthlyCredits: z.number().int(),
      verified: z.object({ email: z.boolean(), mobile: z.boolean() }),
      newAccount: z.boolean().describe("false when the email or mobile already had an account: the key joins it and shares its balance (no new allowance)."),
    })
    .openapi("IssuedKey"),
  price: 0,
  successStatus: 201,
  auth: "keyless",
  errors: ["unverified", "key_limit_reached"],
  readOnly: false,
  example: { challengeId: "chl_AbCdEf123456", emailCode: "123456", mobileCode: "654321" },
  async handler(input, ctx) {
    const store = ctx.services.accounts;
    const now = Math.floor(ctx.now.getTime() / 1000);
    // Count the attempt first, atomically, so guesses are limited even when sent in parallel.
    const ch = await store.attemptChallenge(input.challengeId, now, MAX_ATTEMPTS);
    if (!ch) throw new ApiError("unverified", "That challenge is unknown, expired, already used or out of attempts. Start again with POST /api/v1/signup.");
    const emailOk = safeEqual(await codeHash(input.challengeId, input.emailCode), ch.email_code_hash);
    const mobileOk = safeEqual(await codeHash(input.challengeId, input.mobileCode), ch.mobile_code_hash);
    if (!emailOk || !mobileOk)
      throw new ApiError(
        "unverified",
        `The ${!emailOk && !mobileOk ? "email and mobile codes do" : !emailOk ? "email code does" : "mobile code does"} not match.`,
        {
          field: !emailOk ? "emailCode" : "mobileCode",
        },
      );
    if (!(await store.useChallenge(input.challengeId, now))) throw new ApiError("unverified", "That challenge was already used.");

    // One person, one account: a verified email or mobile already known signs in to that account (its one balance),
    // it never opens a second free allowance.
    const existing = await store.accountByContact(ch.email, ch.mobile);
    if (existing) {
      if ((await store.activeKeyCount(existing.id)) >= MAX_KEYS_PER_ACCOUNT)
        throw new ApiError(
          "key_limit_reached",
          `This account already holds ${MAX_KEYS_PER_ACCOUNT} active keys, which all share its one balance; disable one (npm run key -- disable <key>, or ask us) before adding another.`,
        );
    }
    const accountId = existing?.id ?? newId("acc");
    const apiKey = newApiKey();
    const keyId = newId("key");
    await store.issueKey({
      accountId,
      existing: !!existing,
      email: ch.email,
      mobile: ch.mobile,
      now,
      keyId,
      keyHash: await sha256Hex(apiKey),
      prefix: apiKey.slice(0, 9),
    });
    const plan = existing?.plan ?? "free";
    return new Reply(
      {
        apiKey,
        keyId,
        accountId,
        plan,
        monthlyCredits: PLANS[plan as keyof typeof PLANS]?.monthlyCredits ?? PLANS.free.monthlyCredits,
        verified: { email: true, mobile: true },
        newAccount: !existing,
      },
      { status: 201 },
    );
  },
});
