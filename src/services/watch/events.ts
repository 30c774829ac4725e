/**
 * Watch events (SPEC §2.7, §6.1; issue 15 §2): the differences between a watched company's last reading and
 * today's, each a kind from a closed list with a plain summary and the reading before and after. Pure.
 *
 * - The first reading of a watch (no previous reading) is its baseline: no events.
 * - A section that could not be read today keeps the last good one and gives no event (SPEC §3.1); when it is
 *   read again it is compared with that last good section. Likewise a part of a section that was not read (the
 *   officers list, the charges, …: null) keeps its last value, and a section or part first read now is a
 *   baseline of its own.
 * - Identical readings give no events, so reading twice in a day writes none; `eventKey` lets storage refuse a
 *   duplicate all the same.
 * - Summaries name the company and no person (SPEC §1 rule 7); the before/after shapes hold no names either.
 */
import {
  type AwardKey,
  type ChargeKey,
  type ContractsValues,
  type DistressValues,
  type IdvCounts,
  type NoticeKey,
  type PaymentsValues,
  type Reading,
  READING_VERSION,
  type RegisterValues,
  type SanctionsValues,
  type Section,
  SECTIONS,
  type SponsorEntry,
  type SponsorsValues,
  type RegisterEntryReading,
  type RegistersValues,
  STRIKE_OFF_DETAIL,
} from "./reading";
import { CORPORATE_INSOLVENCY_CODES } from "../risk/gazette";
import { REGISTER_CATALOGUE } from "../registers/catalogue";

/** Each kind: the section it comes from, when it is emitted, and its before/after shape. In feed order. */
export const EVENT_KINDS = {
  status: {
    section: "register",
    when: "the company's status on the companies register changed, or its status detail did (a proposal to strike off is `strike_off_proposed` instead)",
    shape: "{ status: string, statusDetail: string | null }",
  },
  strike_off_proposed: {
    section: "distress",
    when: "the registrar proposed to strike the company off (status detail active-proposal-to-strike-off), or the proposal ended",
    shape: "{ proposed: boolean, firstNoticeOn: string | null } (the first Gazette notice, YYYY-MM-DD, when the filing history gives it)",
  },
  accounts_overdue: {
    section: "register",
    when: "the accounts became overdue, or are no longer overdue",
    shape: "{ overdue: boolean, dueOn: string | null }",
  },
  confirmation_overdue: {
    section: "register",
    when: "the confirmation statement became overdue, or is no longer overdue",
    shape: "{ overdue: boolean, dueOn: string | null }",
  },
  director_count: {
    section: "register",
    when: "the number of active directors (LLP members included, secretaries not) changed",
    shape: "{ count: number }",
  },
  psc_count: {
    section: "register",
    when: "the number of active persons with significant control changed",
    shape: "{ count: number }",
  },
  id_verification: {
    section: "register",
    when: "the number of directors or of persons with significant control whose identity is verified, or whose verification is overdue, changed",
    shape: "{ directors: IdvCounts, pscs: IdvCounts }, IdvCounts = { verified, statementDue, overdue, notApplicable } (numbers)",
  },
  insolvency_notice: {
    section: "distress",
    when: "a new corporate insolvency notice about the company in The Gazette",
    shape: "{ noticeId: string | null, code: string | null, meaning: string | null, publishedOn: string | null } (before: every field null)",
  },
  insolvency_case: {
    section: "distress",
    when: "a new case on the company's Companies House insolvency record",
    shape: "{ caseNumber: string | null, caseType: string | null } (before: every field null)",
  },
  charge_created: {
    section: "distress",
    when: "a new charge registered against the company",
    shape: "{ chargeCode: string | null, createdOn: string | null, status: string | null } (before: every field null)",
  },
  charge_satisfied: {
    section: "distress",
    when: "a charge became fully satisfied",
    shape: "{ chargeCode: string, createdOn: string | null, status: string | null }",
  },
  sanctions_match: {
    section: "sanctions",
    when: "the company became a definite match for a designation on the UK sanctions list (a match that goes away is not reported: no match is never a clearance)",
    shape: "{ listIds: string[], listDate: string | null }",
  },
  payment_report: {
    section: "payments",
    when: "a new payment practices report was filed (a later period, or a new report for the same period)",
    shape:
      "{ reportId: number | null, avgDays: number | null, pctLate: number | null } (avgDays: average days to pay; pctLate: % of invoices not paid within the agreed terms; before: every field null when there was no earlier report)",
  },
  contract_won: {
    section: "contracts",
    when: "a new public contract award to the company (Contracts Finder or Find a Tender)",
    shape:
      "{ ocid: string | null, awardId: string | null, title: string | null, buyer: string | null, value: { amount, currency } | null, awardDate: string | null } (before: every field null)",
  },
  sponsor_added: {
    section: "sponsors",
    when: "the company is listed on the register of licensed sponsors for a route it was not listed for",
    shape: "{ register: 'workers' | 'students' | null, route: string | null, rating: string | null, town: string | null, listed: boolean }",
  },
  sponsor_removed: {
    section: "sponsors",
    when: "the company is no longer listed for a route (a licence revoked or surrendered leaves the register)",
    shape: "{ register, route, rating, town, listed } as sponsor_added (after: listed false)",
  },
  sponsor_rerated: {
    section: "sponsors",
    when: "the rating of a route the company is listed for changed (a B rating means an action plan)",
    shape: "{ register, route, rating, town, listed } as sponsor_added",
  },
  register_listed: {
    section: "registers",
    when: "the company appears on HMRC's money laundering supervision register, the SRA's register of firms, CQC's register or the Charity Commission's register (an entry definitely matched to it, by company number or registered name), in the daily read of that register",
    shape:
      "{ register: aml | sra | cqc | charity, key, status, rating, listed, edition } (key: the register's entry; edition: the date of the register's edition it was read from; before: every field null but register)",
  },
  register_left: {
    section: "registers",
    when: "an entry of the company on one of those registers is no longer listed",
    shape: "{ register, key, status, rating, listed, edition } as register_listed (after: listed false)",
  },
  register_status: {
    section: "registers",
    when: "the status of a listed entry changed (e.g. Approved to Expired on HMRC's register, authorised to revoked at the SRA)",
    shape: "{ register, key, status, rating, listed, edition } as register_listed",
  },
  register_rerated: {
    section: "registers",
    when: "the rating of a listed entry changed (CQC's overall rating)",
    shape: "{ register, key, status, rating, listed, edition } as register_listed",
  },
} as const;

