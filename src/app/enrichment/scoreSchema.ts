/**
 * The Business Score's reply pieces (issue 18 §2 `businessScore`, SPEC §2.3: a score, per-category findings and a
 * prioritised action plan), as zod schemas for the operation's output: the operation puts `BusinessScoreFields` next
 * to `query`, `business`, `ms`, `sources` and `attribution`. The values come from services/enrich/businessScore.ts.
 */
import { z } from "@hono/zod-openapi";
import {
  BUSINESS_SCORE_FORMULA as FORMULA,
  BUSINESS_SCORE_NOTICE,
  CATEGORY_WEIGHTS,
  GRADE_BANDS,
  GRADE_MIN_COVERAGE,
  MAX_ACTIONS,
} from "../../services/enrich/businessScore";
import { AccessibilityAuditPrice } from "../web/accessibilityAudit";
import { AiVisibilityPrice } from "../web/aiVisibility";
import { WebsiteLegalPrice } from "../web/websiteLegal";

/** The formula in words, exactly as computed (for the operation's description). */
export const BUSINESS_SCORE_FORMULA = FORMULA;
export { BUSINESS_SCORE_NOTICE };

/**
 * Suggested price: the three web tools it runs (website-legal 4, ai-visibility 2, accessibility-audit 3) and the
 * enrichment that finds the business (company-enrichment 2) come to 11 credits when bought apart; the score charges 10
 * for all of them (one credit off the bundle, since the homepage and the register entry are each read once per tool
 * rather than per call). It costs us three browser renderings, so it should not be cheaper.
 */
export const BUSINESS_SCORE_PRICE = 10;
/** The web tools' prices it is made of, for the description (read from their operations, never typed twice; the enrichment's is the lead's). */
export const BUSINESS_SCORE_PRICE_PARTS = {
  websiteLegal: WebsiteLegalPrice,
  aiVisibility: AiVisibilityPrice,
  accessibilityAudit: AccessibilityAuditPrice,
};

const Severity = z
  .enum(["high", "medium", "low"])
  .describe("high: a legal requirement or register problem, or a large loss; medium: a real loss; low: worth fixing.");
const CategoryKey = z.enum(["registry", "legal", "accessibility", "aiVisibility", "trust"]).describe("The category.");

export const BusinessScoreEvidence = z
  .object({
    quote: z
      .string()
      .describe(
        "What was found, quoted (a register field, a sentence or link of the site, a robots.txt line, a failing element), or the sentence saying what was not found.",
      ),
    where: z.string().describe("Where: the register's field, the page's URL, or the web tool's check and the pages it read."),
  })
  .openapi("BusinessScoreEvidence");

export const BusinessScoreFinding = z
  .object({
    id: z
      .string()
      .describe(
        "The kind of finding, stable across calls, e.g. `accounts-overdue`, `privacy-notice-missing`, `cookies-before-consent`, `a11y-image-alt`, `robots-blocks-search`, `not-https`.",
      ),
    part: z.string().describe("The part of the category (see `parts`) whose points it costs."),
    severity: Severity,
    message: z.string().describe("What was found and what it means, in words. No person is named."),
    evidence: BusinessScoreEvidence.describe("The evidence the finding rests on."),
    fix: z.string().describe("What to change."),
    required: z
      .boolean()
      .describe(
        "A legal requirement the site does not meet, or a problem on the register (overdue filings, strike-off, not active): these come first in the action plan.",
      ),
  })
  .openapi("BusinessScoreFinding");

export const BusinessScorePart = z
  .object({
    key: z.string().describe("The part, e.g. `accountsFiled`, `privacyNotice`, `rule:color-contrast`, `robots`, `https`."),
    label: z.string().describe("The part in words."),
    points: z.number().describe("Points earned (one decimal)."),
    max: z.number().describe("Points available (one decimal)."),
    judged: z.boolean().describe("false: couldn't tell (e.g. no browser to watch cookies, no VAT number shown); left out of the category's maximum."),
  })
  .openapi("BusinessScorePart");

