/**
 * Signals (SPEC §2.2) from the registers this service keeps, for a confirmed company: its payment practices reports
 * and its CQC registration. Pure: the enrichment core reads the entries (by the company's number) and passes them in,
 * with `today`. Each label states the figures it rests on; none is a verdict beyond the rule it names.
 */
import { THRESHOLDS, testReport } from "../payments/ppn018";
import type { PaymentReport } from "../payments/types";
import type { GazetteSignal } from "../risk/gazette";
import type { InsolvencyNotice, InsolvencyNotices, Signal } from "./types";
import { daysBetween } from "../../shared/dates";

/** A report filed within this many days is new (reports are six-monthly, due 30 days after the period). */
const NEW_REPORT_DAYS = 183;
/** A report older than this gives no signal (two and a half reporting periods). */
const STALE_REPORT_DAYS = 550;

export const PAYMENT_SOURCE = "payment practices reports (Department for Business and Trade)";

const pct = (n: number) => `${Math.round(n * 100) / 100}%`;

/** A report's fields in words, for the reasons its figures are not plausible. */
const FIELD_WORDS: Record<string, string> = {
  avgDaysToPay: "average days to pay",
  pctWithin30: "% paid within 30 days",
  pct31to60: "% paid in 31–60 days",
  pctOver60: "% paid later than 60 days",
  pctNotPaidWithinTerms: "% not paid within agreed terms",
  pctNotPaidDueToDispute: "% not paid because of a dispute",
  valuePctWithin30: "% of value paid within 30 days",
  valuePct31to60: "% of value paid in 31–60 days",
  valuePctOver60: "% of value paid later than 60 days",
  valuePctNotPaidWithinTerms: "% of value not paid within agreed terms",
  shortestStandardTermsDays: "shortest standard terms",
  longestStandardTermsDays: "longest standard terms",
  maxContractualTermsDays: "maximum contractual terms",
};
const inWords = (note: string) => note.replace(/[A-Za-z0-9]+/g, (w) => FIELD_WORDS[w] ?? w);

/** The payment figures the signal quotes (the average, and the shares by number): a figure the parser set aside, or shares that do not add up. */
const QUOTED = new Set(["avgDaysToPay", "pctWithin30", "pct31to60", "pctOver60", "pctNotPaidWithinTerms"]);

/**
 * The newest payment practices report as a signal: `slow-payment-report` (risk) when a report filed in the last six
 * months misses the prompt payment test of PPN 018 (at least 95% of invoices paid within 60 days and an average of at
 * most 45 days); otherwise `payment-practices-report` (info) with its figures. None when the newest report is older
 * than about eighteen months, or there is none.
 *
 * Figures that are not plausible are never quoted or tested, and the label says which and why (issue 28 §3): a figure
 * the register set aside when the report was loaded (`clamped`: an average of millions of days, a share over 100%), and
 * shares of invoices by number that do not add up to about 100% (`inconsistent`: each is then doubtful, so none of the
 * three is used). "It gives no payment figures" is said only when the report states none at all.
 */
export function paymentSignal(reports: readonly PaymentReport[], today: string): Signal | null {
  const newest = reports
    .filter((r) => (r.filedOn ?? r.periodEnd) <= today)
    .sort((a, b) => b.periodEnd.localeCompare(a.periodEnd) || (b.filedOn ?? "").localeCompare(a.filedOn ?? ""))[0];
  if (!newest) return null;
  const filed = newest.filedOn ?? newest.periodEnd;
  const age = daysBetween(filed, today);
  if (age > STALE_REPORT_DAYS) return null;
  const isNew = age <= NEW_REPORT_DAYS;
  const clamped = (newest.clamped ?? []).filter((c) => QUOTED.has(c.split(":")[0].trim()));
  const sharesInconsistent = (newest.inconsistent ?? []).filter((c) => /^pctWithin30 \+ pct31to60 \+ pctOver60\b/.test(c));
  // Shares that do not add up are not quoted or tested: which of them is wrong cannot be known.
  const usable: PaymentReport = sharesInconsistent.length ? { ...newest, pctWithin30: null, pct31to60: null, pctOver60: null } : newest;
  const t = testReport(usable, THRESHOLDS[0]);
  const figures = [
    usable.avgDaysToPay !== null ? `average ${usable.avgDaysToPay} days to pay` : null,
    t.paidWithin60Pct !== null ? `${pct(t.paidWithin60Pct)} of invoices paid within 60 days` : null,
    usable.pctNotPaidWithinTerms !== null ? `${pct(usable.pctNotPaidWithinTerms)} not paid within agreed terms` : null,
  ].filter(Boolean);
  const implausible = [
    ...clamped.map(inWords),
    ...sharesInconsistent.map((c) => {
      const sum = /=\s*([\d.]+)/.exec(c)?.[1];
      return `the shares of invoices paid within 30 days, in 31–60 days and later than 60 days add up to ${sum ? `${sum}%` : "something other than 100%"}, not about 100%`;
    }),
  ];
  const which = `${isNew ? "New payment practices report" : "Payment practices report"} (period ending ${newest.periodEnd}${newest.filedOn ? `, filed ${newest.filedOn}` : ""})`;
  const notPlausible = implausible.length ? `figures not plausible, so not used: ${implausible.join("; ")}` : "";
  const said = figures.length
    ? `: ${figures.join("; ")}${notPlausible ? `; ${notPlausible}` : ""}`
    : notPlausible
      ? `: its payment figures are not plausible, so none is given or tested (${implausible.join("; ")})`
      : ": it gives no payment figures";
  if (isNew && t.verdict === "fail")
    return {
      code: "slow-payment-report",
      label: `${which}${said}, short of the public sector's prompt payment test (PPN 018: 95% within 60 days and an average of at most 45 days)`,
      kind: "risk",
      source: PAYMENT_SOURCE,
    };
  return { code: "payment-practices-report", label: `${which}${said}`, kind: "info", source: PAYMENT_SOURCE };
}

