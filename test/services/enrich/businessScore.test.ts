import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { BusinessScoreResult } from "../../../src/app/enrichment/scoreSchema";
import { parseCompanyProfile } from "../../../src/sources/companies-house/parse";
import type { CompanyProfile } from "../../../src/services/companies/profile";
import { registerFactsOfProfile } from "../../../src/services/enrich/profile";
import {
  type AccessibilityReplyPart,
  type AiVisibilityReplyPart,
  type BusinessScore,
  type LegalReplyPart,
  type SiteCheckOutcomes,
  BUSINESS_SCORE_FORMULA,
  CATEGORY_WEIGHTS,
  GRADE_BANDS,
  GRADE_MIN_COVERAGE,
  MAX_ACTIONS,
  gradeOf,
  scoreBusiness,
} from "../../../src/services/enrich/businessScore";
import type { BusinessProfile, RegisterFacts } from "../../../src/services/enrich/types";
import { auditReply } from "../../../src/services/web/accessibility/audit";
import { type PageRead, type RenderOutcome, assessLegal } from "../../../src/services/web/legal";
import type { AxeResults, AxeRuleResult } from "../../../src/services/web/rendered";
import { readPage } from "../../../src/services/web/siteLinks";

/**
 * Issue 18 §2 `businessScore` (SPEC §2.3): the Business Score's categories, weights and renormalisation, the action
 * plan's order and impact arithmetic, and the evidence of every finding. The web tools' replies are made by their
 * own pure code where it is cheap (website-legal: assessLegal over a page; the audit: auditReply over axe results) and
 * hand-built in the ai-visibility reply's shape otherwise.
 */

const HOME = "https://www.harbourline.co.uk/";
const TODAY = "2026-11-21";

// ---- website-legal, from a page read by the real code --------------------------------------------------------

const GOOD_FOOTER = `<footer><a href="/privacy">Privacy notice</a> <a href="/terms-of-sale">Terms of sale</a> <a href="/accessibility">Accessibility statement</a>
<p>© 2026 Harbourline Joinery Ltd. Registered in England and Wales, company number 07654321. Registered office: 4 Quay Street, Bristol BS1 4DB.
Email <a href="mailto:hello@harbourline.co.uk">hello@harbourline.co.uk</a>. VAT No. GB 287 4561 62.</p></footer>`;
/** A site as many are: no privacy notice, no company details, only a contact form; its footer names a director. */
const POOR_FOOTER = `<footer><a href="/contact">Contact us</a> <a href="/website-terms">Website terms of use</a>
<p>© 2026 Harbourline Joinery. Director: Wilhelmina Quarrington. VAT No. GB 123 4567 00.</p></footer>`;

const page = (footer: string, url = HOME) =>
  `<!doctype html><html lang="en"><head><title>Harbourline Joinery</title></head><body><main><h1>Bespoke joinery in Bristol</h1></main>${footer}</body></html>`;

const PROFILE_07654321: CompanyProfile = {
  number: "07654321",
  name: "HARBOURLINE JOINERY LIMITED",
  status: "active",
  statusDetail: null,
  type: "ltd",
  incorporatedOn: "2011-06-01",
  ceasedOn: null,
  jurisdiction: "england-wales",
  registeredOffice: {
    line1: "4 Quay Street",
    line2: null,
    locality: "Bristol",
    region: null,
    postcode: "BS1 4DB",
    country: "England",
    text: "4 Quay Street, Bristol, BS1 4DB, England",
  },
  previousNames: [],
  sicCodes: ["16230"],
  accountsOverdue: false,
  confirmationStatementOverdue: false,
  filingDates: { accountsDueOn: null, accountsMadeUpTo: null, confirmationStatementDueOn: null, confirmationStatementMadeUpTo: null },
  hasFilingDeadlines: true,
};

const noBrowser: RenderOutcome = { reason: "no browser is configured on this server, so cookies and trackers were not observed" };
const cleanRender = (cookies: { name: string; thirdParty?: boolean }[] = []): RenderOutcome => ({
  page: {
    url: HOME,
    finalUrl: HOME,
    status: 200,
    title: "Harbourline Joinery",
    cookies: cookies.map((c) => ({
      name: c.name,
      domain: c.thirdParty ? ".tracker.example" : "www.harbourline.co.uk",
      path: "/",
      expires: null,
      httpOnly: false,
      secure: true,
      sameSite: null,
      thirdParty: !!c.thirdParty,
    })),
    storageKeys: [],
    requests: [],
    cut: [],
    timings: { browserMs: 1, loadMs: 1, axeMs: null, totalMs: 2 },
  },
});

