import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { INPUT_LIMITS, WEBHOOK_URL_PATTERN } from "../../platform/schemas";
import { defineOperation } from "../../platform/registry";
import { DELIVERY_DOC } from "../../services/watch/delivery";
import { sealSecret } from "../../services/watch/seal";
import { SIGNING_DOC, newSigningSecret } from "../../services/watch/signing";
import { WebhookState, webhookStateOf } from "../../app/watch/webhook";

export const setWatchWebhook = defineOperation({
  operationId: "setWatchWebhook",
  method: "put",
  path: "/api/v1/watch/webhook",
  family: "watch",
  title: "Set your webhook",
  summary: "Set the https URL your watch events are posted to; the signing secret is returned once.",
  description: [
    "Free. Every event found from now on is posted to this URL, signed. The URL must be https, at most 500 characters, on port 443, 8443 (or 80/8080 refused as not https), with no user name or password, and its host must resolve only to public addresses: the same rules as every URL the service fetches, checked now and again at every delivery (DNS can change).",
    "The reply carries `secret`, **shown only this once**; we keep it sealed and cannot show it again. Setting the webhook again (the same URL or another) issues a new secret; the previous one keeps signing alongside it for 24 hours (`previousSecretSignsUntil`), so you can deploy the new one without failing checks. A webhook disabled by a 410 reply is enabled again by setting it. `Idempotency-Key` is not honoured here: the secret is never stored in the clear to replay a reply, so a repeated PUT issues another secret (use the last one returned).",
    "The body of a delivery is the Event exactly as the feed gives it at that moment (`id`, `company`, `seenAt`, `kind`, `summary`, `before`, `after`, `deliveredToWebhook`), so `deliveredToWebhook` is false in it: it becomes true in the feed once the delivery succeeds. The same event may arrive more than once (a retry whose success we could not record): drop repeats by `webhook-id`, which is `evt_<event id>`.",
    SIGNING_DOC,
    DELIVERY_DOC,
  ].join("\n\n"),
  input: z.object({
    // The pattern is the description's; the address check (services.webhooks.check) refuses what it does not match with
    // 400 `invalid_url` naming `url`, and a private address or local name with 422 `blocked_address`.
    url: z
      .string()
      .trim()
      .min(1, "is required")
      .max(INPUT_LIMITS.url.max, `must be at most ${INPUT_LIMITS.url.max} characters`)
      .openapi({ pattern: WEBHOOK_URL_PATTERN.source })
      .describe(
        `An https address, at most ${INPUT_LIMITS.url.max} characters, on port 443 or 8443, with no user name or password, whose host resolves only to public addresses, e.g. https://hooks.example.co.uk/ukbi. An address that is not https or not a URL is refused with 400 \`invalid_url\`; a private address or a local name with 422 \`blocked_address\`.`,
      ),
  }),
  output: WebhookState.extend({
    secret: z.string().describe("The signing secret, `whsec_` and base64: returned only now."),
    replaced: z.boolean().describe("True when this replaced a webhook (its secret rotated)."),
  }).openapi("WebhookSet"),
  price: 0,
  // The reply holds the secret in the clear: it is never stored to replay a repeated Idempotency-Key.
  replayable: false,
  auth: "key",
  errors: ["invalid_url", "blocked_address", "unreadable_input", "upstream_unavailable", "webhook_signing_unavailable"],
  readOnly: false,
  example: { url: "https://hooks.example.co.uk/ukbi" },
  async handler({ url }, ctx) {
    const key = ctx.services.webhooks.secretsKey;
    if (!key)
      throw new ApiError(
        "webhook_signing_unavailable",
        "Webhooks cannot be set just now: the service's key for sealing secrets is not configured. Nothing was changed.",
      );
    const checked = await ctx.services.webhooks.check(url);
    const secret = newSigningSecret();
    const rotatedAt = Math.floor(ctx.now.getTime() / 1000);
    const hook = await ctx.services.watch.setWebhook({
      accountId: ctx.caller!.accountId,
      url: checked.href,
      secret: await sealSecret(secret, key),
      rotatedAt,
      now: ctx.now.toISOString(),
    });
    return { ...webhookStateOf(hook, ctx.now), secret, replaced: hook.previous_secret !== null };
  },
});
