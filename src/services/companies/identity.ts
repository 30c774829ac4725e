/**
 * Identity verification of a company's directors and persons with significant control (ECCTA, from 2025),
 * counted by state, never named (SPEC §1 rule 7; issue 13 §3 idv-check). Pure.
 *
 * - verified: Companies House records the identity as verified (identity_verified_on);
 * - statementDue: not verified, with a verification statement due on a date still to come;
 * - overdue: not verified, and that date has passed;
 * - notApplicable: no verification requirement or date on record: corporate officers and PSCs (they have
 *   their own route), and individuals Companies House has set no date for yet.
 * Directors are the active officers whose role is a director's or an LLP member's; secretaries are left out.
 */
import type { OfficerList, PscList } from "./records";
import { isDate } from "../../shared/dates";

export interface IdentityCounts {
  total: number;
  verified: number;
  statementDue: number;
  overdue: number;
  notApplicable: number;
}

export interface IdentityVerificationSummary {
  directors: IdentityCounts;
  pscs: IdentityCounts;
  /** The earliest verification statement date not yet met (overdue ones included), or null. */
  earliestDueOn: string | null;
}

const empty = (): IdentityCounts => ({ total: 0, verified: 0, statementDue: 0, overdue: 0, notApplicable: 0 });

export function identityVerificationOf(officers: OfficerList | null, pscs: PscList | null, today: string): IdentityVerificationSummary {
  const dues: string[] = [];
  const count = (c: IdentityCounts, individual: boolean, idv: { verifiedOn: string | null; statementDueOn: string | null } | null) => {
    c.total++;
    if (idv && isDate(idv.verifiedOn)) c.verified++;
    else if (individual && idv && isDate(idv.statementDueOn)) {
      dues.push(idv.statementDueOn);
      if (idv.statementDueOn < today) c.overdue++;
      else c.statementDue++;
    } else c.notApplicable++;
  };
  const directors = empty();
  for (const o of officers?.items ?? []) {
    if (o.resignedOn || !/director|member/i.test(o.role ?? "")) continue;
    count(directors, !/^corporate/i.test(o.role ?? ""), o.identityVerification);
  }
  const people = empty();
  for (const p of pscs?.items ?? []) {
    if (p.ceased || p.ceasedOn) continue;
    count(people, /^individual/i.test(p.kind ?? ""), p.identityVerification);
  }
  dues.sort();
  return { directors, pscs: people, earliestDueOn: dues[0] ?? null };
}
