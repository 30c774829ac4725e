/**
 * The UK sanctions list as this service keeps it (issue 13 §1): one record per designation (a list entry:
 * FCDO UK Sanctions List "Unique ID", or an OFSI consolidated list group), with every name it is listed
 * under. Pure types: src/sources/sanctions/parse.ts produces them, src/services/sanctions/match.ts matches
 * companies against them. Individuals are kept only as far as matching needs and are never returned in a
 * reply (SPEC §1 rules 6 and 7).
 */

export type DesignationKind = "entity" | "individual" | "ship";

export interface SanctionsName {
  /** The name as listed (name parts joined in the list's order: Name 1..5 then Name 6). */
  name: string;
  /** Primary name, primary name variation, alias (AKA), or former name (FKA). */
  type: "primary" | "variation" | "alias" | "former";
  /** The list's alias quality where it gives one ("good" / "low"). */
  quality: "good" | "low" | null;
  /** True when the name is in a non-Latin script. */
  nonLatin: boolean;
}

export interface SanctionsDesignation {
  /** The list's own id: UK Sanctions List reference (e.g. RUS2305) where known, else the OFSI group id. */
  id: string;
  /** UK Sanctions List reference (regime prefix + digits), when the list gives one. */
  ukslRef: string | null;
  /** OFSI group id, when the list gives one. */
  ofsiGroupId: string | null;
  kind: DesignationKind;
  names: SanctionsName[];
  /** Regime names, e.g. "Russia", "Global Human Rights". */
  regimes: string[];
  /** YYYY-MM-DD, where given. */
  designatedOn: string | null;
  lastUpdated: string | null;
  /** Business / company registration numbers as listed (free text, one per entry), for entities. */
  registrationNumbers: string[];
  /** UK company numbers found among them, normalised (normaliseCompanyNumber). */
  ukCompanyNumbers: string[];
  /** Countries of the listed addresses (as written). */
  countries: string[];
  /** Postcodes of the listed addresses (as written). */
  postcodes: string[];
  /** Sanctions imposed (asset freeze, …), where the list says. */
  sanctions: string[];
}