function legalReply(footer: string, opts: { rendered?: RenderOutcome; profile?: CompanyProfile | null; url?: string; broken?: string[] } = {}): LegalReplyPart {
  const url = opts.url ?? HOME;
  const home: PageRead = { ...readPage(page(footer), url), url, kind: "home" };
  const notRead = (opts.broken ?? []).map((u) => ({ url: u, kind: "contact" as const, reason: "The page answered with HTTP status 404." }));
  const numbers = /07654321/.test(footer) ? ["07654321"] : [];
  const report = assessLegal({
    pages: [home],
    notRead,
    register: numbers.length ? numbers.map((n) => ({ number: n, profile: opts.profile === undefined ? PROFILE_07654321 : opts.profile })) : null,
    rendered: opts.rendered ?? cleanRender([{ name: "cookieyes-consent" }]),
  });
  return {
    url,
    pagesRead: [{ url, kind: "home", read: true }, ...notRead.map((n) => ({ url: n.url, kind: n.kind, read: false, reason: n.reason }))],
    checks: report.checks,
  };
}

// ---- accessibility audit, from axe results through the real auditReply ----------------------------------------

const rule = (id: string, impact: AxeRuleResult["impact"], tags: string[], nodes = 1): AxeRuleResult => ({
  id,
  impact,
  tags: ["wcag2a", ...tags],
  description: id,
  help: `${id} help`,
  helpUrl: `https://dequeuniversity.com/rules/axe/4.11/${id}`,
  nodeCount: nodes,
  nodes: Array.from({ length: Math.min(nodes, 3) }, (_, i) => ({ target: [`#el-${id}-${i}`], html: `<div id="el-${id}-${i}">` })),
});
const PASSES = [
  rule("document-title", "serious", ["wcag242"]),
  rule("html-has-lang", "serious", ["wcag311"]),
  rule("button-name", "critical", ["wcag412"]),
  rule("list", "serious", ["wcag131"]),
  rule("bypass", "serious", ["wcag241"]),
];
const FAILS = [
  rule("image-alt", "critical", ["wcag111"], 4),
  rule("color-contrast", "serious", ["wcag143"], 12),
  rule("link-name", "serious", ["wcag244", "wcag412"], 2),
  rule("region", "moderate", ["wcag131"], 3),
  rule("heading-order", "moderate", ["wcag131"], 1),
  rule("meta-viewport", "critical", ["wcag144"], 1),
  rule("label", "critical", ["wcag412"], 2),
];
const axe = (violations: AxeRuleResult[], passes: AxeRuleResult[] = PASSES): AxeResults => ({
  testEngine: { name: "axe-core", version: "4.11.0" },
  framesNotAudited: 0,
  violations,
  incomplete: [],
  passes,
  inapplicable: [],
});
const a11yReply = (violations: AxeRuleResult[], passes: AxeRuleResult[] = PASSES): AccessibilityReplyPart => ({
  url: HOME,
  ...auditReply(axe(violations, passes)),
});

// ---- ai-visibility, hand-built in its reply's shape ------------------------------------------------------------

function aivReply(opts: { robotsPoints?: number; lastmod?: string | null; structured?: boolean } = {}): AiVisibilityReplyPart {
  const robots = opts.robotsPoints ?? 30;
  const structured = opts.structured ?? true;
  const checks = [
    { check: "robots", points: robots, max: 30, judged: true },
    { check: "indexing", points: 15, max: 15, judged: true },
    { check: "rendering", points: 0, max: 15, judged: false },
    { check: "structuredData", points: structured ? 15 : 0, max: 15, judged: true },
    { check: "sitemap", points: 10, max: 10, judged: true },
    { check: "llmsTxt", points: 0, max: 5, judged: true },
    { check: "meta", points: 10, max: 10, judged: true },
  ];
  const judged = checks.filter((c) => c.judged);
  const findings: AiVisibilityReplyPart["findings"] = [];
  if (robots < 30)
    findings.push({
      id: "robots-blocks-search",
      severity: "high",
      check: "robots",
      message: "robots.txt keeps Googlebot, Bingbot from the page: it cannot appear in their search results.",
      evidence: { quote: "Disallow: /", where: "https://www.harbourline.co.uk/robots.txt line 2" },
      fix: "Remove the Disallow rules that apply to search crawlers.",
    });
  if (!structured)
    findings.push({
      id: "jsonld-no-organisation",
      severity: "medium",
      check: "structuredData",
      message: "The page states no schema.org Organization or LocalBusiness in JSON-LD.",
      evidence: { quote: "1 <script> element, none of type application/ld+json", where: HOME },
      fix: "Add an Organization JSON-LD block.",
    });
  findings.push({
    id: "llms-txt-missing",
    severity: "low",
    check: "llmsTxt",
    message: "There is no /llms.txt. It is an emerging convention, so this weighs little.",
    evidence: { quote: "GET https://www.harbourline.co.uk/llms.txt → HTTP 404", where: "https://www.harbourline.co.uk/llms.txt" },
    fix: "Publish /llms.txt.",
  });
  findings.push({
    id: "robots-absent",
    severity: "info",
    check: "robots",
    message: "No robots.txt.",
    evidence: { quote: "HTTP 404", where: "robots.txt" },
    fix: "Nothing to do.",
  });
  const lastmod = opts.lastmod === undefined ? "2026-10-02" : opts.lastmod;
  return {
    page: { url: HOME },
    score: Math.round((100 * judged.reduce((s, c) => s + c.points, 0)) / judged.reduce((s, c) => s + c.max, 0)),
    scoring: { checks },
    findings,
    structuredData: {
      organisations: structured
        ? [{ block: 1, name: "Harbourline Joinery", sameAs: [], address: { text: "4 Quay Street, Bristol BS1 4DB" }, telephone: null }]
        : [],
    },
    sitemap: { lastmod: lastmod ? { earliest: "2019-01-04", latest: lastmod } : null, files: [{ url: `${HOME}sitemap.xml`, kind: "urlset" }] },
  };
}

