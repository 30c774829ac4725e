/**
 * What counts as a change on each register (SPEC §3.2, §4.5, §4.8, §6.3). Pure data, read by the
 * diff (src/services/registers/diff.ts) and by the change feeds (which kinds a feed can filter on).
 *
 * Changes are per entity (see RegisterRecord.entity): an organisation is added, removed or returned
 * once, whatever its rows do; rows that a register rewrites (a route renamed, a town re-cased, a
 * premises' trading name) are compared through the entity's facets below.
 */
import { currentRouteNames } from "./sponsorRoutes";
import type { ChangeKind, RegisterSource } from "./types";

export interface ChangeRules {
  /** Every kind the register's feed can report, in the order the feed documents them. */
  kinds: readonly ChangeKind[];
  /** Kinds the feed accepts as a filter although they cannot occur on this register, with the reason. */
  neverOccurs?: Partial<Record<ChangeKind, string>>;
  /** The kind reported when an entity leaves the register. */
  gone: "removed" | "deregistered";
  /** Statuses (canonical: lower case, no spaces) that mean "listed, but off the register" (CQC Deregistered, a charity Removed). */
  offStatuses: readonly string[];
  /** Ratings: one per entity (CQC), or per part, compared only on parts listed in both editions (sponsors' routes). */
  rating: "entity" | "byPart" | null;
  /**
   * The entity's parts as a set (sponsors: routes gained or lost) or a multiset (HMRC: premises per
   * district). `successors` gives a part's current names (a route renamed or split): parts are the
   * same when their current names meet.
   */
  parts: { kind: "routes" | "premises"; as: "set" | "multiset"; successors?: (part: string) => string[] } | null;
  /** Towns rewritten are `moved` (sponsors). */
  towns: boolean;
}

export const CHANGE_RULES: Record<RegisterSource, ChangeRules> = {
  aml: {
    kinds: ["added", "removed", "returned", "status", "premises"],
    gone: "removed",
    offStatuses: [],
    rating: null,
    parts: { kind: "premises", as: "multiset" },
    towns: false,
  },
  sra: {
    kinds: ["added", "removed", "returned", "status"],
    gone: "removed",
    offStatuses: [],
    rating: null,
    parts: null,
    towns: false,
  },
  sponsors: {
    kinds: ["added", "removed", "returned", "status", "re-rated", "routes", "moved"],
    gone: "removed",
    offStatuses: [],
    rating: "byPart",
    parts: { kind: "routes", as: "set", successors: currentRouteNames },
    towns: true,
  },
  cqc: {
    kinds: ["added", "removed", "returned", "status", "deregistered", "re-rated"],
    neverOccurs: {
      removed: "a provider or location that leaves the CQC register is reported as `deregistered`, so `removed` matches nothing on this feed",
    },
    gone: "deregistered",
    offStatuses: ["deregistered"],
    rating: "entity",
    parts: null,
    towns: false,
  },
  charity: {
    kinds: ["added", "removed", "returned", "status"],
    gone: "removed",
    offStatuses: ["removed"],
    rating: null,
    parts: null,
    towns: false,
  },
  // A designation added or removed (delisted); a delisted entry listed again is returned.
  sanctions: {
    kinds: ["added", "removed", "returned", "status"],
    gone: "removed",
    offStatuses: [],
    rating: null,
    parts: null,
    towns: false,
  },
  // Per reporting year (scope): a report added or withdrawn; `status` when it becomes (or stops being) late,
  // e.g. resubmitted after the deadline. Revised figures alone are a new version of the entry, not a change.
  "gender-pay-gap": {
    kinds: ["added", "removed", "returned", "status"],
    gone: "removed",
    offStatuses: [],
    rating: null,
    parts: null,
    towns: false,
  },
  // Public contract awards: read as changes only (a partial edition), so an award is never removed nor returned;
  // a cancelled award is a `status` change. One entity per award, its suppliers its entries.
  contracts: {
    kinds: ["added", "removed", "returned", "status"],
    neverOccurs: {
      removed:
        "awards are read as changes (those published or updated since the last run), so an award never leaves this register; a cancelled award is a `status` change",
      returned: "an award never leaves this register, so none returns",
    },
    gone: "removed",
    offStatuses: [],
    rating: null,
    parts: null,
    towns: false,
  },
  // Payment practices: each report (company and period) is its own entity, so a new report is `added` (the
  // watch list's `payment_report`); a report withdrawn from the export is `removed`. A resubmission of the same
  // period is a new version of the entry, not a change.
  "payment-practices": {
    kinds: ["added", "removed", "returned", "status"],
    neverOccurs: { status: "every report in the export is published, so a report's status never changes" },
    gone: "removed",
    offStatuses: [],
    rating: null,
    parts: null,
    towns: false,
  },
  // Diffed in SQL by its own store (src/db/companies.ts), with the same kinds the rules name here:
  // `moved` is a new registered-office postcode, `renamed` a change of name.
  companies: {
    kinds: ["added", "removed", "returned", "status", "renamed", "moved"],
    gone: "removed",
    offStatuses: [],
    rating: null,
    parts: null,
    towns: false,
  },
};

/** Case and spacing never make a change: `LONDON` = `London `, `Milton  Keynes` = `Milton Keynes`, null = "". */
export const canon = (s: string | null | undefined): string => (s ?? "").toLowerCase().replace(/\s+/g, "");
