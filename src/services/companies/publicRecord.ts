/**
 * A company's public record as one dated timeline, newest first (issue: public-record): what Companies House
 * records of it (profile, filing history, officers, PSCs, charges, insolvency), its corporate insolvency notices
 * in The Gazette, and the changes this service's own registers recorded for it. Each event has a date, a kind
 * (PUBLIC_RECORD_KINDS), a plain summary, its source and the evidence to find it there. Pure.
 *
 * SPEC §1 rule 7, people are counted, never named: officers' and PSCs' appointments and terminations are grouped
 * per date and counted by role or kind; insolvency practitioners are counted; charges' persons entitled are left
 * out; filings are described by their form and description key, never by their description values (which name
 * officers); Gazette notices by their code, never by their text.
 *
 * Where two sources record one fact, one event is kept:
 * - appointments and terminations of officers and PSCs come from the officer and PSC lists (every appointment,
 *   with its date and role); the officers and persons-with-significant-control filings (AP01, TM01, CH01, PSC01,
 *   PSC07, …) are not events of their own;
 * - charges come from the charges list (created and satisfied dates, charge code); the mortgage filings (MR01, MR04,
 *   MG01, …) are not events of their own;
 * - incorporation, renames and dissolution come from the company profile (its creation date, former names with the
 *   dates they ceased, cessation date); the matching filing (NEWINC, a change-of-name filing within 31 days,
 *   the final Gazette GAZ2) is given as the event's evidence, not as a second event;
 * - a change the companies register (Basic Company Data, monthly) recorded is dropped when Companies House records
 *   the same fact: a rename to the same name, a move with an address filing in the 93 days before the edition.
 */
import type { CompanyProfile } from "./profile";
import type { Charge, ChargeList, Filing, FilingHistory, Insolvency, OfficerList, PscList } from "./records";
import { ORGANISATION_REGISTERS, type OrganisationRegister, REGISTER_CATALOGUE } from "../registers/catalogue";
import type { ChangeRow } from "../registers/types";
import { type MatchedNotice, gazetteSignals } from "../risk/gazette";
import { normaliseName } from "../matching/names";
import { daysBetween } from "../../shared/dates";

/** The kinds of event, in the order events of one date are listed. */
export const PUBLIC_RECORD_KINDS = [
  "dissolved",
  "status-changed",
  "gazette-notice",
  "insolvency-case-event",
  "insolvency-filing",
  "strike-off-action",
  "charge-satisfied",
  "charge-created",
  "renamed",
  "registered-office-changed",
  "officers-appointed",
  "officers-terminated",
  "pscs-notified",
  "pscs-ceased",
  "accounts-filed",
  "confirmation-statement-filed",
  "annual-return-filed",
  "register-change",
  "other-filing",
  "incorporated",
] as const;
export type PublicRecordKind = (typeof PUBLIC_RECORD_KINDS)[number];

/** Our registers whose recorded changes are in the timeline: the catalogue's organisation registers (the companies register's are `companyChanges`). */
export const TIMELINE_REGISTERS = ORGANISATION_REGISTERS;
export type TimelineRegister = OrganisationRegister;
/** How summaries name each register: its catalogue label. */
export const REGISTER_LABELS = Object.fromEntries(TIMELINE_REGISTERS.map((r) => [r, REGISTER_CATALOGUE[r].label])) as Record<TimelineRegister, string>;

/** An event's source for a register's recorded changes. */
const registerSource = (r: TimelineRegister) => `register-${r}` as const;

export const PUBLIC_RECORD_SOURCES = [
  "companies-house-profile",
  "companies-house-filing-history",
  "companies-house-officers",
  "companies-house-pscs",
  "companies-house-charges",
  "companies-house-insolvency",
  "the-gazette",
  ...TIMELINE_REGISTERS.map(registerSource),
  "register-companies",
] as const;
export type PublicRecordSource = (typeof PUBLIC_RECORD_SOURCES)[number];