// ---- the register and the profile ------------------------------------------------------------------------------

const facts = (over: Partial<RegisterFacts> = {}): RegisterFacts => ({
  number: "07654321",
  name: "HARBOURLINE JOINERY LIMITED",
  status: "active",
  statusDetail: null,
  type: "ltd",
  incorporationDate: "2011-06-01",
  sicCodes: ["16230"],
  sicDescriptions: {},
  registeredOffice: { text: "4 Quay Street, Bristol, BS1 4DB, England", postcode: "BS1 4DB", locality: "Bristol" },
  accountsOverdue: false,
  confirmationStatementOverdue: false,
  lastAccountsType: "micro-entity",
  activeOfficers: 2,
  record: { source: "live", asOf: TODAY, bulkFileDate: null, fromBulkFile: [], liveNote: null },
  ...over,
});
const profileOf = (r: RegisterFacts | null): BusinessProfile => ({
  found: true,
  name: r?.name ?? "Harbourline Joinery",
  website: HOME,
  ...(r ? { companyNumber: r.number } : {}),
  signals: [],
  accuracy: { score: 90, confidence: "high", breakdown: [] },
  confidence: "high",
  sources: [],
  attribution: "",
});

function run(checks: Partial<SiteCheckOutcomes> = {}, register: RegisterFacts | null = facts(), today = TODAY): BusinessScore {
  const all: SiteCheckOutcomes = {
    homepage: HOME,
    legal: { ran: true, reply: legalReply(GOOD_FOOTER) },
    aiVisibility: { ran: true, reply: aivReply() },
    accessibility: { ran: true, reply: a11yReply(FAILS.slice(0, 2)) },
    ...checks,
  };
  const out = scoreBusiness({ profile: profileOf(register), register, checks: all, today });
  // Every reply the operation would give parses with its schema.
  const parsed = BusinessScoreResult.safeParse(out);
  expect(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 3))).toBe(true);
  return out;
}

const cat = (out: BusinessScore, key: string) => out.categories.find((c) => c.key === key)!;
/** The score recomputed from the categories, by the formula's words (unrounded). */
const exactOf = (out: BusinessScore) => {
  const scored = out.categories.filter((c) => c.status === "scored");
  const w = scored.reduce((s, c) => s + c.weight, 0);
  return scored.reduce((s, c) => s + ((100 * c.weight) / w) * (c.score! / c.max!), 0);
};

// ---------------------------------------------------------------------------------------------------------------

