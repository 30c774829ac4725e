import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { AXE_RUN_OPTIONS } from "../../services/web/accessibility/axeOptions";
import { AUDIT_NOTICE, EXAMPLES_PER_FINDING, IMPACT_WEIGHTS, SCORE_FORMULA, auditReply } from "../../services/web/accessibility/audit";
import { CLAIMED_ACT_RULES } from "../../services/web/accessibility/actRules";
import { PAGE_ERRORS, describedUrl, fetchHtmlPage } from "./common/page";

/** The whole audit (fetch, render, axe): past this the call answers 422 and is not charged. */
const AUDIT_TIMEOUT_MS = 25_000;
const LOAD_WAIT_MS = 10_000;
const PAGE_WEIGHT_BYTES = 8 * 1024 * 1024;
const MAX_REQUESTS = 150;

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

export const auditAccessibility = defineOperation({
  operationId: "auditAccessibility",
  method: "get",
  path: "/api/v1/accessibility-audit",
  family: "web",
  title: "Accessibility audit",
  summary:
    "Automated WCAG 2.2 A/AA checks of a web page rendered in a real browser: a score, findings tied to success criteria, checks that need a person, and passed checks.",
  description: [
    `Renders the page in a real browser (Browser Rendering) and runs axe-core in it (SPEC §4.2), with axe-core's rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA; the reply names the axe-core version and the rule set. Each finding is tied to its WCAG success criteria (number, name, level) and gives its impact, how many elements failed, up to ${EXAMPLES_PER_FINDING} example selectors and snippets, and a plain fix. Checks that need a person (axe-core's "incomplete") and the checks that passed are listed separately.`,
    "",
    `Score: ${SCORE_FORMULA} Weights: ${Object.entries(IMPACT_WEIGHTS)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}.`,
    "",
    `Every reply says that automated checks catch only a minority of issues and that the audit is never a compliance certification (SPEC §1 rule 4). The same page gives the same reply, the timestamps and timings aside.`,
    "",
    `Browser safety: every request the page makes (subresources, redirects, frames, scripts' fetches) is answered by the service through the same address rules as every fetch of a caller's URL; a request to a private, loopback, link-local or metadata address is never sent and is listed in \`page.refused\`. WebSockets, WebRTC and workers are refused. Limits: ${AUDIT_TIMEOUT_MS / 1000} s for the whole audit, ${LOAD_WAIT_MS / 1000} s to wait for the page's load event (after which what has rendered is checked and \`page.cut\` says so), ${PAGE_WEIGHT_BYTES / 1024 / 1024} MiB of page weight and ${MAX_REQUESTS} requests.`,
    "",
    "Errors: 422 when the page cannot be fetched or rendered (not a web page, an error status, a blocked address, too large, too slow), not charged; 503 when the browser is unavailable, credits given back. Price: 3 credits.",
  ].join("\n"),
  input: z.object({ url: describedUrl("The page to audit (`https://` is assumed when no scheme is given).") }),
  output: Output,
  price: 3,
  auth: "key",
  errors: [...PAGE_ERRORS],
  readOnly: true,
  timeoutMs: AUDIT_TIMEOUT_MS + 3_000,
  example: { url: "https://www.example.co.uk/" },
  async handler({ url }, ctx) {
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
  },
});