export interface PublicRecordEvidence {
  /** Companies House filing: its transaction id, form type (AA, CS01, GAZ2, …) and description key. */
  transactionId?: string;
  formType?: string;
  description?: string;
  /** Companies House charge. */
  chargeCode?: string;
  chargeNumber?: number;
  chargeId?: string;
  /** Companies House insolvency case: number, type and date type, verbatim. */
  caseNumber?: string;
  caseType?: string;
  dateType?: string;
  /** The Gazette notice. */
  noticeId?: string;
  noticeCode?: string;
  url?: string;
  matchedBy?: string;
  /** A petition to wind up that a later notice dismissed: the dismissal's id. */
  dismissedBy?: string;
  /** A change one of our registers recorded: the register, the change's kind and id. */
  register?: string;
  changeKind?: string;
  changeId?: number;
}

export interface PublicRecordEvent {
  /** YYYY-MM-DD. */
  date: string;
  kind: PublicRecordKind;
  summary: string;
  source: PublicRecordSource;
  evidence: PublicRecordEvidence;
  /** Grouped events (officers, PSCs, insolvency practitioners): how many, by role or kind code. */
  counted?: { total: number; by: Record<string, number> };
}

export interface PublicRecordInput {
  profile: CompanyProfile;
  filings: FilingHistory | null;
  officers: OfficerList | null;
  pscs: PscList | null;
  charges: ChargeList | null;
  insolvency: Insolvency | null;
  /** The company's Gazette notices, as matched (services/risk/gazette.ts matchNotices). */
  notices: MatchedNotice[];
  /** Recorded changes of the company's entries on our registers. */
  registerChanges: { register: TimelineRegister; changes: ChangeRow[] }[];
  /** The companies register's recorded changes of the company (`key` is the company number). */
  companyChanges: ChangeRow[];
}

