/**
 * Gazette insolvency notices as distress signals (issue 13 §3): each notice's code read through the Gazette's
 * category 24 taxonomy, newest first; a petition to wind up followed by its dismissal (2461) is reported as
 * dismissed, not as a live petition. Pure.
 */
import { extractCompanyNumber } from "../matching/companyNumber";
import { normaliseName } from "../matching/names";
import { squashPostcode } from "../matching/postcode";

export interface GazetteNotice {
  /** The Gazette's notice id (numeric today, older ones like L-60768-1986497). */
  id: string;
  /** 4-digit notice code, e.g. "2450". */
  code: string | null;
  title: string;
  /** YYYY-MM-DD. */
  publishedOn: string | null;
  /** The notice's page on the Gazette. */
  url: string | null;
  /** The company number, when the notice's linked data gives one (normalised). */
  companyNumber: string | null;
  /** The notice's text, tags removed, at most 2,000 characters. */
  text: string;
}

/** What a corporate insolvency notice code means, and how grave it is for a supplier or customer check. */
export interface NoticeCode {
  label: string;
  section: "general" | "administration" | "receivership" | "members-voluntary-liquidation" | "creditors-voluntary-liquidation" | "winding-up-by-the-court";
  severity: "high" | "medium" | "low" | "info";
}

/**
 * Category 24 codes (the Gazette's notice taxonomy). Severity is ours: a petition or order to wind up, an
 * administration, a receivership or an insolvent liquidation is high; a moratorium medium; a members'
 * (solvent) voluntary liquidation low; procedural notices info. 2461 (dismissal) clears a 2450 petition.
 */
export const CORPORATE_INSOLVENCY_CODES: Record<string, NoticeCode> = {
  "2401": { label: "Moratorium coming into force", section: "general", severity: "medium" },
  "2402": { label: "Moratorium coming to an end", section: "general", severity: "info" },
  "2403": { label: "Re-use of a prohibited name", section: "general", severity: "info" },
  "2406": { label: "Notice of intended dividend", section: "general", severity: "info" },
  "2407": { label: "Notice of dividend", section: "general", severity: "info" },
  "2408": { label: "Other corporate insolvency notice", section: "general", severity: "medium" },
  "2410": { label: "Appointment of administrators", section: "administration", severity: "high" },
  "2411": { label: "Administration order", section: "administration", severity: "high" },
  "2412": { label: "Meeting of creditors (administration)", section: "administration", severity: "high" },
  "2421": { label: "Appointment of administrative receivers", section: "receivership", severity: "high" },
  "2423": { label: "Appointment of receivers", section: "receivership", severity: "high" },
  "2431": { label: "Resolution for winding up (members' voluntary)", section: "members-voluntary-liquidation", severity: "low" },
  "2432": { label: "Appointment of liquidators (members' voluntary)", section: "members-voluntary-liquidation", severity: "low" },
  "2433": { label: "Notice to creditors (members' voluntary)", section: "members-voluntary-liquidation", severity: "low" },
  "2435": { label: "Final meeting (members' voluntary)", section: "members-voluntary-liquidation", severity: "low" },
  "2441": { label: "Resolution for winding up (creditors' voluntary)", section: "creditors-voluntary-liquidation", severity: "high" },
  "2442": { label: "Meeting of creditors (creditors' voluntary)", section: "creditors-voluntary-liquidation", severity: "high" },
  "2443": { label: "Appointment of liquidators (creditors' voluntary)", section: "creditors-voluntary-liquidation", severity: "high" },
  "2445": { label: "Final meeting (creditors' voluntary)", section: "creditors-voluntary-liquidation", severity: "high" },
  "2446": { label: "Notice to creditors (creditors' voluntary)", section: "creditors-voluntary-liquidation", severity: "high" },
  "2450": { label: "Petition to wind up", section: "winding-up-by-the-court", severity: "high" },
  "2452": { label: "Winding-up order", section: "winding-up-by-the-court", severity: "high" },
  "2454": { label: "Appointment of liquidators (court winding up)", section: "winding-up-by-the-court", severity: "high" },
  "2459": { label: "Release of liquidator", section: "winding-up-by-the-court", severity: "info" },
  "2460": { label: "Notice to creditors (court winding up)", section: "winding-up-by-the-court", severity: "high" },
  "2461": { label: "Dismissal of winding-up petition", section: "winding-up-by-the-court", severity: "info" },
};

export interface GazetteSignal {
  noticeId: string;
  code: string;
  meaning: string;
  section: NoticeCode["section"] | "other";
  severity: NoticeCode["severity"];
  date: string | null;
  url: string | null;
  /** A petition (2450) that a later dismissal (2461) cleared. */
  clearedBy?: { noticeId: string; date: string | null };
}

