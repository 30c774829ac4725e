import type { Env } from "../env";
import type { RegisterRecord, RegisterSource } from "../services/registers/types";
import { CHARITY_TABLES, type CharityTable, type CharityTableInput, parseCharityExtract } from "../sources/charity-commission/parse";
import { charityExtractDate, charityTableStream, charityTableUrl } from "../sources/charity-commission/client";
import { fetchCqcChanges, fetchCqcLocation, fetchCqcProvider } from "../sources/cqc/client";
import { parseCqcJson, parseHscaActiveLocations } from "../sources/cqc/parse";
import { RegisterFormatError } from "../sources/format-error";
import { fetchHmrcMlrEdition } from "../sources/hmrc-mlr/client";
import { type HmrcParseStats, parseHmrcMlr } from "../sources/hmrc-mlr/parse";
import { fetchSponsorsEdition } from "../sources/sponsors/client";
import { type SponsorsParseStats, parseSponsors } from "../sources/sponsors/parse";
import { fetchSraOrganisations } from "../sources/sra/client";
import { parseSraOrganisations } from "../sources/sra/parse";
import type { ChangeWindow, RunMode } from "./pipeline";

/** One file (or assembled payload) of a register edition, as fetched or as given to the CLI. */
export interface EditionFile {
  source: RegisterSource;
  /** The file itself (every source but the charity extract)... */
  bytes?: Uint8Array;
  /** ...or, for a download read as it arrives (SRA), a function that opens a stream of it. */
  open?: () => AsyncIterable<Uint8Array>;
  /** Charity: the extract's tables (`charity` required), as bytes or as streams opened on demand. */
  tables?: Partial<Record<CharityTable, CharityTableInput>>;
  fileName: string | null;
  url: string | null;
  editionDate: string | null;
  /** CQC: the change API gives only changed entries. */
  mode?: RunMode;
  /** The edition date is the day it was fetched (the upstream publishes none), so it says nothing about which edition this is. */
  datedOnFetch?: boolean;
  /** CQC: the window of changes this file holds, and how many of its changed ids have been read (up to this file) of how many. */
  window?: ChangeWindow & { read: number; total: number };
  /** Our own sample data (npm start): never diffed against real editions. */
  sample?: boolean;
}

export interface ParsedEdition {
  scope: string;
  editionDate: string | null;
  mode: RunMode;
  /**
   * The edition's records from record index `from` on, in a fixed order, so a run can stop after any
   * number and a later invocation resume exactly there. Each call reads the file afresh. `notes`
   * collects counts of what the parser left out (e.g. rows naming only a person), for the run log.
   */
  records(from?: number, notes?: ParseNotes): AsyncIterable<RegisterRecord>;
}

/** Counts a parser keeps of rows it left out or changed (never names: SPEC §1 rule 7). */
export type ParseNotes = Record<string, number>;

const sponsorNotes = (n: ParseNotes = {}): SponsorsParseStats => Object.assign(n, { personOnlyRows: 0, personNamesRemoved: 0, duplicateRows: 0 });
const hmrcNotes = (n: ParseNotes = {}): HmrcParseStats => Object.assign(n, { personOnlyRows: 0, personNamesRemoved: 0 });

/** Drops the first `n` records (sources whose parsers cannot seek). */
async function* skipRecords(records: AsyncIterable<RegisterRecord>, n: number): AsyncGenerator<RegisterRecord> {
  let seen = 0;
  for await (const r of records) if (seen++ >= n) yield r;
}

function fileOf(f: EditionFile): Uint8Array {
  if (!f.bytes) throw new RegisterFormatError(`${f.source}: no file given`);
  return f.bytes;
}

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b;
const text = (b: Uint8Array) => new TextDecoder().decode(b.subarray(0, 4096));

/** Dates that a file name may carry (the sponsors and HMRC files do). */
const NAME_DATE = /(20\d{2})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/;

/** Parses one edition file of a source into records; the same function serves the Worker and the CLI. */
export function parseEdition(f: EditionFile): ParsedEdition {
  const fileDate = f.editionDate ?? f.fileName?.match(NAME_DATE)?.[0] ?? null;
  const fileName = f.fileName ?? undefined;
  switch (f.source) {
    case "sponsors": {
      const bytes = fileOf(f);
      const p = parseSponsors(bytes, { fileName }); // checks the header now
      return {
        scope: p.register,
        editionDate: f.editionDate ?? p.editionDate ?? fileDate,
        mode: "snapshot",
        records: (from = 0, notes) => skipRecords(parseSponsors(bytes, { fileName, stats: sponsorNotes(notes) }).records, from),
      };
    }
    case "aml": {
      const bytes = fileOf(f);
      return { scope: "", editionDate: fileDate, mode: "snapshot", records: (from = 0, notes) => skipRecords(parseHmrcMlr(bytes, { fileName, stats: hmrcNotes(notes) }), from) };
    }
    case "sra": {
      const open = f.open;
      const bytes = open ? null : fileOf(f);
      return { scope: "", editionDate: fileDate, mode: "snapshot", records: (from = 0) => skipRecords(parseSraOrganisations(open ? open() : bytes!), from) };
    }
    case "cqc": {
      const bytes = fileOf(f);
      // The HSCA Active Locations spreadsheet is a full snapshot; JSON is API detail, full or partial.
      if (isZip(bytes)) return { scope: "", editionDate: fileDate, mode: "snapshot", records: (from = 0) => skipRecords(parseHscaActiveLocations(bytes), from) };
      if (!/^\s*[[{]/.test(text(bytes))) throw new RegisterFormatError("cqc: expected the HSCA Active Locations .ods or API JSON");
      return { scope: "", editionDate: fileDate, mode: f.mode ?? "partial", records: (from = 0) => skipRecords(parseCqcJson(bytes), from) };
    }
    case "charity": {
      const tables = { ...f.tables };
      if (!tables.charity && f.bytes) tables.charity = f.bytes;
      if (!tables.charity) throw new RegisterFormatError("charity: the charity table is required");
      return { scope: "", editionDate: fileDate, mode: "snapshot", records: (from = 0) => parseCharityExtract(tables, { from }) };
    }
  }
}

/** Upstream reads of the daily job give up after this long, so a hung upstream fails the run instead of holding it. */
export const UPSTREAM_TIMEOUT_MS = 120_000;
const timedFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });

