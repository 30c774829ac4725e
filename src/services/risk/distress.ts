/**
 * Distress signals of one company (issue 13 §3 distress-signals), from what was read of it: its Companies House
 * profile, insolvency cases, charges and (when it is proposed for strike-off) its Gazette filings, its Gazette
 * insolvency notices, and a definite sanctions match. Each signal has a date, a source and a severity. Pure.
 *
 * Severity is ours and documented with the operation: `high` (in or near insolvency, struck off, sanctioned),
 * `medium` (filings overdue by up to 90 days, a moratorium, a recent new charge is not distress by itself),
 * `low` (a solvent members' winding-up), `info` (context: charges outstanding, a dismissed petition).
 * An insolvency case is graded by `gradeInsolvencyCase` (issue 28 §3): open or ended, how it ended, how long ago.
 */
import type { CompanyProfile } from "../companies/profile";
import type { ChargeList, FilingHistory, Insolvency, InsolvencyCase } from "../companies/records";
import type { SanctionsMatch } from "../sanctions/match";
import { type MatchedNotice, gazetteSignals } from "./gazette";
import { daysBetween, isDate } from "../../shared/dates";

export type Severity = "high" | "medium" | "low" | "info";
export const SEVERITY_ORDER: Severity[] = ["high", "medium", "low", "info"];

export type SignalKind =
  | "status"
  | "strike-off-proposed"
  | "accounts-overdue"
  | "confirmation-statement-overdue"
  | "insolvency-case"
  | "gazette-notice"
  | "charges-outstanding"
  | "charges-recent"
  | "sanctions-match";

export type SignalSource =
  | "companies-house-profile"
  | "companies-house-filing-history"
  | "companies-house-insolvency"
  | "companies-house-charges"
  | "the-gazette"
  | "uk-sanctions-list";

export interface DistressSignal {
  kind: SignalKind;
  severity: Severity;
  /** YYYY-MM-DD, or null when the source gives no date. */
  date: string | null;
  source: SignalSource;
  /** Plain words. */
  summary: string;
  /** What the source says, verbatim where it can be (status, case type, form type, notice id and code …). */
  evidence: Record<string, string | number | boolean | null | string[]>;
}

/** Statuses that are distress in themselves, with their words. */
const STATUS: Record<string, { severity: Severity; words: string }> = {
  liquidation: { severity: "high", words: "is in liquidation" },
  administration: { severity: "high", words: "is in administration" },
  receivership: { severity: "high", words: "is in receivership" },
  "voluntary-arrangement": { severity: "high", words: "is in a voluntary arrangement with its creditors" },
  "insolvency-proceedings": { severity: "high", words: "is subject to insolvency proceedings" },
  dissolved: { severity: "high", words: "has been dissolved" },
  "converted-closed": { severity: "high", words: "has been converted or closed" },
  removed: { severity: "high", words: "has been removed from the register" },
};

export interface DistressInput {
  profile: CompanyProfile;
  insolvency: Insolvency | null;
  charges: ChargeList | null;
  /** Gazette filings (category gazette), read only when the company is proposed for strike-off. */
  gazetteFilings?: FilingHistory | null;
  notices: MatchedNotice[];
  /** Definite sanctions matches only (SPEC §1 rule 6). */
  sanctions: SanctionsMatch[];
  /** YYYY-MM-DD */
  today: string;
}

function overdue(kind: "accounts-overdue" | "confirmation-statement-overdue", dueOn: string | null, today: string): DistressSignal {
  const what = kind === "accounts-overdue" ? "Accounts" : "Confirmation statement";
  const days = isDate(dueOn) ? Math.max(0, daysBetween(dueOn, today)) : null;
  return {
    kind,
    severity: days !== null && days > 90 ? "high" : "medium",
    date: isDate(dueOn) ? dueOn : null,
    source: "companies-house-profile",
    summary: days !== null ? `${what} overdue by ${days} day${days === 1 ? "" : "s"} (due ${dueOn}).` : `${what} overdue (the register gives no due date).`,
    evidence: { dueOn, daysOverdue: days },
  };
}