export function gazetteSignals(notices: GazetteNotice[], codes: Record<string, NoticeCode> = CORPORATE_INSOLVENCY_CODES): GazetteSignal[] {
  const sorted = [...notices].filter((n) => n.code).sort((a, b) => (b.publishedOn ?? "").localeCompare(a.publishedOn ?? "") || b.id.localeCompare(a.id));
  const dismissals = sorted.filter((n) => n.code === "2461");
  return sorted.map((n) => {
    const code = codes[n.code!];
    const signal: GazetteSignal = {
      noticeId: n.id,
      code: n.code!,
      meaning: code?.label ?? `Gazette notice ${n.code}`,
      section: code?.section ?? "other",
      severity: code?.severity ?? (n.code!.startsWith("24") ? "medium" : "info"),
      date: n.publishedOn,
      url: n.url,
    };
    if (n.code === "2450") {
      // The dismissal published on or after the petition clears it.
      const d = dismissals.find((x) => (x.publishedOn ?? "") >= (n.publishedOn ?? ""));
      if (d) {
        signal.clearedBy = { noticeId: d.id, date: d.publishedOn };
        signal.severity = "info";
      }
    }
    return signal;
  });
}

/** A company as the Gazette's notices are matched to it. */
export interface CompanyForNotices {
  number: string;
  name: string;
  previousNames?: string[];
  /** The registered office's postcode, if any. */
  postcode: string | null;
}

export interface MatchedNotice {
  notice: GazetteNotice;
  /** How the notice was tied to the company (issue 13 §1). */
  matchedBy: "company number" | "name and registered-office postcode";
}

const POSTCODE = /\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b/gi;
/** "(In Liquidation)", "(formerly …)", "(Company Number …)": what follows a company's name in a notice title. */
const TRAILER = /\s*\((?:in\s|formerly|previously|company|registered|t\/a|trading)[^)]*\)\s*/gi;

/** The company name a notice's title gives ("ACME LIMITED (In Liquidation)" → normalised "acme ltd"). */
export function noticeCompanyName(title: string): string {
  return normaliseName(title.replace(TRAILER, " ").split(/\s+(?:formerly|previously)\s+/i)[0]);
}

/**
 * Postcodes a notice gives for the registered office: those near the words "registered office" (the address is
 * written before or after them), else every postcode in the notice.
 */
export function noticePostcodes(text: string): Set<string> {
  const at = text.search(/registered\s+office/i);
  const scope = at >= 0 ? text.slice(Math.max(0, at - 120), at + 240) : text;
  const out = new Set<string>();
  for (const m of scope.matchAll(POSTCODE)) out.add(squashPostcode(m[1] + m[2]));
  return out;
}

/** The company number a notice states, from its linked data or its text ("Company Number: 01234567"). */
export function noticeCompanyNumber(n: GazetteNotice): string | null {
  return n.companyNumber ?? extractCompanyNumber(n.text);
}

/**
 * The notices that are this company's: the same company number (linked data, or stated in the notice), or else
 * an identical normalised name (current or previous) and the registered office's postcode in the notice. A notice
 * that states another number is never this company's, whatever its name. Pure.
 */
export function matchNotices(notices: GazetteNotice[], company: CompanyForNotices): MatchedNotice[] {
  const names = new Set([company.name, ...(company.previousNames ?? [])].filter(Boolean).map(normaliseName));
  const postcode = company.postcode ? squashPostcode(company.postcode) : "";
  const out: MatchedNotice[] = [];
  const seen = new Set<string>();
  for (const notice of notices) {
    if (seen.has(notice.id)) continue;
    const stated = noticeCompanyNumber(notice);
    let matchedBy: MatchedNotice["matchedBy"] | null = null;
    if (stated) matchedBy = stated === company.number ? "company number" : null;
    else if (postcode && names.has(noticeCompanyName(notice.title)) && noticePostcodes(notice.text).has(postcode))
      matchedBy = "name and registered-office postcode";
    if (matchedBy) {
      seen.add(notice.id);
      out.push({ notice, matchedBy });
    }
  }
  return out;
}

/** Notices whose title is the company's name exactly but that state no number: their linked data may give it. */
export function candidatesForLinkedData(notices: GazetteNotice[], company: CompanyForNotices, max = 5): GazetteNotice[] {
  const names = new Set([company.name, ...(company.previousNames ?? [])].filter(Boolean).map(normaliseName));
  return notices.filter((n) => !noticeCompanyNumber(n) && names.has(noticeCompanyName(n.title))).slice(0, max);
}
