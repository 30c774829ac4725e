/**
 * Issue 18 groundwork (not yet wired to an operation): SPEC §2.2's rule that "a domain matches a registry entry only
 * when the entry's name is that domain's name" (`acme-widgets.co.uk` ↔ ACME WIDGETS LIMITED), and the domains a
 * company's name suggests when its website is looked for. Conservative by design: a wrong company number is the worst
 * answer the service can give, so anything short of the same name is no match. Pure.
 */
import { siteOf } from "../net/site";
import { normaliseName, normaliseNameCore } from "./names";

/** The label a site is named by: "acme-widgets" for www.shop.acme-widgets.co.uk. */
export function domainLabel(host: string): string {
  const site = siteOf(
    host
      .trim()
      .toLowerCase()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
      .replace(/[/:?#].*$/, ""),
  );
  return site.split(".")[0] ?? "";
}

const compact = (s: string) => s.replace(/[^a-z0-9]/g, "");
/** A name that is only a legal form ("LIMITED") names nothing. */
const ONLY_FORM = /^(?:ltd|limited|plc|llp|lp|cic|cio|company|co)$/;

/**
 * The ways a registered name is written as a domain label: its words run together, with the legal form or without
 * it, "&" as "and" or left out ("O'Brien & Sons Limited" → obrienandsons, obriensons, obrienandsonsltd, obrienandsonslimited).
 */
export function labelsOfName(registeredName: string): string[] {
  const core = normaliseNameCore(registeredName);
  const full = normaliseName(registeredName);
  if (!core || ONLY_FORM.test(core)) return [];
  const out = new Set<string>();
  for (const n of [core, full]) {
    out.add(compact(n));
    out.add(compact(n.replace(/\band\b/g, "")));
  }
  if (full !== core) out.add(compact(full.replace(/\bltd$/, "limited")));
  return [...out].filter((l) => l.length >= 3);
}

/** Whether the register entry's name is the domain's name (hyphens, the legal form, "and"/"&" aside). */
export function domainIsName(host: string, registeredName: string): boolean {
  const label = compact(domainLabel(host));
  if (label.length < 3) return false;
  return labelsOfName(registeredName).includes(label);
}

/**
 * Domains to try for a company known only by its name, most likely first: the words run together and hyphenated,
 * under .co.uk, .com and .uk. A domain is accepted only when the site then confirms the company (its number, or its
 * full name and postcode) — this list is where to look, never evidence.
 */
export function domainsForName(registeredName: string, max = 6, suffixes: readonly string[] = ["co.uk", "com", "uk"]): string[] {
  const core = normaliseNameCore(registeredName);
  const words = core.split(" ").filter(Boolean);
  if (!words.length || ONLY_FORM.test(core)) return [];
  const joined = words.join("");
  const hyphened = words.join("-");
  const noAnd = words.filter((w) => w !== "and").join("");
  const labels = [...new Set([joined, hyphened, noAnd])].filter((l) => l.length >= 3 && l.length <= 63 && /^[a-z0-9-]+$/.test(l) && !/^-|-$/.test(l));
  const out: string[] = [];
  for (const tld of suffixes) for (const l of labels) out.push(`${l}.${tld}`);
  return [...new Set(out)].slice(0, max);
}
