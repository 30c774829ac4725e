/**
 * The Business Score (issue 18 §2 `businessScore`, SPEC §2.3): a score, per-category findings and a prioritised
 * action plan, from what the register says of the company (RegisterFacts) and what the three web tools found on its
 * homepage (website-legal, ai-visibility, accessibility-audit; run by app/enrichment/siteChecks.ts).
 *
 * Pure and deterministic: the replies and `today` are passed in. Every category is a list of parts with points; a
 * part that could not be judged is left out of its category's maximum, a category that could not be told at all is
 * left out of the score and the other weights are shared out again (the reply says so in `basis`). Every finding
 * quotes its evidence (a field of the register, or a quote, link or URL from the web tools' replies). No person is
 * named: only the register's company facts and the web tools' quotes (which already leave people out) are used.
 * Not legal advice (SPEC §1 rule 2); the accessibility part is never a certification (SPEC §1 rule 4).
 */
import { IMPACT_WEIGHTS } from "../web/accessibility/audit";
import { WEIGHTS as AI_VISIBILITY_WEIGHTS } from "../web/aiVisibility";
import { normalisePostcode } from "../web/disclosures";
import type { BusinessProfile, RegisterFacts } from "./types";
import { daysBetween } from "../../shared/dates";

// ---------------------------------------------------------------------------------------------------------------
// What the web tools answer (the parts read here; their operations' replies are wider and fit these shapes)
// ---------------------------------------------------------------------------------------------------------------

type LegalStatus = "found" | "not_found" | "unknown";
interface LegalCheck {
  status: LegalStatus;
  ok: boolean | null;
  requirement: "required" | "required_if" | "good_practice";
  evidence: { quote: string; url: string }[];
  findings: string[];
  note: string;
}
type LinkFound = { url: string; text: string; page: string } | null;

/** The website-legal reply (operations/web/checkWebsiteLegal.ts), as far as the score reads it. */
export interface LegalReplyPart {
  url: string;
  pagesRead: { url: string; kind: string; read: boolean; reason?: string }[];
  checks: {
    tradingDisclosures: LegalCheck & {
      stated: {
        companyNumber: string | null;
        otherNumbers: string[];
        registeredName: string | null;
        placeOfRegistration: string | null;
        registeredOffice: string | null;
      };
      register: {
        checked: boolean;
        number: string | null;
        name: string | null;
        registeredOffice: string | null;
        nameMatches: boolean | null;
        officeMatches: "postcode_and_first_line" | "postcode_only" | "different" | "not_stated" | null;
        placeMatches: boolean | null;
      };
    };
    contactDetails: LegalCheck & { email: boolean; geographicAddress: boolean; poBoxOnly: boolean };
    vatNumber: LegalCheck;
    privacyNotice: LegalCheck & { link: LinkFound };
    cookiesBeforeConsent: LegalCheck;
    termsOfBusiness: LegalCheck & { link: LinkFound; kind: "terms_of_business" | "website_terms" | "terms" | null };
    modernSlaveryStatement: LegalCheck & { link: LinkFound };
    accessibilityStatement: LegalCheck & { link: LinkFound };
  };
}

/** The ai-visibility reply (operations/web/checkAiVisibility.ts), as far as the score reads it. */
export interface AiVisibilityReplyPart {
  page: { url: string };
  score: number;
  scoring: { checks: { check: string; points: number; max: number; judged: boolean }[] };
  findings: {
    id: string;
    severity: "high" | "medium" | "low" | "info";
    check: string;
    message: string;
    evidence: { quote: string; where: string };
    fix: string;
  }[];
  structuredData: { organisations: { block: number; name: string | null; sameAs: string[]; address: { text: string } | null; telephone: string | null }[] };
  sitemap: { lastmod: { earliest: string; latest: string } | null; files: { url: string; kind: string }[] };
}

/** The accessibility-audit reply (operations/web/auditAccessibility.ts), as far as the score reads it. */
export interface AccessibilityReplyPart {
  url: string;
  score: number;
  summary: { failedRules: number; passedRules: number; sentence: string };
  findings: {
    rule: string;
    title: string;
    impact: "critical" | "serious" | "moderate" | "minor";
    wcag: { sc: string }[];
    elements: number;
    examples: { selector: string }[];
    fix: string;
  }[];
}

/** One web tool's outcome: its reply, or why it could not run, as a sentence naming the tool (never thrown: see siteChecks.ts). */
export type CheckOutcome<T> = { ran: true; reply: T } | { ran: false; reason: string };

export interface SiteCheckOutcomes {
  /** The homepage the checks were asked for. */
  homepage: string;
  legal: CheckOutcome<LegalReplyPart>;
  aiVisibility: CheckOutcome<AiVisibilityReplyPart>;
  accessibility: CheckOutcome<AccessibilityReplyPart>;
}

// ---------------------------------------------------------------------------------------------------------------
// The reply's pieces
// ---------------------------------------------------------------------------------------------------------------

export type Severity = "high" | "medium" | "low";
export type CategoryKey = "registry" | "legal" | "accessibility" | "aiVisibility" | "trust";

export interface ScoreEvidence {
  /** What was found (or the sentence saying what was not), quoted from the register or the web tools' replies. */
  quote: string;
  /** Where: the register's field, the page's URL, the reply's check. */
  where: string;
}

export interface ScoreFinding {
  id: string;
  /** The part of the category it costs points in. */
  part: string;
  severity: Severity;
  message: string;
  evidence: ScoreEvidence;
  fix: string;
  /** A legal requirement the site does not meet, or a problem on the register (overdue filings, strike-off): first in the plan. */
  required: boolean;
}

export interface ScorePart {
  key: string;
  label: string;
  points: number;
  max: number;
  /** false: couldn't tell; left out of the category's maximum. */
  judged: boolean;
}

export interface ScoreCategory {
  key: CategoryKey;
  label: string;
  status: "scored" | "couldnt_tell";
  /** Points earned, null when couldn't tell. */
  score: number | null;
  /** Points available (the judged parts), null when couldn't tell. */
  max: number | null;
  /** The category's stated weight. */
  weight: number;
  /** Its share of the score in percent after the weights of the categories that couldn't be told were shared out; 0 when couldn't tell. */
  share: number;
  /** Why it couldn't be told; null when scored. */
  reason: string | null;
  parts: ScorePart[];
  findings: ScoreFinding[];
}

