import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { PLANS } from "../../platform/plans";
import { defineOperation } from "../../platform/registry";

export const getAccount = defineOperation({
  operationId: "getAccount",
  method: "get",
  path: "/api/v1/account",
  family: "account",
  title: "Account and balance",
  summary: "Your plan, this month's remaining credits and whether your contact details are verified.",
  description:
    "Free. Shows the key's plan, the credits left this month (the organisation pool's, where keys share one), when they reset, and whether the account's email and mobile are verified: only verified accounts see names of directors and persons with significant control (SPEC §1 rule 7).",
  input: z.object({}),
  output: z
    .object({
      keyId: z.string(),
      accountId: z.string(),
      plan: z.string(),
      monthlyCredits: z.number().int(),
      creditsRemaining: z.number().int(),
      pooled: z.boolean(),
      resetsOn: z.string(),
      canSeeNames: z.boolean(),
    })
    .openapi("Account"),
  price: 0,
  auth: "key",
  errors: [],
  readOnly: true,
  example: {},
  async handler(_input, ctx) {
    const caller = ctx.caller;
    if (!caller) throw new ApiError("missing_key", "A key is required.");
    const l = caller.ledger;
    const { remaining } = await ctx.services.ledger.peek(l.name, l.period, l.allowance, l.startingBalance);
    const [y, m] = l.period.split("-").map(Number);
    return {
      keyId: caller.keyId,
      accountId: caller.accountId,
      plan: caller.plan,
      monthlyCredits: PLANS[caller.plan].monthlyCredits,
      creditsRemaining: remaining,
      pooled: l.pooled,
      resetsOn: new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10),
      canSeeNames: caller.canSeeNames,
    };
  },
});
