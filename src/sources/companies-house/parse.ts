/** Reads Companies House API replies (company profile, error bodies) into typed records. */
import type { CompanyProfile } from "../../services/companies/profile";
import type {
  Charge,
  ChargeList,
  CompanySearchItem,
  CompanySearchResults,
  Filing,
  FilingHistory,
  IdentityVerification,
  Insolvency,
  InsolvencyCase,
  MonthYear,
  Officer,
  OfficerList,
  Psc,
  PscCategory,
  PscList,
  PscStatement,
  PscStatementList,
} from "../../services/companies/records";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** Error codes of either body shape: `{"errors":[{"error":...}]}` or flat `{"error":...}`. */
export function errorCodes(body: string): string[] {
  let j: Json | null;
  try {
    j = obj(JSON.parse(body));
  } catch {
    return [];
  }
  if (!j) return [];
  const list = Array.isArray(j.errors) ? j.errors : [j];
  return list.map((e) => str(obj(e)?.error)).filter((e): e is string => e !== null);
}

/** premises + address_line_1 the way Companies House joins them: a house number takes a space, a building name a comma. */
function firstLine(premises: string | null, line1: string | null): string | null {
  if (!premises) return line1;
  if (!line1) return premises;
  const houseNumber = /^\d+[A-Z]?(\s*[-–]\s*\d+[A-Z]?)?$/i.test(premises);
  return `${premises.replace(/,$/, "")}${houseNumber ? " " : ", "}${line1}`;
}

/** Parses a company profile body; null when it is not a profile (no name or number). */
export function parseCompanyProfile(body: string): CompanyProfile | null {
  let d: Json | null;
  try {
    d = obj(JSON.parse(body));
  } catch {
    return null;
  }
  const name = str(d?.company_name);
  const number = str(d?.company_number);
  if (!d || !name || !number) return null;

  const a = obj(d.registered_office_address) ?? {};
  const poBox = str(a.po_box);
  const office = {
    line1: firstLine(str(a.premises), str(a.address_line_1)),
    line2: str(a.address_line_2),
    locality: str(a.locality),
    region: str(a.region),
    postcode: str(a.postal_code),
    country: str(a.country),
  };
  const text = [
    poBox && (/^p\.?\s*o\.?\s*box/i.test(poBox) ? poBox : `PO Box ${poBox}`),
    office.line1,
    office.line2,
    office.locality,
    office.region,
    office.postcode,
    office.country,
  ]
    .filter(Boolean)
    .join(", ");

  const accounts = obj(d.accounts);
  const confirmation = obj(d.confirmation_statement);
  return {
    number: number.toUpperCase(),
    name,
    status: str(d.company_status) ?? "",
    statusDetail: str(d.company_status_detail),
    type: str(d.type),
    incorporatedOn: str(d.date_of_creation),
    ceasedOn: str(d.date_of_cessation),
    jurisdiction: str(d.jurisdiction),
    registeredOffice: { ...office, text: text.replace(/\s+/g, " ") },
    previousNames: (Array.isArray(d.previous_company_names) ? d.previous_company_names : []).flatMap((p) => {
      const o = obj(p);
      const n = str(o?.name);
      return n ? [{ name: n, from: str(o?.effective_from), until: str(o?.ceased_on) }] : [];
    }),
    sicCodes: (Array.isArray(d.sic_codes) ? d.sic_codes : []).map(str).filter((s): s is string => s !== null),
    // next_accounts.overdue is current; the flat accounts.overdue is deprecated but still sent.
    accountsOverdue: obj(accounts?.next_accounts)?.overdue === true || accounts?.overdue === true,
    confirmationStatementOverdue: confirmation?.overdue === true,
    filingDates: {
      // next_accounts is current; the flat next_due / next_made_up_to are deprecated but still sent.
      accountsDueOn: str(obj(accounts?.next_accounts)?.due_on) ?? str(accounts?.next_due),
      accountsMadeUpTo: str(obj(accounts?.next_accounts)?.period_end_on) ?? str(accounts?.next_made_up_to),
      confirmationStatementDueOn: str(confirmation?.next_due),
      confirmationStatementMadeUpTo: str(confirmation?.next_made_up_to),
    },
    hasFilingDeadlines: accounts !== null || confirmation !== null,
    lastAccountsType: str(obj(accounts?.last_accounts)?.type),
  };
}

// ---- Lists and other resources (officers, PSCs, charges, filing history, insolvency, search) ----
// Same rules as above: unknown members are ignored, missing ones become null, nothing throws; a body that is not
// the resource (not JSON, not an object, or without its `items` / `cases` array, e.g. an error body) gives null.

/** A JSON number (never a numeric string). */
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const objects = (v: unknown): Json[] =>
  arr(v)
    .map(obj)
    .filter((o): o is Json => o !== null);
const strings = (v: unknown): string[] =>
  arr(v)
    .map(str)
    .filter((s): s is string => s !== null);

