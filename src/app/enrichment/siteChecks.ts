/**
 * The Business Score's site checks (issue 18 §2 `businessScore`): the three web tools run on the business's homepage,
 * in parallel, through the same functions their operations call (app/web/) (website-legal, ai-visibility, accessibility-audit, SPEC
 * §4.2 and §4.8), so the score reuses their checks exactly. A check that cannot run is recorded with the reason (the
 * site is down, no browser is configured, …) and never thrown, except when all three fail for an upstream of ours
 * (the DNS resolver, Companies House, the browser): the first such error is rethrown, so the call answers 503 and
 * gives its credits back. Anything else (a bug) is rethrown as it is.
 */
import type { z } from "@hono/zod-openapi";
import { type OpContext, Reply } from "../../platform/registry";
import type { SiteCheckOutcomes } from "../../services/enrich/businessScore";
import { InputError, UpstreamError } from "../../shared/errors";
import { AccessibilityAuditInput, type AccessibilityAuditOutput, accessibilityAudit } from "../web/accessibilityAudit";
import { AiVisibilityInput, type AiVisibilityOutput, aiVisibility as aiVisibilityCheck } from "../web/aiVisibility";
import { pageOf } from "../web/page";
import { WebsiteLegalInput, type WebsiteLegalOutput, websiteLegal } from "../web/websiteLegal";

export type WebsiteLegalReply = z.infer<typeof WebsiteLegalOutput>;
export type AiVisibilityReply = z.infer<typeof AiVisibilityOutput>;
export type AccessibilityAuditReply = z.infer<typeof AccessibilityAuditOutput>;

/** A web tool as the score runs it: its input schema, and the function its operation's handler calls. */
interface Tool<I extends z.ZodType, T> {
  input: I;
  run: (input: z.infer<I>, ctx: OpContext) => Promise<T | Reply<T>>;
}

/** A check that could not run: the reason in words, and the error's kind (the caller's site, or an upstream of ours). */
export type FailedCheck = { ran: false; reason: string; error: { kind: "input"; code: string } | { kind: "upstream"; source: string; upstream: string } };
export type SiteCheck<T> = { ran: true; reply: T } | FailedCheck;

/** The three outcomes. It extends the score's input shape: a change to a web tool's reply that breaks the score is a type error here. */
export interface SiteChecks extends SiteCheckOutcomes {
  homepage: string;
  legal: SiteCheck<WebsiteLegalReply>;
  aiVisibility: SiteCheck<AiVisibilityReply>;
  accessibility: SiteCheck<AccessibilityAuditReply>;
}

/** Upstreams named in words (else their source id). */
const UPSTREAM_NAMES: Record<string, string> = { browser: "the browser", "companies-house": "Companies House", dns: "the DNS resolver" };

/** Why a check could not run, in words, from the error it threw. */
function reasonOf(what: string, e: InputError | UpstreamError): string {
  const msg = e.message.replace(/\.$/, "");
  if (e instanceof InputError) return `${what} could not read the homepage (${msg}).`;
  if (e.source === "browser" && e.kind === "not_configured") return `no browser is configured on this server, so ${what} could not run.`;
  return `${what} could not run because ${UPSTREAM_NAMES[e.source] ?? e.source} could not be reached just now (${msg}).`;
}

/** Runs one web tool on the homepage; its refusal or an upstream failure is recorded, not thrown. */
async function run<I extends z.ZodType, T>(
  tool: Tool<I, T>,
  what: string,
  homepage: string,
  ctx: OpContext,
): Promise<{ outcome: SiteCheck<T>; upstream: UpstreamError | null }> {
  try {
    // The tool's own input schema, as the gateway would apply it; https:// assumed when the homepage has no scheme.
    const input = tool.input.safeParse({ url: homepage.trim() ? pageOf({ url: homepage.trim() }) : homepage });
    if (!input.success)
      throw new InputError("invalid_url", `The homepage address is not valid: ${input.error.issues[0]?.message ?? "invalid"}.`, { field: "url" });
    const out = await tool.run(input.data, ctx);
    return { outcome: { ran: true, reply: (out instanceof Reply ? out.body : out) as T }, upstream: null };
  } catch (e) {
    if (e instanceof InputError) return { outcome: { ran: false, reason: reasonOf(what, e), error: { kind: "input", code: e.code } }, upstream: null };
    if (e instanceof UpstreamError)
      return { outcome: { ran: false, reason: reasonOf(what, e), error: { kind: "upstream", source: e.source, upstream: e.kind } }, upstream: e };
    throw e;
  }
}

/**
 * The three web tools on `homepage`, in parallel. Throws the first UpstreamError only when all three failed on one
 * (our side, not the caller's site: 503, credits back); otherwise every failure is in the outcome with its reason.
 */
export async function runSiteChecks(ctx: OpContext, homepage: string): Promise<SiteChecks> {
  const [legal, aiVisibility, accessibility] = await Promise.all([
    run({ input: WebsiteLegalInput, run: websiteLegal }, "the website legal check", homepage, ctx),
    run({ input: AiVisibilityInput, run: aiVisibilityCheck }, "the AI visibility check", homepage, ctx),
    run({ input: AccessibilityAuditInput, run: accessibilityAudit }, "the accessibility audit", homepage, ctx),
  ]);
  if (legal.upstream && aiVisibility.upstream && accessibility.upstream) throw legal.upstream;
  return { homepage, legal: legal.outcome, aiVisibility: aiVisibility.outcome, accessibility: accessibility.outcome };
}
