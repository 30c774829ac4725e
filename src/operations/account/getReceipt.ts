import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";
import { RECEIPT_RETENTION_YEARS } from "../../services/receipts/claims";

export const getReceipt = defineOperation({
  operationId: "getReceipt",
  method: "get",
  path: "/api/v1/receipts/:id",
  family: "account",
  title: "A signed receipt",
  summary: "A check's signed receipt and the reply it covers, for a compliance file; free, your own account's only.",
  description: `Free. Every charged reply of a check (the register checks, licences-and-registers, idv-check, public-record, distress-signals and the company reports: accounts, charges, deadlines, ownership) carries a receipt in its \`x-receipt-id\` and \`x-receipt\` headers: a JWS (compact, EdDSA over Ed25519) signed by this service, whose payload names the receipt's id, the time, your account id (never your key), the request as the service read it, the SHA-256 of the reply's body exactly as sent, and the evidence the answer rests on (each register edition read, the file it was loaded from and that file's SHA-256; Companies House when it was read). This returns the receipt and the reply it covers, as they were kept. Receipts and their replies are kept for at least ${RECEIPT_RETENTION_YEARS} years; another account's receipt is not found (404).

**Verifying one** needs no call to this service beyond its public keys (\`/.well-known/jwks.json\`, kept for every key ever used, so old receipts verify after a key changes). With the \`jose\` package:

\`\`\`js
import * as jose from "jose";
const url = new URL("/.well-known/jwks.json", base);
const keys = jose.createRemoteJWKSet(url);
// throws if one byte of the receipt changed
const { payload } =
  await jose.compactVerify(receipt, keys);
const claims = JSON.parse(
  new TextDecoder().decode(payload));
const sum = await crypto.subtle.digest(
  "SHA-256", new TextEncoder().encode(body));
const hex = Buffer.from(sum).toString("hex");
// the reply kept must be the one it covers
if (hex !== claims.reply.digest.hex)
  throw new Error("not the reply signed");
\`\`\``,
  input: z.object({
    id: z
      .string()
      .regex(/^rcpt_[A-Za-z0-9_-]{10,40}$/, "must be a receipt id such as rcpt_AbC123…")
      .describe("The receipt's id (the `x-receipt-id` header of the reply it covers)."),
  }),
  output: z
    .object({
      id: z.string(),
      receipt: z.string().describe("The receipt: a compact JWS, to verify against /.well-known/jwks.json."),
      keyId: z.string().describe("The `kid` of the key that signed it."),
      createdAt: z.string(),
      keptUntil: z.string().describe(`At least this long (${RECEIPT_RETENTION_YEARS} years); nothing deletes receipts.`),
      operation: z.string(),
      reply: z.object({ contentType: z.string(), body: z.string().describe("The reply's body exactly as sent: its SHA-256 is the receipt's `reply.digest`.") }),
    })
    .openapi("Receipt"),
  price: 0,
  auth: "key",
  errors: ["not_found"],
  readOnly: true,
  example: { id: "rcpt_Example0123456789" },
  async handler({ id }, ctx) {
    const caller = ctx.caller;
    if (!caller) throw new ApiError("missing_key", "A key is required.");
    const row = await ctx.services.receipts.receiptOf(caller.accountId, id);
    if (!row) throw new ApiError("not_found", "Your account has no receipt with that id.", { query: id });
    const created = new Date(row.createdAt);
    const kept = new Date(created);
    kept.setUTCFullYear(kept.getUTCFullYear() + RECEIPT_RETENTION_YEARS);
    return {
      id: row.id,
      receipt: row.jws,
      keyId: row.kid,
      createdAt: created.toISOString(),
      keptUntil: kept.toISOString(),
      operation: row.operation,
      reply: { contentType: row.contentType, body: row.body },
    };
  },
});
