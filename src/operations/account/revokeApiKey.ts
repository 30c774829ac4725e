import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";

/**
 * Revoking a key (SPEC §5.7, key lifetime and rotation "not shown": ours). Keys do not expire. To rotate a
 * key, sign up again with the same email and mobile (a new key on the same account and balance), then revoke
 * the old one here, with either key.
 */
export const revokeApiKey = defineOperation({
  operationId: "revokeApiKey",
  method: "delete",
  path: "/api/v1/account/keys",
  family: "account",
  title: "Revoke an API key",
  summary: "Disable one of your account's keys (this one or another); free.",
  description:
    "Free. Disables a key of the caller's account: the key sent (`keyId` omitted or its own id) or another key of the same account. A revoked key answers 401 `inactive_key` within a few seconds. Keys do not expire; to rotate one, sign up again with the same email and mobile for a new key on the same account (and balance), then revoke the old key. A key of another account is not found (404).",
  input: z.object({
    keyId: z
      .string()
      .trim()
      .max(40, "must be at most 40 characters")
      .regex(/^key_[A-Za-z0-9_-]+$/, "must be a key id such as key_AbC123")
      .optional()
      .describe("The id of the key to revoke (from sign-up or `GET /api/v1/account`); default: the key sent."),
  }),
  output: z.object({ keyId: z.string(), revoked: z.literal(true), activeKeysLeft: z.number().int() }).openapi("RevokedKey"),
  price: 0,
  auth: "key",
  errors: ["not_found"],
  readOnly: false,
  example: {},
  async handler({ keyId }, ctx) {
    const caller = ctx.caller;
    if (!caller) throw new ApiError("missing_key", "A key is required.");
    const target = keyId ?? caller.keyId;
    const left = await ctx.services.accounts.revokeAccountKey(caller.accountId, target);
    if (left === null) throw new ApiError("not_found", "Your account has no key with that id.", { query: target });
    return { keyId: target, revoked: true as const, activeKeysLeft: left };
  },
});