export interface ScoreAction {
  priority: number;
  category: CategoryKey;
  part: string;
  action: string;
  why: string;
  /** Points of the 0–100 score gained when the part is fixed (its lost points × the category's share ÷ its maximum), one decimal. */
  impact: number;
  severity: Severity;
  required: boolean;
  evidence: ScoreEvidence;
  /** The findings it resolves. */
  findings: string[];
}

export type Grade = "A" | "B" | "C" | "D" | "E";

/** How much of the stated weight the score rests on. */
export interface ScoreCoverage {
  categoriesScored: number;
  categories: number;
  /** The stated weights of the categories scored, summed: the percent of the whole the score rests on. */
  weightScored: number;
  /** The least `weightScored` for a grade (GRADE_MIN_COVERAGE). */
  weightForGrade: number;
}

export interface BusinessScore {
  /** The score, its grade (or why there is none) and its coverage, in one sentence from the fields below. */
  headline: string;
  score: number | null;
  grade: Grade | null;
  coverage: ScoreCoverage;
  /** Which categories the score rests on, and the weights shared out. */
  basis: string;
  formula: string;
  categories: ScoreCategory[];
  actionPlan: ScoreAction[];
  notice: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Weights, points and bands (the formula below is written from these tables)
// ---------------------------------------------------------------------------------------------------------------

export const CATEGORY_WEIGHTS: Record<CategoryKey, number> = { registry: 25, legal: 25, accessibility: 20, aiVisibility: 15, trust: 15 };
export const CATEGORY_LABELS: Record<CategoryKey, string> = {
  registry: "Registry hygiene",
  legal: "Website legal basics",
  accessibility: "Accessibility (automated checks)",
  aiVisibility: "AI and search visibility",
  trust: "Trust signals",
};
const CATEGORY_ORDER: CategoryKey[] = ["registry", "legal", "accessibility", "aiVisibility", "trust"];

export const REGISTRY_POINTS = {
  active: 30,
  noStrikeOff: 20,
  noInsolvencyNotice: 20,
  accountsFiled: 15,
  confirmationStatementFiled: 15,
  numberOnSite: 10,
  officeOnSite: 10,
} as const;
export const LEGAL_POINTS = {
  registeredName: 10,
  placeOfRegistration: 10,
  geographicAddress: 10,
  email: 10,
  privacyNotice: 20,
  cookiesBeforeConsent: 20,
  termsOfBusiness: 10,
  vatNumber: 10,
} as const;
export const TRUST_POINTS = { https: 35, accessibilityStatement: 20, linkedPagesWork: 15, modernSlaveryStatement: 15, freshness: 15 } as const;
/** Failed accessibility rules given as findings (the rest share one part). */
export const ACCESSIBILITY_TOP_FINDINGS = 5;
/** A sitemap whose latest <lastmod> is older than this counts the site as not kept up to date. */
export const FRESH_DAYS = 365;
export const MAX_ACTIONS = 10;

export const GRADE_BANDS: { grade: Grade; min: number }[] = [
  { grade: "A", min: 85 },
  { grade: "B", min: 70 },
  { grade: "C", min: 55 },
  { grade: "D", min: 40 },
  { grade: "E", min: 0 },
];

/**
 * A grade needs the categories scored to carry at least this share (percent) of the stated weights (issue 28 §3). Half
 * the weight: a grade is a verdict on the whole business, so it may not rest on less than half of what it grades. The
 * register alone (25, the site unread) or one web check with trust and no company (30–40) is too little; two web checks
 * with trust (50–60), or the register with any web check and trust (55 or more), is enough.
 */
export const GRADE_MIN_COVERAGE = 50;

const list = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");

/** The formula in words, as computed below (also the operation's description). */
export const BUSINESS_SCORE_FORMULA =
  `score = round(Σ share × points ÷ max) over the categories that could be scored, where a category's points and max are the sums over its parts that could be judged, and its share = 100 × its weight ÷ the sum of the weights of the categories scored. ` +
  `Weights: ${list(CATEGORY_WEIGHTS)}; a category that couldn't be told (its web tool could not run, or no company was confirmed on the register) is left out and the others' weights are shared out again (see \`basis\`). ` +
  `registry (from the companies register and the site's trading disclosures; only for a confirmed company): ${list(REGISTRY_POINTS)} (officeOnSite: 10 the register's postcode and first line, 5 the postcode only). ` +
  `The status and status detail are Companies House's live profile's; when it cannot be read they are the monthly Basic Company Data file's, as of its date, and noStrikeOff is then not judged unless the file shows a proposal (no absence is scored that was not checked). noInsolvencyNotice: no corporate insolvency notice of concern in The Gazette in the last 12 months, judged only when The Gazette was read. ` +
  `legal (website-legal): ${list(LEGAL_POINTS)}; the registered name and place only for a company, cookies only when a browser watched the page, the VAT number only when one is shown, terms 5 when only website terms of use are linked. ` +
  `accessibility: the accessibility audit's score out of 100; a failed rule costs (100 − the audit's score) × its impact weight (${list(IMPACT_WEIGHTS)}) ÷ the weights of all failed rules; couldn't tell when the audit did not run or no automated check applied. ` +
  `aiVisibility: the ai-visibility checks' points out of their maximum (${list(AI_VISIBILITY_WEIGHTS)}; rendering only when judged), its findings other than info. ` +
  `trust: ${list(TRUST_POINTS)} (linkedPagesWork: every page the homepage links to that website-legal followed opened, a broken privacy link aside, which legal scores); the modern slavery statement only where the last accounts were full, medium or group accounts (turnover may reach £36m); freshness only when the sitemap gives <lastmod> dates (the latest within ${FRESH_DAYS} days). Each fact is scored in one category only: the address, email and company number in legal and registry, the JSON-LD in aiVisibility. ` +
  `grade: ${GRADE_BANDS.map((b, i) => `${b.grade} ${b.min}–${i === 0 ? 100 : GRADE_BANDS[i - 1].min - 1}`).join(", ")}, given only when the categories scored carry at least ${GRADE_MIN_COVERAGE}% of the stated weight (\`coverage\`); below that the score is shown with its coverage and no grade. ` +
  `actionPlan: one action per part that lost points and has a finding; legal requirements and register problems first, then by impact (the points of the score the part would gain if fixed: share × (the part's max − its points) ÷ the category's max), at most ${MAX_ACTIONS}.`;

export const BUSINESS_SCORE_NOTICE =
  "An automated reading of the companies register and of the pages the web tools read, not legal advice: results come from public sources and may be incomplete, inaccurate or out of date (SPEC §1 rule 2); take professional advice before relying on it. " +
  "The accessibility part rests on automated checks, which catch only a minority of accessibility issues: it is never a compliance certification and does not show conformance with WCAG or the accessibility regulations (SPEC §1 rule 4).";

// ---------------------------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------------------------

const round1 = (n: number) => Math.round(n * 10) / 10;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const SEVERITY_ORDER: Severity[] = ["high", "medium", "low"];

/** A category being built: its parts, in order, each with its findings. */
class Builder {
  readonly parts: ScorePart[] = [];
  readonly findings: ScoreFinding[] = [];
  /** A part judged with these points (`findings` say what cost the rest). */
  part(key: string, label: string, points: number, max: number, findings: Omit<ScoreFinding, "part">[] = []) {
    this.parts.push({ key, label, points, max, judged: true });
    for (const f of findings) this.findings.push({ ...f, part: key });
  }
  /** A part worth `max` that is in order (`ok`), or earns nothing and has the finding `why` gives. */
  check(key: string, label: string, max: number, ok: boolean, why: () => Omit<ScoreFinding, "part">) {
    this.part(key, label, ok ? max : 0, max, ok ? [] : [why()]);
  }
  /** A part that couldn't be judged: listed, left out of the maximum. */
  unjudged(key: string, label: string, max: number) {
    this.parts.push({ key, label, points: 0, max, judged: false });
  }
}

const couldntTell = (key: CategoryKey, reason: string): ScoreCategory => ({
  key,
  label: CATEGORY_LABELS[key],
  status: "couldnt_tell",
  score: null,
  max: null,
  weight: CATEGORY_WEIGHTS[key],
  share: 0,
  reason,
  parts: [],
  findings: [],
});

function categoryOf(key: CategoryKey, b: Builder, emptyReason: string): ScoreCategory {
  const judged = b.parts.filter((p) => p.judged);
  const max = judged.reduce((s, p) => s + p.max, 0);
  if (max <= 0) return { ...couldntTell(key, emptyReason), parts: b.parts };
  const severityRank = (f: ScoreFinding) => SEVERITY_ORDER.indexOf(f.severity);
  return {
    key,
    label: CATEGORY_LABELS[key],
    status: "scored",
    score: round1(judged.reduce((s, p) => s + p.points, 0)),
    max: round1(max),
    weight: CATEGORY_WEIGHTS[key],
    share: 0,
    reason: null,
    parts: b.parts.map((p) => ({ ...p, points: round1(p.points), max: round1(p.max) })),
    // Required first, then gravest; the order of the parts otherwise (a stable sort).
    findings: [...b.findings].sort((x, y) => Number(y.required) - Number(x.required) || severityRank(x) - severityRank(y)),
  };
}

/** Where a legal check's evidence is: its first quote's page, else the check in the reply. */
const legalWhere = (reply: LegalReplyPart, check: string) =>
  `website-legal checks.${check} (pages read: ${
    reply.pagesRead
      .filter((p) => p.read)
      .map((p) => p.url)
      .join(", ") || reply.url
  })`;
/** Evidence of a legal check: its first quote, else the check's own finding sentence (what was not found). */
function legalEvidence(reply: LegalReplyPart, check: keyof LegalReplyPart["checks"], fallback?: string): ScoreEvidence {
  const c = reply.checks[check];
  const e = c.evidence[0];
  if (e) return { quote: e.quote, where: e.url };
  return { quote: c.findings[0] ?? fallback ?? c.note, where: legalWhere(reply, check) };
}

// ---------------------------------------------------------------------------------------------------------------
// registry
// ---------------------------------------------------------------------------------------------------------------

function registryCategory(register: RegisterFacts | null, profile: BusinessProfile, legal: CheckOutcome<LegalReplyPart>): ScoreCategory {
  if (!register)
    return couldntTell(
      "registry",
      profile.companyNumber
        ? `The register's facts for company ${profile.companyNumber} were not read.`
        : "No company on the Companies House register was confirmed for this business (its site did not confirm one, or it is not a company), so its register hygiene couldn't be told.",
    );
  const b = new Builder();
  const P = REGISTRY_POINTS;
  const rec = register.record;
  const fromFile = (name: string) => rec.fromBulkFile.includes(name);
  const file = `the Basic Company Data file${rec.bulkFileDate ? ` of ${rec.bulkFileDate}` : ""}`;
  // A field taken from the monthly bulk file says so, with the file's date (issue 28 §2).
  const field = (name: string, key: string) => `companies register, company ${register.number}: ${name}${fromFile(key) ? ` (${file})` : ""}`;
  const status = register.status.toLowerCase();
  const stale = rec.source === "bulk-file";

  b.check(
    "active",
    stale ? `Active on the register (as of ${file}; the live profile could not be read)` : "Active on the register",
    P.active,
    status === "active",
    () => ({
      id: "company-not-active",
      severity: "high",
      message: `The register shows the company as ${register.status.replace(/-/g, " ")}, not active${stale ? ` (as of ${file})` : ""}.`,
      evidence: { quote: `status: ${register.status}`, where: field("status", "status") },
      fix: "Check the company's status with Companies House and restore it (or trade through an active company) before relying on it.",
      required: true,
    }),
  );
  const strikeOff = !!register.statusDetail && /strike.?off/i.test(register.statusDetail);
  // An absence is claimed only where it was checked: from the bulk file alone, no proposal can be ruled out today.
  if (stale && !strikeOff)
    b.unjudged(
      "noStrikeOff",
      `No proposal to strike off: not checked (Companies House's live profile could not be read; ${file} shows none as of its date)`,
      P.noStrikeOff,
    );
  else
    b.check("noStrikeOff", "No proposal to strike off", P.noStrikeOff, !strikeOff, () => ({
      id: "proposal-to-strike-off",
      severity: "high",
      message: `Companies House proposes to strike the company off the register${stale ? ` (as of ${file})` : ""}.`,
      evidence: { quote: `status detail: ${register.statusDetail}`, where: field("status detail", "statusDetail") },
      fix: "File what is overdue at Companies House (or object to the strike-off) at once: a struck-off company is dissolved and its assets pass to the Crown.",
      required: true,
    }));
  // The Gazette's corporate insolvency notices of the last 12 months: judged only when The Gazette was read.
  const notices = register.insolvencyNotices;
  if (!notices?.read)
    b.unjudged(
      "noInsolvencyNotice",
      `No recent insolvency notice in The Gazette: not checked${notices?.note ? ` (${notices.note.replace(/\.$/, "")})` : ""}`,
      P.noInsolvencyNotice,
    );
  else
    b.check("noInsolvencyNotice", "No insolvency notice in The Gazette in the last 12 months", P.noInsolvencyNotice, !notices.recent.length, () => {
      const n = notices.recent[0];
      return {
        id: "gazette-insolvency-notice",
        severity: "high",
        message: `The Gazette published ${notices.recent.length === 1 ? "a corporate insolvency notice" : `${notices.recent.length} corporate insolvency notices`} for the company in the last 12 months, the latest ${n.meaning.toLowerCase()} (notice ${n.code}, ${n.date}).`,
        evidence: { quote: `${n.meaning} (notice ${n.code}, ${n.date})`, where: n.url ?? `The Gazette, notice ${n.noticeId}` },
        fix: "Read the notice and check the company's position (a petition can be dismissed, a liquidation cannot be undone) before relying on it.",
        required: true,
      };
    });
  b.check(
    "accountsFiled",
    `Accounts not overdue${fromFile("accountsOverdue") ? ` (by the due date in ${file})` : ""}`,
    P.accountsFiled,
    !register.accountsOverdue,
    () => ({
      id: "accounts-overdue",
      severity: "high",
      message: `The company's accounts are overdue at Companies House${fromFile("accountsOverdue") ? ` (by the due date in ${file})` : ""}.`,
      evidence: { quote: "accounts overdue: true", where: field("accounts", "accountsOverdue") },
      fix: "File the overdue accounts at Companies House: late filing penalties grow with the delay, and overdue filings lead to strike-off.",
      required: true,
    }),
  );
  b.check(
    "confirmationStatementFiled",
    `Confirmation statement not overdue${fromFile("confirmationStatementOverdue") ? ` (by the due date in ${file})` : ""}`,
    P.confirmationStatementFiled,
    !register.confirmationStatementOverdue,
    () => ({
      id: "confirmation-statement-overdue",
      severity: "high",
      message: `The company's confirmation statement is overdue at Companies House${fromFile("confirmationStatementOverdue") ? ` (by the due date in ${file})` : ""}.`,
      evidence: { quote: "confirmation statement overdue: true", where: field("confirmation statement", "confirmationStatementOverdue") },
      fix: "File the confirmation statement at Companies House (failing to is an offence and leads to strike-off).",
      required: true,
    }),
  );

  // The site's trading disclosures against the register: only when website-legal read the site.
  if (!legal.ran) {
    b.unjudged("numberOnSite", "The site states the company number", P.numberOnSite);
    b.unjudged("officeOnSite", "The site states the registered office", P.officeOnSite);
    return categoryOf("registry", b, "");
  }
  const td = legal.reply.checks.tradingDisclosures;
  const tdEvidence = legalEvidence(legal.reply, "tradingDisclosures");
  const stated = td.stated.companyNumber;
  const numberOk = stated === register.number || td.stated.otherNumbers.includes(register.number);
  b.check("numberOnSite", "The site states the company number", P.numberOnSite, numberOk, () =>
    stated
      ? {
          id: "company-number-differs",
          severity: "high",
          message: `The site states company number ${stated}; the company confirmed on the register is ${register.number}.`,
          evidence: tdEvidence,
          fix: `State the company's own number (${register.number}) on the site, e.g. in the footer with the registered name and office.`,
          required: true,
        }
      : {
          id: "company-number-not-on-site",
          severity: "high",
          message: `The site does not state the company number (${register.number}) on the pages read.`,
          evidence: {
            quote: td.findings.find((f) => /number/i.test(f)) ?? "No company number was found on the pages read.",
            where: legalWhere(legal.reply, "tradingDisclosures"),
          },
          fix: `Add "Registered in ${placeWords(register.number)}, company number ${register.number}" to the site's footer.`,
          required: true,
        },
  );

  // The registered office: website-legal's comparison when it checked this company's number, else the postcodes.
  const checkedThis = td.register.checked && td.register.number === register.number;
  const statedOffice = td.stated.registeredOffice;
  const registerPostcode = normalisePostcode(register.registeredOffice.postcode);
  let office: "postcode_and_first_line" | "postcode_only" | "different" | "not_stated";
  if (checkedThis && td.register.officeMatches) office = td.register.officeMatches;
  else if (!statedOffice) office = "not_stated";
  else {
    const has = (part: string) => normalisedText(statedOffice).includes(normalisedText(part));
    const firstLine = register.registeredOffice.text.split(",")[0].trim();
    office = !registerPostcode || !has(registerPostcode) ? "different" : firstLine && has(firstLine) ? "postcode_and_first_line" : "postcode_only";
  }
  const officePoints = office === "postcode_and_first_line" ? P.officeOnSite : office === "postcode_only" ? P.officeOnSite / 2 : 0;
  const officeEvidence: ScoreEvidence = statedOffice
    ? { quote: statedOffice, where: tdEvidence.where }
    : { quote: "No registered office address was found on the pages read.", where: legalWhere(legal.reply, "tradingDisclosures") };
  const officeFinding = (): Omit<ScoreFinding, "part"> => ({
    id:
      office === "not_stated" ? "registered-office-not-on-site" : office === "different" ? "registered-office-differs" : "registered-office-first-line-differs",
    severity: office === "postcode_only" ? "low" : "medium",
    message:
      office === "not_stated"
        ? `The site does not give the registered office address (on the register: ${register.registeredOffice.text}).`
        : office === "different"
          ? `The registered office the site gives (${statedOffice}) is not the one on the register (${register.registeredOffice.text}).`
          : `The registered office the site gives has the register's postcode but not its first line (on the register: ${register.registeredOffice.text}).`,
    evidence: officeEvidence,
    fix:
      office === "different"
        ? "Give the registered office as the register has it, or update the register (form AD01) if the company has moved."
        : `Give the registered office as the register has it: ${register.registeredOffice.text}.`,
    required: office !== "postcode_only",
  });
  b.part("officeOnSite", "The site states the registered office", officePoints, P.officeOnSite, office === "postcode_and_first_line" ? [] : [officeFinding()]);
  return categoryOf("registry", b, "");
}

const normalisedText = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]+/g, "");
/** The part of the UK a company number's prefix says it is registered in. */
const placeWords = (n: string) =>
  /^(SC|SO|SL|SF|SG|SP|SA|SE|SR|SZ)/i.test(n) ? "Scotland" : /^(NI|NC|NF|NL|NO|NP|NR|R0)/i.test(n) ? "Northern Ireland" : "England and Wales";