/** The body as a JSON object, or null (not JSON, or not an object). */
function json(body: string): Json | null {
  try {
    return obj(JSON.parse(body));
  } catch {
    return null;
  }
}

/** The body when it is an object with an array under `key`. */
function container(body: string, key: string): Json | null {
  const d = json(body);
  return d && Array.isArray(d[key]) ? d : null;
}

function monthYear(v: unknown): MonthYear | null {
  const o = obj(v);
  const month = num(o?.month);
  const year = num(o?.year);
  return month !== null && year !== null ? { month, year } : null;
}

function identityVerification(v: unknown): IdentityVerification | null {
  const o = obj(v);
  if (!o) return null;
  return {
    verifiedOn: str(o.identity_verified_on),
    statementDueOn: str(o.appointment_verification_statement_due_on),
    statementDate: str(o.appointment_verification_statement_date),
    appointmentVerificationStartOn: str(o.appointment_verification_start_on),
    appointmentVerificationEndOn: str(o.appointment_verification_end_on),
  };
}

function officer(o: Json): Officer {
  const role = str(o.officer_role);
  const id = obj(o.identification);
  return {
    name: str(o.name),
    role,
    appointedOn: str(o.appointed_on),
    resignedOn: str(o.resigned_on),
    isCorporate: (role?.startsWith("corporate-") ?? false) || id !== null,
    identification: id && {
      type: str(id.identification_type),
      registrationNumber: str(id.registration_number),
      placeRegistered: str(id.place_registered),
      legalForm: str(id.legal_form),
      legalAuthority: str(id.legal_authority),
    },
    nationality: str(o.nationality),
    countryOfResidence: str(o.country_of_residence),
    occupation: str(o.occupation),
    dateOfBirth: monthYear(o.date_of_birth),
    identityVerification: identityVerification(o.identity_verification_details),
    appointmentsLink: str(obj(obj(o.links)?.officer)?.appointments),
  };
}

/** GET /company/{n}/officers (kind officer-list). */
export function parseOfficerList(body: string): OfficerList | null {
  const d = container(body, "items");
  if (!d) return null;
  return {
    totalResults: num(d.total_results),
    activeCount: num(d.active_count),
    resignedCount: num(d.resigned_count),
    inactiveCount: num(d.inactive_count),
    itemsPerPage: num(d.items_per_page),
    startIndex: num(d.start_index),
    items: objects(d.items).map(officer),
  };
}

/** PSC kind → category; the overseas-entity *-beneficial-owner kinds map like their PSC counterparts. */
function pscCategory(kind: string | null): PscCategory {
  if (!kind) return "other";
  if (kind.startsWith("individual-")) return "individual";
  if (kind.startsWith("corporate-entity-")) return "corporate";
  if (kind.startsWith("legal-person-")) return "legal-person";
  if (kind.startsWith("super-secure-")) return "super-secure";
  return "other";
}

function psc(o: Json): Psc {
  const kind = str(o.kind);
  const ceasedOn = str(o.ceased_on);
  const id = obj(o.identification);
  return {
    kind,
    category: pscCategory(kind),
    name: str(o.name),
    notifiedOn: str(o.notified_on),
    ceasedOn,
    // An explicit boolean wins; older replies send only ceased_on (and CH's own test data has "ceased": "0").
    ceased: bool(o.ceased) ?? ceasedOn !== null,
    naturesOfControl: strings(o.natures_of_control),
    identification: id && {
      registrationNumber: str(id.registration_number),
      placeRegistered: str(id.place_registered),
      countryRegistered: str(id.country_registered),
      legalForm: str(id.legal_form),
      legalAuthority: str(id.legal_authority),
    },
    nationality: str(o.nationality),
    countryOfResidence: str(o.country_of_residence),
    isSanctioned: bool(o.is_sanctioned),
    identityVerification: identityVerification(o.identity_verification_details),
  };
}

/** GET /company/{n}/persons-with-significant-control (the list; a single PSC body gives null, see parsePsc). */
export function parsePscList(body: string): PscList | null {
  const d = container(body, "items");
  if (!d) return null;
  return {
    totalResults: num(d.total_results),
    activeCount: num(d.active_count),
    ceasedCount: num(d.ceased_count),
    itemsPerPage: num(d.items_per_page),
    startIndex: num(d.start_index),
    items: objects(d.items).map(psc),
  };
}

/** GET /company/{n}/persons-with-significant-control/{kind}/{id}: one PSC; null unless the body has a string `kind` and no `items`. */
export function parsePsc(body: string): Psc | null {
  const d = json(body);
  return d && str(d.kind) && !("items" in d) ? psc(d) : null;
}

