import type { Services } from "../../platform/services";
import type { CompanyProfile } from "../../services/companies/profile";
import { normaliseName, normaliseNameCore } from "../../services/matching/names";

/** Entries of the same name looked at for the name-and-postcode match. */
const NAME_CANDIDATES = 500;

const squash = (p: string | null | undefined) => (p ?? "").toUpperCase().replace(/[^A-Z0-9]/g, "");

/**
 * The contract awards tied to a company by name (issue 14; contracts-won and the watch list's daily read alike):
 * suppliers the notices give no company number, under the company's exact registered or former name (normalised)
 * at its registered office's postcode. Their register keys; none when the office has no postcode.
 */
export async function awardKeysByNameAndPostcode(services: Pick<Services, "registers">, profile: CompanyProfile): Promise<string[]> {
  const postcode = squash(profile.registeredOffice.postcode);
  if (!postcode) return [];
  const names = [
    ...new Set([profile.name, ...profile.previousNames.map((p) => p.name)].flatMap((n) => [normaliseName(n), normaliseNameCore(n)]).filter(Boolean)),
  ];
  const candidates = await services.registers.keysByNames("contracts", names, null, NAME_CANDIDATES);
  const entries = candidates.length ? await services.registers.entriesByKeys("contracts", candidates) : [];
  return entries.filter((e) => !e.data.supplier.companyNumber && squash(e.data.supplier.postcode) === postcode).map((e) => e.key);
}
