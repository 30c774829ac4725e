/**
 * One daily reading of a watched company (issue 15 §2 "The daily read"; SPEC §6.1): what each source said of it,
 * one section per source, so the next reading can be compared with it (./events.ts). Pure: the daily job reads the
 * sources and hands what it got to `readingOf`; nothing here does I/O.
 *
 * Each section is either `{ ok: true, readAt, ...values }` or `{ ok: false, readAt, reason }`: the source could not
 * be read (SPEC §3.1: such a section is never reported as a change; the diff keeps the last good one). Inside a
 * section that was read, a part that comes from a further call (the officers list, the charges, …) is `null` when
 * that call failed: it too is "not read", never "none".
 *
 * SPEC §1 rule 7: a reading names no person. Directors and PSCs are counted; insolvency practitioners, persons
 * entitled to charges and officers' names are left out; a sanctions match is its list id only (rule 6: definite
 * matches only, and no match is never a clearance).
 */
import { identityVerificationOf, type IdentityCounts } from "../companies/identity";
import type { CompanyProfile } from "../companies/profile";
import type { ChargeList, FilingHistory, Insolvency, OfficerList, PscList } from "../companies/records";
import type { ContractAward } from "../contracts/types";
import type { PaymentReport } from "../payments/types";
import { ORGANISATION_REGISTERS, type OrganisationRegister } from "../registers/catalogue";
import type { Entry } from "../registers/types";
import type { MatchedNotice } from "../risk/gazette";
import type { SanctionsMatch } from "../sanctions/match";

/** The version of the Reading shape (a stored reading of another version is read as no previous reading). */
export const READING_VERSION = 1;

/** At most this many contract awards are kept in a reading: the newest by award date. */
export const MAX_CONTRACTS = 200;

/** The Companies House status detail of a company the registrar proposes to strike off. */
export const STRIKE_OFF_DETAIL = "active-proposal-to-strike-off";

/** A source that could not be read at this reading. */
export interface Unread {
  ok: false;
  /** ISO timestamp of the attempt. */
  readAt: string;
  /** Why, in plain words (the upstream's error message, at most 200 characters). */
  reason: string;
}

/** A section of a reading: the values read, or why the source could not be read. */
export type Section<T> = ({ ok: true; readAt: string } & T) | Unread;

/** Identity verification counts (companies/identity.ts), without the total (the count is given apart). */
export interface IdvCounts {
  verified: number;
  statementDue: number;
  overdue: number;
  notApplicable: number;
}

/** The companies register: profile, officers and PSCs (Companies House). */
export interface RegisterValues {
  /** company_status verbatim ("" when the register gives none). */
  status: string;
  statusDetail: string | null;
  accountsOverdue: boolean;
  accountsDueOn: string | null;
  confirmationOverdue: boolean;
  confirmationDueOn: string | null;
  /** Active directors (and LLP members; secretaries left out); null when the officers list could not be read. */
  directors: number | null;
  /** Active persons with significant control; null when the PSC list could not be read. */
  pscs: number | null;
  /** Identity verification counted by state; each null when its list could not be read. */
  idv: { directors: IdvCounts | null; pscs: IdvCounts | null };
}

export interface NoticeKey {
  /** The Gazette's notice id. */
  noticeId: string;
  /** The 4-digit notice code (category 24), or null. */
  code: string | null;
  publishedOn: string | null;
}

export interface CaseKey {
  /** `${number}|${type}`: the case's number on the insolvency record with its type. */
  key: string;
  caseNumber: string | null;
  caseType: string | null;
}

export interface ChargeKey {
  /** The charge code, or the charge id when it has none. */
  chargeCode: string;
  createdOn: string | null;
  /** outstanding, part-satisfied, fully-satisfied, satisfied (verbatim). */
  status: string | null;
}

/** Distress signals that are new facts: each part null when its source could not be read. */
export interface DistressValues {
  /** From the profile's status detail, dated by the first Gazette notice in the filing history where it was read. */
  strikeOff: { proposed: boolean; firstNoticeOn: string | null } | null;
  /** Corporate insolvency notices in The Gazette matched to the company, by notice id. */
  notices: NoticeKey[] | null;
  /** Cases on the Companies House insolvency record (practitioners never kept). */
  cases: CaseKey[] | null;
  /** Charges on the Companies House charges list (persons entitled never kept). */
  charges: ChargeKey[] | null;
}

/** The UK sanctions list: definite matches only (SPEC §1 rule 6). */
export interface SanctionsValues {
  /** False when no list was loaded: nothing was checked (never a clearance). */
  checked: boolean;
  /** The list's date, when checked. */
  listDate: string | null;
  /** The list ids (designations) the company definitely matches, sorted. */
  listIds: string[];
}