describe("issue 18 §2 businessScore: categories and the score (SPEC §2.3)", () => {
  it("a well-kept business: five categories scored with the stated weights; the score is their weighted mean; the grade by its band", () => {
    const out = run();
    expect(out.categories.map((c) => c.key)).toEqual(["registry", "legal", "accessibility", "aiVisibility", "trust"]);
    expect(out.categories.every((c) => c.status === "scored")).toBe(true);
    expect(Object.fromEntries(out.categories.map((c) => [c.key, c.weight]))).toEqual(CATEGORY_WEIGHTS);
    expect(out.categories.map((c) => c.share)).toEqual([25, 25, 20, 15, 15]);
    expect(cat(out, "registry")).toMatchObject({ score: 100, max: 100, findings: [] });
    expect(cat(out, "legal")).toMatchObject({ score: 100, max: 100, findings: [] });
    // The audit's own score is the category's.
    expect(cat(out, "accessibility").score).toBe(a11yReply(FAILS.slice(0, 2)).score);
    // ai-visibility: its judged checks' points (rendering not judged: out of the max).
    expect(cat(out, "aiVisibility")).toMatchObject({ score: 80, max: 85 });
    expect(out.score).toBe(Math.round(exactOf(out)));
    expect(out.grade).toBe(gradeOf(out.score!));
    expect(out.basis).toMatch(/^Scored on all 5 categories/);
    expect(out.formula).toBe(BUSINESS_SCORE_FORMULA);
    for (const [k, v] of Object.entries(CATEGORY_WEIGHTS)) expect(out.formula).toContain(`${k} ${v}`);
    expect(out.notice).toMatch(/not legal advice/);
    expect(out.notice).toMatch(/only a minority/);
    expect(out.notice).toMatch(/never a compliance certification/);
  });

  it("grade bands: A 85–100, B 70–84, C 55–69, D 40–54, E 0–39", () => {
    expect(GRADE_BANDS.map((b) => b.min)).toEqual([85, 70, 55, 40, 0]);
    expect([100, 85, 84, 70, 69, 55, 54, 40, 39, 0].map(gradeOf)).toEqual(["A", "A", "B", "B", "C", "C", "D", "D", "E", "E"]);
  });

  it("accessibility couldn't be told (no browser): left out, the weights shared out again, and the reply says so", () => {
    const out = run({ accessibility: { ran: false, reason: "no browser is configured on this server, so the accessibility audit could not run." } });
    const a = cat(out, "accessibility");
    expect(a).toMatchObject({ status: "couldnt_tell", score: null, max: null, share: 0, weight: 20 });
    expect(a.reason).toBe("No browser is configured on this server, so the accessibility audit could not run.");
    // 25/80, 25/80, 15/80, 15/80.
    expect(out.categories.filter((c) => c.status === "scored").map((c) => c.share)).toEqual([31.3, 31.3, 18.8, 18.8]);
    expect(out.basis).toMatch(
      /^Scored on 4 of 5 categories\. Couldn't tell: accessibility \(No browser is configured on this server, so the accessibility audit could not run\)\. Their weight \(20\) is left out/,
    );
    expect(out.score).toBe(Math.round(exactOf(out)));
    // Nothing of the audit is in the plan.
    expect(out.actionPlan.some((x) => x.category === "accessibility")).toBe(false);
  });

  it("no company confirmed on the register: registry couldn't be told, the company-only disclosures not judged", () => {
    const out = run(
      {
        legal: {
          ran: true,
          reply: legalReply(`<footer><a href="/privacy">Privacy</a><p>Harbourline, 4 Quay Street, Bristol BS1 4DB. hello@harbourline.co.uk</p></footer>`),
        },
      },
      null,
    );
    expect(cat(out, "registry")).toMatchObject({ status: "couldnt_tell" });
    expect(cat(out, "registry").reason).toMatch(/No company on the Companies House register was confirmed/);
    const legal = cat(out, "legal");
    expect(legal.parts.filter((p) => !p.judged).map((p) => p.key)).toEqual(["registeredName", "placeOfRegistration", "vatNumber"]);
    expect(legal.max).toBe(70);
  });

  it("website-legal could not run: legal couldn't be told; registry keeps its register parts, the site's parts not judged", () => {
    const out = run({ legal: { ran: false, reason: "the website legal check could not read the homepage (The page did not answer within 10 s)." } });
    expect(cat(out, "legal")).toMatchObject({ status: "couldnt_tell" });
    const reg = cat(out, "registry");
    expect(reg).toMatchObject({ status: "scored", score: 80, max: 80 });
    // The Gazette was not asked for in these facts: its part is not judged either (issue 28 §2: no absence unchecked).
    expect(reg.parts.filter((p) => !p.judged).map((p) => p.key)).toEqual(["noInsolvencyNotice", "numberOnSite", "officeOnSite"]);
    // https still comes from the ai-visibility reply's page.
    expect(cat(out, "trust").parts.find((p) => p.key === "https")).toMatchObject({ judged: true, points: 35 });
  });

  it("nothing could be read and no company: no score, no grade (never a made-up 0)", () => {
    const failed = { ran: false as const, reason: "could not read the homepage" };
    const out = run({ legal: failed, aiVisibility: failed, accessibility: failed }, null);
    expect(out).toMatchObject({ score: null, grade: null, actionPlan: [] });
    expect(out.basis).toBe("No category could be scored, so there is no score.");
  });

  it("cookies not watched (no browser for website-legal): the part is not judged and legal's max drops by its 20", () => {
    const out = run({ legal: { ran: true, reply: legalReply(GOOD_FOOTER, { rendered: noBrowser }) } });
    expect(cat(out, "legal")).toMatchObject({ score: 80, max: 80 });
    const withTrackers = run({
      legal: { ran: true, reply: legalReply(GOOD_FOOTER, { rendered: cleanRender([{ name: "_ga" }, { name: "IDE", thirdParty: true }]) }) },
    });
    const f = cat(withTrackers, "legal").findings.find((x) => x.id === "cookies-before-consent")!;
    expect(f).toMatchObject({ severity: "high", required: true });
    expect(f.evidence.quote).toMatch(/Cookie _ga/);
  });

  it("the modern slavery statement is judged only where the accounts type says turnover may reach £36m", () => {
    const ms = (type: string | null) => cat(run({}, facts({ lastAccountsType: type })), "trust").parts.find((p) => p.key === "modernSlaveryStatement")!;
    expect(ms("micro-entity").judged).toBe(false);
    expect(ms("total-exemption-full").judged).toBe(false);
    expect(ms(null).judged).toBe(false);
    expect(ms("group")).toMatchObject({ judged: true, points: 0 });
    expect(ms("FULL")).toMatchObject({ judged: true, points: 0 });
  });

  it("freshness comes from the sitemap's latest <lastmod> against `today`", () => {
    const part = (lastmod: string | null, today = TODAY) => {
      const out = run({ aiVisibility: { ran: true, reply: aivReply({ lastmod }) } }, facts(), today);
      return {
        part: cat(out, "trust").parts.find((p) => p.key === "freshness")!,
        finding: cat(out, "trust").findings.find((f) => f.id === "site-not-updated"),
      };
    };
    expect(part("2026-10-02").part).toMatchObject({ judged: true, points: 15 });
    const old = part("2023-05-01");
    expect(old.part).toMatchObject({ judged: true, points: 0 });
    expect(old.finding!.message).toContain("2023-05-01");
    expect(old.finding!.evidence).toEqual({ quote: "latest <lastmod> 2023-05-01", where: `${HOME}sitemap.xml` });
    // The same sitemap read a year earlier was fresh.
    expect(part("2023-05-01", "2024-01-10").part.points).toBe(15);
    expect(part(null).part.judged).toBe(false);
    // A month only: its last day counts (Date.parse read it as the 1st, and the shared daysBetween takes dates only).
    expect(part("2025-11", "2026-11-28").part).toMatchObject({ judged: true, points: 15 }); // 30 Nov 2025: within a year
    expect(part("2025-10", "2026-11-28").part).toMatchObject({ judged: true, points: 0 });
    expect(part("2025-02", "2026-02-28").part).toMatchObject({ judged: true, points: 15 }); // 28 Feb 2025: exactly a year
    expect(part("not a date").part.judged).toBe(false);
  });
});

