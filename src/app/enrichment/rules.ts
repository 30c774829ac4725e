import { ACCURACY_FORMULA } from "../../services/enrich/identity";

/**
 * What the enrichment family's descriptions share, said once: the price of one enrichment, how the company is
 * chosen, and where its status comes from. Every enrichment operation puts these rules in its description.
 */
export const ENRICH_PRICE = 2;

export const MATCHING_RULES = [
  "**How the company is chosen (SPEC §2.2).** The business's own website decides which registered company a query means; a wrong company number is the worst answer this service can give, so anything short of confirmation gives none.",
  "- **A domain:** its homepage and up to four legal pages it links to (contact, about, terms, privacy, legal) are read. A company number the site states (in its text or its organisation JSON-LD) is looked up: it must be on the register and its registered (or former) name must appear on the site, or the domain be that name. Otherwise a register entry is confirmed only when its name is the domain's name (`acme-widgets.co.uk` ↔ ACME WIDGETS LIMITED), or the site gives its full registered name, or its registered office postcode together with its name. A site that states a number the register contradicts is not matched any other way. Unconfirmed: no `companyNumber`, and `registryNote` says why.",
  "- **A name:** the register is searched (with `location` narrowing it to a town, city or postcode). Companies sharing the name are never picked for you: each goes into `alternatives` with `needsConfirm: true`. The domains a company's name suggests are tried (`.co.uk`, `.com`, `.uk`), and one is accepted only when that site confirms the company by its number, or by its full name with its registered office postcode. Without such a site the entry is offered in `alternatives`, not answered.",
  "- **A company number:** the register's facts for it, and its website when one of the suggested domains confirms it.",
  "",
  `**Accuracy.** ${ACCURACY_FORMULA}`,
].join("\n");

export const LIVE_STATUS_RULE = [
  '**Live status.** The confirmed company\'s status and status detail come from its live Companies House profile (read for the call, or kept from a read of the last 12 hours); the monthly Basic Company Data file is used for search and to fill what the live profile leaves out, and `registerSource` names every fact taken from it, with the file\'s date. If the live profile cannot be read, the status and the other register facts are the file\'s, given as of its date (`registerSource.statusFrom: bulk-file`), and nothing the file cannot show is claimed absent: no "no proposal to strike off", no "no insolvency". Such an answer is not kept in the cache.',
  "A proposal to strike off (`proposal-to-strike-off`), a status other than active such as liquidation or administration (`not-active`), and a corporate insolvency notice of concern in The Gazette in the last 12 months (`gazette-notice`: matched by company number, or by exact name and registered office postcode; a petition later dismissed and procedural notices left out) are risk signals. When The Gazette cannot be read, `registerSource.insolvencyNotices` is `not-read`: no notice is reported and none is ruled out.",
].join("\n");