export interface LatestReport {
  reportId: number | null;
  periodEnd: string;
  filedOn: string | null;
  /** avgDaysToPay. */
  avgDays: number | null;
  /** pctNotPaidWithinTerms: the share of invoices (by number) not paid within the agreed terms, 0–100. */
  pctLate: number | null;
}

/** Payment practices reports: the latest one (the latest period end, then the latest filed). */
export interface PaymentsValues {
  reports: number;
  latest: LatestReport | null;
}

export interface AwardKey {
  /** `${ocid}|${awardId}`. */
  key: string;
  ocid: string;
  awardId: string;
  title: string | null;
  /** The buyer's name (a public body). */
  buyer: string | null;
  value: { amount: number; currency: string } | null;
  /** The award date, else the date published. */
  awardDate: string | null;
}

/** Public contracts won (Contracts Finder and Find a Tender), cancelled and unsuccessful awards left out. */
export interface ContractsValues {
  /** The newest MAX_CONTRACTS awards, newest first. */
  awards: AwardKey[];
  /** How many awards were read. */
  total: number;
  /** True when there were more than MAX_CONTRACTS: only the newest are kept. */
  truncated: boolean;
}

export interface SponsorEntry {
  /** The register entry's key (sponsor and route; a town too where a sponsor lists a route twice). */
  key: string;
  register: "workers" | "students";
  /** The route under its current name. */
  route: string;
  rating: string | null;
  town: string | null;
  listed: boolean;
}

/** The register of licensed visa sponsors: the entries matched to the company, by key. */
export interface SponsorsValues {
  entries: SponsorEntry[];
}

/**
 * The organisation registers besides the sponsors' (which has its own section), for their appear/leave events (issue
 * 33 §3): the catalogue's, so a register added there is watched too.
 */
export type WatchedRegister = Exclude<OrganisationRegister, "sponsors">;
export const WATCHED_REGISTERS: readonly WatchedRegister[] = ORGANISATION_REGISTERS.filter((r): r is WatchedRegister => r !== "sponsors");

export interface RegisterEntryReading {
  register: WatchedRegister;
  /** The register entry's key. */
  key: string;
  status: string;
  rating: string | null;
  listed: boolean;
  /** The date of the register's edition this was read from. */
  edition: string | null;
}

/** HMRC's AML register, the SRA's, CQC's and the Charity Commission's: the entries definitely matched to the company. */
export interface RegistersValues {
  /** The registers read (loaded): only an entry of a register read both days is compared. */
  checked: WatchedRegister[];
  entries: RegisterEntryReading[];
}

export interface Reading {
  v: typeof READING_VERSION;
  /** Company number. */
  company: string;
  /** ISO timestamp of the reading. */
  readAt: string;
  register: Section<RegisterValues>;
  distress: Section<DistressValues>;
  sanctions: Section<SanctionsValues>;
  payments: Section<PaymentsValues>;
  contracts: Section<ContractsValues>;
  sponsors: Section<SponsorsValues>;
  /** Absent from readings made before issue 33 §3: the next reading is then its baseline. */
  registers: Section<RegistersValues>;
}

export type SectionName = Exclude<keyof Reading, "v" | "company" | "readAt">;
export const SECTIONS: readonly SectionName[] = ["register", "distress", "sanctions", "payments", "contracts", "sponsors", "registers"];

/** What was read, or an Error (or undefined) when it could not be. */
export type ReadOr<T> = T | Error | undefined;

/** The pieces the daily job read, as the sources return them. `null` is "read: there is none". */
export interface ReadingInput {
  company: string;
  /** ISO timestamp; its date is the day identity verification deadlines are judged on. */
  readAt: string;
  /** null: the register has no such company (then the register and distress sections are not read). */
  profile: ReadOr<CompanyProfile | null>;
  officers?: ReadOr<OfficerList | null>;
  pscs?: ReadOr<PscList | null>;
  insolvency?: ReadOr<Insolvency | null>;
  charges?: ReadOr<ChargeList | null>;
  /** Gazette filings (category gazette), read when the company is proposed for strike-off; they only date it. */
  gazetteFilings?: ReadOr<FilingHistory | null>;
  /** The Gazette notices matched to the company. */
  notices?: ReadOr<MatchedNotice[]>;
  /** The list's date and the company's definite matches; null when no list is loaded (checked: false). */
  sanctions?: ReadOr<{ listDate: string | null; definite: SanctionsMatch[] } | null>;
  /** The company's payment practices reports. */
  payments?: ReadOr<PaymentReport[]>;
  /** The contract awards whose supplier is the company. */
  contracts?: ReadOr<ContractAward[]>;
  /** The sponsors register entries matched to the company, removed ones included (removedOn set). */
  sponsors?: ReadOr<Entry<"sponsors">[]>;
  /** Each loaded register's entries definitely matched to the company (removed ones included), with its edition's date. */
  registers?: ReadOr<{ register: WatchedRegister; edition: string | null; entries: Entry[] }[]>;
}

