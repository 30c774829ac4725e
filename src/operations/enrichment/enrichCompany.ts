import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { ACCURACY_FORMULA } from "../../services/enrich/identity";
import { enrich } from "./common/enrich";
import { EnrichResponse, Location, Q } from "./common/schemas";

/** SPEC §4.1: 2 credits; a miss (`found: false`) is given back. */
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
  "**Live status.** The confirmed company's status and status detail come from its live Companies House profile (read for the call, or kept from a read of the last 12 hours); the monthly Basic Company Data file is used for search and to fill what the live profile leaves out, and `registerSource` names every fact taken from it, with the file's date. If the live profile cannot be read, the status and the other register facts are the file's, given as of its date (`registerSource.statusFrom: bulk-file`), and nothing the file cannot show is claimed absent: no \"no proposal to strike off\", no \"no insolvency\". Such an answer is not kept in the cache.",
  "A proposal to strike off (`proposal-to-strike-off`), a status other than active such as liquidation or administration (`not-active`), and a corporate insolvency notice of concern in The Gazette in the last 12 months (`gazette-notice`: matched by company number, or by exact name and registered office postcode; a petition later dismissed and procedural notices left out) are risk signals. When The Gazette cannot be read, `registerSource.insolvencyNotices` is `not-read`: no notice is reported and none is ruled out.",
].join("\n");

export const enrichCompany = defineOperation({
  operationId: "enrichCompany",
  method: "get",
  path: "/api/v1/enrich",
  family: "enrichment",
  title: "Enrich a company",
  summary: "Who a business is, from its name or domain: its website decides the registered company; what it does, its size, signals and how sure the match is.",
  description: [
    "A BusinessProfile (SPEC §2.2): the registered company (name, number, status, SIC codes, incorporation date) where the business's own website confirms it; what the business does and the services it lists, in its own words; a size signal from its accounts type, the average employees its latest tagged accounts state, a gender pay gap report's headcount band and its officers (counted, never named); signals (recently incorporated, hiring, accounts or confirmation statement overdue, a proposal to strike off, public contracts won, on the sponsor register, CQC registered with its ratings and a risk for an Inadequate or Requires improvement rating, a new payment practices report that misses the public sector's prompt payment test, else the newest report's figures); and `accuracy`, the evidence tying the site to the register, point by point.",
    "",
    MATCHING_RULES,
    "",
    LIVE_STATUS_RULE,
    "",
    "**Price.** 2 credits; a miss (`found: false`: no site could be read and no company confirmed) costs nothing — the credits come back (`x-credits-refunded`). A site that does not answer is part of the answer, not an error. A failure of ours (Companies House, the DNS resolver) is a 503 with the credits back; only the live profile (then the bulk file's facts, as of its date, as above), the officers (then not counted), The Gazette (then `registerSource` says so) and the accounts read for the size signal's employees (then `sizeSignal` says they were not read) may fail without failing the call. Answers are kept for 6 hours: the same query within that time is answered from them.",
  ].join("\n"),
  input: z.object({ q: Q.openapi({ example: "harbourside-legal.co.uk" }), location: Location }),
  output: EnrichResponse,
  price: ENRICH_PRICE,
  auth: "key",
  errors: ["upstream_unavailable"],
  readOnly: true,
  timeoutMs: 45_000,
  example: { q: "harbourside-legal.co.uk" },
  async handler({ q, location }, ctx) {
    const started = Date.now();
    const e = await enrich(ctx, q, location);
    if (!e.profile.found) ctx.refund(ENRICH_PRICE);
    return { query: { q, ...(location ? { location } : {}) }, ms: Date.now() - started, profile: e.profile };
  },
});