// ---------------------------------------------------------------------------------------------------------------
// legal
// ---------------------------------------------------------------------------------------------------------------

function legalCategory(legal: CheckOutcome<LegalReplyPart>, register: RegisterFacts | null): ScoreCategory {
  if (!legal.ran) return couldntTell("legal", cap(legal.reason));
  const r = legal.reply;
  const c = r.checks;
  const P = LEGAL_POINTS;
  const b = new Builder();
  const td = c.tradingDisclosures;
  const where = (k: keyof LegalReplyPart["checks"]) => legalWhere(r, k);

  // Registered name and part of the UK: a company's disclosures (the number and office are scored in registry).
  const isCompany = !!register || !!td.stated.companyNumber || td.ok === false;
  if (!isCompany) {
    b.unjudged("registeredName", "Registered name stated", P.registeredName);
    b.unjudged("placeOfRegistration", "Part of the UK where registered stated", P.placeOfRegistration);
  } else {
    const registeredName = register?.name ?? td.register.name;
    const nameOk = !!td.stated.registeredName && td.register.nameMatches !== false;
    b.check("registeredName", "Registered name stated", P.registeredName, nameOk, () => ({
      id: td.stated.registeredName ? "registered-name-differs" : "registered-name-missing",
      severity: "high",
      message: td.stated.registeredName
        ? `The name the site gives (${td.stated.registeredName}) is not the registered name${registeredName ? ` (${registeredName})` : ""}.`
        : `The site does not give the company's registered name${registeredName ? ` (${registeredName})` : ""}.`,
      evidence: { quote: td.stated.registeredName ?? td.findings[0] ?? "No registered name was found on the pages read.", where: where("tradingDisclosures") },
      fix: `Give the registered name${registeredName ? ` "${registeredName}"` : ""} on the site, with the company number and registered office.`,
      required: true,
    }));
    const placeOk = !!td.stated.placeOfRegistration && td.register.placeMatches !== false;
    const place = register ? placeWords(register.number) : "England and Wales";
    b.check("placeOfRegistration", "Part of the UK where registered stated", P.placeOfRegistration, placeOk, () => ({
      id: td.stated.placeOfRegistration ? "place-of-registration-differs" : "place-of-registration-missing",
      severity: "medium",
      message: td.stated.placeOfRegistration
        ? `The site says the company is registered in ${td.stated.placeOfRegistration}, which is not the part of the UK the register gives.`
        : "The site does not say in which part of the UK the company is registered.",
      evidence: {
        quote:
          td.stated.placeOfRegistration ??
          td.findings.find((f) => /part of the UK/i.test(f)) ??
          "The part of the UK where the company is registered was not found.",
        where: where("tradingDisclosures"),
      },
      fix: `Add "Registered in ${place}" next to the company number.`,
      required: true,
    }));
  }

  // Contact details: a geographic address and an email address.
  const cd = c.contactDetails;
  b.check("geographicAddress", "A geographic address", P.geographicAddress, cd.geographicAddress, () => ({
    id: "geographic-address-missing",
    severity: "high",
    message: cd.poBoxOnly
      ? "The only address on the site is a PO Box, which is not a geographic address."
      : "No geographic postal address (with a UK postcode) was found on the pages read.",
    evidence: cd.poBoxOnly
      ? legalEvidence(r, "contactDetails")
      : {
          quote: cd.findings.find((f) => /address/i.test(f) && !/email/i.test(f)) ?? "No geographic postal address was found.",
          where: where("contactDetails"),
        },
    fix: "Give the street address where the business is established, with its postcode (e.g. on the contact page and in the footer).",
    required: true,
  }));
  b.check("email", "An email address", P.email, cd.email, () => ({
    id: "email-missing",
    severity: "high",
    message: "No email address was found on the pages read (a contact form alone is not one).",
    evidence: { quote: cd.findings.find((f) => /email/i.test(f)) ?? "No email address was found.", where: where("contactDetails") },
    fix: "Give an email address for rapid, direct contact (a role address such as info@ is enough).",
    required: true,
  }));

  // Privacy notice.
  const pn = c.privacyNotice;
  b.check("privacyNotice", "Privacy notice", P.privacyNotice, pn.ok === true, () => ({
    id: pn.status === "found" ? "privacy-notice-unreadable" : "privacy-notice-missing",
    severity: "high",
    message: pn.findings[0] ?? "No privacy notice is linked.",
    evidence: legalEvidence(r, "privacyNotice"),
    fix: "Publish a privacy notice (who you are, what personal data you collect, why, on what basis, for how long, and people's rights) and link it from every page's footer.",
    required: true,
  }));

  // Cookies before consent: only when a browser watched the page.
  const ck = c.cookiesBeforeConsent;
  const cookiesLabel = "No non-essential cookies or trackers before consent";
  if (ck.status === "unknown" || ck.ok === null) b.unjudged("cookiesBeforeConsent", cookiesLabel, P.cookiesBeforeConsent);
  else
    b.check("cookiesBeforeConsent", cookiesLabel, P.cookiesBeforeConsent, ck.ok, () => ({
      id: "cookies-before-consent",
      severity: "high",
      message: ck.findings.join(" ") || "Non-essential cookies or trackers were found before any consent.",
      evidence: legalEvidence(r, "cookiesBeforeConsent"),
      fix: "Load analytics and advertising cookies and tags only after the visitor agrees (a consent tool set to block them until then).",
      required: true,
    }));

  // Terms of business (good practice; consumer sales need the pre-contract information).
  const tm = c.termsOfBusiness;
  const termsPoints = tm.status !== "found" ? 0 : tm.kind === "website_terms" ? P.termsOfBusiness / 2 : P.termsOfBusiness;
  b.part(
    "termsOfBusiness",
    "Terms of business",
    termsPoints,
    P.termsOfBusiness,
    termsPoints === P.termsOfBusiness
      ? []
      : [
          tm.status !== "found"
            ? {
                id: "terms-missing",
                severity: "low",
                message: "No link to terms and conditions was found.",
                evidence: { quote: tm.findings[0] ?? "No link to terms and conditions was found.", where: where("termsOfBusiness") },
                fix: "Publish terms of business (for consumer sales, the information the Consumer Contracts Regulations 2013 require) and link them from the footer.",
                required: false,
              }
            : {
                id: "terms-website-only",
                severity: "low",
                message: "Only website terms of use are linked, not terms of business.",
                evidence: legalEvidence(r, "termsOfBusiness"),
                fix: "Publish terms of business (of sale or supply) besides the website terms of use.",
                required: false,
              },
        ],
  );

  // VAT number: only when one is shown.
  const vat = c.vatNumber;
  if (vat.ok === null) b.unjudged("vatNumber", "VAT number valid (where shown)", P.vatNumber);
  else
    b.check("vatNumber", "VAT number valid (where shown)", P.vatNumber, vat.ok, () => ({
      id: "vat-number-invalid",
      severity: "medium",
      message: vat.findings.join(" ") || "The VAT number shown is not valid.",
      evidence: legalEvidence(r, "vatNumber"),
      fix: "Show the VAT number exactly as HMRC issued it (GB and 9 digits); check it with HMRC's VAT number service.",
      required: true,
    }));
  return categoryOf("legal", b, "No part of the website legal check could be judged.");
}

