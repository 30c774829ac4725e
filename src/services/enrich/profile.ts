/**
 * The BusinessProfile of SPEC §2.2 from what was read: the identity decision (identity.ts), the register's facts
 * of the confirmed company, the site's facts, and the signals other registers gave. Register facts appear only for
 * a confirmed company (or one the caller named by its number); a query the site does not confirm gets no company
 * number, with `registryNote` saying why. Pure and deterministic: `today` is passed in.
 */
import { OGL } from "../registers/catalogue";
import { firstSentence } from "../web/brandKit";
import { type Identity, type Tie, accuracyOf, alternativeOf } from "./identity";
import { statusFromBulk, typeFromBulk } from "../companies/bulkVocabulary";
import type { CompanyProfile } from "../companies/profile";
import type { CompanyRow } from "../companies/records";
import { gazetteSignal } from "./registerSignals";
import type { Alternative, BusinessProfile, FactsOrigin, RegisterFacts, Signal, SiteFacts, StatusSource } from "./types";

export const ENRICH_ATTRIBUTION = `${OGL} Company data: Companies House. Website facts: the business's own site, as read.`;

const MONTH_MS = 30.44 * 86_400_000;
const monthsBetween = (from: string, today: string) => Math.floor((Date.parse(today) - Date.parse(from)) / MONTH_MS);

/** Accounts types (the bulk file's words or Companies House's codes) → a size band. */
function sizeOfAccounts(type: string | null): { band: string; words: string } | null {
  if (!type) return null;
  const t = type.toLowerCase().replace(/[-_]/g, " ");
  if (/dormant/.test(t)) return { band: "dormant", words: "dormant company accounts" };
  if (/micro/.test(t)) return { band: "micro", words: "micro-entity accounts" };
  if (/\bmedium\b/.test(t)) return { band: "medium", words: "medium-sized company accounts" };
  if (/small|total exemption|abridged|audit exemption|filing exemption|partial exemption/.test(t))
    return { band: "small", words: `${type.toLowerCase()} accounts` };
  if (/group/.test(t)) return { band: "large", words: "group accounts" };
  if (/\bfull\b/.test(t)) return { band: "medium or large", words: "full accounts" };
  return null;
}

/** The Companies Act's employee thresholds (micro ≤ 10, small ≤ 50, medium ≤ 250), for a count with no accounts type. */
const bandOfCount = (n: number) => (n <= 10 ? "micro" : n <= 50 ? "small" : n <= 250 ? "medium" : "large");

/**
 * SPEC §2.2 sizeSignal: the band (the last accounts' type, else the employees the accounts state, else a gender pay gap
 * report's headcount band) and the facts it rests on, each with where it comes from: the accounts type, the average
 * employees of the latest tagged accounts, the gender pay gap headcount band, the active officers (counted, never named).
 * Figures that disagree are both given with their sources; nothing is estimated.
 */
export function sizeSignalOf(r: RegisterFacts): string | undefined {
  const acc = sizeOfAccounts(r.lastAccountsType);
  const e = r.employees;
  const parts: string[] = [];
  if (acc) parts.push(acc.words);
  if (e?.average != null)
    parts.push(`average ${e.average.toLocaleString("en-GB")} employee${e.average === 1 ? "" : "s"} (accounts${e.periodEnd ? ` to ${e.periodEnd}` : ""})`);
  if (e?.average == null && e?.note) parts.push(e.note);
  if (e?.band) parts.push(`${e.band} employees (gender pay gap report ${e.bandYear} to ${Number(e.bandYear) + 1})`);
  if (r.activeOfficers !== null) parts.push(`${r.activeOfficers} active officer${r.activeOfficers === 1 ? "" : "s"}`);
  else if (r.activeOfficersNote) parts.push(r.activeOfficersNote);
  if (!parts.length) return undefined;
  // A headcount band's lower bound ("250 to 499" → 250; "Less than 250" has none): 250 or more is large.
  const lower = e?.band ? /^(\d[\d,]*)/.exec(e.band)?.[1] : undefined;
  const band =
    acc?.band ??
    (e?.average != null
      ? bandOfCount(e.average)
      : lower !== undefined
        ? Number(lower.replace(/,/g, "")) >= 250
          ? "large"
          : bandOfCount(Number(lower.replace(/,/g, "")))
        : null);
  return band ? `${band}: ${parts.join("; ")}` : `size not stated in the accounts type: ${parts.join("; ")}`;
}