describe("issue 18 §2 businessScore: findings and their evidence", () => {
  it("a poor site and a company in trouble: every finding has evidence and a fix; register problems quote the register's field; no person named", () => {
    const register = facts({ status: "active", statusDetail: "active-proposal-to-strike-off", accountsOverdue: true, confirmationStatementOverdue: true });
    const out = run(
      {
        legal: {
          ran: true,
          reply: legalReply(POOR_FOOTER, { rendered: cleanRender([{ name: "_ga" }]), url: "http://www.harbourline.co.uk/", broken: [`${HOME}contact`] }),
        },
        aiVisibility: { ran: true, reply: aivReply({ robotsPoints: 6, structured: false, lastmod: "2021-02-03" }) },
        accessibility: { ran: true, reply: a11yReply(FAILS) },
      },
      register,
    );
    const all = out.categories.flatMap((c) => c.findings.map((f) => ({ c: c.key, ...f })));
    expect(all.length).toBeGreaterThan(15);
    for (const f of all) {
      expect(f.evidence.quote.length, `${f.c} ${f.id}`).toBeGreaterThan(0);
      expect(f.evidence.where.length, `${f.c} ${f.id}`).toBeGreaterThan(0);
      expect(f.fix.length, `${f.c} ${f.id}`).toBeGreaterThan(0);
      expect(
        cat(out, f.c).parts.some((p) => p.key === f.part),
        `${f.c} ${f.id} → ${f.part}`,
      ).toBe(true);
    }
    const ids = (k: string) => cat(out, k).findings.map((f) => f.id);
    expect(ids("registry")).toEqual([
      "proposal-to-strike-off",
      "accounts-overdue",
      "confirmation-statement-overdue",
      "company-number-not-on-site",
      "registered-office-not-on-site",
    ]);
    expect(cat(out, "registry").findings[0].evidence).toEqual({
      quote: "status detail: active-proposal-to-strike-off",
      where: "companies register, company 07654321: status detail",
    });
    expect(ids("legal")).toEqual(
      expect.arrayContaining([
        "registered-name-missing",
        "place-of-registration-missing",
        "geographic-address-missing",
        "email-missing",
        "privacy-notice-missing",
        "cookies-before-consent",
        "vat-number-invalid",
        "terms-website-only",
      ]),
    );
    // The VAT number's check digits fail: website-legal's own words, quoting the number.
    expect(cat(out, "legal").findings.find((f) => f.id === "vat-number-invalid")!.evidence.quote).toMatch(/GB 123 4567 00/);
    expect(ids("trust")).toEqual(expect.arrayContaining(["not-https", "linked-page-broken", "site-not-updated"]));
    expect(cat(out, "trust").findings.find((f) => f.id === "linked-page-broken")!.evidence.quote).toBe(
      `${HOME}contact: The page answered with HTTP status 404.`,
    );
    // ai-visibility's info findings cost nothing and are not listed; the others keep their quotes.
    expect(ids("aiVisibility")).toEqual(["robots-blocks-search", "jsonld-no-organisation", "llms-txt-missing"]);
    expect(cat(out, "aiVisibility").findings[0].evidence.quote).toBe("Disallow: /");
    // Accessibility: the top 5 failed rules as findings, the rest in one part.
    expect(ids("accessibility")).toHaveLength(5);
    expect(cat(out, "accessibility").parts.at(-1)).toMatchObject({ key: "otherRules", label: "2 other failed rules", points: 0 });
    expect(JSON.stringify(out)).not.toMatch(/Wilhelmina|Quarrington/);
  });

  it("a company that is not active: a required, high finding on the register's status", () => {
    const out = run({}, facts({ status: "liquidation" }));
    expect(cat(out, "registry").findings[0]).toMatchObject({
      id: "company-not-active",
      severity: "high",
      required: true,
      evidence: { quote: "status: liquidation" },
    });
    expect(cat(out, "registry").score).toBe(70);
  });

  it("the site states another company's number, and an office the register does not have", () => {
    const other: CompanyProfile = {
      ...PROFILE_07654321,
      registeredOffice: { ...PROFILE_07654321.registeredOffice, line1: "9 Mill Lane", postcode: "BS3 1AA", text: "9 Mill Lane, Bristol, BS3 1AA" },
    };
    const out = run(
      { legal: { ran: true, reply: legalReply(GOOD_FOOTER, { profile: other }) } },
      facts({ number: "07654322", registeredOffice: { text: "9 Mill Lane, Bristol, BS3 1AA", postcode: "BS3 1AA", locality: "Bristol" } }),
    );
    const ids = cat(out, "registry").findings.map((f) => f.id);
    expect(ids).toEqual(["company-number-differs", "registered-office-differs"]);
    expect(cat(out, "registry").findings[0].message).toBe("The site states company number 07654321; the company confirmed on the register is 07654322.");
    expect(cat(out, "registry").findings[1].evidence.quote).toMatch(/4 Quay Street/);
    // The register's office is the one the site gives: without website-legal's own comparison, the postcode and first line still match.
    const same = run({ legal: { ran: true, reply: legalReply(GOOD_FOOTER, { profile: other }) } }, facts({ number: "07654322" }));
    expect(cat(same, "registry").parts.find((p) => p.key === "officeOnSite")).toMatchObject({ points: 10, max: 10 });
    const postcodeOnly = run(
      { legal: { ran: true, reply: legalReply(GOOD_FOOTER, { profile: other }) } },
      facts({ number: "07654322", registeredOffice: { text: "Unit 2, Quay Street, Bristol, BS1 4DB", postcode: "BS1 4DB", locality: "Bristol" } }),
    );
    expect(cat(postcodeOnly, "registry").parts.find((p) => p.key === "officeOnSite")).toMatchObject({ points: 5, max: 10 });
    expect(cat(postcodeOnly, "registry").findings.map((f) => f.id)).toContain("registered-office-first-line-differs");
  });
});

