/**
 * Contract awards ingest (issue 14 §4): one synthetic day of Find a Tender award releases (default 1,500, in
 * pages of 100 linked by `links.next` cursors) built from the real release shapes in ../shared (the four real
 * Contracts Finder award releases, given FTS OCIDs and notice ids, every supplier its own party id and number,
 * every fifth supplier a GB-PPON identifier with its GB-COH number among its additionalIdentifiers), else from our
 * FTS fixture. Measured as the daily job does it:
 * 1. the client's read: every page served from memory (no network) through `fetchReleasePages`, which parses each
 *    page and cuts its releases down (`slimRelease`);
 * 2. the parse of the day's file into register records (`parseContracts` + `contractRecord`);
 * 3. given `load` (scripts/bench/index.mjs passes one that runs `npm run ingest` against a fresh local D1), the
 *    whole pipeline for the day (the baseline), then the next day: as many new releases, and a tenth of the
 *    first day's awards updated (cancelled).
 * 4. tender-match's ranking (issue 18 §2, pure): 5,000 synthetic open and closed tender notices ranked for an IT
 *    consultancy (SIC 62020) with its keywords, as the operation ranks its candidates.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fetchReleasePages } from "../../src/sources/contracts/client";
import { contractRecord, parseContracts } from "../../src/sources/contracts/parse";
import { cpvForSicCodes } from "../../src/services/contracts/cpvForSic";
import { type TenderNotice, keywordsFrom, rankTenders } from "../../src/services/contracts/tenderMatch";

type Obj = Record<string, any>;

/** The real award releases (../shared), else the FTS fixture's. */
function templates(root: string): { releases: Obj[]; from: string } {
  const dir = join(root, "..", "shared", "data", "contracts-finder-fts");
  const real = [117, 122, 124, 17].map((n) => join(dir, `cf-ocds-release-release${n}.json`));
  if (real.every(existsSync))
    return { releases: real.map((f) => JSON.parse(readFileSync(f, "utf8"))), from: "the four real Contracts Finder award releases (../shared)" };
  const fixture = join(root, "test/fixtures/hosts/fts.test/api/1.0/ocdsReleasePackages/index.json");
  return { releases: JSON.parse(readFileSync(fixture, "utf8")).releases, from: "the repo's FTS fixture releases" };
}

/** Release `n` of a day: a template re-identified as an FTS notice with its own suppliers. */
function syntheticRelease(t: Obj, n: number, day: string): Obj {
  const ocid = `ocds-h6vhtk-${(0x400000 + n).toString(16)}`;
  const r: Obj = structuredClone(t);
  const rename = new Map<string, string>();
  r.ocid = ocid;
  r.id = `${String(100_000 + n).slice(-6)}-2026`;
  r.date = new Date(Date.parse(`${day}T00:00:00Z`) + (n % 1440) * 60_000).toISOString();
  r.parties = (r.parties ?? []).map((p: Obj, i: number) => {
    if (!(p.roles ?? []).includes("supplier")) return p;
    const number = String(10_000_000 + n * 20 + i);
    const ppon = i % 5 === 0;
    const id = ppon ? `GB-PPON-P${String(n).padStart(3, "0")}-${i}-BNCH` : `GB-COH-${number}`;
    rename.set(p.id, id);
    const name = `${p.name} ${n}`;
    return {
      ...p,
      id,
      name,
      identifier: ppon ? { scheme: "GB-PPON", id: id.slice(8), legalName: name } : { scheme: "GB-COH", id: number, legalName: name },
      ...(ppon ? { additionalIdentifiers: [{ scheme: "GB-COH", id: number }] } : {}),
    };
  });
  r.awards = (r.awards ?? []).map((a: Obj) => ({
    ...a,
    id: "1",
    suppliers: a.suppliers.map((s: Obj) => ({ id: rename.get(s.id) ?? s.id, name: `${s.name} ${n}` })),
  }));
  return r;
}