const SIGNAL_SOURCE = "companies register";

const LIVE = (asOf: string | null): FactsOrigin => ({ source: "live", asOf, bulkFileDate: null, fromBulkFile: [], liveNote: null });

/** The register's facts of a company from its Companies House profile, read on `asOf` (SIC descriptions and officers are read separately). */
export function registerFactsOfProfile(p: CompanyProfile, asOf: string | null = null): RegisterFacts {
  return {
    number: p.number,
    name: p.name,
    status: p.status,
    statusDetail: p.statusDetail,
    type: p.type,
    incorporationDate: p.incorporatedOn,
    sicCodes: p.sicCodes,
    sicDescriptions: {},
    registeredOffice: { text: p.registeredOffice.text, postcode: p.registeredOffice.postcode, locality: p.registeredOffice.locality },
    accountsOverdue: p.accountsOverdue,
    confirmationStatementOverdue: p.confirmationStatementOverdue,
    lastAccountsType: p.lastAccountsType ?? null,
    activeOfficers: null,
    record: LIVE(asOf),
  };
}

/** Every field a bulk row gives, as RegisterFacts names (all of them are the file's when the live profile is not read). */
const BULK_FIELDS = [
  "name",
  "status",
  "statusDetail",
  "type",
  "incorporationDate",
  "sicCodes",
  "registeredOffice",
  "accountsOverdue",
  "confirmationStatementOverdue",
  "lastAccountsType",
];

/**
 * A company's facts from the Basic Company Data file of `fileDate` alone (issue 28 §2): used only when its live
 * profile could not be read (`liveNote` says why), and said so in `record`. The overdue flags compare the file's due
 * dates with `today`.
 */
export function registerFactsOfBulkRow(r: CompanyRow, address: string, today: string, fileDate: string | null, liveNote: string): RegisterFacts {
  const { status, statusDetail } = statusFromBulk(r.status);
  return {
    number: r.number,
    name: r.name,
    status,
    statusDetail,
    type: typeFromBulk(r.category),
    incorporationDate: r.incorporatedOn,
    sicCodes: r.sicCodes,
    sicDescriptions: {},
    registeredOffice: { text: address, postcode: r.postcode, locality: r.locality },
    accountsOverdue: !!r.accountsDue && r.accountsDue < today,
    confirmationStatementOverdue: !!r.confirmationDue && r.confirmationDue < today,
    lastAccountsType: r.accountsCategory,
    activeOfficers: null,
    record: { source: "bulk-file", asOf: fileDate, bulkFileDate: fileDate, fromBulkFile: [...BULK_FIELDS], liveNote },
  };
}

/**
 * The live profile's facts, read on `asOf`, with the gaps it leaves filled from the bulk file's facts of the same
 * company (issue 28 §2): the status and status detail are the live profile's whenever it gives a status; a field the
 * profile lacks (no SIC codes, no incorporation date, no accounts type, no address, no filing deadlines) is taken from
 * the file and named in `record.fromBulkFile`, as of the file's date.
 */
export function registerFactsOfLive(p: CompanyProfile, asOf: string | null, bulk?: { facts: RegisterFacts; fileDate: string | null }): RegisterFacts {
  const live = registerFactsOfProfile(p, asOf);
  if (!bulk) return live;
  const b = bulk.facts;
  const filled: string[] = [];
  const out: RegisterFacts = { ...live };
  if (!live.status.trim() && b.status) {
    out.status = b.status;
    out.statusDetail = b.statusDetail;
    filled.push("status", "statusDetail");
  }
  const fill = <K extends "type" | "incorporationDate" | "sicCodes" | "registeredOffice" | "lastAccountsType">(key: K, missing: boolean) => {
    if (!missing) return;
    out[key] = b[key];
    filled.push(key);
  };
  fill("type", !live.type && !!b.type);
  fill("incorporationDate", !live.incorporationDate && !!b.incorporationDate);
  fill("sicCodes", !live.sicCodes.length && b.sicCodes.length > 0);
  fill("registeredOffice", !live.registeredOffice.text.trim() && !!b.registeredOffice.text);
  fill("lastAccountsType", !live.lastAccountsType && !!b.lastAccountsType);
  if (!p.hasFilingDeadlines) {
    out.accountsOverdue = b.accountsOverdue;
    out.confirmationStatementOverdue = b.confirmationStatementOverdue;
    filled.push("accountsOverdue", "confirmationStatementOverdue");
  }
  out.record = filled.length ? { ...live.record, bulkFileDate: bulk.fileDate, fromBulkFile: filled } : live.record;
  return out;
}

