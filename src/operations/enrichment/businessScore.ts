import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { scoreBusiness } from "../../services/enrich/businessScore";
import { enrich } from "../../app/enrichment/enrich";
import { EnrichResponse, Location, Q } from "../../app/enrichment/schemas";
import { BUSINESS_SCORE_FORMULA, BUSINESS_SCORE_PRICE, BusinessScoreFields, GRADE_RULE } from "../../app/enrichment/scoreSchema";
import { runSiteChecks } from "../../app/enrichment/siteChecks";
import { LIVE_STATUS_RULE, MATCHING_RULES } from "../../app/enrichment/rules";

const Business = EnrichResponse.shape.profile
  .pick({
    found: true,
    name: true,
    website: true,
    companyNumber: true,
    status: true,
    statusDetail: true,
    registerSource: true,
    confidence: true,
    registryNote: true,
    alternatives: true,
  })
  .describe("Who was scored: the enrichment's answer (SPEC §2.2), its registered company only where the business's website confirms it.");

const Output = z
  .object({
    query: z.object({ q: z.string(), location: z.string().optional() }),
    ms: z.number().int(),
    business: Business,
    ...BusinessScoreFields,
    sources: z.array(z.string()).describe("What was read: the website's pages, the register entry."),
    attribution: z.string(),
  })
  .openapi("BusinessScore");

export const businessScore = defineOperation({
  operationId: "businessScore",
  method: "get",
  path: "/api/v1/score",
  family: "enrichment",
  title: "Business Score",
  summary:
    "A 0–100 score of a business's registry hygiene, website legal basics, accessibility, AI visibility and trust signals, with findings and a prioritised action plan.",
  description: [
    "Identifies the business as enrich does, then runs the web tools' own checks on its homepage — website legal basics (`/api/v1/website-legal`), AI and search visibility (`/api/v1/ai-visibility`) and the accessibility audit (`/api/v1/accessibility-audit`) — and scores them with the register's facts. Each category has its points, the parts they come from and findings with evidence; the action plan says what to fix first and why, legal requirements and register problems first, then by the points each fix would gain.",
    "",
    `**Formula.** ${BUSINESS_SCORE_FORMULA}`,
    "",
    `**Grade and coverage.** ${GRADE_RULE} \`headline\` always states the coverage.`,
    "",
    LIVE_STATUS_RULE,
    "In the score these risks cost points in the registry category (`active`, `noStrikeOff`, `noInsolvencyNotice`). No absence is scored that was not checked: with the status from the bulk file, `noStrikeOff` is not judged unless the file shows a proposal; with The Gazette not read, `noInsolvencyNotice` is not judged.",
    "",
    `**Price.** ${BUSINESS_SCORE_PRICE} credits: the three web tools' checks and the enrichment in one call. A business that could not be identified at all (\`business.found\` false) costs nothing. A check that could not run (no browser for the audit, the site refusing a page) leaves its category out, and \`basis\` says so; a failure of ours behind every check is a 503 with the credits back.`,
    "",
    "Not legal advice; automated accessibility checks catch only a minority of issues and are never a compliance certification (SPEC §1 rules 2 and 4).",
    "",
    MATCHING_RULES,
  ].join("\n"),
  input: z.object({ q: Q.openapi({ example: "harbourside-legal.co.uk" }), location: Location }),
  output: Output,
  price: BUSINESS_SCORE_PRICE,
  auth: "key",
  errors: ["upstream_unavailable"],
  readOnly: true,
  timeoutMs: 90_000,
  example: { q: "harbourside-legal.co.uk" },
  async handler({ q, location }, ctx) {
    const started = Date.now();
    const e = await enrich(ctx, q, location);
    const p = e.profile;
    if (!p.found) ctx.refund(BUSINESS_SCORE_PRICE);
    const checks = p.website ? await runSiteChecks(ctx, p.website) : null;
    const noSite = { ran: false as const, reason: "no website of the business was read, so the web checks could not run" };
    const score = scoreBusiness({
      profile: p,
      register: e.register,
      checks: checks ?? { homepage: "", legal: noSite, aiVisibility: noSite, accessibility: noSite },
      today: ctx.now.toISOString().slice(0, 10),
    });
    return {
      query: { q, ...(location ? { location } : {}) },
      ms: Date.now() - started,
      business: {
        found: p.found,
        ...(p.name ? { name: p.name } : {}),
        ...(p.website ? { website: p.website } : {}),
        ...(p.companyNumber
          ? {
              companyNumber: p.companyNumber,
              status: p.status,
              ...(p.statusDetail ? { statusDetail: p.statusDetail } : {}),
              ...(p.registerSource ? { registerSource: p.registerSource } : {}),
            }
          : {}),
        confidence: p.confidence,
        ...(p.registryNote ? { registryNote: p.registryNote } : {}),
        ...(p.alternatives ? { alternatives: p.alternatives } : {}),
      },
      ...score,
      sources: [...new Set([...p.sources, ...(e.site?.pagesRead.map((x) => `website: ${x.url}`) ?? [])])],
      attribution: p.attribution,
    };
  },
});