export const BusinessScoreCategory = z
  .object({
    key: CategoryKey,
    label: z.string().describe("The category in words."),
    status: z
      .enum(["scored", "couldnt_tell"])
      .describe("`couldnt_tell`: the web tool it rests on could not run, or no company was confirmed on the register; left out of the score (see `reason`)."),
    score: z.number().nullable().describe("Points earned: the sum of the judged parts' points; null when couldn't tell."),
    max: z.number().nullable().describe("Points available: the sum of the judged parts' maximums; null when couldn't tell."),
    weight: z
      .number()
      .int()
      .describe(
        `The category's stated weight (${Object.entries(CATEGORY_WEIGHTS)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}).`,
      ),
    share: z
      .number()
      .describe(
        "Its share of the score in percent, after the weights of the categories that couldn't be told were shared out (one decimal); 0 when couldn't tell.",
      ),
    reason: z.string().nullable().describe("Why it couldn't be told; null when scored."),
    parts: z.array(BusinessScorePart).describe("The score's workings: each part's points and maximum."),
    findings: z.array(BusinessScoreFinding).describe("What cost points, required ones first, then by severity; each with its evidence and a fix."),
  })
  .openapi("BusinessScoreCategory");

export const BusinessScoreAction = z
  .object({
    priority: z.number().int().min(1).describe("1 first."),
    category: CategoryKey,
    part: z.string().describe("The part it fixes."),
    action: z.string().describe("What to do."),
    why: z.string().describe("Why, citing the finding (and its id) it resolves."),
    impact: z
      .number()
      .describe(
        "Points of the 0–100 score gained when the part is fixed: the category's share × (the part's max − its points) ÷ the category's max, one decimal. Computed, not estimated.",
      ),
    severity: Severity,
    required: z.boolean().describe("A legal requirement or a register problem: these come first, whatever their impact."),
    evidence: BusinessScoreEvidence,
    findings: z.array(z.string()).describe("The ids of the findings it resolves."),
  })
  .openapi("BusinessScoreAction");

/** The score's fields, to spread into the operation's output object. */
/** The grade rule in words (the operation's description and the `grade` field). */
export const GRADE_RULE = `A grade is given only when the categories scored carry at least ${GRADE_MIN_COVERAGE}% of the stated weight (\`coverage.weightScored\`): a grade is a verdict on the whole business and may not rest on less than half of what it grades. The register alone (25%, the site unread), or a site with one web check and no company confirmed (30–40%, with the trust signals), is too little; two web checks with the trust signals (50–60%), or the register with any web check (55% or more), is enough. Below it the score is still given, with its coverage, and \`grade\` is null; \`headline\` and \`basis\` say why.`;

export const ScoreCoverage = z
  .object({
    categoriesScored: z.number().int().describe("Categories that could be scored."),
    categories: z.number().int().describe("Categories in all (5)."),
    weightScored: z.number().int().describe("The stated weights of the categories scored, summed: the percent of the whole the score rests on."),
    weightForGrade: z.number().int().describe(`The least \`weightScored\` for a grade: ${GRADE_MIN_COVERAGE}.`),
  })
  .openapi("BusinessScoreCoverage");

export const BusinessScoreFields = {
  headline: z
    .string()
    .describe(
      "One sentence from the fields: the score and grade, or why there is no grade, and always the coverage (how many categories, which, and the percent of the weight scored).",
    ),
  score: z
    .number()
    .int()
    .min(0)
    .max(100)
    .nullable()
    .describe("0–100: the weighted mean of the categories that could be scored (see `formula`); null when none could. Read it with `coverage`."),
  grade: z
    .enum(["A", "B", "C", "D", "E"])
    .nullable()
    .describe(
      `By bands of the score: ${GRADE_BANDS.map((b, i) => `${b.grade} ${b.min}–${i === 0 ? 100 : GRADE_BANDS[i - 1].min - 1}`).join(", ")}; null with no score, or when too little of the weight was scored. ${GRADE_RULE}`,
    ),
  coverage: ScoreCoverage.describe("How much of the stated weight the score rests on."),
  basis: z.string().describe("Which categories the score rests on; when one couldn't be told, which and why, and the weights shared out again."),
  formula: z.string().describe("How the score, each category and the action plan's impacts are computed, in words."),
  categories: z
    .array(BusinessScoreCategory)
    .describe("Registry hygiene, website legal basics, accessibility, AI and search visibility, trust signals: each with its points, parts and findings."),
  actionPlan: z
    .array(BusinessScoreAction)
    .describe(`What to fix first, at most ${MAX_ACTIONS}: legal requirements and register problems first, then by the points each would gain.`),
  notice: z
    .string()
    .describe(
      "Not legal advice (SPEC §1 rule 2); automated accessibility checks catch only a minority of issues and are never a certification (SPEC §1 rule 4).",
    ),
};

export const BusinessScoreResult = z.object(BusinessScoreFields).openapi("BusinessScoreResult");
