import { z } from "@hono/zod-openapi";
import { newCapabilityToken } from "../../platform/crypto";
import { readDeadlines } from "../../app/companies/company";
import { companyReport } from "../../app/companies/companyReport";

const Deadline = z.object({
  kind: z.enum([
    "accounts-due",
    "accounts-made-up-to",
    "confirmation-statement-due",
    "confirmation-statement-made-up-to",
    "officer-identity-statement-due",
    "psc-identity-statement-due",
  ]),
  date: z.string(),
  daysLeft: z.number().int().describe("Days from today (UTC) to the date; negative when past."),
  overdue: z.boolean(),
  title: z.string(),
  people: z.number().int().optional().describe("Identity-verification statements: how many officers or PSCs are due that day (counted, never named)."),
});

const fields = {
  today: z.string(),
  deadlines: z.array(Deadline).describe("Sorted by date."),
  accountsOverdue: z.boolean(),
  confirmationStatementOverdue: z.boolean(),
  proposalToStrikeOff: z.boolean().describe("Companies House shows a proposal to strike the company off."),
  identityVerification: z.object({ officersWithStatementDue: z.number().int(), pscsWithStatementDue: z.number().int() }),
  calendar: z
    .object({
      url: z
        .string()
        .describe(
          "A free iCalendar feed of these dates for calendar apps: no header needed. Treat it as a secret; anyone with it can read these (public) dates.",
        ),
      revoke: z.string().describe("How to switch the feed off."),
    })
    .describe("The feed is bound to your key and this company; asking again gives the same address."),
};

export const getDeadlines = companyReport({
  operationId: "getDeadlines",
  path: "/api/v1/deadlines",
  title: "Deadlines",
  summary: "Every date a company has at Companies House, sorted, with days left; and a free calendar feed of them.",
  description:
    "Every date the companies register gives the company (SPEC §4.8): accounts due and the period they are made up to, the confirmation statement due and its made-up-to date, the overdue flags, a proposal to strike off, and the identity-verification statement dates of its officers and persons with significant control, counted by date and never named. Each date has `daysLeft` (negative when past). `calendar.url` is a free iCalendar feed (`deadlines.ics`) of the same dates for calendar apps, which cannot send a key: an unguessable address bound to your key and this company, all-day events with stable UIDs and a reminder 14 days before; it stops when revoked (`DELETE /api/v1/deadlines/feed?company=`) or when the key is disabled. Companies House answers are cached for hours.",
  fields,
  schemaName: "Deadlines",
  price: 1,
  async reply(profile, ctx) {
    const today = ctx.now.toISOString().slice(0, 10);
    const token = await ctx.services.calendarFeeds.feedTokenFor(ctx.caller!.keyId, profile.number, newCapabilityToken(), Math.floor(ctx.now.getTime() / 1000));
    return {
      today,
      ...(await readDeadlines(ctx.services, profile, today)),
      calendar: { url: `${ctx.origin}/api/v1/deadlines.ics?token=${token}`, revoke: `DELETE /api/v1/deadlines/feed?company=${profile.number}` },
    };
  },
});
