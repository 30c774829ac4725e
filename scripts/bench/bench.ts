/**
 * Node entry for `npm run bench` (scripts/bench/index.mjs bundles it through scripts/lib.mjs): parse + diff of a large sponsors edition,
 * and the streamed, bucketed parse of a full-size Charity Commission extract.
 */
import { EditionDiff, snapshotOf } from "../../src/services/registers/diff";
import type { EntrySnapshot } from "../../src/services/registers/types";
import { CHARITY_TABLES, type CharityTable, type CharityTableInput, parseCharityExtract } from "../../src/sources/charity-commission/parse";
import { syntheticCharityTable } from "./charity-synthetic";
import { parseSponsors } from "../../src/sources/sponsors/parse";

export { buildLargeSponsorsCsv } from "./sponsors-synthetic";

/** The published edition's state, as the pipeline reads it from D1 (fresh, flat strings). */
export async function publishedState(csv: string): Promise<EntrySnapshot[]> {
  const out: EntrySnapshot[] = [];
  for await (const r of parseSponsors(csv).records) out.push(snapshotOf(r));
  return JSON.parse(JSON.stringify(out)) as EntrySnapshot[];
}

/**
 * Parses edition B and diffs it, record by record, against the published state of edition A, as the
 * daily run does. Returns rows per second and the peak memory seen while doing it. The memory run
 * collects garbage before each sample, so it reports live memory (what an isolate's limit applies to);
 * the timing run does not sample.
 */
export async function benchParseDiff(previous: EntrySnapshot[], b: string, opts: { measureMemory?: boolean } = {}) {
  const gc = (globalThis as { gc?: () => void }).gc;
  const mem = () => {
    gc?.();
    return process.memoryUsage();
  };
  const base = opts.measureMemory ? mem() : process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const sample = () => {
    if (!opts.measureMemory) return;
    const m = mem();
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
    if (m.rss > peakRss) peakRss = m.rss;
  };
  const started = performance.now();
  const diff = new EditionDiff(previous, { source: "sponsors" });
  let rows = 0;
  for await (const r of parseSponsors(b).records) {
    diff.add(r);
    if (++rows % 10_000 === 0) sample();
  }
  const result = diff.finish();
  sample();
  const ms = performance.now() - started;
  const mb = (n: number) => +(n / 2 ** 20).toFixed(1);
  return {
    rows,
    ms: Math.round(ms),
    rowsPerSecond: Math.round((rows / ms) * 1000),
    changes: result.changes.length,
    byKind: result.changes.reduce<Record<string, number>>((acc, c) => ((acc[c.kind] = (acc[c.kind] ?? 0) + 1), acc), {}),
    baselineHeapMB: mb(base.heapUsed),
    peakHeapMB: mb(peakHeap),
    peakRssMB: mb(peakRss),
  };
}

/**
 * Parses a synthetic extract of `charities` main charities (every table streamed, nothing held), as
 * the daily job does, and reports records per second, bucket count and peak live heap.
 */
export async function benchCharityExtract(charities: number, opts: { measureMemory?: boolean; bucketRecords?: number } = {}) {
  const gc = (globalThis as { gc?: () => void }).gc;
  const tables: Partial<Record<CharityTable, CharityTableInput>> = {};
  for (const t of CHARITY_TABLES) tables[t] = syntheticCharityTable(t, charities);
  gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const started = performance.now();
  let records = 0;
  for await (const r of parseCharityExtract(tables, { bucketRecords: opts.bucketRecords })) {
    if (!r.key) throw new Error("record without key");
    if (opts.measureMemory && ++records % 5_000 === 0) {
      gc?.();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    } else if (!opts.measureMemory) records++;
  }
  const ms = performance.now() - started;
  const mb = (n: number) => +(n / 2 ** 20).toFixed(1);
  return {
    charities,
    records,
    seconds: +(ms / 1000).toFixed(1),
    recordsPerSecond: Math.round((records / ms) * 1000),
    baselineHeapMB: mb(base),
    peakHeapMB: mb(peak),
  };
}
