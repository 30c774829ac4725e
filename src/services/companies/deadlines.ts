import type { CompanyProfile } from "./profile";
import type { OfficerList, PscList } from "./records";
import { daysBetween, isDate } from "../../shared/dates";

/**
 * Every date a company has at Companies House (SPEC §4.8 deadlines), sorted, with days left (negative when
 * overdue). People are counted, never named: identity-verification statement dates are grouped by date.
 */

export type DeadlineKind =
  | "accounts-due"
  | "accounts-made-up-to"
  | "confirmation-statement-due"
  | "confirmation-statement-made-up-to"
  | "officer-identity-statement-due"
  | "psc-identity-statement-due";

export interface Deadline {
  kind: DeadlineKind;
  date: string;
  daysLeft: number;
  overdue: boolean;
  /** Plain words, e.g. "Accounts for the year to 31 March 2026 are due". */
  title: string;
  /** Officers or PSCs whose identity-verification statement is due that day (counted, never named). */
  people?: number;
}

export interface Deadlines {
  deadlines: Deadline[];
  accountsOverdue: boolean;
  confirmationStatementOverdue: boolean;
  /** Companies House shows a proposal to strike the company off (company_status_detail). */
  proposalToStrikeOff: boolean;
  /** Officers and PSCs with an identity-verification statement date on record (counted). */
  identityVerification: { officersWithStatementDue: number; pscsWithStatementDue: number };
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const spoken = (d: string) => `${Number(d.slice(8, 10))} ${MONTHS[Number(d.slice(5, 7)) - 1]} ${d.slice(0, 4)}`;

export function deadlinesOf(p: CompanyProfile, officers: OfficerList | null, pscs: PscList | null, today: string): Deadlines {
  const out: Deadline[] = [];
  const add = (kind: DeadlineKind, date: string | null | undefined, title: string, overdueFlag = false, people?: number) => {
    if (!isDate(date)) return;
    const daysLeft = daysBetween(today, date);
    const due = kind.endsWith("-due");
    out.push({ kind, date, daysLeft, overdue: overdueFlag || (due && daysLeft < 0), title, ...(people !== undefined ? { people } : {}) });
  };
  const f = p.filingDates;
  add(
    "accounts-due",
    f.accountsDueOn,
    `Accounts${f.accountsMadeUpTo ? ` for the period to ${spoken(f.accountsMadeUpTo)}` : ""} are due at Companies House`,
    p.accountsOverdue,
  );
  add("accounts-made-up-to", f.accountsMadeUpTo, "End of the next accounting period");
  add("confirmation-statement-due", f.confirmationStatementDueOn, "Confirmation statement due at Companies House", p.confirmationStatementOverdue);
  add("confirmation-statement-made-up-to", f.confirmationStatementMadeUpTo, "Date the next confirmation statement is made up to");
  const byDate = (dates: (string | null)[]) => {
    const m = new Map<string, number>();
    for (const d of dates) if (isDate(d)) m.set(d, (m.get(d) ?? 0) + 1);
    return m;
  };
  const officerDates = byDate((officers?.items ?? []).filter((o) => !o.resignedOn).map((o) => o.identityVerification?.statementDueOn ?? null));
  const pscDates = byDate((pscs?.items ?? []).filter((x) => !x.ceased && !x.ceasedOn).map((x) => x.identityVerification?.statementDueOn ?? null));
  for (const [d, n] of officerDates)
    add("officer-identity-statement-due", d, `Identity verification statement due for ${n} officer${n === 1 ? "" : "s"}`, false, n);
  for (const [d, n] of pscDates)
    add("psc-identity-statement-due", d, `Identity verification statement due for ${n} person${n === 1 ? "" : "s"} with significant control`, false, n);
  out.sort((a, b) => a.date.localeCompare(b.date) || a.kind.localeCompare(b.kind));
  return {
    deadlines: out,
    accountsOverdue: p.accountsOverdue,
    confirmationStatementOverdue: p.confirmationStatementOverdue,
    proposalToStrikeOff: /strike.?off/i.test(p.statusDetail ?? ""),
    identityVerification: {
      officersWithStatementDue: [...officerDates.values()].reduce((a, b) => a + b, 0),
      pscsWithStatementDue: [...pscDates.values()].reduce((a, b) => a + b, 0),
    },
  };
}