describe("issue 18 §2 businessScore: the action plan", () => {
  const trouble = () =>
    run(
      {
        legal: { ran: true, reply: legalReply(POOR_FOOTER, { rendered: cleanRender([{ name: "_ga" }]) }) },
        aiVisibility: { ran: true, reply: aivReply({ robotsPoints: 6, structured: false }) },
        accessibility: { ran: true, reply: a11yReply(FAILS) },
      },
      facts({ accountsOverdue: true }),
    );

  it("at most 10 actions, numbered from 1; with this many legal and register problems, all of them required", () => {
    const plan = trouble().actionPlan;
    expect(plan.length).toBe(MAX_ACTIONS);
    expect(plan.map((a) => a.priority)).toEqual(Array.from({ length: plan.length }, (_, i) => i + 1));
    expect(plan.every((a) => a.required)).toBe(true);
    expect(plan[0].impact).toBeGreaterThanOrEqual(plan[9].impact);
  });

  it("legal requirements and register problems first, then by points gained; each why cites its finding", () => {
    // Two required problems (trackers before consent, overdue accounts) among larger optional ones.
    const plan = run(
      {
        legal: { ran: true, reply: legalReply(GOOD_FOOTER, { rendered: cleanRender([{ name: "_ga" }]) }) },
        aiVisibility: { ran: true, reply: aivReply({ robotsPoints: 6, structured: false }) },
        accessibility: { ran: true, reply: a11yReply(FAILS) },
      },
      facts({ accountsOverdue: true }),
    ).actionPlan;
    expect(plan.map((a) => a.priority)).toEqual(Array.from({ length: plan.length }, (_, i) => i + 1));
    expect(plan.slice(0, 2).map((a) => a.findings[0])).toEqual(["cookies-before-consent", "accounts-overdue"]);
    const firstOptional = plan.findIndex((a) => !a.required);
    expect(firstOptional).toBeGreaterThan(0);
    expect(plan.slice(firstOptional).every((a) => !a.required)).toBe(true);
    // Within each group, by impact.
    for (const group of [plan.slice(0, firstOptional), plan.slice(firstOptional)])
      for (let i = 1; i < group.length; i++) expect(group[i - 1].impact).toBeGreaterThanOrEqual(group[i].impact);
    // A required action of small impact still comes before the largest optional one.
    const optionalMax = Math.max(...plan.filter((a) => !a.required).map((a) => a.impact));
    expect(plan.some((a) => a.required && a.impact < optionalMax)).toBe(true);
    expect(plan.find((a) => a.findings.includes("accounts-overdue"))).toMatchObject({ required: true, category: "registry" });
    for (const a of plan) {
      expect(a.why).toContain(`finding ${a.findings[0]}`);
      expect(a.evidence.quote.length).toBeGreaterThan(0);
    }
  });

  it("impact = share × (part max − points) ÷ category max, and fixing the part gains that much of the score", () => {
    const out = trouble();
    for (const a of out.actionPlan) {
      const c = cat(out, a.category);
      const p = c.parts.find((x) => x.key === a.part)!;
      expect(a.impact).toBeCloseTo((c.share * (p.max - p.points)) / c.max!, 0);
    }
    // Fix the overdue accounts: the unrounded score rises by the action's impact.
    const before = trouble();
    const after = run(
      {
        legal: { ran: true, reply: legalReply(POOR_FOOTER, { rendered: cleanRender([{ name: "_ga" }]) }) },
        aiVisibility: { ran: true, reply: aivReply({ robotsPoints: 6, structured: false }) },
        accessibility: { ran: true, reply: a11yReply(FAILS) },
      },
      facts({ accountsOverdue: false }),
    );
    const impact = before.actionPlan.find((a) => a.part === "accountsFiled")!.impact;
    expect(impact).toBe(3.8); // 25% × 15 ÷ 100
    expect(exactOf(after) - exactOf(before)).toBeCloseTo(impact, 1);
    // Unblocking robots.txt: 15% × 24 ÷ 85.
    const robots = before.actionPlan.find((a) => a.part === "robots");
    if (robots) expect(robots.impact).toBe(4.2);
  });

  it("an accessibility rule's cost is its share of the audit's gap, and passing it raises the audit's score by that much", () => {
    const reply = a11yReply(FAILS);
    const out = run({ accessibility: { ran: true, reply } });
    const a = cat(out, "accessibility");
    expect(a.score).toBe(reply.score);
    expect(a.max).toBe(100);
    for (const f of reply.findings.slice(0, 5)) {
      const part = a.parts.find((p) => p.key === `rule:${f.rule}`)!;
      // The audit run again with this rule passing.
      const fixed = auditReply(
        axe(
          FAILS.filter((r) => r.id !== f.rule),
          [...PASSES, FAILS.find((r) => r.id === f.rule)!],
        ),
      );
      expect(Math.abs(fixed.score - reply.score - part.max), f.rule).toBeLessThanOrEqual(1);
    }
    // The parts add up to the category: the passed part is the audit's score, the failed rules the rest.
    expect(a.parts.reduce((s, p) => s + p.max, 0)).toBeCloseTo(100, 0);
  });
});

