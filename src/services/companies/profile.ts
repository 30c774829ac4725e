/** A company as the companies register describes it (Companies House company profile), and the SPEC's `company` object built from it. */

export interface CompanyProfile {
  number: string;
  name: string;
  /** company_status verbatim; "" when the register gives none. */
  status: string;
  statusDetail: string | null;
  type: string | null;
  incorporatedOn: string | null;
  ceasedOn: string | null;
  jurisdiction: string | null;
  registeredOffice: {
    line1: string | null;
    line2: string | null;
    locality: string | null;
    region: string | null;
    postcode: string | null;
    country: string | null;
    /** One-line address. */
    text: string;
  };
  previousNames: { name: string; from: string | null; until: string | null }[];
  sicCodes: string[];
  accountsOverdue: boolean;
  confirmationStatementOverdue: boolean;
  /** The next filing dates Companies House gives (YYYY-MM-DD), or null where it gives none. */
  filingDates: {
    accountsDueOn: string | null;
    accountsMadeUpTo: string | null;
    confirmationStatementDueOn: string | null;
    confirmationStatementMadeUpTo: string | null;
  };
  /** True when the profile has an accounts or confirmation_statement block, i.e. the overdue flags mean something. */
  hasFilingDeadlines: boolean;
  /** The type of the last accounts filed (Companies House's code: micro-entity, small, full, group, dormant, …), where given. */
  lastAccountsType?: string | null;
}

/** SPEC §2.1 `company` object (plus the one-line registered office used by SPEC §2.6). */
export function registerCompany(p: CompanyProfile): {
  name: string;
  number: string;
  status: string;
  statusDetail?: string;
  filingsOverdue?: boolean;
  registeredOffice: string;
} {
  return {
    name: p.name,
    number: p.number,
    status: p.status,
    ...(p.statusDetail ? { statusDetail: p.statusDetail } : {}),
    ...(p.hasFilingDeadlines ? { filingsOverdue: p.accountsOverdue || p.confirmationStatementOverdue } : {}),
    registeredOffice: p.registeredOffice.text,
  };
}
