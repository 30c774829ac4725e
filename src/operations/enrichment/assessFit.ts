import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";
import { INPUT_LIMITS } from "../../platform/schemas";
import { assessFit as assess, draftOpener } from "../../services/enrich/assess";
import { ASSESS_METHOD, AssessmentFields } from "../../app/enrichment/assessSchema";
import { enrich } from "../../app/enrichment/enrich";
import { BusinessProfile, Location, nameable } from "../../app/enrichment/schemas";
import { LIVE_STATUS_RULE, MATCHING_RULES } from "../../app/enrichment/rules";

/** SPEC §4.8: 25 credits. */
export const ASSESS_PRICE = 25;

const Output = z
  .object({
    query: z.object({ target: z.string(), offer: z.string(), location: z.string().optional() }),
    ms: z.number().int(),
    profile: BusinessProfile.describe("The verified profile the assessment rests on (as enrich gives it)."),
    ...AssessmentFields.shape,
    notice: z.string(),
  })
  .openapi("FitAssessment");

export const assessFit = defineOperation({
  operationId: "assessFit",
  method: "post",
  path: "/api/v1/assess",
  family: "enrichment",
  title: "Assess fit",
  summary:
    "How far what you sell fits a business, from its verified profile only: a fit score with reasons that each cite a profile fact, signals, an approach angle, an editable opener and watch-outs.",
  description: [
    "Identifies `target` as enrich does (SPEC §2.2), then weighs `offer` (what you sell and to whom) against the verified profile only: every reason, signal and watch-out cites the profile fact it rests on (`fact`: the field, its value and its source). It never predicts receptiveness: nothing says whether the business is interested, ready or likely to buy.",
    "",
    `**Method.** ${ASSESS_METHOD}`,
    "",
    "**422 `target_unidentified`, not charged:** when the target cannot be identified confidently — no registered company is confirmed by the business's own website (or by the company number given), or the name is shared by several companies. Give its domain or company number, or a `location`.",
    "",
    "**The opener** is composed from the facts; where a language model is configured it may word the same facts, and its text is refused for the facts' own wording if it states anything they do not (a figure, a name, a rating or a negation), as the document readers' summaries are.",
    "",
    MATCHING_RULES,
    "",
    LIVE_STATUS_RULE,
    "In the assessment these risks are watch-outs (and cost points as the method says); a status read from the bulk file, and The Gazette not read, are watch-outs too.",
  ].join("\n"),
  input: z.object({
    target: nameable(z.string().trim().min(1, "is required").max(INPUT_LIMITS.target.max, `must be at most ${INPUT_LIMITS.target.max} characters`))
      .describe("The business: a company name, a domain or a company number.")
      .openapi({ example: "harbourside-legal.co.uk" }),
    offer: z
      .string()
      .trim()
      .min(1, "is required")
      .max(INPUT_LIMITS.offer.max, `must be at most ${INPUT_LIMITS.offer.max} characters`)
      .describe("What you sell and to whom, in a sentence or two, e.g. `Case management software for small law firms`.")
      .openapi({ example: "Case management software for small law firms" }),
    location: Location,
  }),
  output: Output,
  price: ASSESS_PRICE,
  auth: "key",
  errors: ["target_unidentified", "upstream_unavailable"],
  readOnly: true,
  timeoutMs: 60_000,
  example: { target: "harbourside-legal.co.uk", offer: "Case management software for small law firms" },
  async handler({ target, offer, location }, ctx) {
    const started = Date.now();
    const query = { target, offer, ...(location ? { location } : {}) };
    const e = await enrich(ctx, target, location);
    const p = e.profile;
    if (!p.found || !p.companyNumber || p.confidence === "low")
      throw new ApiError(
        "target_unidentified",
        `The target could not be identified confidently: ${p.registryNote ?? "no registered company is confirmed for it"} Nothing was charged.`,
        { field: "target", query },
      );
    const today = ctx.now.toISOString().slice(0, 10);
    const fit = assess({ profile: p, register: e.register, site: e.site, offer, today });
    const draft = await draftOpener({ offer, profile: p, facts: fit.openerFacts }, ctx.services.phraser);
    return {
      query,
      ms: Date.now() - started,
      profile: p,
      ...fit,
      ...draft,
      notice:
        "Grounded in public records and the business's own website as read; it weighs facts, never whether the business will be receptive. Results may be incomplete or out of date (SPEC §1 rule 2).",
    };
  },
});
