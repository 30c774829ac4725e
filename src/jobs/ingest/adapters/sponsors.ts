import { fetchSponsorsEdition } from "../../../sources/sponsors/client";
import { type SponsorsParseStats, parseSponsors } from "../../../sources/sponsors/parse";
import { CHUNK_ROWS, type EditionFile, type ParseNotes, type RegisterAdapter, fileDateOf, fileOf, skipRecords, timedFetch } from "../adapter";

const sponsorNotes = (n: ParseNotes = {}): SponsorsParseStats => Object.assign(n, { personOnlyRows: 0, personNamesRemoved: 0, duplicateRows: 0 });

/**
 * Home Office register of licensed sponsors: two CSVs (workers, students), each found on its GOV.UK
 * page; the file's header says which register it is (the run's scope).
 */
export const sponsors: RegisterAdapter = {
  chunkRows: CHUNK_ROWS,
  async fetch(ports) {
    const out: EditionFile[] = [];
    for (const pagePath of [ports.upstreams.SPONSORS_WORKERS_PAGE, ports.upstreams.SPONSORS_STUDENTS_PAGE]) {
      const e = await fetchSponsorsEdition({ contentApiBase: ports.upstreams.GOVUK_CONTENT_URL, pagePath, fetchImpl: timedFetch });
      out.push({ source: "sponsors", bytes: e.bytes, fileName: e.fileName, url: e.url, editionDate: e.editionDate });
    }
    return out;
  },
  parse(f) {
    const bytes = fileOf(f);
    const fileName = f.fileName ?? undefined;
    const p = parseSponsors(bytes, { fileName }); // checks the header now
    return {
      scope: p.register,
      editionDate: f.editionDate ?? p.editionDate ?? fileDateOf(f),
      mode: "snapshot",
      records: (from = 0, notes) => skipRecords(parseSponsors(bytes, { fileName, stats: sponsorNotes(notes) }).records, from),
    };
  },
};
