import { companiesEdition } from "../../../db/companies";
import { type BulkParseStats, bulkEditionDateOf, parseBasicCompanyData } from "../../../sources/companies-house/bulk";
import { csvOfZip, findBulkEdition, isZip } from "../../../sources/companies-house/bulkDownload";
import type { DelimitedInput } from "../../../sources/delimited";
import { type EditionFile, type ParseNotes, type RegisterAdapter, fileOf } from "../adapter";
import { companiesStore } from "../stores/companies";

const bulkNotes = (n: ParseNotes = {}): BulkParseStats => Object.assign(n, { badNumberRows: 0, namelessRows: 0, shortRows: 0 });

/** A download of the whole file is read for minutes, not seconds: the time limit covers the body too. */
const BULK_TIMEOUT_MS = 14 * 60_000;
const bulkFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(BULK_TIMEOUT_MS) });

/** The CSV of an edition file: a zip is inflated as it is read; a CSV is read as it is. */
function csvOf(f: EditionFile): () => DelimitedInput {
  if (f.open) {
    const open = f.open;
    return () => open(); // the source's own stream (the monthly download is inflated by its client)
  }
  const bytes = fileOf(f);
  if (!isZip(bytes)) return () => bytes;
  return () => csvOfZip(new Blob([bytes]).stream());
}

/**
 * Companies House Basic Company Data: every live company, monthly, one CSV of about 5.7 million rows
 * (a 0.5 GB zip). Stored in the companies database by its own store (diffed in SQL). Each queue message
 * reads the file from its start, skipping unparsed what earlier messages staged, so a message stages up
 * to two million companies.
 */
export const companies: RegisterAdapter = {
  chunkRows: 2_000_000,
  store: companiesStore,
  async fetch(ports, _job, now) {
    const published = await companiesEdition(ports.companiesDb);
    // Nothing to read until a newer monthly file is out (sample data is replaced by any real edition).
    const e = await findBulkEdition(
      { baseUrl: ports.upstreams.COMPANIES_HOUSE_BULK_URL, fetchImpl: bulkFetch },
      now,
      published?.sample ? null : (published?.editionDate ?? null),
    );
    return e ? [{ source: "companies", open: () => e.open(), fileName: e.fileName, url: e.url, editionDate: e.editionDate }] : [];
  },
  parse(f) {
    const input = csvOf(f);
    return {
      scope: "",
      editionDate: f.editionDate ?? bulkEditionDateOf(f.fileName),
      mode: "snapshot",
      records: (from = 0, notes) => parseBasicCompanyData(input(), { from, stats: bulkNotes(notes) }),
    };
  },
  async dateOf(f) {
    return bulkEditionDateOf(f.fileName);
  },
};
