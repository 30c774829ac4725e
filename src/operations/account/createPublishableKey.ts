import { z } from "@hono/zod-openapi";
import { MAX_PUBLISHABLE_KEYS, Origins, PublishableKey, publishableKeyReply } from "../../app/account/publishableKeys";
import { newPublishableKey } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { Reply, defineOperation } from "../../platform/registry";

export const createPublishableKey = defineOperation({
  operationId: "createPublishableKey",
  method: "post",
  path: "/api/v1/account/publishable-keys",
  family: "account",
  title: "Create a publishable key",
  summary: "A key for page source (pk_…), for the logo image only, from the origins you name; free.",
  description: `Free. Makes a publishable key for \`<img>\` tags in your pages: \`/api/v1/company-logo/image?domain=…&key=pk_…\`. Unlike your secret key it may sit in page source: it works only on the logo image, only from pages on the origins named here (the browser's Origin or Referer header is checked), and spends no credits. It raises the logo image's limit from the per-IP one to its own. At most ${MAX_PUBLISHABLE_KEYS} live keys an account; revoke one with DELETE. Never put a secret key in a page: the logo image refuses it.`,
  input: z.object({
    origins: Origins.openapi({ example: ["https://www.example.co.uk", "http://localhost:3000"] }),
    label: z.string().trim().max(80, "must be at most 80 characters").optional().describe("A name for the key, for your own list."),
  }),
  output: PublishableKey,
  successStatus: 201,
  price: 0,
  auth: "key",
  errors: ["key_limit_reached"],
  readOnly: false,
  example: { origins: ["https://www.example.co.uk"], label: "Supplier table" },
  async handler({ origins, label }, ctx) {
    const caller = ctx.caller;
    if (!caller) throw new ApiError("missing_key", "A key is required.");
    const store = ctx.services.publishableKeys;
    const live = (await store.publishableKeysOf(caller.accountId)).filter((k) => k.revokedAt === null);
    if (live.length >= MAX_PUBLISHABLE_KEYS)
      throw new ApiError("key_limit_reached", `Your account already holds ${MAX_PUBLISHABLE_KEYS} live publishable keys; revoke one first.`);
    const row = { key: newPublishableKey(), accountId: caller.accountId, origins, label: label || null, createdAt: ctx.now.getTime() };
    await store.createPublishableKey(row);
    return new Reply(publishableKeyReply({ ...row, revokedAt: null }), { status: 201 });
  },
});
