/**
 * Gender pay gap ingest parse (issue 14 §4): a full-size reporting year (about 10,500 employers, as the
 * real 2021 to 2022 file has) built from the real rows in ../shared, each repeated with its own employer
 * id, name and company number (public bodies keep a blank one), every field quoted and the SIC lists
 * spanning lines as in the real file. Parsed as the daily job parses it: rows per second, and the peak
 * live heap (GC before each sample, every 1,000 rows). Without ../shared it says so and measures nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { delimitedRowBatches } from "../../src/sources/delimited";
import { parseGenderPayGap } from "../../src/sources/gender-pay-gap/parse";

const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;

/** A year's file of `employers` rows from the real sample rows, varied. */
export async function buildGenderPayGapYear(sample: string, employers: number): Promise<string> {
  const rows: string[][] = [];
  for await (const batch of delimitedRowBatches(sample, ",")) rows.push(...batch);
  const [header, ...real] = rows;
  const col = (name: string) => header.indexOf(name);
  const [id, name, current, number] = [col("EmployerId"), col("EmployerName"), col("CurrentName"), col("CompanyNumber")];
  const out = [header.map(quote).join(",")];
  for (let i = 0; i < employers; i++) {
    const r = [...real[i % real.length]];
    const copy = Math.floor(i / real.length);
    r[id] = String(100_000 + i);
    if (copy) {
      r[name] = `${r[name]} ${copy}`;
      r[current] = `${r[current]} ${copy}`;
      if (r[number].trim()) r[number] = /^[A-Z]{2}/i.test(r[number]) ? `${r[number].slice(0, 2)}${String(100_000 + i).slice(-6)}` : String(20_000_000 + i);
    }
    out.push(r.map(quote).join(","));
  }
  return `${out.join("\n")}\n`;
}

export async function benchGenderPayGap(root: string, employers = 10_500) {
  const file = join(root, "..", "shared", "data", "gender-pay-gap", "gpg-2021-22-sample.csv");
  if (!existsSync(file)) return { skipped: "the real rows (../shared) are not beside the repo" };
  const csv = new TextEncoder().encode(await buildGenderPayGapYear(readFileSync(file, "utf8"), employers));
  const gc = (globalThis as { gc?: () => void }).gc;
  const run = async (measureMemory: boolean) => {
    gc?.();
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const notes = {};
    const started = performance.now();
    let rows = 0;
    for await (const r of parseGenderPayGap(csv, { fileName: "UK Gender Pay Gap Data - 2021 to 2022.csv", notes }).records) {
      if (!r.key) throw new Error("record without key");
      if (++rows % 1_000 === 0 && measureMemory) {
        gc?.();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
    }
    return { rows, ms: performance.now() - started, base, peak, notes };
  };
  await run(false); // warm-up
  const timing = await run(false);
  const memory = await run(true);
  const mb = (n: number) => +(n / 2 ** 20).toFixed(1);
  return {
    builtFrom: "the 10 real rows of shared/data/gender-pay-gap/gpg-2021-22-sample.csv, varied",
    employers,
    fileMB: mb(csv.length),
    rows: timing.rows,
    ms: Math.round(timing.ms),
    rowsPerSecond: Math.round((timing.rows / timing.ms) * 1000),
    baselineHeapMB: mb(memory.base),
    peakHeapMB: mb(memory.peak),
    notes: timing.notes,
  };
}