/** A day of `count` releases as FTS pages of 100, each linking to the next by a cursor. */
function buildDay(base: Obj[], count: number, day: string, first = 0): Map<string, string> {
  const pages = new Map<string, string>();
  const total = Math.ceil(count / 100);
  for (let p = 0; p < total; p++) {
    const releases = Array.from({ length: Math.min(100, count - p * 100) }, (_, i) =>
      syntheticRelease(base[(first + p * 100 + i) % base.length], first + p * 100 + i, day),
    );
    const key = p === 0 ? "first" : `c${p}`;
    const next = p + 1 < total ? { next: `https://fts.bench/api/1.0/ocdsReleasePackages?cursor=c${p + 1}` } : {};
    pages.set(
      key,
      JSON.stringify({
        uri: "bench",
        publisher: { name: "Cabinet Office", scheme: "GB-GOR", uid: "D2" },
        publishedDate: `${day}T23:59:00Z`,
        version: "1.1",
        releases,
        links: next,
      }),
    );
  }
  return pages;
}

/** A fetch that answers the pages from memory, by cursor. */
const servePages =
  (pages: Map<string, string>): typeof fetch =>
  async (input) => {
    const u = new URL(input instanceof Request ? input.url : String(input));
    const body = pages.get(u.searchParams.get("cursor") ?? "first");
    return body ? new Response(body, { headers: { "content-type": "application/json" } }) : new Response("not found", { status: 404 });
  };

const ms = (t: number) => Math.round(performance.now() - t);

export async function benchContracts(
  root: string,
  opts: {
    releases?: number;
    load?: (file: string) => Promise<{ outcome: string; rowsRead: number; changes: number; byKind: Record<string, number>; reason?: string | null }>;
  } = {},
) {
  const count = opts.releases ?? 1_500;
  const { releases: base, from } = templates(root);
  const day1 = buildDay(base, count, "2026-10-07");
  const rawBytes = [...day1.values()].reduce((n, p) => n + Buffer.byteLength(p), 0);

  // 1. The client's read of the day: 15 pages, parsed and cut down as they arrive.
  const cfg = { ftsUrl: "https://fts.bench", cfUrl: "https://cf.bench", fetchImpl: servePages(day1), maxPages: 1000 };
  let t = performance.now();
  const read = await fetchReleasePages(cfg, "fts", "https://fts.bench/api/1.0/ocdsReleasePackages?updatedFrom=2026-10-07T00:00:00&stages=award&limit=100");
  const readMs = ms(t);
  const file = JSON.stringify({ publishedDate: "2026-10-08T04:00:00.000Z", releases: read.releases });

  // 2. The parse into register records.
  t = performance.now();
  const parsed = parseContracts(file);
  const records = parsed.awards.map(contractRecord);
  const parseMs = ms(t);

  const out: Record<string, unknown> = {
    builtFrom: from,
    releases: count,
    pages: read.pages,
    pageBytes: rawBytes,
    slimBytes: Buffer.byteLength(file),
    records: records.length,
    withCompanyNumber: records.filter((r) => r.companyNumber).length,
    readMs,
    parseMs,
    releasesPerSecond: Math.round(count / ((readMs + parseMs) / 1000)),
    recordsPerSecond: Math.round(records.length / (parseMs / 1000)),
  };

  out.tenderMatch = benchTenderMatch(5_000);

  // 3. Into D1 through the whole pipeline: the day, then the next day (new releases and a tenth of day 1 cancelled).
  if (opts.load) {
    const dir = join(root, ".bench", "contracts");
    mkdirSync(dir, { recursive: true });
    const day1File = join(dir, "fts-2026-10-07.json");
    writeFileSync(day1File, file);
    const day2 = await fetchReleasePages({ ...cfg, fetchImpl: servePages(buildDay(base, count, "2026-10-08", count)) }, "fts", "https://fts.bench/x");
    const cancelled = read.releases
      .filter((_, i) => i % 10 === 0)
      .map((r) => ({ ...r, id: `${r.id}-u`, date: "2026-10-08T20:00:00.000Z", awards: (r.awards as Obj[]).map((a) => ({ ...a, status: "cancelled" })) }));
    const day2File = join(dir, "fts-2026-10-08.json");
    writeFileSync(day2File, JSON.stringify({ publishedDate: "2026-10-09T04:00:00.000Z", releases: [...day2.releases, ...cancelled] }));
    const loads = [];
    for (const f of [day1File, day2File]) {
      t = performance.now();
      const r = await opts.load(f);
      const s = (performance.now() - t) / 1000;
      loads.push({
        file: f.split("/").pop(),
        outcome: r.outcome,
        rows: r.rowsRead,
        changes: r.changes,
        byKind: r.byKind,
        seconds: +s.toFixed(1),
        rowsPerSecond: Math.round(r.rowsRead / s),
      });
    }
    out.ingestIntoD1 = {
      note: "npm run ingest into a fresh local D1 (getPlatformProxy): parse, staging, diff, write, publish; the seconds include the CLI's start-up",
      loads,
    };
  }
  return out;
}

