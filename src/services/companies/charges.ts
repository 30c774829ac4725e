import { isOrganisationName } from "../matching/people";
import type { ChargeList } from "./records";

/**
 * Registered charges as the charges operation answers them (SPEC §4.8: lenders named, individuals never).
 * A person entitled is named only when the name is plainly an organisation's (a bank, a finance company, a
 * trustee company); anyone else is counted in `individualsEntitled`, and the name goes no further than here.
 */

export type ChargeStatus = "outstanding" | "part-satisfied" | "satisfied";

export interface ChargeOut {
  chargeCode: string | null;
  chargeNumber: number | null;
  status: ChargeStatus;
  /** Companies House's own status word, when it differs (fully-satisfied). */
  registerStatus: string;
  classification: string | null;
  createdOn: string | null;
  deliveredOn: string | null;
  satisfiedOn: string | null;
  fixedCharge: boolean | null;
  floatingCharge: boolean | null;
  floatingChargeCoversAll: boolean | null;
  negativePledge: boolean | null;
  lenders: string[];
  individualsEntitled: number;
}

export interface ChargesSummary {
  total: number;
  outstanding: number;
  partSatisfied: number;
  satisfied: number;
  /** Charges with at least one person entitled who is an individual (counted, never named). */
  withIndividualLenders: number;
}

/** Companies House writes outstanding, part-satisfied, fully-satisfied or satisfied. */
function statusOf(s: string | null): ChargeStatus {
  if (s === "part-satisfied") return "part-satisfied";
  if (s === "fully-satisfied" || s === "satisfied") return "satisfied";
  return "outstanding";
}

export function shapeCharges(list: ChargeList | null): { summary: ChargesSummary; charges: ChargeOut[] } {
  const charges = (list?.items ?? [])
    .map((c): ChargeOut => {
      const names = c.personsEntitled.map((n) => n.trim()).filter(Boolean);
      const lenders = names.filter(isOrganisationName);
      return {
        chargeCode: c.chargeCode,
        chargeNumber: c.chargeNumber,
        status: statusOf(c.status),
        registerStatus: c.status ?? "outstanding",
        classification: c.classification,
        createdOn: c.createdOn,
        deliveredOn: c.deliveredOn,
        satisfiedOn: c.satisfiedOn,
        fixedCharge: c.containsFixedCharge,
        floatingCharge: c.containsFloatingCharge,
        floatingChargeCoversAll: c.floatingChargeCoversAll,
        negativePledge: c.containsNegativePledge,
        lenders,
        individualsEntitled: names.length - lenders.length,
      };
    })
    // Newest first; outstanding before satisfied on the same day.
    .sort((a, b) => (b.createdOn ?? "").localeCompare(a.createdOn ?? "") || (a.status === "satisfied" ? 1 : 0) - (b.status === "satisfied" ? 1 : 0));
  const count = (s: ChargeStatus) => charges.filter((c) => c.status === s).length;
  return {
    summary: {
      total: charges.length,
      outstanding: count("outstanding"),
      partSatisfied: count("part-satisfied"),
      satisfied: count("satisfied"),
      withIndividualLenders: charges.filter((c) => c.individualsEntitled > 0).length,
    },
    charges,
  };
}
