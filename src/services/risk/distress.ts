/**
 * Distress signals of one company (issue 13 §3 distress-signals), from what was read of it: its Companies House
 * profile, insolvency cases, charges and (when it is proposed for strike-off) its Gazette filings, its Gazette
 * insolvency notices, and a definite sanctions match. Each signal has a date, a source and a severity. Pure.
 *
 * Severity is ours and documented with the operation: `high` (in or near insolvency, struck off, sanctioned),
 * `medium` (filings overdue by up to 90 days, a moratorium, a recent new charge is not distress by itself),
 * `low` (a solvent members' winding-up), `info` (context: charges outstanding, a dismissed petition).
 */
import type { CompanyProfile } from "../companies/profile";
import type { ChargeList, FilingHistory, Insolvency } from "../companies/records";
import type { SanctionsMatch } from "../sanctions/match";
import { type MatchedNotice, gazetteSignals } from "./gazette";

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

export type SignalSource = "companies-house-profile" | "companies-house-filing-history" | "companies-house-insolvency" | "companies-house-charges" | "the-gazette" | "uk-sanctions-list";

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

/** Insolvency case types (Companies House constants) that are a solvent winding-up, not distress. */
const SOLVENT_CASES = new Set(["members-voluntary-liquidation"]);
const MORATORIUM = /moratorium/;

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

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const isDate = (d: string | null | undefined): d is string => !!d && /^\d{4}-\d{2}-\d{2}$/.test(d);

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
    const first = (x.gazetteFilings?.items ?? []).filter((f) => /^gazette-notice-(compulsory|voluntary)$/.test(f.description ?? "")).sort((a, b) => (b.date ?? "").localeCompare(a.date ?? ""))[0];
    const voluntary = first?.description === "gazette-notice-voluntary";
    out.push({
      kind: "strike-off-proposed",
      severity: "high",
      date: first?.date ?? null,
      source: first ? "companies-house-filing-history" : "companies-house-profile",
      summary: first
        ? `Proposed for ${voluntary ? "voluntary" : "compulsory"} strike-off: first Gazette notice ${first.date}.`
        : "Proposed for strike-off (company status detail); the first Gazette notice is not in the filing history read.",
      evidence: { statusDetail: profile.statusDetail, form: first?.type ?? null, transactionId: first?.transactionId ?? null, description: first?.description ?? null },
    });
  }

  if (profile.accountsOverdue) out.push(overdue("accounts-overdue", profile.filingDates.accountsDueOn, today));
  if (profile.confirmationStatementOverdue) out.push(overdue("confirmation-statement-overdue", profile.filingDates.confirmationStatementDueOn, today));

  for (const c of x.insolvency?.cases ?? []) {
    const dates = c.dates.filter((d) => isDate(d.date)).sort((a, b) => b.date!.localeCompare(a.date!));
    const type = c.type ?? "unknown";
    out.push({
      kind: "insolvency-case",
      severity: SOLVENT_CASES.has(type) ? "low" : MORATORIUM.test(type) ? "medium" : "high",
      date: dates[0]?.date ?? null,
      source: "companies-house-insolvency",
      summary: `Insolvency case${c.number ? ` ${c.number}` : ""}: ${type.replace(/-/g, " ")}${dates.length ? ` (${dates.map((d) => `${(d.type ?? "dated").replace(/-/g, " ")} ${d.date}`).join(", ")})` : ""}.`,
      // Practitioners are people: counted, never named (SPEC §1 rule 7).
      evidence: { caseNumber: c.number, caseType: c.type, dates: dates.map((d) => `${d.type ?? "date"} ${d.date}`), practitioners: c.practitioners.length },
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
    const newest = outstanding.map((c) => c.createdOn).filter(isDate).sort().pop() ?? null;
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
