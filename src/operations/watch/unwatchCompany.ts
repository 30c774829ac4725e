import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { WatchCompany } from "../../app/watch/schemas";

export const unwatchCompany = defineOperation({
  operationId: "unwatchCompany",
  method: "delete",
  path: "/api/v1/watch",
  family: "watch",
  title: "Stop watching a company",
  summary: "Remove a company from your watch list; the events it produced stay in your feed.",
  description:
    "Free. Removes the watch, watched or paused (SPEC §3.1: → not watched). The events it produced stay in the feed, and deliveries already due are still made. Credits already taken for the month are not given back. A company you do not watch answers 404 with `query`.",
  input: z.object({ company: WatchCompany }),
  output: z.object({ company: z.string(), removed: z.literal(true) }).openapi("WatchRemoved"),
  price: 0,
  auth: "key",
  errors: ["not_found"],
  readOnly: false,
  example: { company: "12300001" },
  async handler({ company }, ctx) {
    const number = normaliseCompanyNumber(company);
    if (!number) throw new ApiError("bad_request", "`company` must be a company number such as 01234567 or SC123456.", { field: "company" });
    const removed = await ctx.services.watch.removeWatch(ctx.caller!.accountId, number);
    if (!removed) throw new ApiError("not_found", "You do not watch that company.", { query: company });
    return { company: number, removed: true as const };
  },
});
