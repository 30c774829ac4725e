/**
 * The BusinessProfile of SPEC §2.2 from what was read: the identity decision (identity.ts), the register's facts
 * of the confirmed company, the site's facts, and the signals other registers gave. Register facts appear only for
 * a confirmed company (or one the caller named by its number); a query the site does not confirm gets no company
 * number, with `registryNote` saying why. Pure and deterministic: `today` is passed in.
 */
import { OGL } from "../registers/catalogue";
import { firstSentence } from "../web/brandKit";
import { type Identity, type Tie, accuracyOf, alternativeOf } from "./identity";
import type { CompanyProfile } from "../companies/profile";
import type { Alternative, BusinessProfile, RegisterFacts, Signal, SiteFacts } from "./types";

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
  if (/small|total exemption|abridged|audit exemption|filing exemption|partial exemption/.test(t)) return { band: "small", words: `${type.toLowerCase()} accounts` };
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
  if (e?.average != null) parts.push(`average ${e.average.toLocaleString("en-GB")} employee${e.average === 1 ? "" : "s"} (accounts${e.periodEnd ? ` to ${e.periodEnd}` : ""})`);
  if (e?.average == null && e?.note) parts.push(e.note);
  if (e?.band) parts.push(`${e.band} employees (gender pay gap report ${e.bandYear} to ${Number(e.bandYear) + 1})`);
  if (r.activeOfficers !== null) parts.push(`${r.activeOfficers} active officer${r.activeOfficers === 1 ? "" : "s"}`);
  if (!parts.length) return undefined;
  // A headcount band's lower bound ("250 to 499" → 250; "Less than 250" has none): 250 or more is large.
  const lower = e?.band ? /^(\d[\d,]*)/.exec(e.band)?.[1] : undefined;
  const band = acc?.band ?? (e?.average != null ? bandOfCount(e.average) : lower !== undefined ? (Number(lower.replace(/,/g, "")) >= 250 ? "large" : bandOfCount(Number(lower.replace(/,/g, "")))) : null);
  return band ? `${band}: ${parts.join("; ")}` : `size not stated in the accounts type: ${parts.join("; ")}`;
}

/** The register's facts of a company from its Companies House profile (SIC descriptions and officers are read separately). */
export function registerFactsOfProfile(p: CompanyProfile): RegisterFacts {
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
  };
}

const SIGNAL_SOURCE = "companies register";

/** Signals the register and the site give (the operation adds those of other registers). */
export function baseSignals(register: RegisterFacts | null, site: SiteFacts | null, today: string): Signal[] {
  const out: Signal[] = [];
  if (register) {
    const status = register.status.toLowerCase();
    if (status && status !== "active")
      out.push({ code: "not-active", label: `Register status: ${register.status}${register.statusDetail ? ` (${register.statusDetail})` : ""}`, kind: "risk", source: SIGNAL_SOURCE });
    if (register.statusDetail && /strike.?off/i.test(register.statusDetail))
      out.push({ code: "proposal-to-strike-off", label: "A proposal to strike the company off the register is in progress", kind: "risk", source: SIGNAL_SOURCE });
    if (register.accountsOverdue) out.push({ code: "accounts-overdue", label: "Accounts are overdue at Companies House", kind: "risk", source: SIGNAL_SOURCE });
    if (register.confirmationStatementOverdue)
      out.push({ code: "confirmation-statement-overdue", label: "The confirmation statement is overdue at Companies House", kind: "risk", source: SIGNAL_SOURCE });
    if (register.incorporationDate) {
      const months = monthsBetween(register.incorporationDate, today);
      if (months >= 0 && months < 24)
        out.push({ code: "recently-incorporated", label: `Incorporated ${months} month${months === 1 ? "" : "s"} ago (${register.incorporationDate})`, kind: "opportunity", source: SIGNAL_SOURCE });
    }
    if (register.sicCodes.includes("99999") || /dormant/i.test(register.lastAccountsType ?? ""))
      out.push({ code: "dormant", label: "Dormant: no trading activity is reported to the register", kind: "info", source: SIGNAL_SOURCE });
  }
  if (site?.careersUrl) out.push({ code: "hiring", label: "The website has a careers or jobs page", kind: "opportunity", source: `website: ${site.careersUrl}` });
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
  const accuracy = accuracyOf({ tie, siteRead: p.site !== null, numberFromQuery: p.numberFromQuery !== null && !p.identity.confirmed, site: p.site?.url ?? null });
  const found = reg !== null || p.site !== null;
  const services = p.site?.offerings.length ? p.site.offerings : reg ? reg.sicCodes.map((c) => reg.sicDescriptions[c]).filter(Boolean) : [];
  const profile: BusinessProfile = {
    found,
    ...(reg ? { name: reg.name } : p.siteName ? { name: p.siteName } : {}),
    ...(p.site ? { website: p.site.url } : {}),
    ...(reg ? { companyNumber: reg.number, status: reg.status, sicCodes: reg.sicCodes } : {}),
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
