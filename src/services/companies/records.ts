/**
 * Companies House register records other than the company profile (officers, PSCs, PSC statements, charges,
 * filing history, insolvency, company search), as read from the Public Data API by sources/companies-house/parse.ts.
 *
 * Conventions: codes (roles, kinds, statuses, categories, description keys) are kept verbatim; dates are kept as
 * the API gives them (normally YYYY-MM-DD) or null; counts and other numbers are null unless the API sent a JSON
 * number. Pure types: this module imports nothing.
 */

/** ECCTA identity verification (2025+), from `identity_verification_details`. */
export interface IdentityVerification {
  /** identity_verified_on */
  verifiedOn: string | null;
  /** appointment_verification_statement_due_on */
  statementDueOn: string | null;
  /** appointment_verification_statement_date (PSCs only) */
  statementDate: string | null;
  /** appointment_verification_start_on */
  appointmentVerificationStartOn: string | null;
  /** appointment_verification_end_on ("9999-12-31" = open) */
  appointmentVerificationEndOn: string | null;
}

/** A date of birth as the register publishes it (month and year only). */
export interface MonthYear {
  month: number;
  year: number;
}

export interface OfficerIdentification {
  /** identification_type, e.g. uk-limited-company, eea, non-eea */
  type: string | null;
  /** Free text; kept verbatim (often a company number without zero padding). */
  registrationNumber: string | null;
  placeRegistered: string | null;
  legalForm: string | null;
  legalAuthority: string | null;
}

export interface Officer {
  /** "SURNAME, Forenames" for people; the corporate name otherwise. */
  name: string | null;
  /** officer_role verbatim (director, secretary, corporate-director, llp-designated-member, ...). */
  role: string | null;
  appointedOn: string | null;
  resignedOn: string | null;
  /** Role starts with "corporate-" or an identification block is present. */
  isCorporate: boolean;
  identification: OfficerIdentification | null;
  nationality: string | null;
  countryOfResidence: string | null;
  occupation: string | null;
  dateOfBirth: MonthYear | null;
  identityVerification: IdentityVerification | null;
  /** links.officer.appointments */
  appointmentsLink: string | null;
}

export interface OfficerList {
  totalResults: number | null;
  activeCount: number | null;
  resignedCount: number | null;
  inactiveCount: number | null;
  itemsPerPage: number | null;
  startIndex: number | null;
  items: Officer[];
}

export type PscCategory = "individual" | "corporate" | "legal-person" | "super-secure" | "other";

export interface PscIdentification {
  /** Free text; kept verbatim (for a UK parent, its company number, often without zero padding). */
  registrationNumber: string | null;
  placeRegistered: string | null;
  countryRegistered: string | null;
  legalForm: string | null;
  legalAuthority: string | null;
}

export interface Psc {
  /** kind verbatim, e.g. individual-person-with-significant-control, corporate-entity-beneficial-owner. */
  kind: string | null;
  category: PscCategory;
  /** Absent for super-secure PSCs. */
  name: string | null;
  notifiedOn: string | null;
  ceasedOn: string | null;
  ceased: boolean;
  /** Codes verbatim (psc_descriptions.yml). */
  naturesOfControl: string[];
  identification: PscIdentification | null;
  nationality: string | null;
  countryOfResidence: string | null;
  isSanctioned: boolean | null;
  identityVerification: IdentityVerification | null;
}

export interface PscList {
  totalResults: number | null;
  activeCount: number | null;
  ceasedCount: number | null;
  itemsPerPage: number | null;
  startIndex: number | null;
  items: Psc[];
}

export interface PscStatement {
  /** Statement code verbatim (psc_descriptions.yml statement_description). */
  statement: string | null;
  notifiedOn: string | null;
  ceasedOn: string | null;
  linkedPscName: string | null;
}

export interface PscStatementList {
  totalResults: number | null;
  activeCount: number | null;
  ceasedCount: number | null;
  itemsPerPage: number | null;
  startIndex: number | null;
  items: PscStatement[];
}

