/** Reads Companies House API replies (company profile, error bodies) into typed records. */
import type { CompanyProfile } from "../../services/companies/profile";

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
    office.line1, office.line2, office.locality, office.region, office.postcode, office.country,
  ].filter(Boolean).join(", ");

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
    hasFilingDeadlines: accounts !== null || confirmation !== null,
  };
}
