import { z } from "@hono/zod-openapi";
import { PublishableKeyPattern } from "../../app/account/publishableKeys";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";

export const revokePublishableKey = defineOperation({
  operationId: "revokePublishableKey",
  method: "delete",
  path: "/api/v1/account/publishable-keys",
  family: "account",
  title: "Revoke a publishable key",
  summary: "Stop one of your publishable keys; free.",
  description:
    "Free. Revokes a publishable key of the caller's account: it answers 401 `invalid_key` on the logo image within a few seconds (pages using it fall back to the per-IP limit only if they drop the key). A key of another account is not found (404).",
  input: z.object({
    key: z.string().trim().regex(PublishableKeyPattern, "must be a publishable key such as pk_AbC123…").describe("The publishable key to revoke."),
  }),
  output: z.object({ key: z.string(), revoked: z.literal(true) }).openapi("RevokedPublishableKey"),
  price: 0,
  auth: "key",
  errors: ["not_found"],
  readOnly: false,
  example: { key: "pk_Example0123456789abcdef" },
  async handler({ key }, ctx) {
    const caller = ctx.caller;
    if (!caller) throw new ApiError("missing_key", "A key is required.");
    if (!(await ctx.services.publishableKeys.revokePublishableKey(caller.accountId, key, ctx.now.getTime())))
      throw new ApiError("not_found", "Your account has no live publishable key like that.", { query: key });
    return { key, revoked: true as const };
  },
});
