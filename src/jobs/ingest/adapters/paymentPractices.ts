import { fetchPaymentPracticesExport } from "../../../sources/payment-practices/client";
import {
  type PaymentPracticesInput,
  checkPaymentPracticesHeader,
  paymentPracticesEditionDate,
  parsePaymentPractices,
} from "../../../sources/payment-practices/parse";
import { CHUNK_ROWS, type EditionFile, type RegisterAdapter, fileDateOf, fileOf } from "../adapter";

/** The export is about 100 MB, read as it arrives: the time limit covers the body too. */
const EXPORT_TIMEOUT_MS = 10 * 60_000;
const exportFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(EXPORT_TIMEOUT_MS) });

/** The export as the parser reads it: the download's own stream (opened again for each pass), or the bytes given. */
function inputOf(f: EditionFile): PaymentPracticesInput {
  if (f.open) {
    const open = f.open;
    return () => open();
  }
  const bytes = fileOf(f);
  return () => bytes;
}

/**
 * Payment practices reports (issue 14 §1): the Check payment practices service's whole export, daily, one
 * entry per report (company and reporting period). The parser reads the file twice per chunk, streamed (a
 * scan that picks one row per report, then the read; see src/sources/payment-practices/parse.ts). The export
 * carries no date: fetched, the edition is the day of the fetch; given to the CLI, its latest filing date.
 */
export const paymentPractices: RegisterAdapter = {
  chunkRows: CHUNK_ROWS,
  async fetch(ports) {
    const e = await fetchPaymentPracticesExport({ url: ports.upstreams.PAYMENT_PRACTICES_URL, fetchImpl: exportFetch });
    return [{ source: "payment-practices", open: () => e.open(), fileName: e.fileName, url: e.url, editionDate: e.editionDate, datedOnFetch: true }];
  },
  parse(f) {
    if (f.bytes) checkPaymentPracticesHeader(f.bytes); // a stream's header is checked as it is read
    const input = inputOf(f);
    return { scope: "", editionDate: fileDateOf(f), mode: "snapshot", records: (from = 0, notes) => parsePaymentPractices(input, { from, notes }) };
  },
  async dateOf(f) {
    return f.bytes || f.open ? paymentPracticesEditionDate(inputOf(f)) : null;
  },
};
