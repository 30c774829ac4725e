import { z } from "@hono/zod-openapi";
import type { OpContext } from "../../platform/registry";
import { AXE_RUN_OPTIONS } from "../../services/web/accessibility/axeOptions";
import { AUDIT_NOTICE, EXAMPLES_PER_FINDING, auditReply } from "../../services/web/accessibility/audit";
import { CLAIMED_ACT_RULES } from "../../services/web/accessibility/actRules";
import { describedUrl, fetchHtmlPage } from "./page";

/** The whole audit (fetch, render, axe): past this the call answers 422 and is not charged. */
export const AUDIT_TIMEOUT_MS = 25_000;
export const LOAD_WAIT_MS = 10_000;
export const PAGE_WEIGHT_BYTES = 8 * 1024 * 1024;
export const MAX_REQUESTS = 150;

const Criterion = z.object({ sc: z.string().describe("Success criterion number, e.g. `1.1.1`."), name: z.string(), level: z.enum(["A", "AA", "AAA"]) });
const Example = z.object({
  selector: z.string().describe("CSS selector of the element."),
  snippet: z.string().describe("The element's HTML, at most 300 characters."),
});
const Impact = z.enum(["critical", "serious", "moderate", "minor"]);

const Output = z
  .object({
    query: z.object({ url: z.string() }).describe("The request, as read (SPEC §2.1)."),
    url: z.string().describe("The page audited, after redirects."),
    title: z.string().describe("The rendered page's title."),
    score: z.number().int().min(0).max(100).describe("0–100: the impact-weighted pass rate of the rules that applied (see `scoring`)."),
    scoring: z.string().describe("The score's formula, in words."),
    summary: z.object({
      failedRules: z.number().int(),
      failedElements: z.number().int(),
      byImpact: z
        .object({ critical: z.number().int(), serious: z.number().int(), moderate: z.number().int(), minor: z.number().int() })
        .describe("Failed rules by impact."),
      passedRules: z.number().int(),
      needsReview: z.number().int().describe("Checks that need a person to decide (`needsReview`)."),
      notApplicable: z.number().int().describe("Rules of the rule set that found nothing to check on this page."),
      sentence: z.string().describe("The result in one or two plain sentences."),
    }),
    findings: z
      .array(
        z.object({
          rule: z.string().describe("axe-core rule id."),
          title: z.string(),
          impact: Impact,
          wcag: z.array(Criterion).describe("The WCAG 2.2 success criteria the rule tests."),
          elements: z.number().int().describe("Elements that failed."),
          examples: z.array(Example).describe(`Up to ${EXAMPLES_PER_FINDING} of them.`),
          fix: z.string().describe("What to change, in plain words."),
          helpUrl: z.string().describe("axe-core's page on the rule."),
        }),
      )
      .describe("Failed automated checks, gravest first (impact, then elements)."),
    needsReview: z
      .array(
        z.object({
          rule: z.string(),
          title: z.string(),
          wcag: z.array(Criterion),
          elements: z.number().int(),
          examples: z.array(Example),
          why: z.string().describe("What a person must decide."),
        }),
      )
      .describe("Checks axe-core could not decide alone (its `incomplete` results): a person must look."),
    passed: z.array(z.object({ rule: z.string(), title: z.string(), wcag: z.array(Criterion) })).describe("Automated checks that applied and passed."),
    engine: z.object({
      name: z.literal("axe-core"),
      version: z.string().describe("The axe-core version that ran (pinned)."),
      ruleSet: z.object({ tags: z.array(z.string()).describe("axe-core tags run: WCAG 2.0, 2.1 and 2.2 at levels A and AA."), rules: z.number().int() }),
      actRules: z.array(z.string()).describe("W3C ACT rules whose test cases this audit agrees with (`npm run act`)."),
    }),
    page: z.object({
      status: z.number().int().describe("The page's HTTP status."),
      requests: z.number().int().describe("Requests the page made."),
      bytes: z.number().int().describe("Bytes served to the page."),
      refused: z
        .array(z.object({ url: z.string(), reason: z.string() }))
        .describe("Requests refused: private or otherwise blocked addresses, non-web schemes, over the caps. Each was never sent."),
      cut: z.array(z.string()).describe("What was cut short (the page did not finish loading in time, page weight, request count); empty when nothing was."),
      framesNotAudited: z.number().int().describe("Frames in the page; axe-core checks the top document only."),
      renderMs: z.number().int().describe("Time to render and check the page."),
    }),
    notice: z.string().describe("Automated checks catch only a minority of issues; never a compliance certification (SPEC §1 rule 4)."),
    auditedAt: z.string(),
  })
  .openapi("AccessibilityAudit");

/** The tool's input, as its operation takes it (and as the Business Score applies it to a homepage). */
export const AccessibilityAuditInput = z.object({ url: describedUrl("The page to audit (`https://` is assumed when no scheme is given).") });
/** The tool's reply. */
export const AccessibilityAuditOutput = Output;
/** Its price in credits (the operation's, and a part of the Business Score's). */
export const AccessibilityAuditPrice = 3;

/** The tool's work on a parsed input: the operation's handler, and the Business Score's site check. */
export async function accessibilityAudit({ url }: z.infer<typeof AccessibilityAuditInput>, ctx: OpContext) {
  const started = Date.now();
  const page = await fetchHtmlPage(ctx.services, url);
  const rendered = await ctx.services.browser.render(page.url, {
    document: page.document,
    axe: AXE_RUN_OPTIONS,
    timeoutMs: Math.max(5_000, AUDIT_TIMEOUT_MS - (Date.now() - started)),
    loadTimeoutMs: LOAD_WAIT_MS,
    maxBytes: PAGE_WEIGHT_BYTES,
    maxRequests: MAX_REQUESTS,
  });
  const audit = auditReply(rendered.axe!);
  return {
    query: { url },
    url: rendered.finalUrl,
    title: rendered.title,
    ...audit,
    engine: { ...audit.engine, actRules: CLAIMED_ACT_RULES.map((r) => r.act) },
    page: {
      status: rendered.status,
      requests: rendered.requests.length,
      bytes: rendered.requests.reduce((s, r) => s + r.bytes, 0),
      refused: rendered.requests.filter((r) => r.refused).map((r) => ({ url: r.url, reason: r.refused! })),
      cut: rendered.cut,
      framesNotAudited: rendered.axe!.framesNotAudited,
      renderMs: rendered.timings.totalMs,
    },
    notice: AUDIT_NOTICE,
    auditedAt: ctx.now.toISOString(),
  };
}