// ---------------------------------------------------------------------------------------------------------------
// accessibility
// ---------------------------------------------------------------------------------------------------------------

function accessibilityCategory(a11y: CheckOutcome<AccessibilityReplyPart>): ScoreCategory {
  if (!a11y.ran) return couldntTell("accessibility", cap(a11y.reason));
  const r = a11y.reply;
  if (r.summary.failedRules + r.summary.passedRules === 0)
    return couldntTell("accessibility", `No automated accessibility check applied to ${r.url}, so nothing could be scored.`);
  const b = new Builder();
  // The audit's score is the weighted pass rate: the gap to 100 is shared by the failed rules by their impact weight.
  const failedWeight = r.findings.reduce((s, f) => s + IMPACT_WEIGHTS[f.impact], 0);
  const costOf = (w: number) => (failedWeight ? ((100 - r.score) * w) / failedWeight : 0);
  b.part("passedChecks", "Automated checks passed", r.score, r.score);
  const top = r.findings.slice(0, ACCESSIBILITY_TOP_FINDINGS);
  for (const f of top) {
    const sc = f.wcag.map((w) => w.sc).join(", ");
    b.part(`rule:${f.rule}`, f.title, 0, costOf(IMPACT_WEIGHTS[f.impact]), [
      {
        id: `a11y-${f.rule}`,
        severity: f.impact === "critical" || f.impact === "serious" ? "high" : f.impact === "moderate" ? "medium" : "low",
        message: `${f.title.replace(/\.$/, "")} (WCAG ${sc || "—"}, ${f.impact}): ${f.elements} element${f.elements === 1 ? "" : "s"} failed.`,
        evidence: {
          quote: `${f.elements} element${f.elements === 1 ? "" : "s"} failing rule ${f.rule}${f.examples[0] ? `, e.g. ${f.examples[0].selector}` : ""}`,
          where: r.url,
        },
        fix: f.fix,
        required: false,
      },
    ]);
  }
  const rest = r.findings.slice(ACCESSIBILITY_TOP_FINDINGS);
  if (rest.length) {
    const label = `${rest.length} other failed rule${rest.length === 1 ? "" : "s"}`;
    b.part("otherRules", label, 0, costOf(rest.reduce((s, f) => s + IMPACT_WEIGHTS[f.impact], 0)));
  }
  return categoryOf("accessibility", b, "");
}

