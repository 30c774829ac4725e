/**
 * The accessibility audit's reply, from axe-core's results over the rendered page (pure).
 *
 * Score: the impact-weighted pass rate of the rules that applied to the page (Lighthouse's method). Each rule that
 * passed or failed weighs by its impact: critical 10, serious 7, moderate 3, minor 1 (a failed rule by the gravest
 * impact it found, a passed rule by the impact a failure would have). score = round(100 × passed weight / applicable
 * weight). Checks that need a person (axe "incomplete") and rules that did not apply count for nothing. With no
 * applicable rule the score is 100 and the reply says nothing could be checked.
 */
import type { AxeResults, AxeRuleResult } from "../rendered";
import { AXE_TAGS } from "./axeOptions";
import { type WcagCriterion, criteriaOfTags, fixFor } from "./wcag";

export const IMPACT_WEIGHTS = { critical: 10, serious: 7, moderate: 3, minor: 1 } as const;
export type Impact = keyof typeof IMPACT_WEIGHTS;
/** Example elements given per finding. */
export const EXAMPLES_PER_FINDING = 5;

export const SCORE_FORMULA =
  "Impact-weighted pass rate of the rules that applied to the page (as Lighthouse scores accessibility): each passed or failed rule weighs critical 10, serious 7, moderate 3, minor 1; score = round(100 × weight of passed rules / weight of all applicable rules). Checks that need a person and rules that did not apply are not counted.";

export const AUDIT_NOTICE =
  "Automated checks catch only a minority of accessibility issues (roughly a third of WCAG failures); a person must still test with a keyboard, a screen reader and zoom. This audit is never a compliance certification and does not show conformance with WCAG or the accessibility regulations.";

export interface Example {
  /** CSS selector of the element. */
  selector: string;
  /** The element's opening HTML, at most 300 characters. */
  snippet: string;
}

export interface Finding {
  rule: string;
  title: string;
  impact: Impact;
  wcag: Pick<WcagCriterion, "sc" | "name" | "level">[];
  elements: number;
  examples: Example[];
  fix: string;
  helpUrl: string;
}

export interface ReviewItem {
  rule: string;
  title: string;
  wcag: Pick<WcagCriterion, "sc" | "name" | "level">[];
  elements: number;
  examples: Example[];
  /** What a person has to decide, as axe words it for the first element. */
  why: string;
}

export interface PassedCheck {
  rule: string;
  title: string;
  wcag: Pick<WcagCriterion, "sc" | "name" | "level">[];
}

const IMPACT_ORDER: Impact[] = ["critical", "serious", "moderate", "minor"];
const impactOf = (r: AxeRuleResult): Impact => (r.impact && r.impact in IMPACT_WEIGHTS ? r.impact : "moderate");
const wcagOf = (r: AxeRuleResult) => criteriaOfTags(r.tags).map(({ sc, name, level }) => ({ sc, name, level }));
const examplesOf = (r: AxeRuleResult): Example[] =>
  r.nodes
    .slice(0, EXAMPLES_PER_FINDING)
    .map((n) => ({ selector: n.target.map((t) => (Array.isArray(t) ? t.join(" ") : String(t))).join(" "), snippet: n.html }));
const byId = (a: { rule: string }, b: { rule: string }) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);

/** Only rules tied to a WCAG criterion are reported (the rule set runs nothing else; this keeps it so). */
const wcagRule = (r: AxeRuleResult) => criteriaOfTags(r.tags).length > 0;

export function auditReply(axe: AxeResults) {
  const violations = axe.violations.filter(wcagRule);
  const passes = axe.passes.filter(wcagRule);
  const findings: Finding[] = violations
    .map((r) => ({
      rule: r.id,
      title: r.help,
      impact: impactOf(r),
      wcag: wcagOf(r),
      elements: r.nodeCount,
      examples: examplesOf(r),
      fix: fixFor(r.id, r.help),
      helpUrl: r.helpUrl,
    }))
    .sort((a, b) => IMPACT_ORDER.indexOf(a.impact) - IMPACT_ORDER.indexOf(b.impact) || b.elements - a.elements || byId(a, b));
  const needsReview: ReviewItem[] = axe.incomplete
    .filter(wcagRule)
    .map((r) => ({
      rule: r.id,
      title: r.help,
      wcag: wcagOf(r),
      elements: r.nodeCount,
      examples: examplesOf(r),
      why: firstLine(r.nodes[0]?.failureSummary) ?? r.description,
    }))
    .sort(byId);
  const passed: PassedCheck[] = passes.map((r) => ({ rule: r.id, title: r.help, wcag: wcagOf(r) })).sort(byId);

  const weight = (r: AxeRuleResult) => IMPACT_WEIGHTS[impactOf(r)];
  const passedWeight = passes.reduce((s, r) => s + weight(r), 0);
  const failedWeight = violations.reduce((s, r) => s + weight(r), 0);
  const applicable = passedWeight + failedWeight;
  const score = applicable === 0 ? 100 : Math.round((100 * passedWeight) / applicable);

  const counts = Object.fromEntries(IMPACT_ORDER.map((i) => [i, findings.filter((f) => f.impact === i).length])) as Record<Impact, number>;
  return {
    score,
    scoring: SCORE_FORMULA,
    summary: {
      failedRules: findings.length,
      failedElements: findings.reduce((s, f) => s + f.elements, 0),
      byImpact: counts,
      passedRules: passed.length,
      needsReview: needsReview.length,
      notApplicable: axe.inapplicable.filter(wcagRule).length,
      sentence: sentence(score, findings, needsReview.length, applicable === 0),
    },
    findings,
    needsReview,
    passed,
    engine: {
      name: "axe-core" as const,
      version: axe.testEngine.version,
      ruleSet: {
        tags: [...AXE_TAGS],
        rules: violations.length + passes.length + axe.incomplete.filter(wcagRule).length + axe.inapplicable.filter(wcagRule).length,
      },
    },
  };
}

function firstLine(s: string | undefined): string | undefined {
  const line = s
    ?.split("\n")
    .map((l) => l.trim())
    .find((l) => l && !/^fix (any|all) of the following:?$/i.test(l));
  return line || undefined;
}

function sentence(score: number, findings: Finding[], review: number, nothing: boolean): string {
  if (nothing) return "No automated check applied to this page, so nothing could be scored; test it by hand.";
  const worst = findings[0];
  const head = findings.length
    ? `${findings.length} automated check${findings.length === 1 ? "" : "s"} failed on ${findings.reduce((s, f) => s + f.elements, 0)} element(s); fix first: ${worst.title.replace(/\.$/, "")} (WCAG ${worst.wcag.map((w) => w.sc).join(", ")}, ${worst.impact}).`
    : "No automated check failed.";
  return `Score ${score}/100. ${head}${review ? ` ${review} check${review === 1 ? "" : "s"} need a person to decide.` : ""}`;
}
