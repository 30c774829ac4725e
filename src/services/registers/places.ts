/**
 * What a register's record says that can confirm or contradict a match (issue 28 §1): the company number it
 * carries and the places it gives for the organisation. Read the same way for every register, from the stored
 * entry's fields: the row's town (sponsors), a head office (SRA), an address (CQC), a postcode district (HMRC's
 * premises) or a postcode. Pure.
 */
import type { RecordFacts } from "../matching/certainty";
import { extractCompanyNumber } from "../matching/companyNumber";
import type { CqcAddress, SraHeadOffice } from "./catalogue";
import type { Entry, RegisterData } from "./types";

const text = (v: string | null | undefined): string | null => (v?.trim() ? v.trim() : null);

/**
 * The offices or addresses a register's fields give, in this order: an SRA firm's head office, a CQC address. (A
 * gender pay gap report's address is one line of text, with no town or postcode of its own.)
 */
function officesOf(d: RegisterData): (SraHeadOffice | CqcAddress)[] {
  const out: (SraHeadOffice | CqcAddress)[] = [];
  if ("headOffice" in d && d.headOffice) out.push(d.headOffice);
  if ("address" in d && d.address && typeof d.address === "object") out.push(d.address);
  return out;
}

/** The record facts of one entry. */
export function recordFactsOf(e: Pick<Entry, "name" | "companyNumber" | "town" | "data">): RecordFacts {
  const towns: string[] = [];
  const postcodes: string[] = [];
  const districts: string[] = [];
  const push = (list: string[], v: string | null) => v && !list.includes(v) && list.push(v);
  push(towns, text(e.town));
  for (const a of officesOf(e.data)) {
    push(towns, text(a.town));
    push(postcodes, text(a.postcode));
  }
  // A postcode: the Basic Company Data's registered office, a gender pay gap report's; HMRC's premises give a district.
  if ("postcode" in e.data) push(postcodes, text(e.data.postcode));
  if ("postcodeDistrict" in e.data) push(districts, text(e.data.postcodeDistrict));
  // A register without a company number field may write one in the name (`ACME LTD (12345678)`).
  return { name: e.name, companyNumber: e.companyNumber ?? extractCompanyNumber(e.name), places: { towns, postcodes, districts } };
}

/** The record facts of an organisation spread over several entries (premises, routes in several towns): every place any gives. */
export function mergedRecordFacts(entries: Pick<Entry, "name" | "companyNumber" | "town" | "data">[]): RecordFacts {
  const all = entries.map(recordFactsOf);
  const uniq = (xs: string[]) => [...new Set(xs)];
  return {
    name: all[0]?.name ?? "",
    companyNumber: all.map((f) => f.companyNumber).find((n) => n) ?? null,
    places: {
      towns: uniq(all.flatMap((f) => f.places.towns)),
      postcodes: uniq(all.flatMap((f) => f.places.postcodes)),
      districts: uniq(all.flatMap((f) => f.places.districts)),
    },
  };
}
