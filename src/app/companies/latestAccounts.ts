import type { Filing } from "../../services/companies/records";
import type { CompaniesHouse } from "../../sources/companies-house/client";
import type { CompaniesHouseDocuments, DocumentMetadata } from "../../sources/companies-house/documents";
import type { AccountsDocument } from "../../sources/companies-house/ixbrl";
import { InputError } from "../../shared/errors";

/**
 * The company's newest accounts filing and its tagged document, as getAccounts reads them and enrichment's size
 * signal reads its average employees: the filing history (category accounts), the filing's Document API metadata,
 * then the iXBRL/XBRL document. Companies House failing throws UpstreamError; a document that cannot be parsed is
 * `unreadable`, with the reader's InputError (each caller says what that means for it).
 */

/** A filing of the company's accounts (not a change of accounting reference date, which is also category accounts). */
export const isAccounts = (f: Filing) => f.category === "accounts" && (f.description ?? "").startsWith("accounts");

/** `accounts-with-accounts-type-micro-entity` → `micro-entity`; amended accounts alike. */
export const registerTypeOf = (f: Filing | null) => /^accounts(?:-amended)?-with-accounts-type-(.+)$/.exec(f?.description ?? "")?.[1] ?? null;

export type LatestAccounts =
  /** No accounts filed yet. */
  | { kind: "none" }
  /** Filed, but the Document API holds no document for it. */
  | { kind: "no-document"; filing: Filing; madeUpTo: string | null }
  /** Filed as a PDF only: no tagged figures. */
  | { kind: "pdf-only"; filing: Filing; madeUpTo: string | null; meta: DocumentMetadata }
  /** The tagged document could not be parsed (the reader's InputError). */
  | { kind: "unreadable"; filing: Filing; madeUpTo: string | null; meta: DocumentMetadata; error: InputError }
  | { kind: "read"; filing: Filing; madeUpTo: string | null; meta: DocumentMetadata; doc: AccountsDocument };

/** Reads the newest accounts filing of `number` as far as it can be read. */
export async function latestAccountsOf(
  services: { companiesHouse: Pick<CompaniesHouse, "getFilingHistory">; companiesHouseDocuments: Pick<CompaniesHouseDocuments, "getMetadata" | "getAccounts"> },
  number: string,
): Promise<LatestAccounts> {
  const history = await services.companiesHouse.getFilingHistory(number, { category: "accounts" });
  const filing = (history?.items ?? []).filter(isAccounts).sort((a, b) => (b.date ?? "").localeCompare(a.date ?? ""))[0] ?? null;
  if (!filing) return { kind: "none" };
  const madeUpTo = filing.descriptionValues.made_up_date ?? filing.actionDate;
  const meta = filing.documentMetadataUrl ? await services.companiesHouseDocuments.getMetadata(filing.documentMetadataUrl) : null;
  if (!meta) return { kind: "no-document", filing, madeUpTo };
  let doc: AccountsDocument | null;
  try {
    doc = await services.companiesHouseDocuments.getAccounts(meta);
  } catch (e) {
    if (e instanceof InputError) return { kind: "unreadable", filing, madeUpTo, meta, error: e };
    throw e;
  }
  return doc ? { kind: "read", filing, madeUpTo, meta, doc } : { kind: "pdf-only", filing, madeUpTo, meta };
}
