import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";
import { WebhookState, webhookStateOf } from "../../app/watch/webhook";

export const getWatchWebhook = defineOperation({
  operationId: "getWatchWebhook",
  method: "get",
  path: "/api/v1/watch/webhook",
  family: "watch",
  title: "Your webhook",
  summary: "The webhook your events are posted to, whether it is disabled, and your deliveries by state (never the secret).",
  description:
    "Free. The URL, when it was set, whether a 410 reply disabled it, until when the previous secret still signs, and your events' deliveries counted by state: pending (an attempt or retry to come), delivered, failed (five retries used, or a 410) and cancelled (the webhook was removed or disabled before they were made). The secret is never shown again. No webhook set answers 404.",
  input: z.object({}),
  output: WebhookState.extend({
    deliveries: z.object({ pending: z.number().int(), delivered: z.number().int(), failed: z.number().int(), cancelled: z.number().int() }),
  }).openapi("Webhook"),
  price: 0,
  auth: "key",
  errors: ["not_found"],
  readOnly: true,
  example: {},
  async handler(_input, ctx) {
    const accountId = ctx.caller!.accountId;
    const hook = await ctx.services.watch.webhookOf(accountId);
    if (!hook) throw new ApiError("not_found", "No webhook is set: PUT /api/v1/watch/webhook sets one.", { query: "webhook" });
    return { ...webhookStateOf(hook, ctx.now), deliveries: await ctx.services.watch.deliveryCounts(accountId) };
  },
});
