/**
 * A public contract award as the contracts register keeps it (issue 14 §1): one per award and supplier, read
 * from the OCDS releases of Contracts Finder (CF) and Find a Tender (FTS) by src/sources/contracts/parse.ts.
 * Pure types; the register record (services/registers/types.ts RegisterRecord) carries one as its `data`.
 */

/** Where the award was published. */
export type ContractSource = "CF" | "FTS";

export interface ContractSupplier {
  /** The supplier's name as the notice gives it (a person's own name is never kept: SPEC §1 rule 7). */
  name: string;
  /** Companies House number (GB-COH), normalised to 8 characters (`GB-COH-4142000` → `04142000`); null when the notice gives none. */
  companyNumber: string | null;
  /** Public Procurement Organisation Number (GB-PPON, Procurement Act 2023), when given. */
  ppon: string | null;
  /** UK postcode of the supplier's address (`EC4A 4AB`), from `postalCode` or found in `streetAddress`; null when none. */
  postcode: string | null;
  /** `details.scale`: sme or large; null when not stated. */
  scale: "sme" | "large" | null;
  /** Every identifier the notice gives the supplier, `<scheme>-<id>` (GB-COH, GB-PPON, VAT, GB-SRS...), plus its party id when that is none of them (GB-CFS-*). */
  identifiers: string[];
}

export interface ContractAward {
  source: ContractSource;
  ocid: string;
  /** The release (notice) the award was read from: FTS `NNNNNN-YYYY`, CF `{notice guid}-{version}`. */
  releaseId: string;
  awardId: string;
  /** The public notice page (CF: /Notice/{guid}; FTS: /Notice/{releaseId}). */
  noticeUrl: string;
  buyer: { name: string | null; id: string | null };
  title: string | null;
  /** At most 500 characters. */
  description: string | null;
  /** The award's value; null when the notice states none. */
  value: { amount: number; currency: string } | null;
  awardDate: string | null;
  datePublished: string | null;
  contractPeriod: { start: string | null; end: string | null } | null;
  /** Main CPV classification of the procurement. */
  cpv: { id: string; description: string | null } | null;
  supplier: ContractSupplier;
  /** How many suppliers share the award (a framework or DPS award names many); each has an entry of its own. */
  supplierCount: number;
  /** The award's status: active, pending, cancelled, unsuccessful (as published, lower case); `unknown` when not stated. */
  status: string;
  /** The release's date: when the award was last published or updated. */
  updatedAt: string | null;
}
