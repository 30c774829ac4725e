import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { EVENT_KINDS_DOC } from "../../services/watch/events";
import { eventOf } from "../../services/watch/feed";
import { Event } from "../../app/watch/schemas";

const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

export const listWatchEvents = defineOperation({
  operationId: "listWatchEvents",
  method: "get",
  path: "/api/v1/watch/events",
  family: "watch",
  title: "Watch events",
  summary: "What changed at the companies you watch: events after `since`, oldest first, with `lastId` and `more`.",
  description: [
    `Free. Events after the id \`since\` (0, or omitted, for the first), oldest first, ${DEFAULT_PAGE} a page (\`limit\` up to ${MAX_PAGE}). Keep \`lastId\` and pass it as \`since\` next time; \`more\` is true when there are further events now. \`lastId\` is the last event's id on this page, or \`since\` itself when there is none. Every event stays in the feed whether or not it was delivered to your webhook, and after the watch is removed. Ids increase but are shared across accounts, so yours are not consecutive.`,
    "An event is found at the company's daily read; `seenAt` is that read's time. A source that was down at a read keeps its previous reading and is never reported as a change; it is compared again when it is read. The first read of a watch is its baseline (no events). Summaries name the company and never a person; directors and persons with significant control are counted.",
    EVENT_KINDS_DOC,
  ].join("\n\n"),
  input: z.object({
    since: z.coerce
      .number()
      .int("must be a whole number")
      .min(0, "must be 0 or more")
      .max(Number.MAX_SAFE_INTEGER, "is too large")
      .optional()
      .describe("The last event id you have (0 for the first)."),
    limit: z.coerce
      .number()
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(MAX_PAGE, `must be at most ${MAX_PAGE}`)
      .optional()
      .describe(`Events per page, 1 to ${MAX_PAGE} (default ${DEFAULT_PAGE}).`),
  }),
  output: z.object({ events: z.array(Event), lastId: z.number().int(), more: z.boolean() }).openapi("WatchEventFeed"),
  price: 0,
  auth: "key",
  errors: [],
  readOnly: true,
  example: { since: 0 },
  async handler({ since = 0, limit = DEFAULT_PAGE }, ctx) {
    const rows = await ctx.services.watch.eventsSince(ctx.caller!.accountId, since, limit);
    const events = rows.slice(0, limit).map(eventOf);
    return { events, lastId: events.at(-1)?.id ?? since, more: rows.length > limit };
  },
});