// ---------------------------------------------------------------------------------------------------------------
// The Gazette's corporate insolvency notices
// ---------------------------------------------------------------------------------------------------------------

/** A notice is recent for this many days after its publication (issue 28 §2: a recent Gazette notice is a risk). */
export const RECENT_NOTICE_DAYS = 365;

export const GAZETTE_SOURCE = "The Gazette (corporate insolvency notices)";

/**
 * The company's notices of concern published in the last RECENT_NOTICE_DAYS, newest first, from its matched notices
 * read through the Gazette's codes (services/risk/gazette.ts `gazetteSignals`): procedural notices and a petition a
 * later dismissal cleared (severity info) are left out; a members' (solvent) voluntary liquidation is kept (low).
 */
export function recentInsolvencyNotices(signals: readonly GazetteSignal[], today: string): InsolvencyNotice[] {
  return signals
    .filter(
      (g): g is GazetteSignal & { date: string; severity: InsolvencyNotice["severity"] } =>
        g.severity !== "info" && !!g.date && g.date <= today && daysBetween(g.date, today) <= RECENT_NOTICE_DAYS,
    )
    .sort((a, b) => b.date.localeCompare(a.date))
    .map((g) => ({ noticeId: g.noticeId, code: g.code, meaning: g.meaning, severity: g.severity, date: g.date, url: g.url }));
}

/** `gazette-notice` (risk): the recent notices of concern, newest first (at most three named). None when The Gazette was not read or gave none. */
export function gazetteSignal(notices: InsolvencyNotices | undefined): Signal | null {
  if (!notices?.read || !notices.recent.length) return null;
  const n = notices.recent.length;
  const named = notices.recent.slice(0, 3).map((x) => `${x.meaning} (notice ${x.code}, ${x.date})`);
  return {
    code: "gazette-notice",
    label: `${n} corporate insolvency notice${n === 1 ? "" : "s"} in The Gazette in the last 12 months: ${named.join("; ")}${n > 3 ? `; and ${n - 3} more` : ""}`,
    kind: "risk",
    source: GAZETTE_SOURCE,
  };
}

/** A CQC register entry as the signal reads it (a provider or one of its locations). */
export interface CqcEntry {
  kind: "provider" | "location";
  status: string;
  rating: string | null;
  removed: boolean;
}

export const CQC_SOURCE = "CQC register of care providers";

const CONCERN = /^(?:inadequate|requires improvement)$/i;

/**
 * `cqc-registered` (info) with the provider's and the registered locations' ratings; `cqc-rating-concern` (risk) as
 * well when the provider or any registered location is rated Inadequate or Requires improvement. None when nothing is
 * registered now.
 */
export function cqcSignals(entries: readonly CqcEntry[]): Signal[] {
  const live = entries.filter((e) => !e.removed && /^registered$/i.test(e.status.trim()));
  if (!live.length) return [];
  const provider = live.find((e) => e.kind === "provider");
  const locations = live.filter((e) => e.kind === "location");
  const counts = new Map<string, number>();
  // Ratings as the register gives them ("Not rated" kept verbatim); many services (most dentists) have none.
  for (const l of locations) counts.set(l.rating ?? "no overall rating", (counts.get(l.rating ?? "no overall rating") ?? 0) + 1);
  const rated = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([r, n]) => `${n} ${r}`);
  const parts = [
    provider?.rating ? `provider rated ${provider.rating}` : null,
    locations.length ? `${locations.length} registered location${locations.length === 1 ? "" : "s"}${rated.length ? ` (${rated.join(", ")})` : ""}` : null,
  ].filter(Boolean);
  const out: Signal[] = [
    {
      code: "cqc-registered",
      label: `Registered with the Care Quality Commission${parts.length ? `: ${parts.join("; ")}` : ""}`,
      kind: "info",
      source: CQC_SOURCE,
    },
  ];
  const concerns = [
    ...(provider?.rating && CONCERN.test(provider.rating) ? [`the provider is rated ${provider.rating}`] : []),
    ...[...counts].filter(([r]) => CONCERN.test(r)).map(([r, n]) => `${n} location${n === 1 ? " is" : "s are"} rated ${r}`),
  ];
  if (concerns.length) out.push({ code: "cqc-rating-concern", label: `CQC ratings: ${concerns.join("; ")}`, kind: "risk", source: CQC_SOURCE });
  return out;
}
