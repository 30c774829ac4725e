import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";

export const removeWatchWebhook = defineOperation({
  operationId: "removeWatchWebhook",
  method: "delete",
  path: "/api/v1/watch/webhook",
  family: "watch",
  title: "Remove your webhook",
  summary: "Stop posting events; deliveries not yet made are cancelled and every event stays in the feed.",
  description:
    "Free. Removes the webhook and its secrets. Deliveries not yet made (first attempts and retries) are cancelled; events keep `deliveredToWebhook` as it was and stay in the feed. No webhook set answers 404.",
  input: z.object({}),
  output: z.object({ removed: z.literal(true) }).openapi("WebhookRemoved"),
  price: 0,
  auth: "key",
  errors: ["not_found"],
  readOnly: false,
  example: {},
  async handler(_input, ctx) {
    if (!(await ctx.services.watch.removeWebhook(ctx.caller!.accountId))) throw new ApiError("not_found", "No webhook is set.", { query: "webhook" });
    return { removed: true as const };
  },
});