export interface PublicRecordTimeline {
  /** Newest first. */
  events: PublicRecordEvent[];
  /** Events by kind (kinds with none are left out). */
  counts: Partial<Record<PublicRecordKind, number>>;
  /** Records that had no date and so could not be placed (left out). */
  undated: number;
  /** Filings not shown as events of their own, by why (see the module's comment). */
  filingsFolded: { officers: number; pscs: number; charges: number; sameAsProfile: number };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dated = (d: string | null | undefined): d is string => typeof d === "string" && DATE.test(d);

/** "change-registered-office-address-company-with-date-old-address" → "Change registered office address company". */
function humanise(key: string): string {
  const s = key
    .replace(/-with-.*$/, "")
    .replace(/-/g, " ")
    .trim();
  return s ? s[0].toUpperCase() + s.slice(1) : key;
}
const capital = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** Plain words for a count: "director" → "2 directors", "member of a management organ" → "2 members of a management organ". */
function countOf(n: number, words: string): string {
  if (n === 1) return `1 ${words}`;
  const parts = words.split(" ");
  const stop = parts.findIndex((w, i) => i > 0 && ["of", "with", "in", "authorised"].includes(w));
  const at = stop > 0 ? stop - 1 : parts.length - 1;
  const w = parts[at];
  parts[at] = /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(w) ? `${w}es` : `${w}s`;
  return `${n} ${parts.join(" ")}`;
}

const roleWords = (role: string) =>
  role
    .replace(/-/g, " ")
    .replace(/\bllp\b/g, "LLP")
    .replace(/\bcic\b/g, "CIC")
    .replace(/\beeig\b/g, "EEIG");

const PSC_WORDS: Record<string, string> = {
  individual: "individual",
  corporate: "corporate entity",
  "legal-person": "legal person",
  "super-secure": "protected person",
  other: "other",
};

/**
 * "2 directors appointed." or "3 officers appointed: 2 directors, 1 corporate secretary.": one kind is named on its
 * own (`alone`), several are counted under `noun` and listed (`words`).
 */
function countedSentence(by: Map<string, number>, verb: string, noun: string, words: (k: string) => string, alone: (k: string) => string = words): string {
  const total = [...by.values()].reduce((a, b) => a + b, 0);
  if (by.size === 1) {
    const [[k, n]] = [...by.entries()];
    return `${countOf(n, alone(k))} ${verb}.`;
  }
  const parts = [...by.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => countOf(n, words(k)));
  return `${countOf(total, noun)} ${verb}: ${parts.join(", ")}.`;
}

/** Counts of `key(item)` per date of `dateOf(item)`. */
function groupByDate<T>(items: T[], dateOf: (x: T) => string | null, key: (x: T) => string): { groups: Map<string, Map<string, number>>; undated: number } {
  const groups = new Map<string, Map<string, number>>();
  let undated = 0;
  for (const x of items) {
    const d = dateOf(x);
    if (!dated(d)) {
      undated++;
      continue;
    }
    const g = groups.get(d) ?? new Map<string, number>();
    const k = key(x);
    g.set(k, (g.get(k) ?? 0) + 1);
    groups.set(d, g);
  }
  return { groups, undated };
}

const counted = (by: Map<string, number>) => ({
  total: [...by.values()].reduce((a, b) => a + b, 0),
  by: Object.fromEntries([...by.entries()].sort((a, b) => a[0].localeCompare(b[0]))),
});

function filingEvidence(f: Filing): PublicRecordEvidence {
  return {
    ...(f.transactionId ? { transactionId: f.transactionId } : {}),
    ...(f.type ? { formType: f.type } : {}),
    ...(f.description ? { description: f.description } : {}),
  };
}

const INSOLVENCY_DATE_WORDS: Record<string, string> = {
  "wound-up-on": "winding up commenced",
  "petitioned-on": "petition presented",
  "concluded-winding-up-on": "winding up concluded",
  "due-to-be-dissolved-on": "due to be dissolved",
  "dissolved-on": "dissolved",
  "administration-started-on": "administration started",
  "administration-ended-on": "administration ended",
  "administration-discharged-on": "administration discharged",
  "instrumented-on": "instrument dated",
  "moratorium-started-on": "moratorium started",
  "moratorium-ended-on": "moratorium ended",
  "ordered-to-wind-up-on": "ordered to wind up",
  "voluntary-arrangement-started-on": "meeting to approve the voluntary arrangement",
  "voluntary-arrangement-ended-on": "voluntary arrangement completed or terminated",
  "declaration-solvent-on": "declaration of solvency sworn",
};

/** Companies House's words for its insolvency case types (constants.yml insolvency_case_type), the common ones. */
const CASE_WORDS: Record<string, string> = {
  "compulsory-liquidation": "Compulsory liquidation",
  "in-administration": "Administration",
  "creditors-voluntary-liquidation": "Creditors' voluntary liquidation",
  "members-voluntary-liquidation": "Members' voluntary liquidation",
  "foreign-insolvency": "Foreign insolvency",
  "administrative-receiver": "Administrative receivership",
  "scottish-administrative-receiver": "Receivership (Scotland)",
  "administration-order": "Administration order",
  "corporate-voluntary-arrangement": "Company voluntary arrangement",
  "receiver-manager": "Receiver/manager appointed",
  "corporate-voluntary-arrangement-moratorium": "Company voluntary arrangement moratorium",
  "order-of-court-restructuring-plan": "Restructuring plan",
  moratorium: "Moratorium",
};

const GAZETTE_FILING_WORDS: Record<string, string> = {
  "gazette-notice-compulsory": "First Gazette notice for compulsory strike-off",
  "gazette-notice-compulsary": "First Gazette notice for compulsory strike-off",
  "gazette-notice-voluntary": "First Gazette notice for voluntary strike-off",
  "gazette-filings-brought-up-to-date": "Compulsory strike-off action discontinued",
  "dissolution-application-strike-off-company": "Application to strike the company off the register",
  "dissolution-withdrawal-application-strike-off-company": "Application to strike the company off withdrawn",
};

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" ? String(v) : null);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(text).filter((x): x is string => x !== null) : []);

/** What a recorded register change says, in plain words (the change's `before` and `after` as the diff writes them). */
export function registerChangeWords(c: Pick<ChangeRow, "kind" | "before" | "after">): string {
  const b = c.before ?? {};
  const a = c.after ?? {};
  const from = (k: string) => text(b[k]) ?? "none";
  const to = (k: string) => text(a[k]) ?? "none";
  switch (c.kind) {
    case "added":
      return `listed${text(a.status) ? ` (${text(a.status)}${text(a.rating) ? `, ${text(a.rating)}` : ""})` : ""}`;
    case "removed":
      return "no longer listed";
    case "returned":
      return `listed again${text(a.status) ? ` (${text(a.status)})` : ""}`;
    case "deregistered":
      return "deregistered";
    case "status":
      return `status changed from ${from("status")} to ${to("status")}`;
    case "re-rated":
      return `rating changed from ${from("rating")} to ${to("rating")}`;
    case "moved":
      return a.postcode !== undefined || b.postcode !== undefined
        ? `registered office postcode changed from ${from("postcode")} to ${to("postcode")}`
        : `town changed from ${from("town")} to ${to("town")}`;
    case "renamed":
      return `name changed from ${from("name")} to ${to("name")}`;
    case "routes": {
      const before = new Set(list(b.routes));
      const after = new Set(list(a.routes));
      const gained = [...after].filter((r) => !before.has(r));
      const lost = [...before].filter((r) => !after.has(r));
      return ["routes changed", gained.length ? `added ${gained.join(", ")}` : "", lost.length ? `dropped ${lost.join(", ")}` : ""].filter(Boolean).join("; ");
    }
    case "premises":
      return `premises changed from ${from("premises")} to ${to("premises")}`;
    default:
      return `${c.kind.replace(/-/g, " ")} recorded`;
  }
}

/** The timeline of one company, newest first. */
export function publicRecordTimeline(input: PublicRecordInput): PublicRecordTimeline {
  const { profile } = input;
  const events: PublicRecordEvent[] = [];
  let undated = 0;
  const folded = { officers: 0, pscs: 0, charges: 0, sameAsProfile: 0 };
  const push = (e: PublicRecordEvent) => (dated(e.date) ? events.push(e) : undated++);
  const filings = (input.filings?.items ?? []).filter((f) => {
    if (dated(f.date)) return true;
    undated++;
    return false;
  });

  // ---- Profile: incorporation, renames, dissolution (with their filings as evidence).
  const takeFiling = (pred: (f: Filing) => boolean): Filing | null => {
    const i = filings.findIndex(pred);
    if (i < 0) return null;
    folded.sameAsProfile++;
    return filings.splice(i, 1)[0];
  };
  const newest = [...profile.previousNames].sort((a, b) => (b.until ?? "").localeCompare(a.until ?? ""));
  const firstName = newest.length ? newest[newest.length - 1].name : profile.name;
  if (dated(profile.incorporatedOn)) {
    const f = takeFiling((x) => x.category === "incorporation" && (x.description ?? "").startsWith("incorporation"));
    push({
      date: profile.incorporatedOn,
      kind: "incorporated",
      summary: `Incorporated as ${firstName}.`,
      source: "companies-house-profile",
      evidence: f ? filingEvidence(f) : {},
    });
  } else undated++;
  newest.forEach((p, i) => {
    const to = i === 0 ? profile.name : newest[i - 1].name;
    if (!dated(p.until)) return void undated++;
    const until = p.until;
    const f = takeFiling((x) => x.category === "change-of-name" && Math.abs(daysBetween(until, x.date!)) <= 31);
    // A second filing of the same rename (a resolution and its certificate) is folded too.
    while (f && takeFiling((x) => x.category === "change-of-name" && Math.abs(daysBetween(until, x.date!)) <= 31));
    push({
      date: until,
      kind: "renamed",
      summary: `Renamed from ${p.name} to ${to}.`,
      source: "companies-house-profile",
      evidence: f ? filingEvidence(f) : {},
    });
  });
  if (dated(profile.ceasedOn)) {
    const f = takeFiling((x) => (x.description ?? "").startsWith("gazette-dissolved"));
    push({
      date: profile.ceasedOn,
      kind: "dissolved",
      summary: profile.status === "dissolved" || !profile.status ? "Dissolved." : `Ceased (Companies House status ${profile.status}).`,
      source: "companies-house-profile",
      evidence: f ? filingEvidence(f) : {},
    });
  }

  // ---- Filing history (what is left of it).
  for (const f of filings) {
    const category = f.category ?? "";
    const desc = f.description ?? "";
    const v = f.descriptionValues;
    const ev = filingEvidence(f);
    const form = f.type ? ` (${f.type})` : "";
    const filed = (kind: PublicRecordKind, summary: string) => push({ date: f.date!, kind, summary, source: "companies-house-filing-history", evidence: ev });
    if (category === "officers") folded.officers++;
    else if (category === "persons-with-significant-control") folded.pscs++;
    else if (category === "mortgage") folded.charges++;
    else if (category === "accounts" && desc.startsWith("accounts")) {
      const type = /-with-accounts-type-(.+)$/.exec(desc)?.[1];
      const madeUp = v.made_up_date ?? f.actionDate;
      filed(
        "accounts-filed",
        `${desc.startsWith("accounts-amended") ? "Amended accounts" : "Accounts"}${type ? ` (${type.replace(/-/g, " ")})` : ""}${madeUp ? ` made up to ${madeUp}` : ""} filed${form}.`,
      );
    } else if (category === "confirmation-statement") {
      const madeUp = v.made_up_date ?? f.actionDate;
      const updates = desc.includes("no-updates") ? ", no updates" : desc.includes("with-updates") ? ", with updates" : "";
      filed("confirmation-statement-filed", `Confirmation statement${madeUp ? ` made up to ${madeUp}` : ""} filed${form}${updates}.`);
    } else if (category === "annual-return") {
      const madeUp = v.made_up_date ?? f.actionDate;
      filed("annual-return-filed", `Annual return${madeUp ? ` made up to ${madeUp}` : ""} filed${form}.`);
    } else if (category === "address" && desc.startsWith("change-registered-office-address")) {
      filed("registered-office-changed", `Registered office address changed${form}.`);
    } else if (category === "change-of-name") {
      filed("renamed", `Change of name filed${form}.`);
    } else if (category === "gazette" || category === "dissolution") {
      const dissolvedNow = desc.startsWith("gazette-dissolved");
      filed(
        dissolvedNow ? "dissolved" : "strike-off-action",
        `${dissolvedNow ? "Final Gazette notice: dissolved" : (GAZETTE_FILING_WORDS[desc] ?? humanise(desc || "gazette filing"))}${form}.`,
      );
    } else if (category === "insolvency" || category === "liquidation" || category === "administration" || desc.startsWith("liquidation-")) {
      filed("insolvency-filing", `Insolvency filing: ${humanise(desc || "filing").toLowerCase()}${form}.`);
    } else {
      const what = desc === "legacy" || !desc ? `Filing` : humanise(desc);
      filed("other-filing", `${what}${form}.`);
    }
  }

  // ---- Officers and PSCs: counted per date, never named.
  const officers = input.officers?.items ?? [];
  const roleOf = (r: string | null) => r ?? "officer";
  for (const [which, dateOf] of [
    ["appointed", (o: (typeof officers)[number]) => o.appointedOn],
    ["terminated", (o: (typeof officers)[number]) => o.resignedOn],
  ] as const) {
    const { groups, undated: u } = groupByDate(which === "terminated" ? officers.filter((o) => o.resignedOn !== null) : officers, dateOf, (o) =>
      roleOf(o.role),
    );
    undated += u;
    for (const [date, by] of groups)
      push({
        date,
        kind: which === "appointed" ? "officers-appointed" : "officers-terminated",
        summary: countedSentence(by, which === "appointed" ? "appointed" : "ceased to act (resigned or terminated)", "officer", roleWords),
        source: "companies-house-officers",
        evidence: {},
        counted: counted(by),
      });
  }
  const pscs = input.pscs?.items ?? [];
  for (const [which, items, dateOf] of [
    ["notified", pscs, (p: (typeof pscs)[number]) => p.notifiedOn],
    ["ceased", pscs.filter((p) => p.ceasedOn !== null || p.ceased), (p: (typeof pscs)[number]) => p.ceasedOn],
  ] as const) {
    const { groups, undated: u } = groupByDate(items, dateOf, (p) => p.category);
    undated += u;
    for (const [date, by] of groups)
      push({
        date,
        kind: which === "notified" ? "pscs-notified" : "pscs-ceased",
        summary: countedSentence(
          by,
          which,
          "person with significant control",
          (k) => PSC_WORDS[k] ?? k,
          (k) => `${PSC_WORDS[k] ?? k} with significant control`,
        ),
        source: "companies-house-pscs",
        evidence: {},
        counted: counted(by),
      });
  }

  // ---- Charges (persons entitled are left out: they may be people).
  for (const c of input.charges?.items ?? []) {
    const ev = chargeEvidence(c);
    const name = c.chargeCode ? `Charge ${c.chargeCode}` : c.chargeNumber !== null ? `Charge number ${c.chargeNumber}` : "A charge";
    const created = c.createdOn ?? c.deliveredOn;
    const terms = [
      c.containsFixedCharge ? "fixed charge" : "",
      c.containsFloatingCharge ? (c.floatingChargeCoversAll ? "floating charge over all the property or undertaking" : "floating charge") : "",
      c.containsNegativePledge ? "negative pledge" : "",
    ].filter(Boolean);
    const state =
      c.status === "part-satisfied"
        ? " Now part-satisfied."
        : c.status === "outstanding"
          ? " Outstanding."
          : (c.status === "fully-satisfied" || c.status === "satisfied") && !dated(c.satisfiedOn)
            ? " Satisfied (date not given)."
            : "";
    push({
      date: created ?? "",
      kind: "charge-created",
      summary: `${name} created${c.classification ? ` (${c.classification})` : ""}${terms.length ? `: ${terms.join(", ")}` : ""}.${state}`,
      source: "companies-house-charges",
      evidence: ev,
    });
    if (dated(c.satisfiedOn))
      push({
        date: c.satisfiedOn,
        kind: "charge-satisfied",
        summary: `${name} satisfied${c.status === "part-satisfied" ? " in part" : ""}.`,
        source: "companies-house-charges",
        evidence: ev,
      });
  }

  // ---- Insolvency cases: their dates, and their practitioners counted.
  for (const k of input.insolvency?.cases ?? []) {
    const caseWords = CASE_WORDS[k.type ?? ""] ?? (k.type ? capital(k.type.replace(/-/g, " ")) : "Insolvency case");
    const label = `${caseWords}${k.number ? ` (case ${k.number})` : ""}`;
    const ev: PublicRecordEvidence = { ...(k.number ? { caseNumber: k.number } : {}), ...(k.type ? { caseType: k.type } : {}) };
    for (const d of k.dates) {
      if (!dated(d.date)) {
        undated++;
        continue;
      }
      const words = INSOLVENCY_DATE_WORDS[d.type ?? ""] ?? (d.type ? d.type.replace(/-on$/, "").replace(/-/g, " ") : "dated");
      push({
        date: d.date,
        kind: "insolvency-case-event",
        summary: `${label}: ${words}.`,
        source: "companies-house-insolvency",
        evidence: { ...ev, ...(d.type ? { dateType: d.type } : {}) },
      });
    }
    for (const [which, dateOf] of [
      ["appointed", (p: (typeof k.practitioners)[number]) => p.appointedOn],
      ["ceased to act", (p: (typeof k.practitioners)[number]) => p.ceasedToActOn],
    ] as const) {
      // Practitioners with no dates are in the case; only dated appointments are events.
      const { groups } = groupByDate(k.practitioners, dateOf, (p) => p.role ?? "practitioner");
      for (const [date, by] of groups) {
        const n = [...by.values()].reduce((a, b) => a + b, 0);
        push({
          date,
          kind: "insolvency-case-event",
          summary: `${label}: ${countOf(n, "insolvency practitioner")} ${which}.`,
          source: "companies-house-insolvency",
          evidence: { ...ev, dateType: which === "appointed" ? "practitioner-appointed-on" : "practitioner-ceased-to-act-on" },
          counted: counted(by),
        });
      }
    }
  }

  // ---- The Gazette: corporate insolvency notices, a petition dismissed by a later notice said so.
  const matchedBy = new Map(input.notices.map((m) => [m.notice.id, m.matchedBy]));
  const undatedNotices = input.notices.filter((m) => !dated(m.notice.publishedOn) || !m.notice.code).length;
  undated += undatedNotices;
  for (const s of gazetteSignals(input.notices.map((m) => m.notice))) {
    if (!dated(s.date)) continue;
    const dismissed = s.clearedBy ? ` Dismissed: notice ${s.clearedBy.noticeId}${s.clearedBy.date ? ` of ${s.clearedBy.date}` : ""}.` : "";
    push({
      date: s.date,
      kind: "gazette-notice",
      summary: `Gazette notice ${s.code}: ${s.meaning}.${dismissed}`,
      source: "the-gazette",
      evidence: {
        noticeId: s.noticeId,
        noticeCode: s.code,
        ...(s.url ? { url: s.url } : {}),
        ...(matchedBy.get(s.noticeId) ? { matchedBy: matchedBy.get(s.noticeId) } : {}),
        ...(s.clearedBy ? { dismissedBy: s.clearedBy.noticeId } : {}),
      },
    });
  }

  // ---- Our registers' recorded changes.
  for (const r of input.registerChanges)
    for (const c of r.changes)
      push({
        date: c.date,
        kind: "register-change",
        summary: `${REGISTER_LABELS[r.register]}: ${c.name} ${registerChangeWords(c)}.`,
        source: registerSource(r.register),
        evidence: { register: r.register, changeKind: c.kind, changeId: c.id },
      });

  // ---- The companies register (monthly Basic Company Data): what Companies House did not already date.
  const renamedTo = new Set([profile.name, ...profile.previousNames.map((p) => p.name)].map(normaliseName));
  const addressFilings = (input.filings?.items ?? []).filter((f) => f.category === "address" && dated(f.date));
  for (const c of input.companyChanges) {
    if (!dated(c.date)) {
      undated++;
      continue;
    }
    const newName = text(c.after?.name);
    if (c.kind === "renamed" && newName && renamedTo.has(normaliseName(newName)) && profile.previousNames.length) continue;
    if (c.kind === "moved" && addressFilings.some((f) => daysBetween(f.date!, c.date) >= 0 && daysBetween(f.date!, c.date) <= 93)) continue;
    push({
      date: c.date,
      kind: c.kind === "status" ? "status-changed" : c.kind === "renamed" ? "renamed" : c.kind === "moved" ? "registered-office-changed" : "register-change",
      summary:
        c.kind === "added"
          ? "First listed in Companies House's monthly Basic Company Data."
          : c.kind === "removed"
            ? "No longer listed in Companies House's monthly Basic Company Data (dissolved or removed)."
            : `${capital(registerChangeWords(c))} (Companies House's monthly Basic Company Data).`,
      source: "register-companies",
      evidence: { register: "companies", changeKind: c.kind, changeId: c.id },
    });
  }

  const order = new Map<string, number>(PUBLIC_RECORD_KINDS.map((k, i) => [k, i]));
  events.sort((a, b) => b.date.localeCompare(a.date) || order.get(a.kind)! - order.get(b.kind)! || a.summary.localeCompare(b.summary));
  const counts: Partial<Record<PublicRecordKind, number>> = {};
  for (const e of events) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  return { events, counts, undated, filingsFolded: folded };
}

function chargeEvidence(c: Charge): PublicRecordEvidence {
  return {
    ...(c.chargeCode ? { chargeCode: c.chargeCode } : {}),
    ...(c.chargeNumber !== null ? { chargeNumber: c.chargeNumber } : {}),
    ...(c.id ? { chargeId: c.id } : {}),
  };
}
