import { fetchHmrcMlrEdition } from "../../../sources/hmrc-mlr/client";
import { type HmrcParseStats, parseHmrcMlr } from "../../../sources/hmrc-mlr/parse";
import { CHUNK_ROWS, type ParseNotes, type RegisterAdapter, fileDateOf, fileOf, skipRecords, timedFetch } from "../adapter";

const hmrcNotes = (n: ParseNotes = {}): HmrcParseStats => Object.assign(n, { personOnlyRows: 0, personNamesRemoved: 0 });

/** HMRC's supervised business register: one spreadsheet, found on its GOV.UK page. */
export const aml: RegisterAdapter = {
  chunkRows: CHUNK_ROWS,
  async fetch(ports) {
    const e = await fetchHmrcMlrEdition({ contentApiBase: ports.upstreams.GOVUK_CONTENT_URL, pagePath: ports.upstreams.HMRC_MLR_PAGE, fetchImpl: timedFetch });
    return [{ source: "aml", bytes: e.bytes, fileName: e.fileName, url: e.url, editionDate: e.editionDate }];
  },
  parse(f) {
    const bytes = fileOf(f);
    const fileName = f.fileName ?? undefined;
    return {
      scope: "",
      editionDate: fileDateOf(f),
      mode: "snapshot",
      records: (from = 0, notes) => skipRecords(parseHmrcMlr(bytes, { fileName, stats: hmrcNotes(notes) }), from),
    };
  },
};
