import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { BusinessScoreResult } from "../../../src/app/enrichment/scoreSchema";
import { type SiteChecks, runSiteChecks } from "../../../src/app/enrichment/siteChecks";
import { auditAccessibility } from "../../../src/operations/web/auditAccessibility";
import { checkAiVisibility } from "../../../src/operations/web/checkAiVisibility";
import { checkWebsiteLegal } from "../../../src/operations/web/checkWebsiteLegal";
import type { OpContext } from "../../../src/platform/registry";
import { type Services, buildServices } from "../../../src/platform/services";
import type { CompanyProfile } from "../../../src/services/companies/profile";
import { scoreBusiness } from "../../../src/services/enrich/businessScore";
import { registerFactsOfProfile } from "../../../src/services/enrich/profile";
import type { BusinessProfile, RegisterFacts } from "../../../src/services/enrich/types";
import type { Browser } from "../../../src/services/web/rendered";
import { InputError, UpstreamError } from "../../../src/shared/errors";
import { unverifiedReplies } from "../../helpers";

/**
 * Issue 18 §2 `businessScore`: runSiteChecks runs the three web tools' own handlers on a business's homepage (the
 * fixture sites served to the safe fetcher), records a check that cannot run with its reason, and throws only when
 * all three failed on an upstream of ours. The last tests score the real replies (services/enrich/businessScore.ts).
 */

const RENDER_TIMEOUT_MS = 60_000;
const noBrowser: Browser = {
  available: false,
  render: async () => {
    throw new UpstreamError("browser", "not_configured", "Browser Rendering is not configured on this server.");
  },
};

/** Background work handed to ctx.waitUntil (website-legal's render): each test waits for it, so no browser outlives it. */
const background: Promise<unknown>[] = [];
afterEach(async () => {
  await Promise.allSettled(background.splice(0));
});

/** An OpContext as the gateway builds one, over the test env's services (with these replaced). */
function ctxOf(overrides: Partial<Services> = {}): OpContext {
  return {
    services: buildServices(env as never, overrides),
    requestId: "req_site_checks",
    origin: "http://api.test",
    caller: null,
    ip: "192.0.2.60",
    now: new Date("2026-11-21T09:00:00.000Z"),
    signal: new AbortController().signal,
    charge: async () => ({ charged: 0, remaining: 0 }),
    refund: () => {},
    waitUntil: (p) => void background.push(p),
  };
}

/** The register's facts of a company, from its Companies House profile (as the enrichment core reads them). */
async function factsOf(ctx: OpContext, number: string): Promise<RegisterFacts> {
  return registerFactsOfProfile((await ctx.services.companiesHouse.getProfile(number)) as CompanyProfile);
}

const profileOf = (r: RegisterFacts, website: string): BusinessProfile => ({
  found: true,
  name: r.name,
  website,
  companyNumber: r.number,
  status: r.status,
  signals: [],
  accuracy: { score: 90, confidence: "high", breakdown: [] },
  confidence: "high",
  sources: ["companies register", `website: ${website}`],
  attribution: "test",
});

/** Keeps what a reply built from these checks would show, for test/setup.ts's scan for people's names. */
const keep = (what: unknown) => unverifiedReplies.push({ path: "/api/v1/score", text: JSON.stringify(what) });