const fileWords = (date: string | null) => `the Basic Company Data file${date ? ` of ${date}` : " (its date not recorded)"}`;

/** Where a signal resting on `field` comes from: the register, naming the bulk file and its date when the field is the file's. */
export function registerSourceOf(r: RegisterFacts, field: string): string {
  return r.record.fromBulkFile.includes(field) ? `${SIGNAL_SOURCE} (${fileWords(r.record.bulkFileDate)})` : SIGNAL_SOURCE;
}

/** SPEC §2.2 `registerSource`: where the status and the other register facts come from, and whether The Gazette was read, in fields and words. */
export function registerSourceOfFacts(r: RegisterFacts): StatusSource {
  const rec = r.record;
  const gazette = r.insolvencyNotices;
  const status = `${r.status}${r.statusDetail ? ` (${r.statusDetail})` : ""}`;
  const parts: string[] = [];
  if (rec.source === "bulk-file")
    parts.push(
      `Companies House's live profile could not be read (${(rec.liveNote ?? "no reason given").replace(/\.$/, "")}): the status ${status} and every other register fact are as of ${fileWords(rec.bulkFileDate)}; a proposal to strike off, an insolvency or any other change since then would not show.`,
    );
  else {
    parts.push(`Status ${status} from Companies House's live profile${rec.asOf ? `, read ${rec.asOf}` : ""}.`);
    if (rec.fromBulkFile.length) parts.push(`Taken from ${fileWords(rec.bulkFileDate)}, where the live profile gives none: ${rec.fromBulkFile.join(", ")}.`);
  }
  if (gazette?.read)
    parts.push(
      gazette.recent.length
        ? `The Gazette's corporate insolvency notices were read: ${gazette.recent.length} of concern in the last 12 months (see the gazette-notice signal).`
        : "The Gazette's corporate insolvency notices were read: none of concern matched the company in the last 12 months.",
    );
  else if (gazette)
    parts.push(
      `The Gazette's corporate insolvency notices could not be read (${(gazette.note ?? "no reason given").replace(/\.$/, "")}): none is reported, and none is ruled out.`,
    );
  return {
    statusFrom: rec.source === "live" ? "companies-house" : "bulk-file",
    statusAsOf: rec.asOf,
    bulkFileDate: rec.bulkFileDate,
    fromBulkFile: rec.fromBulkFile,
    insolvencyNotices: !gazette ? "not-asked" : gazette.read ? "read" : "not-read",
    note: parts.join(" "),
  };
}

/**
 * Signals the register and the site give (the operation adds those of other registers). A status, a proposal to
 * strike off and a Gazette insolvency notice are risks; a fact taken from the bulk file says so, with the file's date,
 * in its label and source.
 */
export function baseSignals(register: RegisterFacts | null, site: SiteFacts | null, today: string): Signal[] {
  const out: Signal[] = [];
  if (register) {
    const src = (field: string) => registerSourceOf(register, field);
    const asOf = (field: string) => (register.record.fromBulkFile.includes(field) ? ` (as of ${fileWords(register.record.bulkFileDate)})` : "");
    const status = register.status.toLowerCase();
    if (status && status !== "active")
      out.push({
        code: "not-active",
        label: `Register status: ${register.status}${register.statusDetail ? ` (${register.statusDetail})` : ""}${asOf("status")}`,
        kind: "risk",
        source: src("status"),
      });
    if (register.statusDetail && /strike.?off/i.test(register.statusDetail))
      out.push({
        code: "proposal-to-strike-off",
        label: `A proposal to strike the company off the register is in progress${asOf("statusDetail")}`,
        kind: "risk",
        source: src("statusDetail"),
      });
    const notices = gazetteSignal(register.insolvencyNotices);
    if (notices) out.push(notices);
    if (register.accountsOverdue)
      out.push({
        code: "accounts-overdue",
        label: `Accounts are overdue at Companies House${asOf("accountsOverdue")}`,
        kind: "risk",
        source: src("accountsOverdue"),
      });
    if (register.confirmationStatementOverdue)
      out.push({
        code: "confirmation-statement-overdue",
        label: `The confirmation statement is overdue at Companies House${asOf("confirmationStatementOverdue")}`,
        kind: "risk",
        source: src("confirmationStatementOverdue"),
      });
    if (register.incorporationDate) {
      const months = monthsBetween(register.incorporationDate, today);
      if (months >= 0 && months < 24)
        out.push({
          code: "recently-incorporated",
          label: `Incorporated ${months} month${months === 1 ? "" : "s"} ago (${register.incorporationDate})`,
          kind: "opportunity",
          source: src("incorporationDate"),
        });
    }
    if (register.sicCodes.includes("99999") || /dormant/i.test(register.lastAccountsType ?? ""))
      out.push({
        code: "dormant",
        label: "Dormant: no trading activity is reported to the register",
        kind: "info",
        source: src(register.sicCodes.includes("99999") ? "sicCodes" : "lastAccountsType"),
      });
  }
  if (site?.careersUrl)
    out.push({ code: "hiring", label: "The website has a careers or jobs page", kind: "opportunity", source: `website: ${site.careersUrl}` });
  return out;
}

