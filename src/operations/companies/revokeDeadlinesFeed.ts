import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { InputError, NotFoundError } from "../../shared/errors";
import { CompanyNumberQuery } from "../../app/companies/company";

export const revokeDeadlinesFeed = defineOperation({
  operationId: "revokeDeadlinesFeed",
  method: "delete",
  path: "/api/v1/deadlines/feed",
  family: "companies",
  title: "Switch off a deadlines calendar feed",
  summary: "Revokes the calendar feed (deadlines.ics) your key has for a company; free.",
  description: "The feed's address stops working at once (404). Asking for the company's deadlines again makes a new address. Free.",
  input: z.object({ company: CompanyNumberQuery }),
  output: z.object({ company: z.string(), revoked: z.literal(true) }).openapi("RevokedFeed"),
  price: 0,
  auth: "key",
  errors: ["not_found"],
  readOnly: false,
  example: { company: "01234567" },
  async handler({ company }, ctx) {
    const number = normaliseCompanyNumber(company);
    if (!number) throw new InputError("bad_request", "company must be a Companies House company number, e.g. 00445790 or SC123456", { field: "company" });
    const done = await ctx.services.calendarFeeds.revokeFeed(ctx.caller!.keyId, number, Math.floor(ctx.now.getTime() / 1000));
    if (!done) throw new NotFoundError("Your key has no live calendar feed for that company.", company);
    return { company: number, revoked: true as const };
  },
});
