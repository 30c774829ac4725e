import { z } from "@hono/zod-openapi";
import { newCode, newId } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { Reply, defineOperation } from "../../platform/registry";
import { EMAIL_PATTERN, MOBILE_PATTERN } from "../../platform/schemas";
import { addressBucket } from "../../services/net/clientBucket";
import { maskEmail, maskMobile, normaliseEmail, normaliseMobile } from "../../services/account/contact";
import { codeHash } from "../../app/account/signupCodes";

export const CODE_TTL_SECONDS = 15 * 60;
/** Sign-up limits: per IP 5 an hour; per email address and per mobile number 3 an hour. */
export const SIGNUP_LIMITS = { perIp: 5, perAddress: 3, windowSeconds: 3600 };

/** Codes are stored hashed, salted with their challenge id. */

export const startSignup = defineOperation({
  operationId: "startSignup",
  method: "post",
  path: "/api/v1/signup",
  family: "account",
  title: "Sign up",
  summary: "Start sign-up: sends a code to the email address and another to the mobile.",
  description: `Keys are free (100 credits a month) and need a verified email and mobile (SPEC §5.3). This call sends a six-digit code to each; send both to \`POST /api/v1/signup/verify\` within ${CODE_TTL_SECONDS / 60} minutes to get your key. Limited to ${SIGNUP_LIMITS.perIp} sign-ups an hour per IP address (IPv6: per /48 network) and ${SIGNUP_LIMITS.perAddress} per email address or mobile number.`,
  input: z.object({
    // The patterns are what the handler's checks (normaliseEmail, normaliseMobile) take, so the description says exactly that.
    email: z
      .string()
      .trim()
      .max(254, "must be at most 254 characters")
      .regex(EMAIL_PATTERN, "must be an email address such as dev@example.co.uk")
      .openapi({ example: "dev@example.co.uk", format: "email", maxLength: 254 })
      .describe("Your email address (a plain address: no quoted local part or IP address literal)."),
    mobile: z
      .string()
      .trim()
      .max(20, "must be at most 20 characters")
      .regex(MOBILE_PATTERN, "must be a mobile number: a UK mobile (07…, +447… or 00447…) or another country's number as + and its digits")
      .openapi({ example: "07700900123", maxLength: 20 })
      .describe(
        "Your mobile number: a UK mobile (07700 900123, +44 7700 900123 or 0044 7700 900123) or another country's number in international form (+ and 8 to 15 digits, e.g. +1 (415) 555-0100); between two digits, one space, dot or hyphen, or a bracket.",
      ),
  }),
  output: z
    .object({
      challengeId: z.string(),
      expiresAt: z.string(),
      sentTo: z.object({ email: z.string(), mobile: z.string() }),
      next: z.string(),
    })
    .openapi("SignupChallenge"),
  price: 0,
  successStatus: 201,
  auth: "keyless",
  errors: ["rate_limited", "upstream_unavailable"],
  readOnly: false,
  example: { email: "dev@example.co.uk", mobile: "07700900123" },
  async handler(input, ctx) {
    const email = normaliseEmail(input.email);
    if (!email) throw new ApiError("bad_request", "`email` is not a valid email address.", { field: "email" });
    const mobile = normaliseMobile(input.mobile);
    if (!mobile) throw new ApiError("bad_request", "`mobile` is not a valid mobile number (UK 07… or international +…).", { field: "mobile" });
    const now = ctx.now.getTime();
    for (const [bucket, limit] of [
      [`signup:ip:${addressBucket(ctx.ip, 48)}`, SIGNUP_LIMITS.perIp],
      [`signup:email:${email}`, SIGNUP_LIMITS.perAddress],
      [`signup:mobile:${mobile}`, SIGNUP_LIMITS.perAddress],
    ] as const) {
      const r = await ctx.services.limits.take(bucket, limit, SIGNUP_LIMITS.windowSeconds, now);
      if (!r.ok) throw new ApiError("rate_limited", "Too many sign-up attempts; retry later.", { retryAfter: r.retryAfterSeconds });
    }
    const id = newId("chl");
    const emailCode = newCode();
    const mobileCode = newCode();
    const expiresAt = Math.floor(now / 1000) + CODE_TTL_SECONDS;
    await ctx.services.accounts.createChallenge({
      id,
      email,
      mobile,
      emailCodeHash: await codeHash(id, emailCode),
      mobileCodeHash: await codeHash(id, mobileCode),
      expiresAt,
    });
    const messenger = ctx.services.messenger;
    try {
      await messenger.sendEmail(email, "Your UK Business Intelligence API code", `Your email code is ${emailCode}. It expires in 15 minutes.`);
      await messenger.sendSms(mobile, `UK Business Intelligence API code: ${mobileCode} (expires in 15 minutes)`);
    } catch (e) {
      throw new ApiError("upstream_unavailable", `The verification code could not be sent (${(e as Error).message}); retry shortly.`);
    }
    return new Reply(
      {
        challengeId: id,
        expiresAt: new Date(expiresAt * 1000).toISOString(),
        sentTo: { email: maskEmail(email), mobile: maskMobile(mobile) },
        next: "POST /api/v1/signup/verify with challengeId, emailCode and mobileCode.",
      },
      { status: 201 },
    );
  },
});
