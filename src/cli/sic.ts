/**
 * Node entry for `npm run ingest -- sic …` (bundled by scripts/lib.mjs; scripts/sic.mjs reads the files): loads the
 * SIC 2007 lists of the industry classifier (issue 18) into the local COMPANIES_DB that `npm start` serves. The files
 * are told apart by their header (the condensed list's `SIC Code,Description`, the index's mongoimport header) and,
 * between the two index files, by name (CH's own is `ch_created_activity_sic_codes.csv`). No Node API here: the
 * tests run it in the Workers runtime.
 */
import type { Env } from "../env";
import { type SicIndexRow, parseActivityIndex, parseCondensedList } from "../services/enrich/sic";
import { type SicIndexState, replaceSicIndex } from "../db/sicIndex";

export interface SicFile {
  name: string;
  text: string;
}

export interface SicLoadResult {
  outcome: "loaded" | "refused";
  reason: string | null;
  listRows: number;
  indexRows: number;
  chRows: number;
  /** Blank lines skipped in the index files (the real index has two). */
  blankLines: number;
  state: SicIndexState | null;
}

const firstLine = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/, 1)[0]
    .trim()
    .toLowerCase();

/** Which file is which: exactly one condensed list and one index; CH's own index file is optional. */
export function sortSicFiles(files: SicFile[]): { list: SicFile; index: SicFile; ch: SicFile | null } {
  const lists = files.filter((f) => firstLine(f.text).startsWith("sic code,"));
  const indexes = files.filter((f) => firstLine(f.text).startsWith("sic_code"));
  const unknown = files.filter((f) => !lists.includes(f) && !indexes.includes(f));
  if (unknown.length)
    throw new Error(`sic: ${unknown.map((f) => f.name).join(", ")} is neither the condensed list (SIC Code,Description) nor the index (sic_code.string(),…)`);
  const ch = indexes.filter((f) => /ch_created/i.test(f.name));
  const index = indexes.filter((f) => !ch.includes(f));
  if (lists.length !== 1 || index.length !== 1 || ch.length > 1) {
    throw new Error(
      `sic: give one condensed list (SIC07_CH_condensed_list_en.csv), one index (ons_economic_activities_alphabetic_index.csv) and optionally ch_created_activity_sic_codes.csv; got ${files.map((f) => f.name).join(", ")}`,
    );
  }
  return { list: lists[0], index: index[0], ch: ch[0] ?? null };
}

/** Parses the files and replaces the loaded lists with them (a sample is refused over the published lists). */
export async function loadSic(env: Env, files: SicFile[], { sample = false }: { sample?: boolean } = {}): Promise<SicLoadResult> {
  const sorted = sortSicFiles(files);
  const list = parseCondensedList(sorted.list.text);
  const index = parseActivityIndex(sorted.index.text);
  const ch = sorted.ch ? parseActivityIndex(sorted.ch.text) : { rows: [] as SicIndexRow[], blankLines: 0 };
  const r = await replaceSicIndex(
    env.COMPANIES_DB,
    { list, index: index.rows, ch: ch.rows },
    { files: [sorted.list, sorted.index, ...(sorted.ch ? [sorted.ch] : [])].map((f) => f.name), sample },
  );
  return { ...r, listRows: list.length, indexRows: index.rows.length, chRows: ch.rows.length, blankLines: index.blankLines + ch.blankLines };
}