describe("issue 18 §2 businessScore on a real register entry", () => {
  it.skipIf(!SHARED_PRESENT)(
    "a Companies House API profile (../shared): its facts score the registry; its accounts type leaves the modern slavery part unjudged",
    async () => {
      const body = await (await fetch("http://shared.test/data/companies-house-api/fixtures/herrbert74__company_candour_last_account_type.json")).text();
      const p = parseCompanyProfile(body)!;
      const register: RegisterFacts = registerFactsOfProfile(p);
      expect(register.lastAccountsType).toBe("total-exemption-full");
      // Its site is not in the corpus: website-legal's reply is for a site that states no number.
      const out = run({ legal: { ran: true, reply: legalReply(POOR_FOOTER) } }, register);
      const reg = cat(out, "registry");
      // The register's own parts (The Gazette not asked for: not judged) earn their points.
      const own = reg.parts.filter((x) => ["active", "noStrikeOff", "accountsFiled", "confirmationStatementFiled"].includes(x.key));
      expect(own).toHaveLength(4);
      expect(own.every((x) => x.judged && x.points === x.max)).toBe(true);
      expect(reg.findings.map((f) => f.id)).toEqual(["company-number-not-on-site", "registered-office-not-on-site"]);
      expect(reg.findings[0].message).toBe(`The site does not state the company number (${p.number}) on the pages read.`);
      expect(reg.findings[1].message).toContain(p.registeredOffice.text);
      expect(cat(out, "trust").parts.find((x) => x.key === "modernSlaveryStatement")!.judged).toBe(false);
    },
  );
});

// ---------------------------------------------------------------------------------------------------------------
// Issue 28: live status over the monthly file; no grade on too little of the weight
// ---------------------------------------------------------------------------------------------------------------

const FILE_DATE = "2026-11-01";
const fromFile = (over: Partial<RegisterFacts> = {}): RegisterFacts =>
  facts({
    record: {
      source: "bulk-file",
      asOf: FILE_DATE,
      bulkFileDate: FILE_DATE,
      fromBulkFile: ["name", "status", "statusDetail", "accountsOverdue", "confirmationStatementOverdue"],
      liveNote: "Companies House could not be read just now",
    },
    ...over,
  });
const notice = (date: string) => ({
  noticeId: "5301999",
  code: "2450",
  meaning: "Petition to wind up",
  severity: "high" as const,
  date,
  url: "https://www.thegazette.co.uk/notice/5301999",
});

