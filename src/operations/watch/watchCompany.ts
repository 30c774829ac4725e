import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { PLANS, periodOf } from "../../platform/plans";
import { Reply, defineOperation } from "../../platform/registry";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { WATCH_MONTHLY_CREDITS, monthChargeId } from "../../services/watch/feed";
import { profileOf } from "../../app/companies/company";
import { Label, WATCH_RULES_DOC, Watch, WatchCompany, watchReplyOf } from "../../app/watch/schemas";

export const watchCompany = defineOperation({
  operationId: "watchCompany",
  method: "post",
  path: "/api/v1/watch",
  family: "watch",
  title: "Watch a company",
  summary: "Add a company to your watch list: it is read every day and each change becomes an event in your feed and on your webhook.",
  description: [
    "Every watched company is read once a day from the companies register (status, filings due and overdue, directors and persons with significant control counted, identity verification), distress signals (strike-off, Gazette insolvency notices, insolvency cases, charges), the UK sanctions list (definite matches only), payment practices reports, public contracts won and the register of licensed sponsors. Each change becomes an event (`GET /api/v1/watch/events`), posted to your webhook when one is set. The first read of a new watch is its baseline: no events. A source that is down at a read keeps its previous reading and is never reported as a change.",
    "Answers 201 with the watch when it is added (or a paused watch resumed), 200 when the company is already watched (nothing charged). A company number that is no company answers 404 with `query`.",
    WATCH_RULES_DOC,
  ].join("\n\n"),
  successStatus: 201,
  alsoOk: "the company is already watched: the watch as it is, nothing charged",
  input: z.object({ company: WatchCompany, label: Label.optional() }),
  output: z
    .object({
      watch: Watch,
      created: z.boolean().describe("True when the watch was added now."),
      resumed: z.boolean().describe("True when a paused watch was resumed now."),
      charged: z.number().int().describe("Credits taken by this call: 2 when the watch was added or resumed, otherwise 0."),
    })
    .openapi("WatchAdded"),
  price: {
    rule: "2 credits when the watch is added or a paused watch resumes, then 2 per calendar month (taken at the first daily read of the month); free when the company is already watched",
    credits: () => 0,
  },
  auth: "key",
  errors: ["not_found", "watch_limit_reached", "quota_exhausted", "org_pool_exhausted", "upstream_unavailable"],
  readOnly: false,
  example: { company: "12300001", label: "supplier-4471" },
  async handler({ company, label }, ctx) {
    const caller = ctx.caller!;
    const number = normaliseCompanyNumber(company);
    if (!number) throw new ApiError("bad_request", "`company` must be a company number such as 01234567 or SC123456.", { field: "company" });
    const store = ctx.services.watch;
    const now = ctx.now.toISOString();
    const period = periodOf(ctx.now.getTime());
    const existing = await store.watchOf(caller.accountId, number);
    const listed = async (created: boolean, resumed: boolean, charged: number, status: 200 | 201) => {
      const row = await store.watchListRow(caller.accountId, number);
      if (!row) throw new ApiError("conflict", "The watch was removed by another call at the same moment; try again.");
      return new Reply({ watch: watchReplyOf(row), created, resumed, charged }, { status });
    };

    // An empty label clears it.
    const newLabel = label === undefined ? undefined : label || null;
    if (existing) {
      if (newLabel !== undefined && newLabel !== existing.label) await store.setLabel(existing.id, newLabel);
      if (existing.state === "watched") return listed(false, false, 0, 200);
      // Paused: resume now, charged this month's credits (once per watch and month, however often it is asked).
      const { charged } = await ctx.charge(WATCH_MONTHLY_CREDITS, monthChargeId(existing.id, period));
      await store.markPaid(existing.id, period, true);
      return listed(false, true, charged, 201);
    }

    const max = PLANS[caller.plan].maxWatches;
    const limitReached = () =>
      new ApiError(
        "watch_limit_reached",
        `Your plan watches at most ${max.toLocaleString("en-GB")} companies; remove a watch (DELETE /api/v1/watch) or change plan.`,
      );
    // Refused early when the list is already full (no register read); the insert itself decides the cap (addWatch).
    if ((await store.watchCount(caller.accountId)) >= max) throw limitReached();
    const profile = await profileOf(ctx.services, number);
    const { added, ...not } = await store.addWatch({
      accountId: caller.accountId,
      company: number,
      name: profile.name,
      label: newLabel ?? null,
      now,
      // A reading from yesterday or today is the new watch's baseline; older (nobody watched it since), its first read is.
      freshSince: new Date(ctx.now.getTime() - 86_400_000).toISOString().slice(0, 10),
      maxWatches: max,
    });
    if (!added) {
      // The list filled up with calls that ran at the same moment; or one of them watched this company.
      if ("reason" in not && not.reason === "limit_reached") throw limitReached();
      return listed(false, false, 0, 200);
    }
    try {
      await ctx.charge(WATCH_MONTHLY_CREDITS, monthChargeId(added.id, period));
    } catch (e) {
      await store.forgetNewWatch(added.id);
      throw e;
    }
    await store.markPaid(added.id, period, false);
    return listed(true, false, WATCH_MONTHLY_CREDITS, 201);
  },
});
