import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { enrich } from "../../app/enrichment/enrich";
import { EnrichResponse, Location, Q } from "../../app/enrichment/schemas";
import { ENRICH_PRICE, LIVE_STATUS_RULE, MATCHING_RULES } from "../../app/enrichment/rules";

/** SPEC §4.1: 2 credits; a miss (`found: false`) is given back. */
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