export function distressSignals(x: DistressInput): DistressSignal[] {
  const { profile, today } = x;
  const out: DistressSignal[] = [];

  const status = STATUS[profile.status];
  if (status)
    out.push({
      kind: "status",
      severity: status.severity,
      date: profile.status === "dissolved" && isDate(profile.ceasedOn) ? profile.ceasedOn : null,
      source: "companies-house-profile",
      summary: `The company ${status.words} (company status ${profile.status}${profile.statusDetail ? `, ${profile.statusDetail}` : ""}).`,
      evidence: { status: profile.status, statusDetail: profile.statusDetail },
    });

  if (profile.statusDetail === "active-proposal-to-strike-off") {
    // The first Gazette notice (GAZ1 / GAZ1(A)) dates the proposal, when the filing history has it.
    const first = (x.gazetteFilings?.items ?? [])
      .filter((f) => /^gazette-notice-(compulsory|voluntary)$/.test(f.description ?? ""))
      .sort((a, b) => (b.date ?? "").localeCompare(a.date ?? ""))[0];
    const voluntary = first?.description === "gazette-notice-voluntary";
    out.push({
      kind: "strike-off-proposed",
      severity: "high",
      date: first?.date ?? null,
      source: first ? "companies-house-filing-history" : "companies-house-profile",
      summary: first
        ? `Proposed for ${voluntary ? "voluntary" : "compulsory"} strike-off: first Gazette notice ${first.date}.`
        : "Proposed for strike-off (company status detail); the first Gazette notice is not in the filing history read.",
      evidence: {
        statusDetail: profile.statusDetail,
        form: first?.type ?? null,
        transactionId: first?.transactionId ?? null,
        description: first?.description ?? null,
      },
    });
  }

  if (profile.accountsOverdue) out.push(overdue("accounts-overdue", profile.filingDates.accountsDueOn, today));
  if (profile.confirmationStatementOverdue) out.push(overdue("confirmation-statement-overdue", profile.filingDates.confirmationStatementDueOn, today));

  const cases = x.insolvency?.cases ?? [];
  for (const c of cases) {
    const dates = c.dates.filter((d) => isDate(d.date)).sort((a, b) => b.date!.localeCompare(a.date!));
    const type = c.type ?? "unknown";
    const g = gradeInsolvencyCase(c, { cases, companyStatus: profile.status, companyCeasedOn: profile.ceasedOn, today });
    out.push({
      kind: "insolvency-case",
      severity: g.severity,
      date: [dates[0]?.date, g.endedOn].filter(isDate).sort().pop() ?? null,
      source: "companies-house-insolvency",
      summary: `Insolvency case${c.number ? ` ${c.number}` : ""}: ${type.replace(/-/g, " ")}${dates.length ? ` (${dates.map((d) => `${(d.type ?? "dated").replace(/-/g, " ")} ${d.date}`).join(", ")})` : ""}. ${g.reading}`,
      // Practitioners are people: counted, never named (SPEC §1 rule 7).
      evidence: {
        caseNumber: c.number,
        caseType: c.type,
        dates: dates.map((d) => `${d.type ?? "date"} ${d.date}`),
        practitioners: c.practitioners.length,
        procedure: g.procedure,
        state: g.state,
        outcome: g.outcome,
        endedOn: g.endedOn,
        yearsSinceEnd: g.yearsSinceEnd,
        followedBy: g.followedBy,
      },
    });
  }

  for (const g of gazetteSignals(x.notices.map((m) => m.notice))) {
    const how = x.notices.find((m) => m.notice.id === g.noticeId)?.matchedBy ?? null;
    out.push({
      kind: "gazette-notice",
      severity: g.severity,
      date: g.date,
      source: "the-gazette",
      summary: g.clearedBy
        ? `Gazette notice ${g.code} (${g.meaning}), dismissed by notice ${g.clearedBy.noticeId}${g.clearedBy.date ? ` of ${g.clearedBy.date}` : ""}.`
        : `Gazette notice ${g.code}: ${g.meaning}.`,
      evidence: { noticeId: g.noticeId, code: g.code, section: g.section, url: g.url, matchedBy: how, clearedByNoticeId: g.clearedBy?.noticeId ?? null },
    });
  }

  const charges = x.charges?.items ?? [];
  const outstanding = charges.filter((c) => c.status === "outstanding" || c.status === "part-satisfied");
  if (outstanding.length) {
    const newest =
      outstanding
        .map((c) => c.createdOn)
        .filter(isDate)
        .sort()
        .pop() ?? null;
    out.push({
      kind: "charges-outstanding",
      severity: "info",
      date: newest,
      source: "companies-house-charges",
      summary: `${outstanding.length} charge${outstanding.length === 1 ? "" : "s"} outstanding${outstanding.some((c) => c.status === "part-satisfied") ? " (some part-satisfied)" : ""}.`,
      evidence: { outstanding: outstanding.length, partSatisfied: outstanding.filter((c) => c.status === "part-satisfied").length, total: charges.length },
    });
  }
  const yearAgo = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`;
  const recent = charges.filter((c) => isDate(c.createdOn) && c.createdOn > yearAgo && c.createdOn <= today);
  if (recent.length) {
    const dates = recent.map((c) => c.createdOn!).sort();
    out.push({
      kind: "charges-recent",
      severity: "low",
      date: dates[dates.length - 1],
      source: "companies-house-charges",
      summary: `${recent.length} charge${recent.length === 1 ? "" : "s"} created in the last 12 months (newest ${dates[dates.length - 1]}).`,
      evidence: { created: recent.length, since: yearAgo, chargeCodes: recent.map((c) => c.chargeCode ?? c.id ?? "").filter(Boolean) },
    });
  }

  for (const m of x.sanctions)
    out.push({
      kind: "sanctions-match",
      severity: "high",
      date: null,
      source: "uk-sanctions-list",
      summary: `Definite match on the UK sanctions list: ${m.id} (${m.regimes.join(", ") || "regime not given"}).`,
      evidence: { listId: m.id, regimes: m.regimes, nameType: m.nameType, reasons: m.reasons },
    });

  // Gravest first, then newest.
  return out.sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || (b.date ?? "").localeCompare(a.date ?? ""));
}

/** The gravest severity among the signals, or "none". */
export function overallSeverity(signals: DistressSignal[]): "high" | "medium" | "low" | "none" {
  for (const s of ["high", "medium", "low"] as const) if (signals.some((x) => x.severity === s)) return s;
  return "none";
}

// ---------------------------------------------------------------------------------------------------------------
// Insolvency cases (issue 28 §3): the grade depends on whether the case is open, how it ended and how long ago.
// ---------------------------------------------------------------------------------------------------------------

/** The kind of procedure a Companies House case type (constants.yml `insolvency_case_type`) is. */
export type Procedure =
  | "insolvent-liquidation"
  | "solvent-liquidation"
  | "administration"
  | "receivership"
  | "arrangement"
  | "moratorium"
  | "foreign-insolvency"
  | "unknown";

/** Every case type Companies House publishes (constants.yml `insolvency_case_type`), by procedure. */
export const CASE_PROCEDURE: Record<string, Procedure> = {
  "compulsory-liquidation": "insolvent-liquidation",
  "creditors-voluntary-liquidation": "insolvent-liquidation",
  "members-voluntary-liquidation": "solvent-liquidation",
  "in-administration": "administration",
  "administration-order": "administration",
  "administrative-receiver": "receivership",
  "scottish-administrative-receiver": "receivership",
  "receiver-manager": "receivership",
  "corporate-voluntary-arrangement": "arrangement",
  "order-of-court-restructuring-plan": "arrangement",
  "corporate-voluntary-arrangement-moratorium": "moratorium",
  moratorium: "moratorium",
  "foreign-insolvency": "foreign-insolvency",
};

export function procedureOf(type: string | null): Procedure {
  if (!type) return "unknown";
  // The Part A1 moratorium's steps (liquidation-moratorium-commencement-of-moratorium, …-end-of-moratorium-by-court, …).
  if (type.startsWith("liquidation-moratorium-")) return "moratorium";
  return CASE_PROCEDURE[type] ?? "unknown";
}

/** Date types (constants.yml `insolvency_case_date_type`) that end a case. */
const END_DATE_TYPES = new Set([
  "concluded-winding-up-on",
  "dissolved-on",
  "administration-ended-on",
  "administration-discharged-on",
  "moratorium-ended-on",
  "voluntary-arrangement-ended-on",
]);
/** Company statuses under which a company has not come through: gone from the register, or in an insolvent procedure. */
const NOT_RESCUED = new Set(["dissolved", "converted-closed", "removed", "liquidation", "administration", "receivership", "insolvency-proceedings"]);
const GONE = new Set(["dissolved", "converted-closed", "removed"]);
/** Procedures that, starting after another case, show that case did not rescue the company. */
const INSOLVENT_FOLLOW_ON = new Set<Procedure>(["insolvent-liquidation", "administration", "receivership"]);

/** The years that separate "recent" from "past" from "old" in the grade of an ended case. */
export const RECENT_YEARS = 1;
export const LOOKBACK_YEARS = 6;

const OPEN_SEVERITY: Record<Procedure, Severity> = {
  "insolvent-liquidation": "high",
  administration: "high",
  receivership: "high",
  arrangement: "high",
  "foreign-insolvency": "high",
  unknown: "high",
  moratorium: "medium",
  "solvent-liquidation": "low",
};

export type CaseOutcome =
  /** No end on record. */
  | "in-progress"
  /** No end on record, but the company is active and the case's last date is more than LOOKBACK_YEARS old. */
  | "no-end-recorded"
  /** An insolvent liquidation that concluded, or whose company was dissolved. */
  | "wound-up"
  /** A members' (solvent) voluntary liquidation that concluded. */
  | "solvent-wound-up"
  /** A rescue procedure or moratorium that ended and was followed by an insolvent procedure, or whose company did not come through. */
  | "failed"
  /** A rescue procedure or moratorium that ended, with no insolvent procedure after it and the company active. */
  | "ended";

export interface CaseGrade {
  procedure: Procedure;
  state: "open" | "ended";
  outcome: CaseOutcome;
  /** YYYY-MM-DD: when the case ended (its end date, its practitioners' last ceasing, or the company's dissolution); null when open or not dated. */
  endedOn: string | null;
  /** Whole years from the end to today; null when open or not dated. */
  yearsSinceEnd: number | null;
  /** The later case that shows a rescue failed: "<number> <type> from <date>". */
  followedBy: string | null;
  severity: Severity;
  /** One or two plain sentences: the state, the outcome and why the grade. */
  reading: string;
}

/** Severity of an ended case by its outcome and its age: [within RECENT_YEARS, within LOOKBACK_YEARS, older]. */
const ENDED_SEVERITY: Record<Exclude<CaseOutcome, "in-progress" | "no-end-recorded">, [Severity, Severity, Severity]> = {
  "wound-up": ["high", "medium", "low"],
  failed: ["high", "medium", "low"],
  ended: ["medium", "low", "info"],
  "solvent-wound-up": ["info", "info", "info"],
};
/** A moratorium that ended with nothing after it weighs less than an arrangement or administration that ended. */
const MORATORIUM_ENDED: [Severity, Severity, Severity] = ["low", "info", "info"];

/** The documented rule, as the operation's description states it (one line each). */
export const INSOLVENCY_CASE_RULE: string[] = [
  "An insolvency case is graded by whether it is open, how it ended, and how long ago (issue 28 §3):",
  "- **Open** (no end on the Companies House record): high for a liquidation, administration, receivership, voluntary arrangement or restructuring plan, a foreign insolvency or a case type we do not know; medium for a moratorium; low for a members' (solvent) voluntary liquidation. A case with no end on record whose last date is more than " +
    `${LOOKBACK_YEARS} years old while the company is active is \`no-end-recorded\`, graded low: the record never closed it, the register shows the company trading.`,
  "- **Ended**: by its end date (concluded-winding-up-on, dissolved-on, administration-ended-on or -discharged-on, moratorium-ended-on, voluntary-arrangement-ended-on), by every practitioner having ceased to act (receiverships), or by the company's dissolution. How it ended:",
  "  - `wound-up` (an insolvent liquidation that concluded) and `failed` (a voluntary arrangement, restructuring plan, administration, receivership or moratorium followed by a liquidation, administration or receivership that started after it, or whose company is now dissolved, closed, removed or in an insolvent procedure): high when it ended within the last 12 months, medium within " +
    `${LOOKBACK_YEARS} years, low after;`,
  `  - \`ended\` (no insolvent procedure after it and the company active): medium within 12 months, low within ${LOOKBACK_YEARS} years, info after; a moratorium that ended so: low, then info;`,
  "  - `solvent-wound-up` (a members' voluntary liquidation that concluded): info.",
  "  - An end the record does not date (a company dissolved with no date given) is graded as if within the last 12 months: nothing shows it is older.",
  "- Companies House records the end of a voluntary arrangement on one date type for completion and termination alike (voluntary-arrangement-ended-on, 'Date of completion or termination of CVA'): an arrangement is called `failed` only on what followed it, and `ended` never claims it was completed.",
  "- Each insolvency-case signal gives `evidence.procedure`, `state` (open or ended), `outcome`, `endedOn`, `yearsSinceEnd` and `followedBy`.",
];

