import { firstRows } from "../../../sources/delimited";
import { fetchGenderPayGapYear } from "../../../sources/gender-pay-gap/client";
import { latestSubmissionOf, parseGenderPayGap, reportingYearOn } from "../../../sources/gender-pay-gap/parse";
import { CHUNK_ROWS, type EditionFile, type RegisterAdapter, fileDateOf, fileOf, skipRecords, timedFetch } from "../adapter";

/**
 * Gender pay gap data (Government Equalities Office): one CSV per reporting year, each year its own
 * scope ("2021" for 2021 to 2022), so a file of one year replaces only that year. The daily job reads
 * the year before the current one (late filings and resubmissions keep arriving for it) and the
 * current one, skipped while the service has nothing for it yet (no file, or a header only); older
 * years are loaded with `npm run ingest -- gender-pay-gap <file-or-url>`. The files carry no edition
 * date: the daily job's edition is the day it fetched them, the CLI's the day of the file's newest
 * submission (or --date).
 */
export const genderPayGap: RegisterAdapter = {
  chunkRows: CHUNK_ROWS,
  async fetch(ports, _job, now) {
    const current = reportingYearOn(now);
    const day = now.toISOString().slice(0, 10);
    const out: EditionFile[] = [];
    for (const year of [current - 1, current]) {
      const e = await fetchGenderPayGapYear({ baseUrl: ports.upstreams.GENDER_PAY_GAP_URL, year, optional: year === current, fetchImpl: timedFetch });
      if (!e || (year === current && firstRows(e.bytes, ",", 2).length < 2)) continue; // the current year, not published yet
      out.push({ source: "gender-pay-gap", bytes: e.bytes, fileName: e.fileName, url: e.url, editionDate: day, datedOnFetch: true });
    }
    return out;
  },
  parse(f) {
    const bytes = fileOf(f);
    const name = { fileName: f.fileName, url: f.url };
    const p = parseGenderPayGap(bytes, name); // checks the header and the year now
    return {
      scope: p.year,
      editionDate: f.editionDate ?? fileDateOf(f),
      mode: "snapshot",
      records: (from = 0, notes) => skipRecords(parseGenderPayGap(bytes, { ...name, notes }).records, from),
    };
  },
  async dateOf(f) {
    // A file that is not one is refused by parse, with the run logged: here it has no date.
    return f.bytes ? latestSubmissionOf(f.bytes).catch(() => null) : null;
  },
};
