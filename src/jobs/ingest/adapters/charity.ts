import { charityExtractDate, charityTableStream, charityTableUrl } from "../../../sources/charity-commission/client";
import {
  CHARITY_BUCKET_RECORDS,
  CHARITY_TABLES,
  type CharityTable,
  type CharityTableInput,
  extractDateOf,
  parseCharityExtract,
} from "../../../sources/charity-commission/parse";
import { RegisterFormatError } from "../../../sources/format-error";
import { type RegisterAdapter, fileDateOf, timedFetch } from "../adapter";

/**
 * The Charity Commission's register extract: one file per table, each far bigger than a Worker's
 * memory, read as streams (see parseCharityExtract). Its date is the extract's own (date_of_extract).
 */
export const charity: RegisterAdapter = {
  // One bucket of charities per invocation: each bucket streams every table again, which is what fits
  // a queue invocation's CPU time.
  chunkRows: CHARITY_BUCKET_RECORDS,
  async fetch(ports) {
    // The tables are streamed from upstream when the parser reads them (more than once); only the
    // extract's date is read here.
    const cfg = { baseUrl: ports.upstreams.CHARITY_EXTRACT_URL, fetchImpl: timedFetch };
    const editionDate = await charityExtractDate(cfg);
    const tables: Partial<Record<CharityTable, CharityTableInput>> = {};
    for (const t of CHARITY_TABLES) tables[t] = charityTableStream(cfg, t);
    return [{ source: "charity", tables, fileName: "publicextract.charity.txt", url: charityTableUrl(cfg, "charity"), editionDate }];
  },
  parse(f) {
    const tables = { ...f.tables };
    if (!tables.charity && f.bytes) tables.charity = f.bytes;
    if (!tables.charity) throw new RegisterFormatError("charity: the charity table is required");
    return { scope: "", editionDate: fileDateOf(f), mode: "snapshot", records: (from = 0) => parseCharityExtract(tables, { from }) };
  },
  async dateOf(f) {
    const main = f.tables?.charity ?? f.bytes;
    return main ? extractDateOf(main) : null;
  },
};