// ---------------------------------------------------------------------------------------------------------------
// aiVisibility
// ---------------------------------------------------------------------------------------------------------------

const AI_PART_LABELS: Record<string, string> = {
  robots: "Crawlers allowed by robots.txt",
  indexing: "Indexing directives",
  rendering: "Text readable without JavaScript",
  structuredData: "Structured data (JSON-LD) and the company it names",
  sitemap: "XML sitemap",
  llmsTxt: "llms.txt",
  meta: "Title, description and meta tags",
};

function aiVisibilityCategory(aiv: CheckOutcome<AiVisibilityReplyPart>): ScoreCategory {
  if (!aiv.ran) return couldntTell("aiVisibility", cap(aiv.reason));
  const r = aiv.reply;
  const b = new Builder();
  // The company-number findings ("business") are scored under structuredData (a number on the register agreeing).
  const partOf = (check: string) => (check === "business" ? "structuredData" : check);
  for (const c of r.scoring.checks) {
    const label = AI_PART_LABELS[c.check] ?? c.check;
    if (!c.judged) {
      b.unjudged(c.check, label, c.max);
      continue;
    }
    const findings = r.findings
      .filter((f) => f.severity !== "info" && partOf(f.check) === c.check)
      .map((f) => ({ id: f.id, severity: f.severity as Severity, message: f.message, evidence: f.evidence, fix: f.fix, required: false }));
    b.part(c.check, label, c.points, c.max, findings);
  }
  return categoryOf("aiVisibility", b, "No part of the AI visibility check could be judged.");
}

