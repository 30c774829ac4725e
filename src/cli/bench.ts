/** Node entry for `npm run bench` (bundled by scripts/lib.mjs): parse + diff of a large sponsors edition. */
import { EditionDiff, snapshotOf } from "../services/registers/diff";
import type { EntrySnapshot } from "../services/registers/types";
import { parseSponsors } from "../sources/sponsors/parse";

export { buildLargeSponsorsCsv } from "../sources/sponsors/synthetic";

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