/**
 * At most this many CQC detail calls per queue message (the Worker's subrequest budget). A window with
 * more changes is read over several messages (see `EditionFile.window`).
 */
export const CQC_MAX_DETAILS = 400;

/** What a source's fetch needs beyond the source: CQC reads a window of changes. */
export interface FetchOptions {
  now?: Date;
  /** CQC: the window's start (ISO); default one day before `now`. */
  since?: string;
  /** CQC: the window's end (ISO); default `now`. */
  until?: string;
  /** CQC: changed ids of the window already read. */
  from?: number;
}


/** Finds and downloads the current edition(s) of a source, the way each format note says. */
export async function fetchEditions(env: Env, source: RegisterSource, opts: FetchOptions = {}): Promise<EditionFile[]> {
  const now = opts.now ?? new Date();
  switch (source) {
    case "sponsors": {
      const out: EditionFile[] = [];
      for (const pagePath of [env.SPONSORS_WORKERS_PAGE, env.SPONSORS_STUDENTS_PAGE]) {
        const e = await fetchSponsorsEdition({ contentApiBase: env.GOVUK_CONTENT_URL, pagePath, fetchImpl: timedFetch });
        out.push({ source, bytes: e.bytes, fileName: e.fileName, url: e.url, editionDate: e.editionDate });
      }
      return out;
    }
    case "aml": {
      const e = await fetchHmrcMlrEdition({ contentApiBase: env.GOVUK_CONTENT_URL, pagePath: env.HMRC_MLR_PAGE, fetchImpl: timedFetch });
      return [{ source, bytes: e.bytes, fileName: e.fileName, url: e.url, editionDate: e.editionDate }];
    }
    case "sra": {
      const e = await fetchSraOrganisations({ baseUrl: env.SRA_URL, apiKey: env.SRA_API_KEY, fetchImpl: timedFetch });
      return [{ source, open: () => e.open(), fileName: e.fileName, url: e.url, editionDate: e.editionDate, datedOnFetch: true }];
    }
    case "charity": {
      // The tables are far bigger than a Worker's memory: each is streamed from upstream when the parser
      // reads it (more than once: see parseCharityExtract). Only the extract's date is read here.
      const cfg = { baseUrl: env.CHARITY_EXTRACT_URL, fetchImpl: timedFetch };
      const editionDate = await charityExtractDate(cfg);
      const tables: Partial<Record<CharityTable, CharityTableInput>> = {};
      for (const t of CHARITY_TABLES) tables[t] = charityTableStream(cfg, t);
      return [{ source, tables, fileName: "publicextract.charity.txt", url: charityTableUrl(cfg, "charity"), editionDate }];
    }
    case "cqc": {
      const cfg = { baseUrl: env.CQC_URL, apiKey: env.CQC_API_KEY, fetchImpl: timedFetch };
      const start = opts.since ?? new Date(now.getTime() - 86_400_000).toISOString();
      const end = opts.until ?? now.toISOString();
      const from = opts.from ?? 0;
      const changed = [
        ...(await fetchCqcChanges(cfg, "provider", start, end)).map((id) => ({ kind: "provider" as const, id })),
        ...(await fetchCqcChanges(cfg, "location", start, end)).map((id) => ({ kind: "location" as const, id })),
      ];
      const ids = [...new Map(changed.map((c) => [`${c.kind}:${c.id}`, c])).values()];
      const part = ids.slice(from, from + CQC_MAX_DETAILS);
      const providers: unknown[] = [];
      const locations: unknown[] = [];
      for (const c of part) {
        if (c.kind === "provider") providers.push(await fetchCqcProvider(cfg, c.id));
        else locations.push(await fetchCqcLocation(cfg, c.id));
      }
      const read = from + part.length;
      const bytes = new TextEncoder().encode(JSON.stringify({ providers, locations }));
      return [
        {
          source,
          bytes,
          fileName: null,
          url: `${env.CQC_URL}/changes?${new URLSearchParams({ startTimestamp: start, endTimestamp: end })}`,
          editionDate: end.slice(0, 10),
          mode: "partial",
          datedOnFetch: true,
          window: { start, end, read, total: ids.length },
        },
      ];
    }
  }
}