// ---------------------------------------------------------------------------------------------------------------
// trust
// ---------------------------------------------------------------------------------------------------------------

/** Accounts types of companies whose turnover may reach £36m (the modern slavery statement's threshold). */
const largerAccounts = (type: string | null) => {
  const t = (type ?? "").toLowerCase().replace(/[-_]/g, " ");
  if (!t || /small|micro|dormant|total exemption|abridged|audit exemption|filing exemption|partial exemption|initial|interim/.test(t)) return false;
  return /group|\bmedium\b|\bfull\b/.test(t);
};

function trustCategory(checks: SiteCheckOutcomes, register: RegisterFacts | null, today: string): ScoreCategory {
  const { legal, aiVisibility: aiv, accessibility: a11y } = checks;
  const P = TRUST_POINTS;
  const b = new Builder();

  // HTTPS: the homepage as a web tool reached it (after redirects).
  const reached = legal.ran ? legal.reply.url : aiv.ran ? aiv.reply.page.url : a11y.ran ? a11y.reply.url : null;
  if (!reached) b.unjudged("https", "Served over HTTPS", P.https);
  else {
    const https = /^https:/i.test(reached);
    b.check("https", "Served over HTTPS", P.https, https, () => ({
      id: "not-https",
      severity: "high",
      message: "The homepage is served over plain HTTP: browsers mark it as not secure and anything typed into it can be read on the way.",
      evidence: { quote: reached, where: "the homepage as reached, after redirects" },
      fix: "Serve the site over HTTPS (a free certificate) and redirect http:// to https://.",
      required: false,
    }));
  }

  // From the ai-visibility reply: how recently the sitemap says the site was updated.
  const latest = aiv.ran ? (aiv.reply.sitemap.lastmod?.latest ?? null) : null;
  // A <lastmod> of a month only ("2025-11") may mean any day of it: its last day is taken, so the site is never called
  // older than the sitemap shows.
  const latestDay =
    latest && /^\d{4}-\d{2}$/.test(latest) ? new Date(Date.UTC(Number(latest.slice(0, 4)), Number(latest.slice(5, 7)), 0)).toISOString().slice(0, 10) : latest;
  const age = latestDay ? daysBetween(latestDay, today) : Number.NaN;
  if (!aiv.ran || !latest || Number.isNaN(age)) b.unjudged("freshness", "Site updated within a year", P.freshness);
  else {
    const fresh = age <= FRESH_DAYS;
    const sitemapUrl = aiv.reply.sitemap.files.find((f) => f.kind === "urlset")?.url ?? aiv.reply.sitemap.files[0]?.url ?? aiv.reply.page.url;
    b.check("freshness", "Site updated within a year", P.freshness, fresh, () => ({
      id: "site-not-updated",
      severity: "low",
      message: `The sitemap's latest update is ${latest}, ${Math.floor(age / 30.44)} months before ${today}: the site looks unmaintained.`,
      evidence: { quote: `latest <lastmod> ${latest}`, where: sitemapUrl },
      fix: "Review and update the site's pages (and their sitemap dates) so visitors and crawlers see it is current.",
      required: false,
    }));
  }

  // From the website-legal reply: the accessibility statement, the linked pages and, where relevant, the modern slavery statement.
  if (!legal.ran) {
    b.unjudged("accessibilityStatement", "Accessibility statement linked", P.accessibilityStatement);
    b.unjudged("linkedPagesWork", "Linked pages open", P.linkedPagesWork);
    b.unjudged("modernSlaveryStatement", "Modern slavery statement linked (where relevant)", P.modernSlaveryStatement);
  } else {
    const as = legal.reply.checks.accessibilityStatement;
    const found = as.status === "found";
    const publicSector = as.requirement === "required";
    b.check("accessibilityStatement", "Accessibility statement linked", P.accessibilityStatement, found, () => ({
      id: "accessibility-statement-missing",
      severity: publicSector ? "high" : "low",
      message: publicSector
        ? "No accessibility statement is linked; public sector bodies must publish one."
        : "No accessibility statement is linked (good practice: it tells disabled visitors what works and how to get help).",
      evidence: { quote: as.findings[0] ?? "No link to an accessibility statement was found.", where: legalWhere(legal.reply, "accessibilityStatement") },
      fix: "Publish an accessibility statement (what is accessible, what is not yet, how to ask for another format) and link it from the footer.",
      required: publicSector,
    }));
    // The legal pages the homepage links to, as website-legal followed them (a broken privacy link is scored in legal).
    const broken = legal.reply.pagesRead.filter((p) => !p.read && p.kind !== "privacy");
    const pages = broken.map((x) => `${x.kind}: ${x.url}`).join("; ");
    b.check("linkedPagesWork", "Linked pages open", P.linkedPagesWork, !broken.length, () => ({
      id: "linked-page-broken",
      severity: "medium",
      message: `${broken.length === 1 ? "A page" : `${broken.length} pages`} the homepage links to could not be opened (${pages}).`,
      evidence: { quote: `${broken[0].url}: ${broken[0].reason ?? "not read"}`, where: `website-legal pagesRead (linked from ${legal.reply.url})` },
      fix: "Fix or remove the broken links (a visitor who finds a broken contact or terms page trusts the site less).",
      required: false,
    }));
    const ms = legal.reply.checks.modernSlaveryStatement;
    const msLabel = "Modern slavery statement linked (where relevant)";
    if (!register || !largerAccounts(register.lastAccountsType)) b.unjudged("modernSlaveryStatement", msLabel, P.modernSlaveryStatement);
    else {
      b.check("modernSlaveryStatement", msLabel, P.modernSlaveryStatement, ms.status === "found", () => ({
        id: "modern-slavery-statement-missing",
        severity: "medium",
        message: `No modern slavery statement is linked from the homepage; the company files ${register.lastAccountsType} accounts, so its turnover may reach the £36m at which one is required.`,
        evidence: {
          quote: ms.findings[0] ?? "No link to a modern slavery statement on the homepage.",
          where: legalWhere(legal.reply, "modernSlaveryStatement"),
        },
        fix: "If turnover is £36m or more, publish the annual modern slavery statement and link it from a prominent place on the homepage.",
        required: false,
      }));
    }
  }
  return categoryOf("trust", b, "None of the web tools could read the site, so no trust signal could be judged.");
}

