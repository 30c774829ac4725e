import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { INPUT_LIMITS } from "../../platform/schemas";
import { UpstreamError } from "../../shared/errors";
import { type Enriched, enrich } from "../../app/enrichment/enrich";
import { BusinessProfile, Location, Q } from "../../app/enrichment/schemas";
import { ENRICH_PRICE, LIVE_STATUS_RULE, MATCHING_RULES } from "../../app/enrichment/rules";

/** Items enriched at once: each reads up to three pages at a time, so at most 12 of the business sites' pages are in flight. */
export const BATCH_CONCURRENCY = 4;

const Item = z
  .object({
    index: z.number().int().describe("The item's place in `items` (0-based): results are in input order."),
    q: z.string().describe("The item as given."),
    found: z.boolean().describe("The business was identified (as enrich's `profile.found`); false for a miss or an item that could not be read."),
    profile: BusinessProfile.nullable().describe("The profile, exactly as enrich gives it; null when the item could not be read."),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .describe("Why the item could not be read (an upstream of ours failed for it): `upstream_unavailable`; null otherwise."),
    creditsRefunded: z.number().int().describe("Credits given back for this item: 2 for a miss or an item that could not be read, else 0."),
  })
  .openapi("BatchItem");

const Output = z
  .object({
    query: z
      .object({
        items: z.array(z.string()).describe("The items as read (each trimmed), in input order, repeats kept: `results[i].q` is `items[i]`."),
        location: z.string().optional().describe("The location as given, when one was."),
      })
      .describe("What was asked (SPEC §2.1: a reply echoes its query under `query`)."),
    ms: z.number().int(),
    results: z.array(Item).describe("One per item, in input order."),
    creditsCharged: z.number().int().describe("Charged up front, in one atomic consumption: 2 per item."),
    creditsRefunded: z
      .number()
      .int()
      .describe(
        "Given back: items not found or not readable. The headers say the same amount: `x-credits-refunded` once the ledger has confirmed it, or `x-credits-refund-pending` when the ledger was too slow to confirm it before the reply (it is then given back shortly, once).",
      ),
    creditsUsed: z.number().int().describe("Charged less refunded."),
  })
  .openapi("BatchEnrichResponse");

export const enrichBatch = defineOperation({
  operationId: "enrichBatch",
  method: "post",
  path: "/api/v1/batch",
  family: "enrichment",
  title: "Enrich a batch",
  summary: "Up to 25 names, domains or company numbers enriched in one call, in input order, with one atomic charge and refunds for misses.",
  description: [
    "Enriches each item exactly as `GET /api/v1/enrich` does (SPEC §2.2), four at a time, and answers the results in input order.",
    "",
    "**Credits.** One atomic consumption of 2 credits per item before any work: a balance short of the whole batch is a 429 and nothing is done (SPEC §4.1). Every item that is a miss (`found: false`) or could not be read (an upstream of ours failed for it: `error`) is given back: `creditsRefunded` says how many, and so does the `x-credits-refunded` header (or `x-credits-refund-pending`, when the credit ledger was too slow to confirm the refund before the reply: it is then given back shortly, once); `creditsUsed` what the batch cost. If every item failed because an upstream of ours was down, the call is a 503 and all credits come back.",
    "",
    "`location` applies to every item. Identical items are read once. `query` echoes the items as read, in input order.",
    "",
    MATCHING_RULES,
    "",
    LIVE_STATUS_RULE,
  ].join("\n"),
  input: z.object({
    items: z
      .array(Q)
      .min(1, `must have 1 to ${INPUT_LIMITS.items.max} entries`)
      .max(INPUT_LIMITS.items.max, `must have 1 to ${INPUT_LIMITS.items.max} entries`)
      .describe("Company names, domains or company numbers: 1 to 25.")
      .openapi({ example: ["harbourside-legal.co.uk", "Castle Brook Legal"] }),
    location: Location.openapi({ example: "Chester" }),
  }),
  output: Output,
  price: {
    rule: `${ENRICH_PRICE} credits per item, charged at once for the whole batch; misses and unreadable items given back`,
    credits: (input) => ENRICH_PRICE * input.items.length,
  },
  auth: "key",
  errors: ["upstream_unavailable"],
  readOnly: true,
  timeoutMs: 150_000,
  example: { items: ["harbourside-legal.co.uk", "Castle Brook Legal"], location: "Chester" },
  async handler({ items, location }, ctx) {
    const started = Date.now();
    // Identical items are read once (their order kept).
    const distinct = [...new Set(items.map((q) => q.trim()))];
    const outcome = new Map<string, { ok: Enriched } | { failed: UpstreamError }>();
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(BATCH_CONCURRENCY, distinct.length) }, async () => {
        while (next < distinct.length) {
          const q = distinct[next++];
          try {
            outcome.set(q, { ok: await enrich(ctx, q, location) });
          } catch (e) {
            if (!(e instanceof UpstreamError)) throw e;
            outcome.set(q, { failed: e });
          }
        }
      }),
    );
    const failures = [...outcome.values()].flatMap((o) => ("failed" in o ? [o.failed] : []));
    if (failures.length === outcome.size) throw failures[0];
    const results = items.map((q, index) => {
      const o = outcome.get(q.trim())!;
      if ("failed" in o)
        return { index, q, found: false, profile: null, error: { code: "upstream_unavailable", message: o.failed.message }, creditsRefunded: ENRICH_PRICE };
      const found = o.ok.profile.found;
      return { index, q, found, profile: o.ok.profile, error: null, creditsRefunded: found ? 0 : ENRICH_PRICE };
    });
    const charged = ENRICH_PRICE * items.length;
    const refunded = results.reduce((s, r) => s + r.creditsRefunded, 0);
    if (refunded) ctx.refund(refunded);
    return {
      query: { items, ...(location ? { location } : {}) },
      ms: Date.now() - started,
      results,
      creditsCharged: charged,
      creditsRefunded: refunded,
      creditsUsed: charged - refunded,
    };
  },
});
