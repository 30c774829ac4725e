import { fetchSraOrganisations } from "../../../sources/sra/client";
import { parseSraOrganisations } from "../../../sources/sra/parse";
import { CHUNK_ROWS, type RegisterAdapter, fileDateOf, fileOf, skipRecords, timedFetch } from "../adapter";

/**
 * The SRA's register of organisations: one large JSON download, read as it arrives. It carries no
 * date, so the edition is the day it was fetched.
 */
export const sra: RegisterAdapter = {
  chunkRows: CHUNK_ROWS,
  async fetch(ports) {
    const e = await fetchSraOrganisations({ baseUrl: ports.upstreams.SRA_URL, apiKey: ports.upstreams.SRA_API_KEY, fetchImpl: timedFetch });
    return [{ source: "sra", open: () => e.open(), fileName: e.fileName, url: e.url, editionDate: e.editionDate, datedOnFetch: true }];
  },
  parse(f) {
    const open = f.open;
    const bytes = open ? null : fileOf(f);
    return { scope: "", editionDate: fileDateOf(f), mode: "snapshot", records: (from = 0) => skipRecords(parseSraOrganisations(open ? open() : bytes!), from) };
  },
};
