import { thousands } from "../../shared/format";
import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { WATCH_RULES_DOC, Watch, watchReplyOf } from "../../app/watch/schemas";

const PAGE = 1_000;

export const listWatches = defineOperation({
  operationId: "listWatches",
  method: "get",
  path: "/api/v1/watch",
  family: "watch",
  title: "Your watch list",
  summary: "The companies you watch, each with its state (watched or paused), label, date added, last read and the last state seen.",
  description: [
    `Free. The caller's watches (every key of the account sees the same list), in company-number order, ${thousands(PAGE)} a page: pass the last \`company\` of a page as \`after\` for the next; \`more\` says whether there is one. \`lastSeen\` is what the last daily read found, source by source (people counted, never named); \`lastSeen.notRead\` lists sources that were down at that read (their previous reading is kept).`,
    WATCH_RULES_DOC,
  ].join("\n\n"),
  input: z.object({
    after: z.string().trim().max(12, "must be at most 12 characters").optional().describe("A company number: the page after it."),
  }),
  output: z.object({ watches: z.array(Watch), more: z.boolean() }).openapi("WatchList"),
  price: 0,
  auth: "key",
  errors: [],
  readOnly: true,
  example: {},
  async handler({ after }, ctx) {
    const rows = await ctx.services.watch.listWatches(ctx.caller!.accountId, (after ?? "").toUpperCase(), PAGE + 1);
    return { watches: rows.slice(0, PAGE).map(watchReplyOf), more: rows.length > PAGE };
  },
});