const yearsBetween = (from: string, to: string): number => {
  const [fy, fm, fd] = from.split("-").map(Number);
  const [ty, tm, td] = to.split("-").map(Number);
  return Math.max(0, ty - fy - (tm < fm || (tm === fm && td < fd) ? 1 : 0));
};
const startOf = (c: InsolvencyCase): string | null =>
  c.dates
    .map((d) => d.date)
    .filter(isDate)
    .sort()[0] ?? null;
const newestOf = (c: InsolvencyCase): string | null =>
  c.dates
    .map((d) => d.date)
    .filter(isDate)
    .sort()
    .pop() ?? null;
const words = (s: string) => s.replace(/-/g, " ");

/** Where the record shows a case ended, and on what date (null when the end is known but not dated). */
function endOf(
  c: InsolvencyCase,
  procedure: Procedure,
  companyStatus: string,
  companyCeasedOn: string | null,
): { ended: boolean; on: string | null; by: string } {
  const ends = c.dates
    .filter((d) => d.type && END_DATE_TYPES.has(d.type) && isDate(d.date))
    .map((d) => d.date!)
    .sort();
  if (ends.length) return { ended: true, on: ends[ends.length - 1], by: "its end date on the record" };
  if (c.type && /end-of-moratorium/.test(c.type)) return { ended: true, on: newestOf(c), by: "the moratorium's end" };
  if (procedure === "receivership" && c.practitioners.length && c.practitioners.every((p) => isDate(p.ceasedToActOn)))
    return {
      ended: true,
      on: c.practitioners
        .map((p) => p.ceasedToActOn!)
        .sort()
        .pop()!,
      by: "every receiver having ceased to act",
    };
  if (GONE.has(companyStatus))
    return {
      ended: true,
      on: isDate(companyCeasedOn) ? companyCeasedOn : null,
      by: `the company's ${companyStatus === "dissolved" ? "dissolution" : `status ${companyStatus}`}`,
    };
  return { ended: false, on: null, by: "" };
}