/** Tender notice `n` of a synthetic pool: CPV codes, words, deadlines and statuses spread so some fit, some are closed. */
function syntheticTender(n: number): TenderNotice {
  const cpv = ["72220000", "72300000", "79100000", "45421000", "85311000", "90910000", "48000000", "72253000", "80500000", "55520000"];
  const words = [
    "software support",
    "data analytics",
    "legal advice",
    "joinery works",
    "care placements",
    "cleaning",
    "consultancy",
    "training",
    "catering",
    "cloud hosting",
  ];
  return {
    source: n % 2 ? "FTS" : "CF",
    ocid: `ocds-h6vhtk-${(0x500000 + n).toString(16)}`,
    noticeId: `${String(200_000 + n).slice(-6)}-2026`,
    releaseDate: "2026-11-10T09:00:00Z",
    noticeUrl: `https://www.find-tender.service.gov.uk/Notice/${String(200_000 + n).slice(-6)}-2026`,
    title: `${words[n % 10]} for the council, lot ${n}`,
    description: `The buyer seeks ${words[(n * 7) % 10]} and ${words[(n * 3) % 10]} services across its estate. Lot ${n}.`,
    buyer: "Bench Borough Council",
    cpv: [
      { id: cpv[n % 10], description: null },
      { id: cpv[(n * 3) % 10], description: null },
    ],
    value: { amount: 10_000 + (n % 97) * 1_000, min: null, max: null, currency: "GBP" },
    status: n % 17 === 0 ? "cancelled" : "active",
    deadline: n % 13 === 0 ? null : new Date(Date.parse("2026-11-01T12:00:00Z") + (n % 120) * 86_400_000).toISOString(),
    suitability: { sme: n % 3 === 0, vcse: null },
    regions: [["UKH1", "TLK", "South West", "UKI"][n % 4]],
    published: "2026-11-01T09:00:00Z",
    category: "services",
    closedBy: null,
  };
}

/** tender-match's ranking of `count` notices for SIC 62020 with its keywords (median of five runs). */
export function benchTenderMatch(count: number) {
  const tenders = Array.from({ length: count }, (_, n) => syntheticTender(n));
  const cpv = cpvForSicCodes(["62020"]).map((t) => ({
    prefix: t.prefix,
    description: t.description,
    fromSic: t.fromSic,
    sicDescription: "Information technology consultancy activities",
  }));
  const keywords = ["data analytics", ...keywordsFrom(["Information technology consultancy activities"])];
  const times: number[] = [];
  let offered = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    offered = rankTenders({ cpv, keywords, postcode: "NR2 4PX", today: "2026-11-20", now: "2026-11-20T10:00:00Z", tenders }).length;
    times.push(performance.now() - t);
  }
  const median = times.sort((a, b) => a - b)[2];
  return { tenders: count, offered, rankMs: Math.round(median), microsecondsPerTender: +((median * 1000) / count).toFixed(1) };
}