describe("SPEC §2.3 score, issue 28 §2: the status as of the bulk file claims no absence it did not check", () => {
  it("the live profile not read and the file shows no proposal: noStrikeOff is not judged, and active says the file's date", () => {
    const reg = cat(run({}, fromFile()), "registry");
    const part = (k: string) => reg.parts.find((p) => p.key === k)!;
    expect(part("noStrikeOff")).toMatchObject({ judged: false, points: 0 });
    expect(part("noStrikeOff").label).toContain(`not checked`);
    expect(part("active")).toMatchObject({ judged: true, points: 30 });
    expect(part("active").label).toContain(`as of the Basic Company Data file of ${FILE_DATE}`);
    // Nothing judged says "No proposal to strike off" with points.
    expect(reg.parts.filter((p) => p.judged && /strike/i.test(p.label))).toEqual([]);
    // Live, the same facts judge it.
    expect(cat(run({}, facts()), "registry").parts.find((p) => p.key === "noStrikeOff")).toMatchObject({ judged: true, points: 20 });
  });

  it("the file shows a proposal: a deduction with the file's date in the message and the evidence", () => {
    const reg = cat(run({}, fromFile({ statusDetail: "active-proposal-to-strike-off" })), "registry");
    expect(reg.parts.find((p) => p.key === "noStrikeOff")).toMatchObject({ judged: true, points: 0 });
    const f = reg.findings.find((x) => x.id === "proposal-to-strike-off")!;
    expect(f.message).toContain(`as of the Basic Company Data file of ${FILE_DATE}`);
    expect(f.evidence.where).toContain(FILE_DATE);
  });

  it("a Gazette insolvency notice in the last 12 months is a required deduction; none read is full points; not read is not judged", () => {
    const withNotice = cat(run({}, facts({ insolvencyNotices: { read: true, recent: [notice("2026-09-01")], note: null } })), "registry");
    expect(withNotice.parts.find((p) => p.key === "noInsolvencyNotice")).toMatchObject({ judged: true, points: 0, max: 20 });
    expect(withNotice.findings[0]).toMatchObject({
      id: "gazette-insolvency-notice",
      severity: "high",
      required: true,
      evidence: { quote: "Petition to wind up (notice 2450, 2026-09-01)" },
    });
    const none = cat(run({}, facts({ insolvencyNotices: { read: true, recent: [], note: null } })), "registry");
    expect(none.parts.find((p) => p.key === "noInsolvencyNotice")).toMatchObject({ judged: true, points: 20 });
    const unread = cat(
      run({}, facts({ insolvencyNotices: { read: false, recent: [], note: "The Gazette could not be read just now: it answered 502" } })),
      "registry",
    );
    expect(unread.parts.find((p) => p.key === "noInsolvencyNotice")).toMatchObject({ judged: false });
    expect(unread.parts.find((p) => p.key === "noInsolvencyNotice")!.label).toMatch(/not checked \(The Gazette could not be read just now/);
  });
});

describe("SPEC §2.3 score, issue 28 §3: a grade only on enough of the weight; the headline states the coverage", () => {
  const off = (reason: string) => ({ ran: false as const, reason });
  const cases: { name: string; checks: Partial<SiteCheckOutcomes>; register: RegisterFacts | null; weight: number }[] = [
    // Trust is scored whenever one web tool read the site (HTTPS from the page it reached).
    {
      name: "the register alone (the site unread)",
      checks: { legal: off("x"), aiVisibility: off("x"), accessibility: off("x") },
      register: facts(),
      weight: 25,
    },
    { name: "no company, only the legal check ran (legal and trust)", checks: { aiVisibility: off("x"), accessibility: off("x") }, register: null, weight: 40 },
    { name: "no company, no legal check (accessibility, AI visibility and trust)", checks: { legal: off("x") }, register: null, weight: 50 },
    { name: "no company, no browser (legal, AI visibility and trust)", checks: { accessibility: off("x") }, register: null, weight: 55 },
    { name: "all five", checks: {}, register: facts(), weight: 100 },
  ];
  for (const c of cases)
    it(`${c.name}: ${c.weight}% of the weight, ${c.weight >= GRADE_MIN_COVERAGE ? "graded" : "no grade, and why"}`, () => {
      const out = run(c.checks, c.register);
      const scored = out.categories.filter((x) => x.status === "scored");
      expect(out.coverage).toEqual({ categoriesScored: scored.length, categories: 5, weightScored: c.weight, weightForGrade: GRADE_MIN_COVERAGE });
      expect(typeof out.score).toBe("number");
      if (c.weight >= GRADE_MIN_COVERAGE) {
        expect(out.grade).toBe(gradeOf(out.score!));
        expect(out.headline).toContain(`grade ${out.grade}`);
      } else {
        expect(out.grade).toBeNull();
        expect(out.headline).toMatch(/^No grade: /);
        expect(out.headline).toContain(`a grade needs at least ${GRADE_MIN_COVERAGE}% of the weight`);
        expect(out.basis).toContain(`No grade: the categories scored carry ${c.weight}% of the weight`);
      }
      // The headline always states the coverage, from the reply's own fields.
      expect(out.headline).toContain(`${out.score}/100`);
      expect(out.headline).toContain(`on ${scored.length} of 5 categories (${scored.map((x) => x.key).join(", ")}; ${c.weight}% of the weight)`);
    });

  it("the threshold is documented in the formula, and no category scored is no score and no grade", () => {
    expect(BUSINESS_SCORE_FORMULA).toContain(`at least ${GRADE_MIN_COVERAGE}% of the stated weight`);
    const off = (reason: string) => ({ ran: false as const, reason });
    const out = run({ legal: off("x"), aiVisibility: off("x"), accessibility: off("x") }, null);
    expect(out).toMatchObject({ score: null, grade: null, coverage: { categoriesScored: 0, weightScored: 0 } });
    expect(out.headline).toBe("No score and no grade: none of the 5 categories could be scored.");
  });
});
