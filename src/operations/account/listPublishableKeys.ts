import { z } from "@hono/zod-openapi";
import { PublishableKey, publishableKeyReply } from "../../app/account/publishableKeys";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";

export const listPublishableKeys = defineOperation({
  operationId: "listPublishableKeys",
  method: "get",
  path: "/api/v1/account/publishable-keys",
  family: "account",
  title: "Publishable keys",
  summary: "Your account's publishable keys (pk_…), live first; free.",
  description: "Free. Lists the account's publishable keys with their origins, live ones first and newest first; revoked ones show when.",
  input: z.object({}),
  output: z.object({ keys: z.array(PublishableKey) }).openapi("PublishableKeys"),
  price: 0,
  auth: "key",
  errors: [],
  readOnly: true,
  example: {},
  async handler(_input, ctx) {
    const caller = ctx.caller;
    if (!caller) throw new ApiError("missing_key", "A key is required.");
    return { keys: (await ctx.services.publishableKeys.publishableKeysOf(caller.accountId)).map(publishableKeyReply) };
  },
});