/**
 * Grades one insolvency case (issue 28 §3; the rule is INSOLVENCY_CASE_RULE): open or ended, how it ended (wound up,
 * failed, ended with nothing after it, a solvent winding-up), and how long ago. `cases` is every case of the company
 * (a later case can show a rescue failed). Pure.
 */
export function gradeInsolvencyCase(
  c: InsolvencyCase,
  ctx: { cases: InsolvencyCase[]; companyStatus: string; companyCeasedOn: string | null; today: string },
): CaseGrade {
  const procedure = procedureOf(c.type);
  const end = endOf(c, procedure, ctx.companyStatus, ctx.companyCeasedOn);

  if (!end.ended) {
    const last = newestOf(c);
    const age = last ? yearsBetween(last, ctx.today) : null;
    if (ctx.companyStatus === "active" && last && age !== null && daysAfter(last, ctx.today, LOOKBACK_YEARS)) {
      const severity = SEVERITY_ORDER.indexOf(OPEN_SEVERITY[procedure]) < SEVERITY_ORDER.indexOf("low") ? "low" : OPEN_SEVERITY[procedure];
      return {
        procedure,
        state: "open",
        outcome: "no-end-recorded",
        endedOn: null,
        yearsSinceEnd: null,
        followedBy: null,
        severity,
        reading: `Companies House records no end for this case, but its last date is ${last}, ${age} years ago, and the company is active: graded ${severity}.`,
      };
    }
    const severity = OPEN_SEVERITY[procedure];
    return {
      procedure,
      state: "open",
      outcome: "in-progress",
      endedOn: null,
      yearsSinceEnd: null,
      followedBy: null,
      severity,
      reading: `Open: Companies House records no end for this case; an open ${caseWords(c.type, procedure)} is graded ${severity}.`,
    };
  }

  const ago = end.on ? yearsBetween(end.on, ctx.today) : null;
  // An undated end is graded as recent: nothing shows it is old.
  const band = end.on === null ? 0 : !daysAfter(end.on, ctx.today, RECENT_YEARS) ? 0 : !daysAfter(end.on, ctx.today, LOOKBACK_YEARS) ? 1 : 2;
  const when = end.on ? `ended ${end.on}${ago ? `, ${ago} year${ago === 1 ? "" : "s"} ago` : ", less than a year ago"}` : "ended (the record gives no date)";
  const base = { procedure, state: "ended" as const, endedOn: end.on, yearsSinceEnd: ago };
  const bandWords = ["within the last 12 months", `within the last ${LOOKBACK_YEARS} years`, `more than ${LOOKBACK_YEARS} years ago`][band];

  if (procedure === "solvent-liquidation")
    return {
      ...base,
      outcome: "solvent-wound-up",
      followedBy: null,
      severity: "info",
      reading: `A members' (solvent) voluntary liquidation, ${when} (shown by ${end.by}): graded info.`,
    };
  if (procedure === "insolvent-liquidation") {
    const severity = ENDED_SEVERITY["wound-up"][band];
    return {
      ...base,
      outcome: "wound-up",
      followedBy: null,
      severity,
      reading: `Wound up: the liquidation ${when} (shown by ${end.by}); an insolvent liquidation that ended ${bandWords} is graded ${severity}.`,
    };
  }

  // A rescue procedure or a moratorium: did the company come through?
  const start = startOf(c) ?? "";
  const later = ctx.cases
    .filter((o) => o !== c && INSOLVENT_FOLLOW_ON.has(procedureOf(o.type)) && (startOf(o) ?? "") >= start && !!startOf(o))
    .sort((a, b) => startOf(a)!.localeCompare(startOf(b)!))[0];
  const followedBy = later ? `${later.number ? `case ${later.number}, ` : ""}${later.type} from ${startOf(later)}` : null;
  const cvaWords = c.type === "corporate-voluntary-arrangement" ? " Companies House records completion and termination of an arrangement alike." : "";
  if (later || NOT_RESCUED.has(ctx.companyStatus)) {
    const severity = ENDED_SEVERITY.failed[band];
    const why = later ? `followed by ${words(later.type ?? "another case")} (${followedBy})` : `the company's status is now ${ctx.companyStatus}`;
    return {
      ...base,
      outcome: "failed",
      followedBy,
      severity,
      reading: `Failed: the ${caseWords(c.type, procedure)} ${when} (shown by ${end.by}), ${why}.${cvaWords} Graded ${severity}: it ended ${bandWords}.`,
    };
  }
  const severity = (procedure === "moratorium" ? MORATORIUM_ENDED : ENDED_SEVERITY.ended)[band];
  return {
    ...base,
    outcome: "ended",
    followedBy: null,
    severity,
    reading: `The ${caseWords(c.type, procedure)} ${when} (shown by ${end.by}); no liquidation, administration or receivership followed and the company is active.${cvaWords} Graded ${severity}: it ended ${bandWords}.`,
  };
}

/** True when `to` is more than `years` calendar years after `from`. */
function daysAfter(from: string, to: string, years: number): boolean {
  const anniversary = `${String(Number(from.slice(0, 4)) + years).padStart(4, "0")}${from.slice(4)}`;
  return to > anniversary;
}

function caseWords(type: string | null, p: Procedure): string {
  if (type === "corporate-voluntary-arrangement") return "voluntary arrangement";
  if (type === "order-of-court-restructuring-plan") return "restructuring plan";
  return {
    "insolvent-liquidation": "insolvent liquidation",
    "solvent-liquidation": "members' voluntary liquidation",
    administration: "administration",
    receivership: "receivership",
    arrangement: "arrangement",
    moratorium: "moratorium",
    "foreign-insolvency": "foreign insolvency",
    unknown: "insolvency case of a type we do not know",
  }[p];
}