describe("issue 18 §2 businessScore: runSiteChecks on fixture sites", () => {
  it("every tool's reply parses with its own output schema; without a browser the audit is recorded as failed, with the reason, and nothing is thrown", async () => {
    const checks = await runSiteChecks(ctxOf({ browser: noBrowser }), "https://aiv.test/");
    keep(checks);
    expect(checks.homepage).toBe("https://aiv.test/");
    expect(checks.legal.ran).toBe(true);
    expect(checks.aiVisibility.ran).toBe(true);
    if (!checks.legal.ran || !checks.aiVisibility.ran) return;
    expect(checkWebsiteLegal.output.safeParse(checks.legal.reply).success).toBe(true);
    expect(checkAiVisibility.output.safeParse(checks.aiVisibility.reply).success).toBe(true);
    expect(checks.legal.reply.checks.tradingDisclosures.stated.companyNumber).toBe("14725836");
    expect(checks.aiVisibility.reply.business).toMatchObject({ companyNumber: "14725836", onRegister: true });
    // The tools' own "couldn't tell" without a browser, inside replies that still answered.
    expect(checks.legal.reply.checks.cookiesBeforeConsent.status).toBe("unknown");
    expect(checks.aiVisibility.reply.rendering.judged).toBe(false);
    expect(checks.accessibility).toEqual({
      ran: false,
      reason: "no browser is configured on this server, so the accessibility audit could not run.",
      error: { kind: "upstream", source: "browser", upstream: "not_configured" },
    });
  });

  it.skipIf(!!env.BROWSER_PRESENT)("with the test run's own services and no browser here: the audit's reason says so", async () => {
    const checks = await runSiteChecks(ctxOf(), "https://legal.test/");
    keep(checks);
    expect(checks.legal.ran).toBe(true);
    expect(checks.accessibility.ran).toBe(false);
    if (!checks.accessibility.ran) expect(checks.accessibility.reason).toMatch(/no browser is configured/);
  });

  it.skipIf(!env.BROWSER_PRESENT)(
    "with the real browser: all three run on the accessibility fixture, and the audit's reply parses with its schema",
    async () => {
      const checks = await runSiteChecks(ctxOf(), "https://a11y.test/");
      keep(checks);
      expect(checks.accessibility.ran).toBe(true);
      expect(checks.legal.ran).toBe(true);
      expect(checks.aiVisibility.ran).toBe(true);
      if (!checks.accessibility.ran) return;
      expect(auditAccessibility.output.safeParse(checks.accessibility.reply).success).toBe(true);
      expect(checks.accessibility.reply.findings.length).toBeGreaterThan(0);
      // The cookie check watched the page too.
      if (checks.legal.ran) expect(checks.legal.reply.checks.cookiesBeforeConsent.status).not.toBe("unknown");
    },
    RENDER_TIMEOUT_MS,
  );

  it("a site that is down (its homepage missing): each check recorded as failed with the site's reason, not thrown", async () => {
    const checks = await runSiteChecks(ctxOf({ browser: noBrowser }), "https://legal3.test/no-such-page");
    keep(checks);
    for (const k of ["legal", "aiVisibility"] as const) {
      const c = checks[k];
      expect(c.ran, k).toBe(false);
      if (!c.ran) {
        expect(c.error.kind).toBe("input");
        expect(c.reason).toMatch(/could not read the homepage \(.*404/);
      }
    }
    // The audit fetches the page before it asks for the browser: the site's refusal comes first.
    expect(checks.accessibility).toMatchObject({ ran: false, error: { kind: "input" } });
  });

  it("a homepage that does not answer in time: each check says so", async () => {
    const web: Services["web"] = {
      fetch: async () => {
        throw new InputError("fetch_timeout", "The page did not answer within 10 s.");
      },
    };
    const checks = await runSiteChecks(ctxOf({ web, browser: noBrowser }), "https://legal.test/");
    expect(checks.legal).toEqual({
      ran: false,
      reason: "the website legal check could not read the homepage (The page did not answer within 10 s).",
      error: { kind: "input", code: "fetch_timeout" },
    });
    expect(checks.aiVisibility).toMatchObject({ ran: false, error: { kind: "input", code: "fetch_timeout" } });
    expect(checks.accessibility).toMatchObject({ ran: false, error: { kind: "input", code: "fetch_timeout" } });
  });

  it("a homepage given without its scheme: https:// is assumed for all three", async () => {
    const checks = await runSiteChecks(ctxOf({ browser: noBrowser }), "legal.test");
    expect(checks.legal.ran && checks.legal.reply.url).toBe("https://legal.test/");
    expect(checks.aiVisibility.ran && checks.aiVisibility.reply.page.url).toBe("https://legal.test/");
    // The audit reached the page (and stopped only for want of a browser).
    expect(checks.accessibility).toMatchObject({ ran: false, error: { kind: "upstream", source: "browser" } });
  });

  it("an invalid address is recorded as the caller's, not thrown", async () => {
    const checks = await runSiteChecks(ctxOf({ browser: noBrowser }), " ");
    for (const k of ["legal", "aiVisibility", "accessibility"] as const)
      expect(checks[k], k).toMatchObject({ ran: false, error: { kind: "input", code: "invalid_url" } });
  });

  it("all three failing on an upstream of ours (the DNS resolver) → the first UpstreamError is thrown (503, credits back)", async () => {
    const web: Services["web"] = {
      fetch: async () => {
        throw new UpstreamError("dns", "unreachable", "The DNS resolver could not be reached.");
      },
    };
    await expect(runSiteChecks(ctxOf({ web, browser: noBrowser }), "https://legal.test/")).rejects.toMatchObject({ name: "UpstreamError", source: "dns" });
  });

  it("Companies House down and no browser: all three failed on upstreams → thrown; it is never turned into findings", async () => {
    const companiesHouse = {
      getProfile: async () => {
        throw new UpstreamError("companies-house", "unreachable", "Companies House could not be reached.");
      },
    } as unknown as Services["companiesHouse"];
    await expect(runSiteChecks(ctxOf({ companiesHouse, browser: noBrowser }), "https://aiv.test/")).rejects.toMatchObject({ source: "companies-house" });
  });

  it("only some checks failing on an upstream: recorded, not thrown (the others still answer)", async () => {
    const companiesHouse = {
      getProfile: async () => {
        throw new UpstreamError("companies-house", "unreachable", "Companies House could not be reached.");
      },
    } as unknown as Services["companiesHouse"];
    // aiv3.test states no company number, so ai-visibility never asks Companies House.
    const checks = await runSiteChecks(ctxOf({ companiesHouse, browser: noBrowser }), "https://aiv3.test/");
    expect(checks.aiVisibility.ran).toBe(true);
    expect(checks.legal.ran).toBe(true);
    expect(checks.accessibility).toMatchObject({ ran: false, error: { kind: "upstream", source: "browser" } });
  });

  it.skipIf(!env.BROWSER_PRESENT)(
    "Companies House down but the browser here: the audit runs, the two checks that needed the register say why, nothing thrown",
    async () => {
      const companiesHouse = {
        getProfile: async () => {
          throw new UpstreamError("companies-house", "unreachable", "Companies House could not be reached.");
        },
      } as unknown as Services["companiesHouse"];
      const checks = await runSiteChecks(ctxOf({ companiesHouse }), "https://legal.test/");
      expect(checks.accessibility.ran).toBe(true);
      expect(checks.legal).toEqual({
        ran: false,
        reason: "the website legal check could not run because Companies House could not be reached just now (Companies House could not be reached).",
        error: { kind: "upstream", source: "companies-house", upstream: "unreachable" },
      });
      expect(checks.aiVisibility).toMatchObject({ ran: false, error: { kind: "upstream", source: "companies-house" } });
    },
    RENDER_TIMEOUT_MS,
  );

  it("a bug is not hidden: an unexpected error is rethrown as it is", async () => {
    const web: Services["web"] = {
      fetch: async () => {
        throw new TypeError("boom");
      },
    };
    await expect(runSiteChecks(ctxOf({ web, browser: noBrowser }), "https://legal.test/")).rejects.toThrow(TypeError);
  });
});

describe("issue 18 §2 businessScore: the score of real replies", () => {
  const score = async (host: string, number: string, services: Partial<Services> = { browser: noBrowser }) => {
    const ctx = ctxOf(services);
    const [checks, register] = await Promise.all([runSiteChecks(ctx, `https://${host}/`), factsOf(ctx, number)]);
    const out = scoreBusiness({ profile: profileOf(register, `https://${host}/`), register, checks: checks as SiteChecks, today: "2026-11-21" });
    keep(out);
    return { checks, out };
  };

  it("a compliant site (legal.test, Tidemark, 16240001): registry and legal full marks, accessibility left out with the reason, the reply parses", async () => {
    const { out } = await score("legal.test", "16240001");
    expect(BusinessScoreResult.safeParse(out).success).toBe(true);
    const cat = Object.fromEntries(out.categories.map((c) => [c.key, c]));
    expect(cat.registry).toMatchObject({ status: "scored", score: 100, max: 100, findings: [] });
    // Cookies were not watched (no browser): left out of legal's maximum, which is then 80.
    expect(cat.legal).toMatchObject({ status: "scored", score: 80, max: 80 });
    expect(cat.legal.parts.find((p) => p.key === "cookiesBeforeConsent")).toMatchObject({ judged: false });
    expect(cat.accessibility).toMatchObject({ status: "couldnt_tell", share: 0 });
    expect(cat.accessibility.reason).toBe("No browser is configured on this server, so the accessibility audit could not run.");
    expect(out.basis).toMatch(/Scored on 4 of 5 categories.*accessibility/);
    expect(out.score).toBeGreaterThanOrEqual(0);
    // Everything the plan cites is a finding of its category, with evidence.
    for (const a of out.actionPlan) {
      const c = cat[a.category];
      expect(a.findings.every((id) => c.findings.some((f) => f.id === id))).toBe(true);
      expect(a.evidence.quote.length).toBeGreaterThan(0);
    }
    // The fixture's footer names its director: never in the score.
    expect(JSON.stringify(out)).not.toMatch(/Marlowe/);
  });

  it("the ai-visibility fixture (aiv.test, 14725836): its checks' points become the aiVisibility category, findings quoted", async () => {
    const { checks, out } = await score("aiv.test", "14725836");
    expect(BusinessScoreResult.safeParse(out).success).toBe(true);
    const aiv = out.categories.find((c) => c.key === "aiVisibility")!;
    if (!checks.aiVisibility.ran) throw new Error("ai-visibility did not run");
    const judged = checks.aiVisibility.reply.scoring.checks.filter((c) => c.judged);
    expect(aiv.max).toBe(judged.reduce((s, c) => s + c.max, 0));
    expect(aiv.score).toBeCloseTo(
      judged.reduce((s, c) => s + c.points, 0),
      1,
    );
    expect(Math.round((100 * aiv.score!) / aiv.max!)).toBe(checks.aiVisibility.reply.score);
    for (const c of out.categories) for (const f of c.findings) expect(f.evidence.quote && f.evidence.where, `${c.key} ${f.id}`).toBeTruthy();
  });

  it.skipIf(!env.BROWSER_PRESENT)(
    "with the real browser on the accessibility fixture: all five categories can be scored and the audit's findings are in the plan",
    async () => {
      const ctx = ctxOf();
      const checks = await runSiteChecks(ctx, "https://a11y.test/");
      const out = scoreBusiness({
        profile: { found: true, signals: [], accuracy: { score: 0, confidence: "low", breakdown: [] }, confidence: "low", sources: [], attribution: "" },
        register: null,
        checks,
        today: "2026-11-21",
      });
      keep(out);
      const a11y = out.categories.find((c) => c.key === "accessibility")!;
      expect(a11y.status).toBe("scored");
      if (checks.accessibility.ran) expect(a11y.score).toBe(checks.accessibility.reply.score);
      expect(a11y.findings.length).toBeGreaterThan(0);
      expect(out.actionPlan.some((a) => a.category === "accessibility")).toBe(true);
      expect(out.notice).toMatch(/minority/);
    },
    RENDER_TIMEOUT_MS,
  );
});
