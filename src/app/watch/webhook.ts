import { z } from "@hono/zod-openapi";
import type { WebhookRow } from "../../services/watch/records";
import { ROTATION } from "../../services/watch/signing";

export const WebhookState = z
  .object({
    url: z.string(),
    setAt: z.string(),
    disabled: z
      .object({ since: z.string(), reason: z.string() })
      .nullable()
      .describe("Set when a delivery was answered 410 Gone: no deliveries until the webhook is set again."),
    previousSecretSignsUntil: z
      .string()
      .nullable()
      .describe("While the secret the last PUT replaced still signs deliveries too (24 hours after the rotation)."),
  })
  .openapi("WebhookState");

export function webhookStateOf(
  h: Pick<WebhookRow, "url" | "set_at" | "disabled_at" | "disabled_reason" | "previous_secret" | "rotated_at">,
  now: Date,
): z.infer<typeof WebhookState> {
  const until = (h.rotated_at + ROTATION.graceSeconds) * 1000;
  return {
    url: h.url,
    setAt: h.set_at,
    disabled: h.disabled_at ? { since: h.disabled_at, reason: h.disabled_reason ?? "disabled" } : null,
    previousSecretSignsUntil: h.previous_secret && until > now.getTime() ? new Date(until).toISOString() : null,
  };
}