const failed = (x: unknown): x is Error | undefined => x === undefined || x instanceof Error;
const reasonOf = (x: Error | undefined, what: string) => (x?.message?.trim() || `${what} was not read`).slice(0, 200);
const unread = (readAt: string, x: Error | undefined, what: string): Unread => ({ ok: false, readAt, reason: reasonOf(x, what) });
const byString =
  <T>(f: (t: T) => string) =>
  (a: T, b: T) =>
    f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : 0;
const counts = (c: IdentityCounts): IdvCounts => ({ verified: c.verified, statementDue: c.statementDue, overdue: c.overdue, notApplicable: c.notApplicable });

function registerSection(x: ReadingInput, today: string): Section<RegisterValues> {
  const p = x.profile;
  if (failed(p)) return unread(x.readAt, p, "the companies register");
  if (!p) return { ok: false, readAt: x.readAt, reason: "the companies register has no company with this number" };
  const officers = failed(x.officers) ? undefined : x.officers;
  const pscs = failed(x.pscs) ? undefined : x.pscs;
  const idv = identityVerificationOf(officers ?? null, pscs ?? null, today);
  return {
    ok: true,
    readAt: x.readAt,
    status: p.status,
    statusDetail: p.statusDetail,
    accountsOverdue: p.accountsOverdue,
    accountsDueOn: p.filingDates.accountsDueOn,
    confirmationOverdue: p.confirmationStatementOverdue,
    confirmationDueOn: p.filingDates.confirmationStatementDueOn,
    directors: officers === undefined ? null : idv.directors.total,
    pscs: pscs === undefined ? null : idv.pscs.total,
    idv: { directors: officers === undefined ? null : counts(idv.directors), pscs: pscs === undefined ? null : counts(idv.pscs) },
  };
}

function strikeOffOf(p: CompanyProfile, filings: ReadOr<FilingHistory | null>): DistressValues["strikeOff"] {
  if (p.statusDetail !== STRIKE_OFF_DETAIL) return { proposed: false, firstNoticeOn: null };
  const items = failed(filings) ? [] : (filings?.items ?? []);
  // The newest first Gazette notice (GAZ1 / GAZ1(A)) dates the current proposal, as distress.ts does.
  const dates = items.filter((f) => /^gazette-notice-(compulsory|voluntary)$/.test(f.description ?? "") && f.date).map((f) => f.date!);
  return { proposed: true, firstNoticeOn: dates.sort().pop() ?? null };
}

function distressSection(x: ReadingInput): Section<DistressValues> {
  const p = x.profile;
  if (failed(p)) return unread(x.readAt, p, "the companies register");
  if (!p) return { ok: false, readAt: x.readAt, reason: "the companies register has no company with this number" };
  const notices = failed(x.notices)
    ? null
    : x.notices
        .map(({ notice: n }): NoticeKey => ({ noticeId: n.id, code: n.code, publishedOn: n.publishedOn }))
        .filter((n, i, all) => all.findIndex((m) => m.noticeId === n.noticeId) === i)
        .sort(byString((n) => n.noticeId));
  const cases = failed(x.insolvency)
    ? null
    : (x.insolvency?.cases ?? [])
        .map((c): CaseKey => ({ key: `${c.number ?? ""}|${c.type ?? ""}`, caseNumber: c.number, caseType: c.type }))
        .filter((c, i, all) => all.findIndex((d) => d.key === c.key) === i)
        .sort(byString((c) => c.key));
  const charges = failed(x.charges)
    ? null
    : (x.charges?.items ?? [])
        .filter((c) => c.chargeCode || c.id)
        .map((c): ChargeKey => ({ chargeCode: (c.chargeCode || c.id)!, createdOn: c.createdOn, status: c.status }))
        .filter((c, i, all) => all.findIndex((d) => d.chargeCode === c.chargeCode) === i)
        .sort(byString((c) => c.chargeCode));
  return { ok: true, readAt: x.readAt, strikeOff: strikeOffOf(p, x.gazetteFilings), notices, cases, charges };
}