/** What the business does: the site's own description, else its registered activities. */
function whatTheyDoOf(site: SiteFacts | null, register: RegisterFacts | null): string | undefined {
  if (site?.description && site.description.length >= 20) {
    const s = site.description.length <= 300 ? site.description : firstSentence(site.description);
    return s;
  }
  const descs = register ? register.sicCodes.map((c) => register.sicDescriptions[c]).filter(Boolean) : [];
  if (descs.length) return `Registered activit${descs.length === 1 ? "y" : "ies"}: ${descs.join("; ")}.`;
  if (site?.headings[0] && site.headings[0].length >= 12) return site.headings[0];
  return undefined;
}

export interface ProfileInput {
  identity: Identity;
  /** The tie of the company the caller named by its number (no site confirmed it), when that is the query. */
  numberFromQuery: Tie | null;
  register: RegisterFacts | null;
  site: SiteFacts | null;
  /** The name to show when no company is confirmed: the site's own name. */
  siteName: string | null;
  sector: string | null;
  signals: Signal[];
  sources: string[];
  alternatives: Alternative[];
  today: string;
}

/** SPEC §2.2 BusinessProfile. `found` is true when a business was identified: its site read, or its register entry confirmed. */
export function buildProfile(p: ProfileInput): BusinessProfile {
  const tie = p.identity.confirmed ?? p.numberFromQuery;
  const reg = tie ? p.register : null;
  const accuracy = accuracyOf({
    tie,
    siteRead: p.site !== null,
    numberFromQuery: p.numberFromQuery !== null && !p.identity.confirmed,
    site: p.site?.url ?? null,
  });
  const found = reg !== null || p.site !== null;
  const services = p.site?.offerings.length ? p.site.offerings : reg ? reg.sicCodes.map((c) => reg.sicDescriptions[c]).filter(Boolean) : [];
  const profile: BusinessProfile = {
    found,
    ...(reg ? { name: reg.name } : p.siteName ? { name: p.siteName } : {}),
    ...(p.site ? { website: p.site.url } : {}),
    ...(reg
      ? {
          companyNumber: reg.number,
          status: reg.status,
          ...(reg.statusDetail ? { statusDetail: reg.statusDetail } : {}),
          registerSource: registerSourceOfFacts(reg),
          sicCodes: reg.sicCodes,
        }
      : {}),
    ...(reg?.incorporationDate ? { incorporationDate: reg.incorporationDate } : {}),
    ...(reg && sizeSignalOf(reg) ? { sizeSignal: sizeSignalOf(reg) } : {}),
    ...(found && whatTheyDoOf(p.site, reg) ? { whatTheyDo: whatTheyDoOf(p.site, reg) } : {}),
    ...(found ? { services } : {}),
    ...(found && p.sector ? { sector: p.sector } : {}),
    signals: found ? p.signals : [],
    accuracy,
    confidence: accuracy.confidence,
    sources: p.sources,
    attribution: ENRICH_ATTRIBUTION,
    ...(p.alternatives.length ? { alternatives: p.alternatives } : {}),
    ...(!reg && (p.identity.note || !found) ? { registryNote: p.identity.note ?? "No registered company could be tied to the query." } : {}),
    ...(reg && !p.site && p.identity.note ? { websiteNote: p.identity.note } : {}),
  };
  return profile;
}

export { alternativeOf };