export type EventKind = keyof typeof EVENT_KINDS;
export const EVENT_KIND_NAMES = Object.keys(EVENT_KINDS) as EventKind[];

/** The kinds and their before/after shapes, for the API description (SPEC §6.1). */
export const EVENT_KINDS_DOC: string = [
  "Event kinds, each with its `before` and `after` shape (dates YYYY-MM-DD; no person is ever named):",
  ...EVENT_KIND_NAMES.map((k) => `- \`${k}\`: ${EVENT_KINDS[k].when}. before/after: \`${EVENT_KINDS[k].shape}\`.`),
].join("\n");

/** SPEC §2.7 Event without what storage adds (id, company, seenAt, deliveredToWebhook). */
export interface WatchEvent {
  kind: EventKind;
  /** A plain sentence naming the company and no person. */
  summary: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

// ---- words ----------------------------------------------------------------------------------------------

const words = (code: string) => code.replace(/-/g, " ");
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const statusWords = (s: { status: string; statusDetail: string | null }) =>
  `${s.status ? words(s.status) : "no status"}${s.statusDetail ? ` (${words(s.statusDetail)})` : ""}`;
const money = (v: { amount: number; currency: string } | null) => {
  if (!v) return null;
  try {
    return new Intl.NumberFormat("en-GB", { style: "currency", currency: v.currency, maximumFractionDigits: 0 }).format(v.amount);
  } catch {
    return `${v.amount.toLocaleString("en-GB")} ${v.currency}`;
  }
};
const pct = (n: number | null) => (n === null ? "not reported" : `${n}%`);

// ---- sections -------------------------------------------------------------------------------------------

type Ok<T> = Extract<Section<T>, { ok: true }>;

/** Today's section with each part that was not read (null) filled from the last good one. */
function fillRegister(prev: Ok<RegisterValues>, next: Ok<RegisterValues>): Ok<RegisterValues> {
  return {
    ...next,
    directors: next.directors ?? prev.directors,
    pscs: next.pscs ?? prev.pscs,
    idv: { directors: next.idv.directors ?? prev.idv.directors, pscs: next.idv.pscs ?? prev.idv.pscs },
  };
}

const detailSansStrikeOff = (d: string | null) => (d === STRIKE_OFF_DETAIL ? null : d);

function registerEvents(a: Ok<RegisterValues>, b: Ok<RegisterValues>, name: string): WatchEvent[] {
  const out: WatchEvent[] = [];
  if (a.status !== b.status || detailSansStrikeOff(a.statusDetail) !== detailSansStrikeOff(b.statusDetail))
    out.push({
      kind: "status",
      summary: `${name}'s status on the companies register changed from ${statusWords(a)} to ${statusWords(b)}.`,
      before: { status: a.status, statusDetail: a.statusDetail },
      after: { status: b.status, statusDetail: b.statusDetail },
    });
  for (const [kind, what, overdue, due] of [
    ["accounts_overdue", "accounts are", "accountsOverdue", "accountsDueOn"],
    ["confirmation_overdue", "confirmation statement is", "confirmationOverdue", "confirmationDueOn"],
  ] as const)
    if (a[overdue] !== b[overdue])
      out.push({
        kind,
        summary: b[overdue]
          ? `${name}'s ${what} overdue${b[due] ? ` (due on ${b[due]})` : ""}.`
          : `${name}'s ${what} no longer overdue${b[due] ? ` (next due on ${b[due]})` : ""}.`,
        before: { overdue: a[overdue], dueOn: a[due] },
        after: { overdue: b[overdue], dueOn: b[due] },
      });
  if (a.directors !== null && b.directors !== null && a.directors !== b.directors)
    out.push({
      kind: "director_count",
      summary: `${name} now has ${plural(b.directors, "active director", "active directors")} (was ${a.directors}).`,
      before: { count: a.directors },
      after: { count: b.directors },
    });
  if (a.pscs !== null && b.pscs !== null && a.pscs !== b.pscs)
    out.push({
      kind: "psc_count",
      summary: `${name} now has ${plural(b.pscs, "active person", "active persons")} with significant control (was ${a.pscs}).`,
      before: { count: a.pscs },
      after: { count: b.pscs },
    });
  const moved = (x: IdvCounts | null, y: IdvCounts | null) => !!x && !!y && (x.verified !== y.verified || x.overdue !== y.overdue);
  if (moved(a.idv.directors, b.idv.directors) || moved(a.idv.pscs, b.idv.pscs)) {
    const part = (label: string, x: IdvCounts | null, y: IdvCounts | null) =>
      !x || !y
        ? null
        : `${label}: ${y.verified} verified and ${y.overdue} overdue${x.verified !== y.verified || x.overdue !== y.overdue ? ` (was ${x.verified} and ${x.overdue})` : " (unchanged)"}`;
    const parts = [part("directors", a.idv.directors, b.idv.directors), part("persons with significant control", a.idv.pscs, b.idv.pscs)].filter(Boolean);
    out.push({
      kind: "id_verification",
      summary: `Identity verification at ${name} changed, ${parts.join("; ")}.`,
      before: { directors: a.idv.directors, pscs: a.idv.pscs },
      after: { directors: b.idv.directors, pscs: b.idv.pscs },
    });
  }
  return out;
}

function fillDistress(prev: Ok<DistressValues>, next: Ok<DistressValues>): Ok<DistressValues> {
  return {
    ...next,
    strikeOff: next.strikeOff ?? prev.strikeOff,
    notices: next.notices ?? prev.notices,
    cases: next.cases ?? prev.cases,
    charges: next.charges ?? prev.charges,
  };
}

const SATISFIED = new Set(["fully-satisfied", "satisfied"]);

function distressEvents(a: Ok<DistressValues>, b: Ok<DistressValues>, name: string): WatchEvent[] {
  const out: WatchEvent[] = [];
  if (a.strikeOff && b.strikeOff && a.strikeOff.proposed !== b.strikeOff.proposed)
    out.push({
      kind: "strike_off_proposed",
      summary: b.strikeOff.proposed
        ? `${name} has been proposed for strike-off from the companies register${b.strikeOff.firstNoticeOn ? ` (first Gazette notice ${b.strikeOff.firstNoticeOn})` : ""}.`
        : `${name} is no longer proposed for strike-off from the companies register.`,
      before: { ...a.strikeOff },
      after: { ...b.strikeOff },
    });
  if (a.notices && b.notices) {
    const had = new Set(a.notices.map((n) => n.noticeId));
    for (const n of b.notices.filter((n: NoticeKey) => !had.has(n.noticeId))) {
      const meaning = n.code ? (CORPORATE_INSOLVENCY_CODES[n.code]?.label ?? null) : null;
      out.push({
        kind: "insolvency_notice",
        summary: `The Gazette published an insolvency notice about ${name}${n.publishedOn ? ` on ${n.publishedOn}` : ""}: ${meaning ?? (n.code ? `notice code ${n.code}` : "a corporate insolvency notice")} (notice ${n.noticeId}).`,
        before: { noticeId: null, code: null, meaning: null, publishedOn: null },
        after: { noticeId: n.noticeId, code: n.code, meaning, publishedOn: n.publishedOn },
      });
    }
  }
  if (a.cases && b.cases) {
    const had = new Set(a.cases.map((c) => c.key));
    for (const c of b.cases.filter((c) => !had.has(c.key)))
      out.push({
        kind: "insolvency_case",
        summary: `Companies House records ${c.caseNumber ? `insolvency case ${c.caseNumber}` : "a new insolvency case"} for ${name}: ${c.caseType ? words(c.caseType) : "type not given"}.`,
        before: { caseNumber: null, caseType: null },
        after: { caseNumber: c.caseNumber, caseType: c.caseType },
      });
  }
  if (a.charges && b.charges) {
    const had = new Map(a.charges.map((c) => [c.chargeCode, c]));
    const shape = (c: ChargeKey) => ({ chargeCode: c.chargeCode, createdOn: c.createdOn, status: c.status });
    for (const c of b.charges) {
      const was = had.get(c.chargeCode);
      if (!was)
        out.push({
          kind: "charge_created",
          summary: `A charge (${c.chargeCode}) was registered against ${name}${c.createdOn ? `, created on ${c.createdOn}` : ""}.`,
          before: { chargeCode: null, createdOn: null, status: null },
          after: shape(c),
        });
      else if (!SATISFIED.has(was.status ?? "") && SATISFIED.has(c.status ?? ""))
        out.push({ kind: "charge_satisfied", summary: `Charge ${c.chargeCode} against ${name} is now satisfied.`, before: shape(was), after: shape(c) });
    }
  }
  return out;
}

function sanctionsEvents(a: Ok<SanctionsValues>, b: Ok<SanctionsValues>, name: string): WatchEvent[] {
  const added = b.listIds.filter((id) => !a.listIds.includes(id));
  if (!added.length) return [];
  return [
    {
      kind: "sanctions_match",
      summary: `${name} is a definite match on the UK sanctions list: ${added.join(", ")}${b.listDate ? ` (list of ${b.listDate})` : ""}.`,
      before: { listIds: a.listIds, listDate: a.listDate },
      after: { listIds: b.listIds, listDate: b.listDate },
    },
  ];
}

function paymentsEvents(a: Ok<PaymentsValues>, b: Ok<PaymentsValues>, name: string): WatchEvent[] {
  const x = a.latest;
  const y = b.latest;
  if (!y) return [];
  // A new latest report: none before, a later period, or another report for the same period. An older one
  // becoming the latest (a report withdrawn) is no new report.
  if (x && (x.reportId === y.reportId || y.periodEnd < x.periodEnd)) return [];
  const avg = y.avgDays === null ? "average days to pay not reported" : `${y.avgDays} days on average${x && x.avgDays !== null ? ` (was ${x.avgDays})` : ""}`;
  const late = `${pct(y.pctLate)} of invoices not paid within agreed terms${x && x.pctLate !== null && y.pctLate !== null ? ` (was ${x.pctLate}%)` : ""}`;
  return [
    {
      kind: "payment_report",
      summary: `${name} filed a payment practices report for the period ending ${y.periodEnd}: ${avg}, ${late}.`,
      before: { reportId: x?.reportId ?? null, avgDays: x?.avgDays ?? null, pctLate: x?.pctLate ?? null },
      after: { reportId: y.reportId, avgDays: y.avgDays, pctLate: y.pctLate },
    },
  ];
}

function contractsEvents(a: Ok<ContractsValues>, b: Ok<ContractsValues>, name: string): WatchEvent[] {
  const had = new Set(a.awards.map((w) => w.key));
  // When the last reading kept only the newest awards, one older than all of those may simply have been cut.
  const oldest = a.truncated ? (a.awards.at(-1)?.awardDate ?? "") : "";
  const fresh = b.awards.filter((w: AwardKey) => !had.has(w.key) && (w.awardDate ?? "") >= oldest);
  return fresh.map((w) => {
    const value = money(w.value);
    return {
      kind: "contract_won" as const,
      summary: `${name} won a public contract${w.buyer ? ` from ${w.buyer}` : ""}${w.title ? `: ${w.title}` : ""}${value ? ` (${value})` : ""}${w.awardDate ? `, awarded ${w.awardDate}` : ""}.`,
      before: { ocid: null, awardId: null, title: null, buyer: null, value: null, awardDate: null },
      after: { ocid: w.ocid, awardId: w.awardId, title: w.title, buyer: w.buyer, value: w.value, awardDate: w.awardDate },
    };
  });
}

function sponsorsEvents(a: Ok<SponsorsValues>, b: Ok<SponsorsValues>, name: string): WatchEvent[] {
  const out: WatchEvent[] = [];
  const shape = (e: SponsorEntry) => ({ register: e.register, route: e.route, rating: e.rating, town: e.town, listed: e.listed });
  const where = (e: SponsorEntry) => `${e.route || "a route"}, ${e.register} register`;
  const before = new Map(a.entries.map((e) => [e.key, e]));
  const after = new Map(b.entries.map((e) => [e.key, e]));
  for (const e of b.entries) {
    const was = before.get(e.key);
    if (e.listed && !was?.listed)
      out.push({
        kind: "sponsor_added",
        summary: `${name} is listed on the register of licensed sponsors (${where(e)}${e.rating ? `, ${e.rating}` : ""}).`,
        before: was ? shape(was) : { register: null, route: null, rating: null, town: null, listed: false },
        after: shape(e),
      });
    else if (was?.listed && !e.listed)
      out.push({
        kind: "sponsor_removed",
        summary: `${name} is no longer on the register of licensed sponsors (${where(e)}).`,
        before: shape(was),
        after: shape(e),
      });
    else if (was?.listed && e.listed && was.rating !== e.rating)
      out.push({
        kind: "sponsor_rerated",
        summary: `${name}'s sponsor rating (${where(e)}) changed from ${was.rating ?? "none"} to ${e.rating ?? "none"}${/^B\b/.test(e.rating ?? "") ? ", which means an action plan" : ""}.`,
        before: shape(was),
        after: shape(e),
      });
  }
  // An entry no longer among those matched at all: off the register.
  for (const was of a.entries)
    if (was.listed && !after.has(was.key))
      out.push({
        kind: "sponsor_removed",
        summary: `${name} is no longer on the register of licensed sponsors (${where(was)}).`,
        before: shape(was),
        after: { ...shape(was), listed: false },
      });
  return out;
}

// ---- the diff -------------------------------------------------------------------------------------------

interface SectionRule<T> {
  /** Today's section with the parts not read filled from the last good one. */
  fill?: (prev: Ok<T>, next: Ok<T>) => Ok<T>;
  /** A section read but saying nothing (the sanctions list not loaded): treated as not read. */
  empty?: (s: Ok<T>) => boolean;
  events: (a: Ok<T>, b: Ok<T>, name: string) => WatchEvent[];
}

/** A register as a summary names it: its catalogue label. */
const registerWords = (r: RegisterEntryReading["register"]) => `the ${REGISTER_CATALOGUE[r].label}`;

function registersEvents(a: Ok<RegistersValues>, b: Ok<RegistersValues>, name: string): WatchEvent[] {
  const out: WatchEvent[] = [];
  // Only registers read on both days: a register loaded for the first time lists nothing new.
  const both = new Set(b.checked.filter((r) => a.checked.includes(r)));
  const id = (e: RegisterEntryReading) => `${e.register}|${e.key}`;
  // The entry's own name on the register is left out (SPEC §1 rule 7: an event names the watched company, nobody else).
  const shape = (e: RegisterEntryReading) => ({ register: e.register, key: e.key, status: e.status, rating: e.rating, listed: e.listed, edition: e.edition });
  const none = (e: RegisterEntryReading) => ({ register: e.register, key: null, status: null, rating: null, listed: false, edition: null });
  const where = (e: RegisterEntryReading) => `${registerWords(e.register)}${e.edition ? ` (edition of ${e.edition})` : ""}`;
  const before = new Map(a.entries.filter((e) => both.has(e.register)).map((e) => [id(e), e]));
  const after = new Map(b.entries.filter((e) => both.has(e.register)).map((e) => [id(e), e]));
  for (const e of after.values()) {
    const was = before.get(id(e));
    if (e.listed && !was?.listed)
      out.push({
        kind: "register_listed",
        summary: `${name} is listed on ${where(e)}, status ${e.status || "not given"}.`,
        before: was ? shape(was) : none(e),
        after: shape(e),
      });
    else if (was?.listed && !e.listed)
      out.push({ kind: "register_left", summary: `${name} is no longer listed on ${where(e)}.`, before: shape(was), after: shape(e) });
    else if (was?.listed && e.listed && was.status !== e.status)
      out.push({
        kind: "register_status",
        summary: `${name}'s status on ${where(e)} changed from ${was.status || "none"} to ${e.status || "none"}.`,
        before: shape(was),
        after: shape(e),
      });
    else if (was?.listed && e.listed && was.rating !== e.rating)
      out.push({
        kind: "register_rerated",
        summary: `${name}'s rating on ${where(e)} changed from ${was.rating ?? "none"} to ${e.rating ?? "none"}.`,
        before: shape(was),
        after: shape(e),
      });
  }
  // An entry no longer among those matched at all (removed from the register's file): it has left.
  for (const was of before.values())
    if (was.listed && !after.has(id(was)))
      out.push({
        kind: "register_left",
        summary: `${name} is no longer listed on ${registerWords(was.register)}.`,
        before: shape(was),
        after: { ...shape(was), listed: false },
      });
  return out;
}

const RULES: { [K in (typeof SECTIONS)[number]]: SectionRule<Reading[K] extends Section<infer T> ? T : never> } = {
  register: { fill: fillRegister, events: registerEvents },
  distress: { fill: fillDistress, events: distressEvents },
  sanctions: { empty: (s) => !s.checked, events: sanctionsEvents },
  payments: { events: paymentsEvents },
  contracts: { events: contractsEvents },
  sponsors: { events: sponsorsEvents },
  registers: { events: registersEvents },
};

function diffSection<T>(rule: SectionRule<T>, prev: Section<T> | undefined, next: Section<T>, name: string): { events: WatchEvent[]; kept: Section<T> } {
  const good = (s: Section<T> | undefined): s is Ok<T> => !!s && s.ok && !rule.empty?.(s);
  if (!good(next)) return { events: [], kept: good(prev) ? prev : next };
  if (!good(prev)) return { events: [], kept: next };
  const filled = rule.fill ? rule.fill(prev, next) : next;
  return { events: rule.events(prev, filled, name), kept: filled };
}

const ORDER = new Map(EVENT_KIND_NAMES.map((k, i) => [k, i]));

/**
 * The events between the last reading kept and today's, and the reading to keep for tomorrow. `previous` null
 * (or of another reading version) is a new watch: today's reading is its baseline, with no events.
 */
export function diffReadings(previous: Reading | null, next: Reading, companyName: string): { events: WatchEvent[]; kept: Reading } {
  const name = companyName.trim() || `Company ${next.company}`;
  if (!previous || previous.v !== READING_VERSION) return { events: [], kept: next };
  const kept: Reading = { ...next };
  const events: WatchEvent[] = [];
  for (const s of SECTIONS) {
    const d = diffSection(RULES[s] as SectionRule<unknown>, previous[s] as Section<unknown>, next[s] as Section<unknown>, name);
    (kept as unknown as Record<string, unknown>)[s] = d.kept;
    events.push(...d.events);
  }
  // Feed order: by kind (EVENT_KINDS), then as found; stable.
  events.sort((a, b) => ORDER.get(a.kind)! - ORDER.get(b.kind)!);
  return { events, kept };
}

// ---- dedupe ---------------------------------------------------------------------------------------------

/** JSON with object keys sorted, so equal values give equal text. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

/** 64 bits of FNV-1a (two 32-bit passes with different offsets), as 13 base-36 digits at most. */
function hash64(s: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h2 >>> 15);
  }
  return (h1 >>> 0).toString(36).padStart(7, "0") + (h2 >>> 0).toString(36).padStart(7, "0");
}

/**
 * A stable key for an event of a company on a day (YYYY-MM-DD): the company, the day, the kind and a hash of
 * `after`. Storage can keep it unique to refuse a duplicate (a read repeated the same day); the same change
 * found again on another day (a flag that went and came back) has another key.
 */
export function eventKey(companyNumber: string, day: string, event: Pick<WatchEvent, "kind" | "after">): string {
  return `${companyNumber}:${day.slice(0, 10)}:${event.kind}:${hash64(stableJson(event.after))}`;
}