/** GET /company/{n}/persons-with-significant-control-statements. */
export function parsePscStatements(body: string): PscStatementList | null {
  const d = container(body, "items");
  if (!d) return null;
  return {
    totalResults: num(d.total_results),
    activeCount: num(d.active_count),
    ceasedCount: num(d.ceased_count),
    itemsPerPage: num(d.items_per_page),
    startIndex: num(d.start_index),
    items: objects(d.items).map(
      (o): PscStatement => ({
        statement: str(o.statement),
        notifiedOn: str(o.notified_on),
        ceasedOn: str(o.ceased_on),
        linkedPscName: str(o.linked_psc_name),
      }),
    ),
  };
}

/** The charge id: `id` (spec-required), else the last segment of links.self (real replies may send only the link). */
function chargeId(o: Json): string | null {
  const self = str(obj(o.links)?.self);
  const parts = self?.split("/") ?? [];
  const last = parts.length >= 2 && parts[parts.length - 2] === "charges" ? str(parts[parts.length - 1]) : null;
  return str(o.id) ?? last;
}

function charge(o: Json): Charge {
  const p = obj(o.particulars);
  return {
    id: chargeId(o),
    chargeCode: str(o.charge_code),
    chargeNumber: num(o.charge_number),
    classification: str(obj(o.classification)?.description),
    status: str(o.status),
    createdOn: str(o.created_on),
    deliveredOn: str(o.delivered_on),
    satisfiedOn: str(o.satisfied_on),
    personsEntitled: objects(o.persons_entitled)
      .map((e) => str(e.name))
      .filter((n): n is string => n !== null),
    containsFixedCharge: bool(p?.contains_fixed_charge),
    containsFloatingCharge: bool(p?.contains_floating_charge),
    floatingChargeCoversAll: bool(p?.floating_charge_covers_all),
    containsNegativePledge: bool(p?.contains_negative_pledge),
    particularsDescription: str(p?.description),
  };
}

/** GET /company/{n}/charges. */
export function parseChargeList(body: string): ChargeList | null {
  const d = container(body, "items");
  if (!d) return null;
  return {
    totalCount: num(d.total_count),
    satisfiedCount: num(d.satisfied_count),
    partSatisfiedCount: num(d.part_satisfied_count),
    // The swagger spec spells it "unfiletered_count"; real replies send unfiltered_count. Accept both.
    unfilteredCount: num(d.unfiltered_count) ?? num(d.unfiletered_count),
    items: objects(d.items).map(charge),
  };
}

function filing(o: Json): Filing {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(o.description_values) ?? {})) {
    if (typeof v === "string") values[k] = v;
  }
  return {
    transactionId: str(o.transaction_id),
    date: str(o.date),
    actionDate: str(o.action_date),
    category: str(o.category),
    subcategory: str(o.subcategory),
    type: str(o.type),
    description: str(o.description),
    descriptionValues: values,
    paperFiled: bool(o.paper_filed),
    pages: num(o.pages),
    documentMetadataUrl: str(obj(o.links)?.document_metadata),
  };
}

/** GET /company/{n}/filing-history. */
export function parseFilingHistory(body: string): FilingHistory | null {
  const d = container(body, "items");
  if (!d) return null;
  return {
    totalCount: num(d.total_count),
    status: str(d.filing_history_status),
    items: objects(d.items).map(filing),
  };
}

function insolvencyCase(o: Json): InsolvencyCase {
  return {
    // The spec says string; a bare JSON number is read as its decimal text.
    number: str(o.number) ?? (num(o.number) !== null ? String(o.number) : null),
    type: str(o.type),
    dates: objects(o.dates).map((x) => ({ type: str(x.type), date: str(x.date) })),
    practitioners: objects(o.practitioners).map((x) => ({
      name: str(x.name),
      role: str(x.role),
      appointedOn: str(x.appointed_on),
      ceasedToActOn: str(x.ceased_to_act_on),
    })),
    notes: strings(o.notes),
  };
}

/** GET /company/{n}/insolvency. */
export function parseInsolvency(body: string): Insolvency | null {
  const d = container(body, "cases");
  if (!d) return null;
  return { status: str(d.status), cases: objects(d.cases).map(insolvencyCase) };
}

/** GET /search/companies; items without a company_number are left out. */
export function parseSearchResults(body: string): CompanySearchResults | null {
  const d = container(body, "items");
  if (!d) return null;
  return {
    totalResults: num(d.total_results),
    itemsPerPage: num(d.items_per_page),
    startIndex: num(d.start_index),
    items: objects(d.items).flatMap((o): CompanySearchItem[] => {
      const number = str(o.company_number);
      if (!number) return [];
      const a = obj(o.address);
      return [
        {
          number,
          name: str(o.title),
          status: str(o.company_status),
          type: str(o.company_type),
          incorporatedOn: str(o.date_of_creation),
          ceasedOn: str(o.date_of_cessation),
          addressSnippet: str(o.address_snippet),
          postcode: str(a?.postal_code),
          locality: str(a?.locality),
          matches: obj(o.matches),
        },
      ];
    }),
  };
}