function sanctionsSection(x: ReadingInput): Section<SanctionsValues> {
  const s = x.sanctions;
  if (failed(s)) return unread(x.readAt, s, "the UK sanctions list");
  if (!s) return { ok: true, readAt: x.readAt, checked: false, listDate: null, listIds: [] };
  return { ok: true, readAt: x.readAt, checked: true, listDate: s.listDate, listIds: [...new Set(s.definite.map((m) => m.id))].sort() };
}

/** The latest report: the latest period end, then the latest filed, then the highest report number. */
export function latestReport(reports: PaymentReport[]): LatestReport | null {
  const r = [...reports].sort(
    (a, b) => b.periodEnd.localeCompare(a.periodEnd) || (b.filedOn ?? "").localeCompare(a.filedOn ?? "") || (b.reportId ?? -1) - (a.reportId ?? -1),
  )[0];
  return r ? { reportId: r.reportId, periodEnd: r.periodEnd, filedOn: r.filedOn, avgDays: r.avgDaysToPay, pctLate: r.pctNotPaidWithinTerms } : null;
}

function paymentsSection(x: ReadingInput): Section<PaymentsValues> {
  const p = x.payments;
  if (failed(p)) return unread(x.readAt, p, "the payment practices register");
  return { ok: true, readAt: x.readAt, reports: p.length, latest: latestReport(p) };
}

const GONE = new Set(["cancelled", "unsuccessful"]);

function contractsSection(x: ReadingInput): Section<ContractsValues> {
  const c = x.contracts;
  if (failed(c)) return unread(x.readAt, c, "the contracts register");
  const byKey = new Map<string, AwardKey>();
  for (const a of c) {
    if (GONE.has(a.status)) continue;
    const key = `${a.ocid}|${a.awardId}`;
    if (!byKey.has(key))
      byKey.set(key, {
        key,
        ocid: a.ocid,
        awardId: a.awardId,
        title: a.title,
        buyer: a.buyer.name,
        value: a.value ? { amount: a.value.amount, currency: a.value.currency } : null,
        awardDate: (a.awardDate ?? a.datePublished)?.slice(0, 10) ?? null,
      });
  }
  const all = [...byKey.values()].sort((a, b) => (b.awardDate ?? "").localeCompare(a.awardDate ?? "") || a.key.localeCompare(b.key));
  return { ok: true, readAt: x.readAt, awards: all.slice(0, MAX_CONTRACTS), total: all.length, truncated: all.length > MAX_CONTRACTS };
}

const text = (v: string | undefined): string | null => (v?.trim() ? v.trim() : null);

function sponsorsSection(x: ReadingInput): Section<SponsorsValues> {
  const s = x.sponsors;
  if (failed(s)) return unread(x.readAt, s, "the register of licensed sponsors");
  const byKey = new Map<string, SponsorEntry>();
  for (const e of s) {
    const entry: SponsorEntry = {
      key: e.key,
      register: e.data.register,
      route: e.part ?? text(e.data.currentRoute) ?? text(e.data.route) ?? "",
      rating: e.rating,
      town: e.town,
      listed: !e.removedOn,
    };
    const had = byKey.get(e.key);
    if (!had || (!had.listed && entry.listed)) byKey.set(e.key, entry);
  }
  return { ok: true, readAt: x.readAt, entries: [...byKey.values()].sort(byString((e) => e.key)) };
}

function registersSection(x: ReadingInput): Section<RegistersValues> {
  const r = x.registers;
  if (failed(r)) return unread(x.readAt, r, "the registers");
  const byKey = new Map<string, RegisterEntryReading>();
  for (const part of r)
    for (const e of part.entries) {
      const entry: RegisterEntryReading = {
        register: part.register,
        key: e.key,
        status: e.status,
        rating: e.rating,
        listed: !e.removedOn,
        edition: part.edition,
      };
      const id = `${part.register}|${e.key}`;
      const had = byKey.get(id);
      if (!had || (!had.listed && entry.listed)) byKey.set(id, entry);
    }
  return {
    ok: true,
    readAt: x.readAt,
    checked: r.map((p) => p.register).sort(),
    entries: [...byKey.values()].sort(byString((e) => `${e.register}|${e.key}`)),
  };
}

/** A reading from what the daily job read. Pure. */
export function readingOf(x: ReadingInput): Reading {
  const today = x.readAt.slice(0, 10);
  return {
    v: READING_VERSION,
    company: x.company,
    readAt: x.readAt,
    register: registerSection(x, today),
    distress: distressSection(x),
    sanctions: sanctionsSection(x),
    payments: paymentsSection(x),
    contracts: contractsSection(x),
    sponsors: sponsorsSection(x),
    registers: registersSection(x),
  };
}
