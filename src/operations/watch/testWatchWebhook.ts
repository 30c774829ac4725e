import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";
import { outcomeOf } from "../../services/watch/delivery";
import { testEvent } from "../../services/watch/feed";
import { signingSecretsOf } from "../../services/watch/seal";
import { signDelivery } from "../../services/watch/signing";
import { newId } from "../../platform/crypto";

export const testWatchWebhook = defineOperation({
  operationId: "testWatchWebhook",
  method: "post",
  path: "/api/v1/watch/webhook/test",
  family: "watch",
  title: "Send a test event",
  summary: "Post a signed test event to your webhook now and see what it answered.",
  description:
    "Free. Posts an event of kind `test` (id 0, company 00000000; never in the feed) to your webhook, signed exactly as a real delivery (its `webhook-id` starts `test_`), through the same address rules, and answers with what happened: `delivered` (a 2xx within 15 seconds), the status, or the error. It is not retried and never disables the webhook, even on 410. No webhook set answers 404.",
  input: z.object({}),
  output: z
    .object({
      delivered: z.boolean(),
      status: z.number().int().nullable().describe("The receiver's HTTP status; null when there was no reply."),
      error: z
        .string()
        .nullable()
        .describe("Why it was not delivered: the status, a timeout, a network error, a refused address, or a redirect (never followed)."),
      webhookId: z.string(),
      durationMs: z.number().int(),
    })
    .openapi("WebhookTest"),
  price: 0,
  auth: "key",
  errors: ["not_found", "webhook_signing_unavailable"],
  readOnly: false,
  timeoutMs: 25_000,
  example: {},
  async handler(_input, ctx) {
    const hook = await ctx.services.watch.webhookOf(ctx.caller!.accountId);
    if (!hook) throw new ApiError("not_found", "No webhook is set: PUT /api/v1/watch/webhook sets one.", { query: "webhook" });
    const key = ctx.services.webhooks.secretsKey;
    if (!key) throw new ApiError("webhook_signing_unavailable", "The service's key for webhook secrets is not configured, so nothing can be signed.");
    const started = Date.now();
    const ts = Math.floor(ctx.now.getTime() / 1000);
    const webhookId = newId("test");
    const body = JSON.stringify(testEvent(ctx.now));
    const headers = await signDelivery({ id: webhookId, timestamp: ts, body, secret: await signingSecretsOf(hook, key, ts) });
    const r = await ctx.services.webhooks.post(hook.url, body, { ...headers });
    const outcome = outcomeOf({ ...r, attempt: 0, now: ctx.now.getTime() });
    const delivered = outcome.kind === "delivered";
    return {
      delivered,
      status: r.status ?? null,
      error: delivered
        ? null
        : r.error
          ? `${r.error}: ${r.reason}`
          : `HTTP ${r.status}${r.status! >= 300 && r.status! < 400 ? ": redirects are not followed" : ""}`,
      webhookId,
      durationMs: Date.now() - started,
    };
  },
});