// ---------------------------------------------------------------------------------------------------------------
// The score, the grade and the plan
// ---------------------------------------------------------------------------------------------------------------

export const gradeOf = (score: number): Grade => GRADE_BANDS.find((b) => score >= b.min)!.grade;

/** One action per part that lost points and has a finding; `weights` is the sum of the scored categories' weights. */
function actionPlanOf(categories: ScoreCategory[], weights: number): ScoreAction[] {
  const rank = (s: Severity) => SEVERITY_ORDER.indexOf(s);
  const candidates: (ScoreAction & { order: number })[] = [];
  let order = 0;
  for (const c of categories) {
    if (c.status !== "scored" || !c.max) continue;
    for (const p of c.parts) {
      order++;
      if (!p.judged || p.max - p.points <= 0) continue;
      const fs = c.findings.filter((f) => f.part === p.key).sort((x, y) => Number(y.required) - Number(x.required) || rank(x.severity) - rank(y.severity));
      if (!fs.length) continue;
      const lead = fs[0];
      const required = fs.some((f) => f.required);
      const more = fs.length - 1;
      candidates.push({
        priority: 0,
        category: c.key,
        part: p.key,
        action: lead.fix,
        why: `${required ? "A legal requirement or a register problem: " : ""}${lead.message} (finding ${lead.id}${
          more
            ? `, and ${more} more: ${fs
                .slice(1)
                .map((f) => f.id)
                .join(", ")}`
            : ""
        }).`,
        impact: round1(((100 * c.weight) / weights) * ((p.max - p.points) / c.max)),
        severity: lead.severity,
        required,
        evidence: lead.evidence,
        findings: fs.map((f) => f.id),
        order,
      });
    }
  }
  return candidates
    .sort((x, y) => Number(y.required) - Number(x.required) || y.impact - x.impact || rank(x.severity) - rank(y.severity) || x.order - y.order)
    .slice(0, MAX_ACTIONS)
    .map(({ order: _o, ...a }, i) => ({ ...a, priority: i + 1 }));
}

