import { fetchUkSanctionsList } from "../../../sources/sanctions/client";
import { designationRecord, parseUkSanctionsFile } from "../../../sources/sanctions/parse";
import { type RegisterAdapter, fileDateOf, fileOf, timedFetch } from "../adapter";

/**
 * The UK sanctions list: the FCDO UK Sanctions List CSV, from SANCTIONS_LIST_URL (daily) or given to the CLI. One
 * record per designation; its edition is the list's own date (its "Report Date"). The list is small (about 5,000
 * designations), so it is parsed whole. A workbook (the retired OFSI consolidated list was an XLSX) is refused as a
 * RegisterFormatError saying which file to give (parseUkSanctionsFile).
 */
export const sanctions: RegisterAdapter = {
  chunkRows: 50_000,
  async fetch(ports) {
    const e = await fetchUkSanctionsList({ url: ports.upstreams.SANCTIONS_LIST_URL, fetchImpl: timedFetch });
    return [{ source: "sanctions", bytes: e.bytes, fileName: e.fileName, url: e.url, editionDate: null }];
  },
  parse(f) {
    const list = parseUkSanctionsFile(fileOf(f)); // checks the header now
    return {
      scope: "",
      editionDate: f.editionDate ?? list.listDate ?? fileDateOf(f),
      mode: "snapshot",
      async *records(from = 0, notes) {
        if (notes) Object.assign(notes, { individualsForMatchingOnly: list.notes.individual ?? 0 });
        for (const d of list.designations.slice(from)) yield designationRecord(d);
      },
    };
  },
  async dateOf(f) {
    return f.bytes ? parseUkSanctionsFile(f.bytes).listDate : null;
  },
};
