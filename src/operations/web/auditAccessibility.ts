import { defineOperation } from "../../platform/registry";
import {
  AUDIT_TIMEOUT_MS,
  AccessibilityAuditInput,
  AccessibilityAuditOutput,
  AccessibilityAuditPrice,
  LOAD_WAIT_MS,
  MAX_REQUESTS,
  PAGE_WEIGHT_BYTES,
  accessibilityAudit,
} from "../../app/web/accessibilityAudit";
import { PAGE_ERRORS } from "../../app/web/page";
import { EXAMPLES_PER_FINDING, IMPACT_WEIGHTS, SCORE_FORMULA } from "../../services/web/accessibility/audit";

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
  input: AccessibilityAuditInput,
  output: AccessibilityAuditOutput,
  price: AccessibilityAuditPrice,
  auth: "key",
  errors: [...PAGE_ERRORS],
  readOnly: true,
  timeoutMs: AUDIT_TIMEOUT_MS + 3_000,
  example: { url: "https://www.example.co.uk/" },
  handler: (input, ctx) => accessibilityAudit(input, ctx),
});