export interface ScoreInput {
  profile: BusinessProfile;
  /** The register's facts of the confirmed company; null when none was confirmed. */
  register: RegisterFacts | null;
  checks: SiteCheckOutcomes;
  /** YYYY-MM-DD. */
  today: string;
}

/** The Business Score: categories, the weighted score and grade, the formula, the action plan and the notice. */
export function scoreBusiness({ profile, register, checks, today }: ScoreInput): BusinessScore {
  const categories = [
    registryCategory(register, profile, checks.legal),
    legalCategory(checks.legal, register),
    accessibilityCategory(checks.accessibility),
    aiVisibilityCategory(checks.aiVisibility),
    trustCategory(checks, register, today),
  ].sort((a, b) => CATEGORY_ORDER.indexOf(a.key) - CATEGORY_ORDER.indexOf(b.key));

  const scored = categories.filter((c) => c.status === "scored");
  const weights = scored.reduce((s, c) => s + c.weight, 0);
  for (const c of scored) c.share = round1((100 * c.weight) / weights);
  // The score from unrounded shares and points, so it is exactly the formula.
  const exact = scored.reduce((s, c) => s + ((100 * c.weight) / weights) * (c.score! / c.max!), 0);
  const score = scored.length ? Math.round(exact) : null;

  const left = categories.filter((c) => c.status === "couldnt_tell");
  const basis = !scored.length
    ? "No category could be scored, so there is no score."
    : left.length
      ? `Scored on ${scored.length} of ${categories.length} categories. Couldn't tell: ${left.map((c) => `${c.key} (${c.reason!.replace(/\.$/, "")})`).join("; ")}. Their weight (${left.reduce((s, c) => s + c.weight, 0)}) is left out and the other weights are shared out again: ${scored.map((c) => `${c.key} ${c.share}%`).join(", ")}.`
      : `Scored on all ${categories.length} categories: ${scored.map((c) => `${c.key} ${c.share}%`).join(", ")}.`;

  const total = categories.reduce((s, c) => s + c.weight, 0);
  const weightScored = Math.round((100 * weights) / total);
  const coverage: ScoreCoverage = { categoriesScored: scored.length, categories: categories.length, weightScored, weightForGrade: GRADE_MIN_COVERAGE };
  const graded = score !== null && weightScored >= GRADE_MIN_COVERAGE;
  const ungraded =
    score !== null && !graded ? ` No grade: the categories scored carry ${weightScored}% of the weight, under the ${GRADE_MIN_COVERAGE}% a grade needs.` : "";
  const grade = graded ? gradeOf(score) : null;
  const on = `on ${scored.length} of ${categories.length} categories (${scored.map((c) => c.key).join(", ")}; ${weightScored}% of the weight)`;
  const headline =
    score === null
      ? `No score and no grade: none of the ${categories.length} categories could be scored.`
      : graded
        ? `${score}/100, grade ${grade}, ${on}${left.length ? `; couldn't tell: ${left.map((c) => c.key).join(", ")}` : ""}.`
        : `No grade: ${score}/100 ${on} only, and a grade needs at least ${GRADE_MIN_COVERAGE}% of the weight scored; couldn't tell: ${left.map((c) => c.key).join(", ")}.`;

  return {
    headline,
    score,
    grade,
    coverage,
    basis: basis + ungraded,
    formula: BUSINESS_SCORE_FORMULA,
    categories,
    actionPlan: actionPlanOf(categories, weights),
    notice: BUSINESS_SCORE_NOTICE,
  };
}