export interface Charge {
  /** id, or when absent the last segment of links.self (/company/{n}/charges/{id}). */
  id: string | null;
  chargeCode: string | null;
  chargeNumber: number | null;
  /** classification.description */
  classification: string | null;
  /** status verbatim: outstanding, fully-satisfied, part-satisfied, satisfied. */
  status: string | null;
  createdOn: string | null;
  deliveredOn: string | null;
  satisfiedOn: string | null;
  /** persons_entitled[].name */
  personsEntitled: string[];
  containsFixedCharge: boolean | null;
  containsFloatingCharge: boolean | null;
  floatingChargeCoversAll: boolean | null;
  containsNegativePledge: boolean | null;
  /** particulars.description */
  particularsDescription: string | null;
}

export interface ChargeList {
  totalCount: number | null;
  satisfiedCount: number | null;
  partSatisfiedCount: number | null;
  unfilteredCount: number | null;
  items: Charge[];
}

export interface Filing {
  transactionId: string | null;
  date: string | null;
  actionDate: string | null;
  category: string | null;
  subcategory: string | null;
  /** Form type, e.g. AA, CS01, GAZ2. */
  type: string | null;
  /** The description key verbatim (filing_history_descriptions.yml). */
  description: string | null;
  /** description_values members that are strings (structured members such as `capital` are left out). */
  descriptionValues: Record<string, string>;
  /** paper_filed; null when absent (Companies House sends it only for paper filings). */
  paperFiled: boolean | null;
  pages: number | null;
  /** links.document_metadata (Document API). */
  documentMetadataUrl: string | null;
}

export interface FilingHistory {
  totalCount: number | null;
  /** filing_history_status */
  status: string | null;
  items: Filing[];
}

export interface InsolvencyPractitioner {
  name: string | null;
  role: string | null;
  appointedOn: string | null;
  ceasedToActOn: string | null;
}

export interface InsolvencyCase {
  number: string | null;
  /** Case type verbatim (constants.yml insolvency_case_type). */
  type: string | null;
  /** Date types verbatim (constants.yml insolvency_case_date_type), e.g. wound-up-on, petitioned-on. */
  dates: { type: string | null; date: string | null }[];
  practitioners: InsolvencyPractitioner[];
  notes: string[];
}

export interface Insolvency {
  status: string | null;
  cases: InsolvencyCase[];
}

export interface CompanySearchItem {
  /** company_number verbatim */
  number: string;
  /** title verbatim (the search index keeps double spaces, e.g. "YOU  LIMITED") */
  name: string | null;
  status: string | null;
  type: string | null;
  incorporatedOn: string | null;
  ceasedOn: string | null;
  addressSnippet: string | null;
  postcode: string | null;
  locality: string | null;
  /** The `matches` object verbatim (title/snippet highlight offsets). */
  matches: Record<string, unknown> | null;
}

export interface CompanySearchResults {
  totalResults: number | null;
  itemsPerPage: number | null;
  startIndex: number | null;
  items: CompanySearchItem[];
}

/** What the Basic Company Data file says of a company beyond its name, number, status and post town. */
interface BulkCompanyFields {
  category: string;
  incorporatedOn: string | null;
  postcode: string | null;
  countryOfOrigin: string | null;
  accountsDue: string | null;
  accountsMadeUpTo: string | null;
  accountsCategory: string | null;
  confirmationDue: string | null;
  confirmationMadeUpTo: string | null;
  /** Most recent first. */
  previousNames: { name: string; until: string | null }[];
  /** The rest a reply may show: the registered office lines, the charges counts, the dissolution date. */
  extra: Record<string, string | number>;
}

/** A parsed Basic Company Data row's `data` (RegisterRecord: name, number, status and town are its own fields). */
export interface BulkCompanyData extends BulkCompanyFields {
  /** SIC codes with the description the file gives each. */
  sic: { code: string; description: string }[];
}

/** A company as the published Basic Company Data edition lists it (the companies register, src/db/companies.ts). */
export interface CompanyRow extends BulkCompanyFields {
  number: string;
  name: string;
  status: string;
  sicCodes: string[];
  locality: string | null;
}
