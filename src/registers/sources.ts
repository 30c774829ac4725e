import type { Env } from "../env";
import type { RegisterRecord, RegisterSource } from "../services/registers/types";
import { CHARITY_EXTRA_TABLES, type CharityTable, parseCharityExtract } from "../sources/charity-commission/parse";
import { fetchCharityTable } from "../sources/charity-commission/client";
import { fetchCqcChanges, fetchCqcLocation, fetchCqcProvider } from "../sources/cqc/client";
import { parseCqcJson, parseHscaActiveLocations } from "../sources/cqc/parse";
import { RegisterFormatError } from "../sources/format-error";
import { fetchHmrcMlrEdition } from "../sources/hmrc-mlr/client";
import { parseHmrcMlr } from "../sources/hmrc-mlr/parse";
import { fetchSponsorsEdition } from "../sources/sponsors/client";
import { parseSponsors } from "../sources/sponsors/parse";
import { fetchSraOrganisations } from "../sources/sra/client";
import { parseSraOrganisations } from "../sources/sra/parse";
import type { RunMode } from "./pipeline";

/** One file (or assembled payload) of a register edition, as fetched or as given to the CLI. */
export interface EditionFile {
  source: RegisterSource;
  bytes: Uint8Array;
  fileName: string | null;
  url: string | null;
  editionDate: string | null;
  /** CQC: the change API gives only changed entries. */
  mode?: RunMode;
  /** Charity: the other tables of the extract, beside the `charity` table in `bytes`. */
  extraTables?: Partial<Record<CharityTable, Uint8Array>>;
}

export interface ParsedEdition {
  scope: string;
  editionDate: string | null;
  mode: RunMode;
  records: AsyncIterable<RegisterRecord>;
}

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b;
const text = (b: Uint8Array) => new TextDecoder().decode(b.subarray(0, 4096));

/** Dates that a file name may carry (the sponsors and HMRC files do). */
const NAME_DATE = /(20\d{2})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/;

/** Parses one edition file of a source into records; the same function serves the Worker and the CLI. */
export function parseEdition(f: EditionFile): ParsedEdition {
  const fileDate = f.editionDate ?? f.fileName?.match(NAME_DATE)?.[0] ?? null;
  switch (f.source) {
    case "sponsors": {
      const p = parseSponsors(f.bytes, { fileName: f.fileName ?? undefined });
      return { scope: p.register, editionDate: f.editionDate ?? p.editionDate ?? fileDate, mode: "snapshot", records: p.records };
    }
    case "aml":
      return { scope: "", editionDate: fileDate, mode: "snapshot", records: parseHmrcMlr(f.bytes, { fileName: f.fileName ?? undefined }) };
    case "sra":
      return { scope: "", editionDate: fileDate, mode: "snapshot", records: parseSraOrganisations(f.bytes) };
    case "cqc": {
      // The HSCA Active Locations spreadsheet is a full snapshot; JSON is API detail, full or partial.
      if (isZip(f.bytes)) return { scope: "", editionDate: fileDate, mode: "snapshot", records: parseHscaActiveLocations(f.bytes) };
      if (!/^\s*[[{]/.test(text(f.bytes))) throw new RegisterFormatError("cqc: expected the HSCA Active Locations .ods or API JSON");
      return { scope: "", editionDate: fileDate, mode: f.mode ?? "partial", records: parseCqcJson(f.bytes) };
    }
    case "charity":
      return { scope: "", editionDate: fileDate, mode: "snapshot", records: parseCharityExtract({ ...f.extraTables, charity: f.bytes }) };
  }
}

/** Upstream reads of the daily job give up after this long, so a hung upstream fails the run instead of holding it. */
export const UPSTREAM_TIMEOUT_MS = 120_000;
const timedFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });

/** At most this many CQC detail calls in one daily run (Worker subrequest budget); the rest wait a day. */
export const CQC_MAX_DETAILS = 400;


/** Finds and downloads the current edition(s) of a source, the way each format note says. */
export async function fetchEditions(env: Env, source: RegisterSource, opts: { since?: string; now?: Date } = {}): Promise<EditionFile[]> {
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
      return [{ source, bytes: e.bytes, fileName: e.fileName, url: e.url, editionDate: e.editionDate }];
    }
    case "charity": {
      const cfg = { baseUrl: env.CHARITY_EXTRACT_URL, fetchImpl: timedFetch };
      const main = await fetchCharityTable(cfg, "charity");
      const extraTables: Partial<Record<CharityTable, Uint8Array>> = {};
      for (const t of CHARITY_EXTRA_TABLES) extraTables[t] = (await fetchCharityTable(cfg, t)).bytes;
      return [{ source, bytes: main.bytes, fileName: main.fileName, url: main.url, editionDate: main.editionDate, extraTables }];
    }
    case "cqc": {
      const cfg = { baseUrl: env.CQC_URL, apiKey: env.CQC_API_KEY, fetchImpl: timedFetch };
      const start = opts.since ?? new Date(now.getTime() - 86_400_000).toISOString();
      const end = now.toISOString();
      const providerIds = await fetchCqcChanges(cfg, "provider", start, end);
      const locationIds = await fetchCqcChanges(cfg, "location", start, end);
      const providers: unknown[] = [];
      const locations: unknown[] = [];
      let budget = CQC_MAX_DETAILS;
      for (const id of providerIds) if (budget-- > 0) providers.push(await fetchCqcProvider(cfg, id));
      for (const id of locationIds) if (budget-- > 0) locations.push(await fetchCqcLocation(cfg, id));
      const bytes = new TextEncoder().encode(JSON.stringify({ providers, locations }));
      return [{ source, bytes, fileName: null, url: `${env.CQC_URL}/changes`, editionDate: end.slice(0, 10), mode: "partial" }];
    }
  }
}
